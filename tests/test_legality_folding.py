"""The compiler folds the legality tests of action spaces (compiler/codegen.py, Gen.space_can): a space
whose effect can always run gets P.always (legal_spaces does not call it), a test that is one primitive
called with (g, p, c) is that primitive, and a composite test inlines the one-line tests of its parts
instead of calling their functions. The games played are the same (tests/test_recorded_games.py)."""
from __future__ import annotations

import inspect

from runtime import primitives as P


def _can(pack, space_id, players=2):
    return pack.space_defs[space_id].for_players(players).can


def test_a_space_that_can_always_be_used_is_not_asked(revised):
    assert _can(revised, "grain_seeds") is P.always            # gain 1 grain
    assert _can(revised, "meeting_place") is P.always          # take start player and/or play minor
    assert _can(revised, "forest") is P.always                 # an accumulation space, as before


def test_a_single_primitive_test_is_the_primitive(revised):
    assert _can(revised, "farmland") is P.can_plow


def test_a_composite_test_inlines_its_parts(revised):
    source = inspect.getsource(_can(revised, "farm_expansion"))  # build rooms and/or build stables
    assert source.splitlines()[-1].strip() == "return P.can_build_rooms(g, p, c) or P.can_build_stables(g, p, c)"
