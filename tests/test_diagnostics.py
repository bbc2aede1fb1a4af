"""Diagnostics, word for word: every mistake a designer or modder can make in a rule pack is reported
as ``path:line:col: error[CODE]: message``, the source line, a caret under the exact span and a hint
when there is one; then ``1 problem found`` or ``N problems found`` and exit status 2, never a traceback.

Each case copies the real packs ``rules/revised`` and ``rules/revised-family`` into a temporary root,
changes one thing, and runs ``agricola --root ROOT validate ROOT/rules/<pack>`` in-process.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from compiler import cli, parser
from compiler import nodes as N
from compiler.diagnostics import Report, Span

from test_english import SYNTHETIC_BODIES, SYNTHETIC_RULES
from test_faults import snapshot

REPO = Path(__file__).resolve().parent.parent
PACKS = ("revised", "revised-family")


# ---------------------------------------------------------------- helpers

@pytest.fixture
def root(tmp_path, monkeypatch):
    """A root folder holding copies of the built-in packs; the working directory is that folder (files are
    printed relative to it), so that nothing is read relative to the project checkout."""
    (tmp_path / "rules").mkdir()
    for pack in PACKS:
        shutil.copytree(REPO / "rules" / pack, tmp_path / "rules" / pack)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def edit(root: Path, rel: str, old: str, new: str) -> None:
    """Replace the one occurrence of ``old`` in ``rules/<rel>`` by ``new``."""
    path = root / "rules" / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {rel}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def validate(root: Path, capsys, *targets: str):
    """Run ``agricola --root ROOT validate ROOT/rules/<target>…``; returns (status, stdout, stderr).
    A refused pack is left as it was: nothing under the root changes (checked on every call)."""
    paths = [str(root / "rules" / t) for t in targets]
    before = snapshot(root)
    status = cli.main(["--root", str(root), "validate", *paths])
    out = capsys.readouterr()
    assert snapshot(root) == before, "validate changed files"
    return status, out.out, out.err


def block(*lines: str) -> str:
    return "\n".join(lines)


def check(root: Path, capsys, pack: str, *diagnostics: str) -> str:
    """Validate ``pack`` and compare stderr word for word with the given diagnostics."""
    status, out, err = validate(root, capsys, pack)
    n = len(diagnostics)
    expected = "\n".join(diagnostics) + f"\n{n} problem{'s' if n != 1 else ''} found\n"
    assert "Traceback" not in out + err
    assert "internal error" not in out + err
    assert err == expected
    assert out == ""
    assert status == 2
    _check_carets(root, err)
    return err


_HEADER = re.compile(r"^(rules/[^:]+):(\d+):(\d+): error\[E\d+\]: ")


def _check_carets(root: Path, err: str) -> None:
    """Cross-check every located diagnostic: the shown line is that line of the file on disk, and the
    caret starts at the reported column."""
    lines = err.split("\n")
    for i, line in enumerate(lines):
        m = _HEADER.match(line)
        if not m or i + 2 >= len(lines) or not lines[i + 1].startswith("  "):
            continue
        path, lineno, col = m.group(1), int(m.group(2)), int(m.group(3))
        # shown as the tool shows them: lines as an editor counts them, bad bytes replaced, control characters
        # as blanks
        text = (root / path).read_bytes().decode("utf-8", errors="replace")
        file_lines = ["".join(c if c.isprintable() or c == "\t" else " " for c in line.removesuffix("\r"))
                      for line in text.split("\n")]
        assert lines[i + 1] == "  " + file_lines[lineno - 1].expandtabs(1)
        caret = lines[i + 2]
        assert caret.startswith("  ") and caret.strip(" ").strip("^") == ""
        assert len(caret) - len(caret.lstrip(" ")) == col - 1 + 2


# ---------------------------------------------------------------- stage 1: YAML

def test_invalid_yaml_unquoted_colon(root, capsys):
    edit(root, "revised/actions.yaml", "  name: Day Laborer\n", "  name: Day Laborer: the best\n")
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:25:20: error[E101]: invalid YAML: mapping values are not allowed here",
        "    name: Day Laborer: the best",
        "                     ^",
        "  = hint: text that contains ': ' must be quoted (\"…\") or written as a block after '|'",
    ))


def test_invalid_yaml_unquoted_colon_in_effect(root, capsys):
    edit(root, "revised/actions.yaml", "  effect: gain 2 food\n", "  effect: gain 2 food: now\n")
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:26:22: error[E101]: invalid YAML: mapping values are not allowed here",
        "    effect: gain 2 food: now",
        "                       ^",
        "  = hint: text that contains ': ' must be quoted (\"…\") or written as a block after '|'",
    ))


def test_yaml_merge_key_refused(root, capsys):
    edit(root, "revised/game.yaml", "supply: {fences: 15, stables: 4}\n",
         "base: &b {fences: 15, stables: 4}\nsupply: {<<: *b}\n")
    check(root, capsys, "revised", block(
        "rules/revised/game.yaml:25:10: error[E102]: YAML merge keys ('<<') are not allowed",
        "  supply: {<<: *b}",
        "           ^^",
    ))


def test_duplicate_key(root, capsys):
    edit(root, "revised/actions.yaml", "  name: Grain Seeds\n", "  name: Grain Seeds\n  name: Seeds\n")
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:13:3: error[E106]: duplicate key 'name'",
        "    name: Seeds",
        "    ^^^^",
        "  = hint: the first 'name' is on line 12",
    ))


def test_file_not_utf8(root, capsys):
    path = root / "rules/revised/actions.yaml"
    path.write_bytes(path.read_bytes().replace(b"name: Day Laborer", b"name: Day Lab\xf6rer"))
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:25:16: error[E109]: file is not valid UTF-8 text",
        "    name: Day Lab\ufffdrer",
        "                 ^",
    ))


def test_file_with_nul_byte(root, capsys):
    path = root / "rules/revised/actions.yaml"
    path.write_bytes(path.read_bytes().replace(b"name: Day Laborer", b"name: Day Lab\x00rer"))
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:25:16: error[E109]: file contains a NUL byte; it is not a text file",
        "    name: Day Lab rer",
        "                 ^",
    ))


def test_file_over_size_limit(root, capsys, monkeypatch):
    import compiler.loader
    limit = max(p.stat().st_size for p in (root / "rules").rglob("*.yaml")) + 10
    monkeypatch.setattr(compiler.loader, "MAX_FILE_BYTES", limit)
    path = root / "rules/revised/majors.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "#" * (limit + 1) + "\n", encoding="utf-8")
    size = path.stat().st_size
    check(root, capsys, "revised",
          f"rules/revised/majors.yaml:1:1: error[E108]: file is {size} bytes; the limit is {limit} bytes")


def test_nesting_too_deep(root, capsys):
    path = root / "rules/revised/game.yaml"
    deep = "deep:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(70))
    text = path.read_text(encoding="utf-8")
    path.write_text(text + deep, encoding="utf-8")
    line = len(text.splitlines()) + 1 + 64   # 'deep:', then k0 … k63 on the lines after it
    check(root, capsys, "revised",
          block(
              f"rules/revised/game.yaml:{line}:129: error[E103]: nesting deeper than 64 levels",
              "  " + " " * 128 + "k63:",
              "  " + " " * 128 + "^",
          ))


@pytest.mark.parametrize("deep", ["not " * 2000 + "1", "- " * 3000 + "1"])
def test_effect_text_nested_too_deeply(root, capsys, deep):
    # within the length limit, but too deep to walk: 'not not … 1' was an internal error (RecursionError)
    rule = f"on play if {deep}: gain 1 food"
    check_card(root, capsys, CARD.replace("on play: gain 1 food", rule), block(
        "cards/revised/T/test_card.yaml:7:3: error[E207]: effect text is nested too deeply",
        "  " + ("  " + rule)[:160] + "…",   # a long line is shown in part
        "    ^",
    ))


# ---------------------------------------------------------------- stage 2: schema

def test_unknown_key_did_you_mean(root, capsys):
    edit(root, "revised/actions.yaml", "  accumulate: 1 reed\n", "  acumulate: 1 reed\n")
    check(root, capsys, "revised",
          block(
              "rules/revised/actions.yaml:41:3: error[E110]: unknown key 'acumulate' in action space (did you mean 'accumulate'?)",
              "    acumulate: 1 reed",
              "    ^^^^^^^^^",
          ))


def test_missing_required_key(root, capsys):
    edit(root, "revised/majors.yaml", "  cost: 1 wood, 3 stone\n", "")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:40:3: error[E111]: major improvement is missing the required key 'cost'",
        "  - id: well",
        "    ^",
    ))


def test_wrong_type_text_for_list(root, capsys):
    edit(root, "revised/actions.yaml", "  tags: [food_accumulation]\n  accumulate: 1 food\n\n# ---- the 3",
         "  tags: food_accumulation\n  accumulate: 1 food\n\n# ---- the 3")
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:45:9: error[E112]: 'tags' must be a list, not text",
        "    tags: food_accumulation",
        "          ^^^^^^^^^^^^^^^^^",
    ))


def test_wrong_type_text_for_number(root, capsys):
    edit(root, "revised/game.yaml", "rounds: 14\n", "rounds: many\n")
    check(root, capsys, "revised", block(
        "rules/revised/game.yaml:7:9: error[E112]: 'rounds' must be a whole number, not text",
        "  rounds: many",
        "          ^^^^",
    ))


def test_wrong_type_number_for_boolean(root, capsys):
    edit(root, "revised/majors.yaml", "  bonus_points: true\n  tags: [workshop]\n  effects: |\n    in harvest: wood",
         "  bonus_points: 3\n  tags: [workshop]\n  effects: |\n    in harvest: wood")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:70:17: error[E112]: 'bonus_points' must be true or false, not a number",
        "    bonus_points: 3",
        "                  ^",
    ))


def test_wrong_type_effects_as_list(root, capsys):
    edit(root, "revised/majors.yaml", "  effects: |\n    on build: schedule", "  effects:\n    - on build: schedule")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:46:5: error[E112]: 'effects' must be text, not a list",
        "      - on build: schedule 1 food on next 5 rounds",
        "      ^",
    ))


def test_entry_not_a_mapping(root, capsys):
    edit(root, "revised/majors.yaml", "- id: well\n", "- well\n- id: well\n")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:40:3: error[E112]: each entry must be a mapping (starting with '- id: …')",
        "  - well",
        "    ^^^^",
    ))


def test_invalid_id(root, capsys):
    edit(root, "revised/actions.yaml", "- id: day_laborer\n", "- id: Day-Laborer\n")
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:24:7: error[E114]: 'Day-Laborer' is not a valid id: use lower-case letters, "
        "digits and '_', starting with a letter",
        "  - id: Day-Laborer",
        "        ^^^^^^^^^^^",
    ))


def test_number_out_of_range(root, capsys):
    edit(root, "revised/game.yaml", "supply: {fences: 15, stables: 4}", "supply: {fences: -1, stables: 4}")
    check(root, capsys, "revised", block(
        "rules/revised/game.yaml:24:18: error[E115]: 'fences' must be at least 0, not -1",
        "  supply: {fences: -1, stables: 4}",
        "                   ^^",
    ))


# ---------------------------------------------------------------- packs and overlays

def test_unknown_pack_in_extends(root, capsys):
    edit(root, "revised-family/game.yaml", "extends: revised\n", "extends: revisd\n")
    check(root, capsys, "revised-family", block(
        "rules/revised-family/game.yaml:2:10: error[E120]: unknown pack 'revisd' in 'extends' (did you mean 'revised'?)",
        "  extends: revisd",
        "           ^^^^^^",
        "  = hint: packs here: revised",
    ))


def test_pack_extends_itself(root, capsys):
    edit(root, "revised-family/game.yaml", "extends: revised\n", "extends: revised-family\n")
    check(root, capsys, "revised-family", block(
        "rules/revised-family/game.yaml:2:10: error[E123]: pack 'revised-family' extends 'revised-family', "
        "which leads back to itself",
        "  extends: revised-family",
        "           ^^^^^^^^^^^^^^",
    ))


def test_remove_entry_base_lacks(root, capsys):
    edit(root, "revised-family/actions.yaml", "- id: lessons_extra\n", "- id: lesson_extra\n")
    check(root, capsys, "revised-family", block(
        "rules/revised-family/actions.yaml:10:7: error[E124]: cannot remove 'lesson_extra': the base pack has no "
        "such entry (did you mean 'lessons_extra'?)",
        "  - id: lesson_extra",
        "        ^^^^^^^^^^^^",
    ))


def test_duplicate_id_across_spaces_and_rounds(root, capsys):
    edit(root, "revised/rounds.yaml", "- id: fencing\n", "- id: farmland\n")
    check(root, capsys, "revised", block(
        "rules/revised/rounds.yaml:8:7: error[E121]: duplicate id 'farmland'",
        "  - id: farmland",
        "        ^^^^^^^^",
        "  = hint: 'farmland' is already used at rules/revised/actions.yaml:15",
    ))


def test_duplicate_id_in_majors(root, capsys):
    edit(root, "revised/majors.yaml", "- id: fireplace_3\n", "- id: fireplace_2\n")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:11:7: error[E121]: duplicate id 'fireplace_2'",
        "  - id: fireplace_2",
        "        ^^^^^^^^^^^",
        "  = hint: 'fireplace_2' is already used at rules/revised/majors.yaml:2",
    ))


def test_game_id_differs_from_folder(root, capsys):
    edit(root, "revised-family/game.yaml", "id: revised-family\n", "id: family\n")
    check(root, capsys, "revised-family", block(
        "rules/revised-family/game.yaml:3:5: error[E122]: game.yaml says id 'family' but the pack folder is "
        "'revised-family'",
        "  id: family",
        "      ^^^^^^",
    ))


def test_stage_on_board_space(root, capsys):
    edit(root, "revised/actions.yaml", "  name: Farmland\n", "  name: Farmland\n  stage: 2\n")
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:17:10: error[E135]: 'farmland' is a board action space and cannot have a "
        "'stage' (round cards go in rounds.yaml)",
        "    stage: 2",
        "           ^",
    ))


def test_no_such_path(root, capsys):
    missing = root / "rules" / "nopack"
    status = cli.main(["--root", str(root), "validate", str(missing)])
    out = capsys.readouterr()
    assert out.err == f"{missing}: error[E100]: no such file or folder\n1 problem found\n"
    assert status == 2 and "Traceback" not in out.out + out.err


# ---------------------------------------------------------------- effect language, inside `|` blocks

def test_effect_unexpected_character_in_block(root, capsys):
    edit(root, "revised/majors.yaml", "    on build: may bake\n\n- id: stone_oven",
         "    on build: may bake!\n\n- id: stone_oven")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:55:23: error[E201]: unexpected character '!'",
        "      on build: may bake!",
        "                        ^",
    ))


def test_effect_unexpected_token_in_block(root, capsys):
    edit(root, "revised/majors.yaml", "    bake: grain -> 5 food (at most once)\n",
         "    bake: grain -> 5 food (at most once))\n")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:54:41: error[E202]: unexpected ')'; expected ';', end of line",
        "      bake: grain -> 5 food (at most once))",
        "                                          ^",
    ))


def test_effect_misspelled_keyword_lists_expected(root, capsys):
    edit(root, "revised/majors.yaml", "    in harvest: clay -> 2 food (at most once)\n",
         "    in harvest: clay -> 2 food (at most onse)\n")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:83:41: error[E202]: unexpected 'onse'; expected '(', 'once', 'twice', a number",
        "      in harvest: clay -> 2 food (at most onse)",
        "                                          ^^^^",
    ))


def test_effect_unfinished_line(root, capsys):
    edit(root, "revised/majors.yaml", "    on build: schedule 1 food on next 5 rounds\n",
         "    on build: schedule 1 food on next\n")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:46:38: error[E202]: unexpected end of line; expected '(', a number",
        "      on build: schedule 1 food on next",
        "                                       ^",
    ))


def test_unknown_good_in_block(root, capsys):
    edit(root, "revised/majors.yaml",
         "- id: fireplace_2\n  name: Fireplace\n  cost: 2 clay\n  points: 1\n  tags: [fireplace, cooking, baking]\n"
         "  effects: |\n    any time: vegetable -> 2 food; sheep",
         "- id: fireplace_2\n  name: Fireplace\n  cost: 2 clay\n  points: 1\n  tags: [fireplace, cooking, baking]\n"
         "  effects: |\n    any time: vegetable -> 2 food; sheeps")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:8:36: error[E203]: unknown good 'sheeps' (did you mean 'sheep'?)",
        "      any time: vegetable -> 2 food; sheeps -> 2 food; boar -> 2 food; cattle -> 3 food",
        "                                     ^^^^^^",
    ))


def test_unknown_good_in_block_after_comment_line(root, capsys):
    edit(root, "revised/majors.yaml", "  effects: |\n    on build: schedule 1 food on next 5 rounds",
         "  effects: |\n    # the well fills up\n    on build: schedule 1 fod on next 5 rounds")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:47:26: error[E203]: unknown good 'fod' (did you mean 'food'?)",
        "      on build: schedule 1 fod on next 5 rounds",
        "                           ^^^",
    ))


def test_unknown_good_in_game_exchanges_block(root, capsys):
    edit(root, "revised/game.yaml", "  any time: grain -> 1 food; vegetable -> 1 food\n",
         "  any time: grain -> 1 food; vegetable -> 1 food\n  any time: grain -> 1 foood\n")
    check(root, capsys, "revised", block(
        "rules/revised/game.yaml:58:24: error[E203]: unknown good 'foood' (did you mean 'food'?)",
        "    any time: grain -> 1 foood",
        "                         ^^^^^",
    ))


def test_unknown_good_in_cost(root, capsys):
    edit(root, "revised/majors.yaml", "  cost: 1 wood, 3 stone\n", "  cost: 1 wood, 3 stonne\n")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:42:19: error[E203]: unknown good 'stonne' (did you mean 'stone'?)",
        "    cost: 1 wood, 3 stonne",
        "                    ^^^^^^",
    ))


def test_unknown_quantity_in_quoted_scoring(root, capsys):
    edit(root, "revised/game.yaml", '"tier(pastures;', '"tier(pasturs;')
    check(root, capsys, "revised", block(
        "rules/revised/game.yaml:63:51: error[E204]: unknown quantity 'pasturs' (did you mean 'pastures'?)",
        '    - {id: pastures, label: Pastures, points: "tier(pasturs; 0: -1, 1: 1, 2: 2, 3: 3, 4: 4)"}',
        "                                                    ^^^^^^^",
    ))


BASKET = "    in harvest: reed -> 3 food (at most once)\n"


def _add_rule(root, rule):
    """Add one rule line to the Basketmaker's Workshop (it lands on majors.yaml line 94)."""
    edit(root, "revised/majors.yaml", BASKET, BASKET + "    " + rule + "\n")


