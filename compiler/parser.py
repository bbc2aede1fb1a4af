"""Stage 3: parse effect-language text (Lark, LALR) into the typed tree of ``nodes``.

Positions survive: every node's span points into the YAML file the text came from.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedToken, VisitError

from . import nodes as N
from .diagnostics import Report, Span
from .loader import LStr

GRAMMAR_PATH = Path(__file__).parent / "grammar" / "effects.lark"
START = {"rules": "rules", "body": "body_start", "goods": "goods_start", "cost": "cost_start", "expr": "expr_start", "cond": "cond_start"}
MAX_TEXT = 20_000
MAX_NUMBER = 1_000_000  # every whole number inside effect text (docs/limits.md)

_WORDS = {
    "NAME": "a name", "TAG": "a #tag", "INT": "a number", "SIGNED_INT": "a number", "_NL": "end of line",
    "$END": "end of text", "OFFSET": "'+N'", "PLAYERS_KEY": "a player count",
}


@lru_cache(maxsize=1)
def grammar() -> Lark:
    # cache=True keeps the built parser in the temp folder, keyed by a hash of the grammar and options.
    return Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", start=list(START.values()),
                propagate_positions=True, maybe_placeholders=False, cache=True)


def grammar_text() -> str:
    return GRAMMAR_PATH.read_text(encoding="utf-8")


class _Spans:
    """Maps positions in the parsed text back to the YAML file.

    ``line_offset`` counts the lines cut off the front of the text before it was parsed (blank lines
    before a body, or the earlier lines of a rules text parsed one line at a time)."""

    def __init__(self, text, line_offset=0):
        self.text = text
        self.line_offset = line_offset

    def at(self, line, col, length=1) -> Span:
        line += self.line_offset
        if isinstance(self.text, LStr):
            return self.text.span_at(line - 1, col - 1, length)
        return Span("<text>", line, col, length)

    def of_meta(self, meta) -> Span:
        # every rule of the grammar that builds a node holds a token ('rules', which may be empty, builds none)
        length = meta.end_column - meta.column if meta.line == meta.end_line else 1
        return self.at(meta.line, meta.column, max(1, length))

    def of_token(self, tok: Token) -> Span:
        return self.at(tok.line, tok.column, len(tok))


def _describe(tok: Token, one_line=False) -> str:
    if tok.type == "$END":
        return "end of line" if one_line else "end of text"
    if tok.type == "_NL":
        return "end of line"
    return f"'{tok.value}'"


def _choices(pattern: str):
    """The words of a terminal defined as a choice of keywords (Lark writes it ``(?:builds|build)``)."""
    if not (pattern.startswith("(?:") and pattern.endswith(")")):
        return None
    words = [re.sub(r"\\(.)", r"\1", w) for w in pattern[3:-1].split("|")]
    return words if all(w and not any(c in w for c in "()[]*?\\") for w in words) else None


@lru_cache(maxsize=1)
def _terminal_words() -> dict:
    """How each terminal of the grammar is named in an "expected …" list: a keyword as itself, a choice
    of keywords (``PERIOD``, ``CMP``) as each of them, a pattern by what it stands for."""
    out = {}
    for term in grammar().terminals:
        pattern = term.pattern
        if term.name in _WORDS:
            out[term.name] = [_WORDS[term.name]]
        elif pattern.type == "str":
            out[term.name] = [f"'{pattern.value}'"]
        elif _choices(pattern.value):
            out[term.name] = [f"'{w}'" for w in _choices(pattern.value)]
    return out


def _expected_words(expected, one_line=False, line_start=False) -> str:
    """Every terminal the parser would have accepted, in words, each once, sorted (at the start of a
    line, where an empty line would do, the end of the line is no choice worth naming)."""
    words = set()
    known = _terminal_words()
    for name in expected:
        if line_start and name in ("$END", "_NL"):
            continue
        if name == "$END":
            words.add("end of line" if one_line else "end of text")
        else:   # every terminal has its words but COMMENT and the blanks, which are ignored, never expected
            words.update(known[name])
    return ", ".join(sorted(words))


def parse(text, kind: str, report: Report):
    """Parse ``text`` as ``kind`` (rules / body / goods / expr / cond); None when it has errors.

    A rules text holds one rule per line and is read line by line, so that a mistake in one line does
    not hide the mistakes of the others: the result is the list of the rules that could be read, with
    ``complete`` False when some line could not."""
    if text is None:
        return None
    if len(text) > MAX_TEXT:
        report.error("E207", f"effect text is {len(text)} characters; the limit is {MAX_TEXT}", _Spans(text).at(1, 1))
        return None
    if kind == "rules":
        return _parse_rules(text, report)
    source = str(text)
    stripped = source.lstrip("\n")
    spans = _Spans(text, line_offset=len(source) - len(stripped))
    return _parse_one(stripped.rstrip("\n"), START[kind], spans, report, one_line=False)


class Rules(list):
    """The rules read from a rules text; ``complete`` is False when a line could not be read."""

    complete = True


def _parse_rules(text, report: Report) -> Rules:
    out = Rules()
    for index, line in enumerate(str(text).replace("\t", " ").split("\n")):
        line = line.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("# ") or line.strip() == "#":
            continue  # blank or comment lines
        rules = _parse_one(line, "rules", _Spans(text, line_offset=index), report, one_line=True)
        if rules is None:
            out.complete = False
        else:
            out.extend(rules)
    return out


def _end_span(tok, source: str, spans: _Spans) -> Span:
    """Where the text ended unexpectedly: right after its last token (a trailing comment is not text)."""
    end = getattr(tok, "end_pos", None)
    if end is None:
        end = len(source.rstrip())
    line = source.count("\n", 0, end) + 1
    col = end - (source.rfind("\n", 0, end) + 1) + 1
    return spans.at(line, col)


_WORD_TOKENS = {"NAME", "INT", "TAG", "SIGNED_INT", "OFFSET", "PLAYERS_KEY"}


def _glued_keyword(source: str, start: str):
    """The first keyword the lexer cut off the front of a longer word (``onn`` read as ``on`` + ``n``),
    as (its token, the whole word, what the parser accepts there), or None."""
    parser = grammar()

    def glued(prev, next_pos):
        return (prev is not None and prev.type not in _WORD_TOKENS and prev.end_pos == next_pos
                and re.fullmatch(r"[a-z0-9_]+", prev.value) and re.match(r"[a-z0-9_]", source[next_pos:]))

    prev = found = None
    try:
        for tok in parser.parse_interactive(source, start=start).iter_parse():
            if glued(prev, tok.start_pos):
                found = prev
                break
            prev = tok
    except UnexpectedToken as exc:
        if exc.token.type != "$END" and glued(prev, exc.token.start_pos):
            found = prev
    except UnexpectedCharacters as exc:
        if glued(prev, exc.pos_in_stream):
            found = prev
    if found is None:
        return None
    word = re.match(r"[a-z0-9_]+", source[found.start_pos:]).group(0)
    before = parser.parse_interactive(source[:found.start_pos], start=start)
    before.exhaust_lexer()   # the tokens before the keyword, which the parser has just taken
    return found, word, before.accepts()


def _parse_one(source: str, start: str, spans: _Spans, report: Report, one_line: bool):
    parser = grammar()
    try:
        tree = parser.parse(source, start=start)
    except (UnexpectedCharacters, UnexpectedToken) as exc:
        glued = _glued_keyword(source, start)
        if glued is None:
            return _syntax_error(exc, source, spans, report, one_line, start)
        tok, word, accepts = glued
        line_start = one_line and not source[:tok.start_pos].strip()
        report.error("E202", f"unexpected '{word}'; expected {_expected_words(accepts, one_line, line_start)}",
                     spans.at(tok.line, tok.column, len(word)))
        return None
    # an LALR parser raises no other UnexpectedInput (UnexpectedEOF is Earley's) and does not recurse
    build = _Build(spans, source)
    try:
        if _huge_numbers(tree, spans, report):
            return None
        node = build.transform(tree)
    except (RecursionError, VisitError) as exc:
        # both walk the tree recursively; the transformer wraps what its methods raise in a VisitError
        if isinstance(exc, VisitError) and not isinstance(exc.orig_exc, RecursionError):
            raise
        report.error("E207", "effect text is nested too deeply", spans.at(1, 1))
        return None
    for code, message, span in build.errors:
        report.error(code, message, span)
    return None if build.errors else node


def _syntax_error(exc, source: str, spans: _Spans, report: Report, one_line: bool, start: str = "rules"):
    """Report what Lark could not read; always None."""
    if isinstance(exc, UnexpectedCharacters):
        ch = source[exc.pos_in_stream] if exc.pos_in_stream < len(source) else "?"
        report.error("E201", f"unexpected character '{ch}'", spans.at(exc.line, exc.column))
        return None
    tok = exc.token
    if tok.type == "$END":
        span = _end_span(tok, source, spans)
    else:
        span = spans.of_token(tok) if tok.line is not None else spans.at(1, 1)
    line_start = one_line and tok.type != "$END" and not source[:tok.start_pos].strip()
    # The parser state's lookaheads are shared with other places in the grammar (LALR); asking the
    # parser which terminals it really accepts here gives the exact choices.
    accepted = exc.interactive_parser.accepts() if exc.interactive_parser is not None else exc.expected
    lead = re.match(r"\s*([a-z][a-z0-9_]*)\s+$", source[:tok.start_pos]) if tok.type != "$END" else None
    if lead and set(accepted or ()) == {"IS"}:
        # a rule began with a plain word ('onn play: …'): a misspelt keyword far more often than the card of
        # '<card> is a minor for you', so the word is named with the keywords a rule begins with
        word = lead.group(1)
        before = grammar().parse_interactive(source[:lead.start(1)], start=start)
        before.exhaust_lexer()
        keywords = [t for t in before.accepts() if t not in ("NAME", "TAG")]
        line = source.count("\n", 0, lead.start(1)) + 1
        col = lead.start(1) - (source.rfind("\n", 0, lead.start(1)) + 1) + 1
        report.error("E202", f"unexpected '{word}'; expected {_expected_words(keywords, one_line, True)}",
                     spans.at(line, col, len(word)))
        return None
    expected = _expected_words(accepted or exc.expected, one_line, line_start)
    if tok.type == "_NL" and expected == "end of text":   # a whole statement, then a second line
        expected += " (a body's statements are joined by ';', not written one per line)"
    report.error("E202", f"unexpected {_describe(tok, one_line)}; expected {expected}", span)
    return None


_NUMBER_TOKENS = ("INT", "SIGNED_INT", "OFFSET", "PLAYERS_KEY")


def _huge_numbers(tree, spans, report) -> bool:
    """Report numbers that cannot be within the limit of effects (1000000) before any is converted (Python
    refuses to convert more than 4300 digits); True when there was one."""
    found = False
    for tok in tree.scan_values(lambda t: isinstance(t, Token) and t.type in _NUMBER_TOKENS):
        digits = tok.value.strip("+-")
        if len(digits.lstrip("0")) > 7 or len(digits) > 100:
            shown = tok.value if len(tok.value) <= 20 else tok.value[:20] + "…"
            why = "is too large (the limit is 1000000)" if len(digits.lstrip("0")) > 7 else "has too many digits"
            report.error("E107", f"number {shown} {why}", spans.of_token(tok))
            found = True
    return found


def _tokens(children, type_=None):
    return [c for c in children if isinstance(c, Token) and (type_ is None or c.type == type_)]


def _nodes(children, cls=N.Node):
    return [c for c in children if isinstance(c, cls)]


@v_args(meta=True)
class _Build(Transformer):
    """Turns the Lark parse tree into ``nodes``."""

    def __init__(self, spans: _Spans, source: str):
        super().__init__()
        self.s = spans
        self.source = source  # the text parsed (token lines and columns are positions in it)
        self.errors = []  # (code, message, span): problems found while building, reported together

    def n(self, tok, text=None) -> int:
        """The whole number a token spells (``text``: its digits, when the token has more), within the limit."""
        digits = str(tok if text is None else text).lstrip("+-")
        core = digits.lstrip("0") or "0"
        value = int(core) if len(core) <= 7 else MAX_NUMBER + 1  # never int() a 5,000-digit string
        if value > MAX_NUMBER:
            shown = digits if len(digits) <= 20 else digits[:20] + "…"
            self.errors.append(("E107", f"number {shown} is too large (the limit is {MAX_NUMBER})",
                                self.s.of_token(tok)))
            return MAX_NUMBER
        return -value if str(tok if text is None else text).startswith("-") else value

    def sp(self, meta):
        return self.s.of_meta(meta)

    # ---- entry points
    def rules(self, meta, children):
        return [c for c in children if isinstance(c, N.Rule)]

    def body_start(self, meta, children):
        return children[0]

    goods_start = expr_start = cond_start = body_start

    def cost_start(self, meta, children):
        # one way to pay is the price itself; several are the card's alternative prices (docs/language.md 4.3)
        return children[0] if len(children) == 1 else N.Ways(list(children), span=self.sp(meta))

    # ---- rules
    def triggered(self, meta, children):
        trigger = children[0]
        guard = next((c for c in children[1:] if isinstance(c, _Guard)), None)
        limit = next((c for c in children if isinstance(c, N.Limit)), None)
        body = children[-1]
        return N.Rule("triggered", trigger=trigger, guard=guard.cond if guard else None, limit=limit,
                      body=body, span=self.sp(meta))

    def exchanges(self, meta, children):
        window = children[0]
        guard = next((c for c in children[1:] if isinstance(c, _Guard)), None)
        return N.Rule("exchanges", window=window, guard=guard.cond if guard else None,
                      exchanges=_nodes(children, N.Exchange), span=self.sp(meta))

    def window_action(self, meta, children):
        window = children[0]
        guard = next((c for c in children[1:] if isinstance(c, _Guard)), None)
        limit = next((c for c in children if isinstance(c, N.Limit)), None)
        return N.Rule("action", window=window, guard=guard.cond if guard else None, limit=limit,
                      body=children[-1], span=self.sp(meta))

    def bake_rates(self, meta, children):
        return N.Rule("bake", window="bake", exchanges=_nodes(children, N.Exchange), span=self.sp(meta))

    def rule(self, meta, children):  # modifier, with the condition it holds while (docs/language.md 4.3)
        mod = children[0]
        mod.cond = children[1] if len(children) > 1 else None
        return N.Rule("modifier", modifier=mod, span=self.sp(meta))

    def guard(self, meta, children):
        return _Guard(children[0])

    def limit(self, meta, children):
        count, period = children
        return N.Limit(count, str(period), span=self.sp(meta))

    def limit_each(self, meta, children):
        count, period = children
        return N.Limit(count, str(period), each=True, span=self.sp(meta))

    def limit_shared(self, meta, children):
        count, period, tag = children
        return N.Limit(count, str(period), shared=str(tag)[1:], span=self.sp(meta))

    def limit_next(self, meta, children):
        return N.Limit(1, "next", span=self.sp(meta))   # fires once, then spent (docs/language.md 4.4)

    def once(self, meta, children):
        return 1

    def twice(self, meta, children):
        return 2

    def times(self, meta, children):
        return self.n(children[0])

    # ---- triggers
    def on_play(self, meta, children):
        return N.Trigger("on_play", span=self.sp(meta))

    def _use(self, kind, meta, children):
        actor = children[0]
        spaces = next(c for c in children if isinstance(c, list))
        return N.Trigger(kind, actor=actor, spaces=spaces, span=self.sp(meta))

    def after_use(self, meta, children):
        return self._use("after_use", meta, children)

    def after_use_marked(self, meta, children):
        return N.Trigger("after_use", actor=children[0], spaces=[("marked", True, self.sp(meta))], marked=True,
                         span=self.sp(meta))

    def before_use(self, meta, children):
        return self._use("before_use", meta, children)

    def turn_end_use(self, meta, children):
        return self._use("turn_end_use", meta, children)

    def after_event(self, meta, children):
        actor, (event, args, *via) = children
        return N.Trigger("after_event", actor=actor, event=event, event_args=args, via=via[0] if via else [],
                         span=self.sp(meta))

    def before_event(self, meta, children):
        actor, (event, args, *via) = children
        return N.Trigger("before_event", actor=actor, event=event, event_args=args, via=via[0] if via else [],
                         span=self.sp(meta))

    def instead_event(self, meta, children):
        actor, (event, args, *via) = children
        return N.Trigger("before_event", actor=actor, event=event, event_args=args, via=via[0] if via else [],
                         instead=True, span=self.sp(meta))

    def at_phase(self, meta, children):
        phase, rnd = children[0]
        return N.Trigger("at_phase", phase=phase, round=rnd, span=self.sp(meta))

    def once_latch(self, meta, children):
        return N.Trigger("once", cond=children[0], span=self.sp(meta))

    def actor_you(self, meta, children):
        return "you"

    def actor_other(self, meta, children):
        return "other"

    def actor_any(self, meta, children):
        return "any"

    def use_verb(self, meta, children):
        return None

    def spaces(self, meta, children):
        return [c for c in children if isinstance(c, tuple)]

    def space_ref(self, meta, children):
        tok = children[0]
        if tok.type == "TAG":
            return (tok.value[1:], True, self.s.of_token(tok))
        return (tok.value, False, self.s.of_token(tok))

    # events
    def _ev(name):  # pragma: no mutate block (called in the class body, before mutmut can route it)
        def f(self, meta, children):
            args = {}
            if name == "renovate":
                # renovate [from X] [to Y]: the raw words tell which is which
                words = [t for t in children if isinstance(t, Token) and t.type == "NAME"]
                for t in words:
                    seg = self.source.split("\n")[t.line - 1][: t.column - 1].rstrip()
                    key = "from" if seg.endswith("from") else "to"
                    args[key] = (t.value, self.s.of_token(t))
            return (name, args)
        return f

    ev_build_rooms = _ev("build_rooms")
    ev_renovate = _ev("renovate")
    ev_build_improvement = _ev("build_improvement")
    ev_build_major = _ev("build_major")
    ev_play_minor = _ev("play_minor")
    ev_play_occupation = _ev("play_occupation")
    ev_bake = _ev("bake")
    ev_build_fences = _ev("build_fences")
    ev_build_stables = _ev("build_stables")
    ev_plow = _ev("plow")
    ev_sow = _ev("sow")
    ev_family_growth = _ev("family_growth")
    ev_take_start_player = _ev("take_start_player")
    ev_fence_pasture = _ev("fence_pasture")

    ev_convert = _ev("convert")
    ev_harvest = _ev("harvest")

    def ev_convert_batch(self, meta, children):
        # 'convert at one time [with <card or #tag> or …]': the cards whose conversions the batch counts
        refs = [c for c in children if isinstance(c, tuple)]
        return ("convert_batch", {}, refs)

    def ev_gain(self, meta, children):
        word = next(t for t in children if isinstance(t, Token) and t.type == "NAME")
        return ("gain", {"what": (word.value, self.s.of_token(word))})
    del _ev

    # phases
    def _ph(name):  # pragma: no mutate block (called in the class body)
        def f(self, meta, children):
            ints = _tokens(children, "INT")
            return (name, self.n(ints[0]) if ints else None)
        return f

    ph_round_start = _ph("round_start")
    ph_returning_home = _ph("returning_home")
    ph_harvest_start = _ph("harvest_start")
    ph_field_phase = _ph("field_phase")
    ph_field_phase_start = _ph("field_phase_start")
    ph_feeding = _ph("feeding")
    ph_feeding_start = _ph("feeding_start")
    ph_work_phase_end = _ph("work_phase_end")
    ph_work_phase_start = _ph("work_phase_start")
    ph_breeding = _ph("breeding")
    ph_harvest_end = _ph("harvest_end")
    ph_scoring = _ph("scoring")
    ph_end_of_round = _ph("end_of_round")
    del _ph

    def win_any_time(self, meta, children):
        return "any_time"

    def win_any_player(self, meta, children):
        return "any_player"

    def win_harvest(self, meta, children):
        return "harvest"

    def win_feeding(self, meta, children):
        return "feeding"

    def win_work_phase(self, meta, children):
        return "work_phase"

    def at_most_expr(self, meta, children):
        return ("at_most_expr", children[0])

    def exchange(self, meta, children):
        goods = _nodes(children, N.Goods)
        at_most = next((c for c in children if isinstance(c, int) and not isinstance(c, Token)), None)
        if at_most is None:   # '(at most (<expr>) times)': worked out when the exchange is looked at
            at_most = next((c[1] for c in children if isinstance(c, tuple) and c[:1] == ("at_most_expr",)), None)
        period = next((str(c) for c in children if isinstance(c, Token) and c.type == "PERIOD"), None)
        buy = next((c for c in children if isinstance(c, tuple) and c[:1] == ("buy",)), None)
        return N.Exchange(goods[0], goods[1], at_most, span=self.sp(meta), period=period,
                          buy_goods=buy[1] if buy else None, buy_price=buy[2] if buy else None)

    def exchange_buy(self, meta, children):
        goods = _nodes(children, N.Goods)
        return ("buy", goods[0], goods[1])

    def exchange_pile(self, meta, children):
        goods = _nodes(children, N.Goods)
        at_most = next((c for c in children if isinstance(c, int) and not isinstance(c, Token)), None)
        return N.Exchange(goods[0], None, at_most, pile=True, span=self.sp(meta))

    # ---- modifiers
    def cost_delta(self, meta, children):
        return N.Modifier("cost_delta", targets=children[0], goods=children[1], span=self.sp(meta))

    def cost_delta_limited(self, meta, children):
        # a change of one priced unit per period, spent when paid (docs/language.md 4.3, "Limited changes")
        m = N.Modifier("cost_delta", targets=children[0], goods=children[1], span=self.sp(meta))
        m.limit = children[2]
        return m

    def cost_set(self, meta, children):
        goods = children[1]
        return N.Modifier("cost_set", targets=children[0], goods=[(it.amount.value if it.amount else 1, it.good)
                                                                 for it in goods.items], span=self.sp(meta))

    def cost_set_or_base(self, meta, children):
        # a set price that keeps the base price as another way to pay (docs/language.md 4.3)
        m = self.cost_set(meta, children)
        m.words = [("base", self.sp(meta))]
        return m

    def cost_substitute(self, meta, children):
        pay, instead = _nodes(children, N.Goods)
        return N.Modifier("cost_substitute", goods=[pay, instead], targets=children[-1], span=self.sp(meta))

    def cost_substitute_all(self, meta, children):
        pay = _nodes(children, N.Goods)[0]
        name = _tokens(children, "NAME")[0]
        return N.Modifier("cost_substitute", goods=[pay, None], words=[(name.value, self.s.of_token(name))],
                          targets=children[-1], span=self.sp(meta))

    def free_per_action(self, meta, children):
        n = _tokens(children, "INT")[0]
        name = _tokens(children, "NAME")[0]
        return N.Modifier("free_per_action", number=self.n(n), targets=[(name.value, None, self.s.of_token(name))],
                          span=self.sp(meta))

    def free_limited(self, meta, children):
        # 'free stable (the next time)': one priced unit for nothing, spent when paid (docs/language.md 4.3)
        name = _tokens(children, "NAME")[0]
        m = N.Modifier("cost_delta", targets=[(name.value, None, self.s.of_token(name))], goods=[],
                       words=[("free", self.sp(meta))], span=self.sp(meta))
        m.limit = children[-1]
        return m

    def free_numbered(self, meta, children):
        # 'free fence number 3, 6, 9': the owner's 3rd, 6th and 9th fence for nothing (docs/language.md 4.3)
        name = _tokens(children, "NAME")[0]
        numbers = _tokens(children, "INT")
        return N.Modifier("free_numbered", targets=[(name.value, None, self.s.of_token(name))],
                          words=[(self.n(n), self.s.of_token(n)) for n in numbers], span=self.sp(meta))

    def use_occupied(self, meta, children):
        return N.Modifier("use_occupied", words=[children[-1]], span=self.sp(meta))

    def space_fee(self, meta, children):
        return N.Modifier("space_fee", goods=[children[0], None], words=[children[-1]], span=self.sp(meta))

    def double_placement(self, meta, children):
        return N.Modifier("double_placement", words=[children[-1]], span=self.sp(meta))

    # a capacity name is (word, size or None, span): 'pasture', 'pasture with stable' (word
    # 'pasture_with_stable'), 'pasture of 2 spaces' (word 'pasture_of_size', size 2), 'pasture of 1 space
    # without stable' ('pasture_of_size_without_stable'), 'one stable' ('one_stable'), 'animal card'
    # ('animal_card'), 'stable', 'house', …
    def cap_plain(self, meta, children):
        return (children[0].value, None, self.sp(meta))

    def cap_with(self, meta, children):
        first, second = children
        return (f"{first.value}_with_{second.value}", None, self.sp(meta))

    def cap_without(self, meta, children):
        first, second = children
        return (f"{first.value}_without_{second.value}", None, self.sp(meta))

    def cap_of_size(self, meta, children):
        name, n = children[0], _tokens(children, "INT")[0]
        return (f"{name.value}_of_size", self.n(n), self.sp(meta))

    def cap_of_size_without(self, meta, children):
        first, second = _tokens(children, "NAME")
        n = _tokens(children, "INT")[0]
        return (f"{first.value}_of_size_without_{second.value}", self.n(n), self.sp(meta))

    def cap_one(self, meta, children):
        return (f"one_{children[0].value}", None, self.sp(meta))

    def cap_two(self, meta, children):
        first, second = children
        return (f"{first.value}_{second.value}", None, self.sp(meta))

    def capacity_names(self, meta, children):
        return list(children)

    @staticmethod
    def _capacity_mod(kind, names, span, **kw):
        """A capacity modifier: ``words`` holds every (name, span), ``sizes`` the size of each ('pasture of
        N spaces'); ``number`` is the first name's size (docs/language.md 4.3)."""
        mod = N.Modifier(kind, words=[(word, sp) for word, _, sp in names], number=names[0][1], span=span, **kw)
        mod.sizes = [size for _, size, _ in names]
        return mod

    def capacity(self, meta, children):
        names, expr = children[0], children[1]
        kind = _tokens(children[2:], "NAME")
        mod = self._capacity_mod("capacity", names, self.sp(meta), expr=expr)
        mod.animal = (kind[0].value, self.s.of_token(kind[0])) if kind else None
        return mod

    def capacity_less(self, meta, children):   # 'capacity of fences: -1'
        mod = self._capacity_mod("capacity", children[0], self.sp(meta), expr=N.Neg(children[1], span=self.sp(meta)))
        mod.animal = None
        return mod

    def capacity_set(self, meta, children):
        value = _tokens(children, "INT")[-1]
        span = self.s.of_token(value)
        return self._capacity_mod("capacity_set", children[0], self.sp(meta), expr=N.Num(self.n(value), span=span))

    def capacity_mixed(self, meta, children):
        return self._capacity_mod("capacity_mixed", children[0], self.sp(meta))

    def sowing_more(self, meta, children):
        name, n = _tokens(children, "NAME")[0], _tokens(children, "INT")[0]
        return N.Modifier("sowing_more", number=self.n(n), words=[(name.value, self.s.of_token(name))],
                          span=self.sp(meta))

    def sowing_near_rooms(self, meta, children):
        name, n = _tokens(children, "NAME")[0], _tokens(children, "INT")[0]
        return N.Modifier("sowing_near_rooms", number=self.n(n), words=[(name.value, self.s.of_token(name))],
                          span=self.sp(meta))

    def card_fields(self, meta, children):
        names = _tokens(children, "NAME")
        n = _tokens(children, "INT")[0]
        mod = N.Modifier("card_field", number=self.n(n), words=[(t.value, self.s.of_token(t)) for t in names],
                         span=self.sp(meta))
        mod.number_span = self.s.of_token(n)
        return mod

    def breeding_more(self, meta, children):
        name, n = _tokens(children, "NAME")[0], _tokens(children, "INT")[0]
        return N.Modifier("breeding_more", number=self.n(n), words=[(name.value, self.s.of_token(name))],
                          span=self.sp(meta))

    def house_holds(self, meta, children):
        return N.Modifier("house_holds", expr=children[0], span=self.sp(meta))

    def card_field(self, meta, children):
        names = _tokens(children, "NAME")
        return N.Modifier("card_field", words=[(t.value, self.s.of_token(t)) for t in names], span=self.sp(meta))

    def card_capacity(self, meta, children):
        n, name = _tokens(children, "INT")[0], _tokens(children, "NAME")[0]
        mod = N.Modifier("card_capacity", number=self.n(n), words=[(name.value, self.s.of_token(name))],
                         span=self.sp(meta))
        mod.number_span = self.s.of_token(n)
        return mod

    def card_capacity_expr(self, meta, children):
        expr = next(c for c in children if isinstance(c, N.Node))
        name = _tokens(children, "NAME")[-1]
        mod = N.Modifier("card_capacity", number=None, words=[(name.value, self.s.of_token(name))],
                         span=self.sp(meta))
        mod.expr = expr
        return mod

    def card_capacity_any(self, meta, children):
        name = _tokens(children, "NAME")[0]
        mod = N.Modifier("card_capacity", number=None, words=[(name.value, self.s.of_token(name))],
                         span=self.sp(meta))   # any number of one kind (docs/language.md 4.5)
        mod.number_span = self.sp(meta)
        return mod

    def for_any_player(self, meta, children):
        return _ForAnyPlayer()

    def card_space(self, meta, children):
        mod = N.Modifier("card_space", words=[("any" if any(isinstance(c, _ForAnyPlayer) for c in children)
                                               else "owner", self.sp(meta))], body=children[-1], span=self.sp(meta),
                         targets=[(t.value[1:], None, self.s.of_token(t)) for t in _tokens(children, "TAG")])
        return mod

    def card_room(self, meta, children):
        ints = _tokens(children, "INT")
        return N.Modifier("card_room", number=self.n(ints[0]), span=self.sp(meta))

    def counts_as_tag(self, meta, children):
        tok = children[0]
        return N.Modifier("counts_as_tag", words=[(tok.value[1:], self.s.of_token(tok))], span=self.sp(meta))

    def counts_as_occupations(self, meta, children):
        n = _tokens(children, "INT")[0]
        mod = N.Modifier("counts_as_occupations", number=self.n(n), span=self.sp(meta))
        mod.number_span = self.s.of_token(n)
        return mod

    def counts_as_major(self, meta, children):
        return N.Modifier("counts_as_major", span=self.sp(meta))

    def as_minor(self, meta, children):
        return N.Modifier("as_minor", words=[children[0]], span=self.sp(meta))   # (name, is_tag, span)

    def allow_rule(self, meta, children):
        t = children[0]
        return N.Modifier("allow", words=[(t.value, self.s.of_token(t))], span=self.sp(meta))

    def forbid_rule(self, meta, children):
        t = children[0]
        return N.Modifier("forbid", words=[(t.value, self.s.of_token(t))], span=self.sp(meta))

    # scoring as values (docs/language.md 4.11): the categories are (id, span) pairs of game.yaml's scoring
    def categories(self, meta, children):
        return [(t.value, self.s.of_token(t)) for t in children]

    def score_delta(self, meta, children):
        return N.Modifier("score_delta", words=children[0], expr=children[-1], span=self.sp(meta))

    def score_floor(self, meta, children):
        cmp = _tokens(children, "CMP")[0]
        mod = N.Modifier("score_floor", words=children[0], expr=children[-1], span=self.sp(meta))
        mod.op, mod.op_span = cmp.value, self.s.of_token(cmp)
        return mod

    def ignore_begging(self, meta, children):
        n, name = _tokens(children, "INT")[0], _tokens(children, "NAME")[0]
        mod = N.Modifier("ignore_begging", number=self.n(n), words=[(name.value, self.s.of_token(name))],
                         span=self.sp(meta))
        mod.number_span = self.s.of_token(n)
        return mod

    def feed_last(self, meta, children):
        return N.Modifier("feed_last", span=self.sp(meta))

    def harvest_from_supply(self, meta, children):
        name = _tokens(children, "NAME")[0]
        return N.Modifier("harvest_from_supply", words=[(name.value, self.s.of_token(name))], span=self.sp(meta))

    def targets(self, meta, children):
        return list(children)

    def target(self, meta, children):
        names = _tokens(children, "NAME")
        first = names[0]
        second = names[1].value if len(names) > 1 else None
        return (first.value, second, self.sp(meta))

    def target_beyond(self, meta, children):
        # 'feeding beyond 2' is (first 'beyond 2', second 'feeding'): the cost name 'feeding:beyond 2'
        name, n = _tokens(children, "NAME")[0], _tokens(children, "INT")[0]
        return (f"beyond {self.n(n)}", name.value, self.sp(meta))

    def target_tag(self, meta, children):
        return (children[0].value, None, self.sp(meta))   # '#oven': every card with the tag

    def signed_goods(self, meta, children):
        return list(children)

    def signed_item(self, meta, children):
        sign, n, good = children
        value = self.n(n) * (-1 if sign == "-" else 1)
        return (value, good.value, self.s.of_token(good))

    def signed_expr_item(self, meta, children):
        sign, expr, good = children
        value = expr if sign == "+" else N.Neg(expr, span=expr.span)
        return (value, good.value, self.s.of_token(good))

    # ---- bodies
    def body(self, meta, children):
        return children[0]

    def seq(self, meta, children):
        return children[0] if len(children) == 1 else N.Seq(list(children), span=self.sp(meta))

    def step(self, meta, children):
        return children[0] if len(children) == 1 else N.Then(list(children), span=self.sp(meta))

    def andor(self, meta, children):
        children = [c for c in children if not isinstance(c, Token)]   # the ANDOR tokens between the parts
        return children[0] if len(children) == 1 else N.AndOr(list(children), span=self.sp(meta))

    def pay_to(self, meta, children):
        return N.MayPay(children[0], children[1], optional=False, span=self.sp(meta))

    def pay_owner_to(self, meta, children):
        return N.MayPay(children[0], children[1], optional=False, recipient="owner", span=self.sp(meta))

    def pay_actor_to(self, meta, children):
        return N.MayPay(children[0], children[1], optional=False, recipient="actor", span=self.sp(meta))

    def pay_start_player_to(self, meta, children):
        return N.MayPay(children[0], children[1], optional=False, recipient="start_player", span=self.sp(meta))

    def pay_others_to(self, meta, children):
        return N.MayPay(children[0], children[1], optional=False, recipient="each_other", span=self.sp(meta))

    def may(self, meta, children):
        body = children[0]
        if isinstance(body, N.MayPay) and not body.optional:  # may pay X to a: an optional purchase
            return N.MayPay(body.price, body.body, recipient=body.recipient, span=self.sp(meta))
        return N.May(body, span=self.sp(meta))

    def guarded(self, meta, children):
        return N.Guarded(children[0], children[1], span=self.sp(meta))

    def unary(self, meta, children):
        return children[0]

    # verbs
    def _verb(self, name, meta, children, **kw):
        return N.Verb(name, span=self.sp(meta), **kw)

    def gain(self, meta, c):
        return self._verb("gain", meta, c, goods=c[0])

    def pay(self, meta, c):
        return self._verb("pay", meta, c, goods=c[0])

    def exchange_now(self, meta, c):
        return self._verb("exchange", meta, c, goods=c[0], goods_out=c[1])

    def plow(self, meta, c):
        ints = _tokens(c, "INT")
        return self._verb("plow", meta, c, number=self.n(ints[0]) if ints else 1)

    def plow_up_to(self, meta, c):
        ints = _tokens(c, "INT")
        expr = N.Num(self.n(ints[0]), span=self.s.of_token(ints[0])) if ints else _nodes(c)[0]
        return self._verb("plow", meta, c, number=None, expr=expr)   # up to expr fields (4.12 UPN)

    def spend_up_to(self, meta, c):
        ints = _tokens(c, "INT")   # the limit; the good; the exchanges (docs/language.md 4.12 UPN)
        limit = N.Num(self.n(ints[0]), span=self.s.of_token(ints[0])) if ints else _nodes(c)[0]
        word = _tokens(c, "NAME")[0]
        return self._verb("spend_up_to", meta, c, expr=limit, word=str(word), exchanges=_nodes(c, N.Exchange))

    def sow(self, meta, c):
        ints = _tokens(c, "INT")   # 'sow 1 field': a sowing of at most that many fields
        v = self._verb("sow", meta, c, number=self.n(ints[0]) if ints else None)
        if ints:
            v.word_span = self.s.of_token(ints[0])
        return v

    def sow_goods(self, meta, c):
        ints = _tokens(c, "INT")   # 'sow 1 vegetable', 'sow grain with 1 fewer' (docs/language.md 4.14)
        name = _tokens(c, "NAME")[0]
        first = ints[0] if ints and ints[0].start_pos < name.start_pos else None
        fewer = ints[-1] if ints and ints[-1].start_pos > name.start_pos else None
        v = self._verb("sow", meta, c, number=self.n(first) if first is not None else None, word=name.value,
                       fewer=self.n(fewer) if fewer is not None else 0)
        if first is not None:
            v.word_span = self.s.of_token(first)
        v.name_span = self.s.of_token(name)
        if fewer is not None:
            v.fewer_span = self.s.of_token(fewer)
        return v

    def add_to_sown(self, meta, c):
        return self._verb("add_to_sown", meta, c, number=self.n(_tokens(c, "INT")[0]))

    def add_to_fields(self, meta, c):
        names = _tokens(c, "NAME")
        v = self._verb("add_to_fields", meta, c, number=self.n(_tokens(c, "INT")[0]), word=names[0].value)
        v.name_span, v.second = self.s.of_token(names[0]), (names[1].value, self.s.of_token(names[1]))
        return v

    def take_from_field(self, meta, c):
        return self._verb("take_from_field", meta, c, goods=c[0], goods_out=c[1] if len(c) > 1 else None)

    def bake(self, meta, c):
        return self._verb("bake", meta, c)

    def build_rooms(self, meta, c):
        return self._verb("build_rooms", meta, c)

    def _priced(self, name, meta, c, **kw):
        price = next((x for x in c if isinstance(x, _Price)), None)
        return self._verb(name, meta, c, price=price.goods if price else None,
                          free=bool(price and price.free), **kw)

    def build_room(self, meta, c):
        return self._priced("build_room", meta, c)

    def renovate(self, meta, c):
        names = _tokens(c, "NAME")
        price = next((x for x in c if isinstance(x, _Price)), None)
        v = self._verb("renovate", meta, c, word=names[0].value if names else None,
                       price=price.goods if price else None, free=bool(price and price.free))
        if names:
            v.word_span = self.s.of_token(names[0])
        return v

    def build_stables(self, meta, c):
        return self._priced("build_stables", meta, c)

    def build_stable(self, meta, c):
        return self._priced("build_stable", meta, c)

    def build_fences(self, meta, c):
        return self._priced("build_fences", meta, c)

    def build_fences_up_to(self, meta, c):
        ints = _tokens(c, "INT")   # one fencing action of at most N fences (docs/language.md 4.12 UPN)
        limit = N.Num(self.n(ints[0]), span=self.s.of_token(ints[0])) if ints else _nodes(c)[0]
        return self._priced("build_fences", meta, c, expr=limit)

    def fence_spaces(self, meta, c):
        ints = _tokens(c, "INT")
        return self._priced("fence_spaces", meta, c, number=self.n(ints[0]))

    def family_growth(self, meta, c):
        return self._verb("family_growth", meta, c)

    def family_growth_free(self, meta, c):
        return self._verb("family_growth_without_room", meta, c)

    def build_major(self, meta, c):
        tags = _tokens(c, "TAG")
        return self._verb("build_major", meta, c, word=tags[0].value[1:] if tags else None)

    def build_pastures(self, meta, c):
        return self._verb("build_pastures", meta, c)

    def build_improvement(self, meta, c):
        return self._verb("build_improvement", meta, c)

    def play_minor(self, meta, c):
        return self._verb("play_minor", meta, c)

    def play_occupation(self, meta, c):
        return self._priced("play_occupation", meta, c)

    def take_start_player(self, meta, c):
        return self._verb("take_start_player", meta, c)

    def take_goods(self, meta, c):
        return self._verb("take_goods", meta, c)

    def schedule(self, meta, c):
        return self._verb("schedule", meta, c, goods=c[0], rounds=c[1])

    def return_to_space(self, meta, c):
        return self._verb("return_to_space", meta, c, goods=c[0])

    def bonus(self, meta, c):
        return self._verb("bonus", meta, c, expr=c[0])

    def convert_bonus(self, meta, c):
        name = c[0]
        return self._verb("convert_bonus", meta, c, word=name.value, tiers=c[1])

    def give_others(self, meta, c):
        return self._verb("give_others", meta, c, goods=c[0])

    def give_actor(self, meta, c):
        return self._verb("give_actor", meta, c, goods=c[0])

    def pay_owner(self, meta, c):
        return self._verb("pay_owner", meta, c, goods=c[0])

    def pay_actor(self, meta, c):
        return self._verb("pay_actor", meta, c, goods=c[0])

    def pay_start_player(self, meta, c):
        return self._verb("pay_start_player", meta, c, goods=c[0])

    # goods and markers on action spaces (docs/language.md 4.4)
    def put_on_space(self, meta, c):
        return self._verb("put_on_space", meta, c, goods=c[0])

    def put_on_named_space(self, meta, c):
        name = _tokens(c, "NAME")[-1]
        v = self._verb("put_on_named_space", meta, c, goods=c[0])
        v.spaces = [[(name.value, False, self.s.of_token(name))]]
        return v

    def spread_goods(self, meta, c):
        good, source, *targets = _tokens(c, "NAME")
        v = self._verb("spread_goods", meta, c, word=good.value)
        v.word_span = self.s.of_token(good)
        v.spaces = [[(source.value, False, self.s.of_token(source))],
                    [(t.value, False, self.s.of_token(t)) for t in targets]]
        return v

    def mark_space(self, meta, c):
        return self._verb("mark_space", meta, c)

    def lodge_people(self, meta, c):
        return self._verb("lodge_people", meta, c, number=self.n(_tokens(c, "INT")[0]))

    def reveal_rounds(self, meta, c):
        return self._verb("reveal_rounds", meta, c)

    # placements of the round (docs/language.md 4.4)
    def place_first(self, meta, c):
        return self._verb("place_first", meta, c)

    def place_more(self, meta, c):
        return self._verb("place_more", meta, c, number=self.n(_tokens(c, "INT")[0]))

    def place_less(self, meta, c):
        return self._verb("place_less", meta, c, number=self.n(_tokens(c, "INT")[0]))

    def place_none(self, meta, c):
        return self._verb("place_less", meta, c)

    def take_from_actor(self, meta, c):
        return self._verb("take_from_actor", meta, c, goods=c[0])

    def for_actor(self, meta, c):
        return self._verb("for_actor", meta, c, body=c[0])

    def for_each_other(self, meta, c):
        return self._verb("for_each_other", meta, c, body=c[0])

    def breed(self, meta, c):
        return self._verb("breed", meta, c, word=c[0].value)

    # deferred claims (docs/language.md 4.6)
    def cp_work_phase_end(self, meta, c):
        return "work_phase_end"

    def cp_returning_home(self, meta, c):
        return "returning_home"

    def cp_round_end(self, meta, c):
        return "round_end"

    def claim(self, meta, c):
        cond = c[2] if len(c) > 2 else None
        return self._verb("claim", meta, c, body=c[0], word=c[1], expr=cond)

    def take_from_space(self, meta, c):
        space = _tokens(c, "NAME")[-1]
        v = self._verb("take_from_space", meta, c)
        v.word_space, v.space_span = space.value, self.s.of_token(space)
        return v

    def take_good_from_space(self, meta, c):
        good, space = _tokens(c, "NAME")
        v = self._verb("take_from_space", meta, c, word=good.value)
        v.word_span = self.s.of_token(good)
        v.word_space, v.space_span = space.value, self.s.of_token(space)
        return v

    def move_person(self, meta, c):
        return self._verb("move_person", meta, c, spaces=[c[0], c[1]])

    def schedule_action(self, meta, c):
        v = self._verb("schedule_action", meta, c, body=c[0], rounds=c[1])
        ints, names = _tokens(c, "INT"), _tokens(c, "NAME")
        if ints:   # '… with 4 fences set aside': pieces set aside on each of those round spaces (4.3)
            v.number, v.word = self.n(ints[0]), str(names[-1])
            v.word_span = self.s.of_token(names[-1])
            v.number_span = self.s.of_token(ints[0])
        return v

    def for_each_player(self, meta, c):
        return self._verb("for_each_player", meta, c, body=c[0])

    def harvest_more(self, meta, c):
        return self._verb("harvest_more", meta, c, number=self.n(_tokens(c, "INT")[0]), word=_tokens(c, "NAME")[0].value)

    def harvest_fields(self, meta, c):
        return self._verb("harvest_fields", meta, c)

    def skip_harvest(self, meta, c):
        return self._verb("skip_harvest", meta, c)

    def newborn_acts(self, meta, c):
        return self._verb("newborn_acts", meta, c)

    def pile(self, meta, c):
        return self._verb("pile", meta, c, goods=c[0])

    def put_on_card(self, meta, c):
        return self._verb("put_on_card", meta, c, goods=c[0])

    def move_to_card(self, meta, c):
        return self._verb("move_to_card", meta, c, goods=c[0])

    def take_from_card(self, meta, c):
        return self._verb("take_from_card", meta, c, goods=c[0])

    def take_pile_top(self, meta, c):
        return self._verb("take_pile_top", meta, c)

    def play_this_card(self, meta, c):
        return self._verb("play_this_card", meta, c)

    def fence_new_stable(self, meta, c):
        return self._verb("fence_new_stable", meta, c)

    def play_occupation_random(self, meta, c):
        return self._verb("play_occupation_random", meta, c)

    def draw_from_card(self, meta, c):
        return self._verb("draw_from_card", meta, c, number=self.n(_tokens(c, "INT")[0]))

    def draw_cards(self, meta, c):
        return self._verb("draw_cards", meta, c, number=self.n(_tokens(c, "INT")[0]), word=c[-1])

    def discard_hand(self, meta, c):
        return self._verb("discard_hand", meta, c, word=c[0])

    def hk_minors(self, meta, c):
        return "minors"

    def hk_occupations(self, meta, c):
        return "occupations"

    def move_crop(self, meta, c):
        return self._verb("move_crop", meta, c, number=self.n(_tokens(c, "INT")[0]))

    def choose(self, meta, c):
        return N.Choose(list(c), span=self.sp(meta))

    def group(self, meta, c):
        return c[0]

    def price_goods(self, meta, c):
        return _Price(c[0], False)

    def price_free(self, meta, c):
        return _Price(None, True)

    # round specs
    def rs_next(self, meta, c):
        return self._round_spec("next", _tokens(c, "INT"), meta)

    def rs_next_count(self, meta, c):
        return N.RoundSpec("next_count", count=c[0], span=self.sp(meta))

    def rs_listed(self, meta, c):
        return self._round_spec("listed", _tokens(c, "INT"), meta)

    def rs_range(self, meta, c):
        return self._round_spec("range", _tokens(c, "INT"), meta)   # rounds 6 to 14: both included

    def rs_offsets(self, meta, c):
        return self._round_spec("offsets", _tokens(c, "OFFSET"), meta)

    def _round_spec(self, kind, tokens, meta):
        spec = N.RoundSpec(kind, [self.n(t) for t in tokens], span=self.sp(meta))
        spec.number_spans = [self.s.of_token(t) for t in tokens]
        return spec

    def rs_remaining(self, meta, c):
        return N.RoundSpec("remaining", span=self.sp(meta))

    def rs_even(self, meta, c):
        return N.RoundSpec("even", span=self.sp(meta))

    def rs_odd(self, meta, c):
        return N.RoundSpec("odd", span=self.sp(meta))

    # ---- goods
    def goods(self, meta, c):
        return N.Goods(list(c), span=self.sp(meta))

    def good_item(self, meta, c):
        ints = _tokens(c, "INT")
        name = _tokens(c, "NAME")[0]
        amount = N.Num(self.n(ints[0]), span=self.s.of_token(ints[0])) if ints else None
        return N.GoodsItem(name.value, amount, span=self.s.of_token(name))

    def goods_x(self, meta, c):
        return N.Goods(list(c), span=self.sp(meta))

    def gx_plain(self, meta, c):
        amount = next((x for x in c if isinstance(x, _Amount)), None)
        name = next(x for x in c if isinstance(x, Token) and x.type == "NAME")
        per = next((x for x in c if isinstance(x, _Per)), None)
        item = N.GoodsItem(name.value, amount.node if amount else None, span=self.s.of_token(name))
        if per:
            item.per_quantity = per.name
            item.per_divisor = per.divisor
            item.per_span = per.span
        return item

    def gx_players(self, meta, c):
        return N.PlayersGoods(list(c), span=self.sp(meta))

    def player_entry(self, meta, c):
        key, goods = c
        exact = not key.value.endswith("+")
        return (self.n(key, key.value.rstrip("+")), exact, goods, self.s.of_token(key))

    def amount_int(self, meta, c):
        return _Amount(N.Num(self.n(c[0]), span=self.s.of_token(c[0])))

    def amount_expr(self, meta, c):
        return _Amount(c[0])

    def amount_up_to(self, meta, c):
        limit = c[0]
        if isinstance(limit, Token):
            limit = N.Num(self.n(limit), span=self.s.of_token(limit))
        return _Amount(N.UpTo(limit, span=self.sp(meta)))

    def amount_tier(self, meta, c):
        return _Amount(N.Tier(c[0], c[1], span=self.sp(meta)))

    def per(self, meta, c):
        ints = _tokens(c, "INT")
        name = _tokens(c, "NAME")[0]
        return _Per(name.value, self.n(ints[0]) if ints else 1, self.s.of_token(name))

    # ---- expressions
    def num(self, meta, c):
        return N.Num(self.n(c[0]), span=self.sp(meta))

    def neg(self, meta, c):
        return N.Neg(c[0], span=self.sp(meta))

    def quantity(self, meta, c):
        return N.Quantity(c[0].value, span=self.s.of_token(c[0]))

    def call(self, meta, c):
        name = c[0]
        args = c[1] if len(c) > 1 else []
        node = N.Call(name.value, args, span=self.sp(meta))
        node.name_span = self.s.of_token(name)
        return node

    # history counters (docs/language.md 4.7): the counted event is kept as an 'after you …' trigger
    def counted(self, meta, c):
        event, args, *via = c[0]
        return N.Trigger("after_event", actor="you", event=event, event_args=args, via=via[0] if via else [],
                         span=self.sp(meta))

    def counted_use(self, meta, c):
        spaces = next((x for x in c if isinstance(x, list)), [])
        return N.Trigger("after_use", actor="you", spaces=spaces, span=self.sp(meta))

    def _hist(fn):  # pragma: no mutate block (called in the class body)
        def f(self, meta, c):
            event = next((x for x in c if isinstance(x, N.Trigger)), None)
            words = [x for x in c if isinstance(x, Token)]
            period = next((w.value for w in words if w.type == "PERIOD"), "this" if fn == "done_since" else "game")
            good = words[0].value if fn == "gained" else None
            node = N.History(fn, event, good, period, span=self.sp(meta))
            if fn == "gained":
                node.good_span = self.s.of_token(words[0])
            return node
        return f

    hist_done = _hist("done")
    hist_done_by_any = _hist("done_by_any")
    hist_done_since = _hist("done_since")
    hist_gained = _hist("gained")
    hist_first = _hist("first")
    del _hist

    def args(self, meta, c):
        # an argument is read as a condition (count_others(occupations < 2)); a bare number is not one
        return [a.value if isinstance(a, N.Truthy) else a for a in c]

    def tag_arg(self, meta, c):
        return N.TagRef(c[0].value[1:], span=self.s.of_token(c[0]))

    def tier(self, meta, c):
        return N.Tier(c[0], c[1], span=self.sp(meta))

    def by_house(self, meta, c):
        return N.ByHouse(c[0], span=self.sp(meta))

    def tier_entries(self, meta, c):
        return list(c)

    def tier_entry(self, meta, c):
        key, value = c
        k = self.n(key) if key.type == "INT" else key.value
        return (k, self.n(value), self.s.of_token(key))

    def _bin(op):  # pragma: no mutate block (called in the class body)
        def f(self, meta, c):
            return N.BinOp(op, c[0], c[1], span=self.sp(meta))
        return f

    add = _bin("+")
    sub = _bin("-")
    mul = _bin("*")
    div = _bin("//")
    del _bin

    def compare(self, meta, c):
        return N.Compare(str(c[1]), c[0], c[2], span=self.sp(meta))

    def house_is(self, meta, c):
        t = c[0]
        node = N.HouseIs(t.value, span=self.s.of_token(t))
        return node

    def house_is_not(self, meta, c):
        t = c[0]
        return N.HouseIs(t.value, True, span=self.s.of_token(t))

    def or_(self, meta, c):
        return N.BoolOp("or", c[0], c[1], span=self.sp(meta))

    def and_(self, meta, c):
        return N.BoolOp("and", c[0], c[1], span=self.sp(meta))

    def not_(self, meta, c):
        return N.Not(c[0], span=self.sp(meta))

    def truthy(self, meta, c):
        return N.Truthy(c[0], span=self.sp(meta))


class _ForAnyPlayer:
    """'for any player' after 'this card is an action space' (a marker for the transformer)."""


class _Guard:
    def __init__(self, cond):
        self.cond = cond


class _Price:
    def __init__(self, goods, free):
        self.goods, self.free = goods, free


class _Amount:
    def __init__(self, node):
        self.node = node


class _Per:
    def __init__(self, name, divisor, span):
        self.name, self.divisor, self.span = name, divisor, span
