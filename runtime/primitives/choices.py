"""Choices inside an effect: 'may', 'and/or', 'then', 'choose', optional parts."""
from __future__ import annotations


# ====================================================================== choices


def may(g, p, label: str) -> bool:
    if g.accept_optional:  # the player's choice needs this effect (see play_occupation)
        return True
    return g.decide(p, "may", (YES, NO), prompt=label) == YES


def and_or(g, p, ctx, parts):
    """``a and/or b``: at least one of the parts, each at most once, in the order the player picks."""
    done = set()
    did = False
    while True:
        opts = [i for i, part in enumerate(parts) if i not in done and part[0](g, p, ctx)]
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


def then(g, p, ctx, parts):
    """``a then b``: a is done; afterwards each later part may be done if possible."""
    first = parts[0]
    did = first[1](g, p, ctx)
    for can, do, label in parts[1:]:
        if can(g, p, ctx) and may(g, p, label):
            do(g, p, ctx)
    return did


def choose(g, p, ctx, parts):
    opts = [i for i, part in enumerate(parts) if part[0](g, p, ctx)]
    if not opts:
        return False
    pick = g.decide(p, "choose", opts, labels=[parts[i][2] for i in opts])
    return parts[pick][1](g, p, ctx)


def optional(g, p, ctx, can, do, label):
    if can(g, p, ctx) and may(g, p, label):
        do(g, p, ctx)
        return True
    return False


# the verbs of the other modules called above (imported last: some of them import this one)
from .goods_events import NO, STOP, YES