def test_unknown_action_space_in_trigger(root, capsys):
    _add_rule(root, "after you use reedbank: gain 1 reed")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:94:19: error[E205]: unknown action space 'reedbank' (did you mean 'reed_bank'?)",
        "      after you use reedbank: gain 1 reed",
        "                    ^^^^^^^^",
    ))


def test_unknown_action_space_in_occupied(root, capsys):
    _add_rule(root, "at returning home if occupied(fishin): gain 1 food")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:94:35: error[E205]: unknown action space 'fishin' (did you mean 'fishing'?)",
        "      at returning home if occupied(fishin): gain 1 food",
        "                                    ^^^^^^",
    ))


def test_wrong_arity(root, capsys):
    _add_rule(root, "at returning home if occupied(fishing, forest): gain 1 food")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:94:26: error[E206]: occupied() takes 1 argument, not 2",
        "      at returning home if occupied(fishing, forest): gain 1 food",
        "                           ^^^^^^^^^^^^^^^^^^^^^^^^^",
    ))


def test_unknown_house_material_in_trigger(root, capsys):
    _add_rule(root, "after you renovate to stones: gain 1 food")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:94:27: error[E208]: unknown house material 'stones' (did you mean 'stone'?)",
        "      after you renovate to stones: gain 1 food",
        "                            ^^^^^^",
    ))


