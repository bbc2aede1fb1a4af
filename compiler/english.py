"""Card and action-space text in plain English, generated from the checked effect tree.

Every construct of the effect language has a rendering here; ``tests/test_english.py`` renders every
card, improvement and action space of every pack and fails on an empty or placeholder text. The words
are our own: the project never copies a card's printed text.
"""
from __future__ import annotations

from runtime import queries as Q
from runtime.words import plural_of

from . import nodes as N

PLACEHOLDER = "?"

_GOOD_PLURAL = {"vegetable": "vegetables", "sheep": "sheep", "boar": "wild boar", "cattle": "cattle",
                "food": "food", "grain": "grain", "wood": "wood", "clay": "clay", "reed": "reed", "stone": "stone"}
_GOOD_ONE = {"boar": "wild boar"}


def good_word(name: str, n) -> str:
    """A good's word for ``n`` of it: 'wild boar', '2 vegetables' (a good we have no word for keeps its id)."""
    if n == 1:
        return _GOOD_ONE.get(name, name)
    return _GOOD_PLURAL.get(name, name)

_QUANTITY = {
    "rooms": "room", "people": "person", "newborns": "newborn", "occupations": "occupation",
    "minors": "minor improvement", "majors": "major improvement", "improvements": "improvement",
    "fields": "field tile", "all_fields": "field", "grain_fields": "grain field", "vegetable_fields": "vegetable field",
    "empty_fields": "empty field", "planted_fields": "planted field", "grain_total": "grain (supply and fields)",
    "vegetable_total": "vegetable (supply and fields)", "pastures": "pasture",
    "pasture_spaces": "farmyard space in pastures", "pasture_tiles": "pasture tile", "stables": "stable",
    "fenced_stables": "fenced stable",
    "unfenced_stables": "unfenced stable", "empty_stables": "empty unfenced stable", "fences": "fence", "unused_spaces": "unused farmyard space",
    "animals": "animal", "building_resources": "building resource", "begging": "begging card",
    "card_points": "card point", "bonus_points": "bonus point", "round": "round number",
    "rounds_left": "complete round left to play", "players": "player", "rooms_built": "room built onto your house",
    "house_level": "renovation", "building_gained": "building resource gained this work phase",
    "after_harvest": "round right after a harvest", "harvest_round": "harvest round",
    "bonus_lost": "bonus point lost to cards", "score_negative": "scoring category with negative points",
    "event_size": "(size of what was just built)",
    "hand_occupations": "occupation in your hand", "hand_minors": "minor improvement in your hand",
    "people_home": "person at home not placed yet this round",
}

_PLURAL_WORD = {"person": "people", "child": "children", "wild boar": "wild boar", "sheep": "sheep", "cattle": "cattle",
                "complete round left to play": "complete rounds left to play",
                "room built onto your house": "rooms built onto your house",
                "building resource gained this work phase": "building resources gained this work phase",
                "round right after a harvest": "rounds right after a harvest",
                "farmyard space in pastures": "farmyard spaces in pastures",
                "occupation in your hand": "occupations in your hand",
                "minor improvement in your hand": "minor improvements in your hand",
                "bonus point lost to cards": "bonus points lost to cards",
                "scoring category with negative points": "scoring categories with negative points",
                "grain (supply and fields)": "grain (supply and fields)",
                "person at home not placed yet this round": "people at home not placed yet this round"}


def plural(word: str, n=2) -> str:
    """``word`` for ``n`` of it: the irregular words of card texts here, the regular rule is the runtime's
    (runtime/words.py, which the game log uses), so a card text and the log say the same plural."""
    if n == 1:
        return word
    if word in _PLURAL_WORD:
        return _PLURAL_WORD[word]
    if " (" in word:
        head, tail = word.split(" (", 1)
        return plural(head) + " (" + tail
    return plural_of(word)


