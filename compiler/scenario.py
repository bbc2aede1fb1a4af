"""Scenario files: given a state, take an action with these answers, expect that state.

A scenario file (see docs/scenarios.md, the designer's guide; its schema is
compiler/schemas/scenario.json)::

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

A file is checked before anything runs: its shape against the schema, then every name against the
pack (spaces, cards, goods, players, score categories), the steps, and that no step goes past the
last round. ``check_file`` does only that (``agricola validate``); ``run_file`` then plays each
scenario. The acting player is P1. Expectations compare only what they name.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import schema as _schema
from .diagnostics import Report, Span, did_you_mean, shown_path
from .loader import LDict, LList, load_yaml_file

from runtime import primitives as P
from runtime.agents import RandomAgent, ScriptError, ScriptedAgent
from runtime.engine import Game, IllegalDecision
from runtime.farm import grid, iter_bits, popcount
from runtime import gamelog, history
from runtime.firing import RuleLoop
from .farmfile import KEYS as FARM_KEYS, apply_farm
from runtime.labels import label_of


def _props(*path) -> tuple:
    """The keys the scenario schema allows at ``path`` (the runner accepts exactly these)."""
    node = _schema.schema("scenario")
    for part in path:
        node = node["properties"][part] if part != "[]" else node["items"]
    return tuple(node["properties"])


FILE_KEYS = _props()
SCENARIO_KEYS = _props("scenarios", "[]")
GIVEN_KEYS = _props("scenarios", "[]", "given")
PLAYER_KEYS = _props("scenarios", "[]", "given", "player")
EXPECT_KEYS = _props("scenarios", "[]", "expect")
EXPECT_PLAYER_KEYS = _props("scenarios", "[]", "expect", "player")
SCORE_KEYS = _props("scenarios", "[]", "expect", "score")
# The steps of 'do' (docs/scenarios.md, "Steps"): the words of each, '<space>' standing for a space id.
STEPS = ("use <space>", "P<n> use <space>", "place", "work phase", "harvest", "feed", "breed", "next round", "score")


@dataclass
class Outcome:
    """One scenario's result (or one problem of a file that could not run): where and what."""

    file: str
    name: str
    line: int
    ok: bool
    message: str = ""
    col: int = 0

    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.col}" if self.col else f"{self.file}:{self.line}"


class ScenarioError(Exception):
    def __init__(self, message, span: Span | None = None):
        super().__init__(message)
        self.span = span


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


# ---------------------------------------------------------------- reading and checking a file

def load_scenarios(path: Path, report: Report):
    """The file's located data when it has the shape of a scenario file (the schema), else None."""
    data = load_yaml_file(path, report, str(path))
    if data is None:
        return None
    if not isinstance(data, LDict) or "scenarios" not in data:
        report.error("E150", "a scenario file is a mapping with a 'scenarios' list",
                     getattr(data, "span", Span(str(path), 1, 1)))
        return None
    loaded = {(d.span.file, d.span.line, d.span.col) for d in report.diagnostics}  # e.g. a number too large
    ok = not loaded
    shaped = data
    scenarios = data["scenarios"]
    if isinstance(scenarios, LList) and not scenarios:
        report.error("E150", "a scenario file needs at least one scenario", data.span_of("scenarios"))
        return None
    if isinstance(scenarios, LList) and not all(isinstance(sc, dict) for sc in scenarios):
        ok = False
        kept = LList(span=scenarios.span)
        for i, sc in enumerate(scenarios):
            if isinstance(sc, dict):
                kept.append(sc)
                kept.item_spans.append(scenarios.span_of(i))
            else:
                report.error("E150", "a scenario is a mapping (name, given, use or do, answers, expect)",
                             scenarios.span_of(i))
        shaped = LDict(data, span=data.span)
        shaped.value_spans, shaped.key_spans = data.value_spans, data.key_spans
        shaped["scenarios"] = kept
    local = Report()
    _schema.validate(shaped, "scenario", local)
    for d in local.diagnostics:
        if (d.span.file, d.span.line, d.span.col) in loaded:
            continue  # the loader said what is wrong with this value already
        if shaped is not data and not shaped.get("scenarios") and d.message.startswith("'scenarios' is too short"):
            continue  # every scenario was reported as not a mapping already
        if d.message.endswith("not true/false") and "text" in d.message:
            d.hint = 'unquoted yes and no are true and false in YAML: write "yes" and "no"'
        report.diagnostics.append(d)
        ok = False
    return data if ok else None


