"""Deferred claims (docs/language.md 4.6): a card stakes a claim now that is resolved at a later moment of
the same round, and the verbs that claims (and rules of those moments) need: goods taken off an action
space without using it, and a placed person moved to a free action space whose action it then takes.

A player's claims are kept in ``p.card_state["claims"]`` as ``(round, moment, can, do, condition or None,
label, card id)``, in the order staked, so that copies of the state and replayed games have their own.
Staking a claim makes sure the player has a resolver among the listeners of its moment (after the
player's own rules of that moment, by the firing order of docs/language.md 4.1.4); the resolver runs the
player's claims of that moment and round and spends them. A claim whose moment has passed in its round
(staked after it) lapses. Nothing here names a space or a card.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a cycle at run time: the engine imports this module)
    from .engine import Game

from . import gamelog
from .state import Ctx, Player

MOMENTS = {"work_phase_end": "the end of the work phase", "returning_home": "returning home",
           "round_end": "the end of the round"}


def _resolve(g: Game, p: Player, moment):
    claims = p.card_state.get("claims")
    if not claims:
        return True
    due = [c for c in claims if c[1] == moment and c[0] == g.round]
    p.card_state["claims"] = [c for c in claims if c[0] == g.round and c[1] != moment]   # stale ones lapse
    outer = g.via
    for _round, _moment, can, do, cond, label, source in due:
        ctx = Ctx(actor=p)
        g.via = g.pack.all_cards.get(source) if source is not None else None   # made by the card (event_via)
        if (cond is None or cond(g, p, ctx)) and can(g, p, ctx):
            if g.log is not None:
                g.say(f"{p.name}'s claim is resolved: {label}")
            do(g, p, ctx)
    g.via = outer
    return True


def resolve_work_phase_end(g: Game, p: Player, c=None):
    """The listener that resolves ``p``'s claims at the end of the work phase."""
    return _resolve(g, p, "work_phase_end")


def resolve_returning_home(g: Game, p: Player, c=None):
    """The listener that resolves ``p``'s claims when the people return home."""
    return _resolve(g, p, "returning_home")


def resolve_round_end(g: Game, p: Player, c=None):
    """The listener that resolves ``p``'s claims at the end of the round."""
    return _resolve(g, p, "round_end")


_RESOLVERS = {"work_phase_end": resolve_work_phase_end, "returning_home": resolve_returning_home,
              "round_end": resolve_round_end}


def stake(g: Game, p: Player, moment, can, do, cond, label, ctx=None, source=None):
    """``p`` stakes a claim: ``do`` runs at ``moment`` of this round if ``cond`` (checked then) holds."""
    p.card_state.setdefault("claims", []).append((g.round, moment, can, do, cond, label, source))
    key = f"phase:end_of_round:{g.round}" if moment == "round_end" else f"phase:{moment}"
    entry = (p.idx, _RESOLVERS[moment], "you")
    hooks = g.listeners.setdefault(key, [])
    if entry not in hooks:
        hooks.append(entry)
    if g.log is not None:
        g.say(f"{p.name} stakes a claim: {label}, at {MOMENTS[moment]}")
    return True


def can_take_from_space(g: Game, p: Player, space_id, good=None, ctx=None) -> bool:
    s = g.space_by_id.get(space_id)
    return s is not None and any(n > 0 and (good is None or k == good) for k, n in s.goods.items())


def take_from_space(g: Game, p: Player, space_id, good=None, ctx=None):
    """Take what lies on an action space (only ``good`` of it, if given) without using the space: a gain,
    not a use of the space."""
    from .primitives import gain
    s = g.space_by_id.get(space_id)
    if s is None:
        return False
    items = tuple((k, n) for k, n in s.goods.items() if n > 0 and (good is None or k == good))
    if not items:
        return False
    s = g.own_space(s)
    for k, _ in items:
        s.goods[k] = 0
    if g.log is not None:
        g.say(f"{p.name} takes {gamelog.goods(g, items)} from {gamelog.space_label(g, s)}")
    return gain(g, p, items, None, quiet=True, source=s)


def _matches(s, refs) -> bool:
    return any((s.id == name) if not is_tag else (name in s.tags) for name, is_tag in refs)


def _moves(g: Game, p: Player, sources, targets):
    """The spaces ``p`` may move a person from (one of theirs there) and to (free and usable now)."""
    froms = [s for s in g.spaces if p.idx in s.occupants and _matches(s, sources)]
    if not froms:
        return [], []
    taken = g._groups_taken() if g.grouped else None
    tos = [s for s in g.spaces if not s.occupants and _matches(s, targets)
           and not (taken and s.group in taken) and s.can(g, p, None)]
    return froms, tos


def can_move_person(g: Game, p: Player, sources, targets, ctx=None) -> bool:
    froms, tos = _moves(g, p, sources, targets)
    return bool(froms and tos)


def move_person(g: Game, p: Player, sources, targets, ctx=None):
    """Move one of ``p``'s placed people from a space of ``sources`` to a free space of ``targets`` and take
    that space's action there (a use of the space, with its events); the first space stays free."""
    froms, tos = _moves(g, p, sources, targets)
    if not froms or not tos:
        return False
    src = froms[0]
    if len(froms) > 1:
        src = g.space_by_id[g.decide(p, "place", [s.id for s in froms], prompt="move a person from")]
    dst = g.space_by_id[g.decide(p, "place", [s.id for s in tos], prompt="move the person to")]
    src = g.own_space(src)
    src.writable_occupants().remove(p.idx)
    if g.log is not None:
        g.say(f"{p.name} moves a person from {gamelog.space_label(g, src)}")
    g.use_space(p, dst)
    return True
