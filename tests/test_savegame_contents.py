"""Saved games, decision by decision: what the file holds after every single decision, a log in which
one decision was replaced by a *different legal* option, and where the temporary file of an atomic
write lives.

The round-trip tests of test_savegame.py compare final results of seeded agents; a lost or substituted
decision does not show there (the agent simply takes it again). These tests look at the decisions
themselves.
"""
from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from compiler import cli
from runtime import fileio
from runtime.agents import RandomAgent
from runtime.engine import Game
from runtime.savegame import FORMAT, VERSION, LogMismatch, Recorder, norm, restore, state_hash, write_atomic


def _specs(seed, n):
    return [{"kind": "random", "seed": f"{seed}:{i}"} for i in range(n)]


class Witness:
    """Wraps an agent: before each answer, checks that the save file on disk holds exactly the decisions
    taken so far (``taken``, shared by all players' witnesses), then notes its own answer and the options
    it was offered."""

    def __init__(self, agent, taken, path, header):
        self.agent = agent
        self.taken = taken
        self.path = path
        self.header = header
        self.trusted = getattr(agent, "trusted", False)

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        if self.path is not None:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
            assert doc["decisions"] == [[pi, k, norm(o)] for pi, k, o, _ in self.taken], \
                f"the save before decision {len(self.taken) + 1} does not hold the decisions taken so far"
            assert {k: doc[k] for k in self.header} == self.header
            assert doc["finished"] is False and doc["final"] is None
        choice = self.agent.choose(game, player, kind, options, labels, prompt)
        self.taken.append((player.idx, kind, choice, list(options)))
        return choice


def _header(pack, n, seed, specs):
    return {"format": FORMAT, "version": VERSION, "pack": pack.id, "pack_hash": pack.content_hash,
            "players": n, "seed": seed, "agents": specs}


@pytest.mark.parametrize("n,seed", [(1, 21), (2, 22), (3, 23), (4, 24)])
def test_the_save_holds_every_decision_as_soon_as_it_is_taken(family, tmp_path, n, seed):
    path = tmp_path / "game.json"
    specs = _specs(seed, n)
    taken = []
    header = _header(family, n, seed, specs)
    game = Game(family, n, seed=seed, agents=[Witness(RandomAgent(s["seed"]), taken, path, header) for s in specs])
    rec = Recorder(game, path, specs)
    rec.save()  # as `agricola play --save` does: once before the first decision, once after the end
    game.play()
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["decisions"] == [[pi, k, norm(o)] for pi, k, o, _ in taken]  # the last decision too
    assert len(taken) == game.decisions > 40
    assert {k: doc[k] for k in header} == header
    rec.save()
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["decisions"] == [[pi, k, norm(o)] for pi, k, o, _ in taken]
    assert doc["finished"] is True
    assert doc["final"] == {"scores": json.loads(json.dumps(game.scores)), "state_hash": state_hash(game)}
    # each player's decisions are logged under that player, in the order they were asked
    assert {pi for pi, *_ in taken} == set(range(n))


class Resumed:
    """Wraps the agent of a resumed game: before decision k (counted from 1) the file holds the saved
    decisions (``cut`` of them) as long as they are being replayed, then every decision taken so far."""

    def __init__(self, agent, full, cut, path, header):
        self.agent, self.full, self.cut, self.path, self.header = agent, full, cut, path, header
        self.trusted = getattr(agent, "trusted", False)

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        k = game.decisions + 1
        doc = json.loads(self.path.read_text(encoding="utf-8"))
        assert doc["decisions"] == self.full[:max(self.cut, k - 1)], f"the save before decision {k}"
        assert {key: doc[key] for key in self.header} == self.header
        return self.agent.choose(game, player, kind, options, labels, prompt)


