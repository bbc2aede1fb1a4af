"""The 2007 edition (rules/original, rules/original-family): what is laid out for each player count,
start goods, five seats in the engine, the CLI, the state view and saves. The rules of each space are
tested by the scenario files of tests/scenarios/original/ and tests/scenarios/original-family/."""
from __future__ import annotations

import json

import pytest

from compiler import cli
from runtime.agents import RandomAgent
from runtime.engine import Game

# The green action cards by player count ("PREPARAZIONE", B: none for 1-2 players, 4 cards for 3,
# 6 for 4 and 5). One id covers the "2 Wood" cards of the 3- and 4-player sets.
CARDS = {
    1: set(), 2: set(),
    3: {"card_reed_or_stone", "card_2_wood", "card_1_clay", "card_occupation_3"},
    4: {"card_2_wood", "card_1_wood", "card_2_clay", "card_reed_stone_food", "card_occupation_4",
        "card_traveling_players"},
    5: {"card_4_wood", "card_3_clay", "card_reed_stone_wood", "card_animal", "card_room_or_traveling_players",
        "card_occupation_or_family_growth"},
}
BOARD = {"build_rooms_stables", "starting_player", "take_grain", "plow_field", "one_occupation", "day_laborer",
         "take_wood", "take_clay", "take_reed", "fishing"}
ROUND_CARDS = {
    1: {"sow_bake", "fencing", "major_minor_improvement", "take_sheep"},
    2: {"family_growth_minor", "renovation_improvement", "stone_stage_2"},
    3: {"take_vegetable", "take_boar"},
    4: {"stone_stage_4", "take_cattle"},
    5: {"family_growth_even_without_room", "plow_sow"},
    6: {"renovation_fences"},
}


def game(pack, n, seed=1):
    return Game(pack, n, seed=seed, agents=[RandomAgent(f"{seed}:{i}") for i in range(n)])


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_board_and_action_cards_by_player_count(original, n):
    ids = {s.id for s in game(original, n).spaces}
    assert ids == BOARD | CARDS[n]
    assert len(ids - BOARD) == {1: 0, 2: 0, 3: 4, 4: 6, 5: 6}[n]


def test_sixteen_action_cards_in_all():
    # 4 + 6 + 6 physical cards; the 3- and 4-player "2 Wood" cards share one id
    assert len(CARDS[3]) + len(CARDS[4]) + len(CARDS[5]) == 16


