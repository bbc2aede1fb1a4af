"""Stage 4: check the parsed effects against the pack: names of goods, action spaces, tags, cards,
quantities and functions; arity; where each construct may appear; per-player-count coverage.

The result is a ``CheckedPack``: plain settings plus parsed, checked trees, ready for code generation.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from runtime import queries as Q

from . import nodes as N
from .diagnostics import Report, Span, did_you_mean
from .loader import LDict
from .packs import PackSource
from .parser import parse

# every verb has 'before' rules except a gain (goods arrive from everywhere, often in the middle of a verb)
EVENTS_WITH_BEFORE = set(Q.EVENTS) - {"use", "gain", "convert", "convert_batch", "harvest"}
# events whose words are not their names with spaces
EVENT_NAMES = {"convert_batch": "convert at one time"}
# words of 'upgrade_of' for any card of a kind (a minor's price: 'upgrade_of: [improvement]', 4.8)
UPGRADE_KINDS = ("improvement", "major", "minor")
# verbs whose 'instead of' rules the runtime offers (primitives.replaced; docs/language.md 4.1.3)
INSTEAD_EVENTS = {"plow", "sow", "bake", "build_rooms", "build_stables", "build_fences", "renovate", "family_growth",
                  "play_minor", "build_improvement", "play_occupation"}
EVENT_TRIGGERS = ("after_use", "before_use", "turn_end_use", "after_event", "before_event")
COST_TARGETS = {"room", "renovation", "stable", "fence", "improvement", "major", "minor", "occupation", "feeding"}
# capacity names (docs/language.md 4.3); 'pasture_of_size' is written 'pasture of N spaces'
CAPACITY_TARGETS = {"pasture", "pasture_with_stable", "pasture_of_size", "pasture_without_stable",
                    "pasture_of_size_without_stable", "stable", "one_stable", "animal_card", "house", "family",
                    "fences", "stables"}
CAPACITY_WORDS = {"pasture_with_stable": "pasture with stable", "pasture_of_size": "pasture of N spaces",
                  "pasture_without_stable": "pasture without stable",
                  "pasture_of_size_without_stable": "pasture of N spaces without stable", "one_stable": "one stable",
                  "animal_card": "animal card"}
# the names whose animals may be of different kinds together ('capacity of …: mixed'); the house's are already
MIXED_TARGETS = {"pasture", "pasture_with_stable", "pasture_of_size", "pasture_without_stable",
                 "pasture_of_size_without_stable", "stable", "one_stable"}
# the names whose places may hold more of one kind of animal ('capacity of pasture: +2 sheep')
KIND_TARGETS = MIXED_TARGETS | {"animal_card"}
# the modifiers that may hold only while a condition does ('<modifier> while <condition>', docs/language.md 4.3)
WHILE_MODIFIERS = {"cost_delta", "capacity", "sowing_more", "breeding_more", "as_minor", "card_room", "allow", "forbid"}
RULE_SWITCHES = {"allow": {"renovate_skip"}, "forbid": {"renovation"}}
ARG_KINDS = {"space", "card", "number", "player_value", "goods", "space_or_tag", "category", "source", "animal", "piece"}
# what reads the scoring table itself (docs/language.md 4.11): refused inside the table's own points
SCORE_READERS = {"score", "score_negative"}
MAX_WORK = 10_000   # steps one rule may take when it runs once (docs/limits.md)


@dataclass
class Unit:
    """One compiled thing: an action space, a round card, an improvement, a card, or the game frame."""

    kind: str          # space / round / major / card / game
    id: str
    entry: object      # the located YAML entry
    src: Span
    data: dict = field(default_factory=dict)


@dataclass
class CheckedPack:
    id: str
    source: PackSource
    game: dict
    spaces: list
    rounds: list
    majors: list
    cards: list
    symbols: "Symbols"


class Symbols:
    """Every name the effects of a pack may use."""

    def __init__(self, src: PackSource, game: dict):
        goods = game["goods"]
        self.food = goods["food"]
        self.crops = list(goods["crops"])
        self.building = list(goods["building"])
        self.animals = list(goods["animals"])
        self.goods = [self.food] + self.crops + self.building + self.animals
        self.materials = list(game["materials"])
        # the schema stage has removed every value of the wrong type: an id here is text, tags a list of text
        self.spaces = {e["id"] for e in src.spaces + src.rounds if "id" in e}
        self.space_tags = {t for e in src.spaces + src.rounds for t in e.get("tags", ())}
        # a round card on round space r carries the tag round_<r> (see runtime Game.mark_round_space)
        self.rounds = int(game.get("rounds", 0))
        self.max_fences = int(game.get("max_fences", 15))   # the fences of a player's supply
        self.space_tags |= {f"round_{r}" for r in range(1, self.rounds + 1)}
        # a space a card marked ('mark an action space') carries the tag marked (runtime primitives/board.py)
        self.space_tags.add("marked")
        # the round card of the current round carries the tag newest_round (runtime Game.mark_newest)
        self.space_tags.add("newest_round")
        self.cards = {e["id"] for e in src.majors + src.cards if "id" in e}
        self.majors = {e["id"] for e in src.majors if "id" in e}
        self.major_tags = {t for e in src.majors for t in e.get("tags", ())}
        self.card_tags = {t for e in src.majors + src.cards for t in e.get("tags", ())}
        # A table that misses what the schema rejected (an id, some tags) cannot tell that a name is unknown:
        # the rejected value is reported already, and a name it held must not give a second message.
        self.uncertain = set()
        for names, tags, entries in (("spaces", "space_tags", src.spaces + src.rounds),
                                     ("cards", "card_tags", src.majors + src.cards)):
            if any("id" not in e for e in entries):  # also an entry or a file that could not be read
                self.uncertain.update((names, tags))
            if any("tags" in getattr(e, "dropped", ()) for e in entries):
                self.uncertain.add(tags)
        # a card whose kind the schema rejected (or that could not be read) may be an occupation
        self.uncertain_kinds = any("id" not in e or "kind" in getattr(e, "dropped", ()) for e in src.cards)
        self.min_players, self.max_players = game["players"]
        self.occupations = {e["id"] for e in src.cards if "id" in e and e.get("kind") == "occupation"}
        self.quantities = dict(Q.QUANTITIES)
        table = src.game.get("scoring") if hasattr(src.game, "get") else None
        self.score_categories = [str(c["id"]) for c in (table if isinstance(table, list) else ())
                                 if isinstance(c, dict) and isinstance(c.get("id"), str)]

    def knows(self, table: str, name) -> bool:
        """Whether ``name`` is in the table (``spaces``, ``space_tags``, ``cards``, ``card_tags``), or may be."""
        return name in getattr(self, table) or table in self.uncertain


class Checker:
    def __init__(self, symbols: Symbols, report: Report):
        self.sym = symbols
        self.report = report
        self.counts = list(range(symbols.min_players, symbols.max_players + 1))  # player counts in scope
        self.card_id = None  # the card being checked ('this' refers to it)
        self.card_kind = None  # its kind: major, minor or occupation
        self.up_to_ok = False  # goods being checked may have an 'up to' amount (move … to this card)
        self.trigger = None  # the trigger of the rule being checked (None: no event is running)
        self.scheduled = 0   # > 0 inside 'schedule action (…)': it runs later, in a round's start
        self.set_aside = None  # inside 'schedule action (…) on … with N <piece> set aside': that piece
        self.claim_moment = None  # inside 'claim (…) at …': the moment it is resolved (no event is running then)
        self.each_player = 0  # > 0 inside 'for each player (…)': it runs for players who do not own the card
        self.nobody_placed = None  # when the rule being checked runs while no person is on any space, in words
        self.for_other = 0   # > 0 inside 'for actor (…)' or 'for each other player (…)': 'owner' is someone else
        self.score_table = False  # checking game.yaml's scoring table, which score(…) and score_negative read

    def err(self, code, message, span, hint=None):
        self.report.error(code, message, span, hint)

    # ------------------------------------------------------------ goods
    def good(self, name, span, allow_material=False) -> bool:
        if name in self.sym.goods or (allow_material and name == "material"):
            return True
        cands = list(self.sym.goods) + (["material"] if allow_material else [])
        self.err("E203", f"unknown good '{name}'{did_you_mean(name, cands)}", span)
        return False

    def goods(self, node: N.Goods, allow_material=False, constant=False, what="goods"):
        for it in node.items:
            if isinstance(it, N.PlayersGoods):
                self.players_goods(it, allow_material, constant)
                continue
            self.good(it.good, it.span, allow_material)
            if isinstance(it.amount, N.UpTo):
                # chosen by the player: in 'move … to this card', one good alone (docs/language.md 4.12 UPN)
                if not (self.up_to_ok and len(node.items) == 1 and not it.per_quantity):
                    self.err("E300", "an 'up to' amount is chosen by the player in 'move … to this card', for one "
                             "good alone (missing feature: 'up to' amounts here, docs/language.md 4.12 UPN)",
                             it.amount.span)
                else:
                    self.expr(it.amount.limit)
                continue
            if it.amount is not None:
                if constant and not isinstance(it.amount, N.Num):
                    self.err("E216", f"{what} must be plain numbers here", it.amount.span)
                else:
                    self.expr(it.amount)
            if it.per_quantity:
                if constant:
                    self.err("E216", f"{what} must be plain numbers here", getattr(it, "per_span", it.span))
                it.per_quantity = self.quantity_name(it.per_quantity, getattr(it, "per_span", it.span))
                if it.per_quantity in Q.CONTEXT_QUANTITIES:   # '1 food per 2 event_size': only in an event's rule
                    self.event_quantity(N.Quantity(it.per_quantity, span=getattr(it, "per_span", it.span)))
                if it.per_divisor <= 0:
                    self.err("E215", "'per' needs a number greater than 0", getattr(it, "per_span", it.span))

    def players_goods(self, node: N.PlayersGoods, allow_material, constant):
        covered = set()
        lo, hi = self.sym.min_players, self.sym.max_players
        for n, exact, goods, span in node.entries:
            if not 1 <= n <= hi:
                self.err("E213", f"player count {n} is outside this pack's {lo} to {hi} players", span)
                continue
            counts = {n} if exact else set(range(n, hi + 1))
            if counts & covered:
                self.err("E213", f"players({n}{'' if exact else '+'}) repeats a player count", span)
            covered |= counts
            self.goods(goods, allow_material, constant)
        missing = [k for k in self.counts if k not in covered]
        if missing:
            self.err("E213", f"players(...) gives nothing for {', '.join(map(str, missing))} "
                     f"player{'s' if missing != [1] else ''}", node.span,
                     "add an entry such as '" + f"{missing[0]}: 1 food" + "' or use 'N+' for N players and more")

    # ------------------------------------------------------------ expressions
    def quantity_name(self, name, span) -> str:
        canonical = Q.ALIASES.get(name, name)
        if canonical in self.sym.quantities or canonical in Q.CONTEXT_QUANTITIES or canonical in Q.OWNER_QUANTITIES:
            return canonical
        known = list(self.sym.quantities) + list(Q.ALIASES) + list(Q.CONTEXT_QUANTITIES) + list(Q.OWNER_QUANTITIES)
        self.err("E204", f"unknown quantity '{name}'{did_you_mean(name, known)}", span)
        return name

    def expr(self, node):
        if isinstance(node, N.Num):
            return  # the parser has checked the limit of every number
        if isinstance(node, N.Quantity):
            node.name = self.quantity_name(node.name, node.span)
            if node.name in Q.CONTEXT_QUANTITIES:
                self.event_quantity(node)
            if node.name in SCORE_READERS and self.score_table:
                self.score_reader(node.name, node.span)
            if node.name in Q.OWNER_QUANTITIES and not (self.for_other or self.each_player):
                self.err("E212", f"'{node.name}' asks whether the player running a body owns this card: it belongs "
                         "inside 'for actor (…)', 'for each … player (…)' or the body of 'this card is an action "
                         "space'", node.span)
            return
        if isinstance(node, N.TagRef):
            self.err("E206", "a #tag can only be an argument of has(...)", node.span)
            return
        if isinstance(node, N.Call):
            self.call(node)
            return
        if isinstance(node, N.History):
            self.history(node)
            return
        if isinstance(node, N.Tier):
            self.expr(node.value)
            last = None
            for k, v, span in node.entries:
                if not isinstance(k, int):
                    self.err("E214", f"tier thresholds must be numbers, not '{k}'", span)
                    continue
                if last is not None and k <= last:
                    self.err("E214", f"tier thresholds must rise: {k} comes after {last}", span)
                last = k
            return
        if isinstance(node, N.ByHouse):
            seen = set()
            for k, v, span in node.entries:
                if k not in self.sym.materials:
                    self.err("E208", f"unknown house material '{k}'{did_you_mean(str(k), self.sym.materials)}", span)
                seen.add(k)
            missing = [m for m in self.sym.materials if m not in seen]
            if missing:
                self.err("E208", f"house(...) gives no value for a {', '.join(missing)} house", node.span)
            return
        if isinstance(node, (N.BinOp, N.Compare, N.BoolOp)):
            self.expr(node.left)
            self.expr(node.right)
            return
        if isinstance(node, (N.Neg, N.Not, N.Truthy)):
            self.expr(node.value)
            return
        if isinstance(node, N.HouseIs):
            if node.material not in self.sym.materials:
                self.err("E208", f"unknown house material '{node.material}'"
                         f"{did_you_mean(node.material, self.sym.materials)}", node.span)
            return

    def event_quantity(self, node: N.Quantity):
        """``event_size`` has a value only in a rule reacting to an event that has a size."""
        t = self.trigger
        if t is None or t.kind not in ("after_event", "before_event") or self.scheduled or self.claim_moment:
            self.err("E212", f"'{node.name}' is the size of what an event made: it can only be used in a rule "
                     "that reacts to one ('after you build rooms if event_size >= 2: …')", node.span)
        elif t.event not in Q.EVENT_SIZES:
            words = _event_words(t)
            self.err("E300", f"'{words}' gives no {node.name} (missing feature: {node.name} for {words})",
                     node.span)

    def call(self, node: N.Call):
        span = getattr(node, "name_span", node.span)
        if node.name not in Q.FUNCTIONS:
            self.err("E206", f"unknown function '{node.name}'{did_you_mean(node.name, Q.FUNCTIONS)}", span)
            return
        fn, kinds = Q.FUNCTIONS[node.name]
        if len(node.args) != len(kinds):
            self.err("E206", f"{node.name}() takes {len(kinds)} argument{'s' if len(kinds) != 1 else ''}, "
                     f"not {len(node.args)}", node.span)
            return
        if node.name in Q.EVENT_FUNCTIONS:
            self.event_function(node, span)
        if node.name in SCORE_READERS and self.score_table:
            self.score_reader(node.name, span)
        if node.name == "stored" and self.card_id is None:
            self.err("E212", "stored() is what lies on the card whose rule it is; there is none here", span)
        if node.name == "pile_top" and self.card_id is None:
            self.err("E212", "pile_top() reads the pile on the card whose rule it is; there is none here", span)
        if node.name == "set_aside" and self.set_aside is None:
            self.err("E212", "set_aside() counts the pieces set aside for a scheduled action on its round space: it "
                     "belongs inside 'schedule action (…) on … with N fences set aside'", span)
        if node.name == "drawn" and self.card_id is None:
            self.err("E212", "drawn() is what the last draw from the card whose rule it is drew; there is none here",
                     span)
        if node.name == "owner" and not (self.for_other or self.each_player):
            self.err("E212", "owner() is the card's owner while a body runs for another player: it belongs inside "
                     "'for actor (…)', 'for each other player (…)' or 'for each player (…)'", span)
        if "space" in kinds and (self.nobody_placed or self.scheduled):
            when = self.nobody_placed or "at the start of a round (when a scheduled action runs)"
            self.err("E212", f"{node.name}() asks about the people on an action space, and {when} nobody is on "
                     "one", span)
        for arg, kind in zip(node.args, kinds):
            if kind == "space":
                if isinstance(arg, N.Quantity):
                    if not self.sym.knows("spaces", arg.name):
                        self.err("E205", f"unknown action space '{arg.name}'{did_you_mean(arg.name, self.sym.spaces)}",
                                 arg.span)
                else:
                    self.err("E206", f"{node.name}() needs an action space id", arg.span)
            elif kind == "source" and isinstance(arg, N.Quantity) and arg.name in Q.VIA_KINDS:
                pass   # event_via(space), event_via(occupation), …: what made the event (docs/language.md 4.1.1)
            elif kind in ("card", "source"):
                if node.name == "occupations_after":
                    self.occupation_arg(node, arg)
                elif node.name == "round_played" and not isinstance(arg, N.Quantity):
                    self.err("E206", "round_played() needs a card id or 'this' (the round one card was played in)",
                             arg.span)
                elif isinstance(arg, N.TagRef):
                    if not self.sym.knows("card_tags", arg.name):
                        self.err("E205", f"unknown card tag '#{arg.name}'"
                                 f"{did_you_mean('#' + arg.name, ['#' + t for t in self.sym.card_tags])}", arg.span)
                elif isinstance(arg, N.Quantity):
                    if arg.name == "this":
                        if self.card_id is None:
                            self.err("E206", "'this' means the card whose rule it is; there is none here", arg.span)
                        else:
                            arg.name = self.card_id
                    elif not self.sym.knows("cards", arg.name):
                        names = list(self.sym.cards) + (list(Q.VIA_KINDS) if kind == "source" else [])
                        self.err("E205", f"unknown card '{arg.name}'{did_you_mean(arg.name, names)}", arg.span)
                elif kind == "source":
                    self.err("E206", f"{node.name}() needs a card id, a #tag or one of "
                             f"{', '.join(Q.VIA_KINDS)}", arg.span)
                else:
                    self.err("E206", f"{node.name}() needs a card id or a #tag", arg.span)
            elif kind == "player_value":
                if isinstance(arg, N.TagRef):
                    self.err("E206", f"{node.name}() needs a quantity or a condition of a player", arg.span)
                    continue
                if isinstance(arg, N.Quantity) and Q.ALIASES.get(arg.name, arg.name) in Q.CONTEXT_QUANTITIES:
                    self.err("E206", f"{node.name}() {_PLAYER_VALUE_WORDS.get(node.name, 'compares players')}, and "
                             f"'{arg.name}' is no quantity of a player", arg.span)
                    continue
                if isinstance(arg, N.Quantity) and arg.name in GAME_WIDE_QUANTITIES and node.name not in (
                        "actor", "owner", "before", "left", "right"):
                    self.err("E206", f"{node.name}() compares players, and '{arg.name}' is the same for "
                             "every player", arg.span)
                    continue
                self.expr(arg)
            elif kind == "goods":
                if not isinstance(arg, N.Quantity):
                    self.err("E206", f"{node.name}() needs a good or a group of goods", arg.span)
                elif arg.name not in self.sym.goods and arg.name not in Q.GOOD_GROUPS:
                    self.err("E203", f"unknown good '{arg.name}'"
                             f"{did_you_mean(arg.name, list(self.sym.goods) + list(Q.GOOD_GROUPS))}", arg.span)
            elif kind == "animal":
                if not isinstance(arg, N.Quantity) or arg.name not in self.sym.animals:
                    self.err("E203", f"{node.name}() needs one kind of animal: {', '.join(self.sym.animals)}", arg.span)
            elif kind == "category":
                self.category(arg.name if isinstance(arg, N.Quantity) else None, arg.span,
                              f"{node.name}() needs the id of a scoring category")
            elif kind == "piece":
                if not isinstance(arg, N.Quantity) or arg.name not in Q.SET_ASIDE_PIECES:
                    self.err("E206", f"{node.name}() needs a piece that can be set aside: "
                             f"{', '.join(Q.SET_ASIDE_PIECES)}", arg.span)
            elif kind == "phase":
                if not isinstance(arg, N.Quantity) or arg.name not in Q.PHASES:
                    self.err("E206", f"{node.name}() needs a phase: {', '.join(Q.PHASES)}", arg.span)
            elif kind == "space_or_tag":
                if isinstance(arg, N.TagRef):
                    self.spaces_ref([(arg.name, True, arg.span)])
                elif isinstance(arg, N.Quantity):
                    self.spaces_ref([(arg.name, False, arg.span)])
                else:
                    self.err("E206", f"{node.name}() needs an action space id or a #tag", arg.span)
            else:
                self.expr(arg)

    def score_reader(self, name, span):
        self.err("E212", f"'{name}' reads the scoring table, so the table's own points cannot use it", span)

    def category(self, name, span, what="a scoring category is named by its id") -> None:
        """A scoring category of game.yaml's table ('fields', 'begging', …), for score(…) and 'score of …'."""
        if name is None:
            self.err("E206", what, span)
        elif name not in self.sym.score_categories and self.sym.score_categories:
            self.err("E205", f"unknown scoring category '{name}'{did_you_mean(name, self.sym.score_categories)}; "
                     f"scoring categories: {', '.join(self.sym.score_categories)}", span)

    def history(self, node: N.History):
        """A history counter (docs/language.md 4.7): the counted event is named as a trigger names it."""
        if self.card_id is None:
            self.err("E212", f"{node.fn}() counts from the moment a card that reads it enters the game: it belongs "
                     "in a card's rules", node.span)
            return
        if node.period == "event":
            self.err("E212", f"{node.fn}() counts over a round, a turn, …: 'event' is a period of rule limits only "
                     "('(once per event)')", node.span)
        if node.fn == "gained":
            if node.good not in self.sym.goods and node.good not in Q.GOOD_GROUPS:
                self.err("E203", f"unknown good '{node.good}'"
                         f"{did_you_mean(node.good, list(self.sym.goods) + list(Q.GOOD_GROUPS))}",
                         getattr(node, "good_span", node.span))
            return
        self.counted_event(node.event)
        if node.event.via:
            self.err("E300", f"{node.fn}() counts every conversion at one time: 'with …' names the cards of a rule's "
                     "conversions, not of a counter's (missing feature: counters of conversions narrowed by card)",
                     node.event.via[0][2])

    def counted_event(self, t: N.Trigger):
        """The event of a counter or a trigger: known spaces, goods and house materials."""
        if t.kind in USE_TRIGGERS:
            self.spaces_ref(t.spaces)
        elif t.event == "gain":
            word, span = t.event_args["what"]
            if word not in self.sym.goods and word not in Q.GOOD_GROUPS:
                self.err("E203", f"unknown good '{word}'"
                         f"{did_you_mean(word, list(self.sym.goods) + list(Q.GOOD_GROUPS))}", span)
        elif t.event == "convert_batch":
            for name, is_tag, span in t.via:   # 'with <card or #tag>': the cards whose conversions count (4.1.5)
                if is_tag and not self.sym.knows("card_tags", name):
                    self.err("E205", f"unknown card tag '#{name}'"
                             f"{did_you_mean('#' + name, ['#' + tg for tg in self.sym.card_tags])}", span)
                elif not is_tag and not self.sym.knows("cards", name):
                    self.err("E205", f"unknown card '{name}'{did_you_mean(name, list(self.sym.cards))}", span)
        else:
            for key, (word, span) in t.event_args.items():
                if word not in self.sym.materials:
                    self.err("E208", f"unknown house material '{word}'{did_you_mean(word, self.sym.materials)}", span)
            self.renovation_args(t)

    def sown_good(self, word, span) -> None:
        """A good a field may hold (docs/language.md 4.14): a crop, or another good that is neither food nor an
        animal (a card that is a field for wood)."""
        if word in self.sym.crops:
            return
        if word not in self.sym.goods or word in self.sym.animals or word == self.sym.food:
            sowable = [g for g in self.sym.goods if g not in self.sym.animals and g != self.sym.food]
            self.err("E203", f"'{word}' is not a good a field may hold{did_you_mean(word, sowable)}; fields hold "
                     f"{', '.join(sowable)}", span)

    def event_function(self, node: N.Call, span):
        """``actor``, ``before`` and the ``event_…`` functions read the event a rule reacts to."""
        t = self.trigger
        if t is None or t.kind not in EVENT_TRIGGERS or self.scheduled or self.claim_moment:
            self.err("E212", f"{node.name}() reads the event a rule reacts to: it can only be used in an "
                     "'after …', 'before …' or 'end of turn after …' rule", span)
            return
        event = "use" if t.kind in USE_TRIGGERS else t.event
        if node.name == "before" and t.kind in ("before_use", "before_event"):
            self.err("E212", "before() is the state just before the event, and a 'before' rule runs then: "
                     "write the expression itself", span)
        field = {"event_goods": "goods", "event_card": "card", "event_paid": "paid", "event_via": "via"}.get(node.name)
        if field and field not in Q.EVENTS.get(event, {}):
            words = _event_words(t) if t.kind in ("after_event", "before_event") else "using a space"
            what = {"goods": "the goods it moved to the actor", "card": "a card played, built or returned",
                    "paid": "what was paid", "via": "what made it (a card, or a space's own action)"}[field]
            self.err("E300", f"'{words}' has no {node.name}(…): that event does not record {what} "
                     f"(missing feature: {node.name} for {words})", span)
        if node.name in ("event_goods", "event_paid") and t.kind in ("before_use", "before_event"):
            self.err("E212", f"{node.name}() is what the event moved, and a 'before' rule runs before it", span)

    def occupation_arg(self, node: N.Call, arg):
        """The argument of ``occupations_after``: an occupation of the pack (or ``this`` on one)."""
        if not isinstance(arg, N.Quantity):
            self.err("E206", f"{node.name}() needs the id of an occupation", arg.span)
            return
        if arg.name == "this":
            if self.card_id is None:
                self.err("E206", "'this' means the card whose rule it is; there is none here", arg.span)
                return
            arg.name = self.card_id
        if not self.sym.knows("cards", arg.name):
            self.err("E205", f"unknown card '{arg.name}'{did_you_mean(arg.name, self.sym.cards)}", arg.span)
        elif arg.name not in self.sym.occupations and not self.sym.uncertain_kinds:
            self.err("E206", f"{node.name}() counts occupations played after an occupation, and "
                     f"'{arg.name}' is not one", arg.span)

    # ------------------------------------------------------------ statements
    def body(self, node, where: str):
        """Check a statement tree. ``where`` is space / card / scoring / phase."""
        if isinstance(node, (N.Seq, N.Then, N.AndOr)):
            for x in node.items:
                self.body(x, where)
            return
        if isinstance(node, N.Choose):
            for x in node.options:
                self.body(x, where)
            return
        if isinstance(node, N.May):
            self.body(node.body, where)
            return
        if isinstance(node, N.MayPay) and node.recipient == "each_other":   # docs/language.md 4.2
            if self.for_other or self.each_player:
                self.err("E212", "'pay … to each other player to …' is the owner's payment to the other players: "
                         "it cannot be inside 'for actor (…)', 'for each other player (…)' or 'for each player (…)'",
                         node.span)
            if not (isinstance(node.body, N.Verb) and node.body.name == "gain"):
                self.err("E212", "'pay … to each other player to …' takes 'gain <goods>' after 'to' (the goods "
                         "gained come first and may pay the other players)", node.body.span)
            self.for_other += 1   # the amounts are worked out for each other player; owner(…) is the payer's
            self.goods(node.price)
            self.for_other -= 1
            self.body(node.body, where)
            return
        if isinstance(node, N.MayPay):
            self.goods(node.price)
            if node.recipient == "owner" and not (self.for_other or self.each_player):
                self.err("E212", "'pay … to owner' moves goods from another player to the card's owner: it "
                         "belongs inside 'for actor (…)', 'for each other player (…)' or 'for each player (…)'",
                         node.span)
            t = self.trigger
            if node.recipient == "actor" and (t is None or t.kind not in EVENT_TRIGGERS or self.scheduled
                                              or self.claim_moment):
                self.err("E212", "'pay … to actor' needs the player who carried out an event: it belongs in an "
                         "'after …', 'before …' or 'end of turn after …' rule", node.span)
            self.body(node.body, where)
            return
        if isinstance(node, N.Guarded):
            self.expr(node.cond)
            self.body(node.body, where)
            return
        v = node
        if v.goods is not None:
            self.up_to_ok = v.name == "move_to_card"
            self.goods(v.goods, constant=v.name in ("exchange", "return_to_space"))
            self.up_to_ok = False
        if v.goods_out is not None:
            self.goods(v.goods_out, constant=True)
        if v.price is not None:
            self.goods(v.price)
        if v.expr is not None:
            self.expr(v.expr)
        if v.name == "convert_bonus":
            if where != "scoring":
                self.err("E212", "'convert … to bonus' can only be used 'at scoring'", v.span)
            self.good(v.word, v.span)
            last = None
            for k, pts, span in v.tiers:
                if not isinstance(k, int) or (last is not None and k <= last):
                    self.err("E214", "conversion thresholds must be rising numbers", span)
                last = k if isinstance(k, int) else last
        if v.name == "renovate" and v.word is not None and v.word not in self.sym.materials:
            self.err("E208", f"unknown house material '{v.word}'{did_you_mean(v.word, self.sym.materials)}",
                     getattr(v, "word_span", v.span))
        if v.name == "breed" and v.word not in self.sym.animals:
            self.err("E203", f"'{v.word}' is not an animal{did_you_mean(v.word, self.sym.animals)}", v.span)
        if v.name == "take_goods" and where != "space":
            self.err("E212", "'take the goods' belongs in the effect of an accumulation space", v.span)
        if v.name == "return_to_space" and not self.scheduled and (
                where == "space" or self.trigger is None or self.trigger.kind not in USE_TRIGGERS):
            self.err("E212", "'return … to the space' belongs in a card's 'after you use' rule", v.span)
        if v.name in ("give_actor", "pay_actor", "take_from_actor", "for_actor"):
            t = self.trigger
            if t is None or t.kind not in EVENT_TRIGGERS or self.scheduled or self.claim_moment:
                self.err("E212", f"'{_VERB_WORDS[v.name]}' needs the player who carried out an event: it belongs "
                         "in an 'after …', 'before …' or 'end of turn after …' rule", v.span)
        if v.name == "pay_owner" and not (self.for_other or self.each_player):
            self.err("E212", "'pay … to owner' moves goods from another player to the card's owner: it belongs "
                     "inside 'for actor (…)', 'for each other player (…)' or 'for each player (…)'", v.span)
        if v.name == "claim":
            self.claim(v, where)
            return
        if v.name == "take_from_space":
            if not self.sym.knows("spaces", v.word_space):
                self.err("E205", f"unknown action space '{v.word_space}'{did_you_mean(v.word_space, self.sym.spaces)}",
                         v.space_span)
            if v.word is not None:
                self.good(v.word, v.word_span)
        if v.name == "move_person":
            for group in v.spaces:
                self.spaces_ref(group)
            t = self.trigger
            at_end = t is not None and t.kind == "at_phase" and t.phase == "work_phase_end" and not self.scheduled
            if not (self.claim_moment == "work_phase_end" or (self.claim_moment is None and at_end)):
                self.err("E212", "'move your person …' moves a person already placed, once everyone is: it belongs "
                         "in an 'at work phase end' rule or in a claim resolved then ('claim (…) at work phase end')",
                         v.span)
        if v.name == "put_on_named_space":
            self.spaces_ref(v.spaces[0])
        if v.name == "spread_goods":
            self.good(v.word, v.word_span)
            for group in v.spaces:
                self.spaces_ref(group)
            if v.spaces[0][0][0] in [name for name, _, _ in v.spaces[1]]:
                self.err("E215", f"'spread …' moves goods from '{v.spaces[0][0][0]}' onto other spaces, not onto "
                         "itself", v.spaces[0][0][2])
        if v.name == "lodge_people":
            if self.card_id is None:
                self.err("E212", "'lodge … on this card' belongs to a card", v.span)
            if v.number < 1:
                self.err("E215", "'lodge' needs a number of people from 1 up", v.span)
        if v.name == "place_first":
            t = self.trigger
            if t is None or t.kind != "at_phase" or t.phase != "work_phase_start" or self.scheduled \
                    or self.claim_moment or self.for_other or self.each_player:
                self.err("E212", "'place first' puts the owner before the others in this round's placements: it "
                         "belongs in an 'at work phase start' rule, before anyone is placed", v.span)
        if v.rounds is not None:
            self.round_spec(v.rounds)
            if where == "scoring":
                self.err("E212", "nothing can be scheduled at scoring: no round is left", v.span)
        if v.body is not None:
            # the verbs with a body ('claim (…)' is checked above): what each counts while its body is checked
            nested = {"schedule_action": "scheduled", "for_each_player": "each_player", "for_actor": "for_other",
                      "for_each_other": "for_other"}[v.name]
            setattr(self, nested, getattr(self, nested) + 1)
            outer_aside = self.set_aside
            if v.name == "schedule_action" and v.number is not None:
                self.set_aside_pieces(v)
                self.set_aside = v.word
            self.body(v.body, where)
            self.set_aside = outer_aside
            setattr(self, nested, getattr(self, nested) - 1)
        if v.name == "schedule_action" and v.body is not None:
            for node in N.walk(v.body):
                if isinstance(node, N.Verb) and node.name in ("return_to_space", "convert_bonus"):
                    self.err("E212", f"'{node.name.replace('_', ' ')}' cannot be scheduled", node.span)
        if v.name == "play_this_card":
            t = self.trigger
            if self.card_kind != "occupation":
                self.err("E212", "'play this card' plays an occupation from its owner's hand: it belongs in an "
                         "occupation's rules", v.span)
            elif t is None or t.kind not in ("after_event", "after_use") or self.scheduled or self.for_other \
                    or self.each_player:
                self.err("E212", "'play this card' is the body of an 'after …' rule of the card while it is in the "
                         "hand ('after another player plays occupation if event_card(…): may play this card')",
                         v.span)
        if v.name == "harvest_more" and v.word not in self.sym.crops:
            self.err("E203", f"'{v.word}' is not a crop{did_you_mean(v.word, self.sym.crops)}", v.span)
        if v.name == "pile":
            if self.card_id is None:
                self.err("E212", "'pile … on this card' belongs to a card", v.span)
            elif self.each_player:
                self.err("E212", "'pile … on this card' cannot be done for each player: the pile is the "
                         "owner's", v.span)
        if v.name in CARD_STORE_VERBS:
            words = CARD_STORE_VERBS[v.name]
            if self.card_id is None:
                self.err("E212", f"'{words}' belongs to a card: the goods lie on the card whose rule it is", v.span)
            elif self.each_player or self.for_other:
                self.err("E212", f"'{words}' is done by the card's owner, not for other players: the goods on "
                         "the card are the owner's", v.span)
        if v.name == "move_crop" and v.number != 1:
            self.err("E215", "'move … crop to an empty field' moves 1 crop ('move 1 crop to an empty field')", v.span)
        if v.name == "fence_new_stable":   # the stables an event built: in a rule that reacts to building them
            t = self.trigger
            if t is None or t.kind != "after_event" or t.event != "build_stables" or t.actor != "you" \
                    or self.scheduled \
                    or self.claim_moment or self.for_other or self.each_player:
                self.err("E212", "'fence the stable just built' fences the space of a stable an event built: it "
                         "belongs in an 'after you build stables' rule", v.span)
        if v.name == "play_occupation_random" and not (self.trigger is not None and self.trigger.instead
                                                       and self.trigger.event == "play_occupation"):
            self.err("E300", "'play occupation chosen at random' plays a hand card at the price of the occupation "
                     "action it replaces (missing feature: a random occupation outside 'instead of you play "
                     "occupation')", v.span)
        if v.name == "draw_from_card" and v.number < 1:
            self.err("E215", "'draw … from this card' needs a number of goods from 1 up", v.span)
        if v.name == "harvest_more" and v.number < 1:
            self.err("E215", "harvest needs a number of crops from 1 up", v.span)
        if v.name == "build_fences" and v.price is not None:
            self.err("E212", "'build fences' takes 'free' or nothing (fences cost what the rules say)", v.span)
        if v.name == "build_fences" and v.expr is not None:   # 'build up to N fences' (docs/language.md 4.12 UPN)
            self.expr(v.expr)
            if isinstance(v.expr, N.Num) and not 1 <= v.expr.value <= self.sym.max_fences:
                self.err("E215", f"'build up to … fences' needs a number of fences from 1 to {self.sym.max_fences}",
                         v.expr.span)
        if v.name == "sow" and v.number is not None and not 1 <= v.number <= 15:
            self.err("E215", "sow needs a number of fields from 1 to 15", getattr(v, "word_span", v.span))
        if v.name == "sow" and v.word is not None:
            self.sown_good(v.word, v.name_span)
            if v.fewer is not None and hasattr(v, "fewer_span") and not 1 <= v.fewer <= 15:
                self.err("E215", "'with … fewer' needs a number from 1 to 15", v.fewer_span)
        if v.name in ("add_to_sown", "add_to_fields") and not 1 <= (v.number or 0) <= 15:
            self.err("E215", "'add' needs a number from 1 to 15", v.span)
        if v.name == "add_to_sown":
            t = self.trigger
            if t is None or t.kind != "after_event" or t.event != "sow" or self.scheduled or self.claim_moment:
                self.err("E212", "'add … to each sown field' adds to the fields a sowing just sowed: it belongs in "
                         "an 'after … sow' rule", v.span)
        if v.name == "add_to_fields":
            self.sown_good(v.word, v.name_span)
            if v.second[0] != v.word:
                self.err("E212", f"'add … {v.word} to each … field' adds to the fields holding that good: write "
                         f"'add {v.number} {v.word} to each {v.word} field'", v.second[1])
        if v.name == "take_from_field":
            taken = const_goods_of(v.goods)
            if taken is None or len(taken) != 1:
                self.err("E212", "'take … from a field of another player' takes one good in a plain amount "
                         "('take 1 grain from a field of another player')", v.span)
            else:
                self.sown_good(taken[0][0], v.span)
        if v.name == "plow" and v.expr is not None:   # 'plow up to N fields'
            self.expr(v.expr)
            if isinstance(v.expr, N.Num) and not 1 <= v.expr.value <= 15:
                self.err("E215", "plow needs a number of fields from 1 to 15", v.span)
        elif v.name == "plow" and not 1 <= (v.number or 0) <= 15:
            self.err("E215", "plow needs a number of fields from 1 to 15", v.span)
        if v.name == "spend_up_to":   # 'spend up to N <good> on (<exchanges>)' (docs/language.md 4.12 UPN)
            self.expr(v.expr)
            if isinstance(v.expr, N.Num) and v.expr.value < 1:
                self.err("E215", f"'spend up to …' needs a number of {v.word} from 1 up", v.expr.span)
            known = self.good(v.word, v.span)
            for ex in v.exchanges:
                self.goods(ex.give, constant=True, what="exchange amounts")
                self.goods(ex.get, constant=True, what="exchange amounts")
                for goods in (ex.give, ex.get):
                    for it in goods.items:
                        if isinstance(it, N.GoodsItem) and isinstance(it.amount, N.Num) and it.amount.value < 1:
                            self.err("E215", "an exchange needs amounts from 1 up", it.amount.span)
                others = [it.good for it in ex.give.items if isinstance(it, N.GoodsItem) and it.good != v.word]
                if known and others:
                    self.err("E212", f"'spend up to … {v.word} on (…)' buys with {v.word} alone: an exchange there "
                             f"gives only {v.word}, not '{others[0]}'", ex.give.span)
                if ex.at_most is not None and ex.at_most < 1:
                    self.err("E215", "'at most' needs a number of times from 1 up", ex.span)
                self.exchange_clauses(ex, "spend")
        if v.name == "fence_spaces" and not 1 <= (v.number or 0) <= 15:
            self.err("E215", "fence needs a number of spaces from 1 to 15", v.span)

    def exchange_clauses(self, ex: N.Exchange, where: str):
        """The period of an exchange's limit ('(at most 8 times per game)', docs/language.md 1.6) and the
        clause by which other players may buy what it gives ('(others may buy 1 grain for 2 food)', 4.9):
        both belong to a card's exchange rule (``where`` is "card"), not to a bake rate ("bake"), the rules'
        own exchanges ("rules") or the exchanges of 'spend up to' ("spend")."""
        whose = {"bake": "a bake rate", "rules": "the rules' own exchanges (game.yaml)",
                 "spend": "the exchanges of 'spend up to'"}.get(where)
        if ex.period is not None:
            if whose is not None:
                self.err("E212", f"'(at most … per {ex.period})' belongs to a card's exchange rule, not to {whose}",
                         ex.span)
            elif ex.period not in ("harvest", "game"):
                self.err("E212", f"an exchange's limit counts per harvest (the default) or per game, not per "
                         f"{ex.period}", ex.span)
        if ex.buy_goods is None:
            return
        if whose is not None:
            self.err("E212", f"'(others may buy …)' belongs to a card's exchange rule, not to {whose}",
                     ex.buy_goods.span)
            return
        for goods in (ex.buy_goods, ex.buy_price):
            self.goods(goods, constant=True, what="the amounts of '(others may buy …)'")
            for it in goods.items:
                if isinstance(it, N.GoodsItem) and isinstance(it.amount, N.Num) and it.amount.value < 1:
                    self.err("E215", "'(others may buy …)' needs amounts from 1 up", it.amount.span)

        def plain(goods):   # 'goods' of the grammar (good_item: INT? NAME): plain amounts, or none for 1
            out = {}
            for it in goods.items:
                out[it.good] = out.get(it.good, 0) + (1 if it.amount is None else it.amount.value)
            return out

        if plain(ex.buy_goods) != plain(ex.give):
            from .textgen import goods as goods_text
            self.err("E212", f"'(others may buy {goods_text(ex.buy_goods)} for …)' names other goods than the "
                     f"exchange takes ({goods_text(ex.give)}): a buyer takes what the exchange takes",
                     ex.buy_goods.span)

    def claim(self, v: N.Verb, where: str):
        """'claim (…) at <moment> [if …]': the statements and the condition run at that moment of the round,
        when no event is running (docs/language.md 4.6)."""
        if self.scheduled or self.claim_moment or where == "scoring" or self.nobody_placed:
            self.err("E212", "a claim is resolved later in the same round: it belongs in a rule of the work phase "
                     "(an action space's, or a card's rule that reacts to an event or to 'work phase end')", v.span)
        if self.each_player or self.for_other:
            self.err("E212", "a claim is staked by the card's owner, not for other players", v.span)
        outer, self.claim_moment = self.claim_moment, v.word
        outer_placed = self.nobody_placed
        if v.word == "round_end":
            self.nobody_placed = PHASES_WITHOUT_PEOPLE_OUT["end_of_round"]
        try:
            if v.expr is not None:
                self.expr(v.expr)
            self.body(v.body, where)
        finally:
            self.claim_moment, self.nobody_placed = outer, outer_placed

    def bound_work(self, node):
        """Report a statement that could take more than MAX_WORK steps when it runs once (nested
        ``for each player``: each level runs its body once per player), at the level that makes it too many."""
        worst = []

        def work(n) -> int:
            if isinstance(n, (N.Seq, N.Then, N.AndOr)):
                return min(MAX_WORK + 1, sum(work(x) for x in n.items))
            if isinstance(n, N.Choose):
                return min(MAX_WORK + 1, sum(work(x) for x in n.options))
            if isinstance(n, (N.May, N.MayPay, N.Guarded)):
                return 1 + work(n.body)
            if isinstance(n, N.Verb) and n.body is not None:
                inner = work(n.body)
                total = min(MAX_WORK + 1, (self.sym.max_players if n.name == "for_each_player" else 1) * inner
                            + 1)
                if total > MAX_WORK and inner <= MAX_WORK:
                    worst.append(n)
                return total
            return 1

        if node is not None and work(node) > MAX_WORK and worst:
            self.err("E225", f"'for each player' nested too deeply: this rule could take more than {MAX_WORK} "
                     f"steps when it runs (each level runs what it holds once for each of up to "
                     f"{self.sym.max_players} players)", worst[0].span, "see docs/limits.md")

    def set_aside_pieces(self, v: N.Verb):
        """'schedule action (…) on … with N <piece> set aside': a piece of the player's supply, N from 1 to all."""
        if v.word not in Q.SET_ASIDE_PIECES:
            self.err("E300", f"only fences can be set aside on round spaces, not '{v.word}' (missing feature: "
                     f"{v.word} set aside, docs/language.md 4.3)", v.word_span)
        elif not 1 <= v.number <= self.sym.max_fences:
            self.err("E215", f"'with … {v.word} set aside' needs a number of {v.word} from 1 to "
                     f"{self.sym.max_fences}", v.number_span)

    def round_spec(self, rs: N.RoundSpec):
        """The rounds of 'schedule … on …': each must be a round of the game, counted the way it says."""
        last = self.sym.rounds
        if rs.kind == "next_count":
            self.expr(rs.count)   # any number: rounds beyond the last are not placed, none when it is 0 or less
            return
        spans = getattr(rs, "number_spans", None) or [rs.span] * len(rs.numbers)
        if rs.kind == "next" and not 1 <= rs.numbers[0] <= last:
            self.err("E215", f"'next {rs.numbers[0]} rounds' needs a number from 1 to {last} "
                     f"(the game has {last} rounds)", spans[0])
        if rs.kind == "listed":
            seen = set()
            for n, span in zip(rs.numbers, spans):
                if not 1 <= n <= last:
                    self.err("E215", f"there is no round {n}: the game has rounds 1 to {last}", span)
                elif n in seen:
                    self.err("E215", f"round {n} is listed twice", span)
                seen.add(n)
        if rs.kind == "range":
            for n, span in zip(rs.numbers, spans):
                if not 1 <= n <= last:
                    self.err("E215", f"there is no round {n}: the game has rounds 1 to {last}", span)
            if rs.numbers[0] >= rs.numbers[1]:
                self.err("E215", f"'rounds {rs.numbers[0]} to {rs.numbers[1]}' needs the first round before the "
                         "last", rs.span)
        if rs.kind == "offsets":
            seen = set()
            for n, span in zip(rs.numbers, spans):
                if not 1 <= n <= last - 1:
                    self.err("E215", f"'+{n}' counts rounds from the current one and needs a number from 1 to "
                             f"{last - 1}", span)
                elif n in seen:
                    self.err("E215", f"'+{n}' is listed twice", span)
                seen.add(n)

    def feeding_cost(self, m: N.Modifier):
        """The feeding cost is food: a change of it names only food, and no other good stands in for it."""
        if m.kind == "cost_substitute":
            self.err("E300", "the feeding cost cannot be paid in other goods (missing feature: substitutions "
                     "for feeding)", m.span)
            return
        for item in m.goods:
            good, span = item[1], (item[2] if len(item) > 2 else m.span)
            if good != self.sym.food:
                self.err("E209", f"the feeding cost is {self.sym.food}: a change of it cannot name '{good}'", span)

    def spaces_ref(self, refs):
        for name, is_tag, span in refs:
            if is_tag:
                if not self.sym.knows("space_tags", name):
                    self.err("E205", f"unknown action space tag '#{name}'"
                             f"{did_you_mean('#' + name, ['#' + t for t in self.sym.space_tags])}", span)
            elif not self.sym.knows("spaces", name):
                self.err("E205", f"unknown action space '{name}'{did_you_mean(name, self.sym.spaces)}", span)

    def rule(self, rule: N.Rule, where: str):
        self.trigger = rule.trigger if rule.kind == "triggered" else None
        t = self.trigger
        if t is not None and t.kind == "at_phase" and t.phase in PHASES_WITHOUT_PEOPLE_OUT:
            self.nobody_placed = PHASES_WITHOUT_PEOPLE_OUT[t.phase]
        elif rule.kind == "action" and rule.window in ("harvest", "feeding"):
            self.nobody_placed = "in a harvest"
        try:
            self._rule(rule, where)
        finally:
            self.trigger = None
            self.nobody_placed = None

    def limit(self, limit: N.Limit | None, trigger: N.Trigger | None = None):
        if limit is None:
            return
        if limit.times < 1:
            self.err("E215", "a limit needs a number of times from 1 up", limit.span)
        if limit.each and (trigger is None or trigger.actor == "you" or trigger.kind in ("on_play", "once",
                                                                                           "at_phase")):
            self.err("E212", "'for each player' counts the limit apart for each player whose event fires the rule: "
                     "it belongs to a rule that reacts to another player's or any player's event", limit.span)
        elif trigger is not None and trigger.kind in ("on_play", "once"):
            self.err("E212", f"'{_trigger_words(trigger)}' fires only once: a limit on it has no effect", limit.span)
        elif trigger is None and limit.period == "next":
            self.err("E212", "'(the next time)' belongs to a rule that reacts to an event or a phase; an ability "
                     "the player uses at will takes a limit such as '(once per game)'", limit.span)
        if limit.period == "event" and (trigger is None or trigger.kind not in (
                "after_event", "before_event", "after_use", "before_use")):
            self.err("E212", "'per event' counts the firings for each time the event happens: it belongs to a rule "
                     "that reacts to one ('after …', 'before …')", limit.span)
        if limit.shared is not None and not self.sym.knows("card_tags", limit.shared):   # docs/language.md 4.4
            self.err("E205", f"unknown card tag '#{limit.shared}'"
                     f"{did_you_mean('#' + limit.shared, ['#' + t for t in self.sym.card_tags])}; a limit shared "
                     "'with #tag' names the tag of the cards whose rules share it", limit.span)

    def renovation_args(self, t: N.Trigger):
        """'after you renovate from X to Y': a renovation that can happen (to a later material)."""
        mats = self.sym.materials
        args = {k: (w, span) for k, (w, span) in t.event_args.items() if w in mats}
        if "from" in args and mats.index(args["from"][0]) == len(mats) - 1:
            self.err("E208", f"no renovation starts from a {args['from'][0]} house", args["from"][1])
        if "to" in args and mats.index(args["to"][0]) == 0:
            self.err("E208", f"no renovation leads to a {args['to'][0]} house", args["to"][1])
        elif "from" in args and "to" in args and mats.index(args["from"][0]) >= mats.index(args["to"][0]) \
                and mats.index(args["from"][0]) < len(mats) - 1:
            self.err("E208", f"no renovation leads from a {args['from'][0]} to a {args['to'][0]} house",
                     args["to"][1])

    def _rule(self, rule: N.Rule, where: str):
        if rule.kind == "triggered":
            t = rule.trigger
            if t.kind in ("after_use", "before_use", "turn_end_use"):
                self.spaces_ref(t.spaces)
            if t.instead:
                words = event_name(t.event)
                if t.event not in INSTEAD_EVENTS:
                    self.err("E300", f"'instead of you {words}' is not supported (missing feature: instead-of rules "
                             f"for {words})", t.span)
                elif t.event_args:
                    self.err("E300", f"'instead of you {words}' replaces every {words} (missing feature: "
                             "instead-of rules narrowed by material)", t.span)
            elif t.kind == "before_event" and t.event not in EVENTS_WITH_BEFORE:
                self.err("E300", f"'before you {event_name(t.event)}' is not supported "
                         f"(missing feature: before-event triggers for {event_name(t.event)})", t.span)
            if t.kind in ("after_event", "before_event"):
                self.counted_event(t)
            if t.kind == "once":
                self.trigger = None  # the condition is watched outside any event
                self.expr(t.cond)
                self.trigger = t
                if rule.guard is not None:
                    # the rule is spent the moment its condition holds: a guard false then loses it for good
                    self.err("E212", "'once …' fires the first time its condition holds, and a guard is checked "
                             "only then: join the two with 'and' ('once a and b: …')", rule.guard.span)
            if t.kind == "at_phase" and t.phase == "end_of_round" and not 1 <= (t.round or 0) <= self.sym.rounds:
                self.err("E215", f"there is no round {t.round}: the game has rounds 1 to {self.sym.rounds}", t.span)
            if rule.guard is not None:
                self.expr(rule.guard)
            self.limit(rule.limit, t)
            phase_where = "scoring" if (t.kind == "at_phase" and t.phase == "scoring") else where
            self.body(rule.body, phase_where)
            self.bound_work(rule.body)
        elif rule.kind == "action":
            if rule.window == "any_player":   # its body would run for each user: not checked as the owner's
                self.err("E300", "'any player action' is an ability every player may use, designed and not built "
                         "(missing feature: abilities for any player, docs/language.md 4.9)", rule.span)
                return
            if rule.guard is not None:
                self.expr(rule.guard)
            self.limit(rule.limit)
            self.body(rule.body, where)
            self.bound_work(rule.body)
        elif rule.kind in ("exchanges", "bake"):
            if getattr(rule, "guard", None) is not None:
                self.expr(rule.guard)   # open only while it holds, for the owner
            for ex in rule.exchanges:
                self.goods(ex.give, constant=True, what="exchange amounts")
                for goods in (ex.give, ex.get):
                    for it in (goods.items if goods is not None else []):
                        if isinstance(it, N.GoodsItem) and isinstance(it.amount, N.Num) and it.amount.value < 1:
                            self.err("E215", "an exchange needs amounts from 1 up", it.amount.span)
                if isinstance(ex.at_most, N.Node):   # '(at most (<expr>) times)': worked out when looked at
                    self.expr(ex.at_most)
                    if rule.kind == "bake":
                        self.err("E300", "a bake rate takes a plain number of times (missing feature: '(at most "
                                 "(<expression>) times)' on a bake rate)", ex.at_most.span)
                    elif self.card_id is None:
                        self.err("E212", "'(at most (<expression>) times)' is worked out for the owner of a card: it "
                                 "belongs to a card's exchange", ex.at_most.span)
                elif ex.at_most is not None and ex.at_most < 1:
                    self.err("E215", "'at most' needs a number of times from 1 up", ex.span)
                self.exchange_clauses(ex, "bake" if rule.kind == "bake" else "rules" if where == "game" else "card")
                if ex.get is not None:
                    self.goods(ex.get, constant=True, what="exchange amounts")
                elif self.card_id is None:
                    self.err("E212", "'-> top of pile' belongs to a card with a pile", ex.span)
                if rule.kind == "bake" and ex.get is not None:
                    gives = [it.good for it in ex.give.items if isinstance(it, N.GoodsItem)]
                    gets = [it.good for it in ex.get.items if isinstance(it, N.GoodsItem)]
                    known = all(x in self.sym.goods for x in gives + gets)
                    if known and (gives != [self.sym.crops[0]] or gets != [self.sym.food]):
                        self.err("E217", f"a bake rate turns {self.sym.crops[0]} into {self.sym.food}", ex.span)
        else:   # a modifier: the parser makes rules of these five kinds only (parser.py, N.Rule)
            self.modifier(rule.modifier)
            cond = getattr(rule.modifier, "cond", None)
            if cond is not None:
                self.expr(cond)
                if rule.modifier.kind not in WHILE_MODIFIERS:
                    self.err("E300", f"'while' holds only a change of a price or capacity, a sowing, a breeding, a "
                             f"major that is a minor for you, a card that houses people or a rule switch (allow, "
                             f"forbid) (missing feature: 'while' on {rule.modifier.kind.replace('_', ' ')})",
                             cond.span)
                elif getattr(rule.modifier, "limit", None) is not None:
                    self.err("E300", "a limited price change holds always (missing feature: 'while' on a limited "
                             "price change)", cond.span)
                elif rule.modifier.kind == "capacity" and any(
                        w in ("family", "fences", "stables") for w, _ in rule.modifier.words):
                    self.err("E300", "'while' changes the capacities of places for animals only (missing feature: "
                             "'while' on the most people, fences or stables)", cond.span)

    def limited_cost(self, m: N.Modifier):
        """'cost of …: -1 wood (once per round)': a change of one priced unit per period (docs/language.md 4.3)."""
        lim = m.limit
        if lim.each or lim.shared:
            self.err("E300", "a limited price change is counted for its owner alone (missing feature: 'for each "
                     "player' or 'with #tag' on a price change)", lim.span)
        elif lim.period == "event":
            self.err("E212", "a price change reacts to no event: limit it per round, harvest, turn, action or game, "
                     "or '(the next time)'", lim.span)
        elif lim.times != 1:
            self.err("E300", "a limited price change lowers one priced unit in its period: write 'once' (missing "
                     "feature: a limited price change of several units)", lim.span)
        if m.words and m.words[0][0] == "free":   # 'free stable (the next time)'
            word = m.targets[0][0]
            if (word[:-1] if word.endswith("s") and word[:-1] in COST_TARGETS else word) not in COST_TARGETS - {"feeding"}:
                self.err("E209", f"'free' names a kind of price: room, renovation, stable, fence, improvement, major, "
                         f"minor or occupation, not '{word}'", m.targets[0][2])
            return
        if any(isinstance(n, N.Node) or n >= 0 for n, *_ in m.goods):
            self.err("E300", "a limited price change only lowers a price, by plain numbers ('-1 wood (once per "
                     "round)') (missing feature: a limited raise or a computed amount)", m.span)
        if any((first if second is None else second) == "feeding" for first, second, _ in m.targets):
            self.err("E300", "a limited price change applies to building prices and cards (missing feature: a "
                     "limited change of the feeding)", m.span)

    def modifier(self, m: N.Modifier):
        if m.kind == "cost_delta" and m.words and m.words[0][0] == "free":
            self.limited_cost(m)
            return
        if m.kind in ("cost_delta", "cost_set", "cost_substitute"):
            for first, second, span in m.targets:
                word = first if second is None else second
                if word.endswith("s") and word[:-1] in COST_TARGETS:
                    word = word[:-1]
                if second is None and first.startswith("#"):
                    if not self.sym.knows("card_tags", first[1:]):
                        self.err("E205", f"unknown card tag '{first}'"
                                 f"{did_you_mean(first, ['#' + t for t in self.sym.card_tags])}", span)
                    continue
                if second is None and first == self.card_id and first not in COST_TARGETS:
                    # a card's modifiers act while it is in play, and its own price is paid before that
                    self.err("E212", f"'{first}' is this card's own price, paid before the card is in play, so "
                             "its own modifier never changes it; write its other ways to pay in its cost "
                             "('cost: 2 food or 1 grain', docs/language.md 4.3)", span)
                    continue
                if second is None and word not in COST_TARGETS and self.sym.knows("cards", word):
                    continue   # a card id names that card's price (docs/language.md 4.3)
                if second is not None and first.startswith("beyond "):   # 'feeding beyond 2'
                    if word != "feeding":
                        self.err("E208", f"'{word} {first}' is no cost name: only the feeding is counted by people "
                                 f"('feeding beyond 2': each person but the first 2)", span)
                    elif m.kind != "cost_delta":
                        self.err("E300", "'feeding beyond N' takes a change of food only (missing feature: set "
                                 "prices of the feeding beyond some people)", span)
                    elif int(first.split()[1]) < 1:
                        self.err("E215", "'feeding beyond N' needs a number of people from 1 up", span)
                    continue
                if word == "feeding" and second is not None and first != "newborn":
                    self.err("E208", f"'{first} feeding' is no cost name: write 'feeding' (each person) or "
                             f"'newborn feeding'", span)
                    continue
                if word not in COST_TARGETS:
                    self.err("E209", f"unknown cost target '{word}'{did_you_mean(word, COST_TARGETS)}; "
                             f"cost targets: {', '.join(sorted(COST_TARGETS))}, a card id or a card #tag", span)
                if word == "feeding":
                    continue
                if second is not None and first not in self.sym.materials:
                    self.err("E208", f"unknown house material '{first}'{did_you_mean(first, self.sym.materials)}", span)
                elif second is not None and word == "renovation" and first == self.sym.materials[0]:
                    # a material before 'renovation' is the material renovated to (docs/language.md 1.7)
                    self.err("E208", f"no renovation leads to a {first} house", span)
            if getattr(m, "limit", None) is not None:
                self.limited_cost(m)
            if any((first if second is None else second) == "feeding" for first, second, _ in m.targets):
                self.feeding_cost(m)
            if m.kind == "cost_substitute":
                pay, instead = m.goods
                self.goods(pay, constant=True, what="substituted amounts")
                if instead is not None:
                    self.goods(instead, constant=True, what="substituted amounts")
                for word, span in m.words:
                    self.good(word, span)
            else:
                for item in m.goods:
                    n, good = item[0], item[1]
                    span = item[2] if len(item) > 2 else m.span
                    if good == "building" and m.kind == "cost_delta":   # of the player's choice (4.3)
                        if isinstance(n, N.Node) or n >= 0:
                            self.err("E300", "building resources of the player's choice only lower a price, by a "
                                     "plain number ('-1 building') (missing feature: a price raised by building "
                                     "resources of the player's choice)", span)
                        continue
                    self.good(good, span, allow_material=True)
                    if isinstance(n, N.Node):   # '-(rooms) wood': a set cost's amounts are plain numbers (grammar)
                        self.expr(n)
        elif m.kind in ("sowing_more", "sowing_near_rooms"):
            # more crops on each field newly sown (next to rooms, for the second; docs/language.md 4.12 CFD,
            # 4.14): crops only
            word, span = m.words[0]
            crops = list(self.sym.crops) + ["crops"]
            if word not in crops:
                self.err("E203", f"'sowing of' names a crop: {', '.join(crops)}, not '{word}'"
                         f"{did_you_mean(word, crops)}", span)
            if not 1 <= m.number <= 15:
                self.err("E215", "'sowing of' adds a number of crops from 1 to 15", m.span)
        elif m.kind == "breeding_more":
            # more young of a kind that breeds, each as room allows (docs/language.md 4.3): animals only
            word, span = m.words[0]
            kinds = list(self.sym.animals) + ["animals"]
            if word not in kinds:
                self.err("E203", f"'breeding of' names an animal: {', '.join(kinds)}, not '{word}'"
                         f"{did_you_mean(word, kinds)}", span)
            if not 1 <= m.number <= 15:
                self.err("E215", "'breeding of' adds a number of young from 1 to 15", m.span)
        elif m.kind in ("capacity", "capacity_set", "capacity_mixed"):
            names = sorted(CAPACITY_WORDS.get(w, w) for w in CAPACITY_TARGETS)
            animal = getattr(m, "animal", None)
            for (word, span), size in zip(m.words, getattr(m, "sizes", [m.number])):
                if word not in CAPACITY_TARGETS:
                    shown = word.replace("_with_", " with ").replace("_without_", " without ").replace(
                        "_of_size", " of N spaces").replace("_", " ")
                    self.err("E211", f"unknown capacity target '{shown}'{did_you_mean(shown, names)}; "
                             f"capacity targets: {', '.join(names)}", span)
                elif size is not None and size < 1:
                    self.err("E215", "a pasture has at least 1 farmyard space", span)
                elif m.kind == "capacity_mixed" and word not in MIXED_TARGETS:
                    self.err("E211", f"'{CAPACITY_WORDS.get(word, word)}' cannot be mixed; animals of different "
                             f"kinds may share: {', '.join(sorted(CAPACITY_WORDS.get(w, w) for w in MIXED_TARGETS))}",
                             span)
                elif animal is not None and word not in KIND_TARGETS:
                    self.err("E211", f"'{CAPACITY_WORDS.get(word, word)}' holds no animals of one kind; more of one "
                             f"kind fit in: {', '.join(sorted(CAPACITY_WORDS.get(w, w) for w in KIND_TARGETS))}",
                             span)
            if animal is not None and animal[0] not in self.sym.animals:
                self.err("E203", f"'{animal[0]}' is not an animal{did_you_mean(animal[0], self.sym.animals)}; "
                         f"'capacity of …: +N <animal>' names one kind", animal[1])
            if m.expr is not None:
                self.expr(m.expr)
        elif m.kind == "card_capacity":
            word, span = m.words[0]
            if word not in ("animal", "animals") and word not in self.sym.animals:
                self.err("E203", f"'{word}' is not an animal{did_you_mean(word, self.sym.animals)}; a card holds "
                         "'animals' (any, mixed) or one kind ('capacity of this card: 3 sheep')", span)
            if m.expr is not None:   # 'capacity of this card: (<expr>) cattle': worked out when looked at
                self.expr(m.expr)
            elif m.number is None and word in ("animal", "animals"):
                self.err("E215", "a card holds any number of one kind of animal only ('capacity of this card: any "
                         "boar'); animals of any kinds need a number", getattr(m, "number_span", m.span))
            elif m.number is not None and m.number < 1:
                self.err("E215", "a card that holds animals needs a number from 1 up", getattr(m, "number_span", m.span))
            if self.card_id is None:
                self.err("E212", "'capacity of this card' belongs to a card", m.span)
        elif m.kind == "card_space":
            if self.card_id is None:
                self.err("E212", "'this card is an action space' belongs to a card", m.span)
            self.spaces_ref([(tag, True, span) for tag, _, span in m.targets])
            self.for_other += 1  # the body runs for the player who uses the card ('pay … to owner')
            try:
                self.body(m.body, "space")
            finally:
                self.for_other -= 1
            self.bound_work(m.body)
        elif m.kind == "house_holds":
            self.expr(m.expr)
        elif m.kind == "card_field":
            for word, span in m.words:
                self.sown_good(word, span)
            if m.number is not None and not 2 <= m.number <= 15:
                self.err("E215", "a card of several fields has 2 to 15 of them ('this card is a field' for one)",
                         m.number_span)
        elif m.kind == "free_numbered":
            word, _, span = m.targets[0]
            numbers = [n for n, _ in m.words]
            if word not in ("fence", "fences"):
                self.err("E209", f"only fences are free by their number, not '{word}' (write 'free fence number 3, 6')",
                         span)
            elif any(n < 1 for n in numbers) or numbers != sorted(set(numbers)):
                self.err("E215", "fence numbers count from 1 up, each once, in increasing order ('free fence number "
                         "3, 6, 9')", m.span)
        elif m.kind == "free_per_action":
            word, _, span = m.targets[0]
            if word not in ("fence", "fences"):
                self.err("E209", f"only fences can be free per action, not '{word}' (write 'free 3 fences per "
                         f"action')", span)
            if m.number < 1:
                self.err("E215", "free fences need a number from 1 up", m.span)
        elif m.kind == "card_room":
            if m.number < 1:
                self.err("E215", "a card that houses people needs a number from 1 up", m.span)
        elif m.kind in ("use_occupied", "double_placement"):
            self.spaces_ref(m.words)
        elif m.kind == "space_fee":
            self.spaces_ref(m.words)
            self.goods(m.goods[0], constant=True, what="a fee for using a space")
        elif m.kind == "counts_as_tag":
            name, span = m.words[0]
            if not self.sym.knows("card_tags", name):
                self.err("E205", f"unknown card tag '#{name}'"
                         f"{did_you_mean('#' + name, ['#' + t for t in self.sym.card_tags])}", span)
        elif m.kind in ("counts_as_occupations", "counts_as_major"):
            if self.card_id is None:
                self.err("E212", "'this card counts as …' belongs to a card", m.span)
            elif m.kind == "counts_as_occupations" and self.card_kind != "occupation":
                self.err("E212", "only an occupation can count as several occupations", m.span)
            elif m.kind == "counts_as_major" and self.card_kind != "minor":
                self.err("E212", "only a minor improvement can count as a major improvement too", m.span)
            if m.kind == "counts_as_occupations" and m.number < 2:
                self.err("E215", "an occupation counts as 1 occupation already: write a number from 2 up",
                         m.number_span)
        elif m.kind == "as_minor":
            name, is_tag, span = m.words[0]
            known = self.sym.major_tags if is_tag else self.sym.majors
            if not (self.sym.knows("card_tags", name) if is_tag else self.sym.knows("cards", name)) or \
                    (name not in known and "cards" not in self.sym.uncertain):
                shown = ("#" if is_tag else "") + name
                self.err("E205", f"'{shown}' is no major improvement{' tag' if is_tag else ''}: only a major "
                         f"can be a minor for you", span)
        elif m.kind in ("score_delta", "score_floor"):
            for name, span in m.words:
                self.category(name, span)
            if m.kind == "score_floor" and (m.op != ">=" or not isinstance(m.expr, N.Num) or m.expr.value != 0):
                self.err("E215", "a scoring category can only be held at no negative points: write "
                         f"'score of {m.words[0][0]} >= 0'", m.op_span)
            elif m.kind == "score_delta":
                self.expr(m.expr)
        elif m.kind == "ignore_begging":
            word, span = m.words[0]
            if Q.ALIASES.get(word, word) != "begging":
                self.err("E204", f"only begging cards can be ignored at scoring, not '{word}' (write 'ignore "
                         f"{m.number} begging')", span)
            if m.number < 1:
                self.err("E215", "'ignore' needs a number of begging cards from 1 up", m.number_span)
        elif m.kind == "harvest_from_supply":
            word, span = m.words[0]
            if word not in self.sym.crops:
                self.err("E203", f"'{word}' is not a crop{did_you_mean(word, self.sym.crops)}", span)
        elif m.kind in ("allow", "forbid"):
            word, span = m.words[0]
            allowed = RULE_SWITCHES[m.kind]
            if word not in allowed:
                self.err("E210", f"unknown rule '{word}' for '{m.kind}'{did_you_mean(word, allowed)}; "
                         f"rules for '{m.kind}': {', '.join(sorted(allowed))}", span)


