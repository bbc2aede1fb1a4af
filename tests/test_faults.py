"""Bad input and faults (issue 8): every refused input is a located error with exit status 2, never a
traceback or an 'internal error', and a refused input changes nothing on disk (a snapshot of the files
before and after is compared). Saves, farm files, command-line values, non-regular files, full disks,
file permissions and leftovers of killed runs."""
from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

from compiler import cli
from runtime import fileio

REPO = Path(__file__).resolve().parent.parent
BIG = "7" * 5000


def run_cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main([str(a) for a in argv])
        except SystemExit as exc:  # argparse's own errors
            status = exc.code
    return status, out.getvalue(), err.getvalue()


def snapshot(*roots) -> dict:
    """Every entry under the roots: its kind and mode, and a file's bytes or a link's target."""
    seen = {}
    for root in roots:
        root = Path(root)
        for folder, dirs, files in os.walk(root, followlinks=False):
            for name in dirs + files:
                path = Path(folder) / name
                st = os.lstat(path)
                if stat.S_ISLNK(st.st_mode):
                    seen[str(path)] = ("link", os.readlink(path))
                elif stat.S_ISREG(st.st_mode):
                    seen[str(path)] = ("file", stat.S_IMODE(st.st_mode), path.read_bytes())
                else:
                    seen[str(path)] = ("other", st.st_mode)
    return seen


def assert_refused(status, err, where: str, words: str | None = None):
    """Exit 2, no traceback, and the first message names the place of the problem."""
    assert status == 2, (status, err[:2000])
    assert "Traceback" not in err and "internal error" not in err, err[:2000]
    assert err.strip(), "a refusal says why"
    assert where in err.splitlines()[0] or where in err, err[:2000]
    if words is not None:
        assert words in err, err[:2000]
    assert len(err) < 20_000, "a huge value is not echoed in full"


# ---------------------------------------------------------------- saves

@pytest.fixture(scope="module")
def finished_save(tmp_path_factory) -> dict:
    """The save of a finished 2-player game of the default play pack between random agents (91 decisions
    with seed 3)."""
    path = tmp_path_factory.mktemp("save") / "game.json"
    status, out, err = run_cli("play", "--players", "2", "--seed", "3", "--agents", "random", "--json", "--save", path)
    assert status == 0, err
    return json.loads(path.read_text())


def _unfinished(doc, **changes):
    return dict(doc, finished=False, final=None, **changes)


def _edited_decision_29(doc):
    decisions = [list(d) for d in doc["decisions"]]
    decisions[28][2] = 99
    return json.dumps(_unfinished(doc, decisions=decisions), sort_keys=True)


def _after_the_end(doc):
    return json.dumps(dict(doc, decisions=doc["decisions"] + [doc["decisions"][-1]]), sort_keys=True)


def _replace(doc, old, new):
    text = json.dumps(_unfinished(doc, decisions=doc["decisions"][:20]), sort_keys=True)
    assert old in text
    return text.replace(old, new, 1)


