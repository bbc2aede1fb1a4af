"""The game log: one line for each thing that happens, in words a player reads.

The verbs in ``primitives`` and the engine call these small helpers; each does nothing when the game
keeps no log (lookahead copies, benchmarks). Every word comes from the pack's data: goods' words from
``good_words``, action spaces and cards by their names (two spaces of the same name, such as two spaces
that both teach an occupation, are told apart by their ids).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from .engine import Game

from .state import Player

from .words import goods_words, plural


def goods(g: Game, items) -> str:
    """Goods ``[(good, n), …]`` in the pack's words ("1 wood, 2 vegetables"), or "nothing"."""
    shown = [(good, n) for good, n in items if n > 0]
    return goods_words(shown, g.rules.good_words) if shown else "nothing"


def space_label(g: Game, space) -> str:
    """A space's name, with its id when another action space of this game has the same name."""
    same = [s for s in g.spaces if s.name == space.name]
    return f"{space.name} [{space.id}]" if len(same) > 1 else space.name


def source_name(g: Game, source) -> str | None:
    """The name of the card behind an effect (None for the pack's own rules)."""
    if source is None:
        return None
    card = g.pack.all_cards.get(source)
    return card.name if card is not None else str(source)


def _card_of_handler(g: Game, handler):
    """The card whose effect ``handler`` is (a map of the pack's handlers, made once per pack)."""
    table = g.pack.handler_cards
    if table is None:
        table = {}
        for cid, card in g.pack.all_cards.items():
            for fn in card.on_play:
                table[fn] = cid
            for key, fn, who in card.listeners:
                table[fn] = cid
            for cond, fn in card.latches:
                table[fn] = cid
        g.pack.handler_cards = table
    return table.get(handler)


def _say_from(g: Game, text, via):
    """A log line naming the card it comes from (a card effect around it will not name its own too)."""
    g.say(text + (f" ({via})" if via else ""))
    if via:
        assert g.log is not None  # (say wrote nothing otherwise, and there is no line to mark)
        g._log_sourced.add(len(g.log) - 1)


def run_card_effect(g, handler, p: Player, ctx):  # g: a Game (also the self of its parts' methods)
    """Run a card's effect; the log lines it writes end with the card's name ("P4 gets 2 food (<card>)")."""
    return from_card(g, _card_of_handler(g, handler), handler, p, ctx)


def from_card(g: Game, source, handler, p: Player, ctx):
    """Run ``handler`` (an effect of the card ``source``, or of the pack's rules when None); the log
    lines it writes end with the card's name (only while the game keeps a log)."""
    log = g.log
    assert log is not None
    start = len(log)
    result = handler(g, p, ctx)
    if len(log) > start:
        name = source_name(g, source)
        marked = g._log_sourced
        for i in range(start, len(log)):
            if i not in marked and name:
                log[i] += f" ({name})"
            marked.add(i)
    return result


class paying_for_an_exchange:
    """While an exchange's price is paid (perhaps through other exchanges, each logged), the payment of
    the price itself is not a line of its own: the exchange's line says what it took."""

    def __init__(self, g):
        self.g = g

    def __enter__(self):
        self.g._exchange_price += 1

    def __exit__(self, *exc):
        self.g._exchange_price -= 1


def paid(g: Game, p: Player, items):
    """``P1 pays 5 wood, 2 reed`` (nothing when the price is nothing)."""
    if g.log is not None and any(n > 0 for good, n in items) and not g._exchange_price:
        g.say(f"{p.name} pays {goods(g, items)}")


def gained(g: Game, p: Player, items, source=None):
    """``P1 gets 1 food``, ``P1 gets 1 food (<card>)`` when a card gives it outside the card's effect (goods
    a card laid on a round's space)."""
    if g.log is not None and any(n > 0 for good, n in items):
        _say_from(g, f"{p.name} gets {goods(g, items)}", source_name(g, source))