def const_goods_of(node):
    """Goods with plain amounts as (good, n) pairs, or None when an amount is computed."""
    out = []
    for it in node.items:
        if isinstance(it, N.PlayersGoods) or it.per_quantity:
            return None
        if it.amount is None:
            out.append((it.good, 1))
        elif isinstance(it.amount, N.Num):
            out.append((it.good, it.amount.value))
        else:
            return None
    return out


USE_TRIGGERS = ("after_use", "before_use", "turn_end_use")
# Quantities of the game rather than of a player (runtime/queries.py): comparing players by them means nothing.
GAME_WIDE_QUANTITIES = {"round", "rounds_left", "players", "after_harvest", "harvest_round"}
# Phases in which every person is at home (runtime/phases.py: the round starts before anyone is placed;
# the spaces are cleared after the returning-home rules and before the end of the round and the harvest).
PHASES_WITHOUT_PEOPLE_OUT = {
    "round_start": "at the start of a round", "work_phase_start": "at the start of the work phase",
    "end_of_round": "at the end of a round",
    "harvest_start": "in a harvest", "field_phase_start": "in a harvest", "field_phase": "in a harvest",
    "feeding": "in a harvest", "feeding_start": "in a harvest", "breeding": "in a harvest", "harvest_end": "in a harvest", "scoring": "at scoring",
}


