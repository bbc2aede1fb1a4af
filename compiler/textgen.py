"""Text from the typed tree: the canonical effect-language form of a node (``unparse``), used for
decision labels and as the stable spelling of effects in generated code and docs.
"""
from __future__ import annotations

from runtime import queries as Q

from . import nodes as N

# 'per room' rather than 'per rooms': the singular spelling of a quantity, as a designer writes it
_SINGULAR = {}
for _one, _many in Q.ALIASES.items():
    if _one != _many + "s":   # ('vegetables' is the plural spelling of the good 'vegetable')
        _SINGULAR.setdefault(_many, _one)


def goods(node) -> str:
    if node is None:
        return ""
    return ", ".join(_item(it) for it in node.items)


def _item(it) -> str:
    if isinstance(it, N.PlayersGoods):
        parts = [f"{n}{'' if exact else '+'}: {goods(g)}" for n, exact, g, _ in it.entries]
        return f"players({'; '.join(parts)})"
    amount = ""
    if isinstance(it.amount, N.UpTo):
        limit = it.amount.limit
        amount = f"up to {expr(limit) if isinstance(limit, N.Num) else f'({expr(limit)})'} "
    elif it.amount is not None:
        amount = expr(it.amount) if isinstance(it.amount, (N.Num, N.Tier)) else f"({expr(it.amount)})"
        amount += " "
    per = ""
    if it.per_quantity:
        per = (f" per {it.per_divisor} {it.per_quantity}" if it.per_divisor != 1
               else f" per {_SINGULAR.get(it.per_quantity, it.per_quantity)}")
    return f"{amount}{it.good}{per}"


# How tightly each operator binds (compiler/grammar/effects.lark): a child that binds less tightly than
# its parent is written in parentheses, and so is a right-hand child that binds equally (the grammar
# groups from the left), so that the text reads back as the same tree.
_BINDING = {"or": 1, "and": 2, "+": 5, "-": 5, "*": 6, "//": 6}


def _binding(node) -> int:
    if isinstance(node, (N.BoolOp, N.BinOp)):
        return _BINDING[node.op]
    if isinstance(node, N.Not):
        return 3
    if isinstance(node, (N.Compare, N.HouseIs, N.Truthy)):
        return 4
    if isinstance(node, N.Neg):
        return 7
    return 8


def _operand(node, parent: int, right: bool = False) -> str:
    text = expr(node)
    inner = _binding(node)
    return f"({text})" if inner < parent or (right and inner == parent) else text


def expr(node) -> str:
    if isinstance(node, N.Num):
        return str(node.value)
    if isinstance(node, N.Quantity):
        return node.name
    if isinstance(node, N.Call):
        return f"{node.name}({', '.join(expr(a) for a in node.args)})"
    if isinstance(node, N.History):
        return f"{node.fn}({_counted(node)}, {node.period})"
    if isinstance(node, N.TagRef):
        return f"#{node.name}"
    if isinstance(node, N.Tier):
        return f"tier({expr(node.value)}; {', '.join(f'{k}: {v}' for k, v, *_ in node.entries)})"
    if isinstance(node, N.ByHouse):
        return f"house({', '.join(f'{k}: {v}' for k, v, *_ in node.entries)})"
    if isinstance(node, (N.BinOp, N.BoolOp)):
        level = _BINDING[node.op]
        return f"{_operand(node.left, level)} {node.op} {_operand(node.right, level, right=True)}"
    if isinstance(node, N.Neg):
        return f"-{_operand(node.value, 7)}"
    if isinstance(node, N.Compare):
        return f"{expr(node.left)} {node.op} {expr(node.right)}"
    if isinstance(node, N.HouseIs):
        return f"house is {'not ' if node.negated else ''}{node.material}"
    if isinstance(node, N.Not):
        return f"not {_operand(node.value, 3)}"
    if isinstance(node, N.Truthy):
        return expr(node.value)
    return "?"


def _counted(node) -> str:
    """The counted event of a history counter as written: 'renovate to clay', 'use #reed_accumulation'."""
    if node.fn == "gained":
        return node.good
    t = node.event
    if t.kind == "after_use":
        return " ".join(["use"] + [" or ".join(("#" if tag else "") + name for name, tag, _ in t.spaces)]).strip()
    if t.event == "gain":
        return f"gain {t.event_args['what'][0]}"
    words = "convert at one time" if t.event == "convert_batch" else t.event.replace("_", " ")
    for k in ("from", "to"):
        if k in t.event_args:
            words += f" {k} {t.event_args[k][0]}"
    return words


