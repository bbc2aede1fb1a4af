"""Generated code is checked: every module the compiler writes, for the built-in packs and for the pack made
of the hostile corpus (tests/hostile/), parses, imports only the runtime, calls nothing dangerous, touches
no dunder, and has every string from the YAML files only as a literal.
"""
from __future__ import annotations

import ast
import builtins
import io
import tokenize
from pathlib import Path

import pytest

from compiler.build import Compiler
from compiler.diagnostics import Report
from compiler.loader import load_yaml_file
from test_hostile import make_hostile_root

REPO = Path(__file__).resolve().parent.parent
FORBIDDEN_NAMES = {"eval", "exec", "compile", "__import__", "open", "globals", "locals", "vars", "breakpoint",
                   "input", "__builtins__", "__loader__", "__spec__", "delattr", "memoryview", "exit", "quit"}
ALLOWED_BUILTINS = {"bool", "int", "len", "min", "max", "sum", "tuple", "list", "dict", "set", "abs", "any",
                    "all", "range", "sorted", "True", "False", "None", "getattr", "setattr", "isinstance"}
ALLOWED_IMPORTS = {("runtime", "primitives", "P"), ("runtime", "queries", "Q"), ("runtime", "claims", "C"),
                   ("runtime", "scoring", "S")}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """{pack: (output folder, workspace root)} for revised, revised-family and hostile."""
    tmp = tmp_path_factory.mktemp("generated")
    out = {}
    comp = Compiler(REPO, tmp / "build")
    for pack in ("revised", "revised-family"):
        result = comp.compile(pack)
        assert result.ok, result.report.render()
        out[pack] = (result.out_dir, REPO)
    root = make_hostile_root(tmp / "hostile-ws")
    result = Compiler(root, tmp / "hostile-build").compile("hostile")
    assert result.ok, result.report.render()
    out["hostile"] = (result.out_dir, root)
    return out


def _modules(out_dir: Path):
    files = sorted(out_dir.glob("*.py"))
    assert files and (out_dir / "__init__.py") in files
    return files


def _yaml_strings(root: Path, pack: str) -> set[str]:
    """Every string (keys and values) in the pack's YAML files."""
    files = list((root / "rules").glob(f"{pack}/*.yaml")) + list((root / "cards" / pack).glob("*/*.yaml"))
    if pack == "revised-family":
        files += list((root / "rules").glob("revised/*.yaml")) + list((root / "cards" / "revised").glob("*/*.yaml"))
    out: set[str] = set()

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                out.add(str(k))
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str):
            out.add(str(v))

    for f in files:
        if f.name.endswith(".test.yaml"):
            continue
        report = Report()
        walk(load_yaml_file(f, report, str(f)))
        assert not report, report.render()
    return out


def _code_outside_literals(source: str) -> str:
    """The module's source with every string literal and comment blanked out (the rest stays in place)."""
    lines = source.splitlines(keepends=True)
    chars = [list(line) for line in lines]
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in (tokenize.STRING, tokenize.COMMENT):
            continue
        (r0, c0), (r1, c1) = tok.start, tok.end
        for r in range(r0, r1 + 1):
            row = chars[r - 1]
            start = c0 if r == r0 else 0
            end = c1 if r == r1 else len(row)
            for i in range(start, min(end, len(row))):
                if row[i] != "\n":
                    row[i] = " "
    return "".join("".join(row) for row in chars)


def _defined_names(tree) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name)
    return names


def _is_dunder(text) -> bool:
    return isinstance(text, str) and len(text) > 4 and text.startswith("__") and text.endswith("__")


