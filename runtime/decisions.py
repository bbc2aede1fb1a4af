"""Requests and answers: a decision asked of an agent or held open for the caller, the log a replay or a clone
takes its answers from, and the game loop as a greenlet (docs/api.md).

A part of ``runtime.engine.Game``, chained on ``runtime.gamefields.GameFields`` (the fields)."""
from __future__ import annotations

import weakref
from types import MethodType

from greenlet import error as GreenletError, getcurrent, greenlet
from mypy_extensions import mypyc_attr

from .gamefields import GameFields, copy_fields
from .requests import Request, norm
from .state import Player


class IllegalDecision(Exception):
    """An agent answered with something that is not one of the legal options."""


class NoAgent(Exception):
    """A seat without an agent was asked outside a game held open (use ``run`` and ``answer``)."""


class LogMismatch(Exception):
    """A decision log (a save file's, or a clone's) that does not fit this game."""


class GameOver(Exception):
    """An answer was given to a game that has no pending request."""


_PAUSE = object()  # in a replay queue: hold the game at the next request

_MISSING = object()


@mypyc_attr(allow_interpreted_subclasses=True)
class Decisions(GameFields):
    def decide(self, p: Player, kind: str, options, labels=None, prompt=None):
        """A request to ``p``: returns the chosen one of ``options`` (a single option is taken without
        asking). Logged decisions being replayed come first; then the seat's agent answers at once; a
        seat without an agent holds the game open until the caller answers (``run``, ``answer``)."""
        n = len(options)
        if n == 1:
            agent = self.agents[p.idx]
            if agent is not None and getattr(agent, "sees_forced", False):
                agent.forced(self, p, kind, options[0], labels[0] if labels else None)
            return options[0]
        if n == 0:
            raise RuntimeError(f"no legal option for a '{kind}' decision")
        if self.on_step is not None:
            self.on_step(self)
        agent = self.agents[p.idx]
        logged = False
        if self._replay:
            logged = True
            choice = self._take_logged(p, kind, options, labels, prompt, agent)
        elif agent is None:
            choice = self._hold(Request(self, p, kind, options, labels, prompt))
        else:
            choice = agent.choose(self, p, kind, options, labels, prompt)
            if not getattr(agent, "trusted", False) and not any(
                    choice == o and type(choice) is type(o) for o in options):  # True is not the option 1
                raise IllegalDecision(f"{choice!r} is not a legal option for '{kind}'")
        self.decisions += 1
        if self.record is not None:
            self.record.append((p.idx, kind, choice))
            if self.after_decision is not None and not logged:  # a replayed decision is saved already
                self.after_decision(self)
        return choice

    def _take_logged(self, p: Player, kind: str, options, labels, prompt, agent):
        replay = self._replay
        assert replay is not None  # (decide asks only while decisions are being replayed)
        if replay[0] is _PAUSE:  # a clone stops where its original was
            replay.popleft()
            return self._hold(Request(self, p, kind, options, labels, prompt))
        pi, rkind, rec = replay[0]
        where = self.decisions + 1
        if pi != p.idx or rkind != kind:
            raise LogMismatch(f"the log does not fit this game: decision {where} is a '{kind}' request for "
                              f"P{p.idx + 1}, the log has '{rkind}' for P{pi + 1}")
        chosen = _find(options, rec)
        if chosen is _MISSING:
            raise LogMismatch(f"the log does not fit this game: decision {where} ({kind}) was {norm(rec)!r}, "
                              "which is not a legal option here")
        if self._replay_asks and agent is not None:
            mine = agent.choose(self, p, kind, options, labels, prompt)
            if norm(mine) != norm(rec):
                raise LogMismatch(f"the log does not fit this game: at decision {where} the agent of "
                                  f"P{p.idx + 1} answers {norm(mine)!r}, the log has {norm(rec)!r}")
        replay.popleft()
        return chosen

    def _hold(self, request):
        """Switch out of the game loop to the caller with ``request``; returns the caller's answer."""
        engine = self._engine
        if engine is None or getcurrent() is not engine:
            raise NoAgent(f"{request.player.name} has no agent to answer a '{request.kind}' request; "
                          "hold the game open with run() and answer() (docs/api.md), or give every seat an agent")
        self.pending = request
        try:
            return engine.parent.switch(request)
        finally:
            self.pending = None

    def _loop(self, *_) -> None:
        """The game loop that ``run`` starts (runtime/phases.py: the given cards, the pre-game, the rounds)."""
        raise NotImplementedError

    def run(self):
        """Play on until a seat without an agent must answer: returns that pending Request, or None when
        the game is over. Every seat with an agent answers at once, without leaving the game loop (a
        clone's first request too: a clone stops at its original's point even when an agent is to answer)."""
        request = self.pending
        if request is not None:
            agent = self.agents[request.seat]
            if agent is None:
                return request
            # a clone stopped at a request of a seat with an agent: the agent answers it now
            choice = agent.choose(self, request.player, request.kind, request.options, request.given_labels,
                                  request.prompt)
            if not any(choice == o and type(choice) is type(o) for o in request.options):
                raise IllegalDecision(f"{choice!r} is not a legal option for '{request.kind}'")
            return self._switch_in(choice)
        if self.finished:
            return None
        if self._engine is None:
            # The game loop runs on a twin of this object (same state, other identity). A suspended
            # greenlet's frames are invisible to the garbage collector, so if they held this very object,
            # a game abandoned while held open could never be freed; they hold the twin instead, and when
            # the caller's object is freed, so is the holder only it refers to, whose finalizer ends the
            # loop (a compiled game itself has no weak references). The two are kept in step by copying
            # every field across at each switch (_switch_in), not by sharing a __dict__: a compiled game
            # has fixed fields and no __dict__ (docs/architecture.md, "A game held open").
            twin = type(self).__new__(type(self))  # (no __init__: every field is copied in)
            twin._holder = None
            self._engine = greenlet(twin._loop)
            self._loop_game = twin
            self._holder = _Holder()
            weakref.finalize(self._holder, _stop, self._engine)
        return self._switch_in(None)

    def _switch_in(self, value):
        engine = self._engine
        try:
            engine.parent = getcurrent()
        except ValueError:  # greenlets belong to one thread
            raise RuntimeError("a game held open is answered in the thread that started it; to move it, "
                               "save it and restore it there (runtime.savegame)") from None
        twin = self._loop_game
        _sync(self, twin)
        try:
            out = engine.switch(value)
        finally:
            _sync(twin, self)
        return out if isinstance(out, Request) else None

    def answer(self, index: object):   # (not int: a wrong type gets the message below, compiled or not)
        """Answer the pending request with its option number ``index``; returns the next pending
        Request, or None when the game is over. An index that is not an option changes nothing."""
        request = self.pending
        if request is None:
            raise GameOver("the game is over: no request is pending" if self.finished
                           else "no request is pending: call run() first")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(request.options):
            raise IllegalDecision(f"{index!r} is not an option number of this '{request.kind}' request "
                                  f"(0 to {len(request.options) - 1})")
        return self._switch_in(request.options[index])

    def answer_label(self, label: str):
        """Answer the pending request with the option labelled ``label`` (see Request.labels)."""
        request = self.pending
        if request is None:
            return self.answer(0)  # raises GameOver with its message
        try:
            index = request.index_of_label(label)
        except ValueError as exc:
            raise IllegalDecision(str(exc)) from None
        return self.answer(index)

    def view(self, seat=None, everything: bool = False) -> dict:
        """The visible state as JSON data for user interfaces (runtime/view.py; keys in docs/api.md)."""
        from .view import state_view
        return state_view(self, seat, everything)


