"""The engine's restructuring changes no game: the games of tests/fixtures/recorded_games.json, recorded
before it, are played again and must take the same decisions and end in the same state.

A commit that changes games on purpose re-records them (see tests/recorded_games.py) in that commit.
"""
from __future__ import annotations

import json

import pytest

import recorded_games as R
from runtime.savegame import restore, state_hash

HINT = ("a game differs from the recording; if this commit changes games on purpose (a rule fix, a card edit), "
        "record them again: .venv/bin/python tests/recorded_games.py")


@pytest.fixture(scope="module")
def recorded():
    return json.loads(R.FIXTURE.read_text(encoding="utf-8"))["games"]


@pytest.fixture(scope="module")
def load(revised, family):
    packs = {p.id: p for p in (revised, family)}
    return packs.__getitem__


def test_the_recording_covers_what_it_says(recorded):
    assert [(g["pack"], g["players"], g["seed"], g["agents"], "log" in g) for g in recorded] == R.games()
    assert len(recorded) >= 400
    assert sum(g["agents"] == "greedy" for g in recorded) >= 8


def test_recorded_games_play_identically(recorded, load):
    for g in recorded:
        now = R.entry(load(g["pack"]), g["players"], g["seed"], g["agents"], "log" in g)
        where = f"{g['pack']}, {g['players']} players, seed {g['seed']}, {g['agents']} agents"
        assert now == g, f"{where}: {HINT}"


def test_recorded_logs_replay_without_agents(recorded, load):
    """The whole decision logs kept in the fixture, fed back as a save file's decisions, reach the same state."""
    logs = [g for g in recorded if "log" in g]
    assert len(logs) == len(R.PACKS) * len(R.PLAYERS) * R.FULL_LOGS
    for g in logs:
        pack = load(g["pack"])
        doc = {"pack": pack.id, "pack_hash": pack.content_hash, "players": g["players"], "seed": g["seed"],
               "agents": R.agent_specs(g["agents"], g["seed"], g["players"]), "decisions": g["log"]}
        game, recorder, pending = restore(doc, pack, continue_with_agents=False)
        game.play()
        assert not pending
        assert state_hash(game)[:24] == g["state_hash"], HINT
        assert R.digest(R.full_state(game)) == g["full_hash"], HINT
