"""Incremental builds: after any change to a pack, compiling into the old build folder gives exactly
what a clean build gives: the same diagnostics and, when it succeeds, byte for byte the same modules.

A cached card module is kept only while the card file, the compiler and the pack's names are the same;
these tests change the names a card uses (an action space id, a space tag, a card id, a card tag) without
touching the card, and the lines of a file without changing its data.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from compiler.build import Compiler

REPO = Path(__file__).resolve().parent.parent

# A card that names another card and a card tag, so that renaming those has someone to break; the
# card it names is chosen from the pack (FAN_TARGET), not written here.
FAN = """id: card_fan
name: Card Fan
kind: minor
deck: A
number: 999
cost: 1 wood
points: 0
bonus_points: true
passing: false
effects: |
  at scoring: bonus 1 if has({target})
  at scoring: bonus 1 if has(#well)
"""


def _effect_text(path: Path) -> str:
    """The effects and prerequisite of a card file, without comments."""
    lines = path.read_text(encoding="utf-8").split("\n")
    keep, inside = [], False
    for line in lines:
        if re.match(r"^(effects|requires):", line):
            inside = True
        elif re.match(r"^[a-z_]+:", line):
            inside = False
        if inside and not line.lstrip().startswith("#"):
            keep.append(line)
    return "\n".join(keep)


def _cards_using(ws: Path, pattern: str) -> set:
    """The card files whose effects or prerequisite match ``pattern``."""
    found = {p.name for p in (ws / "cards/revised").glob("*/*.yaml")
             if not p.name.endswith(".test.yaml") and re.search(pattern, _effect_text(p))}
    assert found, f"no card uses {pattern!r}"
    return found


SPACE = r"(?<![#\w])fishing(?!\w)"     # the action space id, not the tag #above_fishing
TAG = r"#wood_accumulation(?!\w)"


def _a_minor(ws: Path) -> Path:
    """The first minor improvement of deck A, by file name."""
    return next(p for p in sorted((ws / "cards/revised/A").glob("*.yaml"))
                if not p.name.endswith(".test.yaml") and "\nkind: minor\n" in p.read_text(encoding="utf-8"))


@pytest.fixture
def ws(tmp_path):
    """A workspace with the revised pack, its cards and the fan card; compiled once into ``build``."""
    root = tmp_path / "ws"
    (root / "rules").mkdir(parents=True)
    shutil.copytree(REPO / "rules" / "revised", root / "rules" / "revised")
    shutil.copy(REPO / "rules" / "defaults.yaml", root / "rules" / "defaults.yaml")
    shutil.copytree(REPO / "cards" / "revised", root / "cards" / "revised",
                    ignore=shutil.ignore_patterns("*.test.yaml"))
    target = _a_minor(root).stem
    (root / "cards" / "revised" / "A" / "card_fan.yaml").write_text(FAN.format(target=target), encoding="utf-8")
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
    users = _cards_using(ws, SPACE)
    _edit(ws / "rules/revised/actions.yaml", "- id: fishing\n", "- id: fishing_pond\n")
    result, files = _rebuild(ws)
    assert not result.ok
    assert files == users
    assert {d.message for d in result.report.errors} == {"unknown action space 'fishing' (did you mean 'fishing_pond'?)"}


def test_renaming_a_space_tag_breaks_the_cached_cards_that_use_it(ws):
    users = _cards_using(ws, TAG)
    _edit(ws / "rules/revised/actions.yaml", "wood_accumulation", "wood_pile", count=3)
    result, files = _rebuild(ws)
    assert not result.ok
    assert files == users
    assert {d.message for d in result.report.errors} == {
        "unknown action space tag '#wood_accumulation' (did you mean '#food_accumulation'?)"}


def test_renaming_a_card_breaks_the_cached_cards_that_name_it(ws):
    old = _a_minor(ws)
    cid = old.stem
    text = old.read_text(encoding="utf-8")
    old.unlink()
    (old.parent / f"{cid}_renamed.yaml").write_text(text.replace(f"id: {cid}\n", f"id: {cid}_renamed\n"),
                                                    encoding="utf-8")
    result, files = _rebuild(ws)
    assert not result.ok
    assert files == {"card_fan.yaml"}
    [message] = [d.message for d in result.report.errors]
    assert re.fullmatch(rf"unknown card '{cid}'( \(did you mean '\w+'\?\))?", message), message


def test_renaming_a_card_tag_breaks_the_cached_cards_that_use_it(ws):
    _edit(ws / "rules/revised/majors.yaml", "tags: [well]", "tags: [water]")
    result, files = _rebuild(ws)
    assert not result.ok
    assert files == {"card_fan.yaml"}
    assert [d.message for d in result.report.errors] == ["unknown card tag '#well'"]


def test_renaming_consistently_rebuilds_and_matches_a_clean_build(ws):
    users = _cards_using(ws, SPACE)
    _edit(ws / "rules/revised/actions.yaml", "- id: fishing\n", "- id: fishing_pond\n")
    for path in (ws / "cards/revised").glob("*/*.yaml"):
        if path.name in users:
            path.write_text(re.sub(SPACE, "fishing_pond", path.read_text(encoding="utf-8")), encoding="utf-8")
    result, files = _rebuild(ws)
    assert result.ok, result.report.render()
    assert {"card_" + Path(name).stem for name in users} | {"spaces"} <= set(result.written)


@pytest.mark.parametrize("file", ["a card", "rules/revised/actions.yaml", "rules/revised/majors.yaml",
                                  "rules/revised/game.yaml"])
def test_a_comment_line_that_moves_the_rest_of_a_file_down_rebuilds_its_module(ws, file):
    """The modules name the file and line of every rule (for messages and tracing): a line added at the
    top changes no data but every line number after it."""
    path = _a_minor(ws) if file == "a card" else ws / file
    path.write_text("# a note\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    result, files = _rebuild(ws)
    assert result.ok, result.report.render()
    assert result.written


def test_moving_a_card_file_to_another_folder_rebuilds_its_module(ws):
    card = _a_minor(ws)
    (ws / "cards/revised/B" / card.name).write_text(card.read_text(encoding="utf-8"), encoding="utf-8")
    card.unlink()
    result, files = _rebuild(ws)
    # whether or not the pack accepts a deck-A card in folder B, the two builds agree (checked in _rebuild)
    if result.ok:
        assert f"card_{card.stem}" in result.written
