"""The project's benchmark (``make bench``): writes a JSON report, by default ``build/bench.json``.

Measured, each as the median of several runs on one core:
- compile time of each built-in pack, cold (empty build folder, new process: grammar built, every
  module generated) and warm (nothing changed);
- random full games per second and decisions per second, family variant, for 1, 2 and 4 players;
- peak memory (max resident set size) of the process that plays the games.
Numbers depend on the machine; the report records which one.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .pack import REPO_ROOT

COMPILE_SNIPPET = r"""
import sys, time, json
from pathlib import Path
t0 = time.perf_counter()
from compiler.build import Compiler
c = Compiler(Path(sys.argv[1]), Path(sys.argv[2]))
r = c.compile(sys.argv[3])
t1 = time.perf_counter()
print(json.dumps({"ok": r.ok, "in_process_s": t1 - t0, "compile_s": r.seconds, "written": len(r.written)}))
"""

GAMES_SNIPPET = r"""
import sys, time, json, resource
from pathlib import Path
from runtime.pack import load_pack
from runtime.engine import Game
from runtime.agents import RandomAgent
pack = load_pack(sys.argv[1], Path(sys.argv[2]))
n, games, runs = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rates, drates = [], []
for run in range(runs):
    t = time.perf_counter(); decisions = 0
    for s in range(games):
        seed = run * 100000 + s
        g = Game(pack, n, seed=seed, agents=[RandomAgent(f"{seed}:{i}") for i in range(n)])
        g.play(); decisions += g.decisions
    dt = time.perf_counter() - t
    rates.append(games / dt); drates.append(decisions / dt)
print(json.dumps({"games_per_s": rates, "decisions_per_s": drates,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _run(snippet, *args) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-c", snippet, *map(str, args)]
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "0"] + cmd  # one core
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(REPO_ROOT))
    if out.returncode != 0:
        raise SystemExit(f"benchmark step failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _machine() -> dict:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "system": platform.system(), "machine": platform.machine(), "cpu": cpu, "cores": os.cpu_count()}


def bench_compile(pack: str, runs: int) -> dict:
    cold, warm, cold_wall = [], [], []
    for _ in range(runs):
        tmp = Path(tempfile.mkdtemp(prefix="agricola-bench-"))
        try:
            t = time.perf_counter()
            r = _run(COMPILE_SNIPPET, REPO_ROOT, tmp, pack)
            cold_wall.append(time.perf_counter() - t)
            cold.append(r["in_process_s"])
            r2 = _run(COMPILE_SNIPPET, REPO_ROOT, tmp, pack)
            assert r2["written"] == 0, "a warm compile rewrote modules"
            warm.append(r2["in_process_s"])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return {"cold_s": statistics.median(cold), "warm_s": statistics.median(warm),
            "cold_process_wall_s": statistics.median(cold_wall), "runs": runs,
            "note": "in-process time of import + compile; cold = empty build folder in a new process"}


def bench_games(pack: str, build: Path, players: int, games: int, runs: int) -> dict:
    r = _run(GAMES_SNIPPET, pack, build, players, games, runs)
    return {"players": players, "games_per_run": games, "runs": runs,
            "games_per_s_median": statistics.median(r["games_per_s"]),
            "decisions_per_s_median": statistics.median(r["decisions_per_s"]),
            "games_per_s_all": [round(x, 1) for x in r["games_per_s"]],
            "peak_rss_mb": round(r["peak_rss_mb"], 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m runtime.bench", description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(REPO_ROOT / "build" / "bench.json"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games", type=int, default=200, help="games per run (2 players; scaled for others)")
    args = ap.parse_args(argv)
    report = {"machine": _machine(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    print("compiling (cold and warm) …", file=sys.stderr)
    from .pack import defaults
    cfg = defaults().get("bench") or {}
    compile_packs = list(cfg.get("compile") or [])
    games_pack = str(cfg.get("games") or "")
    report["compile"] = {p: bench_compile(p, args.runs) for p in compile_packs}
    build = Path(tempfile.mkdtemp(prefix="agricola-bench-build-"))
    try:
        r = _run(COMPILE_SNIPPET, REPO_ROOT, build, games_pack)
        assert r["ok"]
        games = {}
        for n in (1, 2, 4):
            count = max(20, args.games * 2 // n)
            print(f"playing {args.runs} x {count} random {n}-player family games …", file=sys.stderr)
            games[str(n)] = bench_games(games_pack, build, n, count, args.runs)
        report["random_games"] = games
        report["games_pack"] = games_pack
    finally:
        shutil.rmtree(build, ignore_errors=True)
    report["targets"] = {"random_2p_games_per_s": 100}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    g2 = report["random_games"]["2"]["games_per_s_median"]
    colds = ", ".join(f"{k} {v['cold_s']:.3f} s" for k, v in report["compile"].items())
    print(f"wrote {out}: 2-player {games_pack} games/s (median) = {g2:.1f}; cold compile: {colds}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
