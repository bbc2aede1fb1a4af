"""Scoring as values (docs/language.md 4.11): the points of each category of the pack's scoring table for
a player, with the cards' changes of scoring applied, and the categories that score negative.

A card changes scoring with modifiers kept in ``p.mods``: ``'score'`` holds (category, 'delta', fn) for
``score of <category>: +N`` and (category, 'floor', None) for ``score of <category> >= 0``;
``'ignore_begging'`` the begging cards discarded before scoring. Nothing here names a category: the
categories and their penalties come from the compiled pack.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from .engine import Game

from .state import Player


def _penalty(g: Game, p: Player, cid) -> int:
    """The points category ``cid`` loses that count as negative even when its total does not go below 0
    (the pack's ``penalty`` of the category: begging cards scored together with the card points)."""
    fn = g.rules.score_penalties.get(cid)
    return fn(g, p) if fn is not None else 0


def category(g: Game, p: Player, cid, points) -> int:
    """The points of category ``cid`` for ``p`` (``points`` as the pack's table counts them), with every
    card's ``score of …: +N`` added, then, for a category held ``>= 0``, no points lost (neither its
    penalty nor anything below 0). The compiled scoring table calls it for each category of a player with
    such changes (``p.mods['score']``: the generated code returns the points itself for the others)."""
    floor = False
    for c, kind, fn in p.mods["score"]:
        if c == cid:
            if kind == "delta":
                points += fn(g, p)
            else:
                floor = True
    if floor:
        points = max(0, points + _penalty(g, p, cid))
    return points


def category_points(g: Game, p: Player) -> dict:
    """Category id -> points of player ``p`` now, the cards' changes included."""
    return {cid: fn(g, p) for cid, _label, fn in g.rules.scoring}


def _floored(p: Player) -> set:
    return {cid for cid, kind, _ in p.mods.get("score", ()) if kind == "floor"}


def score(g: Game, p: Player, cid) -> int:
    """The points of one category for player ``p``, as scoring would count them now."""
    for c, _label, fn in g.rules.scoring:
        if c == cid:
            return fn(g, p)
    return 0


def negative_categories(g: Game, p: Player) -> int:
    """How many categories score negative points for ``p``: below 0, or losing their penalty (a begging
    card makes the category of card points negative even when the cards' points outweigh it). A category
    a card holds ``>= 0`` is not negative."""
    cats = category_points(g, p)
    floored = _floored(p)
    return sum(1 for cid, points in cats.items()
               if cid not in floored and (points < 0 or _penalty(g, p, cid) > 0))


def bonus(g: Game, p: Player, points, ctx=None, source=None):
    """Bonus points for ``p`` (``primitives.bonus``); a loss is also counted apart (``bonus_lost``), since it
    is negative even when other cards' bonus points outweigh it."""
    from .primitives import bonus as add_bonus
    if points < 0:
        p.stats["bonus_lost"] = p.stats.get("bonus_lost", 0) - points
    return add_bonus(g, p, points, ctx, source)


def discard_ignored_begging(g: Game, p: Player) -> bool:
    """At the end of the last harvest (nothing brings begging cards after it), ``p`` discards the begging
    cards their cards let them ignore (``ignore N begging``); earlier harvests change nothing."""
    if g.round != g.last_round:
        return True
    n = min(p.begging, p.mods.get("ignore_begging", 0))
    if n:
        p.begging -= n
        if g.log is not None:
            from .words import plural
            g.say(f"{p.name} discards {plural(n, 'begging card')} before scoring")
    return True
