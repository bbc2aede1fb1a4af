"""Stables."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..state import Player

from ..farm import iter_bits, popcount
from ..payments import can_afford_any, cost_options, pay_one_of
from .. import gamelog


# ====================================================================== farm: stables


def stable_cells(g: Game, p: Player) -> int:
    if g.rules.stables_near_pastures:
        return _stable_cells_near_pastures(p)
    return p.grid.full & ~(p.rooms | p.field_mask | p.stables)


def _stable_cells_near_pastures(p: Player) -> int:
    """A stable on a pasture without one (on the pasture's first space), or on an empty space next to a
    pasture."""
    gr = p.grid
    out = 0
    pastures = [m for m in p.pastures] + [m for m, _ in p.tile_pastures]
    every = 0
    for m in pastures:
        every |= m
        if not m & p.stables:
            out |= m & -m
    if every:
        out |= gr.neighbours_of(every) & ~_blocked_for_tiles(p)
    return out


def stable_options(g: Game, p: Player, cost=None):
    """The ways to pay for one stable: the pack's price as the cards change it, or a price a card states."""
    if cost is not None:
        return cost_options(g, p, ("stable",), cost, modified=False)
    return cost_options(g, p, ("stable",), g.rules.stable_cost)


def can_build_stable(g: Game, p: Player, ctx=None, cost=None):
    stables = p.stables
    if popcount(stables) >= limit_of(g, p, "stables", g.rules.max_stables):
        return False
    if g.rules.shared_stables is not None and shared_stables_left(g) <= 0:
        return False
    if g.rules.stables_near_pastures:
        if not _stable_cells_near_pastures(p):
            return False
    elif not p.grid.full & ~(p.rooms | p.field_mask | stables):   # stable_cells
        return False
    return can_afford_any(g, p, stable_options(g, p, cost))


def _put_stable(g: Game, p: Player, cell):
    p.stables |= 1 << cell
    if g.log is not None:
        g.say(f"{p.name} builds a stable at {p.grid.name(cell)}")


def build_stable(g: Game, p: Player, ctx=None, cost=None):
    if not can_build_stable(g, p, ctx, cost):
        return False
    before = snapshot(g, p, "build_stables")
    before_event(g, p, "build_stables")
    cell = g.decide(p, "stable", list(iter_bits(stable_cells(g, p))))
    pay_one_of(g, p, stable_options(g, p, cost))
    _put_stable(g, p, cell)
    after_event(g, p, "build_stables", 1, before=before, cells=1 << cell)
    return True


def _fits_one_more(g: Game, q, good) -> bool:
    if good not in g.animal_set:
        return True
    counts = list(animal_counts(g, q))
    counts[g.rules.animals.index(good)] += 1
    return animals_fit(g, q, counts)


def partner_goods_options(g: Game, p: Player, q, moved) -> list:
    """The moves of a partner exchange: ("give", good) or ("take", good), one good at a time, after
    "stop". A kind not moved yet (``moved``) costs the fee first; an animal moves only where it fits."""
    fee = g.rules.teams.get("fee") or ()
    out: list = [STOP]
    for direction, giver, taker in (("give", p, q), ("take", q, p)):
        for good in g.rules.goods:
            if giver.goods[good] < 1 or not _fits_one_more(g, taker, good):
                continue
            if good not in moved:
                need = dict(fee)
                if giver is p:
                    need[good] = need.get(good, 0) + 1
                if not can_pay(p, tuple(need.items())):
                    continue
            out.append((direction, good))
    return out


def partner_exchange(g: Game, p: Player, ctx=None):
    """Team play: after using an exchange space, ``p`` passes goods to the partner and takes goods from
    them, one at a time, paying the fee once for each kind of good moved, until ``p`` stops."""
    q = g.partner_of(p)
    if q is None:
        return False
    fee = g.rules.teams.get("fee") or ()
    moved: set = set()
    while True:
        opts = partner_goods_options(g, p, q, moved)
        if len(opts) == 1:
            break
        pick = g.decide(p, "partner_goods", opts)
        if pick == STOP:
            break
        direction, good = pick
        first = good not in moved
        if first:
            moved.add(good)
            if fee:
                pay(g, p, fee, quiet=True)
        giver, taker = (p, q) if direction == "give" else (q, p)
        giver.goods[good] -= 1
        taker.goods[good] += 1
        if g.log is not None:
            paid = f" ({p.name} pays {gamelog.goods(g, fee)} for the kind)" if first and fee else ""
            g.say(f"{giver.name} passes {gamelog.goods(g, ((good, 1),))} to {taker.name}{paid}")
    if moved:
        settle_animals(g, p)
    return bool(moved)


def partner_stable_options(g: Game, p: Player):
    """The ways for ``p`` to pay a stable on the partner's farm."""
    return cost_options(g, p, ("stable",), g.rules.teams["stables"])


def partner_stable_cells(g: Game, p: Player) -> tuple:
    """(partner, the spaces where ``p`` may build the partner a stable now), or (None, 0)."""
    q = partner_for(g, p, "stables")
    if q is None or popcount(q.stables) >= limit_of(g, q, "stables", g.rules.max_stables):
        return None, 0
    if g.rules.shared_stables is not None and shared_stables_left(g) <= 0:
        return None, 0
    cells = stable_cells(g, q)
    if not cells or not can_afford_any(g, p, partner_stable_options(g, p)):
        return None, 0
    return q, cells


def can_build_stables(g: Game, p: Player, ctx=None, cost=None):
    """Whether the 'build stables' action can build one (on the own farm or, in team play, the partner's);
    ``cost``: the price of each stable a card gives ('build stables for 1 wood, 1 food'), own farm only."""
    if cost is not None:
        return can_build_stable(g, p, ctx, cost)
    return can_build_stable(g, p) or partner_stable_cells(g, p)[0] is not None


def build_stables(g: Game, p: Player, ctx=None, cost=None):
    built = acts = 0   # stables on the own farm (the event's count); every stable built, the partner's too
    cells = 0          # the spaces of the stables built on the own farm (the event's cells)
    if g.listeners.get("instead:build_stables") and replaced(g, p, "build_stables", ctx):
        return True
    before = snapshot(g, p, "build_stables")
    if can_build_stable(g, p, ctx, cost):
        before_event(g, p, "build_stables")
    while True:
        mine = can_build_stable(g, p, ctx, cost)
        q, theirs = partner_stable_cells(g, p) if cost is None else (None, 0)
        if not mine and not theirs:
            break
        opts = (list(iter_bits(stable_cells(g, p))) if mine else []) + [(PARTNER, c) for c in iter_bits(theirs)]
        if acts:
            opts.append(STOP)
        cell = g.decide(p, "stable", opts)
        if cell == STOP:
            break
        acts += 1
        if isinstance(cell, tuple):
            pay_one_of(g, p, partner_stable_options(g, p))
            q.stables |= 1 << cell[1]
            if g.log is not None:
                g.say(f"{p.name} builds {q.name} a stable at {q.grid.name(cell[1])}")
            settle_animals(g, q)   # (a stable only adds room; settling keeps the animals' placement true)
            continue
        pay_one_of(g, p, stable_options(g, p, cost))
        _put_stable(g, p, cell)
        cells |= 1 << cell
        built += 1
    if built:
        after_event(g, p, "build_stables", built, before=before, cells=cells)
    return acts > 0


# the verbs of the other modules called above (imported last: some of them import this one)
from .goods_events import after_event, before_event, can_pay, pay, replaced, snapshot, STOP
from .rooms import _blocked_for_tiles, PARTNER, partner_for, shared_stables_left
from .animals import animal_counts, animals_fit, limit_of, settle_animals
