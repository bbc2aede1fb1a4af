"""Campaigns: several games in a row of a pack with campaign rules (``campaign`` of its game.yaml), the
results of each game carried into the next. A campaign is a file (JSON, docs/variants.md "Campaigns")::

    {"format": "agricola-campaign", "version": 1, "pack": "revised-campaign-solo", "players": 1, "seed": 1,
     "games": [{"game": 1, "seed": 1001, "agents": [...], "target": 50, "setup": {...},
                "scores": [57], "ranking": [0], "reached": true, "campaign_points": null,
                "returned": [[]], "kept": [["<card id>"]]}, ...],
     "next": {"game": 2, "target": 55, "setup": {...}},      # the set-up the next game is played with
     "finished": false,
     "check": "<sha256 of the rest>"}

Each game is played by the runtime with a set-up given from outside the pack (runtime/given_setup.py):
the start player, extra food, the occupations in play from the start and the hand sizes. The file is
written atomically, once, after a game has ended and its carry-over is decided: a ``next`` that is killed
leaves the file as it was before that game, and the same game (same seed, same agents) is played again.
A file that is damaged, cut short or changed by hand (its ``check`` does not match) is refused with a
located message and left as it is. People play a campaign game at the terminal (``agricola campaign next
--agents human,…``, compiler/cli.py): the game is a Table's (compiler/table.py) and the person chooses the
occupation to keep through ``after_game(…, choose=…)``; the file is written only once both are done.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from runtime.fileio import JsonFileError, read_json_file, write_text_atomic
from runtime.shape import line_col, locate, problems

FORMAT = "agricola-campaign"
VERSION = 1
MAX_BYTES = 5_000_000
MAX_SEED = 10**18 - 1
NONE = "none"   # the option of keeping no occupation (when keeping is optional)

_SETUP = {"type": ["object", "null"]}
_GAME = {
    "type": "object",
    "properties": {
        "game": {"type": "integer", "minimum": 1, "maximum": 10_000},
        "seed": {"type": "integer", "minimum": -MAX_SEED, "maximum": MAX_SEED},
        "agents": {"type": "array", "items": {"type": "object"}},
        "target": {"type": ["integer", "null"]},
        "setup": _SETUP,
        "scores": {"type": "array", "items": {"type": "integer"}},
        "ranking": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "reached": {"type": ["boolean", "null"]},
        "campaign_points": {"type": ["array", "null"], "items": {"type": "integer"}},
        "returned": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
        "kept": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
    },
    "required": ["game", "seed", "agents", "target", "setup", "scores", "ranking", "reached", "campaign_points",
                 "returned", "kept"],
    "additionalProperties": False,
}
CAMPAIGN_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://agricola-compiler.example/schemas/campaign.json",
    "title": "Campaign file (format version 1)",
    "type": "object",
    "properties": {
        "format": {"const": FORMAT},
        "version": {"type": "integer"},
        "pack": {"type": "string"},
        "players": {"type": "integer", "minimum": 1, "maximum": 9},
        "seed": {"type": "integer", "minimum": -MAX_SEED, "maximum": MAX_SEED},
        "games": {"type": "array", "items": _GAME},
        "next": {"type": "object", "properties": {
            "game": {"type": "integer", "minimum": 1, "maximum": 10_000},
            "target": {"type": ["integer", "null"]},
            "setup": {"type": "object"}},
            "required": ["game", "target", "setup"], "additionalProperties": False},
        "finished": {"type": "boolean"},
        "check": {"type": "string"},
    },
    "required": ["format", "version", "pack", "players", "seed", "games", "next", "finished", "check"],
    "additionalProperties": False,
}


class CampaignError(Exception):
    """A campaign file or command that cannot be used; the message says why (located when it can)."""


# ---------------------------------------------------------------- the rules


def target_of(c: dict, number: int) -> int | None:
    """The target of game ``number`` (from 1): the list's, then rising by ``target_step`` a game."""
    targets = c["targets"]
    if not targets:
        return None
    if number <= len(targets):
        return targets[number - 1]
    return targets[-1] + c["target_step"] * (number - len(targets))


def _setup(rules, number_of_players: int, fixed, goods, start_player) -> dict:
    """The set-up of a game: the occupations in play per seat, extra goods, hands made smaller."""
    keep = rules.campaign["keep"] or {}
    less = keep.get("hand_less") or {}
    hand = rules.hand or {}
    seats = []
    for i in range(number_of_players):
        seat = {"goods": dict(goods[i]), "occupations": list(fixed[i])}
        if any(less.values()) and hand:
            seat["hand"] = {kind: max(0, hand.get(kind, 0) - k * len(fixed[i])) for kind, k in sorted(less.items())}
        seats.append(seat)
    return {"start_player": start_player, "seats": seats}


