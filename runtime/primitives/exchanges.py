"""Baking and exchanges, and the windows in which abilities are used (docs/architecture.md, "Exchange windows")."""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..payments import Price, can_afford, offer_keys, offer_price, pay_cost, usable_exchanges, window_open
from ..state import Ctx, Exchange, Player
from .. import gamelog


# ====================================================================== baking and exchanges


def _bake_rates(p: Player):
    best_unlimited = None
    limited = []
    at_most: int | None
    for give, get, at_most, source in p.bake_rates:
        if at_most is None:
            if best_unlimited is None or get[0][1] > best_unlimited[1][0][1]:
                best_unlimited = (give, get, at_most, source)
        else:
            limited.append((give, get, at_most, source))
    rates = limited + ([best_unlimited] if best_unlimited else [])
    return rates


def can_bake(g: Game, p: Player, ctx=None):
    return bool(p.bake_rates) and p.goods["grain"] > 0


def bake(g: Game, p: Player, ctx=None):
    """Turn grain into food through the player's baking improvements (how much goes where is a choice)."""
    grain = p.goods["grain"]
    rates = _bake_rates(p)
    if not rates or not grain:
        return False
    allocations: list[tuple[int, ...]] = [()]
    for give, get, at_most, source in rates:
        cap = at_most if at_most is not None else grain
        nxt = []
        for alloc in allocations:
            used = sum(alloc)
            for k in range(0, min(cap, grain - used) + 1):
                nxt.append(alloc + (k,))
        allocations = nxt
    opts = [a for a in allocations if sum(a) > 0]
    if opts and g.listeners.get("instead:bake") and replaced(g, p, "bake", ctx):
        return True
    before = snapshot(g, p, "bake")
    if g.listeners.get("before:bake"):
        before_event(g, p, "bake")
        grain = p.goods["grain"]
        opts = [a for a in opts if sum(a) <= grain]  # the grain a 'before' rule took is no longer there
        if not opts:
            return False
    pick = g.decide(p, "bake", opts)
    opened = batch_open(g, p)   # the grain baked and what is converted along with it: one time (4.1.5)
    for (give, get, at_most, source), k in zip(rates, pick):
        if k:
            pay(g, p, scaled(give, k), quiet=True)
            gain(g, p, scaled(get, k), quiet=True)
            if BATCH in g.listeners:
                batch_note(g, p, scaled(give, k), scaled(get, k), source)
    gamelog.baked(g, p, [(scaled(give, k), scaled(get, k), source)
                         for (give, get, at_most, source), k in zip(rates, pick) if k])
    after_event(g, p, "bake", sum(pick), before=before,
                goods=(("food", sum(get[0][1] * k for (give, get, at_most, source), k in zip(rates, pick))),))
    if opened and batch_wanted(g, p):
        conversion_window(g, p)   # the player's exchanges, used along with the bake
    batch_close(g, p, opened)
    return True


def exchanges_make(g: Game, p: Player, goods) -> bool:
    """Whether an exchange usable now makes one of ``goods`` (a pile counts with what lies on it)."""
    entries = g.exchanges_of(p)
    sold = offer_keys(p)
    for i in usable_exchanges(g, p):
        give, get, window, at_most, source, key = entries[i]
        if key in sold:   # not drawn on by payments (payments.offer_keys)
            continue
        if get == "pile":
            if any(good in goods for good in pile_stack(p, source)):
                return True
        elif any(good in goods for good, n in get):
            return True
    return False


def exchange(g: Game, p: Player, give, get, ctx=None):
    with gamelog.paying_for_an_exchange(g):   # the exchange's own line says what it took
        if not pay_cost(g, p, give):
            return False
    gamelog.exchanged(g, p, give, get, ctx.card.id if ctx is not None and ctx.card is not None else None)
    gain(g, p, get, ctx, quiet=True)
    return True


