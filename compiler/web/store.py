"""Games of the web server kept in SQLite (the standard library's sqlite3; one file, its path chosen with
``agricola serve --db``).

A game is its pack (id and content hash), player count, seed and seats (the agents of a save file,
'open' for a person), the decks its hands were dealt from when the players chose them (a table of its
own, so that a file written before it existed still opens), one secret token per person's seat, and its
decisions in order. Every decision
is written in a transaction before the server answers the request that caused it; a restarted server
replays each open game from its decisions (as ``resume`` does) and goes on.
"""
from __future__ import annotations

import json
import secrets
import sqlite3
import time
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    pack TEXT NOT NULL,
    pack_hash TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    agents TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    token TEXT NOT NULL UNIQUE,
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS game_decks (
    game TEXT PRIMARY KEY REFERENCES games(id),
    decks TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (
    game TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    option TEXT NOT NULL,
    PRIMARY KEY (game, number)
);
"""


class Store:
    """The games of one server in one SQLite file."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)

    def close(self):
        self.db.close()

    def new_game(self, pack, players: int, seed: int, agents: list, decisions: list,
                 decks=None) -> tuple[str, dict]:
        """Store a new game (``decks``: the decks dealt from, None for every deck); returns its id and the
        token of each person's seat ({seat: token})."""
        game_id = secrets.token_hex(8)
        tokens = {i: secrets.token_urlsafe(16) for i, a in enumerate(agents) if a.get("kind") == "open"}
        with self._transaction() as db:
            db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                       (game_id, pack.id, pack.content_hash, players, seed, json.dumps(agents), time.time()))
            db.executemany("INSERT INTO seats VALUES (?, ?, ?)", [(game_id, s, t) for s, t in tokens.items()])
            if decks is not None:
                db.execute("INSERT INTO game_decks VALUES (?, ?)", (game_id, json.dumps(list(decks))))
            self._insert(db, game_id, 0, decisions)
        return game_id, tokens

    def add_decisions(self, game_id: str, start: int, decisions: list, finished: bool) -> None:
        """Append decisions ``start``+1 … (as [seat, kind, option]) in one transaction; a decision number
        stored already is refused (sqlite3.IntegrityError), so none is written twice."""
        with self._transaction() as db:
            self._insert(db, game_id, start, decisions)
            if finished:
                db.execute("UPDATE games SET finished = 1 WHERE id = ?", (game_id,))

    def truncate(self, game_id: str, keep: int) -> None:
        """Keep the first ``keep`` decisions only (a person took back a decision)."""
        with self._transaction() as db:
            db.execute("DELETE FROM decisions WHERE game = ? AND number > ?", (game_id, keep))
            db.execute("UPDATE games SET finished = 0 WHERE id = ?", (game_id,))

    @staticmethod
    def _insert(db, game_id, start, decisions):
        db.executemany("INSERT INTO decisions VALUES (?, ?, ?, ?, ?)",
                       [(game_id, start + k + 1, d[0], d[1], json.dumps(d[2])) for k, d in enumerate(decisions)])

    def _transaction(self):
        return _Transaction(self.db)

    def game(self, game_id: str) -> dict | None:
        """The stored game: id, pack, pack_hash, players, seed, agents, decks, finished, decisions, tokens."""
        row = self.db.execute("SELECT id, pack, pack_hash, players, seed, agents, finished FROM games WHERE id = ?",
                              (game_id,)).fetchone()
        if row is None:
            return None
        decisions = [[seat, kind, json.loads(option)] for seat, kind, option in self.db.execute(
            "SELECT seat, kind, option FROM decisions WHERE game = ? ORDER BY number", (game_id,))]
        tokens = dict(self.db.execute("SELECT seat, token FROM seats WHERE game = ?", (game_id,)).fetchall())
        decks = self.db.execute("SELECT decks FROM game_decks WHERE game = ?", (game_id,)).fetchone()
        return {"id": row[0], "pack": row[1], "pack_hash": row[2], "players": row[3], "seed": row[4],
                "agents": json.loads(row[5]), "decks": json.loads(decks[0]) if decks else None,
                "finished": bool(row[6]), "decisions": decisions, "tokens": tokens}

    def game_ids(self, open_only: bool = False) -> list[str]:
        sql = "SELECT id FROM games" + (" WHERE finished = 0" if open_only else "") + " ORDER BY created"
        return [r[0] for r in self.db.execute(sql)]

    def listing(self) -> list[dict]:
        rows = self.db.execute("SELECT g.id, g.pack, g.players, g.finished, COUNT(d.number) FROM games g "
                               "LEFT JOIN decisions d ON d.game = g.id GROUP BY g.id ORDER BY g.created DESC")
        return [{"id": i, "pack": pack, "players": n, "finished": bool(f), "decisions": k} for i, pack, n, f, k in rows]


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT (ROLLBACK on an error): the decisions are on disk when it ends."""

    def __init__(self, db):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, value, tb):
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        return False
