"""Every key of every schema, given a value of each wrong type, gives exactly one located error (exit 2).

The keys are found in the schemas themselves (``compiler.schema.KINDS``: every file in compiler/schemas/
and the save- and campaign-file schemas), recursively: properties, the values of open mappings (``additionalProperties``),
list items and the places of a fixed list (``prefixItems``). Each is tried in a real file of its kind
from the tiny workspace in tests/fixtures/tiny (a pack, an overlay pack, a farm file, a save file, a
campaign file after one game):
the value is put into the otherwise valid file, the command that reads such files runs in process, and
it must print exactly one ``file:line:col: error[…]`` (at the value, in that file), no traceback, and
exit with status 2. A new schema needs an entry in ``TARGETS`` (the test says so).
"""
from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from compiler import cli, schema
from compiler.diagnostics import Report
from compiler.loader import LDict, LList, load_yaml_file
from runtime.shape import locate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "tiny"
LOCATED = re.compile(r"^(?P<file>\S.*?):(?P<line>\d+):(?P<col>\d+): error\[E\d+\]: \S")
SAVE = "game.save.json"  # written by the test (a finished 2-player game of the tiny pack)
CAMPAIGN = "tiny.campaign.json"  # written by the test (a 2-player campaign of the tiny pack after its first game)

WRONG = {"boolean": True, "integer": 7, "number": 2.5, "string": "text", "array": [1], "object": {"a": 1},
         "null": None}


@dataclass(frozen=True)
class Target:
    """Where documents of a kind are: a file of the tiny workspace, the entry in it (an index into a
    list file, or None for the whole file), and the command that reads it (``{file}`` is its path)."""

    file: str
    entry: int | None
    command: tuple

    def __str__(self):
        return self.file + (f"[{self.entry}]" if self.entry is not None else "")


VALIDATE_TINY = ("validate", "{root}/rules/tiny")
VALIDATE_PLUS = ("validate", "{root}/rules/tiny-plus")
TARGETS = {
    "game-full": [Target("rules/tiny/game.yaml", None, VALIDATE_TINY)],
    "game": [Target("rules/tiny-plus/game.yaml", None, VALIDATE_PLUS)],
    "spaces": [Target("rules/tiny/actions.yaml", None, VALIDATE_TINY),
               Target("rules/tiny-plus/actions.yaml", None, VALIDATE_PLUS)],
    "space": [Target("rules/tiny/actions.yaml", 0, VALIDATE_TINY),
              Target("rules/tiny/rounds.yaml", 0, VALIDATE_TINY),
              Target("rules/tiny-plus/actions.yaml", 0, VALIDATE_PLUS),    # an overlay entry that changes one
              Target("rules/tiny-plus/actions.yaml", 2, VALIDATE_PLUS)],   # an overlay entry that adds one
    "major": [Target("rules/tiny/majors.yaml", 0, VALIDATE_TINY),
              Target("rules/tiny-plus/majors.yaml", 0, VALIDATE_PLUS)],
    "card": [Target("cards/tiny/A/tiny_helper.yaml", None, VALIDATE_TINY),
             Target("cards/tiny-plus/A/tiny_digger.yaml", None, VALIDATE_PLUS)],
    "farm": [Target("farm.yaml", None, ("score", "{file}", "--pack", "tiny"))],
    "save": [Target(SAVE, None, ("replay", "{file}"))],
    "campaign": [Target(CAMPAIGN, None, ("campaign", "status", "{file}"))],
    "scenario": [Target("tiny.scenarios.yaml", None, ("validate", "{file}"))],
}


# ---------------------------------------------------------------- the walk through a schema

def _resolve_ref(sub: dict) -> dict:
    ref = sub.get("$ref")
    return schema.schema(ref.split("/")[-1].removesuffix(".json")) if ref else sub


def accepted_types(sub: dict) -> set | None:
    """The JSON types a subschema accepts; None when it accepts everything."""
    sub = _resolve_ref(sub)
    if "type" in sub:
        return set(sub["type"] if isinstance(sub["type"], list) else [sub["type"]])
    values = sub.get("enum", [sub["const"]] if "const" in sub else None)
    if values is None:
        return None
    names = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}
    return {"null" if v is None else names[type(v)] for v in values}


