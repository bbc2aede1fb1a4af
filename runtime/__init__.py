"""The thin runtime: state, farm geometry, primitives (the verbs), the engine loop, agents, CLI.

It names no action space, card or edition: all of those come from a compiled pack.
"""

import os as _os
import sys as _sys


class _CompiledModules:
    """Imports a runtime module from its compiled form in build/native/ (``make native``, tools/native.py)
    when the source it was compiled from is, byte for byte, the module's source now; otherwise finds
    nothing, and the module is imported from its source as usual. docs/architecture.md, "The compiled
    runtime"."""

    def __init__(self, root: str, folder: str, modules: dict):
        self.root, self.folder, self.modules = root, folder, modules

    def find_spec(self, name, path=None, target=None):
        entry = self.modules.get(name)
        if entry is None:
            return None
        import hashlib
        from importlib.util import spec_from_file_location
        try:
            with open(_os.path.join(self.root, entry["source"]), "rb") as f:
                fresh = hashlib.sha256(f.read()).hexdigest() == entry["sha256"]
        except (OSError, KeyError, TypeError):
            return None
        binary = _os.path.join(self.folder, str(entry.get("binary", "")))
        if not fresh or not _os.path.isfile(binary):
            return None
        return spec_from_file_location(name, binary)


def _use_compiled_modules():
    if _os.environ.get("AGRICOLA_PURE_PYTHON"):
        return
    import json
    from importlib.machinery import EXTENSION_SUFFIXES
    root = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
    folder = _os.path.join(root, "build", "native")
    try:
        with open(_os.path.join(folder, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        modules = manifest["modules"]
        usable = manifest["ext_suffix"] == EXTENSION_SUFFIXES[0] and isinstance(modules, dict)
    except (OSError, ValueError, KeyError, TypeError):
        return
    if usable and not any(isinstance(f, _CompiledModules) for f in _sys.meta_path):
        _sys.meta_path.insert(0, _CompiledModules(root, folder, modules))


def compiled_modules() -> list:
    """The runtime's modules imported so far from their compiled form (empty: all run from source)."""
    from importlib.machinery import EXTENSION_SUFFIXES
    return sorted(n for n, m in list(_sys.modules.items())
                  if n.startswith("runtime.") and str(getattr(m, "__file__", "")).endswith(tuple(EXTENSION_SUFFIXES)))


_use_compiled_modules()
