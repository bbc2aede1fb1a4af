"""No tracebacks on any input: mutated card and rule files give located diagnostics, never a crash.

A hypothesis suite mutates the real card and rule files (tokens dropped, swapped, duplicated or replaced
by values of the wrong type; truncated files; random bytes; unknown keys; mutated effect texts) and runs
the compiler on them, in process:

* ``Compiler(root, build).check(pack)`` on every mutation: it must not raise, and every diagnostic must
  be located (``file:line:col`` inside one of the pack's files);
* when the check passes, ``Compiler.compile(pack)`` must succeed and the generated module must parse;
* on a share of the mutations, ``agricola validate`` and ``agricola compile`` through ``compiler.cli.main``:
  exit status 0 or 2, every message ``file:line:col: error[CODE]: …``, never ``internal error``.

Fast path: each card mutation is checked in a copy of the pack that holds the real rules and only the
mutated card; rule-file mutations use full copies of ``rules/revised`` and ``rules/revised-family`` without
cards. While these tests run, the loader's, the schema's and the parser's results for unchanged input are
kept (only results without any diagnostic), so a mutation costs about the checking of the mutated file.
The default run tries 2,075 mutations (about 25 s); ``-m slow`` tries 50,000. Runs are deterministic
(``derandomize=True``).
"""
from __future__ import annotations

import ast
import contextlib
import hashlib
import io
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.build import Compiler
from compiler.loader import LStr
from compiler import cli

REPO = Path(__file__).resolve().parent.parent
CARD_FILES = sorted(p for p in (REPO / "cards" / "revised").glob("*/*.yaml") if not p.name.endswith(".test.yaml"))
RULE_FILES = [("revised", n) for n in ("game.yaml", "actions.yaml", "rounds.yaml", "majors.yaml")] + \
             [("revised-family", n) for n in ("game.yaml", "actions.yaml", "rounds.yaml")]

# what a mutation may put into a file: wrong types, YAML syntax, hostile text, effect-language words
POOL = [
    "", " ", "\n", "\t", ":", ": ", "- ", "-", "[", "]", "{", "}", "[]", "{}", ",", "'", '"', '"""', "\\", "#",
    "|", ">", "|2", "&a", "*a", "&a [1, 2]", "!!python/object/apply:os.system ['true']", "!!python/name:os.system",
    "!!binary aGVsbG8=", "!!set {a}", "!!omap [a: 1]", "!custom x", "<<: {a: 1}", "? ", "%YAML 1.1", "---", "...",
    "null", "~", "true", "no", "yes", "0", "-1", "1.5", "1e400", "1.0e+400", ".nan", "-.inf", "0x1F", "0o17",
    "99999999999999999999",
    "1_000_000_000_000", "-99999999999", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "1:20", "é", "ü名",
    "\u202e", "\ufeff", "\x00", "\x07", "\r", "\r\n", "__import__('os').system('true')", "__class__",
    "class", "def", "import", "None", "x" * 300, "9" * 30, "#tag", "#", "# comment",
    # effect-language words and pieces
    "on play", "after you use", "before", "at", "harvest", "any time", "may", "pay", "gain", "then", "and/or",
    "or", "choose", "if", "per", "tier(", ")", "(", ";", "->", "+", "*", "//", "==", ">=",
    "players(1: 1 food; 2+: 2 food)",
    "1 food", "2 wood", "sheep", "grain", "material", "occupations", "this card", "once", "twice", "times",
    "per round", "build room", "schedule", "rounds", "next", "remaining", "house(", "bonus", "points",
    "#wood_accumulation", "#nothing", "nope", "2147483648", "1000001",
]
KEYS = ["id", "name", "kind", "deck", "number", "players", "cost", "points", "bonus_points", "passing", "effects",
        "requires", "tags", "upgrade_of", "remove", "edition", "effect", "accumulate", "stage", "by_players",
        "extends", "unknown_key", "Name", "effects2", "__class__", "<<"]
