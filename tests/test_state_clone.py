"""Player.clone and Space.clone assign every slot by name (for speed): none may be left out, and the
mutable parts are copies, not shared."""
from __future__ import annotations

import pytest

from recorded_games import digest, full_state
from runtime.agents import RandomAgent
from runtime.engine import Game
from runtime.gamefields import GameFields, copy_fields
from runtime.state import PLAYER_FIELDS, SPACE_FIELDS, Player, Space

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


def test_the_classes_take_their_slots_from_the_field_lists():
    for cls, fields in ((Player, PLAYER_FIELDS), (Space, SPACE_FIELDS)):
        assert getattr(cls, "__slots__", fields) is fields   # (a compiled class keeps no __slots__)


def test_player_clone_sets_every_slot(revised):
    game = _played(revised)
    for p in game.players:
        assert p.minors or p.occupations  # a player with cards in play
        _check(p, p.clone(), PLAYER_FIELDS, PLAYER_COPIED)


def test_space_clone_sets_every_slot(revised):
    game = _played(revised)
    for s in game.spaces:
        s.occupants.append(0)
        _check(s, s.clone(), SPACE_FIELDS, SPACE_COPIED)


def test_the_game_has_exactly_the_fields_gamefields_declares(revised):
    """runtime/gamefields.py declares every field of a game once: a field set but not declared there (or
    declared but never set) would be unknown to the type checker and to a compiled layout."""
    game = _played(revised)
    for g in (game, game.copy_state()):
        if hasattr(g, "__dict__"):   # the Python sources: the fields are the instance's dictionary
            assert sorted(vars(g)) == sorted(GameFields.__annotations__)
        else:   # compiled: mypyc lays out the declared fields only (it refuses to build on any other)
            assert [name for name in GameFields.__annotations__ if not hasattr(g, name)] == []


def test_copy_fields_copies_every_declared_field(revised):
    """gamefields.copy_fields names each field (for speed and for a compiled layout): none may be left out,
    or a state copy and the game held open would lose it."""
    game = _played(revised)
    copy = Game.__new__(Game)
    copy_fields(game, copy)
    for name in GameFields.__annotations__:
        assert hasattr(copy, name), f"copy_fields leaves the field '{name}' unset"
        assert getattr(copy, name) is getattr(game, name), name


def test_copy_state_draws_the_same_numbers(revised):
    game = Game(revised, 2, seed=4, agents=[RandomAgent("c:0"), RandomAgent("c:1")])
    copy = game.copy_state()
    assert [copy.rng.random() for _ in range(5)] == [game.rng.random() for _ in range(5)]


def test_copy_state_copies_the_generator_only_when_drawn(revised):
    game = Game(revised, 2, seed=4, agents=[RandomAgent("c:0"), RandomAgent("c:1")])
    copy = game.copy_state()
    assert copy._rng is None and game._rng is None and copy._rng_frozen is game._rng_frozen  # frozen, not copied yet
    first = [game.rng.random() for _ in range(3)]  # the original draws first: the copy still starts where it was
    assert [copy.rng.random() for _ in range(3)] == first
    again = copy.copy_state()  # a copy of a copy, after the copy drew
    assert [again.rng.random() for _ in range(2)] == [copy.rng.random() for _ in range(2)]
    assert game.rng is not copy.rng is not again.rng


class _Lookahead:
    """A random agent that, before each placement, tries every legal space on a state copy (as the
    GreedyAgent does) and checks that the original game did not change."""

    trusted = True

    def __init__(self, seed):
        self.inner = RandomAgent(seed)
        self.checked = 0

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        if kind == "place":
            before = digest(full_state(game))
            for sid in options:
                trial = game.copy_state(agents=[RandomAgent(f"t:{sid}")] * game.nplayers)
                me = trial.players[player.idx]
                me.home -= 1
                trial.use_space(me, trial.space_by_id[sid])
                assert digest(full_state(game)) == before, f"trying {sid} on a copy changed the game"
                self.checked += 1
        return self.inner.choose(game, player, kind, options, labels, prompt)


def test_a_state_copy_never_changes_its_original(revised, original):
    checked = 0
    for pack, seed in ((revised, 5), (revised, 6), (original, 7)):
        agents = [_Lookahead(f"{seed}:{i}") for i in range(3)]
        game = Game(pack, 3, seed=seed, agents=agents)
        game.play()
        checked += sum(a.checked for a in agents)
    assert checked > 300


def test_the_spaces_of_a_state_copy_are_read_only_until_owned(revised):
    game = Game(revised, 2, seed=4, agents=[RandomAgent("c:0"), RandomAgent("c:1")])
    copy = game.copy_state()
    shared = copy.spaces[0]
    assert shared is game.spaces[0] and shared.shared
    with pytest.raises(TypeError, match="the goods of a shared space are read-only"):
        shared.goods["wood"] = 1
    with pytest.raises(AttributeError):
        shared.occupants.append(0)
    mine = copy.own_space(shared)
    assert mine is not shared and not mine.shared and copy.space_by_id[shared.id] is mine is copy.spaces[0]
    mine.goods["wood"] = 7
    assert game.spaces[0].goods.get("wood", 0) == shared.goods.get("wood", 0) != 7
    assert copy.own_space(shared) is mine   # asked again (even with the shared object): the same copy


def test_a_copy_made_while_conversions_at_one_time_are_under_way_has_its_own_list_of_them(revised):
    game = Game(revised, 2, seed=3)
    game.run()
    game.batches = {0: (["first part"], None)}
    copy = game.copy_state()
    copy.batches[0][0].append("second part")
    assert game.batches == {0: (["first part"], None)}
    assert copy.batches == {0: (["first part", "second part"], None)}
