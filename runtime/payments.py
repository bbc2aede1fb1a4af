"""Prices and payments: what a thing costs a player, and how the player pays it.

A price is a tuple of ``(good, count)``. ``cost_options`` turns the price printed in the rules into every
way the player may pay it, the cards in play applied independently of the order in which they came
into play. ``can_afford`` and ``pay_cost`` pay one of those ways and may draw on the player's exchanges
(grain eaten raw, cooking, a card's conversions): only what the player lacks is converted, a payment
possible in exactly one way is made without asking, and otherwise the player picks one of the ways
that are not worse in every good than another (``g.decide(p, "pay", …)``).
No action space, card or edition is named here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from .engine import Game

from .state import Exchange, ExchangeIndex, Player


# The search for payments that use exchanges stops after this many combinations (docs/limits.md).
MAX_PLANS_SEARCHED = 2000


# ====================================================================== prices

# A price as the runtime computes with it: a tuple of (good, count) tuples. Typed, a compiled runtime reads
# each pair directly instead of through Python's iteration (about three times faster on these loops).
Price = tuple[tuple[str, int], ...]


def as_price(cost) -> Price:
    """``cost`` as a tuple of (good, count) tuples: itself when it is one (a LimitedPrice too), else its
    pairs in a new tuple (a price given as a list, as a test or a tool may give it)."""
    if isinstance(cost, tuple):
        return cost
    return tuple((good, n) for good, n in cost)


def holds(goods: dict[str, int], cost: Price) -> bool:
    """Whether ``goods`` hold the whole price ``cost`` (no exchange)."""
    for good, n in cost:
        if goods[good] < n:
            return False
    return True


def count_in(items: Price, good: str) -> int:
    """How many of ``good`` the goods ``items`` hold."""
    n = 0
    for h, k in items:
        if h == good:
            n += k
    return n


def lacks_unmade(goods: dict[str, int], made: frozenset, cost: Price) -> bool:
    """Whether ``goods`` lack some good of ``cost`` that is not among ``made`` (what exchanges can make)."""
    for good, n in cost:
        if goods[good] < n and good not in made:
            return True
    return False


_RESOLVED: dict = {}  # (price, material) -> the price with 'material' replaced; prices are plain data


def resolve_material(items, material):
    """The price ``items`` with the good 'material' standing for ``material``."""
    key = (items, material)
    try:
        found = _RESOLVED.get(key)
    except TypeError:  # a price given as a list
        return tuple((material if good == "material" else good, n) for good, n in items)
    if found is None:
        if len(_RESOLVED) > 4096:
            _RESOLVED.clear()
        found = _RESOLVED[key] = tuple((material if good == "material" else good, n) for good, n in items)
    return found


def _matches(mod_targets, targets, house) -> bool:
    for t in targets:
        if t in mod_targets or f"{t}:{house}" in mod_targets:
            return True
    return False


# what a partner's card may lower in team play ('share_costs': building prices, not occupations or food)
SHARED_COST_TARGETS = frozenset({"room", "renovation", "stable", "fence", "improvement", "major", "minor"})


def shared_cost_mods(g: Game, p: Player) -> list:
    """In team play with ``share_costs``, the price changes of the partner's cards that lower a building
    price (a price a card sets, or a change that takes goods off), as they apply to ``p``; else []."""
    if not g.partners or not g.rules.teams.get("share_costs"):
        return []
    q = g.partner_of(p)
    out = []
    for kind, mod_targets, data in ((q.mods or {}).get("cost") or ()):
        if not all(t.split(":")[0] in SHARED_COST_TARGETS for t in mod_targets):
            continue
        if kind == "delta_fn":
            kind, data = "delta", tuple(data(g, q))   # computed from the card owner's game
        if kind == "delta" and any(n > 0 for _, n in data):
            continue   # a change that raises a price is not shared
        out.append((kind, mod_targets, data))
    return out


def has_price_mods(g: Game, p: Player) -> bool:
    """Whether some card changes ``p``'s prices (``p``'s own, or in team play the partner's shared ones)."""
    mods = p.mods
    if mods and ("cost" in mods or "substitute" in mods or "cost_limited" in mods):
        return True
    return bool(g.partners) and bool(shared_cost_mods(g, p))


@mypyc_attr(native_class=False)  # a builtin's subclass stays a Python class when compiled (mypyc)
class LimitedPrice(tuple):
    """A way to pay that a limited change lowered (``cost of fence: -1 wood (once per round)``, docs/language.md
    4.3): ``spends`` holds the (limit key, period) of each such change; paying this way (``pay_one_of``)
    spends them. Testing whether it can be paid spends nothing."""
    spends: tuple

    def __new__(cls, price, spends):
        obj = tuple.__new__(cls, price)
        obj.spends = spends
        return obj


def open_limited(g: Game, p: Player, targets, house) -> tuple:
    """The limited price changes of ``p`` (``p.mods['cost_limited']``) that apply to ``targets`` and are not
    spent in their period: ((targets, change, key, period, times), …). Asked only when ``p`` has some
    (``cost_options``)."""
    from .firing import limit_count
    return tuple(m for m in p.mods["cost_limited"]
                 if _matches(m[0], targets, house) and limit_count(g, p, m[2], m[3]) < m[4])


def spend_limited(g: Game, p: Player, price) -> None:
    """Count the limited changes that lowered ``price`` once in their periods (it has just been paid)."""
    from .firing import limit_count, period_now
    for key, period in getattr(price, "spends", ()):
        p.used["lim:" + key] = (period_now(g, period), limit_count(g, p, key, period) + 1)