def test_a_resumed_game_never_saves_less_than_it_was_given(family, tmp_path):
    """Resuming a save: while its decisions are replayed the file keeps them all (a crash then loses
    nothing); after that, every new decision is added as soon as it is taken."""
    n, seed = 3, 31
    specs = _specs(seed, n)
    first = []
    game = Game(family, n, seed=seed, agents=[Witness(RandomAgent(s["seed"]), first, None, None) for s in specs])
    Recorder(game, None, specs)
    game.play()
    full = [[pi, k, norm(o)] for pi, k, o, _ in first]
    cut = len(full) // 3
    path = tmp_path / "game.json"
    doc = dict(_header(family, n, seed, specs), decisions=full[:cut], finished=False, final=None)
    path.write_text(json.dumps(doc), encoding="utf-8")
    resumed, rec, pending = restore(json.loads(path.read_text(encoding="utf-8")), family, path=path)
    header = _header(family, n, seed, specs)
    resumed.agents = [Resumed(a, full, cut, path, header) for a in resumed.agents]
    resumed.play()
    assert not pending
    rec.save()
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["decisions"] == full
    assert doc["finished"] is True and doc["final"]["state_hash"] == state_hash(game)


def _played(pack, n, seed):
    """A finished game: its save document and, for every decision, the options that were offered."""
    specs = _specs(seed, n)
    taken = []
    game = Game(pack, n, seed=seed, agents=[Witness(RandomAgent(s["seed"]), taken, None, None) for s in specs])
    rec = Recorder(game, None, specs)
    game.play()
    return json.loads(json.dumps(rec.document())), taken


def _substitute(doc, taken, where):
    """The document with decision ``where`` (an index) replaced by another option that was legal there."""
    pi, kind, chosen, options = taken[where]
    other = next(norm(o) for o in options if norm(o) != norm(chosen))
    decisions = [list(d) for d in doc["decisions"]]
    decisions[where] = [pi, kind, other]
    return dict(doc, decisions=decisions, finished=False, final=None), pi, norm(chosen), other