def wrong_values(sub: dict) -> dict:
    """A value of each type the subschema does not accept, by type name."""
    ok = accepted_types(sub)
    if ok is None:
        return {}
    skip = set(ok) | ({"integer"} if "number" in ok else set())
    if "integer" in ok:
        skip.add("integer")  # a number such as 2.5 is still wrong where a whole number is wanted
    return {name: value for name, value in WRONG.items() if name not in skip}


def walk(sub: dict, path=()):
    """(path, subschema) of every place below ``sub``; a path is a tuple of steps:
    ('key', name), ('any', None) for a value of an open mapping, ('item', None), ('prefix', i)."""
    if "$ref" in sub:
        return  # the referred schema is walked as its own kind
    unknown = set(sub) & {"anyOf", "oneOf", "allOf", "not", "if", "then", "else", "patternProperties",
                          "dependentSchemas", "contains", "unevaluatedProperties", "unevaluatedItems", "$defs"}
    assert not unknown, f"the walk does not know {sorted(unknown)} (at {_shown(path)}): teach it"
    for name, child in sub.get("properties", {}).items():
        yield path + (("key", name),), child
        yield from walk(child, path + (("key", name),))
    if isinstance(sub.get("additionalProperties"), dict):
        child = sub["additionalProperties"]
        yield path + (("any", None),), child
        yield from walk(child, path + (("any", None),))
    for i, child in enumerate(sub.get("prefixItems", ())):
        yield path + (("prefix", i),), child
        yield from walk(child, path + (("prefix", i),))
    if isinstance(sub.get("items"), dict):
        child = sub["items"]
        yield path + (("item", None),), child
        yield from walk(child, path + (("item", None),))


def _shown(path) -> str:
    return "".join(f".{k}" if s == "key" else ".*" if s == "any" else "[]" if s == "item" else f"[{k}]"
                   for s, k in path) or "(root)"


CASES = [pytest.param(kind, target, path, sub, id=f"{kind}:{target}:{_shown(path)}")
         for kind in schema.KINDS for target in TARGETS.get(kind, ())
         for path, sub in walk(schema.schema(kind)) if wrong_values(sub)]


# ---------------------------------------------------------------- the workspace

_CHANGING: set = set()  # the file a case is changing (never taken from the memo below)
_LOADED: dict = {}
_VALID: set = set()


def _memo_load(real):
    """The files a case does not change are read and checked once (they are valid, so the schema
    stage leaves their data as it is): each case costs about the reading of the file it changes."""
    def load(path, report, display=None):
        if Path(path).resolve() in _CHANGING:
            return real(path, report, display)
        key = (str(path), display, Path(path).read_bytes())
        if key not in _LOADED:
            before = len(report.diagnostics)
            data = real(path, report, display)
            if len(report.diagnostics) > before:
                return data
            _LOADED[key] = (data, key[2].decode("utf-8"))
        data, text = _LOADED[key]
        report.sources.add_text(display or str(path), text)
        report.sources.add_path(display or str(path), path)   # as the loader does: where the name's file is
        return data
    return load


def _memo_validate(real):
    def validate(data, kind, report):
        if (id(data), kind) in _VALID:
            return True
        ok = real(data, kind, report)
        if ok and any(data is d or (isinstance(d, list) and any(data is e for e in d)) for d, _ in _LOADED.values()):
            _VALID.add((id(data), kind))
        return ok
    return validate


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    import compiler.packs
    mp = pytest.MonkeyPatch()
    # the command line is parsed by the real parser, built once (building it takes longer than the check)
    mp.setattr(cli, "make_parser", functools.lru_cache(maxsize=None)(cli.make_parser))
    mp.setattr(compiler.packs, "load_yaml_file", _memo_load(compiler.packs.load_yaml_file))
    mp.setattr(schema, "validate", _memo_validate(schema.validate))
    root = tmp_path_factory.mktemp("types") / "ws"
    shutil.copytree(FIXTURE, root)
    build = root.parent / "build"
    status, _, err = run(root, build, "play", "--pack", "tiny", "--players", "2", "--seed", "1", "--json",
                         "--save", str(root / SAVE))
    assert status == 0, err
    for command in (("new", "--pack", "tiny", "--players", "2"), ("next", "--agents", "random")):
        status, _, err = run(root, build, "campaign", command[0], str(root / CAMPAIGN), *command[1:])
        assert status == 0, err
    yield root, build
    mp.undo()
    _LOADED.clear()
    _VALID.clear()