def cost_options(g: Game, p: Player, targets, base, modified=True, material=None, limited=True) -> list:
    """The ways to pay ``base`` once, for one priced unit, with the limited changes not yet spent (below)."""
    price = as_price(base)
    if not p.mods and not g.partners:   # no card changes the price (most of a game's questions)
        for good, _ in price:
            if good == "material":
                return [resolve_material(price, material or p.house)]
        return [price]
    options = _cost_options(g, p, targets, price, modified, material)
    if not (modified and limited and p.mods and "cost_limited" in p.mods):
        return options
    house = material or p.house
    changes = open_limited(g, p, targets, house)
    if not changes:
        return options
    # one priced unit: every open limited change lowers it (docs/language.md 4.3, "Limited changes"); the
    # ways it lowers are offered instead of the others, and paying one of them spends the changes
    if any(m[1] == "free" for m in changes):   # 'free stable (the next time)': for nothing
        lowered: list = [()]
    else:
        extra = [item for m in changes for item in m[1]]
        lowered = _cost_options(g, p, targets, price, modified, material, extra=tuple(extra))
    if sorted(lowered) == sorted(options):
        return options   # the change lowers nothing of this price (no wood in it): not spent
    spends = tuple((m[2], m[3]) for m in changes)
    same = set(options)   # a way the change does not lower (a card's way without wood) spends nothing
    return [way if way in same else LimitedPrice(way, spends) for way in lowered]


def _cost_options(g: Game, p: Player, targets, base: Price, modified=True, material=None, extra=()) -> list:
    """The ways to pay ``base`` for a thing of the kinds ``targets`` (``room``, ``renovation``, ``stable``,
    ``fence``, ``improvement``, ``major``, ``minor``, ``occupation``).

    The result does not depend on the order in which the player's cards came into play: every price a
    card sets (``cost of room = …``) is an alternative that replaces the printed price; the changes of
    all cards (``cost of room: -1 stone``) are added up and applied to each alternative (a good the price
    does not contain is only ever added, and no count goes below 0); then every allowed substitution
    (``may pay 1 wood instead of 2 clay``) adds the alternatives it makes, each card at most once per
    payment and in any combination. An alternative that needs at least as much of every good as another
    one is dropped. ``modified=False`` (a price a card states itself) applies only the substitutions.

    ``material`` is the house material the price is for: the house's own, or for a renovation the new one.
    It stands for the good ``material`` in the price and in the cards' changes, and a change narrowed to a
    material (``cost of clay rooms``, ``cost of stone renovation``) applies only to it.
    """
    house = material or p.house
    for good, _ in base:
        if good == "material":
            base = resolve_material(base, house)
            break
    mods = p.mods
    if extra:   # a limited change (cost_options) added to the others
        return _modified_price(g, p, targets, base, house, list((mods or {}).get("cost") or ()) +
                               shared_cost_mods(g, p) + [("delta", targets, extra)], (mods or {}).get("substitute"))
    if modified and g.partners:
        shared = shared_cost_mods(g, p)
        if shared:   # (not kept in p.prices: the partner's cards change without p's changing)
            return _modified_price(g, p, targets, base, house, list((mods or {}).get("cost") or ()) + shared,
                                   (mods or {}).get("substitute"))
    if not mods:
        return [base]
    cost_mods = mods.get("cost") if modified else None
    subs = mods.get("substitute")
    if not cost_mods and not subs:
        return [base]
    # The result depends only on the arguments, the house material, p.mods and the values now of the changes
    # computed from the game ('delta_fn'): it is kept in p.prices under those, and install_card replaces
    # p.prices whenever a card changes p.mods (docs/architecture.md, "Speed").
    cache = p.prices
    if cache is None:
        return _modified_price(g, p, targets, base, house, cost_mods, subs)
    key: tuple = (targets, base, house, modified)
    try:
        if cost_mods and COMPUTED in cache:
            key += (tuple([data(g, p) for kind, mod_targets, data in cost_mods
                           if kind == "delta_fn" and _matches(mod_targets, targets, house)]),)
        found = cache.get(key)
    except TypeError:  # a price given as a list (not hashable): not cached
        return _modified_price(g, p, targets, base, house, cost_mods, subs)
    if found is None:
        found = cache[key] = tuple(_modified_price(g, p, targets, base, house, cost_mods, subs))
    return list(found)


def cost_options_of_ways(g: Game, p: Player, targets, ways) -> list:
    """The ways to pay for a thing with alternative prices (a card's 'cost: 1 wood or 1 clay',
    docs/language.md 4.3): each way as the cards change it (``cost_options``), without those that ask at
    least as much of every good as another one. The player pays one whole way, never a mix of them."""
    out = []
    for base in ways:
        out.extend(cost_options(g, p, targets, base))
    return out if len(out) == 1 else _undominated(out)


COMPUTED = "delta_fn"   # in p.prices: some change of price is computed from the game (its key then holds the values)


def price_cache_for(p: Player) -> dict:
    """A fresh p.prices after p.mods changed: empty, or marked ``COMPUTED`` when a change of price is computed
    from the game state ('delta_fn': the values it has now are then part of each key)."""
    for kind, _targets, _data in (p.mods.get("cost") or ()):
        if kind == "delta_fn":
            return {COMPUTED: True}
    return {}