@dataclass
class _Plan:
    """A scenario that passed the checks: its data, pack, player count, seed and steps."""

    index: int
    sc: LDict
    pack: object
    players: int
    seed: int
    steps: list


def check_file(path: Path, load_pack, report: Report, default_pack: str | None = None,
               pack_ids=None) -> list[_Plan] | None:
    """Check a scenario file without playing it: shape, names, steps, rounds, and each scenario's
    set-up. Every problem goes to ``report``; returns the scenarios ready to run (None if unreadable).
    ``load_pack(name)`` gives a compiled pack; ``pack_ids`` (when given) are the packs that exist."""
    if default_pack is None:
        from runtime.pack import defaults
        default_pack = str(defaults().get("scenario", ""))
    data = load_scenarios(Path(path), report)
    if data is None:
        return None
    plans = []
    scenarios = data["scenarios"]
    for i, sc in enumerate(scenarios):
        pack_name = str(sc.get("pack", data.get("pack", default_pack)))
        pack_span = sc.span_of("pack") if "pack" in sc else (data.span_of("pack") if "pack" in data
                                                            else scenarios.span_of(i))
        if pack_ids is not None and pack_name not in pack_ids:
            report.error("E151", f"unknown pack '{pack_name}'{did_you_mean(pack_name, pack_ids)}", pack_span,
                         f"packs here: {', '.join(sorted(pack_ids))}")
            continue
        pack = load_pack(pack_name)
        players = int(sc.get("players", data.get("players", 2)))
        rules = pack.rules
        if not rules.min_players <= players <= rules.max_players:
            where = sc.span_of("players") if "players" in sc else (data.span_of("players") if "players" in data
                                                                   else scenarios.span_of(i))
            report.error("E152", f"pack '{pack.id}' is for {rules.min_players} to {rules.max_players} players, "
                         f"not {players}", where)
            continue
        seed = int(sc.get("seed", data.get("seed", 0)))
        before = len(report.diagnostics)
        steps = _check_scenario(sc, pack, players, report)
        if len(report.diagnostics) > before:
            continue
        try:
            setup_game(sc, pack, players, seed)
        except ScenarioError as exc:
            report.error("E153", str(exc), exc.span or scenarios.span_of(i))
            continue
        plans.append(_Plan(i, sc, pack, players, seed, steps))
    return plans


def _player_number(text, players: int):
    """0-based index of 'P1'…'Pn', or None."""
    t = str(text).strip().upper()
    if t[:1] == "P" and t[1:].isdigit() and 1 <= int(t[1:]) <= players:
        return int(t[1:]) - 1
    return None


