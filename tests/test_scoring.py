"""End-of-game scoring of hand-built farms (farm files scored with compiler.farmfile.score_farm_file).

Every expected value below is worked out by hand from the revised scoring table:
fields 0-1:-1, 2:1, 3:2, 4:3, 5+:4; pastures 0:-1, 1:1, 2:2, 3:3, 4+:4;
grain (supply + fields) 0:-1, 1-3:1, 4-5:2, 6-7:3, 8+:4; vegetables 0:-1, 1:1, 2:2, 3:3, 4+:4;
sheep 0:-1, 1-3:1, 4-5:2, 6-7:3, 8+:4; boar 0:-1, 1-2:1, 3-4:2, 5-6:3, 7+:4;
cattle 0:-1, 1:1, 2-3:2, 4-5:3, 6+:4; -1 per unused space; +1 per fenced stable;
clay room 1, stone room 2, wood room 0; 3 per person; printed card points; bonus; -3 per begging card.
Tie-break: wood + clay + reed + stone left.
"""
from __future__ import annotations

import re
import textwrap

import pytest

from compiler.farmfile import FarmFileError, score_farm_file

CATS = ("fields", "pastures", "grain", "vegetables", "sheep", "boar", "cattle", "unused", "fenced_stables",
        "rooms", "family", "cards", "bonus", "begging")


