"""The command line explains itself: --version, a description line for every subcommand, help text with
its default for every option, one spelling of the problem count, and `agricola packs [--json]`."""
from __future__ import annotations

import argparse
import io
import json
import re
import tokenize
from pathlib import Path

import pytest
import yaml

from compiler import __version__, cli

ROOT = Path(__file__).resolve().parent.parent


def _subparsers(parser, path=()):
    """(command path, parser) for the main parser and every subcommand, however deep."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _subparsers(sub, path + (name,))


def _options():
    for path, parser in _subparsers(cli.make_parser()):
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            yield path, action


def test_the_walk_reaches_every_command():
    commands = {" ".join(path) for path, _ in _subparsers(cli.make_parser())}
    assert {"", "validate", "compile", "packs", "play", "resume", "replay", "score", "test", "cards", "docs",
            "card", "card new", "coverage", "schema"} <= commands


@pytest.mark.parametrize("path,action", list(_options()),
                         ids=lambda v: " ".join(v) if isinstance(v, tuple) else (v.option_strings or [v.dest])[0])
def test_every_option_has_help_naming_its_default(path, action):
    where = f"agricola {' '.join(path)} {(action.option_strings or [action.dest])[0]}"
    assert action.help and len(action.help) > 10, f"{where} has no help text"
    if isinstance(action, argparse._VersionAction) or not action.option_strings:
        return  # positionals and --version have no default to tell
    if action.required:
        assert "required" in action.help, f"{where}: say that it is required"
        return
    assert "default" in action.help, f"{where}: the help must say what happens without it ('default: …')"
    if action.default not in (None, False, argparse.SUPPRESS, []):
        assert str(action.default) in action.help, f"{where}: the help must name the default {action.default!r}"


def test_every_subcommand_has_a_description_line():
    for path, parser in _subparsers(cli.make_parser()):
        if not path:
            continue
        assert parser.description and "\n" not in parser.description, f"agricola {' '.join(path)}"
    top = cli.make_parser().format_help()
    for name in ("validate", "compile", "packs", "play", "resume", "replay", "score", "test", "cards", "docs",
                 "card", "coverage", "schema"):
        assert re.search(rf"^\s+{name}\s+\S", top, re.M), f"'{name}' has no line in agricola --help"


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"agricola {__version__}\n"
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'version = "{__version__}"' in project


# ---------------------------------------------------------------- one spelling

def test_problem_count_is_spelled_one_way():
    from compiler.diagnostics import Report, Span
    report = Report()
    assert report.summary() == "0 problems found"
    report.error("E100", "one", Span("a.yaml", 1, 1))
    assert report.summary() == "1 problem found"
    report.error("E100", "two", Span("a.yaml", 2, 1))
    assert report.summary() == "2 problems found"


def test_compile_failure_ends_with_the_count(tmp_path, capsys):
    import shutil
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    path = tmp_path / "rules/revised/actions.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("  accumulate: 1 reed\n", "  acumulate: 1 reed\n"),
                    encoding="utf-8")
    status = cli.main(["--root", str(tmp_path), "--build", str(tmp_path / "b"), "compile", "--pack", "revised"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.endswith("1 problem found\ncompile failed: pack 'revised'\n"), err


def _string_literals(path: Path):
    text = path.read_text(encoding="utf-8")
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.STRING or getattr(tokenize, "FSTRING_MIDDLE", None) == tok.type:
            yield tok.start[0], tok.string


@pytest.mark.source_text
def test_no_message_says_s_in_brackets():
    """Real plurals everywhere: "1 begging card", "2 begging cards", never "card(s)"."""
    bad = []
    for folder in ("compiler", "runtime"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, literal in _string_literals(path):
                if re.search(r"[A-Za-z]\(s\)", literal):
                    bad.append(f"{path.relative_to(ROOT)}:{line}: {literal.strip()[:80]}")
        for path in sorted((ROOT / folder).rglob("*.j2")):
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if re.search(r"[A-Za-z]\(s\)", line):
                    bad.append(f"{path.relative_to(ROOT)}:{i}")
    assert not bad, "\n".join(bad)


def test_plural_words():
    from runtime.words import goods_words, plural
    assert plural(1, "begging card") == "1 begging card"
    assert plural(0, "begging card") == "0 begging cards"
    assert plural(4, "begging card") == "4 begging cards"
    assert plural(2, "person", "people") == "2 people"
    assert plural(3, "family member") == "3 family members"
    assert goods_words([("vegetable", 1), ("vegetable", 2), ("boar", 2)],
                       {"vegetable": ("vegetable", "vegetables"), "boar": ("wild boar", "wild boar")}) == \
        "1 vegetable, 2 vegetables, 2 wild boar"


# ---------------------------------------------------------------- agricola packs

def test_packs_json_lists_every_pack_with_exactly_these_keys(capsys):
    assert cli.main(["packs", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    ids = sorted(p.name for p in (ROOT / "rules").iterdir() if (p / "game.yaml").exists())
    assert [p["id"] for p in listed] == ids
    for entry in listed:
        assert list(entry) == ["id", "name", "extends", "min_players", "max_players", "description"]
        game = yaml.safe_load((ROOT / "rules" / entry["id"] / "game.yaml").read_text(encoding="utf-8"))
        assert entry["extends"] == game.get("extends")
        assert entry["description"] == game["description"], f"{entry['id']} needs a description in game.yaml"
        assert entry["description"] and "\n" not in entry["description"]
    family = next(p for p in listed if p["id"] == "revised-family")
    assert (family["extends"], family["min_players"], family["max_players"]) == ("revised", 1, 4)
    assert family["name"] == "Agricola (revised edition), family game without hand cards"


def test_packs_table(capsys):
    assert cli.main(["packs"]) == 0
    out = capsys.readouterr().out
    assert "revised-family: Agricola (revised edition), family game without hand cards (1–4 players, extends revised)\n" \
           "    The revised edition without hand cards; the Meeting Place collects food and the Side Job joins the board.\n" \
           in out
    assert out.startswith("family-2012: Agricola Family Edition (2012) (1–4 players)\n"
                          "    The 2012 Family Edition for 1 to 4 players")   # by id
    assert "\noriginal: Agricola (original edition, 2007) (1–5 players)\n" in out
    assert "\nrevised: Agricola (revised edition) (1–4 players)\n" in out


def _variant_root(tmp_path, game_yaml: str) -> Path:
    import shutil
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    (tmp_path / "rules/mine").mkdir()
    (tmp_path / "rules/mine/game.yaml").write_text(game_yaml, encoding="utf-8")
    return tmp_path


def test_a_variant_without_description_does_not_inherit_its_base_one(tmp_path, capsys):
    root = _variant_root(tmp_path, "extends: revised\nid: mine\nname: Mine\nplayers: {min: 2, max: 3}\n")
    assert cli.main(["--root", str(root), "packs", "--json"]) == 0
    mine = next(p for p in json.loads(capsys.readouterr().out) if p["id"] == "mine")
    assert mine == {"id": "mine", "name": "Mine", "extends": "revised", "min_players": 2, "max_players": 3,
                    "description": ""}


def test_packs_reports_a_broken_pack_and_lists_the_others(tmp_path, capsys, monkeypatch):
    root = _variant_root(tmp_path, "extends: revised\nid: mine\nname: Mine\ndescription: [a, list]\n")
    monkeypatch.chdir(root)   # files print relative to the working folder
    assert cli.main(["--root", str(root), "packs"]) == 2
    out, err = capsys.readouterr()
    assert out.startswith("family-2012: ") and "\noriginal: " in out and "\nrevised: " in out and "mine" not in out
    assert err.startswith("rules/mine/game.yaml:4:14: error") and err.endswith("1 problem found\n"), err


def test_a_description_is_one_line(tmp_path, capsys):
    root = _variant_root(tmp_path, "extends: revised\nid: mine\nname: Mine\ndescription: \"two\\nlines\"\n")
    assert cli.main(["--root", str(root), "validate", str(root / "rules/mine")]) == 2
    err = capsys.readouterr().err
    assert "a pack's description is one line of at most 200 characters" in err, err


def test_the_command_named_on_the_line_is_the_only_parser_built():
    full = cli.make_parser()
    [commands] = [a for a in full._actions if isinstance(a, argparse._SubParsersAction)]
    assert tuple(commands.choices) == cli.COMMANDS
    for name in cli.COMMANDS:
        alone = cli.make_parser(name)
        assert [" ".join(path) for path, _ in _subparsers(alone)][:2] == ["", name]
        assert {" ".join(p) for p, _ in _subparsers(alone)} == {" ".join(p) for p, _ in _subparsers(full)
                                                                if not p or p[0] == name}
        for (path, mine), (_, theirs) in zip(_subparsers(alone), (x for x in _subparsers(full) if not x[0] or x[0][0] == name)):
            assert mine.format_usage() == theirs.format_usage(), " ".join(path)
            if path:  # the main parser's help (listing every command) is printed only by the full parser
                assert mine.format_help() == theirs.format_help(), " ".join(path)
    for argv, named in ((["play", "--json"], "play"), (["--root", "x", "--build", "y", "play"], "play"),
                        (["--build=y", "card", "new"], "card"), (["--version"], None), (["--bogus", "play"], None),
                        (["plya"], None), ([], None), (["--root"], None), (["--root", "play"], None)):
        assert cli.command_named(argv) == named, argv


def test_the_help_width_is_the_terminals_as_argparse_finds_it(monkeypatch):
    import shutil
    for columns in ("50", "0", "abc", None):
        if columns is None:
            monkeypatch.delenv("COLUMNS", raising=False)
        else:
            monkeypatch.setenv("COLUMNS", columns)
        assert cli._terminal_columns() == shutil.get_terminal_size().columns
