"""Goods moving in and out of a player's supply, and the events the verbs run (docs/language.md 4.1)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..payments import as_price, holds
from ..state import Ctx, Player
from .. import gamelog


STOP: Final = "stop"
YES, NO = "yes", "no"

# ====================================================================== goods


def can_pay(p: Player, items) -> bool:
    return holds(p.goods, as_price(items))


# ====================================================================== events (docs/language.md, 4.1)


def via_cards(pack) -> dict:
    """handler -> the card whose rule it is (its events were made with that card: ``event_via``, docs/
    language.md 4.1.1); the pack's own rules are in no card. Made once per pack."""
    table = pack.via_cards
    if table is None:
        table = {}
        for card in pack.all_cards.values():
            for fn in card.on_play:
                table[fn] = card
            for _key, fn, _who in card.listeners:
                table[fn] = card
            for _key, fn, _who in card.hand_listeners:
                table[fn] = card
            for _cond, fn in card.latches:
                table[fn] = card
        pack.via_cards = table
    return table


def before_event(g: Game, p: Player, event, card=None, data=None):
    """Run the 'before' rules of an event, when a card in play has one: the verb is about to happen.
    ``data``: the part of the payload already known (a renovation's materials, from and to)."""
    key = "before:" + event
    if g.listeners.get(key):
        g.emit(key, p, Ctx(actor=p, card=card, space=_space_in_use(g), data=data, via=g.via))


def _space_in_use(g: Game):
    """The action space whose use the verb belongs to (``event_space``), None outside a use."""
    return g.space_by_id.get(g.using) if g.using is not None else None


def replaced(g: Game, p: Player, event, ctx=None, forced=False) -> bool:
    """Offer the 'instead of' rules of an event (docs/language.md 4.1.3) as the verb is about to happen:
    True when one of them replaced it. By seat from the actor, in play order; the first rule whose guard
    holds, whose body is possible and (for 'may') accepted replaces the verb, and a replacement that
    carries out the same verb does not offer the rules again."""
    hooks = g.listeners.get("instead:" + event)
    if not hooks or event in g.replacing:
        return False
    n, first = g.nplayers, p.idx
    c = Ctx(actor=p, space=getattr(ctx, "space", None), via=g.via)
    outer, g.replacing = g.replacing, g.replacing | {event}
    via = g.via
    cards = via_cards(g.pack)
    accept = g.accept_optional
    try:
        for owner, handler, who in sorted(hooks, key=lambda h: (h[0] - first) % n):
            if (who == "you") != (owner == p.idx) and who != "any":
                continue
            g.via = cards.get(handler)   # the replacement is made by the card (event_via)
            # ``forced``: the verb is possible only through a replacement, so its 'may' is accepted
            g.accept_optional = accept or forced
            if handler(g, g.players[owner], c):
                return True
    finally:
        g.replacing = outer
        g.via = via
        g.accept_optional = accept
    return False


def could_replace(g: Game, p: Player, event, ctx=None) -> bool:
    """Whether an 'instead of' rule of the event would replace it now (its guard holds, its limit is not
    reached and its body is possible), without running it: rules compiled with a test (``handler.can``)."""
    hooks = g.listeners.get("instead:" + event)
    if not hooks or event in g.replacing:
        return False
    c = Ctx(actor=p, space=getattr(ctx, "space", None))
    # as in ``replaced``: a replacement that carries out the same verb is tested without the rules of that verb
    # (else a rule whose body is its own verb, 'instead of you renovate …: may renovate to stone for …', would
    # test itself without end)
    outer, g.replacing = g.replacing, g.replacing | {event}
    try:
        for owner, handler, who in hooks:
            if (who == "you") != (owner == p.idx) and who != "any":
                continue
            test = getattr(handler, "can", None)
            if test is not None and test(g, g.players[owner], c):
                return True
    finally:
        g.replacing = outer
    return False


def snapshot(g: Game, p: Player, event):
    """A copy of the actor before the verb, only when a rule in play reads ``before(…)`` of this event."""
    return p.clone() if event in g.snapshots else None


def after_event(g: Game, p: Player, event, data=None, card=None, before=None, goods=None, fields=None, paid=None, cells=0):
    """Run the 'after' rules of an event with its payload; nothing is built when no card listens."""
    key = "event:" + event
    if g.listeners.get(key):
        g.emit(key, p, Ctx(actor=p, card=card, data=data, before=before, goods=goods, space=_space_in_use(g),
                           via=g.via, fields=fields, paid=paid, cells=cells))


def pay(g: Game, p: Player, items, ctx=None, quiet=False):
    """Take goods from the player's supply (``quiet``: the caller logs it)."""
    goods = p.goods
    for good, n in as_price(items):
        goods[good] -= n
    if not quiet:
        gamelog.paid(g, p, items)
    return True


def gain(g: Game, p: Player, items, ctx=None, quiet=False, source=None):
    """Add goods to the player's supply; animals must then fit on the farm (``quiet``: the caller has
    logged it; ``source``: the action space the goods were collected on, where animals without room may
    stay, per the pack's ``arriving_animals``)."""
    goods = p.goods
    animal = False
    stats = p.stats
    listened = g.listeners.get("event:gain")
    before = snapshot(g, p, "gain") if listened else None
    for good, n in as_price(items):
        if n <= 0:
            continue
        goods[good] += n
        if good in g.animal_set:
            animal = True
        elif good in g.building_set and g.in_work_phase:
            stats["building_gained"] = stats.get("building_gained", 0) + n
    if not quiet:
        gamelog.gained(g, p, items)
    if animal:
        settle_animals(g, p, (source, items) if source is not None else None)
    if listened:
        got = tuple((good, n) for good, n in items if n > 0)
        if got:
            g.emit("event:gain", p, Ctx(actor=p, goods=got, before=before, space=ctx.space if ctx else None,
                                        via=g.via))
    return True


def give_others(g: Game, p: Player, items, ctx=None):
    for other in g.players:
        if other is not p:
            gain(g, other, items, ctx)
    return True


def switch_on(g: Game, p: Player, key) -> bool:
    """A rule switch of ``p`` (``allow …``, ``forbid …``): True when a card turned it on for good, or a list
    of conditions of which one holds now (``allow renovate_skip while …``, docs/language.md 4.3)."""
    v = p.mods.get(key)
    if v is None or v is True or v is False:
        return bool(v)
    return any(fn(g, p) for fn in v)


def scaled(items, factor):
    return tuple((good, n * factor) for good, n in items)


# the verbs of the other modules called above (imported last: some of them import this one)
from .animals import settle_animals
