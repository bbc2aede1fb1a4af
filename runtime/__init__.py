"""The thin runtime: state, farm geometry, primitives (the verbs), the engine loop, agents, CLI.

It names no action space, card or edition: all of those come from a compiled pack.
"""

import os as _os
import sys as _sys


class _CompiledModules:
    """Imports the runtime's modules from their compiled form in build/native/ (``make native``,
    tools/native.py). They were compiled together by mypyc and call each other directly, so they are used
    all together or not at all: this finder is installed only when every module's source is, byte for
    byte, the one it was compiled from (otherwise everything is imported from source as usual).
    docs/architecture.md, "The compiled runtime"."""

    def __init__(self, folder: str, binaries: dict):
        self.folder, self.binaries = folder, binaries

    def find_spec(self, name, path=None, target=None):
        binary = self.binaries.get(name)
        if binary is None:
            return None
        from importlib.util import spec_from_file_location
        return spec_from_file_location(name, _os.path.join(self.folder, binary))


def _compiled_binaries(root: str, folder: str, manifest) -> dict:
    """{module name: compiled file} when the whole compiled group is current and present, else {}."""
    import hashlib
    from importlib.machinery import EXTENSION_SUFFIXES
    try:
        if manifest["compiler"] != "mypyc" or manifest["ext_suffix"] != EXTENSION_SUFFIXES[0]:
            return {}
        group = manifest["group"]
        binaries = {group["module"]: str(group["binary"])}
        for name, entry in manifest["modules"].items():
            with open(_os.path.join(root, entry["source"]), "rb") as f:
                if hashlib.sha256(f.read()).hexdigest() != entry["sha256"]:
                    return {}
            binaries[name] = str(entry["binary"])
    except (OSError, KeyError, TypeError, AttributeError):
        return {}
    if not all(_os.path.isfile(_os.path.join(folder, b)) for b in binaries.values()):
        return {}
    return binaries


def _use_compiled_modules():
    if _os.environ.get("AGRICOLA_PURE_PYTHON"):
        return
    import json
    root = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
    folder = _os.path.join(root, "build", "native")
    try:
        with open(_os.path.join(folder, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError):
        return
    binaries = _compiled_binaries(root, folder, manifest)
    if binaries and not any(isinstance(f, _CompiledModules) for f in _sys.meta_path):
        _sys.meta_path.insert(0, _CompiledModules(folder, binaries))


def compiled_modules() -> list:
    """The runtime's modules imported so far from their compiled form (empty: all run from source)."""
    from importlib.machinery import EXTENSION_SUFFIXES
    return sorted(n for n, m in list(_sys.modules.items())
                  if n.startswith("runtime.") and not n.endswith("__mypyc")
                  and str(getattr(m, "__file__", "")).endswith(tuple(EXTENSION_SUFFIXES)))


_use_compiled_modules()
