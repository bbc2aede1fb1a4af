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

from test_campaign import CAMPAIGN_PACKS
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
    "revised-teams": (4,),
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


@pytest.mark.parametrize("pid", sorted(VARIANTS) + sorted(CAMPAIGN_PACKS))
def test_every_variant_pack_has_a_page_of_what_it_changes(build_root, pid):
    """Each variant's printable reference has its "What this variant changes" section, and it is not
    empty: a setting of game.yaml in words beside the base's, or action spaces, cards … added or changed."""
    model = docs.build_model(Compiler(ROOT, build_root), pid)
    v = model["variant"]
    assert v is not None and v["base"] in ("revised", "original"), pid
    assert v["game"] or any(s["items"] for s in v["sections"]), f"{pid}: the page names no change"
    for c in v["game"]:
        assert c["new"] != c["old"] and c["key"], (pid, c)

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


def test_the_team_play_page_says_who_is_partnered_what_partners_do_and_how_a_team_scores(build_root):
    game, spaces = _changes("revised-teams", build_root)
    assert spaces == []
    assert game == [
        ("Teams", "none: every player plays alone", "4 players in teams of two: P1 with P3; P2 with P4"),
        ("Team score", "none: every player scores alone",
         "in each scoring category, the lower of the partners' points; the team with the highest total wins"),
        ("Partner acts", "none",
         "on Resource Market, Sheep Market, Pig Market, Cattle Market the player may pass goods to the partner "
         "and take goods from them, paying 1 food for each kind of good moved; build the partner a room for "
         "6 material, 3 reed (the material of the partner's house); build the partner a stable for 3 wood; "
         "fence on the partner's farm with the partner's fences, for 1 wood more for each 3 fences started "
         "there; plow a field on the partner's farm; a card that lowers a building price (rooms, renovations, "
         "stables, fences, improvements) lowers the partner's too")]


def _team_game(pack_loader, seed=7):
    g = Game(pack_loader("revised-teams"), 4, seed=seed, agents=[RandomAgent(f"{seed}:{i}") for i in range(4)],
             log=True)
    g.play()
    return g


def test_a_team_scores_the_lower_of_the_partners_points_in_each_category(pack_loader):
    g = _team_game(pack_loader)
    scores = g.scores
    teams = g.team_scores()
    assert [t["team"] for t in teams] == ["P1+P3", "P2+P4"]
    for t, (a, b) in zip(teams, ((0, 2), (1, 3))):
        for cid, _label, _fn in g.rules.scoring:
            assert t["categories"][cid] == min(scores[a]["categories"][cid], scores[b]["categories"][cid]), cid
        assert t["total"] == sum(t["categories"].values())
        assert t["tie_break"] == min(scores[a]["tie_break"], scores[b]["tie_break"])
    # the ranking puts the winning team's players first, and the report says which team won
    best = max(teams, key=lambda t: (t["total"], t["tie_break"]))
    assert set(g.ranking()[:2]) == set(best["seats"])
    from runtime.report import score_table
    table = score_table(g)
    assert "Team scores (the lower of the partners' points in each category)" in table
    assert table.splitlines()[-1] == f"Winning team: {best['team']}"


def test_the_team_table_has_a_column_of_8_for_each_team(pack_loader):
    # before any round every farm scores alike; team names of 5 letters get the least width, 8 characters
    from runtime.report import score_table
    g = Game(pack_loader("revised-teams"), 4, seed=1, agents=[RandomAgent(i) for i in range(4)])
    table = score_table(g).splitlines()
    start = table.index("Team scores (the lower of the partners' points in each category)")
    assert table[start + 1:start + 3] == [" " * 23 + "   P1+P3   P2+P4", "Fields" + " " * 17 + "      -1      -1"]
    assert table[start + 16:] == [
        "-" * (23 + 2 * 8),
        "Total" + " " * 18 + "     -14     -14",
        "Tie-break (resources)  " + "       0       0",
        "",
        "Shared win: teams P1+P3, P2+P4",
    ]


def test_the_team_score_uses_each_category_of_the_weaker_partner(pack_loader):
    pack = pack_loader("revised-teams")
    g = Game(pack, 4, seed=1, agents=[RandomAgent(i) for i in range(4)])
    p1, p3 = g.players[0], g.players[2]
    p1.goods["sheep"], p3.goods["sheep"] = 0, 0
    p1.goods["grain"], p3.goods["grain"] = 8, 1       # grain: P1 4 points, P3 1 point
    p1.people, p3.people = 2, 4                        # family: P1 6 points, P3 12 points
    p1.begging, p3.begging = 0, 2
    team = g.team_scores()[0]
    mine, theirs = g.score(p1)["categories"], g.score(p3)["categories"]
    assert (mine["grain"], theirs["grain"], team["categories"]["grain"]) == (4, 1, 1)
    assert (mine["family"], theirs["family"], team["categories"]["family"]) == (6, 12, 6)
    assert (mine["begging"], theirs["begging"], team["categories"]["begging"]) == (0, -6, -6)