def _find(options, logged):
    """The option equal to a logged one (as recorded, or as JSON holds it), or _MISSING."""
    for o in options:
        if o == logged and type(o) is type(logged):
            return o
    for o in options:
        if norm(o) == logged:
            return o
    return _MISSING


def _sync(src, dst) -> None:
    """Bring ``dst`` in step with ``src`` (the caller's game and the loop's twin): every field copied, and
    a callback bound to ``src`` (a checking game's ``on_step = self._check``) bound to ``dst`` instead,
    so that inside the loop it reads the state the loop is changing."""
    holder = dst._holder   # the caller's alone (run)
    copy_fields(src, dst)
    own = getattr(src, "__dict__", None)   # what a Python subclass of the game adds (a recording game's list)
    if own:
        dst.__dict__.update(own)
    dst._holder = holder
    for name in _CALLBACKS:
        callback = getattr(dst, name)
        if getattr(callback, "__self__", None) is src:
            setattr(dst, name, MethodType(callback.__func__, dst))


_CALLBACKS = ("on_step", "after_decision")


@mypyc_attr(native_class=False)   # a plain Python object when compiled: it needs weak references
class _Holder:
    """Held by the caller's game only, never by the loop's twin: when it is freed, its finalizer ends the
    game loop (_stop)."""


def _stop(engine) -> None:
    """End a game loop suspended at a request (its game was freed): unwind it with GreenletExit."""
    if not engine.dead:
        try:
            engine.parent = getcurrent()
            engine.throw()
        except (ValueError, GreenletError):  # started in another thread: greenlet unwinds it there
            pass   # (ValueError: a greenlet's parent cannot be set from another thread)
