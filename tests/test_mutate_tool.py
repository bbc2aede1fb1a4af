"""tools/mutate.py (``make mutate``) chooses the modules the README's score is about: every module of
runtime/, its packages included, and compiler/checker.py and compiler/parser.py."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("mutate_tool", ROOT / "tools" / "mutate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_default_modules_are_all_of_runtime_with_its_packages_and_the_checker_and_parser():
    tool = _tool()
    selected = tool.select_modules(tool.MODULES)
    runtime_files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "runtime").rglob("*.py")
                           if "__pycache__" not in p.parts)
    assert "runtime/primitives/fences.py" in selected
    assert "runtime/savegame.py" in selected
    assert "runtime/__init__.py" not in selected
    assert [f for f in selected if f.startswith("runtime/")] == [f for f in runtime_files if f != "runtime/__init__.py"]
    assert [f for f in selected if f.startswith("compiler/")] == ["compiler/checker.py", "compiler/parser.py"]


def test_a_module_option_selects_that_file_only():
    tool = _tool()
    assert tool.select_modules(["runtime/fileio.py"]) == ["runtime/fileio.py"]
    assert tool.select_modules(["runtime/no_such_module.py"]) == []
