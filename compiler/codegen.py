"""Stage 5: generate Python modules from the checked trees (Jinja2 templates).

Generated code is deterministic and readable: one function pair (``…_can`` / ``…_do``) per statement,
each marked with the YAML file and line it came from. Strings from YAML reach the code only through
``repr``; function names are generated from sanitised ids; nothing from a YAML file is evaluated.
"""
from __future__ import annotations

import re
from pathlib import Path

import jinja2

from . import nodes as N
from . import english, textgen
from .checker import Unit

TEMPLATES = Path(__file__).parent / "templates"


class Code(str):
    """Python source to insert as is (a generated function name or expression), not as a literal."""


_PLAIN_EXPR = re.compile(r"[\w.]+(\((g, p, c|g, p|c)(, [\w.']+)*\))?")   # a name, or a call of simple arguments
_PRIMITIVE_TEST = re.compile(r"(P\.\w+)\(g, p, c\)")


def pyrepr(value) -> str:
    """Deterministic Python literal for tables: dicts keep their order, Code goes in verbatim."""
    if isinstance(value, Code):
        return str(value)
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(str(value))
    if isinstance(value, (list, tuple)):
        inner = ", ".join(pyrepr(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{pyrepr(k)}: {pyrepr(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {type(value).__name__} into generated code")


def comment_text(value) -> str:
    """Text that is safe inside a ``#`` comment: line breaks and other unprintable characters are escaped
    (a file or folder name from a stranger could otherwise end the comment and start code)."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in str(value))


_env = None


def env() -> jinja2.Environment:
    global _env
    if _env is None:
        _env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=False,
                                  keep_trailing_newline=True, trim_blocks=False, lstrip_blocks=False,
                                  undefined=jinja2.StrictUndefined)
        _env.filters["pyrepr"] = pyrepr
        _env.filters["comment"] = comment_text
    return _env


def ident(text: str) -> str:
    """A safe Python identifier fragment from an id (ids are at most 64 characters, and two different
    valid ids give two different fragments: card modules are named after them)."""
    s = re.sub(r"[^a-z0-9_]", "_", str(text).lower())
    if not s or not s[0].isalpha():
        s = "x" + s
    return s[:64]


def const_goods(node) -> tuple | None:
    """Goods with plain amounts as a tuple of (good, n); None if any amount is computed."""
    if node is None:
        return ()
    out = []
    for it in node.items:
        if isinstance(it, N.PlayersGoods) or it.per_quantity:
            return None
        if it.amount is None:
            n = 1
        elif isinstance(it.amount, N.Num):
            n = it.amount.value
        else:
            return None
        out.append((it.good, n))
    return tuple(out)


def goods_for_players(node, n: int):
    """Resolve players(...) entries for ``n`` players; returns a Goods node without PlayersGoods."""
    items = []
    for it in node.items:
        if isinstance(it, N.PlayersGoods):
            chosen = None
            for k, exact, goods, span in it.entries:
                if (exact and k == n) or (not exact and n >= k):
                    chosen = goods
            if chosen is not None:
                items.extend(goods_for_players(chosen, n).items)
        else:
            items.append(it)
    return N.Goods(items, span=node.span)


class ModuleWriter:
    """Collects the functions of one generated module."""

    def __init__(self, prefix: str, sources: list):
        self.prefix = prefix
        self.functions: list[str] = []
        self.count = 0
        self.sources = sources

    def name(self, hint: str) -> str:
        self.count += 1
        return f"_{self.prefix}_{self.count}_{hint}"

    def add(self, code: str):
        self.functions.append(code)


def _where(span) -> str:
    """Where a statement came from, for a comment in the generated code."""
    return comment_text(f"{span.file}:{span.line}" if span and span.line else (span.file if span else "?"))


def _rule_where(span) -> str:
    """A rule's place in its file (file:line), for the runtime's messages about it."""
    return f"{span.file}:{span.line}" if span and span.line else (span.file if span else "?")


class Gen:
    """Turns statements, expressions and goods into Python."""

    def __init__(self, w: ModuleWriter):
        self.w = w
        self.card_id = None
        # in a prerequisite and at scoring a card counts as often as it says (docs/language.md 4.8)
        self.counted = False
        # can function name -> its one-line expression: a parent's test uses the expression instead of a
        # call (legality is asked for every space at every placement: a call per level was a tenth of it)
        self.can_exprs: dict[str, str] = {}

    # ------------------------------------------------------------ expressions
    def expr(self, node) -> str:
        if isinstance(node, N.Num):
            return str(int(node.value))
        if isinstance(node, N.Quantity):
            import runtime.queries as RQ
            if node.name in RQ.CONTEXT_QUANTITIES:
                return f"Q.{node.name}(c)"
            if node.name in RQ.OWNER_QUANTITIES:
                return f"Q.{node.name}(g, p, c)"
            if self.counted and node.name in RQ.COUNTED:
                return f"Q.counted_{node.name}(g, p)"
            return f"Q.{node.name}(g, p)"
        if isinstance(node, N.Call):
            import runtime.queries as RQ
            fn, kinds = RQ.FUNCTIONS[node.name]
            args = []
            for a, kind in zip(node.args, kinds):
                if kind in ("space", "card", "space_or_tag", "category", "source", "phase", "animal", "piece"):
                    args.append(repr(a.name))
                elif kind == "player_value":
                    if isinstance(a, N.Quantity) and a.name in RQ.QUANTITIES:
                        counted = "counted_" if self.counted and a.name in RQ.COUNTED else ""
                        args.append(f"Q.{counted}{a.name}")  # a quantity is itself a function of a player
                    else:
                        args.append(f"(lambda g, p: {self.expr(a)})")
                elif kind == "goods":
                    args.append(pyrepr(tuple(RQ.GOOD_GROUPS.get(a.name, (a.name,)))))
                else:
                    args.append(self.expr(a))
            if node.name == "stored":  # the goods on the card whose rule it is
                return f"Q.stored(g, p, c, {self.card_id!r}, {', '.join(args)})"
            if node.name == "pile_top":  # the top of the pile on the card whose rule it is
                return f"Q.pile_top(g, p, c, {self.card_id!r}, {', '.join(args)})"
            if node.name == "drawn":  # what the last draw from the card whose rule it is drew
                return f"Q.drawn(g, p, c, {self.card_id!r}, {', '.join(args)})"
            if node.name in RQ.CONTEXT_FUNCTIONS:
                return f"Q.{fn.__name__}(g, p, c, {', '.join(args)})"
            if self.counted and node.name == "occupations_after":
                return f"Q.counted_occupations_after(g, p, {', '.join(args)})"
            return f"Q.{fn.__name__}(g, p, {', '.join(args)})"
        if isinstance(node, N.History):
            cid = counter_id(node)
            if node.fn == "done_since":
                return f"Q.done_since(g, p, c, {cid!r}, {self.card_id!r})"
            return f"Q.{node.fn}(g, p, {cid!r}, {node.period!r})"
        if isinstance(node, N.Tier):
            table = tuple((int(k), int(v)) for k, v, *_ in node.entries)
            value = self.expr(node.value)
            if not table or any(a[0] >= b[0] for a, b in zip(table, table[1:])):
                return f"Q.tier({value}, {pyrepr(table)})"
            # thresholds that rise (the checker's E214): the highest one reached, tested from the top
            # without a call; the value is worked out once (a tier inside it is done before this one reads _t)
            (top, points), *lower = table[::-1]
            chain = f"{points} if (_t := {value}) >= {top}"
            for threshold, points in lower:
                chain += f" else {points} if _t >= {threshold}"
            return f"({chain} else 0)"
        if isinstance(node, N.ByHouse):
            table = {str(k): int(v) for k, v, *_ in node.entries}
            return f"{pyrepr(table)}[p.house]"
        if isinstance(node, N.BinOp):
            left, right = self.expr(node.left), self.expr(node.right)
            if node.op == "//":
                return f"Q.div({left}, {right})"
            return f"({left} {node.op} {right})"
        if isinstance(node, N.Neg):
            return f"(-{self.expr(node.value)})"
        if isinstance(node, N.Compare):
            return f"({self.expr(node.left)} {node.op} {self.expr(node.right)})"
        if isinstance(node, N.HouseIs):
            return f"(p.house {'!=' if node.negated else '=='} {node.material!r})"
        if isinstance(node, N.BoolOp):
            return f"({self.expr(node.left)} {node.op} {self.expr(node.right)})"
        if isinstance(node, N.Not):
            return f"(not {self.expr(node.value)})"
        if isinstance(node, N.Truthy):
            return f"bool({self.expr(node.value)})"
        raise TypeError(type(node).__name__)

    def goods(self, node) -> str:
        """A Python expression for the goods as a tuple of (good, n)."""
        if node is None:
            return "()"
        const = const_goods(node)
        if const is not None:
            return pyrepr(const)
        parts = []
        for it in node.items:
            if isinstance(it, N.PlayersGoods):
                table = {}
                for n in range(1, 10):
                    table[n] = const_goods(goods_for_players(N.Goods([it]), n))
                if all(v is not None for v in table.values()):
                    parts.append(f"{pyrepr(table)}[g.nplayers]")
                else:
                    chain = "()"
                    for n in range(9, 0, -1):
                        chain = f"({self.goods(goods_for_players(N.Goods([it]), n))} if g.nplayers == {n} else {chain})"
                    parts.append(chain)
                continue
            amount = self.expr(it.amount) if it.amount is not None else "1"
            if it.per_quantity:
                import runtime.queries as RQ
                # a quantity of the event ('per 2 event_size') reads the context, as in expressions
                q = f"Q.{it.per_quantity}(c)" if it.per_quantity in RQ.CONTEXT_QUANTITIES else f"Q.{it.per_quantity}(g, p)"
                if it.per_divisor != 1:
                    q = f"({q} // {it.per_divisor})"
                amount = f"({amount} * {q})"
            parts.append(f"(({it.good!r}, {amount}),)")
        return " + ".join(parts) if parts else "()"

    # ------------------------------------------------------------ statements
    def stmt(self, node) -> tuple[str, str]:
        """Emit the can/do functions of a statement; returns their names."""
        label = textgen.stmt(node)
        hint = ident(label.split(" ")[0] if label else "s")[:16]
        base = self.w.name(hint)
        can, do = f"{base}_can", f"{base}_do"
        can_body, do_body = self._stmt_code(node, label)
        where = _where(node.span)
        self.w.add(f"def {can}(g, p, c):\n    # {where}: {label!r}\n{_indent(can_body)}\n\n\n"
                   f"def {do}(g, p, c):\n{_indent(do_body)}")
        if can_body.startswith("return ") and "\n" not in can_body:
            self.can_exprs[can] = can_body[len("return "):]
        return can, do

    def can_call(self, name: str) -> str:
        """The test of the statement whose can function is ``name``, as an expression of g, p and c: its
        one-line body inlined (in parentheses unless it is a name or a call), else a call."""
        expr = self.can_exprs.get(name)
        if expr is None:
            return f"{name}(g, p, c)"
        return expr if _PLAIN_EXPR.fullmatch(expr) else f"({expr})"

    def any_of(self, names) -> str:
        """``return`` the test that one of the statements can run (True when one of them always can)."""
        tests = [self.can_call(a) for a in names]
        if "True" in tests:
            return "return True"
        return "return " + " or ".join(tests)

    def space_can(self, name: str) -> "Code":
        """What a space table holds as the test of the statement ``name``: P.always when it always can
        (legal_spaces skips the call), the primitive itself when the test is one primitive called with
        (g, p, c), else the generated function."""
        expr = self.can_exprs.get(name)
        if expr == "True":
            return Code("P.always")
        m = _PRIMITIVE_TEST.fullmatch(expr or "")
        return Code(m.group(1) if m else name)

    def _stmt_code(self, node, label):
        if isinstance(node, N.Seq):
            subs = [self.stmt(x) for x in node.items]
            can = self.any_of(a for a, b in subs)
            do = "".join(f"if {self.can_call(a)}:\n    {b}(g, p, c)\n" for a, b in subs) + "return True"
            return can, do
        if isinstance(node, (N.Then, N.AndOr, N.Choose)):
            items = node.items if not isinstance(node, N.Choose) else node.options
            subs = [(x, self.stmt(x)) for x in items]
            table = "(" + "".join(f"({a}, {b}, {textgen.stmt(x)!r}), " for x, (a, b) in subs) + ")"
            if isinstance(node, N.Then):
                return f"return {self.can_call(subs[0][1][0])}", f"return P.then(g, p, c, {table})"
            can = self.any_of(a for x, (a, b) in subs)
            fn = "and_or" if isinstance(node, N.AndOr) else "choose"
            return can, f"return P.{fn}(g, p, c, {table})"
        if isinstance(node, N.May):
            a, b = self.stmt(node.body)
            return f"return {self.can_call(a)}", f"return P.optional(g, p, c, {a}, {b}, {textgen.stmt(node.body)!r})"
        if isinstance(node, N.MayPay):
            a, b = self.stmt(node.body)
            price = self.goods(node.price)
            if node.recipient == "each_other":   # each other player, the amounts worked out for each (4.2)
                fn = self.w.name("owed")
                self.w.add(f"def {fn}(g, p, c):\n    return {price}")
                body = node.body   # a gain comes first, and its goods may pay (the checker allows only a gain)
                credit = self.goods(body.goods) if isinstance(body, N.Verb) and body.name == "gain" else "()"
                test = f"P.can_pay_others(g, p, c, {fn}, {credit})"
                ask = f" and P.may(g, p, {label!r})" if node.optional else ""
                return (f"return {test} and {self.can_call(a)}",
                        f"if {test} and {a}(g, p, c){ask}:\n    {b}(g, p, c)\n    P.pay_others(g, p, c, {fn})\n"
                        f"    return True\nreturn False")
            then = self.space_can(a)   # the statement is tested with the price paid (docs/language.md 4)
            if node.recipient is not None:  # the price goes to a player (nothing when that is the payer)
                whom = {"owner": "P.owner_of(p, c)", "actor": "P.actor_of(p, c)",
                        "start_player": "P.start_player_of(g)"}[node.recipient]
                ask = f" and P.may(g, p, {label!r})" if node.optional else ""
                return (f"return P.can_pay_to_then(g, p, {whom}, {price}, {then}, c)",
                        f"price, whom = {price}, {whom}\nif P.can_pay_to_then(g, p, whom, price, {then}, c){ask}:\n"
                        f"    P.pay_to(g, p, whom, price, c)\n    {b}(g, p, c)\n    return True\nreturn False")
            def test(cost):
                after = "" if then == "P.always" else f" and P.can_after_paying(g, p, {cost}, {then}, c)"
                return f"P.can_afford(g, p, {cost}){after}"
            can = f"return {test(price)}" if price.startswith("((") else f"price = {price}\nreturn {test('price')}"
            if not node.optional:
                return (can,
                        f"price = {price}\nif {test('price')}:\n"
                        f"    P.pay_cost(g, p, price)\n    return bool({b}(g, p, c))\nreturn False")
            return (can,
                    f"price = {price}\nif {test('price')} and P.may(g, p, {label!r}):\n"
                    f"    P.pay_cost(g, p, price)\n    {b}(g, p, c)\n    return True\nreturn False")
        if isinstance(node, N.Guarded):
            a, b = self.stmt(node.body)
            cond = self.expr(node.cond)
            return f"return {cond} and {self.can_call(a)}", f"if {cond}:\n    return {b}(g, p, c)\nreturn False"
        return self._verb(node)

    def _rounds(self, rs) -> str:
        if rs.kind == "next":
            return f"P.rounds_next(g, {int(rs.numbers[0])})"
        if rs.kind == "next_count":   # worked out when the statement runs
            return f"P.rounds_next(g, {self.expr(rs.count)})"
        if rs.kind == "offsets":
            return f"P.rounds_offsets(g, {pyrepr(tuple(int(x) for x in rs.numbers))})"
        if rs.kind == "listed":
            return f"P.rounds_listed(g, {pyrepr(tuple(int(x) for x in rs.numbers))})"
        if rs.kind == "range":
            first, last = (int(x) for x in rs.numbers)
            return f"P.rounds_listed(g, {pyrepr(tuple(range(first, last + 1)))})"
        parity = {"remaining": "None", "even": "0", "odd": "1"}[rs.kind]
        return f"P.rounds_remaining(g, {parity})"

    def _cost_arg(self, v):
        if v.free:
            return "()"
        if v.price is not None:
            return self.goods(v.price)
        return "None"

    def _verb(self, v: N.Verb):
        n = v.name
        simple = {
            "bake": ("P.can_bake(g, p, c)", "P.bake(g, p, c)"),
            "build_rooms": ("P.can_build_rooms(g, p, c)", "P.build_rooms(g, p, c)"),
            "build_stables": ("P.can_build_stables(g, p, c)", "P.build_stables(g, p, c)"),
            "family_growth": ("P.can_family_growth(g, p, c)", "P.family_growth(g, p, c)"),
            "family_growth_without_room": ("P.can_family_growth_without_room(g, p, c)",
                                           "P.family_growth_without_room(g, p, c)"),
            "build_pastures": ("P.can_build_pastures(g, p, c)", "P.build_pastures(g, p, c)"),
            "build_improvement": ("P.can_build_improvement(g, p, c)", "P.build_improvement(g, p, c)"),
            "play_minor": ("P.can_play_minor(g, p, c)", "P.play_minor(g, p, c)"),
            "take_start_player": ("True", "P.take_start_player(g, p, c)"),
            "take_goods": ("P.can_take_goods(g, p, c)", "P.take_goods(g, p, c)"),
            "harvest_fields": ("P.can_harvest_fields(g, p, c)", "P.harvest_fields(g, p, c)"),
            "skip_harvest": ("True", "P.skip_harvest(g, p, c)"),
        }
        if n == "build_stables" and (v.price is not None or v.free):   # a price for each stable
            cost = self._cost_arg(v)
            return f"return P.can_build_stables(g, p, c, {cost})", f"return P.build_stables(g, p, c, {cost})"
        if n in simple:
            can, do = simple[n]
            return f"return {can}", f"return {do}"
        if n == "build_major":
            only = f", {v.word!r}" if v.word else ""
            return f"return P.can_build_major(g, p, c{only})", f"return P.build_major(g, p, c{only})"
        if n == "gain":
            return "return True", f"return P.gain(g, p, {self.goods(v.goods)}, c)"
        if n == "pay":
            goods = self.goods(v.goods)
            return f"return P.can_afford(g, p, {goods})", f"return P.pay_cost(g, p, {goods}, c)"
        if n == "exchange":
            give, get = self.goods(v.goods), self.goods(v.goods_out)
            return f"return P.can_afford(g, p, {give})", f"return P.exchange(g, p, {give}, {get}, c)"
        if n == "give_others":
            return "return True", f"return P.give_others(g, p, {self.goods(v.goods)}, c)"
        if n == "give_actor":
            return "return True", f"return P.give_to(g, P.actor_of(p, c), {self.goods(v.goods)}, c)"
        if n in ("pay_owner", "pay_actor"):
            goods = self.goods(v.goods)
            whom = "P.owner_of(p, c)" if n == "pay_owner" else "P.actor_of(p, c)"
            return (f"return P.can_pay_to(g, p, {whom}, {goods})", f"return P.pay_to(g, p, {whom}, {goods}, c)")
        if n == "pay_start_player":
            goods = self.goods(v.goods)
            return (f"return P.can_pay_to(g, p, P.start_player_of(g), {goods})",
                    f"return P.pay_to(g, p, P.start_player_of(g), {goods}, c)")
        if n == "put_on_space":
            return "return True", f"return P.put_on_space(g, p, {self.goods(v.goods)}, c)"
        if n == "put_on_named_space":   # possible while the space is on the board
            sid = v.spaces[0][0][0]
            return (f"return P.can_put_on_named_space(g, {sid!r})",
                    f"return P.put_on_named_space(g, p, {sid!r}, {self.goods(v.goods)}, c)")
        if n == "spread_goods":
            args = f"{v.word!r}, {v.spaces[0][0][0]!r}, {pyrepr(tuple(name for name, _, _ in v.spaces[1]))}"
            return f"return P.can_spread_goods(g, {args})", f"return P.spread_goods(g, p, {args})"
        if n == "lodge_people":
            return "return True", f"return P.lodge_people(g, p, {int(v.number)}, {self.card_id!r})"
        if n == "reveal_rounds":
            return "return P.can_reveal_round_cards(g, p)", "return P.reveal_round_cards(g, p)"
        if n == "mark_space":
            return "return True", f"return P.mark_space(g, p, {self.card_id!r})"
        if n == "place_first":
            return "return P.can_place_first(g, p)", "return P.place_first(g, p)"
        if n == "place_more":
            return "return True", f"return P.place_more(g, p, {int(v.number)})"
        if n == "place_less":
            k = "None" if v.number is None else int(v.number)
            return "return True", f"return P.place_less(g, p, {k})"
        if n == "take_from_actor":
            return "return True", f"return P.take_from(g, p, P.actor_of(p, c), {self.goods(v.goods)}, c)"
        if n in ("for_actor", "for_each_other"):
            a, b = self.stmt(v.body)
            return "return True", f"return P.{n}(g, p, c, {a}, {b})"
        if n == "return_to_space":
            goods = self.goods(v.goods)
            return (f"return c is not None and c.space is not None and P.can_afford(g, p, {goods})",
                    f"return P.return_to_space(g, p, {goods}, c) and c.leave({goods})")
        if n == "sow":
            if v.word is not None:   # 'sow 1 vegetable', 'sow grain with 1 fewer' (docs/language.md 4.14)
                most = None if v.number is None else int(v.number)
                return (f"return P.can_sow(g, p, c, {v.word!r})",
                        f"return P.sow(g, p, c, {most!r}, {v.word!r}, {int(v.fewer)})")
            if v.number is None:
                return "return P.can_sow(g, p, c)", "return P.sow(g, p, c)"
            return "return P.can_sow(g, p, c)", f"return P.sow(g, p, c, {int(v.number)})"
        if n == "add_to_sown":
            return "return P.can_add_to_fields(g, p, c)", f"return P.add_to_fields(g, p, c, {int(v.number)})"
        if n == "add_to_fields":
            return (f"return P.can_add_to_fields(g, p, c, {v.word!r})",
                    f"return P.add_to_fields(g, p, c, {int(v.number)}, {v.word!r})")
        if n == "take_from_field":
            (good, k), = const_goods(v.goods)
            given = const_goods(v.goods_out) if v.goods_out is not None else ()
            return (f"return P.can_take_from_field(g, p, c, {good!r}, {int(k)})",
                    f"return P.take_from_field(g, p, c, {good!r}, {int(k)}, {pyrepr(given)})")
        if n == "fence_new_stable":   # the space of a stable the event built (docs/language.md 4.10)
            return "return P.can_fence_new_stable(g, p, c)", "return P.fence_new_stable(g, p, c)"
        if n == "spend_up_to":   # the exchanges, while the good given stays within the limit (4.12 UPN)
            table = pyrepr(tuple((const_goods(ex.give), const_goods(ex.get), ex.at_most,
                                  f"{textgen.goods(ex.give)} -> {textgen.goods(ex.get)}") for ex in v.exchanges))
            args = f"{self.expr(v.expr)}, {v.word!r}, {table}"
            return f"return P.can_spend_up_to(g, p, {args})", f"return P.spend_up_to(g, p, c, {args})"
        if n == "plow" and v.expr is not None:   # up to N fields: the player may stop after each (4.12 UPN)
            most = self.expr(v.expr)
            return (f"return P.can_plow(g, p, c) and {most} >= 1",
                    f"return P.plow(g, p, c, {most}, up_to=True)")
        if n == "plow":
            return "return P.can_plow(g, p, c)", f"return P.plow(g, p, c, {int(v.number or 1)})"
        if n == "build_room":
            cost = self._cost_arg(v)
            return f"return P.can_build_room(g, p, c, {cost})", f"return P.build_room(g, p, c, {cost})"
        if n == "build_stable":
            cost = self._cost_arg(v)
            return f"return P.can_build_stable(g, p, c, {cost})", f"return P.build_stable(g, p, c, {cost})"
        if n == "build_fences":
            if v.price is not None:
                raise ValueError("build fences takes 'free' or nothing")
            free = "True" if v.free else "False"
            if v.expr is not None:   # one fencing action of at most N fences (docs/language.md 4.12 UPN)
                most = self.expr(v.expr)
                return (f"return P.can_build_fences(g, p, c, {free}, at_most={most})",
                        f"return P.build_fences(g, p, c, {free}, at_most={most})")
            return f"return P.can_build_fences(g, p, c, {free})", f"return P.build_fences(g, p, c, {free})"
        if n == "fence_spaces":
            k = int(v.number)
            if v.price is not None:
                price = self.goods(v.price)
                return (f"return P.can_afford(g, p, {price}) and P.can_fence_spaces(g, p, c, {k}, True)",
                        f"P.pay_cost(g, p, {price})\nreturn P.fence_spaces(g, p, c, {k}, True)")
            free = "True" if v.free else "False"
            return (f"return P.can_fence_spaces(g, p, c, {k}, {free})",
                    f"return P.fence_spaces(g, p, c, {k}, {free})")
        if n == "renovate":
            target = repr(v.word) if v.word else "None"
            if v.price is None and not v.free:
                return "return P.can_renovate(g, p, c)", f"return P.renovate(g, p, c, {target})"
            # a renovation at the price the card gives (docs/language.md 4.13)
            cost = self._cost_arg(v)
            return (f"return P.can_renovate(g, p, c, {target}, {cost})",
                    f"return P.renovate(g, p, c, {target}, {cost})")
        if n == "play_occupation":
            fee = self.goods(v.price) if v.price is not None else "P.FREE" if v.free else "()"
            return (f"return P.can_play_occupation(g, p, c, {fee})",
                    f"return P.play_occupation(g, p, c, {fee})")
        if n == "schedule":
            rounds = self._rounds(v.rounds)
            return "return True", f"return P.schedule(g, p, {self.goods(v.goods)}, {rounds}, c, {self.card_id!r})"
        if n == "bonus":
            return "return True", f"return S.bonus(g, p, {self.expr(v.expr)}, c, {self.card_id!r})"
        if n == "convert_bonus":
            tiers = tuple((int(k), int(pts)) for k, pts, *_ in v.tiers)
            return (f"return p.goods[{v.word!r}] >= {tiers[0][0]}",
                    f"return P.convert_bonus(g, p, {v.word!r}, {pyrepr(tiers)}, c, {self.card_id!r})")
        if n == "breed":
            return "return True", f"return P.breed(g, p, {v.word!r})"
        if n == "schedule_action":
            a, b = self.stmt(v.body)
            rs = v.rounds
            rounds = self._rounds(rs)
            aside = f", aside={(v.word, int(v.number))!r}" if v.number is not None else ""   # pieces set aside (4.3)
            return "return True", (f"return P.schedule_action(g, p, {a}, {b}, {rounds}, {textgen.stmt(v.body)!r}, c, "
                                   f"{self.card_id!r}{aside})")
        if n == "for_each_player":
            a, b = self.stmt(v.body)
            return "return True", f"return P.for_each_player(g, p, c, {a}, {b})"
        if n == "harvest_more":
            return (f"return P.can_harvest_more(g, p, {v.word!r})",
                    f"return P.harvest_more(g, p, {v.word!r}, {int(v.number)})")
        if n == "newborn_acts":
            return "return p.newborns > 0", "return P.newborn_acts(g, p, c)"
        if n == "pile":
            return "return True", f"return P.pile(g, p, {self.card_id!r}, {self.goods(v.goods)})"
        if n == "move_to_card" and isinstance(v.goods.items[0].amount, N.UpTo):
            # an amount the player chooses, from 0 to the limit (docs/language.md 4.12 UPN)
            good, cid = v.goods.items[0].good, repr(self.card_id)
            limit = self.expr(v.goods.items[0].amount.limit)
            return (f"return P.can_move_up_to_card(g, p, {good!r}, {limit})",
                    f"return P.move_up_to_card(g, p, {cid}, {good!r}, {limit}, c)")
        if n in ("put_on_card", "move_to_card", "take_from_card"):
            goods, cid = self.goods(v.goods), repr(self.card_id)
            can = {"put_on_card": "True", "move_to_card": f"P.can_afford(g, p, {goods})",
                   "take_from_card": f"P.can_take_from_card(g, p, {cid}, {goods})"}[n]
            return f"return {can}", f"return P.{n}(g, p, {cid}, {goods}, c)"
        if n == "take_pile_top":   # the top good of the card's pile (docs/language.md 4.5)
            cid = repr(self.card_id)
            return f"return bool(P.pile_top(p, {cid}))", f"return P.take_pile_top(g, p, {cid}, c)"
        if n == "move_crop":
            return "return P.can_move_crop(g, p)", "return P.move_crop(g, p)"
        if n == "play_this_card":
            cid = repr(self.card_id)
            return f"return P.can_play_from_hand(g, p, {cid})", f"return P.play_from_hand(g, p, {cid}, c)"
        if n == "play_occupation_random":
            return "return P.can_play_occupation_random(g, p, c)", "return P.play_occupation_random(g, p, c)"
        if n == "draw_from_card":
            cid = repr(self.card_id)
            return (f"return P.can_draw_from_card(g, p, {cid})",
                    f"return P.draw_from_card(g, p, {cid}, {int(v.number)}, c)")
        if n == "draw_cards":
            return (f"return P.can_draw_cards(g, p, {v.word!r})",
                    f"return P.draw_cards(g, p, {v.word!r}, {int(v.number)}, c)")
        if n == "discard_hand":
            return "return True", f"return P.discard_hand(g, p, {v.word!r}, c)"
        if n == "claim":   # the statements run later (runtime/claims.py); staking is always possible
            a, b = self.stmt(v.body)
            cond = "None"
            if v.expr is not None:
                cond = self.w.name("claim_condition")
                self.w.add(f"def {cond}(g, p, c):\n    return {self.expr(v.expr)}")
            return "return True", (f"return C.stake(g, p, {v.word!r}, {a}, {b}, {cond}, "
                                   f"{textgen.stmt(v.body)!r}, c, {self.card_id!r})")
        if n == "take_from_space":
            args = f"{v.word_space!r}, {v.word!r}"
            return f"return C.can_take_from_space(g, p, {args})", f"return C.take_from_space(g, p, {args})"
        if n == "move_person":
            sources, targets = (pyrepr(tuple((name, bool(tag)) for name, tag, _ in group)) for group in v.spaces)
            return (f"return C.can_move_person(g, p, {sources}, {targets})",
                    f"return C.move_person(g, p, {sources}, {targets})")
        raise ValueError(f"no code for verb {n}")


def _indent(code: str, n: int = 4) -> str:
    pad = " " * n
    return "\n".join(pad + line if line else line for line in code.split("\n"))


# ---------------------------------------------------------------- modules

def _listener_keys(t: N.Trigger) -> list[str]:
    if t.kind in ("after_use", "before_use", "turn_end_use"):
        prefix = {"after_use": "use:", "before_use": "before_use:", "turn_end_use": "turn_end:"}[t.kind]
        return [prefix + ("#" if is_tag else "") + name for name, is_tag, _ in t.spaces]
    if t.kind == "after_event":
        return [f"event:{t.event}"]
    if t.kind == "before_event":
        return [f"{'instead' if t.instead else 'before'}:{t.event}"]
    if t.kind == "at_phase":
        if t.phase == "end_of_round":
            return [f"phase:end_of_round:{t.round}"]
        return [f"phase:{t.phase}"]
    return []


def counter_id(node: N.History) -> str:
    """The name of the counter a history expression reads (docs/language.md 4.7): the same event named
    the same way is one counter, whichever cards read it."""
    if node.fn == "gained":
        return f"gained:{node.good}"
    t = node.event
    if t.kind == "after_use":
        return "use:" + (",".join(sorted(("#" if tag else "") + name for name, tag, _ in t.spaces)) or "*")
    if t.event == "gain":
        return f"gain:{t.event_args['what'][0]}"
    args = "".join(f",{k}={w}" for k, (w, _) in sorted(t.event_args.items()))
    return f"{t.event}{args}"


def _counters(gen: Gen, d: dict) -> tuple:
    """The counters a card's rules read: (counter id, event key, amount function or None for 1, periods).
    The engine keeps them from the moment the card enters the game (runtime/history.py)."""
    import runtime.queries as RQ
    found: dict = {}
    trees = [r for r in d["rules"]] + [x for x in (d["requires"], d["cost"]) if x is not None]
    for node in N.walk(trees):
        if not isinstance(node, N.History):
            continue
        cid = counter_id(node)
        period = "game" if node.fn == "done_since" else node.period
        if cid in found:
            found[cid][3].add(period)
            continue
        t = node.event
        amount = None
        if node.fn == "gained":
            key = "event:gain"
            amount = f"Q.event_goods(g, p, c, {pyrepr(tuple(RQ.GOOD_GROUPS.get(node.good, (node.good,))))})"
        elif t.kind == "after_use":
            key = "use:*"
            if t.spaces:
                amount = "int(" + " or ".join(f"Q.event_space(g, p, c, {name!r})" for name, _, _ in t.spaces) + ")"
        else:
            key = f"event:{t.event}"
            if t.event == "gain":
                what = t.event_args["what"][0]
                amount = f"int(Q.event_goods(g, p, c, {pyrepr(tuple(RQ.GOOD_GROUPS.get(what, (what,))))}) > 0)"
            elif t.event_args:
                amount = "int(" + " and ".join(f"c.data[{0 if k == 'from' else 1}] == {w!r}"
                                               for k, (w, _) in sorted(t.event_args.items())) + ")"
        fname = None
        if amount is not None:
            fname = gen.w.name("counter")
            gen.w.add(f"def {fname}(g, p, c):\n    # the amount {cid!r} counts for this event\n    return {amount}")
        found[cid] = [cid, key, Code(fname) if fname else None, {period}]
    return tuple((cid, key, fn, tuple(sorted(periods))) for cid, key, fn, periods in found.values())


def _tags_of(d: dict) -> tuple:
    """A card's tags: its own and those it counts as ('this card counts as #cooking', docs/language.md 4.8)."""
    tags = list(d["tags"])
    for rule in d["rules"]:
        if rule.kind == "modifier" and rule.modifier.kind == "counts_as_tag":
            name = rule.modifier.words[0][0]
            if name not in tags:
                tags.append(name)
    return tuple(tags)


def card_table(gen: Gen, unit: Unit) -> dict:
    """The table entry of an improvement or card, emitting its handler functions."""
    d = unit.data
    w = gen.w
    gen.card_id = unit.id
    entry = {"id": unit.id, "name": d["name"], "kind": d["kind"], "points": d["points"],
             "bonus_points": d["bonus_points"], "tags": _tags_of(d), "upgrade_of": tuple(d["upgrade_of"]),
             "passing": d["passing"], "deck": d["deck"], "number": d["number"], "players": d["players"],
             "src": (unit.src.file, unit.src.line)}
    if d.get("returns", 1) > 1:   # a price of returning several cards (docs/language.md 4.8)
        entry["returns"] = d["returns"]
    if d.get("returned_lose_claims"):
        entry["returned_lose_claims"] = True
    cost = d["cost"]
    const = const_goods(cost) if cost is not None else ()
    if const is not None:
        entry["cost"] = const
    else:
        fname = w.name("cost")
        w.add(f"def {fname}(g, p):\n    return {gen.goods(cost)}")
        entry["cost"] = ()
        entry["cost_fn"] = Code(fname)
    if any(isinstance(n, N.Call) and n.name == "round_played" for n in N.walk(list(d["rules"]) + [d["requires"]])):
        entry["round_played"] = True   # the game records the round each card is played in (Q.round_played)
    if d.get("cost_ways"):   # alternative prices: every way, the first being 'cost' (docs/language.md 4.3)
        entry["cost_ways"] = tuple(const_goods(way) for way in d["cost_ways"])
    if d["requires"] is not None:
        fname = w.name("requires")
        gen.counted = True
        w.add(f"def {fname}(g, p):\n    # {_where(d['requires'].span)}\n    return {gen.expr(d['requires'])}")
        gen.counted = False
        entry["requires"] = Code(fname)
        entry["requires_text"] = textgen.expr(d["requires"])
    on_play, listeners, exchanges, bake, modifiers, latches, actions = [], [], [], [], [], [], []
    snapshots = []  # events whose rules read 'before(…)': their verbs copy the actor first
    hand_listeners = []  # rules of the card while it is in a hand ('may play this card')
    guards = []   # (index in exchanges, guard): an exchange open only while its guard holds
    game_limits = []   # indices in exchanges whose limit counts over the game
    offers = []   # (index in exchanges, price): other players may buy what the exchange takes
    for i, rule in enumerate(d["rules"]):
        if rule.kind in ("exchanges", "bake"):
            guard = None
            if getattr(rule, "guard", None) is not None:
                guard = w.name("exchange_open")
                w.add(f"def {guard}(g, p, c=None):\n    # {_where(rule.span)}\n    return bool({gen.expr(rule.guard)})")
            for ex in rule.exchanges:
                give = const_goods(ex.give)
                get = "pile" if ex.get is None else const_goods(ex.get)
                if rule.kind == "bake":
                    bake.append((give, get, ex.at_most))
                else:
                    if guard is not None:
                        guards.append((len(exchanges), Code(guard)))
                    at_most = ex.at_most
                    if isinstance(at_most, N.Node):   # worked out for the owner when the exchanges are looked at
                        fn = w.name("exchange_times")
                        w.add(f"def {fn}(g, p, c=None):\n    # {_where(ex.span)}\n    return {gen.expr(at_most)}")
                        at_most = Code(fn)
                    if ex.period == "game":   # '(at most N times per game)': never counted afresh
                        game_limits.append(len(exchanges))
                    if ex.buy_goods is not None:   # '(others may buy … for <price>)' (docs/language.md 4.9)
                        offers.append((len(exchanges), const_goods(ex.buy_price)))
                    exchanges.append((give, get, rule.window, at_most))
            continue
        if rule.kind == "modifier":
            kind = rule.modifier.kind
            if kind == "counts_as_occupations":   # facts of the card's table entry, read where counted
                entry["occupation_count"] = int(rule.modifier.number)
            elif kind == "counts_as_major":
                entry["counts_as_major"] = True
            elif kind != "counts_as_tag":   # a tag of the card's table entry (_tags_of)
                modifiers.append(Code(_modifier(gen, rule.modifier)))
            if rule.modifier.kind == "ignore_begging":  # the cards are discarded at the end of the last harvest
                handler = w.name("discard_begging")
                w.add(f"def {handler}(g, p, c):\n    # {_where(rule.span)}: ignore begging\n"
                      f"    return S.discard_ignored_begging(g, p)")
                listeners.append(("phase:harvest_end", Code(handler), "you"))
            continue
        if rule.kind == "action":
            can, do = gen.stmt(rule.body)
            name = w.name("action")
            conds = [f"{can}(g, p, c)"]
            if rule.guard is not None:
                conds.insert(0, gen.expr(rule.guard))
            rule_id, limit_args = f"{unit.id}:{i}", ""
            if rule.limit is not None and rule.limit.shared is not None:   # counted with the rules naming the tag
                rule_id = f"#{rule.limit.shared}:{rule.limit.period}"
            if rule.limit is not None:
                period, times = rule.limit.period, int(rule.limit.times)
                conds.insert(0, f"P.limit_ok(g, p, {rule_id!r}, {period!r}, {times})")
                limit_args = f", {period!r}, {times}"
            w.add(f"def {name}_can(g, p, c):\n    # {_where(rule.span)}: {rule.window} action\n"
                  f"    return {' and '.join(conds)}\n\n\n"
                  f"def {name}_do(g, p, c):\n"
                  f"    return bool(P.fire(g, p, c, {rule_id!r}, {can}, {do}, {_rule_where(rule.span)!r}, "
                  f"{str(d['name'])!r}{limit_args}))")
            actions.append((rule.window, Code(f"{name}_can"), Code(f"{name}_do"), textgen.stmt(rule.body)))
            continue
        t = rule.trigger
        gen.counted = t.kind == "at_phase" and t.phase == "scoring"
        can, do = gen.stmt(rule.body)
        handler = w.name("rule")
        lines = [f"def {handler}(g, p, c):", f"    # {_where(rule.span)}: {t.kind}"]
        if t.via:   # 'convert at one time with a or #b': the conversions made with those cards (4.1.5)
            refs = tuple(("#" if is_tag else "") + name for name, is_tag, _ in t.via)
            lines.append(f"    c = P.batch_with(g, c, {refs!r})\n    if c is None:\n        return None")
        cond = []
        if t.marked:   # 'after you use the marked space': the space this card marked
            cond.append(f"P.marked_by(g, p, c, {unit.id!r})")
        if rule.guard is not None:
            cond.append(gen.expr(rule.guard))
        if t.kind in ("after_event", "before_event") and t.event == "gain":
            import runtime.queries as RQ
            what = t.event_args["what"][0]
            cond.append(f"Q.event_goods(g, p, c, {pyrepr(tuple(RQ.GOOD_GROUPS.get(what, (what,))))}) > 0")
        if t.kind in ("after_event", "before_event") and t.event == "renovate" and t.event_args:
            for k, (word, _) in t.event_args.items():
                cond.append(f"c.data[{0 if k == 'from' else 1}] == {word!r}")
        # None: the rule could not apply now (the engine may offer it again after the other listeners)
        if cond:
            lines.append(f"    if not ({' and '.join(cond)}):\n        return None")
        # P.fire counts the limit when the rule fires and stops a rule that keeps triggering itself
        limit_args = f", {rule.limit.period!r}, {int(rule.limit.times)}" if rule.limit is not None else ""
        rule_id = repr(f"{unit.id}:{i}")
        if rule.limit is not None and rule.limit.each:   # counted apart for each player whose event it is
            rule_id = f"{rule_id} + '@' + str(P.actor_of(p, c).idx)"
        if rule.limit is not None and rule.limit.shared is not None:   # counted with the rules naming the tag (4.4)
            rule_id = repr(f"#{rule.limit.shared}:{rule.limit.period}")
        lines.append(f"    return P.fire(g, p, c, {rule_id}, {can}, {do}, {_rule_where(rule.span)!r}, "
                     f"{str(d['name'])!r}{limit_args})")
        w.add("\n".join(lines))
        if t.instead:   # the test whether the rule would replace the verb, without running it (P.could_replace)
            test_id = rule_id if rule.limit is not None and rule.limit.shared is not None else repr(f"{unit.id}:{i}")
            test = " and ".join([f"({x})" for x in cond] + [f"P.could_fire(g, p, c, {test_id}, {can}{limit_args})"])
            w.add(f"def {handler}_can(g, p, c):\n    return bool({test})\n\n\n{handler}.can = {handler}_can")
        gen.counted = False
        if any(isinstance(x, N.Call) and x.name == "before" for x in N.walk(rule)):
            snapshots.append("use" if t.kind in ("after_use", "turn_end_use") else t.event)
        if t.kind == "on_play":
            on_play.append(Code(handler))
        elif t.kind == "once":
            cname = w.name("latch")
            w.add(f"def {cname}(g, p):\n    return {gen.expr(t.cond)}")
            latches.append((Code(cname), Code(handler)))
        elif any(isinstance(x, N.Verb) and x.name == "play_this_card" for x in N.walk(rule.body)):
            for key in _listener_keys(t):   # listened to while the card is in its holder's hand (4.10)
                hand_listeners.append((key, Code(handler), t.actor))
        else:
            for key in _listener_keys(t):
                listeners.append((key, Code(handler), t.actor))
    if snapshots:
        entry["snapshots"] = tuple(sorted(set(snapshots)))
    counters = _counters(gen, d)
    if counters:
        entry["counters"] = counters
    if hand_listeners:
        entry["hand_listeners"] = tuple(hand_listeners)
    if guards:
        entry["exchange_guards"] = tuple(guards)
    if game_limits:
        entry["exchange_game_limits"] = tuple(game_limits)
    if offers:
        entry["exchange_offers"] = tuple(offers)
    entry.update(on_play=tuple(on_play), listeners=tuple(listeners), exchanges=tuple(exchanges),
                 bake=tuple(bake), modifiers=tuple(modifiers), latches=tuple(latches), actions=tuple(actions))
    gen.card_id = None
    return entry


def _modifier(gen: Gen, m: N.Modifier) -> str:
    w = gen.w
    name = w.name("modifier")
    body = []
    # '<modifier> while <condition>' (docs/language.md 4.3): a change counts as none while the condition
    # does not hold, worked out where the price, capacity or sowing is; a major is a minor only while it holds
    cond = getattr(m, "cond", None)
    when = None if cond is None else gen.expr(cond)
    if m.kind in ("cost_delta", "cost_set"):
        targets = []
        for first, second, _ in m.targets:
            word = first if second is None else second
            if word.endswith("s") and word not in ("improvements",) and word[:-1] in (
                    "room", "stable", "fence", "major", "minor", "occupation", "renovation"):
                word = word[:-1]
            if word == "improvements":
                word = "improvement"
            targets.append(word if second is None else f"{word}:{first}")
        kind = "delta" if m.kind == "cost_delta" else "set_or_base" if m.words else "set"
        limit = getattr(m, "limit", None)
        if limit is not None:   # (targets, change, limit key, period, times): runtime payments.cost_options
            goods = tuple((str(good), int(n)) for n, good, *_ in m.goods) or "free"
            key = ":" + w.name("price")
            body.append(f"p.mods.setdefault('cost_limited', []).append(({pyrepr(tuple(targets))}, {pyrepr(goods)}, "
                        f"card.id + {key!r}, {limit.period!r}, {int(limit.times)}))")
        elif any(isinstance(n, N.Node) for n, *_ in m.goods) or when is not None:
            fn = w.name("cost_amounts")
            parts = ", ".join(f"({str(good)!r}, {gen.expr(n) if isinstance(n, N.Node) else int(n)}"
                              f"{'' if when is None else f' if {when} else 0'})" for n, good, *_ in m.goods)
            w.add(f"def {fn}(g, p, c=None):\n    return ({parts},)")
            body.append(f"p.mods.setdefault('cost', []).append(('delta_fn', {pyrepr(tuple(targets))}, {fn}))")
        else:
            goods = tuple((str(good), int(n)) for n, good, *_ in m.goods)
            body.append(f"p.mods.setdefault('cost', []).append(({kind!r}, {pyrepr(tuple(targets))}, {pyrepr(goods)}))")
    elif m.kind == "cost_substitute":
        targets = tuple(_target_word(first, second) for first, second, _ in m.targets)
        pay = const_goods(m.goods[0])
        instead = const_goods(m.goods[1]) if m.goods[1] is not None else ("all", m.words[0][0])
        body.append(f"p.mods.setdefault('substitute', []).append(({pyrepr(targets)}, {pyrepr(pay)}, {pyrepr(instead)}))")
    elif m.kind == "free_numbered":   # the owner's Nth fences for nothing: runtime primitives.fences
        numbers = tuple(sorted(n for n, _ in m.words))
        body.append(f"p.mods['free_fence_numbers'] = tuple(sorted(set(p.mods.get('free_fence_numbers', ())) | "
                    f"set({numbers!r})))")
    elif m.kind == "free_per_action":
        body.append(f"p.mods['free_fences'] = p.mods.get('free_fences', 0) + {int(m.number)}")
    elif m.kind in ("use_occupied", "double_placement"):
        name_, is_tag, _ = m.words[0]
        key = ("#" if is_tag else "") + name_
        body.append(f"p.mods.setdefault({m.kind!r}, []).append({key!r})")
    elif m.kind == "space_fee":   # (owner, space id or #tag, fee): runtime primitives.space_fees
        name_, is_tag, _ = m.words[0]
        key = ("#" if is_tag else "") + name_
        body.append(f"g.space_fees = g.space_fees + ((p.idx, {key!r}, {pyrepr(const_goods(m.goods[0]))}, card.id),)")
    elif m.kind == "card_field":
        crops = tuple(w_ for w_, _ in m.words)
        stacks = "" if m.number is None else f", {int(m.number)}"
        body.append(f"P.add_card_field(g, p, card.id, {pyrepr(crops)}{stacks})")
    elif m.kind == "sowing_near_rooms":   # (a crop or 'crops', how many more): runtime primitives.sow
        body.append(f"p.mods.setdefault('sowing_near_rooms', []).append(({m.words[0][0]!r}, {int(m.number)}))")
    elif m.kind in ("capacity", "capacity_set", "capacity_mixed"):
        # (name, size of a pasture or None, kind, value): runtime primitives.housing and capacity_of;
        # '+N <animal>' is ('delta_kind', (fn, kind)): primitives.kind_more
        animal = getattr(m, "animal", None)
        fn = None
        if m.kind == "capacity":
            fn = w.name("capacity")
            w.add(f"def {fn}(g, p, c=None):\n    return {gen.expr(m.expr)}"
                  + ("" if when is None else f" if {when} else 0"))
        for (word, _), size in zip(m.words, getattr(m, "sizes", [m.number])):
            size = None if size is None else int(size)
            if m.kind == "capacity" and word == "pasture" and animal is None:
                body.append(f"p.mods.setdefault('pasture_extra', []).append({fn})")
                continue
            if m.kind == "capacity" and animal is not None:
                entry = f"({word!r}, {size!r}, 'delta_kind', ({fn}, g.rules.animals.index({animal[0]!r})))"
            elif m.kind == "capacity":
                entry = f"({word!r}, {size!r}, 'delta', {fn})"
            elif m.kind == "capacity_set":
                entry = f"({word!r}, {size!r}, 'set', {int(m.expr.value)})"
            else:
                entry = f"({word!r}, {size!r}, 'mixed', None)"
            body.append(f"p.mods.setdefault('capacities', []).append({entry})")
    elif m.kind == "sowing_more":   # (a crop or 'crops', how many more): runtime primitives.sow
        n = int(m.number)
        if when is not None:   # how many more: a function of the state
            fn = w.name("sowing_more")
            w.add(f"def {fn}(g, p, c=None):\n    return {n} if {when} else 0")
            n = fn
        body.append(f"p.mods.setdefault('sowing', []).append(({m.words[0][0]!r}, {n}))")
    elif m.kind == "breeding_more":   # (an animal or 'animals', how many more young): primitives.breed
        n = int(m.number)
        if when is not None:
            fn = w.name("breeding_more")
            w.add(f"def {fn}(g, p, c=None):\n    return {n} if {when} else 0")
            n = fn
        body.append(f"p.mods.setdefault('breeding', []).append(({m.words[0][0]!r}, {n}))")
    elif m.kind == "card_capacity" and m.expr is not None:   # a capacity worked out when housing is
        kind = m.words[0][0]
        only = None if kind in ("animal", "animals") else kind
        fn = w.name("card_capacity")
        w.add(f"def {fn}(g, p, c=None):\n    return {gen.expr(m.expr)}")
        body.append(f"P.add_card_capacity_fn(g, p, card.id, {fn}, {only!r})")
    elif m.kind == "card_capacity":
        kind = m.words[0][0]
        only = None if kind in ("animal", "animals") else kind
        number = "None" if m.number is None else int(m.number)   # None: any number (of one kind)
        body.append(f"P.add_card_capacity(g, p, card.id, {number}, {only!r})")
    elif m.kind == "card_space":
        can, do = gen.stmt(m.body)
        takes = any(isinstance(n, N.Verb) and n.name == "take_goods" for n in N.walk(m.body))
        anyone = m.words[0][0] == "any"
        tags = tuple(tag for tag, _, _ in m.targets)
        body.append(f"P.add_card_space(g, p, card, {can}, {do}, {anyone}, {takes}, {pyrepr(tags)})")
    elif m.kind == "house_holds":
        fn = w.name("house_capacity")
        w.add(f"def {fn}(g, p, c=None):\n    return {gen.expr(m.expr)}")
        body.append(f"p.mods['house_capacity'] = {fn}")
    elif m.kind == "card_room":
        if when is not None:   # (people, condition): housed only while it holds (primitives.card_rooms)
            fn = w.name("card_room_while")
            w.add(f"def {fn}(g, p, c=None):\n    return bool({when})")
            body.append(f"p.mods.setdefault('card_rooms_while', []).append(({int(m.number)}, {fn}))")
        else:
            body.append(f"p.card_rooms += {int(m.number)}")
    elif m.kind == "as_minor":
        name_, is_tag, _ = m.words[0]
        key = ("#" if is_tag else "") + name_
        if when is not None:   # (key, condition): a minor only while it holds (primitives.is_minor_for)
            fn = w.name("as_minor_while")
            w.add(f"def {fn}(g, p, c=None):\n    return bool({when})")
            body.append(f"p.mods.setdefault('as_minor', []).append(({key!r}, {fn}))")
        else:
            body.append(f"p.mods.setdefault('as_minor', []).append({key!r})")
    elif m.kind == "score_delta":
        fn = w.name("score_change")
        w.add(f"def {fn}(g, p, c=None):\n    return {gen.expr(m.expr)}")
        for cid, _ in m.words:
            body.append(f"p.mods.setdefault('score', []).append(({cid!r}, 'delta', {fn}))")
    elif m.kind == "score_floor":
        for cid, _ in m.words:
            body.append(f"p.mods.setdefault('score', []).append(({cid!r}, 'floor', None))")
    elif m.kind == "ignore_begging":
        body.append(f"p.mods['ignore_begging'] = p.mods.get('ignore_begging', 0) + {int(m.number)}")
    elif m.kind == "feed_last":   # runtime/phases.py: the owner feeds after the others
        body.append("p.mods['feed_last'] = True")
    elif m.kind == "harvest_from_supply":   # runtime primitives.harvest_fields: the field keeps its crop
        body.append(f"p.mods.setdefault('harvest_from_supply', []).append({m.words[0][0]!r})")
    elif m.kind in ("allow", "forbid"):
        key = m.words[0][0] if m.kind == "allow" else "forbid_" + m.words[0][0]
        if when is not None:   # a switch on only while its condition holds: a list of conditions (primitives.switch_on)
            fn = w.name(m.kind + "_while")
            w.add(f"def {fn}(g, p, c=None):\n    return bool({when})")
            body.append(f"if p.mods.get({key!r}) is not True: p.mods.setdefault({key!r}, []).append({fn})")
        else:
            body.append(f"p.mods[{key!r}] = True")
    else:
        raise ValueError(f"no code for modifier {m.kind}")
    w.add(f"def {name}(g, p, card):\n    # {_where(m.span)}\n" + "\n".join("    " + b for b in body))
    return name


def _target_word(first, second):
    word = first if second is None else second
    if word.endswith("s") and word[:-1] in ("room", "stable", "fence", "major", "minor", "occupation", "improvement"):
        word = word[:-1]
    return word if second is None else f"{word}:{first}"


def space_table(gen: Gen, unit: Unit) -> dict:
    d = unit.data
    variants = {}
    cache = {}
    for n, (effect, acc) in sorted(d["variants"].items()):
        key = (id(effect), id(acc))
        if key not in cache:
            use = can = None
            if effect is not None:
                can, use = gen.stmt(effect)
            cache[key] = (can, use)
        can, use = cache[key]
        accumulate = const_goods(goods_for_players(acc, n)) if acc is not None else None
        if accumulate is not None:
            can_code = Code("P.always")
        else:
            can_code = gen.space_can(can) if can else Code("P.never")
        variants[n] = (Code(use) if use else None, can_code, accumulate)
    text = None
    any_effect = next((e for e, a in d["variants"].values() if e is not None), None)
    any_acc = next((a for e, a in d["variants"].values() if a is not None), None)
    if any_effect is not None:
        text = textgen.stmt(any_effect)
    if any_acc is not None:
        text = f"accumulate {textgen.goods(any_acc)}" + (f"; {text}" if text else "")
    takes = any(isinstance(node, N.Verb) and node.name == "take_goods"
                for e, a in d["variants"].values() if e is not None for node in N.walk(e))
    out = {"id": unit.id, "name": d["name"], "players": tuple(d["players"]), "stage": d["stage"],
           "tags": tuple(d["tags"]), "text": text or "", "src": (unit.src.file, unit.src.line),
           "variants": variants}
    if takes:
        out["takes_goods"] = True
    if d.get("group"):
        out["group"] = d["group"]
    return out


def game_table(gen: Gen, frame: dict) -> dict:
    s = frame["settings"]
    w = gen.w

    def goods_fn(node, hint):
        fname = w.name(hint)
        w.add(f"def {fname}(g, p):\n    return {gen.goods(node)}")
        return Code(fname)

    start = tuple(goods_fn(n, "start_goods") for n in frame["start_goods"])
    feeding = tuple(goods_fn(n, "feeding") for n in frame["feeding"])
    costs = {k: const_goods(v) if v is not None else () for k, v in frame["costs"].items()}
    exchanges = []
    for rule in frame["exchanges"]:
        for ex in rule.exchanges:
            exchanges.append((const_goods(ex.give), const_goods(ex.get), rule.window, ex.at_most))
    scoring = []
    for cid, label, node, span in frame["scoring"]:
        fname = w.name(f"score_{ident(cid)}")
        # the cards' changes of scoring apply to the category's points (runtime/scoring.py); a player
        # without such a card pays no call for them
        w.add(f"def {fname}(g, p):\n    # {_where(span)}: {textgen.expr(node)}\n"
              f"    points = {gen.expr(node)}\n"
              f"    return S.category(g, p, {cid!r}, points) if p.mods.get('score') else points")
        scoring.append((cid, label, Code(fname)))
    total = None
    if frame["scoring"]:
        # the categories' points added up in one call, for a player whose cards change no category
        # (p.mods has no 'score'): the greedy agent's heuristic asks for it on every state it tries
        total = w.name("score_total")
        parts = " +\n            ".join(f"{gen.expr(node)}" for cid, label, node, span in frame["scoring"])
        w.add(f"def {total}(g, p):\n    return ({parts})")
    penalties = {}
    for cid, node, span in frame.get("score_penalties", ()):
        fname = w.name(f"penalty_{ident(cid)}")
        w.add(f"def {fname}(g, p):\n    # {_where(span)}: {textgen.expr(node)}\n    return {gen.expr(node)}")
        penalties[cid] = Code(fname)
    tb = frame["tie_break"]
    tname = w.name("tie_break")
    w.add(f"def {tname}(g, p):\n    return {gen.expr(tb) if tb is not None else '0'}")
    goods = s["goods"]
    all_goods = [goods["food"]] + goods["crops"] + goods["building"] + goods["animals"]
    return {
        "id": s["id"], "name": s["name"], "players": s["players"], "rounds": s["rounds"],
        "stages": tuple(r for _, r in s["stages"]), "harvest_rounds": tuple(s["harvest_rounds"]),
        "farmyard": (s["rows"], s["cols"]), "start_rooms": tuple(s["start_rooms"]),
        "materials": tuple(s["materials"]), "start_people": s["start_people"], "max_people": s["max_people"],
        "max_fences": s["max_fences"], "max_stables": s["max_stables"],
        "goods": tuple([goods["food"]] + goods["crops"] + goods["building"] + goods["animals"]),
        "animals": tuple(goods["animals"]), "building": tuple(goods["building"]), "crops": tuple(goods["crops"]),
        "start_goods": start, "feeding": feeding,
        "room_cost": costs["room"], "renovation_per_room": costs["renovation_per_room"],
        "renovation_fixed": costs["renovation"], "stable_cost": costs["stable"], "fence_cost": costs["fence"],
        "sowing": s["sowing"], "housing": s["housing"], "exchanges": tuple(exchanges),
        "scoring": tuple(scoring), "score_total": Code(total) if total else None, "tie_break": Code(tname), "has_tie_break": tb is not None, "hand": s["hand"],
        "decks": tuple(s.get("decks") or ()),
        "good_words": {good: (english.good_word(good, 1), english.good_word(good, 2)) for good in all_goods},
        "solo_target": s.get("solo_target"),
        "reverse_passes": tuple(s.get("reverse_passes") or ()),
        "arriving_animals": dict(s.get("arriving_animals") or {"cook": True, "leftovers": "supply"}),
        "pastures_per_animal_kind": s.get("pastures_per_animal_kind"),
        "fence_rules": dict(s.get("fence_rules") or {"adjacent_pastures": True, "unfinished_fences": False}),
        "draft": tuple({"kinds": tuple(e["kinds"]), "deal": e["deal"], "picks": tuple(e["picks"]), "rest": e["rest"],
                        "pass": e["pass"]} for e in s.get("draft") or ()),
        "redraw": s.get("redraw", False), "swaps": s.get("swaps", 0),
        "draw_after_play": s.get("draw_after_play", False), "round_order": s.get("round_order", "shuffled"),
        **({"campaign": s["campaign"]} if s.get("campaign") else {}),
        **({"deal_by_class": {k: tuple(v) for k, v in s["deal_by_class"].items()}} if s.get("deal_by_class") else {}),
        **({"open_display": s["open_display"]} if s.get("open_display") else {}),
        **_tile_farm_table(frame, s),
        **({"score_penalties": penalties} if penalties else {}),
    }


def _tile_farm_table(frame: dict, s: dict) -> dict:
    """The settings of a farm of tiles, only where a pack gives them (the other packs' tables stay as
    they were)."""
    out = {}
    if s.get("pasture_tiles"):
        out["pasture_tiles"] = tuple({**t, "cost": const_goods(t["cost"])} for t in s["pasture_tiles"])
    if s.get("field_tile"):
        out["field_tile"] = s["field_tile"]
    if s.get("fields_next_to", "field") != "field":
        out["fields_next_to"] = s["fields_next_to"]
    if s.get("stables_on", "any_space") != "any_space":
        out["stables_on"] = s["stables_on"]
    if s.get("sowing_fields") is not None:
        out["sow_at_most"] = s["sowing_fields"]
    if s.get("feeding_group") is not None:
        out["feeding_group"] = tuple(s["feeding_group"])
    if s.get("shared_supply"):
        out["shared_supply"] = dict(s["shared_supply"])
    rooms = frame.get("room_by_material") or {}
    if rooms:
        out["room_cost_by_material"] = {m: const_goods(n) for m, n in sorted(rooms.items())}
    teams = frame.get("teams")
    if teams is not None:
        prices = {k: const_goods(v) if v is not None else None for k, v in teams.items()}
        out["teams"] = {**{k: v for k, v in s["teams"].items() if k != "texts"},
                        "pairs": tuple(tuple(p) for p in s["teams"]["pairs"]), **prices}
    return out


def render_module(pack: str, key: str, sources: list, doc: str, writer: ModuleWriter, table_name: str,
                  table, version: str) -> str:
    return env().get_template("module.py.j2").render(
        version=version, sources=sorted(set(sources)), pack=pack, key=key, doc=doc,
        functions=writer.functions, table_name=table_name, table=pyrepr(table))


def render_package(pack: str, chain, content_hash: str, modules: dict, card_modules: list, version: str) -> str:
    all_modules = [modules["game"], modules["spaces"], modules["rounds"], modules["majors"]] + card_modules
    return env().get_template("package.py.j2").render(
        version=version, pack=pack, chain=list(chain), content_hash=content_hash, modules=all_modules,
        game_module=modules["game"], spaces_module=modules["spaces"], rounds_module=modules["rounds"],
        majors_module=modules["majors"], card_modules=card_modules)