SAVE_CASES = {
    "decision_29_edited": (_edited_decision_29, "decision 29 (next) was 99, which is not a legal option here"),
    "decisions_after_the_end": (_after_the_end, "the save has 1 decision after the end of the game; "
                                                "it is left as it was"),
    "nested_100000_deep": (lambda d: "[" * 100_000 + "]" * 100_000,
                           "the save file is damaged (its values are nested too deeply)"),
    "seed_of_5000_digits": (lambda d: _replace(d, '"seed": 3', f'"seed": {BIG}'),
                            "the save file is damaged (a number of 5000 digits; a save holds whole numbers of "
                            "at most 18 digits)"),
    "option_of_5000_digits": (lambda d: _replace(d, '"decisions": [[1, ', f'"decisions": [[{BIG}, '),
                              "a number of 5000 digits"),
    "seed_nan": (lambda d: _replace(d, '"seed": 3', '"seed": NaN'), "NaN is not a number a save can hold"),
    "not_utf8": (lambda d: _replace(d, '"seed": 3', '"seed": "\udcff"').encode("utf-8", "surrogateescape"),
                 "the save file is damaged (it is not UTF-8 text)"),
    "five_players": (lambda d: _replace(d, '"players": 2', '"players": 5').replace(
        '"agents": [', '"agents": [{"kind": "random"}, {"kind": "random"}, {"kind": "random"}, '),
        "the save is a game of 5 players; pack 'revised-family' is for 1 to 4"),
    "no_players": (lambda d: _replace(d, '"players": 2', '"players": 0'),
                   "error[E115]: 'players' must be at least 1, not 0"),
    "unknown_agent": (lambda d: _replace(d, '"kind": "random"', '"kind": "human"'),
                      "error[E113]: 'human' is not allowed for 'kind' (use one of: random, greedy, search, open)"),
    "agent_seed_mapping": (lambda d: _replace(d, '"seed": "3:0"', '"seed": {"a": 1}'),
                           "error[E112]: 'seed' must be text or a whole number, not a mapping"),
    "empty": (lambda d: "", "the save file is damaged or cut short (not valid JSON"),
    "option_nested_900_deep": (lambda d: _replace(d, '"decisions": [[1, "place", "forest"]',
                                                  '"decisions": [[1, "place", ' + "[" * 900 + "]" * 900 + "]"),
                               "error[E162]: the save file is damaged (decision 1 is malformed): its option nests "
                               "more than 16 lists deep"),
    "kind_of_100000_characters": (lambda d: _replace(d, '"decisions": [[1, "place"',
                                                     '"decisions": [[1, "' + "x" * 100_000 + '"'),
                                  "error[E116]: 'decisions[0][1]' is too long (at most 64 characters)"),
}


@pytest.mark.parametrize("case", sorted(SAVE_CASES))
def test_a_refused_save_is_left_byte_for_byte(case, finished_save, tmp_path):
    make, words = SAVE_CASES[case]
    data = make(finished_save)
    path = tmp_path / "bad.json"
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    before = snapshot(tmp_path)
    status, out, err = run_cli("resume", path)
    assert_refused(status, err, str(path), words)
    assert snapshot(tmp_path) == before
    if case in ("decisions_after_the_end", "nested_100000_deep", "seed_of_5000_digits"):
        status, out, err = run_cli("replay", path)
        assert_refused(status, err, str(path))
        assert snapshot(tmp_path) == before


def test_the_edited_save_keeps_all_its_decisions(finished_save, tmp_path):
    """The report: edit decision 29 of a 91-decision save, resume refuses it, and the file kept 29."""
    assert len(finished_save["decisions"]) == 91
    path = tmp_path / "game.json"
    path.write_text(_edited_decision_29(finished_save))
    status, out, err = run_cli("resume", path)
    assert status == 2
    assert len(json.loads(path.read_text())["decisions"]) == 91


def _special_files(tmp_path) -> dict:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    return {"fifo": (fifo, "not a regular file (it is a named pipe)"),
            "folder": (folder, "not a regular file (it is a folder)"),
            "device": (Path("/dev/zero"), "not a regular file (it is a device)"),
            "link_to_device": (link, "not a regular file (it is a device)")}


@pytest.mark.parametrize("kind", ["fifo", "folder", "device", "link_to_device"])
@pytest.mark.parametrize("command", ["validate", "score", "resume", "replay", "test"])
def test_non_regular_files_are_refused_at_once(command, kind, tmp_path):
    """/dev/zero, a named pipe, a folder and a link to a device are refused without reading them
    (reading /dev/zero or a pipe would never end)."""
    path, words = _special_files(tmp_path)[kind]
    if kind == "folder" and command in ("validate", "test"):
        # these commands read the files in a folder they are given: this one has none
        words = {"validate": "no YAML file in this folder", "test": "no scenario file (*.yaml) in this folder"}[command]
    before = snapshot(tmp_path)
    status, out, err = run_cli(command, path)
    assert status == 2, err
    assert "Traceback" not in err and "internal error" not in err, err
    assert str(path) in err and words in err, err
    assert snapshot(tmp_path) == before


SAVE_TARGETS = {
    "folder": (lambda t: (t / "dir").mkdir(), "dir", "is a folder, not a save file; nothing written"),
    "symlink": (lambda t: ((t / "real.json").write_text("{}"), (t / "link.json").symlink_to(t / "real.json")),
                "link.json", "is a symbolic link; a save does not replace it"),
    "symlink_to_device": (lambda t: (t / "null.json").symlink_to("/dev/null"), "null.json",
                          "is a symbolic link; a save does not replace it"),
    "not_a_save": (lambda t: (t / "notes.txt").write_text("my notes\n"), "notes.txt",
                   "the file exists and is not an agricola save; it is not replaced"),
    "json_not_a_save": (lambda t: (t / "data.json").write_text('{"a": 1}'), "data.json",
                        "the file exists and is not an agricola save; it is not replaced"),
    "under_a_file": (lambda t: (t / "file").write_text("x"), "file/game.json", "cannot write the save there"),
}


