"""The runtime type-checks: mypy, with the settings of pyproject.toml's [tool.mypy], finds no error in
runtime/. The first step towards a typed, compiled core (docs/architecture.md, "Towards a typed core"):
what a typed compiler (mypyc, or Cython reading annotations) compiles must type-check first."""
from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.source_text  # a mutant's source holds mutmut's own code, which does not type-check


def test_the_runtime_type_checks(tmp_path):
    out, err, status = api.run(["--config-file", str(REPO / "pyproject.toml"), "--cache-dir", str(tmp_path / "cache"),
                                "--no-error-summary", "--hide-error-context", str(REPO / "runtime")])
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert (status, errors, err) == (0, [], ""), "mypy finds type errors in runtime/:\n" + out + err
