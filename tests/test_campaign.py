"""Campaigns (docs/variants.md, Campaigns): a set-up given from outside the pack (runtime/given_setup.py),
the campaign rules of game.yaml, the campaign file and ``agricola campaign new/next/status``."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compiler import campaign as C
from compiler import cli, docs
from compiler.build import Compiler
from runtime.agents import GreedyAgent, RandomAgent
from runtime.engine import Game
from runtime.savegame import read_save, restore, save_game

from test_invariants import CheckedGame

ROOT = Path(__file__).resolve().parent.parent
CAMPAIGN_PACKS = {"revised-campaign": 4, "revised-campaign-solo": 1, "original-campaign-solo": 1}


@pytest.fixture()
def cwd(tmp_path, monkeypatch, build_root):
    """Commands run in a fresh folder, compiling into the session's build folder."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def agricola(build_root, *args) -> int:
    return cli.main(["--build", str(build_root), *args])


def first_request_state(pack, setup, seed=5, n=None):
    """A game with ``setup`` held at its first request: the set-up's cards are in play by then."""
    n = n or len(setup["seats"])
    g = Game(pack, n, seed=seed, setup=setup)
    g.run()
    return g


# ---------------------------------------------------------------- the set-up from outside


def _occupation(pack, food: int) -> str:
    """An occupation (for 1+ players) whose printed cost is ``food`` food (0: no cost) and that does nothing
    when played and nothing before round 1 (so that the goods of a set-up can be counted exactly)."""
    for cid, card in sorted(pack.cards.items()):
        if card.kind == "occupation" and (card.players or 1) == 1 and not card.on_play and not card.latches \
                and not card.modifiers and card.cost == ((("food", food),) if food else ()):
            return cid
    raise AssertionError(f"pack '{pack.id}' has no such occupation")


def test_a_setup_gives_start_player_goods_cards_in_play_and_hand_sizes(original):
    free, costly = _occupation(original, 0), _occupation(original, 2)
    setup = {"start_player": 1, "seats": [
        {"goods": {"food": 3}, "occupations": [free], "hand": {"occupations": 5, "minors": 6}},
        {"occupations": [costly]}]}
    g = first_request_state(original, setup)
    p1, p2 = g.players
    assert g.start_player == 1
    # the start player's 2 food (2 players) less the printed cost of 2 food; the other 3 + 3
    assert (p1.goods["food"], p2.goods["food"]) == (6, 0)
    assert p1.occupations == [free] and p2.occupations == [costly]
    assert (len(p1.hand_occupations), len(p1.hand_minors)) == (5, 6)
    assert (len(p2.hand_occupations), len(p2.hand_minors)) == (7, 7)
    dealt = set(p1.hand_occupations + p2.hand_occupations + g.decks["occupations"])
    assert not dealt & {free, costly}   # cards in play are never dealt


def test_a_given_occupation_whose_cost_cannot_be_paid_goes_back_into_the_deck(original):
    costly = _occupation(original, 2)   # the start player of a solo game has no food
    g = first_request_state(original, {"seats": [{"occupations": [costly]}]})
    assert g.players[0].occupations == [] and g.returned == [(0, costly)]
    assert costly in g.decks["occupations"]


def test_a_setup_that_does_not_fit_the_pack_is_refused_in_words(original):
    with pytest.raises(ValueError, match=r"^set-up: seat 1: 'no_such_card' is not an occupation of pack 'original'$"):
        Game(original, 1, setup={"seats": [{"occupations": ["no_such_card"]}]})
    with pytest.raises(ValueError, match=r"^set-up: start_player 2 is not a seat of a 2-player game \(0 to 1\)$"):
        Game(original, 2, setup={"start_player": 2})
    with pytest.raises(ValueError, match=r"^set-up: 'seats' must list 2 seats$"):
        Game(original, 2, setup={"seats": [{}]})


GOODS = "food, grain, vegetable, wood, clay, reed, stone, sheep, boar, cattle"


