"""Fields: plowing, sowing, fields that are cards, harvesting more, moving crops."""
from __future__ import annotations

from ..farm import iter_bits
from ..words import plural


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


def plow(g, p, ctx=None, count=1, up_to=False):
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


def sow(g, p, ctx=None, at_most=None):
    """One sowing: on empty fields (and cards that are fields), on at most ``at_most`` of them when given
    ('sow 1 field'); each field gets the rules' amount of its crop and what 'sowing of' adds to it."""
    opts, plan = _sow_options(p)
    most = g.rules.sow_at_most
    if at_most is not None:
        most = at_most if most is None else min(most, at_most)
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
    more = p.mods.get("sowing") if p.mods else None
    if more:   # 'sowing of <crop or crops>: +N' (docs/language.md 4.12 CFD): the cards' changes added up
        yields = dict(yields)
        for word, n in more:
            if callable(n):   # '… while <condition>': none while it does not hold
                n = n(g, p)
            for crop in yields:
                if word == crop or word == "crops":
                    yields[crop] += n
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


# the verbs of the other modules called above (imported last: some of them import this one)
from .goods_events import after_event, before_event, gain, replaced, snapshot
from .rooms import _blocked_for_tiles, _tiles_of_farm, PARTNER, partner_for
