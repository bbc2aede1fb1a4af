"""Both sides of every bound the checker enforces: the last value refused and the first one accepted
on each side (too few and too many arguments, equal and falling thresholds, the first and the last
round, the smallest and the largest count), word for word and located.

Each case adds one rule line to the Basketmaker's Workshop (rules/revised/majors.yaml, line 94) of a
copy of the packs, or changes one setting, and validates the pack (see test_diagnostics.py).
"""
from __future__ import annotations

import pytest

from test_diagnostics import BASKET, block, check, edit, root, validate  # noqa: F401  (root is a fixture)

LINE = 94  # where _add_rule puts the new rule


def _add_rule(root, rule):
    edit(root, "revised/majors.yaml", BASKET, BASKET + "    " + rule + "\n")


def _at(rule: str, code: str, message: str, start: str, length: int | None = None, hint: str | None = None) -> str:
    """The diagnostic for ``rule`` with the caret under ``length`` characters from the first ``start``
    (all of ``start`` by default)."""
    col = 4 + rule.index(start) + 1
    lines = [f"rules/revised/majors.yaml:{LINE}:{col}: error[{code}]: {message}", "      " + rule,
             "  " + " " * (col - 1) + "^" * (length or len(start))]
    if hint:
        lines.append(f"  = hint: {hint}")
    return block(*lines)


REFUSED = [
    # arity: too few and too many arguments, for functions of one and of two arguments
    ("at returning home if occupied(): gain 1 food", "E206", "occupied() takes 1 argument, not 0", "occupied()"),
    ("at harvest start if min(wood) >= 1: gain 1 food", "E206", "min() takes 2 arguments, not 1", "min(wood)"),
    ("at harvest start if min(wood, clay, reed) >= 1: gain 1 food", "E206", "min() takes 2 arguments, not 3",
     "min(wood, clay, reed)"),
    # thresholds: equal (the falling case is in test_diagnostics.py) and not a number
    ("at scoring: bonus tier(sheep; 1: 1, 4: 2, 4: 3)", "E214", "tier thresholds must rise: 4 comes after 4",
     "4: 3", 1),
    ("at scoring: bonus tier(sheep; 1: 1, x: 2)", "E214", "tier thresholds must be numbers, not 'x'", "x: 2", 1),
    # conversions: falling (the equal case is in test_diagnostics.py)
    ("at scoring: convert clay to bonus (2: 1, 4: 2, 3: 3)", "E214", "conversion thresholds must be rising numbers",
     "3: 3", 1),
    # round tags: one below the first round, one after the last
    ("after you use #round_0: gain 1 food", "E205", "unknown action space tag '#round_0' (did you mean '#round_10'?)",
     "#round_0"),
    ("after you use #round_15: gain 1 food", "E205", "unknown action space tag '#round_15' (did you mean '#round_5'?)",
     "#round_15"),
    # end of round N: one below the first round, one after the last
    ("at end of round 0: gain 1 food", "E215", "there is no round 0: the game has rounds 1 to 14", "at end of round 0"),
    ("at end of round 15: gain 1 food", "E215", "there is no round 15: the game has rounds 1 to 14",
     "at end of round 15"),
    # how many fields or spaces: 0 and one more than the farmyard has
    ("on build: plow 0 fields", "E215", "plow needs a number of fields from 1 to 15", "plow 0 fields"),
    ("on build: plow 16 fields", "E215", "plow needs a number of fields from 1 to 15", "plow 16 fields"),
    ("on build: fence 0 spaces", "E215", "fence needs a number of spaces from 1 to 15", "fence 0 spaces"),
    ("on build: fence 16 spaces", "E215", "fence needs a number of spaces from 1 to 15", "fence 16 spaces"),
    ("on build: gain 1 food per 0 sheep", "E215", "'per' needs a number greater than 0", "sheep"),
    # players(...): a count below the pack's first and after its last, a count given twice, a count missing
    ("on build: gain players(0: 1 food; 1+: 2 food)", "E213", "player count 0 is outside this pack's 1 to 4 players",
     "0:", 1),
    ("on build: gain players(1: 1 food; 2: 1 food; 3: 1 food; 4: 1 food; 5: 2 food)", "E213",
     "player count 5 is outside this pack's 1 to 4 players", "5:", 1),
    ("on build: gain players(1+: 1 food; 4: 2 food)", "E213", "players(4) repeats a player count", "4:", 1),
    ("on build: gain players(2+: 1 food)", "E213", "players(...) gives nothing for 1 player",
     "players(2+: 1 food)", None, "add an entry such as '1: 1 food' or use 'N+' for N players and more"),
    ("on build: gain players(1: 1 food; 2: 1 food; 3: 1 food)", "E213", "players(...) gives nothing for 4 players",
     "players(1: 1 food; 2: 1 food; 3: 1 food)", None,
     "add an entry such as '4: 1 food' or use 'N+' for N players and more"),
    # how many fields are sown: 0 and one more than the farmyard has
    ("on build: sow 0 fields", "E215", "sow needs a number of fields from 1 to 15", "0"),
    ("on build: sow 16 fields", "E215", "sow needs a number of fields from 1 to 15", "16"),
    # the exchanges of 'spend up to': an amount of 0, at most 0 times
    ("after you use forest: spend up to 2 food on (0 food -> 1 sheep)", "E215", "an exchange needs amounts from 1 up",
     "0 food", 1),
    ("after you use forest: spend up to 2 food on (1 food -> 1 sheep (at most 0 times))", "E215",
     "'at most' needs a number of times from 1 up", "1 food -> 1 sheep (at most 0 times)"),
    # rounds counted from the current one: the same offset twice (as its value: '+02' is '+2')
    ("on build: schedule 1 food on rounds +2, +02", "E215", "'+2' is listed twice", "+02"),
]

