"""The fields of a game, declared once with their types, and the few accessors every part of the game uses
(a card by id, a space's own copy, a line of the log, the round cards' tags).

``runtime.engine.Game`` sets them (its ``__init__`` says what each holds); the classes it is made of,
chained on this one (``Decisions`` <- ``CardsInPlay`` <- ``Phases`` <- ``Game``: runtime/decisions.py,
runtime/events.py, runtime/phases.py), read them. Declared here, the type checker knows them in every
one of those classes, and a compiler that lays a class out from its declarations (mypyc) can give the
game fixed fields; docs/architecture.md, "Towards a typed core".
"""
from __future__ import annotations

import random
from collections import deque
from typing import Any, Final

from mypy_extensions import mypyc_attr

from .packdata import CardDef, Pack, Rules, SpaceDef
from .state import Player, Space

NEWEST: Final = "newest_round"  # the tag of the current round's card


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools derive from Game
class GameFields:
    # set-up and rules
    pack: Pack
    rules: Rules
    nplayers: int
    seed: Any
    chosen_decks: Any
    setup: Any
    returned: list
    short_hands: dict
    _rng: random.Random | None
    _rng_frozen: random.Random | None
    # the players and the board
    players: list[Player]
    partners: dict[int, int]
    agents: list
    spaces: list[Space]
    space_by_id: dict[str, Space]
    grouped: bool
    early_cards: bool
    major_supply: list
    major_order: dict[str, int]
    tile_supply: dict
    round_order: list[str]
    newest: str | None   # the space mark_newest tagged last; None: look at every space
    decks: dict
    display: dict
    display_round: int
    # where the game is
    round: int
    last_round: int
    start_player: int
    in_work_phase: bool
    phase: Any
    using: Any
    pregame_done: bool
    given_played: bool
    finished: bool
    scores: Any
    # cards in play and their events
    schedule: dict[int, list]
    listeners: dict[str, list[tuple[int, Any, Any]]]   # event -> (seat, handler, whose events: you/other/any)
    counters: dict[str, list]
    snapshots: set
    converted: list
    batches: dict
    latches: list
    animal_set: frozenset
    building_set: frozenset
    space_fees: tuple
    via: Any
    open_windows: frozenset
    accept_optional: bool
    replacing: frozenset
    occupation_fee: tuple | None
    last_paid: Any
    turn_no: int
    action_no: int
    harvest_no: int
    event_seq: int
    event_id: int
    _base_exchanges: list
    # decisions, the log and the game held open
    decisions: int
    record: list | None
    log: list | None
    _log_sourced: set
    _exchange_price: int
    after_decision: Any
    on_step: Any
    pending: Any
    _engine: Any
    _loop_game: Any
    _holder: Any
    _replay: deque | None
    _replay_asks: bool

    # ------------------------------------------------------------------ what every part reads
    def card(self, cid: str) -> CardDef:
        return self.pack.all_cards[cid]

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append("    " + text)

    def own_space(self, s: Space) -> Space:
        """This game's own, writable copy of space ``s`` (the same object unless a state copy shares it):
        every verb that changes a space's goods or occupants asks for it first."""
        s = self.space_by_id[s.id]
        if s.shared:
            mine = s.clone()
            self.spaces[self.spaces.index(s)] = mine
            self.space_by_id[mine.id] = mine
            return mine
        return s

    @staticmethod
    def mark_round_space(space: Space, r):
        """A round card lies on round space ``r``: it is revealed then and carries the tag ``round_<r>``
        (so that a card can refer to "the action on round space 1")."""
        space.round_revealed = r
        space.tags = tuple(space.tags) + (f"round_{r}",)

    def mark_newest(self, space: Space):
        """The round card of the current round is the newest: it alone carries the tag ``newest_round``
        (a card revealed early is not the newest before its round)."""
        # only the space tagged last can carry the tag, unless a space came in with it ('newest' is None then)
        old = self.newest
        for s in (self.spaces if old is None else (self.space_by_id[old],)):
            if NEWEST in s.tags and s.id != space.id:
                self.own_space(s).tags = tuple(t for t in s.tags if t != NEWEST)
        if NEWEST not in space.tags:
            space = self.own_space(space)
            space.tags = tuple(space.tags) + (NEWEST,)
        self.newest = space.id

    def _add_space(self, d: SpaceDef) -> Space:
        s = Space(d, self.nplayers)
        if s.group is not None:
            self.grouped = True
        self.spaces.append(s)
        self.space_by_id[s.id] = s
        if NEWEST in s.tags:   # (a pack's own tag: the next mark_newest looks at every space)
            self.newest = None
        return s


def copy_fields(src: GameFields, dst: GameFields) -> None:
    """Every declared field of ``src`` assigned to ``dst`` (the same objects, not copies): a state copy
    starts from it, and the game held open keeps its two objects in step with it. Written out by name, not
    a loop over the declarations: a compiled game copies each as a fixed field (tests/test_state_clone.py
    checks that none is left out)."""
    dst.pack = src.pack; dst.rules = src.rules; dst.nplayers = src.nplayers; dst.seed = src.seed
    dst.chosen_decks = src.chosen_decks; dst.setup = src.setup; dst.returned = src.returned
    dst.short_hands = src.short_hands; dst._rng = src._rng; dst._rng_frozen = src._rng_frozen
    dst.players = src.players; dst.partners = src.partners; dst.agents = src.agents; dst.spaces = src.spaces
    dst.space_by_id = src.space_by_id; dst.grouped = src.grouped; dst.early_cards = src.early_cards
    dst.major_supply = src.major_supply; dst.major_order = src.major_order; dst.tile_supply = src.tile_supply
    dst.round_order = src.round_order; dst.newest = src.newest; dst.decks = src.decks; dst.display = src.display
    dst.display_round = src.display_round; dst.round = src.round; dst.last_round = src.last_round
    dst.start_player = src.start_player; dst.in_work_phase = src.in_work_phase; dst.phase = src.phase
    dst.using = src.using; dst.pregame_done = src.pregame_done; dst.given_played = src.given_played
    dst.finished = src.finished; dst.scores = src.scores; dst.schedule = src.schedule; dst.listeners = src.listeners
    dst.counters = src.counters; dst.snapshots = src.snapshots; dst.converted = src.converted
    dst.batches = src.batches; dst.latches = src.latches; dst.animal_set = src.animal_set
    dst.building_set = src.building_set; dst.space_fees = src.space_fees; dst.via = src.via
    dst.open_windows = src.open_windows; dst.accept_optional = src.accept_optional; dst.replacing = src.replacing
    dst.occupation_fee = src.occupation_fee; dst.last_paid = src.last_paid; dst.turn_no = src.turn_no
    dst.action_no = src.action_no; dst.harvest_no = src.harvest_no; dst.event_seq = src.event_seq
    dst.event_id = src.event_id; dst._base_exchanges = src._base_exchanges; dst.decisions = src.decisions
    dst.record = src.record; dst.log = src.log; dst._log_sourced = src._log_sourced
    dst._exchange_price = src._exchange_price; dst.after_decision = src.after_decision; dst.on_step = src.on_step
    dst.pending = src.pending; dst._engine = src._engine; dst._loop_game = src._loop_game
    dst._holder = src._holder; dst._replay = src._replay; dst._replay_asks = src._replay_asks