_PLAYER_VALUE_WORDS = {"actor": "is worked out for the acting player", "owner": "is worked out for the card's owner",
                       "before": "is worked out for the acting player", "left": "is worked out for a neighbour",
                       "right": "is worked out for a neighbour"}
# Goods kept on the card whose rule it is (docs/language.md, 4.5): the verb and how a reader writes it.
CARD_STORE_VERBS = {"put_on_card": "put … on this card", "move_to_card": "move … to this card",
                    "take_from_card": "take … from this card", "draw_from_card": "draw … from this card",
                    "take_pile_top": "take the top of the pile"}
_VERB_WORDS = {"give_actor": "give … to actor", "pay_actor": "pay … to actor", "take_from_actor": "take … from actor",
               "for_actor": "for actor (…)", "pay_owner": "pay … to owner"}


def _event_words(t: N.Trigger) -> str:
    """A trigger's event as written: 'after you build rooms'."""
    who = {"you": "you", "other": "another player", "any": "any player"}[t.actor]
    when = "instead of" if t.instead else "before" if t.kind == "before_event" else "after"
    return f"{when} {who} {event_name(t.event)}"


def event_name(event: str) -> str:
    """An event's words: 'build rooms', 'convert at one time'."""
    return EVENT_NAMES.get(event, event.replace("_", " "))


