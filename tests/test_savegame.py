"""Saved games: save after every decision, resume after a crash at any moment, replay a log."""
from __future__ import annotations

import json
import os
import random

import pytest

from compiler import cli
from runtime.agents import RandomAgent
from runtime.engine import Game
from runtime.savegame import LogMismatch, Recorder, SaveError, read_save, restore, state_hash, write_atomic


def _specs(seed, n):
    return [{"kind": "random", "seed": f"{seed}:{i}"} for i in range(n)]


def _full_game(pack, n, seed):
    specs = _specs(seed, n)
    g = Game(pack, n, seed=seed, agents=[RandomAgent(s["seed"]) for s in specs])
    rec = Recorder(g, None, specs)
    g.play()
    return g, rec.document()


def _resume_from(pack, doc, cut):
    part = dict(doc, decisions=doc["decisions"][:cut], finished=False, final=None)
    g, rec, pending = restore(part, pack)
    g.play()
    assert not pending
    return g


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_resumed_games_end_exactly_as_uninterrupted_ones(family, n):
    rng = random.Random(n)
    for seed in range(25):
        g, doc = _full_game(family, n, seed)
        cut = rng.randrange(len(doc["decisions"]) + 1)
        resumed = _resume_from(family, doc, cut)
        assert resumed.scores == g.scores
        assert state_hash(resumed) == state_hash(g)


def _round_trip(pack, games, seed0=0):
    rng = random.Random(seed0)
    for i in range(games):
        seed = seed0 * 100000 + i
        n = 1 + i % 4
        g, doc = _full_game(pack, n, seed)
        cut = rng.randrange(len(doc["decisions"]) + 1)
        text = json.dumps(dict(doc, decisions=doc["decisions"][:cut], finished=False, final=None))
        part = json.loads(text)  # through JSON, as a save file would be
        g2, rec, pending = restore(part, pack)
        g2.play()
        assert g2.scores == g.scores, f"seed {seed}, cut at decision {cut}"


def test_round_trip_of_200_mid_game_states_with_cards(revised):
    _round_trip(revised, 200, seed0=1)


@pytest.mark.slow
def test_round_trip_of_1000_mid_game_states(revised, family):
    _round_trip(revised, 500, seed0=2)
    _round_trip(family, 500, seed0=3)