class English:
    """Renders nodes with the pack's names for action spaces and cards."""

    def __init__(self, space_names=None, card_names=None, space_tags=None, card_tags=None):
        self.spaces = dict(space_names or {})
        self.cards = dict(card_names or {})
        self.space_tags = {k: list(v) for k, v in (space_tags or {}).items()}  # tag -> names of its spaces
        self.card_tags = {k: list(v) for k, v in (card_tags or {}).items()}    # tag -> names of its cards
        self.event = None  # the event of the rule being rendered (what 'event_size' measures)
        self.actor = None  # who acts in that event ('you': the acting player is the card's owner)
        self.categories = {}  # scoring category id -> its label in the pack's scoring table

    def category(self, cid: str) -> str:
        """A scoring category in words: its label in the pack's table ('Fields'), else its id."""
        return f'"{self.categories.get(cid, cid.replace("_", " "))}"'

    # ---------------------------------------------------------------- goods and numbers
    def good(self, name: str, n) -> str:
        return good_word(name, n)

    def goods(self, node) -> str:
        if node is None:
            return "nothing"
        parts = [self.item(it) for it in node.items]
        return _join(parts, "and")

    def price(self, d) -> str:
        """A card's price, with its other ways to pay ('1 wood or 1 clay', docs/language.md 4.3)."""
        if d.get("cost_ways"):
            ways = d["cost_ways"]
            # '2 wood, or 2 clay and 1 reed': the comma shows where a way of several goods begins
            word = ", or " if any(len(way.items) > 1 for way in ways) else " or "
            return word.join(self.goods(way) for way in ways)
        return self.goods(d["cost"])

    def item(self, it) -> str:
        if isinstance(it, N.PlayersGoods):
            parts = []
            for n, exact, g, _ in it.entries:
                who = f"{n} player{'s' if n != 1 else ''}" if exact else f"{n} or more players"
                parts.append(f"{self.goods(g)} with {who}")
            return "; ".join(parts)
        if it.per_quantity == "event_size" and self.event in _EVENT_UNIT:   # '1 food for every 2 grain baked'
            amount = self.amount(it.amount)
            one = _EVENT_UNIT[self.event]
            done = _EVENT_DONE.get(self.event, "")
            if it.per_divisor != 1:
                return (f"{amount} {self.good(it.good, 2 if amount != '1' else 1)} for every {it.per_divisor} "
                        f"{one if one == 'grain' else plural(one)}{done}")
            return f"{amount} {self.good(it.good, 2 if amount != '1' else 1)} for each {one}{done}"
        if it.per_quantity:
            amount = self.amount(it.amount)
            what = _QUANTITY.get(it.per_quantity, it.per_quantity.replace("_", " "))
            if it.per_divisor != 1:
                many = self.good(it.per_quantity, 2) if it.per_quantity in _GOOD_PLURAL else plural(what, 2)
                return f"{amount} {self.good(it.good, 2 if amount != '1' else 1)} for every {it.per_divisor} {many}"
            if it.per_quantity in _GOOD_PLURAL:
                what = self.good(it.per_quantity, 1)
            return f"{amount} {self.good(it.good, 2 if amount != '1' else 1)} for each {what}"
        if isinstance(it.amount, N.Tier):
            t = it.amount
            entries = [(k, v) for k, v, *_ in t.entries]
            if entries and (entries[0][1] == 0 or entries[0][0] <= 0) or len(entries) <= 2:
                return self.tier_ranges(entries, it.good, t.value)
            values = "/".join(str(v) for _, v in entries)
            limits = "/".join(str(k) for k, _ in entries)
            if isinstance(t.value, N.Quantity) and t.value.name == "round":
                return f"{values} {self.good(it.good, 2)} from round {limits} on"
            if isinstance(t.value, N.History):
                return f"{values} {self.good(it.good, 2)} when {self.expr(t.value)} is {limits} or more"
            return f"{values} {self.good(it.good, 2)} for at least {limits} {self.quantity_words(t.value)}"
        amount = self.amount(it.amount)
        n = it.amount.value if isinstance(it.amount, N.Num) else (1 if it.amount is None else 2)
        return f"{amount} {self.good(it.good, n)}"

    def tier_ranges(self, entries, good, value) -> str:
        """'nothing with 0 occupations, 1 food with 1 or more' for tier(occupations; 0: 0, 1: 1) food
        (``good`` None: plain numbers, '-1 with 0 or 1 fields, 1 with 2 fields, …')."""
        what = self.quantity_words(value)
        one = what
        if isinstance(value, N.Quantity):
            one = self.good(value.name, 1) if value.name in _GOOD_PLURAL else \
                _QUANTITY.get(value.name, value.name.replace("_", " "))
        parts = []
        for i, (k, v) in enumerate(entries):
            if i + 1 < len(entries):
                hi = entries[i + 1][0] - 1
                count = f"{k}" if hi == k else f"{k} to {hi}"
                if hi == k == 1:
                    count = f"1 {one}"
            else:
                count = f"{k} or more"
            count = count if count.endswith(one) else f"{count} {what}"
            if good is None:
                amount = str(v)
            else:
                amount = "nothing" if v == 0 else f"{v} {self.good(good, v)}"
            parts.append(f"{amount} with {count}")
        return ", ".join(parts)

    def amount(self, node) -> str:
        if node is None:
            return "1"
        if isinstance(node, N.Num):
            return str(node.value)
        if isinstance(node, N.UpTo):   # the player chooses how many (docs/language.md 4.12 UPN)
            limit = node.limit
            return f"up to {limit.value if isinstance(limit, N.Num) else f'({self.expr(limit)})'}"
        return f"({self.expr(node)})"

    def how_many(self, node) -> str:
        """A number said after 'as many … as': 'you have sheep' for a count of yours, else its words."""
        if _counted(node):
            return f"you have {self.quantity_words(node)}"
        return self.expr(node)

    def quantity_words(self, node) -> str:
        if isinstance(node, N.Quantity):
            if node.name in _GOOD_PLURAL:
                return self.good(node.name, 2)
            return plural(_QUANTITY.get(node.name, node.name.replace("_", " ")))
        return self.expr(node)

    # ---------------------------------------------------------------- expressions and conditions
    def expr(self, node) -> str:
        if isinstance(node, N.Num):
            return str(node.value)
        if isinstance(node, N.Quantity):
            if node.name in _GOOD_PLURAL:
                return f"your {self.good(node.name, 2)}"
            if node.name == "event_size":
                return f"the number of {Q.EVENT_SIZES.get(self.event, 'things it made')}"
            if node.name == "is_owner":
                return "they own this card"
            if node.name in ("round", "rounds_left", "players", "after_harvest", "harvest_round"):
                return {"round": "the round number", "rounds_left": "the complete rounds left",
                        "players": "the number of players", "after_harvest": "1 right after a harvest",
                        "harvest_round": "1 in a harvest round"}[node.name]
            return f"your {plural(_QUANTITY.get(node.name, node.name.replace('_', ' ')))}"
        if isinstance(node, N.Call):
            args = [self.arg(a) for a in node.args]
            inner = [_their(x) for x in args]

            def of(who):  # a value of another player: "the acting player's rooms"
                a = node.args[0] if node.args else None
                if who == "the acting player" and self.actor == "you":   # the owner acts: 'your rooms'
                    return f"your {self.quantity_words(a)}" if isinstance(a, N.Quantity) else inner[0]
                if isinstance(a, N.Quantity):
                    return f"{who}'s {self.quantity_words(a)}"
                return f"{inner[0]} (for {who})"
            words = {
                "actor": lambda: of("the acting player"),
                "owner": lambda: of("the card owner"),
                "before": lambda: f"{of('the acting player')} just before it",
                "left": lambda: of("your left neighbour"),
                "right": lambda: of("your right neighbour"),
                "others_sum": lambda: f"the total, over the other players, of {inner[0]}",
                "all_min": lambda: f"the fewest, over all players, of {inner[0]}",
                "all_max": lambda: f"the most, over all players, of {inner[0]}",
                "all_sum": lambda: (f"the number of cards of all players (you included) that are "
                                    f"{self.arg(node.args[0].args[0])}"
                                    if isinstance(node.args[0], N.Call) and node.args[0].name == "cards"
                                    else f"the total, over all players, of {inner[0]}"),
                "count_others": lambda: f"the number of other players for whom {inner[0]}",
                "count_players": lambda: f"the number of players (you included) for whom {inner[0]}",
                "fewest": lambda: f"nobody has less of {args[0]}",
                "only_most": lambda: f"every other player has less of {args[0]}",
                "only_fewest": lambda: f"every other player has more of {args[0]}",
                "rank": lambda: f"your place in {args[0]} (1 for the most)",
                "event_goods": lambda: f"the {_GROUP_WORDS.get(node.args[0].name) or self.good(node.args[0].name, 2)} it brought",
                "event_card": lambda: f"the card is {args[0]}",
                "event_paid": lambda: f"the {_GROUP_WORDS.get(node.args[0].name) or self.good(node.args[0].name, 2)} "
                                      + ("paid for it" if self.event in ("build_major", "play_minor", "build_improvement",
                                                                         "play_occupation") else "it took"),
                "event_via": lambda: ("an action space gave it" if self.event == "gain" else _VIA_WORDS["space"])
                if isinstance(node.args[0], N.Quantity) and node.args[0].name == "space"
                else _VIA_WORDS.get(node.args[0].name) if isinstance(node.args[0], N.Quantity)
                and node.args[0].name in _VIA_WORDS else (f"you harvested from {args[0]}" if self.event == "harvest"
                                                          else f"it was done with {args[0]}"),
                "during": lambda: {"work_phase": "it is the work phase", "harvest": "it is a harvest",
                                   "field_phase": "it is the field phase of a harvest",
                                   "feeding": "it is the feeding phase of a harvest",
                                   "breeding": "it is the breeding phase of a harvest"}.get(node.args[0].name, args[0]),
                "event_space": lambda: "it happened on " + (self.space_ref(node.args[0].name, True)
                                                            if isinstance(node.args[0], N.TagRef) else args[0]),
                "occupied": lambda: f"{args[0]} is occupied",
                "space_goods": lambda: f"the {_GROUP_WORDS.get(node.args[1].name) or self.good(node.args[1].name, 2)} "
                                       "lying on " + (_join(self.space_names(node.args[0].name, True), "and")
                                                      + " together" if isinstance(node.args[0], N.TagRef) else args[0]),
                "yours": lambda: f"one of your people is on {args[0]}",
                "has": lambda: f"you have {args[0]}",
                "drawn": lambda: f"the {_GROUP_WORDS.get(node.args[0].name) or self.good(node.args[0].name, 2)} "
                                 "drawn",
                "pile_top": lambda: "the top of this card's pile is " + (
                    f"one of the {_GROUP_WORDS[node.args[0].name]}" if node.args[0].name in _GROUP_WORDS
                    else self.good(node.args[0].name, 1)),
                "cards": lambda: f"the number of your cards that are {args[0]}",
                "min": lambda: f"the smaller of {args[0]} and {args[1]}",
                "max": lambda: f"the larger of {args[0]} and {args[1]}",
                "most": lambda: f"nobody has more {args[0]}",
                "others_min": lambda: f"the fewest {inner[0]} of any other player",
                "others_max": lambda: f"the most {inner[0]} of any other player",
                "stored": lambda: f"the {_GROUP_WORDS.get(node.args[0].name) or self.good(node.args[0].name, 2)} on this card",
                "occupations_after": lambda: f"the occupations you played after {args[0]}",
                "round_played": lambda: f"the round in which you played {args[0]}",
                "room_for": lambda: f"you have room for one more {self.good(node.args[0].name, 1)}",
                "roomy_pastures": lambda: f"your pastures holding an animal with room for {args[0]} more",
                "score": lambda: f"your points for {self.category(node.args[0].name)}",
                "set_aside": lambda: f"the {node.args[0].name} that were set aside on that round space",
            }
            return words.get(node.name, lambda: f"{node.name}({', '.join(args)})")()
        if isinstance(node, N.History):
            return self.history(node)
        if isinstance(node, N.Tier):
            entries = [(k, v) for k, v, *_ in node.entries]
            if entries and entries[0][0] <= 0:
                return self.tier_ranges(entries, None, node.value)
            values = "/".join(str(v) for _, v in entries)
            limits = "/".join(str(k) for k, _ in entries)
            if isinstance(node.value, N.Quantity) and node.value.name == "round":
                return f"{values} from round {limits} on"
            if isinstance(node.value, N.History):
                return f"{values} when {self.expr(node.value)} is at least {limits}"
            return f"{values} for at least {limits} {self.quantity_words(node.value)}"
        if isinstance(node, N.ByHouse):
            return ", ".join(f"{v} in a {k} house" for k, v, *_ in node.entries)
        if isinstance(node, N.BinOp):
            if node.op == "//":
                return f"one for every {self.expr(node.right)} of {self.expr(node.left)}"
            op = {"+": "plus", "-": "minus", "*": "times"}[node.op]

            def part(x, right):  # a sum inside a product, or a right part of the same level, is grouped
                text = self.expr(x)
                loose = isinstance(x, N.BinOp) and (x.op in "+-" and node.op == "*" or right and x.op in "+-")
                return f"({text})" if loose else text
            return f"{part(node.left, False)} {op} {part(node.right, True)}"
        if isinstance(node, N.Neg):
            return f"minus {self.expr(node.value)}"
        return self.cond(node)

    def arg(self, a) -> str:
        if isinstance(a, N.TagRef):
            names = self.card_tags.get(a.name)
            if names:
                return _join([f'"{n}"' for n in dict.fromkeys(names)], "or")
            return f"a card tagged {a.name.replace('_', ' ')}"
        if isinstance(a, N.Quantity):
            if a.name in self.spaces:
                return f'"{self.spaces[a.name]}"'
            if a.name in self.cards:
                return f'"{self.cards[a.name]}"'
            return self.quantity_words(a)
        return self.expr(a)

    def cond(self, node) -> str:
        if isinstance(node, N.Compare):
            left = node.left
            right = self.expr(node.right)
            if isinstance(left, N.Call) and left.name in ("others_min", "others_max") and \
                    isinstance(left.args[0], N.Quantity) and isinstance(node.right, N.Quantity) and \
                    left.args[0].name == node.right.name and _counted(node.right) and \
                    (left.name, node.op) in _AGAINST_OTHERS:
                # 'every other player has more rooms than you have', not 'the fewest rooms of any other player is
                # more than your rooms'
                words = self.quantity_words(node.right)
                text = _AGAINST_OTHERS[left.name, node.op].format(words)
                return text.replace("fewer", "less") if words in _MASS else text
            if isinstance(left, N.Call) and left.name in ("event_goods", "event_paid") and \
                    isinstance(node.right, N.Num) and isinstance(left.args[0], N.Quantity):
                # 'it brought exactly 1 sheep', not 'the sheep it brought are 1'
                what = left.args[0].name
                one = _GROUP_WORDS.get(what) or self.good(what, 1)
                many = _GROUP_WORDS.get(what) or self.good(what, 2)
                verb = "brought" if left.name == "event_goods" else "took"
                return f"it {verb} {_compared(node.op, node.right.value, one, many)}"
            if isinstance(left, N.Call) and left.name == "before" and self.actor == "you" and \
                    isinstance(node.right, N.Num) and isinstance(left.args[0], N.Quantity) and \
                    left.args[0].name not in _NOT_OWNED:
                # the owner's own count just before the event: 'you had at most 1 stable just before it'
                q = left.args[0].name
                if q in _GOOD_PLURAL:
                    one, many = self.good(q, 1), self.good(q, 2)
                else:
                    one = _QUANTITY.get(q, q.replace("_", " "))
                    many = plural(one)
                return f"you had {_compared(node.op, node.right.value, one, many)} just before it"
            if isinstance(left, N.Quantity) and left.name == "event_size" and isinstance(node.right, N.Num):
                n = node.right.value
                if self.event == "fence_pasture":
                    return f"it covers {_compared(node.op, n, 'farmyard space')}"
                return f"that was {_compared(node.op, n, _EVENT_UNIT.get(self.event, 'thing'))}"
            if isinstance(left, N.Quantity) and left.name in _FLAGS and isinstance(node.right, N.Num) and \
                    _holds(node.op, node.right.value) is not None:
                return self.flag(left.name, _holds(node.op, node.right.value))
            if isinstance(left, N.Quantity) and _counted(left) and isinstance(node.right, N.Quantity) \
                    and _counted(node.right):
                return f"you have {_compared_quantities(node.op, self.quantity_words(left), self.quantity_words(node.right))}"
            if isinstance(left, N.Quantity) and left.name not in _NOT_OWNED and isinstance(node.right, N.Num):
                n = node.right.value
                if left.name in _GOOD_PLURAL:
                    return f"you have {_compared(node.op, n, self.good(left.name, 1), self.good(left.name, 2))}"
                one = _QUANTITY.get(left.name, left.name.replace("_", " "))
                return f"you have {_compared(node.op, n, one, plural(one))}"
            if isinstance(left, N.Call) and left.name in ("count_players", "count_others") and \
                    isinstance(node.right, N.Num) and (node.op, node.right.value) in ((">=", 1), ("==", 0)):
                who = "player (you included)" if left.name == "count_players" else "other player"
                some = "at least one" if node.op == ">=" else "no"
                arg = left.args[0]
                inner = self.arg(arg)
                # "at least one player (you included) has 'Well'", "no player … has 'Well' or 'Village Well'"
                parts = [self.arg(a) for a in (arg.left, arg.right)] if isinstance(arg, N.BoolOp) and \
                    arg.op == "or" else [inner]
                if all(x.startswith("you have ") for x in parts):
                    return f"{some} {who} has {' or '.join(x[len('you have '):] for x in parts)}"
                return f"for {some} {who}, {_their(inner)}"
            if isinstance(left, N.Quantity) and left.name == "rounds_left" and node.op == "==" and \
                    isinstance(node.right, N.Num) and node.right.value == 0:
                return "it is the last round"
            if isinstance(left, N.Quantity) and left.name == "round":
                phrase = {">=": "from round", "<=": "up to round", "==": "in round", ">": "after round",
                          "<": "before round", "!=": "except in round"}[node.op]
                return f"{phrase} {right}"
            op = {">=": "at least", "<=": "at most", "==": "", ">": "more than", "<": "less than",
                  "!=": "not"}[node.op]
            verb = "are" if _plural_subject(left) else "is"
            return f"{self.expr(left)} {verb} {op + ' ' if op else ''}{right}"
        if isinstance(node, N.HouseIs):
            return f"you {'do not ' if node.negated else ''}live in a {node.material} house"
        if isinstance(node, N.BoolOp):
            # a chain of one operator; a part with the other operator is grouped ("either … or …",
            # "both … and …") and the parts are then set apart by commas, so that the grouping shows
            parts = _chain(node, node.op)
            grouped = [isinstance(x, N.BoolOp) for x in parts]
            words = [self._grouped(x) if g else self.cond(x) for x, g in zip(parts, grouped)]
            if any(grouped):
                return f", {node.op} ".join(words)
            return f" {node.op} ".join(words)
        if isinstance(node, N.Not):
            v = node.value.value if isinstance(node.value, N.Truthy) else node.value
            if isinstance(v, N.Quantity) and v.name in _FLAGS:
                return self.flag(v.name, False)
            if isinstance(v, N.Call) and v.name == "occupied":
                return f"{self.arg(v.args[0])} is free"
            return f"not ({self.cond(node.value)})"
        if isinstance(node, N.Truthy):
            v = node.value
            if isinstance(v, N.Quantity) and v.name in _FLAGS:
                return self.flag(v.name, True)
            if isinstance(v, N.Quantity):
                return f"you have at least 1 {_QUANTITY.get(v.name, v.name.replace('_', ' '))}"
            return self.expr(v)
        return self.expr(node)

    def flag(self, name: str, holds: bool) -> str:
        """A quantity that is 1 or 0 (a yes or a no), said as the statement or its negation."""
        return _FLAGS[name][0 if holds else 1]

    def _grouped(self, node: N.BoolOp) -> str:
        parts = [self.cond(x) for x in _chain(node, node.op)]
        lead = "either" if node.op == "or" else "both"
        return f"{lead} {_join(parts, node.op)}"

    # ---------------------------------------------------------------- statements
    def space_names(self, name, is_tag) -> list[str]:
        """The spaces a trigger names, in words: a #tag stands for the pack's spaces that carry it."""
        if is_tag:
            if name.startswith("round_") and name[6:].isdigit():
                return [f"the round card on round space {name[6:]}"]
            if name == "newest_round":
                return ["the newest round card (the one of the current round)"]
            if name == "marked":
                return ["an action space marked by a card"]
            names = self.space_tags.get(name)
            if names:
                return [f'"{n}"' for n in names]
            return [f"a space tagged {name.replace('_', ' ')}"]
        return [f'"{self.spaces.get(name, name.replace("_", " "))}"']

    def space_ref(self, name, is_tag) -> str:
        return _join(self.space_names(name, is_tag), "or")

    def stmt(self, node) -> str:
        if isinstance(node, N.Seq):
            parts = _with_subjects(node.items, [self.stmt(x) for x in node.items])
            if any(isinstance(x, _COMPOUND) for x in node.items[:-1]):
                return "; ".join(parts)  # 'choose one: a or b; c': the choice ends where the ';' is
            return _join(parts, "and")
        if isinstance(node, N.Then):
            first, *rest = node.items
            return self.stmt(first) + "".join(f", then you may {_no_may(self.stmt(x))}" for x in rest)
        if isinstance(node, N.AndOr):
            return _join(_with_subjects(node.items, [self.stmt(x) for x in node.items]), "and/or")
        if isinstance(node, N.May):
            return f"you may {self.stmt(node.body)}"
        if isinstance(node, N.MayPay) and node.recipient == "each_other":   # amounts for each player (4.2)
            may = "you may " if node.optional else ""
            return (f"{may}get {self.goods(node.body.goods)}, then pay each other player "
                    f"{_their(self.goods(node.price))}; only when you can pay them all"
                    if isinstance(node.body, N.Verb) and node.body.name == "gain" else
                    f"{may}pay each other player {_their(self.goods(node.price))} to {self.stmt(node.body)}")
        if isinstance(node, N.MayPay):
            may = "you may " if node.optional else ""
            to = {"owner": "the owner of this card ", "actor": "that player ",
                  "start_player": "the starting player "}.get(node.recipient, "")
            return f"{may}pay {self.goods(node.price)} {'to ' + to if to else ''}to {self.stmt(node.body)}"
        if isinstance(node, N.Guarded):
            if isinstance(node.body, _COMPOUND):   # the condition first, so that it reads as one for all parts
                return f"if {self.cond(node.cond)}, {self.stmt(node.body)}"
            return f"{self.stmt(node.body)} if {self.cond(node.cond)}"
        if isinstance(node, N.Choose):
            parts = [self.stmt(x) for x in node.options]
            if any(isinstance(x, _COMPOUND) for x in node.options):
                return "choose one: " + "; or ".join(parts)  # 'a; or b and c': each option ends at the ';'
            return "choose one: " + _join(parts, "or")
        if isinstance(node, N.Verb):
            return self.verb(node)
        return PLACEHOLDER

    def verb(self, v: N.Verb) -> str:
        n = v.name
        price = f" for {self.goods(v.price)}" if v.price is not None else (" at no cost" if v.free else "")
        simple = {
            "sow": "sow", "bake": "bake bread", "build_rooms": "build rooms", "build_stables": "build stables",
            "family_growth": "have a child (you need a free room)",
            "family_growth_without_room": "have a child even without a free room",
            "build_improvement": "build a major or play a minor improvement",
            "build_pastures": "lay pasture tiles, each next to a tile of your farm, at the cost printed on it",
            "play_minor": "play a minor improvement", "take_start_player": "become the start player",
            "take_goods": "take everything collected on it",
            "newborn_acts": "let this round's newborn take an action this round (it no longer counts as a newborn)",
            "move_crop": "move 1 crop from a field holding 2 or more to an empty field",
            "play_this_card": "play this card from your hand at once, at no cost",
            "harvest_fields": "take 1 good from each of your planted fields (a field phase outside the harvest)",
            "skip_harvest": ("take no part in the next harvest (no field phase, feeding or breeding for you, nor "
                             "your cards' harvest effects)"),
        }
        if n == "sow" and v.word is not None:   # a sowing of one good (docs/language.md 4.14)
            if v.number is None:
                text = f"sow {self.good(v.word, 2)} only, on as many fields as you like"
            else:
                text = (f"sow {v.number} {self.good(v.word, v.number)} on at most {v.number} "
                        f"field{'s' if v.number != 1 else ''}, nothing else")
            if v.fewer:
                text += f", each field getting {v.fewer} fewer than a sowing gives (at least 1)"
            return text
        if n == "sow" and v.number is not None:
            return f"sow at most {v.number} field{'s' if v.number != 1 else ''}"
        if n == "add_to_sown":
            return (f"put {v.number} more of the good sown on each field this sowing sowed, from the general "
                    "supply")
        if n == "add_to_fields":
            return (f"put {v.number} more {self.good(v.word, v.number)} on each of your fields holding "
                    f"{self.good(v.word, 2)}, from the general supply")
        if n == "take_from_field":
            text = f"take {self.goods(v.goods)} from a field of another player (you choose the field)"
            if v.goods_out is not None:
                text += f"; that player gets {self.goods(v.goods_out)} from the general supply"
            return text
        if n == "build_stables" and (v.price is not None or v.free):
            return (f"build stables, each for {self.goods(v.price)}" if v.price is not None
                    else "build stables, each at no cost")
        if n in simple:
            return simple[n]
        if n == "build_major":
            return f"build a major improvement with the tag #{v.word}" if v.word else "build a major improvement"
        if n in ("draw_cards", "discard_hand"):
            noun = {"minors": "minor improvement", "occupations": "occupation"}[v.word]
            if n == "discard_hand":
                return f"discard every {noun} left in your hand (out of the game)"
            return (f"draw {v.number} {plural(noun, v.number)} at random from those not dealt this game into "
                    "your hand")
        if n == "gain":
            return f"get {self.goods(v.goods)}"
        if n == "pay":
            return f"pay {self.goods(v.goods)}"
        if n == "exchange":
            return f"exchange {self.goods(v.goods)} for {self.goods(v.goods_out)}"
        if n == "give_others":
            return f"every other player gets {self.goods(v.goods)}"
        if n == "give_actor":
            return f"that player gets {self.goods(v.goods)} from the general supply"
        if n == "pay_owner":
            return f"they give {self.goods(v.goods)} to the owner of this card (nothing when that is them)"
        if n == "pay_actor":
            return f"give {self.goods(v.goods)} of yours to that player"
        if n == "pay_start_player":
            return f"give {self.goods(v.goods)} of yours to the starting player (nothing when that is you)"
        if n == "put_on_space":
            return f"put {self.goods(v.goods)} from the general supply on an action space of your choice"
        if n == "put_on_named_space":
            return (f"put {self.goods(v.goods)} from the general supply on {self.space_ref(v.spaces[0][0][0], False)} "
                    f"(whoever uses it next takes them)")
        if n == "lodge_people":
            k = int(v.number)
            who = "a person" if k == 1 else f"{k} people"
            left = "if you have one left" if k == 1 else "as many as you have left"
            return (f"put {who} of your supply on this card ({left}), to live there for the rest "
                    f"of the game: placed and fed like a family member, but not part of the family (no room, no "
                    f"family growth, no points)")
        if n == "reveal_rounds":
            return ("turn over the round cards of the remaining rounds: you alone may use them at once, the other "
                    "players from their rounds on")
        if n == "mark_space":
            return "mark an action space of your choice with this card's marker (it stays there)"
        if n == "spread_goods":
            src = self.space_ref(v.spaces[0][0][0], False)
            dst = _join([self.space_ref(name, False) for name, _, _ in v.spaces[1]], "and")
            good = self.good(v.word, 2)
            return (f"move the {good} lying on {src} onto {dst}, as evenly as possible (the same number on each; "
                    f"what cannot be shared evenly stays)")
        if n == "place_first":
            return ("place your first person of this round before everyone else (then the placements go on from "
                    "the starting player as usual)")
        if n == "place_more":
            k = int(v.number)
            return (f"place {k} more {'person' if k == 1 else 'people'} this round, as you would a family member "
                    "(not fed, not part of the family)")
        if n == "place_less":
            if v.number is None:
                return "place no people this round"
            k = int(v.number)
            return f"place {k} {'person' if k == 1 else 'people'} less this round"
        if n == "take_from_actor":
            return f"take {self.goods(v.goods)} from that player (as much of it as they have)"
        if n == "for_actor":
            return f"that player may act: {_their(self.stmt(v.body))}"
        if n == "for_each_other":
            return f"each other player: {_their(self.stmt(v.body))}"
        if n == "return_to_space":
            return f"put {self.goods(v.goods)} from your supply on that action space"
        if n == "spend_up_to":   # docs/language.md 4.12 UPN
            limit = str(v.expr.value) if isinstance(v.expr, N.Num) else f"({self.expr(v.expr)})"
            rates = "; ".join(f"{self.goods(ex.give)} → {self.goods(ex.get)}"
                              + (f" (at most {_times(ex.at_most)})" if ex.at_most else "") for ex in v.exchanges)
            return f"spend up to {limit} {self.good(v.word, 2)} (as much of it as you like) on: {rates}"
        if n == "plow" and v.expr is not None:
            if isinstance(v.expr, N.Num):
                return f"plow up to {v.expr.value} fields (as many as you choose, at least 1)"
            return f"plow as many fields as you choose, at least 1 and at most {self.expr(v.expr)}"
        if n == "plow":
            return f"plow {v.number} field{'s' if v.number != 1 else ''}"
        if n == "build_room":
            return "build 1 room" + price
        if n == "build_stable":
            return "build 1 stable" + price
        if n == "build_fences" and v.expr is not None:   # one fencing action of at most N fences (4.12 UPN)
            most = (f"up to {v.expr.value} fences{price} (as many as you choose, at least 1)"
                    if isinstance(v.expr, N.Num)
                    else f"as many fences as you choose{price}, at least 1 and at most {self.expr(v.expr)},")
            return (f"build {most} in one fencing action (fences your cards make free in each fencing action come "
                    "on top)")
        if n == "build_fences":
            return "build fences" + price
        if n == "fence_spaces":
            return f"fence a pasture of {v.number} farmyard space{'s' if v.number != 1 else ''}" + price
        if n == "renovate":
            return "renovate your house" + (f" to {v.word}" if v.word else "") + price
        if n == "play_occupation":
            return "play an occupation" + (f", paying {self.goods(v.price)}" if v.price is not None
                                           else " at no cost (not even a cost printed on it)" if v.free else "")
        if n == "schedule":
            return f"place {self.goods(v.goods)} on {self.rounds(v.rounds)}; you get them at the start of those rounds"
        if n == "schedule_action" and v.number is not None:   # pieces set aside on the round spaces (4.3)
            return (f"set aside {v.number} of your unbuilt {v.word} on each of {self.rounds(v.rounds)} (the earlier "
                    f"one first, as many as you have left; none beyond the last round): until then you cannot build "
                    f"them otherwise. At the start of those rounds, {self.stmt(v.body)}; the set-aside {v.word} "
                    "that are not built then go back to your supply")
        if n == "schedule_action":
            return f"at the start of {self.rounds(v.rounds, spaces=False)}, {self.stmt(v.body)}"
        if n == "for_each_player":
            return f"each player: {self.stmt(v.body)}"
        if n == "bonus":
            return f"{self.bonus_amount(v.expr)}"
        if n == "convert_bonus":
            need = "/".join(str(k) for k, *_ in v.tiers)
            pts = "/".join(str(p) for _, p, *_ in v.tiers)
            return (f"you may give up {need} {self.good(v.word, 2)} from your supply for {pts} bonus points "
                    f"(the highest you can)")
        if n == "breed":
            return f"your {self.good(v.word, 2)} breed (if there is room for the newborn animal)"
        if n == "harvest_more":
            return f"harvest {v.number} more {self.good(v.word, v.number)} from each of your {v.word} fields"
        if n == "pile":
            return f"pile {self.goods(v.goods)} on this card, in that order"
        if n == "put_on_card":
            return f"put {self.goods(v.goods)} from the general supply on this card"
        if n == "move_to_card":
            return f"move {self.goods(v.goods)} from your supply onto this card"
        if n == "claim":
            moment = {"work_phase_end": "at the end of this work phase (everyone placed)",
                      "returning_home": "when the people return home this round",
                      "round_end": "at the end of this round"}[v.word]
            cond = f", if {self.cond(v.expr)}" if v.expr is not None else ""
            return f"stake a claim: {moment}{cond}: {self.stmt(v.body)}"
        if n == "take_from_space":
            what = f"the {self.good(v.word, 2)}" if v.word else "everything"
            return f"take {what} lying on {self.space_ref(v.word_space, False)} (without using the space)"
        if n == "move_person":
            froms = _join([self.space_ref(name, tag) for name, tag, _ in v.spaces[0]], "or")
            tos = _join([self.space_ref(name, tag) for name, tag, _ in v.spaces[1]], "or")
            return f"move one of your people from {froms} to {tos}, if free, and take that action"
        if n == "take_pile_top":
            return "take the top good of this card's pile into your supply"
        if n == "take_from_card":
            return f"take {self.goods(v.goods)} from this card into your supply"
        if n == "fence_new_stable":
            return "fence the farmyard space of the stable just built as a pasture of its own"
        if n == "play_occupation_random":
            return ("play an occupation drawn at random from your hand, at the price of that action (each food "
                    "you cannot pay is a begging card)")
        if n == "draw_from_card":
            return f"draw {v.number} of the goods on this card at random (they stay on it)"
        return PLACEHOLDER

    def bonus_amount(self, node) -> str:
        if isinstance(node, N.Num):
            return f"get {node.value} bonus point{'s' if node.value != 1 else ''}"
        if isinstance(node, N.Neg) and isinstance(node.value, N.Num):
            n = node.value.value
            return f"lose {n} bonus point{'s' if n != 1 else ''}"
        if isinstance(node, N.Tier):
            entries = [(k, v) for k, v, *_ in node.entries]
            if entries and entries[0][0] <= 0:
                return "get bonus points: " + self.tier_ranges(entries, None, node.value)
            values = "/".join(str(v) for _, v in entries)
            limits = "/".join(str(k) for k, _ in entries)
            return f"get {values} bonus points for at least {limits} {self.quantity_words(node.value)}"
        per_category = _score_shares(node)
        if per_category:
            cats, n = per_category
            return (f"get 1 bonus point for each of {_join([self.category(c) for c in cats], 'and')} in which "
                    f"you score at least {n} points")
        if isinstance(node, N.BinOp) and node.op == "//":
            return f"get 1 bonus point for every {self.expr(node.right)} {self.quantity_words(node.left)}"
        if isinstance(node, N.Quantity):
            return f"get 1 bonus point for each {_QUANTITY.get(node.name, node.name.replace('_', ' '))}"
        if isinstance(node, N.ByHouse):
            return "get " + ", ".join(f"{v} bonus point{'s' if v != 1 else ''} in a {k} house"
                                      for k, v, *_ in node.entries)
        return f"get bonus points equal to {self.expr(node)}"

    def rounds(self, rs, spaces=True) -> str:
        noun = "round space" if spaces else "round"
        if rs.kind == "next_count":
            return f"as many of the next {plural(noun)} as {self.how_many(rs.count)} (counted then)"
        if rs.kind == "next":
            n = rs.numbers[0]
            if n == 1:
                return f"the next {noun}"
            return f"each of the next {n} {plural(noun, n)}"
        if rs.kind == "listed":
            listed = _join([str(x) for x in rs.numbers], "and")
            if not spaces:   # "at the start of round 7", not "of the rounds of rounds 7"
                many = len(rs.numbers) != 1
                return f"{'rounds' if many else 'round'} {listed} ({'those' if many else 'if'} still to come)"
            return f"the {plural(noun)} of rounds {listed} (those still to come)"
        if rs.kind == "range":
            if not spaces:
                return f"rounds {rs.numbers[0]} to {rs.numbers[1]} (those still to come)"
            return f"the {plural(noun)} of rounds {rs.numbers[0]} to {rs.numbers[1]} (those still to come)"
        if rs.kind == "offsets":
            many = len(rs.numbers) != 1
            later = _join([f"{x} {plural('round', x)} from now" for x in rs.numbers], "and")
            return f"the {plural(noun) if many else noun} {later}"
        return {"remaining": f"each remaining {noun}", "even": f"each remaining even-numbered {noun}",
                "odd": f"each remaining odd-numbered {noun}"}[rs.kind]

    # ---------------------------------------------------------------- rules
    def trigger(self, t: N.Trigger, card_kind: str = "card") -> str:
        who = {"you": "you", "other": "another player", "any": "any player (you included)"}[t.actor]
        if t.kind == "on_play":
            return "When you build this improvement" if card_kind == "major" else "When you play this card"
        if t.kind in ("after_use", "before_use", "turn_end_use"):
            places = _join(list(dict.fromkeys(w for n, tag, _ in t.spaces for w in self.space_names(n, tag))), "or")
            if t.marked:
                places = "the action space you marked with this card"
            verb = "use" if t.actor == "you" else "uses"
            if t.kind == "before_use":
                return f"Each time before {who} {verb} {places}"
            if t.kind == "turn_end_use":
                return f"At the end of each turn in which {who} {verb} {places}"
            return f"Each time {who} {verb} {places}"
        if t.kind in ("after_event", "before_event"):
            ev = self.event_phrase(t)
            if t.actor != "you" and not t.instead:  # "another player builds", "any player has a child"
                ev = _third_person(ev)
            if t.instead:
                return f"Each time {who} would {ev}"
            when = "Each time before" if t.kind == "before_event" else "Each time"
            return f"{when} {who} {ev}"
        if t.kind == "at_phase":
            return {
                "round_start": "At the start of each round", "returning_home": "In the returning home phase of each round",
                "harvest_start": "At the start of each harvest", "field_phase_start": "At the start of each field phase",
                "field_phase": "In the field phase of each harvest", "feeding": "In the feeding phase of each harvest",
                "feeding_start": "At the start of the feeding phase of each harvest (before anyone feeds)",
                "work_phase_end": "At the end of each work phase (everyone placed, before returning home)",
                "work_phase_start": "At the start of each work phase (before anyone is placed)",
                "breeding": "In the breeding phase of each harvest", "harvest_end": "At the end of each harvest",
                "scoring": "During scoring", "end_of_round": f"At the end of round {t.round}",
            }[t.phase]
        if t.kind == "once":
            return f"Once {self.cond(t.cond)} (only once)"
        return PLACEHOLDER

    def shared(self, limit: N.Limit) -> str:
        """The words of a limit shared by the rules naming a tag (docs/language.md 1.5): ', for "Card A" and
        "Card B" together'."""
        if limit.shared is None:
            return ""
        names = self.card_tags.get(limit.shared)
        who = (_join([f'"{n}"' for n in dict.fromkeys(names)], "and") if names
               else f"the cards tagged {limit.shared.replace('_', ' ')}")
        return f", for {who} together"

    def named_card_event(self, rule: N.Rule):
        """For a rule on playing or building a card whose guard is exactly event_card(<card or #tag>): the
        event's words and the words naming the card ('build a major improvement' -> 'build "Joinery"'), for
        the head to say; else None."""
        t, guard = rule.trigger, rule.guard
        guard = guard.value if isinstance(guard, N.Truthy) else guard
        verb = _CARD_EVENT_VERBS.get(t.event) if t.kind in ("after_event", "before_event") else None
        if verb is None or not (isinstance(guard, N.Call) and guard.name == "event_card" and len(guard.args) == 1):
            return None
        ev, named = self.event_phrase(t), f"{verb} {self.arg(guard.args[0])}"
        if t.actor != "you" and not t.instead:
            ev, named = _third_person(ev), _third_person(named)
        return ev, named

    def event_phrase(self, t: N.Trigger) -> str:
        """What a player does in an event, said of 'you': 'renovate to clay', 'use "Forest"'."""
        if t.kind in ("after_use", "before_use", "turn_end_use"):
            if not t.spaces:
                return "place a person on an action space"
            if t.marked:
                return "use the action space you marked with this card"
            return "use " + _join(list(dict.fromkeys(w for n, tag, _ in t.spaces for w in self.space_names(n, tag))), "or")
        ev = {
            "build_rooms": "build at least 1 room", "renovate": "renovate",
            "build_improvement": "build an improvement", "build_major": "build a major improvement",
            "play_minor": "play a minor improvement", "play_occupation": "play an occupation",
            "bake": "bake bread", "build_fences": "build fences", "build_stables": "build stables",
            "plow": "plow", "sow": "sow", "family_growth": "have a child", "take_start_player": "become the start player",
            "fence_pasture": "fence a new pasture", "convert": "convert goods with an exchange or by cooking",
            "harvest": "harvest your fields",
        }.get(t.event, t.event.replace("_", " "))
        if t.event == "gain":
            what = t.event_args["what"][0]
            ev = "get " + (_GROUP_WORDS.get(what) or self.good(what, 2))
        if t.event == "convert_batch":   # docs/language.md 4.1.5
            ev = "convert goods at one time (in one window, one feeding, one bake action, one payment or one settling of animals)"
            if t.via:
                refs = [self.arg(N.TagRef(name) if is_tag else N.Quantity(name)) for name, is_tag, _ in t.via]
                ev = ("convert goods at one time with " + _join(refs, "or")
                      + " (in one window, one feeding, one bake action, one payment or one settling of animals)")
        if t.event == "renovate" and t.event_args:
            frm = t.event_args.get("from")
            to = t.event_args.get("to")
            ev = "renovate" + (f" from {frm[0]}" if frm else "") + (f" to {to[0]}" if to else "")
        return ev

    def history(self, node: N.History) -> str:
        """A history counter in words, from the phrases of HISTORY_PHRASES."""
        period = HISTORY_PERIODS.get(node.period, node.period)
        if node.fn == "gained":
            goods = _GROUP_WORDS.get(node.good) or self.good(node.good, 2)
            return HISTORY_PHRASES["gained"].format(goods=goods, period=period)
        ev = self.event_phrase(node.event)
        return HISTORY_PHRASES[node.fn].format(event=ev, event3=_third_person(ev), period=period)

    def rule(self, rule: N.Rule, card_kind: str = "card") -> str:
        self.event = rule.trigger.event if rule.kind == "triggered" else None
        self.actor = getattr(rule.trigger, "actor", None) if rule.kind == "triggered" else None
        try:
            return self._rule(rule, card_kind)
        finally:
            self.event = self.actor = None

    def _rule(self, rule: N.Rule, card_kind: str) -> str:
        if rule.kind == "triggered":
            head = self.trigger(rule.trigger, card_kind)
            named = self.named_card_event(rule)
            if named is not None:   # 'Each time you build "Joinery"', not '…, if the card is "Joinery"'
                head = head.replace(*named)
            elif rule.guard is not None:
                head += f", if {self.cond(rule.guard)}"
            if rule.limit is not None and rule.limit.period == "next":
                head = ("The next time " + head[len("Each time "):] if head.startswith("Each time ")
                        else head + " (only the next time)")
            elif rule.limit is not None:
                each = " for each player" if rule.limit.each else ""
                head += f" ({_times(rule.limit.times)} per {rule.limit.period}{each}{self.shared(rule.limit)})"
            if rule.trigger.instead:
                return f"{head}: instead of that, {self.stmt(rule.body)}."
            return f"{head}: {self.stmt(rule.body)}."
        if rule.kind == "action":
            head = {"any_time": "At any time", "harvest": "In each harvest", "feeding": "In the feeding phase",
                    "work_phase": "At any time in the work phase",
                    "any_player": "At any time, any player (you included)"}[rule.window]
            if rule.guard is not None:
                head += f", if {self.cond(rule.guard)}"
            if rule.limit is not None:
                head += f" ({_times(rule.limit.times)} per {rule.limit.period}{self.shared(rule.limit)})"
            return f"{head}, you may {self.stmt(rule.body)}."
        if rule.kind in ("exchanges", "bake"):
            parts = []
            for ex in rule.exchanges:
                out = "the top good of this card's pile" if ex.get is None else self.goods(ex.get)
                text = f"{self.goods(ex.give)} → {out}"
                if isinstance(ex.at_most, N.Node):   # '(at most (<expr>) times)', worked out when it is used
                    q = ex.at_most
                    if isinstance(q, N.Quantity) and q.name in _QUANTITY:
                        text += f" (at most once for each {_QUANTITY[q.name]} you have then)"
                    else:
                        text += f" (at most as many times as {self.expr(q)})"
                elif ex.at_most:
                    text += f" (at most {_times(ex.at_most)}"
                    text += {"game": " in the game", "harvest": " per harvest"}.get(ex.period, "") + ")"
                if ex.buy_goods is not None:   # '(others may buy … for …)' (docs/language.md 4.9)
                    text += (f" (each time, another player may buy the {self.goods(ex.buy_goods)} from you for "
                             f"{self.goods(ex.buy_price)} instead, and then the exchange gives you nothing: the "
                             f"others are asked in turn from your left, and of several buyers you choose one)")
                parts.append(text)
            head = {"any_time": "At any time, you may exchange", "harvest": "In each harvest, you may exchange",
                    "feeding": "In the feeding phase, you may exchange",
                    "work_phase": "At any time in the work phase, you may exchange",
                    "bake": "Bake bread"}[rule.window]
            if getattr(rule, "guard", None) is not None:   # open only while the guard holds
                when, verb = head.split(", you may ") if ", you may " in head else (head, "")
                head = f"{when}, while {self.cond(rule.guard)}, you may {verb}"
            return f"{head}: {'; '.join(parts)}."
        if rule.kind == "modifier":
            text = self.modifier(rule.modifier)
            cond = getattr(rule.modifier, "cond", None)
            if cond is not None and text != PLACEHOLDER:   # '<modifier> while <condition>' (4.3)
                if text[:1].isupper() and text[1:2].islower():
                    text = text[0].lower() + text[1:]
                text = f"While {self.cond(cond)}: {text}"
            return text
        return PLACEHOLDER

    def modifier(self, m: N.Modifier) -> str:
        targets = _join([w for first, second, _ in m.targets for w in self.cost_names(first, second)],
                        "and") if m.targets else ""
        if m.kind == "cost_delta":
            parts = []
            for n, good, *_ in m.goods:
                if isinstance(n, N.Node):
                    word = "less" if isinstance(n, N.Neg) else "more"
                    inner = n.value if isinstance(n, N.Neg) else n
                    if isinstance(inner, N.Quantity) and inner.name not in ("round", "rounds_left", "players"):
                        what = _QUANTITY.get(inner.name, inner.name.replace("_", " "))
                        if inner.name in _GOOD_PLURAL:
                            what = self.good(inner.name, 1)
                        parts.append(f"1 {self.good(good, 1)} {word} for each {what}")
                    else:
                        parts.append(f"{self.expr(inner)} {self.good(good, 2)} {word}")
                    continue
                word = "less" if n < 0 else "more"
                if good == "building":   # of the player's choice (docs/language.md 4.3)
                    parts.append(f"{abs(n)} building {'resource' if abs(n) == 1 else 'resources'} of your "
                                 f"choice {word}")
                    continue
                parts.append(f"{abs(n)} {self.good(good, abs(n))} {word}")
            limit = getattr(m, "limit", None)
            if limit is not None:   # one priced unit per period (docs/language.md 4.3, "Limited changes")
                targets = _join([w for first, second, _ in m.targets for w in self.cost_names(first, second)], "or")
                when = ("The next time" if limit.period == "next"
                        else f"{_cap(_times(limit.times))} per {limit.period}")
                what = "nothing" if m.words and m.words[0][0] == "free" else _join(parts, "and")
                return (f"{when}, one of the {targets} you pay for costs {what} (the first one paid whose price "
                        f"that lowers; of several built at once, one).")
            return f"For {targets}, you pay {_join(parts, 'and')}."
        if m.kind == "cost_set":
            goods = _join([f"{n} {'of your house material' if good == 'material' else self.good(good, n)}"
                           for n, good in m.goods], "and")
            one_card = all(second is None and first in self.cards for first, second, _ in m.targets)
            if m.words:   # '… or the base price'
                return (f"For {targets}, you may pay {goods}{'' if one_card else ' each'} instead of the usual "
                        "price.")
            return f"For {targets}, you pay only {goods}{'' if one_card else ' each'}."
        if m.kind == "cost_substitute":
            pay, instead = m.goods
            what = f"all the {m.words[0][0]}" if instead is None else self.goods(instead)
            return f"For {targets}, you may pay {self.goods(pay)} instead of {what} (once each)."
        if m.kind in ("capacity", "capacity_set", "capacity_mixed"):
            return self.capacity(m)
        if m.kind == "house_holds":
            if isinstance(m.expr, N.Quantity) and m.expr.name not in ("round", "rounds_left", "players"):
                return (f"Your house holds as many animals as you have "
                        f"{self.quantity_words(m.expr)} (instead of 1).")
            return f"Your house holds up to {self.expr(m.expr)} animals instead of 1."
        if m.kind == "card_field":
            crops = _join([self.good(w, 2) for w, _ in m.words], "or") if m.words else ""
            other = [self.good(w, 2) for w, _ in m.words if w not in ("grain", "vegetable")]
            text = ("You sow and harvest this card as you would a field" if m.number is None else
                    f"This card is {m.number} fields: you sow and harvest each as you would a field")
            text += (f" ({crops} only)" if crops else "") + "."
            if other:
                text += (f" You sow {_join(other, 'or')} from your supply, and a field sown with it gets as many as "
                         "one sown with grain.")
            return text
        if m.kind == "sowing_near_rooms":
            word, n = m.words[0][0], m.number
            what = "of the crop sown on it" if word == "crops" else self.good(word, n)
            sown = "" if word == "crops" else f" with {self.good(word, 2)}"
            return (f"Each field you sow{sown} that is orthogonally next to a room of your house gets {n} more "
                    f"{what} from the general supply.")
        if m.kind == "sowing_more":
            word, n = m.words[0][0], m.number
            if word == "crops":
                return (f"Each field you sow (cards that are fields too) gets {n} more of the crop sown on it, "
                        "from the general supply.")
            return (f"Each field you sow with {self.good(word, 2)} (cards that are fields too) gets {n} more "
                    f"{self.good(word, n)} from the general supply.")
        if m.kind == "breeding_more":
            word, n = m.words[0][0], m.number
            what = "animals" if word == "animals" else self.good(word, 2)
            young = "young" if word == "animals" else self.good(word, n)
            return (f"Each time your {what} breed, {n} more {young} {'is' if n == 1 else 'are'} born "
                    f"(each as long as there is room for it).")
        if m.kind == "card_capacity" and m.expr is not None:
            kind = m.words[0][0]
            what = "animals of any kinds, mixed" if kind in ("animal", "animals") else self.good(kind, 2)
            if isinstance(m.expr, N.Quantity) and m.expr.name in _QUANTITY:
                count = f"1 {self.good(kind, 1) if kind not in ('animal', 'animals') else 'animal'} for each " \
                        f"{_QUANTITY[m.expr.name]} you have"
                return f"This card holds {count}; they are your animals like those on your farm."
            return f"This card holds as many {what} as {self.expr(m.expr)}; they are your animals like those on your farm."
        if m.kind == "card_capacity":
            kind = m.words[0][0]
            what = (f"{m.number} {'animal' if m.number == 1 else 'animals'} of any kinds, mixed"
                    if kind in ("animal", "animals") else f"any number of {self.good(kind, 2)}"
                    if m.number is None else f"{m.number} {self.good(kind, m.number)}")
            return f"This card holds {what}; they are your animals like those on your farm."
        if m.kind == "card_space":
            who = "any player (you included)" if m.words[0][0] == "any" else "you"
            like = _join([self.space_ref(tag, True) for tag, _, _ in m.targets], "and")
            fee = any((isinstance(x, N.MayPay) and x.recipient == "owner") or
                      (isinstance(x, N.Verb) and x.name == "pay_owner") for x in N.walk(m.body))
            return (f"This card is an action space{f' (it counts as a space like {like})' if like else ''} that {who} may place a person on; using it: "
                    f"{self.stmt(m.body) if who == 'you' else _their(self.stmt(m.body))}."
                    + (" Its owner pays no fee to themselves." if fee else ""))
        if m.kind == "card_room":
            return f"This card houses {m.number} {'person' if m.number == 1 else 'people'} (it is not a room)."
        if m.kind == "free_numbered":   # 'free fence number 3, 6': the owner's 3rd and 6th fence
            numbers = _join([_ordinal(n) for n, _ in m.words], "and")
            return (f"Your {numbers} {'fence' if len(m.words) == 1 else 'fences'} (counted over the game) cost you "
                    f"nothing.")
        if m.kind == "free_per_action":
            return f"Each time you build fences, {m.number} of them are free."
        if m.kind == "use_occupied":
            name, is_tag, _ = m.words[0]
            return f"You may use {self.space_ref(name, is_tag)} even if one other player's person is on it."
        if m.kind == "space_fee":
            name, is_tag, _ = m.words[0]
            return (f"Each other player must first pay you {self.goods(m.goods[0])} to use "
                    f"{self.space_ref(name, is_tag)}; without it they cannot use it.")
        if m.kind == "double_placement":
            name, is_tag, _ = m.words[0]
            return (f"You may place two people one right after the other if at least one of them goes to "
                    f"{self.space_ref(name, is_tag)}.")
        if m.kind == "counts_as_tag":
            name = m.words[0][0]
            names = [n for n in dict.fromkeys(self.card_tags.get(name, ()))
                     if name in getattr(self, "own_tags", {}).get(n, {name})]   # the cards printed with it
            like = f" (like {_join([chr(34) + n + chr(34) for n in names], 'and')})" if names else ""
            return f"This card counts as a card tagged {name.replace('_', ' ')}{like}."
        if m.kind == "counts_as_occupations":
            return (f"This card counts as {m.number} occupations for the prerequisites of cards and when cards "
                    f"score occupations.")
        if m.kind == "counts_as_major":
            return ("This card counts as a major improvement too for the prerequisites of cards and when cards "
                    "score major improvements (it is still one improvement).")
        if m.kind == "as_minor":
            name, is_tag, _ = m.words[0]
            majors = getattr(self, "major_names", None)
            names = [n for n in dict.fromkeys(self.card_tags.get(name, ())) if majors is None or n in majors] \
                if is_tag else [self.cards.get(name, name)]
            if not names:
                return (f"For you, every major improvement tagged {name.replace('_', ' ')} is a minor improvement: "
                        f"you play it with a minor improvement action and pay for it as for one.")
            many = len(names) > 1
            return (f"For you, {_join([f'{chr(34)}{n}{chr(34)}' for n in names], 'and')} "
                    f"{'are minor improvements (not majors)' if many else 'is a minor improvement (not a major)'}: you play "
                    f"{'them' if many else 'it'} with a minor improvement action and pay for "
                    f"{'them' if many else 'it'} as for one.")
        if m.kind == "score_delta":
            return (f"At scoring, you get {self.expr(m.expr)} more "
                    f"{'point' if isinstance(m.expr, N.Num) and m.expr.value == 1 else 'points'} for "
                    f"{_join([self.category(c) for c, _ in m.words], 'and')}.")
        if m.kind == "score_floor":
            cats = [self.category(c) for c, _ in m.words]
            return (f"At scoring, you lose no points for {_join(cats, 'or')}: "
                    f"{'such a category scores' if len(cats) > 1 else 'it scores'} nothing instead of negative points.")
        if m.kind == "ignore_begging":
            return (f"Before scoring, you discard up to {m.number} begging "
                    f"{'card' if m.number == 1 else 'cards'}: they cost you no points.")
        if m.kind == "feed_last":
            return ("In the feeding phase you feed your family after every player who does not also feed last "
                    "(those who do feed in turn order).")
        if m.kind == "harvest_from_supply":
            crop = self.good(m.words[0][0], 2)
            return (f"When you harvest your fields, you take the {crop} from the general supply instead: your "
                    f"fields keep their {crop}.")
        if m.kind == "allow":
            return {"renovate_skip": "You may renovate straight from wood to stone."}.get(
                m.words[0][0], f"Allowed: {m.words[0][0].replace('_', ' ')}.")
        if m.kind == "forbid":
            return {"renovation": "From now on you cannot renovate your house."}.get(
                m.words[0][0], f"Forbidden: {m.words[0][0].replace('_', ' ')}.")
        return PLACEHOLDER

    def capacity(self, m: N.Modifier) -> str:
        """A capacity modifier in words (docs/language.md 4.3)."""
        word = m.words[0][0]
        sizes = getattr(m, "sizes", [m.number])

        def holder(word, size):
            spaces = f"{size} farmyard {'space' if size == 1 else 'spaces'}"
            return {"pasture": "Each of your pastures", "pasture_with_stable": "Each of your pastures with a stable",
                    "pasture_of_size": f"Each of your pastures of {spaces}",
                    "pasture_without_stable": "Each of your pastures without a stable",
                    "pasture_of_size_without_stable": f"Each of your pastures of {spaces} without a stable",
                    "stable": "Each of your unfenced stables",
                    "one_stable": "One of your unfenced stables (only one)",
                    "animal_card": "Each place for animals on your cards", "house": "Your house"}.get(word)
        holders = [holder(w_, size) for (w_, _), size in zip(m.words, sizes)]
        who = _join([h if i == 0 else h[0].lower() + h[1:] for i, h in enumerate(holders)], "and")
        own = ("; the changes of every unfenced stable do not apply to that one"
               if any(w_ == "one_stable" for w_, _ in m.words) else "")
        if m.kind == "capacity_mixed":
            return f"{who} may hold animals of different kinds together{own}."
        n = self.expr(m.expr)
        fewer = isinstance(m.expr, N.Neg)   # 'capacity of fences: -1'
        if fewer:
            n = self.expr(m.expr.value)
        if word in ("family", "fences", "stables"):
            what = {"family": "people in your family", "fences": "fences", "stables": "stables"}[word]
            if m.kind == "capacity_set":
                return f"You may have up to {n} {what}."
            return f"You may have {n} {'fewer' if fewer else 'more'} {what} than the rules allow."
        one_kind = any(w_ in ("stable", "one_stable") for w_, _ in m.words)
        if fewer:
            return f"{who} holds {n} fewer animals" + (" (all of one kind)" if one_kind else "") + f"{own}."
        if m.kind == "capacity_set":
            return f"{who} holds {n} {'animal' if n == '1' else 'animals'}" + (
                " of one kind" if one_kind else "") + f"{own}."
        animal = getattr(m, "animal", None)
        if animal is not None:
            kind = self.good(animal[0], 2)
            return f"{who} holds {n} more {kind} when it holds {kind}{own}."
        return f"{who} holds {n} more {'animal' if n == '1' else 'animals'}" + (
            " (all of one kind)" if one_kind else "") + f"{own}."

    def cost_names(self, first, second) -> list:
        """A cost name of a modifier in words: a kind of price, a card, the cards of a #tag, the feeding."""
        if second is None and first.startswith("#"):
            names = self.card_tags.get(first[1:])
            if names:
                return [f'"{n}"' for n in dict.fromkeys(names)]
            return [f"every card tagged {first[1:].replace('_', ' ')}"]
        if second is None and first in self.cards:
            return [f'"{self.cards[first]}"']
        if first == "feeding":
            return ["feeding each person"]
        if second == "feeding" and first.startswith("beyond "):
            return [f"feeding each person beyond the first {first.split()[1]} (not newborns)"]
        if second == "feeding":
            return ["feeding each newborn"]
        return [_target(first, second)]

    def space_effect(self, effect, accumulate) -> str:
        parts = []
        takes = effect is not None and any(isinstance(n, N.Verb) and n.name == "take_goods" for n in N.walk(effect))
        if accumulate is not None:
            parts.append(f"Collects {self.goods(accumulate)} every round"
                         + ("" if takes else "; take everything on it"))
        if effect is not None:
            parts.append(_cap(self.stmt(effect)))
        return ". ".join(parts) + "."


