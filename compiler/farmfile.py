"""Scoring one player's end-of-game farm described in a small YAML file (``agricola score``).

The format (see docs/farm-format.md)::

    house: clay                 # wood, clay or stone
    farmyard:                   # 3 rows of 5 spaces, top row first, separated by spaces
      - "R   R   P   P   S"
      - "R   G2  P   PS  ."
      - "V1  F   .   .   ."
    pastures: [A3+B3, A4+B4]    # optional: how fenced spaces split into pastures
    pasture_tiles: {A1: small_pasture}   # where the pack has pasture tiles: which tile lies where (T, TS)
    animals: {sheep: 4, boar: 0, cattle: 1}
    goods: {grain: 1, vegetable: 0, wood: 2, clay: 0, reed: 1, stone: 0, food: 0}
    people: 3
    begging: 0
    improvements: [<improvement id>, …]
    bonus: 0

Spaces: ``R`` room, ``F`` empty field, ``G<n>``/``V<n>`` field with n grain/vegetables, ``P`` pasture
space, ``PS`` pasture space with a stable, ``T``/``TS`` a space under a pasture tile (with a stable), ``S``
stable outside pastures, ``.`` unused.
"""
from __future__ import annotations

import re
from pathlib import Path

from . import schema
from .diagnostics import Report, Span, did_you_mean
from .loader import LDict, load_yaml_file

from runtime.engine import Game
from runtime.farm import popcount
from runtime.report import score_table
from runtime.words import plural
from runtime import primitives as P

KEYS = tuple(schema.schema("farm")["properties"])  # house, farmyard, pastures, animals, goods, people, …


class FarmFileError(Exception):
    pass


class _Null:
    trusted = True

    def choose(self, *a, **k):  # pragma: no cover - scoring asks nothing
        raise FarmFileError("scoring asked for a decision")


def _fail(report: Report):
    raise FarmFileError(report.render() + "\n" + report.summary())


def load_farm(path: Path, pack):
    """Read a farm file into a one-player game's player; raises FarmFileError with located messages."""
    report = Report()
    data = load_yaml_file(path, report, str(path))
    if report:
        _fail(report)
    if not isinstance(data, LDict):
        report.error("E140", "a farm file is a mapping (house, farmyard, animals, …)", Span(str(path), 1, 1))
        _fail(report)
    if not schema.validate(data, "farm", report):  # every key's type (compiler/schemas/farm.json)
        _fail(report)
    rules = pack.rules
    n = rules.teams["players"] if rules.teams else max(1, rules.min_players)   # team play: its table
    game = Game(pack, n, seed=0, agents=[_Null()] * n)
    p = game.players[0]
    apply_farm(game, p, data, report, reset=True)
    if not report:
        check_reachable(game, p, data, report)
    if report:
        _fail(report)
    return game, p


def check_reachable(game, p, data: LDict, report: Report):
    """Report what no game can end with: a house smaller than the starting one or in pieces, fields that do
    not touch each other (each new field must touch one), and a card listed twice (there is one of each)."""
    rules = game.pack.rules
    gr = p.grid
    where = data.span_of("farmyard")
    if p.room_count < rules.start_rooms:
        report.error("E144", f"the house has {p.room_count} room{'s' if p.room_count != 1 else ''}; it starts "
                     f"with {rules.start_rooms} and never loses one", where)
    elif not gr.connected(p.rooms):
        report.error("E144", f"the rooms {gr.mask_names(p.rooms)} do not form one house: each new room is built "
                     "next to a room", where)
    if rules.fields_next_to_farm:
        if not gr.connected(p.rooms | p.field_mask | p.pasture_mask()):
            report.error("E144", "the farm is in pieces: each new tile is laid next to one already on the farm",
                         where)
    elif p.field_mask and not gr.connected(p.field_mask):
        report.error("E144", f"the fields {gr.mask_names(p.field_mask)} do not touch each other: each new field is "
                     "plowed next to a field", where)
    improvements = data.get("improvements") or []
    seen = {}
    for i, cid in enumerate(improvements):
        cid = str(cid)
        if cid in seen and cid in game.pack.all_cards:
            report.error("E147", f"'{cid}' is listed twice; there is one card of each", improvements.span_of(i),
                         f"the first is at line {seen[cid].line}")
        seen.setdefault(cid, improvements.span_of(i))


