"""The hand rules of appendix §7 dealt by card class and the open display (runtime/pregame.py,
docs/variants.md): the deal by class is part of the pre-game phase; taking a card of the display is a
request before a placement, answered by agents and people alike."""
from __future__ import annotations

from pathlib import Path

from compiler import docs
from compiler.build import Compiler
from runtime.agents import RandomAgent
from runtime.engine import Game

ROOT = Path(__file__).resolve().parent.parent


def held_open(pack, n, seed=1):
    g = Game(pack, n, seed=seed, agents=[None] * n)
    return g, g.run()


def test_six_ordinary_minors_and_one_passing_one(pack_loader):
    pack = pack_loader("revised-six-and-one-passing")
    for n in (1, 2, 4):
        g, _ = held_open(pack, n, seed=n)
        for p in g.players:
            passing = [cid for cid in p.hand_minors if pack.cards[cid].passing]
            assert len(p.hand_minors) == 7 and len(passing) == 1, (n, p.name)
        hands = [c for p in g.players for c in p.hand_minors]
        assert len(set(hands)) == len(hands) and not set(hands) & set(g.decks["minors"])


def test_occupations_three_of_1_two_of_3_two_of_4(pack_loader):
    pack = pack_loader("revised-occupations-by-class")
    g, _ = held_open(pack, 4, seed=3)
    marks = [sorted(pack.cards[c].players or 1 for c in p.hand_occupations) for p in g.players]
    # the revised decks hold fewer than 8 occupations marked 4+: the last seat's hand is made up from the deck
    fours = sum(1 for c in pack.cards.values() if c.kind == "occupation" and c.players == 4)
    for seat, hand in enumerate(marks):
        assert len(hand) == 7
        if 2 * (seat + 1) <= fours:
            assert hand == [1, 1, 1, 3, 3, 4, 4], seat
    g, _ = held_open(pack, 3, seed=3)   # with 3 players no 4+ card is in the game: 1+ cards make up for them
    for p in g.players:
        assert sorted(pack.cards[c].players or 1 for c in p.hand_occupations) == [1, 1, 1, 1, 1, 3, 3]


def test_one_player_a_round_may_take_a_card_of_the_open_display_instead_of_a_turn(pack_loader):
    pack = pack_loader("revised-open-display")
    g, req = held_open(pack, 2, seed=4)
    shown = g.display["occupations"] + g.display["minors"]
    assert len(g.display["occupations"]) == 3 and len(g.display["minors"]) == 3
    assert req.kind == "display" and list(req.options) == ["place"] + shown
    p = g.players[req.seat]
    taken = req.options[1]
    req = g.answer(1)
    assert taken in p.hand_occupations and len(p.hand_occupations) == 8
    assert len(g.display["occupations"]) == 3 and taken not in g.display["occupations"]   # refilled
    assert p.home == 1 and not any(p.idx in s.occupants for s in g.spaces)               # the turn is used
    # the other player cannot take one this round: they are asked where to place
    while g.round == 1:
        assert req.kind != "display", "only one player a round takes from the display"
        req = g.answer(0)
    assert req.kind == "display" and g.round == 2


def test_the_hand_rule_pages_say_what_they_change(build_root):
    def changes(pid):
        model = docs.build_model(Compiler(ROOT, build_root), pid)
        return [(c["key"], c["old"], c["new"]) for c in model["variant"]["game"]]
    assert changes("revised-six-and-one-passing") == [
        ("Hand by card class", "none: any cards of the deck",
         "minor improvements: 6 not passed on, 1 passed on when played (a class the deck runs out of is made up "
         "from the deck)")]
    assert changes("revised-occupations-by-class") == [
        ("Hand by card class", "none: any cards of the deck",
         "occupations: 3 marked 1+, 2 marked 3+, 2 marked 4+ (a class the deck runs out of is made up from the "
         "deck)")]
    assert changes("revised-open-display") == [
        ("Open display", "none", "3 occupations and 3 minor improvements lie open before round 1; once a round "
         "one player may take one of them into their hand instead of placing a person; the card taken is "
         "replaced from the deck")]


def test_games_with_the_display_replay_from_their_save(pack_loader, tmp_path):
    from runtime.savegame import read_save, restore, save_game
    pack = pack_loader("revised-open-display")
    g = Game(pack, 3, seed=8, agents=[RandomAgent(f"8:{i}") for i in range(3)])
    g.play()
    assert any(kind == "display" and option != "place" for _, kind, option in g.record)
    save_game(g, tmp_path / "g.json")
    again, _, _ = restore(read_save(tmp_path / "g.json"), pack)
    assert again.play() == g.scores