def test_unknown_house_material_in_house_values(root, capsys):
    edit(root, "revised/game.yaml", "house(wood: 0, clay: 1, stone: 2)", "house(wood: 0, clay: 1, ston: 2)")
    line = '    - {id: rooms, label: Rooms, points: "rooms * house(wood: 0, clay: 1, ston: 2)"}'
    check(root, capsys, "revised",
          block(
              "rules/revised/game.yaml:71:48: error[E208]: house(...) gives no value for a stone house",
              line,
              "  " + " " * 47 + "^" * len("house(wood: 0, clay: 1, ston: 2)"),
          ),
          block(
              "rules/revised/game.yaml:71:72: error[E208]: unknown house material 'ston' (did you mean 'stone'?)",
              line,
              "  " + " " * 71 + "^^^^",
          ))


def test_unknown_cost_target(root, capsys):
    _add_rule(root, "cost of stabels: -1 wood")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:94:13: error[E209]: unknown cost target 'stabels' (did you mean 'stable'?); "
        "cost targets: feeding, fence, improvement, major, minor, occupation, renovation, room, stable, a card id "
        "or a card #tag",
        "      cost of stabels: -1 wood",
        "              ^^^^^^^",
    ))


def test_unknown_capacity_target_lists_the_targets(root, capsys):
    _add_rule(root, "capacity of pastur: +1")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:94:17: error[E211]: unknown capacity target 'pastur' (did you mean 'pasture'?); "
        "capacity targets: animal card, family, fences, house, one stable, pasture, pasture of N spaces, pasture of N "
        "spaces without stable, pasture with stable, pasture without stable, stable, stables",
        "      capacity of pastur: +1",
        "                  ^^^^^^",
    ))


def test_unknown_rule_switch_lists_the_rules(root, capsys):
    _add_rule(root, "forbid renovations")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:94:12: error[E210]: unknown rule 'renovations' for 'forbid' (did you mean "
        "'renovation'?); rules for 'forbid': renovation",
        "      forbid renovations",
        "             ^^^^^^^^^^^",
    ))


def test_free_per_action_names_what_can_be_free(root, capsys):
    _add_rule(root, "free 2 rooms per action")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:94:12: error[E209]: only fences can be free per action, not 'rooms' "
        "(write 'free 3 fences per action')",
        "      free 2 rooms per action",
        "             ^^^^^",
    ))


def test_convert_to_bonus_outside_scoring(root, capsys):
    edit(root, "revised/majors.yaml", "    at scoring: convert reed to bonus", "    at harvest start: convert reed to bonus")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:94:23: error[E212]: 'convert … to bonus' can only be used 'at scoring'",
        "      at harvest start: convert reed to bonus (2: 1, 4: 2, 5: 3)",
        "                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    ))


def test_take_the_goods_outside_an_action_space(root, capsys):
    edit(root, "revised/majors.yaml", "    at scoring: convert reed to bonus (2: 1, 4: 2, 5: 3)",
         "    at harvest start: take the goods")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:94:23: error[E212]: 'take the goods' belongs in the effect of an accumulation space",
        "      at harvest start: take the goods",
        "                        ^^^^^^^^^^^^^^",
    ))


def test_players_not_covering_all_counts(root, capsys):
    edit(root, "revised/actions.yaml", '"players(1: 2 wood; 2+: 3 wood)"', '"players(1: 2 wood; 3+: 3 wood)"')
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:31:16: error[E213]: players(...) gives nothing for 2 players",
        '    accumulate: "players(1: 2 wood; 3+: 3 wood)"',
        "                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  = hint: add an entry such as '2: 1 food' or use 'N+' for N players and more",
    ))


def test_tier_thresholds_not_rising(root, capsys):
    edit(root, "revised/game.yaml", '"tier(sheep; 0: -1, 1: 1, 4: 2, 6: 3, 8: 4)"',
         '"tier(sheep; 0: -1, 1: 1, 6: 2, 4: 3, 8: 4)"')
    check(root, capsys, "revised", block(
        "rules/revised/game.yaml:66:71: error[E214]: tier thresholds must rise: 4 comes after 6",
        '    - {id: sheep, label: Sheep, points: "tier(sheep; 0: -1, 1: 1, 6: 2, 4: 3, 8: 4)"}',
        "  " + " " * 70 + "^",
    ))


def test_conversion_thresholds_not_rising(root, capsys):
    edit(root, "revised/majors.yaml", "convert reed to bonus (2: 1, 4: 2, 5: 3)", "convert reed to bonus (2: 1, 4: 2, 4: 3)")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:94:52: error[E214]: conversion thresholds must be rising numbers",
        "      at scoring: convert reed to bonus (2: 1, 4: 2, 4: 3)",
        "                                                     ^",
    ))


# ---------------------------------------------------------------- whole runs

def test_three_mistakes_in_one_file_all_reported_sorted(root, capsys):
    # Written bottom-up on purpose: the report must still come out sorted by line.
    edit(root, "revised/majors.yaml", "    in harvest: reed -> 3 food (at most once)\n",
         "    in harvest: reed -> 3 food (at most onse)\n")
    edit(root, "revised/majors.yaml", "  bonus_points: true\n  tags: [workshop]\n  effects: |\n    in harvest: wood",
         "  bonus_points: 3\n  tags: [workshop]\n  effects: |\n    in harvest: wood")
    edit(root, "revised/majors.yaml", "    any time: vegetable -> 2 food; sheep -> 2 food; boar -> 2 food; cattle -> 3 food\n"
         "    bake: grain -> 2 food\n\n- id: fireplace_3",
         "    any time: vegetable -> 2 food; sheeps -> 2 food; boar -> 2 food; cattle -> 3 food\n"
         "    bake: grain -> 2 food\n\n- id: fireplace_3")
    err = check(root, capsys, "revised",
                block(
                    "rules/revised/majors.yaml:8:36: error[E203]: unknown good 'sheeps' (did you mean 'sheep'?)",
                    "      any time: vegetable -> 2 food; sheeps -> 2 food; boar -> 2 food; cattle -> 3 food",
                    "                                     ^^^^^^",
                ),
                block(
                    "rules/revised/majors.yaml:70:17: error[E112]: 'bonus_points' must be true or false, not a number",
                    "    bonus_points: 3",
                    "                  ^",
                ),
                block(
                    "rules/revised/majors.yaml:93:41: error[E202]: unexpected 'onse'; expected '(', 'once', 'twice', a number",
                    "      in harvest: reed -> 3 food (at most onse)",
                    "                                          ^^^^",
                ))
    assert err.endswith("3 problems found\n")


def test_validating_one_file_checks_its_pack(root, capsys):
    edit(root, "revised/majors.yaml", "  cost: 1 wood, 3 stone\n", "  cost: 1 wood, 3 stonne\n")
    status, out, err = validate(root, capsys, "revised/majors.yaml")
    assert err == block(
        "rules/revised/majors.yaml:42:19: error[E203]: unknown good 'stonne' (did you mean 'stone'?)",
        "    cost: 1 wood, 3 stonne",
        "                    ^^^^^^",
        "1 problem found",
    ) + "\n"
    assert status == 2 and out == "" and "Traceback" not in err


@pytest.mark.parametrize("pack", PACKS)
def test_valid_pack_is_ok(root, capsys, pack):
    status, out, err = validate(root, capsys, pack)
    assert (status, out, err) == (0, f"ok: {pack} valid\n", "")


def test_valid_packs_together(root, capsys):
    status, out, err = validate(root, capsys, *PACKS)
    assert (status, out, err) == (0, "ok: revised, revised-family valid\n", "")


# ---------------------------------------------------------------- regressions of fixed reports

def test_python_object_tag_is_named_as_written_and_only_error(root, capsys):
    edit(root, "revised/majors.yaml", "  points: 4\n", "  points: !!python/object/apply:os.system ['echo hi']\n")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:43:11: error[E102]: YAML tag '!!python/object/apply:os.system' is not allowed "
        "(only plain YAML data is read)",
        "    points: !!python/object/apply:os.system ['echo hi']",
        "            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  = hint: a file with such a tag is not read at all",
    ))


def test_wrong_value_type_does_not_crash_later_stages(root, capsys):
    edit(root, "revised/majors.yaml", "  points: 4\n", "  points: four\n")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:43:11: error[E112]: 'points' must be a whole number, not text",
        "    points: four",
        "            ^^^^",
    ))


def test_missing_round_card_reported_once_at_its_stage(root, capsys):
    edit(root, "revised/rounds.yaml", "- id: farm_redevelopment\n  name: Farm Redevelopment\n  stage: 6\n"
         "  effect: renovate then build fences\n", "")
    check(root, capsys, "revised", block(
        "rules/revised/game.yaml:15:6: error[E136]: stage 6 has 0 round cards for 1-4 players but 1 round (round 14)",
        "    6: [14, 14]",
        "       ^",
    ))


def test_error_in_plain_multiline_text_points_at_the_second_line(root, capsys):
    edit(root, "revised/actions.yaml", "  effect: build rooms and/or build stables\n",
         "  effect: build rooms and/or\n    build stabels\n")
    err = check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:6:11: error[E202]: unexpected 'stabels'; expected 'fences', 'improvement', "
        "'major', 'pastures', 'room', 'rooms', 'stable', 'stables', 'up'",
        "      build stabels",
        "            ^^^^^^^",
    ))
    assert "6:11" in err


