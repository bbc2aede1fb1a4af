"""Mutation testing with mutmut (``make mutate``; not part of CI).

mutmut makes small changes to the code (a sign, a bound, a constant, a removed call), one at a time,
and runs the tests that execute the changed function; a change that no test notices "survives". The
score is the share of mutants the tests kill. This driver:

1. copies the project into ``build/mutation/`` (only files that changed since the last run, so that
   mutmut's remembered verdicts stay valid), with a mutmut configuration for the chosen modules and
   tests appended to its ``pyproject.toml``;
2. runs ``mutmut run`` there for at most ``--budget`` seconds; when the budget is spent mutmut is
   interrupted, keeps every verdict it has, and the next run goes on with the mutants not yet checked
   (the cheapest first);
3. writes ``build/mutation.json``: for each module the counts by verdict and the score, and every
   surviving mutant with its diff.

With ``--sample N`` only N mutants drawn at random (``--seed``) from all of the selected modules' mutants
are tested, and the score is an estimate with its 95% interval (Wilson): a full campaign over runtime/,
the checker and the parser is tens of thousands of mutants, many hours on 2 cores, while a sample of a
few hundred gives the score to a few points in an hour or two (README, "Mutation testing").

Some mutants cannot be killed: no behaviour can differ (an argument nobody reads, a default every caller
overrides). Each one a person has looked at is written in ``tools/mutation-equivalent.yaml`` with its
diff's digest and the reason (``--equivalent NAME --reason TEXT`` adds one); the report counts them apart
and leaves them out of the score, as the field does (killed / (mutants checked - equivalent)), and gives
the raw share too. An entry whose digest no longer matches the mutant's diff (the code changed) no longer
counts.

    python tools/mutate.py [--budget SECONDS] [--module GLOB]... [--tests PATH]... [--workers N]
                           [--sample N [--seed S]] [--fresh]
    python tools/mutate.py --equivalent NAME --reason TEXT
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "mutation"
OUT = ROOT / "build" / "mutation.json"
# The modules the project's score is about: all of runtime/, its packages included (runtime/primitives/
# since session 6; runtime/savegame.py is one of them), and the checker and the parser of compiler/.
MODULES = ["runtime/**/*.py", "compiler/checker.py", "compiler/parser.py"]
SKIP = ["runtime/__init__.py"]


def select_modules(patterns, root: Path = ROOT) -> list:
    """The files the patterns name (globs relative to root, ``**`` recursive), less SKIP, sorted."""
    return sorted({str(p.relative_to(root)) for pat in patterns for p in root.glob(pat)
                   if p.suffix == ".py" and "__pycache__" not in p.parts} - set(SKIP))
# the tests read some of these as files (the Makefile's run command, tools/mutate.py itself)
COPY = ["compiler", "runtime", "rules", "cards", "docs", "tests", "tools", "README.md", "Makefile", "pyproject.toml"]
EQUIVALENT_FILE = ROOT / "tools" / "mutation-equivalent.yaml"
TARGET = 0.90
DETECTED = {"killed", "timeout", "caught by type check", "segfault"}
UNDETECTED = {"survived", "no tests", "suspicious"}


def _files(top: Path):
    if top.is_file():
        yield top
        return
    for path in sorted(top.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            yield path


def sync(config_text: str) -> int:
    """Copy the project into WORK, writing only files whose bytes differ; returns how many were written."""
    written = 0
    wanted = set()
    for name in COPY:
        for src in _files(ROOT / name):
            rel = src.relative_to(ROOT)
            data = src.read_bytes()
            if rel == Path("pyproject.toml"):
                data = data.rstrip(b"\n") + b"\n\n" + config_text.encode()
            dst = WORK / rel
            wanted.add(dst)
            if not dst.is_file() or dst.read_bytes() != data:
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_bytes(data)
                written += 1
    for site in (WORK / "sitecustomize.py", WORK / "_site" / "sitecustomize.py"):
        if not site.is_file() or site.read_text(encoding="utf-8") != SITECUSTOMIZE:
            site.parent.mkdir(parents=True, exist_ok=True)
            site.write_text(SITECUSTOMIZE, encoding="utf-8")
            written += 1
    for name in COPY:
        for old in list(_files(WORK / name)) if (WORK / name).exists() else []:
            if old not in wanted:
                old.unlink()
    return written


# Tests that run the project in a new process (kill -9 and resume, the no-toolchain process, the pool's
# workers) pass PYTHONPATH=<root>, so this file is imported there at start-up. While mutmut finds out
# which tests reach which function (MUTANT_UNDER_TEST=stats), its recorder reads its configuration from
# the current folder, which such a process does not have (a test's temporary folder): the first full run
# stopped there. The new process then runs the original code (no mutant), as it records nothing anyway;
# with a mutant under test it runs that mutant, as the test process does.
# The second run (2026-12-06) died of a segmentation fault while mutmut collected its stats: its
# trampoline sets a ContextVar (the caller, for its dependency edges) on every call, and a game runs in a
# greenlet; CPython crashed inside ContextVar.set. With AGRICOLA_MUTMUT_CALL_STACK set (run_mutmut sets it,
# and puts this file on PYTHONPATH from a folder of its own so that mutmut's own process imports it too)
# a plain variable stands in for the ContextVar.
SITECUSTOMIZE = """\
# written by tools/mutate.py (make mutate): see SITECUSTOMIZE there
import os
if os.environ.get("MUTANT_UNDER_TEST") == "stats" and not os.path.isfile("pyproject.toml"):
    os.environ["MUTANT_UNDER_TEST"] = ""