def _trigger_words(t: N.Trigger) -> str:
    return {"on_play": "on play", "once": "once …"}.get(t.kind, t.kind)


# ---------------------------------------------------------------- pack-level checks

def _text(entry, key):
    value = entry.get(key) if isinstance(entry, dict) else None  # a wrong shape is the schema's to report
    return value if isinstance(value, str) else None


def _players_of(entry, lo, hi, report):
    """The player counts an action space is used with; None when its 'players' is wrong (reported here,
    or by the schema when it is not a player count at all)."""
    spec = entry.get("players")
    if spec is None:
        return list(range(lo, hi + 1))
    text = str(spec)
    span = entry.span_of("players") if isinstance(entry, LDict) else Span("<memory>")
    try:
        if text.endswith("+"):
            a = int(text[:-1])
            out = list(range(a, hi + 1)) if a <= hi else [a]
        elif "-" in text:
            a, b = (int(x) for x in text.split("-", 1))
            if a > b:
                report.error("E213", f"'players: {text}' is an empty range (write {b}-{a})", span)
                return None
            out = list(range(a, b + 1))
        else:
            out = [int(text)]
    except ValueError:   # a decimal number such as 4.0: the schema's "integer" takes it for 4
        report.error("E213", f"'players: {text}' is not a player count: write 3, 3+ or 1-2", span)
        return None
    if any(not lo <= n <= hi for n in out):
        report.error("E213", f"'players: {text}' is outside this pack's {lo} to {hi} players", span)
        return None
    return out