def _modified_price(g: Game, p: Player, targets, base, house, cost_mods, subs) -> list:
    alternatives = [tuple(base)]
    changed = False
    if cost_mods:
        sets: list = []
        delta: dict[str, int] = {}
        keep_base = False
        for kind, mod_targets, data in cost_mods:
            if not _matches(mod_targets, targets, house):
                continue
            if kind == "set" or kind == "set_or_base":
                sets.append(resolve_material(data, house))
                keep_base = keep_base or kind == "set_or_base"   # '… or the base price' (docs/language.md 4.3)
            else:
                for good, n in resolve_material(data(g, p) if kind == "delta_fn" else data, house):
                    delta[good] = delta.get(good, 0) + n
        if sets:
            alternatives = sets + [tuple(base)] if keep_base else sets
            changed = True
        choice = delta.pop("building", 0)   # '-1 building': one building resource of the player's choice
        if delta:
            alternatives = [_apply_delta(a, delta) for a in alternatives]
            changed = True
        if choice < 0:
            alternatives = [way for a in alternatives for way in _lowered_any(a, -choice, g.rules.building)]
            changed = True
    if subs:
        subs = [s for s in subs if _matches(s[0], targets, house)]
        if subs:
            alternatives = _substituted(alternatives, subs)
            changed = True
    if not changed:
        return [base]
    return alternatives if len(alternatives) == 1 else _undominated(alternatives)


_MEMO: dict = {}   # (alternatives, substitutions) -> the undominated ways; prices and cards are plain data


def _substituted(alternatives, subs):
    key = (tuple(alternatives), tuple(subs))
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) > 4096:
            _MEMO.clear()
        found = _MEMO[key] = _all_substitutions(alternatives, subs)
    return list(found)


def _lowered_any(price, n, goods) -> list:
    """Every way to lower ``price`` by ``n`` units of ``goods`` of the player's choice (as many as it has of
    them, when fewer): the changes '-N building' (docs/language.md 4.3), applied after the others."""
    ways = {tuple(price)}
    for _ in range(n):
        nxt = set()
        for way in ways:
            lowered = False
            for i, (good, k) in enumerate(way):
                if good in goods and k > 0:
                    nxt.add(tuple((gd, m - 1 if j == i else m) for j, (gd, m) in enumerate(way) if j != i or m > 1))
                    lowered = True
            if not lowered:
                nxt.add(way)
        ways = nxt
    return sorted(ways)


def _apply_delta(price, delta):
    goods = dict(price)
    for good, n in delta.items():
        if good in goods:
            goods[good] = max(0, goods[good] + n)
        elif n > 0:
            goods[good] = n
    return tuple((good, n) for good, n in goods.items() if n > 0)


def _substitute(price: dict, sub):
    mod_targets, pay_goods, instead = sub
    if instead[0] == "all":
        if not price.get(instead[1], 0):
            return None
        alt = dict(price)
        del alt[instead[1]]
    else:
        if any(price.get(good, 0) < k for good, k in instead):
            return None
        alt = dict(price)
        for good, k in instead:
            alt[good] -= k
    for good, k in pay_goods:
        alt[good] = alt.get(good, 0) + k
    return alt


def _all_substitutions(alternatives, subs):
    """Every price reachable by applying each substitution at most once, in any order."""
    seen: set = set()
    out: list = []
    frontier: list = []
    for a in alternatives:
        key: tuple = (tuple(sorted((g, n) for g, n in a if n > 0)), frozenset())
        if key not in seen:
            seen.add(key)
            frontier.append((dict(a), frozenset()))
            out.append(tuple(a))
    while frontier:
        nxt = []
        for price, used in frontier:
            for i, sub in enumerate(subs):
                if i in used:
                    continue
                alt = _substitute(price, sub)
                if alt is None:
                    continue
                alt = {k: v for k, v in alt.items() if v > 0}
                items = tuple(sorted(alt.items()))
                key = (items, used | {i})
                if key in seen:
                    continue
                seen.add(key)
                nxt.append((alt, used | {i}))
                out.append(items)
        frontier = nxt
    return out


def _undominated(alternatives) -> list:
    """Distinct prices, without those that ask at least as much of every good as another one."""
    norm: list = []
    for a in alternatives:
        d: dict[str, int] = {}
        for good, n in a:
            if n > 0:
                d[good] = d.get(good, 0) + n
        if d not in [x for x, _ in norm]:
            norm.append((d, a))
    if len(norm) == 1:
        return [norm[0][1]]
    out = []
    for d, a in norm:
        if not any(o is not d and all(d.get(good, 0) >= n for good, n in o.items()) for o, _ in norm):
            out.append(a)
    return out


def cheapest(options):
    """One price out of several (the one asking fewest goods; ties: the first), for prices paid per unit."""
    return min(options, key=lambda o: sum(n for _, n in o))


# ====================================================================== paying, with exchanges


def can_afford(g: Game, p: Player, cost) -> bool:
    """Can ``p`` pay ``cost`` now, converting what is missing through the exchanges usable now?"""
    price = as_price(cost)
    goods = p.goods
    if holds(goods, price):
        return True
    if lacks_unmade(goods, _index(g, p).made, price):
        return False
    return _can_make(g, p, (price,))


def can_after_paying(g: Game, p: Player, cost, can, ctx) -> bool:
    """Whether ``can(g, p, ctx)`` holds once ``cost`` is paid ('may pay 1 grain to bake' with 1 grain: no):
    tested with the price taken from ``p``'s goods for the moment. A good held short is taken down to none;
    what the exchanges that would make the rest give up is not taken off (the plan is the player's choice,
    made only when paying)."""
    goods = p.goods
    taken = []
    for good, n in cost:
        k = min(n, goods[good])
        if k:
            goods[good] -= k
            taken.append((good, k))
    try:
        return bool(can(g, p, ctx))
    finally:
        for good, k in taken:
            goods[good] += k


