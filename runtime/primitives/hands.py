"""Hand cards (docs/language.md 4.10): drawing from the cards not dealt, discarding a hand.

The cards not dealt lie in ``g.decks`` in the order the game's seeded generator shuffled them at the
deal (runtime/engine.py ``_deal``), so a draw takes the top cards: random for the players, the same for
the same seed and decisions, and a saved game replays to the same draws. A draw from decks that run out
gives what is left. Hands are hidden: views show a player only their own (runtime/view.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from ..engine import Game

from ..state import Player

from .. import history
from ..words import plural

HAND_OF = {"minors": "hand_minors", "occupations": "hand_occupations"}
_NOUN = {"minors": "minor improvement", "occupations": "occupation"}


def can_draw_cards(g: Game, p: Player, kind) -> bool:
    return bool(g.decks.get(kind))


def draw_cards(g: Game, p: Player, kind, n, ctx=None):
    """Draw ``n`` cards of ``kind`` ('minors' or 'occupations') from the cards not dealt into the hand."""
    from ..pregame import deal   # registers the history counters of the cards drawn (runtime/history.py)
    got = deal(g, kind, n)
    getattr(p, HAND_OF[kind]).extend(got)
    for cid in got:   # rules of the cards drawn that act from the hand ('may play this card')
        if g.card(cid).hand_listeners:
            history.register_hand_rules(g, p.idx, g.card(cid))
    if g.log is not None:
        g.say(f"{p.name} draws {plural(len(got), _NOUN[kind])}")
    return True


def can_play_from_hand(g: Game, p: Player, card_id) -> bool:
    return card_id in p.hand_occupations


def play_from_hand(g: Game, p: Player, card_id, ctx=None):
    """Play the occupation from the hand at no cost, out of turn (a rule of the card in the hand, 4.10)."""
    if card_id not in p.hand_occupations:
        return False
    card = g.card(card_id)
    before = snapshot(g, p, "play_occupation")
    before_event(g, p, "play_occupation", card)
    p.hand_occupations.remove(card_id)
    p.occupations.append(card_id)
    if g.log is not None:
        g.say(f"{p.name} plays occupation {card.name} from the hand")
    g.acquire_card(p, card)
    after_event(g, p, "play_occupation", card=card, before=before)
    return True


def discard_hand(g: Game, p: Player, kind, ctx=None):
    """The hand's cards of ``kind`` go out of the game (not back among the cards not dealt)."""
    hand = getattr(p, HAND_OF[kind])
    if g.log is not None and hand:
        g.say(f"{p.name} discards {plural(len(hand), _NOUN[kind])} from the hand")
    setattr(p, HAND_OF[kind], [])
    return True


from .goods_events import after_event, before_event, snapshot  # noqa: E402 (imported last, as in cards.py)