def _check_scenario(sc: LDict, pack, players: int, report: Report) -> list:
    """Names and steps of one scenario against its pack; returns its steps (kind, argument, span)."""
    rules = pack.rules
    goods = list(rules.goods)
    err = report.error

    def space(sid, span):
        if sid in pack.all_cards and sid not in pack.space_defs:
            return  # a card that is an action space (docs/language.md, 4.9): on the board once in play
        if sid not in pack.space_defs:
            err("E154", f"unknown action space '{sid}'{did_you_mean(sid, pack.space_defs)}", span)
        elif players not in pack.space_defs[sid].players:
            err("E154", f"'{sid}' is not used with {players} players", span)

    def goods_block(block, what_goods):
        for good in block or {}:
            if good not in what_goods:
                err("E155", f"unknown good '{good}'{did_you_mean(good, what_goods)}", block.key_span(good))

    def player(value, span, what="player"):
        if _player_number(value, players) is None:
            err("E156", f"there is no {what} '{value}' in a {players}-player scenario (P1 to P{players})", span)

    given = sc.get("given") or LDict()
    rnd = int(given.get("round", 1))
    if rnd > rules.last_round:
        err("E157", f"round {rnd} is after the last round ({rules.last_round})", given.span_of("round"))
    for sid, block in (given.get("spaces") or LDict()).items():
        space(sid, given["spaces"].key_span(sid))
        goods_block(block, goods)
    revealed = given.get("revealed") or LList()
    for j, sid in enumerate(revealed):
        space(sid, revealed.span_of(j))
    occupants = given.get("occupants") or LDict()
    for sid, who in occupants.items():
        space(sid, occupants.key_span(sid))
        for w in (who if isinstance(who, list) else [who]):
            player(w, occupants.span_of(sid))
    if "player" in given and "players" in given:
        err("E158", "give either 'player' or 'players', not both", given.key_span("players"))
    plist = given.get("players") or LList()
    if len(plist) > players:
        err("E158", f"{len(plist)} players given for a {players}-player scenario", given.span_of("players"))
    if "start_player" in given:
        player(given["start_player"], given.span_of("start_player"), "start player")
    by = sc.get("answers_by") or LDict()
    for who in by:
        idx = _player_number(who, players)
        if idx is None or idx == 0:
            others = "P2" if players == 2 else f"P2 to P{players}"
            err("E156", f"answers_by: '{who}' is not another player ({others}); "
                "P1's answers go in 'answers'", by.key_span(who))
    steps = _steps(sc, report)
    for kind, arg, span in steps:
        if kind == "use":
            space(arg, span)
    for kind, arg, span in steps:
        if kind == "next_round":
            rnd += 1
            if rnd > rules.last_round:
                err("E157", f"'next round' would start round {rnd}; the game ends after round "
                    f"{rules.last_round}", span)
                break
    expect = sc.get("expect") or LDict()
    pexp = ([expect["player"]] if expect.get("player") is not None else [])
    eplayers = expect.get("players") or LList()
    if len(eplayers) > players:
        err("E158", f"{len(eplayers)} players expected in a {players}-player scenario", expect.span_of("players"))
    gr = grid(rules.rows, rules.cols)
    for d in pexp + [d for d in eplayers if d is not None]:
        goods_block(d.get("goods"), [g for g in goods if g not in rules.animals])
        goods_block(d.get("animals"), list(rules.animals))
        for key in ("grain_fields", "vegetable_fields", "pastures", "stables"):
            for j, text in enumerate(d.get(key) or ()):
                try:
                    gr.mask_from_names(str(text))
                except ValueError as exc:
                    err("E161", str(exc), d[key].span_of(j))
        for key in ("majors", "minors", "occupations", "hand"):
            for j, cid in enumerate(d.get(key) or ()):
                if cid not in pack.all_cards:
                    err("E161", f"unknown card '{cid}'{did_you_mean(cid, pack.all_cards)}", d[key].span_of(j))
        for cid in (d.get("card_fields") or {}):
            if cid not in pack.all_cards:
                err("E161", f"unknown card '{cid}'{did_you_mean(cid, pack.all_cards)}", d["card_fields"].key_span(cid))
    for sid, block in (expect.get("spaces") or LDict()).items():
        space(sid, expect["spaces"].key_span(sid))
        goods_block(block, goods)
    if "start_player" in expect:
        player(expect["start_player"], expect.span_of("start_player"), "start player")
    sched = expect.get("scheduled") or LDict()
    for r, block in sched.items():
        if not 1 <= int(r) <= rules.last_round:
            err("E157", f"there is no round {r} (1 to {rules.last_round})", sched.key_span(r))
        goods_block(block, goods)
    cats = ((expect.get("score") or LDict()).get("categories")) or LDict()
    ids = [cid for cid, _label, _fn in rules.scoring]
    for cid in cats:
        if cid not in ids:
            err("E159", f"unknown score category '{cid}'{did_you_mean(cid, ids)}", cats.key_span(cid))
    return steps


