"""Fields: plowing, sowing, fields that are cards, harvesting more, moving crops."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..farm import iter_bits
from ..state import Ctx, Player
from ..words import plural


# ====================================================================== farm: fields, sowing


def plow_cells(g: Game, p: Player) -> int:
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


def partner_plow_cells(g: Game, p: Player) -> tuple:
    """(partner, the spaces of the partner's farm where ``p``'s field may go), or (None, 0)."""
    q = partner_for(g, p, "plow")
    if q is None:
        return None, 0
    cells = plow_cells(g, q)
    return (q, cells) if cells else (None, 0)


def can_plow(g: Game, p: Player, ctx=None):
    return bool(plow_cells(g, p)) or bool(g.partners and partner_plow_cells(g, p)[0] is not None)


def plow(g: Game, p: Player, ctx=None, count=1, up_to=False):
    """Plow ``count`` fields (as many as there is room for); ``up_to``: the player may stop after each
    field ('plow up to N fields', docs/language.md 4.12 UPN)."""
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
        if up_to and done:
            opts.append("stop")
        cell = g.decide(p, "plow", opts)
        if cell == "stop":
            break
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


def _empty_fields(p: Player):
    return [c for c, f in sorted(p.fields.items()) if f[1] == 0]


def can_sow(g: Game, p: Player, ctx=None, only=None):
    grain, veg = p.goods["grain"], p.goods.get("vegetable", 0)
    if only is not None:   # 'sow <crop>': that good only
        grain = grain if only == "grain" else 0
        veg = veg if only == "vegetable" else 0
    if grain or veg:
        for key, f in p.fields.items():
            if f[1] == 0 and ((grain and _field_allows(p, key, "grain")) or (veg and _field_allows(p, key, "vegetable"))):
                return True
    return bool(_other_goods(p, only))


def _other_goods(p: Player, only=None):
    """((good, empty stacks for it), …): cards that are fields for a good that is no crop (wood), which
    the player has to sow (docs/language.md 4.14)."""
    kinds = p.card_state.get("field_crops")
    if not kinds:
        return ()
    out: dict = {}
    for key, allowed in kinds.items():
        if allowed and p.fields[key][1] == 0:
            for good in allowed:
                if good not in ("grain", "vegetable") and (only is None or only == good) and p.goods.get(good, 0):
                    out[good] = out.get(good, 0) + 1
    return tuple((good, min(n, p.goods[good])) for good, n in out.items())


def _sow_options(p: Player, only=None):
    """The ways to sow now, (grain fields, vegetable fields), and how cards that are fields limit them."""
    empty = _empty_fields(p)
    grain, veg = p.goods["grain"], p.goods.get("vegetable", 0)
    if only is not None:
        grain = grain if only == "grain" else 0
        veg = veg if only == "vegetable" else 0
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


def _all_sow_options(p: Player, most, only):
    """The sowing options: (grain fields, vegetable fields), with a third part ((good, stacks), …) when
    the player may also sow a good that is no crop on a card that is a field for it."""
    opts, plan = _sow_options(p, only)
    others = _other_goods(p, only)
    if others:
        crops = [(0, 0)] + opts
        ways: list[tuple] = [()]
        for good, k in others:
            ways = [w + ((good, i),) for w in ways for i in range(k + 1)]
        opts = [(a, b, tuple(x for x in w if x[1])) if any(x[1] for x in w) else (a, b)
                for a, b in crops for w in ways if a + b + sum(x[1] for x in w) > 0]
    if most is not None:
        opts = [o for o in opts if _sown(o) <= most]
    return opts, plan


def _sown(option):
    return option[0] + option[1] + (sum(n for _, n in option[2]) if len(option) > 2 else 0)


def sow(g: Game, p: Player, ctx=None, at_most=None, only=None, fewer=0):
    """One sowing: on empty fields (and cards that are fields), on at most ``at_most`` of them when given
    ('sow 1 field'), with the good ``only`` alone when given ('sow grain'); each field gets the rules'
    amount of its crop and what 'sowing of' adds to it, ``fewer`` less (never below 1)."""
    most = g.rules.sow_at_most
    if at_most is not None:
        most = at_most if most is None else min(most, at_most)
    opts, plan = _all_sow_options(p, most, only)
    if not opts:
        return False
    if g.listeners.get("instead:sow") and replaced(g, p, "sow", ctx):
        return True
    before = snapshot(g, p, "sow")
    if g.listeners.get("before:sow"):
        before_event(g, p, "sow")
        opts, plan = _all_sow_options(p, most, only)  # the 'before' rules may have changed the goods or the fields
        if not opts:
            return False
    empty = _empty_fields(p)
    choice = g.decide(p, "sow", opts)
    a, b = choice[0], choice[1]
    extra = choice[2] if len(choice) > 2 else ()
    yields = dict(g.rules.sowing)
    for good, _ in extra:   # a good that is no crop is sown as grain is (docs/language.md 4.14)
        yields[good] = yields.get("grain", 0)
    more = p.mods.get("sowing") if p.mods else None
    if more:   # 'sowing of <crop or crops>: +N' (docs/language.md 4.12 CFD): the cards' changes added up
        for word, n in more:
            if callable(n):   # '… while <condition>': none while it does not hold
                n = n(g, p)
            for crop in yields:
                if word == crop or (word == "crops" and crop in ("grain", "vegetable")):
                    yields[crop] += n
    if plan is None:
        free = iter(k for k in empty if _field_allows(p, k, "grain") or _field_allows(p, k, "vegetable"))
        targets = {"grain": [next(free) for _ in range(a)], "vegetable": [next(free) for _ in range(b)]}
    else:
        both, g_only, v_only = plan
        gt = g_only[:a] + both[: max(0, a - len(g_only))]
        rest = [k for k in both if k not in gt]
        vt = v_only[:b] + rest[: max(0, b - len(v_only))]
        targets = {"grain": gt, "vegetable": vt}
    for good, n in extra:
        targets[good] = [k for k in empty if p.fields[k][1] == 0 and _field_allows(p, k, good)
                         and k not in targets["grain"] and k not in targets["vegetable"]][:n]
    near = p.mods.get("sowing_near_rooms") if p.mods else None
    sown = []
    for crop, cells in targets.items():
        for cell in cells:
            p.goods[crop] -= 1
            amount = yields[crop]
            if near and cell >= 0 and p.grid.neighbours[cell] & p.rooms:   # 'sowing of … next to rooms'
                amount += sum(k for word, k in near if word == crop or (word == "crops" and crop in ("grain", "vegetable")))
            p.fields[cell] = [crop, max(1, amount - fewer)]
            sown.append(cell)
    if g.log is not None:
        counts = (("grain", a), ("vegetable", b)) + tuple(extra)
        parts = [plural(n, f"{crop} field") for crop, n in counts if n]
        g.say(f"{p.name} sows {' and '.join(parts)}")
    goods = tuple((c, n) for c, n in (("grain", a), ("vegetable", b)) if n) + tuple(extra)
    after_event(g, p, "sow", a + b + sum(n for _, n in extra), before=before, goods=goods, fields=tuple(sown))
    return True


def can_add_to_fields(g: Game, p: Player, ctx=None, good=None):
    if good is None:
        return bool(ctx is not None and ctx.fields and any(p.fields.get(k, (None, 0))[1] > 0 for k in ctx.fields))
    return any(f[0] == good and f[1] > 0 for f in p.fields.values())


def add_to_fields(g: Game, p: Player, ctx, n, good=None):
    """'add N to each sown field' (the fields the sowing a rule reacts to just sowed) and 'add N <good> to
    each <good> field' (every field or stack holding that good): N more from the general supply."""
    keys = (ctx.fields or ()) if good is None else [k for k, f in sorted(p.fields.items()) if f[0] == good]
    done = 0
    for key in keys:
        f = p.fields.get(key)
        if f is not None and f[1] > 0:
            f[1] += n
            done += 1
    if done and g.log is not None:
        g.say(f"{p.name} puts {n} more on each of {plural(done, 'field')}")
    return done > 0


