"""Baking and exchanges, and the windows in which abilities are used (docs/architecture.md, "Exchange windows")."""
from __future__ import annotations

from ..payments import can_afford, pay_cost, usable_exchanges, window_open
from ..state import Ctx
from .. import gamelog


# ====================================================================== baking and exchanges


def _bake_rates(p):
    best_unlimited = None
    limited = []
    for give, get, at_most, source in p.bake_rates:
        if at_most is None:
            if best_unlimited is None or get[0][1] > best_unlimited[1][0][1]:
                best_unlimited = (give, get, at_most, source)
        else:
            limited.append((give, get, at_most, source))
    rates = limited + ([best_unlimited] if best_unlimited else [])
    return rates


def can_bake(g, p, ctx=None):
    return bool(p.bake_rates) and p.goods["grain"] > 0


def bake(g, p, ctx=None):
    """Turn grain into food through the player's baking improvements (how much goes where is a choice)."""
    grain = p.goods["grain"]
    rates = _bake_rates(p)
    if not rates or not grain:
        return False
    allocations = [()]
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
    for (give, get, at_most, source), k in zip(rates, pick):
        if k:
            pay(g, p, scaled(give, k), quiet=True)
            gain(g, p, scaled(get, k), quiet=True)
    gamelog.baked(g, p, [(scaled(give, k), scaled(get, k), source)
                         for (give, get, at_most, source), k in zip(rates, pick) if k])
    after_event(g, p, "bake", sum(pick), before=before,
                goods=(("food", sum(get[0][1] * k for (give, get, at_most, source), k in zip(rates, pick))),))
    return True


def exchanges_make(g, p, goods) -> bool:
    """Whether an exchange usable now makes one of ``goods`` (a pile counts with what lies on it)."""
    entries = g.exchanges_of(p)
    for i in usable_exchanges(g, p):
        give, get, window, at_most, source, key = entries[i]
        if get == "pile":
            if any(good in goods for good in pile_stack(p, source)):
                return True
        elif any(good in goods for good, n in get):
            return True
    return False


def exchange(g, p, give, get, ctx=None):
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


def makes_only_food(entry) -> bool:
    get = entry[1]
    return get != "pile" and all(good == "food" for good, n in get)


def has_window_abilities(p) -> bool:
    """Whether ``p`` has cards with abilities offered in the windows outside feeding."""
    if p.actions:
        return True
    for entry in p.exchanges:
        if not makes_only_food(entry):
            return True
    return False


def window_options(g, p):
    """The abilities ``p`` may use in a window outside feeding: ("x", exchange index), ("a", action index)."""
    out = []
    entries = g.exchanges_of(p)
    for i in usable_exchanges(g, p):
        entry = entries[i]
        if not makes_only_food(entry) and exchange_ready(g, p, entry):
            out.append(("x", i))
    for i, (window, can, do, label, source) in enumerate(p.actions):
        if window_open(g, window) and can(g, p, None):
            out.append(("a", i))
    return out


def feeding_options(g, p, fed=False):
    """The abilities ``p`` may use while feeding: exchange indices and ("a", action index)."""
    out = []
    entries = g.exchanges_of(p)
    animals = g.animal_set
    cook = None  # computed when needed: would a newborn animal find no room?
    for i in usable_exchanges(g, p):
        entry = entries[i]
        give, get, window, at_most, source, key = entry
        if fed and makes_only_food(entry) and window == "any_time":
            if not any(h in animals for h, n in give):
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


def use_window_option(g, p, option):
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


def exchange_ready(g, p, entry) -> bool:
    give, get, window, at_most, source, key = entry
    if at_most is not None and p.used.get(key, 0) >= at_most:
        return False
    if get == "pile" and pile_top(p, source) is None:
        return False
    return can_afford(g, p, give)


def use_exchange(g, p, index, convert=False, settle=True):
    """Use an exchange once. With ``convert``, what it takes may itself come from other exchanges;
    without ``settle``, animals it gives need not find room yet (they are about to be paid)."""
    give, get, window, at_most, source, key = g.exchanges_of(p)[index]
    if convert and not can_pay(p, give):
        with gamelog.paying_for_an_exchange(g):   # the exchange's own line says what it took
            if not pay_cost(g, p, give):
                return False
    else:
        pay(g, p, give, quiet=True)
    if get == "pile":
        stack = p.card_state["piles"][source]
        got = ((stack.pop(0), 1),)
        p.producible = None
    else:
        got = get
    if at_most is not None:
        p.used[key] = p.used.get(key, 0) + 1
    gamelog.exchanged(g, p, give, got, source)
    if settle:
        gain(g, p, got, quiet=True)
    else:
        for good, n in got:
            p.goods[good] += n
    if g.listeners.get("event:convert"):
        if settle:
            converted(g, p, give, got, source)
        else:  # inside a payment: its rules run once the price is paid
            g.converted.append((p, give, got, source))
    return True


def converted(g, p, give, got, source):
    """The 'after … convert' rules of one conversion (``via``: the card whose exchange it was)."""
    g.emit("event:convert", p, Ctx(actor=p, goods=tuple(got), paid=tuple(give),
                                  via=g.card(source) if source else None))


def announce_conversions(g):
    """After a payment: the rules of the conversions it made."""
    done, g.converted = g.converted, []
    for p, give, got, source in done:
        converted(g, p, give, got, source)


# the verbs of the other modules called above (imported last: some of them import this one)
from .goods_events import after_event, before_event, can_pay, gain, pay, replaced, scaled, snapshot
from .animals import breeding_blocked
from .on_cards import pile_stack, pile_top
