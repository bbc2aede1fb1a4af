"""The compiled runtime (``make native``): the runtime's modules compiled to C with mypyc, as one group.

The runtime is plain, type-checked Python and stays so: this builds, beside it in ``build/native/``, a
C extension per module of ``runtime/`` (mypyc compiles the unchanged, annotated source: a class becomes a
C struct with fixed fields, a call between compiled functions a C call, and every value is checked
against its declared type at run time). The modules are one group sharing one library
(``runtime/_native__mypyc``) and call each other directly, so they are used all together or not at all:
``runtime/__init__.py`` imports them only when every source they were compiled from is, byte for byte,
the one in ``runtime/`` now (``build/native/manifest.json`` holds their SHA-256); after any edit the whole
runtime runs from its sources until the next ``make native``. ``AGRICOLA_PURE_PYTHON=1`` turns the
compiled modules off. Games are the same either way (tests/test_native.py); docs/architecture.md,
"The compiled runtime".

    python tools/native.py [--jobs N] [--force] [--no-pgo] [--check]

Rebuilds the group when a source changed (about four minutes on 2 cores). With GCC the build is
profile-guided: compiled with counters, trained on seeded games (tools/native_training.py), compiled again
with the counts (about 10% more games per second; ``--no-pgo``: one plain build, about two minutes). Needs
mypy (the ``native`` extra; mypyc comes with it) and a C compiler.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "native"
WORK = ROOT / "build" / "native-c"
MANIFEST = OUT / "manifest.json"
GROUP = "runtime._native"   # the group's shared library is the module runtime._native__mypyc
# Left as Python: package files (they hold the importer); modules that find the project's folders from
# their own path (__file__ of a compiled module is its file under build/native/); a module run as a
# program (`python -m runtime.farm_regions`; runpy cannot run an extension module); the modules whose
# classes the tools and tests derive from or patch, off the games' hot path (agents, search, saves); and
# the PettingZoo environment, a class derived from PettingZoo's Python class (compiled, a process that
# used it crashed in the garbage collector; it spends its time in the compiled game anyway).
SKIP = {"runtime/__init__.py", "runtime/primitives/__init__.py", "runtime/pack.py", "runtime/farm_regions.py",
        "runtime/agents.py", "runtime/search.py", "runtime/savegame.py", "runtime/rl.py"}


def sources(root: Path = ROOT) -> list:
    """The runtime's modules to compile, as paths relative to root, sorted."""
    found = sorted(str(p.relative_to(root)) for p in (root / "runtime").rglob("*.py") if "__pycache__" not in p.parts)
    return [s for s in found if s not in SKIP]


def module_name(source: str) -> str:
    return source[:-3].replace("/", ".")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def extension_suffix() -> str:
    """The file ending of this interpreter's C extensions (what runtime/__init__.py compares)."""
    from importlib.machinery import EXTENSION_SUFFIXES
    return EXTENSION_SUFFIXES[0]


def group_library() -> str:
    return GROUP + "__mypyc"


def load_manifest() -> dict:
    try:
        data = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def stale(manifest: dict, wanted: list, force: bool) -> list:
    """The sources whose compiled module is missing, built by another interpreter or compiler, or from
    other bytes (any one of them means the whole group is rebuilt)."""
    if force or manifest.get("ext_suffix") != extension_suffix() or manifest.get("compiler") != "mypyc":
        return list(wanted)
    modules = manifest.get("modules") or {}
    group = manifest.get("group") or {}
    if not isinstance(group, dict) or not (OUT / str(group.get("binary", ""))).is_file():
        return list(wanted)
    out = []
    for src in wanted:
        entry = modules.get(module_name(src))
        if (not isinstance(entry, dict) or entry.get("sha256") != digest(ROOT / src)
                or not (OUT / str(entry.get("binary", ""))).is_file()):
            out.append(src)
    return out