_COMPOUND = (N.Seq, N.Then, N.AndOr, N.Choose)  # statements whose words have their own 'and', 'or', 'then'

# The phrases of the history counters (docs/language.md 4.7): {event} is what you do ('renovate to clay'),
# {event3} the same said of another player, {period} one of HISTORY_PERIODS.
HISTORY_PHRASES = {
    "done": "the number of times you {event} {period}",
    "done_by_any": "the number of times a player (you included) {event3} {period}",
    "done_since": "the number of times you {event} since you played this card",
    "gained": "the {goods} you got {period}",
    "first": "it is the first time {period} that any player {event3}",
}
HISTORY_PERIODS = {"game": "this game", "round": "this round", "harvest": "this harvest", "turn": "this turn",
                   "action": "in this action"}

_EVENT_UNIT = {"build_rooms": "room", "build_stables": "stable", "plow": "field", "bake": "grain", "convert_batch": "good",
               "build_fences": "pasture", "family_growth": "child", "sow": "field", "harvest": "field"}  # what 'event_size' counts, one of it
_EVENT_DONE = {"build_rooms": " built", "build_stables": " built", "plow": " plowed", "bake": " baked",
               "build_fences": " fenced", "sow": " sown", "harvest": " harvested",
               "convert_batch": " converted"}   # after the unit of 'per event_size': '2 grain baked'


