"""Hostile files are harmless: each compiles into safe code or is rejected with a located diagnostic,
within the documented limits of size, depth and time (docs/limits.md), and nothing in a file is ever run.

The corpus is in ``tests/hostile/`` (see its README): ``accept/`` holds odd but valid cards, ``reject/``
files that must be refused with the code named on their first line. Cases too big to keep (10,000-deep
nesting, a 50 MB file, …) and hostile file names are made here, in temporary folders.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import re
import shutil
import time
from pathlib import Path

import pytest

from compiler.build import Compiler
from compiler.loader import MAX_NODES
from compiler import cli

REPO = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).resolve().parent / "hostile"
ACCEPT = sorted((HOSTILE / "accept").glob("*.yaml"))
REJECT = sorted((HOSTILE / "reject").glob("*.yaml"))
LOCATED = re.compile(r"^(?P<file>\S.*?):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>E\d+)\]: \S")
# Each case, compile or reject, costs at most this much CPU time (docs/limits.md). The bound is on the
# CPU time of this process (time.process_time), not on the wall clock: on a shared, loaded machine a test
# waits for a core as long as the other processes make it wait, which says nothing about the work a file
# costs (the file of just under 50,000 values took 1.6 s of CPU and 5.5 s of wall time under a load of 7).
# CPU time counts only the work done here, so the bound still catches what it is for, a blow-up of the
# work with the size of the input (quadratic in 50,000 values would take minutes, exponential forever),
# and does not fail because the machine is busy.
SECONDS = 5.0

# Code that writes the file named by $AGRICOLA_PWNED when run (no '/' in it, so it also fits in a file name).
PWN = "open(__import__('os').environ['AGRICOLA_PWNED'],'w').write('1')"
PAYLOADS = {
    "pwn_quote": f"x'); {PWN}; ('",
    "pwn_dquote": f'x"); {PWN}; ("',
    "pwn_triple": f'"""; {PWN}; """',
    "pwn_triple1": f"'''; {PWN}; '''",
    "pwn_newline": f"x\n{PWN}\n#",
    "pwn_format": "{0.__class__} %s {{ lipsum.__globals__ }} {% raw %}",
}


def _yaml_str(text: str) -> str:
    """A double-quoted YAML scalar for any text."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _payload_cards() -> dict:
    """Cards whose name, edition, comments and effect comments are code; one with a hostile file name."""
    cards = {}
    for i, (cid, payload) in enumerate(PAYLOADS.items()):
        kind = "minor" if i % 2 else "occupation"
        cards[f"{cid}.yaml"] = (
            f"# {payload.replace(chr(10), ' ')}\n"
            f"id: {cid}\nname: {_yaml_str(payload[:80])}\nkind: {kind}\ndeck: X\n"
            + ("cost: 1 wood\n" if kind == "minor" else "players: 1+\n")
            + f"edition: {_yaml_str(payload[:32])}\n"
            "effects: |\n"
            f"  # {payload.splitlines()[0]}\n"
            f"  on play: gain 1 food   # {payload.replace(chr(10), ' ')}\n"
            "  after you build improvement: may pay 1 food to gain 1 grain\n")
    # a file name that ends a comment and starts code; the card has no handler functions (no effects),
    # so that the file name would only appear in the module's first comment
    cards[f"evil\n{PWN}\n#.yaml"] = "id: pwn_file_name\nname: Plain\nkind: minor\ndeck: X\ncost: 1 wood\n"
    cards[f"evil\"\"\"{PWN}'''.yaml"] = ("id: pwn_file_name2\nname: Plain 2\nkind: minor\ndeck: X\ncost: 1 wood\n"
                                         "effects: 'on play: gain 1 food'\n")
    return cards