@pytest.mark.parametrize("case", sorted(SAVE_TARGETS))
def test_play_save_does_not_replace_what_is_not_a_save(case, tmp_path):
    make, name, words = SAVE_TARGETS[case]
    make(tmp_path)
    before = snapshot(tmp_path)
    status, out, err = run_cli("play", "--players", "2", "--seed", "1", "--save", tmp_path / name)
    assert_refused(status, err, str(tmp_path / name), words)
    assert snapshot(tmp_path) == before


def test_play_save_onto_a_device_is_refused():
    status, out, err = run_cli("play", "--players", "2", "--save", "/dev/null")
    assert_refused(status, err, "/dev/null", "is a device, not a save file; nothing written")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_play_save_may_replace_an_older_save(tmp_path, finished_save):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_save))
    status, out, err = run_cli("play", "--players", "2", "--seed", "4", "--json", "--save", path)
    assert status == 0, err
    assert json.loads(path.read_text())["seed"] == 4


def test_a_full_disk_keeps_the_last_good_save(tmp_path, monkeypatch):
    """The disk fills up at the 31st write: 'no space left', exit 2, and the file holds the save of the 30th
    write (the start and 29 decisions), which resumes to the same end as the uninterrupted game."""
    path = tmp_path / "game.json"
    status, expected, err = run_cli("play", "--players", "2", "--seed", "5", "--json")
    assert status == 0
    calls = []
    real_fsync = os.fsync

    def fsync(fd):
        calls.append(fd)
        if len(calls) > 30:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_fsync(fd)
    monkeypatch.setattr(fileio.os, "fsync", fsync)
    status, out, err = run_cli("play", "--players", "2", "--seed", "5", "--json", "--save", path)
    assert status == 2
    assert err == (f"error: {path}: cannot write the save: no space left on the device; the save file keeps "
                   "the game up to decision 29\n")
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]   # no temporary file is left
    assert len(json.loads(path.read_text())["decisions"]) == 29
    monkeypatch.setattr(fileio.os, "fsync", real_fsync)
    status, out, err = run_cli("resume", path, "--json")
    assert status == 0, err
    assert out == expected


def test_a_full_disk_at_the_first_save_says_no_save_was_written(tmp_path, monkeypatch):
    path = tmp_path / "game.json"

    def fsync(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(fileio.os, "fsync", fsync)
    status, out, err = run_cli("play", "--players", "2", "--seed", "5", "--json", "--save", path)
    assert status == 2
    assert err == f"error: {path}: cannot write the save: no space left on the device; no save was written\n"
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_while_compiling_is_a_located_error(tmp_path, monkeypatch):
    def full(*a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / "build"))
    monkeypatch.setattr(tempfile, "mkstemp", full)  # fileio imports tempfile where it writes
    status, out, err = run_cli("--build", tmp_path / "build", "compile", "--pack", "revised-family")
    assert_refused(status, err, str(tmp_path / "build"), "no space left on the device")


# ---------------------------------------------------------------- files written

@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_saves_and_compiled_modules_honour_the_umask(umask, mode, tmp_path):
    old = os.umask(umask)
    try:
        status, out, err = run_cli("--build", tmp_path / "build", "play", "--pack", "revised-family",
                                   "--players", "1", "--json", "--save", tmp_path / "game.json")
    finally:
        os.umask(old)
    assert status == 0, err
    assert stat.S_IMODE(os.stat(tmp_path / "game.json").st_mode) == mode
    modules = list((tmp_path / "build" / "packs").rglob("*.py"))
    assert modules and {stat.S_IMODE(os.stat(m).st_mode) for m in modules} == {mode}


