"""Scenario files: given a state, take an action with these answers, expect that state.

A scenario file (see docs/scenarios.md)::

    pack: <pack>           # optional (default: 'scenario' in rules/defaults.yaml)
    players: 2             # optional (default 2)
    scenarios:
      - name: <what it shows>
        given:
          round: 3
          spaces: {<space id>: {wood: 6}}
          player: {goods: {wood: 1}}
        use: <space id>    # or: do: [harvest], do: [use <space id>, score], …
        answers: []        # option labels, in order, for the acting player's requests
        expect:
          player: {goods: {wood: 7}}
          spaces: {<space id>: {}}

The acting player is P1 and starts the round as start player. ``given.player`` (P1) and
``given.players`` (a list, P1 first) take the keys of a farm file (house, farmyard, pastures, animals,
goods, people, begging, improvements, bonus) plus ``hand`` (cards in hand). Expectations compare only
what they name.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Report, Span, did_you_mean
from .loader import LDict, LList, load_yaml_file

from runtime import primitives as P
from runtime.agents import RandomAgent, ScriptError, ScriptedAgent
from runtime.engine import Game, IllegalDecision
from runtime.firing import RuleLoop
from runtime.farm import iter_bits, popcount
from .farmfile import KEYS as FARM_KEYS, apply_farm
from runtime.labels import label_of

SCENARIO_KEYS = ("name", "given", "use", "do", "answers", "answers_by", "expect", "players", "pack", "seed")
GIVEN_KEYS = ("round", "spaces", "player", "players", "start_player", "revealed", "occupants")
PLAYER_KEYS = FARM_KEYS + ("hand", "newborns", "home")
EXPECT_KEYS = ("player", "players", "spaces", "options", "usable", "start_player", "score", "error", "scheduled")
EXPECT_PLAYER_KEYS = ("goods", "animals", "house", "rooms", "fields", "grain_fields", "vegetable_fields",
                      "pastures", "stables", "fences", "people", "newborns", "begging", "bonus", "majors",
                      "minors", "occupations", "farmyard", "hand")


@dataclass
class Outcome:
    file: str
    name: str
    line: int
    ok: bool
    message: str = ""

    def where(self) -> str:
        return f"{self.file}:{self.line}"


class _Recorder(ScriptedAgent):
    """A scripted agent that also remembers the options of every request it saw. A request with a
    single option is not asked, but when the next answer names that option it is used up, so scenario
    authors may write it or not."""

    sees_forced = True

    def __init__(self, answers, fallback=None):
        super().__init__(answers, fallback)
        self.seen = []

    def forced(self, game, player, kind, option, label=None):
        shown = label_of(game, player, kind, option, label)
        if self.used < len(self.answers) and str(self.answers[self.used]).strip() == shown:
            self.used += 1

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        shown = [label_of(game, player, kind, o, labels[i] if labels else None) for i, o in enumerate(options)]
        self.seen.append((kind, shown))
        return super().choose(game, player, kind, options, labels, prompt)


class ScenarioError(Exception):
    def __init__(self, message, span: Span | None = None):
        super().__init__(message)
        self.span = span


def load_scenarios(path: Path, report: Report):
    data = load_yaml_file(path, report, str(path))
    if data is None:
        return None
    if not isinstance(data, LDict) or not isinstance(data.get("scenarios"), list):
        report.error("E150", "a scenario file is a mapping with a 'scenarios' list", getattr(data, "span", Span(str(path), 1, 1)))
        return None
    for key in data:
        if key not in ("pack", "players", "scenarios", "seed"):
            report.error("E110", f"unknown key '{key}' in scenario file{did_you_mean(key, ['pack', 'players', 'scenarios'])}",
                         data.key_span(key))
    return data


def run_file(path: Path, load_pack, default_pack: str | None = None) -> list[Outcome]:
    """Run every scenario of a file. ``load_pack(name)`` returns a compiled pack."""
    if default_pack is None:
        from runtime.pack import defaults
        default_pack = str(defaults().get("scenario", ""))
    report = Report()
    data = load_scenarios(Path(path), report)
    file = str(path)
    if data is None or report:
        return [Outcome(file, "(file)", 1, False, report.render())]
    outcomes = []
    for i, sc in enumerate(data["scenarios"]):
        span = data["scenarios"].span_of(i)
        name = str(sc.get("name", f"scenario {i + 1}")) if isinstance(sc, dict) else f"scenario {i + 1}"
        try:
            if not isinstance(sc, LDict):
                raise ScenarioError("a scenario is a mapping (name, given, use, answers, expect)", span)
            pack_name = str(sc.get("pack", data.get("pack", default_pack)))
            players = int(sc.get("players", data.get("players", 2)))
            pack = load_pack(pack_name)
            run_one(sc, pack, players, int(sc.get("seed", data.get("seed", 0))))
            outcomes.append(Outcome(file, name, span.line, True))
        except ScenarioError as exc:
            where = exc.span or span
            outcomes.append(Outcome(file, name, where.line, False,
                                    f"{where.file}:{where.line}:{where.col}: {exc}"))
    return outcomes


def _keys(d: LDict, allowed, what):
    for key in d:
        if key not in allowed:
            raise ScenarioError(f"unknown key '{key}' in {what}{did_you_mean(key, allowed)}", d.key_span(key))


def setup_game(sc: LDict, pack, players: int, seed: int = 0):
    """The game a scenario starts from: round set, goods placed, farms as given; P1 to act."""
    given = sc.get("given") or LDict()
    if not isinstance(given, LDict):
        raise ScenarioError("'given' must be a mapping", sc.span_of("given"))
    _keys(given, GIVEN_KEYS, "given")
    recorder = _Recorder(list(sc.get("answers") or []))
    others = [RandomAgent(f"scenario:{i}") for i in range(1, players)]
    by = sc.get("answers_by") or {}
    for who, answers in by.items():
        idx = None
        for i in range(players):
            if str(who).upper() == f"P{i + 1}":
                idx = i
        if idx is None or idx == 0:
            raise ScenarioError(f"answers_by: '{who}' is not another player (P2 to P{players}); "
                                "P1's answers go in 'answers'", by.key_span(who))
        others[idx - 1] = ScriptedAgent(list(answers or []), fallback=others[idx - 1])
    game = Game(pack, players, seed=seed, agents=[recorder] + others)
    game.log = []
    game.start_player = 0
    for p in game.players:  # hands hold only what the scenario gives
        p.hand_occupations = []
        p.hand_minors = []
    rnd = int(given.get("round", 1))
    if not 1 <= rnd <= game.last_round:
        raise ScenarioError(f"round must be from 1 to {game.last_round}", given.span_of("round"))
    # Reveal the round cards of rounds 1..rnd in the seeded order; 'revealed' adds more by id.
    for r in range(1, rnd + 1):
        if r - 1 < len(game.round_order):
            d = pack.space_defs[game.round_order[r - 1]]
            if d.id not in game.space_by_id:
                game.mark_round_space(game._add_space(d), r)
    game.round = rnd
    for sid in given.get("revealed") or []:
        _reveal(game, pack, str(sid), given.span_of("revealed"))
    for s in game.spaces:
        s.goods.clear()
    spaces = given.get("spaces") or {}
    for sid, goods in spaces.items():
        if sid not in game.space_by_id:
            if sid in pack.space_defs:
                _reveal(game, pack, sid, spaces.key_span(sid))
            else:
                raise ScenarioError(f"unknown action space '{sid}'{did_you_mean(sid, pack.space_defs)}",
                                    spaces.key_span(sid))
        for good, n in (goods or {}).items():
            if good not in game.rules.goods:
                raise ScenarioError(f"unknown good '{good}'{did_you_mean(good, game.rules.goods)}", goods.key_span(good))
            game.space_by_id[sid].goods[good] = int(n)
    plist = []
    if given.get("player") is not None:
        plist = [given["player"]]
    if given.get("players") is not None:
        if plist:
            raise ScenarioError("give either 'player' or 'players', not both", given.key_span("players"))
        plist = list(given["players"])
    for i, pdata in enumerate(plist):
        if i >= players:
            raise ScenarioError(f"{len(plist)} players given for a {players}-player scenario", given.span)
        if not isinstance(pdata, LDict):
            raise ScenarioError("a player is a mapping of farm-file keys", given.span)
        _keys(pdata, PLAYER_KEYS, "player")
        _apply_player(game, game.players[i], pdata)
    occupants = given.get("occupants") or {}
    for sid, who in occupants.items():
        if sid not in game.space_by_id:
            _reveal(game, pack, sid, occupants.key_span(sid))
        for w in (who if isinstance(who, list) else [who]):
            game.space_by_id[sid].occupants.append(_player_index(game, w, occupants.span_of(sid)))
    if "start_player" in given:
        game.start_player = _player_index(game, given["start_player"], given.span_of("start_player"))
    for i, p in enumerate(game.players):
        p.home = p.people - p.newborns
        if i < len(plist) and "home" in plist[i]:
            p.home = int(plist[i]["home"])
    return game, recorder


def _reveal(game, pack, sid, span):
    if sid not in pack.space_defs:
        raise ScenarioError(f"unknown action space '{sid}'{did_you_mean(sid, pack.space_defs)}", span)
    if sid not in game.space_by_id:
        d = pack.space_defs[sid]
        if game.nplayers not in d.players:
            raise ScenarioError(f"'{sid}' is not used with {game.nplayers} players", span)
        game.mark_round_space(game._add_space(d), game.round)


def _player_index(game, value, span):
    text = str(value).upper()
    for p in game.players:
        if p.name == text:
            return p.idx
    raise ScenarioError(f"unknown player '{value}' (P1 to P{game.nplayers})", span)


def _apply_player(game, p, pdata: LDict):
    report = Report()
    farm = LDict({k: v for k, v in pdata.items() if k in FARM_KEYS}, span=pdata.span)
    farm.value_spans, farm.key_spans = pdata.value_spans, pdata.key_spans
    apply_farm(game, p, farm, report, reset=True)
    if report:
        d = report.sorted()[0]
        raise ScenarioError(d.message, d.span)
    hand = pdata.get("hand") or []
    for i, cid in enumerate(hand):
        cid = str(cid)
        card = game.pack.all_cards.get(cid)
        if card is None or card.kind == "major":
            raise ScenarioError(f"unknown hand card '{cid}'{did_you_mean(cid, game.pack.cards)}", hand.span_of(i))
        (p.hand_occupations if card.kind == "occupation" else p.hand_minors).append(cid)
    if "newborns" in pdata:
        p.newborns = int(pdata["newborns"])


def _steps(sc: LDict):
    steps = []
    if sc.get("use") is not None:
        steps.append(("use", str(sc["use"]), sc.span_of("use")))
    do = sc.get("do")
    if do is not None:
        items = do if isinstance(do, list) else [do]
        for i, item in enumerate(items):
            span = do.span_of(i) if isinstance(do, LList) else sc.span_of("do")
            words = str(item).split()
            if not words:
                continue
            if words[0] == "use" and len(words) == 2:
                steps.append(("use", words[1], span))
            elif words == ["place"]:
                steps.append(("place", None, span))
            elif words == ["harvest"]:
                steps.append(("harvest", None, span))
            elif words == ["score"]:
                steps.append(("score", None, span))
            elif words in (["next", "round"], ["start", "round"]):
                steps.append(("next_round", None, span))
            elif words[0] == "feed" and len(words) == 1:
                steps.append(("feed", None, span))
            elif words == ["breed"]:
                steps.append(("breed", None, span))
            else:
                raise ScenarioError(f"unknown step '{item}' (use <space>, place, harvest, feed, breed, next round, "
                                    "score)", span)
    return steps


def run_one(sc: LDict, pack, players: int = 2, seed: int = 0):
    _keys(sc, SCENARIO_KEYS, "scenario")
    game, agent = setup_game(sc, pack, players, seed)
    p1 = game.players[0]
    expect = sc.get("expect") or LDict()
    if not isinstance(expect, LDict):
        raise ScenarioError("'expect' must be a mapping", sc.span_of("expect"))
    _keys(expect, EXPECT_KEYS, "expect")
    steps = _steps(sc)
    error = None
    try:
        for kind, arg, span in steps:
            if kind == "use":
                s = game.space_by_id.get(arg)
                if s is None:
                    if arg in pack.space_defs:
                        _reveal(game, pack, arg, span)
                        s = game.space_by_id[arg]
                    else:
                        raise ScenarioError(f"unknown action space '{arg}'{did_you_mean(arg, pack.space_defs)}", span)
                usable = s.id in game.legal_spaces(p1)
                if "usable" in expect:
                    want = bool(expect["usable"])
                    if usable != want:
                        raise ScenarioError(f"'{arg}' is {'usable' if usable else 'not usable'}, expected "
                                            f"{'usable' if want else 'not usable'}", expect.span_of("usable"))
                    if not usable:
                        continue
                elif not usable:
                    raise ScenarioError(f"P1 cannot use '{arg}' here (no action on it is possible)", span)
                p1.home = max(0, p1.home - 1)
                game.in_work_phase = True
                game.turn_no += 1  # each 'use' step is a turn of P1's
                game.use_space(p1, s)
                game.in_work_phase = False
            elif kind == "place":
                game.in_work_phase = True
                p1.home = max(1, p1.home)
                game.place(p1)
                game.in_work_phase = False
            elif kind == "harvest":
                game.harvest()
            elif kind == "feed":
                game.feed(p1)
            elif kind == "breed":
                P.breed(game, p1)
            elif kind == "next_round":
                game.returning_home()
                game.end_round()
                game.start_round()
                for p in game.players:
                    p.home = p.people - p.newborns
            elif kind == "score":
                game.finish()
    except (ScriptError, IllegalDecision, RuleLoop) as exc:
        error = str(exc)
    if error is not None:
        if "error" in expect and str(expect["error"]) in error:
            return
        raise ScenarioError(error, sc.span_of("answers") if "answers" in sc else sc.span)
    if "error" in expect:
        raise ScenarioError(f"expected an error containing '{expect['error']}', but there was none",
                            expect.span_of("error"))
    if agent.used < len(agent.answers):
        raise ScenarioError(f"{len(agent.answers) - agent.used} answer(s) left unused: "
                            f"{', '.join(map(str, agent.answers[agent.used:]))}", sc.span_of("answers"))
    _check_expect(game, agent, expect)


def _fail(what, got, want, span):
    raise ScenarioError(f"{what}: got {got}, expected {want}", span)


def _check_expect(game, agent, expect: LDict):
    pexp = []
    if expect.get("player") is not None:
        pexp.append((0, expect["player"]))
    if expect.get("players") is not None:
        for i, d in enumerate(expect["players"]):
            if d is not None:
                pexp.append((i, d))
    for i, d in pexp:
        _check_player(game, game.players[i], d)
    spaces = expect.get("spaces") or {}
    for sid, goods in spaces.items():
        s = game.space_by_id.get(sid)
        if s is None:
            raise ScenarioError(f"unknown action space '{sid}'", spaces.key_span(sid))
        got = {g: n for g, n in s.goods.items() if n}
        want = {g: int(n) for g, n in (goods or {}).items() if n}
        if got != want:
            _fail(f"goods on '{sid}'", got or "nothing", want or "nothing", spaces.span_of(sid))
    options = expect.get("options") or {}
    for kind, labels in options.items():
        seen = [shown for k, shown in agent.seen if k == kind]
        if not seen:
            raise ScenarioError(f"no '{kind}' request was asked", options.key_span(kind))
        want = [str(x) for x in labels]
        if sorted(seen[0]) != sorted(want):
            _fail(f"options of the first '{kind}' request", seen[0], want, options.span_of(kind))
    if "start_player" in expect:
        want = _player_index(game, expect["start_player"], expect.span_of("start_player"))
        if game.start_player != want:
            _fail("start player", game.players[game.start_player].name, game.players[want].name,
                  expect.span_of("start_player"))
    if "scheduled" in expect:
        sched = expect["scheduled"]
        for rnd, goods in sched.items():
            got = {}
            for pi, items in game.schedule.get(int(rnd), ()):
                if pi == 0:
                    for g, n in items:
                        got[g] = got.get(g, 0) + n
            want = {g: int(n) for g, n in (goods or {}).items()}
            if got != want:
                _fail(f"goods scheduled for P1 in round {rnd}", got or "nothing", want or "nothing", sched.span_of(rnd))
    if "score" in expect:
        sc = expect["score"]
        s = game.score(game.players[0])
        if "total" in sc and s["total"] != int(sc["total"]):
            _fail("total score", s["total"], sc["total"], sc.span_of("total"))
        cats = sc.get("categories") or {}
        for cid, want in cats.items():
            if cid not in s["categories"]:
                raise ScenarioError(f"unknown score category '{cid}'{did_you_mean(cid, s['categories'])}",
                                    cats.key_span(cid))
            if s["categories"][cid] != int(want):
                _fail(f"score for {cid}", s["categories"][cid], want, cats.span_of(cid))


def _check_player(game, p, d: LDict):
    _keys(d, EXPECT_PLAYER_KEYS, "expected player")
    gr = p.grid
    for key in ("goods", "animals"):
        block = d.get(key) or {}
        for good, want in block.items():
            if good not in p.goods:
                raise ScenarioError(f"unknown good '{good}'{did_you_mean(good, p.goods)}", block.key_span(good))
            if p.goods[good] != int(want):
                _fail(f"{p.name}'s {good}", p.goods[good], want, block.span_of(good))
    simple = {
        "house": lambda: p.house,
        "rooms": lambda: p.room_count,
        "fields": lambda: len(p.fields),
        "grain_fields": lambda: sorted(gr.name(c) for c, f in p.fields.items() if f[0] == "grain" and f[1]),
        "vegetable_fields": lambda: sorted(gr.name(c) for c, f in p.fields.items() if f[0] == "vegetable" and f[1]),
        "pastures": lambda: sorted(gr.mask_names(m) for m in p.pastures),
        "stables": lambda: sorted(gr.name(c) for c in iter_bits(p.stables)),
        "fences": lambda: popcount(p.fences),
        "people": lambda: p.people,
        "newborns": lambda: p.newborns,
        "begging": lambda: p.begging,
        "bonus": lambda: p.bonus,
        "majors": lambda: sorted(p.majors),
        "minors": lambda: sorted(p.minors),
        "occupations": lambda: sorted(p.occupations),
        "hand": lambda: sorted(p.hand_occupations + p.hand_minors),
    }
    for key, get in simple.items():
        if key not in d:
            continue
        want = d[key]
        got = get()
        if isinstance(want, list):
            want_cmp = sorted(str(x) for x in want) if key not in ("pastures",) else sorted(
                gr.mask_names(gr.mask_from_names(str(x))) for x in want)
        elif isinstance(got, int):
            want_cmp = int(want)
        else:
            want_cmp = str(want)
        if got != want_cmp:
            _fail(f"{p.name}'s {key}", got, want_cmp, d.span_of(key))
    if "farmyard" in d:
        want_rows = [" ".join(str(r).split()) for r in d["farmyard"]]
        got_rows = farmyard_rows(p)
        if [r.upper() for r in got_rows] != [r.upper() for r in want_rows]:
            _fail(f"{p.name}'s farmyard", got_rows, want_rows, d.span_of("farmyard"))


def farmyard_rows(p) -> list[str]:
    """The farmyard in farm-file notation (R, F, G<n>, V<n>, P, PS, S, .)."""
    gr = p.grid
    fenced = p.fenced_mask()
    rows = []
    for r in range(gr.rows):
        toks = []
        for c in range(gr.cols):
            i = r * gr.cols + c
            bit = 1 << i
            if p.rooms & bit:
                toks.append("R")
            elif i in p.fields:
                crop, n = p.fields[i]
                toks.append(("G" if crop == "grain" else "V") + str(n) if n else "F")
            elif fenced & bit:
                toks.append("PS" if p.stables & bit else "P")
            elif p.stables & bit:
                toks.append("S")
            else:
                toks.append(".")
        rows.append(" ".join(toks))
    return rows