# Exchange windows (docs/architecture.md, "Exchange windows"). A payment draws on every exchange usable
# now for what the player lacks (payments.py). Besides, the player may use abilities in windows:
# - before each placement, after the last placement of the round, after breeding, before scoring: every
#   usable exchange that makes something other than food only, and every action window that is open;
# - in feeding: every usable exchange while the family is not fed; once it is, those that make more than
#   food, those that lapse with the harvest ('in harvest', 'in feeding') and those that cook animals
#   when a newborn animal would find no room (cooking makes room before breeding), and every open action
#   window.
# An exchange that makes only food is not offered in the other windows: food is spent only in payments and
# in feeding, which draw on such exchanges themselves, and a good that can become food at any time is
# worth at least that food.


def makes_only_food(entry: Exchange) -> bool:
    if entry[1] == "pile":
        return False
    made: Price = entry[1]
    for good, _ in made:
        if good != "food":
            return False
    return True


def has_window_abilities(p: Player, g=None) -> bool:
    """Whether ``p`` has cards with abilities offered in the windows outside feeding (with ``g``: a rule
    of theirs counts conversions at one time, and any exchange is offered)."""
    if p.actions or (p.mods and p.mods.get("exchange_offers")):   # an exchange others may buy: used on its own
        return True
    if g is not None and batch_wanted(g, p):
        return True
    for entry in p.exchanges:
        if not makes_only_food(entry):
            return True
    return False


def window_options(g: Game, p: Player):
    """The abilities ``p`` may use in a window outside feeding: ("x", exchange index), ("a", action index)."""
    out = []
    entries = g.exchanges_of(p)
    sold = offer_keys(p)   # what they yield depends on the others: payments do not draw on them
    cook = BATCH in g.listeners and batch_wanted(g, p)   # food made at one time may bring more (4.1.5)
    for i in usable_exchanges(g, p):
        entry = entries[i]
        if (cook or not makes_only_food(entry) or entry[5] in sold) and exchange_ready(g, p, entry):
            out.append(("x", i))
    for i, (window, can, do, label, source) in enumerate(p.actions):
        if window_open(g, window) and can(g, p, None):
            out.append(("a", i))
    return out


def feeding_options(g: Game, p: Player, fed=False):
    """The abilities ``p`` may use while feeding: exchange indices and ("a", action index)."""
    out = []
    entries = g.exchanges_of(p)
    animals = g.animal_set
    cook = None  # computed when needed: would a newborn animal find no room?
    more = fed and BATCH in g.listeners and batch_wanted(g, p)   # more food at one time may bring more (4.1.5)
    for i in usable_exchanges(g, p):
        entry = entries[i]
        give, get, window, at_most, source, key = entry
        if fed and not more and makes_only_food(entry) and window == "any_time":
            takes: Price = give
            if not any(h in animals for h, n in takes):
                continue
            if cook is None:
                cook = breeding_blocked(g, p)
            if not cook:
                continue
        if exchange_ready(g, p, entry):
            out.append(i)
    for i, (window, can, do, label, source) in enumerate(p.actions):
        if window_open(g, window) and can(g, p, None):
            out.append(("a", i))
    return out


def use_window_option(g: Game, p: Player, option):
    """Carry out an option of ``window_options`` or ``feeding_options``."""
    if isinstance(option, int):
        return use_exchange(g, p, option, convert=True)
    kind, i = option
    if kind == "x":
        return use_exchange(g, p, i, convert=True)
    window, can, do, label, source = p.actions[i]
    outer, g.via = g.via, g.card(source)   # what the ability does is made by its card (event_via)
    try:
        return do(g, p, Ctx(actor=p))
    finally:
        g.via = outer


def exchange_ready(g: Game, p: Player, entry: Exchange) -> bool:
    give, get, window, at_most, source, key = entry
    if at_most is not None and p.used.get(key, 0) >= at_most:
        return False
    if get == "pile" and pile_top(p, source) is None:
        return False
    return can_afford(g, p, give)