# event_via(<kind>): what made the event, when it is no one card (docs/language.md 4.1.1)
# the verb of an event that plays or builds one card, said with the card's name when the rule's guard names
# it (event_card): 'Each time you play "Card Name"'
_CARD_EVENT_VERBS = {"build_major": "build", "build_improvement": "build", "play_minor": "play",
                     "play_occupation": "play"}

_VIA_WORDS = {"space": "an action space's own action did it",
              "occupation": "it was done by an occupation", "minor": "it was done by a minor improvement",
              "major": "it was done by a major improvement", "improvement": "it was done by an improvement",
              "card": "it was done by a card"}
_GROUP_WORDS = {"building": "building resources", "animals": "animals", "crops": "crops",
                "goods": "goods other than food"}


def _their(text: str) -> str:
    """A phrase about you, said about another player."""
    for mine, theirs in (("your ", "their "), ("you have", "they have"), ("you live", "they live"),
                         ("you do not", "they do not"), ("you ", "they ")):
        text = text.replace(mine, theirs)
    return text


# Quantities that are 1 or 0: a comparison of them is a yes or a no ("harvest_round == 0" is "this round
# does not end with a harvest", never "no harvest rounds"): the phrase and its negation.
_FLAGS = {"after_harvest": ("it is the round right after a harvest", "it is not the round right after a harvest"),
          "harvest_round": ("this round ends with a harvest", "this round does not end with a harvest"),
          "is_owner": ("they own this card", "they do not own this card"),
          "start_player": ("you are the starting player", "another player is the starting player")}