ACCEPTED = [
    "at returning home if occupied(fishing) and min(wood, clay) >= 1: gain 1 food",
    "at scoring: bonus tier(sheep; 1: 1, 4: 2, 5: 3)",
    "at scoring: convert clay to bonus (1: 1, 2: 2)",
    "after you use #round_1: gain 1 food",
    "after you use #round_14: gain 1 food",
    "at end of round 1: gain 1 food",
    "at end of round 14: gain 1 food",
    "on build: plow 1 field; plow 15 fields; fence 1 space; fence 15 spaces",
    "on build: gain 1 food per 1 sheep",
    "on build: gain players(1: 1 food; 2: 1 food; 3: 1 food; 4: 2 food)",
    "on build: gain players(1: 1 food; 2+: 2 food)",
    "on build: gain players(1+: 1 food)",
    "on build: gain players(1: 1 food; 4: 1 food; 2: 2 food; 3: 2 food)",
    "on build: sow 1 field; sow 15 fields",
    "after you use forest: spend up to 2 food on (1 food -> 1 sheep (at most 1 times))",
    "on build: schedule 1 food on rounds +2, +3",
    "on build: take grain from a field of another player",
]


@pytest.mark.parametrize("case", REFUSED, ids=[c[0] for c in REFUSED])
def test_just_outside_a_bound_is_refused(root, capsys, case):
    rule, code, message, start, *rest = case
    _add_rule(root, rule)
    check(root, capsys, "revised", _at(rule, code, message, start, *rest))


@pytest.mark.parametrize("rule", ACCEPTED)
def test_just_inside_a_bound_is_accepted(root, capsys, rule):
    _add_rule(root, rule)
    assert validate(root, capsys, "revised") == (0, "ok: revised valid\n", "")


# ---------------------------------------------------------------- the game frame

def test_a_harvest_after_the_last_round_is_refused(root, capsys):
    edit(root, "revised/game.yaml", "harvest_after_rounds: [4, 7, 9, 11, 13, 14]",
         "harvest_after_rounds: [4, 7, 9, 11, 13, 14, 15]")
    check(root, capsys, "revised", block(
        "rules/revised/game.yaml:16:45: error[E131]: harvest after round 15, but the game has 14 rounds",
        "  harvest_after_rounds: [4, 7, 9, 11, 13, 14, 15]",
        "                                              ^^",
    ))


def test_a_harvest_after_the_first_round_is_accepted(root, capsys):
    edit(root, "revised/game.yaml", "harvest_after_rounds: [4, 7,", "harvest_after_rounds: [1, 4, 7,")
    assert validate(root, capsys, "revised") == (0, "ok: revised valid\n", "")


def test_a_stage_past_the_last_round_is_refused_once(root, capsys):
    edit(root, "revised/game.yaml", "  6: [14, 14]", "  6: [14, 15]")
    check(root, capsys, "revised", block(
        "rules/revised/game.yaml:15:6: error[E131]: stage 6 spans rounds 14 to 15, outside 1 to 14",
        "    6: [14, 15]",
        "       ^",
    ))


def test_a_stage_whose_rounds_fall_is_refused_once(root, capsys):
    edit(root, "revised/game.yaml", "  6: [14, 14]", "  6: [14, 13]")
    check(root, capsys, "revised", block(
        "rules/revised/game.yaml:15:6: error[E131]: stage 6 spans rounds 14 to 13: its first round comes after its last",
        "    6: [14, 13]",
        "       ^",
    ))


def test_stages_that_overlap_by_one_round_are_refused(root, capsys):
    edit(root, "revised/game.yaml", "  5: [12, 13]\n  6: [14, 14]", "  5: [12, 14]\n  6: [14, 14]")
    check(root, capsys, "revised", block(
        "rules/revised/game.yaml:10:3: error[E131]: the stages must cover rounds 1 to 14 once each: round 14 is in "
        "more than one stage",
        "    1: [1, 4]",
        "    ^",
    ), block(
        "rules/revised/rounds.yaml:66:10: error[E136]: stage 5 has 2 round cards for 1-4 players but 3 rounds "
        "(rounds 12 to 14)",
        "    stage: 5",
        "           ^",
    ))


def test_a_space_for_one_player_count_more_than_the_pack_has_is_refused(root, capsys):
    path = root / "rules/revised/actions.yaml"
    text = path.read_text(encoding="utf-8")
    first = text.index("  players: 4\n")
    path.write_text(text[:first] + "  players: 4-5\n" + text[first + len("  players: 4\n"):], encoding="utf-8")
    line = text[:first].count("\n") + 1
    check(root, capsys, "revised", block(
        f"rules/revised/actions.yaml:{line}:12: error[E213]: 'players: 4-5' is outside this pack's 1 to 4 players",
        "    players: 4-5",
        "             ^^^",
    ))


def test_players_min_above_max_is_one_error(root, capsys):
    # the pack is for no player count at all: one message, not one for each action space besides
    edit(root, "revised/game.yaml", "players: {min: 1, max: 4}", "players: {min: 3, max: 2}")
    check(root, capsys, "revised", block(
        "rules/revised/game.yaml:6:10: error[E130]: players: min 3 is more than max 2",
        "  players: {min: 3, max: 2}",
        "           ^",
    ))



def test_a_frame_without_exchanges_is_accepted(root, capsys):
    # game.yaml's own exchanges are optional: a pack may let no crop be eaten raw
    edit(root, "revised/game.yaml", "exchanges: |\n  any time: grain -> 1 food; vegetable -> 1 food\n", "")
    assert validate(root, capsys, "revised") == (0, "ok: revised valid\n", "")