@pytest.mark.parametrize("n", [1, 3, 5])
def test_round_cards_shuffled_within_their_stages(original, n):
    for seed in range(5):
        order = game(original, n, seed).round_order
        assert len(order) == 14
        stages = original.rules.stages
        for stage, (first, last) in enumerate(stages, start=1):
            assert set(order[first - 1:last]) == ROUND_CARDS[stage]
    assert sorted(original.rules.harvest_rounds) == [4, 7, 9, 11, 13, 14]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_start_goods(original, n):
    for seed in range(4):
        g = game(original, n, seed)
        for p in g.players:
            want = 0 if n == 1 else (2 if p.idx == g.start_player else 3)
            assert p.goods["food"] == want, (n, seed, p.name)
            assert sum(k for good, k in p.goods.items() if good != "food") == 0


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_hands_are_dealt_from_the_2007_cards_there_are(original, original_family, n):
    """7 + 7 from decks E, I and K as they are encoded: full hands once the decks hold enough, an equal
    share of what there is until then; occupations only of those whose filter admits n players."""
    assert original.rules.hand == {"occupations": 7, "minors": 7}
    assert original_family.rules.hand is None
    assert set(original.decks) >= {"E", "I", "K"}
    occs = [cid for cid, c in original.cards.items() if c.kind == "occupation" and (c.players or 1) <= n]
    minors = [cid for cid, c in original.cards.items() if c.kind == "minor"]
    for seed in range(3):
        g = game(original, n, seed)
        for p in g.players:
            assert len(p.hand_occupations) == min(7, len(occs) // n)
            assert len(p.hand_minors) == min(7, len(minors) // n)
            assert set(p.hand_occupations) <= set(occs) and set(p.hand_minors) <= set(minors)
        dealt = [cid for p in g.players for cid in p.hand_occupations + p.hand_minors]
        assert len(dealt) == len(set(dealt))
        assert sorted(dealt + g.decks["occupations"] + g.decks["minors"]) == sorted(occs + minors)
    for p in game(original_family, n).players:
        assert p.hand_occupations == [] and p.hand_minors == []


def test_no_begging_category_and_no_tie_break(original):
    assert [cid for cid, _, _ in original.rules.scoring][-2:] == ["cards", "bonus"]
    assert "begging" not in {cid for cid, _, _ in original.rules.scoring}
    assert not original.rules.has_tie_break


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_family_version_layout(original_family, n):
    g = game(original_family, n)
    ids = {s.id for s in g.spaces}
    assert "one_occupation" not in ids and "card_occupation_3" not in ids and "card_occupation_4" not in ids
    assert ids == (BOARD - {"one_occupation"}) | (CARDS[n] - {"card_occupation_3", "card_occupation_4"})
    start = g.space_by_id["starting_player"]
    assert dict(start.accumulate) == ({"food": 0} if n == 1 else {"food": 1})


@pytest.mark.parametrize("pack_name", ["original", "original_family"])
def test_five_player_games_play_to_the_end(request, pack_name):
    pack = request.getfixturevalue(pack_name)
    for seed in range(3):
        g = game(pack, 5, seed)
        scores = g.play()
        assert g.finished and g.round == 14 and len(scores) == 5
        assert [s["player"] for s in scores] == ["P1", "P2", "P3", "P4", "P5"]
        for s in scores:
            assert s["total"] == sum(s["categories"].values())
        # every seat took turns: each placed at least 2 people in each of the 14 rounds
        assert {idx for idx, kind, _ in g.record if kind == "place"} == {0, 1, 2, 3, 4}


def test_six_players_are_refused_by_the_engine(original):
    with pytest.raises(ValueError) as exc:
        Game(original, 6, seed=1)
    assert str(exc.value) == "pack 'original' is for 1 to 5 players, not 6"


def test_cli_plays_five_players_and_refuses_six(tmp_path, capsys):
    build = str(tmp_path / "build")
    assert cli.main(["--build", build, "play", "--pack", "original", "--players", "5", "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == 5 and len(out["scores"]) == 5 and len(out["ranking"]) == 5
    assert cli.main(["--build", build, "play", "--pack", "original", "--players", "6", "--seed", "2"]) == 2
    captured = capsys.readouterr()
    assert captured.err == "error: pack 'original' is for 1 to 5 players, not 6\n"
    assert captured.out == ""


def test_cli_score_table_has_five_columns_and_no_tie_break_row(tmp_path, capsys):
    build = str(tmp_path / "build")
    assert cli.main(["--build", build, "play", "--pack", "original-family", "--players", "5", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("Final scores"):].splitlines()
    assert table[1].split() == ["P1", "P2", "P3", "P4", "P5"]
    assert "Card points (begging -3 each)" in out
    assert "Tie-break" not in out
    assert "Begging cards" not in out


def test_state_view_and_save_with_five_seats(original, tmp_path):
    from runtime.savegame import read_save, restore, save_game
    agents = [RandomAgent(f"9:{i}") for i in range(4)] + [None]
    g = Game(original, 5, seed=9, agents=agents)
    request = g.run()
    while request.seat != 4:
        request = g.answer(0)
    view = g.view(4)
    assert view["player_count"] == 5 and [p["name"] for p in view["players"]] == ["P1", "P2", "P3", "P4", "P5"]
    assert view["pending"]["seat"] == 4
    assert {b["id"] for b in view["board"]} >= CARDS[5]
    for _ in range(30):                    # P5 answers a few requests, then the game is saved and restored
        request = g.answer(len(request.options) - 1)
        while request.seat != 4:
            request = g.answer(0)
    save_game(g, tmp_path / "five.json")
    back, _, _ = restore(read_save(tmp_path / "five.json"), original)
    again = back.run()
    assert (again.seat, again.kind, again.options) == (request.seat, request.kind, request.options)
    assert back.view(None) == g.view(None)


def test_bench_measures_five_player_games_of_the_pack_named_in_defaults(tmp_path):
    from compiler import bench
    from runtime.pack import defaults
    pack = defaults()["bench"]["five_player_games"]
    assert pack == "original-family"
    row = bench.bench_five_players(pack, tmp_path, games=10, runs=1)   # 20 games, the smallest run
    assert row["pack"] == pack and row["players"] == 5 and row["games_per_run"] == 20
    assert row["games_per_s_median"] > 0 and row["decisions_per_s_median"] > row["games_per_s_median"]


def test_packs_lists_both_2007_packs_with_their_description(capsys):
    assert cli.main(["packs"]) == 0
    out = capsys.readouterr().out
    assert ("original: Agricola (original edition, 2007) (1–5 players)\n"
            "    The 2007 edition for 1 to 5 players, with the green action cards laid out by player count and "
            "hands dealt from decks E, I and K (equal shares while the decks are short of a full deal).\n") in out
    assert ("original-family: Agricola (original edition, 2007), family version (1–5 players, extends original)\n"
            "    The 2007 family version for 1 to 5 players, without hand cards; the Starting Player space collects "
            "food (2 to 5 players) and only major improvements are built.\n") in out
