"""agricola balance: the figures are right, and the report opens in headless Chromium with no error."""
from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import pytest

from compiler import balance, docs
from compiler.cli import main

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "build" / "balance-screenshots"


def _run(build_root, out, players, games, seed=3, agents="random"):
    code = main(["--build", str(build_root), "simulate", "--pack", "revised", "--players", str(players),
                 "--games", str(games), "--agents", agents, "--seed", str(seed), "--workers", "1", "--quiet",
                 "--out", str(out)])
    assert code == 0


@pytest.fixture(scope="module")
def runs(tmp_path_factory, build_root, revised):
    folder = tmp_path_factory.mktemp("balance-runs")
    _run(build_root, folder / "p2", 2, 60)
    _run(build_root, folder / "p4", 4, 30)
    return folder


def _players_rows(folder):
    import pyarrow.parquet as pq
    rows = []
    for part in sorted((folder / "players").glob("*.parquet")):
        rows.extend(pq.read_table(part).to_pylist())
    return rows


def test_card_figures_match_the_rows(runs, revised):
    con = balance._connect(balance.find_runs(runs))
    stats = balance.card_stats(con, 2)
    rows = _players_rows(runs / "p2")
    checked = 0
    for card in sorted(stats)[:15]:
        s = stats[card]
        dealt = [r for r in rows if card in r["dealt"]]
        played = [r for r in dealt if card in [p["card"] for p in r["played"]]]
        not_played = [r for r in dealt if r not in played]
        assert (s.dealt, s.played, s.not_played) == (len(dealt), len(played), len(not_played))
        if played and not_played:
            diff = statistics.mean(r["total"] for r in played) - statistics.mean(r["total"] for r in not_played)
            assert s.diff == pytest.approx(diff)
            assert s.win_played == pytest.approx(sum(r["win"] for r in played) / len(played))
            checked += 1
        if played:
            rounds = [next(p["round"] for p in r["played"] if p["card"] == card) for r in played]
            assert s.mean_round == pytest.approx(statistics.mean(rounds))
            assert sum(s.rounds.values()) == len(played)
    assert checked >= 3


def test_wilson_interval():
    lo, hi = balance.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert balance.wilson(0, 0) is None


def _a_card(pack):
    """An occupation of the pack (tests name no card: tests/test_runtime_is_generic.py)."""
    return sorted(c for c, d in pack.cards.items() if d.kind == "occupation")[0]


def test_the_report_opens_in_chromium_without_errors(runs, build_root, revised, tmp_path, capsys):
    chosen = _a_card(revised)
    report = tmp_path / "report.html"
    assert main(["--build", str(build_root), "balance", str(runs), "--out", str(report), "--min-games", "5"]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {report}: 90 games")
    card = tmp_path / "card.html"
    assert main(["--build", str(build_root), "balance", str(runs), "--out", str(card), "--card", chosen,
                 "--min-games", "5"]) == 0
    text = report.read_text(encoding="utf-8")
    assert "60 games of 2 players; 30 games of 4 players" in text
    assert "Balance under these agents is not balance under people" in text
    assert "picks uniformly at random among the legal options" in text
    for heading in ("Score distributions", "First-player advantage", "Cards, 2 players", "Cards, 4 players",
                    "Strongest cards", "Weakest cards", "Every card"):
        assert heading in text, heading
    assert "<script" not in text and not re.search(r"(src|href)=[\"']?(https?:)?//", text)
    card_text = card.read_text(encoding="utf-8")
    name = revised.cards[chosen].name
    assert f"<h2>{name}, 2 players</h2>" in card_text and f"<pre>{name} (occupation" in card_text
    assert "Dealt in " in card_text and "score difference of every card of the pack" in card_text
    shots = _browse([(report, "report.png"), (card, "card.png")])
    assert all(p.stat().st_size > 10_000 for p in shots)


def _browse(pages):
    """Open each page in headless Chromium: no console error, no failed or outside request; a screenshot."""
    from playwright.sync_api import sync_playwright
    chromium = docs.find_chromium()
    assert chromium, "Chromium is not installed: run `make browser`"
    SHOTS.mkdir(parents=True, exist_ok=True)
    shots = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True,
                                    args=[f for f in docs.CHROMIUM_FLAGS if f != "--headless"])
        try:
            for path, shot in pages:
                page = browser.new_page(viewport={"width": 1200, "height": 1500})
                errors, requests = [], []
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("requestfailed", lambda r: errors.append(f"failed: {r.url}"))
                page.on("request", lambda r: requests.append(r.url))
                page.goto(path.as_uri(), wait_until="load")
                assert not errors, errors
                assert all(u.startswith("file://") or u.startswith("data:") for u in requests), requests
                figures = page.eval_on_selector_all(".figure svg", "els => els.map(e => e.getBoundingClientRect().width)")
                assert figures and min(figures) > 200, figures
                page.screenshot(path=str(SHOTS / shot), full_page=True)
                shots.append(SHOTS / shot)
                page.close()
        finally:
            browser.close()
    return shots


def test_wrong_inputs(runs, build_root, revised, tmp_path, capsys):
    chosen = _a_card(revised)
    assert main(["--build", str(build_root), "balance", str(runs), "--card", chosen + "x",
                 "--out", str(tmp_path / "x.html")]) == 2
    assert capsys.readouterr().err == (f"error: --card: no hand card '{chosen}x' in pack 'revised' "
                                       f"(did you mean '{chosen}'?)\n")
    assert not (tmp_path / "x.html").exists()
    assert main(["--build", str(build_root), "balance", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"error: {tmp_path}: no simulation here (no run.json with games beside it); "
                                       "write one with agricola simulate --out\n")


@pytest.mark.slow
def test_the_report_of_20000_four_player_games_opens_in_chromium(build_root, revised, tmp_path, capsys):
    """The issue's report: 20,000 4-player games of revised (random agents: greedy ones take hours here;
    `make balance-report` writes the greedy one)."""
    code = main(["--build", str(build_root), "simulate", "--pack", "revised", "--players", "4", "--games", "20000",
                 "--agents", "random", "--seed", "1", "--workers", "2", "--batch", "100", "--quiet", "--json",
                 "--out", str(tmp_path / "p4")])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["games"] == 20000
    report = ROOT / "build" / "balance" / "revised-4p-20000-random.html"
    assert main(["--build", str(build_root), "balance", str(tmp_path / "p4"), "--out", str(report)]) == 0
    assert "20,000 games of 4 players" in report.read_text(encoding="utf-8")
    _browse([(report, "report-20000-4p.png")])
