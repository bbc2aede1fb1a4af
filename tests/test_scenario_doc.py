"""docs/scenarios.md is complete and true: it describes exactly the keys and steps the scenario runner
accepts (the runner's key sets come from compiler/schemas/scenario.json), each with an example, and
every example scenario on the page passes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler import scenario as S

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "scenarios.md"


def _sections() -> dict:
    """Heading text -> the lines under it (up to the next heading of any level)."""
    out, current = {}, None
    in_code = False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if not in_code and line.startswith("#"):
            current = line.lstrip("#").strip()
            out[current] = []
        elif current is not None:
            out[current].append(line)
    return out


def _tables(lines) -> list[list[str]]:
    """Every table of a section as the list of its first cells (header and rule rows left out)."""
    tables, rows = [], None
    for line in lines:
        if line.startswith("|"):
            if rows is None:
                rows = []
                header = True
            cell = line.split("|")[1].strip()
            if header:
                header = False
            elif not set(cell) <= set("-: "):
                rows.append(cell)
        elif rows is not None:
            tables.append(rows)
            rows = None
    if rows is not None:
        tables.append(rows)
    return tables


def _keys(cells) -> set:
    return {k for cell in cells for k in re.findall(r"`([^`]+)`", cell)}


SECTIONS = _sections()


def _section(title):
    assert title in SECTIONS, f"docs/scenarios.md has no heading '{title}'"
    return SECTIONS[title]


def test_file_keys_are_documented():
    assert _keys(_tables(_section("The file"))[0]) == set(S.FILE_KEYS)


def test_scenario_keys_are_documented():
    assert _keys(_tables(_section("A scenario"))[0]) == set(S.SCENARIO_KEYS)


def test_steps_are_documented():
    assert _keys(_tables(_section("Steps (`do`)"))[0]) == set(S.STEPS)


def test_given_keys_and_player_keys_are_documented():
    given, player = _tables(_section("`given`"))[:2]
    assert _keys(given) == set(S.GIVEN_KEYS)
    assert _keys(player) == set(S.PLAYER_KEYS)


def test_expect_keys_and_player_keys_are_documented():
    expect, player = _tables(_section("`expect`"))[:2]
    assert _keys(expect) == set(S.EXPECT_KEYS)
    assert _keys(player) == set(S.EXPECT_PLAYER_KEYS)
    line = next(text for text in _section("`expect`") if text.startswith("`score` keys:"))
    assert set(re.findall(r"`(\w+)` \(", line) + re.findall(r"and `(\w+)`\.", line)) == set(S.SCORE_KEYS)


def _examples() -> list[tuple[int, str]]:
    """(line, text) of every ```yaml block of the page that is a scenario file."""
    out, block, start = [], None, 0
    for n, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() == "```yaml" and block is None:
            block, start = [], n + 1
        elif line.strip() == "```" and block is not None:
            text = "\n".join(block) + "\n"
            if re.search(r"^scenarios:", text, re.M):
                out.append((start, text))
            block = None
        elif block is not None:
            block.append(line)
    return out


EXAMPLES = _examples()


def test_every_key_and_step_has_an_example():
    text = "\n".join(t for _, t in EXAMPLES)
    keys = set(S.FILE_KEYS + S.SCENARIO_KEYS + S.GIVEN_KEYS + S.PLAYER_KEYS + S.EXPECT_KEYS
               + S.EXPECT_PLAYER_KEYS + S.SCORE_KEYS)
    missing = sorted(k for k in keys if not re.search(rf"(^|[\s{{,\[]){re.escape(k)}:", text, re.M))
    assert missing == []
    steps = " ".join(re.findall(r"do: \[([^\]]*)\]", text))
    assert "use " in steps
    assert re.search(r"\bP[2-9] use ", steps), "no example of another player's turn ('P<n> use <space>')"
    assert sorted(s for s in S.STEPS if s not in ("use <space>", "P<n> use <space>") and s not in steps) == []


@pytest.mark.parametrize("line,text", EXAMPLES, ids=[f"line{n}" for n, _ in EXAMPLES])
def test_example_passes(line, text, pack_loader, tmp_path):
    path = tmp_path / f"scenarios_md_line{line}.yaml"
    path.write_text(text, encoding="utf-8")
    outcomes = S.run_file(path, pack_loader)
    failed = [f"docs/scenarios.md example at line {line}: {o.where()}: {o.name}: {o.message}"
              for o in outcomes if not o.ok]
    assert outcomes and failed == []


def test_the_abilities_for_other_players_and_later_requests_are_used_by_card_tests():
    """given: other players' farms and cards (with ~ for 'as set up'), people on spaces, people at home;
    answers_by; expect: another player's hand, the options of the n-th request."""
    import yaml
    found = set()
    for path in sorted((ROOT / "cards").rglob("*.test.yaml")):
        for sc in yaml.safe_load(path.read_text(encoding="utf-8"))["scenarios"]:
            given, expect = sc.get("given") or {}, sc.get("expect") or {}
            players = given.get("players") or []
            if None in players:
                found.add("given.players ~")
            if any(p and ("improvements" in p or "hand" in p) for p in players[1:]):
                found.add("given.players cards")
            if given.get("occupants"):
                found.add("given.occupants")
            if any(p and "home" in p for p in [given.get("player")] + players):
                found.add("given home")
            if sc.get("answers_by"):
                found.add("answers_by")
            if any(p and "hand" in p for p in (expect.get("players") or [])[1:]):
                found.add("expect.players hand")
            if any(isinstance(v, dict) for v in (expect.get("options") or {}).values()):
                found.add("expect.options n-th")
    assert found == {"given.players ~", "given.players cards", "given.occupants", "given home", "answers_by",
                     "expect.players hand", "expect.options n-th"}