def can_take_from_field(g: Game, p: Player, ctx, good, n):
    return any(f[0] == good and f[1] >= n for q in g.players if q is not p for f in q.fields.values())


def take_from_field(g: Game, p: Player, ctx, good, n, given):
    """'take N <crop> from a field of another player and give them <goods>': the player running it chooses
    the field among every other player's fields holding it; the other player gains the goods."""
    opts = [(q.idx, key) for q in g.players if q is not p for key, f in sorted(q.fields.items())
            if f[0] == good and f[1] >= n]
    if not opts:
        return False
    labels = [f"{g.players[i].name} {_field_name(g.players[i], key)}" for i, key in opts]
    i, key = g.decide(p, "choose", opts, labels=labels)
    q = g.players[i]
    f = q.fields[key]
    f[1] -= n
    if f[1] == 0:
        f[0] = None
    g.say(f"{p.name} takes {n} {good} from {q.name}'s field at {_field_name(q, key)}")
    gain(g, p, ((good, n),), ctx)
    if given:
        gain(g, q, given, ctx)
    return True


# ====================================================================== fields


def add_card_field(g: Game, p: Player, card_id, crops, stacks=1):
    """A card that is a field (``stacks`` fields): each is sown and harvested like a field tile, but is
    not a farmyard space."""
    for _ in range(stacks):
        key = -(len([k for k in p.fields if k < 0]) + 1)
        p.fields[key] = [None, 0]
        p.card_state.setdefault("field_crops", {})[key] = tuple(crops) if crops else None
        p.card_state.setdefault("field_cards", {})[key] = card_id