def on_card(g: Game, p: Player, card_id, items, how):
    """``P1 puts 2 wood on <card>`` / ``P1 moves 1 boar to <card>`` / ``P1 takes 1 wood from <card>``."""
    if g.log is not None and any(n > 0 for good, n in items):
        word = {"put": "puts", "move": "moves", "take": "takes"}[how]
        where = {"put": "on", "move": "to", "take": "from"}[how]
        g.say(f"{p.name} {word} {goods(g, items)} {where} {source_name(g, card_id)}")


def rounds_words(rounds) -> str:
    """``round 5`` or ``rounds 5, 6, 7``."""
    return ("round " if len(rounds) == 1 else "rounds ") + ", ".join(map(str, rounds))


def exchanged(g: Game, p: Player, give, get, source=None):
    """An exchange: ``P1 cooks 1 sheep into 2 food (<card>)`` or ``P1 turns 1 grain into 1 food``."""
    if g.log is None:
        return
    food = g.rules.goods[0]
    cookable = set(g.rules.animals) | set(g.rules.crops)
    cooks = (source is not None and get != "pile" and all(good == food for good, n in get)
             and all(good in cookable for good, n in give))
    verb = "cooks" if cooks else "turns"
    what = "the top good of the pile" if get == "pile" else goods(g, get)
    via = source_name(g, source)
    _say_from(g, f"{p.name} {verb} {goods(g, give)} into {what}", via)


def bought_instead(g: Game, buyer, owner, items, price, source=None):
    """Another player buys what an exchange took: ``P2 buys 1 grain from P1 for 2 food instead (<card>)``."""
    if g.log is None:
        return
    _say_from(g, f"{buyer.name} buys {goods(g, items)} from {owner.name} for {goods(g, price)} instead",
              source_name(g, source))


def overflow(g: Game, p: Player, animals, food):
    """Animals with no room on the farm: cooked into ``food``, or back to the supply when ``food`` is 0."""
    if g.log is None:
        return
    what = goods(g, animals)
    if food:
        g.say(f"{p.name} has no room for {what} and cooks them into {goods(g, ((g.rules.goods[0], food),))}")
    else:
        g.say(f"{p.name} has no room for {what}; they return to the supply")


def left_on_space(g: Game, p: Player, animals, space):
    """Animals taken from a space that find no room stay on it (a pack's ``arriving_animals``)."""
    if g.log is not None:
        g.say(f"{p.name} has no room for {goods(g, animals)}; they stay on {space.name}")


def bred(g: Game, p: Player, born):
    """``P1's animals breed: +1 sheep, +1 wild boar``; ``born`` lists the animals born."""
    if g.log is not None and born:
        g.say(f"{p.name}'s animals breed: " + ", ".join(f"+{goods(g, ((a, 1),))}" for a in born))


def baked(g: Game, p: Player, parts):
    """Baking: ``P1 bakes 2 grain into 4 food (<card>)``; ``parts`` is [(give, get, source), …]."""
    if g.log is None:
        return
    for give, get, source in parts:
        via = source_name(g, source)
        _say_from(g, f"{p.name} bakes {goods(g, give)} into {goods(g, get)}", via)


BONUS_FROM = "bonus from:"


def bonus_from(p: Player) -> dict:
    """Where ``p``'s bonus points came from: card id ('' for the rules themselves) -> points."""
    return {k[len(BONUS_FROM):]: n for k, n in p.stats.items() if k.startswith(BONUS_FROM)}


def bonus_points(g: Game, p: Player, points, source):
    """Bonus points, remembered by the card they came from (shown under the score table)."""
    if not points:
        return
    key = BONUS_FROM + (source or "")   # a tally in the player's stats: 'bonus from:<card id>'
    p.stats[key] = p.stats.get(key, 0) + points
    if g.log is not None:
        via = source_name(g, source)
        _say_from(g, f"{p.name} gets {plural(points, 'bonus point')}", via)
