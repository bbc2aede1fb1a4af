"""Goods and actions on future rounds, bonus points, and goods returned to a space."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..state import Player

from ..payments import pay_cost
from .. import gamelog
from ..words import plural


# ====================================================================== schedule, scoring


def rounds_next(g: Game, n):
    return [r for r in range(g.round + 1, g.round + 1 + n) if r <= g.last_round]


def rounds_offsets(g: Game, offsets):
    return [g.round + k for k in offsets if g.round + k <= g.last_round]


def rounds_listed(g: Game, listed):
    return [r for r in listed if g.round < r <= g.last_round]


def rounds_remaining(g: Game, parity=None):
    return [r for r in range(g.round + 1, g.last_round + 1) if parity is None or r % 2 == parity]


def schedule(g: Game, p: Player, items, rounds, ctx=None, source=None):
    """Goods for ``p`` at the start of each of ``rounds``; ``source`` is the card they come from (the log
    names it when they are taken)."""
    for r in rounds:
        g.schedule.setdefault(r, []).append((p.idx, tuple(items), source))
    if g.log is not None and rounds:
        g.say(f"{p.name} will get {gamelog.goods(g, items)} in {gamelog.rounds_words(rounds)}")
    return True


def bonus(g: Game, p: Player, points, ctx=None, source=None):
    """Bonus points for ``p``; ``source`` is the card they come from."""
    p.bonus += points
    gamelog.bonus_points(g, p, points, source)
    return True


def convert_bonus(g: Game, p: Player, good, tiers, ctx=None, source=None):
    have = p.goods[good]
    best = None
    for threshold, points in tiers:
        if have >= threshold:
            best = (threshold, points)
    if best is None:
        return False
    p.goods[good] -= best[0]
    gamelog.paid(g, p, ((good, best[0]),))
    p.bonus += best[1]
    gamelog.bonus_points(g, p, best[1], source)
    return True


def return_to_space(g: Game, p: Player, items, ctx=None):
    if ctx is None or ctx.space is None or not pay_cost(g, p, items):
        return False
    space = ctx.space = g.own_space(ctx.space)
    for good, n in items:
        space.goods[good] = space.goods.get(good, 0) + n
    return True


def always(g: Game, p: Player, c=None):
    return True


def never(g: Game, p: Player, c=None):
    return False


# ====================================================================== later actions, all players


class ScheduledAction:
    """An effect waiting on a future round space (``schedule action(...) on …``); ``aside``: the player's
    pieces set aside on that round space for it, ((piece, count),) (``… with 4 fences set aside``)."""

    __slots__ = ("can", "do", "label", "aside")

    def __init__(self, can, do, label, aside=()):
        self.can, self.do, self.label, self.aside = can, do, label, aside


def schedule_action(g: Game, p: Player, can, do, rounds, label, ctx=None, source=None, aside=None):
    """An effect for ``p`` to take at the start of each of ``rounds``; ``source`` as for ``schedule``.
    ``aside`` = (piece, n): up to n of the player's unbuilt pieces are set aside on each of those round
    spaces, the earliest round first, as many as are left (docs/language.md 4.3); until that round they are
    not the player's to build."""
    if aside is None:
        entry = ScheduledAction(can, do, label)
        for r in rounds:
            g.schedule.setdefault(r, []).append((p.idx, entry, source))
    else:
        from .fences import fences_left
        piece, n = aside
        key = "set_aside:" + piece
        for r in rounds:
            k = max(0, min(n, fences_left(g, p)))
            if k:
                p.stats[key] = p.stats.get(key, 0) + k
            g.schedule.setdefault(r, []).append((p.idx, ScheduledAction(can, do, label, ((piece, k),)), source))
            if g.log is not None:
                g.say(f"{p.name} sets aside {plural(k, piece[:-1])} on the space of round {r}")
    if g.log is not None and rounds:
        g.say(f"{p.name} will '{label}' in {gamelog.rounds_words(rounds)}")
    return True


def release_set_aside(g: Game, p: Player, entry):
    """The pieces set aside for ``entry`` go back to ``p``'s supply as its round starts (those its action does
    not build stay there); returns them as ((piece, count),) for ``set_aside(…)``."""
    for piece, k in entry.aside:
        key = "set_aside:" + piece
        left = p.stats.get(key, 0) - k
        if left > 0:
            p.stats[key] = left
        else:
            p.stats.pop(key, None)
    return entry.aside
