"""agricola simulate: results independent of the workers, resumable after kill -9, files DuckDB reads."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from compiler.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _simulate(capsys, build_root, out, *extra, games=20):
    code = main(["--build", str(build_root), "simulate", "--pack", "revised", "--players", "2", "--games", str(games),
                 "--agents", "random", "--seed", "5", "--batch", "5", "--out", str(out), "--json", "--quiet", *extra])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def test_one_worker_and_two_workers_give_the_same_results(revised, build_root, tmp_path, capsys):
    one = _simulate(capsys, build_root, tmp_path / "one", "--workers", "1")
    two = _simulate(capsys, build_root, tmp_path / "two", "--workers", "2")
    assert one["games"] == two["games"] == 20
    assert one["results_hash"] == two["results_hash"]
    assert one["mean_score_per_seat"] == two["mean_score_per_seat"]
    assert len(one["mean_score_per_seat"]) == 2 and len(one["results_hash"]) == 64
    other_seed = _simulate(capsys, build_root, tmp_path / "three", "--workers", "1", "--seed", "6")
    assert other_seed["results_hash"] != one["results_hash"]


def test_a_finished_run_is_not_played_again(revised, build_root, tmp_path, capsys):
    first = _simulate(capsys, build_root, tmp_path / "run", "--workers", "1", games=10)
    again = _simulate(capsys, build_root, tmp_path / "run", "--workers", "2", games=10)
    assert first["played_now"] == 10 and again["played_now"] == 0
    assert again["results_hash"] == first["results_hash"]


def test_the_rows_are_read_by_duckdb(revised, build_root, tmp_path, capsys):
    import duckdb
    _simulate(capsys, build_root, tmp_path / "run", "--workers", "1", games=10)
    players = str(tmp_path / "run" / "players" / "*.parquet")
    games = str(tmp_path / "run" / "games" / "*.parquet")
    con = duckdb.connect()
    assert con.execute(f"select count(*), count(distinct game) from read_parquet('{players}')").fetchone() == (20, 10)
    assert con.execute(f"select count(*) from read_parquet('{games}')").fetchone() == (10,)
    # every player was dealt 7 occupations and 7 minors; the cards played carry their round
    dealt, = con.execute(f"select min(len(dealt)) from read_parquet('{players}')").fetchone()
    assert dealt == 14
    rounds = con.execute(f"select distinct u.p.round from read_parquet('{players}'), "
                         "unnest(played) as u(p)").fetchall()
    assert rounds and all(1 <= r <= 14 for r, in rounds)
    # the score columns add up to the total
    cols = [c for c, in con.execute(f"select column_name from (describe select * from read_parquet('{players}'))")
            .fetchall() if c.startswith("score_")]
    assert "score_fields" in cols and "score_begging" in cols
    wrong, = con.execute(f"select count(*) from read_parquet('{players}') where {' + '.join(cols)} <> total").fetchone()
    assert wrong == 0
    # one winner a game, and the winner's seat is the games row's
    assert con.execute(f"select count(*) from read_parquet('{players}') p join read_parquet('{games}') g "
                       "using (game) where p.win and p.seat = g.winner").fetchone() == (10,)


def test_decks_limit_the_cards_dealt(revised, build_root, tmp_path, capsys):
    import duckdb
    _simulate(capsys, build_root, tmp_path / "run", "--workers", "1", "--decks", "A", games=5)
    deck = {cid: c.deck for cid, c in revised.cards.items()}
    dealt = duckdb.sql(f"select distinct unnest(dealt) from read_parquet('{tmp_path}/run/players/*.parquet')").fetchall()
    assert dealt and {deck[c] for c, in dealt} == {"A"}


def test_a_run_of_other_settings_is_refused(revised, build_root, tmp_path, capsys):
    _simulate(capsys, build_root, tmp_path / "run", "--workers", "1", games=5)
    before = sorted(p.name for p in (tmp_path / "run" / "games").iterdir())
    code = main(["--build", str(build_root), "simulate", "--pack", "revised", "--players", "2", "--games", "5",
                 "--agents", "random", "--seed", "6", "--batch", "5", "--out", str(tmp_path / "run"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == (f"error: {tmp_path / 'run'} holds a run of other settings: seed 5 (now 6); give another --out, "
                   "or the same settings to continue it\n")
    assert sorted(p.name for p in (tmp_path / "run" / "games").iterdir()) == before


@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "error: --games 0: give a whole number of at least 1\n"),
    (["--decks", "Z"], "error: --decks: pack 'revised' has no deck 'Z'; its decks are A, B\n"),
    (["--players", "7"], "error: pack 'revised' is for 1 to 4 players, not 7\n"),
    (["--agents", "human,random"], "error: --agents: 'human' plays at a terminal; simulated games need agents that "
                                   "play on their own (random, greedy, search)\n"),
    (["--workers", "2", "--ray", "auto"], "error: give --workers (a local process pool) or --ray (a Ray cluster), "
                                          "not both\n"),
])
def test_wrong_options(revised, build_root, tmp_path, capsys, argv, message):
    code = main(["--build", str(build_root), "simulate", "--pack", "revised", "--agents", "random",
                 "--out", str(tmp_path / "run"), "--quiet", *argv])
    assert code == 2
    assert capsys.readouterr().err == message
    assert not (tmp_path / "run").exists()


def test_kill_minus_9_then_resume_gives_the_uninterrupted_results(revised, build_root, tmp_path, capsys):
    games = 150
    cmd = [sys.executable, "-m", "compiler.cli", "--build", str(build_root), "simulate", "--pack", "revised",
           "--players", "2", "--games", str(games), "--agents", "random", "--seed", "9", "--batch", "5",
           "--workers", "1", "--quiet", "--json", "--out", str(tmp_path / "killed")]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(cmd, cwd=str(ROOT), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    parts = tmp_path / "killed" / "games"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if parts.is_dir() and len(list(parts.glob("*.parquet"))) >= 3:
            break
        time.sleep(0.01)
    assert proc.poll() is None, f"the run ended before it was killed: {proc.stderr.read().decode()}"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done = len(list(parts.glob("*.parquet")))
    assert 3 <= done < games // 5
    resumed = _simulate(capsys, build_root, tmp_path / "killed", "--workers", "2", "--seed", "9", games=games)
    assert resumed["played_now"] == games - 5 * done
    whole = _simulate(capsys, build_root, tmp_path / "whole", "--workers", "1", "--seed", "9", games=games)
    assert resumed["games"] == whole["games"] == games
    assert resumed["results_hash"] == whole["results_hash"]


def test_a_local_ray_runtime_gives_the_same_results(revised, build_root, tmp_path, capsys):
    local = _simulate(capsys, build_root, tmp_path / "local", "--workers", "1")
    cmd = [sys.executable, "-m", "compiler.cli", "--build", str(build_root), "simulate", "--pack", "revised",
           "--players", "2", "--games", "20", "--agents", "random", "--seed", "5", "--batch", "5", "--ray", "auto",
           "--quiet", "--json", "--out", str(tmp_path / "ray")]
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(cmd, cwd=str(ROOT), env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    on_ray = json.loads(out.stdout.strip().splitlines()[-1])
    assert on_ray["games"] == 20
    assert on_ray["results_hash"] == local["results_hash"]