def _steps(sc: LDict, report: Report) -> list:
    """The scenario's steps as (kind, argument, span); an unknown step or a step after 'score' is an error."""
    steps = []
    if sc.get("use") is not None:
        steps.append(("use", str(sc["use"]), sc.span_of("use")))
    do = sc.get("do")
    if do is not None:
        items = do if isinstance(do, list) else [do]
        for i, item in enumerate(items):
            span = do.span_of(i) if isinstance(do, LList) else sc.span_of("do")
            words = str(item).split()
            if steps and steps[-1][0] == "score":
                report.error("E160", "nothing can happen after 'score' (the game is over)", span)
                break
            if len(words) == 2 and words[0] == "use":
                steps.append(("use", words[1], span))
            elif len(words) == 3 and words[1] == "use" and words[0][:1] == "P" and words[0][1:].isdigit():
                steps.append(("use_by", (int(words[0][1:]) - 1, words[2]), span))
            elif words == ["next", "round"]:
                steps.append(("next_round", None, span))
            elif words == ["work", "phase"]:
                steps.append(("work_phase", None, span))
            elif len(words) == 1 and words[0] in STEPS:
                steps.append((words[0], None, span))
            else:
                report.error("E160", f"unknown step '{item}' (the steps: {', '.join(STEPS)})", span)
    return steps


# ---------------------------------------------------------------- running

def run_file(path: Path, load_pack, default_pack: str | None = None, pack_ids=None) -> list[Outcome]:
    """Check a scenario file, then run every scenario of it. ``load_pack(name)`` returns a compiled pack.
    A file with problems runs nothing: each problem is one failed outcome at its place."""
    report = Report()
    file = shown_path(path)   # printed from the working folder, as every diagnostic
    plans = check_file(Path(path), load_pack, report, default_pack, pack_ids)
    if report:
        return [Outcome(report.sources.shown(d.span.file), "(file)", d.span.line or 1, False, f"error[{d.code}]: {d.message}", d.span.col)
                for d in report.sorted()]
    outcomes = []
    for plan in plans:
        sc = plan.sc
        span = sc.span
        try:
            run_one(sc, plan.pack, plan.players, plan.seed, plan.steps)
            outcomes.append(Outcome(file, str(sc["name"]), span.line, True))
        except ScenarioError as exc:
            where = exc.span or span
            outcomes.append(Outcome(file, str(sc["name"]), where.line, False, str(exc), where.col))
    return outcomes


def setup_game(sc: LDict, pack, players: int, seed: int = 0):
    """The game a scenario starts from: round set, goods placed, farms as given; P1 to act."""
    given = sc.get("given") or LDict()
    recorder = _Recorder(list(sc.get("answers") or []))
    others = [RandomAgent(f"scenario:{i}") for i in range(1, players)]
    by = sc.get("answers_by") or {}
    for who, answers in by.items():
        idx = _player_number(who, players)
        others[idx - 1] = ScriptedAgent(list(answers or []), fallback=others[idx - 1])
    game = Game(pack, players, seed=seed, agents=[recorder] + others)
    game.log = []
    game.start_player = 0
    for p in game.players:  # hands hold only what the scenario gives
        p.hand_occupations = []
        p.hand_minors = []
    rnd = int(given.get("round", 1))
    # Reveal the round cards of rounds 1..rnd in the seeded order; 'revealed' adds more by id.
    for r in range(1, rnd + 1):
        if r - 1 < len(game.round_order):
            d = pack.space_defs[game.round_order[r - 1]]
            if d.id not in game.space_by_id:
                game.mark_round_space(game._add_space(d), r)
    game.round = rnd
    if rnd - 1 < len(game.round_order):   # this round's card is the newest
        game.mark_newest(game.space_by_id[game.round_order[rnd - 1]])
    revealed = given.get("revealed") or LList()
    for j, sid in enumerate(revealed):
        _reveal(game, pack, str(sid), revealed.span_of(j))
    for s in game.spaces:
        s.goods.clear()
    spaces = given.get("spaces") or {}
    for sid, goods in spaces.items():
        _reveal(game, pack, sid, spaces.key_span(sid))
        for good, n in (goods or {}).items():
            game.space_by_id[sid].goods[good] = int(n)
    plist = [given["player"]] if given.get("player") is not None else list(given.get("players") or [])
    for i, pdata in enumerate(plist):
        if pdata is not None:
            _apply_player(game, game.players[i], pdata)
    for i, p in enumerate(game.players):
        p.home = P.people_to_place(game, p)
    occupants = given.get("occupants") or {}
    for sid, who in occupants.items():
        _reveal(game, pack, sid, occupants.key_span(sid))
        for w in (who if isinstance(who, list) else [who]):
            p = game.players[_player_number(w, players)]
            game.space_by_id[sid].occupants.append(p.idx)
            if p.home == 0:
                raise ScenarioError(f"{p.name} has no person left at home to put on '{sid}'", occupants.span_of(sid))
            p.home -= 1
    for i, pdata in enumerate(plist):
        if pdata is not None and "home" in pdata:
            game.players[i].home = int(pdata["home"])
    if "start_player" in given:
        game.start_player = _player_number(given["start_player"], players)
    undealt = given.get("undealt") or {}
    for kind, ids in undealt.items():   # the cards not dealt, top first (what 'draw' takes, 4.10)
        for j, cid in enumerate(ids):
            card = pack.all_cards.get(str(cid))
            if card is None or card.kind != kind[:-1]:
                raise ScenarioError(f"'{cid}' is no {kind[:-1]} of the pack", ids.span_of(j))
        game.decks[kind] = [str(c) for c in ids]
    history.register_dealt(game)  # the counters of the hand cards given (docs/language.md 4.7)
    return game, recorder