def test_leftover_temporary_files_of_killed_runs_are_removed(tmp_path):
    dead = 99_999_999   # above any pid_max: no such process
    stale = tmp_path / f".game.json.{dead}.abcd1234.tmp"
    live = tmp_path / f".game.json.1.abcd1234.tmp"      # pid 1 runs: its write may be going on
    other = tmp_path / f".other.json.{dead}.abcd1234.tmp"
    for p in (stale, live, other):
        p.write_text("half a save")
    fileio.write_text_atomic(tmp_path / "game.json", "{}")
    assert not stale.exists() and live.exists() and other.exists()
    fileio.clean_stale_temps(tmp_path)
    assert not other.exists() and live.exists()


def test_a_temporary_file_whose_pid_cannot_be_a_process_is_kept(tmp_path):
    """A pid too big for the system to ask about (os.kill raises OverflowError) may belong to a running
    writer as far as anyone can tell: its temporary file is left alone; so are a folder and a symbolic link
    named like one of a dead writer (an atomic write leaves neither)."""
    huge = tmp_path / f".game.json.{2 ** 70}.abcd1234.tmp"
    huge.write_text("half a save")
    folder = tmp_path / ".game.json.99999999.abcd1234.tmp"
    folder.mkdir()
    (tmp_path / "notes.txt").write_text("my notes")
    link = tmp_path / ".game.json.99999999.efgh5678.tmp"
    link.symlink_to(tmp_path / "notes.txt")
    assert fileio.clean_stale_temps(tmp_path) == []
    assert huge.read_text() == "half a save" and folder.is_dir() and link.is_symlink()


def test_cleaning_a_folder_that_cannot_be_listed_removes_nothing(tmp_path):
    assert fileio.clean_stale_temps(tmp_path / "no such folder") == []
    (tmp_path / "file").write_text("x")
    assert fileio.clean_stale_temps(tmp_path / "file") == []


def test_a_temporary_file_that_cannot_be_removed_is_left_without_an_error(tmp_path, monkeypatch):
    stale = tmp_path / ".game.json.99999999.abcd1234.tmp"
    stale.write_text("half a save")

    def refuse(path):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
    monkeypatch.setattr(fileio.os, "unlink", refuse)
    assert fileio.clean_stale_temps(tmp_path) == []
    monkeypatch.undo()
    assert stale.read_text() == "half a save"


def test_a_failed_write_raises_its_own_error_when_its_temporary_file_is_gone(tmp_path, monkeypatch):
    """The rename fails and the temporary file cannot be removed either (it is gone already): the error of
    the rename is the one raised, and the old file is as it was."""
    target = tmp_path / "game.json"
    target.write_text("old")

    def replace(src, dst):
        os.unlink(src)
        raise OSError(errno.EIO, os.strerror(errno.EIO))
    monkeypatch.setattr(fileio.os, "replace", replace)
    with pytest.raises(OSError) as exc:
        fileio.write_text_atomic(target, "new")
    assert exc.value.errno == errno.EIO and not isinstance(exc.value, FileNotFoundError)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"] and target.read_text() == "old"


def test_the_kind_of_a_mode_that_is_none_of_the_known_ones(tmp_path):
    assert fileio.file_kind(stat.S_IFLNK) == "not a regular file"
    assert fileio.not_regular_reason(stat.S_IFLNK) == "not a regular file"
    assert fileio.not_regular_reason(stat.S_IFIFO) == "not a regular file (it is a named pipe)"


def test_a_file_replaced_by_a_pipe_between_the_check_and_the_open_is_refused(tmp_path, monkeypatch):
    """The path is a regular file when it is checked and a named pipe when it is opened (another process
    swapped them): the open does not wait for a writer, and the pipe is refused without being read."""
    regular = tmp_path / "save.json"
    regular.write_text("{}")
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    real_stat = os.stat
    monkeypatch.setattr(fileio.os, "stat", lambda path, *a, **k: real_stat(regular if path == fifo else path))
    with pytest.raises(fileio.UnreadableFile) as exc:
        fileio.read_regular_bytes(fifo, 100)
    monkeypatch.undo()
    assert str(exc.value) == "not a regular file (it is a named pipe)" and exc.value.path == str(fifo)


