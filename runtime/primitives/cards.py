"""Cards: building majors, playing minors and occupations (with the can_… tests of the hot path)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..payments import (
    COMPUTED, as_price, can_afford, can_afford_any, can_pay_with_exchanges, cost_options, cost_options_of_ways,
    has_price_mods, Price, holds, pay_cost, pay_one_of, producible)
from ..packdata import CardDef
from ..state import Ctx, Player


# ====================================================================== cards


def _card_affordable(g: Game, p: Player, card: CardDef) -> bool:
    if card.cost_ways is not None or has_price_mods(g, p):
        return can_afford_any(g, p, card_cost_options(g, p, card))
    return can_afford(g, p, card.cost_fn(g, p) if card.cost_fn is not None else card.cost)


def card_cost_options(g: Game, p: Player, card: CardDef):
    """The ways to pay for a major or minor improvement or an occupation's own cost: for a card with
    alternative prices (docs/language.md 4.3) each of them, as the cards in play change it."""
    ways = card.cost_ways
    if ways is not None:
        if not has_price_mods(g, p):
            return list(ways)
        names = card.minor_price_names if is_minor_for(p, card, g) else card.price_names
        return cost_options_of_ways(g, p, names, ways)
    base = card.cost_fn(g, p) if card.cost_fn is not None else card.cost
    mods = p.mods
    if not mods:
        return [base]
    minor = is_minor_for(p, card, g)
    names = card.minor_price_names if minor else card.price_names
    cache = p.prices
    if card.cost_fn is not None or cache is None or g.partners or "cost_limited" in mods or COMPUTED in cache:
        return cost_options(g, p, names, base)
    # A printed price as the cards in play change it depends only on the card, whether it is a minor for the
    # player, the house and p.mods (p.prices is replaced whenever those change): kept there under the card
    # itself, a look-up by the object's identity instead of a hash of its names and price.
    entry: tuple | None = cache.get(card)
    if entry is not None and entry[0] == p.house and entry[1] == minor:
        return list(entry[2])
    found = cost_options(g, p, names, card.cost)
    cache[card] = (p.house, minor, tuple(found))
    return found


def is_minor_for(p: Player, card: CardDef, g=None) -> bool:
    """Whether the major ``card`` is a minor improvement for ``p`` ('<major> is a minor for you'); an entry
    (name, condition) counts only while its condition holds ('… while <condition>', docs/language.md 4.3)."""
    mods = p.mods
    alias = mods.get("as_minor") if mods else None
    if not alias or card.kind != "major":
        return False
    names = (card.id,) + tuple("#" + t for t in card.tags)
    for entry in alias:
        if type(entry) is tuple:
            if entry[0] in names and entry[1](g, p):
                return True
        elif entry in names:
            return True
    return False


def _majors_as_minors(g: Game, p: Player):
    """The majors of the supply that are minor improvements for ``p``."""
    if not p.mods or "as_minor" not in p.mods:
        return ()
    return [cid for cid in g.major_supply if is_minor_for(p, g.card(cid), g)]


def major_options(g: Game, p: Player, only=None):
    """The majors the player can build now (``only``: those with this tag)."""
    opts = []
    owned = p.majors + p.minors   # an upgrade may return a minor with the tag (docs/language.md 4.8)
    mods = p.mods
    modified = has_price_mods(g, p)
    aliased = mods and "as_minor" in mods
    for cid in g.major_supply:
        card = g.card(cid)
        if only is not None and only not in card.tags:
            continue
        if aliased and is_minor_for(p, card, g):
            continue   # played as a minor (minor_options)
        if modified or card.cost_ways is not None:
            ok = can_afford_any(g, p, card_cost_options(g, p, card))
        else:
            ok = can_afford(g, p, card.cost_fn(g, p) if card.cost_fn is not None else card.cost)
        if ok:
            opts.append(cid)
        if card.upgrade_of:
            for have in owned:
                hc = g.card(have)
                if any(t in hc.tags or t == have for t in card.upgrade_of):
                    opts.append(f"{cid}<{have}")
    return opts


def returnable_cards(g: Game, p: Player, card):
    """The cards ``p`` could return to play the hand card ``card`` whose price includes returning one
    (``upgrade_of``, docs/language.md 4.8): the majors and minors in front of ``p`` with that id or tag."""
    wanted = card.upgrade_of
    cards = g.pack.all_cards
    return [cid for cid in list(p.majors) + list(p.minors)
            if cid != card.id and any(t == cid or t in cards[cid].tags or _of_kind(t, cid, p) for t in wanted)]


def _of_kind(word, cid, p: Player) -> bool:
    """'upgrade_of: [improvement]' (or major, minor): any card of that kind in front of ``p``."""
    if word == "improvement":
        return True
    if word == "major":
        return cid in p.majors
    return word == "minor" and cid in p.minors


def return_card(g: Game, p: Player, cid):
    """Return a card in front of ``p`` as part of a price: a major goes back to the supply (anyone may
    build it again), any other card leaves the game; its lasting effects end (Game.release_card)."""
    g.release_card(p, cid)
    if cid in p.majors:
        p.majors.remove(cid)
        g.major_supply.append(cid)
        g.major_supply.sort(key=g.major_order.__getitem__)
    else:
        p.minors.remove(cid)


def minor_options(g: Game, p: Player):
    out = []
    for cid in list(p.hand_minors) + list(_majors_as_minors(g, p)):
        card = g.card(cid)
        if card.requires is not None and not card.requires(g, p):
            continue
        if card.kind != "major" and card.upgrade_of and len(returnable_cards(g, p, card)) < card.returns:
            continue
        if _card_affordable(g, p, card):
            out.append(cid)
    return out


# The can_… tests below answer what bool(<kind>_options(…)) would, without building the list: they stop
# at the first card the player can take, and look at the goods in the supply for every card before trying
# exchanges for any (the payment search is the dear part). Legality is asked for every space at every
# placement, so this is the hot path of a game (docs/architecture.md, "Speed").


def _paid_or_kept(goods: dict[str, int], made: frozenset, options, later: list) -> bool:
    """True when the goods held pay one of the prices ``options``; otherwise the prices whose missing
    goods some exchange makes (``made``) are added to ``later``, to be tried with exchanges once every
    card was looked at (as can_afford_any would try them)."""
    for cost in options:
        if _price_paid_or_kept(goods, made, as_price(cost), later):
            return True
    return False


def _card_paid_or_kept(g: Game, p: Player, card: CardDef, goods: dict[str, int], made: frozenset, modified: bool,
                       later: list) -> bool:
    """``_paid_or_kept`` of the ways to pay for ``card``: as the cards in play change them (``modified``), its
    alternative prices, or its one price (tested without a tuple of prices around it)."""
    if modified:
        return _paid_or_kept(goods, made, card_cost_options(g, p, card), later)
    if card.cost_ways is not None:
        return _paid_or_kept(goods, made, card.cost_ways, later)
    return _price_paid_or_kept(goods, made, as_price(card.cost_fn(g, p) if card.cost_fn is not None else card.cost),
                               later)


def _price_paid_or_kept(goods: dict[str, int], made: frozenset, price: Price, later: list) -> bool:
    """``_paid_or_kept`` of the one price ``price``."""
    short = False
    for good, n in price:
        if goods[good] < n:
            short = True
            if good not in made:
                return False
    if not short:
        return True
    later.append(price)
    return False


def can_build_major(g: Game, p: Player, ctx=None, only=None):
    """Whether some major (``only``: with this tag) can be built now: bool(major_options(g, p, only))."""
    cards = g.pack.all_cards
    owned = p.majors + p.minors   # an upgrade may return a minor with the tag (docs/language.md 4.8)
    goods = p.goods
    made = producible(g, p)
    mods = p.mods
    modified = has_price_mods(g, p)
    aliased = mods and "as_minor" in mods
    later: list = []
    for cid in g.major_supply:
        card = cards[cid]
        if only is not None and only not in card.tags:
            continue
        if aliased and is_minor_for(p, card, g):
            continue   # played as a minor (can_play_minor)
        if owned and card.upgrade_of:
            for have in owned:
                hc = cards[have]
                if any(t in hc.tags or t == have for t in card.upgrade_of):
                    return True  # an upgrade is offered whatever the goods
        if _card_paid_or_kept(g, p, card, goods, made, modified, later):
            return True
    return bool(later) and can_pay_with_exchanges(g, p, later)


def can_play_minor(g: Game, p: Player, ctx=None):
    aliased = _majors_as_minors(g, p)
    if not p.hand_minors and not aliased:
        return False
    cards = g.pack.all_cards
    goods = p.goods
    made = producible(g, p)
    mods = p.mods
    modified = has_price_mods(g, p)
    later: list = []
    for cid in (list(p.hand_minors) + list(aliased) if aliased else p.hand_minors):
        card = cards[cid]
        if card.requires is not None and not card.requires(g, p):
            continue
        if card.kind != "major" and card.upgrade_of and len(returnable_cards(g, p, card)) < card.returns:
            continue
        if _card_paid_or_kept(g, p, card, goods, made, modified, later):
            return True
    return bool(later) and can_pay_with_exchanges(g, p, later)


def can_build_improvement(g: Game, p: Player, ctx=None):
    return can_build_major(g, p) or can_play_minor(g, p)


def build_major(g: Game, p: Player, ctx=None, only=None):
    opts = major_options(g, p, only)
    if not opts:
        return False
    pick = g.decide(p, "major", opts)
    _take_major(g, p, pick)
    return True


def _take_major(g: Game, p: Player, pick):
    before = p.clone() if ("build_major" in g.snapshots or "build_improvement" in g.snapshots) else None
    if g.listeners.get("before:build_major") or g.listeners.get("before:build_improvement"):
        card = g.card(pick.split("<", 1)[0])
        before_event(g, p, "build_major", card)
        before_event(g, p, "build_improvement", card)
    if "<" in pick:
        cid, returned = pick.split("<", 1)
        card = g.card(cid)
        return_card(g, p, returned)   # a major to the supply, a minor out of the game
        if g.log is not None:
            g.say(f"{p.name} upgrades {g.card(returned).name} to {card.name}")
    else:
        cid = pick
        card = g.card(cid)
        g.last_paid = ()
        pay_one_of(g, p, card_cost_options(g, p, card))
        if g.log is not None:
            g.say(f"{p.name} builds {card.name}")
    paid = () if "<" in pick else g.last_paid   # the price (event_paid); an upgrade returned a card instead
    g.major_supply.remove(cid)
    p.majors.append(cid)
    g.acquire_card(p, card)
    after_event(g, p, "build_major", card=card, before=before, paid=paid)
    after_event(g, p, "build_improvement", card=card, before=before, paid=paid)


def play_minor(g: Game, p: Player, ctx=None):
    opts = minor_options(g, p)
    if not opts:
        return False
    if g.listeners.get("instead:play_minor") and replaced(g, p, "play_minor", ctx):
        return True
    cid = g.decide(p, "minor", opts)
    return _play_minor(g, p, cid)


def _play_minor(g: Game, p: Player, cid) -> bool:
    """Play the minor ``cid`` (chosen from minor_options): False when its price is no longer there (a
    'before you play' rule took it), and then the card stays in the hand."""
    card = g.card(cid)
    before = p.clone() if ("play_minor" in g.snapshots or "build_improvement" in g.snapshots) else None
    before_event(g, p, "play_minor", card)
    before_event(g, p, "build_improvement", card)
    g.last_paid = ()
    if not pay_one_of(g, p, card_cost_options(g, p, card)):
        return False
    paid = g.last_paid   # the price (event_paid)
    if card.kind == "major":   # a major that is a minor for the player comes from the supply
        g.major_supply.remove(cid)
    else:
        p.hand_minors.remove(cid)
    returned = []
    if card.kind != "major" and card.upgrade_of:   # an upgrade: cards named by upgrade_of go back
        for _ in range(card.returns):
            cid_back = g.decide(p, "return", returnable_cards(g, p, card))
            return_card(g, p, cid_back)
            if card.returned_lose_claims:   # what it scheduled for the player is lost (4.8)
                for r, entries in g.schedule.items():
                    g.schedule[r] = [e for e in entries if not (e[0] == p.idx and e[2] == cid_back)]
            returned.append(g.card(cid_back).name)
    if g.log is not None:
        g.say(f"{p.name} plays {card.name}" + (f", returning {' and '.join(returned)}" if returned else ""))
    if card.passing:
        g.run_on_play(p, card)
        if g.nplayers > 1 or not g.rules.pass_minors_solo:
            left = g.players[(p.idx + 1) % g.nplayers]
            left.hand_minors.append(cid)
    else:
        p.minors.append(cid)
        g.acquire_card(p, card)
    after_event(g, p, "play_minor", card=card, before=before, paid=paid)
    after_event(g, p, "build_improvement", card=card, before=before, paid=paid)
    if g.rules.draw_after_play:
        from ..pregame import draw_after_play
        draw_after_play(g, p)
    return True


def build_improvement(g: Game, p: Player, ctx=None):
    majors = major_options(g, p)
    minors = minor_options(g, p)
    opts = majors + [f"minor:{c}" for c in minors]
    if not opts:
        return False
    if g.listeners.get("instead:build_improvement") and replaced(g, p, "build_improvement", ctx):
        return True
    pick = g.decide(p, "improvement", opts)
    if pick.startswith("minor:"):
        return _play_minor(g, p, pick[6:])
    _take_major(g, p, pick)
    return True


@mypyc_attr(native_class=False)  # a builtin's subclass stays a Python class when compiled (mypyc)
class _Free(tuple):
    """The fee of 'play occupation free': nothing at all is paid, not even a cost printed on the card."""


FREE = _Free()


def fee_and_cost(fee, cost):
    """The space's fee and a card's own cost as one price, each good once (2 food and 4 food: 6 food), so
    that testing and paying it see the whole amount of a good."""
    if isinstance(fee, _Free):
        return ()
    if not cost:
        return tuple(fee)
    if not fee:
        return tuple(cost)
    total: dict = {}
    for good, n in tuple(fee) + tuple(cost):
        total[good] = total.get(good, 0) + n
    return tuple(total.items())


def occupation_cost_options(g: Game, p: Player, card: CardDef, fee=()):
    """The ways to pay for playing ``card``: the space's fee and the card's own cost, as cards change them."""
    if isinstance(fee, _Free):
        return ((),)
    return cost_options(g, p, card.price_names, fee_and_cost(fee, card.cost))


def occupation_options(g: Game, p: Player, fee):
    out = []
    known: dict = {}
    mods = p.mods
    modified = has_price_mods(g, p)
    for cid in p.hand_occupations:
        card = g.card(cid)
        if card.requires is not None and not card.requires(g, p):
            continue
        cost = fee_and_cost(fee, card.cost)
        ok = known.get(cost)
        if ok is None:
            ok = (can_afford_any(g, p, occupation_cost_options(g, p, card, fee)) if modified
                  else can_afford(g, p, cost))
            if not ok and cost:
                ok = _affordable_after_before_rules(g, p, card, fee)
            known[cost] = ok
        if ok:
            out.append(cid)
    return out


class _AcceptingAgent:
    """Answers the requests of a trial run: yes to optional effects, otherwise the first option."""

    trusted = True

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        return YES if YES in options else options[0]


def _before_rules(g: Game, p: Player, key) -> bool:
    for owner, handler, who in g.listeners.get(key, ()):
        if who == "any" or (who == "you") == (owner == p.idx):
            return True
    return False


def _affordable_after_before_rules(g: Game, p: Player, card: CardDef, fee) -> bool:
    """Whether the 'before you play occupation' rules (a card giving food right before) would make the
    occupation affordable: tried on a copy of the game with every optional effect accepted."""
    if not _before_rules(g, p, "before:play_occupation"):
        return False
    trial = g.copy_state(agents=[_AcceptingAgent()] * g.nplayers)
    tp = trial.players[p.idx]
    trial.accept_optional = True
    trial.emit("before:play_occupation", tp, Ctx(actor=tp, card=card))
    trial.accept_optional = False
    return can_afford_any(trial, tp, occupation_cost_options(trial, tp, card, fee))


def can_play_occupation(g: Game, p: Player, ctx=None, fee=()):
    """bool(occupation_options(g, p, fee)), stopping at the first playable card; the supply alone is
    tried for every card before exchanges and 'before you play' rules are tried for any."""
    if not p.hand_occupations:
        return False
    cards = g.pack.all_cards
    modified = has_price_mods(g, p)
    goods = p.goods
    if not isinstance(fee, _Free):
        fee = tuple(fee)
    rest: list[tuple[CardDef, object, Price]] = []   # (card, its prices: a tuple or a list, fee and cost)
    for cid in p.hand_occupations:
        card = cards[cid]
        if card.requires is not None and not card.requires(g, p):
            continue
        price: Price = as_price(fee_and_cost(fee, card.cost))
        if not modified:   # one price: tested as it is, without a tuple of prices around it
            if holds(goods, price):
                return True
            rest.append((card, (price,), price))
            continue
        options = occupation_cost_options(g, p, card, fee)
        for cost in options:
            if holds(goods, as_price(cost)):
                return True
        rest.append((card, options, price))
    known: dict = {}
    for card, options, cost in rest:
        ok = known.get(cost)
        if ok is None:
            ok = can_afford_any(g, p, options)
            if not ok and cost:
                ok = _affordable_after_before_rules(g, p, card, fee)
            known[cost] = ok
        if ok:
            return True
    return False


def play_occupation(g: Game, p: Player, ctx=None, fee=()):
    opts = occupation_options(g, p, fee)
    if not opts:
        return False
    if g.listeners.get("instead:play_occupation"):
        outer, g.occupation_fee = g.occupation_fee, tuple(fee)   # the price of the replacement's occupation
        try:
            if replaced(g, p, "play_occupation", ctx):
                return True
        finally:
            g.occupation_fee = outer
    cid = g.decide(p, "occupation", opts)
    return _play_occupation(g, p, cid, fee)


def can_play_occupation_random(g: Game, p: Player, ctx=None) -> bool:
    """An occupation chosen at random can be played when the hand holds one (4.10)."""
    return bool(p.hand_occupations)


def play_occupation_random(g: Game, p: Player, ctx=None):
    """Play an occupation drawn at random from the hand (the game's seeded generator), at the price of the
    occupation action it replaces; each food of it the player cannot pay is a begging card (4.10)."""
    if not p.hand_occupations:
        return False
    cid = g.rng.choice(sorted(p.hand_occupations))
    if g.log is not None:
        g.say(f"{p.name} draws {g.card(cid).name} at random")
    return _play_occupation(g, p, cid, g.occupation_fee or (), beg=True)


def _pay_or_beg(g: Game, p: Player, card, fee) -> bool:
    """Pay for an occupation the player did not choose: the food they cannot pay is begging cards."""
    options = occupation_cost_options(g, p, card, fee)
    if can_afford_any(g, p, options):
        return pay_one_of(g, p, options)
    price = fee_and_cost(fee, card.cost)
    food = g.rules.goods[0]
    short = max(0, dict(price).get(food, 0) - p.goods[food])
    rest = tuple((good, n - short) if good == food else (good, n) for good, n in price)
    if not can_afford(g, p, rest):
        return False
    p.begging += short
    g.say(f"{p.name} takes {short} begging card{'s' if short != 1 else ''} to pay for {card.name}")
    return pay_cost(g, p, rest)


def _play_occupation(g: Game, p: Player, cid, fee, beg=False):
    card = g.card(cid)
    # the optional effects of 'before' rules are taken without asking when the price needs them
    needed = not can_afford_any(g, p, occupation_cost_options(g, p, card, fee))
    accept, g.accept_optional = g.accept_optional, needed
    before = snapshot(g, p, "play_occupation")
    before_event(g, p, "play_occupation", card)
    g.accept_optional = accept
    g.last_paid = ()
    if not (_pay_or_beg(g, p, card, fee) if beg else pay_one_of(g, p, occupation_cost_options(g, p, card, fee))):
        g.say(f"{p.name} cannot pay for {card.name}")
        return False
    paid = g.last_paid   # the price, the action's fee included (event_paid)
    p.hand_occupations.remove(cid)
    p.occupations.append(cid)
    if g.log is not None:
        g.say(f"{p.name} plays occupation {card.name}")
    g.acquire_card(p, card)
    after_event(g, p, "play_occupation", card=card, before=before, paid=paid)
    if g.rules.draw_after_play:
        from ..pregame import draw_after_play
        draw_after_play(g, p)
    return True


# the verbs of the other modules called above (imported last: some of them import this one)
from .goods_events import after_event, before_event, replaced, snapshot, YES
