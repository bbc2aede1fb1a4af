"""Loading a compiled rule pack from ``build/<pack>/`` into the objects the engine runs."""
from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path

# the pack's contents as objects (compiled with the runtime; their home is runtime/packdata.py)
from .packdata import CardDef, Pack, Rules, SpaceDef, Variant  # noqa: F401

_SOURCE_ROOT = Path(__file__).resolve().parent.parent


def _content_root() -> Path:
    """Where rules/ and cards/ are: the project's folder (a checkout or an editable install), else the
    copy installed with the package as ``agricola_content`` (``pip install .``, a wheel)."""
    if (_SOURCE_ROOT / "rules").is_dir():
        return _SOURCE_ROOT
    try:
        spec = importlib.util.find_spec("agricola_content")
    except (ImportError, ValueError):
        spec = None
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        if (Path(location) / "rules").is_dir():
            return Path(location)
    return _SOURCE_ROOT


REPO_ROOT = _content_root()
INSTALLED = REPO_ROOT != _SOURCE_ROOT   # the packs are the installed copy, which may not be writable


def default_build_root(root: Path | None = None) -> Path:
    """Where compiled packs go: ``<root>/build``; for the installed packs, the user's cache folder
    (``$XDG_CACHE_HOME/agricola/build``, by default ``~/.cache/agricola/build``)."""
    root = Path(root) if root is not None else REPO_ROOT
    if INSTALLED and root == REPO_ROOT:
        import os
        cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        return Path(cache) / "agricola" / "build"
    return root / "build"


class PackNotFound(Exception):
    pass


def build_dir_for(pack_id: str, build_root: Path | None = None) -> Path:
    """The folder of a compiled pack: ``<build>/packs/<pack id>``, the id percent-encoded so that two packs
    never share a folder (``my_pack`` and ``my-pack`` are two folders)."""
    root = Path(build_root) if build_root else default_build_root()
    return root / "packs" / folder_name(pack_id)


_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def folder_name(pack_id: str) -> str:
    """A file name for ``pack_id``: letters, digits, '_' and '-' as they are, every other byte as %XX
    (an injective encoding; a leading '.' is encoded too, so no name is hidden, '.' or '..')."""
    return "".join(ch if ch in _SAFE else "".join(f"%{b:02X}" for b in ch.encode("utf-8")) for ch in pack_id)


def _ident(pack_id: str) -> str:
    """A Python identifier for ``pack_id`` (injective: '_' is doubled, other characters are written as _XX_)."""
    return "".join(ch if ch.isascii() and ch.isalnum() else "__" if ch == "_" else
                   "".join(f"_{b:02x}_" for b in ch.encode("utf-8")) for ch in pack_id)


_LOADED: dict = {}


def defaults(root: Path | None = None) -> dict:
    """The default packs named in ``rules/defaults.yaml`` (the runtime itself names none)."""
    import yaml
    from .fileio import read_regular_bytes
    path = (root or REPO_ROOT) / "rules" / "defaults.yaml"
    try:
        data = yaml.safe_load(read_regular_bytes(path, 1_000_000).decode("utf-8")) or {}
    except (OSError, ValueError, yaml.YAMLError):
        data = {}
    return data if isinstance(data, dict) else {}


def load_pack(pack_id: str, build_root: Path | None = None) -> Pack:
    """Import the compiled modules of ``pack_id`` (compile it first with ``agricola compile``)."""
    directory = build_dir_for(pack_id, build_root)
    init = directory / "__init__.py"
    manifest = directory / "manifest.json"
    if not init.exists() or not manifest.exists():
        raise PackNotFound(f"pack '{pack_id}' is not compiled (run: agricola compile --pack {pack_id})")
    try:
        stamp = json.loads(manifest.read_text(encoding="utf-8")).get("content_hash")
    except (OSError, ValueError, AttributeError):   # unreadable, not JSON, not a mapping
        stamp = None
    if not isinstance(stamp, str) or not stamp:
        raise PackNotFound(f"pack '{pack_id}' is damaged: its manifest.json has no content hash "
                           f"(run: agricola compile --pack {pack_id})")
    key = (str(directory), stamp)
    if key in _LOADED:
        return _LOADED[key]
    # the folder is part of the name: two builds of the same sources (the same stamp) in two folders may hold
    # different code (a compiler changed in between), and the modules of one must not stand in for the other's
    where = hashlib.sha256(str(directory.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:8]
    name = f"agricola_packs_{_ident(pack_id)}_{stamp[:12]}_{where}"
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(directory)])
    assert spec is not None and spec.loader is not None  # (a file named __init__.py always has both)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    pack = Pack(module)
    _LOADED[key] = pack
    return pack
