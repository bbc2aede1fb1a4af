"""What the web playtest server does, apart from HTTP: games at tables of people and agents, kept in
SQLite (compiler/web/store.py), the state of a game as the page shows it, answers checked and stored
before they are acknowledged, saves downloaded and uploaded, and packs recompiled when their files
change (hot reload for designers).

All of it runs in the server's one event-loop thread: a game held open is a greenlet, answered in the
thread that started it, and two answers to one game never interleave (neither handler awaits between
reading the game and storing its new decisions).
"""
from __future__ import annotations

import json
import tempfile
import threading
from pathlib import Path

from runtime.engine import IllegalDecision, LogMismatch
from runtime.pack import load_pack
from runtime.requests import norm
from runtime.savegame import MAX_SAVE_BYTES, MAX_SEED, SaveError, read_save

from ..table import HUMAN, Table, agent_specs, explain, readable_labels
from .store import Store
from .svg import farm_svg

MAX_PLAYERS = 9
LOG_LINES = 400


class WebError(Exception):
    """A request the server refuses: HTTP ``status`` and a message for the page."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class PackState:
    """A pack the server offers: the compiled pack of its current files, or their diagnostics."""

    def __init__(self, pack_id: str):
        self.id = pack_id
        self.pack = None
        self.diagnostics = None   # the located messages of the last compile that failed, as the CLI prints them
        self.generation = 0       # how many times it was (re)compiled
        self.texts = None         # card id -> its text generated from its effects (the hands show it); made when first shown


class Server:
    """Tables of one server: a workspace of packs, a build folder and a SQLite file."""

    def __init__(self, root: Path, build_root: Path, db_path: Path, agent_kinds=("greedy", "random")):
        from ..build import Compiler
        self.root = Path(root)
        self.build_root = Path(build_root)
        self.compiler = Compiler(self.root, self.build_root)
        self.compile_lock = threading.Lock()
        self.store = Store(db_path)
        self.agent_kinds = tuple(agent_kinds)
        self.packs: dict[str, PackState] = {}
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}     # game id -> why it cannot go on (its pack changed, …)
        self.tokens: dict[str, dict] = {}    # game id -> {seat: token}
        self.stored: dict[str, int] = {}     # game id -> decisions on disk
        self.fingerprint = self._fingerprint()
        self._summaries = None               # (fingerprint, the packs' summaries) of the last pack_list

    # ------------------------------------------------------------ packs
    def pack_ids(self) -> list[str]:
        return self.compiler.ws.pack_ids()

    def pack_list(self) -> list[dict]:
        from ..cli import pack_summaries
        # reading every pack's game.yaml takes seconds on a loaded machine, and the start page asks
        # every second: the summaries are read again only when a rule or card file changed
        fingerprint = self._fingerprint()
        if self._summaries is None or self._summaries[0] != fingerprint:
            self._summaries = (fingerprint, pack_summaries(self.root)[0])
        by_id = {s["id"]: s for s in self._summaries[1]}
        out = []
        for pack_id in self.pack_ids():
            s = by_id.get(pack_id, {"id": pack_id, "name": pack_id, "min_players": None, "max_players": None})
            state = self.packs.get(pack_id)
            out.append({"id": pack_id, "name": s["name"], "min_players": s["min_players"],
                        "max_players": s["max_players"], "diagnostics": state.diagnostics if state else None,
                        "generation": state.generation if state else 0})
        return out

    def pack(self, pack_id: str):
        """The compiled pack (compiled now if needed); WebError 400 with the diagnostics when it does not compile."""
        if pack_id not in self.pack_ids():
            raise WebError(400, f"no pack '{str(pack_id)[:60]}' in this workspace")
        state = self.packs.get(pack_id)
        if state is None or (state.pack is None and state.diagnostics is None):
            state = self.packs.setdefault(pack_id, PackState(pack_id))
            self._compile(state)
        if state.pack is None:
            raise WebError(400, f"pack '{pack_id}' does not compile:\n{state.diagnostics}")
        return state.pack

    def _compile(self, state: PackState) -> None:
        with self.compile_lock:
            result = self.compiler.compile(state.id)
            state.generation += 1
            if result.ok:
                state.pack = load_pack(state.id, self.build_root)
                state.diagnostics = None
                state.texts = None
            else:
                # a pack that does not compile any more: new games wait for a fix; games going on keep theirs
                state.pack = None
                state.diagnostics = result.report.render() + "\n" + result.report.summary()

    def _card_texts(self, pack) -> dict:
        """The texts of ``pack``'s cards, made from its sources once per compile (a game whose pack has been
        compiled again since gets none: its sources may say something else now)."""
        state = self.packs.get(pack.id)
        if state is None or state.pack is not pack:
            return {}
        if state.texts is None:
            from ..docs import pack_card_texts
            with self.compile_lock:
                if state.texts is None:
                    state.texts = pack_card_texts(self.compiler, state.id)
        return state.texts

    def _fingerprint(self):
        """The size and time of change of every rule and card file (what hot reload compares)."""
        found = []
        for top in ("rules", "cards"):
            folder = self.root / top
            if folder.is_dir():
                for path in sorted(folder.rglob("*.yaml")):
                    try:
                        st = path.stat()
                    except OSError:
                        continue
                    found.append((str(path), st.st_mtime_ns, st.st_size))
        return tuple(found)

    def reload_if_changed(self) -> bool:
        """Recompile the packs in use when a rule or card file changed (hot reload); True when one did."""
        now = self._fingerprint()
        if now == self.fingerprint:
            return False
        self.fingerprint = now
        for state in list(self.packs.values()):
            self._compile(state)
        return True

    # ------------------------------------------------------------ games
    def start(self, pack_id: str, seats: list, seed, decks=None) -> dict:
        """A new game: ``seats`` names each seat 'human' or an agent kind; ``decks`` the decks to deal
        hand cards from (None: every deck of the pack). Returns the id and the links."""
        pack = self.pack(str(pack_id))
        rules = pack.rules
        if not isinstance(seats, list) or not rules.min_players <= len(seats) <= rules.max_players:
            raise WebError(400, f"pack '{pack.id}' is for {rules.min_players} to {rules.max_players} players")
        known = (HUMAN,) + self.agent_kinds
        for kind in seats:
            if kind not in known:
                raise WebError(400, f"unknown seat kind {str(kind)[:40]!r}; the kinds are {', '.join(known)}")
        if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) > MAX_SEED:
            raise WebError(400, "the seed is a whole number of at most 18 digits")
        if decks is not None:
            if not isinstance(decks, list) or not decks or not all(isinstance(d, str) for d in decks):
                raise WebError(400, "the decks are a list of deck names")
            unknown = [d for d in decks if d not in pack.decks]
            if unknown:
                raise WebError(400, f"pack '{pack.id}' has no deck {str(unknown[0])[:20]!r}; its decks are "
                                    f"{', '.join(pack.decks) or 'none'}")
        table = Table(pack, len(seats), seed, agent_specs(seats, seed), decks=decks)
        return self._keep(table)

    def _keep(self, table: Table) -> dict:
        decisions = table.decisions_json()
        game_id, tokens = self.store.new_game(table.pack, table.players, table.seed, table.specs, decisions,
                                              decks=table.decks)
        if table.game.finished:
            self.store.add_decisions(game_id, len(decisions), [], True)
        self.tables[game_id] = table
        self.tokens[game_id] = tokens
        self.stored[game_id] = len(decisions)
        return {"id": game_id, "seats": {str(s): t for s, t in tokens.items()}}

    def restore_all(self) -> int:
        """Bring back every open game of the store (a restarted server); returns how many."""
        n = 0
        for game_id in self.store.game_ids(open_only=True):
            try:
                self._table(game_id)
                n += 1
            except WebError:
                pass
        return n

    def _table(self, game_id: str) -> Table:
        table = self.tables.get(game_id)
        if table is not None:
            return table
        if game_id in self.broken:
            raise WebError(409, self.broken[game_id])
        row = self.store.game(game_id)
        if row is None:
            raise WebError(404, "no such game")
        pack = self.pack(row["pack"])
        if pack.content_hash != row["pack_hash"]:
            self.broken[game_id] = (f"pack '{pack.id}' has changed since this game was started; it cannot go on "
                                    "(download its save to keep it)")
            raise WebError(409, self.broken[game_id])
        try:
            table = Table(pack, row["players"], row["seed"], row["agents"], row["decisions"],
                          decks=row["decks"])
        except LogMismatch as exc:
            self.broken[game_id] = f"the stored game does not fit its pack: {exc}"
            raise WebError(409, self.broken[game_id]) from None
        self.tables[game_id] = table
        self.tokens[game_id] = row["tokens"]
        self.stored[game_id] = len(row["decisions"])
        self._persist(game_id, table)   # the agents' decisions after the last stored one
        return table

    def _persist(self, game_id: str, table: Table) -> None:
        """Write the decisions taken since the last write, in one transaction."""
        start = self.stored[game_id]
        new = table.decisions_json()[start:]
        if new or table.game.finished:
            self.store.add_decisions(game_id, start, new, table.game.finished)
            self.stored[game_id] = start + len(new)

    def seat_of(self, game_id: str, token) -> int | None:
        """The seat a token is for (None without a token: a spectator); WebError 403 for a wrong one."""
        if token in (None, ""):
            return None
        for seat, t in self.tokens.get(game_id, {}).items():
            if isinstance(token, str) and len(token) == len(t) and _same(token, t):
                return int(seat)
        raise WebError(403, "this link is not a seat of this game")

    def answer(self, game_id: str, token, decision, index) -> dict:
        """Answer the pending request of the token's seat; stored before this returns. An answer that is
        not a legal option is refused (400) and changes nothing."""
        table = self._table(game_id)
        seat = self.seat_of(game_id, token)
        request = table.pending
        if seat is None:
            raise WebError(403, "a spectator cannot answer: use the link of a seat")
        if request is None:
            raise WebError(409, "the game is over")
        if request.seat != seat:
            raise WebError(409, f"it is {request.player.name}'s decision, not yours")
        if decision != request.number:
            raise WebError(409, f"decision {decision!r} is not the pending one (decision {request.number})")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(request.options):
            raise WebError(400, f"{str(index)[:20]!r} is not an option of this request (0 to {len(request.options) - 1})")
        try:
            table.answer(index)
        except IllegalDecision as exc:
            raise WebError(400, str(exc)) from None
        try:
            self._persist(game_id, table)
        except Exception:
            # not stored, so not taken: the game goes back to what the store holds
            self.tables.pop(game_id, None)
            raise
        return self.state(game_id, token)

    def undo(self, game_id: str, token) -> dict:
        """Take back the last decision of the token's seat (and what the others did after it)."""
        table = self._table(game_id)
        seat = self.seat_of(game_id, token)
        if seat is None:
            raise WebError(403, "a spectator cannot take back a decision")
        if not table.undo(seat):
            raise WebError(409, "you have taken no decision yet")
        keep = table.decisions_json()
        before = self.store.game(game_id)["decisions"]
        first_new = next((k for k, (a, b) in enumerate(zip(before, keep)) if a != b), min(len(before), len(keep)))
        self.store.truncate(game_id, first_new)
        self.stored[game_id] = first_new
        self._persist(game_id, table)
        return self.state(game_id, token)

    # ------------------------------------------------------------ what the page shows
    def state(self, game_id: str, token=None) -> dict:
        table = self._table(game_id)
        seat = self.seat_of(game_id, token)
        return self._shown(game_id, table, seat)

    def _shown(self, game_id: str, table: Table, seat, at=None) -> dict:
        game = table.game
        view = game.view(seat=seat)
        request = game.pending
        pending = None
        if request is not None:
            pending = {"decision": request.number, "seat": request.seat, "player": request.player.name,
                       "kind": request.kind, "prompt": request.prompt, "yours": request.seat == seat}
            if request.seat == seat and at is None:
                pending["explain"] = explain(request)
                pending["options"] = [{"index": i, "label": label, "value": norm(o)}
                                      for i, (label, o) in enumerate(zip(readable_labels(request), request.options))]
        labels = [label for _, label, _ in game.rules.scoring]
        ids = [cid for cid, _, _ in game.rules.scoring]
        scores = game.scores or [game.score(p) for p in game.players]
        names = {cid: game.card(cid).name for p in view["players"]
                 for cid in p["cards"]["majors"] + p["cards"]["minors"] + p["cards"]["occupations"]
                 + ((p["hand"] or {}).get("occupations", []) + (p["hand"] or {}).get("minors", []))}
        texts = self._card_texts(game.pack) if names else {}
        return {
            "id": game_id, "seat": seat, "pack": game.pack.id, "pack_name": game.rules.name,
            "seats": [{"seat": i, "name": p.name, "kind": "human" if s.get("kind") == "open" else s.get("kind")}
                      for i, (p, s) in enumerate(zip(game.players, table.specs))],
            "finished": game.finished, "decisions": game.decisions, "at": at,
            "total": len(self.store.game(game_id)["decisions"]) if at is not None else None,
            "view": view, "pending": pending,
            "farms": [farm_svg(game, p) for p in game.players],
            "log": (game.log or [])[-LOG_LINES:],
            "score_table": {"labels": labels, "rows": [[s["categories"][c] for c in ids] for s in scores],
                            "totals": [s["total"] for s in scores], "players": [p.name for p in game.players]},
            "card_names": names,
            "card_texts": {cid: texts[cid] for cid in names if cid in texts},
            "can_undo": seat is not None and at is None and any(pi == seat for pi, _, _ in game.record),
        }

    def watch(self, game_id: str, at) -> dict:
        """The game after its first ``at`` decisions (any stored game, open or finished)."""
        row = self.store.game(game_id)
        if row is None:
            raise WebError(404, "no such game")
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(row["decisions"]):
            raise WebError(400, f"decision {str(at)[:20]!r} is not in this game (0 to {len(row['decisions'])})")
        pack = self.pack(row["pack"])
        if pack.content_hash != row["pack_hash"]:
            raise WebError(409, f"pack '{pack.id}' has changed since this game was played")
        specs = [{"kind": "open"}] * row["players"]
        table = Table(pack, row["players"], row["seed"], specs, row["decisions"][:at], decks=row["decks"])
        table.specs = row["agents"]
        return self._shown(game_id, table, None, at=at)

    def rounds(self, game_id: str) -> list:
        """The first decision of each round of a stored game (for 'jump to round')."""
        row = self.store.game(game_id)
        if row is None:
            raise WebError(404, "no such game")
        pack = self.pack(row["pack"])
        table = Table(pack, row["players"], row["seed"], [{"kind": "open"}] * row["players"], [],
                      decks=row["decks"])
        firsts, game = {}, table.game
        for k, d in enumerate(row["decisions"]):
            firsts.setdefault(game.round, k)
            game.answer(_index_of(game.pending, d))
        firsts.setdefault(game.round, len(row["decisions"]))
        return [{"round": r, "at": k} for r, k in sorted(firsts.items()) if r]

    def save(self, game_id: str) -> dict:
        return self._table_or_finished(game_id).document()

    def _table_or_finished(self, game_id):
        if game_id in self.tables:
            return self.tables[game_id]
        row = self.store.game(game_id)
        if row is None:
            raise WebError(404, "no such game")
        pack = self.pack(row["pack"])
        return Table(pack, row["players"], row["seed"], row["agents"], row["decisions"], decks=row["decks"])

    def upload(self, data: bytes) -> dict:
        """A save uploaded to go on with: checked as ``resume`` checks a save file."""
        if len(data) > MAX_SAVE_BYTES:
            raise WebError(400, "the save is too large")
        with tempfile.TemporaryDirectory() as folder:  # a name of our own: nothing from the request
            path = Path(folder) / "upload.json"
            path.write_bytes(data)
            try:
                doc = read_save(path)
            except SaveError as exc:
                raise WebError(400, str(exc).replace(str(path), "the uploaded save")) from None
        pack = self.pack(doc["pack"]) if doc["pack"] in self.pack_ids() else None
        if pack is None:
            raise WebError(400, f"the save is a game of pack '{str(doc['pack'])[:60]}', which this server does not have")
        try:
            table = Table.from_save(doc, pack)
        except (SaveError, LogMismatch) as exc:
            raise WebError(400, f"the uploaded save: {exc}") from None
        return self._keep(table)

    def games(self) -> list:
        return self.store.listing()


def _index_of(request, decision) -> int:
    from runtime.requests import norm
    for i, o in enumerate(request.options):
        if norm(o) == decision[2]:
            return i
    raise WebError(409, "the stored game does not fit its pack")


def _same(a: str, b: str) -> bool:
    import hmac
    return hmac.compare_digest(a.encode(), b.encode())