@pytest.mark.parametrize("n,seed", [(2, 41), (3, 42), (4, 43)])
def test_a_log_with_one_decision_replaced_by_another_legal_option_is_refused(family, n, seed):
    doc, taken = _played(family, n, seed)
    choices = [i for i, t in enumerate(taken) if len(t[3]) > 1]
    for where in (choices[0], choices[len(choices) // 2], choices[-1]):
        bad, pi, chosen, other = _substitute(doc, taken, where)
        with pytest.raises(LogMismatch) as info:
            game, rec, pending = restore(bad, family)
            game.play()
        assert str(info.value) == (f"the log does not fit this game: at decision {where + 1} the agent of "
                                   f"P{pi + 1} answers {chosen!r}, the log has {other!r}")


def test_resume_refuses_a_substituted_decision_with_exit_status_2(family, tmp_path, capsys):
    doc, taken = _played(family, 2, 44)
    where = [i for i, t in enumerate(taken) if len(t[3]) > 1][10]
    bad, pi, chosen, other = _substitute(doc, taken, where)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    status = cli.main(["resume", str(path), "--json"])
    out = capsys.readouterr()
    assert status == 2
    assert out.out == ""
    assert out.err == (f"error: {path}: the log does not fit this game: at decision {where + 1} the agent of "
                       f"P{pi + 1} answers {chosen!r}, the log has {other!r}\n")


_REPLAY_REFUSALS = (
    r"error: {log}: the replay ends in a different state \(state hash [0-9a-f]{{12}}, the log says [0-9a-f]{{12}}\)",
    r"error: the log does not fit this game: decision \d+ (is a '\w+' request for P\d, the log has '\w+' for P\d"
    r"|\(\w+\) was .*, which is not a legal option here)",
    r"error: the log ends before the game does",
    r"error: {log}: the log has \d+ decision\(s\) after the end of the game",
)


def test_replay_refuses_a_finished_log_with_one_decision_replaced(family, tmp_path, capsys):
    """A replay asks no agent, so the substitution shows later: as a log that no longer fits, ends early,
    runs past the end, or ends in another state; it is never accepted."""
    doc, taken = _played(family, 2, 45)
    choices = [i for i, t in enumerate(taken) if len(t[3]) > 1]
    for where in (choices[0], choices[len(choices) // 2], choices[-1]):
        bad, *_ = _substitute(doc, taken, where)
        bad = dict(bad, finished=True, final=doc["final"])
        path = tmp_path / f"log{where}.json"
        path.write_text(json.dumps(bad), encoding="utf-8")
        status = cli.main(["replay", str(path)])
        out = capsys.readouterr()
        assert status == 2, f"a replay with decision {where + 1} replaced was accepted: {out.out}"
        assert out.out == ""
        patterns = [p.format(log=re.escape(str(path))) for p in _REPLAY_REFUSALS]
        assert any(re.fullmatch(p + "\n", out.err) for p in patterns), out.err


# ---------------------------------------------------------------- atomic writes

def _watch_writes(monkeypatch):
    """Record the temporary file's path at fsync time and every rename (os.replace) of runtime.fileio."""
    events = []
    real_replace, real_fsync = os.replace, os.fsync

    def replace(src, dst):
        events.append(("replace", Path(src), Path(dst), Path(src).read_text(encoding="utf-8")))
        return real_replace(src, dst)

    def fsync(fd):
        fd_link = Path(f"/proc/self/fd/{fd}")  # the synced file's path, where the system shows it
        events.append(("fsync", Path(os.readlink(fd_link)) if fd_link.exists() else None))
        return real_fsync(fd)
    monkeypatch.setattr(fileio.os, "replace", replace)
    monkeypatch.setattr(fileio.os, "fsync", fsync)
    return events


def test_the_temporary_file_of_an_atomic_write_is_beside_its_target(tmp_path, monkeypatch):
    """A rename is atomic only within one filesystem: the temporary file must be in the target's folder
    (not in /tmp, not in the working directory)."""
    target = tmp_path / "deep" / "er" / "module.py"
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    events = _watch_writes(monkeypatch)
    fileio.write_text_atomic(target, "x = 1\n")
    [(what, src, dst, text)] = events
    assert what == "replace"
    assert dst == target
    assert src.parent == target.parent and src != target
    assert text == "x = 1\n"
    assert target.read_text(encoding="utf-8") == "x = 1\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["module.py"]
    assert list(elsewhere.iterdir()) == []


def test_a_save_is_synced_to_disk_before_it_replaces_the_old_one(tmp_path, monkeypatch):
    target = tmp_path / "saves" / "game.json"
    write_atomic(target, {"a": 1})
    events = _watch_writes(monkeypatch)
    write_atomic(target, {"a": 2})
    assert [e[0] for e in events] == ["fsync", "replace"]
    synced, (_, src, dst, text) = events
    if synced[1] is not None:
        assert synced[1] == src  # the temporary file was synced, before the rename
    assert src.parent == target.parent and dst == target
    assert json.loads(text) == {"a": 2}
    assert json.loads(target.read_text(encoding="utf-8")) == {"a": 2}


_KILLED_WRITER = """
import os, sys
from pathlib import Path
from runtime import fileio
fileio.os.replace = lambda src, dst: os._exit(3)   # killed between writing the temporary file and the rename
fileio.write_text_atomic(Path(sys.argv[1]), "half")
"""


def test_the_temporary_file_of_a_killed_writer_is_removed_by_the_next_write(tmp_path):
    """A run killed in the middle of a write leaves its temporary file; the next write of the same file
    removes it, and leaves alone the temporary files of other files and of writers still running."""
    target = tmp_path / "game.json"
    target.write_text("old", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(target)], cwd=Path(__file__).parent.parent)
    assert done.returncode == 3
    [left] = [p for p in tmp_path.iterdir() if p != target]
    assert left.read_text(encoding="utf-8") == "half" and target.read_text(encoding="utf-8") == "old"
    other = tmp_path / ".other.json.999999.x.tmp"                       # another file's (dead writer)
    running = tmp_path / f".game.json.{os.getpid()}.y.tmp"              # a writer that still runs
    for p in (other, running):
        p.write_text("", encoding="utf-8")
    assert fileio.clean_stale_temps(tmp_path, "game.json") == [left]
    fileio.write_text_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([target.name, other.name, running.name])


def test_a_full_disk_is_told_apart_from_other_write_errors():
    assert fileio.no_space(OSError(errno.ENOSPC, "No space left on device"))
    assert fileio.no_space(OSError(errno.EDQUOT, "Disk quota exceeded"))
    assert not fileio.no_space(OSError(errno.EACCES, "Permission denied"))
    assert not fileio.no_space(ValueError("not an OSError"))