@pytest.mark.parametrize("setup,words", [
    ([{}], "a set-up is a mapping with 'start_player' and 'seats'"),
    ({"seats": [{}, {}], "players": 2, "decks": []},
     "a set-up has no key 'decks' (its keys are 'start_player' and 'seats')"),
    ({"seats": [{}, ["food"]]}, "set-up: seat 2 is not a mapping"),
    ({"seats": [{"goods": {}, "hand": {}, "cards": [], "bonus": 1}, {}]},
     "set-up: seat 1 has no key 'bonus' (its keys are 'goods', 'occupations' and 'hand')"),
    ({"seats": [{}, {"goods": {"gold": 1}}]},
     f"set-up: seat 2 starts with 1 'gold': goods are the pack's ({GOODS}), each a whole number from 0"),
    ({"seats": [{"goods": {"food": -1}}, {}]},
     f"set-up: seat 1 starts with -1 'food': goods are the pack's ({GOODS}), each a whole number from 0"),
    ({"seats": [{"goods": {"food": True}}, {}]},
     f"set-up: seat 1 starts with True 'food': goods are the pack's ({GOODS}), each a whole number from 0"),
    ({"seats": [{"goods": {"wood": 1.5}}, {}]},
     f"set-up: seat 1 starts with 1.5 'wood': goods are the pack's ({GOODS}), each a whole number from 0"),
    ({"seats": [{"occupations": ["FREE"]}, {"occupations": ["FREE"]}]},
     "set-up: occupation 'FREE' is in play twice"),
    ({"seats": [{"hand": {"occupations": 2, "majors": 1}}, {}]},
     "set-up: seat 1: 'hand' gives a whole number from 0 for 'occupations' and 'minors'"),
    ({"seats": [{}, {"hand": {"minors": -1}}]},
     "set-up: seat 2: 'hand' gives a whole number from 0 for 'occupations' and 'minors'"),
    ({"seats": [{}, {"hand": {"minors": False}}]},
     "set-up: seat 2: 'hand' gives a whole number from 0 for 'occupations' and 'minors'"),
    ({"seats": [{}, {"hand": {"minors": "7"}}]},
     "set-up: seat 2: 'hand' gives a whole number from 0 for 'occupations' and 'minors'"),
    ({"seats": [{"hand": [6, 7]}, {}]},
     "set-up: seat 1: 'hand' gives a whole number from 0 for 'occupations' and 'minors'"),
])
def test_each_key_of_a_setup_is_checked_against_the_pack(original, setup, words):
    """A set-up from outside (a campaign file, a save, a library caller) that is not of the documented
    shape is refused before the game starts, saying what is wrong and what is allowed."""
    free = _occupation(original, 0)
    setup = json.loads(json.dumps(setup).replace('"FREE"', json.dumps(free)))
    words = words.replace("FREE", free)
    with pytest.raises(ValueError) as exc:
        Game(original, 2, setup=setup)
    assert str(exc.value) == words


def test_a_setup_in_normal_form_keeps_only_what_it_gives(original):
    from runtime import given_setup
    setup = {"seats": [{"goods": {"wood": 2, "food": 0, "clay": 1}, "hand": {"minors": 3, "occupations": 0}},
                       {"goods": None, "occupations": None, "hand": None}]}
    assert given_setup.normal(original, 2, setup) == {"start_player": None, "seats": [
        {"goods": {"clay": 1, "wood": 2}, "occupations": [], "hand": {"occupations": 0, "minors": 3}},
        {"goods": {}, "occupations": []}]}
    assert given_setup.normal(original, 2, {}) == {"start_player": None, "seats": [
        {"goods": {}, "occupations": []}, {"goods": {}, "occupations": []}]}
    assert given_setup.normal(original, 2, None) is None


def test_a_game_with_a_setup_is_saved_and_resumed_with_it(original, tmp_path):
    free = _occupation(original, 0)
    setup = {"start_player": 0, "seats": [{"goods": {"food": 2}, "occupations": [free]}, {}]}
    g = Game(original, 2, seed=9, agents=[RandomAgent("9:0"), RandomAgent("9:1")], setup=setup)
    g.play()
    doc = save_game(g, tmp_path / "game.json")
    assert doc["setup"]["seats"][0]["occupations"] == [free]
    again, _, pending = restore(read_save(tmp_path / "game.json"), original)
    assert again.play() == g.scores and not pending
    clone_source = Game(original, 2, seed=9, agents=[RandomAgent("9:0"), RandomAgent("9:1")], setup=setup)
    assert clone_source.clone().play() == g.scores