def use_exchange(g: Game, p: Player, index, convert=False, settle=True):
    """Use an exchange once. With ``convert``, what it takes may itself come from other exchanges;
    without ``settle``, animals it gives need not find room yet (they are about to be paid)."""
    give, get, window, at_most, source, key = g.exchanges_of(p)[index]
    before = snapshot(g, p, "convert")   # before(…) of the conversion's rules: the player before it paid
    if convert and not can_pay(p, give):
        with gamelog.paying_for_an_exchange(g):   # the exchange's own line says what it took
            if not pay_cost(g, p, give):
                return False
    else:
        pay(g, p, give, quiet=True)
    if at_most is not None:   # a use counts whether or not another player buys the goods (below)
        p.used[key] = p.used.get(key, 0) + 1
    price = offer_price(p, key) if p.mods and "exchange_offers" in p.mods else None
    if price is not None and sold_to_another(g, p, give, price, source):
        return True
    if get == "pile":
        stack = p.card_state["piles"][source]
        got: tuple = ((stack.pop(0), 1),)
        p.producible = None
    else:
        got = get
    gamelog.exchanged(g, p, give, got, source)
    if settle:
        gain(g, p, got, quiet=True)
    else:
        for good, n in got:
            p.goods[good] += n
    if g.listeners.get("event:convert"):
        if settle:
            converted(g, p, give, got, source, before)
        else:  # inside a payment: its rules run once the price is paid
            g.converted.append((p, give, got, source, before))
    if BATCH in g.listeners:
        batch_note(g, p, give, got, source)
    return True


def sold_to_another(g: Game, p: Player, give, price, source) -> bool:
    """'(others may buy <goods> for <price>)' (docs/language.md 4.9): ``p`` has given ``give`` to an
    exchange of card ``source``; each other player who can pay ``price``, in seat order from ``p``'s left,
    is asked whether they buy those goods instead; of several who do, ``p`` chooses one. The buyer pays
    ``p`` the price and takes the goods, and the exchange gives ``p`` nothing. False when nobody buys."""
    n = g.nplayers
    buyers = []
    what = ", ".join(f"{k} {good}" for good, k in give)
    cost = ", ".join(f"{k} {good}" for good, k in price)
    for i in range(1, n):
        q = g.players[(p.idx + i) % n]
        if can_afford(g, q, price) and g.decide(
                q, "may", (YES, NO), prompt=f"buy {what} from {p.name} for {cost} ({source})") == YES:
            buyers.append(q)
    if not buyers:
        return False
    if len(buyers) == 1:
        buyer = buyers[0]
    else:
        seat = g.decide(p, "choose", [q.idx for q in buyers],
                        labels=[f"sell to {q.name}" for q in buyers])
        buyer = g.players[seat]
    outer, g.via = g.via, g.card(source) if source else g.via   # the sale is the card's (event_via)
    try:
        if not pay_cost(g, buyer, price):   # could pay it when asked: nothing has changed since
            raise RuntimeError(f"{buyer.name} cannot pay {cost} for the goods of {source}")
        gamelog.bought_instead(g, buyer, p, give, price, source)
        gain(g, p, price, quiet=True)
        gain(g, buyer, give, quiet=True)
    finally:
        g.via = outer
    return True


# ====================================================================== conversions at one time (4.1.5)
# The conversions of one window, one feeding, one bake action (with the exchanges used along with it), one
# payment or one settling of animals are one batch of the player's, counted by the rules of the event
# 'convert at one time' when it closes. The outermost of these moments holds the batch: a payment inside a
# window is part of the window's. A conversion outside all of them (a rule began listening in the middle of
# one) is a batch by itself.
# Nothing is kept when no rule listens: opening costs one look-up.

BATCH: Final = "event:convert_batch"


def batch_open(g: Game, p: Player) -> bool:
    """Open a batch for ``p`` unless one is open: True when this call opened it (and closes it)."""
    if BATCH in g.listeners and p.idx not in g.batches:
        g.batches[p.idx] = ([], snapshot(g, p, "convert_batch"))
        return True
    return False


