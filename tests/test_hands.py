"""Hands, hidden information and randomness (docs/language.md 4.10): a draw takes the top of the cards not
dealt, which the game's seeded generator shuffled; a saved game resumed around a draw ends exactly as the
game that was not interrupted; views show a player only their own hand."""
from __future__ import annotations

import pytest

from runtime.agents import RandomAgent
from runtime.engine import Game
from runtime.savegame import Recorder, restore, state_hash


def _specs(seed, n):
    return [{"kind": "random", "seed": f"{seed}:{i}"} for i in range(n)]


PROBE = "hand_draw_probe"   # of the test pack lang-probes: discards the minors left, draws 3, may play one


def _game_with_draw(pack):
    """A seeded 2-player game of the probes' deck in which the draw probe is played; its save document."""
    for seed in range(200):
        specs = _specs(seed, 2)
        g = Game(pack, 2, seed=seed, agents=[RandomAgent(s["seed"]) for s in specs], decks=["T"])
        rec = Recorder(g, None, specs)
        g.play()
        doc = rec.document()
        at = [i for i, (_seat, kind, option) in enumerate(g.record) if kind in ("minor", "improvement")
              and option == PROBE]
        if at:
            return g, doc, at[0]
    pytest.fail("no seed of 200 plays the draw probe")


@pytest.fixture(scope="module")
def probes(pack_loader):
    return pack_loader("lang-probes")


@pytest.fixture(scope="module")
def draw_game(probes):
    return _game_with_draw(probes)


def test_a_save_resumed_around_the_draw_ends_as_the_uninterrupted_game(draw_game, probes):
    g, doc, at = draw_game
    want = state_hash(g)
    for cut in (at, at + 1, at + 2):   # before the card is chosen, right after, and one decision later
        part = dict(doc, decisions=doc["decisions"][:cut], finished=False, final=None)
        resumed, _rec, pending = restore(part, probes)
        resumed.play()
        assert not pending
        assert state_hash(resumed) == want, cut


def test_the_draw_takes_the_top_of_the_seeded_cards_not_dealt(draw_game, probes, monkeypatch):
    """Replayed from its log, the probe discards the minors left in the hand (they do not go back among
    the cards not dealt) and draws the top 3 of those, in their shuffled order."""
    from runtime import primitives as P
    _g, doc, _at = draw_game
    seen = {}
    discard, draw = P.discard_hand, P.draw_cards

    def discarding(g, p, kind, ctx=None):
        seen["hand"] = list(p.hand_minors)
        return discard(g, p, kind, ctx)

    def drawing(g, p, kind, n, ctx=None):
        seen["deck"] = list(g.decks[kind])
        result = draw(g, p, kind, n, ctx)
        seen["after"], seen["left"] = list(p.hand_minors), list(g.decks[kind])
        return result
    monkeypatch.setattr(P, "discard_hand", discarding)
    monkeypatch.setattr(P, "draw_cards", drawing)
    replayed, _rec, pending = restore(doc, probes, continue_with_agents=False)
    replayed.run()
    assert not pending and replayed.finished
    assert seen["after"] == seen["deck"][:3] and seen["left"] == seen["deck"][3:]
    assert not set(seen["hand"]) & set(seen["deck"]), "discarded cards are not among those not dealt"


def test_views_show_only_the_own_hand(draw_game):
    g, _doc, _at = draw_game
    other = g.view(seat=1)["players"][0]
    assert other["hand"] is None and set(other["hand_size"]) == {"occupations", "minors"}
    own = g.view(seat=0)["players"][0]
    assert own["hand"] == {"occupations": g.players[0].hand_occupations, "minors": g.players[0].hand_minors}


def test_discarding_a_hand_empties_it_and_says_how_many_cards_went(probes):
    """'discard minors from hand' / 'discard occupation from hand' (docs/language.md 4.10): the cards of the
    kind go out of the game, the log tells how many in a real plural; an empty hand says nothing."""
    from runtime import primitives as P
    g = Game(probes, 2, seed=1, agents=[RandomAgent(0), RandomAgent(1)])
    g.log = []
    p = g.players[0]
    p.hand_minors = ["hand_draw_probe", "gain_probe"]
    p.hand_occupations = ["two_occupations_probe"]
    assert P.discard_hand(g, p, "minors") is True
    assert P.discard_hand(g, p, "occupations") is True
    assert (p.hand_minors, p.hand_occupations) == ([], [])
    assert P.discard_hand(g, p, "minors") is True   # nothing left: no line
    assert [text.strip() for text in g.log] == ["P1 discards 2 minor improvements from the hand",
                                                "P1 discards 1 occupation from the hand"]


def _lessons_drawing_at_random(probes, second, food):
    """P1 (goods: ``food`` food only; hand: a free occupation and ``second``) uses Lessons with the probe that
    plays an occupation chosen at random instead (seed 1 draws ``second``); returns the game and P1."""
    g = Game(probes, 2, seed=1, agents=[RandomAgent(0), RandomAgent(1)])
    g.log = []
    p = g.players[0]
    p.hand_occupations = ["two_occupations_probe", second]
    for good in p.goods:
        p.goods[good] = 0
    p.goods["food"] = food
    g.install_card(p, probes.all_cards["random_occupation_probe"])
    g.use_space(p, g.space_by_id["lessons"])
    return g, p


@pytest.mark.parametrize("food,begging,line", [
    (0, 2, "P1 takes 2 begging cards to pay for Food Occupation Probe"),
    (1, 1, "P1 takes 1 begging card to pay for Food Occupation Probe"),
])
def test_an_occupation_drawn_at_random_is_paid_with_begging_cards_for_the_food_short(probes, food, begging, line):
    """'play occupation chosen at random' (docs/language.md 4.10, the probe replaces the occupation action of
    Lessons, free for a first occupation): seed 1 draws the occupation costing 2 food; each food of it the
    player cannot pay is a begging card, and the log says how many, in a real plural."""
    g, p = _lessons_drawing_at_random(probes, "food_occupation_probe", food)
    assert (p.begging, p.goods["food"], p.goods["grain"]) == (begging, 0, 1)
    assert p.occupations == ["food_occupation_probe"] and p.hand_occupations == ["two_occupations_probe"]
    lines = [text.strip() for text in g.log]
    assert lines[lines.index("P1 draws Food Occupation Probe at random") + 1] == line


def test_an_occupation_drawn_at_random_whose_cost_is_not_food_is_not_played_without_it(probes):
    """'play occupation chosen at random' (4.10): begging cards stand in only for food. Seed 1 draws the
    occupation costing 1 wood, and the player has none: it stays in the hand, no begging card is taken,
    the log says it cannot be paid for, and the occupation action of Lessons is taken as usual instead."""
    g, p = _lessons_drawing_at_random(probes, "cost_occupation_probe", 0)
    assert p.hand_occupations == ["cost_occupation_probe"] and p.occupations == ["two_occupations_probe"]
    assert (p.begging, p.goods["wood"], p.goods["grain"]) == (0, 0, 0)
    assert [text.strip() for text in g.log] == [
        "P1 → Lessons", "P1 draws Cost Occupation Probe at random", "P1 cannot pay for Cost Occupation Probe",
        "P1 plays occupation Two Occupations Probe"]
