"""Shared fixtures: the compiled built-in packs and small game helpers."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_tool(name: str):
    """A script of tools/ (not a package) as a module, e.g. load_tool("native") for tools/native.py."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"{name}_tool", ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def build_root(tmp_path_factory):
    return tmp_path_factory.mktemp("build")


@pytest.fixture(scope="session")
def compiler(build_root):
    from compiler.build import Compiler
    return Compiler(ROOT, build_root)


@pytest.fixture(scope="session")
def pack_loader(build_root):
    """Compile and load a pack by name, once a session; the test packs under tests/packs/rules are found too."""
    from compiler.build import Compiler
    from runtime.pack import load_pack
    compiler = Compiler(ROOT, build_root, extra_pack_dirs=[ROOT / "tests" / "packs" / "rules"])
    cache = {}

    def load(name):
        if name not in cache:
            result = compiler.compile(name)
            assert result.ok, result.report.render()
            cache[name] = load_pack(name, build_root)
        return cache[name]
    return load


def _pack(compiler, build_root, name):
    result = compiler.compile(name)
    assert result.ok, result.report.render()
    from runtime.pack import load_pack
    return load_pack(name, build_root)


@pytest.fixture(scope="session")
def revised(compiler, build_root):
    return _pack(compiler, build_root, "revised")


@pytest.fixture(scope="session")
def family(compiler, build_root):
    return _pack(compiler, build_root, "revised-family")


@pytest.fixture(scope="session")
def original(compiler, build_root):
    return _pack(compiler, build_root, "original")


@pytest.fixture(scope="session")
def original_family(compiler, build_root):
    return _pack(compiler, build_root, "original-family")
