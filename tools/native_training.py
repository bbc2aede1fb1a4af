"""The workload the compiled runtime's profile-guided build trains on (``tools/native.py``).

    python tools/native_training.py FOLDER

``FOLDER`` holds a build of the runtime's group made with ``-fprofile-generate``; this imports the
runtime from it (not from ``build/native/``), compiles the built-in packs into a temporary folder and plays
what the runtime spends its life on: seeded random games of each pack at every player count it allows, and
a few games of the greedy agent (state copies, lookahead). At exit the instrumented code writes how often
each branch ran, and the second build (``-fprofile-use``) lays the code out for those paths. The games
are fixed by their seeds, so the profile, and the build made from it, is the same on every run.

Prints one JSON line: the games played, the seconds taken, and how many runtime modules came from FOLDER.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (pack, players, random games); the hand-card packs weigh most, as they do in simulations
WORKLOAD = (
    ("revised", 1, 20), ("revised", 2, 80), ("revised", 3, 20), ("revised", 4, 20),
    ("revised-family", 1, 20), ("revised-family", 2, 60), ("revised-family", 4, 20),
    ("original", 2, 40), ("original", 5, 10),
    ("original-family", 2, 20), ("original-family", 5, 10),
    ("family-2012", 2, 20), ("family-2012", 4, 10),
)
GREEDY = (("revised", 2, 3), ("revised-family", 2, 2), ("original", 2, 2))


def _use_build(folder: Path) -> None:
    """Import the runtime's compiled modules from ``folder`` (every extension module in it)."""
    from importlib.machinery import EXTENSION_SUFFIXES
    os.environ["AGRICOLA_PURE_PYTHON"] = "1"   # runtime/__init__.py must not install build/native
    sys.path.insert(0, str(ROOT))
    import runtime
    suffix = EXTENSION_SUFFIXES[0]
    binaries = {str(p.relative_to(folder))[:-len(suffix)].replace("/", "."): str(p.relative_to(folder))
                for p in folder.rglob("*" + suffix)}
    sys.meta_path.insert(0, runtime._CompiledModules(str(folder), binaries))


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not Path(args[0]).is_dir():
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    _use_build(Path(args[0]).resolve())
    import runtime
    from compiler.build import Compiler
    from runtime.agents import GreedyAgent, RandomAgent
    from runtime.engine import Game
    from runtime.pack import load_pack

    t = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="agricola-training-"))
    played = 0
    try:
        compiler = Compiler(ROOT, tmp)
        packs = {}
        for pack_id in dict.fromkeys(p for p, _, _ in WORKLOAD + GREEDY):
            if not compiler.compile(pack_id).ok:
                print(f"training: pack {pack_id} did not compile", file=sys.stderr)
                return 1
            packs[pack_id] = load_pack(pack_id, tmp)
        for pack_id, players, games in WORKLOAD:
            for seed in range(games):
                agents = [RandomAgent(f"{seed}:{i}") for i in range(players)]
                Game(packs[pack_id], players, seed=seed, agents=agents).play()
                played += 1
        for pack_id, players, games in GREEDY:
            for seed in range(games):
                agents = [GreedyAgent(f"{seed}:0")] + [RandomAgent(f"{seed}:{i}") for i in range(1, players)]
                Game(packs[pack_id], players, seed=seed, agents=agents).play()
                played += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps({"games": played, "seconds": round(time.perf_counter() - t, 1),
                      "compiled_modules": len(runtime.compiled_modules())}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
