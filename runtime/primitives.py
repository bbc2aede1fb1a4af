"""The verbs of the effect language: gain, pay, plow, sow, bake, build rooms, fence pastures, …

Generated handler code calls these functions. Each verb that the language lets a designer write has a
``can_<verb>`` (is it possible now?) and a ``<verb>`` (do it, asking the player where a choice exists).
Every choice goes through ``g.decide`` as a request with an enumerable list of legal options.
No action space, card or edition is named here.
"""
from __future__ import annotations

from .farm import (best_keeps, capacity_frontier, fencing_options, fits_housing, iter_bits, min_fencing_cost,
                   open_fence_edges, popcount,
                   shapes)
from .payments import (can_afford, can_afford_any, can_pay_with_exchanges, cheapest, cost_options, has_price_mods, pay_cost,
                       pay_one_of, producible, resolve_material, usable_exchanges, window_open)
from .state import Ctx
from . import gamelog
from .words import plural
from .firing import fire, limit_ok  # noqa: F401  (generated rules call P.fire and P.limit_ok)

STOP = "stop"
YES, NO = "yes", "no"

# ====================================================================== goods


def can_pay(p, items) -> bool:
    goods = p.goods
    for good, n in items:
        if goods[good] < n:
            return False
    return True


# ====================================================================== events (docs/language.md, 4.1)


def before_event(g, p, event, card=None):
    """Run the 'before' rules of an event, when a card in play has one: the verb is about to happen."""
    key = "before:" + event
    if g.listeners.get(key):
        g.emit(key, p, Ctx(actor=p, card=card, space=_space_in_use(g)))


def _space_in_use(g):
    """The action space whose use the verb belongs to (``event_space``), None outside a use."""
    return g.space_by_id.get(g.using) if g.using is not None else None


def replaced(g, p, event, ctx=None) -> bool:
    """Offer the 'instead of' rules of an event (docs/language.md 4.1.3) as the verb is about to happen:
    True when one of them replaced it. By seat from the actor, in play order; the first rule whose guard
    holds, whose body is possible and (for 'may') accepted replaces the verb, and a replacement that
    carries out the same verb does not offer the rules again."""
    hooks = g.listeners.get("instead:" + event)
    if not hooks or event in g.replacing:
        return False
    n, first = g.nplayers, p.idx
    c = Ctx(actor=p, space=getattr(ctx, "space", None))
    outer, g.replacing = g.replacing, g.replacing | {event}
    try:
        for owner, handler, who in sorted(hooks, key=lambda h: (h[0] - first) % n):
            if (who == "you") != (owner == p.idx) and who != "any":
                continue
            if handler(g, g.players[owner], c):
                return True
    finally:
        g.replacing = outer
    return False


def snapshot(g, p, event):
    """A copy of the actor before the verb, only when a rule in play reads ``before(…)`` of this event."""
    return p.clone() if event in g.snapshots else None


def after_event(g, p, event, data=None, card=None, before=None, goods=None):
    """Run the 'after' rules of an event with its payload; nothing is built when no card listens."""
    key = "event:" + event
    if g.listeners.get(key):
        g.emit(key, p, Ctx(actor=p, card=card, data=data, before=before, goods=goods, space=_space_in_use(g)))


def pay(g, p, items, ctx=None, quiet=False):
    """Take goods from the player's supply (``quiet``: the caller logs it)."""
    goods = p.goods
    for good, n in items:
        goods[good] -= n
    if not quiet:
        gamelog.paid(g, p, items)
    return True


def gain(g, p, items, ctx=None, quiet=False, source=None):
    """Add goods to the player's supply; animals must then fit on the farm (``quiet``: the caller has
    logged it; ``source``: the action space the goods were collected on, where animals without room may
    stay, per the pack's ``arriving_animals``)."""
    goods = p.goods
    animal = False
    stats = p.stats
    listened = g.listeners.get("event:gain")
    before = snapshot(g, p, "gain") if listened else None
    for good, n in items:
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
            g.emit("event:gain", p, Ctx(actor=p, goods=got, before=before, space=ctx.space if ctx else None))
    return True


def give_others(g, p, items, ctx=None):
    for other in g.players:
        if other is not p:
            gain(g, other, items, ctx)
    return True


def scaled(items, factor):
    return tuple((good, n * factor) for good, n in items)




# ====================================================================== choices


def may(g, p, label: str) -> bool:
    if g.accept_optional:  # the player's choice needs this effect (see play_occupation)
        return True
    return g.decide(p, "may", (YES, NO), prompt=label) == YES


def and_or(g, p, ctx, parts):
    """``a and/or b``: at least one of the parts, each at most once, in the order the player picks."""
    done = set()
    did = False
    while True:
        opts = [i for i, part in enumerate(parts) if i not in done and part[0](g, p, ctx)]
        if not opts:
            break
        if did:
            opts.append(STOP)
        pick = g.decide(p, "next", opts, labels=[parts[i][2] if i != STOP else STOP for i in opts])
        if pick == STOP:
            break
        done.add(pick)
        if parts[pick][1](g, p, ctx):
            did = True
    return did


def then(g, p, ctx, parts):
    """``a then b``: a is done; afterwards each later part may be done if possible."""
    first = parts[0]
    did = first[1](g, p, ctx)
    for can, do, label in parts[1:]:
        if can(g, p, ctx) and may(g, p, label):
            do(g, p, ctx)
    return did


def choose(g, p, ctx, parts):
    opts = [i for i, part in enumerate(parts) if part[0](g, p, ctx)]
    if not opts:
        return False
    pick = g.decide(p, "choose", opts, labels=[parts[i][2] for i in opts])
    return parts[pick][1](g, p, ctx)


def optional(g, p, ctx, can, do, label):
    if can(g, p, ctx) and may(g, p, label):
        do(g, p, ctx)
        return True
    return False


# ====================================================================== farm: rooms, renovation


def _blocked_for_tiles(p) -> int:
    m = p.rooms | p.field_mask | p.stables
    for pm in p.pastures:
        m |= pm
    for pm, _ in p.tile_pastures:
        m |= pm
    return m


def _tiles_of_farm(p) -> int:
    """The spaces a new tile may be laid next to: rooms, fields and pastures (a stable is a piece standing
    on the farm, not a tile of it)."""
    return p.rooms | p.field_mask | p.fenced_mask() | p.tile_mask()


def room_options(g, p, cost=None):
    """The ways to pay for one room: the pack's price as the cards change it, or a price a card states."""
    if cost is not None:
        return cost_options(g, p, ("room",), cost, modified=False)
    by_material = g.rules.room_cost_by_material.get(p.house)
    if by_material is not None:
        return cost_options(g, p, ("room",), by_material)
    return cost_options(g, p, ("room",), resolve_material(g.rules.room_cost, p.house))


def shared_rooms_left(g):
    """Rooms the table's shared supply still holds (rooms built beyond the starting houses count
    against it), or None when the pack has no shared limit."""
    limit = g.rules.shared_rooms
    if limit is None:
        return None
    start = g.rules.start_rooms
    return limit - sum(max(0, pl.room_count - start) for pl in g.players)


def shared_stables_left(g):
    """Stables the table's shared supply still holds, or None when the pack has no shared limit."""
    limit = g.rules.shared_stables
    if limit is None:
        return None
    return limit - sum(pl.stables.bit_count() for pl in g.players)


def room_cells(g, p) -> int:
    if g.rules.shared_rooms is not None and shared_rooms_left(g) <= 0:
        return 0
    gr = p.grid
    return gr.full & ~_blocked_for_tiles(p) & gr.neighbours_of(p.rooms)


def can_build_room(g, p, ctx=None, cost=None):
    if not room_cells(g, p):
        return False
    return can_afford_any(g, p, room_options(g, p, cost))


def build_room(g, p, ctx=None, cost=None, emit=True):
    cells = room_cells(g, p)
    options = room_options(g, p, cost)
    if not cells or not can_afford_any(g, p, options):
        return False
    opts = list(iter_bits(cells))
    before = snapshot(g, p, "build_rooms")
    if emit:
        before_event(g, p, "build_rooms")
        options = room_options(g, p, cost)
        if not can_afford_any(g, p, options):
            return False
    cell = g.decide(p, "room", opts)
    pay_one_of(g, p, options)
    p.rooms |= 1 << cell
    p.room_count += 1
    if g.log is not None:
        g.say(f"{p.name} builds a {p.house} room at {p.grid.name(cell)}")
    if emit:
        after_event(g, p, "build_rooms", 1, before=before)
    return True


