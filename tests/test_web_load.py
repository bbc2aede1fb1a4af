"""50 games at once over HTTP on this machine, played to their end, the server killed and started again
in the middle: no decision lost or duplicated (compiler/web/load.py checks each game); p50 and p95 answer
times printed (and in `make bench`, key web_load)."""
from __future__ import annotations

import pytest

from compiler.web.load import run_load


@pytest.mark.slow
def test_fifty_concurrent_games_survive_a_restart(tmp_path, family, build_root):
    result = run_load(build_root, tmp_path / "games.sqlite3", games=50)
    print(result)
    assert result["games"] == 50 and result["restarted_after_answers"] >= 500
    assert result["answers"] > 50 * 20
    assert 0 < result["answer_p50_ms"] <= result["answer_p95_ms"]
