"""The balance report (``agricola balance``): a static HTML page from the runs of ``agricola simulate``.

One self-contained file: the plots are inline SVG drawn by matplotlib, no script and no resource from the
network. It reads the Parquet files with DuckDB. What it shows, per player count: score distributions per
seat, the first-player advantage, and for every hand card the players who played it against the players
who were dealt it and did not (win rate and mean score, with 95% confidence intervals and the number of
games), the strongest and weakest cards; and with ``card`` a designer's view of one card.
"""
from __future__ import annotations

import html
import io
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

Z95 = 1.959963984540054

# What each agent kind is, in plain words (the report says it).
AGENT_WORDS = {
    "random": "picks uniformly at random among the legal options of every request",
    "greedy": ("looks one placement ahead: it tries every action space on a copy of the game, answers the "
               "follow-up requests by fixed rules of thumb (trying each card a space offers) and takes the "
               "space that raises a hand-written estimate of its position most (runtime/agents.py, heuristic)"),
    "search": ("plays several random continuations of the game from each option of a placement (hidden hands "
               "sampled), finished by greedy play, and takes the option with the best mean result "
               "(runtime/search.py)"),
}


class BalanceError(Exception):
    """A folder that holds no simulation, or a card the runs do not know."""


@dataclass
class Run:
    folder: Path
    settings: dict


@dataclass
class CardStat:
    card: str
    players: int
    dealt: int                 # player-games in which a player was dealt the card
    played: int                # … and played it
    not_played: int
    win_played: float | None
    win_not: float | None
    win_played_ci: tuple | None
    win_not_ci: tuple | None
    mean_played: float | None
    mean_not: float | None
    diff: float | None         # mean score played minus mean score dealt-but-not-played
    diff_ci: tuple | None
    mean_round: float | None   # mean round in which it was played
    rounds: dict = field(default_factory=dict)


def find_runs(folder: Path) -> list[Run]:
    """The run in ``folder``, or the runs in its subfolders (one per player count, say)."""
    folder = Path(folder)
    metas = [folder / "run.json"] if (folder / "run.json").is_file() else sorted(folder.glob("*/run.json"))
    runs = []
    for meta in metas:
        try:
            settings = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise BalanceError(f"{meta}: not a simulation's settings file ({exc})") from None
        if not isinstance(settings, dict) or settings.get("format") != "agricola-simulation":
            raise BalanceError(f"{meta}: not a simulation's settings file")
        if any((meta.parent / "games").glob("part-*.parquet")):
            runs.append(Run(meta.parent, settings))
    if not runs:
        raise BalanceError(f"{folder}: no simulation here (no run.json with games beside it); "
                           "write one with agricola simulate --out")
    packs = {r.settings["pack"] for r in runs}
    if len(packs) > 1:
        raise BalanceError(f"{folder}: runs of several packs ({', '.join(sorted(packs))}); one pack a report")
    return runs


def _connect(runs: list[Run]):
    import duckdb
    con = duckdb.connect()
    parts = []
    for i, run in enumerate(runs):
        glob = str(run.folder / "players" / "part-*.parquet").replace("'", "''")
        games = str(run.folder / "games" / "part-*.parquet").replace("'", "''")
        # only the batches done: a players file counts when its games file exists
        parts.append(f"select {i} as run, {int(run.settings['players'])} as players_n, p.* from read_parquet('{glob}', union_by_name=true) p "
                     f"semi join read_parquet('{games}') g using (game)")
    con.execute("create view players as " + " union all by name ".join(parts))
    return con


def wilson(k: int, n: int) -> tuple | None:
    """The 95% Wilson interval of a proportion k/n."""
    if n == 0:
        return None
    p = k / n
    d = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / d
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / d
    return (centre - half, centre + half)


def mean_ci(mean, sd, n) -> tuple | None:
    if n < 2 or sd is None:
        return None
    half = Z95 * sd / math.sqrt(n)
    return (mean - half, mean + half)