# Quantities of the game rather than things a player has ('you have …' does not fit them).
_NOT_OWNED = ("round", "rounds_left", "players", "event_size", "is_owner", *_FLAGS)
_OPS = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, "==": lambda a, b: a == b,
        "!=": lambda a, b: a != b, ">": lambda a, b: a > b, "<": lambda a, b: a < b}


def _holds(op: str, n: int):
    """Whether 'flag op n' means the flag is set (True), unset (False), or neither (None: always or never)."""
    yes, no = _OPS[op](1, n), _OPS[op](0, n)
    return None if yes == no else yes


def _counted(node) -> bool:
    """A quantity that counts things the player has (rooms, sheep): 'you have more rooms than people'."""
    return isinstance(node, N.Quantity) and node.name not in _NOT_OWNED


def _plural_subject(node) -> bool:
    """Whether the words of ``node`` are a plural noun ('your rooms', 'the acting player's rooms', 'the
    complete rounds left'), so that the verb after it is 'are'; a number or 'the number of …' is singular."""
    if isinstance(node, N.Call) and node.name in ("actor", "owner", "before", "left", "right") and node.args:
        return _plural_subject(node.args[0])
    if isinstance(node, N.Call) and node.name in ("event_goods", "event_paid", "stored", "space_goods") and node.args:
        good = getattr(node.args[-1], "name", None)   # 'the building resources it brought', 'the wood on this card'
        return good in _GROUP_WORDS or good not in _MASS
    if isinstance(node, N.History) and node.fn == "gained":   # 'the building resources you got this round'
        return node.good in _GROUP_WORDS or node.good not in _MASS
    if isinstance(node, N.Quantity):
        if node.name in ("round", "players", "event_size", *_FLAGS):
            return False
        return node.name not in _MASS
    return False


