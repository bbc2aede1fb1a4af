"""The fields of a game, declared once with their types.

``runtime.engine.Game`` sets them (its ``__init__`` says what each holds); the classes it is made of,
chained on this one (``Decisions`` <- ``CardsInPlay`` <- ``Phases`` <- ``Game``: runtime/decisions.py,
runtime/events.py, runtime/phases.py), read them. Declared here, the type checker knows them in every
one of those classes, and a compiler that lays a class out from its declarations (mypyc) can give the
game fixed fields; docs/architecture.md, "Towards a typed core".
"""
from __future__ import annotations

import random
from collections import deque
from typing import Any

from .state import Player, Space


class GameFields:
    # set-up and rules
    pack: Any
    rules: Any
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
    listeners: dict[str, list]
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
    _replay: deque | None
    _replay_asks: bool