def _card_players(entry, lo, hi, report):
    """'players: 3+' of a card: the smallest player count whose deck holds it (within the pack's)."""
    spec = entry.get("players")
    if not spec:
        return None
    n = int(str(spec).rstrip("+"))
    if not lo <= n <= hi:
        report.error("E213", f"'players: {spec}' is outside this pack's {lo} to {hi} players",
                     entry.span_of("players") if isinstance(entry, LDict) else Span("<memory>"))
    return n


def _unreadable_texts(entry) -> set:
    """The text keys of an entry whose values the schema has refused (they must not be read): a text key
    is checked only when it is text within the length limit, as the schema wants it."""
    from .parser import MAX_TEXT
    return {k for k, v in entry.items() if not isinstance(v, str) or len(v) > MAX_TEXT}


def _check_piles(rules, report):
    """'-> top of pile', 'take the top of the pile' and pile_top() read the card's pile: the card must have
    one."""
    piles = any(isinstance(n, N.Verb) and n.name == "pile" for r in rules for n in N.walk(r))
    if piles:
        return
    for r in rules:
        for ex in r.exchanges:
            if ex.pile:
                report.error("E212", "'-> top of pile' needs a pile on this card ('on play: pile … on this card')",
                             ex.span)
        for n in N.walk(r):
            if isinstance(n, N.Verb) and n.name == "take_pile_top":
                report.error("E212", "'take the top of the pile' needs a pile on this card ('on play: pile … on "
                             "this card')", n.span)
            elif isinstance(n, N.Call) and n.name == "pile_top":
                report.error("E212", "pile_top() reads the pile on this card, and it has none ('on play: pile … on "
                             "this card')", n.span)