def apply_farm(game, p, data: LDict, report: Report, reset: bool = True):
    """Set player ``p``'s farm and supply from located farm data (the farm-file keys); problems go to
    ``report``. With ``reset``, everything not given is emptied first (an empty supply, the starting house)."""
    pack = game.pack
    rules = pack.rules
    gr = p.grid
    file = data.span.file
    if reset:
        for k in list(p.goods):
            p.goods[k] = 0
    house = data.get("house", p.house)
    if house not in rules.materials:
        report.error("E141", f"unknown house material '{house}'{did_you_mean(str(house), rules.materials)}",
                     data.span_of("house"))
    else:
        p.house = str(house)
    rows = data.get("farmyard")
    if rows is None:
        rows_given = False
    else:
        rows_given = True
        p.rooms = 0
        p.fields = {}
        p.stables = 0
    pasture_cells = 0
    tile_cells = 0
    if not rows_given:
        pasture_cells = p.fenced_mask()
        tile_cells = p.tile_mask()
    elif not isinstance(rows, list) or len(rows) != gr.rows:
        report.error("E142", f"'farmyard' must be a list of {gr.rows} rows", data.span_of("farmyard"))
    else:
        for r, row in enumerate(rows):
            span = rows.span_of(r)
            tokens = str(row).split()
            if len(tokens) != gr.cols:
                report.error("E142", f"row {r + 1} has {len(tokens)} spaces; a row has {gr.cols}", span)
                continue
            for c, tok in enumerate(tokens):
                cell = r * gr.cols + c
                t = tok.upper()
                if t == "R":
                    p.rooms |= 1 << cell
                elif t == "F":
                    p.fields[cell] = [None, 0]
                elif re.fullmatch(r"[GV][1-9][0-9]{0,8}", t):
                    p.fields[cell] = ["grain" if t[0] == "G" else "vegetable", int(t[1:])]
                elif t == "P":
                    pasture_cells |= 1 << cell
                elif t == "PS":
                    pasture_cells |= 1 << cell
                    p.stables |= 1 << cell
                elif t == "T" and rules.pasture_tiles:
                    tile_cells |= 1 << cell
                elif t == "TS" and rules.pasture_tiles:
                    tile_cells |= 1 << cell
                    p.stables |= 1 << cell
                elif t == "S":
                    p.stables |= 1 << cell
                elif t == ".":
                    pass
                else:
                    signs = "P, PS, T, TS, S" if rules.pasture_tiles else "P, PS, S"
                    report.error("E143", f"'{tok}' is not a farmyard space (use R, F, G<n>, V<n>, {signs} or .)",
                                 Span(file, span.line, span.col + 1 + str(row).find(tok), len(tok)))
    p.room_count = popcount(p.rooms)
    p.field_mask = sum(1 << c for c in p.fields)
    if not p.rooms:
        report.error("E144", "the farmyard has no room (R)", data.span_of("farmyard"))
    if popcount(p.stables) > rules.max_stables:
        report.error("E144", f"{popcount(p.stables)} stables; a player has at most {rules.max_stables}",
                     data.span_of("farmyard"))
    groups = data.get("pastures")
    pastures = []
    if not rows_given and groups is None:
        pastures = list(p.pastures)
    elif groups is None:
        pastures = gr.components(pasture_cells)
    elif not isinstance(groups, list):
        report.error("E112", "'pastures' must be a list such as [A3+B3, A4]", data.span_of("pastures"))
    else:
        seen = 0
        for i, g in enumerate(groups):
            try:
                m = gr.mask_from_names(str(g))
            except ValueError as exc:
                report.error("E145", str(exc), groups.span_of(i))
                continue
            if m & ~pasture_cells:
                report.error("E145", f"pasture {g} covers spaces not marked P or PS", groups.span_of(i))
            elif not gr.connected(m):
                report.error("E145", f"pasture {g} is not connected", groups.span_of(i))
            elif m & seen:
                report.error("E145", f"pasture {g} overlaps another pasture", groups.span_of(i))
            seen |= m
            pastures.append(m)
        if seen != pasture_cells and not report:
            report.error("E145", f"spaces {gr.mask_names(pasture_cells & ~seen)} are marked P but in no pasture",
                         data.span_of("pastures"))
    p.pastures = tuple(sorted(pastures))
    p.fences = 0
    for m in p.pastures:
        p.fences |= gr.boundary(m)
    if popcount(p.fences) > rules.max_fences:
        report.error("E144", f"these pastures need {popcount(p.fences)} fences; a player has {rules.max_fences}",
                     data.span_of("farmyard"))
    _apply_tiles(game, p, data, tile_cells, rows_given, report)
    for key, allowed in (("animals", rules.animals), ("goods", [g for g in rules.goods if g not in rules.animals])):
        block = data.get(key) or {}
        if not isinstance(block, dict):
            report.error("E112", f"'{key}' must be a mapping such as {{{allowed[0]}: 2}}", data.span_of(key))
            continue
        for name, n in block.items():
            if name not in allowed:
                report.error("E146", f"unknown {key[:-1] if key == 'goods' else 'animal'} '{name}'"
                             f"{did_you_mean(name, allowed)}", block.key_span(name))
            elif not isinstance(n, int) or isinstance(n, bool) or n < 0:
                report.error("E112", f"'{name}' must be a whole number of 0 or more", block.span_of(name))
            else:
                p.goods[name] = n
    for key, attr, lo, hi in (("people", "people", 1, rules.max_people), ("begging", "begging", 0, 1000),
                              ("bonus", "bonus", -1000, 1000)):
        if key in data:
            n = data[key]
            if not isinstance(n, int) or isinstance(n, bool) or not lo <= n <= hi:
                report.error("E112", f"'{key}' must be a whole number from {lo} to {hi}", data.span_of(key))
            else:
                setattr(p, attr, n)
    improvements = data.get("improvements") or []
    if not isinstance(improvements, list):
        report.error("E112", "'improvements' must be a list of ids", data.span_of("improvements"))
        improvements = []
    for i, cid in enumerate(improvements):
        cid = str(cid)
        if cid not in pack.all_cards:
            report.error("E147", f"unknown improvement '{cid}'{did_you_mean(cid, pack.all_cards)}",
                         improvements.span_of(i))
            continue
        card = pack.all_cards[cid]
        if card.kind == "major":
            p.majors.append(cid)
            if cid in game.major_supply:
                game.major_supply.remove(cid)
        elif card.kind == "minor":
            p.minors.append(cid)
        else:
            p.occupations.append(cid)
        game.install_card(p, card)
    if not report and not P.animals_fit(game, p):
        caps, singles = P.housing(game, p)
        report.error("E148", "the animals do not fit on this farm (pastures hold "
                     f"{', '.join(str(c[0]) for c in caps) or 'nothing'}; {plural(singles, 'space')} hold{'s' if singles == 1 else ''} one animal each)",
                     data.span_of("animals"))
    return True