def test_tab_indentation_message(root, capsys):
    edit(root, "revised/actions.yaml", "  name: Farmland\n", "\tname: Farmland\n")
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:16:1: error[E101]: invalid YAML: a tab character; YAML indentation must use spaces",
        "   name: Farmland",
        "  ^",
    ))


def test_unknown_tag_suggestion_keeps_the_hash(root, capsys):
    path = root / "rules/revised/majors.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "    on build: schedule 1 food on next 5 rounds\n",
        "    on build: schedule 1 food on next 5 rounds\n    after you use #reed_acumulation: gain 1 food\n"),
        encoding="utf-8")
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:47:19: error[E205]: unknown action space tag '#reed_acumulation' "
        "(did you mean '#reed_accumulation'?)",
        "      after you use #reed_acumulation: gain 1 food",
        "                    ^^^^^^^^^^^^^^^^^",
    ))


# ---------------------------------------------------------------- one mistake, one error

COPSE = "  name: Copse\n  players: 4\n"


@pytest.mark.parametrize("players, message", [
    ("9", "'players: 9' is outside this pack's 1 to 4 players"),
    ("9+", "'players: 9+' is outside this pack's 1 to 4 players"),
    ("3-9", "'players: 3-9' is outside this pack's 1 to 4 players"),
    ("4-2", "'players: 4-2' is an empty range (write 2-4)"),
])
def test_bad_players_of_a_space_is_one_error(root, capsys, players, message):
    # no second "needs an 'effect' or 'accumulate'" for the space left without player counts
    edit(root, "revised/actions.yaml", COPSE, f"  name: Copse\n  players: {players}\n")
    check(root, capsys, "revised", block(
        f"rules/revised/actions.yaml:81:12: error[E213]: {message}",
        f"    players: {players}",
        "             " + "^" * len(players),
    ))


def test_players_as_a_decimal_number_is_refused(root, capsys):
    # '4.0' passed the schema (a whole number to it) and the space was left out of the pack without a word
    edit(root, "revised/actions.yaml", COPSE, "  name: Copse\n  players: 4.0\n")
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:81:12: error[E213]: 'players: 4.0' is not a player count: write 3, 3+ or 1-2",
        "    players: 4.0",
        "             ^^^",
    ))


def test_bad_players_of_a_round_card_is_one_error(root, capsys):
    # no second "stage 1 has 3 round cards for 1-4 players but 4 rounds"
    edit(root, "revised/rounds.yaml", "- id: fencing\n", "- id: fencing\n  players: 9\n")
    check(root, capsys, "revised", block(
        "rules/revised/rounds.yaml:9:12: error[E213]: 'players: 9' is outside this pack's 1 to 4 players",
        "    players: 9",
        "             ^",
    ))


def test_overlay_id_typo_is_one_error_with_a_suggestion(root, capsys):
    edit(root, "revised-family/actions.yaml", "- id: meeting_place\n", "- id: meeting_plase\n")
    check(root, capsys, "revised-family", block(
        "rules/revised-family/actions.yaml:3:7: error[E124]: the base pack has no entry 'meeting_plase' to change "
        "(did you mean 'meeting_place'?)",
        "  - id: meeting_plase",
        "        ^^^^^^^^^^^^^",
        "  = hint: an entry with a new id is a new entry and needs all its keys (here also 'name')",
    ))


def test_overlay_new_entry_close_to_a_base_id(root, capsys):
    path = root / "rules/revised-family/actions.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n- id: forrest\n  accumulate: 2 wood\n", encoding="utf-8")
    check(root, capsys, "revised-family", block(
        "rules/revised-family/actions.yaml:18:7: error[E124]: the base pack has no entry 'forrest' to change "
        "(did you mean 'forest'?)",
        "  - id: forrest",
        "        ^^^^^^^",
        "  = hint: an entry with a new id is a new entry and needs all its keys (here also 'name')",
    ))


# ---------------------------------------------------------------- cards written here

CARD = """id: test_card
name: Test Card
kind: occupation
players: 1+
points: 0
effects: |
  on play: gain 1 food
"""


def write_card(root: Path, text: str, name: str = "test_card") -> str:
    """Put a card file into cards/revised/T/ of the root; returns its path as diagnostics show it."""
    deck = root / "cards" / "revised" / "T"
    deck.mkdir(parents=True, exist_ok=True)
    (deck / f"{name}.yaml").write_text(text, encoding="utf-8")
    return f"cards/revised/T/{name}.yaml"


def check_card(root, capsys, text, *diagnostics):
    write_card(root, text)
    return check(root, capsys, "revised", *diagnostics)


def test_every_problem_of_a_card_at_once(root, capsys):
    # a wrong 'points' used to hide everything else of the card
    text = CARD.replace("points: 0\n", "points: abc\ncost: -3 wood\n").replace("gain 1 food", "gain 1 fod")
    check_card(root, capsys, text,
               block(
                   "cards/revised/T/test_card.yaml:5:9: error[E112]: 'points' must be a whole number, not text",
                   "  points: abc",
                   "          ^^^",
               ),
               block(
                   "cards/revised/T/test_card.yaml:6:7: error[E202]: unexpected '-3'; expected '(', 'players', 'tier', 'up', "
                   "a name, a number",
                   "  cost: -3 wood",
                   "        ^^",
               ),
               block(
                   "cards/revised/T/test_card.yaml:8:19: error[E203]: unknown good 'fod' (did you mean 'food'?)",
                   "    on play: gain 1 fod",
                   "                    ^^^",
               ))


def test_returns_belongs_to_a_minor_with_upgrade_of(root, capsys):
    # a price of returning several cards (docs/language.md 4.8): an occupation returns none
    text = CARD.replace("points: 0\n", "points: 0\nreturns: 2\n")
    check_card(root, capsys, text,
               block(
                   "cards/revised/T/test_card.yaml:6:10: error[E212]: 'returns' is how many cards of 'upgrade_of' a "
                   "minor improvement's price returns: it belongs to a minor with 'upgrade_of'",
                   "  returns: 2",
                   "           ^",
               ))


def test_every_problem_of_a_space_at_once(root, capsys):
    edit(root, "revised/actions.yaml", "  name: Grain Seeds\n  effect: gain 1 grain\n",
         "  name: Grain Seeds\n  tags: grain_seeds\n  effect: gain 1 grian\n")
    check(root, capsys, "revised",
          block(
              "rules/revised/actions.yaml:13:9: error[E112]: 'tags' must be a list, not text",
              "    tags: grain_seeds",
              "          ^^^^^^^^^^^",
          ),
          block(
              "rules/revised/actions.yaml:14:18: error[E203]: unknown good 'grian' (did you mean 'grain'?)",
              "    effect: gain 1 grian",
              "                   ^^^^^",
          ))


# ---------------------------------------------------------------- effect text read line by line

def test_a_syntax_error_does_not_hide_the_other_lines(root, capsys):
    text = CARD.replace("  on play: gain 1 food\n", "  on play: gain 1 food!\n  on plai: gain 1 food\n"
                        "  after you use forrest: gain 1 food\n  on play: schedule 1 food on next   # soon\n")
    check_card(root, capsys, text,
               block(
                   "cards/revised/T/test_card.yaml:7:23: error[E201]: unexpected character '!'",
                   "    on play: gain 1 food!",
                   "                        ^",
               ),
               block(
                   "cards/revised/T/test_card.yaml:8:6: error[E202]: unexpected 'plai'; expected 'build', 'play'",
                   "    on plai: gain 1 food",
                   "       ^^^^",
               ),
               block(
                   "cards/revised/T/test_card.yaml:9:17: error[E205]: unknown action space 'forrest' "
                   "(did you mean 'forest'?)",
                   "    after you use forrest: gain 1 food",
                   "                  ^^^^^^^",
               ),
               block(
                   "cards/revised/T/test_card.yaml:10:35: error[E202]: unexpected end of line; expected '(', a number",
                   "    on play: schedule 1 food on next   # soon",
                   "                                    ^",
               ))


BODY_WORDS = ("'(', 'add', 'bake', 'bonus', 'breed', 'build', 'choose', 'claim', 'convert', 'discard', 'draw', 'exchange', 'family', "
              "'fence', 'for', "
              "'gain', 'give', 'harvest', 'let', 'lodge', 'mark', 'may', 'move', 'pay', 'pile', 'place', 'play', 'plow', "
              "'put', 'renovate', 'return', 'reveal', 'schedule', 'skip', 'sow', 'spend', 'spread', 'take'")
RULE_WORDS = ("'after', 'allow', 'any', 'at', 'bake', 'before', 'breeding', 'capacity', 'cost', 'end', 'feed', 'forbid', "
              "'free', 'harvest', 'house', 'ignore', 'in', 'instead', 'may', 'on', 'once', 'others', 'score', 'sowing', "
              "'this'")


@pytest.mark.parametrize("rule, word, expected", [
    ("on play: gian 1 food", "gian", BODY_WORDS),
    # a keyword glued to more letters is named as the whole word the designer wrote
    ("onn play: gain 1 food", "onn", RULE_WORDS),
    ("on play: gainn 1 food", "gainn", BODY_WORDS),
    ("on play: gain 1 food thenn gain 1 wood", "thenn", "',', ';', 'and/or', 'if', 'per', 'then', end of line"),
    ("after you bakee: gain 1 food", "bakee",
     "'bake', 'bakes', 'build', 'builds', 'convert', 'converts', 'family', 'fence', 'fences', 'gain', 'gains', "
     "'harvest', 'harvests', 'play', 'plays', 'plow', 'plows', 'renovate', 'renovates', 'sow', 'sows', 'take', 'takes', 'use', 'uses'"),
    ("after you use forest (once per rund): gain 1 food", "rund", "'action', 'event', 'game', 'harvest', 'round', 'turn'"),
    # exactly what the parser accepts at that point, not what its state accepts elsewhere in the grammar
    ("at scoring if rooms => 2: bonus 1", "=",
     "'!=', '(', '*', '+', '-', '//', ':', '<', '<=', '==', '>', '>=', 'and', 'or'"),
])
def test_expected_lists_every_choice(root, capsys, rule, word, expected):
    _add_rule(root, rule)
    col = 5 + rule.index(word)
    check(root, capsys, "revised", block(
        f"rules/revised/majors.yaml:94:{col}: error[E202]: unexpected '{word}'; expected {expected}",
        "      " + rule,
        "  " + " " * (col - 1) + "^" * len(word),
    ))


