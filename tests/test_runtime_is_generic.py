"""The runtime names no action space, card or edition: all of those are data in the packs.

Every Python file under runtime/ is tokenised. A failure names the file, line and word.
- Identifiers (NAME tokens) and string literals in code must not be an id of an action space,
  round card, improvement or card of any pack, a pack id, or an edition id.
- String literals must not contain a card's or space's printed name ("Cooking Hearth").
- Comments and docstrings are checked for distinctive ids (with '_', '-' or a digit) and names
  of more than one word; single English words that are also ids ('well', 'fencing') are allowed there.
"""
from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


def _board_vocabulary():
    """Ids and printed names of the packs' action spaces, round cards and major improvements."""
    ids, names = set(), set()
    for pack in (ROOT / "rules").iterdir():
        if not (pack / "game.yaml").exists():
            continue
        for fname in ("actions.yaml", "rounds.yaml", "majors.yaml"):
            path = pack / fname
            if path.exists():
                for entry in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
                    ids.add(str(entry["id"]))
                    if entry.get("name"):
                        names.add(str(entry["name"]))
    return ids, names


def _pack_vocabulary():
    ids, names = _board_vocabulary()
    for pack in (ROOT / "rules").iterdir():
        if not (pack / "game.yaml").exists():
            continue
        ids.add(pack.name)
        game = yaml.safe_load((pack / "game.yaml").read_text(encoding="utf-8")) or {}
        if game.get("edition"):
            ids.add(str(game["edition"]))
    for card in (ROOT / "cards").rglob("*.yaml"):
        data = yaml.safe_load(card.read_text(encoding="utf-8")) or {}
        if isinstance(data, dict) and "id" in data:
            ids.add(str(data["id"]))
            if data.get("name"):
                names.add(str(data["name"]))
    ids |= {"revised_2016", "original_2007", "family_2012"}
    return ids, names


def _distinctive(word: str) -> bool:
    return bool(re.search(r"[_\-0-9]", word))


def _problems(path: Path, ids, names):
    text = path.read_text(encoding="utf-8")
    out = []
    toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    prev_significant = None
    for tok in toks:
        kind, value, (line, _), _, _ = tok
        if kind == tokenize.NAME and value in ids:
            out.append((line, value))
        elif kind == tokenize.STRING:
            is_doc = prev_significant in (None, tokenize.INDENT, tokenize.NEWLINE) or \
                (prev_significant == tokenize.OP and False)
            body = value.strip("rbuRBUfF").strip("'\"")
            words = re.findall(r"[A-Za-z0-9_\-]+", body)
            for w in words:
                if w in ids and (not is_doc or _distinctive(w)):
                    out.append((line, w))
            if body in ids:
                out.append((line, body))
            for name in names:
                if (" " in name or not is_doc) and re.search(r"\b" + re.escape(name) + r"\b", body):
                    out.append((line, name))
        elif kind == tokenize.COMMENT:
            for w in re.findall(r"[A-Za-z0-9_\-]+", value):
                if w in ids and _distinctive(w):
                    out.append((line, w))
            for name in names:
                if " " in name and name in value:
                    out.append((line, name))
        if kind not in (tokenize.NL, tokenize.COMMENT, tokenize.ENCODING):
            prev_significant = kind
    return out


@pytest.mark.source_text
def test_runtime_names_no_space_card_or_edition():
    ids, names = _pack_vocabulary()
    assert {"forest", "fireplace_2", "revised", "cooking_hearth_4"} <= ids  # the vocabulary is really read
    bad = []
    for path in sorted((ROOT / "runtime").rglob("*.py")):
        for line, word in _problems(path, ids, names):
            bad.append(f"{path.relative_to(ROOT)}:{line}: names '{word}'")
    assert not bad, "the runtime must not name packs, spaces or cards:\n" + "\n".join(bad)


def test_the_check_catches_a_named_space(tmp_path):
    ids, names = _pack_vocabulary()
    sample = tmp_path / "sample.py"
    sample.write_text('def f(g):\n    return g.space_by_id["forest"]\n\nfireplace_2 = 1\nX = "Meeting Place"\n')
    found = {w for _, w in _problems(sample, ids, names)}
    assert {"forest", "fireplace_2", "Meeting Place"} <= found


def _hand_cards():
    ids, names = set(), set()
    for card in (ROOT / "cards").glob("*/*/*.yaml"):
        if card.name.endswith(".test.yaml"):
            continue
        data = yaml.safe_load(card.read_text(encoding="utf-8")) or {}
        if isinstance(data, dict) and data.get("kind") in ("occupation", "minor"):
            ids.add(str(data["id"]))
            names.add(str(data["name"]))
    return ids, names


@pytest.mark.source_text
def test_no_python_file_names_a_hand_card():
    """Cards are data: no Python file of the project (compiler, runtime, tests, tools) names one. A card
    whose id or name is also that of a space or major of some pack (the 2007 minor Clay Pit and the
    revised space Clay Pit) cannot be told apart from it here, and tests may name spaces: such words are
    left to test_runtime_names_no_space_card_or_edition, which holds for the runtime."""
    ids, names = _hand_cards()
    assert len(ids) >= 96
    board_ids, board_names = _board_vocabulary()
    assert "clay_pit" in board_ids and "Clay Pit" in board_names  # the vocabulary is really read
    ids -= board_ids
    names -= board_names
    bad = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in ("build", ".venv") or "site-packages" in rel.parts:
            continue
        text = path.read_text(encoding="utf-8")
        for word in set(re.findall(r"[A-Za-z0-9_]+", text)):
            if word in ids:
                bad.append(f"{rel}: names card id '{word}'")
        for name in names:
            # (a possessive names something else: a major's name may begin with a hand card's name)
            if re.search(r"(?<![A-Za-z])" + re.escape(name) + r"(?![A-Za-z']|\u2019)", text):
                bad.append(f"{rel}: names card '{name}'")
    assert not bad, "\n".join(sorted(set(bad)))
