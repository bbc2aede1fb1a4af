"""The compiled runtime (``make native``, tools/native.py): the same games as the Python sources, used only
when every module's source is the one it was compiled from (mypyc compiles them as one group), and never
in the way of the sources."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import load_tool

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "build" / "native"

pytestmark = pytest.mark.native

# Plays seeded random games of three packs (2007 cards dealt, the revised hand cards, the family game) and
# prints a digest of their decisions and scores, and which runtime modules came from build/native.
GAMES = r"""
import hashlib, json, sys
from pathlib import Path
import runtime
from runtime.pack import load_pack
from runtime.engine import Game
from runtime.agents import RandomAgent
h = hashlib.sha256()
for name, players, games in (("original", 2, 12), ("original", 5, 3), ("revised", 3, 6), ("revised-family", 2, 6)):
    pack = load_pack(name, Path(sys.argv[1]))
    for s in range(games):
        g = Game(pack, players, seed=s, agents=[RandomAgent(f"{s}:{i}") for i in range(players)])
        g.play()
        h.update(repr((name, s, g.decisions, g.record, g.scores)).encode())
print(json.dumps({"digest": h.hexdigest(), "compiled": runtime.compiled_modules()}))
"""

WHICH = r"""
import json, runtime, runtime.engine, runtime.phases, runtime.primitives
print(json.dumps(runtime.compiled_modules()))
"""


def _manifest() -> dict:
    path = NATIVE / "manifest.json"
    assert path.is_file(), "the compiled runtime is not built: make native (make test builds it)"
    return json.loads(path.read_text(encoding="utf-8"))


def _run(code, *args, root=ROOT, pure=False, cwd=None):
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("AGRICOLA_PURE_PYTHON", None)
    if pure:
        env["AGRICOLA_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=cwd or root, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def packs(compiler, build_root):
    for name in ("original", "revised", "revised-family"):
        result = compiler.compile(name)
        assert result.ok, result.report.render()
    return build_root


def _tool():
    return load_tool("native")


def test_every_runtime_module_is_compiled_from_its_current_source():
    tool = _tool()
    sources, module_name, digest = tool.sources, tool.module_name, tool.digest
    manifest = _manifest()
    modules = manifest["modules"]
    assert sorted(modules) == sorted(module_name(s) for s in sources())
    stale = [name for name, entry in modules.items() if entry["sha256"] != digest(ROOT / entry["source"])]
    assert stale == [], f"compiled from another source: {stale} (make native)"


def test_the_compiled_runtime_plays_the_same_games_as_the_python_sources(packs):
    compiled = _run(GAMES, packs)
    pure = _run(GAMES, packs, pure=True)
    assert pure["compiled"] == []
    assert "runtime.phases" in compiled["compiled"] and "runtime.primitives.cards" in compiled["compiled"]
    assert compiled["digest"] == pure["digest"]


def _copy_project(tmp_path) -> Path:
    """runtime/ and build/native/ in a folder of their own, to edit without touching the project."""
    root = tmp_path / "project"
    shutil.copytree(ROOT / "runtime", root / "runtime", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(NATIVE, root / "build" / "native")
    return root


def test_a_module_edited_since_its_compilation_turns_the_whole_group_off(tmp_path):
    """The compiled modules call each other directly: one edited module runs from its source only if all
    of them do (a compiled caller would never call the edited function)."""
    _manifest()
    root = _copy_project(tmp_path)
    assert "runtime.phases" in _run(WHICH, root=root)
    with (root / "runtime" / "phases.py").open("a", encoding="utf-8") as f:
        f.write("\n# an edit\n")
    assert _run(WHICH, root=root) == []


def test_a_missing_compiled_file_turns_the_whole_group_off(tmp_path):
    manifest = _manifest()
    root = _copy_project(tmp_path)
    (root / "build" / "native" / manifest["group"]["binary"]).unlink()
    assert _run(WHICH, root=root) == []


def test_without_a_usable_manifest_every_module_runs_from_its_source(tmp_path):
    _manifest()
    root = _copy_project(tmp_path)
    manifest = root / "build" / "native" / "manifest.json"
    good = json.loads(manifest.read_text(encoding="utf-8"))
    for text in ("{not json", json.dumps(dict(good, ext_suffix=".other.so")), json.dumps(dict(good, compiler="cython")),
                 json.dumps({k: v for k, v in good.items() if k != "group"}), json.dumps([1, 2])):
        manifest.write_text(text, encoding="utf-8")
        assert _run(WHICH, root=root) == []
    manifest.unlink()
    assert _run(WHICH, root=root) == []


def test_pure_python_is_chosen_by_the_environment(tmp_path):
    _manifest()
    assert _run(WHICH, pure=True) == []
    assert "runtime.engine" in _run(WHICH)


def test_a_module_run_as_a_program_stays_python_and_a_changed_group_is_rebuilt(tmp_path, monkeypatch):
    """`python -m runtime.farm_regions` prints its tables: runpy cannot run an extension module, so that
    module is not compiled; a manifest whose modules are not the group's now (one left out since) is not
    current, and --check says so."""
    tool = load_tool("native")
    assert "runtime/farm_regions.py" not in tool.sources()
    monkeypatch.setattr(tool, "OUT", tmp_path)
    monkeypatch.setattr(tool, "MANIFEST", tmp_path / "manifest.json")
    current = _manifest()
    assert tool.main(["--check"]) == 1   # no manifest in tmp_path
    (tmp_path / "manifest.json").write_text(json.dumps(current))
    for entry in list(current["modules"].values()) + [current["group"]]:
        (tmp_path / entry["binary"]).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / entry["binary"]).write_bytes(b"")
    assert tool.main(["--check"]) == 0
    extra = dict(current, modules=dict(current["modules"], **{"runtime.farm_regions": {
        "source": "runtime/farm_regions.py", "sha256": "0", "binary": current["group"]["binary"]}}))
    (tmp_path / "manifest.json").write_text(json.dumps(extra))
    assert tool.main(["--check"]) == 1


def test_the_build_is_profile_guided_when_the_c_compiler_is_gcc():
    """make native trains the build on seeded games (tools/native_training.py) when the C compiler is GCC,
    and the manifest says what it did either way."""
    note = _manifest()["profile_guided"]
    if _tool().pgo_unavailable() is None:
        assert note.startswith("profile-guided (GCC): trained on "), note
        assert note.endswith(" seeded games of the built-in packs (tools/native_training.py)"), note
    else:
        assert note.startswith("no profile-guided build: "), note


def test_a_c_compiler_other_than_gcc_builds_without_a_profile(monkeypatch):
    tool = _tool()
    monkeypatch.setattr(tool.sysconfig, "get_config_var", lambda name: "clang -pthread" if name == "CC" else None)
    monkeypatch.setattr(tool.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(
        a[0], 0, stdout="Debian clang version 14.0.6\nTarget: x86_64-pc-linux-gnu\n", stderr=""))
    assert tool.pgo_unavailable() == "clang is not GCC"
    monkeypatch.setattr(tool.subprocess, "run", lambda *a, **k: (_ for _ in ()).throw(FileNotFoundError(a[0][0])))
    assert tool.pgo_unavailable() == "clang --version did not answer"


def test_the_training_games_run_the_runtime_of_the_folder_they_are_given():
    """tools/native_training.py imports the runtime's modules from the folder it is given (during a build, the
    one with counters), never from build/native by itself, and plays the same workload every time."""
    manifest = _manifest()
    script = ROOT / "tools" / "native_training.py"
    env = dict(os.environ)
    env.pop("AGRICOLA_PURE_PYTHON", None)
    out = subprocess.run([sys.executable, str(script), str(NATIVE)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    played = json.loads(out.stdout.strip().splitlines()[-1])
    training = load_tool("native_training")
    assert played["games"] == sum(n for _, _, n in training.WORKLOAD + training.GREEDY)
    # the script turns build/native off (AGRICOLA_PURE_PYTHON): compiled modules came from the folder given
    assert 0 < played["compiled_modules"] <= len(manifest["modules"])
    usage = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert (usage.returncode, usage.stderr) == (2, "python tools/native_training.py FOLDER\n")


def test_a_build_with_the_profile_that_fails_is_made_again_without_it(tmp_path, monkeypatch):
    """Should GCC refuse the counts it wrote, the group is compiled again without them (the manifest's note
    says why), instead of leaving the runtime to its sources."""
    import types
    tool = _tool()
    fake = [types.SimpleNamespace(extra_compile_args=["-O3"], extra_link_args=[])]
    monkeypatch.setitem(sys.modules, "mypyc.build", types.SimpleNamespace(mypycify=lambda *a, **k: fake))
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(tool, "WORK", tmp_path / "build" / "native-c")
    monkeypatch.setattr(tool, "OUT", tmp_path / "build" / "native")
    monkeypatch.setattr(tool, "pgo_unavailable", lambda: None)

    def train(extensions, wanted, jobs, t0):
        for ext in extensions:
            ext.extra_compile_args = ext.extra_compile_args + list(tool._USE_PROFILE)
        return "profile-guided (GCC): trained on 1 seeded games"
    compiled = []

    def compile_c(extensions, wanted, jobs):
        args = list(extensions[0].extra_compile_args)
        compiled.append(args)
        if "-fprofile-use" in args:
            raise RuntimeError("coverage mismatch")
        staging = tmp_path / "build" / f"staging-{len(compiled)}"
        staging.mkdir(parents=True)
        return staging
    monkeypatch.setattr(tool, "_train", train)
    monkeypatch.setattr(tool, "_compile_c", compile_c)
    monkeypatch.setattr(tool, "_built_modules", lambda staging, wanted: ({}, "lib.so"))
    built, library, digests, note = tool.build([], 1)
    assert note == "no profile-guided build: the build with the profile failed (coverage mismatch)"
    assert compiled == [["-O3", *tool._USE_PROFILE], ["-O3"]]
    assert (tmp_path / "build" / "native").is_dir() and library == "lib.so"
