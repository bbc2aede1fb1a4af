"""Shared fixtures: the compiled built-in packs and small game helpers."""
from __future__ import annotations

import json
import os
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
            with _reached(("pack_loader", name)):
                result = compiler.compile(name)
                assert result.ok, result.report.render()
                cache[name] = load_pack(name, build_root)
        else:
            _credit(("pack_loader", name))
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


# ---- make mutate (tools/mutate.py): mutmut's test selection and the order of a mutant's tests ----
# mutmut first runs every test once and records which functions each test reaches; a mutant is later tested
# with the tests that reached its function only. A session fixture (a compiled pack) or a cache runs its
# code once, inside the first test that asks for it: without help mutmut would credit pack loading to that
# test alone, and a mutant there that a later test would catch counted as surviving (session 13 found five).
# Here the functions a shared fixture or a cached pack reaches are recorded once and credited to every test
# that uses them. Outside that recording run (MUTANT_UNDER_TEST is not "stats") these hooks do nothing.
_REACHED: dict = {}


def _mutmut_calls():
    """The set of functions mutmut records for the running test, or None when it is not recording."""
    if os.environ.get("MUTANT_UNDER_TEST") != "stats":
        return None
    try:
        from mutmut.state import state
    except ImportError:
        return None
    return state()._stats


class _reached:
    """Record under ``key`` the functions reached inside the block (and keep crediting the running test)."""

    def __init__(self, key):
        self.key = key

    def __enter__(self):
        self.calls = _mutmut_calls()
        if self.calls is not None:
            self.before = set(self.calls)
            self.calls.clear()

    def __exit__(self, *exc):
        if self.calls is not None:
            _REACHED[self.key] = set(self.calls)
            self.calls.update(self.before)


def _credit(key):
    calls = _mutmut_calls()
    if calls is not None:
        calls.update(_REACHED.get(key, ()))


class _CreditingPackCache(dict):
    """runtime.pack's cache of loaded packs, while mutmut records: a pack is built once a process (the
    first load_pack of a folder), and every later load_pack of it returns that pack; so the functions its
    building reached (Pack, CardDef, Rules, …) are recorded with the first load and credited to every test
    that loads it again, whichever fixture or helper it loads it through."""

    def __contains__(self, key):
        if dict.__contains__(self, key):
            _credit(("load_pack", key))
            return True
        self._stop_building()   # a load that failed before storing its pack
        self.building = _reached(("load_pack", key))   # load_pack builds it now, then stores it
        self.building.__enter__()
        return False

    def _stop_building(self):
        building = self.__dict__.pop("building", None)
        if building is not None:
            building.__exit__(None, None, None)

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        self._stop_building()


# The runtime's per-process caches of plain data (fencing options, payment ways, event names, …): a value is
# worked out by the first test that needs it, and later tests read it from the cache, so the functions that
# work it out would be credited to that first test alone. While mutmut records they are emptied before each
# test, so every test works out what it reads (test_tools.py checks that this list names every such cache).
PROCESS_CACHES = {
    "runtime.farm": ("_FENCE_CACHE", "_FRONTIER_CACHE", "_PASTURE_CACHE", "_KEEPS_CACHE"),
    "runtime.payments": ("_RESOLVED", "_MEMO", "_WEIGHTS"),
    "runtime.phases": ("_SPACE_EVENTS",),
    "runtime.primitives.rooms": ("_RENOVATION_PRICES",),
}


def pytest_configure(config):
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        import runtime.pack
        runtime.pack._LOADED = _CreditingPackCache(runtime.pack._LOADED)


def pytest_runtest_setup(item):
    if _mutmut_calls() is not None:
        import importlib
        for module, names in PROCESS_CACHES.items():
            loaded = importlib.import_module(module)
            for name in names:
                getattr(loaded, name).clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    if fixturedef.scope == "function" or _mutmut_calls() is None:
        yield
        return
    with _reached(("fixture", fixturedef.baseid, fixturedef.argname)):
        yield


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    # before mutmut's own teardown hook, which files the functions reached under this test
    if _mutmut_calls() is not None:
        for name in item.fixturenames:
            for fixturedef in item._fixtureinfo.name2fixturedefs.get(name, ()):
                _credit(("fixture", fixturedef.baseid, name))


def runtime_is_compiled() -> bool:
    """Whether this process runs the compiled runtime (make native; docs/architecture.md)."""
    import runtime
    import runtime.engine  # noqa: F401 (the finder decides at the first import of a runtime module)
    return bool(runtime.compiled_modules())


def _python_sources_split(config, items):
    """Tests marked ``python_sources`` replace a runtime function or a game's method, or call typed
    functions with stand-ins: compiled callers would not see the replacement. With the compiled runtime they
    are deselected here and run in a second process on the Python sources (tests/test_python_sources.py);
    on the sources they run here and that test, which would run them again, is deselected."""
    drop = "python_sources" if runtime_is_compiled() else "python_sources_runner"
    dropped = [item for item in items if item.get_closest_marker(drop)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if not item.get_closest_marker(drop)]


def pytest_collection_modifyitems(session, config, items):
    _python_sources_split(config, items)
    _mutmut_order(items)


def _mutmut_order(items):
    """While mutmut tests a mutant (and in its clean run, MUTANT_UNDER_TEST set but empty), run the tests
    module by module, the cheapest first: mutmut passes them in no particular order, which sets module
    fixtures up again at every switch, and stops at the first failure (-x), which comes sooner when the
    quick tests run first."""
    mutant = os.environ.get("MUTANT_UNDER_TEST")
    if mutant is None or mutant in ("stats", "list_all_tests", "mutant_generation") \
            or not os.path.isfile("mutmut-stats.json"):
        return
    with open("mutmut-stats.json", encoding="utf-8") as f:
        duration = json.load(f).get("duration_by_test", {})
    by_module: dict = {}
    for item in items:
        by_module.setdefault(item.nodeid.split("::")[0], []).append(item)
    cost = {module: sum(duration.get(i.nodeid, 0.0) for i in group) for module, group in by_module.items()}
    items[:] = [item for module in sorted(by_module, key=lambda m: (cost[m], m))
                for item in sorted(by_module[module], key=lambda i: (duration.get(i.nodeid, 0.0), i.nodeid))]