_MASS = ("food", "grain", "wood", "clay", "reed", "stone")  # goods counted without a plural ('less food')


def _compared_quantities(op: str, left: str, right: str) -> str:
    """Two counts of the player compared: 'more rooms than people', 'as many sheep as cattle'."""
    fewer = "less" if left in _MASS else "fewer"
    return {">": f"more {left} than {right}", "<": f"{fewer} {left} than {right}",
            ">=": f"at least as many {left} as {right}", "<=": f"at most as many {left} as {right}",
            "==": f"as many {left} as {right}", "!=": f"a number of {left} different from the number of {right}"}[op]


# others_min(q) or others_max(q) compared with the player's own q, as words
# ('you have' becomes 'they have' where the user of a space for any player is meant)
_AGAINST_OTHERS = {("others_min", ">"): "every other player has more {} than you have",
                   ("others_min", ">="): "every other player has at least as many {} as you have",
                   ("others_max", "<"): "every other player has fewer {} than you have",
                   ("others_max", "<="): "every other player has at most as many {} as you have"}


def _compared(op: str, n: int, one: str, many: str | None = None) -> str:
    """'at least 2 rooms', 'no rooms' (never 'exactly 0 rooms'), 'at least 1 room' for '> 0'."""
    many = many or (one if one in ("grain",) else plural(one))
    if (op == "==" and n == 0) or (op == "<" and n == 1) or (op == "<=" and n == 0):
        return f"no {many}"
    if (op == "!=" and n == 0) or (op == ">" and n == 0):
        return f"at least 1 {one}"
    if op == ">" and n >= 0:
        n, op = n + 1, ">="
    elif op == "<" and n >= 1:
        n, op = n - 1, "<="
    phrase = {">=": "at least", "<=": "at most", "==": "exactly", "!=": "other than"}[op]
    return f"{phrase} {n} {one if n == 1 else many}"


