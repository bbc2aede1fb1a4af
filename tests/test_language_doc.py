"""docs/language.md: every card example in the designer's guide is a valid card file of the revised pack.

The guide shows complete card files in ```yaml blocks. Each one (a block with a top-level ``kind:``,
plus the major improvements, which have no ``kind``) is loaded, validated against its JSON Schema,
parsed and checked against the symbols of the revised pack. The only errors allowed are E300 ("not
supported yet"), and a block has them exactly when the guide marks it with a ``> needs: <feature>``
line right after the block. Rule snippets in ```effects blocks are held to the same standard.

Finally every example card that the runtime supports is compiled into a copy of the revised pack and
a few seeded games are played with them dealt into the hands.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from compiler import schema
from compiler.build import Compiler
from compiler.checker import Checker
from compiler.diagnostics import Report
from compiler.loader import load_yaml_text
from compiler.parser import parse

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "language.md"

FENCE = re.compile(r"^```(\w*)[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
NEEDS = re.compile(r"^>\s*needs:\s*(\S.*)$")


@dataclass
class Block:
    lang: str
    text: str
    line: int             # line of the opening fence in the doc
    needs: str | None     # the feature named by a '> needs:' marker right after the block
    source: str | None = None  # the card file a block quotes (named as `path`: just before it)


def _blocks() -> list[Block]:
    doc = DOC.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(doc):
        rest = doc[m.end():].lstrip("\n").split("\n", 1)[0]
        needs = NEEDS.match(rest.strip())
        before = doc[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        quoted = re.fullmatch(r"`([^`]+\.yaml)`:", before.strip())
        out.append(Block(m.group(1), m.group(2), doc.count("\n", 0, m.start()) + 1,
                         needs.group(1).strip() if needs else None, quoted.group(1) if quoted else None))
    return out


def _is_card(b: Block) -> bool:
    return b.lang == "yaml" and re.search(r"^kind:", b.text, re.M) is not None


def _is_major(b: Block) -> bool:
    return (b.lang == "yaml" and not _is_card(b) and re.search(r"^id:", b.text, re.M) is not None
            and re.search(r"^effects:", b.text, re.M) is not None)


BLOCKS = _blocks()
CARDS = [b for b in BLOCKS if _is_card(b)]
MAJORS = [b for b in BLOCKS if _is_major(b)]
SNIPPETS = [b for b in BLOCKS if b.lang == "effects"]


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    src, checked, report = Compiler(ROOT, tmp_path_factory.mktemp("langdoc")).check("revised")
    assert checked is not None and not report, report.render()
    sym = checked.symbols
    # The examples may name each other (has(card)), so their ids and tags are known names.
    for b in CARDS + MAJORS:
        ids = re.findall(r"^id:\s*(\S+)", b.text, re.M)
        sym.cards.update(ids)
        tags = re.search(r"^tags:\s*\[(.*)\]", b.text, re.M)
        if tags:
            sym.card_tags.update(t.strip() for t in tags.group(1).split(",") if t.strip())
    return checked


def _check_file(block: Block, kind: str, checked) -> tuple[dict | None, Report]:
    report = Report()
    data = load_yaml_text(block.text, f"docs/language.md:{block.line}", report)
    if data is None:
        return None, report
    assert isinstance(data, dict), f"line {block.line}: a card file is a mapping"
    if not schema.validate(data, kind, report):
        return data, report
    chk = Checker(checked.symbols, report)
    if hasattr(chk, "card_id"):
        chk.card_id = str(data.get("id"))  # 'this' and 'pile … on this card' refer to the card
    cost = data.get("cost")
    if isinstance(cost, str):
        node = parse(cost, "goods", report)
        if node is not None:
            chk.goods(node)
    req = data.get("requires")
    if isinstance(req, str):
        node = parse(req, "cond", report)
        if node is not None:
            chk.expr(node)
    effects = data.get("effects")
    if isinstance(effects, str):
        for rule in parse(effects, "rules", report) or []:
            chk.rule(rule, "card")
    return data, report


def _verdict(block: Block, report: Report, what: str):
    errors = report.errors
    other = [d for d in errors if d.code != "E300"]
    assert not other, f"{what} at docs/language.md line {block.line}:\n{report.render()}"
    e300 = [d for d in errors if d.code == "E300"]
    if e300:
        assert block.needs, (f"{what} at docs/language.md line {block.line} needs a feature the runtime lacks; "
                             f"mark it with '> needs: …' after the block:\n{report.render()}")
        assert all("missing feature" in d.message for d in e300)
    else:
        assert block.needs is None, (f"{what} at docs/language.md line {block.line} is marked "
                                     f"'> needs: {block.needs}' but the checker supports it")


def _ident(block):
    m = re.search(r"^id:\s*(\S+)", block.text, re.M)
    return m.group(1) if m else f"line{block.line}"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.source], ids=lambda b: b.source)
def test_quoted_card_files_are_quoted_exactly(block):
    """A block that names its card file is that file, word for word (the guide cannot drift)."""
    assert (ROOT / block.source).read_text(encoding="utf-8") == block.text


def test_every_card_example_names_its_file():
    assert all(b.source for b in CARDS), [b.line for b in CARDS if not b.source]


def test_the_guide_has_enough_examples():
    assert len(CARDS) >= 30, f"only {len(CARDS)} card examples"
    ids = {_ident(b) for b in CARDS}
    assert len(ids) >= 25, f"only {len(ids)} distinct card ids"
    assert len(ids) == len(CARDS), "two card examples share an id"


@pytest.mark.parametrize("block", CARDS, ids=[_ident(b) for b in CARDS])
def test_card_example(block, pack):
    data, report = _check_file(block, "card", pack)
    assert data is not None, report.render()
    _verdict(block, report, f"card '{_ident(block)}'")
    assert data["id"] == re.sub(r"[^a-z0-9]+", "_", str(data["name"]).lower().replace("'", "")).strip("_"), \
        "the id is the snake_case name"
    if data["kind"] == "occupation":
        assert "players" in data, "an occupation says from how many players it is in the deck"


@pytest.mark.parametrize("block", MAJORS, ids=[_ident(b) for b in MAJORS])
def test_major_example(block, pack):
    data, report = _check_file(block, "major", pack)
    assert data is not None, report.render()
    _verdict(block, report, f"major '{_ident(block)}'")


@pytest.mark.parametrize("block", SNIPPETS, ids=[f"line{b.line}" for b in SNIPPETS])
def test_effect_snippet(block, pack):
    report = Report()
    chk = Checker(pack.symbols, report)
    rules = parse(block.text, "rules", report)
    if rules is not None:
        for rule in rules:
            chk.rule(rule, "card")
    _verdict(block, report, "effect snippet")


def test_supported_examples_compile_and_play(tmp_path):
    """The example cards without '> needs:' compile into the revised pack and survive seeded games."""
    from runtime.agents import RandomAgent
    from runtime.engine import Game
    from runtime.pack import load_pack

    root = tmp_path / "ws"
    shutil.copytree(ROOT / "rules" / "revised", root / "rules" / "revised")
    cards = root / "cards" / "revised" / "examples"   # cards live in deck folders: cards/<pack>/<deck>/
    cards.mkdir(parents=True)
    for b in CARDS:
        if b.needs is None:
            (cards / f"{_ident(b)}.yaml").write_text(b.text, encoding="utf-8")
    result = Compiler(root, tmp_path / "build").compile("revised")
    assert result.ok, result.report.render()
    loaded = load_pack("revised", tmp_path / "build")
    examples = {_ident(b) for b in CARDS}
    played = set()
    for seed in range(12):
        n = 1 + seed % 4
        g = Game(loaded, n, seed=seed, agents=[RandomAgent(f"{seed}:{i}") for i in range(n)])
        scores = g.play()
        assert g.finished and len(scores) == n
        for s in scores:
            assert s["total"] == sum(s["categories"].values())
        for p in g.players:
            played.update(c for c in p.occupations + p.minors if c in examples)
    assert len(played) >= 10, f"only {len(played)} example cards came into play: {sorted(played)}"
