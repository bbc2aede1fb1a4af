"""A game set-up given from outside the pack: what a campaign (or any caller) carries into a game.

A set-up is plain JSON data, saved with the game (docs/save-format.md) so that a save replays it::

    {"start_player": 2,                       # seat index; absent or null: drawn as usual
     "seats": [                               # one entry per seat, in seat order
        {"goods": {"food": 3},                # added to the pack's start goods
         "occupations": ["<card id>"],      # in play from the start: no action, no occupation fee,
                                              # the card's own printed cost is paid at the start
         "hand": {"occupations": 6, "minors": 7}},   # hand sizes of this seat (absent: the pack's)
        …]}

The occupations in play are taken out of the decks before the deal. At the start of the game, before
the pre-game phase, each seat in turn order pays each of its occupations' printed cost (the payment
may be a request, as any payment) and the card comes into play as if played then (its on-play effects
run; its prerequisite is not checked: the card was in play before). An occupation whose cost cannot be
paid goes back into the deck at a random place; ``game.returned`` lists (seat, card id) of those.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from .engine import Game

from .payments import can_afford_any, pay_one_of
from .primitives import occupation_cost_options

KINDS = ("occupations", "minors")


def normal(pack, nplayers: int, setup) -> dict | None:
    """``setup`` checked against the pack and the number of players, in a normal form (ValueError with
    what is wrong in words); None for no set-up."""
    if setup is None:
        return None
    if not isinstance(setup, dict):
        raise ValueError("a set-up is a mapping with 'start_player' and 'seats'")
    unknown = sorted(set(setup) - {"start_player", "seats"})
    if unknown:
        raise ValueError(f"a set-up has no key {unknown[0]!r} (its keys are 'start_player' and 'seats')")
    start = setup.get("start_player")
    if start is not None and (isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < nplayers):
        raise ValueError(f"set-up: start_player {start!r} is not a seat of a {nplayers}-player game "
                         f"(0 to {nplayers - 1})")
    seats = setup.get("seats") or [{} for _ in range(nplayers)]
    if not isinstance(seats, list) or len(seats) != nplayers:
        raise ValueError(f"set-up: 'seats' must list {nplayers} seats")
    goods = set(pack.rules.goods)
    seen = set()
    out = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise ValueError(f"set-up: seat {i + 1} is not a mapping")
        extra = sorted(set(seat) - {"goods", "occupations", "hand"})
        if extra:
            raise ValueError(f"set-up: seat {i + 1} has no key {extra[0]!r} (its keys are 'goods', 'occupations' "
                             "and 'hand')")
        given = seat.get("goods") or {}
        for good, n in given.items():
            if good not in goods or isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"set-up: seat {i + 1} starts with {n!r} {good!r}: goods are the pack's "
                                 f"({', '.join(pack.rules.goods)}), each a whole number from 0")
        occupations = list(seat.get("occupations") or ())
        for cid in occupations:
            card = pack.cards.get(cid) if isinstance(cid, str) else None
            if card is None or card.kind != "occupation":
                raise ValueError(f"set-up: seat {i + 1}: {cid!r} is not an occupation of pack '{pack.id}'")
            if cid in seen:
                raise ValueError(f"set-up: occupation {cid!r} is in play twice")
            seen.add(cid)
        hand = seat.get("hand")
        if hand is not None:
            if not isinstance(hand, dict) or any(k not in KINDS or isinstance(v, bool) or not isinstance(v, int)
                                                 or v < 0 for k, v in hand.items()):
                raise ValueError(f"set-up: seat {i + 1}: 'hand' gives a whole number from 0 for 'occupations' "
                                 "and 'minors'")
            hand = {k: hand[k] for k in KINDS if k in hand}
        out.append({"goods": {g: given[g] for g in sorted(given) if given[g]}, "occupations": occupations,
                    **({"hand": hand} if hand is not None else {})})
    return {"start_player": start, "seats": out}


def in_play(setup) -> frozenset:
    """Every card a set-up puts in play (kept out of the decks)."""
    if setup is None:
        return frozenset()
    return frozenset(cid for seat in setup["seats"] for cid in seat["occupations"])


def hand_size(setup, seat: int, kind: str, default: int) -> int:
    if setup is None:
        return default
    return setup["seats"][seat].get("hand", {}).get(kind, default)


def add_goods(g: Game) -> None:
    """The seats' extra start goods (part of the set-up, after the pack's start goods)."""
    for p, seat in zip(g.players, g.setup["seats"]):
        for good, n in seat["goods"].items():
            p.goods[good] += n


def has_cards(setup) -> bool:
    return setup is not None and any(seat["occupations"] for seat in setup["seats"])


def play_given_cards(g: Game) -> None:
    """At the start of the game: each seat pays its given occupations' printed costs and puts them in
    play, in turn order; one that cannot be paid goes back into the deck (``g.returned``)."""
    for p in g.turn_order():
        for cid in g.setup["seats"][p.idx]["occupations"]:
            card = g.card(cid)
            options = occupation_cost_options(g, p, card)
            if card.cost and not (can_afford_any(g, p, options) and pay_one_of(g, p, options)):
                g.returned.append((p.idx, cid))
                deck = g.decks.setdefault("occupations", [])
                deck.insert(g.rng.randrange(len(deck) + 1), cid)
                g.say(f"{p.name} cannot pay for {card.name}; it goes back into the deck")
                continue
            p.occupations.append(cid)
            g.say(f"{p.name} starts with {card.name} in play")
            g.acquire_card(p, card)