def run(root: Path, build: Path, *argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(["--root", str(root), "--build", str(build), *argv])
    return status, out.getvalue(), err.getvalue()


def _command(target: Target, root: Path) -> list:
    return [part.format(root=root, file=root / target.file) for part in target.command]


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@functools.lru_cache(maxsize=None)
def _base(raw: bytes, json_file: bool):
    return json.loads(raw) if json_file else yaml.load(raw, Loader=_LOADER)


def _read(path: Path):
    """The file's data, as plain values (a fresh copy)."""
    return copy.deepcopy(_base(path.read_bytes(), path.suffix == ".json"))


def _write(path: Path, data):
    if path.suffix == ".json":
        path.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
    else:
        path.write_text(yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _place(doc, path, sub_of, value):
    """Put ``value`` at ``path`` into ``doc`` (plain data); returns the concrete path (keys and indexes).
    An open mapping's key or a list's item is the first one under which the rest of the path exists;
    a missing last mapping or list is made empty where the schema allows it."""
    where = _resolve(doc, path, sub_of, ())
    assert where is not None, f"the base file has nothing at {_shown(path)}: give a value there in tests/fixtures/tiny"
    node = doc
    for key in where[:-1]:
        node = node[key]
    if isinstance(node, list) and where[-1] == len(node):
        node.append(value)
    else:
        node[where[-1]] = value
    return where


def _resolve(node, steps, sub_of, done):
    step, key = steps[0]
    if len(steps) == 1:
        if step == "key":
            return [key] if isinstance(node, dict) else None
        if step == "any":
            return [next(iter(node))] if isinstance(node, dict) and node else None
        if step == "item":
            return [0] if isinstance(node, list) else None
        return [key] if isinstance(node, list) and len(node) > key else None
    if step == "key":
        candidates = [key] if isinstance(node, dict) else []
        if isinstance(node, dict) and key not in node and len(steps) == 2:
            made = _empty(sub_of(done + (steps[0],)))
            if made is not None:
                node[key] = made
    elif step == "any":
        candidates = list(node) if isinstance(node, dict) else []
    elif step == "item":
        candidates = list(range(len(node))) if isinstance(node, list) else []
    else:
        candidates = [key] if isinstance(node, list) and len(node) > key else []
    for c in candidates:
        if isinstance(node, dict) and c not in node:
            continue
        rest = _resolve(node[c], steps[1:], sub_of, done + (steps[0],))
        if rest is not None:
            return [c] + rest
    return None


def _empty(sub):
    """An empty mapping or list where the schema allows one, else None."""
    sub = _resolve_ref(sub)
    types = accepted_types(sub) or set()
    if "object" in types and not sub.get("required") and not sub.get("minProperties"):
        return {}
    if "array" in types and not sub.get("minItems"):
        return []
    return None


def _expected_line(path: Path, doc_path) -> int:
    """The line of the value at ``doc_path`` in the file as written."""
    if path.suffix == ".json":
        return locate(path.read_text(encoding="utf-8"), tuple(doc_path))[0]
    node = load_yaml_file(path, Report(), str(path))
    container, key = None, None
    for key in doc_path:
        key = str(key) if isinstance(node, dict) else key  # the loader reads every key as text
        container, node = node, node[key]
    if isinstance(container, (LDict, LList)):
        return container.span_of(key).line
    return node.span.line


# ---------------------------------------------------------------- the tests

def test_every_schema_has_a_target():
    """A new schema needs a file to try it in (an entry of TARGETS)."""
    missing = [kind for kind in schema.KINDS if kind not in TARGETS]
    assert not missing, f"add the schema(s) {missing} to TARGETS in {Path(__file__).name}"
    assert len(CASES) > 150


@pytest.mark.parametrize("kind", sorted(TARGETS))
def test_the_base_files_are_valid(workspace, kind):
    root, build = workspace
    for target in TARGETS[kind]:
        status, out, err = run(root, build, *_command(target, root))
        assert status == 0, f"{target}: {err}"


@pytest.mark.parametrize("kind,target,path,sub", CASES)
def test_a_wrong_type_gives_one_located_error(workspace, kind, target, path, sub):
    root, build = workspace
    file = root / target.file
    original = file.read_bytes()
    failures = []
    _CHANGING.add(file.resolve())
    try:
        for type_name, value in wrong_values(sub).items():
            doc = _read(file)
            entry = doc if target.entry is None else doc[target.entry]

            where = _place(entry, path, dict(walk(schema.schema(kind))).get, value)
            if target.entry is not None:
                where = [target.entry] + where
            _write(file, doc)
            line = _expected_line(file, where)
            status, out, err = run(root, build, *_command(target, root))
            errors = [ln for ln in err.splitlines() if ": error[" in ln]
            problem = None
            if status != 2 or "Traceback" in err or "internal error" in err:
                problem = f"exit {status}"
            elif len(errors) != 1:
                problem = f"{len(errors)} errors"
            else:
                m = LOCATED.match(errors[0])
                if not m:
                    problem = "not located"
                elif Path(m["file"]).name != file.name or int(m["line"]) != line:
                    problem = f"located at {m['file']}:{m['line']}, not {file.name}:{line}"
            if problem:
                failures.append(f"{type_name} ({json.dumps(value)}): {problem}\n{err}")
            file.write_bytes(original)
    finally:
        file.write_bytes(original)
        _CHANGING.clear()
    assert not failures, f"{kind} {target} {_shown(path)}:\n" + "\n".join(failures)


def test_the_runtime_save_check_agrees_with_jsonschema(workspace):
    """The runtime checks saves without jsonschema (runtime/shape.py): on the valid save and on each wrong
    type of every key, it finds what the jsonschema validator finds (nothing, or one problem)."""
    from runtime.savegame import SAVE_SCHEMA
    from runtime.shape import problems
    root, _ = workspace
    base = json.loads((root / SAVE).read_text(encoding="utf-8"))
    validator = schema.validator("save")
    assert not problems(base, SAVE_SCHEMA) and not list(validator.iter_errors(base))
    subs = dict(walk(SAVE_SCHEMA))
    tried = 0
    for path, sub in walk(SAVE_SCHEMA):
        for type_name, value in wrong_values(sub).items():
            doc = copy.deepcopy(base)
            where = _place(doc, path, subs.get, value)
            found = problems(doc, SAVE_SCHEMA)
            assert len(found) == 1 and list(found[0][0]) == where, (_shown(path), type_name, found)
            assert len(list(validator.iter_errors(doc))) == 1, (_shown(path), type_name)
            tried += 1
    assert tried > 40


def test_the_runtime_check_of_the_keywords_no_runtime_schema_uses_yet():
    """runtime/shape.py checks the documented subset of JSON Schema for any schema, not only the save's:
    the type 'number', ``additionalProperties`` given as a schema, and an unknown type (which no value has).
    On these documents it finds what jsonschema finds (nothing, or one problem), in the words of the
    compiler's messages."""
    from jsonschema import Draft202012Validator

    from runtime.shape import has_type, problems, type_name
    sub = {"type": "object", "properties": {"n": {"type": "number"}},
           "additionalProperties": {"type": "integer", "minimum": 0}}
    cases = [({"n": 1.5, "a": 1}, []),
             ({"n": 2, "b": 0}, []),
             ({"n": "x"}, [(("n",), "E112", "'n' must be a number, not text")]),
             ({"n": False}, [(("n",), "E112", "'n' must be a number, not true/false")]),
             ({"a": -1}, [(("a",), "E115", "'a' must be at least 0, not -1")]),
             ({"a": 1.5}, [(("a",), "E112", "'a' must be a whole number, not a decimal number")])]
    for doc, found in cases:
        assert problems(doc, sub) == found, doc
        assert len(list(Draft202012Validator(sub).iter_errors(doc))) == len(found), doc
    assert problems(3, {"type": "decimal"}) == [((), "E112", "'value' must be decimal, not a number")]
    assert not has_type(3, "decimal") and not has_type(None, "decimal")
    assert (type_name((1, 2)), type_name(b"x")) == ("tuple", "bytes")   # not JSON values: their Python names


def test_a_path_that_is_not_in_the_json_text_is_located_at_the_nearest_enclosing_value():
    text = '{"a": [10, [20, 30]],\n "b": {"c": 1}}'
    assert locate(text, ("a", 1, 1)) == (1, 17)      # the value itself: 30
    assert locate(text, ("a", 1, 5)) == (1, 12)      # past the end of [20, 30]: that list
    assert locate(text, ("a", -1)) == (1, 7)         # no such place in [10, [20, 30]]: that list
    assert locate(text, ("b", 0)) == (2, 7)          # a list index into a mapping: the mapping
    assert locate(text, ("b", "c", "d")) == (2, 13)  # a key into a number: the number
    assert locate('[[5]]', ("x", 0)) == (1, 1)       # a key into a list: the list, whatever follows


@pytest.mark.parametrize("file", ["rules/tiny/actions.yaml", "rules/tiny/rounds.yaml", "rules/tiny/majors.yaml",
                                  "cards/tiny/A/tiny_helper.yaml"])
def test_an_unreadable_file_gives_one_error(workspace, file, monkeypatch):
    """Names the unreadable file held (spaces, tags, cards) are not reported as unknown elsewhere."""
    root, build = workspace
    monkeypatch.chdir(root)   # files print relative to the working folder
    path = root / file
    original = path.read_bytes()
    try:
        path.write_text("- id: [unclosed\n", encoding="utf-8")
        status, _, err = run(root, build, "validate", str(root / "rules" / "tiny"))
    finally:
        path.write_bytes(original)
    assert status == 2
    assert [ln for ln in err.splitlines() if ": error[" in ln] == [
        f"{file}:2:1: error[E101]: invalid YAML: expected ',' or ']', but got '<stream end>'"], err


def test_tags_true_in_a_revised_card_is_one_located_error(tmp_path, monkeypatch):
    """The report of issue 17: a card with 'tags: true' crashed the checker (exit 3)."""
    monkeypatch.chdir(tmp_path)   # files print relative to the working folder
    repo = Path(__file__).resolve().parent.parent
    shutil.copytree(repo / "rules" / "revised", tmp_path / "rules" / "revised")
    cards = (repo / "cards" / "revised" / "A").glob("*.yaml")
    original = sorted(p for p in cards if not p.name.endswith(".test.yaml"))[0]
    rel = f"cards/revised/A/{original.name}"
    lines = [ln for ln in original.read_text(encoding="utf-8").splitlines() if not ln.startswith("tags:")]
    lines.insert(2, "tags: true")
    (tmp_path / rel).parent.mkdir(parents=True)
    (tmp_path / rel).write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(["--root", str(tmp_path), "validate", str(tmp_path / "rules" / "revised")])
    assert status == 2
    assert err.getvalue() == (f"{rel}:3:7: error[E112]: 'tags' must be a list, not true/false\n"
                              "  tags: true\n        ^^^^\n1 problem found\n")


def test_a_key_missing_at_the_top_of_a_save_is_named_as_the_save_files():
    from runtime.shape import problems
    sub = {"type": "object", "required": ["version", "moves"],
           "properties": {"moves": {"type": "object", "required": ["seed"]}}}
    assert problems({"moves": {}}, sub) == [
        ((), "E111", "the save file is missing the required key 'version'"),
        (("moves",), "E111", "'moves' is missing the required key 'seed'")]
