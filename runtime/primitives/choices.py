"""Choices inside an effect: 'may', 'and/or', 'then', 'choose', optional parts."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..state import Player


# ====================================================================== choices


def may(g: Game, p: Player, label: str) -> bool:
    if g.accept_optional:  # the player's choice needs this effect (see play_occupation)
        return True
    return g.decide(p, "may", (YES, NO), prompt=label) == YES


def and_or(g: Game, p: Player, ctx, parts):
    """``a and/or b``: at least one of the parts, each at most once, in the order the player picks."""
    done = set()
    did = False
    while True:
        opts: list = [i for i, part in enumerate(parts) if i not in done and part[0](g, p, ctx)]
        if not opts:
            break
        if did:
            opts.append(STOP)
        pick = g.decide(p, "next", opts, labels=[parts[i][2] if i != STOP else STOP for i in opts])
        if pick == STOP:
            break
        done.add(pick)
        if parts[pick][1](g, p, ctx):
            did = True
    return did


def then(g: Game, p: Player, ctx, parts):
    """``a then b``: a is done; afterwards each later part may be done if possible."""
    first = parts[0]
    did = first[1](g, p, ctx)
    for can, do, label in parts[1:]:
        if can(g, p, ctx) and may(g, p, label):
            do(g, p, ctx)
    return did


def choose(g: Game, p: Player, ctx, parts):
    opts = [i for i, part in enumerate(parts) if part[0](g, p, ctx)]
    if not opts:
        return False
    pick = g.decide(p, "choose", opts, labels=[parts[i][2] for i in opts])
    return parts[pick][1](g, p, ctx)


def optional(g: Game, p: Player, ctx, can, do, label):
    if can(g, p, ctx) and may(g, p, label):
        do(g, p, ctx)
        return True
    return False


def _spendable(p: Player, left, good, table, used):
    """The exchanges of a 'spend up to' the player can use now: the good they give fits in what is ``left`` of
    the limit, the player holds what they give, and their own cap is not reached."""
    return [i for i, (give, _get, most, _label) in enumerate(table)
            if (most is None or used[i] < most) and sum(n for k, n in give if k == good) <= left
            and all(p.goods[k] >= n for k, n in give)]


def can_spend_up_to(g: Game, p: Player, limit, good, table) -> bool:
    return bool(_spendable(p, int(limit), good, table, [0] * len(table)))


def spend_up_to(g: Game, p: Player, ctx, limit, good, table):
    """'spend up to N <good> on (<exchanges>)' (docs/language.md 4.12 UPN): the player uses the exchanges one
    at a time, in any mix and as often as they like, while the <good> they have given stays within N; they
    may stop at any time (request ``next``). Each exchange's goods come from the general supply (animals
    must then fit on the farm, as with any gain)."""
    left, used, did = int(limit), [0] * len(table), False
    while True:
        opts = _spendable(p, left, good, table, used)
        if not opts:
            break
        opts.append(STOP)
        pick = g.decide(p, "next", opts, labels=[table[i][3] if i != STOP else STOP for i in opts])
        if pick == STOP:
            break
        give, get, _most, _label = table[pick]
        pay_cost(g, p, give)
        gain(g, p, get, ctx)
        left -= sum(n for k, n in give if k == good)
        used[pick] += 1
        did = True
    return did


# the verbs of the other modules called above (imported last: some of them import this one)
from ..payments import pay_cost
from .goods_events import NO, STOP, YES, gain
