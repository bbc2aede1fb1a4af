"""docs/language.md, section 5, is generated from the compiler's and the runtime's tables
(compiler/reference.py): it must be the section those tables give now, and every entry of the tables
must have an example (the examples are checked against the pack by tests/test_language_doc.py)."""
from __future__ import annotations

from compiler import reference


def test_the_document_holds_the_reference_the_tables_give():
    text = reference.DOC.read_text(encoding="utf-8")
    assert reference.current_section(text) == reference.language_reference(), (
        "docs/language.md section 5 differs from the tables: run 'python -m compiler.reference'")


def test_every_table_entry_has_an_example():
    assert reference.missing_examples() == []


def test_a_new_event_without_an_example_is_reported(monkeypatch):
    from runtime import queries as Q
    monkeypatch.setitem(Q.EVENTS, "pay", {"what": "goods are paid"})
    assert reference.missing_examples() == ["event pay"]


def test_the_history_examples_are_valid_card_rules():
    """The examples of 5.6 belong in a card's rules (a counter is kept for the cards that read it): each is
    checked as a rule of a card of the revised pack, and refused outside one with a located message."""
    from pathlib import Path

    from compiler.build import Compiler
    from compiler.checker import Checker
    from compiler.diagnostics import Report
    from compiler.parser import parse
    from runtime import queries as Q

    root = Path(__file__).resolve().parent.parent
    _, checked, report = Compiler(root, root / "build").check("revised")
    assert checked is not None and not report, report.render()
    for name in Q.HISTORY:
        example = reference.HISTORY_EXAMPLES[name]
        report = Report()
        chk = Checker(checked.symbols, report)
        chk.card_id = "example_card"
        for rule in parse(example, "rules", report):
            chk.rule(rule, "card")
        assert not report.errors, f"{name}: {report.render()}"
    report = Report()
    chk = Checker(checked.symbols, report)
    for rule in parse("at round start if done(use, round) >= 1: gain 1 food", "rules", report):
        chk.rule(rule, "space")
    assert [d.message for d in report.errors] == [
        "done() counts from the moment a card that reads it enters the game: it belongs in a card's rules"]