def _game_settings(src: PackSource, report: Report) -> dict | None:
    g = src.game
    try:
        players = (int(g["players"]["min"]), int(g["players"]["max"]))
        goods = g["goods"]
        settings = {
            "id": src.id,
            "name": str(g.get("name", src.id)),
            "players": players,
            "rounds": int(g["rounds"]),
            "stages": sorted((int(k), (int(v[0]), int(v[1]))) for k, v in g["stages"].items()),
            "harvest_rounds": sorted(int(r) for r in g["harvest_after_rounds"]),
            "rows": int(g["farmyard"]["rows"]),
            "cols": int(g["farmyard"]["columns"]),
            "house": list(g["farmyard"]["house"]),
            "materials": [str(m) for m in g["house_materials"]],
            "start_people": int(g["family"]["start"]),
            "max_people": int(g["family"]["max"]),
            "max_fences": int(g["supply"]["fences"]),
            "max_stables": int(g["supply"]["stables"]),
            "goods": {"food": str(goods["food"]), "crops": [str(x) for x in goods["crops"]],
                      "building": [str(x) for x in goods["building"]], "animals": [str(x) for x in goods["animals"]]},
            "sowing": {str(k): int(v) for k, v in g["sowing"].items()},
            "housing": {str(k): int(v) for k, v in g["housing"].items()},
            "hand": ({k: int(v) for k, v in g["hand"].items()} if isinstance(g.get("hand"), dict) else None),
            "decks": [str(d) for d in g.get("decks") or ()],
            "solo_target": int(g["solo_target"]) if g.get("solo_target") is not None else None,
            "reverse_passes": sorted({(int(e["round"]), int(e["pass"])) for e in g.get("reverse_passes") or ()}),
            "arriving_animals": {"cook": bool((g.get("arriving_animals") or {}).get("cook", True)),
                                 "leftovers": str((g.get("arriving_animals") or {}).get("leftovers", "supply"))},
            "pastures_per_animal_kind": (int(g["pastures_per_animal_kind"])
                                         if g.get("pastures_per_animal_kind") is not None else None),
            "fence_rules": {"adjacent_pastures": bool((g.get("fence_rules") or {}).get("adjacent_pastures", True)),
                            "unfinished_fences": bool((g.get("fence_rules") or {}).get("unfinished_fences", False))},
            "draft": [{"kinds": [str(k) for k in e["kinds"]], "deal": None if e["deal"] == "all" else int(e["deal"]),
                       "picks": [int(x) for x in e["picks"]], "rest": str(e.get("rest", "keep")),
                       "pass": -1 if e.get("pass") == "right" else 1} for e in g.get("draft") or ()],
            "redraw": bool(g.get("redraw", False)),
            "swaps": int(g.get("swaps") or 0),
            "draw_after_play": bool(g.get("draw_after_play", False)),
            "round_order": str(g.get("round_order", "shuffled")),
            "campaign": _campaign_settings(g.get("campaign"), players),
            "deal_by_class": {str(k): [{**({"players": int(c["players"])} if "players" in c else {}),
                                        **({"passing": bool(c["passing"])} if "passing" in c else {}),
                                        "count": int(c["count"])} for c in v]
                              for k, v in (g.get("deal_by_class") or {}).items()},
            "open_display": ({k: (bool(v) if k == "refill" else int(v)) for k, v in g["open_display"].items()}
                             if g.get("open_display") else {}),
        }
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        # the schema has reported what is missing or wrong; if it has not, say so here (never fail silently)
        files = {g.span.file} | {sp.file for sp in g.value_spans.values()}
        if not any(d.span.file in files for d in report.errors):
            what = f"the setting '{exc.args[0]}'" if isinstance(exc, KeyError) and exc.args else "a setting"
            report.error("E111", f"game.yaml is missing {what}, or a setting has the wrong shape", g.span)
        return None
    lo, hi = players
    if lo > hi:
        report.error("E130", f"players: min {lo} is more than max {hi}", g.span_of("players"))
        return None   # no player count is left: every space would be reported as used with none
    family = g["family"]
    start, most = settings["start_people"], settings["max_people"]
    if start > most:
        report.error("E130", f"family: start {start} is more than max {most}", family.span_of("start"))
    elif start > len(settings["house"]):
        report.error("E130", f"family: {start} people cannot live in the {len(settings['house'])} rooms of the "
                     "starting house (one person a room)", family.span_of("start"))
    rounds = settings["rounds"]
    covered = []
    stages_map = g["stages"]
    falling = False
    for stage, (a, b) in settings["stages"]:
        if a > b:
            falling = True  # its rounds are missing from the cover because of this one mistake
            report.error("E131", f"stage {stage} spans rounds {a} to {b}: its first round comes after its last",
                         stages_map.span_of(str(stage)))
        elif b > rounds or a < 1:
            report.error("E131", f"stage {stage} spans rounds {a} to {b}, outside 1 to {rounds}",
                         stages_map.span_of(str(stage)))
        covered.extend(r for r in range(a, b + 1) if 1 <= r <= rounds)  # rounds outside: reported just above
    if not falling and sorted(covered) != list(range(1, rounds + 1)):
        missing = sorted(set(range(1, rounds + 1)) - set(covered))
        twice = sorted({r for r in covered if covered.count(r) > 1})
        what = (f"round {', '.join(map(str, missing))} is in no stage" if missing else
                f"round {', '.join(map(str, twice))} is in more than one stage")
        report.error("E131", f"the stages must cover rounds 1 to {rounds} once each: {what}", g.span_of("stages"))
    _check_draft(settings, g, report)
    _check_campaign(settings, g, report)
    _check_deal_by_class(settings, g, report)
    for r, _k in settings["reverse_passes"]:
        if r > rounds:
            report.error("E131", f"reverse_passes names round {r}, but the game has {rounds} rounds",
                         g.span_of("reverse_passes"))
    harvest = g["harvest_after_rounds"]
    for i, r in enumerate(settings["harvest_rounds"]):
        if not 1 <= r <= rounds:
            idx = next((k for k, v in enumerate(harvest) if v == r), None)
            span = harvest.span_of(idx) if idx is not None else g.span_of("harvest_after_rounds")
            report.error("E131", f"harvest after round {r}, but the game has {rounds} rounds", span)
    from runtime.farm import grid
    gr = grid(settings["rows"], settings["cols"])
    cells = []
    for name in settings["house"]:
        try:
            cells.append(gr.index(str(name)))
        except ValueError as exc:
            report.error("E132", str(exc), g["farmyard"].span_of("house"))
    settings["start_rooms"] = cells
    for name in settings["goods"]["crops"]:
        if name not in settings["sowing"]:
            report.error("E133", f"sowing: no yield given for '{name}'", g.span_of("sowing"))
    names = [settings["goods"]["food"]] + settings["goods"]["crops"] + settings["goods"]["building"] + settings["goods"]["animals"]
    unknown = [n for n in names if n not in Q.GOODS_IN_SUPPLY]
    if unknown:
        report.error("E134", f"the runtime knows no good '{unknown[0]}' (it knows: {', '.join(Q.GOODS_IN_SUPPLY)})",
                     g.span_of("goods"))
    return settings


