"""Animals: where they live (housing, capacities), settling them, breeding, roomy pastures."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..state import Player

import itertools

from ..farm import best_keeps, capacity_frontier, fits_housing, popcount
from .. import gamelog
from ..payments import offer_keys


# ====================================================================== animals


def capacity_of(g: Game, p: Player, mods, names, base, size=None):
    """A capacity of the names ``names`` with the cards' capacity modifiers ``mods`` applied, and whether its
    animals may be mixed (docs/language.md 4.3): the largest set value of any card replaces the base, then
    the changes of all cards are added (never below 0), so the order the cards were played never matters.
    ``size`` is a pasture's number of farmyard spaces ('pasture of N spaces')."""
    sets, delta, mixed = None, 0, False
    for name, want_size, kind, value in mods:
        if name not in names or (want_size is not None and want_size != size):
            continue
        if kind == "set":
            sets = value if sets is None else max(sets, value)
        elif kind == "delta":
            delta += value(g, p)
        elif kind == "mixed":
            mixed = True
    if sets is not None:
        base = sets
    return max(0, base + delta), mixed


def kind_more(g: Game, p: Player, mods, names, size=None):
    """The changes of one kind of animal of the names ``names`` ('capacity of pasture: +2 sheep'): a tuple
    of the animals more for each kind, or None when no card changes one kind (docs/language.md 4.3)."""
    more = None
    for name, want_size, kind, value in mods:
        if kind != "delta_kind" or name not in names or (want_size is not None and want_size != size):
            continue
        fn, t = value
        if more is None:
            more = [0] * len(g.rules.animals)
        more[t] += fn(g, p)
    if more is None or not any(more):
        return None
    return tuple(max(0, m) for m in more)


def limit_of(g: Game, p: Player, name, base):
    """The most people ('family'), fences or stables ``p`` may have: the rules' number, as cards change it."""
    mods = p.mods.get("capacities") if p.mods else None
    if not mods:
        return base
    return capacity_of(g, p, mods, (name,), base)[0]


_PASTURE = ("pasture", "pasture_of_size", "pasture_without_stable", "pasture_of_size_without_stable")
_PASTURE_WITH_STABLE = ("pasture", "pasture_of_size", "pasture_with_stable")
_CARD = ("animal_card",)
_ONE_STABLE = ("one_stable",)


def _places(caps, n, cap, mixed, more, single):
    """``n`` places holding ``cap`` animals of one kind (with ``more`` of some kinds, see kind_more), or of
    any kinds together when ``mixed``; ``single``: a place of ``cap`` is as good as ``cap`` one-animal spaces.
    Adds the containers to ``caps`` and returns the one-animal spaces."""
    if not n:
        return 0
    if mixed or (single and more is None):
        if more:
            for t, k in enumerate(more):
                if k:
                    caps.extend([(k, t)] * n)   # the more of one kind: a place for that kind alone
        return n * cap
    caps.extend([(cap, -1) if more is None else (cap, -1, more)] * n)
    return 0


def _card_places(g: Game, p: Player, caps, mods=None) -> int:
    """Cards that hold animals (docs/language.md 4.5): a place for one kind is added to ``caps`` as a
    container of that kind; the places for any kind are returned, one animal of any kind each. ``mods``:
    the capacity modifiers, of which those of 'animal card' change each place."""
    held = p.card_state.get("card_capacity")
    computed = p.mods.get("card_capacity_fn") if p.mods else None
    if not held and not computed:
        return 0
    places_of = list(held.values()) if held else []
    if computed:   # capacities worked out now ('capacity of this card: (pastures) cattle')
        places_of.append(tuple((max(0, fn(g, p)), only) for _, fn, only in computed))
    anyone = 0
    for places in places_of:
        for cap, only in places:
            if cap <= 0:
                continue
            more = None
            if mods:
                cap = capacity_of(g, p, mods, _CARD, cap)[0]
                more = kind_more(g, p, mods, _CARD)
            if only < 0:
                anyone += _places(caps, 1, cap, True, more, True)
            else:
                caps.append((cap + (more[only] if more else 0), only))
    return anyone