OPS = ("drop", "swap", "dup", "replace", "insert", "truncate", "unknown_key", "effect_word", "bytes", "splice",
       "line_drop", "line_dup", "indent")
TOKEN = re.compile(r"\s+|\w+|[^\w\s]")
LOCATED = re.compile(r"^(?P<file>[^\s].*?):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>E\d+)\]: \S")

op_strategy = st.tuples(st.sampled_from(OPS), st.integers(0, 1 << 16), st.integers(0, 1 << 16),
                        st.integers(0, 1 << 16), st.binary(max_size=48))
ops_strategy = st.lists(op_strategy, min_size=1, max_size=3)


def mutate(data: bytes, ops) -> bytes:
    """Apply ``ops`` (from ``op_strategy``) to a file's bytes; deterministic."""
    for kind, a, b, k, blob in ops:
        if kind == "bytes":
            data = blob
            continue
        if kind == "splice":
            at = a % (len(data) + 1)
            data = data[:at] + blob + data[at + (b % 4):]
            continue
        if kind == "truncate":
            data = data[: a % (len(data) + 1)]
            continue
        text = data.decode("utf-8", errors="replace")
        if kind in ("line_drop", "line_dup", "indent", "unknown_key"):
            lines = text.split("\n")
            i = a % len(lines)
            if kind == "line_drop":
                del lines[i]
            elif kind == "line_dup":
                lines.insert(i, lines[i])
            elif kind == "indent":
                lines[i] = " " * (b % 5) + lines[i].lstrip(" ")
            else:
                lines.insert(i, " " * (b % 3) * 2 + f"{KEYS[k % len(KEYS)]}: {POOL[b % len(POOL)]}")
            text = "\n".join(lines)
        elif kind == "effect_word":
            words = [m for m in re.finditer(r"[a-z_]+|\d+", text)]
            if words:
                m = words[a % len(words)]
                text = text[:m.start()] + POOL[k % len(POOL)] + text[m.end():]
        else:
            toks = TOKEN.findall(text) or [""]
            i, j = a % len(toks), b % len(toks)
            if kind == "drop":
                del toks[i]
            elif kind == "swap":
                toks[i], toks[j] = toks[j], toks[i]
            elif kind == "dup":
                toks.insert(i, toks[i])
            elif kind == "replace":
                toks[i] = POOL[k % len(POOL)]
            elif kind == "insert":
                toks.insert(i, POOL[k % len(POOL)])
            text = "".join(toks)
        data = text.encode("utf-8", errors="surrogatepass")
    return data


# ---------------------------------------------------------------- the workspaces

class Workspaces:
    def __init__(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="agricola-fuzz-"))
        self.card_root = self.tmp / "cards-root"
        shutil.copytree(REPO / "rules" / "revised", self.card_root / "rules" / "revised")
        self.card_dir = self.card_root / "cards" / "revised" / "A"
        self.card_dir.mkdir(parents=True)
        self.card_compiler = Compiler(self.card_root, self.tmp / "cards-build")
        self.rules_root = self.tmp / "rules-root"
        for pack in ("revised", "revised-family"):
            shutil.copytree(REPO / "rules" / pack, self.rules_root / "rules" / pack)
        self.rules_compiler = Compiler(self.rules_root, self.tmp / "rules-build")
        self.count = 0

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


_WS: Workspaces | None = None


def ws() -> Workspaces:
    global _WS
    if _WS is None:
        _WS = Workspaces()
    return _WS


# Most files of a mutated pack are unchanged: the loader's, the schema's and the parser's results for
# unchanged input are kept while the fuzz tests run (only results without any diagnostic, so that every
# problem is still reported by the real code), so that each mutation costs about the checking of one file.
# The schema stage removes the values it rejects from the loaded data: a file whose data the schema
# rejected is forgotten, so that it is read again (and reported again) next time.
_MEMO = {"files": {}, "objects": set(), "validated": {}, "parsed": {}, "owner": {}, "ids": {}}


def _walk_ids(value, out):
    if isinstance(value, (dict, list, str)):
        out.add(id(value))
    if isinstance(value, (dict, list)):
        for v in (value.values() if isinstance(value, dict) else value):
            _walk_ids(v, out)


