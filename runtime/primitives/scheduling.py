"""Goods and actions on future rounds, bonus points, and goods returned to a space."""
from __future__ import annotations

from ..payments import pay_cost
from .. import gamelog


# ====================================================================== schedule, scoring


def rounds_next(g, n):
    return [r for r in range(g.round + 1, g.round + 1 + n) if r <= g.last_round]


def rounds_offsets(g, offsets):
    return [g.round + k for k in offsets if g.round + k <= g.last_round]


def rounds_listed(g, listed):
    return [r for r in listed if g.round < r <= g.last_round]


def rounds_remaining(g, parity=None):
    return [r for r in range(g.round + 1, g.last_round + 1) if parity is None or r % 2 == parity]


def schedule(g, p, items, rounds, ctx=None, source=None):
    """Goods for ``p`` at the start of each of ``rounds``; ``source`` is the card they come from (the log
    names it when they are taken)."""
    for r in rounds:
        g.schedule.setdefault(r, []).append((p.idx, tuple(items), source))
    if g.log is not None and rounds:
        g.say(f"{p.name} will get {gamelog.goods(g, items)} in {gamelog.rounds_words(rounds)}")
    return True


def bonus(g, p, points, ctx=None, source=None):
    """Bonus points for ``p``; ``source`` is the card they come from."""
    p.bonus += points
    gamelog.bonus_points(g, p, points, source)
    return True


def convert_bonus(g, p, good, tiers, ctx=None, source=None):
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


def return_to_space(g, p, items, ctx=None):
    if ctx is None or ctx.space is None or not pay_cost(g, p, items):
        return False
    space = ctx.space = g.own_space(ctx.space)
    for good, n in items:
        space.goods[good] = space.goods.get(good, 0) + n
    return True


def always(g, p, c=None):
    return True


def never(g, p, c=None):
    return False


# ====================================================================== later actions, all players


class ScheduledAction:
    """An effect waiting on a future round space (``schedule action(...) on …``)."""

    __slots__ = ("can", "do", "label")

    def __init__(self, can, do, label):
        self.can, self.do, self.label = can, do, label


def schedule_action(g, p, can, do, rounds, label, ctx=None, source=None):
    """An effect for ``p`` to take at the start of each of ``rounds``; ``source`` as for ``schedule``."""
    entry = ScheduledAction(can, do, label)
    for r in rounds:
        g.schedule.setdefault(r, []).append((p.idx, entry, source))
    if g.log is not None and rounds:
        g.say(f"{p.name} will '{label}' in {gamelog.rounds_words(rounds)}")
    return True
