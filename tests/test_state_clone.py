"""Player.clone and Space.clone assign every slot by name (for speed): none may be left out, and the
mutable parts are copies, not shared."""
from __future__ import annotations

from runtime.agents import RandomAgent
from runtime.engine import Game
from runtime.state import Player, Space

# the parts a copy must not share with its original (changing one would change the other)
PLAYER_COPIED = {"goods", "fields", "majors", "minors", "occupations", "hand_occupations", "hand_minors",
                 "exchanges", "bake_rates", "actions", "mods", "used", "stats", "card_state"}
SPACE_COPIED = {"goods", "occupants"}


def _played(pack):
    game = Game(pack, 2, seed=3, agents=[RandomAgent("c:0"), RandomAgent("c:1")])
    game.play()
    return game


def _check(original, copy, slots, copied):
    for name in slots:
        assert hasattr(copy, name), f"clone() leaves the slot '{name}' unset"
        mine, theirs = getattr(original, name), getattr(copy, name)
        assert mine == theirs, name
        if name in copied:
            assert mine is not theirs, f"clone() shares '{name}' with the original"


def test_player_clone_sets_every_slot(revised):
    game = _played(revised)
    for p in game.players:
        assert p.minors or p.occupations  # a player with cards in play
        _check(p, p.clone(), Player.__slots__, PLAYER_COPIED)


def test_space_clone_sets_every_slot(revised):
    game = _played(revised)
    for s in game.spaces:
        s.occupants.append(0)
        _check(s, s.clone(), Space.__slots__, SPACE_COPIED)


def test_copy_state_draws_the_same_numbers(revised):
    game = Game(revised, 2, seed=4, agents=[RandomAgent("c:0"), RandomAgent("c:1")])
    copy = game.copy_state()
    assert [copy.rng.random() for _ in range(5)] == [game.rng.random() for _ in range(5)]


def test_copy_state_copies_the_generator_only_when_drawn(revised):
    game = Game(revised, 2, seed=4, agents=[RandomAgent("c:0"), RandomAgent("c:1")])
    copy = game.copy_state()
    assert "rng" not in copy.__dict__ and "rng" not in game.__dict__  # frozen, not copied yet
    first = [game.rng.random() for _ in range(3)]  # the original draws first: the copy still starts where it was
    assert [copy.rng.random() for _ in range(3)] == first
    again = copy.copy_state()  # a copy of a copy, after the copy drew
    assert [again.rng.random() for _ in range(2)] == [copy.rng.random() for _ in range(2)]
    assert game.rng is not copy.rng is not again.rng
