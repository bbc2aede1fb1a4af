"""Fences, pastures and pasture tiles."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..state import Player

from ..farm import fencing_options, iter_bits, min_fencing_cost, open_fence_edges, popcount, shapes
from ..payments import LimitedPrice, Price, as_price, can_afford_any, cheapest, cost_options, pay_one_of, producible
from ..words import plural


# ====================================================================== fences and pastures


def fence_price_per(g: Game, p: Player):
    """The price of one fence (when cards set several, the one asking fewest goods)."""
    options = cost_options(g, p, ("fence",), g.rules.fence_cost, limited=False)
    return options[0] if len(options) == 1 else cheapest(options)


def _limited_fence(g: Game, p: Player, per):
    """The price of the one fence a limited change lowers (``cost of fence: -1 wood (once per round)``,
    docs/language.md 4.3) when one is open and lowers ``per``, else None."""
    if not p.mods.get("cost_limited"):
        return None
    options = cost_options(g, p, ("fence",), g.rules.fence_cost)
    one = options[0] if len(options) == 1 else cheapest(options)
    return one if type(one) is LimitedPrice else None


def _fence_payments(g: Game, p: Player, per):
    """Ways to pay for one fence: the price, or a substitute good (single goods only)."""
    options = cost_options(g, p, ("fence",), per, modified=False)
    if len(options) > 1 and all(len(o) == 1 for o in options) and len({o[0][0] for o in options}) == len(options):
        return options
    return [per]


def _numbered_free(p: Player, count) -> int:
    """Of the next ``count`` fences ``p`` builds, how many are free by their number ('free fence number 3, 6':
    the owner's 3rd and 6th fence over the game, docs/language.md 4.3)."""
    numbers = p.mods.get("free_fence_numbers")
    if not numbers:
        return 0
    built = popcount(p.fences)
    return sum(1 for n in numbers if built < n <= built + count)


def _stretch(p: Player, paid, left) -> int:
    """The most fences, at most ``left``, of which at most ``paid`` are not free by their number."""
    if not p.mods.get("free_fence_numbers"):
        return min(left, paid)
    k = min(left, paid)
    while k < left and k + 1 - _numbered_free(p, k + 1) <= paid:
        k += 1
    return k


def set_aside_count(p: Player, piece) -> int:
    """How many of ``p``'s unbuilt ``piece`` (fences) lie set aside on round spaces (``schedule action (…) on
    … with N fences set aside``, docs/language.md 4.3): they are not the player's to build until then."""
    return p.stats.get("set_aside:" + piece, 0)


def fences_left(g: Game, p: Player) -> int:
    """The fences ``p`` may still build: the most they may have, less those built and those set aside."""
    return limit_of(g, p, "fences", g.rules.max_fences) - popcount(p.fences) - p.stats.get("set_aside:fences", 0)


def _fence_budget(g: Game, p: Player, per, free, free_left=0):
    """How many fences ``p`` may build now, paid from the supply or by converting goods."""
    left = fences_left(g, p)
    if free:
        return left
    afford, options = _fences_from_supply(g, p, per, left)
    return _stretch(p, _fences_with_exchanges(g, p, left, afford, options, free_left), left)


def _fences_from_supply(g: Game, p: Player, per, left) -> tuple[int, list]:
    """(fences the supply pays for, at most ``left``; the ways to pay one fence)."""
    afford = 0
    options = _fence_payments(g, p, per)
    if len(options) == 1:
        afford = left
        for good, n in as_price(per):
            if n > 0:
                afford = min(afford, p.goods[good] // n)
        if afford < left:   # one fence lowered by a limited change may make one more affordable
            one = _limited_fence(g, p, per)
            if one is not None and all(p.goods[good] >= n for good, n in _plus(scaled(per, afford), one)):
                afford += 1
    else:
        for ((good, n),) in options:
            afford += p.goods[good] // n if n > 0 else left
    return afford, options


def _fences_with_exchanges(g: Game, p: Player, left, afford, options, free_left):
    if afford + free_left < left and _made_for(g, p, options):
        while afford + free_left < left and can_afford_any(g, p, _fence_price_options(options, afford + 1)):
            afford += 1
    return min(left, afford + free_left)


def _made_for(g: Game, p: Player, options) -> bool:
    """Whether an exchange usable now makes a good of one of the prices ``options``."""
    made = producible(g, p)
    for o in options:
        price: Price = as_price(o)   # (typed: read pair by pair, compiled)
        for good, n in price:
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


def _plus(a, b):
    goods = dict(a)
    for good, n in b:
        goods[good] = goods.get(good, 0) + n
    return tuple((good, n) for good, n in goods.items() if n > 0)


def _pay_fences(g: Game, p: Player, per, count):
    """Pay ``count`` (at least 1) fences at ``per`` each."""
    options = _fence_payments(g, p, per)
    one = _limited_fence(g, p, per) if len(options) == 1 else None
    if one is not None:   # one of the fences at the price a limited change lowered, spent when paid
        pay_one_of(g, p, [LimitedPrice(_plus(scaled(per, count - 1), one), one.spends)])
        return
    pay_one_of(g, p, _fence_price_options(options, count))


def fencing_steps(g: Game, p: Player, budget):
    return list(fencing_options(p.grid, p.rooms | p.field_mask, p.pastures, p.fences, budget,
                                g.rules.pastures_touch))


def unfinished_fence_steps(g: Game, p: Player, budget):
    """Single fences that close nothing, as ``("fence", edge)`` steps, where the rules allow them."""
    if not g.rules.unfinished_fences or budget < 1:
        return []
    most = limit_of(g, p, "fences", g.rules.max_fences) - p.stats.get("set_aside:fences", 0)
    return [("fence", e) for e in open_fence_edges(p.grid, p.fences, most)]


def can_build_fences(g: Game, p: Player, ctx=None, free=False, at_most=None):
    """Whether ``p`` can take a fencing action now (``at_most``: of at most that many fences, besides the free
    fences per action of modifiers, docs/language.md 4.12 UPN)."""
    per = fence_price_per(g, p)
    free_left = p.mods.get("free_fences", 0)
    blocked = p.rooms | p.field_mask
    left = fences_left(g, p)
    if at_most is not None:
        if at_most < 1:
            return False
        left = min(left, at_most + free_left)
    if free:
        return _fencing_possible(g, p, blocked, left)
    if g.partners and at_most is None and can_fence_for_partner(g, p):
        return True
    # the fences the supply pays for first; exchanges are tried only when those are not enough (the
    # answer grows with the budget, so it is the same as with the whole budget)
    afford, options = _fences_from_supply(g, p, per, left)
    budget = _stretch(p, afford + free_left, left)
    if budget > 0 and _fencing_possible(g, p, blocked, budget):
        return True
    more = _stretch(p, _fences_with_exchanges(g, p, left, afford, options, free_left), left)
    return more > budget and _fencing_possible(g, p, blocked, more)


def _fencing_possible(g: Game, p: Player, blocked: int, budget) -> bool:
    """Whether some fencing step needs at most ``budget`` new fences (``blocked``: the spaces no pasture takes)."""
    return (min_fencing_cost(p.grid, blocked, p.pastures, p.fences, budget, g.rules.pastures_touch)
            or bool(unfinished_fence_steps(g, p, budget)))


def _apply_fence_step(g: Game, p: Player, step, per, free, free_left=0):
    """Build one fencing step; returns how many free fences it used."""
    if step[0] == "fence":
        return _apply_unfinished_fence(g, p, step[1], per, free, free_left)
    cost, region, split = step
    before = None
    if not split:
        before = snapshot(g, p, "fence_pasture")
        before_event(g, p, "fence_pasture")
    numbered = _numbered_free(p, cost)   # free by their number first, then the free ones per action
    used_free = min(cost - numbered, free_left)
    if not free and cost - numbered - used_free:
        _pay_fences(g, p, per, cost - numbered - used_free)
    _add_pasture(p, region, split)
    gr = p.grid
    if g.log is not None:
        what = "divides a pasture into" if split else "fences a pasture of"
        g.say(f"{p.name} {what} {gr.mask_names(region)} with {plural(cost, 'fence')}")
    if not split:
        after_event(g, p, "fence_pasture", popcount(region), before=before)
    return used_free


def _add_pasture(p: Player, region, split):
    """Fence ``region`` as a new pasture (or, with ``split``, as a part divided from that pasture)."""
    if split:
        new = [m for m in p.pastures if m != split] + [region, split & ~region]
    else:
        new = list(p.pastures) + [region]
    p.pastures = tuple(sorted(new))
    p.fences |= p.grid.boundary(region)   # (a division's other part shares the old boundary and the new fences)


def _groups(n, per):
    return -(-n // per)


def partner_fence_prices(g: Game, p: Player, per, count, done):
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


def partner_fence_steps(g: Game, p: Player, q, per, done) -> list:
    """The fencing steps ``p`` may build on partner ``q``'s farm with ``q``'s fences, as ("partner", step)."""
    left = fences_left(g, q)
    budget = 0
    while budget < left and can_afford_any(g, p, partner_fence_prices(g, p, per, budget + 1, done)):
        budget += 1
    if not budget:
        return []
    return [(PARTNER, step) for step in fencing_steps(g, q, budget)]


def can_fence_for_partner(g: Game, p: Player) -> bool:
    q = partner_for(g, p, "fences")
    return q is not None and bool(partner_fence_steps(g, p, q, fence_price_per(g, p), 0))


def _apply_partner_fence_step(g: Game, p: Player, q, step, per, done):
    cost, region, split = step
    pay_one_of(g, p, partner_fence_prices(g, p, per, cost, done))
    _add_pasture(q, region, split)
    if g.log is not None:
        what = "divides a pasture of" if split else "fences"
        g.say(f"{p.name} {what} {q.name}'s {q.grid.mask_names(region)} with {plural(cost, 'fence')} of {q.name}'s")
    settle_animals(g, q)   # a division may leave the partner's animals without room: the partner chooses now
    return cost


def _apply_unfinished_fence(g: Game, p: Player, edge, per, free, free_left):
    """Build one fence that closes nothing yet (where the rules allow unfinished fences)."""
    numbered = _numbered_free(p, 1)
    used_free = 0 if numbered else min(1, free_left)
    if not free and not used_free and not numbered:
        _pay_fences(g, p, per, 1)
    p.fences |= 1 << edge
    if g.log is not None:
        g.say(f"{p.name} builds a fence at {p.grid.edge_name(edge)}")
    return used_free


def build_fences(g: Game, p: Player, ctx=None, free=False, max_spaces=None, single=False, at_most=None):
    """Fence pastures one at a time (a new pasture or a division of one) until the player stops; with
    ``at_most``, at most that many fences in the action besides the free fences per action of modifiers
    (``build up to N fences``, docs/language.md 4.12 UPN)."""
    steps = 0
    counted = 0   # fences of this action counted against ``at_most``
    if g.listeners.get("instead:build_fences") and replaced(g, p, "build_fences", ctx):
        return True
    before = snapshot(g, p, "build_fences")
    before_event(g, p, "build_fences")
    per = fence_price_per(g, p)
    free_left = p.mods.get("free_fences", 0)
    # in team play, the fencing action may also fence on the partner's farm (with the partner's fences)
    q = partner_for(g, p, "fences") if (g.partners and max_spaces is None and not single and not free
                                        and at_most is None) else None
    partner_fences = 0   # fences built on the partner's farm in this action (the extra price is by groups)
    while True:
        budget = _fence_budget(g, p, per, free, free_left)
        if at_most is not None:
            budget = min(budget, at_most - counted + free_left)
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
        used = _apply_fence_step(g, p, pick, per, free, free_left)
        free_left -= used
        counted += (1 if pick[0] == "fence" else pick[0]) - used
        steps += 1
        if single:
            break
    if steps:
        after_event(g, p, "build_fences", steps, before=before)
        settle_animals(g, p)
    return steps > 0 or partner_fences > 0


def _new_pastures_of(g: Game, p: Player, budget, n):
    """The fencing steps that fence a new pasture of ``n`` spaces with at most ``budget`` new fences. A
    pasture of n spaces has at most 2n+2 fences around it, so the steps are looked for within that many
    (the same steps, in the same order, as among all those of the whole budget; far fewer to go through)."""
    return [o for o in fencing_steps(g, p, min(budget, 2 * n + 2)) if popcount(o[1]) == n and not o[2]]


def can_fence_spaces(g: Game, p: Player, ctx=None, n=1, free=True):
    per = fence_price_per(g, p)
    return bool(_new_pastures_of(g, p, _fence_budget(g, p, per, free), n))


def fence_spaces(g: Game, p: Player, ctx=None, n=1, free=True):
    per = fence_price_per(g, p)
    budget = _fence_budget(g, p, per, free)
    opts = _new_pastures_of(g, p, budget, n)
    if not opts:
        return False
    pick = g.decide(p, "fence", opts)
    _apply_fence_step(g, p, pick, per, free)
    settle_animals(g, p)
    return True


def _new_stable_steps(g: Game, p: Player, ctx):
    """The fencing steps that fence the space of a stable the event built as a pasture of its own, by the
    rules of fencing (a new pasture next to the fenced ones where the pack asks it, enough fences left)."""
    cells = ctx.cells if ctx is not None else 0
    if not cells:
        return []
    budget = _fence_budget(g, p, fence_price_per(g, p), True)
    return [o for o in _new_pastures_of(g, p, budget, 1) if o[1] & cells == o[1]]


def can_fence_new_stable(g: Game, p: Player, ctx=None) -> bool:
    return bool(_new_stable_steps(g, p, ctx))


def fence_new_stable(g: Game, p: Player, ctx=None):
    """'fence the stable just built' (docs/language.md 4.10): the space of a stable the event built becomes
    a pasture of one space, its fences free; a fencing action of its own (its 'build fences' event fires)."""
    opts = _new_stable_steps(g, p, ctx)
    if not opts:
        return False
    before = snapshot(g, p, "build_fences")
    before_event(g, p, "build_fences")
    pick = opts[0] if len(opts) == 1 else g.decide(p, "fence", opts)
    _apply_fence_step(g, p, pick, fence_price_per(g, p), True)
    after_event(g, p, "build_fences", 1, before=before)
    settle_animals(g, p)
    return True


# ====================================================================== pasture tiles


def tile_cost_options(g: Game, p: Player, tile):
    """The ways to pay for one pasture tile: its printed cost (cost_options for the thing 'pasture')."""
    return cost_options(g, p, ("pasture",), tuple(tile["cost"]))


def pasture_tile_options(g: Game, p: Player):
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


def can_build_pastures(g: Game, p: Player, ctx=None):
    return bool(pasture_tile_options(g, p))


def build_pastures(g: Game, p: Player, ctx=None):
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


def _offer_stable_move(g: Game, p: Player, mask):
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


# the verbs of the other modules called above (imported last: some of them import this one)
from .goods_events import after_event, before_event, NO, replaced, scaled, snapshot, STOP
from .rooms import _blocked_for_tiles, _tiles_of_farm, PARTNER, partner_for
from .animals import limit_of, settle_animals
from .exchanges import exchanges_make
