"""The game loop: set-up, rounds, work phase, returning home, harvest, scoring.

The round structure comes from the pack's data (rounds, stages, harvest rounds, feeding, start goods);
every decision is a request with an enumerable list of options. A seat with an agent has it answered
at once; a seat without one holds the game open: the engine runs as a greenlet and switches back to
the caller with the pending request, and ``answer`` switches in again (docs/api.md, docs/architecture.md).
Same pack, seed and answers give the same game in any process.

The class is split by concern into classes chained on runtime/gamefields.py (the fields, declared once):
runtime/decisions.py (requests, answers, the game held open), runtime/events.py (events and cards in
play) and runtime/phases.py (rounds, harvest, scoring); this module holds the state, its copies and the
set-up.
"""
from __future__ import annotations

import copy
import random
from collections import deque

from mypy_extensions import mypyc_attr

from . import given_setup, history
from .state import Player
from .decisions import GameOver, IllegalDecision, LogMismatch, NoAgent, _PAUSE  # noqa: F401 (the exceptions are the engine's API)
from .gamefields import copy_fields
from .phases import Phases


SAME = object()  # clone(agents=SAME): copies of the game's own agents


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(Phases):
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
        self.returned = []    # (seat, card id): given occupations whose cost could not be paid
        self.short_hands = {}  # kind -> (dealt each, full hand, cards in the decks) when the decks are short
        self.pack = pack
        self.rules = rules
        self.nplayers = nplayers
        self.seed = seed
        self._rng_frozen = None     # a generator a state copy shares, copied on the first draw (rng)
        self.rng = random.Random(f"agricola:{seed}")
        self.players = [Player(i, rules) for i in range(nplayers)]
        self.partners = {}          # seat -> the partner's seat, in team play
        for a, b in (rules.teams or {}).get("pairs", ()):
            self.partners[a], self.partners[b] = b, a
        self.agents = list(agents) if agents is not None else [None] * nplayers  # None: a seat held open
        if len(self.agents) != nplayers:
            raise ValueError(f"{len(self.agents)} agents for {nplayers} players")
        self.log = [] if log else None
        self._log_sourced = set()  # lines of the log that already name the card they come from (gamelog)
        self._exchange_price = 0    # > 0 while an exchange's price is paid (gamelog.paying_for_an_exchange)
        self.round = 0
        self.last_round = rules.last_round
        self.start_player = 0
        self.spaces = []
        self.space_by_id = {}
        self.grouped = False        # some space on the board belongs to a group (one person a round)
        self.early_cards = False    # some round card on the board was revealed early for one player only
        self.schedule = {}
        self.listeners = {}
        self.counters = {}  # event key -> history counters kept on it (runtime/history.py)
        self.snapshots = set()  # events whose rules in play read 'before(…)': their verbs copy the actor first
        self.converted = []    # conversions made inside a payment, announced when it is paid
        self.batches = {}      # seat -> (conversions, snapshot): conversions at one time under way (4.1.5)
        self.latches = []     # (owner, condition, handler, card id): 'once …' rules not yet fired
        self.animal_set = frozenset(rules.animals)
        self.building_set = frozenset(rules.building)
        self.in_work_phase = False
        self.phase = None            # the phase under way for 'during(…)': work_phase, field_phase, feeding, breeding
        self.using = None            # id of the action space being used (the space of its verbs' events)
        self.space_fees = ()  # (owner, space id or #tag, fee, card id): 'others pay … to owner to use …' (4.9)
        self.via = None              # the card whose rule is running (event_via), None for a space's own action
        self.open_windows = frozenset()  # exchange windows open besides 'any time': harvest, feeding
        self.accept_optional = False     # 'may' effects are taken without asking (a choice needs them)
        self.replacing = frozenset()  # events whose 'instead of' rule is running (primitives.replaced)
        self.occupation_fee = None  # the fee of the occupation action being replaced (play occupation at random)
        self.last_paid = ()              # the last price paid (payments.pay_one_of): a card's price for event_paid
        self.decisions = 0
        self.turn_no = self.action_no = self.harvest_no = 0  # periods of rule limits (runtime/firing.py)
        self.event_seq = self.event_id = 0   # events emitted so far; the one whose rules are running ('per event')
        self.record = []  # every decision taken: (player index, kind, option)
        self.after_decision = None  # callback(game) after every recorded decision (saving)
        self.on_step = None         # callback(game) before every decision (invariant checks)
        self.major_supply = list(pack.majors)
        self.tile_supply = {t["id"]: t["supply"] for t in rules.pasture_tiles}  # tiles left, shared
        self.major_order = {cid: i for i, cid in enumerate(pack.majors)}
        self.round_order = []
        self.newest = None          # the space carrying the tag of the newest round card (mark_newest)
        self.decks = {}           # the shuffled hand cards not dealt, by kind (runtime/pregame.py)
        self.pregame_done = False
        self.given_played = False   # the set-up's occupations are in play (or went back)
        self.display = {}     # kind -> cards of the open display (runtime/pregame.py)
        self.display_round = 0      # the round somebody took a card from the open display
        self.finished = False
        self.scores = None
        self.pending = None         # the Request a held-open game waits for
        self._engine = None         # the greenlet running the game loop (run / answer)
        self._loop_game = None      # the twin the loop runs on, kept in step at each switch (decisions.py)
        self._holder = None         # held by this object only: its finalizer ends the loop (decisions.py)
        self._replay = None  # deque of logged decisions to take before asking anyone
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
        if self._rng is not None:
            self._rng_frozen, self._rng = self._rng, None
        g = Game.__new__(Game)
        copy_fields(self, g)
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
        if self.counters:
            g.counters = {k: list(v) for k, v in self.counters.items()}
        g.snapshots = set(self.snapshots)
        if self.batches:
            g.batches = {k: (list(parts), before) for k, (parts, before) in self.batches.items()}
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
        g._loop_game = None
        g._holder = None
        g._replay = None
        return g

    # ``rng`` is a property, not an attribute looked up through ``__getattr__``: a class with
    # ``__getattr__`` loses CPython's fast attribute access for every attribute of the game (about a tenth
    # of a game's instructions, docs/architecture.md "Speed, session 10").
    @property
    def rng(self) -> random.Random:
        """The game's random generator; a state copy's own copy is made on its first draw."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(0)  # (seeded: Random() would read the system's entropy)
            frozen = self._rng_frozen
            assert frozen is not None  # a state copy sets it when it takes the generator away
            rng.setstate(frozen.getstate())
        return rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

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
        history.register_dealt(self)
        # what is drawn in play (a bag on a card, a card chosen at random) comes from a generator of its own:
        # the set-up's shuffles take more or fewer numbers as the decks grow, and would move every later draw
        self.rng = random.Random(f"agricola:{self.seed}:play")

    def dealable(self, kind: str) -> list:
        """The hand cards of ``kind`` ('occupations' or 'minors') this game deals from, sorted by id: the
        cards of the chosen decks (every deck of the pack by default); occupations only of those whose
        player filter (1+, 3+, 4+) admits the number of players; never a card a set-up puts in play."""
        decks = self.chosen_decks
        given = given_setup.in_play(self.setup) if kind == "occupations" else frozenset()
        key = (kind, self.nplayers, None if decks is None else tuple(decks), given)
        cached = self.pack.dealable_cache.get(key)
        if cached is None:
            if kind == "occupations":
                cached = sorted(cid for cid, c in self.pack.cards.items() if c.kind == "occupation"
                                and (c.players or 1) <= self.nplayers and (decks is None or c.deck in decks)
                                and cid not in given)
            else:
                cached = sorted(cid for cid, c in self.pack.cards.items()
                                if c.kind == "minor" and (decks is None or c.deck in decks))
            self.pack.dealable_cache[key] = cached
        return list(cached)

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