def _owner(data):
    """The memo key of the loaded file that ``data`` belongs to (or shares its values with), or None."""
    values = list(data.values()) if isinstance(data, dict) else list(data) if isinstance(data, list) else []
    for obj in [data] + values:
        if isinstance(obj, (dict, list, str)) and id(obj) in _MEMO["owner"]:
            return _MEMO["owner"][id(obj)]
    return None


def _memo_load(real):
    def load(path, report, display=None):
        raw = Path(path).read_bytes() if Path(path).is_file() else None
        key = (str(path), display, hashlib.sha256(raw).hexdigest() if raw is not None else None)
        hit = _MEMO["files"].get(key)
        if hit is None:
            before = len(report.diagnostics)
            data = real(path, report, display)
            if len(report.diagnostics) > before or raw is None:
                return data
            _MEMO["files"][key] = hit = (data, raw.decode("utf-8"))
            ids = set()
            _walk_ids(data, ids)
            _MEMO["ids"][key] = ids
            _MEMO["objects"] |= ids
            _MEMO["owner"].update(dict.fromkeys(ids, key))
        report.sources.add_text(display or str(path), hit[1])
        return hit[0]
    return load


def _forget(file_key):
    """Forget a loaded file (its data was changed by the schema stage)."""
    _MEMO["files"].pop(file_key, None)
    ids = _MEMO["ids"].pop(file_key, set())
    _MEMO["objects"] -= ids
    for i in ids:
        _MEMO["owner"].pop(i, None)
    for key in [k for k in _MEMO["validated"] if k[0] in ids]:
        del _MEMO["validated"][key]


def _memo_validate(real):
    def validate(data, kind, report):
        if id(data) not in _MEMO["objects"]:
            before = len(report.diagnostics)
            ok = real(data, kind, report)
            if len(report.diagnostics) > before:
                _forget(_owner(data))  # e.g. an overlay entry checked through a copy
            return ok
        key = (id(data), kind)
        if key not in _MEMO["validated"]:
            before = len(report.diagnostics)
            ok = real(data, kind, report)
            if len(report.diagnostics) > before:
                _forget(_owner(data))
                return ok
            _MEMO["validated"][key] = ok
        return _MEMO["validated"][key]
    return validate


def _memo_parse(real):
    def parse(text, kind, report):
        if not isinstance(text, LStr):
            return real(text, kind, report)
        key = (str(text), kind, text.span, text.segments)
        if key not in _MEMO["parsed"]:
            before = len(report.diagnostics)
            node = real(text, kind, report)
            if len(report.diagnostics) > before:
                return node
            _MEMO["parsed"][key] = node
        return _MEMO["parsed"][key]
    return parse


@pytest.fixture(scope="module", autouse=True)
def _workspaces():
    import compiler.checker
    import compiler.packs
    import compiler.schema
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiler.packs, "load_yaml_file", _memo_load(compiler.packs.load_yaml_file))
        mp.setattr(compiler.schema, "validate", _memo_validate(compiler.schema.validate))
        mp.setattr(compiler.checker, "parse", _memo_parse(compiler.checker.parse))
        yield
    global _WS
    if _WS is not None:
        _WS.close()
        _WS = None
    for table in _MEMO.values():
        table.clear()


# ---------------------------------------------------------------- checks

def assert_located(report, root: Path):
    """Every diagnostic names a file of the pack with a line and a column."""
    assert report.diagnostics
    for d in report.diagnostics:
        s = d.span
        assert s.line >= 1 and s.col >= 1, f"unlocated diagnostic: {d.format()}"
        assert (root / s.file).is_file(), f"diagnostic names no file of the pack: {d.format()}"
        text = d.format(report.sources)  # rendering must not fail either
        assert LOCATED.match(text), text


def run_cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def assert_cli_clean(status, err):
    assert "internal error" not in err and "Traceback" not in err, err
    assert status in (0, 2), (status, err)
    if status == 2:
        lines = [ln for ln in err.splitlines() if ": error[" in ln]
        assert lines, err
        for ln in lines:
            assert LOCATED.match(ln), ln


