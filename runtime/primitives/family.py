"""Family growth, newborns, taking goods from a space and the starting player."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..state import Player


# ====================================================================== family


def card_rooms(g: Game, p: Player) -> int:
    """People housed on ``p``'s cards now: for good, and while a condition holds (``this card houses 1
    person while rooms >= 4``, docs/language.md 4.3)."""
    n = p.card_rooms
    for k, fn in p.mods.get("card_rooms_while", ()):
        if fn(g, p):
            n += k
    return n


def _room(g: Game, p: Player) -> bool:
    return p.room_count + card_rooms(g, p) > p.people


def can_family_growth(g: Game, p: Player, ctx=None):
    """A child needs a person of the supply and a free room, or an 'instead of' rule that needs no room
    (docs/language.md 4.1.3: offered when only the room is missing)."""
    if not can_family_growth_without_room(g, p):
        return False
    return _room(g, p) or bool(g.listeners.get("instead:family_growth") and could_replace(g, p, "family_growth", ctx))


def can_family_growth_without_room(g: Game, p: Player, ctx=None):
    # the people living on cards outside the family came from the same supply
    return p.people + p.stats.get("lodgers", 0) < limit_of(g, p, "family", g.rules.max_people)


def family_growth(g: Game, p: Player, ctx=None, need_room=True):
    if need_room and not can_family_growth(g, p, ctx):
        return False
    if not can_family_growth_without_room(g, p):
        return False
    # without a free room the growth is possible only through an 'instead of' rule: its 'may' is accepted
    # (declining would leave the growth undone), as for a renovation that lacks only its price
    if g.listeners.get("instead:family_growth") and replaced(g, p, "family_growth", ctx,
                                                             forced=need_room and not _room(g, p)):
        return True
    if need_room and not _room(g, p):   # an 'instead of' rule was expected to make room unneeded, and did not
        return False
    before = snapshot(g, p, "family_growth")
    before_event(g, p, "family_growth")
    p.people += 1
    p.newborns += 1
    if g.log is not None:
        g.say(f"{p.name} has a newborn (family of {p.people})")
    after_event(g, p, "family_growth", 1, before=before)
    return True


def family_growth_without_room(g: Game, p: Player, ctx=None):
    return family_growth(g, p, ctx, need_room=False)


def can_take_goods(g: Game, p: Player, ctx=None):
    space = ctx.space if ctx is not None else None
    return space is not None and any(space.goods.values())


def take_goods(g: Game, p: Player, ctx=None):
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


def take_start_player(g: Game, p: Player, ctx=None):
    before = snapshot(g, p, "take_start_player")
    before_event(g, p, "take_start_player")
    g.start_player = p.idx
    if g.log is not None:
        g.say(f"{p.name} takes the start player token")
    after_event(g, p, "take_start_player", before=before)
    return True


# ====================================================================== people


def newborn_acts(g: Game, p: Player, ctx=None):
    """This round's newborn stops being a newborn and may be placed this round."""
    if p.newborns <= 0:
        return False
    p.newborns -= 1
    if g.in_work_phase:
        p.home += 1
    return True


# the verbs of the other modules called above (imported last: some of them import this one)
from .goods_events import after_event, before_event, could_replace, gain, replaced, snapshot
from .animals import limit_of