def test_a_change_of_the_stable_price_applies_to_a_stable_built_for_the_partner(pack_loader):
    """A card's 'cost of stable: -1 wood' lowers the team price of a stable for the partner (3 wood), the
    owner's card and, the pack sharing building prices, the partner's card; a change of room prices does
    not. (No card of the revised decks changes the price of stables: the change is put in as a card's
    install puts it.)"""
    from runtime import primitives as P
    from runtime.payments import price_cache_for

    def give(q, kind, targets, goods):
        q.mods.setdefault("cost", []).append((kind, targets, goods))
        q.prices = price_cache_for(q)
    for owner in (0, 2):
        g = Game(pack_loader("revised-teams"), 4, seed=1)
        p1 = g.players[0]
        p1.goods["wood"] = 2
        assert P.partner_stable_options(g, p1) == [(("wood", 3),)]
        assert P.partner_stable_cells(g, p1) == (None, 0)
        give(g.players[owner], "delta", ("room",), (("wood", -1),))
        assert P.partner_stable_options(g, p1) == [(("wood", 3),)]
        give(g.players[owner], "delta", ("stable",), (("wood", -1),))
        assert P.partner_stable_options(g, p1) == [(("wood", 2),)], owner
        assert P.partner_stable_cells(g, p1)[0] is g.players[2]


def test_a_teams_section_that_does_not_fit_the_table_is_refused(tmp_path, capsys):
    import shutil
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    (tmp_path / "rules/mine").mkdir()
    game = tmp_path / "rules/mine/game.yaml"
    for teams, where, message in (
            ("{players: 3, partners: opposite}", "5:31", "teams: partners sitting opposite need an even number of players, not 3"),
            ("{players: 5, partners: opposite}", "5:18", "teams: 5 players is outside this pack's 1 to 4 players"),
            ("{players: 4, partners: '1+2, 2+4'}", "5:31",
             "teams: partners is 'opposite' or teams of seats naming every seat from 1 to 4 once, e.g. '1+2, 3+4'"),
            ("{players: 4, partners: opposite, exchange_tag: animal_markt}", "5:55",
             "no action space has the tag 'animal_markt' (did you mean 'animal_market'?)")):
        game.write_text(f"extends: revised\nid: mine\nname: Mine\ndescription: x\nteams: {teams}\n", encoding="utf-8")
        assert cli.main(["--root", str(tmp_path), "validate", str(tmp_path / "rules/mine")]) == 2, teams
        err = capsys.readouterr().err
        assert f"rules/mine/game.yaml:{where}: error[" in err and f"]: {message}\n" in err, err
    game.write_text("extends: revised\nid: mine\nname: Mine\ndescription: x\nteams: {players: 4, partners: '1+2, 3+4'}\n",
                    encoding="utf-8")
    assert cli.main(["--root", str(tmp_path), "validate", str(tmp_path / "rules/mine")]) == 0


def test_a_team_pack_is_for_its_number_of_players(pack_loader):
    with pytest.raises(ValueError) as err:
        Game(pack_loader("revised-teams"), 3, seed=1)
    assert str(err.value) == "pack 'revised-teams' is for 4 to 4 players, not 3"


def test_playing_a_team_pack_with_another_number_of_players_is_refused(capsys):
    assert cli.main(["play", "--pack", "revised-teams", "--players", "2"]) == 2
    assert capsys.readouterr().err == "error: pack 'revised-teams' is for 4 to 4 players, not 2\n"


def test_play_json_of_a_team_game_gives_the_team_scores(capsys):
    assert cli.main(["play", "--pack", "revised-teams", "--players", "4", "--agents", "random", "--seed", "2",
                     "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [t["team"] for t in out["teams"]] == ["P1+P3", "P2+P4"]
    by_name = {s["player"]: s for s in out["scores"]}
    for t in out["teams"]:
        a, b = (by_name[n] for n in t["team"].split("+"))
        assert t["categories"] == {c: min(a["categories"][c], b["categories"][c]) for c in a["categories"]}
    best = max(out["teams"], key=lambda t: (t["total"], t["tie_break"]))
    assert set(out["ranking"][:2]) == set(best["team"].split("+"))


def test_the_state_view_shows_the_teams_and_each_players_partner(pack_loader):
    g = _team_game(pack_loader, seed=3)
    view = g.view(seat=0)
    assert [p["partner"] for p in view["players"]] == ["P3", "P4", "P1", "P2"]
    teams = view["teams"]
    assert [t["players"] for t in teams] == [["P1", "P3"], ["P2", "P4"]]
    assert [t["total"] for t in teams] == [t["total"] for t in g.team_scores()]
    assert Game(pack_loader("revised"), 2, seed=1).view(seat=0)["teams"] is None


def test_partner_acts_happen_in_seeded_team_games(pack_loader):
    """Random agents use every partner act over a few games (each is tested exactly in team_play.yaml)."""
    seen = set()
    for seed in range(6):
        for line in _team_game(pack_loader, seed).log:
            if " passes 1 " in line:
                seen.add("goods")
            elif "'s farm at " in line:
                seen.add("plow")
            elif " fences of P" in line:
                seen.add("fence")
            elif " builds P" in line:
                seen.add("room" if " room at " in line else "stable")
    assert seen == {"goods", "plow", "fence", "room", "stable"}, seen


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