def _chain(node, op) -> list:
    """The parts of ``a op b op c`` (the tree leans left or right; both read the same)."""
    if isinstance(node, N.BoolOp) and node.op == op:
        return _chain(node.left, op) + _chain(node.right, op)
    return [node]


def _target(first, second) -> str:
    names = {"improvement": "improvements", "improvements": "improvements", "room": "rooms", "rooms": "rooms",
             "renovation": "renovations", "stable": "stables", "stables": "stables", "fence": "fences",
             "fences": "fences", "major": "major improvements", "minor": "minor improvements",
             "occupation": "occupations", "occupations": "occupations"}
    if second is not None:
        # a material narrows a target: the house's material, or for a renovation the new one
        what = names.get(second, second)
        if what == "renovations":
            return f"renovations to {first}"
        if what == "rooms":
            return f"{first} rooms"
        return f"{what} while you live in a {first} house"
    return names.get(first, first)


# Statements whose words have a subject other than you ('that player gets 1 food'): a statement after
# one of them says 'you' again ('… and you get 1 food'), or it would read as that player's.
_OTHER_SUBJECT = ("give_others", "give_actor", "pay_owner", "for_actor", "for_each_other", "for_each_player")


def _has_other_subject(node) -> bool:
    while isinstance(node, N.Guarded):
        node = node.body
    return isinstance(node, N.Verb) and node.name in _OTHER_SUBJECT