def _use_step(game, pack, seat, sid, span, expect):
    """A 'use' step: the player of ``seat`` takes a turn on the space ``sid`` (a turn of P1's for seat 0).
    With ``expect`` (this step is the one 'usable' checks), whether the space is usable is compared and an
    unusable space is skipped; without it, an unusable space is an error."""
    _reveal(game, pack, sid, span)
    player, s = game.players[seat], game.space_by_id[sid]
    usable = s.id in game.legal_spaces(player)
    whose = "" if seat == 0 else f" for P{seat + 1}"
    if expect is not None:
        want = bool(expect["usable"])
        if usable != want:
            raise ScenarioError(f"'{sid}' is {'usable' if usable else 'not usable'}{whose}, expected "
                                f"{'usable' if want else 'not usable'}", expect.span_of("usable"))
        if not usable:
            return
    elif not usable:
        raise ScenarioError(f"P{seat + 1} cannot use '{sid}' here (no action on it is possible)", span)
    player.home = max(0, player.home - 1)
    game.in_work_phase, game.phase = True, "work_phase"
    game.turn_no += 1
    game.use_space(player, s)
    game.in_work_phase, game.phase = False, None


def _reveal(game, pack, sid, span):
    """Put a round card on the board (it is revealed in the current round) unless it is there."""
    if sid in game.space_by_id:
        return
    if sid in pack.all_cards:
        raise ScenarioError(f"card '{sid}' is not in play as an action space", span)
    if sid not in pack.space_defs:
        raise ScenarioError(f"unknown action space '{sid}'{did_you_mean(sid, pack.space_defs)}", span)
    if sid not in game.space_by_id:
        d = pack.space_defs[sid]
        if game.nplayers not in d.players:
            raise ScenarioError(f"'{sid}' is not used with {game.nplayers} players", span)
        game.mark_round_space(game._add_space(d), game.round)


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
        if int(pdata["newborns"]) > p.people:
            raise ScenarioError(f"{pdata['newborns']} newborns in a family of {p.people}", pdata.span_of("newborns"))
        p.newborns = int(pdata["newborns"])