def test_a_file_that_grows_while_it_is_read_is_refused_at_the_limit(tmp_path, monkeypatch):
    """Its size was under the limit when the read began; the bytes read pass it: refused, not returned."""
    path = tmp_path / "save.json"
    path.write_bytes(b"x" * 30)
    real_fstat = os.fstat

    def fstat(fd):   # the size when the read begins: 10 bytes
        st = real_fstat(fd)
        return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid, st.st_gid, 10,
                               st.st_atime, st.st_mtime, st.st_ctime))
    monkeypatch.setattr(fileio.os, "fstat", fstat)
    with pytest.raises(fileio.UnreadableFile) as exc:
        fileio.read_regular_bytes(path, 20)
    assert str(exc.value) == "the file is over 20 bytes; the limit is 20 bytes"
    assert fileio.read_regular_bytes(path, 30) == b"x" * 30


def test_a_compile_removes_the_temporary_files_of_a_killed_compile(tmp_path):
    build = tmp_path / "build"
    status, out, err = run_cli("--build", build, "compile", "--pack", "revised-family")
    assert status == 0, err
    out_dir = next((build / "packs").iterdir())
    stale = out_dir / ".card_x.py.99999999.abcd1234.tmp"
    stale.write_text("# half a module")
    status, out, err = run_cli("--build", build, "compile", "--pack", "revised-family")
    assert status == 0, err
    assert not stale.exists()


def test_a_pack_that_is_not_compiled_is_refused_with_the_command_that_compiles_it(tmp_path):
    """load_pack (the library, docs/api.md) on a build folder without the pack, or with half of it (the
    module or the manifest missing): PackNotFound says how to compile it."""
    from runtime.pack import PackNotFound, build_dir_for, load_pack
    words = "pack 'my-pack' is not compiled (run: agricola compile --pack my-pack)"
    with pytest.raises(PackNotFound) as exc:
        load_pack("my-pack", tmp_path)
    assert str(exc.value) == words
    folder = build_dir_for("my-pack", tmp_path)
    folder.mkdir(parents=True)
    for present in ("__init__.py", "manifest.json"):
        (folder / present).write_text("{}")
        with pytest.raises(PackNotFound) as exc:
            load_pack("my-pack", tmp_path)
        assert str(exc.value) == words
        (folder / present).unlink()


def test_a_pack_whose_manifest_is_damaged_is_refused_with_the_command_that_compiles_it(tmp_path):
    from runtime.pack import PackNotFound, build_dir_for, load_pack
    folder = build_dir_for("my-pack", tmp_path)
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    for damaged in ("{", "[]", "{}", '{"content_hash": 7}', '{"content_hash": ""}', "\udcff"):
        (folder / "manifest.json").write_text(damaged, encoding="utf-8", errors="surrogateescape")
        with pytest.raises(PackNotFound) as exc:
            load_pack("my-pack", tmp_path)
        assert str(exc.value) == ("pack 'my-pack' is damaged: its manifest.json has no content hash "
                                  "(run: agricola compile --pack my-pack)")


def test_two_packs_never_share_a_build_folder(tmp_path):
    from runtime.pack import _ident, build_dir_for, folder_name, load_pack
    names = ["revised_family", "revised-family", "revised.family", "revised family", "revised%2Dfamily",
             "revised__family", "revised_5f_family", "Revised", "é", "e\u0301", ".hidden", "..x"]
    assert len({folder_name(n) for n in names}) == len(names)
    assert len({_ident(n) for n in names}) == len(names)
    assert all(not folder_name(n).startswith(".") and "/" not in folder_name(n) for n in names)
    assert build_dir_for("revised-family", tmp_path).name == "revised-family"
    # two overlays whose names differ only in '-' and '_' compile side by side
    root = tmp_path / "ws"
    shutil.copytree(REPO / "rules" / "revised", root / "rules" / "revised")
    shutil.copytree(REPO / "cards" / "revised", root / "cards" / "revised")
    for name in ("fam_x", "fam-x"):
        shutil.copytree(REPO / "rules" / "revised-family", root / "rules" / name)
        game = root / "rules" / name / "game.yaml"
        game.write_text(game.read_text().replace("id: revised-family", f"id: {name}"))
    for name in ("fam_x", "fam-x"):
        status, out, err = run_cli("--root", root, "--build", tmp_path / "build", "compile", "--pack", name)
        assert status == 0, err
    assert sorted(p.name for p in (tmp_path / "build" / "packs").iterdir()) == ["fam-x", "fam_x"]
    assert load_pack("fam_x", tmp_path / "build").id == "fam_x"
    assert load_pack("fam-x", tmp_path / "build").id == "fam-x"