def can_afford_any(g: Game, p: Player, options) -> bool:
    """Can ``p`` pay one of the prices ``options`` now (exchanges included)?"""
    goods = p.goods
    ways: list = options if type(options) is list else list(options)   # (a list: read by index, compiled)
    for cost in ways:
        if holds(goods, as_price(cost)):
            return True
    if len(ways) == 1:
        price = as_price(ways[0])
        return _may_make(g, p, price) and _can_make(g, p, (price,))
    payable = tuple([price for price in map(as_price, ways) if _may_make(g, p, price)])
    return bool(payable) and _can_make(g, p, payable)


def can_pay_with_exchanges(g: Game, p: Player, options) -> bool:
    """Whether exchanges let ``p`` pay one of ``options``, each of which lacks only goods that some
    exchange makes (the part of can_afford_any after its cheap tests)."""
    return _can_make(g, p, tuple(options))


def _can_make(g: Game, p: Player, options: tuple) -> bool:
    """Whether the exchanges usable now let ``p`` pay one of ``options`` (``_plans`` with ``first``),
    remembered in ``p.producible`` (docs/architecture.md, "Speed"). The answer depends on the exchanges
    and piles (``p.producible`` is dropped whenever they change), the windows open, how often each limited
    exchange was used this time, and of the goods held only those the prices name or some exchange takes
    (a good neither asks for plays no part): the key holds those windows, counts and goods."""
    cached = _index(g, p)
    limited, memo, taken = cached.limited, cached.memo, cached.taken
    goods, used = p.goods, p.used
    held = [goods[h] for h in taken]
    for price in options:
        for h, _ in price:
            held.append(goods[h])
    try:
        key = (options, g.in_work_phase, g.open_windows,
               tuple([used.get(k, 0) for k in limited]) if limited else (), tuple(held))
        found = memo.get(key)
    except TypeError:  # a price given as a list (not hashable): not remembered
        return bool(_plans(g, p, options, first=True))
    if found is None:
        if len(memo) > 4096:
            memo.clear()
        found = memo[key] = bool(_plans(g, p, options, first=True))
    return found


def _index(g: Game, p: Player) -> ExchangeIndex:
    """What ``p``'s exchanges can make (state.ExchangeIndex), kept in ``p.producible`` until ``p``'s cards or
    piles change."""
    if p.mods and "exchange_guards" in p.mods:
        g.exchanges_of(p)   # a guard that opened or closed drops p.producible (events.exchanges_of)
    found = p.producible
    if found is not None:
        return found
    index: dict[str, list[int]] = {}
    made, piles, limited, taken = set(), [], [], set()
    pile_takes: set[str] = set()
    sold = offer_keys(p)
    for i, (give, get, window, at_most, source, key) in enumerate(g.exchanges_of(p)):
        if key in sold:   # others may buy what it takes: used on its own only (primitives.use_exchange)
            continue
        if at_most is not None:
            limited.append(key)
        takes: Price = give
        if get == "pile":
            piles.append(i)
            made.update(P.pile_stack(p, source))
            pile_takes.update(good for good, k in takes)
        else:
            makes: Price = get
            for good, n in makes:   # every count is 1 or more (the checker's E215)
                made.add(good)
                index.setdefault(good, []).append(i)
            for good, k in takes:
                taken.add(good)
    # nothing an exchange makes is taken by another: no cycle (the common case, goods to food)
    memo = {} if not taken.isdisjoint(index) else {"cycle": False}
    found = p.producible = ExchangeIndex(frozenset(made), index, tuple(piles), tuple(limited), memo,
                                         tuple(sorted(taken | pile_takes)))
    return found


def offer_keys(p: Player):
    """The keys of ``p``'s exchanges whose goods other players may buy ('(others may buy … for …)',
    docs/language.md 4.9): what such an exchange yields is known only once the others have answered, so
    a payment never draws on it; the owner uses it on its own, in the windows."""
    offers = p.mods.get("exchange_offers") if p.mods else None
    return {key for key, price in offers} if offers else ()


def offer_price(p: Player, key):
    """The price for which other players may buy what the exchange ``key`` takes, or None."""
    offers = p.mods.get("exchange_offers") if p.mods else None
    for k, price in offers or ():
        if k == key:
            return price
    return None


def _in_cycle(g: Game, p: Player) -> bool:
    """``_has_cycle``, worked out when first asked and kept with the answers of ``_can_make``."""
    memo = _index(g, p).memo
    found = memo.get("cycle")
    if found is None:
        found = memo["cycle"] = _has_cycle(g, p)
    return found


def _has_cycle(g: Game, p: Player) -> bool:
    """Whether some good can be turned back into itself through ``p``'s exchanges (3 wood -> 1 clay,
    2 clay -> 1 wood), whatever their windows and limits. Piles do not count: a cycle through one
    (food for what lies on it, that good back to food) ends with the pile, so the search stays small."""
    makes: dict = {}
    for give, get, window, at_most, source, key in g.exchanges_of(p):
        if get == "pile":
            continue
        out = [h for h, n in get]   # every count is 1 or more (the checker's E215)
        for h, k in give:
            makes.setdefault(h, set()).update(out)
    done, path = set(), set()

    def back(good) -> bool:
        path.add(good)
        for nxt in makes.get(good, ()):
            if nxt in path or (nxt not in done and back(nxt)):
                return True
        path.discard(good)
        done.add(good)
        return False

    return any(good not in done and back(good) for good in list(makes))


