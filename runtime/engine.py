"""The game loop: set-up, rounds, work phase, returning home, harvest, scoring.

The round structure comes from the pack's data (rounds, stages, harvest rounds, feeding, start goods);
every decision is a request with an enumerable list of options. A seat with an agent has it answered
at once; a seat without one holds the game open: the engine runs as a greenlet and switches back to
the caller with the pending request, and ``answer`` switches in again (docs/api.md, docs/architecture.md).
Same pack, seed and answers give the same game in any process.
"""
from __future__ import annotations

import copy
import random
import weakref
from collections import deque

from greenlet import error as GreenletError, getcurrent, greenlet

from . import primitives as P
from .payments import price_cache_for
from .requests import Request, norm
from .state import Ctx, Player, Space
from . import gamelog, given_setup, pregame
from .words import plural


HARVEST = frozenset(("harvest",))
FEEDING = frozenset(("harvest", "feeding"))


class IllegalDecision(Exception):
    """An agent answered with something that is not one of the legal options."""


class NoAgent(Exception):
    """A seat without an agent was asked outside a game held open (use ``run`` and ``answer``)."""


class LogMismatch(Exception):
    """A decision log (a save file's, or a clone's) that does not fit this game."""


class GameOver(Exception):
    """An answer was given to a game that has no pending request."""


SAME = object()  # clone(agents=SAME): copies of the game's own agents
_PAUSE = object()  # in a replay queue: hold the game at the next request


