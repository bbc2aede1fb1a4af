"""Placements of the round: how many people a player places, who places first (docs/language.md 4.4).

A player's people to place this round are worked out when the work phase starts (``people_to_place``): the
family without this round's newborns, the people living on cards outside the family, and what the
statements of the round changed (``place N more people`` for a visitor, ``place N people less``, ``place no
people``). During the work phase the statements change the people still at home (``p.home``) at once.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..state import Player

from .. import gamelog

# keys of Player.stats (cleared when the round ends, runtime/phases.py end_round)
MORE: Final = "placements_more"        # people placed more (visitors) or less this round, set before the work phase
NONE: Final = "placements_none"        # no placements at all this round
FIRST: Final = "place_first"           # the round in which the player places first
LODGERS: Final = "lodgers"             # people living on the player's cards outside the family (kept all game)
ROUND_KEYS = (MORE, NONE)


def start_player_of(g: Game):
    return g.players[g.start_player]


def people_to_place(g: Game, p: Player) -> int:
    """The people ``p`` places this round: the family without newborns, people living on cards, and the
    changes of this round's statements (never below 0)."""
    st = p.stats
    if st.get(NONE):
        return 0
    return max(0, p.people - p.newborns + st.get(LODGERS, 0) + st.get(MORE, 0))


def place_more(g: Game, p: Player, n: int):
    """``p`` places n more people this round (a visitor): at once during the work phase, else when it starts."""
    if g.in_work_phase:
        if not p.stats.get(NONE):
            p.home += n
    else:
        p.stats[MORE] = p.stats.get(MORE, 0) + n
    g.say(f"{p.name} places {n} more {'person' if n == 1 else 'people'} this round")
    return True


def place_less(g: Game, p: Player, n):
    """``p`` places n people less this round (``None``: nobody), never below 0."""
    if n is None:
        p.stats[NONE] = True
        if g.in_work_phase:
            p.home = 0
        g.say(f"{p.name} places no people this round")
        return True
    if g.in_work_phase:
        p.home = max(0, p.home - n)
    else:
        p.stats[MORE] = p.stats.get(MORE, 0) - n
    g.say(f"{p.name} places {n} {'person' if n == 1 else 'people'} less this round")
    return True


def lodgers(p: Player) -> int:
    """The people living on ``p``'s cards outside the family."""
    return p.stats.get(LODGERS, 0)


def lodge_people(g: Game, p: Player, n: int, card_id):
    """Up to n people of the player's supply (the family's most, less the family and those already
    lodged) go to live on the card: placed from now on (this round too) and fed, never family."""
    from .animals import limit_of
    free = limit_of(g, p, "family", g.rules.max_people) - p.people - lodgers(p)
    k = max(0, min(n, free))
    if k:
        p.stats[LODGERS] = lodgers(p) + k
        if g.in_work_phase and not p.stats.get(NONE):
            p.home += k
        g.say(f"{p.name} lodges {k} {'person' if k == 1 else 'people'} on {gamelog.source_name(g, card_id)}")
    return True


def can_place_first(g: Game, p: Player) -> bool:
    """Placing first is possible at the start of the work phase, before anyone is placed."""
    return g.in_work_phase and p.stats.get(FIRST) != g.round and p.home > 0 and \
        not any(s.occupants for s in g.spaces)


def place_first(g: Game, p: Player):
    """``p`` places one person before the start player this round (runtime/phases.py work_phase)."""
    if not can_place_first(g, p):
        return False
    p.stats[FIRST] = g.round
    g.say(f"{p.name} places first this round")
    return True