def make_hostile_root(tmp: Path) -> Path:
    """A workspace holding the pack ``hostile``: the revised rules plus every hostile card that is valid."""
    rules = tmp / "rules" / "hostile"
    shutil.copytree(REPO / "rules" / "revised", rules)
    game = (rules / "game.yaml").read_text(encoding="utf-8")
    assert game.count("\nid: revised\n") == 1
    (rules / "game.yaml").write_text(game.replace("\nid: revised\n", "\nid: hostile\n"), encoding="utf-8")
    deck = tmp / "cards" / "hostile" / "X"
    deck.mkdir(parents=True)
    for f in ACCEPT:
        shutil.copy(f, deck / f.name)
    for name, text in _payload_cards().items():
        (deck / name).write_text(text, encoding="utf-8")
    return tmp


def run_cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def pwned(tmp_path, monkeypatch):
    """$AGRICOLA_PWNED names a file that any executed payload would create; it must never exist."""
    marker = tmp_path / "pwned-marker"
    monkeypatch.setenv("AGRICOLA_PWNED", str(marker))
    tmp_pwned = Path("/tmp/pwned")
    before = tmp_pwned.exists() and tmp_pwned.stat().st_mtime
    yield marker
    assert not marker.exists(), "a string from a card file was executed"
    after = tmp_pwned.exists() and tmp_pwned.stat().st_mtime
    assert after == before, "/tmp/pwned was created or touched"


# ---------------------------------------------------------------- accepted: compiles into safe code

def test_hostile_pack_compiles(tmp_path, pwned):
    root = make_hostile_root(tmp_path / "ws")
    t0 = time.process_time()
    result = Compiler(root, tmp_path / "build").compile("hostile")
    assert result.ok, result.report.render()
    assert time.process_time() - t0 < 4 * SECONDS
    status, out, err = run_cli("--root", root, "--build", tmp_path / "build2", "compile", "--pack", "hostile")
    assert status == 0, err
    status, out, err = run_cli("--root", root, "validate", root / "cards" / "hostile")
    assert status == 0, err


def test_no_string_from_a_card_is_ever_executed(tmp_path, pwned):
    """Compile the pack, import it, deal and play every hostile card in a game, print their texts."""
    from compiler import english
    from runtime.agents import RandomAgent
    from runtime.engine import Game
    from runtime.pack import load_pack
    from runtime.report import score_table

    root = make_hostile_root(tmp_path / "ws")
    build = tmp_path / "build"
    comp = Compiler(root, build)
    result = comp.compile("hostile")
    assert result.ok, result.report.render()
    pack = load_pack("hostile", build)
    hostile_ids = sorted({"pwn_file_name", "pwn_file_name2", "class", "def", "quotes", "newline_name",
                          "non_ascii", "big_numbers", "format_strings"} | set(PAYLOADS))
    assert set(hostile_ids) <= set(pack.cards)
    assert pack.cards["quotes"].name.startswith("x'); __import__('os')")
    assert pack.cards["pwn_newline"].name == PAYLOADS["pwn_newline"]
    for seed in (1, 2):
        agents = [RandomAgent(f"{seed}:{i}") for i in range(2)]
        game = Game(pack, 2, seed=seed, agents=agents, log=True)
        for p in game.players:
            p.hand_minors = [c for c in hostile_ids if pack.cards[c].kind == "minor"] + list(p.hand_minors)
            p.hand_occupations = [c for c in hostile_ids if pack.cards[c].kind == "occupation"] + \
                list(p.hand_occupations)
        played = game.players[0]
        for cid in hostile_ids[: len(hostile_ids) // 2 + seed]:   # some in play, the others in hand
            if pack.cards[cid].kind == "minor":
                played.minors.append(cid)
            else:
                played.occupations.append(cid)
            game.acquire_card(played, pack.cards[cid])
        game.play()
        assert game.finished or game.scores is not None
        text = "\n".join(game.log) + score_table(game)
        assert text
    src, checked, report = comp.check("hostile")
    assert not report, report.render()
    eng = english.for_pack(checked)
    for unit in checked.cards:
        lines = english.card_lines(eng, unit)
        assert isinstance(lines, list)
    status, out, err = run_cli("--root", root, "--build", build, "cards", "show", *hostile_ids, "--pack", "hostile")
    assert status == 0, err
    assert "x'); __import__('os')" in out
    assert not pwned.exists()


# ---------------------------------------------------------------- rejected with a located diagnostic

def _card_root(tmp: Path, name: str, data: bytes) -> tuple[Path, Path]:
    root = tmp / "ws"
    shutil.copytree(REPO / "rules" / "revised", root / "rules" / "revised")
    deck = root / "cards" / "revised" / "X"
    deck.mkdir(parents=True)
    path = deck / name
    path.write_bytes(data)
    return root, path


def _files(root: Path) -> dict:
    """Every file under ``root`` with its digest (a refused file changes nothing on disk)."""
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.is_symlink()}


