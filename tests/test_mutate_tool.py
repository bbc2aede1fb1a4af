"""tools/mutate.py (``make mutate``) chooses the modules the README's score is about: every module of
runtime/, its packages included, and compiler/checker.py and compiler/parser.py."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import load_tool

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    return load_tool("mutate")


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


def _mutant_seen_by_a_new_process(tmp_path, cwd, mutant):
    import os
    import subprocess
    import sys
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(_tool().SITECUSTOMIZE, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(site), MUTANT_UNDER_TEST=mutant)
    out = subprocess.run([sys.executable, "-c", "import os; print(repr(os.environ['MUTANT_UNDER_TEST']))"],
                         cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_a_new_process_started_elsewhere_runs_the_original_code_while_mutmut_collects_its_stats(tmp_path):
    """A test that runs the project in a new process from its temporary folder (kill -9 and resume) stopped
    the first full run: mutmut's recorder looked for its configuration in that folder. The file tools/mutate.py
    puts beside the copied project turns the recording off there, and only there."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert _mutant_seen_by_a_new_process(tmp_path, elsewhere, "stats") == "''"
    assert _mutant_seen_by_a_new_process(tmp_path, elsewhere, "runtime.savegame.x_load__mutmut_3") == \
        "'runtime.savegame.x_load__mutmut_3'"
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[tool.mutmut]\n", encoding="utf-8")
    assert _mutant_seen_by_a_new_process(tmp_path, project, "stats") == "'stats'"


def test_the_file_goes_with_the_copied_project():
    assert '"sitecustomize.py"' in _tool().mutmut_config(["runtime/savegame.py"], ["tests/"])


def test_a_mutants_tests_run_in_a_process_that_has_not_run_the_suite():
    """mutmut's own process has run every test unmutated: packs loaded, caches filled, generated modules
    imported; a worker forked from it would run a mutant against those."""
    assert 'process_isolation = "forkserver"' in _tool().mutmut_config(["runtime/farm.py"], ["tests/"])


def test_a_sample_is_drawn_by_its_seed_and_sorted():
    tool = _tool()
    names = [f"runtime.m.x_f__mutmut_{i}" for i in range(50)]
    first = tool.draw_sample(reversed(names), 7, seed=1)
    assert first == tool.draw_sample(names, 7, seed=1) == sorted(first)
    assert len(first) == 7 and set(first) <= set(names)
    assert tool.draw_sample(names, 7, seed=2) != first
    assert tool.draw_sample(names[:5], 7, seed=1) == sorted(names[:5])


def test_the_score_of_a_sample_comes_with_its_95_percent_wilson_interval():
    tool = _tool()
    assert tool.wilson_interval(90, 100) == [0.8256, 0.9448]
    assert tool.wilson_interval(10, 10) == [0.7225, 1.0]
    assert tool.wilson_interval(0, 0) is None


def test_a_mutation_run_leaves_out_the_tests_of_the_compiled_runtime():
    """build/ is not copied for a mutation run: its mutants run as Python, and the tests that need
    build/native would fail before any mutant is tried."""
    config = _tool().mutmut_config(["runtime/savegame.py"], ["tests/"])
    assert '"not slow and not source_text and not native"' in config
    assert "build" not in _tool().COPY


def test_the_stand_in_for_mutmuts_call_stack_restores_what_it_replaced(monkeypatch):
    """mutmut's trampoline keeps its callers in a ContextVar; set inside a game's greenlet it crashed CPython
    (tools/mutate.py). The stand-in sitecustomize puts there behaves as the ContextVar's set and reset."""
    import sys
    import types
    core = types.ModuleType("mutmut.core")
    package = types.ModuleType("mutmut")
    package.core = core

    class MutmutCallStack:
        _ctx = None
    core.MutmutCallStack = MutmutCallStack
    monkeypatch.setitem(sys.modules, "mutmut", package)
    monkeypatch.setitem(sys.modules, "mutmut.core", core)
    monkeypatch.setenv("AGRICOLA_MUTMUT_CALL_STACK", "1")
    monkeypatch.delenv("MUTANT_UNDER_TEST", raising=False)
    exec(_tool().SITECUSTOMIZE, {})
    stack = MutmutCallStack._ctx
    assert stack.get() == (None, 0)
    outer = stack.set(("runtime.phases.x_place", 1))
    inner = stack.set(("runtime.payments.x_can_afford", 2))
    assert stack.get() == ("runtime.payments.x_can_afford", 2)
    stack.reset(inner)
    assert stack.get() == ("runtime.phases.x_place", 1)
    stack.reset(outer)
    assert stack.get() == (None, 0)


