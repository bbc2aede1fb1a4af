"""Game state: players, their farms and supplies, the board's action spaces.

The state is plain data; the verbs that change it live in ``primitives`` and the round structure in
``engine``. Nothing here names an action space, a card or an edition: those come from the compiled pack.
"""
from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from .farm import grid, iter_bits, popcount
from .packdata import SpaceDef


# The fields of a player and of a space, by name: the classes' slots, and readable when the classes are
# compiled (mypyc keeps no __slots__); clone() assigns each, tests/test_state_clone.py checks none is left out.
PLAYER_FIELDS = (
    "idx", "name", "goods", "grid", "house", "rooms", "room_count", "fields", "field_mask", "pastures",
    "stables", "fences", "tile_pastures", "people", "newborns", "home", "begging", "bonus", "majors", "minors",
    "occupations", "hand_occupations", "hand_minors", "exchanges", "bake_rates", "mods", "used",
    "card_rooms", "card_state", "extra_capacity", "stats", "actions",
    "turn_abilities", "producible", "prices",
)
# An exchange open to a player: (goods taken, goods given, window, at most, the card it is on or None, its
# key), as Game.exchanges_of lists them. Typed as a tuple of six, a compiled runtime unpacks it directly.
Exchange = tuple[Any, Any, Any, Any, Any, Any]


class ExchangeIndex:
    """What a player's exchanges can make, worked out once (payments._index) and kept in ``p.producible``
    until the player's cards or piles change: the goods made (``made``; a pile: the goods on it), good ->
    the exchanges making it (``index``, indices in Game.exchanges_of), the exchanges giving a pile's top
    (``piles``), the keys of the limited exchanges (``limited``), the answers remembered for them
    (``memo``: payments._can_make, _in_cycle and _weights_now) and the goods some exchange takes (``taken``, sorted)."""

    __slots__ = ("made", "index", "piles", "limited", "memo", "taken")

    def __init__(self, made: frozenset, index: dict[str, list[int]], piles: tuple[int, ...],
                 limited: tuple[str, ...], memo: dict, taken: tuple[str, ...]):
        self.made, self.index, self.piles, self.limited, self.memo, self.taken = made, index, piles, limited, memo, taken


SPACE_FIELDS = ("id", "name", "defn", "goods", "occupants", "use", "can", "accumulate", "tags", "stage",
                "round_revealed", "takes_goods", "group", "shared", "early")