_VERB_WORDS = {
    "sow": "sow", "bake": "bake", "build_rooms": "build rooms", "build_stables": "build stables",
    "family_growth": "family growth", "family_growth_without_room": "family growth without room",
    "build_pastures": "build pastures", "build_improvement": "build improvement", "play_minor": "play minor",
    "take_start_player": "take start player", "mark_space": "mark an action space",
    "reveal_rounds": "reveal the remaining round cards to you", "newborn_acts": "let newborn act", "take_goods": "take the goods",
    "play_this_card": "play this card", "harvest_fields": "harvest fields", "skip_harvest": "skip the next harvest",
}


def _price(v) -> str:
    if v.free:
        return " free"
    if v.price is not None:
        return f" for {goods(v.price)}"
    return ""


def _rounds(rs) -> str:
    if rs.kind == "next":
        return f"next {rs.numbers[0]} rounds"
    if rs.kind == "next_count":
        return f"next ({expr(rs.count)}) rounds"
    if rs.kind == "listed":
        return "rounds " + ", ".join(map(str, rs.numbers))
    if rs.kind == "range":
        return f"rounds {rs.numbers[0]} to {rs.numbers[1]}"
    if rs.kind == "offsets":
        return "rounds " + ", ".join(f"+{n}" for n in rs.numbers)
    return {"remaining": "remaining rounds", "even": "remaining even rounds", "odd": "remaining odd rounds"}[rs.kind]


