"""Is a compiled pack current? Answered from file bytes alone, without importing the compiler's pipeline.

A compiled pack's manifest holds its content hash: a hash of the compiler's fingerprint (its own source
files) and of the bytes of every source file of the pack and of the packs it extends. ``is_current``
computes the same hash from the files as they are now; when it matches, nothing needs compiling and
``agricola play`` loads the build directly (no Lark, Jinja2 or jsonschema imported, no YAML parsed).
This module imports only the standard library and the runtime: keep it so (tests/test_play_fast_path.py).

Reading every source file on every ``play`` was most of the check's cost, so the digests are remembered
in the compiled pack's folder (``source-digests.json``) with each file's size, modification and change
times and inode, and a file is read again only when one of those differs. A file is remembered only once
its times are ``SETTLED_NS`` older than the check that read it: a file changed again within the same
clock tick (or the same second, on a coarse file system), keeping its size, is then still read every
time, and any later change gives it times newer than the remembered ones (the change time cannot be set
back, even when the modification time is restored).
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from . import __version__

HERE = Path(__file__).resolve().parent

# Every file whose change can change generated code (build.py passes these to the same hash).
COMPILER_FILES = ("__init__.py", "loader.py", "schema.py", "parser.py", "nodes.py", "checker.py", "codegen.py",
                  "textgen.py", "packs.py", "build.py", "stamp.py", "grammar/effects.lark",
                  "templates/module.py.j2", "templates/package.py.j2")
RULE_FILES = ("game.yaml", "actions.yaml", "rounds.yaml", "majors.yaml")


def compiler_fingerprint(digests: "Digests | None" = None) -> str:
    """A hash of the compiler's version, its source files, its schemas and the query table it compiles to
    (of their digests, taken from ``digests`` when given)."""
    of = digests.digest if digests is not None else digest
    here = str(HERE)
    h = hashlib.sha256(__version__.encode())
    for name in COMPILER_FILES:
        h.update(name.encode())
        h.update(of(os.path.join(here, name)).encode())
    schemas = os.path.join(here, "schemas")
    for name in _sorted_files(schemas):
        if name.endswith(".json"):
            h.update(of(os.path.join(schemas, name)).encode())
    import runtime.queries  # wherever the runtime is installed
    h.update(of(runtime.queries.__file__).encode())
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
    """The sha256 of a file's bytes ('' for a file that cannot be read)."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return ""


DIGESTS_FILE = "source-digests.json"
SETTLED_NS = 2_000_000_000  # a file whose times are newer than this before the check is read every time


class Digests:
    """File digests remembered across processes in ``path`` (see the module's docstring): ``digest``
    answers from the remembered ones while a file's size, times and inode are the same, and reads the
    file otherwise. ``save`` writes what is remembered now, only when it changed."""

    def __init__(self, path: Path):
        self.path = path
        self.started = time.time_ns()  # before any file is looked at
        try:
            with open(path, encoding="utf-8") as f:
                known = json.load(f)
        except (OSError, ValueError):
            known = {}
        self.known = known if isinstance(known, dict) else {}
        self.now: dict = {}
        self.changed = False

    def digest(self, path: str) -> str:
        try:
            st = os.stat(path)
        except OSError:
            return ""
        key = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
        entry = self.known.get(path)
        if isinstance(entry, list) and len(entry) == 5 and entry[:4] == key and isinstance(entry[4], str):
            self.now[path] = entry
            return entry[4]
        found = digest(path)
        if found and max(st.st_mtime_ns, st.st_ctime_ns) < self.started - SETTLED_NS:
            self.now[path] = key + [found]
            self.changed = True
        return found

    def save(self) -> None:
        """Write the digests looked up since this object was made (dropping files no longer read), when
        that is not what the file holds; a folder that cannot be written is left as it is."""
        if not self.changed and len(self.now) == len(self.known):
            return
        from runtime.fileio import write_text_atomic
        try:
            write_text_atomic(self.path, json.dumps(self.now, sort_keys=True, separators=(",", ":")) + "\n")
        except OSError:
            pass


def source_files(root: Path, chain, digests: Digests | None = None) -> dict:
    """{display path: digest} of the files the compiler reads for a pack whose chain (base first) is
    ``chain``: each pack's rule files and its card files (cards/<pack>/<deck>/<id>.yaml). Display paths
    are relative to the resolved root, as the compiler writes them (packs.Workspace.display); this runs
    on every ``agricola play``, so it walks folders with os.scandir and resolves only the root. The
    digests come from ``digests`` when given."""
    of = digests.digest if digests is not None else digest
    base = str(Path(root).resolve())
    files = {}
    for pack_id in chain:
        rules = os.path.join(base, "rules", pack_id)
        for name in RULE_FILES:
            path = os.path.join(rules, name)
            if os.path.exists(path):
                files[os.path.join("rules", pack_id, name)] = of(path)
        cards = os.path.join(base, "cards", pack_id)
        for deck in _sorted_dirs(cards):
            folder = os.path.join(cards, deck)
            for name in _sorted_files(folder):
                if name.endswith(".yaml") and not name.endswith(".test.yaml"):
                    files[os.path.join("cards", pack_id, deck, name)] = of(os.path.join(folder, name))
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
    digests = Digests(build_dir / DIGESTS_FILE)
    current = content_hash(compiler_fingerprint(digests), source_files(Path(root), chain, digests)) == recorded
    if current:
        digests.save()
    return current