def _campaign_settings(c, players) -> dict | None:
    """The campaign rules of game.yaml in their compiled form (docs/variants.md, Campaigns), or None."""
    if c is None:
        return None
    keep = c.get("keep")
    food = c.get("food_over_target")
    return {
        "games": int(c["games"]) if c.get("games") is not None else None,
        "more_games": bool(c.get("more_games", False)),
        "players": sorted(int(n) for n in c.get("players") or range(players[0], players[1] + 1)),
        "points_by_rank": [[int(x) for x in row] for row in c.get("points_by_rank") or ()],
        "winner": str(c.get("winner", "campaign_points" if c.get("points_by_rank") else "game_points")),
        "start_player": str(c.get("start_player", "drawn")),
        "food_for_last": int(c.get("food_for_last") or 0),
        "keep": ({"occupations": int(keep["occupations"]), "optional": bool(keep.get("optional", False)),
                  "add": bool(keep.get("add", False)),
                  "hand_less": {k: int(v) for k, v in sorted((keep.get("hand_less") or {}).items())}}
                 if keep is not None else None),
        "targets": [int(t) for t in c.get("targets") or ()],
        "target_step": int(c.get("target_step") or 0),
        "food_over_target": {"points": int(food["points"]), "food": int(food["food"])} if food is not None else None,
        "missed_target": str(c.get("missed_target", "go_on")),
    }


def _check_deal_by_class(settings, g, report):
    """A deal by class gives the hand size of its kind (a drafted kind is dealt by the draft instead)."""
    hand = settings["hand"] or {}
    drafted = {k for phase in settings["draft"] for k in phase["kinds"]}
    for kind, classes in settings["deal_by_class"].items():
        span = g["deal_by_class"].span_of(kind)
        total = sum(c["count"] for c in classes)
        if hand.get(kind, 0) != total and kind not in drafted:
            report.error("E137", f"deal_by_class deals {total} {kind}, but 'hand' says {hand.get(kind, 0)}", span)


def _check_campaign(settings, g, report):
    """A campaign is for player counts the pack allows, with campaign points for every rank."""
    c = settings["campaign"]
    if c is None:
        return
    lo, hi = settings["players"]
    span = g["campaign"].span_of("players") if "players" in g["campaign"] else g.span_of("campaign")
    outside = [n for n in c["players"] if not lo <= n <= hi]
    if outside:
        report.error("E139", f"the campaign is for {outside[0]} players, but the pack is for {lo} to {hi}", span)
    for i, row in enumerate(c["points_by_rank"]):
        if len(row) < max(c["players"]):
            report.error("E139", f"campaign points after game {i + 1} give {len(row)} ranks, but the campaign is "
                         f"for up to {max(c['players'])} players", g["campaign"]["points_by_rank"].span_of(i))
    if c["winner"] == "campaign_points" and not c["points_by_rank"]:
        report.error("E139", "the campaign is won on campaign points, but 'points_by_rank' gives none",
                     g["campaign"].span_of("winner") if "winner" in g["campaign"] else g.span_of("campaign"))
    if (c["food_over_target"] is not None or c["missed_target"] == "replay") and not c["targets"]:
        report.error("E139", "the campaign gives food over the target or replays a missed target, but "
                     "'targets' gives none", g.span_of("campaign"))


def _check_draft(settings, g, report):
    """A draft must hand each player the hand size the pack gives for each kind it drafts."""
    hand = settings["hand"] or {}
    for i, phase in enumerate(settings["draft"]):
        span = g["draft"].span_of(i) if hasattr(g["draft"], "span_of") else g.span_of("draft")
        picked = sum(phase["picks"])
        if phase["deal"] is not None and picked > phase["deal"]:
            report.error("E137", f"the draft keeps {picked} cards of {phase['deal']} dealt", span)
            continue
        kept = picked + ((phase["deal"] - picked) if phase["rest"] == "keep" and phase["deal"] is not None else 0)
        if phase["rest"] == "keep" and phase["deal"] is None:
            report.error("E137", "a draft that deals 'all' cards must remove the rest ('rest: remove')", span)
            continue
        for kind in phase["kinds"]:
            if hand.get(kind) != kept:
                report.error("E137", f"the draft gives each player {kept} {kind}, but 'hand' says "
                             f"{hand.get(kind, 0)}", span)


def _tile_farm_frame(g, settings, goods_text, report) -> dict:
    """The settings of a farm of tiles (all optional): room prices by material, pasture tiles, the tile a
    field takes, how many fields a sowing sows, people eating together. Stored in ``settings``; returns
    the parsed room prices by material."""
    costs = g.get("costs")
    by_material = costs.get("room_by_material") if isinstance(costs, dict) else None
    rooms = {}
    if isinstance(by_material, dict):
        for mat in by_material:
            if mat not in settings["materials"]:
                report.error("E141", f"room_by_material: '{mat}' is not one of the house materials "
                             f"({', '.join(settings['materials'])})", by_material.key_span(mat))
                continue
            node = goods_text(by_material, mat, constant=True)
            if node is not None:
                rooms[str(mat)] = node
    tiles = []
    seen = set()
    for t in g.get("pasture_tiles") or []:   # each a mapping with a text id: the frame passed the schema
        if t["id"] in seen:
            report.error("E138", f"pasture tile '{t['id']}' is listed twice", t.span)
            continue
        seen.add(t["id"])
        node = goods_text(t, "cost", constant=True)
        if node is not None:
            tiles.append({"id": t["id"], "name": str(t.get("name", t["id"])), "spaces": int(t.get("spaces", 1)),
                          "cost": node, "capacity": int(t.get("capacity", 1)), "supply": int(t.get("supply", 1))})
    settings["pasture_tiles"] = tiles
    field_tile = g.get("field_tile")
    if field_tile is not None and field_tile not in seen:
        report.error("E138", f"field_tile: '{field_tile}' is not one of the pasture tiles"
                     f"{did_you_mean(str(field_tile), sorted(seen))}", g.span_of("field_tile"))
        field_tile = None
    settings["field_tile"] = field_tile
    settings["fields_next_to"] = str(g.get("fields_next_to") or "field")
    settings["stables_on"] = str(g.get("stables_on") or "any_space")
    settings["sowing_fields"] = int(g["sowing_fields"]) if g.get("sowing_fields") is not None else None
    shared = g.get("shared_supply") if isinstance(g.get("shared_supply"), dict) else {}
    settings["shared_supply"] = {str(k): int(v) for k, v in sorted(shared.items())}
    feeding = g.get("feeding")
    together = feeding.get("together") if isinstance(feeding, dict) else None
    settings["feeding_group"] = ((str(together["tag"]), int(together["people"]), int(together["food"]))
                                 if isinstance(together, dict) and "tag" in together else None)
    return rooms


def _counts_text(counts) -> str:
    counts = sorted(counts)
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]} players"
    return f"{', '.join(map(str, counts))} player{'s' if counts != [1] else ''}"


def _check_round_cards(settings, rounds, src, g, report, lo, hi):
    """Each stage needs as many round cards as it has rounds, for every player count (one message each)."""
    stages = dict(settings["stages"])
    stage_of_span = {}
    for u in rounds:
        stage_of_span.setdefault(u.data["stage"], u.entry.span_of("stage"))
    for stage, (a, b) in stages.items():
        if not 1 <= a <= b <= settings["rounds"]:
            continue  # the stage itself is reported (E131); its round cards cannot be counted against it
        need = b - a + 1
        wrong = {}
        for n in range(lo, hi + 1):
            k = sum(1 for u in rounds if u.data["stage"] == stage and n in u.data["players"])
            if k != need:
                wrong.setdefault(k, []).append(n)
        for k, counts in wrong.items():
            span = stage_of_span.get(stage) or g["stages"].span_of(str(stage))
            report.error("E136", f"stage {stage} has {k} round card{'s' if k != 1 else ''} for "
                         f"{_counts_text(counts)} but {need} round{'s' if need != 1 else ''} "
                         f"(rounds {a} to {b})" if need > 1 else
                         f"stage {stage} has {k} round card{'s' if k != 1 else ''} for {_counts_text(counts)} "
                         f"but 1 round (round {a})", span)