def test_caret_after_blank_lines_at_the_start_of_a_text(root, capsys):
    # blank lines before the text of a block used to move the caret up a line and left a column
    edit(root, "revised/actions.yaml", "  effect: build rooms and/or build stables\n",
         "  effect: |\n\n    build rooms and/or build stabels\n")
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:7:30: error[E202]: unexpected 'stabels'; expected 'fences', 'improvement', "
        "'major', 'pastures', 'room', 'rooms', 'stable', 'stables', 'up'",
        "      build rooms and/or build stabels",
        "                               ^^^^^^^",
    ))


def test_caret_in_a_prerequisite_block(root, capsys):
    text = CARD.replace("points: 0\n", "points: 0\nrequires: |\n\n  occupatons >= 2\n")
    check_card(root, capsys, text, block(
        "cards/revised/T/test_card.yaml:8:3: error[E204]: unknown quantity 'occupatons' (did you mean 'occupations'?)",
        "    occupatons >= 2",
        "    ^^^^^^^^^^",
    ))


# ---------------------------------------------------------------- where the nodes of an effect text stand

def _in_text(span, text: str) -> bool:
    """Whether ``span`` is a position inside ``text`` as the parser sees it (file '<text>')."""
    lines = text.split("\n")
    return (isinstance(span, Span) and span.file == "<text>" and 1 <= span.line <= len(lines)
            and 1 <= span.col <= len(lines[span.line - 1]) + 1)


def test_every_node_of_every_construct_points_into_its_text():
    # a diagnostic may point at any node: each node the parser builds from the texts that use every
    # alternative of the grammar (tests/test_english.py) carries a span inside the text it was read from
    texts = [(SYNTHETIC_RULES, "rules")] + [(body, "body") for body in SYNTHETIC_BODIES]
    lost = []
    for text, kind in texts:
        report = Report()
        tree = parser.parse(text, kind, report)
        assert tree is not None and not report, report.render()
        lost += [f"{type(n).__name__} {getattr(n, 'kind', getattr(n, 'name', ''))}: {n.span}"
                 for n in N.walk(list(tree) if kind == "rules" else tree) if not _in_text(n.span, text)]
    assert lost == []


@pytest.mark.parametrize("rule, node, marked", [
    ("after you use the marked space: gain 1 food", lambda r: r.trigger, "after you use the marked space"),
    ("capacity of one stable = 3", lambda r: r.modifier.expr, "3"),
    ("on play: schedule 1 food on remaining odd rounds", lambda r: r.body.rounds, "remaining odd rounds"),
], ids=["marked space trigger", "capacity set number", "remaining odd rounds"])
def test_span_of_a_node_is_what_it_was_read_from(rule, node, marked):
    report = Report()
    rules = parser.parse(rule, "rules", report)
    assert not report, report.render()
    assert node(rules[0]).span == Span("<text>", 1, rule.rindex(marked) + 1, len(marked))


# ---------------------------------------------------------------- a construct must do what it says

def _rule_case(rule: str, marked: str, code: str, message: str):
    """A rule added to the Basketmaker's Workshop, the span it is refused at, the refusal."""
    return pytest.param(rule, marked, code, message, id=rule)


MEANINGLESS = [
    # an exchange's limit over the game and other players buying what it takes (docs/language.md 1.6, 4.9)
    _rule_case("any time: 1 grain -> 3 food (others may buy 2 grain for 2 food)", "2 grain", "E212",
               "'(others may buy 2 grain for …)' names other goods than the exchange takes (1 grain): a buyer "
               "takes what the exchange takes"),
    _rule_case("any time: 1 grain -> 3 food (at most 2 times per round)",
               "1 grain -> 3 food (at most 2 times per round)", "E212",
               "an exchange's limit counts per harvest (the default) or per game, not per round"),
    _rule_case("bake: grain -> 3 food (at most 2 times per game)", "grain -> 3 food (at most 2 times per game)",
               "E212", "'(at most … per game)' belongs to a card's exchange rule, not to a bake rate"),
    _rule_case("bake: grain -> 3 food (others may buy 1 grain for 1 food)", "1 grain", "E212",
               "'(others may buy …)' belongs to a card's exchange rule, not to a bake rate"),
    _rule_case("after you use fishing: spend up to 4 food on (2 food -> 1 sheep (at most 2 times per game))",
               "2 food -> 1 sheep (at most 2 times per game)", "E212",
               "'(at most … per game)' belongs to a card's exchange rule, not to the exchanges of 'spend up to'"),
    # event_size is the size of what an event made: 0 (or no value at all) anywhere else
    _rule_case("after you use forest if event_size > 2: gain 1 food", "event_size", "E212",
               "'event_size' is the size of what an event made: it can only be used in a rule that reacts to one "
               "('after you build rooms if event_size >= 2: …')"),
    _rule_case("at scoring: bonus event_size", "event_size", "E212",
               "'event_size' is the size of what an event made: it can only be used in a rule that reacts to one "
               "('after you build rooms if event_size >= 2: …')"),
    _rule_case("capacity of pasture: +event_size", "event_size", "E212",
               "'event_size' is the size of what an event made: it can only be used in a rule that reacts to one "
               "('after you build rooms if event_size >= 2: …')"),
    _rule_case("after you build rooms: schedule action (gain (event_size) food) on next 2 rounds", "event_size",
               "E212", "'event_size' is the size of what an event made: it can only be used in a rule that reacts "
               "to one ('after you build rooms if event_size >= 2: …')"),
    _rule_case("after you renovate if event_size > 2: gain 1 food", "event_size", "E300",
               "'after you renovate' gives no event_size (missing feature: event_size for after you renovate)"),
    _rule_case("after another player builds major: gain (event_size) food", "event_size", "E300",
               "'after another player build major' gives no event_size "
               "(missing feature: event_size for after another player build major)"),
    _rule_case("instead of you renovate: gain (event_size) food", "event_size", "E300",
               "'instead of you renovate' gives no event_size "
               "(missing feature: event_size for instead of you renovate)"),
    _rule_case("at scoring if most(event_size): bonus 1", "event_size", "E206",
               "most() compares players, and 'event_size' is no quantity of a player"),
    _rule_case("at scoring: bonus others_max(rounds_left)", "rounds_left", "E206",
               "others_max() compares players, and 'rounds_left' is the same for every player"),
    # a material before 'renovation' is the material renovated to: no renovation leads to wood
    _rule_case("cost of wood renovation: -1 reed", "wood renovation", "E208", "no renovation leads to a wood house"),
    _rule_case("after you renovate to wood: gain 1 food", "wood", "E208", "no renovation leads to a wood house"),
    _rule_case("after you renovate from stone: gain 1 food", "stone", "E208", "no renovation starts from a stone house"),
    _rule_case("after you renovate from clay to clay: gain 1 food", "clay:", "E208",
               "no renovation leads from a clay to a clay house"),
    # goods paid to the player who carried out an event need an event
    _rule_case("on build: pay 1 food to actor", "pay 1 food to actor", "E212",
               "'pay … to actor' needs the player who carried out an event: it belongs in an 'after …', "
               "'before …' or 'end of turn after …' rule"),
    # goods put back on "the space" need a space just used
    _rule_case("at harvest start: return 1 reed to the space", "return 1 reed to the space", "E212",
               "'return … to the space' belongs in a card's 'after you use' rule"),
    _rule_case("on build: for each player (pile 1 wood on this card)", "pile 1 wood on this card", "E212",
               "'pile … on this card' cannot be done for each player: the pile is the owner's"),
    _rule_case("in feeding: 1 clay -> top of pile", "1 clay -> top of pile", "E212",
               "'-> top of pile' needs a pile on this card ('on play: pile … on this card')"),
    _rule_case("at scoring: schedule 1 food on next 1 round", "schedule 1 food on next 1 round", "E212",
               "nothing can be scheduled at scoring: no round is left"),
    _rule_case("on build (once per game): gain 1 food", "(once per game)", "E212",
               "'on play' fires only once: a limit on it has no effect"),
    _rule_case("at scoring if occupations_after(basketmakers_workshop) > 1: bonus 1", "basketmakers_workshop",
               "E206", "occupations_after() counts occupations played after an occupation, and "
               "'basketmakers_workshop' is not one"),
    _rule_case("at scoring if occupations_after(#workshop) > 1: bonus 1", "#workshop", "E206",
               "occupations_after() needs the id of an occupation"),
]