def card_stats(con, players: int) -> dict[str, CardStat]:
    """Every hand card dealt in the games of ``players`` players: played against dealt-but-not-played."""
    rows = con.execute("""
        with d as (
            select total, win::int as win, unnest(dealt) as card,
                   [x.card for x in played] as cards, played
            from players where players_n = ?)
        select card, list_contains(cards, card) as was_played, count(*) as n, avg(total) as mean,
               stddev_samp(total) as sd, sum(win) as wins,
               avg([x.round for x in played if x.card = card][1]) as mean_round
        from d group by card, was_played order by card, was_played""", [players]).fetchall()
    groups: dict[str, dict] = {}
    for card, was_played, n, mean, sd, wins, mean_round in rows:
        groups.setdefault(card, {})[bool(was_played)] = (n, mean, sd, int(wins), mean_round)
    rounds = {}
    for card, r, n in con.execute("""
            with d as (select unnest(dealt) as card, played from players where players_n = ?)
            select card, [x.round for x in played if x.card = card][1] as r, count(*) from d
            where r is not null group by card, r""", [players]).fetchall():
        rounds.setdefault(card, {})[int(r)] = n
    out = {}
    for card, g in groups.items():
        n1, m1, s1, w1, r1 = g.get(True, (0, None, None, 0, None))
        n0, m0, s0, w0, _ = g.get(False, (0, None, None, 0, None))
        diff = diff_ci = None
        if n1 and n0:
            diff = m1 - m0
            if n1 > 1 and n0 > 1:
                half = Z95 * math.sqrt((s1 or 0) ** 2 / n1 + (s0 or 0) ** 2 / n0)
                diff_ci = (diff - half, diff + half)
        out[card] = CardStat(card, players, n1 + n0, n1, n0, w1 / n1 if n1 else None, w0 / n0 if n0 else None,
                             wilson(w1, n1), wilson(w0, n0), m1, m0, diff, diff_ci, r1, rounds.get(card, {}))
    return out


# ---------------------------------------------------------------- plots

def _bins(lo, hi, most: int = 40) -> list[int]:
    """Whole-number bin edges from lo to hi, at most about ``most`` bins."""
    step = max(1, math.ceil((int(hi) - int(lo) + 1) / most))
    return list(range(int(lo), int(hi) + step + 1, step))


def _svg(fig) -> str:
    import matplotlib.pyplot as plt
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text[text.index("<svg"):], flags=re.S)
    return text


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "agricola-balance"  # the same ids in every report
    matplotlib.rcParams["svg.fonttype"] = "none"               # text stays text (searchable, small)
    import matplotlib.pyplot as plt
    return plt


def plot_scores(con, counts) -> str:
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(counts), figsize=(5.2 * len(counts), 3.4), squeeze=False)
    for ax, n in zip(axes[0], counts):
        lo, hi = con.execute("select min(total), max(total) from players where players_n = ?", [n]).fetchone()
        bins = _bins(lo, hi)
        for seat in range(n):
            totals = [t for t, in con.execute("select total from players where players_n = ? and seat = ?",
                                              [n, seat]).fetchall()]
            ax.hist(totals, bins=bins, histtype="step", linewidth=1.4, label=f"P{seat + 1}")
        ax.set_title(f"{n} players: final score per seat")
        ax.set_xlabel("score")
        ax.set_ylabel("players")
        ax.legend(fontsize=8)
    return _svg(fig)


def plot_positions(rows_by_count) -> str:
    plt = _pyplot()
    counts = sorted(rows_by_count)
    fig, axes = plt.subplots(1, len(counts), figsize=(5.2 * len(counts), 3.2), squeeze=False)
    for ax, n in zip(axes[0], counts):
        rows = rows_by_count[n]
        xs = [r["position"] + 1 for r in rows]
        ys = [r["win_rate"] for r in rows]
        err = [[r["win_rate"] - r["win_ci"][0] for r in rows], [r["win_ci"][1] - r["win_rate"] for r in rows]]
        ax.bar(xs, ys, yerr=err, capsize=4, color="#6a8f4e")
        ax.axhline(1 / n, color="#555", linestyle="--", linewidth=1, label="fair share")
        ax.set_xticks(xs)
        ax.set_xticklabels([f"{x}{'st' if x == 1 else 'nd' if x == 2 else 'rd' if x == 3 else 'th'}" for x in xs])
        ax.set_title(f"{n} players: win rate by place in the first round")
        ax.set_ylabel("win rate (95% CI)")
        ax.legend(fontsize=8)
    return _svg(fig)