def _fake_run(monkeypatch, tool, verdicts, diffs):
    monkeypatch.setattr(tool, "_verdicts", lambda: dict(verdicts))
    monkeypatch.setattr(tool, "_diffs", lambda names: {n: diffs[n] for n in names if n in diffs})


def test_a_mutant_recorded_as_equivalent_is_left_out_of_the_score_while_its_diff_is_the_same(monkeypatch):
    tool = _tool()
    verdicts = {"runtime.queries.x_f__mutmut_1": "killed", "runtime.queries.x_f__mutmut_2": "killed",
                "runtime.queries.x_f__mutmut_3": "killed", "runtime.queries.x_f__mutmut_4": "survived",
                "runtime.queries.x_f__mutmut_5": "survived", "runtime.queries.x_f__mutmut_6": "not checked"}
    diffs = {"runtime.queries.x_f__mutmut_4": "-a\n+b\n", "runtime.queries.x_f__mutmut_5": "-c\n+d\n"}
    _fake_run(monkeypatch, tool, verdicts, diffs)
    equivalents = {"runtime.queries.x_f__mutmut_4": (tool.diff_digest("-a\n+b\n"), "nobody reads it")}
    report = tool.collect(["runtime/queries.py"], 10, equivalents=equivalents)
    total = report["total"]
    assert (total["killed"], total["survived"], total["equivalent"], total["not_checked"]) == (3, 1, 1, 1)
    assert total["score"] == 0.75 and total["score_with_equivalent"] == 0.6
    assert report["modules"]["runtime/queries.py"]["equivalent"] == 1
    assert report["survivors"][0] == {"mutant": "runtime.queries.x_f__mutmut_4", "module": "runtime/queries.py",
                                      "verdict": "equivalent", "reason": "nobody reads it", "diff": "-a\n+b\n"}
    assert report["survivors"][1]["verdict"] == "survived"
    # the code changed: the mutant's diff is not the one looked at, so it counts as a survivor again
    diffs["runtime.queries.x_f__mutmut_4"] = "-a\n+e\n"
    report = tool.collect(["runtime/queries.py"], 10, equivalents=equivalents)
    assert (report["total"]["survived"], report["total"]["equivalent"], report["total"]["score"]) == (2, 0, 0.6)
    assert report["survivors"][0]["verdict"] == "survived"
    assert report["survivors"][0]["stale_equivalent_entry"] == \
        "the diff changed since it was found equivalent: look again"


def test_an_equivalent_mutant_is_recorded_with_its_digest_and_reason(monkeypatch, tmp_path):
    tool = _tool()
    _fake_run(monkeypatch, tool, {}, {"runtime.m.x_g__mutmut_7": "-x = 1\n+x = 2\n"})
    path = tmp_path / "equivalent.yaml"
    digest = tool.add_equivalent("runtime.m.x_g__mutmut_7", "x is written again before it is read", path)
    assert digest == tool.diff_digest("-x = 1\n+x = 2\n") and len(digest) == 16
    assert tool.load_equivalents(path) == {"runtime.m.x_g__mutmut_7": (digest, "x is written again before it is read")}
    for name, message in (("runtime.m.x_g__mutmut_7", f"runtime.m.x_g__mutmut_7 is already in {path}"),
                          ("runtime.m.x_g__mutmut_8", f"no mutant runtime.m.x_g__mutmut_8 in {tool.WORK}")):
        with pytest.raises(tool.EquivalentFileError) as exc:
            tool.add_equivalent(name, "again", path)
        assert str(exc.value) == message
    assert len(tool.load_equivalents(path)) == 1