OUT_OF_RANGE = [
    # 7 digits: read, then refused by its value (8 digits and more are refused before they are read)
    _rule_case("on build: gain 2000000 food", "2000000", "E107", "number 2000000 is too large (the limit is 1000000)"),
    _rule_case("on build: gain tier(rooms; 1: 99999999) food", "99999999", "E107",
               "number 99999999 is too large (the limit is 1000000)"),
    _rule_case("at scoring: bonus tier(rooms; 12345678: 1)", "12345678", "E107",
               "number 12345678 is too large (the limit is 1000000)"),
    _rule_case("on build: plow " + "7" * 30 + " fields", "7" * 30, "E107",
               "number 77777777777777777777… is too large (the limit is 1000000)"),
    _rule_case("on build: schedule 1 food on next 0 rounds", "0", "E215",
               "'next 0 rounds' needs a number from 1 to 14 (the game has 14 rounds)"),
    _rule_case("on build: schedule 1 food on rounds 99", "99", "E215", "there is no round 99: the game has rounds 1 to 14"),
    _rule_case("on build: schedule 1 food on rounds 5, 5", "5\n", "E215", "round 5 is listed twice"),
    _rule_case("on build: schedule 1 food on rounds +0", "+0", "E215",
               "'+0' counts rounds from the current one and needs a number from 1 to 13"),
    _rule_case("at end of round 40: gain 1 food", "at end of round 40", "E215",
               "there is no round 40: the game has rounds 1 to 14"),
    _rule_case("in harvest action (0 times per round): gain 1 food", "(0 times per round)", "E215",
               "a limit needs a number of times from 1 up"),
    _rule_case("any time: 1 wood -> 1 food (at most 0 times)", "1 wood -> 1 food (at most 0 times)", "E215",
               "'at most' needs a number of times from 1 up"),
    _rule_case("any time: 0 wood -> 1 food", "0", "E215", "an exchange needs amounts from 1 up"),
    _rule_case("any time: 1 grain -> 3 food (others may buy 1 grain for 0 food)", "0", "E215",
               "'(others may buy …)' needs amounts from 1 up"),
    _rule_case("this card houses 0 people", "this card houses 0 people", "E215",
               "a card that houses people needs a number from 1 up"),
    _rule_case("free 0 fences per action", "free 0 fences per action", "E215", "free fences need a number from 1 up"),
    _rule_case("at field phase: harvest 0 more grain from each field", "harvest 0 more grain from each field", "E215",
               "harvest needs a number of crops from 1 up"),
]


@pytest.mark.parametrize("rule, marked, code, message", MEANINGLESS + OUT_OF_RANGE)
def test_accepted_only_when_the_runtime_honours_it(root, capsys, rule, marked, code, message):
    _add_rule(root, rule)
    shown = "      " + rule
    where = (rule + "\n").index(marked)
    col = 5 + where
    width = min(len(marked.rstrip(": \n")), len(rule) - where)  # the mark may end with context
    check(root, capsys, "revised", block(
        f"rules/revised/majors.yaml:94:{col}: error[{code}]: {message}",
        shown,
        "  " + " " * (col - 1) + "^" * width,
    ))


def test_event_size_where_the_event_has_one(root, capsys):
    for rule in ("after you build rooms if event_size >= 2: gain (event_size) food",
                 "after any player bakes: gain (event_size // 2) food",
                 "after you fence pasture if event_size >= 4: gain 1 sheep",
                 "after you plow if event_size > 1: gain 1 food"):
        _add_rule(root, rule)
    status, out, err = validate(root, capsys, "revised")
    assert (status, out, err) == (0, "ok: revised valid\n", "")


@pytest.mark.parametrize("key, message", [
    ("cost", "'cost' is empty (leave it out when the card costs nothing)"),
    ("requires", "'requires' is empty (leave it out when the card has no prerequisite)"),
])
@pytest.mark.parametrize("value", ['""', "'  '"])
def test_empty_cost_or_prerequisite(root, capsys, key, value, message):
    text = CARD.replace("points: 0\n", f"points: 0\n{key}: {value}\n")
    check_card(root, capsys, text, block(
        f"cards/revised/T/test_card.yaml:6:{len(key) + 3}: error[E218]: {message}",
        f"  {key}: {value}",
        "  " + " " * (len(key) + 2) + "^" * len(value),
    ))


@pytest.mark.parametrize("players", ["5+", "9+"])
def test_card_players_outside_the_pack(root, capsys, players):
    check_card(root, capsys, CARD.replace("players: 1+", f"players: {players}"), block(
        f"cards/revised/T/test_card.yaml:4:10: error[E213]: 'players: {players}' is outside this pack's 1 to 4 players",
        f"  players: {players}",
        "           ^^",
    ))


def test_occupations_after_this_on_an_occupation(root, capsys):
    text = CARD.replace("on play: gain 1 food", "at scoring: bonus occupations_after(this)")
    write_card(root, text)
    assert validate(root, capsys, "revised") == (0, "ok: revised valid\n", "")


@pytest.mark.parametrize("family, message", [
    ("{start: 9, max: 5}", "family: start 9 is more than max 5"),
    ("{start: 3, max: 5}", "family: 3 people cannot live in the 2 rooms of the starting house (one person a room)"),
])
def test_family_that_cannot_start(root, capsys, family, message):
    edit(root, "revised/game.yaml", "family: {start: 2, max: 5}", f"family: {family}")
    check(root, capsys, "revised", block(
        f"rules/revised/game.yaml:23:17: error[E130]: {message}",
        f"  family: {family}",
        "                  ^",
    ))


@pytest.mark.parametrize("style", ["plain", "quoted", "folded"])
def test_caret_in_text_over_several_lines_whose_second_line_repeats_the_first(root, capsys, style):
    # the second line starts with words the first line also holds: the caret stays on the first line
    first, second = "build rooms and/or build stable and/or buil", "build stable and/or build stables"
    text = {"plain": f"  effect: {first}\n    {second}\n", "quoted": f'  effect: "{first}\n    {second}"\n',
            "folded": f"  effect: >\n    {first}\n    {second}\n"}[style]
    edit(root, "revised/actions.yaml", "  effect: build rooms and/or build stables\n", text)
    line = {"plain": f"    effect: {first}", "quoted": f'    effect: "{first}', "folded": f"      {first}"}[style]
    col = len(line) - len("buil") - 1
    check(root, capsys, "revised", block(
        f"rules/revised/actions.yaml:{6 if style == 'folded' else 5}:{col}: error[E202]: unexpected 'buil'; "
        f"expected {BODY_WORDS}",
        line,
        "  " + " " * (col - 1) + "^^^^",
    ))


@pytest.mark.parametrize("char, message", [
    ("\x0c", "E101]: invalid YAML: the control character U+000C is not allowed"),
    ("\u2028", "E109]: file contains the line separator U+2028, which YAML reads as a line break; "
               "use a plain line break"),
    ("\r", "E109]: file contains the line separator U+000D, which YAML reads as a line break; use a plain line break"),
])
def test_odd_line_breaks_are_located_where_an_editor_shows_them(root, capsys, char, message):
    # line numbers as an editor counts them (YAML and str.splitlines count more lines here)
    edit(root, "revised/majors.yaml", "- id: fireplace_2\n", f"# a comment {char} here\n- id: fireplace_2\n")
    check(root, capsys, "revised", block(
        f"rules/revised/majors.yaml:2:13: error[{message}",
        "  # a comment   here",
        "              ^",
    ))


def test_a_guard_on_once_is_refused(root, capsys):
    rule = "once rooms >= 3 if people >= 3: gain 1 food"
    _add_rule(root, rule)
    check(root, capsys, "revised", block(
        "rules/revised/majors.yaml:94:24: error[E212]: 'once …' fires the first time its condition holds, and a "
        "guard is checked only then: join the two with 'and' ('once a and b: …')",
        "      " + rule,
        "  " + " " * 23 + "^" * len("people >= 3"),
    ))


@pytest.mark.parametrize("rule", [
    "at returning home if occupied(forest): gain 1 food",
    "at work phase end if yours(forest): gain 1 food",
    "after you use fishing: claim (gain 1 food) at returning home if occupied(forest)",
    "on play if occupied(forest): gain 1 food",
    "after you build rooms if yours(forest): gain 1 food",
    "any time if occupied(forest): 1 wood -> 1 food",
    "capacity of pasture: +1 while occupied(forest)",
])
def test_who_is_on_a_space_where_people_are_out(root, capsys, rule):
    """docs/language.md 1.11 names the moments where occupied() and yours() are accepted (issue 11, designer
    test round 3: 'at returning home' was not said)."""
    _add_rule(root, rule)
    status, out, err = validate(root, capsys, "revised")
    assert (status, err) == (0, ""), err


@pytest.mark.parametrize("rule, name, when", [
    ("at round start if occupied(forest): gain 1 food", "occupied", "at the start of a round"),
    ("at work phase start if occupied(forest): gain 1 food", "occupied", "at the start of the work phase"),
    ("at end of round 3 if yours(forest): gain 1 food", "yours", "at the end of a round"),
    ("at harvest start if yours(fishing): gain 1 food", "yours", "in a harvest"),
    ("at scoring if occupied(forest): bonus 1", "occupied", "at scoring"),
    ("in feeding action if yours(forest): pay 1 food", "yours", "in a harvest"),
    ("on build: schedule action (gain 1 food if occupied(forest)) on next 2 rounds", "occupied",
     "at the start of a round (when a scheduled action runs)"),
])
def test_who_is_on_a_space_when_everyone_is_at_home(root, capsys, rule, name, when):
    _add_rule(root, rule)
    col = 5 + rule.index(name)
    check(root, capsys, "revised", block(
        f"rules/revised/majors.yaml:94:{col}: error[E212]: {name}() asks about the people on an action space, "
        f"and {when} nobody is on one",
        "      " + rule,
        "  " + " " * (col - 1) + "^" * len(name),
    ))


def test_files_print_from_the_working_folder(tmp_path, monkeypatch, capsys):
    """Issue 11, designer test round 3: a problem in a file of a test pack printed as 'cards/designer-c3/…',
    relative to the test pack's folder, a path that does not exist from where the command ran. Files print
    relative to the working folder, or absolute outside it, whichever command reports them."""
    project = tmp_path / "proj"
    shutil.copytree(REPO / "tests" / "packs", project / "tests" / "packs")
    card = project / "tests" / "packs" / "cards" / "designer-c3" / "C" / "firewood.yaml"
    card.write_text(card.read_text().replace("put 1 wood on", "put 1 wodo on"))
    problem = ("firewood.yaml:10:28: error[E203]: unknown good 'wodo' (did you mean 'wood'?)\n"
               "    at returning home: put 1 wodo on this card\n"
               "                             ^^^^\n"
               "1 problem found\n")
    (tmp_path / "other").mkdir()
    for cwd, shown in ((project, "tests/packs/cards/designer-c3/C/"), (project / "tests", "packs/cards/designer-c3/C/"),
                       (tmp_path / "other", f"{card.parent}/")):
        monkeypatch.chdir(cwd)
        assert cli.main(["validate", str(card)]) == 2
        assert capsys.readouterr().err == shown + problem
    monkeypatch.chdir(project)
    assert cli.main(["--build", str(tmp_path / "build"), "test", "--packs", "tests/packs",
                     "tests/packs/cards/designer-c3/C/firewood.test.yaml"]) == 2
    assert capsys.readouterr().err == ("tests/packs/cards/designer-c3/C/" + problem
                                       + "compile failed: pack 'designer-c3'\n")
    assert cli.main(["cards", "list", "--pack", "designer-c3", "--packs", "tests/packs"]) == 2
    assert capsys.readouterr().err == ("tests/packs/cards/designer-c3/C/" + problem
                                       + "the pack 'designer-c3' has problems; fix them first\n")


