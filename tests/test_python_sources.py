"""The tests marked ``python_sources`` (they replace a runtime function or a game's method, which compiled
callers would not see) run on the Python sources: with the compiled runtime, in a second process here
(tests/conftest.py deselects them in this one)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.python_sources_runner
def test_the_tests_that_replace_runtime_functions_pass_on_the_python_sources():
    env = dict(os.environ, AGRICOLA_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-m", "pytest", "-m", "python_sources and not slow", "-p", "no:cacheprovider",
                          "-o", "addopts=", "-q", "tests"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=1800)
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
    passed = re.search(r"(\d+) passed", out.stdout)
    assert passed and int(passed.group(1)) >= 10, out.stdout[-2000:]
