"""Piles, goods and animals on cards, and cards that are action spaces."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..packdata import SpaceDef
from ..payments import pay_cost
from ..state import Ctx, Player
from .. import gamelog


# ====================================================================== piles on cards


def pile(g: Game, p: Player, card_id, items):
    stack = p.card_state.setdefault("piles", {}).setdefault(card_id, [])
    for good, n in items:
        stack.extend([good] * n)
    p.producible = None
    return True


def pile_stack(p: Player, card_id):
    """The goods piled on a card, top first (empty when there are none)."""
    return p.card_state.get("piles", {}).get(card_id) or ()


def pile_top(p: Player, card_id):
    stack = p.card_state.get("piles", {}).get(card_id)
    return stack[0] if stack else None


def take_pile_top(g: Game, p: Player, card_id, ctx=None):
    """'take the top of the pile': the top good of the card's pile goes to its owner, for nothing."""
    stack = p.card_state.get("piles", {}).get(card_id)
    if not stack:
        return False
    good = stack.pop(0)
    p.producible = None
    gamelog.on_card(g, p, card_id, ((good, 1),), "take")
    gain(g, p, ((good, 1),), ctx, quiet=True)
    return True


# ====================================================================== goods and animals on cards


def stored_on(p: Player, card_id) -> dict:
    """The goods lying on a card of ``p`` (good -> count; empty when none)."""
    return p.card_state.get("stored", {}).get(card_id) or {}


def card_space_of(g: Game, p: Player, card_id):
    """The action space that ``p``'s card ``card_id`` is (None when it is none): its goods lie on the card."""
    s = g.space_by_id.get(card_id)
    return s if s is not None and s.defn.card_owner == p.idx else None


def _store(g: Game, p: Player, card_id, items, sign):
    s = card_space_of(g, p, card_id)
    kept = g.own_space(s).goods if s is not None else p.card_state.setdefault("stored", {}).setdefault(card_id, {})
    for good, n in items:
        if n > 0:
            kept[good] = kept.get(good, 0) + sign * n
            if not kept[good]:
                del kept[good]


def put_on_card(g: Game, p: Player, card_id, items, ctx=None):
    """Goods from the general supply onto the card (they are not in the player's supply)."""
    gamelog.on_card(g, p, card_id, items, "put")
    _store(g, p, card_id, items, 1)
    return True


def move_to_card(g: Game, p: Player, card_id, items, ctx=None):
    """Goods from the player's supply onto the card; what is missing is made by exchanges first (as the
    rule's test, ``can_afford``, allows), paid like a price."""
    if can_pay(p, items):
        for good, n in items:
            if n > 0:
                p.goods[good] -= n
    elif not pay_cost(g, p, tuple((good, n) for good, n in items if n > 0)):
        return False
    gamelog.on_card(g, p, card_id, items, "move")
    _store(g, p, card_id, items, 1)
    return True


def can_move_up_to_card(g: Game, p: Player, good, limit) -> bool:
    """Whether ``p`` could move at least one ``good`` to a card under an 'up to' limit."""
    return limit > 0 and p.goods[good] > 0


def move_up_to_card(g: Game, p: Player, card_id, good, limit, ctx=None):
    """'move up to N <good> to this card' (docs/language.md 4.12 UPN): the player chooses how many, from 0
    to the limit and no more than they hold (request ``amount``), and those go onto the card."""
    most = min(int(limit), p.goods[good])
    if most <= 0:
        return False
    n = g.decide(p, "amount", list(range(most + 1)), labels=[f"{k} {good}" for k in range(most + 1)])
    if n:
        move_to_card(g, p, card_id, ((good, n),), ctx)
    return True


def can_draw_from_card(g: Game, p: Player, card_id) -> bool:
    return any(n > 0 for n in stored_on(p, card_id).values())