def _assert_rejected(root: Path, path: Path, codes: set, tmp: Path, compile_too: bool = False):
    """The file is refused with ``codes``, each diagnostic located, within the CPU-time bounds; ``agricola
    validate`` (and ``compile`` with ``compile_too``) exits 2 without a traceback; no file changes."""
    before = _files(tmp)   # the workspace and the build folder
    report = _rejected(root, path, codes, tmp, compile_too)
    assert _files(tmp) == before, "a refused file changed files on disk"
    return report


def _rejected(root: Path, path: Path, codes: set, tmp: Path, compile_too: bool):
    t0 = time.process_time()
    _, checked, report = Compiler(root, tmp / "build").check("revised")
    elapsed = time.process_time() - t0
    found = {d.code for d in report.diagnostics}
    assert codes <= found, report.render()[:3000]
    for d in report.diagnostics:
        assert d.span.line >= 1 and d.span.col >= 1, d.format()
        assert (root / d.span.file).is_file(), d.format()
    assert elapsed < SECONDS, f"took {elapsed:.1f} s of CPU time"
    t0 = time.process_time()
    status, out, err = run_cli("--root", root, "validate", path)
    assert status == 2, (status, err[:2000])
    assert "internal error" not in err and "Traceback" not in err, err[:2000]
    diagnostics = [ln for ln in err.splitlines() if ": error[" in ln]
    assert diagnostics and all(LOCATED.match(ln) for ln in diagnostics), err[:2000]
    assert codes <= {LOCATED.match(ln)["code"] for ln in diagnostics}
    if compile_too:
        status, out, err = run_cli("--root", root, "--build", tmp / "build", "compile", "--pack", "revised")
        assert status == 2 and "internal error" not in err, err[:2000]
    assert time.process_time() - t0 < 2 * SECONDS
    return report


@pytest.mark.parametrize("path", REJECT, ids=[p.stem for p in REJECT])
def test_corpus_file_is_rejected(path, tmp_path, pwned):
    expect = re.match(r"# expect: (.+)", path.read_text(encoding="utf-8"))
    assert expect, f"{path.name}: the first line must say '# expect: CODE'"
    root, card = _card_root(tmp_path, path.name, path.read_bytes())
    _assert_rejected(root, card, set(expect[1].split()), tmp_path, compile_too=True)


CARD_HEAD = b"id: generated\nname: Generated\nkind: minor\ndeck: X\n"