def test_a_wrong_equivalent_file_is_refused_with_what_is_wrong(tmp_path):
    tool = _tool()
    path = tmp_path / "equivalent.yaml"
    cases = [("mutant: [", "not YAML"),
             ("mutant: a\n", "a list of entries (mutant, digest, reason) is expected"),
             ("- mutant: a\n  digest: b\n", "entry 1 needs exactly mutant, digest and reason, each a text"),
             ("- {mutant: a, digest: b, reason: c}\n- {mutant: a, digest: b, reason: ''}\n",
              "entry 2 needs exactly mutant, digest and reason, each a text")]
    for text, message in cases:
        path.write_text(text, encoding="utf-8")
        with pytest.raises(tool.EquivalentFileError) as exc:
            tool.load_equivalents(path)
        assert str(exc.value).startswith(f"{path}: {message}"), text
    assert tool.load_equivalents(tmp_path / "none.yaml") == {}


def test_the_shipped_equivalent_file_loads():
    tool = _tool()
    entries = tool.load_equivalents()
    assert all(len(digest) == 16 and reason for digest, reason in entries.values())


class _Item:
    def __init__(self, nodeid):
        self.nodeid = nodeid


def test_a_mutants_tests_run_module_by_module_the_cheapest_first(monkeypatch, tmp_path):
    import json
    from tests import conftest
    (tmp_path / "mutmut-stats.json").write_text(json.dumps({"duration_by_test": {
        "tests/test_b.py::one": 5.0, "tests/test_b.py::two": 0.5, "tests/test_a.py::one": 9.0,
        "tests/test_c.py::one": 0.1, "tests/test_c.py::two": 0.2}}), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    order = ["tests/test_b.py::one", "tests/test_a.py::one", "tests/test_c.py::two", "tests/test_b.py::two",
             "tests/test_c.py::one", "tests/test_d.py::unknown"]
    for mutant in ("runtime.m.x_f__mutmut_1", ""):
        monkeypatch.setenv("MUTANT_UNDER_TEST", mutant)
        items = [_Item(n) for n in order]
        conftest._mutmut_order(items)
        assert [i.nodeid for i in items] == [
            "tests/test_d.py::unknown", "tests/test_c.py::one", "tests/test_c.py::two",
            "tests/test_b.py::two", "tests/test_b.py::one", "tests/test_a.py::one"]
    for mutant in ("stats", None):
        if mutant is None:
            monkeypatch.delenv("MUTANT_UNDER_TEST")
        else:
            monkeypatch.setenv("MUTANT_UNDER_TEST", mutant)
        items = [_Item(n) for n in order]
        conftest._mutmut_order(items)
        assert [i.nodeid for i in items] == order


def test_what_a_shared_fixture_reaches_is_credited_to_every_test_that_uses_it(monkeypatch):
    """mutmut records the functions each test reaches; a session fixture runs its code inside the first
    test only, so tests/conftest.py records it once and adds it to every later test that uses it."""
    import types
    from tests import conftest
    recorded = types.SimpleNamespace(_stats=set())
    module = types.ModuleType("mutmut.state")
    module.state = lambda: recorded
    monkeypatch.setitem(sys.modules, "mutmut.state", module)
    monkeypatch.setitem(conftest._REACHED, ("pack_loader", "probe"), set())
    monkeypatch.setenv("MUTANT_UNDER_TEST", "stats")
    recorded._stats.update({"test_body_before"})
    with conftest._reached(("pack_loader", "probe")):
        recorded._stats.update({"load", "compile"})
    assert conftest._REACHED[("pack_loader", "probe")] == {"load", "compile"}
    assert recorded._stats == {"test_body_before", "load", "compile"}
    recorded._stats.clear()
    conftest._credit(("pack_loader", "probe"))
    assert recorded._stats == {"load", "compile"}
    monkeypatch.setenv("MUTANT_UNDER_TEST", "runtime.m.x_f__mutmut_1")
    recorded._stats.clear()
    conftest._credit(("pack_loader", "probe"))
    assert recorded._stats == set()


def _recording(monkeypatch):
    """mutmut's recorder as tests/conftest.py sees it while mutmut records (a stand-in for mutmut.state)."""
    import types
    recorded = types.SimpleNamespace(_stats=set())
    module = types.ModuleType("mutmut.state")
    module.state = lambda: recorded
    monkeypatch.setitem(sys.modules, "mutmut.state", module)
    monkeypatch.setenv("MUTANT_UNDER_TEST", "stats")
    return recorded


def test_what_building_a_cached_pack_reached_is_credited_to_every_test_that_loads_it_again(monkeypatch):
    """load_pack builds a pack once a process; while mutmut records, its cache credits the functions the
    building reached to each later load (a pack a session fixture built was a cache hit for the rest)."""
    from tests import conftest
    recorded = _recording(monkeypatch)
    cache = conftest._CreditingPackCache()
    key = ("folder", "stamp")
    monkeypatch.delitem(conftest._REACHED, ("load_pack", key), raising=False)
    recorded._stats.update({"first_test_body"})
    assert key not in cache            # load_pack's look-up: a miss, so it builds the pack now
    recorded._stats.update({"Pack.__init__", "CardDef.__init__"})
    cache[key] = "pack"                # ... and stores it
    assert conftest._REACHED[("load_pack", key)] == {"Pack.__init__", "CardDef.__init__"}
    assert recorded._stats == {"first_test_body", "Pack.__init__", "CardDef.__init__"}
    recorded._stats.clear()            # the next test
    assert key in cache and cache[key] == "pack"
    assert recorded._stats == {"Pack.__init__", "CardDef.__init__"}
    monkeypatch.delitem(conftest._REACHED, ("load_pack", key))


def test_a_load_that_fails_before_storing_its_pack_ends_its_recording_at_the_next_look_up(monkeypatch):
    from tests import conftest
    recorded = _recording(monkeypatch)
    cache = conftest._CreditingPackCache()
    recorded._stats.update({"test_body"})
    assert ("a", "1") not in cache     # a miss; the pack's modules then fail to import: nothing stored
    recorded._stats.update({"failed_build"})
    assert ("b", "2") not in cache     # the next load: the first recording ends, the test's own calls kept
    assert conftest._REACHED[("load_pack", ("a", "1"))] == {"failed_build"}
    cache[("b", "2")] = "pack"
    assert recorded._stats == {"test_body", "failed_build"}
    for key in (("a", "1"), ("b", "2")):
        monkeypatch.delitem(conftest._REACHED, ("load_pack", key))


def test_the_runtimes_process_caches_are_emptied_before_each_test_while_mutmut_records(monkeypatch):
    import importlib
    from tests import conftest
    caches = [getattr(importlib.import_module(m), n) for m, names in conftest.PROCESS_CACHES.items() for n in names]
    saved = [dict(c) for c in caches]
    try:
        for c in caches:
            c[("a key",)] = "a value"
        monkeypatch.setenv("MUTANT_UNDER_TEST", "runtime.m.x_f__mutmut_1")   # a mutant's run: kept
        conftest.pytest_runtest_setup(None)
        assert all(("a key",) in c for c in caches)
        _recording(monkeypatch)
        conftest.pytest_runtest_setup(None)
        assert all(not c for c in caches)
    finally:
        for c, old in zip(caches, saved):
            c.clear()
            c.update(old)


@pytest.mark.source_text
def test_every_per_process_cache_of_the_runtime_is_emptied_while_mutmut_records():
    """A module-level dict of runtime/ that starts empty is a cache filled by the games; each must be in
    tests/conftest.py's PROCESS_CACHES (or be the pack cache, which credits instead of emptying)."""
    import re
    from tests import conftest
    found = set()
    for path in sorted((ROOT / "runtime").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for m in re.finditer(r"^(_[A-Z][A-Z_0-9]*)(?:: ?\w+)? ?= ?(?:\{\}|dict\(\))", path.read_text(encoding="utf-8"), re.M):
            found.add((module, m.group(1)))
    listed = {(m, n) for m, names in conftest.PROCESS_CACHES.items() for n in names}
    assert found - {("runtime.pack", "_LOADED")} == listed