def score(tmp_path, revised, text, name="farm.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    result, table = score_farm_file(path, revised)
    return result, table


def check(result, expected: dict, total: int, tie_break=None):
    assert set(expected) == set(CATS)
    assert sum(expected.values()) == total, "the hand-written categories do not add up to the total"
    assert result["categories"] == expected
    assert result["total"] == total
    if tie_break is not None:
        assert result["tie_break"] == tie_break


START = """
    house: wood
    farmyard:
      - ".  .  .  .  ."
      - "R  .  .  .  ."
      - "R  .  .  .  ."
    people: 2
"""


# ================================================================ hand-built farms

def test_empty_starting_farm(tmp_path, revised):
    result, table = score(tmp_path, revised, START)
    check(result, {
        "fields": -1,          # 0 fields
        "pastures": -1,        # 0 pastures
        "grain": -1,           # 0 grain
        "vegetables": -1,      # 0 vegetables
        "sheep": -1, "boar": -1, "cattle": -1,
        "unused": -13,         # 15 spaces - 2 rooms
        "fenced_stables": 0,
        "rooms": 0,            # 2 wood rooms * 0
        "family": 6,           # 2 people * 3
        "cards": 0, "bonus": 0, "begging": 0,
    }, total=-14, tie_break=0)
    assert "-14" in table


def test_maxed_farm(tmp_path, revised):
    # B4+B5 with a stable in B4: 2 spaces * 2 * 2 = 8 -> 8 sheep
    # C4+C5 with a stable in C5: 8 -> 7 boar
    # B3 and C3, one space each with a stable: 4 + 4 -> 6 cattle
    # fences: the 2x3 block B3..C5 has 10 on its outside + B3|B4, C3|C4, B3|C3, B4|C4, B5|C5 = 15
    result, _ = score(tmp_path, revised, """
        house: stone
        farmyard:
          - "R   G3  G3  V2  V2"
          - "R   F   PS  PS  P"
          - "R   R   PS  P   PS"
        pastures: [B3, C3, B4+B5, C4+C5]
        animals: {sheep: 8, boar: 7, cattle: 6}
        goods: {grain: 2, vegetable: 0, wood: 1, clay: 2, reed: 0, stone: 3, food: 4}
        people: 4
        improvements: [well, stone_oven]
    """)
    check(result, {
        "fields": 4,           # 5 fields (A2..A5, B2)
        "pastures": 4,         # 4 pastures
        "grain": 4,            # 3 + 3 on fields + 2 in the supply = 8
        "vegetables": 4,       # 2 + 2 on fields = 4
        "sheep": 4,            # 8
        "boar": 4,             # 7
        "cattle": 4,           # 6
        "unused": 0,           # 4 rooms + 5 fields + 6 pasture spaces = 15
        "fenced_stables": 4,   # B3, B4, C3, C5 all inside pastures
        "rooms": 8,            # 4 stone rooms * 2
        "family": 12,          # 4 people * 3
        "cards": 7,            # well 4 + stone oven 3
        "bonus": 0, "begging": 0,
    }, total=59, tie_break=6)  # 1 wood + 2 clay + 0 reed + 3 stone (food and grain do not count)


def test_clay_house(tmp_path, revised):
    result, _ = score(tmp_path, revised, """
        house: clay
        farmyard:
          - "R  .  .  .  ."
          - "R  .  .  .  ."
          - "R  .  .  .  ."
        people: 3
        goods: {reed: 2}
    """)
    check(result, {
        "fields": -1, "pastures": -1, "grain": -1, "vegetables": -1,
        "sheep": -1, "boar": -1, "cattle": -1,
        "unused": -12,         # 15 - 3 rooms
        "fenced_stables": 0,
        "rooms": 3,            # 3 clay rooms * 1
        "family": 9,           # 3 * 3
        "cards": 0, "bonus": 0, "begging": 0,
    }, total=-7, tie_break=2)  # -7 - 12 + 3 + 9 = -7


def test_stone_house(tmp_path, revised):
    result, _ = score(tmp_path, revised, """
        house: stone
        farmyard:
          - "R  R  .  .  ."
          - "R  R  .  .  ."
          - "R  .  .  .  ."
        people: 5
    """)
    check(result, {
        "fields": -1, "pastures": -1, "grain": -1, "vegetables": -1,
        "sheep": -1, "boar": -1, "cattle": -1,
        "unused": -10,         # 15 - 5 rooms
        "fenced_stables": 0,
        "rooms": 10,           # 5 stone rooms * 2
        "family": 15,          # 5 * 3
        "cards": 0, "bonus": 0, "begging": 0,
    }, total=8, tie_break=0)   # -7 - 10 + 10 + 15 = 8


def test_crops_on_fields_count(tmp_path, revised):
    result, _ = score(tmp_path, revised, """
        house: wood
        farmyard:
          - "G1  G2  V1  F  ."
          - "R   .   .   .  ."
          - "R   .   .   .  ."
        goods: {grain: 0, vegetable: 2}
        people: 2
    """)
    check(result, {
        "fields": 3,           # 4 fields, planted or not
        "pastures": -1,
        "grain": 1,            # 1 + 2 on fields = 3 (1-3)
        "vegetables": 3,       # 1 on a field + 2 in the supply = 3
        "sheep": -1, "boar": -1, "cattle": -1,
        "unused": -9,          # 15 - 2 rooms - 4 fields
        "fenced_stables": 0, "rooms": 0,
        "family": 6,
        "cards": 0, "bonus": 0, "begging": 0,
    }, total=0, tie_break=0)


def test_fenced_and_unfenced_stables(tmp_path, revised):
    # pasture A4+B4 with the stable in A4: 2 * 2 * 2 = 8 sheep; unfenced stables A5 and C5 hold one boar
    # each; the cow is the pet in the house
    result, _ = score(tmp_path, revised, """
        house: wood
        farmyard:
          - ".  .  .  PS  S"
          - "R  .  .  P   ."
          - "R  .  .  .   S"
        animals: {sheep: 8, boar: 2, cattle: 1}
        people: 2
    """)
    check(result, {
        "fields": -1,
        "pastures": 1,         # 1 pasture
        "grain": -1, "vegetables": -1,
        "sheep": 4,            # 8
        "boar": 1,             # 2 (1-2)
        "cattle": 1,           # 1
        "unused": -9,          # 15 - 2 rooms - 2 pasture spaces - 2 unfenced stables
        "fenced_stables": 1,   # only A4 is inside a pasture
        "rooms": 0, "family": 6,
        "cards": 0, "bonus": 0, "begging": 0,
    }, total=2)


def test_begging_and_bonus(tmp_path, revised):
    result, _ = score(tmp_path, revised, START + "    begging: 2\n    bonus: 1\n")
    check(result, {
        "fields": -1, "pastures": -1, "grain": -1, "vegetables": -1,
        "sheep": -1, "boar": -1, "cattle": -1,
        "unused": -13, "fenced_stables": 0, "rooms": 0, "family": 6,
        "cards": 0,
        "bonus": 1,
        "begging": -6,         # 2 begging cards * -3
    }, total=-19)              # -14 + 1 - 6


def test_joinery_bonus(tmp_path, revised):
    result, _ = score(tmp_path, revised, START + "    goods: {wood: 7, clay: 1}\n    improvements: [joinery]\n")
    check(result, {
        "fields": -1, "pastures": -1, "grain": -1, "vegetables": -1,
        "sheep": -1, "boar": -1, "cattle": -1,
        "unused": -13, "fenced_stables": 0, "rooms": 0, "family": 6,
        "cards": 2,            # joinery is printed 2
        "bonus": 3,            # 7 wood -> 3 bonus points (3: 1, 5: 2, 7: 3)
        "begging": 0,
    }, total=-9)               # -14 + 2 + 3
    # The workshop takes the wood it converts ("내고": pays it, rulebook appendix on scoring); only what is
    # left counts for the tie-break: 7 - 7 wood + 1 clay = 1.
    assert result["tie_break"] == 1


@pytest.mark.parametrize("improvement,goods,bonus", [
    ("joinery", "{wood: 2}", 0), ("joinery", "{wood: 3}", 1), ("joinery", "{wood: 4}", 1),
    ("joinery", "{wood: 5}", 2), ("joinery", "{wood: 6}", 2), ("joinery", "{wood: 7}", 3),
    ("joinery", "{wood: 12}", 3),
    ("pottery", "{clay: 2}", 0), ("pottery", "{clay: 3}", 1), ("pottery", "{clay: 5}", 2),
    ("pottery", "{clay: 7}", 3),
    ("basketmakers_workshop", "{reed: 1}", 0), ("basketmakers_workshop", "{reed: 2}", 1),
    ("basketmakers_workshop", "{reed: 3}", 1), ("basketmakers_workshop", "{reed: 4}", 2),
    ("basketmakers_workshop", "{reed: 5}", 3), ("basketmakers_workshop", "{reed: 9}", 3),
])
def test_workshop_thresholds(tmp_path, revised, improvement, goods, bonus):
    result, _ = score(tmp_path, revised, START + f"    goods: {goods}\n    improvements: [{improvement}]\n")
    assert result["categories"]["cards"] == 2
    assert result["categories"]["bonus"] == bonus
    assert result["total"] == -14 + 2 + bonus


def test_example_farm_from_the_docs(tmp_path, revised):
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "examples" / "farm.yaml").read_text()
    result, _ = score(tmp_path, revised, text)
    # A1 A2 B1 rooms (clay); A3 A4 B3 B4 one pasture with a stable in B4 (4 spaces * 2 * 2 = 16);
    # A5 unfenced stable; fields B2 (2 grain), C1 (1 vegetable), C2, C3
    check(result, {
        "fields": 3,           # 4 fields
        "pastures": 1,         # 1 pasture
        "grain": 1,            # 2 on B2 + 1 in the supply = 3
        "vegetables": 1,       # 1 on C1
        "sheep": 2,            # 4
        "boar": -1,            # 0
        "cattle": 1,           # 1
        "unused": -3,          # B5, C4, C5
        "fenced_stables": 1,   # B4
        "rooms": 3,            # 3 clay rooms
        "family": 9,           # 3 people
        "cards": 3,            # fireplace 1 + joinery 2
        "bonus": 2,            # joinery: 5 wood -> 2
        "begging": 0,
    }, total=23)