# ---------------------------------------------------------------- the campaign rules


def test_every_campaign_pack_is_listed_with_its_source_passage(capsys):
    assert cli.main(["packs", "--json"]) == 0
    listed = {p["id"]: p for p in json.loads(capsys.readouterr().out)}
    for pid in CAMPAIGN_PACKS:
        assert "§8" in listed[pid]["description"] or "rulebook" in listed[pid]["description"], pid
    assert listed["original-campaign-solo"]["extends"] == "original"


def _changes(pid, build_root):
    model = docs.build_model(Compiler(ROOT, build_root), pid)
    return [(c["key"], c["old"], c["new"]) for c in model["variant"]["game"]]


def test_the_campaign_pages_say_what_the_campaign_changes(build_root):
    assert _changes("revised-campaign", build_root) == [
        ("Campaign", "none: each game stands alone",
         "3 games in a row for 4 players, each game carrying into the next (agricola campaign)"),
        ("Campaign points by rank", "none", "after game 1: 7/5/4/3; after game 2: 8/5/3/2; after game 3: 9/6/3/1"),
        ("The campaign's winner", "none", "most campaign points; a tie is broken by the total of the game scores"),
        ("Start player", "none", "each game's winner starts the next game"),
        ("Food for the last", "none", "each game's last player gets 1 more food at the start of the next game"),
        ("Occupations kept", "none",
         "after each game each player may keep 1 occupation they had in play; only the occupation kept after the "
         "last game is carried (it may be kept again); in the next game they are in play from the start, without "
         "an action or the occupation fee; a cost printed on the card is paid at the start, and one that cannot "
         "be paid goes back into the deck")]
    solo = dict((k, new) for k, _old, new in _changes("original-campaign-solo", build_root))
    assert solo["Hand in a campaign"] == ("for each occupation in play from the start, the hand holds 1 minor "
                                          "improvement fewer (of 7 occupations, 7 minor improvements)")
    assert solo["Targets"] == "50, 55, 59, 62, 64, 65 in games 1 to 6; then the target rises by 1 a game"
    assert solo["Food over the target"] == ("each game starts with 1 food for every point the previous game scored "
                                            "over its target (rounded down)")
    revised = dict((k, new) for k, _old, new in _changes("revised-campaign-solo", build_root))
    assert revised["Targets"] == "50, 55, 62, 64, 65, 66, 67 in games 1 to 7; then the target rises by 1 a game"
    assert revised["A missed target"] == ("the game is played again at the same target, without food over the "
                                          "target and without keeping an occupation")


def _pack_root(tmp_path, campaign: str) -> Path:
    shutil.copytree(ROOT / "rules" / "revised", tmp_path / "rules" / "revised")
    (tmp_path / "rules" / "mine").mkdir()
    (tmp_path / "rules" / "mine" / "game.yaml").write_text(
        "extends: revised\nid: mine\nname: Mine\ncampaign:\n" + campaign, encoding="utf-8")
    return tmp_path


def test_campaign_rules_that_do_not_fit_are_located_errors(tmp_path, capsys):
    root = _pack_root(tmp_path, "  players: [5]\n  points_by_rank:\n    - [3, 2, 1]\n"
                                "  food_over_target: {points: 2, food: 1}\n")
    assert cli.main(["--root", str(root), "--build", str(tmp_path / "build"), "validate", str(root / "rules" / "mine")]) == 2
    err = capsys.readouterr().err
    assert "rules/mine/game.yaml:5:12: error[E139]: the campaign is for 5 players, but the pack is for 1 to 4\n" in err
    assert ("rules/mine/game.yaml:7:7: error[E139]: campaign points after game 1 give 3 ranks, but the campaign "
            "is for up to 5 players\n") in err
    assert ("rules/mine/game.yaml:5:3: error[E139]: the campaign gives food over the target or replays a missed "
            "target, but 'targets' gives none\n") in err


# ---------------------------------------------------------------- campaigns played


