"""Many games between agents, on a local process pool or a Ray cluster (``agricola simulate``).

Each game is a pure function of (pack content hash, decks, players, agents, base seed, game number): its
seed is derived from the base seed and its number, its agents are seeded from the game's seed. So the
results never depend on how many workers played them, or where.

A run's folder holds ``run.json`` (the settings) and Parquet files DuckDB reads, written in batches of
``batch`` games (the batch is the unit of resumption: a killed run plays again only the batches it had
not written, so no game is counted twice):

- ``games/part-NNNNNNNN.parquet``: one row per game (seed, start player, decisions, winner);
- ``players/part-NNNNNNNN.parquet``: one row per game and player (seat, position from the start player,
  agent, total, rank, win, one ``score_<category>`` column per scoring category, the cards dealt, and the
  cards played with the round of each).

A batch's players file is written before its games file, each by a rename: a batch counts as done when
its games file exists.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

FORMAT = "agricola-simulation"
VERSION = 1
DEFAULT_BATCH = 10


class SimulationError(Exception):
    """A run that cannot be started or continued (the message says why; nothing is written)."""


@dataclass(frozen=True)
class Settings:
    """What a run's results depend on (stored in run.json; a resumed run must have the same)."""
    pack: str
    content_hash: str
    players: int
    agents: tuple
    decks: tuple | None
    seed: int
    games: int
    batch: int = DEFAULT_BATCH

    def to_json(self) -> dict:
        d = asdict(self)
        d["agents"] = list(self.agents)
        d["decks"] = list(self.decks) if self.decks is not None else None
        return {"format": FORMAT, "version": VERSION, **d}