# ================================================================ thresholds, one category at a time

ANIMAL_FARM = """
    house: wood
    farmyard:
      - ".  .  .  PS  PS"
      - "R  .  .  P   P"
      - "R  .  .  .   ."
    people: 2
"""
# One pasture of 4 spaces with 2 stables holds 4 * 2 * 2 * 2 = 32 of one type (+1 pet).
# Other categories: fields -1, pastures 1, grain -1, vegetables -1, unused -9 (15 - 2 - 4),
# fenced stables 2, rooms 0, family 6  ->  -3, plus -1 for each of the two absent animal types.
SHEEP = [(0, -1), (1, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 3), (8, 4), (9, 4)]
BOAR = [(0, -1), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 4), (8, 4)]
CATTLE = [(0, -1), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 4), (7, 4)]


@pytest.mark.parametrize("animal,n,points",
                         [("sheep", n, pts) for n, pts in SHEEP] + [("boar", n, pts) for n, pts in BOAR]
                         + [("cattle", n, pts) for n, pts in CATTLE])
def test_animal_thresholds(tmp_path, revised, animal, n, points):
    result, _ = score(tmp_path, revised, ANIMAL_FARM + f"    animals: {{{animal}: {n}}}\n")
    cats = result["categories"]
    assert cats[animal] == points
    assert (cats["fields"], cats["pastures"], cats["unused"], cats["fenced_stables"]) == (-1, 1, -9, 2)
    assert result["total"] == -3 - 2 + points


