"""Operator precedence in conditions and expressions: ``and`` binds tighter than ``or``, ``not`` tighter
than both, ``*`` and ``//`` tighter than ``+`` and ``-``, and parentheses override. Checked three ways for
each formula: what the compiled card does (its prerequisite, on every combination of goods), the canonical
text of the tree (it must read back as the same tree), and the card text players read (formulas that
group differently must read differently).
"""
from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

from compiler import english, textgen
from compiler import nodes as N
from compiler.build import Compiler
from compiler.diagnostics import Report
from compiler.parser import parse

REPO = Path(__file__).resolve().parent.parent

A, B, C = "wood >= 1", "clay >= 1", "reed >= 1"

# (formula, what it means for a, b, c)
CONDITIONS = [
    (f"{A} and {B} or {C}", lambda a, b, c: (a and b) or c),
    (f"({A} and {B}) or {C}", lambda a, b, c: (a and b) or c),
    (f"{A} and ({B} or {C})", lambda a, b, c: a and (b or c)),
    (f"{A} or {B} and {C}", lambda a, b, c: a or (b and c)),
    (f"({A} or {B}) and {C}", lambda a, b, c: (a or b) and c),
    (f"not {A} and {B} or {C}", lambda a, b, c: ((not a) and b) or c),
    (f"not ({A} and {B}) or {C}", lambda a, b, c: (not (a and b)) or c),
    (f"not ({A} or {B} and {C})", lambda a, b, c: not (a or (b and c))),
    (f"{A} or {B} or {C}", lambda a, b, c: a or b or c),
    (f"{A} and {B} and {C}", lambda a, b, c: a and b and c),
    ("wood and clay or reed", lambda a, b, c: (a and b) or c),
    ("wood and (clay or reed)", lambda a, b, c: a and (b or c)),
]

# (formula, its value with wood=6, clay=3, reed=2)
ARITHMETIC = [
    ("wood - clay - reed == 1", True),
    ("wood - (clay - reed) == 5", True),
    ("wood + clay * reed == 12", True),
    ("(wood + clay) * reed == 18", True),
    ("wood // clay // reed == 1", True),
    ("wood // (clay // reed) == 6", True),
    ("-(wood - clay) == -3", True),
    ("-wood + clay == -3", True),
]


def _card(cid: str, requires: str) -> str:
    return (f"id: {cid}\nname: Test {cid}\nkind: minor\ndeck: A\nnumber: 900\ncost: 1 food\npoints: 0\n"
            f"bonus_points: false\npassing: false\nrequires: \"{requires}\"\neffects: |\n  on play: gain 1 food\n")


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """The revised pack with one test card per formula; returns (pack, checked pack)."""
    tmp = tmp_path_factory.mktemp("grouping")
    root = tmp / "ws"
    (root / "rules").mkdir(parents=True)
    shutil.copytree(REPO / "rules" / "revised", root / "rules" / "revised")
    shutil.copy(REPO / "rules" / "defaults.yaml", root / "rules" / "defaults.yaml")
    shutil.copytree(REPO / "cards" / "revised", root / "cards" / "revised",
                    ignore=shutil.ignore_patterns("*.test.yaml"))
    for i, (formula, _) in enumerate(CONDITIONS + ARITHMETIC):
        (root / "cards" / "revised" / "A" / f"grouping_{i}.yaml").write_text(_card(f"grouping_{i}", formula),
                                                                             encoding="utf-8")
    comp = Compiler(root, tmp / "build")
    result = comp.compile("revised")
    assert result.ok, result.report.render()
    from runtime.pack import load_pack
    _, checked, report = comp.check("revised")
    assert not report, report.render()
    return load_pack("revised", tmp / "build"), checked


def _player(pack, **goods):
    from runtime.engine import Game
    game = Game(pack, 2, seed=1)
    p = game.players[0]
    for good in ("wood", "clay", "reed"):
        p.goods[good] = goods.get(good, 0)
    return game, p


@pytest.mark.parametrize("i", range(len(CONDITIONS)))
def test_a_prerequisite_groups_as_the_language_says(compiled, i):
    pack, _ = compiled
    formula, meaning = CONDITIONS[i]
    card = pack.all_cards[f"grouping_{i}"]
    for a, b, c in itertools.product((False, True), repeat=3):
        game, p = _player(pack, wood=int(a), clay=int(b), reed=int(c))
        assert bool(card.requires(game, p)) == meaning(a, b, c), f"{formula!r} with a={a}, b={b}, c={c}"


@pytest.mark.parametrize("i", range(len(ARITHMETIC)))
def test_arithmetic_groups_as_the_language_says(compiled, i):
    pack, _ = compiled
    formula, value = ARITHMETIC[i]
    card = pack.all_cards[f"grouping_{len(CONDITIONS) + i}"]
    game, p = _player(pack, wood=6, clay=3, reed=2)
    assert bool(card.requires(game, p)) == value, formula
    game, p = _player(pack, wood=12, clay=3, reed=2)
    assert bool(card.requires(game, p)) != value, f"{formula!r} does not depend on wood"


def _shape(node):
    """The tree without positions, for comparing two parses."""
    if isinstance(node, (N.BoolOp, N.BinOp, N.Compare)):
        return (type(node).__name__, node.op, _shape(node.left), _shape(node.right))
    if isinstance(node, (N.Not, N.Neg, N.Truthy)):
        return (type(node).__name__, _shape(node.value))
    if isinstance(node, N.Num):
        return node.value
    if isinstance(node, N.Quantity):
        return node.name
    raise TypeError(type(node).__name__)


@pytest.mark.parametrize("formula", [f for f, _ in CONDITIONS + ARITHMETIC])
def test_the_canonical_text_reads_back_as_the_same_tree(formula):
    """textgen writes the stable spelling of effects (decision labels, generated comments and tables):
    it keeps every grouping that the precedence rules would otherwise change."""
    report = Report()
    tree = parse(formula, "cond", report)
    assert not report, report.render()
    text = textgen.expr(tree)
    again = parse(text, "cond", report)
    assert not report, f"{text!r}: {report.render()}"
    assert _shape(again) == _shape(tree), f"{formula!r} is written {text!r}"


def test_the_generated_module_keeps_the_grouping_of_a_prerequisite(compiled):
    pack, _ = compiled
    i = next(k for k, (f, _) in enumerate(CONDITIONS) if f == f"{A} and ({B} or {C})")
    assert pack.all_cards[f"grouping_{i}"].requires_text == f"{A} and ({B} or {C})"


def test_card_texts_of_differently_grouped_conditions_differ(compiled):
    """The prerequisite as players read it: two formulas that group the same conditions differently
    must not read the same."""
    _, checked = compiled
    eng = english.for_pack(checked)
    units = {u.id: u for u in checked.cards}
    texts = {}
    for i, (formula, meaning) in enumerate(CONDITIONS):
        truth = tuple(meaning(*v) for v in itertools.product((False, True), repeat=3))
        texts.setdefault(eng.cond(units[f"grouping_{i}"].data["requires"]), set()).add(truth)
    same = {text: truths for text, truths in texts.items() if len(truths) > 1}
    assert not same, f"these texts stand for formulas that mean different things: {sorted(same)}"