def check_mutation(compiler: Compiler, root: Path, pack: str, path: Path, use_cli: bool):
    src, checked, report = compiler.check(pack)
    if report:
        assert_located(report, root)
    else:
        assert checked is not None
        result = compiler.compile(pack)
        assert result.ok, result.report.render()
        for name in result.written:
            if not name.startswith("card_"):
                continue  # the frame's modules are checked in test_generated_code.py
            f = result.out_dir / f"{name}.py"
            ast.parse(f.read_text(encoding="utf-8"), str(f))
    if use_cli:
        status, _, err = run_cli("--root", str(root), "validate", str(path))
        assert_cli_clean(status, err)
        assert (status == 0) == (not report), err
        status, _, err = run_cli("--root", str(root), "--build", str(compiler.build_root), "compile", "--pack", pack)
        assert_cli_clean(status, err)


def _card_case(index: int, ops, use_cli: bool):
    w = ws()
    original = CARD_FILES[index % len(CARD_FILES)]
    for old in w.card_dir.iterdir():
        old.unlink()
    path = w.card_dir / original.name
    path.write_bytes(mutate(original.read_bytes(), ops))
    check_mutation(w.card_compiler, w.card_root, "revised", path, use_cli)


def _rule_case(index: int, ops, use_cli: bool):
    w = ws()
    pack, fname = RULE_FILES[index % len(RULE_FILES)]
    original = REPO / "rules" / pack / fname
    path = w.rules_root / "rules" / pack / fname
    path.write_bytes(mutate(original.read_bytes(), ops))
    try:
        check_mutation(w.rules_compiler, w.rules_root, pack, path, use_cli)
    finally:
        shutil.copy(original, path)


# ---------------------------------------------------------------- the tests

FAST = settings(derandomize=True, deadline=None, database=None, print_blob=True,
                suppress_health_check=list(HealthCheck))

N_CARDS, N_CARDS_CLI, N_RULES, N_RULES_CLI = 1800, 100, 150, 25   # 2,075 mutations in all


def test_unmutated_files_pass():
    """The fast path's base is sound: every real card checks clean against the lite rules."""
    w = ws()
    for original in CARD_FILES:
        for old in w.card_dir.iterdir():
            old.unlink()
        shutil.copy(original, w.card_dir / original.name)
        _, checked, report = w.card_compiler.check("revised")
        assert not report, report.render()
    for pack in ("revised", "revised-family"):
        _, checked, report = w.rules_compiler.check(pack)
        assert not report, report.render()


@settings(FAST, max_examples=N_CARDS)
@given(st.integers(0, 10_000), ops_strategy)
def test_mutated_cards(index, ops):
    _card_case(index, ops, use_cli=False)


@settings(FAST, max_examples=N_CARDS_CLI)
@given(st.integers(0, 10_000), ops_strategy)
def test_mutated_cards_cli(index, ops):
    _card_case(index, ops, use_cli=True)


@settings(FAST, max_examples=N_RULES)
@given(st.integers(0, 10_000), ops_strategy)
def test_mutated_rules(index, ops):
    _rule_case(index, ops, use_cli=False)


@settings(FAST, max_examples=N_RULES_CLI)
@given(st.integers(0, 10_000), ops_strategy)
def test_mutated_rules_cli(index, ops):
    _rule_case(index, ops, use_cli=True)


@pytest.mark.slow
@settings(FAST, max_examples=42_000)
@given(st.integers(0, 10_000), ops_strategy, st.booleans())
def test_mutated_cards_slow(index, ops, use_cli):
    _card_case(index, ops, use_cli and index % 10 == 0)


@pytest.mark.slow
@settings(FAST, max_examples=8_000)
@given(st.integers(0, 10_000), ops_strategy, st.booleans())
def test_mutated_rules_slow(index, ops, use_cli):
    _rule_case(index, ops, use_cli and index % 10 == 0)