# ---------------------------------------------------------------------- team play: acts for the partner
# In team play (game.yaml 'teams', docs/variants.md) the room, stable, plow and fence requests also offer
# the partner's farm: such an option is ("partner", space) (or ("partner", fencing step)), paid by the
# player at the prices the teams section gives.

PARTNER = "partner"


def partner_for(g, p, act):
    """``p``'s partner when the team rules let ``p`` do ``act`` (rooms, stables, plow, fences) on the
    partner's farm, else None."""
    if not g.partners:
        return None
    teams = g.rules.teams
    if not (teams.get("fence_per") if act == "fences" else teams.get(act)):
        return None
    return g.partner_of(p)


def partner_room_options(g, p, q):
    """The ways for ``p`` to pay a room on partner ``q``'s farm (the material is ``q``'s house)."""
    return cost_options(g, p, ("room",), g.rules.teams["rooms"], material=q.house)


def partner_room_cells(g, p) -> tuple:
    """(partner, the spaces where ``p`` may build the partner a room now), or (None, 0)."""
    q = partner_for(g, p, "rooms")
    if q is None:
        return None, 0
    cells = room_cells(g, q)
    if not cells or not can_afford_any(g, p, partner_room_options(g, p, q)):
        return None, 0
    return q, cells


def can_build_rooms(g, p, ctx=None):
    """Whether the 'build rooms' action can build a room (on the own farm or, in team play, the partner's)."""
    return can_build_room(g, p) or partner_room_cells(g, p)[0] is not None


def build_rooms(g, p, ctx=None):
    built = acts = 0   # rooms on the own farm (the event's count); every room built, the partner's too
    if g.listeners.get("instead:build_rooms") and replaced(g, p, "build_rooms", ctx):
        return True
    before = snapshot(g, p, "build_rooms")
    if room_cells(g, p) and can_afford_any(g, p, room_options(g, p)):
        before_event(g, p, "build_rooms")
    while True:
        cells = room_cells(g, p)
        options = room_options(g, p)
        if not cells or not can_afford_any(g, p, options):
            cells = 0
        q, theirs = partner_room_cells(g, p)
        if not cells and not theirs:
            break
        opts = list(iter_bits(cells)) + [(PARTNER, c) for c in iter_bits(theirs)]
        if acts:
            opts.append(STOP)
        cell = g.decide(p, "room", opts)
        if cell == STOP:
            break
        acts += 1
        if isinstance(cell, tuple):
            pay_one_of(g, p, partner_room_options(g, p, q))
            q.rooms |= 1 << cell[1]
            q.room_count += 1
            if g.log is not None:
                g.say(f"{p.name} builds {q.name} a {q.house} room at {q.grid.name(cell[1])}")
            continue
        pay_one_of(g, p, options)
        p.rooms |= 1 << cell
        p.room_count += 1
        built += 1
        if g.log is not None:
            g.say(f"{p.name} builds a {p.house} room at {p.grid.name(cell)}")
    if built:
        after_event(g, p, "build_rooms", built, before=before)
    return acts > 0


def renovation_targets(g, p):
    mats = g.rules.materials
    level = mats.index(p.house)
    if level + 1 >= len(mats) or p.mods.get("forbid_renovation"):
        return ()
    if p.mods.get("renovate_skip"):
        return mats[level + 1:]
    return (mats[level + 1],)


_RENOVATION_PRICES: dict = {}  # (rules, target, rooms) -> the printed price of that renovation


def renovation_options(g, p, target):
    """The ways to pay for renovating the house to ``target``."""
    key = (g.rules, target, p.room_count)
    base = _RENOVATION_PRICES.get(key)
    if base is None:
        per_room = resolve_material(g.rules.renovation_per_room, target)
        merged: dict = {}
        for good, n in scaled(per_room, p.room_count) + resolve_material(g.rules.renovation_fixed, target):
            merged[good] = merged.get(good, 0) + n
        if len(_RENOVATION_PRICES) > 1024:
            _RENOVATION_PRICES.clear()
        base = _RENOVATION_PRICES[key] = tuple(merged.items())
    return cost_options(g, p, ("renovation",), base, material=target)


def can_renovate(g, p, ctx=None):
    for target in renovation_targets(g, p):
        if can_afford_any(g, p, renovation_options(g, p, target)):
            return True
    return False


def renovate(g, p, ctx=None, target=None):
    opts = [t for t in renovation_targets(g, p) if (target is None or t == target)
            and can_afford_any(g, p, renovation_options(g, p, t))]
    if not opts:
        return False
    if g.listeners.get("instead:renovate") and replaced(g, p, "renovate", ctx):
        return True
    to = g.decide(p, "renovate", opts)
    old = p.house
    before = snapshot(g, p, "renovate")
    before_event(g, p, "renovate")
    if not pay_one_of(g, p, renovation_options(g, p, to)):
        return False
    p.house = to
    if g.log is not None:
        g.say(f"{p.name} renovates the house from {old} to {to}")
    after_event(g, p, "renovate", (old, to), before=before)
    return True


# ====================================================================== farm: stables


def stable_cells(g, p) -> int:
    if g.rules.stables_near_pastures:
        return _stable_cells_near_pastures(p)
    return p.grid.full & ~(p.rooms | p.field_mask | p.stables)


def _stable_cells_near_pastures(p) -> int:
    """A stable on a pasture without one (on the pasture's first space), or on an empty space next to a
    pasture."""
    gr = p.grid
    out = 0
    pastures = [m for m in p.pastures] + [m for m, _ in p.tile_pastures]
    every = 0
    for m in pastures:
        every |= m
        if not m & p.stables:
            out |= m & -m
    if every:
        out |= gr.neighbours_of(every) & ~_blocked_for_tiles(p)
    return out


def stable_options(g, p, cost=None):
    """The ways to pay for one stable: the pack's price as the cards change it, or a price a card states."""
    if cost is not None:
        return cost_options(g, p, ("stable",), cost, modified=False)
    return cost_options(g, p, ("stable",), g.rules.stable_cost)


def can_build_stable(g, p, ctx=None, cost=None):
    stables = p.stables
    if stables.bit_count() >= limit_of(g, p, "stables", g.rules.max_stables):
        return False
    if g.rules.shared_stables is not None and shared_stables_left(g) <= 0:
        return False
    if g.rules.stables_near_pastures:
        if not _stable_cells_near_pastures(p):
            return False
    elif not p.grid.full & ~(p.rooms | p.field_mask | stables):   # stable_cells
        return False
    return can_afford_any(g, p, stable_options(g, p, cost))


def _put_stable(g, p, cell):
    p.stables |= 1 << cell
    if g.log is not None:
        g.say(f"{p.name} builds a stable at {p.grid.name(cell)}")


def build_stable(g, p, ctx=None, cost=None):
    if not can_build_stable(g, p, ctx, cost):
        return False
    before = snapshot(g, p, "build_stables")
    before_event(g, p, "build_stables")
    cell = g.decide(p, "stable", list(iter_bits(stable_cells(g, p))))
    pay_one_of(g, p, stable_options(g, p, cost))
    _put_stable(g, p, cell)
    after_event(g, p, "build_stables", 1, before=before)
    return True


def _fits_one_more(g, q, good) -> bool:
    if good not in g.animal_set:
        return True
    counts = list(animal_counts(g, q))
    counts[g.rules.animals.index(good)] += 1
    return animals_fit(g, q, counts)


def partner_goods_options(g, p, q, moved) -> list:
    """The moves of a partner exchange: ("give", good) or ("take", good), one good at a time, after
    "stop". A kind not moved yet (``moved``) costs the fee first; an animal moves only where it fits."""
    fee = g.rules.teams.get("fee") or ()
    out = [STOP]
    for direction, giver, taker in (("give", p, q), ("take", q, p)):
        for good in g.rules.goods:
            if giver.goods[good] < 1 or not _fits_one_more(g, taker, good):
                continue
            if good not in moved:
                need = dict(fee)
                if giver is p:
                    need[good] = need.get(good, 0) + 1
                if not can_pay(p, tuple(need.items())):
                    continue
            out.append((direction, good))
    return out