class Player:
    __slots__ = PLAYER_FIELDS

    def __init__(self, idx: int = 0, rules=None):
        if rules is None:  # an empty player for clone() to fill (a compiled class runs __init__ in __new__)
            return
        self.idx = idx
        self.name = f"P{idx + 1}"
        self.goods = {g: 0 for g in rules.goods}
        self.grid = grid(rules.rows, rules.cols)
        self.house = rules.materials[0]
        self.rooms = 0
        for cell in rules.start_rooms_cells:
            self.rooms |= 1 << cell
        self.room_count = popcount(self.rooms)
        self.fields: dict[int, list] = {}   # cell -> [crop or None, count]
        self.field_mask = 0
        self.pastures: tuple = ()             # sorted tuple of space masks
        self.stables = 0
        self.fences = 0                       # edge mask
        self.tile_pastures: tuple = ()        # pasture tiles laid: sorted (space mask, tile id) pairs
        self.people = rules.start_people
        self.newborns = 0
        self.home = 0
        self.begging = 0
        self.bonus = 0
        self.majors: list[str] = []
        self.minors: list[str] = []
        self.occupations: list[str] = []
        self.hand_occupations: list[str] = []
        self.hand_minors: list[str] = []
        self.exchanges: list = []   # (give, get, window, at_most, source id, key)
        self.bake_rates: list = []  # (give, get, at_most, source id)
        self.mods: dict = {}        # modifier kind -> list
        self.used: dict = {}        # limit key -> times used in the current period
        self.card_rooms = 0         # people housed on cards
        self.card_state: dict = {}
        self.extra_capacity = 0     # added to every pasture
        self.stats: dict = {}
        self.actions: list = []     # any-time actions from cards: (window, can, do, label, source id)
        self.turn_abilities = False  # has any-time abilities offered before a placement
        self.producible: ExchangeIndex | None = None  # what the player's exchanges make (payments._index), or None
        self.prices: dict | None = {}  # payments.cost_options' cache; None: not cached (see there)

    def clone(self) -> "Player":
        """An independent copy (functions and immutable parts are shared). Every slot is assigned here by
        name, not in a loop over __slots__: a lookahead agent copies the state for every option it tries,
        and the loop was most of that time (tests/test_state_clone.py checks that no slot is left out)."""
        q = Player.__new__(Player)
        q.idx, q.name, q.grid, q.house = self.idx, self.name, self.grid, self.house
        q.goods = dict(self.goods)
        q.rooms, q.room_count, q.field_mask = self.rooms, self.room_count, self.field_mask
        q.fields = {k: list(v) for k, v in self.fields.items()}
        q.pastures, q.stables, q.fences, q.tile_pastures = self.pastures, self.stables, self.fences, self.tile_pastures
        q.people, q.newborns, q.home, q.begging, q.bonus = self.people, self.newborns, self.home, self.begging, self.bonus
        q.majors, q.minors, q.occupations = list(self.majors), list(self.minors), list(self.occupations)
        q.hand_occupations, q.hand_minors = list(self.hand_occupations), list(self.hand_minors)
        q.exchanges, q.bake_rates, q.actions = list(self.exchanges), list(self.bake_rates), list(self.actions)
        q.mods = {k: (list(v) if isinstance(v, list) else v) for k, v in self.mods.items()}
        q.used, q.stats = dict(self.used), dict(self.stats)
        q.card_rooms, q.extra_capacity = self.card_rooms, self.extra_capacity
        q.card_state = _deep(self.card_state)
        q.turn_abilities, q.producible = self.turn_abilities, self.producible
        q.prices = self.prices  # shared: valid for both until one of them changes its mods (cost_options)
        return q

    # ----- derived views
    def fenced_mask(self) -> int:
        m = 0
        for pm in self.pastures:
            m |= pm
        return m

    def tile_mask(self) -> int:
        """The spaces under pasture tiles."""
        m = 0
        for pm, _ in self.tile_pastures:
            m |= pm
        return m

    def pasture_mask(self) -> int:
        """The spaces of every pasture, fenced or a tile."""
        return self.fenced_mask() | self.tile_mask()

    def used_mask(self) -> int:
        return self.rooms | self.stables | self.field_mask | self.fenced_mask() | self.tile_mask()

    def to_dict(self) -> dict:
        gr = self.grid
        return {
            "name": self.name,
            "goods": dict(self.goods),
            "house": self.house,
            "rooms": [gr.name(i) for i in iter_bits(self.rooms)],
            "fields": {gr.name(c): ([f[0], f[1]] if f[1] else None) for c, f in sorted(self.fields.items())},
            "pastures": [gr.mask_names(m) for m in self.pastures],
            "stables": [gr.name(i) for i in iter_bits(self.stables)],
            "fences": popcount(self.fences),
            **({"pasture_tiles": {gr.mask_names(m): t for m, t in self.tile_pastures}} if self.tile_pastures else {}),
            "people": self.people,
            "begging": self.begging,
            "bonus": self.bonus,
            "majors": list(self.majors),
            "minors": list(self.minors),
            "occupations": list(self.occupations),
        }


def _deep(value):
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v) for v in value]
    return value


def _refuse_write(self, *args, **kwargs):
    raise TypeError("the goods of a shared space are read-only: write to Game.own_space(space)")


@mypyc_attr(native_class=False)  # a builtin's subclass stays a Python class when compiled (mypyc)
class SharedGoods(dict):
    """The goods of a space shared by a state copy and its original (Game.copy_state): read-only, so that
    a verb that writes to a space without asking for the game's own copy first (Game.own_space) fails
    instead of changing the other game."""

    __slots__ = ()

    __setitem__ = _refuse_write
    __delitem__ = _refuse_write
    __ior__ = _refuse_write
    clear = _refuse_write
    pop = _refuse_write
    popitem = _refuse_write
    setdefault = _refuse_write
    update = _refuse_write