def new_campaign(pack, players: int, seed: int) -> dict:
    """A campaign of ``pack`` for ``players`` before its first game (CampaignError when the pack has no
    campaign rules or not for that many players)."""
    c = pack.rules.campaign
    if c is None:
        raise CampaignError(f"pack '{pack.id}' has no campaign rules ('campaign' in its game.yaml); "
                            "the campaign packs are listed by 'agricola packs'")
    if players not in c["players"]:
        raise CampaignError(f"the campaign of pack '{pack.id}' is for {_counts(c['players'])}, not {players}")
    doc = {"format": FORMAT, "version": VERSION, "pack": pack.id, "players": players, "seed": seed, "games": [],
           "next": {"game": 1, "target": target_of(c, 1),
                    "setup": _setup(pack.rules, players, [[]] * players, [{}] * players, None)},
           "finished": False}
    return doc


def _counts(counts) -> str:
    counts = list(counts)
    words = ", ".join(map(str, counts[:-1])) + (" or " if len(counts) > 1 else "") + str(counts[-1])
    return f"{words} player{'s' if counts != [1] else ''}"


def game_seed(doc: dict) -> int:
    """The seed of the next game when none is given: from the campaign's seed and the games played."""
    return (doc["seed"] * 1000 + len(doc["games"]) + 1) % MAX_SEED


def play_next(pack, doc: dict, agent_specs, seed: int | None = None, log: bool = False, game_class=None):
    """Play the next game of the campaign ``doc`` with agents of ``agent_specs`` (save-file form); returns
    (the campaign after it, the game). ``doc`` itself is not changed. ``game_class``: a subclass of
    runtime.engine.Game to play with (tests check invariants with one)."""
    from runtime.engine import Game
    Game = game_class or Game
    from runtime.savegame import make_agent
    check_playable(pack, doc)
    nxt = doc["next"]
    seed = game_seed(doc) if seed is None else seed
    agents = [make_agent(spec) for spec in agent_specs]
    game = Game(pack, doc["players"], seed=seed, agents=agents, log=log, setup=nxt["setup"])
    game.play()
    return after_game(pack, doc, game, seed, agent_specs), game


def check_playable(pack, doc: dict) -> None:
    """CampaignError when the campaign has no next game."""
    c = pack.rules.campaign
    if doc["finished"] and not c["more_games"]:
        raise CampaignError(f"the campaign is over: it has {c['games']} games, all played "
                            "('agricola campaign status' shows the result)")


def after_game(pack, doc, game, seed, agent_specs, choose=None) -> dict:
    """The campaign after ``game`` (its next game, played to its end): its result, the occupations kept,
    the set-up of the next game. A seat without an agent (a person's) chooses what to keep through
    ``choose(player, options, labels, prompt)``, which returns one of the options."""
    rules, c = pack.rules, pack.rules.campaign
    nxt = doc["next"]
    n = doc["players"]
    totals = [s["total"] for s in game.scores]
    ranking = game.ranking()
    target = nxt["target"]
    reached = None if target is None else totals[0] >= target
    replay = reached is False and c["missed_target"] == "replay"
    gone = {cid for _, cid in game.returned}
    fixed = [[cid for cid in seat["occupations"] if cid not in gone] for seat in nxt["setup"]["seats"]]
    kept = [[] for _ in range(n)]
    keep = c["keep"]
    number = nxt["game"] + (0 if replay else 1)
    over_now = c["games"] is not None and number > c["games"] and not c["more_games"]
    if keep is not None and not replay and not over_now:  # nothing to keep for after the last game
        for p in game.players:
            for _ in range(keep["occupations"]):
                options = [cid for cid in p.occupations if cid not in kept[p.idx]
                           and not (keep["add"] and cid in fixed[p.idx])]
                if not options:
                    break
                if keep["optional"]:
                    options.append(NONE)
                labels = [game.card(o).name if o != NONE else "keep none" for o in options]
                prompt = "The occupation to keep for the next game"
                agent = game.agents[p.idx]
                pick = (agent.choose(game, p, "keep", options, labels, prompt) if agent is not None
                        else choose(p, options, labels, prompt))
                if pick == NONE:
                    break
                kept[p.idx].append(pick)
    if replay:
        carried = fixed
    else:
        carried = [fixed[i] + kept[i] if keep and keep["add"] else kept[i] for i in range(n)]
    goods = [{} for _ in range(n)]
    over = c["food_over_target"]
    if over is not None and reached and not replay:
        food = (totals[0] - target) // over["points"] * over["food"]
        if food > 0:
            goods[0][rules.goods[0]] = food
    if c["food_for_last"] and n > 1:
        last = ranking[-1]
        goods[last][rules.goods[0]] = goods[last].get(rules.goods[0], 0) + c["food_for_last"]
    points = None
    if c["points_by_rank"]:
        row = c["points_by_rank"][min(len(doc["games"]), len(c["points_by_rank"]) - 1)]
        points = [0] * n
        for rank, seat in enumerate(ranking):
            points[seat] = row[rank] if rank < len(row) else 0
    start = ranking[0] if c["start_player"] == "winner" else None
    entry = {"game": nxt["game"], "seed": seed, "agents": list(agent_specs), "target": target,
             "setup": nxt["setup"], "scores": totals, "ranking": ranking, "reached": reached,
             "campaign_points": points, "returned": [[cid for pi, cid in game.returned if pi == i] for i in range(n)],
             "kept": kept}
    out = {k: v for k, v in doc.items() if k != "check"}
    out["games"] = list(doc["games"]) + [entry]
    out["next"] = {"game": number, "target": target_of(c, number),
                   "setup": _setup(rules, n, carried, goods, start)}
    out["finished"] = c["games"] is not None and number > c["games"]
    return out