# ---------------------------------------------------------------- texts that belong to no card

EXCHANGES = "  any time: grain -> 1 food; vegetable -> 1 food\n"   # game.yaml line 57: the rules' own exchanges


def _shown(rel: str, line: int, text: str, code: str, message: str, start: str) -> str:
    """The diagnostic for line ``line`` of ``rules/revised/<rel>`` (``text``), the caret under ``start``."""
    col = text.index(start) + 1
    return block(f"rules/revised/{rel}:{line}:{col}: error[{code}]: {message}", "  " + text,
                 "  " + " " * (col - 1) + "^" * len(start))


# (file, text replaced, its replacement, the line that holds the mistake, [(code, message, where), …]):
# the scoring table's points, the rules' own exchanges and an action space's effect belong to no card, so
# what reads or changes 'this card' is refused there, and so is what reads the scoring table in it
NO_CARD = [
    ("game.yaml", 'points: "fenced_stables"', 'points: "score(fields)"', 70,
     [("E212", "'score' reads the scoring table, so the table's own points cannot use it", "score")]),
    ("game.yaml", 'points: "fenced_stables"', 'points: "score_negative"', 70,
     [("E212", "'score_negative' reads the scoring table, so the table's own points cannot use it",
       "score_negative")]),
    ("game.yaml", 'points: "fenced_stables"', 'points: "stored(wood)"', 70,
     [("E212", "stored() is what lies on the card whose rule it is; there is none here", "stored")]),
    ("game.yaml", 'points: "fenced_stables"', 'points: "pile_top(wood)"', 70,
     [("E212", "pile_top() reads the pile on the card whose rule it is; there is none here", "pile_top")]),
    ("game.yaml", 'points: "fenced_stables"', 'points: "drawn(wood)"', 70,
     [("E212", "drawn() is what the last draw from the card whose rule it is drew; there is none here", "drawn")]),
    ("game.yaml", 'points: "fenced_stables"', 'points: "has(this)"', 70,
     [("E206", "'this' means the card whose rule it is; there is none here", "this")]),
    ("game.yaml", 'points: "fenced_stables"', 'points: "occupations_after(this)"', 70,
     [("E206", "'this' means the card whose rule it is; there is none here", "this")]),
    ("game.yaml", EXCHANGES, EXCHANGES + "  any time: 1 wood -> 1 food (at most (rooms) times)\n", 58,
     [("E212", "'(at most (<expression>) times)' is worked out for the owner of a card: it belongs to a card's "
       "exchange", "rooms")]),
    ("game.yaml", EXCHANGES, EXCHANGES + "  any time: 1 wood -> top of pile\n", 58,
     [("E212", "'-> top of pile' belongs to a card with a pile", "1 wood -> top of pile")]),
    ("game.yaml", EXCHANGES, EXCHANGES + "  any time if rooms > 2: 1 wood -> 1 food\n", 58,
     [("E212", "game.yaml 'exchanges' are the rules' own, open to every player: a guard ('if …') belongs to a "
       "card's exchange", "any time if rooms > 2: 1 wood -> 1 food")]),
    ("game.yaml", EXCHANGES, EXCHANGES + "  capacity of this card: 2 sheep\n", 58,
     [("E212", "'capacity of this card' belongs to a card", "capacity of this card: 2 sheep"),
      ("E212", "game.yaml 'exchanges' may hold only exchange rules ('any time: …')", "capacity of this card: 2 sheep")]),
    ("game.yaml", EXCHANGES, EXCHANGES + "  this card is an action space: gain 1 food\n", 58,
     [("E212", "'this card is an action space' belongs to a card", "this card is an action space: gain 1 food"),
      ("E212", "game.yaml 'exchanges' may hold only exchange rules ('any time: …')",
       "this card is an action space: gain 1 food")]),
    ("game.yaml", EXCHANGES, EXCHANGES + "  this card counts as 2 occupations\n", 58,
     [("E212", "'this card counts as …' belongs to a card", "this card counts as 2 occupations"),
      ("E212", "game.yaml 'exchanges' may hold only exchange rules ('any time: …')",
       "this card counts as 2 occupations")]),
    ("actions.yaml", "effect: gain 1 grain\n", "effect: gain 1 grain; lodge 1 person on this card\n", 13,
     [("E212", "'lodge … on this card' belongs to a card", "lodge 1 person on this card")]),
    ("actions.yaml", "effect: gain 1 grain\n", "effect: gain 1 grain; pile 1 wood on this card\n", 13,
     [("E212", "'pile … on this card' belongs to a card", "pile 1 wood on this card")]),
    ("actions.yaml", "effect: gain 1 grain\n", "effect: gain 1 grain; put 1 wood on this card\n", 13,
     [("E212", "'put … on this card' belongs to a card: the goods lie on the card whose rule it is",
       "put 1 wood on this card")]),
]


@pytest.mark.parametrize("case", NO_CARD, ids=[c[2].strip().split("\n")[-1].strip() for c in NO_CARD])
def test_what_belongs_to_a_card_is_refused_outside_one(root, capsys, case):
    rel, old, new, line, diagnostics = case
    edit(root, f"revised/{rel}", old, new)
    text = (root / "rules" / "revised" / rel).read_text(encoding="utf-8").split("\n")[line - 1]
    check(root, capsys, "revised", *(_shown(rel, line, text, *d) for d in diagnostics))


@pytest.mark.parametrize("rule, message, start", [
    ("on play: play this card", "'play this card' is the body of an 'after …' rule of the card while it is in the "
     "hand ('after another player plays occupation if event_card(…): may play this card')", "play this card"),
    ("this card counts as 1 occupation", "an occupation counts as 1 occupation already: write a number from 2 up",
     "1"),
])
def test_an_occupations_own_rules_are_checked(root, capsys, rule, message, start):
    # what only an occupation may say, said wrongly by one (docs/language.md 4.10, 4.3)
    text = CARD.replace("on play: gain 1 food", rule)
    code = "E212" if "play this card" in rule else "E215"
    col = 2 + rule.index(start) + 1   # the card's rules are indented by 2
    check_card(root, capsys, text, block(
        f"cards/revised/T/test_card.yaml:7:{col}: error[{code}]: {message}", "    " + rule,
        "  " + " " * (col - 1) + "^" * len(start)))


# ---------------------------------------------------------------- the settings of the game frame

TILE = "{{id: {}, name: Tile, spaces: 1, cost: '{}', capacity: 2, supply: 3}}"