class Game:
    def __init__(self, pack, nplayers: int, seed: int = 0, agents=None, log: bool = False, decks=None,
                 setup=None):
        rules = pack.rules
        if not rules.min_players <= nplayers <= rules.max_players:
            raise ValueError(f"pack '{pack.id}' is for {rules.min_players} to {rules.max_players} players, not {nplayers}")
        if decks is not None:
            decks = tuple(sorted(set(decks)))
            unknown = [d for d in decks if d not in pack.decks]
            if unknown or not decks:
                raise ValueError(f"pack '{pack.id}' has no deck {', '.join(map(repr, unknown)) or '(none named)'}; "
                                 f"its decks are {', '.join(pack.decks) or 'none'}")
        self.chosen_decks = decks   # the decks hand cards are dealt from; None: every deck of the pack
        self.setup = given_setup.normal(pack, nplayers, setup)  # a set-up given from outside (runtime/given_setup.py)
        self.returned: list = []    # (seat, card id): given occupations whose cost could not be paid
        self.short_hands: dict = {}  # kind -> (dealt each, full hand, cards in the decks) when the decks are short
        self.pack = pack
        self.rules = rules
        self.nplayers = nplayers
        self.seed = seed
        self.rng = random.Random(f"agricola:{seed}")
        self.players = [Player(i, rules) for i in range(nplayers)]
        self.partners = {}          # seat -> the partner's seat, in team play
        for a, b in (rules.teams or {}).get("pairs", ()):
            self.partners[a], self.partners[b] = b, a
        self.agents = list(agents) if agents is not None else [None] * nplayers  # None: a seat held open
        if len(self.agents) != nplayers:
            raise ValueError(f"{len(self.agents)} agents for {nplayers} players")
        self.log = [] if log else None
        self.round = 0
        self.last_round = rules.last_round
        self.start_player = 0
        self.spaces: list[Space] = []
        self.space_by_id: dict[str, Space] = {}
        self.grouped = False        # some space on the board belongs to a group (one person a round)
        self.schedule: dict[int, list] = {}
        self.listeners: dict[str, list] = {}
        self.snapshots: set = set()  # events whose rules in play read 'before(…)': their verbs copy the actor first
        self.converted: list = []    # conversions made inside a payment, announced when it is paid
        self.latches: list = []     # (owner, condition, handler, card id): 'once …' rules not yet fired
        self.animal_set = frozenset(rules.animals)
        self.building_set = frozenset(rules.building)
        self.in_work_phase = False
        self.using = None            # id of the action space being used (the space of its verbs' events)
        self.open_windows = frozenset()  # exchange windows open besides 'any time': harvest, feeding
        self.accept_optional = False     # 'may' effects are taken without asking (a choice needs them)
        self.replacing = frozenset()     # events whose 'instead of' rule is running (primitives.replaced)
        self.decisions = 0
        self.turn_no = self.action_no = self.harvest_no = 0  # periods of rule limits (runtime/firing.py)
        self.record = []            # every decision taken: (player index, kind, option)
        self.after_decision = None  # callback(game) after every recorded decision (saving)
        self.on_step = None         # callback(game) before every decision (invariant checks)
        self.major_supply = list(pack.majors)
        self.tile_supply = {t["id"]: t["supply"] for t in rules.pasture_tiles}  # tiles left, shared
        self.major_order = {cid: i for i, cid in enumerate(pack.majors)}
        self.round_order: list[str] = []
        self.decks: dict = {}           # the shuffled hand cards not dealt, by kind (runtime/pregame.py)
        self.pregame_done = False
        self.given_played = False   # the set-up's occupations are in play (or went back)
        self.display: dict = {}     # kind -> cards of the open display (runtime/pregame.py)
        self.display_round = 0      # the round somebody took a card from the open display
        self.finished = False
        self.scores = None
        self.pending = None         # the Request a held-open game waits for
        self._engine = None         # the greenlet running the game loop (run / answer)
        self._replay = None         # deque of logged decisions to take before asking anyone
        self._replay_asks = False   # during a replay, ask the seat's agent too and check it agrees
        self._base_exchanges = [ex + (None, f"base:{i}") for i, ex in enumerate(rules.exchanges)]
        self._setup()

    # ------------------------------------------------------------------ helpers
    def copy_state(self, agents=None) -> "Game":
        """An independent copy of the game's state only, for one-step lookahead from inside an agent:
        the copy has no game loop of its own (the caller drives it, e.g. ``copy.use_space``) and keeps
        no decision log. The pack and handlers are shared. For a full copy at a request, see ``clone``."""
        # The generator is copied only when a game draws from it (after set-up nothing does, so a
        # lookahead copy never pays for it): the original's is frozen and both copy it on their next draw.
        mine = self.__dict__
        if "rng" in mine:
            mine["_rng_frozen"] = mine.pop("rng")
        g = Game.__new__(Game)
        g.__dict__.update(mine)
        g.players = [p.clone() for p in self.players]
        # The spaces are shared, read-only, until a game writes to one: it then takes its own copy
        # (own_space). A lookahead changes one or two of the board's spaces; copying all was most of this.
        for s in self.spaces:
            if not s.shared:
                s.share()
        g.spaces = list(self.spaces)
        g.space_by_id = dict(self.space_by_id)
        g.schedule = {r: list(v) for r, v in self.schedule.items()}
        g.listeners = {k: list(v) for k, v in self.listeners.items()}
        g.snapshots = set(self.snapshots)
        g.latches = list(self.latches)
        g.major_supply = list(self.major_supply)
        g.decks = {k: list(v) for k, v in self.decks.items()}
        if self.display:
            g.display = {k: list(v) for k, v in self.display.items()}
        g.tile_supply = dict(self.tile_supply)
        g.agents = list(agents) if agents is not None else list(self.agents)
        g.log = None
        g.record = None
        g.after_decision = None
        g.on_step = None
        g.scores = None
        g.pending = None
        g._engine = None
        g._replay = None
        return g

    def own_space(self, s):
        """This game's own, writable copy of space ``s`` (the same object unless a state copy shares it):
        every verb that changes a space's goods or occupants asks for it first."""
        s = self.space_by_id[s.id]
        if s.shared:
            mine = s.clone()
            self.spaces[self.spaces.index(s)] = mine
            self.space_by_id[mine.id] = mine
            return mine
        return s

    def __getattr__(self, name):
        # only for attributes not set: ``rng`` of a game whose generator copy_state froze
        if name == "rng":
            frozen = self.__dict__.get("_rng_frozen")
            if frozen is not None:
                rng = self.__dict__["rng"] = random.Random(0)  # (seeded: Random() would read the system's entropy)
                rng.setstate(frozen.getstate())
                return rng
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def clone(self, agents=SAME) -> "Game":
        """An independent game at the same point: same decisions taken, same pending request (or the
        same end). It is built by replaying the decision log into a fresh game (no agent is asked during
        the replay), so it costs about as much as playing the game so far with agents that answer at
        once (docs/api.md gives measurements). ``agents``: a list (None for a seat held open), or
        by default deep copies of this game's agents in their current state. Only for games played from
        their start through decisions (not for states set up by hand, as scenario files do)."""
        mine = [copy.deepcopy(a) for a in self.agents] if agents is SAME else list(agents)
        g = Game(self.pack, self.nplayers, seed=self.seed, agents=mine, log=self.log is not None,
                 decks=self.chosen_decks, setup=self.setup)
        if self.decisions or self._engine is not None:
            g.replay(self.record).append(_PAUSE)  # stop at the next request, even a seat with an agent's
            g.run()
        return g

    def replay(self, decisions, ask_agents: bool = False):
        """Take these logged decisions (player index, kind, option, as in ``record`` or a save file)
        before asking anyone. With ``ask_agents`` the seat's agent is asked too and must agree (so that
        an agent's own generator advances as in the original game). Returns the queue of decisions not
        taken yet: empty once the game has used them all."""
        self._replay = deque((d[0], d[1], d[2]) for d in decisions)
        self._replay_asks = ask_agents
        return self._replay

    def card(self, cid):
        return self.pack.all_cards[cid]

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append("    " + text)

    def decide(self, p, kind, options, labels=None, prompt=None):
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

    def _take_logged(self, p, kind, options, labels, prompt, agent):
        if self._replay[0] is _PAUSE:  # a clone stops where its original was
            self._replay.popleft()
            return self._hold(Request(self, p, kind, options, labels, prompt))
        pi, rkind, rec = self._replay[0]
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
        self._replay.popleft()
        return chosen

    # ------------------------------------------------------------------ a game held open
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

    def _loop(self, *_):
        if self.round == 0 and given_setup.has_cards(self.setup) and not self.given_played:
            given_setup.play_given_cards(self)
            self.given_played = True
        if self.round == 0 and self.rules.pregame and not self.pregame_done:
            pregame.run(self)
            self.pregame_done = True
        while self.round < self.last_round:
            self.play_round()
        self.finish()

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
            # The game loop runs on a twin of this object sharing its __dict__ (same state, other
            # identity). A suspended greenlet's frames are invisible to the garbage collector, so if they
            # held this very object, a game abandoned while held open could never be freed; they hold the
            # twin instead, and when the caller's object is freed the finalizer ends the loop.
            twin = object.__new__(type(self))
            twin.__dict__ = self.__dict__
            self._engine = greenlet(twin._loop)
            weakref.finalize(self, _stop, self._engine)
        return self._switch_in(None)

    def _switch_in(self, value):
        engine = self._engine
        try:
            engine.parent = getcurrent()
        except ValueError:  # greenlets belong to one thread
            raise RuntimeError("a game held open is answered in the thread that started it; to move it, "
                               "save it and restore it there (runtime.savegame)") from None
        out = engine.switch(value)
        return out if isinstance(out, Request) else None

    def answer(self, index: int):
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

    def emit(self, key: str, actor, ctx=None):
        """Run the listeners of an event in the defined order (docs/language.md, 4.1.4): by seat from
        the actor clockwise, and for one player in the order their cards came into play (a card's rules in
        line order). Listeners added while it runs (a card played by another listener) run after them. A
        listener that could do nothing (it returns None) gets one more chance after the others, so that
        goods one card gives can pay for what another card offers."""
        hooks = self.listeners.get(key)
        if not hooks:
            return
        c = ctx or Ctx(actor=actor)
        retry = []
        fired = False
        n, first = self.nplayers, actor.idx
        done = 0
        while done < len(hooks):
            batch = hooks[done:]
            done = len(hooks)
            if len(batch) > 1 and n > 1:
                batch = sorted(batch, key=lambda h: (h[0] - first) % n)  # stable: play order within a seat
            for owner, handler, who in batch:
                if who == "you" and owner != actor.idx:
                    continue
                if who == "other" and owner == actor.idx:
                    continue
                if self.log is None:
                    result = handler(self, self.players[owner], c)
                else:
                    result = gamelog.run_card_effect(self, handler, self.players[owner], c)
                if result is None:
                    retry.append((owner, handler))
                else:
                    fired = True
        if retry and fired and len(retry) < len(hooks):
            for owner, handler in retry:
                if self.log is None:
                    handler(self, self.players[owner], c)
                else:
                    gamelog.run_card_effect(self, handler, self.players[owner], c)

    def exchanges_of(self, p):
        return self._base_exchanges + p.exchanges

    # ------------------------------------------------------------------ cards in play
    def acquire_card(self, p, card):
        """Put a card's lasting effects into play for ``p`` and run its on-play effects."""
        self.install_card(p, card)
        if card.modifiers and not P.animals_fit(self, p):
            P.settle_animals(self, p)   # a card that lowers a capacity ('capacity of house = 0'): some must go
        self.run_on_play(p, card)
        self.check_latches()

    def check_latches(self):
        """Fire every 'once <condition>' rule whose condition now holds (each fires at most once)."""
        if not self.latches:
            return
        n, first = self.nplayers, self.start_player
        for entry in sorted(self.latches, key=lambda e: (e[0] - first) % n):  # seat order (4.1.4)
            owner, cond, handler, cid = entry
            p = self.players[owner]
            if entry in self.latches and cond(self, p):
                self.latches.remove(entry)
                if self.log is None:
                    handler(self, p, Ctx(actor=p))
                else:
                    gamelog.run_card_effect(self, handler, p, Ctx(actor=p))

    def install_card(self, p, card):
        """Put a card's lasting effects (exchanges, bake rates, listeners, modifiers) into play for ``p``."""
        for give, get, window, at_most in card.exchanges:
            p.exchanges.append((give, get, window, at_most, card.id, f"x:{card.id}:{len(p.exchanges)}"))
        for give, get, at_most in card.bake:
            p.bake_rates.append((give, get, at_most, card.id))
        for key, handler, who in card.listeners:
            self.listeners.setdefault(key, []).append((p.idx, handler, who))
        if card.snapshots:
            self.snapshots.update(card.snapshots)
        for apply in card.modifiers:
            apply(self, p, card)
        if card.modifiers:  # p.mods changed: prices cached for the old ones are void (payments.cost_options)
            p.prices = price_cache_for(p)
        for cond, handler in card.latches:
            self.latches.append((p.idx, cond, handler, card.id))
        for window, can, do, label in card.actions:
            p.actions.append((window, can, do, label, card.id))
        p.turn_abilities = P.has_window_abilities(p)
        p.producible = None

    def run_on_play(self, p, card):
        for handler in card.on_play:
            if self.log is None:
                handler(self, p, Ctx(actor=p, card=card))
            else:
                gamelog.run_card_effect(self, handler, p, Ctx(actor=p, card=card))

    def release_card(self, p, cid):
        """Take a returned card's lasting effects out of play (an upgraded improvement)."""
        p.exchanges = [e for e in p.exchanges if e[4] != cid]
        p.bake_rates = [b for b in p.bake_rates if b[3] != cid]
        p.actions = [a for a in p.actions if a[4] != cid]
        p.turn_abilities = P.has_window_abilities(p)
        p.producible = None
        card = self.card(cid)
        for key, handler, who in card.listeners:
            hooks = self.listeners.get(key, [])
            for i, h in enumerate(hooks):
                if h[0] == p.idx and h[1] is handler:
                    del hooks[i]
                    break
            if not hooks:  # self.listeners names only events someone listens to
                self.listeners.pop(key, None)

    # ------------------------------------------------------------------ set-up
    def _setup(self):
        pack, n = self.pack, self.nplayers
        for d in pack.spaces:
            if n in d.players and d.stage is None:
                self._add_space(d)
        by_stage: dict = {}
        for d in pack.round_cards:
            if n in d.players:
                by_stage.setdefault(d.stage, []).append(d.id)
        order = []
        for stage in sorted(by_stage):
            ids = by_stage[stage]
            self.rng.shuffle(ids)
            order.extend(ids)
        self.round_order = order
        self.start_player = self.rng.randrange(n)
        if self.setup is not None and self.setup["start_player"] is not None:
            self.start_player = self.setup["start_player"]
        first_fn, others_fn = self.rules.start_goods
        for p in self.players:
            fn = first_fn if p.idx == self.start_player else others_fn
            for good, k in fn(self, p):
                p.goods[good] += k
        if self.setup is not None:
            given_setup.add_goods(self)
        self._deal()

    def dealable(self, kind: str) -> list:
        """The hand cards of ``kind`` ('occupations' or 'minors') this game deals from, sorted by id: the
        cards of the chosen decks (every deck of the pack by default); occupations only of those whose
        player filter (1+, 3+, 4+) admits the number of players; never a card a set-up puts in play."""
        decks = self.chosen_decks
        if kind == "occupations":
            given = given_setup.in_play(self.setup)
            return sorted(cid for cid, c in self.pack.cards.items() if c.kind == "occupation"
                          and (c.players or 1) <= self.nplayers and (decks is None or c.deck in decks)
                          and cid not in given)
        return sorted(cid for cid, c in self.pack.cards.items()
                      if c.kind == "minor" and (decks is None or c.deck in decks))

    def _deal(self):
        """Each player gets the pack's hand of each kind from the shuffled dealable cards. When the decks
        hold fewer cards than every player's full hand, everyone gets an equal share of what there is
        (the rest stays in the deck); ``short_hands`` records it as {kind: (dealt each, full hand, cards)}.
        A set-up may give a seat a smaller (or larger) hand (runtime/given_setup.py)."""
        hand = self.rules.hand
        if not hand:
            return
        drafted = {k for phase in self.rules.draft for k in phase["kinds"]}  # dealt by the draft instead
        occs, minors = self.dealable("occupations"), self.dealable("minors")
        self.rng.shuffle(occs)
        self.rng.shuffle(minors)
        sizes = {}   # kind -> hand size of each seat
        for kind, deck in (("occupations", occs), ("minors", minors)):
            full = 0 if kind in drafted else hand.get(kind, 0)
            wanted = [given_setup.hand_size(self.setup, i, kind, full) if full else 0 for i in range(self.nplayers)]
            share = len(deck) // self.nplayers
            sizes[kind] = wanted if sum(wanted) <= len(deck) else [min(k, share) for k in wanted]
            if sizes[kind] != wanted:
                self.short_hands[kind] = (min(sizes[kind]), max(wanted), len(deck))
        for p in self.players:
            k = sizes["occupations"][p.idx]
            p.hand_occupations = occs[:k]
            occs = occs[k:]
            k = sizes["minors"][p.idx]
            p.hand_minors = minors[:k]
            minors = minors[k:]
        self.decks = {"occupations": occs, "minors": minors}

    @staticmethod
    def mark_round_space(space, r):
        """A round card lies on round space ``r``: it is revealed then and carries the tag ``round_<r>``
        (so that a card can refer to "the action on round space 1")."""
        space.round_revealed = r
        space.tags = tuple(space.tags) + (f"round_{r}",)

    def _add_space(self, d):
        s = Space(d, self.nplayers)
        if s.group is not None:
            self.grouped = True
        self.spaces.append(s)
        self.space_by_id[s.id] = s
        return s

    # ------------------------------------------------------------------ the game
    def play(self):
        """Play the game to its end with its agents; returns the score table. A seat without an agent
        raises NoAgent at its first request (the game stays held open there)."""
        request = self.run()
        if request is not None:
            raise NoAgent(f"{request.player.name} has no agent to answer a '{request.kind}' request; "
                          "answer it with answer() (docs/api.md), or give every seat an agent")
        return self.scores

    def play_round(self):
        self.start_round()
        self.work_phase()
        self.returning_home()
        if self.round in self.rules.harvest_rounds:
            self.harvest()
        self.end_round()

    def start_round(self):
        """The preparation phase: next round, its card revealed, scheduled goods collected,
        round-start abilities, accumulation spaces refilled."""
        self.round += 1
        self.turn_no += 1
        self.action_no += 1
        r = self.round
        if self.log is not None:
            self.log.append(f"Round {r}")
        if r - 1 < len(self.round_order):
            d = self.pack.space_defs[self.round_order[r - 1]]
            if d.id not in self.space_by_id:
                s = self._add_space(d)
                self.mark_round_space(s, r)
                if self.log is not None:
                    self.say(f"new action space: {d.name}")
        self.collect_scheduled(r)
        self.check_latches()
        for p in self.turn_order():
            self.emit("phase:round_start", p)
        for s in self.spaces:
            if s.accumulate:
                goods = self.own_space(s).goods
                for good, k in s.accumulate:
                    goods[good] = goods.get(good, 0) + k

    def end_round(self):
        """After returning home (and the harvest): newborns grow up, round tallies reset."""
        for p in self.players:
            p.newborns = 0
            p.stats["building_gained"] = 0
            if "group_meal" in p.stats:
                p.stats["group_meal"] = 0

    def collect_scheduled(self, r):
        """Players take what lies for them on this round's space (goods, or an action to take)."""
        for pi, items, source in self.schedule.pop(r, ()):
            p = self.players[pi]
            if isinstance(items, P.ScheduledAction):
                if items.can(self, p, None):
                    if self.log is None:
                        items.do(self, p, Ctx(actor=p))
                    else:
                        gamelog.from_card(self, source, items.do, p, Ctx(actor=p))
            else:
                gamelog.gained(self, p, items, source)    # before the gain: animals that do not fit are told after it
                P.gain(self, p, items, quiet=True)

    def turn_order(self):
        n = self.nplayers
        return [self.players[(self.start_player + i) % n] for i in range(n)]

    def work_phase(self):
        self.in_work_phase = True
        order = self.turn_order()
        for p in self.players:
            p.home = p.people - p.newborns
            p.stats["building_gained"] = 0
        reverse = self.rules.reverse_passes
        turn = 0
        while True:
            turn += 1
            placed = False
            for p in (order[::-1] if (self.round, turn) in reverse else order):
                if p.home > 0:
                    self.place(p)
                    placed = True
            if not placed:
                break
        self.in_work_phase = False

    def legal_spaces(self, p, only=None):
        shared = p.mods.get("use_occupied") if p.mods else None
        taken = self._groups_taken() if self.grouped else None
        always = P.always  # most spaces can always be used: not called
        if only is None and not shared and not taken:  # the common case, as one comprehension
            return [s.id for s in self.spaces if not s.occupants and (s.can is always or s.can(self, p, None))]
        out = []
        for s in self.spaces:
            if only is not None and not self._matches(s, only):
                continue
            if taken and s.group in taken:
                continue
            if s.occupants:
                if not shared or len(s.occupants) != 1 or s.occupants[0] == p.idx or not self._matches(s, shared):
                    continue
            can = s.can
            if can is always or can(self, p, None):
                out.append(s.id)
        return out

    def _groups_taken(self):
        """The space groups somebody has used this round: a group takes one person a round."""
        taken = None
        for s in self.spaces:
            if s.group is not None and s.occupants:
                if taken is None:
                    taken = set()
                taken.add(s.group)
        return taken

    @staticmethod
    def _matches(space, keys) -> bool:
        for k in keys:
            if k == space.id or (k[0] == "#" and k[1:] in space.tags):
                return True
        return False

    def place(self, p):
        self.turn_no += 1
        if p.turn_abilities:
            self.any_time(p)
        if self.display and pregame.take_from_display(self, p):
            p.home -= 1   # a card of the open display taken instead of placing a person
            if p.home <= 0 and p.turn_abilities:
                self.any_time(p, P.STOP)
            return
        opts = self.legal_spaces(p)
        p.home -= 1
        if not opts:
            self.say(f"{p.name} has no action space to use; the person stays home")
            if p.home <= 0 and p.turn_abilities:
                self.any_time(p, P.STOP)
            return
        sid = self.decide(p, "place", opts)
        space = self.space_by_id[sid]
        self.use_space(p, space)
        double = p.mods.get("double_placement") if p.mods else None
        if double and p.home > 0:
            only = None if self._matches(space, double) else double
            opts = self.legal_spaces(p, only)
            if opts and P.may(self, p, "place another person now"):
                p.home -= 1
                self.use_space(p, self.space_by_id[self.decide(p, "place", opts)])
        if p.home <= 0 and p.turn_abilities:
            self.any_time(p, P.STOP)  # after the player's last placement of the round

    def any_time(self, p, stop="place"):
        """A window in which the player may use abilities (primitives.window_options) before going on:
        before each placement (``stop`` is "place"), after the last one, after breeding, before scoring."""
        while True:
            opts = P.window_options(self, p)
            if not opts:
                return
            pick = self.decide(p, "any_time", [stop] + opts)
            if pick == stop:
                return
            self.action_no += 1
            P.use_window_option(self, p, pick)

    def use_space(self, p, s):
        self.action_no += 1
        s = self.own_space(s)
        s.occupants.append(p.idx)
        if self.log is not None:
            taken = [] if s.takes_goods else [(g, k) for g, k in s.goods.items() if k]
            self.log.append(f"  {p.name} → {gamelog.space_label(self, s)}" +
                            (f" (takes {gamelog.goods(self, taken)})" if taken else ""))
        ctx = Ctx(space=s, actor=p, before=p.clone() if "use" in self.snapshots else None)
        group = self.rules.feeding_group
        if group is not None and group[0] in s.tags:
            p.stats["group_meal"] = p.stats.get("group_meal", 0) + 1
        before, use, end = _space_events(s)
        listeners = self.listeners  # an event nobody listens to costs one look-up
        outer, self.using = self.using, s.id
        for key in before:
            if key in listeners:
                self.emit(key, p, ctx)
        if s.goods and not s.takes_goods:   # a space that offers 'take the goods' hands them out then
            items = tuple((g, k) for g, k in s.goods.items() if k)
            s.goods.clear()
            if items:
                ctx.goods = items
                P.gain(self, p, items, ctx, quiet=True, source=s)  # logged above as "(takes …)"
        if s.use is not None:
            s.use(self, p, ctx)
        if self.partners and self.rules.teams["exchange_tag"] in s.tags:
            P.partner_exchange(self, p, ctx)
        for key in use:
            if key in listeners:
                self.emit(key, p, ctx)
        for key in end:
            if key in listeners:
                self.emit(key, p, ctx)
        self.using = outer
        self.check_latches()

    def returning_home(self):
        if "phase:work_phase_end" in self.listeners:   # every person placed, none home yet
            for p in self.turn_order():
                self.emit("phase:work_phase_end", p)
        for p in self.turn_order():
            self.emit("phase:returning_home", p)
        for s in self.spaces:
            if s.occupants:
                self.own_space(s).occupants.clear()
        self.emit_round_end()

    def emit_round_end(self):
        key = f"phase:end_of_round:{self.round}"
        if key in self.listeners:
            for p in self.turn_order():
                self.emit(key, p)

    # ------------------------------------------------------------------ harvest
    def harvest(self):
        if self.log is not None:
            self.log.append(f"  Harvest after round {self.round}")
        self.open_windows = HARVEST
        order = self.turn_order()
        self.harvest_no += 1
        self.turn_no += 1
        self.action_no += 1
        for p in order:
            for key in [k for k in p.used if k.startswith("x:")]:
                del p.used[key]
            self.emit("phase:harvest_start", p)
        for p in order:
            self.emit("phase:field_phase_start", p)
            taken = {}
            for cell in sorted(p.fields):
                f = p.fields[cell]
                if f[1] > 0:
                    f[1] -= 1
                    taken[f[0]] = taken.get(f[0], 0) + 1
                    if f[1] == 0:
                        f[0] = None
            if taken:
                P.gain(self, p, tuple(taken.items()))
            self.emit("phase:field_phase", p)
        if "phase:feeding_start" in self.listeners:   # before anyone feeds
            for p in order:
                self.emit("phase:feeding_start", p)
        for p in order:
            self.emit("phase:feeding", p)
            self.feed(p)
        for p in order:
            self.emit("phase:breeding", p)
            P.breed(self, p)
        if self.round < self.last_round:  # after the last harvest, the window before scoring follows
            for p in order:
                if p.turn_abilities:
                    self.any_time(p, P.STOP)  # after breeding
        for p in order:
            self.emit("phase:harvest_end", p)
        self.open_windows = frozenset()

    def feeding_need(self, p) -> int:
        per_person, per_newborn = self.rules.feeding
        adult = sum(k for g, k in per_person(self, p) if g == "food")
        baby = sum(k for g, k in per_newborn(self, p) if g == "food")
        if p.mods and "cost" in p.mods:   # 'cost of feeding', 'cost of newborn feeding' (docs/language.md 4.3)
            adult = _food_price(self, p, ("feeding",), adult)
            baby = _food_price(self, p, ("feeding:newborn", "feeding"), baby)
        need = adult * (p.people - p.newborns) + baby * p.newborns
        group = self.rules.feeding_group
        if group is not None:
            # every `people` of the player's people who used a space tagged `tag` this round eat `food`
            # together instead of `people` times the food of one
            tag, people, food = group
            groups = min(p.stats.get("group_meal", 0), p.people) // people
            need -= groups * max(0, people * adult - food)
        return max(0, need)

    def feed(self, p):
        """Feeding: the player may use exchanges and abilities first (primitives.feeding_options), then
        pays; each missing food is a begging card."""
        need = self.feeding_need(p)
        goods = p.goods
        windows, self.open_windows = self.open_windows, FEEDING
        while True:
            opts = P.feeding_options(self, p, fed=goods["food"] >= need)
            if not opts:
                break
            choice = self.decide(p, "feed", ["pay"] + opts)
            if choice == "pay":
                break
            if not isinstance(choice, int):
                self.action_no += 1   # an action window (an exchange is no action)
            P.use_window_option(self, p, choice)
        self.open_windows = windows
        paid = min(goods["food"], need)
        goods["food"] -= paid
        short = need - paid
        if short:
            p.begging += short
            self.say(f"{p.name} feeds the family with {paid} of {need} food and takes {plural(short, 'begging card')}")
        elif self.log is not None:
            self.say(f"{p.name} feeds the family ({gamelog.goods(self, ((self.rules.goods[0], need),))})")

    # ------------------------------------------------------------------ scoring
    def finish(self):
        for p in self.turn_order():
            if p.turn_abilities:
                self.any_time(p, P.STOP)  # before scoring
        for p in self.turn_order():
            self.emit("phase:scoring", p)
        self.scores = [self.score(p) for p in self.players]
        self.finished = True
        return self.scores

    def score(self, p) -> dict:
        cats = {}
        for cid, label, fn in self.rules.scoring:
            cats[cid] = fn(self, p)
        total = sum(cats.values())
        return {"player": p.name, "total": total, "categories": cats, "tie_break": self.rules.tie_break(self, p)}

    def partner_of(self, p):
        """``p``'s partner in team play, or None."""
        i = self.partners.get(p.idx)
        return None if i is None else self.players[i]

    def team_scores(self, scores=None) -> list:
        """In team play, each team's score: its players, and per scoring category the lower of the
        partners' points (``score: lower``) or their sum; the total and tie-break alike. Empty without teams."""
        teams = self.rules.teams
        if not teams:
            return []
        scores = scores or self.scores or [self.score(p) for p in self.players]
        if len(scores) != len(self.partners):   # one farm scored alone (a farm file): no teams to show
            return []
        combine = min if teams["score"] == "lower" else sum
        out = []
        for pair in teams["pairs"]:
            mine = [scores[i] for i in pair]
            cats = {cid: combine(s["categories"][cid] for s in mine) for cid, _label, _fn in self.rules.scoring}
            out.append({"team": "+".join(s["player"] for s in mine), "seats": list(pair),
                        "categories": cats, "total": sum(cats.values()),
                        "tie_break": combine(s["tie_break"] for s in mine)})
        return out

    def ranking(self):
        scores = self.scores or [self.score(p) for p in self.players]
        teams = self.team_scores(scores) if self.rules.teams else None
        if teams:   # a player ranks with the team: the team's total, then its tie-break
            team = {i: t for t in teams for i in t["seats"]}
            return sorted(range(self.nplayers), key=lambda i: (-team[i]["total"], -team[i]["tie_break"],
                                                                 min(team[i]["seats"]), i))
        return sorted(range(self.nplayers), key=lambda i: (-scores[i]["total"], -scores[i]["tie_break"], i))