def _housing_with_capacities(g: Game, p: Player, mods) -> tuple[tuple, int]:
    """housing() when cards change capacities by name ('capacity of stable: +1', '…: mixed')."""
    h = g.rules.housing
    per_space, factor = h["pasture_space"], h["stable_factor"]
    extra = p.extra_capacity
    for fn in p.mods.get("pasture_extra", ()):
        extra += fn(g, p)
    caps: list = []
    singles, fenced = 0, 0
    tiles = g.rules.pasture_tile if p.tile_pastures else {}
    for m, tid in [(m, None) for m in p.pastures] + list(p.tile_pastures):
        fenced |= m
        cap = per_space * popcount(m) if tid is None else tiles[tid]["capacity"]
        for _ in range(popcount(m & p.stables)):
            cap *= factor
        names = _PASTURE_WITH_STABLE if m & p.stables else _PASTURE
        size = popcount(m)
        cap, mixed = capacity_of(g, p, mods, names, cap, size)
        singles += _places(caps, 1, cap + extra, mixed, kind_more(g, p, mods, names, size), False)
    singles += _card_places(g, p, caps, mods)
    loose = popcount(p.stables & ~fenced)
    base = h["unfenced_stable"]
    if loose and any(name == "one_stable" for name, *_ in mods):
        # one unfenced stable of the player's has its own capacity; the changes of 'stable' skip it
        cap, mixed = capacity_of(g, p, mods, _ONE_STABLE, base)
        singles += _places(caps, 1, cap, mixed, kind_more(g, p, mods, _ONE_STABLE), cap == base)
        loose -= 1
    cap, mixed = capacity_of(g, p, mods, ("stable",), base)
    # a stable holding more than one animal holds one kind
    singles += _places(caps, loose, cap, mixed, kind_more(g, p, mods, ("stable",)), cap == base)
    house_fn = p.mods.get("house_capacity")
    house = house_fn(g, p) if house_fn is not None else h["house"]
    singles += capacity_of(g, p, mods, ("house",), house)[0]
    return tuple(sorted(caps, reverse=True)), singles


def housing(g: Game, p: Player) -> tuple[tuple, int]:
    """(containers, singles): pastures as (capacity, any type), and one-animal spaces."""
    h = g.rules.housing
    per_space = h["pasture_space"]
    factor = h["stable_factor"]
    extra = p.extra_capacity
    mods = p.mods
    if mods:
        named = mods.get("capacities")
        if named:
            return _housing_with_capacities(g, p, named)
        for fn in mods.get("pasture_extra", ()):
            extra += fn(g, p)
    caps = []
    fenced = 0
    for m in p.pastures:
        fenced |= m
        cap = per_space * popcount(m)
        for _ in range(popcount(m & p.stables)):
            cap *= factor
        caps.append((cap + extra, -1))
    if p.tile_pastures:
        tiles = g.rules.pasture_tile
        for m, tid in p.tile_pastures:
            fenced |= m
            cap = tiles[tid]["capacity"]
            for _ in range(popcount(m & p.stables)):
                cap *= factor
            caps.append((cap + extra, -1))
    unfenced = popcount(p.stables & ~fenced) * h["unfenced_stable"]
    unfenced += _card_places(g, p, caps)
    house_fn = mods.get("house_capacity") if mods else None
    house = house_fn(g, p) if house_fn is not None else h["house"]
    return tuple(sorted(caps, reverse=True)), unfenced + house


def animal_counts(g: Game, p: Player):
    goods = p.goods
    return tuple(goods[a] for a in g.rules.animals)


def animals_fit(g: Game, p: Player, counts=None) -> bool:
    caps, singles = housing(g, p)
    return fits_housing(caps, singles, counts or animal_counts(g, p), g.rules.pastures_per_kind)