def producible(g: Game, p: Player) -> frozenset:
    """Every good some exchange of ``p`` makes (a pile: the goods now on it)."""
    return _index(g, p).made


def _may_make(g: Game, p: Player, cost: Price) -> bool:
    """False when a good ``p`` lacks for ``cost`` is made by none of ``p``'s exchanges (the cheap test
    that keeps the search out of the legal-option computation)."""
    return not lacks_unmade(p.goods, _index(g, p).made, cost)


def pay_cost(g: Game, p: Player, cost, ctx=None) -> bool:
    """Pay ``cost``, converting what is missing (the player picks how when there are several ways)."""
    return pay_one_of(g, p, (cost,))


def pay_one_of(g: Game, p: Player, options) -> bool:
    """Pay one of the prices ``options``: each way is a price and the exchanges that make what is missing
    for it; ways worse in every good than another are not offered; one way left is taken without asking."""
    goods = p.goods
    direct: list = []   # (option index, exchanges): a list of any paths (mypyc checks the inferred type)
    for oi, cost in enumerate(options):
        if holds(goods, as_price(cost)):
            direct.append((oi, ()))
    if len(direct) == len(options):
        plans = direct
    else:
        plans = _plans(g, p, options)
    if not plans:
        return False
    if len(plans) > 1:
        # in a fixed order: by price, then fewest exchanges, then the exchanges' order
        plans.sort(key=lambda plan: (plan[0], len(plan[1]), sorted(plan[1])))
        plans = _best_plans(g, p, options, plans)
    if len(plans) == 1:
        oi, path = plans[0]
    else:
        labels = [plan_label(g, p, options[oi], path) for oi, path in plans]
        oi, path = g.decide(p, "pay", plans, labels=labels)
    opened = P.batch_open(g, p) if path else False   # the exchanges of one payment: one time (4.1.5)
    apply_plan(g, p, path)
    cost = options[oi]
    paid = P.can_pay(p, cost)
    if paid:
        P.pay(g, p, cost)
        if type(cost) is LimitedPrice:   # a limited change lowered this price: spent now (cost_options)
            spend_limited(g, p, cost)
        g.last_paid = cost   # the price paid, for the payload of the event it paid for (event_paid)
    if path:
        P.settle_animals(g, p)
        if g.converted:
            P.announce_conversions(g)
        P.batch_close(g, p, opened)
    return paid


def apply_plan(g: Game, p: Player, path) -> None:
    """Use the exchanges of a payment plan in order. Animals they make need no room before they are
    paid (the rulebook lets animals just taken be turned into food without room); whatever is left is
    settled after the payment."""
    for i in path:
        P.use_exchange(g, p, i, settle=False)


def plan_label(g: Game, p: Player, cost, path) -> str:
    """'2 food' or '2 food with 2 grain -> 2 food' or '1 wood with 1 food -> 1 wood (a card's id)'."""
    text = ", ".join(f"{n} {good}" for good, n in cost) or "nothing"
    if not path:
        return text
    entries = g.exchanges_of(p)
    counts: dict = {}
    for i in path:
        counts[i] = counts.get(i, 0) + 1
    parts = []
    offsets: dict = {}
    for i, k in counts.items():
        give, get, window, at_most, source, key = entries[i]
        if get == "pile":
            stack = P.pile_stack(p, source)
            start = offsets.get(source, 0)
            got: dict = {}
            for good in stack[start:start + k]:
                got[good] = got.get(good, 0) + 1
            offsets[source] = start + k
            out = tuple(got.items())
        else:
            out = P.scaled(get, k)
        via = f" ({source})" if source else ""
        parts.append(f"{_goods_text(P.scaled(give, k))} -> {_goods_text(out)}{via}")
    return f"{text} with {' and '.join(parts)}"


def _goods_text(items) -> str:
    return ", ".join(f"{n} {good}" for good, n in items if n) or "nothing"


def window_open(g: Game, window) -> bool:
    """Is an exchange or action window open now: 'any_time' always, 'work_phase' in the work phase,
    'harvest' and 'feeding' while the engine has them open (``g.open_windows``)."""
    if window == "any_time":
        return True
    if window == "work_phase":
        return g.in_work_phase
    return window in g.open_windows


def usable_exchanges(g: Game, p: Player) -> list:
    """Indices (in ``g.exchanges_of(p)``) of the exchanges whose window is open now and whose limit
    is not reached."""
    out = []
    used = p.used
    for i, (give, get, window, at_most, source, key) in enumerate(g.exchanges_of(p)):
        if window != "any_time" and not window_open(g, window):
            continue
        if at_most is not None and used.get(key, 0) >= at_most:
            continue
        out.append(i)
    return out


def _plans(g: Game, p: Player, options, first=False) -> list:
    """Ways to pay one of ``options``: (option index, exchange indices in the order to use them).
    With ``first``, only whether there is one: the first way found, whose path may be None (known
    possible without working out the order)."""
    goods = p.goods
    plans = []
    for oi, cost in enumerate(options):
        need: dict = {}
        for good, n in cost:
            if n > 0:
                need[good] = need.get(good, 0) + n
        short = [good for good, n in need.items() if goods[good] < n]
        if not short:
            plans.append((oi, ()))
            if first:
                return plans
            continue
        quick = _quick(g, p, need, short)
        if quick is False:
            continue
        if quick is True and first:
            return [(oi, None)]
        if quick is None and (_in_cycle(g, p) or _index(g, p).piles) and _beyond_weights(g, p, need, short):
            continue   # (a pile's price may be made by what lies on it: a cycle the bounds cannot follow)
        for path in _search(g, p, need, short, first):
            plans.append((oi, path))
            if first:
                return plans
    return plans


