"""The house: rooms and renovation."""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..state import Player

from ..farm import iter_bits, popcount
from ..payments import can_afford_any, cost_options, pay_one_of, resolve_material


# ====================================================================== farm: rooms, renovation


def _blocked_for_tiles(p: Player) -> int:
    m = p.rooms | p.field_mask | p.stables
    for pm in p.pastures:
        m |= pm
    for pm, _ in p.tile_pastures:
        m |= pm
    return m


def _tiles_of_farm(p: Player) -> int:
    """The spaces a new tile may be laid next to: rooms, fields and pastures (a stable is a piece standing
    on the farm, not a tile of it)."""
    return p.rooms | p.field_mask | p.fenced_mask() | p.tile_mask()


def room_options(g: Game, p: Player, cost=None):
    """The ways to pay for one room: the pack's price as the cards change it, or a price a card states."""
    if cost is not None:
        return cost_options(g, p, ("room",), cost, modified=False)
    by_material = g.rules.room_cost_by_material.get(p.house)
    if by_material is not None:
        return cost_options(g, p, ("room",), by_material)
    return cost_options(g, p, ("room",), resolve_material(g.rules.room_cost, p.house))


def shared_rooms_left(g: Game):
    """Rooms the table's shared supply still holds (rooms built beyond the starting houses count
    against it); only for a pack with a shared limit (``g.rules.shared_rooms`` not None)."""
    start, limit = g.rules.start_rooms, g.rules.shared_rooms
    assert limit is not None
    return limit - sum(max(0, pl.room_count - start) for pl in g.players)


def shared_stables_left(g: Game):
    """Stables the table's shared supply still holds; only for a pack with a shared limit
    (``g.rules.shared_stables`` not None)."""
    limit = g.rules.shared_stables
    assert limit is not None
    return limit - sum(popcount(pl.stables) for pl in g.players)


def room_cells(g: Game, p: Player) -> int:
    if g.rules.shared_rooms is not None and shared_rooms_left(g) <= 0:
        return 0
    gr = p.grid
    return gr.full & ~_blocked_for_tiles(p) & gr.neighbours_of(p.rooms)


def can_build_room(g: Game, p: Player, ctx=None, cost=None):
    if not room_cells(g, p):
        return False
    return can_afford_any(g, p, room_options(g, p, cost))


def build_room(g: Game, p: Player, ctx=None, cost=None, emit=True):
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

PARTNER: Final = "partner"


def partner_for(g: Game, p: Player, act):
    """``p``'s partner when the team rules let ``p`` do ``act`` (rooms, stables, plow, fences) on the
    partner's farm, else None."""
    if not g.partners:
        return None
    teams = g.rules.teams
    if not (teams.get("fence_per") if act == "fences" else teams.get(act)):
        return None
    return g.partner_of(p)


def partner_room_options(g: Game, p: Player, q):
    """The ways for ``p`` to pay a room on partner ``q``'s farm (the material is ``q``'s house)."""
    return cost_options(g, p, ("room",), g.rules.teams["rooms"], material=q.house)


def partner_room_cells(g: Game, p: Player) -> tuple:
    """(partner, the spaces where ``p`` may build the partner a room now), or (None, 0)."""
    q = partner_for(g, p, "rooms")
    if q is None:
        return None, 0
    cells = room_cells(g, q)
    if not cells or not can_afford_any(g, p, partner_room_options(g, p, q)):
        return None, 0
    return q, cells


def can_build_rooms(g: Game, p: Player, ctx=None):
    """Whether the 'build rooms' action can build a room (on the own farm or, in team play, the partner's)."""
    return can_build_room(g, p) or partner_room_cells(g, p)[0] is not None


def build_rooms(g: Game, p: Player, ctx=None):
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


def renovation_targets(g: Game, p: Player, skip=False):
    """The materials ``p`` may renovate to now; ``skip``: every later one (a renovation to a material at
    a card's price, docs/language.md 4.13)."""
    mats = g.rules.materials
    level = mats.index(p.house)
    if level + 1 >= len(mats) or switch_on(g, p, "forbid_renovation"):
        return ()
    if skip or switch_on(g, p, "renovate_skip"):
        return mats[level + 1:]
    return (mats[level + 1],)


_RENOVATION_PRICES: dict = {}  # (rules, target, rooms) -> the printed price of that renovation


def renovation_options(g: Game, p: Player, target):
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


def _renovation_ways(g: Game, p: Player, target, cost):
    """The ways to pay a renovation to ``target``: the rules' price as the cards change it, or the price a
    card gives (``cost``), which only substitutions change (as for 'build room for …')."""
    if cost is None:
        return renovation_options(g, p, target)
    return cost_options(g, p, ("renovation",), tuple(cost), modified=False, material=target)


def can_renovate(g: Game, p: Player, ctx=None, target=None, cost=None):
    """Whether ``p`` can renovate now (to ``target``, at the price ``cost`` a card gives, when given); a
    renovation that lacks only its price is possible when an 'instead of' rule would replace it
    (docs/language.md 4.1.3, as for a family growth that lacks only a room)."""
    targets = [t for t in renovation_targets(g, p, skip=cost is not None and target is not None)
               if target is None or t == target]
    for t in targets:
        if can_afford_any(g, p, _renovation_ways(g, p, t, cost)):
            return True
    return bool(targets and g.listeners.get("instead:renovate") and could_replace(g, p, "renovate", ctx))


def renovate(g: Game, p: Player, ctx=None, target=None, cost=None):
    """A renovation (to ``target`` when given); ``cost``: the price a card gives for this one renovation,
    instead of the rules' price, and with a target straight to it from any earlier material."""
    targets = [t for t in renovation_targets(g, p, skip=cost is not None and target is not None)
               if target is None or t == target]
    opts = [t for t in targets if can_afford_any(g, p, _renovation_ways(g, p, t, cost))]
    if not opts:
        # only the price is missing: the renovation is carried out by an 'instead of' rule that replaces it
        # (its 'may' is accepted: declining would leave the renovation undone), or not at all
        if targets and g.listeners.get("instead:renovate") and could_replace(g, p, "renovate", ctx):
            return replaced(g, p, "renovate", ctx, forced=True)
        return False
    if g.listeners.get("instead:renovate") and replaced(g, p, "renovate", ctx):
        return True
    to = g.decide(p, "renovate", opts)
    old = p.house
    before = snapshot(g, p, "renovate")
    before_event(g, p, "renovate", data=(old, to))
    if not pay_one_of(g, p, _renovation_ways(g, p, to, cost)):
        return False
    p.house = to
    if g.log is not None:
        g.say(f"{p.name} renovates the house from {old} to {to}")
    after_event(g, p, "renovate", (old, to), before=before)
    return True


# the verbs of the other modules called above (imported last: some of them import this one)
from .goods_events import after_event, before_event, could_replace, replaced, scaled, snapshot, STOP, switch_on