def _apply_tiles(game, p, data: LDict, tile_cells: int, rows_given: bool, report: Report):
    """The pasture tiles: ``pasture_tiles`` maps the spaces of each tile (marked T or TS) to its id. Every
    tile is taken from the game's supply."""
    rules = game.rules
    gr = p.grid
    given = data.get("pasture_tiles")
    if given is None:
        if rows_given and tile_cells:
            report.error("E149", "spaces marked T need 'pasture_tiles' to say which tile lies where",
                         data.span_of("farmyard"))
        if rows_given:
            p.tile_pastures = ()
        return
    if not isinstance(given, dict):
        report.error("E112", "'pasture_tiles' must be a mapping such as {A1+A2: <tile id>}", data.span_of("pasture_tiles"))
        return
    for t in p.tile_pastures:   # the tiles the player had go back to the supply
        game.tile_supply[t[1]] = game.tile_supply.get(t[1], 0) + 1
    tiles = []
    seen = 0
    for spaces, tid in given.items():
        where = given.key_span(spaces)
        try:
            m = gr.mask_from_names(str(spaces))
        except ValueError as exc:
            report.error("E149", str(exc), where)
            continue
        tile = rules.pasture_tile.get(str(tid))
        if tile is None:
            known = sorted(rules.pasture_tile)
            report.error("E149", f"unknown pasture tile '{tid}'{did_you_mean(str(tid), known)}"
                         if known else f"the pack has no pasture tiles ('{tid}')", given.span_of(spaces))
            continue
        if m & ~tile_cells:
            report.error("E149", f"pasture tile {spaces} covers spaces not marked T or TS", where)
        elif popcount(m) != tile["spaces"] or not gr.connected(m):
            report.error("E149", f"a {tile['name']} covers {plural(tile['spaces'], 'connected space')}, not {spaces}",
                         where)
        elif m & seen:
            report.error("E149", f"pasture tile {spaces} overlaps another tile", where)
        elif popcount(m & p.stables) > 1:
            report.error("E149", f"pasture tile {spaces} has more than one stable", where)
        elif game.tile_supply.get(tile["id"], 0) <= 0:
            report.error("E149", f"there are only {tile['supply']} tiles '{tile['id']}'", where)
        else:
            game.tile_supply[tile["id"]] -= 1
            tiles.append((m, tile["id"]))
        seen |= m
    if seen != tile_cells and not report:
        report.error("E149", f"spaces {gr.mask_names(tile_cells & ~seen)} are marked T but under no pasture tile",
                     data.span_of("pasture_tiles"))
    p.tile_pastures = tuple(sorted(tiles))


def score_farm_file(path: Path, pack):
    game, p = load_farm(path, pack)
    game.round = game.last_round
    game.emit("phase:scoring", p)
    s = game.score(p)
    game.players = [p]
    game.nplayers = 1    # (a team pack's table has more seats; the farm is scored alone)
    game.scores = [s]
    return {"total": s["total"], "categories": s["categories"], "tie_break": s["tie_break"]}, score_table(game)