# (pack, [(file, text replaced or '' to append, its replacement)], the diagnostics): each setting of game.yaml and
# of the spaces that the checker holds against the rest of the pack, word for word
FRAME = [
    ("revised", [("game.yaml", "", "reverse_passes: [{round: 15, pass: 1}]\n")], [block(
        "rules/revised/game.yaml:84:17: error[E131]: reverse_passes names round 15, but the game has 14 rounds",
        "  reverse_passes: [{round: 15, pass: 1}]",
        "                  ^")]),
    ("revised", [("game.yaml", "house: [B1, C1]", "house: [B1, J9]")], [block(
        "rules/revised/game.yaml:21:10: error[E132]: 'J9' is not a farmyard space (use A1 to C5)",
        "    house: [B1, J9]          # the two starting rooms (A1 is the top-left space)",
        "           ^")]),
    ("revised", [("game.yaml", "sowing: {grain: 3, vegetable: 2}", "sowing: {grain: 3}")], [block(
        "rules/revised/game.yaml:47:9: error[E133]: sowing: no yield given for 'vegetable'",
        "  sowing: {grain: 3}    # crops on a newly sown field, the seed included",
        "          ^")]),
    ("revised", [("game.yaml", "animals: [sheep, boar, cattle]", "animals: [sheep, boar, cattle, llama]")], [block(
        "rules/revised/game.yaml:27:3: error[E134]: the runtime knows no good 'llama' (it knows: food, grain, "
        "vegetable, wood, clay, reed, stone, sheep, boar, cattle)",
        "    food: food",
        "    ^")]),
    ("revised", [("game.yaml", "", "deal_by_class:\n  occupations: [{count: 5}]\n")], [block(
        "rules/revised/game.yaml:85:16: error[E137]: deal_by_class deals 5 occupations, but 'hand' says 7",
        "    occupations: [{count: 5}]",
        "                 ^")]),
    ("revised", [("game.yaml", "", "campaign: {winner: campaign_points}\n")], [block(
        "rules/revised/game.yaml:84:20: error[E139]: the campaign is won on campaign points, but 'points_by_rank' "
        "gives none",
        "  campaign: {winner: campaign_points}",
        "                     ^^^^^^^^^^^^^^^")]),
    ("revised", [("game.yaml", "", "draft:\n  - {kinds: [occupations], deal: all, picks: [1], rest: keep}\n")], [block(
        "rules/revised/game.yaml:85:5: error[E137]: a draft that deals 'all' cards must remove the rest ('rest: "
        "remove')",
        "    - {kinds: [occupations], deal: all, picks: [1], rest: keep}",
        "      ^")]),
    # a price by material for a material the house cannot have, and one that cannot be read
    ("revised", [("game.yaml", "  fence: 1 wood\n", "  fence: 1 wood\n  room_by_material: {gold: 5 wood, wood: '5 wood,'}\n")],
     [block(
         "rules/revised/game.yaml:46:22: error[E141]: room_by_material: 'gold' is not one of the house materials "
         "(wood, clay, stone)",
         "    room_by_material: {gold: 5 wood, wood: '5 wood,'}",
         "                       ^^^^"), block(
         "rules/revised/game.yaml:46:50: error[E202]: unexpected end of text; expected '(', 'players', 'tier', 'up', "
         "a name, a number",
         "    room_by_material: {gold: 5 wood, wood: '5 wood,'}",
         "                                                   ^")]),
    # a pasture tile listed twice, one whose cost cannot be read, a field tile that is none of them
    ("revised", [("game.yaml", "", "pasture_tiles:\n  - " + TILE.format("small", "1 wood") + "\n  - "
                  + TILE.format("small", "1 wood") + "\n  - " + TILE.format("big", "2 wood,") + "\nfield_tile: smal\n")],
     [block(
         "rules/revised/game.yaml:86:5: error[E138]: pasture tile 'small' is listed twice",
         "    - {id: small, name: Tile, spaces: 1, cost: '1 wood', capacity: 2, supply: 3}",
         "      ^"), block(
         "rules/revised/game.yaml:87:52: error[E202]: unexpected end of text; expected '(', 'players', 'tier', 'up', "
         "a name, a number",
         "    - {id: big, name: Tile, spaces: 1, cost: '2 wood,', capacity: 2, supply: 3}",
         "                                                     ^"), block(
         "rules/revised/game.yaml:88:13: error[E138]: field_tile: 'smal' is not one of the pasture tiles (did you "
         "mean 'small'?)",
         "  field_tile: smal",
         "              ^^^^")]),
    ("revised", [("game.yaml", "", "teams: {players: 4, partners: 'a+b'}\n")], [block(
        "rules/revised/game.yaml:84:31: error[E226]: teams: partners is 'opposite' or teams of seats naming every "
        "seat from 1 to 4 once, e.g. '1+2, 3+4'",
        "  teams: {players: 4, partners: 'a+b'}",
        "                                ^^^^^")]),
    # a pack that extends another adds a scoring category without points, and one whose points cannot be read
    ("revised-family", [("game.yaml", "", "scoring:\n  - {id: extra, label: Extra}\n"
                         "  - {id: more, label: More, points: 'rooms +'}\n")], [block(
        "rules/revised-family/game.yaml:8:5: error[E111]: scoring category 'extra' is missing the required key "
        "'points'",
        "    - {id: extra, label: Extra}",
        "      ^"), block(
        "rules/revised-family/game.yaml:9:45: error[E202]: unexpected end of text; expected '(', '-', 'done', "
        "'done_by_any', 'done_since', 'first', 'gained', 'house', 'tier', a name, a number",
        "    - {id: more, label: More, points: 'rooms +'}",
        "                                              ^")]),
    # a round card of a stage the pack does not have (its own stage then lacks it)
    ("revised", [("rounds.yaml", "  stage: 5\n  tags: [wish_for_children]", "  stage: 7\n  tags: [wish_for_children]")],
     [block(
         "rules/revised/rounds.yaml:66:10: error[E131]: stage 7 is not one of the pack's stages (1, 2, 3, 4, 5, 6)",
         "    stage: 7",
         "           ^"), block(
         "rules/revised/rounds.yaml:72:10: error[E136]: stage 5 has 1 round card for 1-4 players but 2 rounds "
         "(rounds 12 to 13)",
         "    stage: 5",
         "           ^")]),
    # a round card missing for one player count alone
    ("revised", [("rounds.yaml", "  stage: 5\n  tags: [wish_for_children]",
                  "  stage: 5\n  players: 2+\n  tags: [wish_for_children]")], [block(
        "rules/revised/rounds.yaml:66:10: error[E136]: stage 5 has 1 round card for 1 player but 2 rounds (rounds 12 "
        "to 13)",
        "    stage: 5",
        "           ^")]),
    ("revised", [("actions.yaml", "  players: 3+\n  effect: gain 1 food; choose", "  players: 3\n  effect: gain 1 food; "
                  "choose")], [block(
        "rules/revised/actions.yaml:66:5: error[E213]: by_players gives 4 players, but 'resource_market' is not used "
        "with 4 players",
        "      4:",
        "      ^")]),
    ("revised", [("actions.yaml", "  effect: gain 1 grain\n", "")], [block(
        "rules/revised/actions.yaml:11:3: error[E111]: action space 'grain_seeds' needs an 'effect' or 'accumulate'",
        "  - id: grain_seeds",
        "    ^")]),
    # a space with neither effect nor goods and with a wrong 'players': the wrong players alone is reported
    ("revised", [("actions.yaml", "  players: 4\n  tags: [food_accumulation]\n  accumulate: 1 food\n",
                  "  players: 5\n  tags: [food_accumulation]\n")], [block(
        "rules/revised/actions.yaml:87:12: error[E213]: 'players: 5' is outside this pack's 1 to 4 players",
        "    players: 5",
        "             ^")]),
]


@pytest.mark.parametrize("case", FRAME, ids=[
    "reverse pass after the last round", "house off the farmyard", "crop without a yield", "good unknown to the runtime",
    "deal by class against the hand", "campaign points without points", "draft of all cards keeping the rest",
    "room prices by material", "pasture tiles", "team partners not seats", "overlay scoring without points",
    "round card of no stage", "round card missing for one player count", "by_players for a count not used",
    "space without effect", "space without effect and with wrong players"])
def test_a_setting_at_odds_with_the_pack_is_refused(root, capsys, case):
    pack, edits, diagnostics = case
    for rel, old, new in edits:
        path = root / "rules" / pack / rel
        if old:
            edit(root, f"{pack}/{rel}", old, new)
        else:
            path.write_text(path.read_text(encoding="utf-8") + new, encoding="utf-8")
    check(root, capsys, pack, *diagnostics)


def test_upgrade_of_belongs_to_an_improvement_and_names_cards(root, capsys):
    # an occupation returns no card (and so loses no claims by it); a minor names known cards or tags
    occupation = CARD.replace("points: 0\n", "points: 0\nupgrade_of: [fireplace_2]\nreturned_lose_claims: true\n")
    check_card(root, capsys, occupation, block(
        "cards/revised/T/test_card.yaml:6:13: error[E212]: 'upgrade_of' belongs to an improvement: an occupation "
        "returns no card",
        "  upgrade_of: [fireplace_2]",
        "              ^"), block(
        "cards/revised/T/test_card.yaml:7:23: error[E212]: 'returned_lose_claims' is about the cards a minor "
        "improvement's price returns: it belongs to a minor with 'upgrade_of'",
        "  returned_lose_claims: true",
        "                        ^^^^"))
    minor = (CARD.replace("kind: occupation", "kind: minor").replace("players: 1+\n", "")
             .replace("points: 0\n", "points: 0\nupgrade_of: [fireplace_9]\n"))
    check_card(root, capsys, minor, block(
        "cards/revised/T/test_card.yaml:5:13: error[E205]: unknown card or tag 'fireplace_9' in upgrade_of (did you "
        "mean 'fireplace_3'?)",
        "  upgrade_of: [fireplace_9]",
        "              ^"))


def test_an_empty_effect_text_ends_at_its_start(root, capsys):
    # no word at all: the text ends where it begins, and the caret is there
    edit(root, "revised/game.yaml", 'points: "fenced_stables"', 'points: ""')
    edit(root, "revised/actions.yaml", "effect: gain 1 grain", "effect: '   '")
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:13:12: error[E202]: unexpected end of text; expected '(', 'add', 'bake', 'bonus', "
        "'breed', 'build', 'choose', 'claim', 'convert', 'discard', 'draw', 'exchange', 'family', 'fence', 'for', "
        "'gain', 'give', 'harvest', 'let', 'lodge', 'mark', 'may', 'move', 'pay', 'pile', 'place', 'play', 'plow', "
        "'put', 'renovate', 'return', 'reveal', 'schedule', 'skip', 'sow', 'spend', 'spread', 'take'",
        "    effect: '   '",
        "             ^"), block(
        "rules/revised/game.yaml:70:58: error[E202]: unexpected end of text; expected '(', '-', 'done', 'done_by_any', "
        "'done_since', 'first', 'gained', 'house', 'tier', a name, a number",
        '    - {id: fenced_stables, label: Fenced stables, points: ""}',
        "                                                           ^"))


def test_parse_refuses_a_text_over_the_limit_and_reads_no_text_as_nothing():
    # the schema refuses longer texts in files; the parser keeps its own limit for any other caller
    report = Report()
    assert parser.parse("gain 1 food" + " " * (parser.MAX_TEXT - 10), "body", report) is None
    assert [(d.code, d.message, d.span.line, d.span.col) for d in report.diagnostics] == [
        ("E207", f"effect text is {parser.MAX_TEXT + 1} characters; the limit is {parser.MAX_TEXT}", 1, 1)]
    report = Report()
    assert parser.parse("gain 1 food" + " " * (parser.MAX_TEXT - 11), "body", report) is not None and not report
    assert parser.parse(None, "body", report) is None and not report


def test_a_line_break_inside_a_body_is_named_end_of_line(root, capsys):
    # a body is one statement or several joined by ';': the end of its first line is where it goes wrong
    edit(root, "revised/actions.yaml", "effect: gain 1 grain\n", "effect: |\n    gain 1 grain\n    gain 1 wood\n")
    check(root, capsys, "revised", block(
        "rules/revised/actions.yaml:14:17: error[E202]: unexpected end of line; expected end of text (a body's "
        "statements are joined by ';', not written one per line)",
        "      gain 1 grain",
        "                  ^"))