def game_seed(base: int, number: int) -> int:
    """The seed of game ``number`` of a run with base seed ``base`` (17 digits at most)."""
    digest = hashlib.sha256(f"agricola-simulate:{base}:{number}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def agent_for(kind: str, seed: int, seat: int):
    """A fresh agent of ``kind`` for ``seat`` of the game with seed ``seed``."""
    from runtime.savegame import make_agent
    return make_agent({"kind": kind, "seed": f"{seed}:{seat}"})


def _recording_game_class():
    from runtime.engine import Game

    class RecordingGame(Game):
        """A game that notes which hand card each player plays, and in which round."""

        def run_on_play(self, p, card):
            if card.id in self.pack.cards and hasattr(self, "played"):
                self.played.append((p.idx, card.id, self.round))
            super().run_on_play(p, card)
    return RecordingGame


def play_game(pack, settings: Settings, number: int) -> tuple[dict, list[dict]]:
    """Play game ``number`` of a run: its games row and its players rows."""
    seed = game_seed(settings.seed, number)
    n = settings.players
    game = _recording_game_class()(pack, n, seed=seed, decks=settings.decks,
                                   agents=[agent_for(k, seed, i) for i, k in enumerate(settings.agents)])
    game.played = []
    dealt = [list(p.hand_occupations) + list(p.hand_minors) for p in game.players]
    start = game.start_player
    game.play()
    order = game.ranking()
    rank = {seat: i + 1 for i, seat in enumerate(order)}
    game_row = {"game": number, "seed": seed, "players": n, "start_player": start, "decisions": game.decisions,
                "winner": order[0], "rounds": game.round}
    rows = []
    for seat, s in enumerate(game.scores):
        row = {"game": number, "seed": seed, "seat": seat, "position": (seat - start) % n,
               "agent": settings.agents[seat], "total": s["total"], "tie_break": s["tie_break"],
               "rank": rank[seat], "win": rank[seat] == 1, "dealt": dealt[seat],
               "played": [{"card": cid, "round": r} for who, cid, r in game.played if who == seat]}
        for cat, points in s["categories"].items():
            row[f"score_{cat}"] = points
        rows.append(row)
    return game_row, rows


# ---------------------------------------------------------------- workers

_WORKER = {}


def _worker_pack(pack_id: str, build_root: str, content_hash: str):
    key = (pack_id, build_root)
    if key not in _WORKER:
        from runtime.pack import load_pack
        pack = load_pack(pack_id, Path(build_root))
        if pack.content_hash != content_hash:
            raise SimulationError(f"the compiled pack '{pack_id}' in {build_root} is not the one the run started "
                                  f"with (content hash {pack.content_hash[:12]}, the run has {content_hash[:12]})")
        _WORKER[key] = pack
    return _WORKER[key]


def play_batch(settings_json: dict, build_root: str, start: int, count: int) -> tuple[int, list, list]:
    """Play games ``start`` … ``start + count - 1`` (in a worker process, or a Ray task)."""
    settings = settings_from_json(settings_json)
    pack = _worker_pack(settings.pack, build_root, settings.content_hash)
    games, players = [], []
    for number in range(start, start + count):
        g, rows = play_game(pack, settings, number)
        games.append(g)
        players.extend(rows)
    return start, games, players


def settings_from_json(d: dict) -> Settings:
    return Settings(pack=d["pack"], content_hash=d["content_hash"], players=int(d["players"]),
                    agents=tuple(d["agents"]), decks=tuple(d["decks"]) if d.get("decks") is not None else None,
                    seed=int(d["seed"]), games=int(d["games"]), batch=int(d.get("batch", DEFAULT_BATCH)))


# ---------------------------------------------------------------- the run folder

def _part(folder: Path, table: str, start: int) -> Path:
    return folder / table / f"part-{start:08d}.parquet"


def batches(settings: Settings) -> list[tuple[int, int]]:
    """(first game, number of games) of every batch of the run."""
    return [(s, min(settings.batch, settings.games - s)) for s in range(0, settings.games, settings.batch)]


def done_batches(folder: Path, settings: Settings) -> set[int]:
    """The first game of every batch already written."""
    return {s for s, _ in batches(settings) if _part(folder, "games", s).exists()}


def open_run(folder: Path, settings: Settings) -> bool:
    """Create the run folder, or check that an existing one holds a run of the same settings.
    Returns True when the run existed (it is continued)."""
    meta = folder / "run.json"
    if meta.exists():
        try:
            old = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise SimulationError(f"{meta}: not a simulation's settings file ({exc})") from None
        want = settings.to_json()
        if not isinstance(old, dict) or old.get("format") != FORMAT:
            raise SimulationError(f"{meta}: not a simulation's settings file")
        differ = [k for k in want if old.get(k) != want[k]]
        if differ:
            shown = ", ".join(f"{k} {old.get(k)!r} (now {want[k]!r})" for k in differ)
            raise SimulationError(f"{folder} holds a run of other settings: {shown}; give another --out, "
                                  "or the same settings to continue it")
        return True
    if folder.exists() and any(folder.iterdir()):
        raise SimulationError(f"{folder} is not empty and holds no simulation (no run.json); give another --out")
    for table in ("games", "players"):
        (folder / table).mkdir(parents=True, exist_ok=True)
    _write_atomic(meta, (json.dumps(settings.to_json(), indent=2, sort_keys=True) + "\n").encode())
    return False


def _write_atomic(path: Path, data: bytes):
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_batch(folder: Path, start: int, games: list, players: list):
    """The batch's players file, then its games file (which marks the batch done)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    for table, rows in (("players", players), ("games", games)):
        path = _part(folder, table, start)
        tmp = path.with_name(path.name + ".tmp")
        pq.write_table(pa.Table.from_pylist(rows), tmp)
        os.replace(tmp, path)


def read_rows(folder: Path, table: str, settings: Settings) -> list[dict]:
    """The rows of ``table`` of every batch done, in game order."""
    import pyarrow.parquet as pq
    rows = []
    for start in sorted(done_batches(folder, settings)):
        rows.extend(pq.read_table(_part(folder, table, start)).to_pylist())
    return rows


def results_hash(folder: Path, settings: Settings) -> str:
    """A hash over the sorted per-game results (every column of every players row, by game and seat)."""
    rows = sorted(read_rows(folder, "players", settings), key=lambda r: (r["game"], r["seat"]))
    h = hashlib.sha256()
    for r in rows:
        h.update(json.dumps({k: v for k, v in r.items() if v is not None}, sort_keys=True).encode())
        h.update(b"\n")
    return h.hexdigest()


def summary(folder: Path, settings: Settings, seconds: float, played: int, startup: float = 0.0) -> dict:
    """The run in numbers: games, mean score and win rate per seat, the results hash."""
    rows = read_rows(folder, "players", settings)
    n = settings.players
    games = len({r["game"] for r in rows})
    totals = [[r["total"] for r in rows if r["seat"] == s] for s in range(n)]
    wins = [sum(1 for r in rows if r["seat"] == s and r["win"]) for s in range(n)]
    by_position = [[r["total"] for r in rows if r["position"] == s] for s in range(n)]
    mean = lambda xs: round(sum(xs) / len(xs), 3) if xs else None  # noqa: E731
    return {"pack": settings.pack, "players": n, "agents": list(settings.agents),
            "decks": list(settings.decks) if settings.decks is not None else None, "seed": settings.seed,
            "games": games, "mean_score_per_seat": [mean(t) for t in totals],
            "win_rate_per_seat": [round(w / games, 4) if games else None for w in wins],
            "mean_score_per_position": [mean(t) for t in by_position],
            "results_hash": results_hash(folder, settings), "out": str(folder),
            "played_now": played, "seconds": round(seconds, 3), "startup_seconds": round(startup, 3)}


# ---------------------------------------------------------------- running

@dataclass
class Runner:
    """Plays the batches not yet written, writes each as it arrives, shows a progress bar."""
    folder: Path
    settings: Settings
    build_root: Path
    workers: int = 1
    ray_address: str | None = None
    progress: bool = True
    on_batch: object = None          # callback(start) after a batch is written (tests)
    startup: float = 0.0             # seconds spent joining or starting Ray
    _bar: object = field(default=None, repr=False)

    def run(self) -> int:
        """Play what is left; returns the number of games played now."""
        todo = [b for b in batches(self.settings) if b[0] not in done_batches(self.folder, self.settings)]
        left = sum(c for _, c in todo)
        from tqdm import tqdm
        self._bar = tqdm(total=self.settings.games, initial=self.settings.games - left, unit=" games",
                         disable=not self.progress, dynamic_ncols=True, smoothing=0.1)
        try:
            if not todo:
                return 0
            if self.ray_address is not None:
                self._run_ray(todo)
            elif self.workers == 1:
                for start, count in todo:
                    self._written(*play_batch(self.settings.to_json(), str(self.build_root), start, count))
            else:
                self._run_pool(todo)
        finally:
            self._bar.close()
        return left

    def _written(self, start, games, players):
        write_batch(self.folder, start, games, players)
        self._bar.update(len(games))
        if self.on_batch is not None:
            self.on_batch(start)

    def _run_pool(self, todo):
        import multiprocessing
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
        ctx = multiprocessing.get_context("spawn")
        cfg = self.settings.to_json()
        with ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx) as pool:
            pending = {pool.submit(play_batch, cfg, str(self.build_root), s, c) for s, c in todo}
            try:
                while pending:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for f in finished:
                        self._written(*f.result())
            except BaseException:
                for f in pending:
                    f.cancel()
                raise

    def _run_ray(self, todo):
        t = time.perf_counter()
        ray = connect_ray(self.ray_address)
        self.startup = time.perf_counter() - t
        remote = ray.remote(play_batch)
        cfg = self.settings.to_json()
        pending = [remote.remote(cfg, str(self.build_root), s, c) for s, c in todo]
        try:
            while pending:
                finished, pending = ray.wait(pending, num_returns=1)
                for ref in finished:
                    try:
                        result = ray.get(ref)
                    except ray.exceptions.RayTaskError as exc:
                        if isinstance(exc.cause, SimulationError):  # a worker's compiled pack differs
                            raise exc.cause from None
                        raise
                    self._written(*result)
        except BaseException:
            for ref in pending:
                ray.cancel(ref)
            raise


def connect_ray(address: str):
    """Join the Ray cluster at ``address``; ``auto`` joins a local Ray runtime, or starts one."""
    try:
        import ray
    except ImportError:
        raise SimulationError("--ray needs Ray: pip install 'agricola-compiler[ray]'") from None
    if ray.is_initialized():
        return ray
    # the workers import this module: on a cluster every node needs agricola installed and the pack compiled
    # at the same build path (docs/simulation.md)
    quiet = {"logging_level": "ERROR", "log_to_driver": False}
    if address == "auto":
        try:
            ray.init(address="auto", **quiet)
        except ConnectionError:  # no Ray runtime running on this machine: start one
            ray.init(include_dashboard=False, **quiet)
    else:
        ray.init(address=address, **quiet)
    return ray


def simulate(folder: Path, settings: Settings, build_root: Path, workers: int = 1, ray_address: str | None = None,
             progress: bool = True) -> dict:
    """Start or continue the run in ``folder``; returns its summary."""
    open_run(folder, settings)
    t = time.perf_counter()
    runner = Runner(folder, settings, build_root, workers, ray_address, progress)
    played = runner.run()
    return summary(folder, settings, time.perf_counter() - t, played, runner.startup)