if os.environ.get("AGRICOLA_MUTMUT_CALL_STACK"):
    try:
        import mutmut.core
    except ImportError:
        pass
    else:
        class _CallStack:
            # mutmut's ContextVar of callers, without a ContextVar: games run in greenlets, and setting a
            # ContextVar there crashed CPython (tools/mutate.py); the callers only feed mutmut's dependency
            # edges, not which tests reach which function
            def __init__(self):
                self.value = (None, 0)

            def get(self):
                return self.value

            def set(self, value):
                token, self.value = self.value, value
                return token

            def reset(self, token):
                self.value = token

        mutmut.core.MutmutCallStack._ctx = _CallStack()
"""


# Tests a mutation run cannot hold: this one installs the project into a folder of its own and runs it
# there with PYTHONPATH set to that folder alone; the installed copy is mutmut's rewritten code, whose
# recorder needs mutmut's configuration (the third full run, 2026-12-06, stopped on it).
# The second reads a card function's source with inspect.getsource, which mutmut's rewritten modules do not
# have (the fourth run, 2026-12-06, stopped on it in mutmut's clean run of the tests).
DESELECT = ["tests/test_tools.py::test_an_installed_agricola_finds_its_packs_from_any_folder",
            "tests/test_game_log.py::test_goods_and_actions_a_card_lays_on_round_spaces_name_the_card_when_taken"]


def _toml_list(items) -> str:
    return "[" + ", ".join(json.dumps(str(x)) for x in items) + "]"


def mutmut_config(modules, tests) -> str:
    return "\n".join([
        "# written by tools/mutate.py for this run",
        "[tool.mutmut]",
        'source_paths = ["compiler/", "runtime/"]',
        f"only_mutate = {_toml_list(modules)}",
        f"do_not_mutate = {_toml_list(SKIP)}",
        'also_copy = ["rules/", "cards/", "docs/", "tools/", "README.md", "Makefile", "sitecustomize.py"]',
        f"pytest_add_cli_args_test_selection = {_toml_list(tests)}",
        # tests that read the sources as text see mutmut's rewritten files, not a fault (pyproject markers)
        "pytest_add_cli_args = " + _toml_list(["-p", "no:cacheprovider", "-m", "not slow and not source_text and not native"]
                                              + [f"--deselect={t}" for t in DESELECT]),
        "use_git_change_detection = false",
        # each mutant's tests run in a process forked from a server that has only collected the tests, not
        # from mutmut's own process, which has run the whole suite unmutated: there the packs loaded, the
        # per-process caches (fencing options, payment weights, prices) and the generated card modules
        # would stand in for the mutant's (mutmut's 'fork' default; survivors of the seed-3 sample showed it)
        'process_isolation = "forkserver"',
        "",
    ])


def run_mutmut(workers: int, budget: float, log_path: Path, names=()) -> tuple[int | None, bool, float]:
    """Run ``mutmut run`` in WORK (only the named mutants if any are given); returns (exit status, whether
    the budget stopped it, seconds)."""
    cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(workers), *names]
    start = time.monotonic()
    stopped = False
    with log_path.open("wb") as log:
        env = dict(os.environ, AGRICOLA_MUTMUT_CALL_STACK="1")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(WORK / "_site"), os.environ.get("PYTHONPATH")]))
        proc = subprocess.Popen(cmd, cwd=WORK, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        last_report = start
        while True:
            try:
                proc.wait(timeout=5)
                break
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            if now - last_report >= 60:
                last_report = now
                print(f"  {now - start:.0f} s: {_progress(log_path)}", flush=True)
            if budget and now - start >= budget and not stopped:
                stopped = True
                print(f"  the budget of {budget:.0f} s is spent: stopping mutmut (its verdicts are kept)", flush=True)
                os.killpg(proc.pid, signal.SIGINT)
                try:
                    proc.wait(timeout=120)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                break
    return proc.returncode, stopped, time.monotonic() - start


def _progress(log_path: Path) -> str:
    """mutmut's last progress line ('done/total' and the counts by verdict), or its last output line."""
    text = log_path.read_bytes()[-4000:].decode("utf-8", "replace")
    parts = [p.strip() for p in re.split(r"[\r\n]", text) if p.strip()]
    return parts[-1] if parts else "starting"