def partner_exchange(g, p, ctx=None):
    """Team play: after using an exchange space, ``p`` passes goods to the partner and takes goods from
    them, one at a time, paying the fee once for each kind of good moved, until ``p`` stops."""
    q = g.partner_of(p)
    if q is None:
        return False
    fee = g.rules.teams.get("fee") or ()
    moved = set()
    while True:
        opts = partner_goods_options(g, p, q, moved)
        if len(opts) == 1:
            break
        pick = g.decide(p, "partner_goods", opts)
        if pick == STOP:
            break
        direction, good = pick
        first = good not in moved
        if first:
            moved.add(good)
            if fee:
                pay(g, p, fee, quiet=True)
        giver, taker = (p, q) if direction == "give" else (q, p)
        giver.goods[good] -= 1
        taker.goods[good] += 1
        if g.log is not None:
            paid = f" ({p.name} pays {gamelog.goods(g, fee)} for the kind)" if first and fee else ""
            g.say(f"{giver.name} passes {gamelog.goods(g, ((good, 1),))} to {taker.name}{paid}")
    if moved:
        settle_animals(g, p)
    return bool(moved)


def partner_stable_options(g, p):
    """The ways for ``p`` to pay a stable on the partner's farm."""
    return cost_options(g, p, ("stable",), g.rules.teams["stables"])


def partner_stable_cells(g, p) -> tuple:
    """(partner, the spaces where ``p`` may build the partner a stable now), or (None, 0)."""
    q = partner_for(g, p, "stables")
    if q is None or q.stables.bit_count() >= limit_of(g, q, "stables", g.rules.max_stables):
        return None, 0
    if g.rules.shared_stables is not None and shared_stables_left(g) <= 0:
        return None, 0
    cells = stable_cells(g, q)
    if not cells or not can_afford_any(g, p, partner_stable_options(g, p)):
        return None, 0
    return q, cells


def can_build_stables(g, p, ctx=None):
    """Whether the 'build stables' action can build one (on the own farm or, in team play, the partner's)."""
    return can_build_stable(g, p) or partner_stable_cells(g, p)[0] is not None


def build_stables(g, p, ctx=None):
    built = acts = 0   # stables on the own farm (the event's count); every stable built, the partner's too
    if g.listeners.get("instead:build_stables") and replaced(g, p, "build_stables", ctx):
        return True
    before = snapshot(g, p, "build_stables")
    if can_build_stable(g, p):
        before_event(g, p, "build_stables")
    while True:
        mine = can_build_stable(g, p)
        q, theirs = partner_stable_cells(g, p)
        if not mine and not theirs:
            break
        opts = (list(iter_bits(stable_cells(g, p))) if mine else []) + [(PARTNER, c) for c in iter_bits(theirs)]
        if acts:
            opts.append(STOP)
        cell = g.decide(p, "stable", opts)
        if cell == STOP:
            break
        acts += 1
        if isinstance(cell, tuple):
            pay_one_of(g, p, partner_stable_options(g, p))
            q.stables |= 1 << cell[1]
            if g.log is not None:
                g.say(f"{p.name} builds {q.name} a stable at {q.grid.name(cell[1])}")
            settle_animals(g, q)   # (a stable only adds room; settling keeps the animals' placement true)
            continue
        pay_one_of(g, p, stable_options(g, p))
        _put_stable(g, p, cell)
        built += 1
    if built:
        after_event(g, p, "build_stables", built, before=before)
    return acts > 0


# ====================================================================== farm: fields, sowing


def plow_cells(g, p) -> int:
    gr = p.grid
    rules = g.rules
    if rules.field_tile is not None and g.tile_supply.get(rules.field_tile, 0) <= 0:
        return 0
    free = gr.full & ~_blocked_for_tiles(p)
    if rules.fields_next_to_farm:
        free &= gr.neighbours_of(_tiles_of_farm(p))
    elif p.field_mask:
        free &= gr.neighbours_of(p.field_mask)
    return free


def partner_plow_cells(g, p) -> tuple:
    """(partner, the spaces of the partner's farm where ``p``'s field may go), or (None, 0)."""
    q = partner_for(g, p, "plow")
    if q is None:
        return None, 0
    cells = plow_cells(g, q)
    return (q, cells) if cells else (None, 0)


def can_plow(g, p, ctx=None):
    return bool(plow_cells(g, p)) or bool(g.partners and partner_plow_cells(g, p)[0] is not None)


def plow(g, p, ctx=None, count=1):
    done = 0
    if g.listeners.get("instead:plow") and plow_cells(g, p) and replaced(g, p, "plow", ctx):
        return True
    before = snapshot(g, p, "plow")
    if plow_cells(g, p):
        before_event(g, p, "plow")
    for _ in range(count):
        cells = plow_cells(g, p)
        q, theirs = partner_plow_cells(g, p) if g.partners else (None, 0)
        if not cells and not theirs:
            break
        opts = list(iter_bits(cells)) + [(PARTNER, c) for c in iter_bits(theirs)]
        cell = g.decide(p, "plow", opts)
        if g.rules.field_tile is not None:
            g.tile_supply[g.rules.field_tile] -= 1
        owner = p
        if isinstance(cell, tuple):
            owner, cell = q, cell[1]
        owner.fields[cell] = [None, 0]
        owner.field_mask |= 1 << cell
        done += 1
        if g.log is not None:
            whose = "" if owner is p else f" on {owner.name}'s farm"
            g.say(f"{p.name} plows a field{whose} at {owner.grid.name(cell)}")
    if done:
        after_event(g, p, "plow", done, before=before)
    return done > 0


def _empty_fields(p):
    return [c for c, f in sorted(p.fields.items()) if f[1] == 0]


def can_sow(g, p, ctx=None):
    grain, veg = p.goods["grain"], p.goods.get("vegetable", 0)
    if not (grain or veg):
        return False
    for key, f in p.fields.items():
        if f[1] == 0 and ((grain and _field_allows(p, key, "grain")) or (veg and _field_allows(p, key, "vegetable"))):
            return True
    return False


def _sow_options(p):
    """The ways to sow now, (grain fields, vegetable fields), and how cards that are fields limit them."""
    empty = _empty_fields(p)
    grain, veg = p.goods["grain"], p.goods.get("vegetable", 0)
    if not empty or not (grain or veg):
        return [], None
    n = len(empty)
    if not p.card_state.get("field_crops"):
        return [(a, b) for a in range(min(grain, n) + 1) for b in range(min(veg, n - a) + 1) if a + b > 0], None
    both = [k for k in empty if _field_allows(p, k, "grain") and _field_allows(p, k, "vegetable")]
    g_only = [k for k in empty if _field_allows(p, k, "grain") and not _field_allows(p, k, "vegetable")]
    v_only = [k for k in empty if _field_allows(p, k, "vegetable") and not _field_allows(p, k, "grain")]
    opts = [(a, b) for a in range(min(grain, n) + 1) for b in range(min(veg, n) + 1)
            if a + b > 0 and max(0, a - len(g_only)) + max(0, b - len(v_only)) <= len(both)]
    return opts, (both, g_only, v_only)


def sow(g, p, ctx=None):
    opts, plan = _sow_options(p)
    most = g.rules.sow_at_most
    if most is not None:
        opts = [o for o in opts if o[0] + o[1] <= most]
    if not opts:
        return False
    if g.listeners.get("instead:sow") and replaced(g, p, "sow", ctx):
        return True
    before = snapshot(g, p, "sow")
    if g.listeners.get("before:sow"):
        before_event(g, p, "sow")
        opts, plan = _sow_options(p)  # the 'before' rules may have changed the goods or the fields
        if most is not None:
            opts = [o for o in opts if o[0] + o[1] <= most]
        if not opts:
            return False
    empty = _empty_fields(p)
    a, b = g.decide(p, "sow", opts)
    yields = g.rules.sowing
    if plan is None:
        cells = iter(empty)
        targets = {"grain": [next(cells) for _ in range(a)], "vegetable": [next(cells) for _ in range(b)]}
    else:
        both, g_only, v_only = plan
        gt = g_only[:a] + both[: max(0, a - len(g_only))]
        rest = [k for k in both if k not in gt]
        vt = v_only[:b] + rest[: max(0, b - len(v_only))]
        targets = {"grain": gt, "vegetable": vt}
    for crop in ("grain", "vegetable"):
        for cell in targets[crop]:
            p.goods[crop] -= 1
            p.fields[cell] = [crop, yields[crop]]
    if g.log is not None:
        sown = [plural(n, f"{crop} field") for crop, n in (("grain", a), ("vegetable", b)) if n]
        g.say(f"{p.name} sows {' and '.join(sown)}")
    after_event(g, p, "sow", a + b, before=before, goods=tuple((c, n) for c, n in (("grain", a), ("vegetable", b)) if n))
    return True


# ====================================================================== fences and pastures


def fence_price_per(g, p):
    """The price of one fence (when cards set several, the one asking fewest goods)."""
    options = cost_options(g, p, ("fence",), g.rules.fence_cost)
    return options[0] if len(options) == 1 else cheapest(options)


