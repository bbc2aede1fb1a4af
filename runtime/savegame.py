"""Saved games: a game is its pack, seed, agents and the list of decisions taken (JSON).

A save file (format version 1, see docs/save-format.md)::

    {"format": "agricola-save", "version": 1,
     "pack": "<pack id>", "pack_hash": "<content hash of the compiled pack>",
     "players": 4, "seed": 1, "agents": [{"kind": "random", "seed": "1:0"}, …],
     "decisions": [[player, kind, option], …],
     "finished": false, "final": null, "decks": ["E", "I"],     (decks: only when chosen)
     "setup": {"start_player": 0, "seats": [...]}}              (setup: only when given, runtime/given_setup.py)

Resuming replays the decisions from the start: the engine is deterministic, and the agents are
asked again so that their own generators advance exactly as in the uninterrupted game (each answer is
checked against the log). Writes are atomic: a new file is written beside the old one, flushed to disk
and renamed over it, so a crash never leaves a half-written save and never destroys the previous one.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from .agents import GreedyAgent, RandomAgent
from .search import SearchAgent
from .engine import Game, LogMismatch  # noqa: F401  (LogMismatch: a log that does not fit the game)
from .fileio import JsonFileError, file_kind, no_space, read_json_file, write_text_atomic
from .requests import norm  # noqa: F401  (an option as JSON holds it)
from .shape import line_col, locate, problems

FORMAT = "agricola-save"
VERSION = 1
MAX_SAVE_BYTES = 20_000_000
MAX_DIGITS = 18          # a whole number in a save has at most this many digits
MAX_SEED = 10**18 - 1    # seeds are whole numbers from -MAX_SEED to MAX_SEED


class SaveError(Exception):
    """A save file that cannot be used (corrupt, truncated, other version, other pack).

    ``located`` is True when the message has the form ``file:line:col: error[CODE]: …``."""

    def __init__(self, message: str, located: bool = False):
        super().__init__(message)
        self.located = located


def _located(path, text: str, where: tuple, code: str, message: str, key: bool = False, at=None) -> SaveError:
    """A SaveError at the value at ``where`` (a path of keys) of the JSON ``text``, or at offset ``at``."""
    line, col = line_col(text, at) if at is not None else locate(text, where, key)
    return SaveError(f"{path}:{line}:{col}: error[{code}]: {message}", located=True)


class SaveWriteError(SaveError):
    """A save that cannot be written (full disk, …); the message starts with the file's path."""


AGENT_KINDS = {"random": RandomAgent, "greedy": GreedyAgent, "search": SearchAgent, "open": None}

# The shape of a save file (a JSON Schema; `agricola schema save` prints it). read_save checks every key
# against it before anything else reads the document.
SAVE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://agricola-compiler.example/schemas/save.json",
    "title": "Saved game (format version 1)",
    "type": "object",
    "properties": {
        "format": {"const": FORMAT},
        "version": {"type": "integer"},
        "pack": {"type": "string"},
        "pack_hash": {"type": "string"},
        "players": {"type": "integer", "minimum": 1, "maximum": 9},
        "seed": {"type": "integer", "minimum": -MAX_SEED, "maximum": MAX_SEED},
        "decks": {"type": ["array", "null"], "items": {"type": "string", "minLength": 1, "maxLength": 8},
                  "maxItems": 50, "description": "the decks hand cards were dealt from; absent or null: every deck"},
        "setup": {"type": ["object", "null"], "description": "a set-up given from outside the pack "
                  "(runtime/given_setup.py); absent or null: none"},
        "agents": {"type": "array", "items": {
            "type": "object",
            "properties": {"kind": {"enum": list(AGENT_KINDS)}, "seed": {"type": ["string", "integer"]}},
            "required": ["kind"], "additionalProperties": False}},
        "decisions": {"type": "array", "items": {
            "type": "array", "minItems": 3, "maxItems": 3,
            "prefixItems": [{"type": "integer", "minimum": 0}, {"type": "string", "minLength": 1, "maxLength": 64},
                            {}],
            "description": "[player index, request kind, option as JSON]"}},
        "finished": {"type": "boolean"},
        "final": {"type": ["object", "null"],
                  "properties": {"scores": {"type": "array", "items": {"type": "object"}},
                                 "state_hash": {"type": "string"}},
                  "required": ["scores", "state_hash"], "additionalProperties": False},
    },
    "required": ["format", "version", "pack", "pack_hash", "players", "seed", "agents", "decisions"],
    "additionalProperties": False,
}


def make_agent(spec: dict):
    kind = spec.get("kind")
    if kind == "open":
        return None  # a seat answered through the game's requests (docs/api.md)
    if kind in AGENT_KINDS:
        return AGENT_KINDS[kind](spec.get("seed", 0))  # type: ignore[misc]  # ("open", the one None, is above)
    raise SaveError(f"unknown agent kind {kind!r} in the save file")