def _quick(g: Game, p: Player, need, short):
    """Bounds without a search. False when the exchanges surely cannot make what is missing: an upper
    bound of each good the player could hold (each exchange used as often as the goods it takes, made
    ones included, allow; goods two exchanges take are counted for both). True when they surely can: one
    missing good, and for each good taken by exchanges that make it (a pile: what lies on it), the best of
    them used as often as the goods held allow. None when only a search can tell."""
    cached = _index(g, p)
    made, index, pile_ids = cached.made, cached.index, cached.piles
    goods = p.goods
    entries = g.exchanges_of(p)
    used = p.used
    simple = not pile_ids
    if simple:  # the common case first: no good taken is made by another exchange
        for s in short:
            high = goods[s]
            for i in index.get(s, ()):
                give, get, window, at_most, source, key = entries[i]
                if window != "any_time" and not window_open(g, window):
                    continue
                uses = None if at_most is None else at_most - used.get(key, 0)
                takes: Price = give
                for h, k in takes:
                    if h in made:
                        simple = False
                        break
                    cap = goods[h] // k
                    uses = cap if uses is None else min(uses, cap)
                if not simple:
                    break
                if uses:
                    high += uses * count_in(get, s)
            if not simple:
                break
            if high < need[s]:
                return False
    if not simple and _beyond_bound(g, p, made, index, pile_ids, need, short):
        return False
    if len(short) != 1:
        return None
    s = short[0]
    best: dict = {}
    for ids in (index.get(s, ()), pile_ids):   # the exchanges making s, then the piles
        for i in ids:
            give, get, window, at_most, source, key = entries[i]
            if len(give) != 1 or (window != "any_time" and not window_open(g, window)):
                continue
            (h, k), = give
            uses = (goods[h] - need.get(h, 0)) // k
            if at_most is not None:
                uses = min(uses, at_most - used.get(key, 0))
            if uses > 0:
                # a pile gives its goods from the top: those the goods held beyond the price reach
                mine = P.pile_stack(p, source)[:uses].count(s) if get == "pile" else uses * count_in(get, s)
                if mine > best.get(h, 0):
                    best[h] = mine
    return True if sum(best.values()) >= need[s] - goods[s] else None


def _beyond_bound(g: Game, p: Player, made, index, pile_ids, need, short) -> bool:
    """Whether some missing good is beyond an upper bound that follows chains of exchanges."""
    goods = p.goods
    entries = g.exchanges_of(p)
    used = p.used
    memo: dict = {}

    def most(good, visiting):
        if good in memo:
            return memo[good]
        total = goods[good]
        if good in made:
            if good in visiting:
                return None  # a cycle: no bound
            visiting = visiting | {good}
            for i in index.get(good, ()):
                give, get, window, at_most, source, key = entries[i]
                if window != "any_time" and not window_open(g, window):
                    continue
                uses = None if at_most is None else at_most - used.get(key, 0)
                takes: Price = give
                for h, k in takes:
                    avail = most(h, visiting)
                    if avail is None:
                        return None
                    cap = avail // k
                    uses = cap if uses is None else min(uses, cap)
                if uses is None:
                    return None
                if uses > 0:
                    total += uses * count_in(get, good)
            for i in pile_ids:
                window, source = entries[i][2], entries[i][4]
                if window == "any_time" or window_open(g, window):
                    total += P.pile_stack(p, source).count(good)
        memo[good] = total
        return total

    for s in short:
        bound = most(s, frozenset())
        if bound is not None and bound < need[s]:
            return True
    return False


_WEIGHTS: dict = {}  # (the usable exchanges' (give, get), a good) -> weights of goods; plain data


def _beyond_weights(g: Game, p: Player, need, short) -> bool:
    """Whether the exchanges usable now surely cannot make what ``need`` lacks, because of a weight per good
    that no exchange increases (``_weights``): a payment needs as much weight as the goods held have.
    Unlike ``_beyond_bound`` it holds through cycles of exchanges (3 wood -> 1 clay, 2 clay -> 1 wood,
    or food for a pile's grain and grain back to food), and it is asked only when there are some cycles or
    piles; any plan of ``_search`` is a sequence of such exchanges, so
    it prunes nothing the search would find."""
    goods = p.goods
    for s in short:
        weights = _weights_now(g, p, s)
        if weights is None:
            continue
        wanted = held = 0
        for good, w in weights:
            wanted += w * need.get(good, 0)
            held += w * goods[good]
        if wanted > held:
            return True
    return False