def best_food_exchange(g: Game, p: Player, good):
    """(food, card) of the player's exchange usable now that gives the most food for one ``good``;
    (0, None) when there is none."""
    best, via = 0, None
    sold = offer_keys(p)
    for give, get, window, at_most, source, key in g.exchanges_of(p):
        if window != "any_time" or len(give) != 1 or give[0] != (good, 1) or len(get) != 1 or key in sold:
            continue
        if get[0][0] == "food" and get[0][1] > best:
            best, via = get[0][1], source
    return best, via


def settle_animals(g: Game, p: Player, source=None):
    """Keep the animals that fit (the player picks which); cook the rest if possible (and if the pack's
    ``arriving_animals`` allows it), else return them to the supply, or, when the pack says so, leave
    those taken from an action space on it (``source``: (space, goods taken from it)), at most as many
    of each kind as were taken."""
    counts = animal_counts(g, p)
    rules = g.rules
    caps, singles = housing(g, p)
    per_kind = rules.pastures_per_kind
    if fits_housing(caps, singles, counts, per_kind):
        return
    opts = best_keeps(capacity_frontier(caps, singles, len(counts), per_kind), counts)
    keep = g.decide(p, "keep_animals", opts)
    before = snapshot(g, p, "convert")   # the player before the animals that do not fit are cooked
    cooked = []   # the conversions' rules run once every kind is settled: a rule that asks finds the farm valid
    for animal, have, kept in zip(rules.animals, counts, keep):
        surplus = have - kept
        if surplus <= 0:
            continue
        p.goods[animal] = kept
        rate, via = best_food_exchange(g, p, animal) if rules.cook_arriving else (0, None)
        if rate:
            p.goods["food"] += rate * surplus
            if g.listeners.get("event:convert") or BATCH in g.listeners:   # each animal cooked is one conversion
                cooked.extend([(animal, rate, via)] * surplus)
        elif rules.leftovers_stay and source is not None:
            space, taken = source
            back = min(surplus, sum(k for good, k in taken if good == animal))
            if back:
                space = g.own_space(space)
                space.goods[animal] = space.goods.get(animal, 0) + back
                gamelog.left_on_space(g, p, ((animal, back),), space)
                surplus -= back
                if not surplus:
                    continue
        gamelog.overflow(g, p, ((animal, surplus),), rate * surplus)
    if cooked:
        opened = batch_open(g, p)   # the animals cooked in one settling: one time (docs/language.md 4.1.5)
        for animal, rate, via in cooked:
            converted(g, p, ((animal, 1),), (("food", rate),), via, before)
            if BATCH in g.listeners:
                batch_note(g, p, ((animal, 1),), (("food", rate),), via)
        batch_close(g, p, opened)


def breeding_blocked(g: Game, p: Player) -> bool:
    """Whether some kind of animal that could breed would find no room for its young."""
    counts = list(animal_counts(g, p))
    if not any(n >= 2 for n in counts):
        return False
    caps, singles = housing(g, p)
    return not fits_housing(caps, singles, [n + 1 if n >= 2 else n for n in counts], g.rules.pastures_per_kind)


def _breeding_more(g: Game, p: Player, animals):
    """The more young of each kind the cards give ('breeding of sheep: +1', docs/language.md 4.3), or None."""
    more = p.mods.get("breeding") if p.mods else None
    if not more:
        return None
    extra = [0] * len(animals)
    for word, n in more:
        if callable(n):   # '… while <condition>': none while it does not hold
            n = n(g, p)
        for i, a in enumerate(animals):
            if word == a or word == "animals":
                extra[i] += n
    return extra if any(extra) else None