def standings(pack, doc: dict) -> dict:
    """The campaign so far in JSON terms: games played, campaign points and game points per seat, the
    leader (or winner once finished), the next game."""
    c = pack.rules.campaign if pack is not None else None
    n = doc["players"]
    games = doc["games"]
    game_points = [sum(g["scores"][i] for g in games) for i in range(n)]
    campaign_points = None
    if any(g["campaign_points"] is not None for g in games):
        campaign_points = [sum((g["campaign_points"] or [0] * n)[i] for g in games) for i in range(n)]
    by_points = c is not None and c["winner"] == "campaign_points" and campaign_points is not None
    order = sorted(range(n), key=lambda i: ((-campaign_points[i], -game_points[i], i) if by_points
                                            else (-game_points[i], i)))
    return {
        "pack": doc["pack"], "players": n, "games_played": len(games),
        "games": (c["games"] if c is not None else None), "finished": doc["finished"],
        "results": [{"game": g["game"], "scores": g["scores"], "target": g["target"], "reached": g["reached"],
                     "campaign_points": g["campaign_points"], "kept": g["kept"], "returned": g["returned"]}
                    for g in games],
        "campaign_points": campaign_points, "game_points": game_points,
        "leader": (f"P{order[0] + 1}" if games and n > 1 else None),
        "next": None if doc["finished"] and not (c and c["more_games"]) else doc["next"],
    }


# ---------------------------------------------------------------- the file


def checksum(doc: dict) -> str:
    body = {k: v for k, v in doc.items() if k != "check"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()


def write_campaign(path: Path, doc: dict) -> None:
    """Write the campaign atomically and durably (runtime/fileio.py), with its check sum."""
    out = {k: v for k, v in doc.items() if k != "check"}
    out["check"] = checksum(out)
    write_text_atomic(Path(path), json.dumps(out, sort_keys=True, indent=1) + "\n", sync=True)


def _located(path, text: str, where: tuple, code: str, message: str, key: bool = False, at=None) -> CampaignError:
    line, col = line_col(text, at) if at is not None else locate(text, where, key)
    return CampaignError(f"{path}:{line}:{col}: error[{code}]: {message}")


def _read_problem(path: Path, exc) -> CampaignError:
    """The CampaignError of a file that read_json_file could not read (runtime/fileio.py)."""
    if exc.kind == "missing":
        return CampaignError(f"{path}: no such campaign file (start one with 'agricola campaign new')")
    if exc.kind == "unreadable":
        return CampaignError(f"{path}: cannot read the campaign file: {exc.error.strerror or exc.error}")
    if exc.kind == "not_utf8":
        return _located(path, exc.text, (), "E163", "the campaign file is damaged (it is not UTF-8 text)", at=exc.pos)
    if exc.kind == "too_deep":
        return CampaignError(f"{path}: the campaign file is damaged (its values are nested too deeply)")
    detail = exc.error.msg if exc.kind == "not_json" else str(exc.error)
    return _located(path, exc.text, (), "E163", f"the campaign file is damaged or cut short (not valid JSON: "
                    f"{detail})", at=exc.pos)


def read_campaign(path: Path, pack=None) -> dict:
    """Read and check a campaign file (CampaignError, located, when it is damaged or was edited); with
    ``pack``, also that it is a campaign of that pack and names only its cards."""
    path = Path(path)
    try:
        text, doc = read_json_file(path, MAX_BYTES)
    except JsonFileError as exc:
        raise _read_problem(path, exc) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _located(path, text, ("format",) if isinstance(doc, dict) and "format" in doc else (), "E163",
                       "not an agricola campaign file")
    if isinstance(doc.get("version"), int) and doc["version"] != VERSION:
        raise _located(path, text, ("version",), "E164",
                       f"campaign format version {doc['version']}; this program reads version {VERSION}")
    found = problems(doc, CAMPAIGN_SCHEMA)
    if found:
        raise CampaignError("\n".join(str(_located(path, text, where, code, message, key=code == "E110"))
                                      for where, code, message in found))
    if doc["check"] != checksum(doc):
        raise _located(path, text, ("check",), "E165", "the campaign file was changed outside agricola (its "
                       "'check' does not match its content); it is not used, and left as it is")
    if pack is not None:
        if doc["pack"] != pack.id:
            raise _located(path, text, ("pack",), "E166", f"a campaign of pack '{doc['pack']}', not '{pack.id}'")
        try:
            from runtime import given_setup
            given_setup.normal(pack, doc["players"], doc["next"]["setup"])
        except ValueError as exc:
            raise _located(path, text, ("next", "setup"), "E166", f"the next game's {exc}") from None
    return doc