def _teams_frame(g, settings, sym, goods_text, report, space_names) -> dict | None:
    """Team play (``teams`` of game.yaml): the pairs of seats (stored in ``settings``), and the parsed
    prices of the partner acts; None without teams."""
    teams = g.get("teams")
    if not isinstance(teams, dict):
        return None
    lo, hi = settings["players"]
    n = int(teams.get("players") or 0)
    if not lo <= n <= hi:
        report.error("E226", f"teams: {n} players is outside this pack's {lo} to {hi} players", teams.span_of("players"))
        return None
    partners = str(teams.get("partners") or "")
    if partners == "opposite":
        if n % 2:
            report.error("E226", f"teams: partners sitting opposite need an even number of players, not {n}",
                         teams.span_of("partners"))
            return None
        pairs = [[i, i + n // 2] for i in range(n // 2)]
    else:
        try:
            pairs = [[int(s) - 1 for s in team.split("+")] for team in partners.split(",")]
        except ValueError:
            pairs = []
        if sorted(s for pair in pairs for s in pair) != list(range(n)) or any(len(pair) < 2 for pair in pairs):
            report.error("E226", f"teams: partners is 'opposite' or teams of seats naming every seat from 1 to {n} "
                         f"once, e.g. '1+2, 3+4'", teams.span_of("partners"))
            return None
    tag = teams.get("exchange_tag")
    if tag is not None and not sym.knows("space_tags", tag):
        report.error("E205", f"no action space has the tag '{tag}'{did_you_mean(tag, sym.space_tags)}",
                     teams.span_of("exchange_tag"))
    settings["teams"] = {
        "players": n, "pairs": pairs, "score": str(teams.get("score", "lower")),
        "exchange_tag": str(tag) if tag is not None else None,
        "fence_per": int(teams.get("fence_group") or 1) if teams.get("fence_extra") else None,
        "plow": bool(teams.get("plow", False)), "share_costs": bool(teams.get("share_costs", False)),
        # the prices as written and the exchange spaces' names, for the docs (the parsed prices are in the frame)
        "texts": {**{k: str(teams.get(k) or "") for k in ("exchange_fee", "rooms", "stables", "fence_extra")},
                  "spaces": [name for name, tags in space_names.values() if tag is not None and tag in tags]},
    }
    return {"fee": goods_text(teams, "exchange_fee", constant=True) if teams.get("exchange_fee") else None,
            "rooms": goods_text(teams, "rooms", allow_material=True, constant=True) if teams.get("rooms") else None,
            "stables": goods_text(teams, "stables", constant=True) if teams.get("stables") else None,
            "fence_extra": goods_text(teams, "fence_extra", constant=True) if teams.get("fence_extra") else None}


def check_pack(src: PackSource, report: Report, skip_cards=frozenset()) -> CheckedPack | None:
    """Parse and check every effect of the pack; None when the frame itself is unusable."""
    if not getattr(src.game, "schema_ok", True):
        return None  # every effect depends on the frame; the schema has reported what is wrong with it
    settings = _game_settings(src, report)
    if settings is None:
        return None
    g = src.game
    sym = Symbols(src, settings)
    chk = Checker(sym, report)
    lo, hi = settings["players"]

    # ---- the game frame
    def goods_text(owner, key, allow_material=False, constant=False):
        text = _text(owner, key)
        node = parse(text, "goods", report) if text is not None else None
        if node is not None:
            chk.goods(node, allow_material=allow_material, constant=constant)
        return node

    frame = {"settings": settings}
    # the schema reports missing settings and wrong shapes; here they only must not stop the checking
    frame["start_goods"] = (goods_text(g.get("start_goods"), "start_player"),
                            goods_text(g.get("start_goods"), "others"))
    frame["feeding"] = (goods_text(g.get("feeding"), "per_person"), goods_text(g.get("feeding"), "per_newborn"))
    costs = g.get("costs")
    frame["costs"] = {k: goods_text(costs, k, allow_material=True, constant=True)
                      for k in ("room", "renovation_per_room", "renovation", "stable", "fence")}
    frame["room_by_material"] = _tile_farm_frame(g, settings, goods_text, report)
    exch = []
    if _text(g, "exchanges"):
        rules = parse(g["exchanges"], "rules", report) or []
        for r in rules:
            if r.kind != "exchanges":
                report.error("E212", "game.yaml 'exchanges' may hold only exchange rules ('any time: …')", r.span)
            elif r.guard is not None:
                report.error("E212", "game.yaml 'exchanges' are the rules' own, open to every player: a guard "
                             "('if …') belongs to a card's exchange", r.span)
                continue
            chk.rule(r, "game")
            exch.append(r)
    frame["exchanges"] = exch
    scoring, penalties = [], []
    categories = g.get("scoring") if isinstance(g.get("scoring"), list) else []
    for i, cat in enumerate(categories):   # each a mapping with a text id: the frame passed the schema
        text = _text(cat, "points")
        if text is None:
            report.error("E111", f"scoring category '{cat.get('id')}' is missing the required key 'points'", cat.span)
            continue
        node = parse(text, "expr", report)
        if node is not None:
            chk.nobody_placed, chk.score_table = "at scoring", True
            chk.expr(node)
            chk.nobody_placed, chk.score_table = None, False
            scoring.append((str(cat["id"]), str(cat.get("label", cat["id"])), node, cat.span))
        penalty = _text(cat, "penalty")
        node = parse(penalty, "expr", report) if penalty is not None else None
        if node is not None:
            chk.nobody_placed, chk.score_table = "at scoring", True
            chk.expr(node)
            chk.nobody_placed, chk.score_table = None, False
            penalties.append((str(cat["id"]), node, cat.span))
    frame["scoring"] = scoring
    frame["score_penalties"] = penalties
    tb = _text(g, "tie_break")
    frame["tie_break"] = parse(tb, "expr", report) if tb else None
    if frame["tie_break"] is not None:
        chk.expr(frame["tie_break"])
    frame["teams"] = _teams_frame(g, settings, sym, goods_text, report,
                                  {e["id"]: (str(e.get("name", e["id"])), tuple(e.get("tags") or ()))
                                   for e in src.spaces + src.rounds if "id" in e})

    # ---- action spaces and round cards
    def space_texts(e, counts, variants):
        """Parse and check the effect and accumulate texts of a space; the trees of each player count."""
        parsed: dict = {}
        vdata = {}
        chk.counts = counts
        for n, (ef, ac) in variants.items():
            key_e = ("e", id(ef), ef)
            if ef is not None and key_e not in parsed:
                node = parse(ef, "body", report)
                if node is not None:
                    chk.body(node, "space")
                    chk.bound_work(node)
                parsed[key_e] = node
            key_a = ("a", id(ac), ac)
            if ac is not None and key_a not in parsed:
                node = parse(ac, "goods", report)
                if node is not None:
                    chk.goods(node, constant=True, what="accumulated goods")
                parsed[key_a] = node
            vdata[n] = (parsed.get(key_e) if ef is not None else None, parsed.get(key_a) if ac is not None else None)
        chk.counts = list(range(lo, hi + 1))
        return vdata

    unusable = set()  # spaces and round cards left out for a reported mistake

    def space_units(entries, kind):
        out = []
        for e in entries:
            if not getattr(e, "schema_ok", True):
                # the schema has reported what is wrong with it; the well-formed texts are still checked,
                # so that every problem of the file is reported at once
                bad = _unreadable_texts(e)
                texts = tuple(_text(e, k) if k not in bad else None for k in ("effect", "accumulate"))
                space_texts(e, list(range(lo, hi + 1)), {n: texts for n in range(lo, hi + 1)})
                continue
            sid = str(e.get("id"))
            counts = _players_of(e, lo, hi, report)
            players_ok = counts is not None
            counts = counts or list(range(lo, hi + 1))  # a wrong 'players' is reported; check the rest
            if kind == "round":
                if e.get("stage") is None:
                    report.error("E111", f"round card '{sid}' is missing the required key 'stage'", e.span)
                    unusable.add(sid)
                    continue
                stage_ids = [s for s, _ in settings["stages"]]
                if int(e["stage"]) not in stage_ids:
                    report.error("E131", f"stage {e['stage']} is not one of the pack's stages "
                                 f"({', '.join(map(str, stage_ids))})", e.span_of("stage"))
            overrides = e.get("by_players") or {}
            for key in overrides:
                if int(key) not in counts:
                    report.error("E213", f"by_players gives {key} players, but '{sid}' is not used with {key} players",
                                 overrides.key_span(key))
            variants = {}
            for n in counts:
                over = overrides.get(str(n)) or {}
                effect_text = _text(over, "effect") if "effect" in over else _text(e, "effect")
                acc_text = _text(over, "accumulate") if "accumulate" in over else _text(e, "accumulate")
                variants[n] = (effect_text, acc_text)
            if not any(ef or ac for ef, ac in variants.values()):
                if players_ok:
                    report.error("E111", f"action space '{sid}' needs an 'effect' or 'accumulate'", e.span)
                unusable.add(sid)
                continue
            vdata = space_texts(e, counts, variants)
            if not players_ok:
                unusable.add(sid)
                continue
            tags = [str(t) for t in (e.get("tags") or [])]
            out.append(Unit(kind, sid, e, e.span, {"name": str(e.get("name", sid)), "players": counts,
                                                  "stage": int(e["stage"]) if e.get("stage") is not None else None,
                                                  "tags": tags, "variants": vdata,
                                                  "group": str(e["group"]) if e.get("group") is not None else None}))
        return out

    spaces = space_units(src.spaces, "space")
    for e in src.spaces:
        if e.get("stage") is not None:
            report.error("E135", f"'{e.get('id')}' is a board action space and cannot have a 'stage' "
                         "(round cards go in rounds.yaml)", e.span_of("stage"))
    rounds = space_units(src.rounds, "round")
    if all(getattr(e, "schema_ok", True) and str(e.get("id")) not in unusable for e in src.rounds):
        _check_round_cards(settings, rounds, src, g, report, lo, hi)

    # ---- improvements and cards
    def card_texts(e, cid, bad=frozenset()):
        """Parse and check a card's cost, prerequisite and rules (leaving out the keys in ``bad``)."""
        out = {}
        for key, kind, what in (("cost", "cost", "leave it out when the card costs nothing"),
                                ("requires", "cond", "leave it out when the card has no prerequisite")):
            text = _text(e, key) if key not in bad else None
            out[key] = None
            if text is not None and not text.strip():
                report.error("E218", f"'{key}' is empty ({what})", e.span_of(key))
            elif text is not None:
                out[key] = parse(text, kind, report)
        out["cost_ways"] = None
        if isinstance(out["cost"], N.Ways):
            out["cost_ways"] = _cost_ways(out["cost"], e, chk, report)
            out["cost"] = out["cost_ways"][0]
        elif out["cost"] is not None:
            chk.goods(out["cost"])
        if out["requires"] is not None:
            chk.expr(out["requires"])
        effects = _text(e, "effects") if "effects" not in bad else None
        rules = parse(effects, "rules", report) if effects else []
        chk.card_id = cid
        chk.card_kind = "major" if e in src.majors else str(e.get("kind"))
        for r in rules or []:
            chk.rule(r, "card")
        chk.card_id = None
        if rules is not None and getattr(rules, "complete", True):
            _check_piles(rules, report)
        out["rules"] = rules or []
        return out

    def _cost_ways(node, e, chk, report):
        """A card's alternative prices ('1 wood or 1 clay', docs/language.md 4.3): whole prices in plain
        numbers, each a different way to pay, for an improvement."""
        for way in node.ways:
            chk.goods(way, constant=True, what="alternative prices")
        seen = []
        for way in node.ways:
            key = sorted((it.good, it.amount.value if isinstance(it.amount, N.Num) else 1)
                         for it in way.items if isinstance(it, N.GoodsItem))
            if key in seen:
                report.error("E215", "this way to pay repeats an earlier one of the same card", way.span)
            seen.append(key)
        if str(e.get("kind")) == "occupation" and e not in src.majors:
            report.error("E300", "an occupation's cost has one way to pay (missing feature: alternative prices "
                         "of an occupation, docs/language.md 4.3)", node.span)
        return list(node.ways)

    def card_units(entries, kind):
        out = []
        for e in entries:
            cid = str(e.get("id"))
            if not getattr(e, "schema_ok", True):
                # the schema has reported what is wrong with it; the well-formed texts are still checked,
                # so that every problem of the file is reported at once
                card_texts(e, cid, _unreadable_texts(e))
                continue
            players = _card_players(e, lo, hi, report)
            data = {"name": str(e.get("name", cid)), "tags": [str(t) for t in (e.get("tags") or [])],
                    "points": int(e.get("points") or 0), "bonus_points": bool(e.get("bonus_points")),
                    "kind": "major" if kind == "major" else str(e.get("kind")),
                    "passing": bool(e.get("passing")), "deck": e.get("deck"), "number": e.get("number"),
                    "players": players,
                    "upgrade_of": [str(t) for t in (e.get("upgrade_of") or [])],
                    "returns": int(e.get("returns") or 1),
                    "returned_lose_claims": bool(e.get("returned_lose_claims"))}
            if data["upgrade_of"] and data["kind"] == "occupation":
                report.error("E212", "'upgrade_of' belongs to an improvement: an occupation returns no card",
                             e.span_of("upgrade_of"))
            if "returns" in e and (data["kind"] != "minor" or not data["upgrade_of"]):
                report.error("E212", "'returns' is how many cards of 'upgrade_of' a minor improvement's price "
                             "returns: it belongs to a minor with 'upgrade_of'", e.span_of("returns"))
            if "returned_lose_claims" in e and (data["kind"] != "minor" or not data["upgrade_of"]):
                report.error("E212", "'returned_lose_claims' is about the cards a minor improvement's price "
                             "returns: it belongs to a minor with 'upgrade_of'", e.span_of("returned_lose_claims"))
            for t in data["upgrade_of"]:
                if t in UPGRADE_KINDS and data["kind"] == "minor":
                    continue   # any major, minor or improvement in front of the player (docs/language.md 4.8)
                if not sym.knows("card_tags", t) and not sym.knows("cards", t):
                    report.error("E205", f"unknown card or tag '{t}' in upgrade_of"
                                 f"{did_you_mean(t, sym.card_tags | sym.cards)}", e.span_of("upgrade_of"))
            data.update(card_texts(e, cid))
            out.append(Unit(kind, cid, e, e.span, data))
        return out

    majors = card_units(src.majors, "major")
    cards = card_units([e for e in src.cards if str(e.get("id")) not in skip_cards], "card")
    return CheckedPack(src.id, src, frame, spaces, rounds, majors, cards, sym)