def _breed_more(g: Game, p: Player, animals, counts, cands, extra):
    """Breeding with more young of some kinds: each kind gets up to 1 + its extra young, as many as fit; the
    player picks among the largest ways that fit."""
    caps, singles = housing(g, p)
    ranges = [range(0, 2 + extra[i]) for i in cands]
    fitting = []
    for bred in itertools.product(*ranges):
        trial = list(counts)
        for k, i in enumerate(cands):
            trial[i] += bred[k]
        if fits_housing(caps, singles, trial, g.rules.pastures_per_kind):
            fitting.append(bred)
    maximal = [b for b in fitting if not any(o != b and all(x >= y for x, y in zip(o, b)) for o in fitting)]
    if not maximal or maximal == [(0,) * len(cands)]:
        return False
    labels = [", ".join(f"{n} {animals[cands[k]]}" for k, n in enumerate(b) if n) for b in maximal]
    pick = 0 if len(maximal) == 1 else g.decide(p, "breed", list(range(len(maximal))), labels=labels)
    born = []
    for k, i in enumerate(cands):
        n = maximal[pick][k]
        p.goods[animals[i]] += n
        born.extend([animals[i]] * n)
    gamelog.bred(g, p, born)
    return bool(born)


def breed(g: Game, p: Player, only=None):
    animals = g.rules.animals
    counts = list(animal_counts(g, p))
    cands = [i for i, a in enumerate(animals) if counts[i] >= 2 and (only is None or a == only)]
    if not cands:
        return False
    extra = _breeding_more(g, p, animals)
    if extra is not None and any(extra[i] for i in cands):
        return _breed_more(g, p, animals, counts, cands, extra)
    caps, singles = housing(g, p)
    fitting = []
    for mask in range(1 << len(cands)):
        trial = list(counts)
        for k, i in enumerate(cands):
            if mask >> k & 1:
                trial[i] += 1
        if fits_housing(caps, singles, trial, g.rules.pastures_per_kind):
            fitting.append(mask)
    maximal = [m for m in fitting if not any(o != m and (o & m) == m for o in fitting)]
    if not maximal or maximal == [0]:
        return False
    pick = maximal[0] if len(maximal) == 1 else g.decide(
        p, "breed", maximal, labels=[",".join(animals[cands[k]] for k in range(len(cands)) if m >> k & 1)
                                      for m in maximal])
    born = []
    for k, i in enumerate(cands):
        if pick >> k & 1:
            p.goods[animals[i]] += 1
            born.append(animals[i])
    gamelog.bred(g, p, born)
    return bool(born)


# ====================================================================== pastures with room


def roomy_pasture_count(g: Game, p: Player, free):
    """Pastures holding at least one animal and room for ``free`` more, in the best arrangement."""
    caps, singles = housing(g, p)
    pastures = [c for c in caps if c[1] < 0]   # (capacity, -1[, more of some kinds])
    counts = animal_counts(g, p)
    types = len(counts)
    best = 0
    n = len(pastures)
    if n > 8:
        pastures = sorted(pastures, reverse=True)[:8]
        n = 8

    def assign(i, chosen):
        if i == n:
            per_type: list[list] = [[] for _ in range(types)]
            for c, t in zip(pastures, chosen):
                if t is not None:
                    per_type[t].append(c[0] + (c[2][t] if len(c) > 2 else 0))
            options = []
            for t in range(types):
                caps_t = sorted(per_type[t])
                total = sum(caps_t)
                opts_t = []
                eligible = [c for c in caps_t if c - free >= 1]
                for k in range(0, min(len(eligible), counts[t]) + 1):
                    overflow = max(0, counts[t] - (total - k * free))
                    opts_t.append((k, overflow))
                options.append(opts_t)
            def rec(t, used, score):
                nonlocal best
                if used > singles:
                    return
                if t == types:
                    best = max(best, score)
                    return
                for k, over in options[t]:
                    rec(t + 1, used + over, score + k)
            rec(0, 0, 0)
            return
        for t in list(range(types)) + [None]:
            chosen.append(t)
            assign(i + 1, chosen)
            chosen.pop()

    assign(0, [])
    return best


# the verbs of the other modules called above (imported last: some of them import this one)
from .exchanges import BATCH, batch_close, batch_note, batch_open, converted
from .goods_events import snapshot
