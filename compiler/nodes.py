"""The typed tree of the effect language: small node classes with declared fields.

Every node carries the ``span`` of its text in the YAML file, so that the checker and the code
generator can point at it. The parser builds these nodes; the checker fills the resolved fields.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import Span

_NOSPAN = Span("<memory>")


@dataclass
class Node:
    span: Span = field(default=_NOSPAN, repr=False, compare=False, kw_only=True)


# ---------------- expressions and conditions ----------------

@dataclass
class Num(Node):
    value: int


@dataclass
class Quantity(Node):
    """A counted quantity of the acting player or the game: ``rooms``, ``sheep``, ``rounds_left``."""
    name: str


@dataclass
class Call(Node):
    """A function over the state: ``occupied(farmland)``, ``has(#fireplace)``, ``min(a, b)``."""
    name: str
    args: list


@dataclass
class History(Node):
    """A history counter (docs/language.md 4.7): ``done(renovate to clay, game)``, ``first(use #reed, round)``,
    ``gained(wood, round)``. ``event`` is the counted event as a trigger names it (an 'after you …'
    Trigger; for ``use`` without a space its ``spaces`` are empty); ``good`` is what ``gained`` counts;
    ``period`` is a limit's period (game, round, harvest, turn, action) or ``this`` (``done_since``)."""
    fn: str                      # done, done_by_any, done_since, gained, first
    event: "Trigger | None"
    good: str | None
    period: str


@dataclass
class TagRef(Node):
    name: str  # without '#'


@dataclass
class UpTo(Node):
    """``up to 3``, ``up to (unused_spaces)``: an amount the player chooses, from 0 to the limit
    (docs/language.md 4.12 UPN)."""
    limit: Node


@dataclass
class Tier(Node):
    """``tier(x; 1: 1, 4: 2, 7: 3)``: the value of the highest threshold that x reaches, else 0."""
    value: Node
    entries: list  # [(threshold int, result int)]


@dataclass
class ByHouse(Node):
    """``house(wood: 0, clay: 1, stone: 2)``: a value that depends on the house material."""
    entries: list  # [(material str, value int)]


@dataclass
class BinOp(Node):
    op: str  # + - * //
    left: Node
    right: Node


@dataclass
class Neg(Node):
    value: Node


@dataclass
class Compare(Node):
    op: str
    left: Node
    right: Node


@dataclass
class HouseIs(Node):
    material: str
    negated: bool = False


@dataclass
class BoolOp(Node):
    op: str  # and / or
    left: Node
    right: Node


@dataclass
class Not(Node):
    value: Node


@dataclass
class Truthy(Node):
    value: Node


# ---------------- goods ----------------

@dataclass
class GoodsItem(Node):
    """``2 wood``, ``1 food per 3 sheep``, ``(clay // 2) clay``, ``tier(...) food``."""
    good: str
    amount: Node | None = None      # None means 1
    per_quantity: str | None = None  # ``per room``: multiply by the quantity
    per_divisor: int = 1             # ``per 3 sheep``: divide the quantity by 3 first


@dataclass
class PlayersGoods(Node):
    """``players(1: 2 grain; 2: 3 clay; 3+: 2 reed)``: goods that depend on the player count."""
    entries: list  # [(min_players, exact bool, [GoodsItem|...])]


@dataclass
class Goods(Node):
    items: list  # GoodsItem | PlayersGoods


@dataclass
class Ways(Node):
    """``1 wood or 1 clay``: a card's alternative prices, each a whole price (docs/language.md 4.3)."""
    ways: list  # Goods


# ---------------- statements ----------------

@dataclass
class Seq(Node):
    """``a; b``: do each in turn (each only if it can be done)."""
    items: list


@dataclass
class Then(Node):
    """``a then b``: a must be done; afterwards b may be done."""
    items: list


@dataclass
class AndOr(Node):
    """``a and/or b``: at least one of them, in any order."""
    items: list


@dataclass
class May(Node):
    """``may a``: the player may decline."""
    body: Node


@dataclass
class MayPay(Node):
    """``may pay X to a``: an optional purchase; ``pay X to a`` (``optional`` False): a purchase that
    is part of the effect (in an action window, choosing the action is the choice)."""
    price: Goods
    body: Node
    optional: bool = True
    recipient: str | None = None     # 'owner', 'actor', 'start_player': the price goes to that player, not
    # the supply; 'each_other': to every other player, the amounts worked out for each (docs/language.md 4.2)


@dataclass
class Guarded(Node):
    """``a if cond``."""
    body: Node
    cond: Node


@dataclass
class Choose(Node):
    """``choose(a | b)``: exactly one of the possible alternatives."""
    options: list


@dataclass
class Verb(Node):
    """A game action: ``build rooms``, ``plow 1 field``, ``gain 2 wood``, ``schedule ... on ...``."""
    name: str
    goods: Goods | None = None       # gain/pay/schedule/give/return
    goods_out: Goods | None = None   # exchange
    number: int | None = None        # plow 2 fields, fence 1 space
    price: Goods | None = None       # build stable for 1 wood
    free: bool = False               # build fences free
    word: str | None = None          # renovate to <word>, breed <word>, convert <word>
    expr: Node | None = None         # bonus <expr>
    rounds: "RoundSpec | None" = None
    tiers: list | None = None        # convert wood to bonus (3: 1, ...)
    body: Node | None = None         # schedule action (...), for each player (...), claim (...)
    spaces: list | None = None       # move your person from <spaces> to <spaces>: [from, to], each [(name, is_tag, span)]
    fewer: int = 0                   # sow grain with 1 fewer: the amount on each field lowered
    exchanges: list | None = None    # spend up to N <good> on (<exchange>; …): the exchanges (N.Exchange)


@dataclass
class RoundSpec(Node):
    kind: str  # next / next_count / listed / offsets / remaining / even / odd
    numbers: list = field(default_factory=list)
    count: Node | None = None   # next_count: the expression ('next (sheep) rounds')


# ---------------- rules ----------------

@dataclass
class Trigger(Node):
    kind: str             # on_play, after_use, before_use, turn_end_use, after_event, before_event, at_phase, once
    actor: str = "you"    # you / other / any
    spaces: list = field(default_factory=list)  # [(name, is_tag, Span)]
    event: str | None = None
    event_args: dict = field(default_factory=dict)
    phase: str | None = None
    round: int | None = None
    cond: Node | None = None  # for 'once'
    instead: bool = False     # 'instead of <actor> <event>': a before_event whose body replaces the verb
    marked: bool = False      # 'after … use the marked space': the space this card marked (tag 'marked')
    via: list = field(default_factory=list)  # 'convert at one time with a or #b': [(name, is_tag, Span)] (4.1.5)


@dataclass
class Limit(Node):
    times: int
    period: str
    each: bool = False    # '(once per game for each player)': counted for each player whose event it is
    shared: str | None = None   # '(once per turn with #tag)': counted together over the rules naming the tag


@dataclass
class Exchange(Node):
    give: Goods
    get: Goods | None
    at_most: int | None = None
    pile: bool = False               # "-> top of pile": the top good of the card's pile
    period: str | None = None        # '(at most N times per game)': the limit's period (None: per harvest)
    buy_goods: Goods | None = None   # '(others may buy <goods> for <price>)' (docs/language.md 4.9)
    buy_price: Goods | None = None


@dataclass
class Rule(Node):
    kind: str                          # triggered / exchanges / bake / action / modifier
    trigger: Trigger | None = None
    guard: Node | None = None
    limit: Limit | None = None
    body: Node | None = None
    window: str | None = None          # any_time / harvest / feeding / work_phase
    exchanges: list = field(default_factory=list)
    modifier: "Modifier | None" = None


@dataclass
class Modifier(Node):
    kind: str                          # cost_delta, cost_set, cost_substitute, capacity, card_capacity, card_space, house_holds, card_field, card_room, allow, forbid
    targets: list = field(default_factory=list)   # [(word, word|None, Span)]
    goods: list = field(default_factory=list)     # [(signed int, good)]
    words: list = field(default_factory=list)
    expr: Node | None = None
    number: int | None = None
    body: Node | None = None           # card_space: what using the card as an action space does
    limit: Node | None = None          # cost_delta: '(once per round)', one priced unit per period (4.3)


def walk(node):
    """Every node below and including ``node`` (depth first)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Node):
            yield n
            for value in vars(n).values():
                if isinstance(value, (Node, list, tuple)):
                    stack.append(value)
        elif isinstance(n, (list, tuple)):
            stack.extend(x for x in n if isinstance(x, (Node, list, tuple)))


def names_in(trees) -> set:
    """The action spaces and tags that effect trees name: ('id', name) and ('tag', name) pairs, from
    triggers, placement modifiers and the arguments of functions."""
    out = set()
    for node in walk(list(trees)):
        if isinstance(node, Trigger):
            out.update(("tag" if tag else "id", name) for name, tag, _ in node.spaces)
        elif isinstance(node, Modifier) and node.kind in ("use_occupied", "double_placement", "space_fee"):
            out.update(("tag" if tag else "id", name) for name, tag, _ in node.words)
        elif isinstance(node, Verb) and node.spaces:
            out.update(("tag" if tag else "id", name) for group in node.spaces for name, tag, _ in group)
        elif isinstance(node, Verb) and node.name == "take_from_space":
            out.add(("id", node.word_space))
        elif isinstance(node, Call):
            out.update(("id", a.name) for a in node.args if isinstance(a, Quantity))
            out.update(("tag", a.name) for a in node.args if isinstance(a, TagRef))
    return out