def stmt(node) -> str:
    """The canonical effect-language text of a statement."""
    if isinstance(node, N.Seq):
        return "; ".join(stmt(x) for x in node.items)
    if isinstance(node, N.Then):
        return " then ".join(stmt(x) for x in node.items)
    if isinstance(node, N.AndOr):
        return " and/or ".join(stmt(x) for x in node.items)
    if isinstance(node, N.May):
        return f"may {stmt(node.body)}"
    if isinstance(node, N.MayPay):
        to = f"to {_RECIPIENT_WORDS.get(node.recipient, node.recipient.replace('_', ' '))} " if node.recipient else ""
        return f"{'may ' if node.optional else ''}pay {goods(node.price)} {to}to {stmt(node.body)}"
    if isinstance(node, N.Guarded):
        return f"{stmt(node.body)} if {expr(node.cond)}"
    if isinstance(node, N.Choose):
        return "choose(" + " | ".join(stmt(x) for x in node.options) + ")"
    if not isinstance(node, N.Verb):
        return "?"
    v = node
    name = v.name
    if name == "sow" and v.word is not None:
        return (f"sow {'' if v.number is None else f'{v.number} '}{v.word}"
                + (f" with {v.fewer} fewer" if v.fewer else ""))
    if name == "sow" and v.number is not None:
        return f"sow {v.number} field{'s' if v.number != 1 else ''}"
    if name == "add_to_sown":
        return f"add {v.number} to each sown field"
    if name == "add_to_fields":
        return f"add {v.number} {v.word} to each {v.word} field"
    if name == "take_from_field":
        return (f"take {goods(v.goods)} from a field of another player"
                + (f" and give them {goods(v.goods_out)}" if v.goods_out is not None else ""))
    if name == "build_stables" and (v.price is not None or v.free):
        return "build stables" + _price(v)
    if name in _VERB_WORDS:
        return _VERB_WORDS[name]
    if name == "build_major":
        return "build major" + (f" #{v.word}" if v.word else "")
    if name in ("gain", "pay"):
        return f"{name} {goods(v.goods)}"
    if name == "exchange":
        return f"exchange {goods(v.goods)} -> {goods(v.goods_out)}"
    if name == "take_pile_top":
        return "take the top of the pile"
    if name == "spend_up_to":
        inner = expr(v.expr)
        limit = inner if isinstance(v.expr, N.Num) else f"({inner})"
        exchanges = "; ".join(f"{goods(ex.give)} -> {goods(ex.get)}"
                              + (f" (at most {_times_words(ex.at_most)})" if ex.at_most else "") for ex in v.exchanges)
        return f"spend up to {limit} {v.word} on ({exchanges})"
    if name == "plow" and v.expr is not None:
        inner = expr(v.expr)
        return f"plow up to {inner if isinstance(v.expr, N.Num) else '(' + inner + ')'} fields"
    if name == "plow":
        return f"plow {v.number} field{'s' if v.number != 1 else ''}"
    if name == "fence_new_stable":
        return "fence the stable just built"
    if name == "play_occupation_random":
        return "play occupation chosen at random"
    if name == "draw_from_card":
        return f"draw {v.number} from this card"
    if name == "draw_cards":
        return f"draw {v.number} {v.word if v.number != 1 else v.word[:-1]}"
    if name == "discard_hand":
        return f"discard {v.word} from hand"
    if name == "build_room":
        return "build room" + _price(v)
    if name == "build_stable":
        return "build stable" + _price(v)
    if name == "build_fences" and v.expr is not None:
        inner = expr(v.expr)
        return f"build up to {inner if isinstance(v.expr, N.Num) else '(' + inner + ')'} fences" + _price(v)
    if name == "build_fences":
        return "build fences" + _price(v)
    if name == "fence_spaces":
        return f"fence {v.number} space{'s' if v.number != 1 else ''}" + _price(v)
    if name == "renovate":
        return "renovate" + (f" to {v.word}" if v.word else "") + _price(v)
    if name == "play_occupation":
        return "play occupation" + _price(v)
    if name == "schedule":
        return f"schedule {goods(v.goods)} on {_rounds(v.rounds)}"
    if name == "return_to_space":
        return f"return {goods(v.goods)} to the space"
    if name == "bonus":
        return f"bonus {expr(v.expr)}"
    if name == "convert_bonus":
        return f"convert {v.word} to bonus ({', '.join(f'{k}: {p}' for k, p, *_ in v.tiers)})"
    if name == "give_others":
        return f"give {goods(v.goods)} to each other player"
    if name == "breed":
        return f"breed {v.word}"
    if name in ("give_actor", "pay_owner", "pay_actor", "take_from_actor"):
        verb, word, whom = {"give_actor": ("give", "to", "actor"), "pay_owner": ("pay", "to", "owner"),
                            "pay_actor": ("pay", "to", "actor"), "take_from_actor": ("take", "from", "actor")}[name]
        return f"{verb} {goods(v.goods)} {word} {whom}"
    if name == "lodge_people":
        return f"lodge {v.number} {'person' if v.number == 1 else 'people'} on this card"
    if name == "put_on_space":
        return f"put {goods(v.goods)} on an action space"
    if name == "put_on_named_space":
        return f"put {goods(v.goods)} on {v.spaces[0][0][0]}"
    if name == "spread_goods":
        return f"spread the {v.word} of {v.spaces[0][0][0]} over {', '.join(n for n, _, _ in v.spaces[1])}"
    if name == "pay_start_player":
        return f"pay {goods(v.goods)} to start player"
    if name == "place_more":
        return f"place {v.number} more {'person' if v.number == 1 else 'people'}"
    if name == "place_less":
        if v.number is None:
            return "place no people"
        return f"place {v.number} {'person' if v.number == 1 else 'people'} less"
    if name in ("put_on_card", "move_to_card", "take_from_card"):
        verb, word = {"put_on_card": ("put", "on"), "move_to_card": ("move", "to"),
                      "take_from_card": ("take", "from")}[name]
        return f"{verb} {goods(v.goods)} {word} this card"
    if name in ("for_actor", "for_each_other", "for_each_player"):
        head = {"for_actor": "for actor", "for_each_other": "for each other player",
                "for_each_player": "for each player"}[name]
        return f"{head} ({stmt(v.body)})"
    if name == "claim":
        moment = {"work_phase_end": "work phase end", "returning_home": "returning home", "round_end": "round end"}
        cond = f" if {expr(v.expr)}" if v.expr is not None else ""
        return f"claim ({stmt(v.body)}) at {moment[v.word]}{cond}"
    if name == "take_from_space":
        return f"take the {v.word or 'goods'} of {v.word_space}"
    if name == "move_person":
        def refs(group):
            return " or ".join(("#" if tag else "") + n for n, tag, _ in group)
        return f"move your person from {refs(v.spaces[0])} to {refs(v.spaces[1])}"
    return name.replace("_", " ")


# the players a price goes to, as the effect text says them ('pay 1 food to each other player to …')
_RECIPIENT_WORDS = {"each_other": "each other player"}


def _times_words(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")