_MISSING = object()

_SPACE_EVENTS: dict = {}  # (space id, tags) -> the names of the events of using it (strings built once)


def _space_events(s):
    """The events of using space ``s``: before_use, use and turn_end, each for the space and its tags."""
    key = (s.id, s.tags)
    found = _SPACE_EVENTS.get(key)
    if found is None:
        names = (s.id,) + tuple("#" + t for t in s.tags)
        found = _SPACE_EVENTS[key] = tuple(tuple(f"{when}:{n}" for n in names)
                                           for when in ("before_use", "use", "turn_end"))
    return found


def _find(options, logged):
    """The option equal to a logged one (as recorded, or as JSON holds it), or _MISSING."""
    for o in options:
        if o == logged and type(o) is type(logged):
            return o
    for o in options:
        if norm(o) == logged:
            return o
    return _MISSING


def _stop(engine) -> None:
    """End a game loop suspended at a request (its game was freed): unwind it with GreenletExit."""
    if not engine.dead:
        try:
            engine.parent = getcurrent()
            engine.throw()
        except GreenletError:  # started in another thread: greenlet unwinds it there
            pass


def _food_price(g, p, names, food: int) -> int:
    """The food one person eats, with the cards' changes of the cost names ``names`` applied."""
    options = P.cost_options(g, p, names, ((g.rules.goods[0], food),) if food else ())
    return min(sum(n for _, n in price) for price in options)