# ---------------------------------------------------------------- farm files

FARM = """house: wood
farmyard:
  - "{a}"
  - "{b}"
  - "{c}"
people: {people}
improvements: [{improvements}]
"""


def _farm(a=". . . . .", b="R . . . .", c="R . . . .", people=2, improvements=""):
    return FARM.format(a=a, b=b, c=c, people=people, improvements=improvements)


FARM_CASES = {
    "superscript_digit": (_farm(a="G\u00b2 . . . ."), "farm.yaml:3:6: error[E143]: 'G\u00b2' is not a farmyard space"),
    "crop_count_of_5000_digits": (_farm(a=f"G{BIG} . . . ."), "farm.yaml:3:6: error[E143]: 'G7777"),
    "people_of_5000_digits": (_farm(people=BIG), "farm.yaml:6:9: error[E107]"),
    "five_wells": (_farm(improvements="well, well, well, well, well"),
                   "farm.yaml:7:22: error[E147]: 'well' is listed twice; there is one card of each"),
    "rooms_apart": (_farm(a="R . . . R", b=". . . . .", c=". . . . R"),
                    "farm.yaml:3:3: error[E144]: the rooms A1+A5+C5 do not form one house"),
    "fields_apart": (_farm(a="F . . . F"), "farm.yaml:3:3: error[E144]: the fields A1+A5 do not touch each other"),
    "one_room": (_farm(b=". . . . .", people=1), "farm.yaml:3:3: error[E144]: the house has 1 room; it starts with 2"),
}


@pytest.mark.parametrize("case", sorted(FARM_CASES))
def test_impossible_or_malformed_farms_are_refused(case, tmp_path, monkeypatch):
    text, first = FARM_CASES[case]
    monkeypatch.chdir(tmp_path)
    Path("farm.yaml").write_text(text, encoding="utf-8")
    before = snapshot(tmp_path)
    status, out, err = run_cli("score", "farm.yaml", "--pack", "revised")
    assert_refused(status, err, "farm.yaml")
    assert err.startswith(first), err[:500]
    assert snapshot(tmp_path) == before


def test_five_people_in_two_rooms_is_a_farm_the_rules_allow(tmp_path):
    """The revised rulebook (Urgent Wish for Children): family growth without room, used three times,
    gives 5 people with only 2 rooms. So such a farm is scored, not refused."""
    path = tmp_path / "farm.yaml"
    path.write_text(_farm(people=5))
    status, out, err = run_cli("score", path, "--pack", "revised", "--json")
    assert status == 0, err
    assert json.loads(out)["categories"]["family"] == 15


# ---------------------------------------------------------------- command-line values

def _file(t):
    (t / "afile").write_text("x")
    return t / "afile"