GRAIN = [(0, -1), (1, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 3), (8, 4), (9, 4)]
VEG = [(0, -1), (1, 1), (2, 2), (3, 3), (4, 4), (5, 4)]


@pytest.mark.parametrize("good,cat,n,points",
                         [("grain", "grain", n, pts) for n, pts in GRAIN]
                         + [("vegetable", "vegetables", n, pts) for n, pts in VEG])
def test_crop_thresholds(tmp_path, revised, good, cat, n, points):
    result, _ = score(tmp_path, revised, START + f"    goods: {{{good}: {n}}}\n")
    assert result["categories"][cat] == points
    assert result["total"] == -14 + 1 + points      # the empty farm with this category replaced


def test_grain_threshold_split_between_field_and_supply(tmp_path, revised):
    # 3 on the field + 1 in the supply = 4 -> 2 (3 alone would be 1)
    result, _ = score(tmp_path, revised, """
        house: wood
        farmyard:
          - "G3  .  .  .  ."
          - "R   .  .  .  ."
          - "R   .  .  .  ."
        goods: {grain: 1}
        people: 2
    """)
    # fields 1 -> -1, grain 4 -> 2, unused 12 -> -12; -1 (fields) -1 (pastures) +2 -1 -3 -12 +6 = -10
    assert result["categories"]["grain"] == 2
    assert result["categories"]["fields"] == -1
    assert result["total"] == -10


FIELD_ROWS = {
    0: ".  .  .  .  .",
    1: "F  .  .  .  .",
    2: "F  F  .  .  .",
    3: "F  F  F  .  .",
    4: "F  F  F  F  .",
    5: "F  F  F  F  F",
}
FIELDS = [(0, -1), (1, -1), (2, 1), (3, 2), (4, 3), (5, 4)]


@pytest.mark.parametrize("n,points", FIELDS + [(6, 4)])
def test_field_thresholds(tmp_path, revised, n, points):
    row_a = FIELD_ROWS[min(n, 5)]
    row_b = "R  F  .  .  ." if n == 6 else "R  .  .  .  ."
    result, _ = score(tmp_path, revised, f"""
        house: wood
        farmyard:
          - "{row_a}"
          - "{row_b}"
          - "R  .  .  .  ."
        people: 2
    """)
    assert result["categories"]["fields"] == points
    assert result["categories"]["unused"] == -(13 - n)
    # -1 * 6 (pastures, grain, vegetables, 3 animals) + family 6 = 0
    assert result["total"] == points - (13 - n)


# 5 pasture spaces A3 A4 A5 B4 B5 split into 1..5 pastures; the fences: (sum of the pasture perimeters
# + the 10 fences around the whole group) / 2: 1 -> 10, 2 -> 11, 3 -> 13, 4 -> 14, 5 -> 15.
PASTURE_SPLITS = {
    1: ("[A3+A4+A5+B4+B5]", 1),
    2: ("[A3, A4+A5+B4+B5]", 2),
    3: ("[A3, A4+B4, A5+B5]", 3),
    4: ("[A3, A4, A5, B4+B5]", 4),
    5: ("[A3, A4, A5, B4, B5]", 4),
}


@pytest.mark.parametrize("k", sorted(PASTURE_SPLITS))
def test_pasture_thresholds(tmp_path, revised, k):
    split, points = PASTURE_SPLITS[k]
    result, _ = score(tmp_path, revised, f"""
        house: wood
        farmyard:
          - ".  .  P  P  P"
          - "R  .  .  P  P"
          - "R  .  .  .  ."
        pastures: {split}
        people: 2
    """)
    assert result["categories"]["pastures"] == points
    # fields -1, grain -1, vegetables -1, animals -3, unused -8 (15 - 2 - 5), family 6 -> -8
    assert result["categories"]["unused"] == -8
    assert result["total"] == -8 + points


