"""The project's benchmark (``make bench``): writes a JSON report, by default ``build/bench.json``.

Measured, each as the median of several runs on one core:
- compile time of each built-in pack, cold (empty build folder, new process: grammar built, every
  module generated) and warm (nothing changed);
- random full games per second and decisions per second, family variant, for 1, 2 and 4 players;
- the same for 5 players in the pack named ``bench.five_player_games`` (the 2007 family version):
  key ``random_games_5p``;
- random 2- and 5-player games of the pack named ``bench.cards_2007_games`` (the 2007 edition) with its
  hand cards dealt, as many as its decks hold (key ``random_games_2007_cards``, with the number of
  cards; ``--only cards_2007`` measures this part alone);
- time to generate the HTML reference (``agricola docs``, no PDF) of the biggest pack, every card included;
- wall time of ``agricola play --json`` in a new process with a current build, and the first game of a
  process against later ones (``play_process``);
- peak memory (max resident set size) of the process that plays the games;
- the web playtest server under load (``web_load``): 50 games at once over HTTP on this machine, a
  person's seat answered at random, the server killed and restarted once; p50 and p95 answer times in ms
  (each answer is stored with a synchronous SQLite commit before it is acknowledged);
- simulation (``simulation``): ``agricola simulate`` on one worker against one per core (the parallel
  speed-up, target 0.9 x cores), the same games on a local Ray runtime (its start-up and its overhead per
  game against the local pool), and games/s of each agent kind (2-player games with hand cards, one core).
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

from runtime.pack import REPO_ROOT

COMPILE_SNIPPET = r"""
import sys, time, json, shutil
from pathlib import Path
t0 = time.perf_counter()
from compiler.build import Compiler
t_import = time.perf_counter() - t0
root, build, pack = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
c = Compiler(root, build)
t = time.perf_counter(); r = c.compile(pack); cold = time.perf_counter() - t
t = time.perf_counter(); r2 = c.compile(pack); warm = time.perf_counter() - t
edited = None
cards = sorted((root / "cards" / pack).glob("*/*.yaml"))
cards = [p for p in cards if not p.name.endswith(".test.yaml")]
if cards:
    card = cards[len(cards) // 2]
    text = card.read_text(encoding="utf-8")
    card.write_text(text.replace("name: ", "name: Edited ", 1), encoding="utf-8")
    t = time.perf_counter(); r3 = c.compile(pack); edited = time.perf_counter() - t
    card.write_text(text, encoding="utf-8")
    assert r3.ok and 1 <= len(r3.written) <= 2, r3.written
print(json.dumps({"ok": r.ok, "import_s": t_import, "cold_s": cold, "warm_s": warm, "one_card_s": edited,
                  "written_cold": len(r.written), "written_warm": len(r2.written), "cards": len(cards)}))
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

WARMUP_SNIPPET = r"""
import sys, time, json, statistics
t0 = time.perf_counter()
from pathlib import Path
from runtime.pack import load_pack
from runtime.engine import Game
from runtime.agents import RandomAgent
t1 = time.perf_counter()
pack = load_pack(sys.argv[1], Path(sys.argv[2]))
t2 = time.perf_counter()
times = []
for seed in range(1, int(sys.argv[3]) + 1):  # seed 1 first, as agricola play --seed 1
    t = time.perf_counter()
    Game(pack, 2, seed=seed, agents=[RandomAgent(f"{seed}:0"), RandomAgent(f"{seed}:1")]).play()
    times.append(time.perf_counter() - t)
print(json.dumps({"import_s": t1 - t0, "load_pack_s": t2 - t1, "first_game_s": times[0],
                  "later_games_median_s": statistics.median(times[1:])}))
"""


def bench_play_process(pack: str, build: Path, runs: int) -> dict:
    """``agricola play --json`` in a new process with a current build (nothing to compile: the compiler's
    pipeline is not imported), wall time of the whole process; and, inside one process, the first game
    against later ones (the first pays for warming caches: farm regions, fencing options, prices)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as users run it
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-m", "compiler.cli", "--build", str(build), "play", "--json", "--pack", pack,
           "--players", "2", "--seed", "1"]
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "0"] + cmd
    walls = []
    for i in range(runs + 1):  # the first run writes the bytecode caches and is not counted
        t = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(REPO_ROOT))
        wall = time.perf_counter() - t
        if out.returncode != 0:
            raise SystemExit(f"benchmark step failed:\n{out.stderr}")
        if i:
            walls.append(wall)
    warm = _run(WARMUP_SNIPPET, pack, build, 21)
    return {"pack": pack, "command": f"agricola play --json --pack {pack} --players 2 --seed 1", "runs": runs,
            "wall_s_median": statistics.median(walls), "wall_s_all": [round(x, 3) for x in walls],
            "in_process": {k: round(v, 4) for k, v in warm.items()},
            "note": "a new process each run, build current (not compiled again, the compiler pipeline is not "
                    "imported); in_process: imports, loading the pack, the first game and the median of the "
                    "20 next games in one process"}


DOCS_SNIPPET = r"""
import sys, time, json, tempfile
from pathlib import Path
from compiler.build import Compiler
from compiler import docs
c = Compiler(Path(sys.argv[1]), Path(sys.argv[2]))
times = []
for i in range(int(sys.argv[4])):
    out = Path(tempfile.mkdtemp(prefix="agricola-bench-docs-"))
    t = time.perf_counter()
    r = docs.build_site(c, sys.argv[3], out)
    times.append(time.perf_counter() - t)
print(json.dumps({"seconds": times, "cards": r.cards, "files": len(r.pages)}))
"""


def bench_docs(pack: str, runs: int) -> dict:
    """``agricola docs`` without --pdf, in one process, ``runs`` times (the first includes parser set-up)."""
    build = Path(tempfile.mkdtemp(prefix="agricola-bench-docs-build-"))
    try:
        r = _run(DOCS_SNIPPET, REPO_ROOT, build, pack, runs)
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return {"pack": pack, "cards": r["cards"], "files": r["files"], "runs": runs,
            "median_s": statistics.median(r["seconds"]), "all_s": [round(x, 3) for x in r["seconds"]],
            "note": "HTML reference without PDF: check the pack, generate every text, render every page"}


def _card_count(pack: str) -> int:
    return len([p for p in (REPO_ROOT / "cards" / pack).glob("*/*.yaml") if not p.name.endswith(".test.yaml")])


def _run(snippet, *args, pure: bool = False) -> dict:
    """Runs a snippet in a new process pinned to one core; ``pure``: with the runtime's Python sources only
    (AGRICOLA_PURE_PYTHON=1), not its compiled modules (make native)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("AGRICOLA_PURE_PYTHON", None)
    if pure:
        env["AGRICOLA_PURE_PYTHON"] = "1"
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
    """Compile in a fresh process on a copy of the workspace: cold (empty build folder), warm (nothing
    changed), and after editing one card file (in the same process, as an editor's watch loop would)."""
    rows = []
    for _ in range(runs):
        tmp = Path(tempfile.mkdtemp(prefix="agricola-bench-"))
        try:
            ws = tmp / "ws"
            shutil.copytree(REPO_ROOT / "rules", ws / "rules")
            if (REPO_ROOT / "cards").is_dir():
                shutil.copytree(REPO_ROOT / "cards", ws / "cards")
            t = time.perf_counter()
            r = _run(COMPILE_SNIPPET, ws, tmp / "build", pack)
            r["process_wall_s"] = time.perf_counter() - t
            assert r["ok"] and r["written_warm"] == 0, r
            rows.append(r)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    med = lambda key: statistics.median(x[key] for x in rows) if rows[0].get(key) is not None else None  # noqa: E731
    return {"cold_s": med("cold_s"), "warm_s": med("warm_s"), "one_card_edit_s": med("one_card_s"),
            "import_s": med("import_s"), "cold_process_wall_s": med("process_wall_s"), "cards": rows[0]["cards"],
            "runs": runs, "note": "in-process compile times (imports excluded, shown apart); cold = empty build "
                                  "folder; one_card_edit = recompile after renaming one card (its module is regenerated)"}


RUNTIME_SNIPPET = r"""
import json, runtime, runtime.engine, runtime.primitives, runtime.agents, runtime.savegame, runtime.search
from pathlib import Path
names = sorted(n for n in __import__("sys").modules if n.startswith("runtime."))
manifest = Path(runtime.__file__).resolve().parent.parent / "build" / "native" / "manifest.json"
built = json.loads(manifest.read_text()) if manifest.is_file() else {}
compiler = f"{built['compiler']} (mypy {built.get('mypy')})" if built.get("compiler") else None
print(json.dumps({"compiled_modules": len(runtime.compiled_modules()), "modules_imported": len(names),
                  "cython": built.get("cython"), "compiler": compiler}))
"""


def bench_runtime() -> dict:
    """How the runtime runs: how many of its modules (those a game imports) come compiled from build/native."""
    r = _run(RUNTIME_SNIPPET)
    r["note"] = ("make native compiles runtime/ with mypyc into build/native (cython: the compiler of sessions "
                 "11-17, null since); the modules run compiled, all together, only when every source is the one "
                 "they were compiled from (docs/architecture.md, 'The compiled runtime')")
    return r


def bench_games(pack: str, build: Path, players: int, games: int, runs: int, pure: bool = False) -> dict:
    r = _run(GAMES_SNIPPET, pack, build, players, games, runs, pure=pure)
    return {"players": players, "games_per_run": games, "runs": runs,
            "games_per_s_median": statistics.median(r["games_per_s"]),
            "decisions_per_s_median": statistics.median(r["decisions_per_s"]),
            "games_per_s_all": [round(x, 1) for x in r["games_per_s"]],
            "peak_rss_mb": round(r["peak_rss_mb"], 1)}


def bench_five_players(pack: str, build: Path, games: int, runs: int) -> dict:
    """Random 5-player games of ``pack`` (games per run scaled like the others: 2/5 of the 2-player count)."""
    r = _run(COMPILE_SNIPPET, REPO_ROOT, build, pack)
    assert r["ok"]
    count = max(20, games * 2 // 5)
    print(f"playing {runs} x {count} random 5-player {pack} games …", file=sys.stderr)
    return dict(bench_games(pack, build, 5, count, runs), pack=pack)


def bench_2007_cards(pack: str, build: Path, games: int, runs: int) -> dict:
    """Random 2- and 5-player games of ``pack`` with its hand cards dealt (the 2007 edition: as many as its
    decks hold while they are being encoded; the report says how many)."""
    r = _run(COMPILE_SNIPPET, REPO_ROOT, build, pack)
    assert r["ok"]
    from runtime.pack import load_pack
    loaded = load_pack(pack, build)
    kinds = [c.kind for c in loaded.cards.values()]
    out = {"pack": pack, "occupations": kinds.count("occupation"), "minors": kinds.count("minor"),
           "note": "random agents; every player is dealt 7 + 7 from all decks, or an equal share of the cards "
                   "there are while the decks are short (docs/editions.md)"}
    for n in (2, 5):
        count = max(20, games * 2 // n)
        print(f"playing {runs} x {count} random {n}-player {pack} games with its hand cards …", file=sys.stderr)
        out[str(n)] = bench_games(pack, build, n, count, runs)
    return out


AGENT_SNIPPET = r"""
import sys, time, json
from pathlib import Path
from runtime.pack import load_pack
from runtime.engine import Game
from runtime.savegame import make_agent
pack = load_pack(sys.argv[1], Path(sys.argv[2]))
kind, games = sys.argv[3], int(sys.argv[4])
t = time.perf_counter(); decisions = 0
for s in range(games):
    g = Game(pack, 2, seed=s, agents=[make_agent({"kind": kind, "seed": f"{s}:{i}"}) for i in range(2)])
    g.play(); decisions += g.decisions
dt = time.perf_counter() - t
print(json.dumps({"games_per_s": games / dt, "decisions_per_s": decisions / dt}))
"""


def _simulate(pack: str, build: Path, games: int, *how, agents: str = "greedy") -> dict:
    out = Path(tempfile.mkdtemp(prefix="agricola-bench-sim-"))
    try:
        cmd = [sys.executable, "-m", "compiler.cli", "--build", str(build), "simulate", "--pack", pack, "--players",
               "2", "--games", str(games), "--agents", agents, "--batch", "2", "--quiet", "--json",
               "--out", str(out / "run"), *how]
        env = dict(os.environ)
        env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        t = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(REPO_ROOT))
        wall = time.perf_counter() - t
        if r.returncode != 0:
            raise SystemExit(f"benchmark step failed:\n{r.stderr}")
        summary = json.loads(r.stdout.strip().splitlines()[-1])
        summary["wall_s"] = wall
        return summary
    finally:
        shutil.rmtree(out, ignore_errors=True)


def bench_simulation(pack: str, build: Path, games: int, agent_games: int) -> dict:
    """Parallel speed-up of the local pool, Ray's overhead, games/s of each agent kind. The pool and Ray
    play greedy 2-player games (enough work per game that starting the workers does not hide the speed-up):
    200 by default; with 40 the pool's start took a tenth of its time (speed-up 1.75 against 1.89 on 2 cores)."""
    cores = os.cpu_count() or 1
    games = max(10, games // 2)
    one = _simulate(pack, build, games, "--workers", "1")
    many = _simulate(pack, build, games, "--workers", str(cores))
    report = {"pack": pack, "games": games, "cores": cores, "agents": "greedy",
              "one_worker_s": one["seconds"], "pool_s": many["seconds"],
              "speed_up": one["seconds"] / many["seconds"], "target_speed_up": round(0.9 * cores, 2),
              "same_results": one["results_hash"] == many["results_hash"]}
    try:
        import ray  # noqa: F401
    except ImportError:
        report["ray"] = None
    else:
        on_ray = _simulate(pack, build, games, "--ray", "auto")
        play = on_ray["seconds"] - on_ray["startup_seconds"]
        report["ray"] = {"startup_s": on_ray["startup_seconds"], "play_s": play,
                         "overhead_per_game_ms": 1000 * (play - many["seconds"]) / games,
                         "same_results": on_ray["results_hash"] == one["results_hash"],
                         "note": "a local Ray runtime started by the command (startup_s), the games as one Ray task "
                                 "per batch of 2; overhead: its play time minus the local pool's, per game"}
    kinds = {}
    from runtime.savegame import AGENT_KINDS
    for kind, cls in AGENT_KINDS.items():
        if cls is None:
            continue
        count = {"random": agent_games * 20}.get(kind, agent_games if kind == "greedy" else max(2, agent_games // 5))
        print(f"playing {count} 2-player {pack} games between {kind} agents …", file=sys.stderr)
        kinds[kind] = dict(_run(AGENT_SNIPPET, pack, build, kind, count), games=count)
    report["agents_games_per_s"] = kinds
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m compiler.bench", description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(REPO_ROOT / "build" / "bench.json"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games", type=int, default=200, help="games per run (2 players; scaled for others)")
    ap.add_argument("--only", choices=["simulation", "cards_2007"], default=None,
                    help="measure only this part, into the same report file (default: everything)")
    args = ap.parse_args(argv)
    if args.only == "simulation":
        return _simulation_only(args)
    if args.only == "cards_2007":
        return _cards_2007_only(args)
    report = {"machine": _machine(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    report["runtime"] = bench_runtime()
    print(f"runtime: {report['runtime']['compiled_modules']} of {report['runtime']['modules_imported']} modules "
          "compiled (make native)", file=sys.stderr)
    print("compiling (cold and warm) …", file=sys.stderr)
    from runtime.pack import defaults
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
            print(f"playing {args.runs} x {count} random {n}-player {games_pack} games …", file=sys.stderr)
            games[str(n)] = bench_games(games_pack, build, n, count, args.runs)
        report["random_games"] = games
        report["games_pack"] = games_pack
        cards_pack = str(cfg.get("cards_games") or "")
        if cards_pack:
            r = _run(COMPILE_SNIPPET, REPO_ROOT, build, cards_pack)
            assert r["ok"]
            with_cards = {}
            for n in (2, 4):
                count = max(20, args.games * 2 // n)
                print(f"playing {args.runs} x {count} random {n}-player {cards_pack} games with hand cards …",
                      file=sys.stderr)
                with_cards[str(n)] = bench_games(cards_pack, build, n, count, args.runs)
            report["random_games_with_cards"] = with_cards
            report["cards_pack"] = cards_pack
            print(f"timing 'agricola play --json --pack {cards_pack}' in new processes …", file=sys.stderr)
            report["play_process"] = bench_play_process(cards_pack, build, args.runs * 2)
        if cards_pack:
            print("simulation: local pool, Ray, each agent …", file=sys.stderr)
            report["simulation"] = bench_simulation(cards_pack, build, args.games * 2, max(2, args.games // 20))
        five_pack = str(cfg.get("five_player_games") or "")
        if five_pack:
            report["random_games_5p"] = bench_five_players(five_pack, build, args.games, args.runs)
        pack_2007 = str(cfg.get("cards_2007_games") or "")
        if pack_2007:
            report["random_games_2007_cards"] = bench_2007_cards(pack_2007, build, args.games, args.runs)
        print("the same 2-player games with the runtime's Python sources only (AGRICOLA_PURE_PYTHON=1) …",
              file=sys.stderr)
        pure = {games_pack: bench_games(games_pack, build, 2, args.games, args.runs, pure=True)}
        if pack_2007:
            pure[pack_2007] = bench_games(pack_2007, build, 2, args.games, args.runs, pure=True)
        report["random_games_python_sources"] = dict(pure, note="2-player random games as in random_games and "
                                                     "random_games_2007_cards, the runtime's compiled modules off")
        print(f"50 games at once over HTTP against agricola serve ({games_pack}), one restart …", file=sys.stderr)
        from .web.load import run_load
        report["web_load"] = run_load(build, build / "web-load.sqlite3", games=50, pack=games_pack)
    finally:
        shutil.rmtree(build, ignore_errors=True)
    # issue 9's targets (set on a faster machine than the project's 2-core development box); issue 11's
    # for the 2007 hand cards
    report["targets"] = {"random_2p_games_per_s": 1200, "cards_2p_games_per_s": 900, "cards_4p_games_per_s": 15,
                         "cold_compile_with_cards_s": 1.0, "one_card_recompile_s": 0.2, "play_process_s": 0.15,
                         "cards_2007_2p_games_per_s": 300}
    if compile_packs:
        docs_pack = max(compile_packs, key=_card_count)  # the biggest pack: every hand card
        print(f"generating the docs of {docs_pack} (no PDF) …", file=sys.stderr)
        report["docs"] = bench_docs(docs_pack, args.runs)
        report["targets"]["docs_s"] = 3.0
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    g2 = report["random_games"]["2"]["games_per_s_median"]
    colds = ", ".join(f"{k} {v['cold_s']:.3f} s" for k, v in report["compile"].items())
    print(f"wrote {out}: 2-player {games_pack} games/s (median) = {g2:.1f}; cold compile: {colds}"
          + (f"; docs of {report['docs']['pack']}: {report['docs']['median_s']:.2f} s" if "docs" in report else ""),
          file=sys.stderr)
    return 0


def _simulation_only(args) -> int:
    """``--only simulation``: the simulation part, added to (or replacing it in) the report file."""
    from runtime.pack import defaults
    pack = str((defaults().get("bench") or {}).get("cards_games") or "revised")
    build = Path(tempfile.mkdtemp(prefix="agricola-bench-build-"))
    try:
        assert _run(COMPILE_SNIPPET, REPO_ROOT, build, pack)["ok"]
        part = bench_simulation(pack, build, args.games * 2, max(2, args.games // 20))
    finally:
        shutil.rmtree(build, ignore_errors=True)
    out = Path(args.out)
    report = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {"machine": _machine()}
    report["simulation"] = part
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {out}: speed-up {part['speed_up']:.2f} on {part['cores']} cores", file=sys.stderr)
    return 0


def _cards_2007_only(args) -> int:
    """``--only cards_2007``: the 2007 games with hand cards, added to (or replacing them in) the report file."""
    from runtime.pack import defaults
    pack = str((defaults().get("bench") or {}).get("cards_2007_games") or "original")
    build = Path(tempfile.mkdtemp(prefix="agricola-bench-build-"))
    try:
        part = bench_2007_cards(pack, build, args.games, args.runs)
    finally:
        shutil.rmtree(build, ignore_errors=True)
    out = Path(args.out)
    report = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {"machine": _machine()}
    report["random_games_2007_cards"] = part
    report["runtime"] = bench_runtime()
    report.setdefault("targets", {})["cards_2007_2p_games_per_s"] = 300
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {out}: {pack} with {part['occupations']} occupations and {part['minors']} minors: "
          f"2-player {part['2']['games_per_s_median']:.1f} games/s, 5-player {part['5']['games_per_s_median']:.1f} "
          "(medians)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
