"""Effects run for other players, and goods moved between players."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..payments import can_afford, can_after_paying, pay_cost
from ..state import Ctx, Player
from .. import gamelog


def _for(ctx, owner):
    """The context of a body run for another player: the same event, and the card's owner."""
    if ctx is None:
        return Ctx(actor=owner, owner=owner)
    return Ctx(space=ctx.space, card=ctx.card, actor=ctx.actor, event=ctx.event, data=ctx.data, goods=ctx.goods,
               before=ctx.before, owner=owner, aside=ctx.aside)


def for_each_player(g: Game, p: Player, ctx, can, do):
    """Run an effect for every player in turn order (the owner included)."""
    c = _for(ctx, p)
    for other in g.turn_order():
        if can(g, other, c):
            do(g, other, c)
    return True


def for_each_other(g: Game, p: Player, ctx, can, do):
    """Run an effect for every other player, in seat order after the owner."""
    c = _for(ctx, p)
    n = g.nplayers
    for i in range(1, n):
        other = g.players[(p.idx + i) % n]
        if can(g, other, c):
            do(g, other, c)
    return True


def for_actor(g: Game, p: Player, ctx, can, do):
    """Run an effect for the player who carried out the event (their goods, their choices)."""
    who = actor_of(p, ctx)
    c = _for(ctx, p)
    if can(g, who, c):
        return bool(do(g, who, c))
    return False


def actor_of(p: Player, ctx):
    return ctx.actor if ctx is not None and ctx.actor is not None else p


def owner_of(p: Player, ctx):
    return ctx.owner if ctx is not None and ctx.owner is not None else p


def give_to(g: Game, who, items, ctx=None):
    """Goods from the general supply to a player."""
    return gain(g, who, items, ctx)


def can_pay_to(g: Game, p: Player, whom, items) -> bool:
    return whom is p or can_afford(g, p, items)


def can_pay_to_then(g: Game, p: Player, whom, items, can, ctx) -> bool:
    """Whether ``p`` can pay ``items`` to ``whom`` and then do what ``can`` tests (with the goods paid)."""
    if whom is p:
        return bool(can(g, p, ctx))
    return can_afford(g, p, items) and can_after_paying(g, p, items, can, ctx)


def pay_to(g: Game, p: Player, whom, items, ctx=None):
    """Goods from ``p`` to another player (nothing moves when they are the same player)."""
    if whom is p:
        return True
    if not pay_cost(g, p, items):
        return False
    gain(g, whom, items, ctx)
    return True


def owed_to_others(g: Game, p: Player, ctx, price):
    """What ``p`` owes each other player for a price worked out for that player ('pay … to each other player
    to …', docs/language.md 4.2): (player, goods) in seat order after ``p``; a player owed nothing is left
    out. ``price(g, other, c)`` gives the goods, with ``p`` as the card's owner in ``c``."""
    c = _for(ctx, p)
    n = g.nplayers
    owed = []
    for i in range(1, n):
        other = g.players[(p.idx + i) % n]
        goods = tuple((good, k) for good, k in price(g, other, c) if k > 0)
        if goods:
            owed.append((other, goods))
    return owed


def can_pay_others(g: Game, p: Player, ctx, price, credit=()) -> bool:
    """Whether ``p`` can pay every other player what it is owed, counting ``credit``: goods ``p`` gets
    first (the gain the payment buys), which may pay part of it."""
    total: dict[str, int] = {}
    for _other, goods in owed_to_others(g, p, ctx, price):
        for good, k in goods:
            total[good] = total.get(good, 0) + k
    for good, k in credit:
        if good in total:
            total[good] -= k
    return can_afford(g, p, tuple((good, k) for good, k in total.items() if k > 0))


def pay_others(g: Game, p: Player, ctx, price):
    """``p`` pays every other player the goods worked out for that player."""
    ok = True
    for other, goods in owed_to_others(g, p, ctx, price):
        ok = pay_to(g, p, other, goods, ctx) and ok
    return ok


def take_from(g: Game, p: Player, whom, items, ctx=None):
    """Goods from another player to ``p``: as much of each as they have."""
    if whom is p:
        return True
    got = []
    for good, n in items:
        k = min(n, whom.goods[good])
        if k > 0:
            whom.goods[good] -= k
            got.append((good, k))
    if got:
        gamelog.paid(g, whom, got)
        gain(g, p, tuple(got), ctx)
    return True


def _fees_for(g: Game, p: Player, s):
    """The fees ``p`` owes other players' cards for using space ``s`` (docs/language.md 4.9)."""
    return [(g.players[owner], fee, cid) for owner, key, fee, cid in g.space_fees
            if owner != p.idx and (key == s.id or (key[0] == "#" and key[1:] in s.tags))]


def can_pay_space_fees(g: Game, p: Player, s) -> bool:
    """Whether ``p`` can pay every fee of using ``s`` (a space whose fee they cannot pay is not usable)."""
    fees = _fees_for(g, p, s)
    if not fees:
        return True
    total: dict[str, int] = {}
    for _owner, fee, _cid in fees:
        for good, n in fee:
            total[good] = total.get(good, 0) + n
    return can_afford(g, p, tuple(total.items()))


def pay_space_fees(g: Game, p: Player, s, ctx=None):
    """``p`` pays the fees of using ``s`` to the cards' owners, before anything else happens there."""
    outer = g.via
    for owner, fee, cid in _fees_for(g, p, s):
        g.via = g.card(cid)   # the fee is the card's (event_via), not the space's own action
        pay_to(g, p, owner, fee, ctx)
    g.via = outer


# the verbs of the other modules called above (imported last: some of them import this one)
from .goods_events import gain