CLI_CASES = {
    "seed_of_5000_digits": (lambda t: ["play", "--seed", BIG], "argument --seed: invalid int value: '7777"),
    "seed_of_19_digits": (lambda t: ["play", "--seed", "1" * 19], "--seed '1111111111111111111' is too large"),
    "players_of_5000_digits": (lambda t: ["play", "--players", BIG], "argument --players: invalid int value"),
    "players_0": (lambda t: ["play", "--players", "0"], "is for 1 to 4 players, not 0"),
    "empty_pack": (lambda t: ["play", "--pack", ""], "--pack '' is not a pack name"),
    "pack_path": (lambda t: ["play", "--pack", "../rules"], "--pack '../rules' is not a pack name"),
    "pack_of_5000_characters": (lambda t: ["play", "--pack", BIG], "is not a pack name"),
    "unknown_pack": (lambda t: ["compile", "--pack", "nope"], "nope: error[E120]: unknown pack 'nope'"),
    "root_missing": (lambda t: ["--root", t / "nope", "play"], "no such folder"),
    "root_a_file": (lambda t: ["--root", _file(t), "play"], "is not a folder"),
    "build_a_file": (lambda t: ["--build", _file(t), "play"], "is not a folder"),
    "build_unwritable": (lambda t: ["--build", "/proc/agricola-build", "compile", "--pack", "revised-family"],
                         "/proc/agricola-build"),
    "docs_out_a_file": (lambda t: ["docs", "--out", _file(t)], "is not a folder; the docs are a folder of pages"),
    "docs_out_under_a_file": (lambda t: ["docs", "--out", _file(t) / "site"], "cannot write the docs there"),
    "docs_out_unwritable": (lambda t: ["docs", "--out", "/proc/agricola-docs"], "cannot write the docs there"),
    "save_into_a_folder": (lambda t: ["play", "--save", t], "is a folder, not a save file"),
    "card_id_of_5000_characters": (lambda t: ["cards", "show", BIG], "error: no card '7777"),
    "coverage_reference_fifo": (lambda t: (os.mkfifo(t / "ref.json"), ["coverage", "--reference", t / "ref.json"])[1],
                                "not a regular file (it is a named pipe)"),
    "coverage_reference_deep": (lambda t: ((t / "ref.json").write_text("[" * 100_000),
                                           ["coverage", "--reference", t / "ref.json"])[1], "not a JSON list of cards"),
    "coverage_reference_not_a_list": (lambda t: ((t / "ref.json").write_text('{"a": 1}'),
                                                 ["coverage", "--reference", t / "ref.json"])[1],
                                      "not a JSON list of cards"),
    "coverage_reference_without_types": (lambda t: ((t / "ref.json").write_text(
        '[{"id": "x", "edition": "revised_2016", "number": "abc"}]'), ["coverage", "--reference", t / "ref.json"])[1],
        "card 'x' of edition 'revised_2016' has no usable 'name_en', 'type', 'number'"),
    "schema_unknown": (lambda t: ["schema", "nope"], "unknown schema 'nope'"),
    "docs_chromium_missing": (lambda t: ["docs", "--out", t / "site", "--pdf", "--chromium", t / "nope"],
                              "nope: not a program that can be run (give the path of Chromium)"),
    "docs_chromium_a_device": (lambda t: ["docs", "--out", t / "site", "--pdf", "--chromium", "/dev/zero"],
                               "--chromium /dev/zero: not a program that can be run"),
    "docs_chromium_not_executable": (lambda t: ["docs", "--out", t / "site", "--pdf", "--chromium", _file(t)],
                                     "afile: not a program that can be run"),
}


@pytest.mark.parametrize("case", sorted(CLI_CASES))
def test_bad_command_line_values_are_refused(case, tmp_path):
    argv = CLI_CASES[case][0](tmp_path)
    before = snapshot(tmp_path)
    status, out, err = run_cli(*argv)
    assert_refused(status, err, "error", CLI_CASES[case][1])
    assert snapshot(tmp_path) == before


def test_a_very_long_line_is_shown_in_part_around_the_problem(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(REPO / "rules" / "revised", root / "rules" / "revised")
    deck = root / "cards" / "revised" / "X"
    deck.mkdir(parents=True)
    effect = "on play: " + "gain 1 food; " * 300 + "gain 1 fod"
    (deck / "long.yaml").write_text(f'id: long\nname: Long\nkind: minor\ndeck: X\ncost: 1 wood\neffects: "{effect}"\n')
    status, out, err = run_cli("--root", root, "validate", deck / "long.yaml")
    assert_refused(status, err, "cards/revised/X/long.yaml:6:3927", "unknown good 'fod'")
    first, shown, caret = err.splitlines()[:3]
    assert len(shown) < 200 and shown.startswith("  …") and shown.endswith('gain 1 fod"')
    assert shown[caret.index("^"):caret.index("^") + 3] == "fod"


def test_two_builds_of_the_same_sources_in_two_folders_keep_their_own_code(tmp_path, family, build_root):
    """Both builds carry the same stamp (same sources, same compiler), yet their generated code may differ
    (a compiler changed between them, as under mutation testing): each folder's modules are its own."""
    from runtime.pack import build_dir_for, load_pack
    first = load_pack("revised-family", build_root)
    assert first is family
    other_root = tmp_path / "other"
    shutil.copytree(build_dir_for("revised-family", build_root), build_dir_for("revised-family", other_root))
    spaces = build_dir_for("revised-family", other_root) / "spaces.py"
    spaces.write_text(spaces.read_text(encoding="utf-8") + "\nBUILT_ELSEWHERE = True\n", encoding="utf-8")
    other = load_pack("revised-family", other_root)
    assert other is not first and other.module.__name__ != first.module.__name__
    assert other.module.spaces.BUILT_ELSEWHERE is True
    assert not hasattr(first.module.spaces, "BUILT_ELSEWHERE")
