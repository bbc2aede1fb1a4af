"""Runs every scenario file under tests/scenarios/ and every card test (one pytest case per file).

Scenario files may name the test packs of tests/packs/ (probe cards that are not real cards, and the
designer-test pack's real cards with their card tests beside them)."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.scenario import run_file

HERE = Path(__file__).parent
ROOT = HERE.parent
FILES = sorted((HERE / "scenarios").rglob("*.yaml")) + sorted((ROOT / "cards").rglob("*.test.yaml")) \
    + sorted((HERE / "packs" / "cards").rglob("*.test.yaml"))   # the designer-test pack's cards (docs/architecture.md)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario_file(path, pack_loader):
    outcomes = run_file(path, pack_loader)
    failed = [o for o in outcomes if not o.ok]
    assert outcomes, "no scenario in file"
    assert not failed, "\n".join(f"{o.name}: {o.message}" for o in failed)