def _fence_payments(g, p, per):
    """Ways to pay for one fence: the price, or a substitute good (single goods only)."""
    options = cost_options(g, p, ("fence",), per, modified=False)
    if len(options) > 1 and all(len(o) == 1 for o in options) and len({o[0][0] for o in options}) == len(options):
        return options
    return [per]


def _fence_budget(g, p, per, free, free_left=0):
    """How many fences ``p`` may build now, paid from the supply or by converting goods."""
    left = limit_of(g, p, "fences", g.rules.max_fences) - popcount(p.fences)
    if free:
        return left
    afford, options = _fences_from_supply(g, p, per, left)
    return _fences_with_exchanges(g, p, left, afford, options, free_left)


def _fences_from_supply(g, p, per, left):
    """(fences the supply pays for, at most ``left``; the ways to pay one fence)."""
    afford = 0
    options = _fence_payments(g, p, per)
    if len(options) == 1:
        afford = left
        for good, n in per:
            if n > 0:
                afford = min(afford, p.goods[good] // n)
    else:
        for ((good, n),) in options:
            afford += p.goods[good] // n if n > 0 else left
    return afford, options


def _fences_with_exchanges(g, p, left, afford, options, free_left):
    if afford + free_left < left and _made_for(g, p, options):
        while afford + free_left < left and can_afford_any(g, p, _fence_price_options(options, afford + 1)):
            afford += 1
    return min(left, afford + free_left)


def _made_for(g, p, options) -> bool:
    """Whether an exchange usable now makes a good of one of the prices ``options``."""
    made = producible(g, p)
    for o in options:
        for good, n in o:
            if good in made:
                return exchanges_make(g, p, {good for o in options for good, n in o})
    return False


def _fence_price_options(options, count):
    """The ways to pay for ``count`` fences, given the ways to pay for one."""
    if len(options) == 1:
        return [scaled(options[0], count)]
    (g1, n1), = options[0]
    (g2, n2), = options[1]
    return [((g1, a * n1), (g2, (count - a) * n2)) for a in range(count + 1)]


def _pay_fences(g, p, per, count):
    if count <= 0:
        return
    pay_one_of(g, p, _fence_price_options(_fence_payments(g, p, per), count))


def fencing_steps(g, p, budget):
    return list(fencing_options(p.grid, p.rooms | p.field_mask, p.pastures, p.fences, budget,
                                g.rules.pastures_touch))


def unfinished_fence_steps(g, p, budget):
    """Single fences that close nothing, as ``("fence", edge)`` steps, where the rules allow them."""
    if not g.rules.unfinished_fences or budget < 1:
        return []
    left = limit_of(g, p, "fences", g.rules.max_fences)
    return [("fence", e) for e in open_fence_edges(p.grid, p.fences, left)]


def can_build_fences(g, p, ctx=None, free=False):
    per = fence_price_per(g, p)
    free_left = p.mods.get("free_fences", 0)
    blocked = p.rooms | p.field_mask
    left = limit_of(g, p, "fences", g.rules.max_fences) - popcount(p.fences)
    touching = g.rules.pastures_touch

    def possible(budget):
        return (min_fencing_cost(p.grid, blocked, p.pastures, p.fences, budget, touching)
                or bool(unfinished_fence_steps(g, p, budget)))
    if free:
        return possible(left)
    if g.partners and can_fence_for_partner(g, p):
        return True
    # the fences the supply pays for first; exchanges are tried only when those are not enough (the
    # answer grows with the budget, so it is the same as with the whole budget)
    afford, options = _fences_from_supply(g, p, per, left)
    budget = min(left, afford + free_left)
    if budget > 0 and possible(budget):
        return True
    more = _fences_with_exchanges(g, p, left, afford, options, free_left)
    return more > budget and possible(more)


def _apply_fence_step(g, p, step, per, free, free_left=0):
    """Build one fencing step; returns how many free fences it used."""
    if step[0] == "fence":
        return _apply_unfinished_fence(g, p, step[1], per, free, free_left)
    cost, region, split = step
    before = None
    if not split:
        before = snapshot(g, p, "fence_pasture")
        before_event(g, p, "fence_pasture")
    used_free = min(cost, free_left)
    if not free and cost - used_free:
        _pay_fences(g, p, per, cost - used_free)
    _add_pasture(p, region, split)
    gr = p.grid
    if g.log is not None:
        what = "divides a pasture into" if split else "fences a pasture of"
        g.say(f"{p.name} {what} {gr.mask_names(region)} with {plural(cost, 'fence')}")
    if not split:
        after_event(g, p, "fence_pasture", popcount(region), before=before)
    return used_free


def _add_pasture(p, region, split):
    """Fence ``region`` as a new pasture (or, with ``split``, as a part divided from that pasture)."""
    if split:
        new = [m for m in p.pastures if m != split] + [region, split & ~region]
    else:
        new = list(p.pastures) + [region]
    p.pastures = tuple(sorted(new))
    p.fences |= p.grid.boundary(region)   # (a division's other part shares the old boundary and the new fences)


def _groups(n, per):
    return -(-n // per)


def partner_fence_prices(g, p, per, count, done):
    """The ways for ``p`` to pay ``count`` fences on the partner's farm when ``done`` were built there in
    this action already: the fences' price and the extra for each group of fences started."""
    teams = g.rules.teams
    extra = scaled(teams["fence_extra"] or (), _groups(done + count, teams["fence_per"]) - _groups(done, teams["fence_per"]))
    out = []
    for way in _fence_price_options(_fence_payments(g, p, per), count):
        total = dict(way)
        for good, n in extra:
            total[good] = total.get(good, 0) + n
        out.append(tuple((good, n) for good, n in total.items() if n))
    return out


def partner_fence_steps(g, p, q, per, done) -> list:
    """The fencing steps ``p`` may build on partner ``q``'s farm with ``q``'s fences, as ("partner", step)."""
    left = limit_of(g, q, "fences", g.rules.max_fences) - popcount(q.fences)
    budget = 0
    while budget < left and can_afford_any(g, p, partner_fence_prices(g, p, per, budget + 1, done)):
        budget += 1
    if not budget:
        return []
    return [(PARTNER, step) for step in fencing_steps(g, q, budget)]


def can_fence_for_partner(g, p) -> bool:
    q = partner_for(g, p, "fences")
    return q is not None and bool(partner_fence_steps(g, p, q, fence_price_per(g, p), 0))


def _apply_partner_fence_step(g, p, q, step, per, done):
    cost, region, split = step
    pay_one_of(g, p, partner_fence_prices(g, p, per, cost, done))
    _add_pasture(q, region, split)
    if g.log is not None:
        what = "divides a pasture of" if split else "fences"
        g.say(f"{p.name} {what} {q.name}'s {q.grid.mask_names(region)} with {plural(cost, 'fence')} of {q.name}'s")
    settle_animals(g, q)   # a division may leave the partner's animals without room: the partner chooses now
    return cost


def _apply_unfinished_fence(g, p, edge, per, free, free_left):
    """Build one fence that closes nothing yet (where the rules allow unfinished fences)."""
    used_free = min(1, free_left)
    if not free and not used_free:
        _pay_fences(g, p, per, 1)
    p.fences |= 1 << edge
    if g.log is not None:
        g.say(f"{p.name} builds a fence at {p.grid.edge_name(edge)}")
    return used_free


def build_fences(g, p, ctx=None, free=False, max_spaces=None, single=False):
    """Fence pastures one at a time (a new pasture or a division of one) until the player stops."""
    steps = 0
    if g.listeners.get("instead:build_fences") and replaced(g, p, "build_fences", ctx):
        return True
    before = snapshot(g, p, "build_fences")
    before_event(g, p, "build_fences")
    per = fence_price_per(g, p)
    free_left = p.mods.get("free_fences", 0)
    # in team play, the fencing action may also fence on the partner's farm (with the partner's fences)
    q = partner_for(g, p, "fences") if g.partners and max_spaces is None and not single and not free else None
    partner_fences = 0   # fences built on the partner's farm in this action (the extra price is by groups)
    while True:
        budget = _fence_budget(g, p, per, free, free_left)
        opts = fencing_steps(g, p, budget)
        if max_spaces is not None:
            opts = [o for o in opts if popcount(o[1]) <= max_spaces and not o[2]]
        elif not single:
            opts = opts + unfinished_fence_steps(g, p, budget)
        if q is not None:
            opts = opts + partner_fence_steps(g, p, q, per, partner_fences)
        if not opts:
            break
        if steps or partner_fences:
            opts = opts + [STOP]
        pick = g.decide(p, "fence", opts)
        if pick == STOP:
            break
        if pick[0] == PARTNER:
            partner_fences += _apply_partner_fence_step(g, p, q, pick[1], per, partner_fences)
            continue
        free_left -= _apply_fence_step(g, p, pick, per, free, free_left)
        steps += 1
        if single:
            break
    if steps:
        after_event(g, p, "build_fences", steps, before=before)
        settle_animals(g, p)
    return steps > 0 or partner_fences > 0


def can_fence_spaces(g, p, ctx=None, n=1, free=True):
    per = fence_price_per(g, p)
    budget = _fence_budget(g, p, per, free)
    return any(popcount(o[1]) == n and not o[2] for o in fencing_steps(g, p, budget))


def fence_spaces(g, p, ctx=None, n=1, free=True):
    per = fence_price_per(g, p)
    budget = _fence_budget(g, p, per, free)
    opts = [o for o in fencing_steps(g, p, budget) if popcount(o[1]) == n and not o[2]]
    if not opts:
        return False
    pick = g.decide(p, "fence", opts)
    _apply_fence_step(g, p, pick, per, free)
    settle_animals(g, p)
    return True


# ====================================================================== pasture tiles


def tile_cost_options(g, p, tile):
    """The ways to pay for one pasture tile: its printed cost (cost_options for the thing 'pasture')."""
    return cost_options(g, p, ("pasture",), tuple(tile["cost"]))


def pasture_tile_options(g, p):
    """Every (tile id, spaces) the player can lay now: a tile left in the supply, affordable, on free
    spaces next to a tile already on the farm."""
    gr = p.grid
    free = gr.full & ~_blocked_for_tiles(p)
    touch = gr.neighbours_of(_tiles_of_farm(p))
    out = []
    for tile in g.rules.pasture_tiles:
        if g.tile_supply.get(tile["id"], 0) <= 0 or not can_afford_any(g, p, tile_cost_options(g, p, tile)):
            continue
        for m in shapes(gr, free, tile["spaces"], touch):
            out.append((tile["id"], m))
    return out


def can_build_pastures(g, p, ctx=None):
    return bool(pasture_tile_options(g, p))


def build_pastures(g, p, ctx=None):
    """Lay pasture tiles one at a time until the player stops; after each, a stable standing on no
    pasture may be moved onto the new tile."""
    built = 0
    while True:
        opts = pasture_tile_options(g, p)
        if not opts:
            break
        if built:
            opts.append(STOP)
        pick = g.decide(p, "pasture_tile", opts)
        if pick == STOP:
            break
        tid, mask = pick
        tile = g.rules.pasture_tile[tid]
        pay_one_of(g, p, tile_cost_options(g, p, tile))
        g.tile_supply[tid] -= 1
        p.tile_pastures = tuple(sorted(p.tile_pastures + ((mask, tid),)))
        built += 1
        if g.log is not None:
            g.say(f"{p.name} lays a {tile['name']} at {p.grid.mask_names(mask)}")
        _offer_stable_move(g, p, mask)
    if built:
        settle_animals(g, p)
    return built > 0


def _offer_stable_move(g, p, mask):
    loose = p.stables & ~p.pasture_mask()
    if not loose or mask & p.stables:
        return
    opts = list(iter_bits(loose)) + [NO]
    cell = g.decide(p, "move_stable", opts)
    if cell == NO:
        return
    p.stables = (p.stables & ~(1 << cell)) | (mask & -mask)
    if g.log is not None:
        g.say(f"{p.name} moves the stable at {p.grid.name(cell)} onto the new pasture")


# ====================================================================== animals


def capacity_of(g, p, mods, names, base, size=None):
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
        else:
            mixed = True
    if sets is not None:
        base = sets
    return max(0, base + delta), mixed


def limit_of(g, p, name, base):
    """The most people ('family'), fences or stables ``p`` may have: the rules' number, as cards change it."""
    mods = p.mods.get("capacities") if p.mods else None
    if not mods:
        return base
    return capacity_of(g, p, mods, (name,), base)[0]


_PASTURE = ("pasture", "pasture_of_size")
_PASTURE_WITH_STABLE = ("pasture", "pasture_of_size", "pasture_with_stable")


def _card_places(p, caps) -> int:
    """Cards that hold animals (docs/language.md 4.5): a place for one kind is added to ``caps`` as a
    container of that kind; the places for any kind are returned, one animal of any kind each."""
    held = p.card_state.get("card_capacity")
    if not held:
        return 0
    anyone = 0
    for places in held.values():
        for cap, only in places:
            if only < 0:
                anyone += cap
            else:
                caps.append((cap, only))
    return anyone


def _housing_with_capacities(g, p, mods):
    """housing() when cards change capacities by name ('capacity of stable: +1', '…: mixed')."""
    h = g.rules.housing
    per_space, factor = h["pasture_space"], h["stable_factor"]
    extra = p.extra_capacity
    for fn in p.mods.get("pasture_extra", ()):
        extra += fn(g, p)
    caps, singles, fenced = [], 0, 0
    tiles = g.rules.pasture_tile if p.tile_pastures else None
    for m, tid in [(m, None) for m in p.pastures] + list(p.tile_pastures):
        fenced |= m
        cap = per_space * popcount(m) if tid is None else tiles[tid]["capacity"]
        for _ in range(popcount(m & p.stables)):
            cap *= factor
        names = _PASTURE_WITH_STABLE if m & p.stables else _PASTURE
        cap, mixed = capacity_of(g, p, mods, names, cap, popcount(m))
        if mixed:
            singles += cap + extra
        else:
            caps.append((cap + extra, -1))
    singles += _card_places(p, caps)
    loose = popcount(p.stables & ~fenced)
    base = h["unfenced_stable"]
    cap, mixed = capacity_of(g, p, mods, ("stable",), base)
    if loose and (mixed or cap == base):
        singles += loose * cap
    elif loose:
        caps.extend([(cap, -1)] * loose)   # a stable holding more than one animal holds one kind
    house_fn = p.mods.get("house_capacity")
    house = house_fn(g, p) if house_fn is not None else h["house"]
    singles += capacity_of(g, p, mods, ("house",), house)[0]
    return tuple(sorted(caps, reverse=True)), singles


def housing(g, p):
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
    unfenced += _card_places(p, caps)
    house_fn = mods.get("house_capacity") if mods else None
    house = house_fn(g, p) if house_fn is not None else h["house"]
    return tuple(sorted(caps, reverse=True)), unfenced + house


def animal_counts(g, p):
    goods = p.goods
    return tuple(goods[a] for a in g.rules.animals)


def animals_fit(g, p, counts=None) -> bool:
    caps, singles = housing(g, p)
    return fits_housing(caps, singles, counts or animal_counts(g, p), g.rules.pastures_per_kind)


def best_food_rate(g, p, good):
    """The most food one ``good`` gives through the player's exchanges usable now, or 0."""
    return best_food_exchange(g, p, good)[0]


def best_food_exchange(g, p, good):
    """(food, card) of the player's exchange usable now that gives the most food for one ``good``;
    (0, None) when there is none."""
    best, via = 0, None
    for give, get, window, at_most, source, key in g.exchanges_of(p):
        if window != "any_time" or len(give) != 1 or give[0] != (good, 1) or len(get) != 1:
            continue
        if get[0][0] == "food" and get[0][1] > best:
            best, via = get[0][1], source
    return best, via


def settle_animals(g, p, source=None):
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
    cooked = []   # the conversions' rules run once every kind is settled: a rule that asks finds the farm valid
    for animal, have, kept in zip(rules.animals, counts, keep):
        surplus = have - kept
        if surplus <= 0:
            continue
        p.goods[animal] = kept
        rate, via = best_food_exchange(g, p, animal) if rules.cook_arriving else (0, None)
        if rate:
            p.goods["food"] += rate * surplus
            if g.listeners.get("event:convert"):   # each animal cooked is one conversion (as use_exchange)
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
    for animal, rate, via in cooked:
        converted(g, p, ((animal, 1),), (("food", rate),), via)


def breeding_blocked(g, p) -> bool:
    """Whether some kind of animal that could breed would find no room for its young."""
    counts = list(animal_counts(g, p))
    if not any(n >= 2 for n in counts):
        return False
    caps, singles = housing(g, p)
    return not fits_housing(caps, singles, [n + 1 if n >= 2 else n for n in counts], g.rules.pastures_per_kind)


def breed(g, p, only=None):
    animals = g.rules.animals
    counts = list(animal_counts(g, p))
    cands = [i for i, a in enumerate(animals) if counts[i] >= 2 and (only is None or a == only)]
    if not cands:
        return False
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


# ====================================================================== family


def can_family_growth(g, p, ctx=None):
    return p.people < limit_of(g, p, "family", g.rules.max_people) and p.room_count + p.card_rooms > p.people


def can_family_growth_without_room(g, p, ctx=None):
    return p.people < limit_of(g, p, "family", g.rules.max_people)


def family_growth(g, p, ctx=None, need_room=True):
    if need_room and not can_family_growth(g, p):
        return False
    if not can_family_growth_without_room(g, p):
        return False
    if g.listeners.get("instead:family_growth") and replaced(g, p, "family_growth", ctx):
        return True
    before = snapshot(g, p, "family_growth")
    before_event(g, p, "family_growth")
    p.people += 1
    p.newborns += 1
    if g.log is not None:
        g.say(f"{p.name} has a newborn (family of {p.people})")
    after_event(g, p, "family_growth", 1, before=before)
    return True


def family_growth_without_room(g, p, ctx=None):
    return family_growth(g, p, ctx, need_room=False)


def can_take_goods(g, p, ctx=None):
    space = ctx.space if ctx is not None else None
    return space is not None and any(space.goods.values())


def take_goods(g, p, ctx=None):
    """The goods collected on the space being used go to the player (for a space whose effect offers
    taking them as one of its options: its goods are then not handed out on arrival)."""
    if not can_take_goods(g, p, ctx):
        return False
    space = ctx.space = g.own_space(ctx.space)
    items = tuple((good, n) for good, n in space.goods.items() if n)
    space.goods.clear()
    ctx.goods = items   # what the use of the space brought (event_goods), as for goods handed out on arrival
    gain(g, p, items, ctx, source=space)
    return True


def take_start_player(g, p, ctx=None):
    before = snapshot(g, p, "take_start_player")
    before_event(g, p, "take_start_player")
    g.start_player = p.idx
    if g.log is not None:
        g.say(f"{p.name} takes the start player token")
    after_event(g, p, "take_start_player", before=before)
    return True


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
    return do(g, p, Ctx(actor=p))


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


# ====================================================================== cards


def _card_affordable(g, p, card) -> bool:
    if has_price_mods(g, p):
        return can_afford_any(g, p, card_cost_options(g, p, card))
    return can_afford(g, p, card.cost_fn(g, p) if card.cost_fn is not None else card.cost)


def card_cost_options(g, p, card):
    """The ways to pay for a major or minor improvement or an occupation's own cost."""
    base = card.cost_fn(g, p) if card.cost_fn is not None else card.cost
    if not p.mods:
        return [base]
    names = card.minor_price_names if is_minor_for(p, card) else card.price_names
    return cost_options(g, p, names, base)


def is_minor_for(p, card) -> bool:
    """Whether the major ``card`` is a minor improvement for ``p`` ('<major> is a minor for you')."""
    mods = p.mods
    alias = mods.get("as_minor") if mods else None
    if not alias or card.kind != "major":
        return False
    return card.id in alias or any("#" + t in alias for t in card.tags)


def _majors_as_minors(g, p):
    """The majors of the supply that are minor improvements for ``p``."""
    if not p.mods or "as_minor" not in p.mods:
        return ()
    return [cid for cid in g.major_supply if is_minor_for(p, g.card(cid))]


def major_options(g, p, only=None):
    """The majors the player can build now (``only``: those with this tag)."""
    opts = []
    owned = p.majors
    mods = p.mods
    modified = has_price_mods(g, p)
    aliased = mods and "as_minor" in mods
    for cid in g.major_supply:
        card = g.card(cid)
        if only is not None and only not in card.tags:
            continue
        if aliased and is_minor_for(p, card):
            continue   # played as a minor (minor_options)
        if modified:
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


def returnable_cards(g, p, card):
    """The cards ``p`` could return to play the hand card ``card`` whose price includes returning one
    (``upgrade_of``, docs/language.md 4.8): the majors and minors in front of ``p`` with that id or tag."""
    wanted = card.upgrade_of
    cards = g.pack.all_cards
    return [cid for cid in list(p.majors) + list(p.minors)
            if cid != card.id and any(t == cid or t in cards[cid].tags for t in wanted)]


def return_card(g, p, cid):
    """Return a card in front of ``p`` as part of a price: a major goes back to the supply (anyone may
    build it again), any other card leaves the game; its lasting effects end (Game.release_card)."""
    g.release_card(p, cid)
    if cid in p.majors:
        p.majors.remove(cid)
        g.major_supply.append(cid)
        g.major_supply.sort(key=g.major_order.get)
    else:
        p.minors.remove(cid)


def minor_options(g, p):
    out = []
    for cid in list(p.hand_minors) + list(_majors_as_minors(g, p)):
        card = g.card(cid)
        if card.requires is not None and not card.requires(g, p):
            continue
        if card.kind != "major" and card.upgrade_of and not returnable_cards(g, p, card):
            continue
        if _card_affordable(g, p, card):
            out.append(cid)
    return out


# The can_… tests below answer what bool(<kind>_options(…)) would, without building the list: they stop
# at the first card the player can take, and look at the goods in the supply for every card before trying
# exchanges for any (the payment search is the dear part). Legality is asked for every space at every
# placement, so this is the hot path of a game (docs/architecture.md, "Speed").


def _has_goods(goods, cost) -> bool:
    for good, n in cost:
        if goods[good] < n:
            return False
    return True


def _paid_or_kept(goods, made, options, later) -> bool:
    """True when the goods held pay one of the prices ``options``; otherwise the prices whose missing
    goods some exchange makes (``made``) are added to ``later``, to be tried with exchanges once every
    card was looked at (as can_afford_any would try them)."""
    for cost in options:
        short = False
        for good, n in cost:
            if goods[good] < n:
                short = True
                if good not in made:
                    break
        else:
            if not short:
                return True
            later.append(cost)
    return False


def can_build_major(g, p, ctx=None, only=None):
    """Whether some major (``only``: with this tag) can be built now: bool(major_options(g, p, only))."""
    cards = g.pack.all_cards
    owned = p.majors
    goods = p.goods
    made = producible(g, p)
    mods = p.mods
    modified = has_price_mods(g, p)
    aliased = mods and "as_minor" in mods
    later = []
    for cid in g.major_supply:
        card = cards[cid]
        if only is not None and only not in card.tags:
            continue
        if aliased and is_minor_for(p, card):
            continue   # played as a minor (can_play_minor)
        if owned and card.upgrade_of:
            for have in owned:
                hc = cards[have]
                if any(t in hc.tags or t == have for t in card.upgrade_of):
                    return True  # an upgrade is offered whatever the goods
        if modified:
            options = card_cost_options(g, p, card)
        else:
            options = (card.cost_fn(g, p) if card.cost_fn is not None else card.cost,)
        if _paid_or_kept(goods, made, options, later):
            return True
    return bool(later) and can_pay_with_exchanges(g, p, later)


def can_play_minor(g, p, ctx=None):
    aliased = _majors_as_minors(g, p)
    if not p.hand_minors and not aliased:
        return False
    cards = g.pack.all_cards
    goods = p.goods
    made = producible(g, p)
    mods = p.mods
    modified = has_price_mods(g, p)
    later = []
    for cid in (list(p.hand_minors) + list(aliased) if aliased else p.hand_minors):
        card = cards[cid]
        if card.requires is not None and not card.requires(g, p):
            continue
        if card.kind != "major" and card.upgrade_of and not returnable_cards(g, p, card):
            continue
        if modified:
            options = card_cost_options(g, p, card)
        else:
            options = (card.cost_fn(g, p) if card.cost_fn is not None else card.cost,)
        if _paid_or_kept(goods, made, options, later):
            return True
    return bool(later) and can_pay_with_exchanges(g, p, later)


def can_build_improvement(g, p, ctx=None):
    return can_build_major(g, p) or can_play_minor(g, p)


def build_major(g, p, ctx=None, only=None):
    opts = major_options(g, p, only)
    if not opts:
        return False
    pick = g.decide(p, "major", opts)
    _take_major(g, p, pick)
    return True


def _take_major(g, p, pick):
    before = p.clone() if ("build_major" in g.snapshots or "build_improvement" in g.snapshots) else None
    if g.listeners.get("before:build_major") or g.listeners.get("before:build_improvement"):
        card = g.card(pick.split("<", 1)[0])
        before_event(g, p, "build_major", card)
        before_event(g, p, "build_improvement", card)
    if "<" in pick:
        cid, returned = pick.split("<", 1)
        card = g.card(cid)
        g.release_card(p, returned)
        p.majors.remove(returned)
        g.major_supply.append(returned)
        g.major_supply.sort(key=g.major_order.get)
        if g.log is not None:
            g.say(f"{p.name} upgrades {g.card(returned).name} to {card.name}")
    else:
        cid = pick
        card = g.card(cid)
        pay_one_of(g, p, card_cost_options(g, p, card))
        if g.log is not None:
            g.say(f"{p.name} builds {card.name}")
    g.major_supply.remove(cid)
    p.majors.append(cid)
    g.acquire_card(p, card)
    after_event(g, p, "build_major", card=card, before=before)
    after_event(g, p, "build_improvement", card=card, before=before)


def play_minor(g, p, ctx=None):
    opts = minor_options(g, p)
    if not opts:
        return False
    cid = g.decide(p, "minor", opts)
    _play_minor(g, p, cid)
    return True


def _play_minor(g, p, cid):
    card = g.card(cid)
    before = p.clone() if ("play_minor" in g.snapshots or "build_improvement" in g.snapshots) else None
    before_event(g, p, "play_minor", card)
    before_event(g, p, "build_improvement", card)
    if not pay_one_of(g, p, card_cost_options(g, p, card)):
        return False
    if card.kind == "major":   # a major that is a minor for the player comes from the supply
        g.major_supply.remove(cid)
    else:
        p.hand_minors.remove(cid)
    returned = None
    if card.kind != "major" and card.upgrade_of:   # an upgrade: one card named by upgrade_of goes back
        returned = g.decide(p, "return", returnable_cards(g, p, card))
        return_card(g, p, returned)
    if g.log is not None:
        g.say(f"{p.name} plays {card.name}" + (f", returning {g.card(returned).name}" if returned else ""))
    if card.passing:
        g.run_on_play(p, card)
        if g.nplayers > 1 or not g.rules.pass_minors_solo:
            left = g.players[(p.idx + 1) % g.nplayers]
            left.hand_minors.append(cid)
    else:
        p.minors.append(cid)
        g.acquire_card(p, card)
    after_event(g, p, "play_minor", card=card, before=before)
    after_event(g, p, "build_improvement", card=card, before=before)
    if g.rules.draw_after_play:
        from .pregame import draw_after_play
        draw_after_play(g, p)


def build_improvement(g, p, ctx=None):
    majors = major_options(g, p)
    minors = minor_options(g, p)
    opts = majors + [f"minor:{c}" for c in minors]
    if not opts:
        return False
    pick = g.decide(p, "improvement", opts)
    if pick.startswith("minor:"):
        _play_minor(g, p, pick[6:])
    else:
        _take_major(g, p, pick)
    return True


def fee_and_cost(fee, cost):
    """The space's fee and a card's own cost as one price, each good once (2 food and 4 food: 6 food), so
    that testing and paying it see the whole amount of a good."""
    if not cost:
        return tuple(fee)
    if not fee:
        return tuple(cost)
    total: dict = {}
    for good, n in tuple(fee) + tuple(cost):
        total[good] = total.get(good, 0) + n
    return tuple(total.items())


def occupation_cost_options(g, p, card, fee=()):
    """The ways to pay for playing ``card``: the space's fee and the card's own cost, as cards change them."""
    return cost_options(g, p, card.price_names, fee_and_cost(fee, card.cost))


def occupation_options(g, p, fee):
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


def _before_rules(g, p, key) -> bool:
    for owner, handler, who in g.listeners.get(key, ()):
        if who == "any" or (who == "you") == (owner == p.idx):
            return True
    return False


def _affordable_after_before_rules(g, p, card, fee) -> bool:
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


def can_play_occupation(g, p, ctx=None, fee=()):
    """bool(occupation_options(g, p, fee)), stopping at the first playable card; the supply alone is
    tried for every card before exchanges and 'before you play' rules are tried for any."""
    if not p.hand_occupations:
        return False
    cards = g.pack.all_cards
    mods = p.mods
    modified = has_price_mods(g, p)
    goods = p.goods
    fee = tuple(fee)
    rest = []
    for cid in p.hand_occupations:
        card = cards[cid]
        if card.requires is not None and not card.requires(g, p):
            continue
        options = occupation_cost_options(g, p, card, fee) if modified else (fee_and_cost(fee, card.cost),)
        for cost in options:
            if _has_goods(goods, cost):
                return True
        rest.append((card, options))
    known: dict = {}
    for card, options in rest:
        cost = fee_and_cost(fee, card.cost)
        ok = known.get(cost)
        if ok is None:
            ok = can_afford_any(g, p, options)
            if not ok and cost:
                ok = _affordable_after_before_rules(g, p, card, fee)
            known[cost] = ok
        if ok:
            return True
    return False


def play_occupation(g, p, ctx=None, fee=()):
    opts = occupation_options(g, p, fee)
    if not opts:
        return False
    cid = g.decide(p, "occupation", opts)
    card = g.card(cid)
    # the optional effects of 'before' rules are taken without asking when the price needs them
    needed = not can_afford_any(g, p, occupation_cost_options(g, p, card, fee))
    accept, g.accept_optional = g.accept_optional, needed
    before = snapshot(g, p, "play_occupation")
    before_event(g, p, "play_occupation", card)
    g.accept_optional = accept
    if not pay_one_of(g, p, occupation_cost_options(g, p, card, fee)):
        g.say(f"{p.name} cannot pay for {card.name}")
        return False
    p.hand_occupations.remove(cid)
    p.occupations.append(cid)
    if g.log is not None:
        g.say(f"{p.name} plays occupation {card.name}")
    g.acquire_card(p, card)
    after_event(g, p, "play_occupation", card=card, before=before)
    if g.rules.draw_after_play:
        from .pregame import draw_after_play
        draw_after_play(g, p)
    return True


# ====================================================================== schedule, scoring


def rounds_next(g, n):
    return [r for r in range(g.round + 1, g.round + 1 + n) if r <= g.last_round]


def rounds_offsets(g, offsets):
    return [g.round + k for k in offsets if g.round + k <= g.last_round]


def rounds_listed(g, listed):
    return [r for r in listed if g.round < r <= g.last_round]


def rounds_remaining(g, parity=None):
    return [r for r in range(g.round + 1, g.last_round + 1) if parity is None or r % 2 == parity]


def schedule(g, p, items, rounds, ctx=None, source=None):
    """Goods for ``p`` at the start of each of ``rounds``; ``source`` is the card they come from (the log
    names it when they are taken)."""
    for r in rounds:
        g.schedule.setdefault(r, []).append((p.idx, tuple(items), source))
    if g.log is not None and rounds:
        g.say(f"{p.name} will get {gamelog.goods(g, items)} in {gamelog.rounds_words(rounds)}")
    return True


def bonus(g, p, points, ctx=None, source=None):
    """Bonus points for ``p``; ``source`` is the card they come from."""
    p.bonus += points
    gamelog.bonus_points(g, p, points, source)
    return True


def convert_bonus(g, p, good, tiers, ctx=None, source=None):
    have = p.goods[good]
    best = None
    for threshold, points in tiers:
        if have >= threshold:
            best = (threshold, points)
    if best is None:
        return False
    p.goods[good] -= best[0]
    gamelog.paid(g, p, ((good, best[0]),))
    p.bonus += best[1]
    gamelog.bonus_points(g, p, best[1], source)
    return True


def return_to_space(g, p, items, ctx=None):
    if ctx is None or ctx.space is None or not pay_cost(g, p, items):
        return False
    space = ctx.space = g.own_space(ctx.space)
    for good, n in items:
        space.goods[good] = space.goods.get(good, 0) + n
    return True


def always(g, p, c=None):
    return True


def never(g, p, c=None):
    return False


# ====================================================================== later actions, all players


class ScheduledAction:
    """An effect waiting on a future round space (``schedule action(...) on …``)."""

    __slots__ = ("can", "do", "label")

    def __init__(self, can, do, label):
        self.can, self.do, self.label = can, do, label


def schedule_action(g, p, can, do, rounds, label, ctx=None, source=None):
    """An effect for ``p`` to take at the start of each of ``rounds``; ``source`` as for ``schedule``."""
    entry = ScheduledAction(can, do, label)
    for r in rounds:
        g.schedule.setdefault(r, []).append((p.idx, entry, source))
    if g.log is not None and rounds:
        g.say(f"{p.name} will '{label}' in {gamelog.rounds_words(rounds)}")
    return True


def _for(ctx, owner):
    """The context of a body run for another player: the same event, and the card's owner."""
    if ctx is None:
        return Ctx(actor=owner, owner=owner)
    return Ctx(space=ctx.space, card=ctx.card, actor=ctx.actor, event=ctx.event, data=ctx.data, goods=ctx.goods,
               before=ctx.before, owner=owner)


def for_each_player(g, p, ctx, can, do):
    """Run an effect for every player in turn order (the owner included)."""
    c = _for(ctx, p)
    for other in g.turn_order():
        if can(g, other, c):
            do(g, other, c)
    return True


def for_each_other(g, p, ctx, can, do):
    """Run an effect for every other player, in seat order after the owner."""
    c = _for(ctx, p)
    n = g.nplayers
    for i in range(1, n):
        other = g.players[(p.idx + i) % n]
        if can(g, other, c):
            do(g, other, c)
    return True


def for_actor(g, p, ctx, can, do):
    """Run an effect for the player who carried out the event (their goods, their choices)."""
    who = actor_of(p, ctx)
    c = _for(ctx, p)
    if can(g, who, c):
        return bool(do(g, who, c))
    return False


def actor_of(p, ctx):
    return ctx.actor if ctx is not None and ctx.actor is not None else p


def owner_of(p, ctx):
    return ctx.owner if ctx is not None and ctx.owner is not None else p


def give_to(g, who, items, ctx=None):
    """Goods from the general supply to a player."""
    return gain(g, who, items, ctx)


def can_pay_to(g, p, whom, items) -> bool:
    return whom is p or can_afford(g, p, items)


def pay_to(g, p, whom, items, ctx=None):
    """Goods from ``p`` to another player (nothing moves when they are the same player)."""
    if whom is p:
        return True
    if not pay_cost(g, p, items):
        return False
    gain(g, whom, items, ctx)
    return True


def take_from(g, p, whom, items, ctx=None):
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


# ====================================================================== fields


def add_card_field(g, p, card_id, crops):
    """A card that is a field: it is sown and harvested like a field tile, but is not a farmyard space."""
    key = -(len([k for k in p.fields if k < 0]) + 1)
    p.fields[key] = [None, 0]
    p.card_state.setdefault("field_crops", {})[key] = tuple(crops) if crops else None
    p.card_state.setdefault("field_cards", {})[key] = card_id


def _field_allows(p, key, crop):
    allowed = p.card_state.get("field_crops", {}).get(key) if key < 0 else None
    return allowed is None or crop in allowed


def can_harvest_more(g, p, crop):
    return any(f[0] == crop and f[1] > 0 for f in p.fields.values())


def harvest_more(g, p, crop, n):
    taken = 0
    for key in sorted(p.fields):
        f = p.fields[key]
        if f[0] == crop and f[1] > 0:
            k = min(n, f[1])
            f[1] -= k
            taken += k
            if f[1] == 0:
                f[0] = None
    if taken:
        gain(g, p, ((crop, taken),))
    return taken > 0


def _field_name(p, key):
    if key >= 0:
        return p.grid.name(key)
    return p.card_state.get("field_cards", {}).get(key, "card")


def can_move_crop(g, p):
    has_src = any(f[1] >= 2 for f in p.fields.values())
    return has_src and any(f[1] == 0 for f in p.fields.values())


def move_crop(g, p):
    opts = [(s, d) for s, fs in sorted(p.fields.items()) if fs[1] >= 2
            for d, fd in sorted(p.fields.items()) if fd[1] == 0 and _field_allows(p, d, fs[0])]
    if not opts:
        return False
    s, d = g.decide(p, "move_crop", opts, labels=[f"{_field_name(p, a)} -> {_field_name(p, b)}" for a, b in opts])
    crop = p.fields[s][0]
    p.fields[s][1] -= 1
    p.fields[d] = [crop, 1]
    return True


# ====================================================================== people


def newborn_acts(g, p, ctx=None):
    """This round's newborn stops being a newborn and may be placed this round."""
    if p.newborns <= 0:
        return False
    p.newborns -= 1
    if g.in_work_phase:
        p.home += 1
    return True


# ====================================================================== piles on cards


def pile(g, p, card_id, items):
    stack = p.card_state.setdefault("piles", {}).setdefault(card_id, [])
    for good, n in items:
        stack.extend([good] * n)
    p.producible = None
    return True


def pile_stack(p, card_id):
    """The goods piled on a card, top first (empty when there are none)."""
    return p.card_state.get("piles", {}).get(card_id) or ()


def pile_top(p, card_id):
    stack = p.card_state.get("piles", {}).get(card_id)
    return stack[0] if stack else None


# ====================================================================== goods and animals on cards


def stored_on(p, card_id) -> dict:
    """The goods lying on a card of ``p`` (good -> count; empty when none)."""
    return p.card_state.get("stored", {}).get(card_id) or {}


def card_space_of(g, p, card_id):
    """The action space that ``p``'s card ``card_id`` is (None when it is none): its goods lie on the card."""
    s = g.space_by_id.get(card_id)
    return s if s is not None and getattr(s.defn, "card_owner", None) == p.idx else None


def _store(g, p, card_id, items, sign):
    s = card_space_of(g, p, card_id)
    kept = g.own_space(s).goods if s is not None else p.card_state.setdefault("stored", {}).setdefault(card_id, {})
    for good, n in items:
        if n > 0:
            kept[good] = kept.get(good, 0) + sign * n
            if not kept[good]:
                del kept[good]


def put_on_card(g, p, card_id, items, ctx=None):
    """Goods from the general supply onto the card (they are not in the player's supply)."""
    gamelog.on_card(g, p, card_id, items, "put")
    _store(g, p, card_id, items, 1)
    return True


def move_to_card(g, p, card_id, items, ctx=None):
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


def can_take_from_card(g, p, card_id, items) -> bool:
    s = card_space_of(g, p, card_id)
    kept = s.goods if s is not None else stored_on(p, card_id)
    return any(n > 0 for good, n in items) and all(kept.get(good, 0) >= n for good, n in items)


def take_from_card(g, p, card_id, items, ctx=None):
    """Goods from the card into the player's supply (a gain: animals must then fit)."""
    if not can_take_from_card(g, p, card_id, items):
        return False
    _store(g, p, card_id, items, -1)
    gamelog.on_card(g, p, card_id, items, "take")
    gain(g, p, items, ctx, quiet=True)
    return True


def add_card_space(g, p, card, can, use, anyone, takes_goods, tags=()):
    """The card becomes an action space of this game (id and name the card's): people are placed on it
    like on a board space, by its owner or, with ``anyone``, by every player. Its body runs for the
    player placed there, with the card's owner as 'owner' (fees go to them); goods put on the card lie
    on the space (``takes_goods``: its body says 'take the goods', else they are handed out on arrival). ``tags``: the card counts as a space with these tags ('after you use #tag')."""
    from .pack import SpaceDef
    owner = p.idx

    def context(g, who, c):
        return Ctx(space=g.space_by_id[card.id], actor=who, owner=g.players[owner],
                   goods=c.goods if c is not None else None, before=c.before if c is not None else None)

    def can_use(g, who, c):
        return (anyone or who.idx == owner) and bool(can(g, who, context(g, who, c)))

    def do_use(g, who, c):
        return use(g, who, context(g, who, c))

    n = g.nplayers
    defn = SpaceDef({"id": card.id, "name": card.name, "players": (n,), "tags": ("card_space",) + tuple(tags),
                     "text": "", "variants": {n: (do_use, can_use, None)}, "takes_goods": takes_goods})
    defn.card_owner = owner
    g._add_space(defn)


def add_card_capacity(g, p, card_id, n, only):
    """The card holds ``n`` animals of the player's: of the kind ``only`` (None: any kinds, mixed). They
    are the player's animals (counted, bred, scored); the card is one more place for them on the farm."""
    kind = -1 if only is None else g.rules.animals.index(only)
    held = p.card_state.setdefault("card_capacity", {})
    places = {k: count for count, k in held.get(card_id, ())}   # kind -> how many (a card may hold several kinds apart)
    places[kind] = places.get(kind, 0) + n
    held[card_id] = tuple((count, k) for k, count in sorted(places.items()))


# ====================================================================== pastures with room


def roomy_pasture_count(g, p, free):
    """Pastures holding at least one animal and room for ``free`` more, in the best arrangement."""
    caps, singles = housing(g, p)
    pastures = [cap for cap, only in caps if only < 0]
    counts = animal_counts(g, p)
    types = len(counts)
    best = 0
    n = len(pastures)
    if n > 8:
        pastures = sorted(pastures, reverse=True)[:8]
        n = 8

    def assign(i, chosen):
        if i == n:
            per_type = [[] for _ in range(types)]
            for cap, t in zip(pastures, chosen):
                if t is not None:
                    per_type[t].append(cap)
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