def _weights_now(g: Game, p: Player, target: str):
    """``_weights`` of the exchanges ``p`` can use now, for ``target``; remembered with the answers of
    ``_can_make`` (dropped whenever the exchanges or the piles change), under the windows open and the uses
    of the limited exchanges, which decide which exchanges are usable."""
    cached = _index(g, p)
    limited, memo = cached.limited, cached.memo
    used = p.used
    key = ("weights", target, g.in_work_phase, g.open_windows,
           tuple([used.get(k, 0) for k in limited]) if limited else ())
    if key in memo:
        return memo[key]
    edge_list: list = []
    sold = offer_keys(p)   # never drawn on by a payment (``_index``)
    for entry in g.exchanges_of(p):
        give, get, source = entry[0], entry[1], entry[4]
        if entry[5] in sold or not _usable(g, p, entry):
            continue
        if get == "pile":  # one good of those on the pile, whichever it is
            get = frozenset(P.pile_stack(p, source))
        edge_list.append((give, get))
    edges = (tuple(edge_list), target)
    try:
        weights = _WEIGHTS[edges]
    except KeyError:
        if len(_WEIGHTS) > 4096:
            _WEIGHTS.clear()
        weights = _WEIGHTS[edges] = _weights(edges[0], target)
    if len(memo) > 4096:
        memo.clear()
    memo[key] = weights
    return weights


def _weights(edges, target):
    """Non-negative integer weights of goods, ``target`` weighing 1 before scaling, such that no exchange
    of ``edges`` ((goods taken, goods given), or for a pile (goods taken, the set of goods one of which it
    gives)) gives more weight than it takes, so that no sequence of them increases the weight of what a
    player holds; None when there are none of that kind (an exchange that gains weight in a cycle, or one
    taking nothing). Found by raising the weight of what an exchange takes until it is at least what it
    gives: in floating point first, rounded to integers and checked exactly (the check is what makes the
    bound sound), in exact fractions when the check fails. None from floating point is taken as it is
    (no weights: the bound only prunes less)."""
    found = _raised(edges, target, 1.0)
    if found is None:   # no weights: the exact ones would not settle either (a cycle that gains)
        return None
    weights = {h: round(w * _SCALE) for h, w in found.items()}
    if all(_gives(get, weights) <= _takes(give, weights) for give, get in edges):
        return _lowest_terms(weights)
    from fractions import Fraction
    from math import lcm
    exact = _raised(edges, target, Fraction(1))
    if exact is None:
        return None
    scale = lcm(*(w.denominator for w in exact.values()))
    return _lowest_terms({h: int(w * scale) for h, w in exact.items()})


_SCALE = 720720  # the least common multiple of 1 to 16: the exact weights of small exchanges are multiples


def _raised(edges, target, one):
    """The weights of ``_weights`` as numbers of the type of ``one`` (float or Fraction), or None."""
    zero = one - one
    weight = {target: one}
    goods: set = set()
    for give, get in edges:
        goods.update(h for h, _ in give)
        goods.update(get if isinstance(get, frozenset) else (h for h, _ in get))
    # floating point: no endless raising by rounding (Any: a Fraction times the int 1 stays exact)
    slack: Any = 1 + 1e-12 if isinstance(one, float) else 1
    for _ in range(2 * len(goods) + 2):
        changed = False
        for give, get in edges:
            out = _gives(get, weight)
            if not out:
                continue
            taken = _takes(give, weight)
            if out > taken * slack:
                if not give:   # an exchange taking nothing
                    return None
                h, k = give[0]   # every count is 1 or more (the checker's E215)
                weight[h] = weight.get(h, zero) + (out - taken) / k
                changed = True
        if not changed:
            return weight
    return None


# The weights are floats, Fractions or ints: the sums are Any, not the int of their first value (compiled,
# an int variable refuses a float).
def _gives(get, weight):
    out: Any = 0
    if isinstance(get, frozenset):  # a pile: one of these goods
        for h in get:
            w = weight.get(h)
            if w is not None and w > out:
                out = w
        return out
    for h, n in get:
        w = weight.get(h)
        if w is not None:
            out += w * n
    return out


def _takes(give, weight):
    taken: Any = 0
    for h, k in give:
        w = weight.get(h)
        if w is not None:
            taken += w * k
    return taken


