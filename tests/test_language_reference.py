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
    monkeypatch.setitem(Q.EVENTS, "harvest", {"what": "the field phase"})
    assert reference.missing_examples() == ["event harvest"]