def _played(pack, doc, kinds, game_class=None):
    seed = C.game_seed(doc)
    specs = [{"kind": k, "seed": f"{seed}:{i}"} for i, k in enumerate(kinds)]
    return C.play_next(pack, doc, specs, seed, game_class=game_class)


def test_a_campaigns_second_game_starts_with_the_carried_occupations_and_food(pack_loader):
    pack = pack_loader("revised-campaign")
    doc = C.new_campaign(pack, 4, seed=3)
    after, game = _played(pack, doc, ["random", "greedy", "random", "greedy"])
    first = after["games"][0]
    ranking, kept = first["ranking"], first["kept"]
    assert first["campaign_points"] == [dict(zip(ranking, (7, 5, 4, 3)))[i] for i in range(4)]
    assert all(len(k) <= 1 and set(k) <= set(game.players[i].occupations) for i, k in enumerate(kept))
    assert any(kept), "someone keeps an occupation"
    setup = after["next"]["setup"]
    assert setup["start_player"] == ranking[0]
    second = first_request_state(pack, setup, seed=C.game_seed(after))
    usual = Game(pack, 4, seed=C.game_seed(after), setup={"start_player": ranking[0]})
    for i, p in enumerate(second.players):
        assert p.occupations == kept[i]
        extra = 1 if i == ranking[-1] else 0
        assert p.goods["food"] == usual.players[i].goods["food"] + extra, i
        assert len(p.hand_occupations) == 7   # kept occupations come on top of the hand (up to 8 played)


