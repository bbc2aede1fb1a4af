"""Goods and markers on action spaces (docs/language.md 4.4): goods put on a space of the player's choice,
goods of one space spread over others, a card's marker on a space.

A marker is remembered in the owner's card state (``marked``: card id -> the space's id) and gives the space the
tag ``marked``, so that the events of using it reach the rules that ask for 'the marked space'; such a
rule fires only on the space its own card marked (``marked_by``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..state import Player

from .. import gamelog

MARKED: Final = "marked"


def _space_choice(g: Game, p: Player, what):
    """The action space on the board that ``p`` chooses (request ``space``)."""
    return g.space_by_id[g.decide(p, "space", [s.id for s in g.spaces], prompt=what)]


def put_on_space(g: Game, p: Player, items, ctx=None):
    """Goods from the general supply onto an action space of the player's choice: whoever uses the space
    next takes them with its action."""
    items = tuple((good, n) for good, n in items if n > 0)
    if not items:
        return True
    s = g.own_space(_space_choice(g, p, f"the action space to put {gamelog.goods(g, items)} on"))
    for good, n in items:
        s.goods[good] = s.goods.get(good, 0) + n
    g.say(f"{p.name} puts {gamelog.goods(g, items)} on {gamelog.space_label(g, s)}")
    return True


def can_put_on_named_space(g: Game, space_id) -> bool:
    """Goods can be put on a named action space while it is on the board."""
    return space_id in g.space_by_id


def put_on_named_space(g: Game, p: Player, space_id, items, ctx=None):
    """Goods from the general supply onto the named action space (on the board): whoever uses it next takes
    them with its action (docs/language.md 4.4)."""
    if space_id not in g.space_by_id:
        return False
    items = tuple((good, n) for good, n in items if n > 0)
    if not items:
        return True
    s = g.own_space(g.space_by_id[space_id])
    for good, n in items:
        s.goods[good] = s.goods.get(good, 0) + n
    g.say(f"{p.name} puts {gamelog.goods(g, items)} on {gamelog.space_label(g, s)}")
    return True


def _on_board(g: Game, ids):
    return [g.space_by_id[i] for i in ids if i in g.space_by_id]


def can_spread_goods(g: Game, good, source, targets) -> bool:
    """Spreading is possible when the source space holds at least one of the good for each target on the
    board."""
    s = g.space_by_id.get(source)
    to = _on_board(g, targets)
    return s is not None and bool(to) and s.goods.get(good, 0) >= len(to)


def spread_goods(g: Game, p: Player, good, source, targets):
    """The good lying on ``source`` moves onto the ``targets`` on the board, the same number onto each; the
    rest (fewer than the targets) stays."""
    if not can_spread_goods(g, good, source, targets):
        return False
    src = g.own_space(g.space_by_id[source])
    to = [g.own_space(s) for s in _on_board(g, targets)]
    each = src.goods[good] // len(to)
    src.goods[good] -= each * len(to)
    for s in to:
        s.goods[good] = s.goods.get(good, 0) + each
    g.say(f"{p.name} moves {each} {good} from {gamelog.space_label(g, src)} onto each of "
          f"{', '.join(gamelog.space_label(g, s) for s in to)}")
    return True


def can_reveal_round_cards(g: Game, p: Player) -> bool:
    return any(g.round_order[r - 1] not in g.space_by_id
               for r in range(g.round + 1, min(g.last_round, len(g.round_order)) + 1))


def reveal_round_cards(g: Game, p: Player):
    """The round cards of the rounds after this one are laid on their round spaces now; ``p`` alone may
    use them at once, the other players from their round on (``Space.early``, runtime/phases.py
    legal_spaces). Each keeps its round's tag and becomes the newest in its round."""
    for r in range(g.round + 1, min(g.last_round, len(g.round_order)) + 1):
        d = g.pack.space_defs[g.round_order[r - 1]]
        if d.id in g.space_by_id:
            continue
        s = g._add_space(d)
        g.mark_round_space(s, r)
        s.early = p.idx
        g.early_cards = True
        g.say(f"{p.name} turns over the round card of round {r}: {d.name}")
    return True


def mark_space(g: Game, p: Player, card_id):
    """The card's marker goes on an action space of the player's choice (and stays there)."""
    s = g.own_space(_space_choice(g, p, "the action space to mark"))
    if MARKED not in s.tags:
        s.tags = tuple(s.tags) + (MARKED,)
    p.card_state.setdefault(MARKED, {})[card_id] = s.id
    g.say(f"{p.name} marks {gamelog.space_label(g, s)}")
    return True


def marked_by(g: Game, p: Player, ctx, card_id) -> bool:
    """Whether the space of the event is the one ``p``'s card ``card_id`` marked."""
    return ctx is not None and ctx.space is not None and p.card_state.get(MARKED, {}).get(card_id) == ctx.space.id