class Space:
    """An action space on the board this game (board space or revealed round card). A ``shared`` space
    belongs to a state copy and its original at once and is read-only (see Game.copy_state)."""

    __slots__ = SPACE_FIELDS

    def __init__(self, defn: SpaceDef | None = None, nplayers: int = 0):
        if defn is None:  # an empty space for clone() to fill (as Player's)
            return
        self.id = defn.id
        self.name = defn.name
        self.defn = defn
        self.goods: dict[str, int] = {}
        self.occupants: list[int] | tuple[int, ...] = []  # a tuple while shared (share)
        variant = defn.for_players(nplayers)
        self.use = variant.use
        self.can = variant.can
        self.accumulate = variant.accumulate
        self.tags = defn.tags
        self.stage = defn.stage
        self.round_revealed: int | None = None
        self.takes_goods = defn.takes_goods
        self.group = defn.group
        self.shared = False
        self.early: int | None = None   # a round card revealed early for one seat only: that seat (others wait for its round)

    def clone(self) -> "Space":
        """An independent, writable copy (every slot assigned by name, as in Player.clone)."""
        s = Space.__new__(Space)
        s.id, s.name, s.defn, s.use, s.can, s.accumulate = self.id, self.name, self.defn, self.use, self.can, self.accumulate
        s.tags, s.stage, s.round_revealed, s.takes_goods = self.tags, self.stage, self.round_revealed, self.takes_goods
        s.group, s.early = self.group, self.early
        s.goods = dict(self.goods)
        s.occupants = list(self.occupants)
        s.shared = False
        return s

    def writable_occupants(self) -> list[int]:
        """The occupants, to be changed: a list on a space this game owns (``own_space``); a shared space's
        are a tuple, and asking for them to change is a bug."""
        occupants = self.occupants
        assert isinstance(occupants, list), "a shared space is read-only: change the game's own_space copy"
        return occupants

    def share(self) -> None:
        """Make this space read-only, to be shared by two games (its goods and occupants cannot change)."""
        self.goods = SharedGoods(self.goods)
        self.occupants = tuple(self.occupants)
        self.shared = True


class Ctx:
    """What an effect is running for: the space used, the card, the player who caused it (the actor),
    and the payload of the event a rule reacts to: ``data`` (its size, or the materials of a renovation),
    ``goods`` (goods it moved to the actor), ``before`` (a copy of the actor taken just before the verb,
    only when a rule in play reads it) and ``owner`` (the card's owner, while a body runs for another
    player), ``paid`` (goods it took from the actor) and ``via`` (the card it was made with); ``aside``: in a
    scheduled action, the pieces that were set aside for it on the round's space, ((piece, count),)."""

    __slots__ = ("space", "card", "actor", "event", "data", "goods", "before", "owner", "paid", "via", "fields",
                 "cells", "parts", "aside")

    def __init__(self, space=None, card=None, actor=None, event=None, data=None, goods=None, before=None,
                 owner=None, paid=None, via=None, fields=None, cells=0, parts=None, aside=()):
        self.space = space
        self.card = card
        self.actor = actor
        self.event = event
        self.data = data
        self.goods = goods
        self.before = before
        self.owner = owner
        self.paid = paid    # goods the event took from the actor (given up in a conversion)
        self.via = via      # the card the event was made with (the exchange's card)
        self.fields = fields  # the fields (keys of Player.fields) a sowing sowed
        self.cells = cells    # the farmyard spaces the event built on, a bit mask (the new stables)
        self.parts = parts    # conversions at one time: (given, got, card id or None) each (docs/language.md 4.1.5)
        self.aside = aside    # the pieces set aside for a scheduled action (set_aside(fences))

    def leave(self, items) -> bool:
        """Goods left on the space just used ('return … to the space') are no longer goods the use brought:
        the rules that fire after it read the rest (``event_goods``)."""
        if self.goods:
            left = dict(items)
            self.goods = tuple((good, max(0, n - left.get(good, 0))) for good, n in self.goods)
        return True