def run_one(sc: LDict, pack, players: int = 2, seed: int = 0, steps=None):
    """Play one checked scenario and compare the expectations; ScenarioError at the first difference."""
    game, agent = setup_game(sc, pack, players, seed)
    if steps is None:
        report = Report()
        steps = _steps(sc, report)
        if report:
            d = report.sorted()[0]
            raise ScenarioError(d.message, d.span)
    p1 = game.players[0]
    expect = sc.get("expect") or LDict()
    error = None
    # 'usable' is about the last turn on a space ('use' or 'P<n> use'); the turns before it must be possible
    last_use = max((i for i, (kind, _, _) in enumerate(steps) if kind in ("use", "use_by")), default=None)
    try:
        for step_no, (kind, arg, span) in enumerate(steps):
            checked = "usable" in expect and step_no == last_use
            if kind == "use":
                _use_step(game, pack, 0, arg, span, expect if checked else None)
            elif kind == "use_by":   # another player's turn on a space (their answers: answers_by)
                seat, sid = arg
                if not 0 < seat < game.nplayers:
                    raise ScenarioError(f"there is no P{seat + 1} besides P1 in a {game.nplayers}-player game", span)
                _use_step(game, pack, seat, sid, span, expect if checked else None)
            elif kind == "place":
                game.in_work_phase, game.phase = True, "work_phase"
                p1.home = max(1, p1.home)
                game.place(p1)
                game.in_work_phase, game.phase = False, None
            elif kind == "work_phase":   # every player places all their people, in turn order
                game.work_phase()
            elif kind == "harvest":
                game.harvest()
            elif kind == "feed":
                game.phase = "feeding"
                game.feed(p1)
                game.phase = None
            elif kind == "breed":
                game.phase = "breeding"
                P.breed(game, p1)
                game.phase = None
            elif kind == "next_round":
                game.returning_home()
                game.end_round()
                game.start_round()
                for p in game.players:
                    p.home = P.people_to_place(game, p)
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
        left = len(agent.answers) - agent.used
        raise ScenarioError(f"{left} answer{'s' if left != 1 else ''} left unused: "
                            f"{', '.join(map(str, agent.answers[agent.used:]))}", sc.span_of("answers"))
    _check_expect(game, agent, expect)


def _fail(what, got, want, span):
    raise ScenarioError(f"{what}: got {got}, expected {want}", span)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


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
            raise ScenarioError(f"'{sid}' is not on the board", spaces.key_span(sid))
        got = {g: n for g, n in s.goods.items() if n}
        want = {g: int(n) for g, n in (goods or {}).items() if n}
        if got != want:
            _fail(f"goods on '{sid}'", got or "nothing", want or "nothing", spaces.span_of(sid))
    if "placements" in expect:   # the people placed, in order, read from the game log ("P2 → Fishing")
        labels = {gamelog.space_label(game, s): s.id for s in game.spaces}
        got = []
        for line in game.log or ():
            if line.startswith("  P") and " → " in line:
                who, _, label = line.strip().partition(" → ")
                label = label.split(" (takes ")[0]
                got.append(f"{who} {labels.get(label, label)}")
        want = [" ".join(str(x).split()) for x in expect["placements"]]
        if got != want:
            _fail("people placed, in order", got or "nobody", want or "nobody", expect.span_of("placements"))
    occupants = expect.get("occupants") or {}
    for sid, who in occupants.items():
        s = game.space_by_id.get(sid)
        if s is None:
            raise ScenarioError(f"'{sid}' is not on the board", occupants.key_span(sid))
        got = [game.players[i].name for i in s.occupants]
        want = [game.players[_player_number(w, game.nplayers)].name for w in (who or [])]
        if got != want:
            _fail(f"people on '{sid}'", got or "nobody", want or "nobody", occupants.span_of(sid))
    options = expect.get("options") or {}
    for kind, labels in options.items():
        seen = [shown for k, shown in agent.seen if k == kind]
        if not seen:
            raise ScenarioError(f"no '{kind}' request was asked", options.key_span(kind))
        by_number = labels.items() if isinstance(labels, dict) else [(1, labels)]
        for n, want in by_number:
            n = int(n)
            span = labels.span_of(n) if isinstance(labels, LDict) and n in labels else options.span_of(kind)
            if n > len(seen):
                raise ScenarioError(f"only {len(seen)} '{kind}' request{'s were' if len(seen) != 1 else ' was'} "
                                    f"asked, not {n}", span)
            want = [str(x) for x in want]
            if sorted(seen[n - 1]) != sorted(want):
                _fail(f"options of the {_ordinal(n)} '{kind}' request", seen[n - 1], want, span)
    if "start_player" in expect:
        want = _player_number(expect["start_player"], game.nplayers)
        if game.start_player != want:
            _fail("start player", game.players[game.start_player].name, game.players[want].name,
                  expect.span_of("start_player"))
    if "scheduled" in expect:
        sched = expect["scheduled"]
        for rnd, goods in sched.items():
            got = {}
            for pi, items, _source in game.schedule.get(int(rnd), ()):
                if pi == 0 and not isinstance(items, P.ScheduledAction):
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
            if s["categories"][cid] != int(want):
                _fail(f"score for {cid}", s["categories"][cid], want, cats.span_of(cid))


