"""Firing a triggered rule: its limit, counted the moment it fires, and the guard against a rule that
keeps triggering itself.

A limit such as ``(once per round)`` caps how often a rule fires in a period. The firing counts as soon
as the rule starts to resolve, so a rule whose own effect triggers it again (``after you plow (once per
round): may plow 1 field``) does not fire again inside itself beyond its limit. A firing whose body does
nothing (a ``may`` declined) gives its count back.

``(the next time)`` (period ``next``) is spent the first time the rule fires (its trigger and guard hold
and its body is possible), also when its ``may`` is declined.

Periods: ``game`` (never starts again), ``round``, ``harvest`` (from one harvest to the next), ``turn``
(one placement of a person and everything done before and in it) and ``action`` (one use of an action
space or one any-time action). The round start and each harvest begin a new turn and a new action.
The engine keeps the counters ``turn_no``, ``action_no`` and ``harvest_no``.

A rule may be resolving inside itself at most ``MAX_CHAIN`` times (a chain of its own triggers); one
more raises ``RuleLoop`` naming the card, instead of running until the stack overflows.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from .engine import Game

from .state import Player

MAX_CHAIN = 20


class RuleLoop(Exception):
    """A card's rule triggered itself ``MAX_CHAIN`` times in one chain (a card that feeds its own trigger).
    ``where`` is the rule's file:line, ``text`` what happened."""

    def __init__(self, where: str, text: str):
        super().__init__(f"{where}: {text}")
        self.where, self.text = where, text


def period_now(g: Game, period: str) -> int:
    """Which period of its kind the game is in (the same number for the whole period)."""
    if period == "round":
        return g.round
    if period == "turn":
        return g.turn_no
    if period == "action":
        return g.action_no
    if period == "harvest":
        return g.harvest_no
    if period == "event":
        return g.event_id
    return 0  # 'game', 'next'


def limit_count(g: Game, p: Player, rule_id: str, period: str) -> int:
    """How often the rule fired in the current period."""
    used = p.used.get("lim:" + rule_id)
    return used[1] if used is not None and used[0] == period_now(g, period) else 0


def limit_ok(g: Game, p: Player, rule_id: str, period: str, times: int) -> bool:
    return limit_count(g, p, rule_id, period) < times


def could_fire(g: Game, p: Player, c, rule_id, can, period=None, times=0) -> bool:
    """Whether ``fire`` would fire the rule now (its limit not reached, its body possible), without firing."""
    if period is not None and limit_count(g, p, rule_id, period) >= times:
        return False
    return bool(can(g, p, c))


def fire(g: Game, p: Player, c, rule_id, can, do, where, name, period=None, times=0):
    """Fire a rule of a card: None if it cannot apply now (limit reached, nothing possible), True when it
    did something, False when its body was declined. ``rule_id`` is '<card id>:<rule index>'."""
    if period is not None:
        count = limit_count(g, p, rule_id, period)
        if count >= times:
            return None
    if not can(g, p, c):
        return None
    used = p.used
    if period is not None:
        now = period_now(g, period)
        used["lim:" + rule_id] = (now, count + 1)
        if period == "next":  # '(the next time)': spent once it fires, even when its 'may' is declined
            period = None
    open_key = "open:" + rule_id
    depth = used.get(open_key, 0)
    if depth >= MAX_CHAIN:
        raise RuleLoop(where, f"'{name}' ({rule_id.rsplit(':', 1)[0]}) triggered itself {MAX_CHAIN} times in "
                       f"one chain and was stopped: give the rule a limit such as '(once per turn)', or a "
                       f"condition that its own effect ends")
    used[open_key] = depth + 1
    try:
        done = do(g, p, c)
    finally:
        if depth:
            used[open_key] = depth
        else:
            used.pop(open_key, None)
    if done:
        return True
    if period is not None:  # declined: the firing is given back
        back = used.get("lim:" + rule_id)
        if back is not None and back[0] == now and back[1] > 0:
            used["lim:" + rule_id] = (now, back[1] - 1)
    return False