def build(wanted: list, jobs: int, pgo: bool = True) -> tuple:
    """Compile the group of ``wanted`` into a fresh build/native; returns ({module name: binary path
    relative to OUT}, the group library's path relative to OUT, the digests of the sources compiled, a note on
    the profile-guided step for the manifest)."""
    from mypyc.build import mypycify

    t = time.monotonic()
    os.chdir(ROOT)   # module names and the C files' folders from paths relative to the project
    # read before compiling: a source edited while mypyc runs must not be recorded as the one compiled
    digests = {src: digest(ROOT / src) for src in wanted}
    print(f"mypyc: type-checking and translating {len(wanted)} module(s) to C …", flush=True)
    shutil.rmtree(WORK, ignore_errors=True)
    extensions = mypycify(list(wanted), opt_level="3", debug_level="0", group_name=GROUP,
                          target_dir=str(WORK.relative_to(ROOT)))
    print(f"  {time.monotonic() - t:.0f} s", flush=True)
    note = None
    if pgo:
        why_not = pgo_unavailable()
        if why_not:
            note = f"no profile-guided build: {why_not}"
            print(f"  {note}", flush=True)
        else:
            note = _train(extensions, wanted, jobs, t)
    guided = note is not None and note.startswith("profile")
    print(f"  compiling C with {jobs} job(s){', with the profile' if guided else ''} …", flush=True)
    try:
        staging = _compile_c(extensions, wanted, jobs)
    except (Exception, SystemExit) as exc:
        if not guided:
            raise
        # (GCC refusing the counts it wrote, say): the plain build, with the reason in the manifest
        _forget_flags(extensions, _USE_PROFILE)
        note = f"no profile-guided build: the build with the profile failed ({exc})"
        print(f"  {note}; compiling C again without it …", flush=True)
        staging = _compile_c(extensions, wanted, jobs)
    try:
        built, library = _built_modules(staging, wanted)
        # the new group replaces the old one whole (its modules only work with their own library)
        old = OUT.with_name(OUT.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if OUT.exists():
            os.replace(OUT, old)
        os.replace(staging, OUT)
        shutil.rmtree(old, ignore_errors=True)
        print(f"  done in {time.monotonic() - t:.0f} s", flush=True)
        return built, library, digests, note
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def pgo_unavailable() -> str | None:
    """Why the C compiler cannot make a profile-guided build (None: it can). Only GCC's flags are used
    (``-fprofile-generate`` / ``-fprofile-use``); clang's need another tool to merge the profiles."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return f"{cc} --version did not answer"
    if "Free Software Foundation" not in out:
        return f"{cc} is not GCC"
    return None


def _train(extensions: list, wanted: list, jobs: int, t0: float) -> str:
    """The profile-guided step: build the group with counters (``-fprofile-generate``), play the training
    games (tools/native_training.py) with it, and set the extensions to be compiled with the counts
    (``-fprofile-use``). Returns a note for the manifest; on any failure the build goes on without."""
    print(f"  compiling C with {jobs} job(s), with counters for a profile-guided build …", flush=True)
    profile = WORK / "obj"   # GCC writes each object's counts beside it (*.gcda), where -fprofile-use looks
    for ext in extensions:
        ext.extra_compile_args = list(ext.extra_compile_args) + ["-fprofile-generate", "-fprofile-update=single"]
        ext.extra_link_args = list(ext.extra_link_args) + ["-fprofile-generate"]
    try:
        staging = _compile_c(extensions, wanted, jobs)
    except (Exception, SystemExit) as exc:
        _forget_flags(extensions, ("-fprofile-generate", "-fprofile-update=single"))
        return f"no profile-guided build: the build with counters failed ({exc})"
    _forget_flags(extensions, ("-fprofile-generate", "-fprofile-update=single"))
    try:
        print(f"  {time.monotonic() - t0:.0f} s; playing the training games (tools/native_training.py) …", flush=True)
        run = subprocess.run([sys.executable, str(ROOT / "tools" / "native_training.py"), str(staging)],
                             capture_output=True, text=True, cwd=ROOT)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    try:
        played = json.loads(run.stdout.strip().splitlines()[-1]) if run.returncode == 0 else None
    except (ValueError, IndexError):
        played = None
    counted = sorted(profile.rglob("*.gcda"))
    if not played or not played.get("compiled_modules") or not counted:
        for f in counted:
            f.unlink()
        tail = (run.stderr.strip().splitlines() or ["no output"])[-1]
        return f"no profile-guided build: the training games failed ({tail})"
    print(f"  {played['games']} games in {played['seconds']} s", flush=True)
    for ext in extensions:
        ext.extra_compile_args = list(ext.extra_compile_args) + list(_USE_PROFILE)
    return (f"profile-guided (GCC): trained on {played['games']} seeded games of the built-in packs "
            f"(tools/native_training.py)")


# -fprofile-partial-training: code the training games never ran is still optimised for speed, not size
_USE_PROFILE = ("-fprofile-use", "-fprofile-partial-training", "-Wno-missing-profile")


def _forget_flags(extensions: list, flags: tuple) -> None:
    for ext in extensions:
        ext.extra_compile_args = [a for a in ext.extra_compile_args if a not in flags]
        ext.extra_link_args = [a for a in ext.extra_link_args if a not in flags]


def _compile_c(extensions: list, wanted: list, jobs: int) -> Path:
    """Compile the extensions' C into a new folder under build/ (the caller moves or removes it)."""
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    staging = Path(tempfile.mkdtemp(prefix="native-", dir=ROOT / "build"))
    try:
        dist = Distribution({"name": "agricola-runtime-native", "ext_modules": extensions})
        cmd = build_ext(dist)
        cmd.build_lib = str(staging)
        cmd.build_temp = str(WORK / "obj")
        cmd.parallel = jobs
        cmd.force = True   # the second build of a profile-guided one compiles every object again
        cmd.ensure_finalized()
        cmd.run()
        _built_modules(staging, wanted)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return staging


def _built_modules(staging: Path, wanted: list) -> tuple:
    built = {}
    for src in wanted:
        rel = Path(src[:-3] + extension_suffix())
        if not (staging / rel).is_file():
            raise RuntimeError(f"{src}: no compiled module came out of the build")
        built[module_name(src)] = str(rel)
    library = Path(group_library().replace(".", "/") + extension_suffix())
    if not (staging / library).is_file():
        raise RuntimeError("the group's shared library did not come out of the build")
    return built, str(library)


def write_manifest(wanted: list, built: dict, library: str, digests: dict, note: str | None = None) -> None:
    from mypy.version import __version__ as mypy_version
    modules = {module_name(src): {"source": src, "sha256": digests[src], "binary": built[module_name(src)]}
               for src in wanted}
    data = {"compiler": "mypyc", "mypy": mypy_version, "python": sys.version.split()[0],
            "ext_suffix": extension_suffix(), "group": {"module": group_library(), "binary": library},
            "profile_guided": note,
            "modules": modules}
    OUT.mkdir(parents=True, exist_ok=True)
    tmp = MANIFEST.with_name(MANIFEST.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, MANIFEST)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Compile the runtime's modules with mypyc into build/native/.")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="C compilers run at once (default: cores)")
    ap.add_argument("--force", action="store_true", help="rebuild even when every module is current")
    ap.add_argument("--no-pgo", action="store_true",
                    help="skip the profile-guided step (a quicker build, about 7%% slower games)")
    ap.add_argument("--check", action="store_true", help="only say whether the compiled runtime is current (status 1 if not)")
    args = ap.parse_args(argv)
    wanted = sources()
    manifest = load_manifest()
    todo = stale(manifest, wanted, args.force)
    if not todo and sorted(manifest.get("modules") or {}) != sorted(module_name(s) for s in wanted):
        todo = list(wanted)   # a module added to or left out of the group (SKIP): the group is another one
    if args.check:
        print(f"compiled runtime: {len(wanted) - len(todo)} of {len(wanted)} modules current"
              + ("" if not todo else " (any change rebuilds the whole group)"))
        return 1 if todo else 0
    if not todo:
        print(f"compiled runtime: all {len(wanted)} modules current (build/native)")
        return 0
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        print("the compiled runtime needs mypyc: pip install -e '.[native]' (make native does it)", file=sys.stderr)
        return 2
    if shutil.which(sysconfig.get_config_var("CC").split()[0] if sysconfig.get_config_var("CC") else "cc") is None:
        print("the compiled runtime needs a C compiler (Debian: apt-get install gcc); the game runs from the "
              "Python sources meanwhile", file=sys.stderr)
        return 2
    try:
        built, library, digests, note = build(wanted, max(1, args.jobs), pgo=not args.no_pgo)
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error; the runtime then runs from source
        print(f"compiling the runtime failed: {exc}", file=sys.stderr)
        return 1
    write_manifest(wanted, built, library, digests, note)
    print(f"compiled runtime: {len(built)} modules built as one group (build/native)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
