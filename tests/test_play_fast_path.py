"""`agricola play` with a current build loads it without the compiler's pipeline (compiler/stamp.py);
a build that is stale in any way (a card edited, added or removed, a rule file changed, another
compiler) is compiled first, as before."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.build import Compiler
from compiler.stamp import is_current
from runtime.pack import build_dir_for

REPO = Path(__file__).resolve().parent.parent
PIPELINE = ("lark", "jinja2", "jsonschema", "compiler.checker", "compiler.parser", "compiler.codegen",
            "compiler.build", "compiler.schema", "compiler.loader", "compiler.packs")

PLAY = r"""
import json, sys
from compiler.cli import main
status = main(sys.argv[1:])
print(json.dumps({"status": status,
                  "pipeline": sorted(m for m in sys.modules if m in %r or m.split(".")[0] in %r)}), file=sys.stderr)
""" % (PIPELINE, PIPELINE)


def _play(root: Path, build: Path, *extra):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "AGRICOLA_HOME")}
    env["PYTHONPATH"] = str(REPO)
    out = subprocess.run([sys.executable, "-c", PLAY, "--root", str(root), "--build", str(build), "play", "--json",
                          "--pack", "revised", "--players", "2", "--seed", "1", *extra],
                         capture_output=True, text=True, env=env, timeout=300)
    info = json.loads(out.stderr.strip().splitlines()[-1])
    assert info["status"] == 0, out.stderr
    return json.loads(out.stdout), info["pipeline"]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("ws")
    shutil.copytree(REPO / "rules", root / "rules")
    shutil.copytree(REPO / "cards", root / "cards")
    return root


def test_a_current_build_is_played_without_the_pipeline(workspace, tmp_path):
    build = tmp_path / "build"
    first, imported = _play(workspace, build)           # nothing compiled yet: compiles
    assert "compiler.checker" in imported and "lark" in imported
    assert is_current(workspace, build_dir_for("revised", build))
    again, imported = _play(workspace, build)
    assert imported == []
    assert again == first


def test_any_change_of_the_sources_makes_the_build_stale(workspace, tmp_path):
    build = tmp_path / "build"
    comp = Compiler(workspace, build)
    assert comp.compile("revised-family").ok
    out = build_dir_for("revised-family", build)
    assert is_current(workspace, out)
    card = sorted(p for p in (workspace / "cards" / "revised").glob("*/*.yaml") if not p.name.endswith(".test.yaml"))[0]
    scenario = card.with_name(card.stem + ".test.yaml")
    scenario.write_text(scenario.read_text() + "\n# a scenario file is not compiled\n")
    assert is_current(workspace, out)
    rule = workspace / "rules" / "revised" / "actions.yaml"
    overlay = workspace / "rules" / "revised-family" / "game.yaml"
    extra = card.parent / "zz_new_card.yaml"
    for change, undo in (
            (lambda: card.write_text(card.read_text() + "\n# edited\n"), None),
            (lambda: rule.write_text(rule.read_text() + "\n"), None),
            (lambda: overlay.write_text(overlay.read_text() + "\n"), None),
            (lambda: extra.write_text(card.read_text()), lambda: extra.unlink()),
            (lambda: card.rename(card.with_suffix(".bak")), lambda: card.with_suffix(".bak").rename(card))):
        before = {p: p.read_bytes() for p in (card, rule, overlay)}
        change()
        assert not is_current(workspace, out)
        if undo:
            undo()
        for p, data in before.items():
            p.write_bytes(data)
        assert is_current(workspace, out)
    (out / "manifest.json").write_text("{not json")
    assert not is_current(workspace, out)
    assert comp.compile("revised-family").ok and is_current(workspace, out)


def test_the_stamp_matches_the_compilers_content_hash(revised, family, build_root):
    for pack in (revised, family):
        assert is_current(REPO, build_dir_for(pack.id, build_root))
        manifest = json.loads((build_dir_for(pack.id, build_root) / "manifest.json").read_text())
        assert manifest["content_hash"] == pack.content_hash


def test_the_stamp_module_imports_only_the_standard_library_and_the_runtime():
    from test_layers import imports_of
    stdlib = set(sys.stdlib_module_names)
    found = [(line, level, m) for line, level, m in imports_of(REPO / "compiler" / "stamp.py")
             if not (m.split(".")[0] in stdlib | {"runtime"} or (level == 1 and m in ("", "__init__")))]
    assert found == []


def _count_reads(monkeypatch):
    """Count the files compiler/stamp.py reads (the digests it computes rather than remembers)."""
    from compiler import stamp
    reads = []
    real = stamp.digest

    def counting(path):
        reads.append(str(path))
        return real(path)
    monkeypatch.setattr(stamp, "digest", counting)
    return reads


def _same_size_edit(path: Path, keep_mtime: bool) -> None:
    """Change one byte of ``path`` (its size stays); with ``keep_mtime``, set its modification time back."""
    st = os.stat(path)
    data = bytearray(path.read_bytes())
    data[-1:] = b"\n" if data[-1:] != b"\n" else b" "
    path.write_bytes(bytes(data))
    if keep_mtime:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(path).st_size == st.st_size


def test_settled_files_are_not_read_again_and_every_change_is_seen(workspace, tmp_path, monkeypatch):
    from compiler import stamp
    build = tmp_path / "build"
    assert Compiler(workspace, build).compile("revised-family").ok
    out = build_dir_for("revised-family", build)
    monkeypatch.setattr(stamp, "SETTLED_NS", 0)  # every file written before the check counts as settled
    assert is_current(workspace, out) and (out / stamp.DIGESTS_FILE).exists()
    reads = _count_reads(monkeypatch)
    assert is_current(workspace, out)
    assert reads == []
    card = sorted(p for p in (workspace / "cards" / "revised").glob("*/*.yaml") if not p.name.endswith(".test.yaml"))[0]
    original = card.read_bytes()
    _same_size_edit(card, keep_mtime=True)  # same size, same modification time: the change time differs
    assert not is_current(workspace, out)
    assert reads == [str(card.resolve())]
    card.write_bytes(original)
    assert is_current(workspace, out)


def test_a_file_changed_within_the_same_second_is_read_every_time(workspace, tmp_path, monkeypatch):
    from compiler import stamp
    build = tmp_path / "build"
    assert Compiler(workspace, build).compile("revised-family").ok
    out = build_dir_for("revised-family", build)
    card = sorted(p for p in (workspace / "cards" / "revised").glob("*/*.yaml") if not p.name.endswith(".test.yaml"))[1]
    original = card.read_bytes()
    try:
        _same_size_edit(card, keep_mtime=False)
        _same_size_edit(card, keep_mtime=False)   # back to the first bytes: the build is current again
        assert card.read_bytes() == original
        assert is_current(workspace, out)
        remembered = json.loads((out / stamp.DIGESTS_FILE).read_text())
        assert str(card.resolve()) not in remembered   # too recent to be remembered
        reads = _count_reads(monkeypatch)
        _same_size_edit(card, keep_mtime=True)    # within the same second as the check, same size
        assert not is_current(workspace, out)
        assert str(card.resolve()) in reads
    finally:
        card.write_bytes(original)
    assert is_current(workspace, out)


def test_an_unreadable_digests_file_is_only_a_slower_check(workspace, tmp_path, monkeypatch):
    from compiler import stamp
    build = tmp_path / "build"
    assert Compiler(workspace, build).compile("revised-family").ok
    out = build_dir_for("revised-family", build)
    monkeypatch.setattr(stamp, "SETTLED_NS", 0)
    for garbage in ("{not json", "[1, 2]", '{"x": 3}'):
        (out / stamp.DIGESTS_FILE).write_text(garbage)
        assert is_current(workspace, out)
        assert isinstance(json.loads((out / stamp.DIGESTS_FILE).read_text()), dict)
    # a remembered digest for a file whose size differs is not used
    remembered = json.loads((out / stamp.DIGESTS_FILE).read_text())
    path, entry = sorted(remembered.items())[0]
    remembered[path] = [entry[0] + 1] + entry[1:4] + ["0" * 64]
    (out / stamp.DIGESTS_FILE).write_text(json.dumps(remembered))
    assert is_current(workspace, out)