def batch_note(g: Game, p: Player, give, got, source) -> None:
    """One conversion of ``p`` (an exchange used once, the grain baked on one improvement): into their open
    batch, or a batch of its own."""
    batch = g.batches.get(p.idx)
    if batch is not None:
        batch[0].append((tuple(give), tuple(got), source))
    else:
        _batch_event(g, p, [(tuple(give), tuple(got), source)], None)


def batch_close(g: Game, p: Player, opened) -> None:
    """Close the batch ``batch_open`` opened (``opened``) and run the rules of its conversions, if any."""
    if opened:
        parts, before = g.batches.pop(p.idx)
        if parts:
            _batch_event(g, p, parts, before)


def _batch_event(g: Game, p: Player, parts, before) -> None:
    if BATCH in g.listeners:
        g.emit(BATCH, p, batch_ctx(g, p, parts, before))


def batch_ctx(g: Game, p: Player, parts, before=None, space=False):
    """The payload of a batch of conversions: the goods given up (also its size), the goods got, the cards."""
    paid: dict = {}
    got: dict = {}
    cards = []
    for give, made, source in parts:
        for good, n in give:
            paid[good] = paid.get(good, 0) + n
        for good, n in made:
            got[good] = got.get(good, 0) + n
        if source is not None and source not in cards:
            cards.append(source)
    return Ctx(actor=p, data=sum(paid.values()), goods=tuple(got.items()), paid=tuple(paid.items()),
               via=tuple(g.card(cid) for cid in cards), before=before,
               space=space if space is not False else _space_in_use(g), parts=tuple(parts))


def batch_with(g: Game, c, refs):
    """The part of a batch made with the cards ``refs`` (ids, or '#tag'), as a payload of its own; None when
    none of its conversions was ('after you convert at one time with #cooking')."""
    parts = []
    for part in c.parts or ():
        source = part[2]
        if source is None:
            continue
        card = g.card(source)
        for ref in refs:
            if (ref[1:] in card.tags) if ref[0] == "#" else card.id == ref:
                parts.append(part)
                break
    if not parts:
        return None
    if len(parts) == len(c.parts):
        return c
    return batch_ctx(g, c.actor, parts, c.before, c.space)


def batch_wanted(g: Game, p: Player) -> bool:
    """Whether a rule of ``p``'s counts their own conversions at one time: then the exchanges that make only
    food are offered in the windows too, and a bake action comes with a window of exchanges (4.1.5)."""
    hooks = g.listeners.get(BATCH)
    if not hooks:
        return False
    for owner, _handler, who in hooks:
        if owner == p.idx and who != "other":
            return True
    return False


def conversion_window(g: Game, p: Player) -> None:
    """The exchanges ``p`` may use along with a bake action, one at a time until they answer stop."""
    while True:
        entries = g.exchanges_of(p)
        opts = [("x", i) for i in usable_exchanges(g, p) if exchange_ready(g, p, entries[i])]
        if not opts:
            return
        pick = g.decide(p, "any_time", [STOP] + opts)
        if pick == STOP:
            return
        use_exchange(g, p, pick[1], convert=True)


def converted(g: Game, p: Player, give, got, source, before=None):
    """The 'after … convert' rules of one conversion (``via``: the card whose exchange it was; ``before``:
    the player just before it, when a rule reads ``before(…)``)."""
    g.emit("event:convert", p, Ctx(actor=p, goods=tuple(got), paid=tuple(give),
                                  via=g.card(source) if source else None, before=before))


def announce_conversions(g: Game):
    """After a payment: the rules of the conversions it made."""
    done, g.converted = g.converted, []
    for p, give, got, source, before in done:
        converted(g, p, give, got, source, before)


# the verbs of the other modules called above (imported last: some of them import this one)
from .goods_events import (NO, STOP, YES, _space_in_use, after_event, before_event, can_pay, gain, pay, replaced,
                           scaled, snapshot)
from .animals import breeding_blocked
from .on_cards import pile_stack, pile_top
