"""Incremental builds: after any change to a pack, compiling into the old build folder gives exactly
what a clean build gives: the same diagnostics and, when it succeeds, byte for byte the same modules.

A cached card module is kept only while the card file, the compiler and the pack's names are the same;
these tests change the names a card uses (an action space id, a space tag, a card id, a card tag) without
touching the card, and the lines of a file without changing its data.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler.build import Compiler

REPO = Path(__file__).resolve().parent.parent

# A card that names another card and a card tag, so that renaming those has someone to break.
FAN = """id: basket_fan
name: Basket Fan
kind: minor
deck: A
number: 999
cost: 1 wood
points: 0
bonus_points: true
passing: false
effects: |
  at scoring: bonus 1 if has(basket)
  at scoring: bonus 1 if has(#well)
"""


@pytest.fixture
def ws(tmp_path):
    """A workspace with the revised pack, its cards and the fan card; compiled once into ``build``."""
    root = tmp_path / "ws"
    (root / "rules").mkdir(parents=True)
    shutil.copytree(REPO / "rules" / "revised", root / "rules" / "revised")
    shutil.copy(REPO / "rules" / "defaults.yaml", root / "rules" / "defaults.yaml")
    shutil.copytree(REPO / "cards" / "revised", root / "cards" / "revised",
                    ignore=shutil.ignore_patterns("*.test.yaml"))
    (root / "cards" / "revised" / "A" / "basket_fan.yaml").write_text(FAN, encoding="utf-8")
    result = Compiler(root, tmp_path / "build").compile("revised")
    assert result.ok, result.report.render()
    return root


def _tree(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def _edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == count, f"{old!r} occurs {text.count(old)} times in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def _rebuild(ws: Path):
    """Compile again into the old build folder and into a new one; both must agree. Returns the
    incremental result and the set of files of the cards that have errors."""
    incremental = Compiler(ws, ws.parent / "build").compile("revised")
    clean = Compiler(ws, ws.parent / "clean").compile("revised")
    assert incremental.report.render() == clean.report.render()
    assert incremental.ok == clean.ok
    if clean.ok:
        assert _tree(ws.parent / "build") == _tree(ws.parent / "clean")
    return incremental, {Path(d.span.file).name for d in incremental.report.errors}


def test_renaming_an_action_space_breaks_the_cached_cards_that_use_it(ws):
    _edit(ws / "rules/revised/actions.yaml", "- id: fishing\n", "- id: fishing_pond\n")
    result, files = _rebuild(ws)
    assert not result.ok
    assert files == {"brook.yaml", "canoe.yaml", "harpooner.yaml", "herring_pot.yaml"}
    assert {d.message for d in result.report.errors} == {"unknown action space 'fishing' (did you mean 'fishing_pond'?)"}


def test_renaming_a_space_tag_breaks_the_cached_cards_that_use_it(ws):
    _edit(ws / "rules/revised/actions.yaml", "wood_accumulation", "wood_pile", count=3)
    result, files = _rebuild(ws)
    assert not result.ok
    assert files == {"basket.yaml", "mushroom_collector.yaml", "wood_cutter.yaml", "oven_firing_boy.yaml"}
    assert {d.message for d in result.report.errors} == {
        "unknown action space tag '#wood_accumulation' (did you mean '#food_accumulation'?)"}


def test_renaming_a_card_breaks_the_cached_cards_that_name_it(ws):
    old = ws / "cards/revised/A/basket.yaml"
    text = old.read_text(encoding="utf-8")
    old.unlink()
    (ws / "cards/revised/A/wicker_basket.yaml").write_text(text.replace("id: basket\n", "id: wicker_basket\n"),
                                                          encoding="utf-8")
    result, files = _rebuild(ws)
    assert not result.ok
    assert files == {"basket_fan.yaml"}
    assert [d.message for d in result.report.errors] == ["unknown card 'basket' (did you mean 'basket_fan'?)"]


def test_renaming_a_card_tag_breaks_the_cached_cards_that_use_it(ws):
    _edit(ws / "rules/revised/majors.yaml", "tags: [well]", "tags: [water]")
    result, files = _rebuild(ws)
    assert not result.ok
    assert files == {"basket_fan.yaml"}
    assert [d.message for d in result.report.errors] == ["unknown card tag '#well'"]


def test_renaming_consistently_rebuilds_and_matches_a_clean_build(ws):
    _edit(ws / "rules/revised/actions.yaml", "- id: fishing\n", "- id: fishing_pond\n")
    for card in ("A/canoe.yaml", "A/harpooner.yaml", "B/herring_pot.yaml"):
        _edit(ws / "cards/revised" / card, "use fishing:", "use fishing_pond:")
    _edit(ws / "cards/revised/B/brook.yaml", "yours(fishing)", "yours(fishing_pond)")
    result, files = _rebuild(ws)
    assert result.ok, result.report.render()
    assert {"card_brook", "card_canoe", "card_harpooner", "card_herring_pot", "spaces"} <= set(result.written)


@pytest.mark.parametrize("file", ["cards/revised/A/basket.yaml", "rules/revised/actions.yaml",
                                  "rules/revised/majors.yaml", "rules/revised/game.yaml"])
def test_a_comment_line_that_moves_the_rest_of_a_file_down_rebuilds_its_module(ws, file):
    """The modules name the file and line of every rule (for messages and tracing): a line added at the
    top changes no data but every line number after it."""
    path = ws / file
    path.write_text("# a note\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    result, files = _rebuild(ws)
    assert result.ok, result.report.render()
    assert result.written


def test_moving_a_card_file_to_another_folder_rebuilds_its_module(ws):
    (ws / "cards/revised/B/basket.yaml").write_text((ws / "cards/revised/A/basket.yaml").read_text(encoding="utf-8"),
                                                    encoding="utf-8")
    (ws / "cards/revised/A/basket.yaml").unlink()
    result, files = _rebuild(ws)
    # whether or not the pack accepts a deck-A card in folder B, the two builds agree (checked in _rebuild)
    if result.ok:
        assert "card_basket" in result.written