def plot_cards(stats: list[CardStat], names: dict, title: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 0.28 * len(stats) + 1.2))
    ys = list(range(len(stats)))[::-1]
    for y, s in zip(ys, stats):
        lo, hi = s.diff_ci or (s.diff, s.diff)
        ax.plot([lo, hi], [y, y], color="#444", linewidth=1.2)
        ax.plot([s.diff], [y], "o", color="#b5523b" if s.diff < 0 else "#3b6fb5")
    ax.axvline(0, color="#888", linewidth=1)
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{names.get(s.card, s.card)} (n={s.played}/{s.not_played})" for s in stats], fontsize=8)
    ax.set_xlabel("mean score when played minus when dealt and not played (95% CI)")
    ax.set_title(title)
    return _svg(fig)


def plot_card_view(stat: CardStat, all_stats: list[CardStat], con, names) -> str:
    plt = _pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(15, 3.4))
    diffs = [s.diff for s in all_stats if s.diff is not None]
    axes[0].hist(diffs, bins=20, color="#bbb")
    if stat.diff is not None:
        axes[0].axvline(stat.diff, color="#b5523b", linewidth=2, label=names.get(stat.card, stat.card))
        axes[0].legend(fontsize=8)
    axes[0].set_title("score difference of every card of the pack")
    axes[0].set_xlabel("played minus dealt-not-played")
    rounds = sorted(stat.rounds)
    axes[1].bar(rounds, [stat.rounds[r] for r in rounds], color="#6a8f4e")
    axes[1].set_title("round in which it was played")
    axes[1].set_xlabel("round")
    axes[1].set_ylabel("games")
    played, not_played = [], []
    for total, was in con.execute("""
            select total, list_contains([x.card for x in played], ?) from players
            where players_n = ? and list_contains(dealt, ?)""", [stat.card, stat.players, stat.card]).fetchall():
        (played if was else not_played).append(total)
    if played or not_played:
        lo = min(played + not_played)
        hi = max(played + not_played)
        bins = _bins(lo, hi)
        axes[2].hist(not_played, bins=bins, histtype="step", linewidth=1.4, label="dealt, not played")
        axes[2].hist(played, bins=bins, histtype="step", linewidth=1.4, label="played")
        axes[2].legend(fontsize=8)
    axes[2].set_title("final score of the players dealt it")
    axes[2].set_xlabel("score")
    return _svg(fig)


# ---------------------------------------------------------------- the page