def _with_subjects(nodes, parts: list[str]) -> list[str]:
    """The words of a list of statements, 'you' put back before an imperative that follows a statement
    about another player."""
    out, other = [], False
    for node, text in zip(nodes, parts):
        if other and not _has_other_subject(node) and not text.startswith("you "):
            text = "you " + text
        out.append(text)
        other = other or _has_other_subject(node)
    return out


def _third_person(phrase: str) -> str:
    """'build fences' said of another player: 'builds fences' (the verb agrees with 'another player')."""
    first, _, rest = phrase.partition(" ")
    first = {"have": "has", "become": "becomes"}.get(first) or plural_of(first)
    return first + (" " + rest if rest else "")


def _article(words: str) -> str:
    return "an" if words[:1] in "aeiou" else "a"


def _no_may(text: str) -> str:
    """A statement after 'then you may', without a 'you may' of its own ('a then may b')."""
    return text[len("you may "):] if text.startswith("you may ") else text


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _join(parts, word) -> str:
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    if word == "and/or":
        return " and/or ".join(parts)
    return ", ".join(parts[:-1]) + f" {word} " + parts[-1]


def _score_shares(node):
    """(categories, n) when ``node`` is ``tier(score(a); n: 1) + tier(score(b); n: 1) + …`` (two or more
    categories, one threshold): 1 for each category scoring at least n points. Else None."""
    terms = []

    def collect(x):
        if isinstance(x, N.BinOp) and x.op == "+":
            return collect(x.left) and collect(x.right)
        if isinstance(x, N.Tier) and len(x.entries) == 1 and x.entries[0][1] == 1 and isinstance(x.value, N.Call) \
                and x.value.name == "score" and x.value.args and isinstance(x.value.args[0], N.Quantity):
            terms.append((x.value.args[0].name, x.entries[0][0]))
            return True
        return False
    if not collect(node) or len(terms) < 2 or len({n for _, n in terms}) != 1:
        return None
    return [c for c, _ in terms], terms[0][1]


def for_pack(checked) -> English:
    """An English renderer that knows the pack's names of action spaces and cards."""
    spaces = {u.id: u.data["name"] for u in checked.spaces + checked.rounds}
    cards = {u.id: u.data["name"] for u in checked.majors + checked.cards}
    tags: dict = {}
    for u in checked.spaces + checked.rounds:
        for t in u.data.get("tags") or []:
            tags.setdefault(t, []).append(u.data["name"])
    card_tags: dict = {}
    for u in checked.majors + checked.cards:
        for t in u.data.get("tags") or []:
            card_tags.setdefault(t, []).append(u.data["name"])
    own = {u.data["name"]: set(u.data.get("tags") or []) for u in checked.majors + checked.cards}
    for u in checked.majors + checked.cards:   # 'this card counts as #tag': the card has the tag too
        for rule in u.data.get("rules") or []:
            if rule.kind == "modifier" and rule.modifier.kind == "counts_as_tag":
                card_tags.setdefault(rule.modifier.words[0][0], []).append(u.data["name"])
    eng = English(spaces, cards, tags, card_tags)
    eng.categories = {cid: label for cid, label, *_ in (checked.game.get("scoring") or ())}
    eng.own_tags = own
    eng.major_names = {u.data["name"] for u in checked.majors}
    return eng


def upgrade_cost(cost: str, d: dict) -> str:
    """The price of an upgrade (``upgrade_of``, docs/language.md 4.8): a major's returned card replaces its
    price, a minor's is part of it."""
    kinds = {"improvement": "improvement", "major": "major improvement", "minor": "minor improvement"}
    n = d.get("returns", 1)
    names = " or ".join(kinds.get(t) or t.replace("_", " ").title() for t in d["upgrade_of"])
    card = f"{'an' if names[0] in 'AEIOUaeiou' else 'a'} {names} you have"
    if n > 1:
        card = f"{n} cards you have, each {'an' if names[0] in 'AEIOUaeiou' else 'a'} {names}"
    if any(t in kinds for t in d["upgrade_of"]):
        card += " (a major goes back to the supply, a minor leaves the game)"
    if d.get("returned_lose_claims"):
        card += "; what they would still give you on round spaces is lost"
    if d["kind"] == "major":
        return f"{cost}, or return {card}"
    if cost in ("Cost: nothing", "nothing"):
        return f"{cost[:-len('nothing')]}return {card}"
    return f"{cost}, and return {card}"


def card_lines(eng: English, unit) -> list[str]:
    """A card's full description: facts, then one sentence per rule."""
    d = unit.data
    kind = {"major": "major improvement", "minor": "minor improvement", "occupation": "occupation"}[d["kind"]]
    where = []
    if d.get("deck"):
        where.append(f"deck {d['deck']}")
    if d.get("number") is not None:
        where.append(f"no. {d['number']}")
    if d.get("players"):
        where.append(f"{d['players']}+ players")
    head = f"{d['name']} ({kind}{', ' + ', '.join(where) if where else ''})"
    facts = []
    if d.get("cost") is not None:
        facts.append(f"Cost: {eng.price(d)}")
    elif d["kind"] != "occupation":
        facts.append("Cost: nothing")
    if d.get("upgrade_of"):
        facts[-1] = upgrade_cost(facts[-1], d)
    if d.get("requires") is not None:
        facts.append(f"Prerequisite: {eng.cond(d['requires'])}")
    if d["kind"] != "occupation" or d.get("points"):
        facts.append(f"Points: {d['points']}" + (" plus bonus points" if d.get("bonus_points") else ""))
    elif d.get("bonus_points"):
        facts.append("Bonus points")
    if d.get("passing"):
        facts.append("Passing: after you play it, pass it to the player on your left")
    lines = [head]
    if facts:
        lines.append(" · ".join(facts))
    for rule in d["rules"]:
        lines.append(eng.rule(rule, d["kind"]))
    return lines


def space_text(eng: English, unit) -> str:
    """The text of an action space (for the player counts where it differs, each variant)."""
    seen = {}
    for n, (effect, acc) in sorted(unit.data["variants"].items()):
        text = eng.space_effect(effect, acc)
        seen.setdefault(text, []).append(n)
    if len(seen) == 1:
        text = next(iter(seen))
    else:
        text = " ".join(f"[{_counts(ns)}] {text}" for text, ns in seen.items())
    group = unit.data.get("group")
    return text + (f" {group_sentence(group)}" if group else "")


def group_sentence(group: str) -> str:
    """What a space's group means, in words."""
    return f"(One person a round between the spaces of the {group.replace('_', ' ')}.)"


def _counts(ns) -> str:
    if len(ns) > 1 and ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]}-{ns[-1]} players"
    return ", ".join(map(str, ns)) + (" player" if ns == [1] else " players")
