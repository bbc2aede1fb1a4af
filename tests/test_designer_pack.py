"""The designer test of issue 11 (docs/scenarios.md, "The designer test"): the test pack ``designer-cd``
of real cards of the revised deck D, written from the README and the docs alone, compiles, and the texts
the designer found wrong (and those of the cards written with the features added for them) read word for
word as below. Its scenarios run in tests/test_scenarios.py."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACK_CARDS = ROOT / "tests" / "packs" / "cards" / "designer-cd"

TEXTS = {
    "chairman": ['Each time before another player uses "Meeting Place": that player gets 1 food from the general '
                 "supply and you get 1 food.",
                 'Each time before you use "Meeting Place": get 1 food.'],
    "pure_breeder": ["When you play this card: get 1 wood.",
                     "In the returning home phase of each round, if this round does not end with a harvest: you may "
                     "choose one: your sheep breed (if there is room for the newborn animal), your wild boar breed "
                     "(if there is room for the newborn animal) or your cattle breed (if there is room for the "
                     "newborn animal)."],
    "storks_nest": ["In the returning home phase of each round, if you have more rooms than people: you may pay 1 "
                    "food to have a child (you need a free room)."],
    "recycled_brick": ["Each time any player (you included) renovates to stone: get (the acting player's rooms) "
                       "clay."],
    "sheep_well": ["When you play this card: place 1 food on as many of the next round spaces as you have sheep "
                   "(counted then); you get them at the start of those rounds."],
    "furrows": ["When you play this card: you may sow at most 1 field."],
    "trowel": ["At any time, if you live in a wood house, you may renovate your house to stone for 1 stone for each "
               "room, 1 reed for each room and 1 food for each room.",
               "At any time, if you live in a clay house, you may renovate your house to stone for 1 stone for "
               "each room."],
    "fish_farmer": ['Each time you use "Reed Bank", if the food lying on "Fishing" is 1: get 2 food.',
                    'Each time you use "Clay Pit", if the food lying on "Fishing" is 2: get 2 food.',
                    'Each time you use "Forest", if the food lying on "Fishing" is at least 3: get 2 food.'],
}


@pytest.fixture(scope="module")
def designer_pack(tmp_path_factory):
    from compiler import english
    from compiler.build import Compiler
    from compiler.diagnostics import Report
    comp = Compiler(ROOT, tmp_path_factory.mktemp("designer"), extra_pack_dirs=[ROOT / "tests" / "packs" / "rules"])
    src, checked, report = comp.check("designer-cd", Report())
    assert checked is not None and not report.errors and not report.warnings, report.render()
    eng = english.for_pack(checked)
    return checked, {u.id: english.card_lines(eng, u) for u in checked.cards}


def test_every_card_of_the_designer_test_is_in_the_pack_with_its_scenarios(designer_pack):
    checked, _ = designer_pack
    files = sorted(p.name.removesuffix(".yaml") for p in PACK_CARDS.rglob("*.yaml") if not p.name.endswith(".test.yaml"))
    own = sorted(u.id for u in checked.cards if u.id in files)
    assert own == files and len(files) == 20
    assert all((p.parent / f"{p.name.removesuffix('.yaml')}.test.yaml").exists()
               for p in PACK_CARDS.rglob("*.yaml") if not p.name.endswith(".test.yaml"))


@pytest.mark.parametrize("cid", sorted(TEXTS))
def test_designer_card_text(designer_pack, cid):
    _, lines = designer_pack
    rules = [line for line in lines[cid][1:] if not line.startswith("Cost:")]   # after the name and the facts
    assert rules == TEXTS[cid]


def test_designer_card_with_alternative_prices(designer_pack):
    # Pigswill's two printed prices, written as the designer meant them (docs/language.md 4.3)
    _, lines = designer_pack
    assert lines["pigswill"][1] == "Cost: 2 food or 1 grain · Points: 0"