def test_the_solo_campaign_fixes_an_occupation_and_pays_food_over_the_target(pack_loader):
    pack = pack_loader("revised-campaign-solo")
    doc = C.new_campaign(pack, 1, seed=2)
    doc["next"]["target"] = -100   # a target the agent reaches (the rules' own are tested in words above)
    after, game = _played(pack, doc, ["random"])
    score = after["games"][0]["scores"][0]
    assert after["games"][0]["reached"] is True
    fixed = after["games"][0]["kept"][0]
    assert len(fixed) == 1 and fixed[0] in game.players[0].occupations
    assert after["next"]["game"] == 2 and after["next"]["target"] == 55
    assert after["next"]["setup"]["seats"] == [{"goods": {"food": (score + 100) // 2}, "occupations": fixed,
                                                 "hand": {"occupations": 6}}]
    second = first_request_state(pack, after["next"]["setup"])
    assert second.players[0].occupations == fixed and len(second.players[0].hand_occupations) == 6
    # the second game missed (55): it is played again, without food and with the same fixed occupation
    again, _ = _played(pack, after, ["random"])
    assert again["games"][1]["reached"] is False
    assert again["next"]["game"] == 2 and again["next"]["setup"]["seats"] == [
        {"goods": {}, "occupations": fixed, "hand": {"occupations": 6}}]


def test_a_three_game_solo_campaign_end_to_end(cwd, build_root, capsys, pack_loader):
    pack_loader("original-campaign-solo")
    assert agricola(build_root, "campaign", "new", "solo.json", "--pack", "original-campaign-solo", "--seed", "4") == 0
    for kind in ("random", "greedy", "random"):
        assert agricola(build_root, "campaign", "next", "solo.json", "--agents", kind) == 0
    capsys.readouterr()
    assert agricola(build_root, "campaign", "status", "solo.json", "--json") == 0
    st = json.loads(capsys.readouterr().out)
    assert st["games_played"] == 3 and [g["target"] for g in st["results"]] == [50, 55, 59]
    assert st["next"]["game"] == 4 and st["next"]["target"] == 62
    doc = json.loads(Path("solo.json").read_text(encoding="utf-8"))
    fixed = []
    for g in doc["games"]:
        assert g["setup"]["seats"][0]["occupations"] == fixed
        assert g["setup"]["seats"][0]["hand"] == {"minors": 7 - len(fixed)}
        fixed = fixed + g["kept"][0]
    assert fixed, "the random agent played an occupation to keep"
    assert doc["next"]["setup"]["seats"][0]["occupations"] == fixed


def test_a_three_game_multiplayer_campaign_end_to_end(cwd, build_root, capsys, pack_loader):
    pack_loader("revised-campaign")
    assert agricola(build_root, "campaign", "new", "four.json", "--pack", "revised-campaign") == 0
    for _ in range(3):
        assert agricola(build_root, "campaign", "next", "four.json", "--agents", "random") == 0
    capsys.readouterr()
    assert agricola(build_root, "campaign", "status", "four.json") == 0
    out = capsys.readouterr().out
    doc = json.loads(Path("four.json").read_text(encoding="utf-8"))
    assert doc["finished"] and len(doc["games"]) == 3
    rows = [(7, 5, 4, 3), (8, 5, 3, 2), (9, 6, 3, 1)]
    total = [0] * 4
    for g, row in zip(doc["games"], rows):
        assert sorted(g["campaign_points"], reverse=True) == list(row)
        total = [t + k for t, k in zip(total, g["campaign_points"])]
    for before, g in zip(doc["games"], doc["games"][1:]):
        assert g["setup"]["start_player"] == before["ranking"][0]
        assert g["setup"]["seats"][before["ranking"][-1]]["goods"] == {"food": 1}
        assert [s["occupations"] for s in g["setup"]["seats"]] == before["kept"]
    assert f"Campaign points: {', '.join(f'P{i + 1} {k}' for i, k in enumerate(total))}" in out
    assert "The campaign is over." in out
    assert agricola(build_root, "campaign", "next", "four.json") == 2
    assert capsys.readouterr().err == ("error: four.json: the campaign is over: it has 3 games, all played "
                                       "('agricola campaign status' shows the result)\n")


# ---------------------------------------------------------------- the file


def test_new_never_replaces_a_file_and_needs_a_campaign_pack(cwd, build_root, capsys, pack_loader):
    pack_loader("revised")
    Path("taken.json").write_text("mine", encoding="utf-8")
    assert agricola(build_root, "campaign", "new", "taken.json", "--pack", "revised-campaign") == 2
    assert capsys.readouterr().err == ("error: taken.json: the file exists; 'campaign new' never replaces a file "
                                       "(give the path of a new file, or go on with 'agricola campaign next')\n")
    assert Path("taken.json").read_text(encoding="utf-8") == "mine"
    assert agricola(build_root, "campaign", "new", "c.json", "--pack", "revised") == 2
    assert capsys.readouterr().err == ("error: pack 'revised' has no campaign rules ('campaign' in its game.yaml); "
                                       "the campaign packs are listed by 'agricola packs'\n")
    assert agricola(build_root, "campaign", "new", "c.json", "--pack", "revised-campaign", "--players", "3") == 2
    assert capsys.readouterr().err == "error: the campaign of pack 'revised-campaign' is for 4 players, not 3\n"
    assert not Path("c.json").exists()


def _campaign_file(build_root, games=1) -> bytes:
    assert agricola(build_root, "campaign", "new", "c.json", "--pack", "original-campaign-solo") == 0
    for _ in range(games):
        assert agricola(build_root, "campaign", "next", "c.json", "--agents", "random") == 0
    return Path("c.json").read_bytes()


def test_a_damaged_or_edited_campaign_file_is_refused_and_left_as_it_is(cwd, build_root, capsys, pack_loader):
    pack_loader("original-campaign-solo")
    good = _campaign_file(build_root)
    capsys.readouterr()
    cases = {
        "cut": good[:len(good) // 2],
        "edited": good.replace(b'"seed": 1001,', b'"seed": 1002,', 1),
        "version": good.replace(b'"version": 1', b'"version": 7'),
        "other": b'{"format": "agricola-save"}',
        "not_utf8": b'{"format": \xff"agricola-campaign"}',
        "deep": b"[" * 100_000,
    }
    messages = {}
    for name, data in cases.items():
        Path("c.json").write_bytes(data)
        assert agricola(build_root, "campaign", "next", "c.json") == 2, name
        messages[name] = capsys.readouterr().err
        assert Path("c.json").read_bytes() == data, name
    assert cases["edited"] != good
    assert messages["cut"].startswith("c.json:") and "error[E163]: the campaign file is damaged or cut short" in \
        messages["cut"]
    line = good[:good.index(b'"check"')].count(b"\n") + 1
    assert messages["edited"] == (f"c.json:{line}:11: error[E165]: the campaign file was changed outside agricola "
                                  "(its 'check' does not match its content); it is not used, and left as it is\n")
    assert "error[E164]: campaign format version 7; this program reads version 1\n" in messages["version"]
    assert messages["other"] == "c.json:1:12: error[E163]: not an agricola campaign file\n"
    assert messages["not_utf8"] == "c.json:1:12: error[E163]: the campaign file is damaged (it is not UTF-8 text)\n"
    assert messages["deep"] == "c.json: the campaign file is damaged (its values are nested too deeply)\n"
    os.mkdir("folder.json")
    for name, message in (("missing.json", "missing.json: no such campaign file (start one with 'agricola "
                                           "campaign new')\n"),
                          ("folder.json", "folder.json: cannot read the campaign file: not a regular file (it is a "
                                          "folder)\n")):
        assert agricola(build_root, "campaign", "status", name) == 2
        assert capsys.readouterr().err == message


KILLER = """
import os, signal, sys
from runtime.engine import Game
from compiler import cli
real = Game.start_round
def start_round(self):
    if self.round == 7:   # half-way through the game: the process is killed
        os.kill(os.getpid(), signal.SIGKILL)
    return real(self)
Game.start_round = start_round
sys.exit(cli.main(sys.argv[1:]))
"""


def test_a_killed_next_leaves_the_campaign_as_before_that_game(cwd, build_root, pack_loader):
    pack_loader("original-campaign-solo")
    before = _campaign_file(build_root)
    shutil.copy("c.json", "twin.json")
    # (on the Python sources: KILLER replaces Game.start_round, which the compiled game would not call)
    env = dict(os.environ, PYTHONPATH=str(ROOT), AGRICOLA_PURE_PYTHON="1")
    killed = subprocess.run([sys.executable, "-c", KILLER, "--build", str(build_root), "campaign", "next", "c.json",
                             "--agents", "random"], env=env, capture_output=True, text=True, timeout=120)
    assert killed.returncode == -9, killed.stderr
    assert Path("c.json").read_bytes() == before
    assert not [p for p in cwd.iterdir() if p.name.endswith(".tmp")]
    # played again, the game is the one an uninterrupted run plays
    assert agricola(build_root, "campaign", "next", "c.json", "--agents", "random") == 0
    assert agricola(build_root, "campaign", "next", "twin.json", "--agents", "random") == 0
    assert Path("c.json").read_bytes() == Path("twin.json").read_bytes()


# ---------------------------------------------------------------- many games


def _campaign_games(pack, players, count, seed, greedy):
    """``count`` games of campaigns of ``pack`` (three games each), every one checked for invariants."""
    played = 0
    while played < count:
        doc = C.new_campaign(pack, players, seed=seed + played)
        for _ in range(min(3, count - played)):
            kinds = ["greedy" if greedy else "random"] * players
            doc, game = _played(pack, doc, kinds, game_class=CheckedGame)
            assert game.finished and game.steps_checked > 0
            played += 1
            if doc["finished"]:
                break
    return played


@pytest.mark.parametrize("pid", sorted(CAMPAIGN_PACKS))
def test_a_few_campaign_games_keep_the_invariants(pack_loader, pid):
    pack = pack_loader(pid)
    assert _campaign_games(pack, CAMPAIGN_PACKS[pid], 3, 70_000, greedy=False) == 3
    assert _campaign_games(pack, CAMPAIGN_PACKS[pid], 1, 70_100, greedy=True) == 1


@pytest.mark.slow
@pytest.mark.parametrize("pid", sorted(CAMPAIGN_PACKS))
def test_two_hundred_campaign_games_keep_the_invariants(pack_loader, pid):
    """200 seeded games per campaign pack, in campaigns of three games: 100 between random agents and 100
    between greedy agents, each with the set-up its campaign carries over."""
    pack = pack_loader(pid)
    assert _campaign_games(pack, CAMPAIGN_PACKS[pid], 100, 80_000, greedy=False) == 100
    assert _campaign_games(pack, CAMPAIGN_PACKS[pid], 100, 90_000, greedy=True) == 100


def test_the_campaign_file_schema_is_printed_by_agricola_schema(capsys):
    assert cli.main(["schema", "campaign"]) == 0
    assert json.loads(capsys.readouterr().out) == C.CAMPAIGN_SCHEMA
    assert cli.main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out)["campaign"] == C.CAMPAIGN_SCHEMA


# ---------------------------------------------------------------- a person's seat


class _Answers(RandomAgent):
    """A random agent that notes the number of each option it picks (as a person types it)."""

    def __init__(self, seed):
        super().__init__(seed)
        self.typed = []

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        pick = super().choose(game, player, kind, options, labels, prompt)
        self.typed.append(str(list(options).index(pick) + 1))
        return pick


def _typed_campaign(pack):
    """The first game of a solo campaign of ``pack`` (campaign seed 1) played by a random agent: the
    campaign after it and the numbers a person types to play the same game (and keep the same card)."""
    doc = C.new_campaign(pack, 1, seed=1)
    seed = C.game_seed(doc)
    agent = _Answers(f"{seed}:0")
    game = Game(pack, 1, seed=seed, agents=[agent], setup=doc["next"]["setup"])
    game.play()
    assert len(agent.typed) == len(game.record)   # every decision, none of a copy of the game
    after = C.after_game(pack, doc, game, seed, [{"kind": "open"}])
    return after, agent.typed


def _next_at_the_terminal(build_root, typed: str, *extra):
    return subprocess.run([sys.executable, "-m", "compiler.cli", "--root", str(ROOT), "--build", str(build_root),
                           "campaign", "next", "c.json", "--agents", "human", *extra],
                          input=typed, capture_output=True, text=True, timeout=300)


def test_a_person_plays_a_campaign_game_at_the_terminal_and_keeps_a_card(cwd, build_root, pack_loader):
    pack = pack_loader("original-campaign-solo")
    expected, typed = _typed_campaign(pack)
    kept = expected["games"][0]["kept"][0]
    assert len(kept) == 1   # the game keeps an occupation: the person is asked which
    assert agricola(build_root, "campaign", "new", "c.json", "--pack", "original-campaign-solo") == 0
    out = _next_at_the_terminal(build_root, "\n".join(typed) + "\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Campaign c.json, game 1 (target 50)\n")
    assert out.stdout.count("P1> ") == len(typed)
    assert "P1: The occupation to keep for the next game\n  1. " in out.stdout and "Final scores" in out.stdout
    assert out.stdout.rstrip().endswith(f"P1: in play: {pack.all_cards[kept[0]].name}; hand: 6 minors")
    doc = C.read_campaign(Path("c.json"), pack)
    assert doc == {**expected, "check": C.checksum(expected)}
    assert doc["games"][0]["agents"] == [{"kind": "open"}]
    assert doc["next"]["setup"]["seats"][0]["occupations"] == kept


@pytest.mark.parametrize("how", ["quits", "input ends", "quits at the keep"])
def test_a_person_who_stops_mid_game_leaves_the_campaign_file_as_it_was(cwd, build_root, pack_loader, how):
    pack = pack_loader("original-campaign-solo")
    _, typed = _typed_campaign(pack)
    assert agricola(build_root, "campaign", "new", "c.json", "--pack", "original-campaign-solo") == 0
    before = Path("c.json").read_bytes()
    given = {"quits": typed[:5] + ["q"], "input ends": typed[:5], "quits at the keep": typed[:-1] + ["q"]}[how]
    out = _next_at_the_terminal(build_root, "\n".join(given) + "\n")
    assert out.returncode == 0, out.stderr
    same = ("; the campaign file c.json is as it was before this game ('agricola campaign next c.json' plays "
            "this game again from its start)")
    last = out.stdout.rstrip().splitlines()[-1].removeprefix("P1> ")   # after the prompt (input is not echoed)
    if how == "quits at the keep":
        assert last == "stopped before the occupations to keep were chosen" + same
    else:
        assert last == "stopped at decision 6" + same
    assert Path("c.json").read_bytes() == before
    assert sorted(p.name for p in cwd.iterdir()) == ["c.json"]