def draw_from_card(g: Game, p: Player, card_id, n, ctx=None):
    """Draw ``n`` of the goods on the card at random, with the game's seeded generator (a bag, docs/
    language.md 4.10): they stay on the card, and ``drawn(…)`` is what was drawn until the next draw."""
    kept = stored_on(p, card_id)
    bag = [good for good in sorted(kept) for _ in range(kept[good])]
    got = g.rng.sample(bag, min(n, len(bag)))
    counts: dict = {}
    for good in got:
        counts[good] = counts.get(good, 0) + 1
    p.card_state.setdefault("drawn", {})[card_id] = tuple(sorted(counts.items()))
    if g.log is not None:
        g.say(f"{p.name} draws {gamelog.goods(g, tuple(sorted(counts.items())))} from {gamelog.source_name(g, card_id)}")
    return True


def can_take_from_card(g: Game, p: Player, card_id, items) -> bool:
    s = card_space_of(g, p, card_id)
    kept = s.goods if s is not None else stored_on(p, card_id)
    return any(n > 0 for good, n in items) and all(kept.get(good, 0) >= n for good, n in items)


def take_from_card(g: Game, p: Player, card_id, items, ctx=None):
    """Goods from the card into the player's supply (a gain: animals must then fit)."""
    if not can_take_from_card(g, p, card_id, items):
        return False
    _store(g, p, card_id, items, -1)
    gamelog.on_card(g, p, card_id, items, "take")
    gain(g, p, items, ctx, quiet=True)
    return True


def add_card_space(g: Game, p: Player, card, can, use, anyone, takes_goods, tags=()):
    """The card becomes an action space of this game (id and name the card's): people are placed on it
    like on a board space, by its owner or, with ``anyone``, by every player. Its body runs for the
    player placed there, with the card's owner as 'owner' (fees go to them); goods put on the card lie
    on the space (``takes_goods``: its body says 'take the goods', else they are handed out on arrival). ``tags``: the card counts as a space with these tags ('after you use #tag')."""
    owner = p.idx

    def context(g: Game, who, c):
        return Ctx(space=g.space_by_id[card.id], actor=who, owner=g.players[owner],
                   goods=c.goods if c is not None else None, before=c.before if c is not None else None)

    def can_use(g: Game, who, c):
        return (anyone or who.idx == owner) and bool(can(g, who, context(g, who, c)))

    def do_use(g: Game, who, c):
        ctx = context(g, who, c)
        done = use(g, who, ctx)
        if c is not None:   # the goods the body took ('take the goods') are what the use brought, as on a board space
            c.goods = ctx.goods
        return done

    n = g.nplayers
    defn = SpaceDef({"id": card.id, "name": card.name, "players": (n,), "tags": ("card_space",) + tuple(tags),
                     "text": "", "variants": {n: (do_use, can_use, None)}, "takes_goods": takes_goods,
                     "card_owner": owner})
    g._add_space(defn)


# the places of a card that holds any number of one kind ('capacity of this card: any boar'): more than all
# the animals of a game
ANY_NUMBER = 1000


def add_card_capacity(g: Game, p: Player, card_id, n, only):
    """The card holds ``n`` animals of the player's: of the kind ``only`` (None: any kinds, mixed); ``n``
    None: any number of that kind. They are the player's animals (counted, bred, scored); the card is one
    more place for them on the farm."""
    kind = -1 if only is None else g.rules.animals.index(only)
    if n is None:
        n = ANY_NUMBER
    held = p.card_state.setdefault("card_capacity", {})
    places = {k: count for count, k in held.get(card_id, ())}   # kind -> how many (a card may hold several kinds apart)
    places[kind] = places.get(kind, 0) + n
    held[card_id] = tuple((count, k) for k, count in sorted(places.items()))


def add_card_capacity_fn(g: Game, p: Player, card_id, fn, only):
    """The card holds as many animals as ``fn`` gives, worked out whenever the animals are kept (docs/language.md
    4.5: 'capacity of this card: (pastures) cattle'): of the kind ``only`` (None: any kinds, mixed)."""
    kind = -1 if only is None else g.rules.animals.index(only)
    p.mods.setdefault("card_capacity_fn", []).append((card_id, fn, kind))


# the verbs of the other modules called above (imported last: some of them import this one)
from .goods_events import can_pay, gain
