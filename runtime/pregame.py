"""The pre-game phase: the order of the round cards chosen, drafting, and the hand rules of a pack.

Everything here comes from the pack's ``game.yaml`` (``draft``, ``redraw``, ``swaps``,
``round_order``, ``draw_after_play``; docs/variants.md) and every decision is a request with
enumerable options, answered by agents and people alike (``Game.run``, ``pending``, ``answer``):

- ``round_card``: which round card of a stage lies on the next round space (the start player chooses);
- ``draft``: which card of the packet in front of the player to keep (one card a request; a pick of
  three cards is three requests);
- ``redraw``: ``keep`` the hand, or a kind (``occupations``, ``minors``) to give back whole and get one
  card fewer of, again and again until the player keeps;
- ``swap``: ``keep``, or a hand card to give back for a new card of the same kind;
- ``draw``: after a card is played from the hand, the kind of card to draw (``draw_after_play``).

Cards given back leave the game. The decks are the shuffled cards not dealt (``game.decks``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from .engine import Game

from .state import Player

from . import history

HAND = {"occupations": "hand_occupations", "minors": "hand_minors"}


def hand_of(p: Player, kind) -> list:
    return getattr(p, HAND[kind])


def run(g: Game) -> None:
    """The whole pre-game phase, in this order: hands dealt again by card class, the open display laid
    out, round cards, draft, redraw, swaps."""
    rules = g.rules
    for kind, classes in rules.deal_by_class.items():
        deal_again_by_class(g, kind, classes)
    if rules.display:
        lay_out_display(g)
    if rules.round_order == "chosen":
        choose_round_order(g)
    for phase in rules.draft:
        draft_phase(g, phase)
    if rules.redraw:
        for p in g.turn_order():
            redraw(g, p)
    if rules.swaps:
        for p in g.turn_order():
            swaps(g, p, rules.swaps)
    history.register_dealt(g)   # the hands as the pre-game left them (history counters, hand rules: 4.7, 4.10)


def choose_round_order(g: Game) -> None:
    """The start player lays out the round cards of each stage in the order they like."""
    p = g.players[g.start_player]
    order = []
    stages: list = []
    for cid in g.round_order:
        stage = g.pack.space_defs[cid].stage
        if not stages or stages[-1][0] != stage:
            stages.append((stage, []))
        stages[-1][1].append(cid)
    for stage, ids in stages:
        left = sorted(ids)
        while left:
            cid = g.decide(p, "round_card", list(left))
            left.remove(cid)
            order.append(cid)
    g.round_order = order
    if g.log is not None:
        g.say(f"{p.name} lays out the round cards: " + ", ".join(g.pack.space_defs[c].name for c in order))


def deal(g: Game, kind, count) -> list:
    """``count`` cards from the top of the deck of ``kind`` (fewer when the deck runs out)."""
    deck = g.decks.get(kind, [])
    k = min(count, len(deck))
    out, g.decks[kind] = deck[:k], deck[k:]
    counting = g.pack.counting_cards
    if counting:   # a card that enters the game keeps its history counters from now on (4.7)
        for cid in out:
            if cid in counting:
                history.register(g, g.pack.all_cards[cid])
    return out


def draft_phase(g: Game, phase) -> None:
    """One draft: each player gets a packet of each kind of ``phase["kinds"]``; at each pick they keep
    that many cards of every packet in front of them and pass the rest on (left: to the next seat)."""
    n = g.nplayers
    kinds = phase["kinds"]
    step = phase["pass"]
    # 'deal: all' shares the whole deck out evenly (alone: every card)
    sizes = {k: phase["deal"] if phase["deal"] is not None else len(g.decks.get(k, ())) // n for k in kinds}
    packets = [{k: deal(g, k, sizes[k]) for k in kinds} for _ in range(n)]   # packets[seat]
    for pick in phase["picks"]:
        for p in g.turn_order():
            for k in kinds:
                packet = packets[p.idx][k]
                for _ in range(min(pick, len(packet))):
                    cid = g.decide(p, "draft", list(packet))
                    packet.remove(cid)
                    hand_of(p, k).append(cid)
                    if g.log is not None:
                        g.say(f"{p.name} drafts {g.card(cid).name}")
        packets = [packets[(seat - step) % n] for seat in range(n)]   # the packets move on
    if phase["rest"] == "keep":
        for p in g.players:
            for k in kinds:
                hand_of(p, k).extend(packets[p.idx][k])


def redraw(g: Game, p: Player) -> None:
    """The player may give back every card of one kind and get one card fewer of it, until satisfied."""
    while True:
        kinds = [k for k in HAND if hand_of(p, k) and g.decks.get(k)]
        if not kinds:
            return
        pick = g.decide(p, "redraw", ["keep"] + kinds)
        if pick == "keep":
            return
        k = len(hand_of(p, pick))
        setattr(p, HAND[pick], deal(g, pick, k - 1))
        if g.log is not None:
            g.say(f"{p.name} gives back {k} {pick} and draws {k - 1}")


def swaps(g: Game, p: Player, most) -> None:
    """Up to ``most`` times, the player may give back a hand card and draw one of the same kind."""
    for _ in range(most):
        cards = [(cid, k) for k in HAND for cid in hand_of(p, k) if g.decks.get(k)]
        if not cards:
            return
        pick = g.decide(p, "swap", ["keep"] + [cid for cid, _ in cards])
        if pick == "keep":
            return
        kind = dict(cards)[pick]
        hand = hand_of(p, kind)
        hand.remove(pick)
        hand.extend(deal(g, kind, 1))
        if g.log is not None:
            g.say(f"{p.name} gives back {g.card(pick).name} and draws a new card")


def draw_after_play(g: Game, p: Player) -> None:
    """After a card from the hand was played: the player draws a card of the kind they choose."""
    kinds = [k for k in HAND if g.decks.get(k)]
    if not kinds:
        return
    kind = g.decide(p, "draw", kinds)
    hand_of(p, kind).extend(deal(g, kind, 1))


# ---------------------------------------------------------------- deal by card class, the open display


def card_class_matches(card, cls: dict) -> bool:
    """Whether a hand card is of the class ``cls`` of ``deal_by_class``: ``players`` (the number of its
    player filter, 1 for 1+ and for a card without one) and ``passing`` (a minor passed on when played)."""
    if "players" in cls and (card.players or 1) != cls["players"]:
        return False
    if "passing" in cls and bool(card.passing) != cls["passing"]:
        return False
    return True


def deal_again_by_class(g: Game, kind, classes) -> None:
    """The hands of ``kind`` as dealt go back on top of the deck, seat by seat, and are dealt again by
    class (``deal_by_class``); every seat keeps its hand size."""
    sizes = [len(hand_of(p, kind)) for p in g.players]
    deck = [cid for p in g.players for cid in hand_of(p, kind)] + g.decks.get(kind, [])
    hands, g.decks[kind] = deal_by_class(g, kind, deck, classes, sizes)
    for p, hand in zip(g.players, hands):
        setattr(p, HAND[kind], hand)


def deal_by_class(g: Game, kind, deck, classes, sizes) -> tuple:
    """Hands of ``kind`` dealt by class from the shuffled ``deck``: each seat gets ``count`` cards of
    each class, in the order of ``classes``, until its hand size (``sizes[seat]``); a class that runs out
    is made up from the top of the deck, whatever its class. Returns (hands by seat, the deck left)."""
    deck = list(deck)
    hands = []
    for seat in range(g.nplayers):
        hand: list[str] = []
        for cls in classes:
            want = min(cls["count"], sizes[seat] - len(hand))
            picked = [cid for cid in deck if card_class_matches(g.card(cid), cls)][:max(0, want)]
            for cid in picked:
                deck.remove(cid)
            hand.extend(picked)
        short = sizes[seat] - len(hand)
        if short > 0:
            hand.extend(deck[:short])
            deck = deck[short:]
        hands.append(hand)
    return hands, deck


def lay_out_display(g: Game) -> None:
    """The open display: cards of each kind from the top of the decks, face up (``open_display``)."""
    display = g.rules.display
    g.display = {kind: deal(g, kind, display.get(kind, 0)) for kind in HAND}
    if g.log is not None and any(g.display.values()):
        g.say("open display: " + ", ".join(g.card(c).name for k in HAND for c in g.display[k]))


def take_from_display(g: Game, p: Player) -> bool:
    """At a placement: the player may take a card of the open display into their hand instead of placing
    a person (one player a round, request ``display``). True when they took one (the turn is used)."""
    if g.display_round == g.round:
        return False
    cards = [cid for k in HAND for cid in g.display.get(k, ())]
    if not cards:
        return False
    pick = g.decide(p, "display", ["place"] + cards,
                    prompt="take a card of the open display instead of placing a person")
    if pick == "place":
        return False
    kind = next(k for k in HAND if pick in g.display.get(k, ()))
    g.display[kind].remove(pick)
    hand_of(p, kind).append(pick)
    g.display_round = g.round
    if g.rules.display.get("refill"):
        g.display[kind].extend(deal(g, kind, 1))
    if g.log is not None:
        g.say(f"{p.name} takes {g.card(pick).name} from the open display instead of placing a person")
    return True
