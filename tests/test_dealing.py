"""Dealing hand cards from a pack's decks (runtime/engine.py ``Game._deal``): 7 + 7 from the decks
chosen, occupations filtered by the number of players, equal shares when the decks are short of a
full deal, and the note `agricola play` prints then. A copy of the `original` pack with cards written
here (not real cards) makes the counts exact while the 2007 decks are being encoded."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler import cli
from compiler.build import Compiler
from runtime.agents import RandomAgent
from runtime.engine import Game
from runtime.pack import load_pack
from runtime.report import deal_note

ROOT = Path(__file__).resolve().parent.parent


def card_file(folder: Path, cid: str, kind: str, deck: str, players: str | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [f"id: {cid}", f"name: {cid.replace('_', ' ').title()}", f"kind: {kind}", f"deck: {deck}"]
    if kind == "occupation":
        lines.append(f"players: {players or '1+'}")
    else:
        lines.append("cost: 1 wood")
    lines.append("effects: |\n  on play: gain 1 food")
    (folder / f"{cid}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def make_root(tmp_path: Path, cards: dict) -> Path:
    """A project folder with the `original` pack and the cards ``{deck: [(id, kind, players), …]}``."""
    root = tmp_path / "root"
    (root / "rules").mkdir(parents=True)
    shutil.copytree(ROOT / "rules" / "original", root / "rules" / "original")
    shutil.copy(ROOT / "rules" / "defaults.yaml", root / "rules" / "defaults.yaml")
    for deck, entries in cards.items():
        for cid, kind, players in entries:
            card_file(root / "cards" / "original" / deck, cid, kind, deck, players)
    return root


def compiled(root: Path):
    build = root / "build"
    result = Compiler(root, build).compile("original")
    assert result.ok, result.report.render()
    return load_pack("original", build)


# deck E: 10 occupations (six 1+, two 3+, two 4+) and 9 minors; deck I: 3 occupations, 4 minors
CARDS = {
    "E": [(f"e_occ_{i}", "occupation", "1+") for i in range(6)]
         + [(f"e_occ3_{i}", "occupation", "3+") for i in range(2)]
         + [(f"e_occ4_{i}", "occupation", "4+") for i in range(2)]
         + [(f"e_minor_{i}", "minor", None) for i in range(9)],
    "I": [(f"i_occ_{i}", "occupation", "1+") for i in range(3)] + [(f"i_minor_{i}", "minor", None) for i in range(4)],
}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    root = make_root(tmp_path_factory.mktemp("dealing"), CARDS)
    return root, compiled(root)


def game(pack, n, seed=1, **kw):
    return Game(pack, n, seed=seed, agents=[RandomAgent(f"{seed}:{i}") for i in range(n)], **kw)


def test_the_pack_knows_its_decks_also_the_empty_one(small):
    _, pack = small
    assert pack.decks == ("E", "I", "K")     # K is named in game.yaml and has no card


@pytest.mark.parametrize("n, occupations, minors", [
    (1, 7, 7),     # 9 occupations for 1+ (of 13), 13 minors: full hands
    (2, 4, 6),     # 9 // 2, 13 // 2
    (3, 3, 4),     # 11 occupations admit 3 players (1+ and 3+): 11 // 3; 13 // 3
    (4, 3, 3),     # all 13 occupations: 13 // 4
    (5, 2, 2),
])
def test_short_decks_give_everyone_an_equal_share(small, n, occupations, minors):
    _, pack = small
    for seed in range(4):
        g = game(pack, n, seed)
        for p in g.players:
            assert (len(p.hand_occupations), len(p.hand_minors)) == (occupations, minors)
            for cid in p.hand_occupations:
                assert int(pack.cards[cid].players) <= n
        assert len({cid for p in g.players for cid in p.hand_occupations + p.hand_minors}) == n * (occupations + minors)


def test_a_full_deal_leaves_no_note_and_the_rest_in_the_deck(small):
    _, pack = small
    g = game(pack, 1)
    assert g.short_hands == {} and deal_note(g) is None
    assert len(g.decks["occupations"]) == 2 and len(g.decks["minors"]) == 6


def test_the_note_says_what_each_player_is_dealt(small):
    _, pack = small
    assert deal_note(game(pack, 3)) == (
        "note: decks E, I, K hold too few cards for full hands of 3 players: each player is dealt 3 of 7 "
        "occupations (11 in the decks) and 4 of 7 minor improvements (13 in the decks)")
    assert deal_note(game(pack, 2)) == (
        "note: decks E, I, K hold too few cards for full hands of 2 players: each player is dealt 4 of 7 "
        "occupations (9 in the decks) and 6 of 7 minor improvements (13 in the decks)")


def test_play_prints_the_note_once_on_stderr(small, capsys):
    root, _ = small
    argv = ["--root", str(root), "--build", str(root / "build"), "play", "--pack", "original", "--players", "3",
            "--agents", "random"]
    assert cli.main(argv + ["--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ("note: decks E, I, K hold too few cards for full hands of 3 players: each player is "
                            "dealt 3 of 7 occupations (11 in the decks) and 4 of 7 minor improvements (13 in the "
                            "decks)\n")
    assert captured.out.startswith("{")
    assert cli.main(argv) == 0
    captured = capsys.readouterr()
    assert captured.err.count("note: ") == 1 and "Final scores" in captured.out


def test_no_cards_at_all_deals_empty_hands_with_the_note(tmp_path, capsys):
    root = make_root(tmp_path, {})
    pack = compiled(root)
    g = game(pack, 2)
    assert all(p.hand_occupations == [] and p.hand_minors == [] for p in g.players)
    assert deal_note(g) == ("note: decks E, I, K hold too few cards for full hands of 2 players: each player is "
                            "dealt 0 of 7 occupations (none in the decks) and 0 of 7 minor improvements (none in "
                            "the decks)")
    assert g.play() and g.finished


def test_short_hands_play_to_the_end_and_cards_get_played(small):
    """Games with short hands end normally, and the 2007 board's occupation spaces and minor-improvement
    spaces play the cards dealt (every card here gains 1 food when played)."""
    _, pack = small
    played = 0
    for n in (1, 2, 3, 4, 5):
        for seed in range(3):
            g = game(pack, n, seed)
            g.play()
            assert g.finished and g.round == 14
            played += sum(len(p.occupations) + len(p.minors) for p in g.players)
    assert played > 0


# ---------------------------------------------------------------- choosing the decks

def test_chosen_decks_deal_only_their_cards(small):
    _, pack = small
    g = game(pack, 2, decks=["E"])
    assert g.chosen_decks == ("E",)
    for p in g.players:
        assert {pack.cards[c].deck for c in p.hand_occupations + p.hand_minors} == {"E"}
        assert (len(p.hand_occupations), len(p.hand_minors)) == (3, 4)    # 6 occupations for 2: 3; 9 minors: 4
    assert deal_note(g) == ("note: deck E holds too few cards for full hands of 2 players: each player is dealt "
                            "3 of 7 occupations (6 in the decks) and 4 of 7 minor improvements (9 in the decks)")
    # mixing decks is the default: every deck, in the same order as naming them all
    every = game(pack, 2, seed=5)
    named = game(pack, 2, seed=5, decks=["K", "I", "E"])
    assert [p.hand_occupations + p.hand_minors for p in every.players] == \
           [p.hand_occupations + p.hand_minors for p in named.players]


def test_an_unknown_deck_is_refused_by_the_engine(small):
    _, pack = small
    with pytest.raises(ValueError) as exc:
        Game(pack, 2, decks=["E", "Z"])
    assert str(exc.value) == "pack 'original' has no deck 'Z'; its decks are E, I, K"


def _cli(root, *argv):
    return cli.main(["--root", str(root), "--build", str(root / "build"), *argv])


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_an_unknown_deck_on_the_command_line(small, tmp_path, capsys, command):
    root, _ = small
    extra = ["--games", "1", "--out", str(tmp_path / "run"), "--quiet"] if command == "simulate" else []
    code = _cli(root, command, "--pack", "original", "--agents", "random", "--decks", "E,Z", *extra)
    assert code == 2
    assert capsys.readouterr().err == "error: --decks: pack 'original' has no deck 'Z'; its decks are E, I, K\n"
    assert not (tmp_path / "run").exists()


def test_play_names_the_decks_and_the_save_keeps_them_for_resume_and_replay(small, tmp_path, capsys):
    import json
    root, pack = small
    save = tmp_path / "game.json"
    assert _cli(root, "play", "--pack", "original", "--players", "2", "--agents", "random", "--seed", "4",
                "--decks", "I,E", "--save", str(save)) == 0
    out = capsys.readouterr()
    assert out.out.splitlines()[2] == "Hand cards from decks E, I"
    doc = json.loads(save.read_text(encoding="utf-8"))
    assert doc["decks"] == ["E", "I"]
    assert _cli(root, "replay", str(save)) == 0
    assert capsys.readouterr().out.startswith("replay ok: ")
    # the same game resumed from its first half deals the same hands and ends the same
    half = dict(doc, decisions=doc["decisions"][:len(doc["decisions"]) // 2], finished=False, final=None)
    save.write_text(json.dumps(half), encoding="utf-8")
    assert _cli(root, "resume", str(save), "--json") == 0
    assert json.loads(capsys.readouterr().out)["scores"] == doc["final"]["scores"]
    # a save whose decks the pack does not have is refused
    save.write_text(json.dumps(dict(doc, decks=["Q"])), encoding="utf-8")
    assert _cli(root, "resume", str(save)) == 2
    assert capsys.readouterr().err == (f"error: {save}: the save deals from deck 'Q', which pack 'original' does "
                                       "not have; its decks are E, I, K\n")


def test_a_save_without_decks_deals_from_every_deck(small, tmp_path, capsys):
    import json
    root, _ = small
    save = tmp_path / "game.json"
    assert _cli(root, "play", "--pack", "original", "--players", "2", "--agents", "random", "--save", str(save),
                "--json") == 0
    assert "decks" not in json.loads(save.read_text(encoding="utf-8"))


def test_simulate_deals_from_the_chosen_decks(small, tmp_path, capsys):
    import duckdb
    root, pack = small
    assert _cli(root, "simulate", "--pack", "original", "--players", "2", "--agents", "random", "--games", "3",
                "--decks", "I", "--workers", "1", "--out", str(tmp_path / "run"), "--quiet", "--json") == 0
    captured = capsys.readouterr()
    assert captured.err == ("note: deck I holds too few cards for full hands of 2 players: each player is dealt 1 of "
                            "7 occupations (3 in the decks) and 2 of 7 minor improvements (4 in the decks)\n")
    dealt = duckdb.sql(f"select distinct unnest(dealt) from read_parquet('{tmp_path}/run/players/*.parquet')").fetchall()
    assert dealt and {pack.cards[c].deck for c, in dealt} == {"I"}


def test_the_web_server_deals_from_the_chosen_decks_and_keeps_them(small, tmp_path):
    import warnings
    from compiler.web.app import create_app
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    root, pack = small
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(root, root / "build", db, hot_reload=False)) as client:
        r = client.post("/api/games", json={"pack": "original", "seats": ["human", "random"], "seed": 2, "decks": ["Z"]})
        assert r.status_code == 400 and r.json() == {"error": "pack 'original' has no deck 'Z'; its decks are E, I, K"}
        made = client.post("/api/games", json={"pack": "original", "seats": ["human", "random"], "seed": 2,
                                               "decks": ["I"]}).json()
        saved = client.get(f"/api/games/{made['id']}/save").json()
    assert saved["decks"] == ["I"]
    # a restarted server deals the same hands: the save it gives is the same game
    with TestClient(create_app(root, root / "build", db, hot_reload=False)) as client:
        again = client.get(f"/api/games/{made['id']}/save").json()
        state = client.get(f"/api/games/{made['id']}", params={"token": made["seats"]["0"]}).json()
    assert again == saved
    assert state["pending"]["yours"]


# ---------------------------------------------------------------- occupation spaces with priced cards

def test_an_occupation_with_its_own_cost_needs_the_fee_and_the_cost_together(tmp_path):
    """Some 2007 occupations cost food of their own; on a space that charges a fee for an occupation both
    are paid, so a player needs their sum (a price once listed 1 food and 2 food apart, and each was
    checked alone: a player with 2 food paid 3)."""
    from runtime import primitives as P
    root = make_root(tmp_path, {})
    folder = root / "cards" / "original" / "E"
    card_file(folder, "priced_occupation", "occupation", "E")
    path = folder / "priced_occupation.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("deck: E\n", "deck: E\ncost: 2 food\n"), encoding="utf-8")
    pack = compiled(root)
    g = Game(pack, 2, seed=1)
    p = g.players[0]
    p.hand_occupations = ["priced_occupation"]
    fee = (("food", 1),)
    p.goods["food"] = 2
    assert P.occupation_options(g, p, fee) == [] and not P.can_play_occupation(g, p, fee=fee)
    p.goods["food"] = 3
    assert P.occupation_options(g, p, fee) == ["priced_occupation"] and P.can_play_occupation(g, p, fee=fee)
    assert P.occupation_cost_options(g, p, pack.cards["priced_occupation"], fee) == [(("food", 3),)]


class _Refusing:
    """An agent that must not be asked, nor told of a forced decision."""

    sees_forced = True

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        raise AssertionError(f"asked '{kind}' {options}")

    def forced(self, game, player, kind, option, label=None):
        raise AssertionError(f"told of a forced '{kind}' {option}")


def test_no_swap_and_no_draw_after_play_when_the_decks_are_used_up(revised):
    """Up to 2 swaps and a draw after a card played: with every deck used up there is nothing to give
    back for or to draw, and the player is not asked (not even told of a forced 'keep')."""
    from runtime import pregame
    g = Game(revised, 2, seed=1, agents=[_Refusing(), _Refusing()])
    p = g.players[0]
    g.decks = {"occupations": [], "minors": []}
    p.hand_occupations, p.hand_minors = ["probe_a"], ["probe_b"]
    assert pregame.swaps(g, p, 2) is None and pregame.draw_after_play(g, p) is None
    assert (p.hand_occupations, p.hand_minors) == (["probe_a"], ["probe_b"])