def state_hash(game) -> str:
    """A fingerprint of the whole visible state (players, spaces, round, start player, scores)."""
    data = {
        "round": game.round, "start_player": game.start_player,
        "players": [p.to_dict() for p in game.players],
        "spaces": {s.id: {k: v for k, v in sorted(s.goods.items()) if v} for s in game.spaces},
        "scores": game.scores,
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def write_atomic(path: Path, data: dict) -> None:
    """Write a save document atomically and durably (see runtime.fileio)."""
    write_text_atomic(Path(path), json.dumps(data, sort_keys=True), sync=True)


def check_save_target(path: Path) -> None:
    """Refuse a place a save cannot go without destroying something: a folder, a device, a symbolic link,
    or an existing file that is not a save (SaveError). An existing save may be replaced."""
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise SaveError(f"{path}: cannot write the save there: {exc.strerror or exc}") from None
    if stat.S_ISLNK(st.st_mode):
        raise SaveError(f"{path}: is a symbolic link; a save does not replace it (give the path of a new "
                        "file or of a save)")
    if not stat.S_ISREG(st.st_mode):
        raise SaveError(f"{path}: is {file_kind(st.st_mode)}, not a save file; nothing written")
    try:
        read_save(path)
    except SaveError:
        raise SaveError(f"{path}: the file exists and is not an agricola save; it is not replaced "
                        "(give the path of a new file or of a save)") from None


class Recorder:
    """Writes the save file after every decision (the engine keeps the list of decisions, and calls
    ``save`` for new ones only: while a save is being replayed nothing is written, so a save that turns
    out not to fit the game is refused and left exactly as it was)."""

    def __init__(self, game, path: Path | None, agent_specs):
        self.game = game
        self.path = Path(path) if path else None
        self.agent_specs = agent_specs
        self.written: dict | None = None  # the last document written (or read, when resuming)
        if self.path is not None:
            game.after_decision = self.save

    def document(self) -> dict:
        g = self.game
        return {
            "format": FORMAT, "version": VERSION, "pack": g.pack.id, "pack_hash": g.pack.content_hash,
            "players": g.nplayers, "seed": g.seed, "agents": self.agent_specs,
            "decisions": [[pi, kind, norm(o)] for pi, kind, o in g.record],
            "finished": g.finished,
            "final": ({"scores": g.scores, "state_hash": state_hash(g)} if g.finished else None),
            **({"decks": list(g.chosen_decks)} if g.chosen_decks is not None else {}),
            **({"setup": g.setup} if g.setup is not None else {}),
        }

    def save(self, *_):
        """Write the save (unless a replay is still going on or nothing changed). A full disk or another
        write error raises SaveError; the last save written is then left as it was."""
        if self.path is None:
            return
        doc = self.document()
        if doc == self.written:
            return
        try:
            write_atomic(self.path, doc)
        except OSError as exc:
            kept = (f"the save file keeps the game up to decision {len(self.written['decisions'])}"
                    if self.written else "no save was written")
            why = "no space left on the device" if no_space(exc) else (exc.strerror or str(exc))
            raise SaveWriteError(f"{self.path}: cannot write the save: {why}; {kept}") from None
        self.written = doc


def _where(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    return f"{line}:{pos - (text.rfind(chr(10), 0, pos) + 1) + 1}"


class _LongNumber(ValueError):
    pass


def _whole_number(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _LongNumber(digits)
    return int(digits)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a save can hold")


def _read_problem(path: Path, exc) -> SaveError:
    """The SaveError of a save that read_json_file could not read (runtime/fileio.py)."""
    raw = exc.text
    if exc.kind == "missing":
        return SaveError(f"{path}: no such save file")
    if exc.kind == "unreadable":
        return SaveError(f"{path}: cannot read the save file: {exc.error.strerror or exc.error}")
    if exc.kind == "not_utf8":
        return SaveError(f"{path}:{_where(raw, exc.pos)}: the save file is damaged (it is not UTF-8 text)")
    if exc.kind == "too_deep":
        return SaveError(f"{path}: the save file is damaged (its values are nested too deeply)")
    if exc.kind == "not_json":
        return _located(path, raw, (), "E160", "the save file is damaged or cut short (not valid JSON: "
                        f"{exc.error.msg} at line {exc.error.lineno} column {exc.error.colno})", at=exc.pos)
    if isinstance(exc.error, _LongNumber):
        digits = exc.error.args[0]
        at = raw.find(digits)
        shown = digits if len(digits) <= 20 else f"a number of {len(digits.lstrip('-'))} digits"
        return SaveError(f"{path}:{_where(raw, max(at, 0))}: the save file is damaged ({shown}; a save holds "
                         f"whole numbers of at most {MAX_DIGITS} digits)")
    return SaveError(f"{path}: the save file is damaged (not valid JSON: {exc.error})")


def read_save(path: Path) -> dict:
    """Read and check a save file; SaveError with a clear message when it cannot be used."""
    path = Path(path)
    try:
        raw, doc = read_json_file(path, MAX_SAVE_BYTES, parse_int=_whole_number, parse_constant=_no_constant)
    except JsonFileError as exc:
        raise _read_problem(path, exc) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _located(path, raw, ("format",), "E160", "not an agricola save file")
    if doc.get("version") != VERSION and isinstance(doc.get("version"), int):
        raise _located(path, raw, ("version",), "E161",
                       f"save format version {doc['version']!r}; this program reads version {VERSION}")
    found = problems(doc, SAVE_SCHEMA)  # every key's type, before anything reads the document
    if found:
        raise SaveError("\n".join(str(_located(path, raw, where, code, message, key=code == "E110"))
                                  for where, code, message in found), located=True)
    if len(doc["agents"]) != doc["players"]:
        raise _located(path, raw, ("agents",), "E162", f"the save file is damaged ({len(doc['agents'])} agents "
                       f"for {doc['players']} players)")
    for i, d in enumerate(doc["decisions"]):
        if _depth(d[2]) > MAX_OPTION_DEPTH:
            raise _located(path, raw, ("decisions", i, 2), "E162",
                           f"the save file is damaged (decision {i + 1} is malformed): its option nests more than "
                           f"{MAX_OPTION_DEPTH} lists deep")
    return doc


MAX_OPTION_DEPTH = 16  # lists in lists in an option, at most (options are short tuples)


def _depth(value) -> int:
    """How deeply lists (and mappings) nest in a JSON value: 0 for a plain value, 1 for [1, 2], …
    (counted level by level, without recursion, and only a little past the limit)."""
    depth, level = 0, [value]
    while depth <= MAX_OPTION_DEPTH:
        containers = [v for v in level if isinstance(v, (list, dict))]
        if not containers:
            break
        depth += 1
        level = [x for v in containers for x in (v.values() if isinstance(v, dict) else v)]
    return depth


def restore(doc: dict, pack, *, continue_with_agents: bool = True, log: bool = False, path: Path | None = None):
    """Rebuild the game of a save document; returns (game, recorder, decisions not yet replayed).

    The logged decisions are taken again as the game runs (``game.run()`` or ``game.play()``); the saved
    agents are asked too, so that their generators advance as in the first game, and must agree
    (LogMismatch otherwise). A seat saved as 'open' stops the game at its first request after the log.
    With ``continue_with_agents`` false every seat is open: the log must hold the whole game (a replay)."""
    if doc["pack"] != pack.id:
        raise SaveError(f"the save is a game of pack '{doc['pack']}', not '{pack.id}'")
    if doc["pack_hash"] != pack.content_hash:
        raise SaveError(f"pack '{pack.id}' has changed since this game was saved (its content hash differs); "
                        "the game cannot be resumed with the changed rules")
    rules = pack.rules
    if not rules.min_players <= doc["players"] <= rules.max_players:
        raise SaveError(f"the save is a game of {doc['players']} players; pack '{pack.id}' is for "
                        f"{rules.min_players} to {rules.max_players}")
    decks = doc.get("decks")
    if decks is not None:
        unknown = sorted(set(decks) - set(pack.decks))
        if unknown or not decks:
            raise SaveError(f"the save deals from {_deck_words(unknown) if unknown else 'no deck'}, which pack "
                            f"'{pack.id}' does not have; its decks are {', '.join(pack.decks) or 'none'}")
    agents = [make_agent(spec) if continue_with_agents else None for spec in doc["agents"]]
    try:
        game = Game(pack, doc["players"], seed=doc["seed"], agents=agents, log=log, decks=decks,
                    setup=doc.get("setup"))
    except ValueError as exc:  # a set-up that does not fit the pack (runtime/given_setup.normal says why)
        raise SaveError(f"the save's {exc}") from None
    pending = game.replay(doc["decisions"], ask_agents=True)
    rec = Recorder(game, path, doc["agents"])
    rec.written = doc
    return game, rec, pending


def _deck_words(decks) -> str:
    return ("deck " if len(decks) == 1 else "decks ") + ", ".join(repr(d) for d in decks)


def agent_specs(game) -> list:
    """How a save file names each seat's agent: an agent's ``spec``, or {'kind': 'open'} for a seat
    without one (ValueError for an agent a save cannot name)."""
    specs = []
    for i, agent in enumerate(game.agents):
        if agent is None:
            specs.append({"kind": "open"})
        elif isinstance(getattr(agent, "spec", None), dict):
            specs.append(dict(agent.spec))
        else:
            raise ValueError(f"the agent of P{i + 1} ({type(agent).__name__}) has no 'spec': a save file "
                             "cannot name it")
    return specs


def save_game(game, path: Path, specs=None) -> dict:
    """Save a game at any point (typically at its pending request); returns the document written.
    ``restore`` brings it back to the same point."""
    doc = Recorder(game, None, specs if specs is not None else agent_specs(game)).document()
    write_atomic(Path(path), doc)
    return doc
