"""The variant packs of the rulebooks (docs/variants.md): each is listed with its source passage, has
its "what this variant changes" page, plays the rule it names (scenario files in
tests/scenarios/variants/ cover the rest), and keeps the game's invariants over many seeded games."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from compiler import cli, docs
from compiler.build import Compiler
from runtime.agents import GreedyAgent, RandomAgent
from runtime.engine import Game

from test_invariants import CheckedGame

ROOT = Path(__file__).resolve().parent.parent

# pack id -> the player counts its rule is about
VARIANTS = {
    "revised-optional-tiles": (2, 3, 4),
    "revised-side-job": (2, 3, 4),
    "revised-animals-housed-first": (1, 2, 3, 4),
    "revised-animals-stay": (1, 2, 3, 4),
    "revised-one-pasture-per-kind": (1, 2, 3, 4),
    "revised-unfinished-fences": (1, 2, 3, 4),
    "revised-pastures-apart": (1, 2, 3, 4),
    "revised-three-food-snake": (2, 3, 4),
    "revised-copse-2p": (2,),
    "revised-draft": (2, 3, 4),
    "revised-draft-together": (2, 3, 4),
    "revised-draft-8": (2, 3, 4),
    "revised-draft-quick": (2, 3, 4),
    "revised-deal-10-keep-7": (1, 2, 3, 4),
    "revised-redraw": (1, 2, 3, 4),
    "revised-swap-and-draw": (1, 2, 3, 4),
    "revised-solo-choices": (1,),
    "revised-six-and-one-passing": (1, 2, 3, 4),
    "revised-occupations-by-class": (3, 4),
    "revised-open-display": (1, 2, 3, 4),
}


def test_every_variant_pack_is_listed_with_its_source_passage(capsys):
    assert cli.main(["packs", "--json"]) == 0
    listed = {p["id"]: p for p in json.loads(capsys.readouterr().out)}
    for pid in VARIANTS:
        assert listed[pid]["extends"] == "revised", pid
        assert "§" in listed[pid]["description"] or "appendix" in listed[pid]["description"], \
            f"{pid}: the description names its passage"


def _changes(pid, build_root):
    model = docs.build_model(Compiler(ROOT, build_root), pid)
    v = model["variant"]
    return ([(c["key"], c["old"], c["new"]) for c in v["game"]],
            [(s["title"], i["change"], i["name"], i["new"]) for s in v["sections"] for i in s["items"]])


def test_the_variant_pages_say_what_each_house_rule_changes(build_root):
    assert _changes("revised-three-food-snake", build_root) == ([
        ("The start player gets", "0 food with 1 player, 2 food with 2 or more players",
         "0 food with 1 player, 3 food with 2 or more players"),
        ("Placement order", "every placement in turn order, the start player first",
         "in round 1 every player's second person is placed in reverse turn order, the last player first")], [])
    assert _changes("revised-animals-housed-first", build_root)[0] == [
        ("Animals without room", "cooked when the player can, else back to the supply",
         "animals that find no room are not turned into food on arrival (only housed animals can be cooked); "
         "the rest go back to the supply")]
    assert _changes("revised-animals-stay", build_root)[0] == [
        ("Animals without room", "cooked when the player can, else back to the supply",
         "animals that find no room are cooked when the player can; those taken from an action space that are "
         "neither kept nor cooked stay on it")]
    assert _changes("revised-one-pasture-per-kind", build_root)[0] == [
        ("Pastures per animal kind", "no limit", "animals of one kind live in at most 1 pasture")]
    assert _changes("revised-pastures-apart", build_root)[0] == [
        ("Where a new pasture goes", "next to a pasture already fenced (the first one anywhere)",
         "anywhere on the farm; it need not touch the pastures already fenced")]
    assert _changes("revised-unfinished-fences", build_root)[0] == [
        ("Unfinished fences", "none: every fence built closes a pasture",
         "a fencing action may build single fences that close nothing yet; a later fencing closes the pasture "
         "with the fences still missing")]


def test_the_optional_tiles_page_lists_the_tile_spaces_and_their_shared_use(build_root):
    game, spaces = _changes("revised-optional-tiles", build_root)
    assert game == []
    shared = " (One person a round between the spaces of the optional tile.)"
    assert spaces == [
        ("Action spaces", "added", "Copse", "Collects 1 wood every round; take everything on it." + shared),
        ("Action spaces", "added", "Resource Market", "Get 1 stone and 1 food." + shared),
        ("Action spaces", "added", "Animal Market",
         "Choose one: get 1 sheep and 1 food, get 1 wild boar or pay 1 food to get 1 cattle." + shared),
        ("Action spaces", "added", "Modest Wish for Children",
         "Have a child (you need a free room) if from round 5." + shared)]


def _placements(game):
    return [line.split("→")[0].strip() for line in game.log if "→" in line]


def test_round_one_second_people_are_placed_in_reverse_order(pack_loader):
    pack = pack_loader("revised-three-food-snake")
    g = Game(pack, 3, seed=4, agents=[RandomAgent(i) for i in range(3)], log=True)
    g.play()
    log = g.log
    round1 = log[log.index("Round 1"):log.index("Round 2")]
    round2 = log[log.index("Round 2"):log.index("Round 3")]
    order1 = [line.split("→")[0].strip() for line in round1 if "→" in line]
    first = order1[:3]
    assert order1[3:] == first[::-1]                      # P_last … P_start
    order2 = [line.split("→")[0].strip() for line in round2 if "→" in line]
    assert order2[3:6] == order2[:3]                      # round 2 goes in turn order again


def test_without_the_house_rule_round_one_goes_in_turn_order(revised):
    g = Game(revised, 3, seed=4, agents=[RandomAgent(i) for i in range(3)], log=True)
    g.play()
    log = g.log
    round1 = log[log.index("Round 1"):log.index("Round 2")]
    order1 = [line.split("→")[0].strip() for line in round1 if "→" in line]
    assert order1[3:6] == order1[:3]


def _play_checked(pack, n, seed, greedy):
    agents = [GreedyAgent(f"{seed}:{i}") if greedy else RandomAgent(f"{seed}:{i}") for i in range(n)]
    g = CheckedGame(pack, n, seed=seed, agents=agents)
    try:
        g.play()
    except AssertionError as exc:
        raise AssertionError(f"{pack.id}, {n} players, seed {seed}: {exc}") from exc
    assert g.finished and g.round == g.last_round and g.steps_checked > 0
    return g


@pytest.mark.parametrize("pid", sorted(VARIANTS))
def test_a_few_seeded_games_of_each_variant_keep_the_invariants(pack_loader, pid):
    pack = pack_loader(pid)
    for n in VARIANTS[pid]:
        _play_checked(pack, n, 50_000 + n, greedy=False)
    _play_checked(pack, VARIANTS[pid][0], 50_100, greedy=True)


@pytest.mark.slow
@pytest.mark.parametrize("pid", sorted(VARIANTS))
def test_two_hundred_seeded_games_of_each_variant_keep_the_invariants(pack_loader, pid):
    """200 seeded games per variant pack: 100 between random agents and 100 between greedy agents,
    over the player counts the variant is about."""
    pack = pack_loader(pid)
    counts = VARIANTS[pid]
    for i in range(200):
        _play_checked(pack, counts[i % len(counts)], 60_000 + i, greedy=i % 2 == 1)