def _field_allows(p: Player, key, crop):
    allowed = p.card_state.get("field_crops", {}).get(key) if key < 0 else None
    return allowed is None or crop in allowed


def can_harvest_fields(g: Game, p: Player, ctx=None):
    return any(f[1] > 0 for f in p.fields.values())


def harvest_fields(g: Game, p: Player, ctx=None):
    """A field phase of one player (the harvest's, or 'harvest fields'): 1 good from each planted field
    or stack into the supply (from the general supply, the field keeping it, for a good the player
    harvests from the supply: 'harvest <crop> from the supply'), then the harvest event
    (docs/language.md 4.14) with the goods, the stacks and the cards that are fields among them."""
    before = snapshot(g, p, "harvest")   # before(…) of the harvest rules: the fields and goods before it
    taken: dict = {}
    stacks = 0
    cards: tuple | None = None
    supply = p.mods.get("harvest_from_supply") if p.mods else None
    for key in sorted(p.fields):
        f = p.fields[key]
        if f[1] > 0:
            crop = f[0]
            taken[crop] = taken.get(crop, 0) + 1
            stacks += 1
            if key < 0:
                cid = p.card_state.get("field_cards", {}).get(key)
                if cid is not None:
                    cards = (cards or ()) + (cid,)
            if supply and crop in supply:
                continue
            f[1] -= 1
            if f[1] == 0:
                f[0] = None
    if taken:
        gain(g, p, tuple(taken.items()))
    if g.listeners.get("event:harvest"):   # every field phase, also one that found nothing to take
        via = tuple(g.card(cid) for cid in dict.fromkeys(cards)) if cards else None
        g.emit("event:harvest", p, Ctx(actor=p, goods=tuple(taken.items()), data=stacks, via=via,
                                      before=before))
    return stacks > 0


def skip_harvest(g: Game, p: Player, ctx=None):
    """'skip the next harvest': the player takes no part in the next harvest (runtime/phases.py)."""
    p.card_state["skip_harvest"] = True
    return True


def can_harvest_more(g: Game, p: Player, crop):
    return any(f[0] == crop and f[1] > 0 for f in p.fields.values())


def harvest_more(g: Game, p: Player, crop, n):
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


def _field_name(p: Player, key):
    if key >= 0:
        return p.grid.name(key)
    return p.card_state.get("field_cards", {}).get(key, "card")


def can_move_crop(g: Game, p: Player):
    has_src = any(f[1] >= 2 for f in p.fields.values())
    return has_src and any(f[1] == 0 for f in p.fields.values())


def move_crop(g: Game, p: Player):
    opts = [(s, d) for s, fs in sorted(p.fields.items()) if fs[1] >= 2
            for d, fd in sorted(p.fields.items()) if fd[1] == 0 and _field_allows(p, d, fs[0])]
    if not opts:
        return False
    s, d = g.decide(p, "move_crop", opts, labels=[f"{_field_name(p, a)} -> {_field_name(p, b)}" for a, b in opts])
    crop = p.fields[s][0]
    p.fields[s][1] -= 1
    p.fields[d] = [crop, 1]
    return True


# the verbs of the other modules called above (imported last: some of them import this one)
from .goods_events import after_event, before_event, gain, replaced, snapshot
from .rooms import _blocked_for_tiles, _tiles_of_farm, PARTNER, partner_for
