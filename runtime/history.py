"""History counters (docs/language.md 4.7): how often an event happened, per player and period.

A card whose rules read ``done(…)``, ``done_by_any(…)``, ``done_since(…)``, ``gained(…)`` or ``first(…)``
names its counters in its table entry (``counters``: counter id, event key, amount function, periods).
The engine registers them when the card enters the game (dealt into a hand, laid on a display, drawn,
given by a set-up, or put into play), so a counter also counts what happened before its card was played;
a game in which no such card is dealt registers none and does no counting work. Each event is counted in
``Game.emit`` before any rule reacts to it, so an 'after' rule of that event sees it counted and a
'before' rule does not.

Counts are kept in the actor's ``card_state['history']`` as {(counter id, period): (period number, n)};
a count of an earlier period (another round, turn, harvest) reads as 0. Copies of the state copy it with
the rest of ``card_state``; a saved game replays to the same counts.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from .engine import Game

from .state import Player

from .firing import period_now

# a hook that makes an event key listened to (so that verbs emit it) and is skipped by every emit:
# its owner is no seat, and it reacts only to its owner's own events
_NO_SEAT = -1


def _placeholder(g: Game, p: Player, c):
    """Never run: its seat (-1) is no actor's and it reacts only to its owner's events, so no event calls it;
    listed, it makes the counted event emit."""


def register_hand_rules(g: Game, seat, card) -> None:
    """The rules of ``card`` that act while it is in the hand of ``seat`` ('may play this card', 4.10)."""
    for key, handler, who in card.hand_listeners:
        hooks = g.listeners.setdefault(key, [])
        if not any(h[0] == seat and h[1] is handler for h in hooks):
            hooks.append((seat, handler, who))


def register(g: Game, card) -> None:
    """Keep the counters ``card`` reads from now on (each counter once, however many cards read it)."""
    for cid, key, amount, periods in card.counters:
        entries = g.counters.setdefault(key, [])
        for i, (other, fn, known) in enumerate(entries):
            if other == cid:
                if not set(periods) <= set(known):
                    entries[i] = (cid, fn, tuple(sorted(set(known) | set(periods))))
                break
        else:
            entries.append((cid, amount, periods))
        hooks = g.listeners.setdefault(key, [])
        if not any(h[1] is _placeholder for h in hooks):
            hooks.insert(0, (_NO_SEAT, _placeholder, "you"))


def register_dealt(g: Game) -> None:
    """Register the counters of every card dealt, laid open or in play at the start of the game."""
    counting = g.pack.counting_cards
    if not counting:
        return
    cards = g.pack.all_cards
    seen = set()
    for p in g.players:
        for cid in (*p.hand_occupations, *p.hand_minors, *p.occupations, *p.minors, *p.majors):
            seen.add(cid)
    for kind_cards in g.display.values():
        seen.update(kind_cards)
    seen.update(g.major_supply)
    for cid in sorted(seen & counting):
        register(g, cards[cid])
    for p in g.players:
        for cid in p.hand_occupations:
            if cid in counting and cards[cid].hand_listeners:
                register_hand_rules(g, p.idx, cards[cid])


def count(g, key, actor, c) -> None:  # g: a Game (also the self of its parts' methods)
    """Count an event for its actor in every counter kept on ``key``."""
    entries = g.counters.get(key)
    if not entries:
        return
    kept = actor.card_state.setdefault("history", {})
    for cid, amount, periods in entries:
        n = 1 if amount is None else amount(g, actor, c)
        if n <= 0:
            continue
        for period in periods:
            now = period_now(g, period)
            old = kept.get((cid, period))
            kept[(cid, period)] = (now, old[1] + n) if old is not None and old[0] == now else (now, n)


def value(g: Game, p: Player, cid: str, period: str) -> int:
    """The count of counter ``cid`` for ``p`` in the current period."""
    kept = p.card_state.get("history")
    if not kept:
        return 0
    entry = kept.get((cid, period))
    return entry[1] if entry is not None and entry[0] == period_now(g, period) else 0


def started(g: Game, p: Player, card) -> None:
    """A card came into play for ``p``: its ``done_since(…, this)`` counters start from the counts now."""
    for cid, _key, _amount, periods in card.counters:
        if "game" in periods:
            p.card_state.setdefault("since", {})[(card.id, cid)] = value(g, p, cid, "game")