CSS = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1200px; color: #222; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85rem; margin: 0.8rem 0; }
th, td { padding: 0.2rem 0.5rem; border-bottom: 1px solid #e4e4e4; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.note { background: #fff6e0; border-left: 4px solid #e0a800; padding: 0.6rem 1rem; }
.figure svg { max-width: 100%; height: auto; }
.small { color: #666; font-size: 0.85rem; }
"""


def _e(x) -> str:
    return html.escape(str(x))


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _num(x, digits=2) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _ci(ci, pct=False) -> str:
    if ci is None:
        return "–"
    return f"{_pct(ci[0])} – {_pct(ci[1])}" if pct else f"{ci[0]:+.2f} – {ci[1]:+.2f}"


def _card_table(stats: list[CardStat], names: dict, kinds: dict) -> str:
    head = ("<tr><th>card</th><th>kind</th><th>games dealt</th><th>played</th><th>win rate played</th>"
            "<th>95% CI</th><th>win rate not played</th><th>95% CI</th><th>mean score played</th>"
            "<th>not played</th><th>difference</th><th>95% CI</th><th>mean round played</th></tr>")
    body = []
    for s in stats:
        body.append(f"<tr id='card-{_e(s.card)}'><td>{_e(names.get(s.card, s.card))} <span class='small'>"
                    f"{_e(s.card)}</span></td><td>{_e(kinds.get(s.card, ''))}</td><td>{s.dealt}</td>"
                    f"<td>{s.played}</td><td>{_pct(s.win_played)}</td><td>{_ci(s.win_played_ci, True)}</td>"
                    f"<td>{_pct(s.win_not)}</td><td>{_ci(s.win_not_ci, True)}</td><td>{_num(s.mean_played)}</td>"
                    f"<td>{_num(s.mean_not)}</td><td>{'–' if s.diff is None else f'{s.diff:+.2f}'}</td>"
                    f"<td>{_ci(s.diff_ci)}</td><td>{_num(s.mean_round, 1)}</td></tr>")
    return f"<table>{head}{''.join(body)}</table>"


def ranked(stats: dict[str, CardStat], min_games: int) -> list[CardStat]:
    """The cards with at least ``min_games`` games in each group, from the largest score difference down."""
    ok = [s for s in stats.values() if s.diff is not None and s.played >= min_games and s.not_played >= min_games]
    return sorted(ok, key=lambda s: (-s.diff, s.card))


@dataclass
class Report:
    path: Path
    games: int
    cards: int
    html: str


def build_report(folder: Path, out: Path, pack, card: str | None = None, card_text: dict | None = None,
                 min_games: int = 30, top: int = 10) -> Report:
    """Write the report of the runs in ``folder`` to ``out`` (an .html file)."""
    runs = find_runs(folder)
    con = _connect(runs)
    counts_by_run = {i: int(r.settings["players"]) for i, r in enumerate(runs)}
    counts = sorted(set(counts_by_run.values()))
    names = {cid: c.name for cid, c in pack.cards.items()}
    kinds = {cid: c.kind for cid, c in pack.cards.items()}
    if card is not None and card not in pack.cards:
        from .diagnostics import did_you_mean
        raise BalanceError(f"--card: no hand card '{card}' in pack '{pack.id}'{did_you_mean(card, pack.cards)}")
    games = {n: con.execute("select count(distinct (run, game)) from players where players_n = ?", [n]).fetchone()[0]
             for n in counts}
    agents = sorted({a for r in runs for a in r.settings["agents"]})
    stale = sorted({r.settings["content_hash"][:12] for r in runs if r.settings["content_hash"] != pack.content_hash})
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Balance of {_e(pack.id)}"
             f"{' – ' + _e(names[card]) if card else ''}</title><style>{CSS}</style></head><body>",
             f"<h1>Balance report: pack {_e(pack.id)}{' – card ' + _e(names[card]) if card else ''}</h1>",
             "<p>" + "; ".join(f"{games[n]:,} games of {n} players" for n in counts) + ". Runs: "
             + ", ".join(f"{_e(r.folder.name)} (seed {_e(r.settings['seed'])}, agents "
                         f"{_e(','.join(r.settings['agents']))}, decks "
                         f"{_e(','.join(r.settings['decks']) if r.settings.get('decks') else 'all')})" for r in runs)
             + ".</p>"]
    if stale:
        parts.append(f"<p class='note'>The pack has changed since these games were played (content hash "
                     f"{_e(', '.join(stale))} then, {_e(pack.content_hash[:12])} now): names and texts are "
                     "today's, the games are not.</p>")
    parts.append("<div class='note'><p><strong>Who played these games.</strong> Every game was played by "
                 "programs, not people:</p><ul>"
                 + "".join(f"<li><strong>{_e(a)}</strong>: {_e(AGENT_WORDS.get(a, 'an agent of this project'))}"
                           "</li>" for a in agents)
                 + "</ul><p>Balance under these agents is not balance under people. A card the agents misuse "
                   "looks weak, a card whose strength needs a plan over several rounds looks weaker than it is, "
                   "and the agents do not choose cards the way people do. The figures compare players who played "
                   "a card with players who were dealt it and did not: players play a card when it suits their "
                   "farm, so the difference measures the card together with the situations it is played in, "
                   "not the card alone. Use them to find cards to look at, not to prove a card too strong.</p>"
                   "</div>")
    all_stats = {n: card_stats(con, n) for n in counts}
    if card is None:
        parts.append("<h2>Score distributions</h2><div class='figure'>" + plot_scores(con, counts) + "</div>")
        parts.append(_seat_table(con, counts))
        parts.append("<h2>First-player advantage</h2><p>Win rate and mean score by place in the first round "
                     "(1st is the start player), with 95% confidence intervals.</p>")
        pos = {n: _positions(con, n) for n in counts}
        parts.append("<div class='figure'>" + plot_positions(pos) + "</div>")
        parts.append(_position_table(pos))
        for n in counts:
            stats = all_stats[n]
            if not stats:
                parts.append(f"<h2>Cards, {n} players</h2><p>No hand cards were dealt in these games.</p>")
                continue
            order = ranked(stats, min_games)
            parts.append(f"<h2>Cards, {n} players</h2><p>For every hand card, the players who were dealt it: "
                         f"those who played it against those who did not. The strongest and weakest cards are "
                         f"ranked by the difference in mean final score, among the cards with at least "
                         f"{min_games} games in each group ({len(order)} of {len(stats)} cards).</p>")
            if order:
                strong, weak = order[:top], order[-top:] if len(order) > top else []
                parts.append(f"<h3>Strongest cards</h3><div class='figure'>"
                             + plot_cards(strong, names, f"{n} players: the {len(strong)} strongest cards")
                             + "</div>")
                if weak:
                    parts.append(f"<h3>Weakest cards</h3><div class='figure'>"
                                 + plot_cards(weak, names, f"{n} players: the {len(weak)} weakest cards")
                                 + "</div>")
            every = sorted(stats.values(), key=lambda s: (s.diff is None, -(s.diff or 0), s.card))
            parts.append("<h3>Every card</h3>" + _card_table(every, names, kinds))
    else:
        for n in counts:
            stats = all_stats[n]
            stat = stats.get(card)
            parts.append(f"<h2>{_e(names[card])}, {n} players</h2>")
            text = (card_text or {}).get(card)
            if text:
                parts.append("<pre>" + _e(text) + "</pre>")
            if stat is None:
                parts.append("<p>This card was never dealt in these games.</p>")
                continue
            order = ranked(stats, min_games)
            place = next((i for i, s in enumerate(order) if s.card == card), None)
            where = (f"It ranks {place + 1} of {len(order)} cards with at least {min_games} games in each group "
                     f"(1 is the strongest)." if place is not None else
                     f"It has fewer than {min_games} games in a group: it is not ranked.")
            parts.append(f"<p>Dealt in {stat.dealt:,} games, played in {stat.played:,}. {where}</p>")
            parts.append(_card_table([stat], names, kinds))
            parts.append("<div class='figure'>" + plot_card_view(stat, list(stats.values()), con, names) + "</div>")
    parts.append("<p class='small'>Written by agricola balance from the Parquet files of agricola simulate "
                 "(docs/simulation.md). Confidence intervals: Wilson for win rates, normal approximation for "
                 "means and their differences.</p></body></html>")
    text = "\n".join(parts)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    return Report(out, sum(games.values()), sum(len(s) for s in all_stats.values()), text)


def _positions(con, n) -> list[dict]:
    rows = []
    for position, k, wins, mean, sd in con.execute("""
            select position, count(*), sum(win::int), avg(total), stddev_samp(total) from players
            where players_n = ? group by position order by position""", [n]).fetchall():
        rows.append({"position": position, "games": k, "win_rate": wins / k, "win_ci": wilson(int(wins), k),
                     "mean": mean, "mean_ci": mean_ci(mean, sd, k)})
    return rows


def _position_table(pos) -> str:
    out = ["<table><tr><th>players</th><th>place</th><th>games</th><th>win rate</th><th>95% CI</th>"
           "<th>mean score</th><th>95% CI</th></tr>"]
    for n in sorted(pos):
        for r in pos[n]:
            ci = r["mean_ci"]
            out.append(f"<tr><td>{n}</td><td>{r['position'] + 1}</td><td>{r['games']:,}</td>"
                       f"<td>{_pct(r['win_rate'])}</td><td>{_ci(r['win_ci'], True)}</td><td>{_num(r['mean'])}</td>"
                       f"<td>{'–' if ci is None else f'{ci[0]:.2f} – {ci[1]:.2f}'}</td></tr>")
    return "".join(out) + "</table>"


def _seat_table(con, counts) -> str:
    out = ["<table><tr><th>players</th><th>seat</th><th>agent</th><th>games</th><th>mean score</th><th>sd</th>"
           "<th>win rate</th></tr>"]
    for n in counts:
        for seat, agent, k, mean, sd, wins in con.execute("""
                select seat, string_agg(distinct agent, ','), count(*), avg(total), stddev_samp(total),
                       sum(win::int) from players where players_n = ? group by seat order by seat""", [n]).fetchall():
            out.append(f"<tr><td>{n}</td><td>P{seat + 1}</td><td>{_e(agent)}</td><td>{k:,}</td><td>{_num(mean)}</td>"
                       f"<td>{_num(sd)}</td><td>{_pct(wins / k)}</td></tr>")
    return "".join(out) + "</table>"
