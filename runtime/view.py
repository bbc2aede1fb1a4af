"""The visible state of a game as plain JSON data, for user interfaces and learning agents.

``state_view(game, seat)`` shows what the player at ``seat`` may see: the board, every farm and supply,
cards in play, scores so far, and that player's own hand (other hands only as counts). ``seat=None``
is a spectator's view (no hand); ``everything=True`` shows every hand and the options of every request
(for tools and tests). Keys are stable and documented in docs/api.md (section "The state view"); a
change of meaning raises ``VIEW_VERSION``.
"""
from __future__ import annotations

from .farm import iter_bits, popcount
from .primitives import fences_left, limit_of
from .primitives.on_cards import ANY_NUMBER

VIEW_FORMAT = "agricola-view"
VIEW_VERSION = 1


def state_view(game, seat: int | None = None, everything: bool = False) -> dict:
    """The game as JSON data seen from ``seat`` (0 for P1; None for a spectator)."""
    rules = game.rules
    names = [p.name for p in game.players]
    board = []
    for s in game.spaces:
        board.append({"id": s.id, "name": s.name, "goods": {g: k for g, k in s.goods.items() if k},
                      "occupants": [names[i] for i in s.occupants], "round": s.round_revealed,
                      "stage": s.stage, "tags": list(s.tags)})
    revealed = sorted((s.round_revealed, s.id, s.name) for s in game.spaces if s.round_revealed is not None)
    view = {
        "format": VIEW_FORMAT, "version": VIEW_VERSION,
        "pack": game.pack.id, "player_count": game.nplayers, "seat": seat,
        "round": game.round, "last_round": game.last_round, "stage": _stage(rules, game.round),
        "harvest_rounds": sorted(rules.harvest_rounds), "work_phase": game.in_work_phase,
        "finished": game.finished, "decisions": game.decisions,
        "start_player": names[game.start_player],
        "board": board,
        "round_cards": [{"round": r, "id": sid, "name": name} for r, sid, name in revealed],
        "hidden_round_cards": max(0, len(game.round_order) - len(revealed)),
        "major_supply": [{"id": cid, "name": game.card(cid).name} for cid in game.major_supply],
        "tile_supply": dict(game.tile_supply),
        "players": [_player(game, p, everything or seat == p.idx) for p in game.players],
        "pending": _pending(game, seat, everything),
        "scores": game.scores,
        "teams": _teams(game),
    }
    return view


def _teams(game):
    """In team play, each team: its players and its score so far (per category, as the pack combines
    the partners' points); None without teams."""
    if not game.rules.teams:
        return None
    return [{"players": t["team"].split("+"), "total": t["total"], "categories": t["categories"]}
            for t in game.team_scores(game.scores or [game.score(p) for p in game.players])]


def _stage(rules, r: int):
    for i, (first, last) in enumerate(rules.stages):
        if first <= r <= last:
            return i + 1
    return None


def _player(game, p, own: bool) -> dict:
    rules = game.rules
    gr = p.grid
    animals = set(rules.animals)
    pasture_of = {}
    for k, mask in enumerate(list(p.pastures) + [m for m, _ in p.tile_pastures]):   # fenced ones first
        for c in iter_bits(mask):
            pasture_of[c] = k
    cells = []
    for i in range(gr.n):
        bit = 1 << i
        cell = {"cell": gr.name(i), "kind": "empty", "crop": None, "count": 0,
                "stable": bool(p.stables & bit), "pasture": pasture_of.get(i)}
        if p.rooms & bit:
            cell["kind"] = "room"
        elif i in p.fields:
            crop, count = p.fields[i]
            cell.update(kind="field", crop=crop if count else None, count=count)
        elif i in pasture_of:
            cell["kind"] = "pasture"
        elif p.stables & bit:
            cell["kind"] = "stable"
        cells.append(cell)
    score = game.score(p)
    return {
        "seat": p.idx, "name": p.name, "start_player": p.idx == game.start_player,
        "partner": game.players[game.partners[p.idx]].name if p.idx in game.partners else None,
        "house": p.house, "rooms": p.room_count,
        "farmyard": {"rows": gr.rows, "cols": gr.cols, "cells": cells},
        "pastures": [{"cells": [gr.name(c) for c in iter_bits(m)], "stables": popcount(m & p.stables)}
                     for m in p.pastures]
        + [{"cells": [gr.name(c) for c in iter_bits(m)], "stables": popcount(m & p.stables), "tile": tid}
           for m, tid in p.tile_pastures],
        "fences": popcount(p.fences),
        "fences_left": fences_left(game, p),
        "stables_left": _stables_left(game, p),
        "goods": {g: k for g, k in p.goods.items() if g not in animals},
        "animals": {a: p.goods[a] for a in rules.animals},
        "people": p.people, "newborns": p.newborns, "at_home": p.home, "begging": p.begging, "bonus": p.bonus,
        "cards": {"majors": list(p.majors), "minors": list(p.minors), "occupations": list(p.occupations)},
        "on_cards": _on_cards(game, p),
        "hand": ({"occupations": list(p.hand_occupations), "minors": list(p.hand_minors)} if own else None),
        "hand_size": {"occupations": len(p.hand_occupations), "minors": len(p.hand_minors)},
        "score": {"total": score["total"], "categories": score["categories"]},
    }


def _stables_left(game, p) -> int:
    """Stables the player may still build: their own supply, and the table's shared one where the pack
    has it."""
    left = limit_of(game, p, "stables", game.rules.max_stables) - popcount(p.stables)
    if game.rules.shared_stables is not None:
        left = min(left, game.rules.shared_stables - sum(popcount(q.stables) for q in game.players))
    return max(0, left)


def _on_cards(game, p) -> dict:
    """What lies on each card of ``p`` (goods put or moved there) and the animals each card may hold."""
    out: dict = {}
    for cid, kept in p.card_state.get("stored", {}).items():
        if kept:
            out.setdefault(cid, {})["goods"] = dict(sorted(kept.items()))
    animals = game.rules.animals
    for cid, places in p.card_state.get("card_capacity", {}).items():
        out.setdefault(cid, {})["holds"] = [{"animals": None if n >= ANY_NUMBER else n,
                                             "kind": None if only < 0 else animals[only]}
                                            for n, only in places]
    for cid, fn, only in p.mods.get("card_capacity_fn", ()):   # worked out now
        out.setdefault(cid, {}).setdefault("holds", []).append(
            {"animals": max(0, fn(game, p)), "kind": None if only < 0 else animals[only]})
    return dict(sorted(out.items()))


def _pending(game, seat, everything: bool):
    request = game.pending
    if request is None:
        return None
    if everything or seat == request.seat:
        return request.to_json()
    return {"decision": request.number, "seat": request.seat, "player": request.player.name,
            "kind": request.kind, "prompt": request.prompt, "options": None}