def _check_player(game, p, d: LDict):
    gr = p.grid
    for key in ("goods", "animals"):
        block = d.get(key) or {}
        for good, want in block.items():
            if p.goods[good] != int(want):
                _fail(f"{p.name}'s {good}", p.goods[good], want, block.span_of(good))
    simple = {
        "house": lambda: p.house,
        "rooms": lambda: p.room_count,
        "fields": lambda: len(p.fields),
        "grain_fields": lambda: sorted(gr.name(c) for c, f in p.fields.items() if f[0] == "grain" and f[1]),
        "vegetable_fields": lambda: sorted(gr.name(c) for c, f in p.fields.items() if f[0] == "vegetable" and f[1]),
        "pastures": lambda: sorted(gr.mask_names(m) for m in p.pastures),
        "pasture_tiles": lambda: {gr.mask_names(m): t for m, t in p.tile_pastures},
        "stables": lambda: sorted(gr.name(c) for c in iter_bits(p.stables)),
        "fences": lambda: popcount(p.fences),
        "people": lambda: p.people,
        "newborns": lambda: p.newborns,
        "placed": lambda: sum(s.occupants.count(p.idx) for s in game.spaces),
        "begging": lambda: p.begging,
        "bonus": lambda: p.bonus,
        "majors": lambda: sorted(p.majors),
        "minors": lambda: sorted(p.minors),
        "occupations": lambda: sorted(p.occupations),
        "hand": lambda: sorted(p.hand_occupations + p.hand_minors),
        "hand_minors": lambda: len(p.hand_minors),
        "hand_occupations": lambda: len(p.hand_occupations),
        "fences_set_aside": lambda: P.set_aside_count(p, "fences"),
    }
    for key, get in simple.items():
        if key not in d:
            continue
        want = d[key]
        got = get()
        if key == "pastures":
            try:
                want_cmp = sorted(gr.mask_names(gr.mask_from_names(str(x))) for x in want)
            except ValueError as exc:
                raise ScenarioError(str(exc), d.span_of(key)) from None
        elif key == "pasture_tiles":
            try:
                want_cmp = {gr.mask_names(gr.mask_from_names(str(k))): str(v) for k, v in (want or {}).items()}
            except (ValueError, AttributeError) as exc:
                raise ScenarioError(str(exc), d.span_of(key)) from None
        elif isinstance(want, list):
            want_cmp = sorted(str(x) for x in want)
        elif isinstance(got, int):
            want_cmp = int(want)
        else:
            want_cmp = str(want)
        if got != want_cmp:
            _fail(f"{p.name}'s {key}", got, want_cmp, d.span_of(key))
    if "card_fields" in d:   # the stacks of cards that are fields, in the order a sowing fills them
        block = d["card_fields"] or {}
        cards = p.card_state.get("field_cards", {})
        for cid, want in block.items():
            got = [f"{f[1]} {f[0]}" if f[1] else "empty" for k, f in sorted(p.fields.items())
                   if k < 0 and cards.get(k) == cid]
            want_cmp = [" ".join(str(x).split()) for x in (want or ())]
            if got != want_cmp:
                _fail(f"{p.name}'s fields on {cid}", got or "no such field", want_cmp, block.span_of(cid))
    if "farmyard" in d:
        want_rows = [" ".join(str(r).split()) for r in d["farmyard"]]
        got_rows = farmyard_rows(p)
        if [r.upper() for r in got_rows] != [r.upper() for r in want_rows]:
            _fail(f"{p.name}'s farmyard", got_rows, want_rows, d.span_of("farmyard"))


def farmyard_rows(p) -> list[str]:
    """The farmyard in farm-file notation (R, F, G<n>, V<n>, P, PS, T, TS, S, .)."""
    gr = p.grid
    fenced = p.fenced_mask()
    tiles = p.tile_mask()
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
            elif tiles & bit:
                toks.append("TS" if p.stables & bit else "T")
            elif p.stables & bit:
                toks.append("S")
            else:
                toks.append(".")
        rows.append(" ".join(toks))
    return rows