def check_module(path: Path):
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, str(path))
    defined = _defined_names(tree)
    problems = []
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            problems.append(f"{where}: 'import {', '.join(a.name for a in node.names)}'")
        elif isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module is None:
                if path.name != "__init__.py":
                    problems.append(f"{where}: relative import outside the package module")
                continue
            for a in node.names:
                if node.level != 0 or (node.module, a.name, a.asname) not in ALLOWED_IMPORTS:
                    problems.append(f"{where}: import of {node.module}.{a.name}")
        elif isinstance(node, ast.Name):
            if node.id in FORBIDDEN_NAMES or _is_dunder(node.id):
                problems.append(f"{where}: name {node.id!r}")
            elif node.id not in defined and node.id not in ALLOWED_BUILTINS:
                problems.append(f"{where}: undefined name {node.id!r}")
            elif node.id in dir(builtins) and node.id not in ALLOWED_BUILTINS and node.id not in defined:
                problems.append(f"{where}: builtin {node.id!r}")
        elif isinstance(node, ast.Attribute):
            if _is_dunder(node.attr):
                problems.append(f"{where}: attribute {node.attr!r}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
                "getattr", "setattr", "delattr", "hasattr"):
            for arg in node.args[1:2]:
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)) or _is_dunder(arg.value) \
                        or arg.value.startswith("_"):
                    problems.append(f"{where}: {node.func.id} with {ast.unparse(arg)}")
        elif isinstance(node, (ast.Lambda, ast.ClassDef, ast.Global, ast.Nonlocal, ast.With, ast.AsyncFunctionDef,
                               ast.Await, ast.Yield, ast.YieldFrom, ast.Try, ast.Raise, ast.Delete)):
            problems.append(f"{where}: {type(node).__name__}")
        elif isinstance(node, ast.JoinedStr):
            problems.append(f"{where}: f-string")
    return source, tree, problems


@pytest.mark.parametrize("pack", ["revised", "revised-family", "hostile"])
def test_generated_modules_are_safe(built, pack):
    out_dir, root = built[pack]
    problems = []
    for path in _modules(out_dir):
        _, _, found = check_module(path)
        problems += found
    assert not problems, "\n".join(problems[:50])


@pytest.mark.parametrize("pack", ["revised", "revised-family", "hostile"])
def test_yaml_strings_are_only_literals(built, pack):
    """A string from YAML that is not a plain word never appears in the code outside a literal or comment;
    every card's name is a literal of its module."""
    out_dir, root = built[pack]
    strings = {s for s in _yaml_strings(root, pack) if len(s) >= 3 and not s.replace("_", "").isalnum()}
    code = {path.name: _code_outside_literals(path.read_text(encoding="utf-8")) for path in _modules(out_dir)}
    leaks = [(name, s) for name, text in code.items() for s in strings
             for piece in s.split("\n") if len(piece.strip()) >= 8 and piece.strip() in text]
    assert not leaks, leaks[:20]
    if pack == "hostile":
        assert any("__import__" in s for s in strings)  # the hostile strings are among those looked for
        for name, text in code.items():
            assert "__import__" not in text and "pwned" not in text, name
    from runtime.pack import load_pack
    loaded = load_pack(pack, out_dir.parent.parent)
    for path in _modules(out_dir):
        if not path.name.startswith("card_"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        card = next(c for c in loaded.cards.values() if f"card_{c.id}.py" == path.name)
        assert card.name in constants and card.id in constants, path.name


def test_hostile_strings_survive_exactly(built):
    """The hostile names reach the runtime unchanged, as data."""
    from runtime.pack import load_pack
    out_dir, root = built["hostile"]
    pack = load_pack("hostile", out_dir.parent.parent)
    names = {c.id: c.name for c in pack.cards.values()}
    assert names["newline_name"] == "a\n__import__('os').system('touch /tmp/pwned')\n#\r\x0b\u2028"
    assert names["class"] == "__init__" and names["def"] == "__class__"
    assert names["quotes"] == "x'); __import__('os').system('touch /tmp/pwned'); ('\"\"\"\\n\\\\"
    assert "名前" in names["non_ascii"] and "\u202e" in names["non_ascii"]
    assert pack.cards["class"].tags[:3] == ("class", "def", "import")
    assert pack.cards["big_numbers"].cost == (("wood", 1_000_000),)


def test_checker_catches_injected_code(tmp_path):
    """The checks above are not vacuous: they find each kind of dangerous code."""
    bad = {
        "import os\n": "import os",
        "from os import system\n": "import of os.system",
        "x = eval('1')\n": "name 'eval'",
        "x = (1).__class__\n": "attribute '__class__'",
        "x = getattr(int, '__name__')\n": "getattr with",
        "x = open\n": "name 'open'",
        "x = y\n": "undefined name 'y'",
        "x = f'{1}'\n": "f-string",
    }
    for source, expected in bad.items():
        path = tmp_path / "card_x.py"
        path.write_text(source, encoding="utf-8")
        _, _, problems = check_module(path)
        assert any(expected in p for p in problems), (source, problems)