def test_no_pastures(tmp_path, revised):
    result, _ = score(tmp_path, revised, START)
    assert result["categories"]["pastures"] == -1


# ================================================================ located errors

def located(exc_text: str, path, line: int, col: int, code: str) -> bool:
    return f"{path}:{line}:{col}: error[{code}]" in exc_text


def test_error_unknown_token(tmp_path, revised):
    path = tmp_path / "bad.yaml"
    path.write_text('house: wood\nfarmyard:\n  - "R X . . ."\n  - "R . . . ."\n  - ". . . . ."\n')
    with pytest.raises(FarmFileError) as exc:
        score_farm_file(path, revised)
    # line 3; the X is the 8th character of '  - "R X . . ."'
    assert located(str(exc.value), path, 3, 8, "E143"), str(exc.value)
    assert re.search(r":\d+:\d+: error\[E1\d\d\]", str(exc.value))


def test_error_wrong_row_length(tmp_path, revised):
    path = tmp_path / "bad.yaml"
    path.write_text('house: wood\nfarmyard:\n  - ". . . . ."\n  - "R . . ."\n  - "R . . . ."\n')
    with pytest.raises(FarmFileError) as exc:
        score_farm_file(path, revised)
    assert located(str(exc.value), path, 4, 5, "E142"), str(exc.value)


def test_error_animals_do_not_fit(tmp_path, revised):
    path = tmp_path / "bad.yaml"
    # one 1-space pasture (2) + the house (1) cannot hold 4 sheep
    path.write_text('house: wood\nfarmyard:\n  - ". . . . P"\n  - "R . . . ."\n  - "R . . . ."\n'
                    'animals: {sheep: 4}\n')
    with pytest.raises(FarmFileError) as exc:
        score_farm_file(path, revised)
    assert located(str(exc.value), path, 6, 10, "E148"), str(exc.value)


def test_error_one_type_per_pasture(tmp_path, revised):
    path = tmp_path / "bad.yaml"
    # two 1-space pastures (2 + 2) and the house (1): 3 sheep + 3 boar do not fit
    path.write_text('house: wood\nfarmyard:\n  - ". . . P P"\n  - "R . . . ."\n  - "R . . . ."\n'
                    'pastures: [A4, A5]\nanimals: {sheep: 3, boar: 3}\n')
    with pytest.raises(FarmFileError) as exc:
        score_farm_file(path, revised)
    assert located(str(exc.value), path, 7, 10, "E148"), str(exc.value)
    # with an unfenced stable for the extra boar they fit
    path.write_text('house: wood\nfarmyard:\n  - ". . . P P"\n  - "R . . . S"\n  - "R . . . ."\n'
                    'pastures: [A4, A5]\nanimals: {sheep: 3, boar: 3}\n')
    result, _ = score_farm_file(path, revised)
    assert result["categories"]["sheep"] == 1 and result["categories"]["boar"] == 2


def test_error_unknown_improvement(tmp_path, revised):
    path = tmp_path / "bad.yaml"
    path.write_text('house: wood\nfarmyard:\n  - ". . . . ."\n  - "R . . . ."\n  - "R . . . ."\n'
                    'improvements: [well, joinry]\n')
    with pytest.raises(FarmFileError) as exc:
        score_farm_file(path, revised)
    # line 6, 'joinry' starts at column 22 of 'improvements: [well, joinry]'
    assert located(str(exc.value), path, 6, 22, "E147"), str(exc.value)


def test_the_points_of_one_category_and_of_a_category_the_game_does_not_score(revised):
    """runtime.scoring.score (the query score(…)): the starting farm's fields score -1, pastures -1; a
    category the game's table does not have scores 0."""
    from runtime import scoring
    from runtime.engine import Game
    g = Game(revised, 2, seed=1)
    p = g.players[0]
    assert (scoring.score(g, p, "fields"), scoring.score(g, p, "pastures")) == (-1, -1)
    assert scoring.score(g, p, "no_such_category") == 0