def _lowest_terms(weights):
    from math import gcd
    common = gcd(*weights.values())
    return tuple((h, w // common) for h, w in sorted(weights.items()) if w)


def _usable(g: Game, p: Player, entry: Exchange) -> bool:
    window, at_most = entry[2], entry[3]
    if window != "any_time" and not window_open(g, window):
        return False
    return at_most is None or p.used.get(entry[5], 0) < at_most


def _search(g: Game, p: Player, need, short, first) -> list:
    """The minimal combinations of exchanges after which ``need`` can be paid, each as a usable order.
    The bounds of ``_quick`` have ruled out what is surely impossible before this is called."""
    goods = p.goods
    entries = g.exchanges_of(p)
    cached = _index(g, p)
    made, index, pile_ids = cached.made, cached.index, cached.piles
    piles = {}
    for i in pile_ids:
        if _usable(g, p, entries[i]):
            piles[i] = P.pile_stack(p, entries[i][4])
    # the exchanges that make a missing good, and those that make what they take, and so on
    produces: dict = {}

    def producers(good):
        found = produces.get(good)
        if found is None:
            found = [i for i in index.get(good, ()) if _usable(g, p, entries[i])]
            found += [i for i, stack in piles.items() if good in stack]
            produces[good] = found
        return found

    for good in short:
        if not producers(good):
            return []
    # the exchanges that make a missing good, and those that make what they take, and so on
    wanted = set(short)
    todo = list(short)
    relevant = []
    while todo:
        good = todo.pop()
        for i in producers(good):
            if i not in relevant:
                relevant.append(i)
                for h, k in entries[i][0]:
                    if h not in wanted:
                        wanted.add(h)
                        todo.append(h)
    relevant.sort()
    # depth-first over combinations (how often each relevant exchange is used); the goods are a list over
    # the goods the search reads (those needed, taken and made), each exchange's parts indices into it
    col: dict[str, int] = {}
    for good in need:
        col[good] = len(col)

    def at(items):
        out = []
        for h, m in items:
            if h not in col:
                col[h] = len(col)
            out.append((col[h], m))
        return tuple(out)

    need_at = at(need.items())
    # how often each relevant exchange is used, as one integer of fixed-width fields (field k: relevant[k]):
    # a count never exceeds the combinations popped, so the fields cannot overflow into each other
    width = max(MAX_PLANS_SEARCHED, 1).bit_length() + 1
    mask = (1 << width) - 1
    steps = []   # in the order tried: the last relevant exchange first
    used = p.used
    for k in range(len(relevant) - 1, -1, -1):
        i = relevant[k]
        give, get, window, at_most, source, key = entries[i]
        left = None if at_most is None else at_most - used.get(key, 0)
        takes = at(give)
        if get == "pile":
            stack_goods = piles[i]
            at((good, 1) for good in stack_goods)
            same = tuple(j * width for j, other in enumerate(relevant)
                         if other in piles and entries[other][4] == source)
            steps.append((i, k * width, 1 << (k * width), left, *_first_taken(takes), None, (stack_goods, same)))
        else:
            for good, n in get:
                if n > 0 and good in wanted:
                    steps.append((i, k * width, 1 << (k * width), left, *_first_taken(takes), at(get), None))
                    break
    found = []
    seen: set[int] = set()
    stack: list[tuple[int, tuple, list[int]]] = [(0, (), [goods[h] if h in goods else 0 for h in col])]
    pop, push, mark = stack.pop, stack.append, seen.add
    searched = 0
    limit = MAX_PLANS_SEARCHED
    while stack and searched < limit:
        uses, path, have = pop()
        searched += 1
        for i, shift, one, left, h0, m0, takes, out, pile in steps:
            if left is not None and (uses >> shift) & mask >= left:
                continue
            if have[h0] < m0:
                continue
            for h, m in takes:
                if have[h] < m:
                    break
            else:
                if out is None:
                    stack_goods, same = pile
                    offset = sum((uses >> s) & mask for s in same)
                    if offset >= len(stack_goods):
                        continue
                    if not any(good in wanted for good in stack_goods[offset:]):  # what lies further down counts
                        continue
                    gets: tuple = ((col[stack_goods[offset]], 1),)   # (any length: out below)
                else:
                    gets = out
                nuses = uses + one
                if nuses in seen:
                    continue
                mark(nuses)
                nhave = have[:]
                nhave[h0] -= m0
                for h, m in takes:
                    nhave[h] -= m
                for h, m in gets:
                    nhave[h] += m
                npath = path + (i,)
                for h, n in need_at:
                    if nhave[h] < n:
                        push((nuses, npath, nhave))
                        break
                else:
                    if first:
                        return [npath]
                    found.append((nuses, npath))
    return _fewest(found, width, len(relevant))


def _first_taken(takes) -> tuple:
    """(column, count) of the first good an exchange takes and the others: most take one good, which the
    search then tests without a loop (an exchange taking nothing: 0 of column 0)."""
    return (takes[0][0], takes[0][1], takes[1:]) if takes else (0, 0, ())


def _fewest(found, width, fields) -> list:
    """The paths of ``found`` ((uses, path), every ``uses`` different) whose uses contain no other one's,
    in the order found. ``uses`` holds ``fields`` counts of ``width`` bits each, every count below half of
    the field's range, and sums to the path's length. Looked at by growing total: a combination
    containing another contains one of the combinations kept before it."""
    guard = 0   # the top bit of every field: (a | guard) - b keeps it in each field where a >= b
    for k in range(fields):
        guard |= 1 << (k * width + width - 1)
    order = sorted(range(len(found)), key=lambda n: len(found[n][1]))
    kept: list = []
    keep = set()
    for n in order:
        uses = found[n][0]
        top = uses | guard
        for other in kept:
            if (top - other) & guard == guard:
                break
        else:
            kept.append(uses)
            keep.add(n)
    return [found[n][1] for n in sorted(keep)]


def _best_plans(g: Game, p: Player, options, plans) -> list:
    """The plans whose result is not worse in every good (and every limited exchange) than another's."""
    entries = g.exchanges_of(p)
    results = []
    for oi, path in plans:
        after = dict(p.goods)
        spent: dict = {}
        offsets: dict = {}
        for i in path:
            give, get, window, at_most, source, key = entries[i]
            for h, m in give:
                after[h] -= m
            if get == "pile":
                stack = P.pile_stack(p, source)
                k = offsets.get(source, 0)
                after[stack[k]] = after.get(stack[k], 0) + 1
                offsets[source] = k + 1
            else:
                for h, m in get:
                    after[h] = after.get(h, 0) + m
            if at_most is not None:
                spent[key] = spent.get(key, 0) - 1
        for h, m in options[oi]:
            after[h] -= m
        after.update({f"use:{k}": v for k, v in spent.items()})
        for source, k in offsets.items():
            after[f"pile:{source}"] = -k
        results.append(after)
    keys: set[str] = set()
    for r in results:
        keys.update(r)
    vectors = [tuple(r.get(k, 0) for k in sorted(keys)) for r in results]
    out, taken = [], set()
    for (plan, vec) in zip(plans, vectors):
        if vec in taken:
            continue
        if any(o != vec and all(a >= b for a, b in zip(o, vec)) for o in vectors):
            continue
        taken.add(vec)
        out.append(plan)
    return out


from . import primitives as P  # noqa: E402  (primitives imports this module first)