def test_cli_play_save_resume_and_replay(tmp_path, capsys):
    full = tmp_path / "full.json"
    assert cli.main(["play", "--players", "2", "--seed", "4", "--json", "--save", str(full)]) == 0
    expected = capsys.readouterr().out
    doc = json.loads(full.read_text())
    assert doc["finished"] and doc["version"] == 1
    for cut in (0, 1, len(doc["decisions"]) // 2, len(doc["decisions"]) - 1):
        part = tmp_path / f"cut{cut}.json"
        part.write_text(json.dumps(dict(doc, decisions=doc["decisions"][:cut], finished=False, final=None)))
        assert cli.main(["resume", str(part), "--json"]) == 0
        assert capsys.readouterr().out == expected
        assert json.loads(part.read_text())["finished"]
    assert cli.main(["replay", str(full)]) == 0
    assert capsys.readouterr().out.startswith("replay ok: ")


def test_readable_log_of_a_resumed_game_is_the_same(tmp_path, capsys):
    full = tmp_path / "g.json"
    assert cli.main(["play", "--players", "3", "--seed", "8", "--save", str(full)]) == 0
    expected = capsys.readouterr().out
    doc = json.loads(full.read_text())
    part = tmp_path / "part.json"
    part.write_text(json.dumps(dict(doc, decisions=doc["decisions"][:30], finished=False, final=None)))
    assert cli.main(["resume", str(part)]) == 0
    assert capsys.readouterr().out == expected


def test_replay_detects_a_tampered_log(tmp_path, capsys):
    full = tmp_path / "g.json"
    assert cli.main(["play", "--players", "2", "--seed", "5", "--json", "--save", str(full)]) == 0
    capsys.readouterr()
    doc = json.loads(full.read_text())
    doc["final"]["scores"][0]["total"] += 1
    full.write_text(json.dumps(doc))
    assert cli.main(["replay", str(full)]) == 2
    assert "the replay ends in a different state" in capsys.readouterr().err


@pytest.mark.parametrize("damage,message", [
    (lambda t: t[: len(t) // 2], "the save file is damaged or cut short (not valid JSON"),
    (lambda t: "", "the save file is damaged or cut short (not valid JSON"),
    (lambda t: t.replace('"version": 1', '"version": 99'), "save format version 99; this program reads version 1"),
    (lambda t: t.replace('"format": "agricola-save"', '"format": "other"'), "not an agricola save file"),
    (lambda t: t.replace('"pack": "revised-family"', '"pack": "revised"'), "pack 'revised' has changed since"),
    (lambda t: t.replace('"pack_hash": "', '"pack_hash": "0'), "has changed since this game was saved"),
    (lambda t: t.replace('"decisions": [[', '"decisions": [["x", '), "'decisions[0]' is too long (at most 3 items)"),
    (lambda t: t.replace('"decisions": [[0', '"decisions": [["x"'), "'decisions[0][0]' must be a whole number, not text"),
    (lambda t: t.replace('"seed": 6', '"seed": "6"'), "'seed' must be a whole number, not text"),
])
def test_bad_save_files_give_a_clear_error_and_change_nothing(tmp_path, capsys, damage, message):
    full = tmp_path / "g.json"
    assert cli.main(["play", "--players", "2", "--seed", "6", "--json", "--save", str(full)]) == 0
    capsys.readouterr()
    doc = json.loads(full.read_text())
    part = dict(doc, decisions=doc["decisions"][:20], finished=False, final=None)
    bad = tmp_path / "bad.json"
    bad.write_text(damage(json.dumps(part, sort_keys=True)))
    before = bad.read_bytes()
    status = cli.main(["resume", str(bad)])
    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert "Traceback" not in err
    assert bad.read_bytes() == before


def test_a_log_that_does_not_fit_the_game_is_refused(family):
    g, doc = _full_game(family, 2, 3)
    doc = json.loads(json.dumps(doc))
    first_place = next(i for i, d in enumerate(doc["decisions"]) if d[1] == "place")
    doc["decisions"][first_place][2] = "no_such_space"
    part = dict(doc, finished=False, final=None)
    with pytest.raises(LogMismatch, match="not a legal option here"):
        g2, rec, pending = restore(part, family)
        g2.play()


def test_writes_are_atomic(tmp_path, monkeypatch):
    path = tmp_path / "save.json"
    write_atomic(path, {"a": 1})
    real_replace = os.replace

    def crash(src, dst):
        raise OSError("power cut")
    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        write_atomic(path, {"a": 2})
    monkeypatch.setattr(os, "replace", real_replace)
    assert json.loads(path.read_text()) == {"a": 1}          # the previous save is intact
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]  # no half-written file is left


def test_the_line_of_a_save_error_counts_a_blank_first_line(tmp_path):
    # a save file edited by hand may start with an empty line: the error points at the line an editor shows
    bad = tmp_path / "bad.json"
    bad.write_text('\n{"format": "other"}\n', encoding="utf-8")
    with pytest.raises(SaveError) as exc:
        read_save(bad)
    assert str(exc.value) == f"{bad}:2:12: error[E160]: not an agricola save file"
    assert exc.value.located


def test_a_damaged_save_names_the_line_and_column_of_the_damage(tmp_path):
    # columns count from 1, on the first line as on the others
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{\n  "seed": 1234567890123456789\n}\n')
    with pytest.raises(SaveError) as exc:
        read_save(bad)
    assert str(exc.value) == (f"{bad}:2:11: the save file is damaged (1234567890123456789; a save holds whole "
                              "numbers of at most 18 digits)")
    bad.write_bytes(b'{"x": "\xff"}')
    with pytest.raises(SaveError) as exc:
        read_save(bad)
    assert str(exc.value) == f"{bad}:1:8: the save file is damaged (it is not UTF-8 text)"


def test_a_save_dealing_from_decks_the_pack_lacks_names_them_all(family):
    _, doc = _full_game(family, 2, 3)
    with pytest.raises(SaveError) as exc:
        restore(dict(doc, decks=["Z", "Q"]), family)
    assert str(exc.value) == ("the save deals from decks 'Q', 'Z', which pack 'revised-family' does not have; "
                              "its decks are A, B")


def test_read_save_reports_a_missing_file(tmp_path):
    with pytest.raises(SaveError, match="no such save file"):
        read_save(tmp_path / "nope.json")


def _damaged(family, tmp_path, **changes):
    """A save of 5 decisions of a 2-player game with ``changes`` (a value of None drops the key), written on
    one line; its path and text."""
    _, doc = _full_game(family, 2, 3)
    doc = dict(doc, decisions=doc["decisions"][:5], finished=False, final=None)
    for key, value in changes.items():
        if value is None:
            del doc[key]
        else:
            doc[key] = value
    text = json.dumps(doc, sort_keys=True)
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    return bad, text


def _col(text, before):
    """The column (from 1) just after the first ``before`` of the one-line ``text``."""
    return text.index(before) + len(before) + 1


@pytest.mark.parametrize("changes,before,words", [
    ({"extra": 1}, "", "error[E110]: unknown key 'extra'"),
    ({"players": 10}, '"players": ', "error[E115]: 'players' must be at most 9, not 10"),
    ({"decks": ["A", ""]}, '"decks": ["A", ', "error[E116]: 'decks[1]' is too short (at least 1 character)"),
    ({"decisions": [[0, "place"]]}, '"decisions": [',
     "error[E116]: 'decisions[0]' is too short (at least 3 items)"),
    ({"agents": [{"kind": "random", "seed": "3:0"}]}, '"agents": ',
     "error[E162]: the save file is damaged (1 agents for 2 players)"),
    ({"agents": [{"kind": "random", "seed": "3:0"}, {"kind": "random", "seed": "3:1", "depth": 2}]},
     '"seed": "3:0"}, {', "error[E110]: unknown key 'depth'"),
])
def test_a_save_of_the_wrong_shape_is_a_located_error(family, tmp_path, changes, before, words):
    """Saves edited by hand or damaged: an unknown key (located at the key), a number over its maximum, an
    empty deck name, a decision cut short, fewer agents than players: one error at the place."""
    bad, text = _damaged(family, tmp_path, **changes)
    col = _col(text, before) if before else text.index('"extra"') + 1
    with pytest.raises(SaveError) as exc:
        read_save(bad)
    assert str(exc.value) == f"{bad}:1:{col}: {words}" and exc.value.located


def test_a_json_file_that_is_no_mapping_is_not_a_save(tmp_path):
    bad = tmp_path / "bad.json"
    for text, where in (('\n  [1, 2]', "2:3"), ('{"version": 1}', "1:1")):
        bad.write_text(text, encoding="utf-8")
        with pytest.raises(SaveError) as exc:
            read_save(bad)
        assert str(exc.value) == f"{bad}:{where}: error[E160]: not an agricola save file"


def test_a_save_whose_setup_does_not_fit_the_pack_is_refused_by_resume(family, tmp_path, capsys):
    bad, _ = _damaged(family, tmp_path, setup={"seats": [{}, ["wood"]]})
    before = bad.read_bytes()
    assert cli.main(["resume", str(bad)]) == 2
    assert capsys.readouterr().err == f"error: {bad}: the save's set-up: seat 2 is not a mapping\n"
    assert bad.read_bytes() == before


def test_a_save_is_restored_with_its_own_pack_only(family, original):
    _, doc = _full_game(family, 2, 3)
    with pytest.raises(SaveError) as exc:
        restore(doc, original)
    assert str(exc.value) == "the save is a game of pack 'revised-family', not 'original'"


def test_a_save_names_every_agent_or_none(family):
    from runtime.savegame import agent_specs, make_agent

    class Unnamed:
        def choose(self, game, player, kind, options, labels=None, prompt=None):
            return options[0]
    g = Game(family, 3, seed=1, agents=[RandomAgent("1:0"), None, Unnamed()])
    with pytest.raises(ValueError) as exc:
        agent_specs(g)
    assert str(exc.value) == "the agent of P3 (Unnamed) has no 'spec': a save file cannot name it"
    g.agents[2] = RandomAgent("1:2")
    assert agent_specs(g) == [{"kind": "random", "seed": "1:0"}, {"kind": "open"}, {"kind": "random", "seed": "1:2"}]
    with pytest.raises(SaveError) as exc:
        make_agent({"kind": "smart", "seed": 1})
    assert str(exc.value) == "unknown agent kind 'smart' in the save file"


def test_a_recorder_writes_only_what_changed(family, tmp_path, monkeypatch):
    """Without a path nothing is written; with one, a save with no new decision is not written again (a
    finished game resumed leaves its save file as it was, the same file)."""
    import runtime.savegame as S
    written = []
    monkeypatch.setattr(S, "write_text_atomic", lambda path, text, sync=False: written.append(path))
    g = Game(family, 1, seed=2, agents=[RandomAgent("2:0")])
    Recorder(g, None, _specs(2, 1)).save()
    assert written == []
    rec = Recorder(g, tmp_path / "g.json", _specs(2, 1))
    rec.save()
    rec.save()
    assert written == [tmp_path / "g.json"]
    monkeypatch.undo()
    path = tmp_path / "full.json"
    assert cli.main(["play", "--players", "2", "--seed", "4", "--json", "--save", str(path)]) == 0
    inode = os.stat(path).st_ino
    assert cli.main(["resume", str(path), "--json"]) == 0
    assert os.stat(path).st_ino == inode