def _generated_cases():
    return {
        # 10,000-deep nesting in flow style and 1,000-deep in block style
        "deep_flow_10000": (CARD_HEAD + b"effects: " + b"[" * 10_000 + b"]" * 10_000 + b"\n", {"E103"}),
        "deep_mapping_10000": (CARD_HEAD + b"tags: " + b"{a: " * 10_000 + b"1" + b"}" * 10_000 + b"\n", {"E103"}),
        "deep_block_1000": (CARD_HEAD + b"tags:\n" + b"".join(b" " * (i + 1) + b"-\n" for i in range(1000)),
                            {"E103"}),
        "deep_100": (CARD_HEAD + b"tags: " + b"[" * 100 + b"]" * 100 + b"\n", {"E103"}),
        # recursive alias: an anchor inside itself
        "recursive_alias": (CARD_HEAD + b"tags: &a [x, *a]\n", {"E103"}),
        # a file under the size limit with too many values (no aliases)
        "many_values": (CARD_HEAD + b"tags: [" + b"a," * 900_000 + b"a]\n", {"E104"}),
        "just_under_the_node_limit": (CARD_HEAD + b"tags: [" + b"a," * (MAX_NODES - 20) + b"a]\n", {"E116"}),
        "just_over_the_node_limit": (CARD_HEAD + b"tags: [" + b"a," * MAX_NODES + b"a]\n", {"E104"}),
        # 10 ** 13 values from 13 short lines
        "alias_bomb_small_file": (CARD_HEAD + b"x: &a0 [1,1,1,1,1,1,1,1,1,1]\n"
                                  + b"".join(b"x%d: &a%d [" % (i, i) + b",".join([b"*a%d" % (i - 1)] * 10) + b"]\n"
                                             for i in range(1, 13)), {"E104"}),
        # effect text over the length limit
        "long_effect": (CARD_HEAD + b"effects: '" + b"on play: gain 1 food; " * 1000 + b"'\n", {"E116"}),
        # a 100,000-digit number
        "number_100000_digits": (CARD_HEAD + b"number: " + b"7" * 100_000 + b"\n", {"E107"}),
        "effect_number_1000_digits": (CARD_HEAD + b"effects: 'on play: gain " + b"7" * 1000 + b" food'\n",
                                      {"E107"}),
        # not text
        "invalid_utf8": (CARD_HEAD + b"effects: '\xff\xfe on play'\n", {"E109"}),
        "nul_byte": (CARD_HEAD + b"effects: 'on play: gain 1 food\x00'\n", {"E109"}),
        "random_bytes": (bytes(range(256)) * 4, {"E109"}),
        "utf16": ("id: utf16\nname: UTF 16\nkind: minor\n".encode("utf-16"), {"E109"}),
        # only comments, or nothing at all
        "empty": (b"", {"E112"}),
        "comments_only": (b"# __import__('os').system('touch /tmp/pwned')\n", {"E112"}),
    }


GENERATED = _generated_cases()


@pytest.mark.parametrize("case", sorted(GENERATED))
def test_generated_file_is_rejected(case, tmp_path, pwned):
    data, codes = GENERATED[case]
    root, card = _card_root(tmp_path, f"{case}.yaml", data)
    _assert_rejected(root, card, codes, tmp_path)


def test_50_mb_file_is_rejected_quickly(tmp_path, pwned):
    from compiler.loader import MAX_FILE_BYTES
    root, card = _card_root(tmp_path, "huge.yaml", b"")
    with card.open("wb") as f:
        f.write(CARD_HEAD)
        f.write(b"effects: '")
        chunk = b"on play: gain 1 food; " * 4096
        while f.tell() < 50 * 1024 * 1024:
            f.write(chunk)
        f.write(b"'\n")
    assert card.stat().st_size > MAX_FILE_BYTES
    report = _assert_rejected(root, card, {"E108"}, tmp_path)
    assert any(d.span.line == 1 for d in report.diagnostics if d.code == "E108")


@pytest.mark.parametrize("rule_file", ["game.yaml", "actions.yaml", "majors.yaml"])
def test_hostile_rule_files(rule_file, tmp_path, pwned):
    """The same protections hold for rule files: Python tags and alias bombs in them are refused."""
    root = tmp_path / "ws"
    shutil.copytree(REPO / "rules" / "revised", root / "rules" / "revised")
    path = root / "rules" / "revised" / rule_file
    for bad, code in ((b"\nx: !!python/object/apply:os.system ['touch /tmp/pwned']\n", "E102"),
                      ((HOSTILE / "reject" / "alias_bomb.yaml").read_bytes(), "E104")):
        path.write_bytes(bad)
        _assert_rejected(root, path, {code}, tmp_path)
