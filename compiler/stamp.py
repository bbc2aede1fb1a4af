"""Is a compiled pack current? Answered from file bytes alone, without importing the compiler's pipeline.

A compiled pack's manifest holds its content hash: a hash of the compiler's fingerprint (its own source
files) and of the bytes of every source file of the pack and of the packs it extends. ``is_current``
computes the same hash from the files as they are now; when it matches, nothing needs compiling and
``agricola play`` loads the build directly (no Lark, Jinja2 or jsonschema imported, no YAML parsed).
This module imports only the standard library and the runtime: keep it so (tests/test_play_fast_path.py).
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from . import __version__

HERE = Path(__file__).resolve().parent

# Every file whose change can change generated code (build.py passes these to the same hash).
COMPILER_FILES = ("__init__.py", "loader.py", "schema.py", "parser.py", "nodes.py", "checker.py", "codegen.py",
                  "textgen.py", "packs.py", "build.py", "stamp.py", "grammar/effects.lark",
                  "templates/module.py.j2", "templates/package.py.j2")
RULE_FILES = ("game.yaml", "actions.yaml", "rounds.yaml", "majors.yaml")


def compiler_fingerprint() -> str:
    """A hash of the compiler's version, its source files, its schemas and the query table it compiles to."""
    h = hashlib.sha256(__version__.encode())
    for name in COMPILER_FILES:
        h.update(name.encode())
        h.update((HERE / name).read_bytes())
    for p in sorted((HERE / "schemas").glob("*.json")):
        h.update(p.read_bytes())
    import runtime.queries  # wherever the runtime is installed
    h.update(Path(runtime.queries.__file__).read_bytes())
    return h.hexdigest()


def key(*parts: str) -> str:
    """The hash build.py stamps modules with, for text parts (the same bytes as build._key)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(json.dumps(part, sort_keys=True, ensure_ascii=True).encode())
        h.update(b"\0")
    return h.hexdigest()


def files_hash(files: dict) -> str:
    """A hash of {display path: sha256 of the file's bytes} (what packs.PackSource.content_hash gives)."""
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(name.encode())
        h.update(files[name].encode())
    return h.hexdigest()


def content_hash(fingerprint: str, files: dict) -> str:
    """The content hash a compiled pack's manifest records."""
    return key(fingerprint, files_hash(files))


def digest(path) -> str:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return ""


def source_files(root: Path, chain) -> dict:
    """{display path: digest} of the files the compiler reads for a pack whose chain (base first) is
    ``chain``: each pack's rule files and its card files (cards/<pack>/<deck>/<id>.yaml). Display paths
    are relative to the resolved root, as the compiler writes them (packs.Workspace.display); this runs
    on every ``agricola play``, so it walks folders with os.scandir and resolves only the root."""
    base = str(Path(root).resolve())
    files = {}
    for pack_id in chain:
        rules = os.path.join(base, "rules", pack_id)
        for name in RULE_FILES:
            path = os.path.join(rules, name)
            if os.path.exists(path):
                files[os.path.join("rules", pack_id, name)] = digest(path)
        cards = os.path.join(base, "cards", pack_id)
        for deck in _sorted_dirs(cards):
            folder = os.path.join(cards, deck)
            for name in _sorted_files(folder):
                if name.endswith(".yaml") and not name.endswith(".test.yaml"):
                    files[os.path.join("cards", pack_id, deck, name)] = digest(os.path.join(folder, name))
    return files


def _sorted_dirs(folder: str) -> list:
    try:
        with os.scandir(folder) as it:
            return sorted(e.name for e in it if e.is_dir())
    except OSError:
        return []


def _sorted_files(folder: str) -> list:
    try:
        with os.scandir(folder) as it:
            return sorted(e.name for e in it if e.is_file())
    except OSError:
        return []


def is_current(root: Path, build_dir: Path) -> bool:
    """Whether the compiled pack in ``build_dir`` was compiled from the sources under ``root`` as they are
    now, by this compiler. False whenever in doubt (no manifest, unreadable files): then compile."""
    try:
        manifest = json.loads((build_dir / "manifest.json").read_text(encoding="utf-8"))
        chain = manifest["chain"]
        recorded = manifest["content_hash"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if not (isinstance(chain, list) and chain and all(isinstance(p, str) and p and "/" not in p and
                                                       "\\" not in p and p not in (".", "..") for p in chain)):
        return False
    if not (build_dir / "__init__.py").exists():
        return False
    return content_hash(compiler_fingerprint(), source_files(Path(root), chain)) == recorded