def _mutmut(*args) -> str:
    out = subprocess.run([sys.executable, "-m", "mutmut", *args], cwd=WORK, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"mutmut {' '.join(args)} failed:\n{out.stdout}{out.stderr}")
    return out.stdout


# mutmut's own first step (the mutants written into WORK/mutants/), alone: the names of every mutant, to
# draw a sample from before any test runs. mutmut has no command for it; these are its own functions.
_GENERATE_SCRIPT = """
import json, sys
from mutmut.__main__ import create_mutants, store_lines_covered_by_tests, collect_source_file_mutation_data
from mutmut.mutation.trampoline import set_mutant_under_test
from mutmut.utils.file_utils import copy_src_dir, copy_also_copy_files, setup_source_paths
import os
set_mutant_under_test("mutant_generation")
os.makedirs("mutants", exist_ok=True)
copy_src_dir(); copy_also_copy_files(); setup_source_paths(); store_lines_covered_by_tests()
create_mutants(int(sys.argv[1]))
mutants, _ = collect_source_file_mutation_data(mutant_names=())
print(json.dumps(sorted({name for _, name, _ in mutants})))
"""


def all_mutant_names(workers: int) -> list:
    """Every mutant of the configured modules (generating them in WORK as ``mutmut run`` would)."""
    out = subprocess.run([sys.executable, "-c", _GENERATE_SCRIPT, str(workers)], cwd=WORK,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"generating the mutants failed:\n{out.stdout[-2000:]}{out.stderr[-4000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


# mutmut tests the mutants whose tests cost least first, so the checked part of a sample is not drawn at random
UNFINISHED = ("; run again to go on (until then the score leans to the mutants with the cheapest tests, "
              "docs/testing.md)")


def draw_sample(names, size: int, seed: int) -> list:
    """``size`` of the names drawn at random with ``seed`` (all of them if there are fewer), sorted."""
    names = sorted(names)
    if size >= len(names):
        return names
    return sorted(random.Random(seed).sample(names, size))


def wilson_interval(killed: int, checked: int, z: float = 1.96) -> list | None:
    """The 95% Wilson score interval of killed/checked, as [low, high] rounded to 4 places."""
    if not checked:
        return None
    p = killed / checked
    denom = 1 + z * z / checked
    centre = (p + z * z / (2 * checked)) / denom
    half = z * math.sqrt(p * (1 - p) / checked + z * z / (4 * checked * checked)) / denom
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def _verdicts() -> dict:
    """mutmut's verdict of every generated mutant in WORK ('not checked' for those not tested yet)."""
    verdicts = {}
    for line in _mutmut("results", "--all", "true").splitlines():
        m = re.match(r"^\s*(\S+): (.+)$", line)
        if m:
            verdicts[m.group(1)] = m.group(2).strip()
    return verdicts


def _module_of(mutant: str, modules: dict) -> str:
    """The file of a mutant name such as 'runtime.savegame.x_norm__mutmut_1'."""
    dotted = mutant.split(".")
    for n in range(len(dotted) - 1, 0, -1):
        key = ".".join(dotted[:n])
        if key in modules:
            return modules[key]
    return "?"


def diff_digest(diff: str) -> str:
    """The first 16 hex digits of the SHA-256 of a mutant's diff: what an equivalent entry is checked by."""
    return hashlib.sha256(diff.encode("utf-8")).hexdigest()[:16]


class EquivalentFileError(Exception):
    pass


def load_equivalents(path: Path = EQUIVALENT_FILE) -> dict:
    """The mutants looked at and found equivalent: {name: (diff digest, reason)}; {} when there is no file."""
    import yaml
    if not path.is_file():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise EquivalentFileError(f"{path}: not YAML: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, list):
        raise EquivalentFileError(f"{path}: a list of entries (mutant, digest, reason) is expected")
    out = {}
    for i, entry in enumerate(data, 1):
        if not isinstance(entry, dict) or set(entry) != {"mutant", "digest", "reason"} \
                or not all(isinstance(v, str) and v.strip() for v in entry.values()):
            raise EquivalentFileError(f"{path}: entry {i} needs exactly mutant, digest and reason, each a text")
        out[entry["mutant"]] = (entry["digest"], entry["reason"])
    return out


def add_equivalent(name: str, reason: str, path: Path = EQUIVALENT_FILE) -> str:
    """Append an entry for the mutant ``name`` (its diff read from WORK); returns the digest written."""
    import yaml
    diff = _diffs([name]).get(name)
    if not diff:
        raise EquivalentFileError(f"no mutant {name} in {WORK}")
    known = load_equivalents(path)
    if name in known:
        raise EquivalentFileError(f"{name} is already in {path}")
    digest = diff_digest(diff)
    entry = yaml.safe_dump([{"mutant": name, "digest": digest, "reason": reason}], sort_keys=False,
                           allow_unicode=True, width=110)
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if text and not text.endswith("\n"):
        text += "\n"
    path.write_text(text + entry, encoding="utf-8")
    return digest


def collect(selected: list, max_diffs: int, only=None, equivalents=None) -> dict:
    """Verdicts of the mutants of the selected modules (from mutmut's records in WORK); with ``only``,
    of those mutants alone (a sample). An undetected mutant listed in ``equivalents`` with its diff's
    digest counts as equivalent: out of the score."""
    equivalents = equivalents or {}
    dotted = {str(Path(p).with_suffix("")).replace(os.sep, "."): p for p in selected}
    wanted = set(only) if only is not None else None
    verdicts = {}
    for name, verdict in _verdicts().items():
        module = _module_of(name, dotted)
        if module != "?" and (wanted is None or name in wanted):
            verdicts[name] = (module, verdict)
    names = sorted(n for n, (_, v) in verdicts.items() if v in UNDETECTED)
    listed = [n for n in names if n in equivalents]
    diffs = _diffs(sorted(set(names[:max_diffs]) | set(listed)))
    equivalent = {n for n in listed if n in diffs and diff_digest(diffs[n]) == equivalents[n][0]}
    modules = {}
    for module in sorted(selected):
        modules[module] = {"mutants": 0, "killed": 0, "survived": 0, "equivalent": 0, "not_checked": 0,
                           "by_verdict": {}}
    for name, (module, verdict) in verdicts.items():
        row = modules[module]
        row["mutants"] += 1
        row["by_verdict"][verdict] = row["by_verdict"].get(verdict, 0) + 1
        if verdict in DETECTED:
            row["killed"] += 1
        elif name in equivalent:
            row["equivalent"] += 1
        elif verdict in UNDETECTED:
            row["survived"] += 1
        else:
            row["not_checked"] += 1
    total = {"mutants": 0, "killed": 0, "survived": 0, "equivalent": 0, "not_checked": 0}
    for row in modules.values():
        checked = row["killed"] + row["survived"]
        row["score"] = round(row["killed"] / checked, 4) if checked else None
        for k in total:
            total[k] += row[k]
    checked = total["killed"] + total["survived"]
    total["score"] = round(total["killed"] / checked, 4) if checked else None
    total["interval_95"] = wilson_interval(total["killed"], checked)
    raw = checked + total["equivalent"]
    total["score_with_equivalent"] = round(total["killed"] / raw, 4) if raw else None
    survivors = []
    for name in names:
        module, verdict = verdicts[name]
        entry = {"mutant": name, "module": module, "verdict": "equivalent" if name in equivalent else verdict}
        if name in equivalent:
            entry["reason"] = equivalents[name][1]
        elif name in listed:
            entry["stale_equivalent_entry"] = "the diff changed since it was found equivalent: look again"
        if name in diffs:
            entry["diff"] = diffs[name]
        survivors.append(entry)
    return {"modules": modules, "total": total, "survivors": survivors}


# One process for all the diffs (``mutmut show`` starts one per mutant); mutmut's own function.
_DIFF_SCRIPT = """
import json, sys
from mutmut.mutation.diff_apply import get_diff_for_mutant
print(json.dumps({name: get_diff_for_mutant(name) for name in json.load(sys.stdin)}))
"""


def _diffs(names: list) -> dict:
    if not names:
        return {}
    out = subprocess.run([sys.executable, "-c", _DIFF_SCRIPT], cwd=WORK, input=json.dumps(names),
                         capture_output=True, text=True)
    if out.returncode == 0:
        return json.loads(out.stdout.strip().splitlines()[-1])
    # another mutmut version: ask it mutant by mutant
    return {name: _mutmut("show", name).split("\n", 1)[-1].strip("\n") for name in names}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Mutation testing with mutmut; writes build/mutation.json.")
    ap.add_argument("--budget", type=float, default=3600,
                    help="stop after this many seconds, keeping every verdict (0: no limit; default 3600)")
    ap.add_argument("--module", action="append", default=None,
                    help=f"a file or glob to mutate (repeatable; default: {' '.join(MODULES)})")
    ap.add_argument("--tests", action="append", default=None,
                    help="the tests to run, as pytest arguments (repeatable; default: tests/, the fast suite)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="mutants tested at once (default: cores)")
    ap.add_argument("--diffs", type=int, default=1000, help="at most this many survivors get their diff (default 1000)")
    ap.add_argument("--sample", type=int, default=0,
                    help="test only this many mutants drawn at random from all of them (0: all; default 0)")
    ap.add_argument("--seed", type=int, default=0, help="the seed of the sample's draw (default 0)")
    ap.add_argument("--fresh", action="store_true", help="forget the verdicts of earlier runs")
    ap.add_argument("--out", type=Path, default=OUT, help="the report (default build/mutation.json)")
    ap.add_argument("--equivalent", metavar="NAME",
                    help=f"record the mutant NAME (of the last run) as equivalent in {EQUIVALENT_FILE.relative_to(ROOT)}, "
                         "with --reason; then stop")
    ap.add_argument("--reason", help="why no test can kill the --equivalent mutant")
    args = ap.parse_args(argv)
    if args.equivalent:
        if not (args.reason and args.reason.strip()):
            ap.error("--equivalent needs --reason: why no behaviour can differ")
        try:
            digest = add_equivalent(args.equivalent, args.reason.strip())
        except (EquivalentFileError, RuntimeError) as exc:
            print(exc, file=sys.stderr)
            return 2
        print(f"{args.equivalent} ({digest}) recorded as equivalent in {EQUIVALENT_FILE.relative_to(ROOT)}")
        return 0
    try:
        equivalents = load_equivalents()
    except EquivalentFileError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        import mutmut
    except ImportError:
        print("mutmut is not installed: pip install -e '.[mutation]' (make mutate does it)", file=sys.stderr)
        return 2
    patterns = args.module or MODULES
    selected = select_modules(patterns)
    if not selected:
        print(f"no module matches {' '.join(patterns)}", file=sys.stderr)
        return 2
    tests = args.tests or ["tests/"]
    if args.fresh and WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True, exist_ok=True)
    written = sync(mutmut_config(selected, tests))
    print(f"mutmut {mutmut.__version__}: {len(selected)} module(s), tests {' '.join(tests)}, "
          f"budget {args.budget:.0f} s, {args.workers} worker(s); {written} file(s) copied to {WORK.relative_to(ROOT)}")
    sample = population = None
    names = ()
    if args.sample > 0:
        population = all_mutant_names(args.workers)
        sample = draw_sample(population, args.sample, args.seed)
        verdicts = _verdicts()
        names = [n for n in sample if verdicts.get(n, "not checked") == "not checked"]
        print(f"sample: {len(sample)} of {len(population)} mutants (seed {args.seed}), {len(names)} not checked yet")
    if args.sample > 0 and not names:
        status, stopped, seconds = 0, False, 0.0
    else:
        status, stopped, seconds = run_mutmut(args.workers, args.budget, WORK / "mutmut.log", names)
    if status not in (0, None) and not stopped:
        print(f"mutmut stopped with status {status}; see {WORK / 'mutmut.log'}", file=sys.stderr)
        print(_progress(WORK / "mutmut.log"), file=sys.stderr)
        return 1
    report = {"tool": f"mutmut {mutmut.__version__}", "modules_selected": selected, "tests": tests,
              "budget_seconds": args.budget, "seconds": round(seconds), "stopped_by_budget": stopped,
              "target_score": TARGET}
    if sample is not None:
        report["sample"] = {"size": len(sample), "seed": args.seed, "population": len(population)}
    report.update(collect(selected, args.diffs, only=sample, equivalents=equivalents))
    report["complete"] = report["total"]["not_checked"] == 0 and report["total"]["mutants"] > 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    t = report["total"]
    score = f"{t['score']:.1%}" if t["score"] is not None else "-"
    interval = t["interval_95"]
    if interval:
        score += f" (95% interval {interval[0]:.1%}-{interval[1]:.1%})"
    of = f" of a sample of {len(sample)} from {len(population)}" if sample is not None else ""
    print(f"{t['mutants']} mutants{of}: {t['killed']} killed, {t['survived']} survived, {t['equivalent']} equivalent, "
          f"{t['not_checked']} not checked yet; score {score} (target {TARGET:.0%}; with the equivalent counted as "
          f"survivors {t['score_with_equivalent'] or 0:.1%}){'' if report['complete'] else UNFINISHED}")
    for module, row in report["modules"].items():
        if row["mutants"]:
            s = f"{row['score']:.1%}" if row["score"] is not None else "-"
            print(f"  {module}: {row['killed']}/{row['killed'] + row['survived']} killed ({s}), "
                  f"{row['equivalent']} equivalent, {row['not_checked']} not checked")
    print(f"report: {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
