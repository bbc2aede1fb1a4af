"""The compiled runtime (``make native``): the runtime's modules compiled to C extensions with Cython.

The runtime is plain Python and stays so: this builds, beside it in ``build/native/``, a C extension
per module of ``runtime/`` (Cython compiles the unchanged source; no type declarations, annotations
are not read as C types, so the compiled module does what the source says). ``runtime/__init__.py``
imports a compiled module only when the source it was compiled from is byte for byte the one in
``runtime/`` now (``build/native/manifest.json`` holds its SHA-256); an edited module runs from its
source until the next ``make native``. ``AGRICOLA_PURE_PYTHON=1`` turns the compiled modules off.
Games are the same either way (tests/test_native.py); docs/architecture.md, "The compiled runtime".

    python tools/native.py [--jobs N] [--force] [--check]

Rebuilds only the modules whose source changed. Needs Cython (the ``native`` extra) and a C compiler.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "native"
WORK = ROOT / "build" / "native-c"
MANIFEST = OUT / "manifest.json"
# Left as Python: package files (they hold the importer), modules that find the project's folders
# from their own path (__file__ of a compiled module is its file under build/native/), and modules run
# as a program (`python -m runtime.farm_regions` prints its tables; runpy cannot run an extension module).
SKIP = {"runtime/__init__.py", "runtime/primitives/__init__.py", "runtime/pack.py", "runtime/farm_regions.py"}
# Python semantics kept exactly: annotations are documentation, not C types (a str passed where an
# int is annotated must reach the code that refuses it with the runtime's own message).
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False, "embedsignature": False}


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


def load_manifest() -> dict:
    try:
        data = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def stale(manifest: dict, wanted: list, force: bool) -> list:
    """The sources whose compiled module is missing, built by another interpreter or from other bytes."""
    if force or manifest.get("ext_suffix") != extension_suffix():
        return list(wanted)
    modules = manifest.get("modules") or {}
    out = []
    for src in wanted:
        entry = modules.get(module_name(src))
        if (not isinstance(entry, dict) or entry.get("sha256") != digest(ROOT / src)
                or not (OUT / str(entry.get("binary", ""))).is_file()):
            out.append(src)
    return out


def build(todo: list, jobs: int) -> dict:
    """Compile the sources ``todo``; returns {module name: binary path relative to OUT} of those built."""
    from Cython.Build import cythonize
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    WORK.mkdir(parents=True, exist_ok=True)
    t = time.monotonic()
    print(f"cython: translating {len(todo)} module(s) to C …", flush=True)
    os.chdir(ROOT)   # module names and the C files' folders from paths relative to the project
    extensions = cythonize(list(todo), compiler_directives=DIRECTIVES, build_dir=str(WORK.relative_to(ROOT)),
                           nthreads=jobs if jobs > 1 else 0, quiet=True, force=True)
    for ext in extensions:
        # no debug info (smaller, quicker to build); no warnings: they are about the C Cython generates
        ext.extra_compile_args = ["-O2", "-g0", "-w"]
    print(f"  {time.monotonic() - t:.0f} s; compiling C with {jobs} job(s) …", flush=True)
    staging = Path(tempfile.mkdtemp(prefix="native-", dir=ROOT / "build"))
    try:
        dist = Distribution({"name": "agricola-runtime-native", "ext_modules": extensions})
        cmd = build_ext(dist)
        cmd.build_lib = str(staging)
        cmd.build_temp = str(WORK / "obj")
        cmd.parallel = jobs
        cmd.ensure_finalized()
        cmd.run()
        built = {}
        for src in todo:
            rel = Path(src[:-3] + extension_suffix())
            if not (staging / rel).is_file():
                raise RuntimeError(f"{src}: no compiled module came out of the build")
            (OUT / rel).parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / rel, OUT / rel)
            built[module_name(src)] = str(rel)
        print(f"  done in {time.monotonic() - t:.0f} s", flush=True)
        return built
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def write_manifest(manifest: dict, wanted: list, built: dict) -> None:
    import Cython
    modules = {}
    old = (manifest.get("modules") or {}) if manifest.get("ext_suffix") == extension_suffix() else {}
    for src in wanted:
        name = module_name(src)
        if name in built:
            modules[name] = {"source": src, "sha256": digest(ROOT / src), "binary": built[name]}
        elif isinstance(old.get(name), dict) and (OUT / str(old[name].get("binary", ""))).is_file():
            modules[name] = old[name]   # as built before, from the bytes it names (the importer compares)
    data = {"cython": Cython.__version__, "python": sys.version.split()[0], "ext_suffix": extension_suffix(),
            "directives": DIRECTIVES, "modules": modules}
    OUT.mkdir(parents=True, exist_ok=True)
    tmp = MANIFEST.with_name(MANIFEST.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, MANIFEST)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Compile the runtime's modules with Cython into build/native/.")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="C compilers run at once (default: cores)")
    ap.add_argument("--force", action="store_true", help="rebuild every module")
    ap.add_argument("--check", action="store_true", help="only say whether the compiled runtime is current (status 1 if not)")
    args = ap.parse_args(argv)
    wanted = sources()
    manifest = load_manifest()
    todo = stale(manifest, wanted, args.force)
    if args.check:
        print(f"compiled runtime: {len(wanted) - len(todo)} of {len(wanted)} modules current")
        return 1 if todo else 0
    if not todo:
        if set(manifest.get("modules") or {}) - {module_name(src) for src in wanted}:
            write_manifest(manifest, wanted, {})   # a module now left as Python (SKIP) must stop being imported
        print(f"compiled runtime: all {len(wanted)} modules current (build/native)")
        return 0
    try:
        import Cython  # noqa: F401
    except ImportError:
        print("the compiled runtime needs Cython: pip install -e '.[native]' (make native does it)", file=sys.stderr)
        return 2
    if shutil.which(sysconfig.get_config_var("CC").split()[0] if sysconfig.get_config_var("CC") else "cc") is None:
        print("the compiled runtime needs a C compiler (Debian: apt-get install gcc); the game runs from the "
              "Python sources meanwhile", file=sys.stderr)
        return 2
    try:
        built = build(todo, max(1, args.jobs))
    except Exception as exc:  # a failed C build: the modules built before stay, the rest run from source
        print(f"compiling the runtime failed: {exc}", file=sys.stderr)
        write_manifest(manifest, wanted, {})
        return 1
    write_manifest(manifest, wanted, built)
    print(f"compiled runtime: {len(built)} module(s) built, {len(wanted)} current (build/native)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
