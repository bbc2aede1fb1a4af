"""The English text generator (compiler/english.py) covers every construct of the effect language.

Two checks: every card, improvement and action space of every built-in pack renders to a clean text
(no placeholder '?', no raw snake_case id, no 'None', never empty); and a synthetic card that uses every
alternative of the grammar (compiler/grammar/effects.lark) renders cleanly too. The second test also
checks that the synthetic texts really use every labelled alternative of the grammar, so a construct
added to the grammar without an English rendering fails here.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler import checker, english, parser
from compiler.build import Compiler
from compiler.diagnostics import Report

ROOT = Path(__file__).resolve().parent.parent
PACKS = ["revised", "revised-family", "original", "original-family"]
SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")


INTERNAL = [(re.compile(r"::"), "'::'"), (re.compile(r"\b(exactly|at least|at most) 0\b"), "a comparison with 0")]


def wording(text: str, tag_words=()) -> str | None:
    """Why a sentence reads badly: internal notation, 'exactly 0 …', or a #tag's own words."""
    for pattern, why in INTERNAL:
        m = pattern.search(text)
        if m:
            return f"{why}: {m.group(0)!r}"
    for words in tag_words:
        if re.search(rf"\b{re.escape(words)}\b", text):
            return f"the tag words {words!r}"
    return None


def bad_text(text: str, tag_words=()) -> str | None:
    """Why a generated text is not acceptable, or None."""
    if text is None or not text.strip():
        return "empty text"
    if english.PLACEHOLDER in text:
        return "placeholder '?'"
    if "None" in text:
        return "'None'"
    m = SNAKE.search(text)
    if m:
        return f"raw id {m.group(0)!r}"
    return wording(text, tag_words)


def tag_words(checked) -> list[str]:
    """The tags of a pack's action spaces as words ('wood accumulation'), and its cards' tags of several
    words; a text names the spaces or cards, never the tag (single-word card tags like 'well' are words)."""
    words = {t for u in checked.spaces + checked.rounds for t in u.data["tags"] if not re.fullmatch(r"round_\d+", t)}
    words |= {t for u in checked.majors + checked.cards for t in u.data["tags"] if "_" in t}
    return sorted(w.replace("_", " ") for w in words)


@pytest.fixture(scope="module")
def checked_packs(tmp_path_factory):
    comp = Compiler(ROOT, tmp_path_factory.mktemp("english-build"))
    out = {}
    for pack in PACKS:
        _src, checked, report = comp.check(pack)
        assert checked is not None and not report, report.render()
        out[pack] = checked
    return out


@pytest.mark.parametrize("pack", PACKS)
def test_every_card_and_space_renders(checked_packs, pack):
    checked = checked_packs[pack]
    eng = english.for_pack(checked)
    tags = tag_words(checked)
    problems = []
    for unit in checked.majors + checked.cards:
        lines = english.card_lines(eng, unit)
        assert lines and lines[0].startswith(unit.data["name"])
        if unit.data["rules"] and len(lines) < 2 + (0 if unit.data["kind"] == "occupation" else 1) - 1:
            problems.append(f"{unit.id}: no rule text")
        for line in lines[1:]:
            why = bad_text(line, tags)
            if why:
                problems.append(f"{unit.id}: {why}: {line}")
        for rule in unit.data["rules"]:
            why = bad_text(eng.rule(rule, unit.data["kind"]))
            if why:
                problems.append(f"{unit.id} rule: {why}")
    for unit in checked.spaces + checked.rounds:
        text = english.space_text(eng, unit)
        why = bad_text(text, tags)
        if why:
            problems.append(f"{unit.id}: {why}: {text}")
    for _cid, _label, node, _span in checked.game["scoring"]:
        why = bad_text(eng.expr(node), tags)
        if why:
            problems.append(f"scoring {_cid}: {why}")
    for rule in checked.game["exchanges"]:
        why = bad_text(eng.rule(rule, "game"), tags)
        if why:
            problems.append(f"exchange: {why}")
    assert not problems, "\n".join(problems)
    if pack == "revised":
        assert len(checked.cards) == 96


# Every labelled alternative of the grammar, used at least once. Card-level rules first, then bodies.
SYNTHETIC_RULES = """\
on play: gain 1 wood, (rooms // 2) clay, tier(occupations; 0: 1, 2: 2) food, 1 food per 3 sheep, 1 grain per room
on build: gain players(1: 2 grain; 2: 3 clay; 3+: 2 reed)
after you use fishing or #wood_accumulation if round >= 5 (once per round): gain 1 food
before another player uses forest (twice per harvest): gain 1 food
end of turn after any player uses day_laborer (3 times per game): gain 1 wood
after you build rooms: gain 1 food
after you renovate from wood to clay: gain 1 food
after you build improvement: gain 1 food
after you build major: gain 1 food
after you play minor: gain 1 food
before you play occupation: gain 1 food
after you play occupation: gain 1 food
after you bake: gain 1 food
after you convert at one time with #cooking or clay_oven: gain 1 food per 2 event_size
after you build fences: gain 1 food
after you build stables: gain 1 food
after you plow: gain 1 food
after you sow: gain 1 food
after you family growth: gain 1 food
after you fence pasture if event_size >= 4: gain 1 sheep
after you take start player: gain 1 food
at round start if after_harvest: gain 1 food
at returning home if harvest_round: gain 1 food
at harvest start: gain 1 food
at field phase: harvest 1 more grain from each field
at field phase start: gain 1 food
at feeding: breed sheep
at breeding: gain 1 food
at harvest end: gain 1 food
at end of round 12: gain 1 food
at scoring: convert wood to bonus (3: 1, 5: 2, 7: 3); bonus 2; bonus tier(rooms; 3: 1, 5: 2); bonus sheep // 3; bonus rooms; bonus house(wood: 1, clay: 2, stone: 3); bonus rooms - 2
once rooms >= 3 and not (house is wood or house is not clay): gain 1 food
any time: grain -> 1 food (at most once); vegetable -> 2 food (at most twice)
in harvest: 1 wood -> 2 food (at most 2 times)
any time: grain -> 3 food (at most 8 times per game) (others may buy 1 grain for 2 food)
in harvest: 1 reed -> 2 food (at most twice per harvest)
in feeding: 1 clay -> top of pile
bake: grain -> 2 food (at most twice)
any time action if has(#fireplace) (once per round): build stable for 1 wood
in harvest action: build stable free
in feeding action: pay 1 food
in work phase action: pay 1 food to let newborn act
in work phase: 1 food -> 1 wood
cost of rooms, renovation: -1 clay, +(rooms) stone, -(rooms_built) reed
cost of wood rooms = 2 wood, 2 reed
cost of stables = 1 material
cost of #oven, well: -1 stone
cost of improvement, wood room, stable, fence: -1 wood (once per round)
free stable (the next time)
free fence number 3, 6, 9
cost of newborn feeding: -1 food
after you build fences (the next time): gain 1 boar
at work phase end: gain 1 food
at feeding start: gain 1 food
at work phase start if start_player == 0: may pay 1 food to start player to place first
after you use fishing: may pay (cards(#oven)) food to each other player to gain (event_goods(food)) food
after you use fishing: spend up to (event_goods(food)) food on (2 food -> 1 sheep; 3 food -> 1 cattle (at most once))
after you gain wood if pile_top(wood): take the top of the pile
after you use forest (once per turn with #oven): gain 1 food
at work phase start: place 1 more person; place 2 people less; place no people; pay 1 food to start player
at work phase start: may spread the wood of forest over clay_pit, reed_bank; put 1 food on an action space
on play: mark an action space
on play: lodge 1 person on this card
at round start if round == 11: reveal the remaining round cards to you
before you use #newest_round: gain 1 grain
after you use the marked space: may build fences
capacity of fences: -1
may pay 1 wood instead of 2 clay for rooms
may pay 1 wood instead of all reed for rooms, renovation
free 3 fences per action
may use occupied #wish_for_children
others pay 1 food to owner to use fishing
after another player uses forest (once per game for each player): gain 1 food
may place twice if one uses fishing
capacity of pasture: +2
capacity of pasture with stable = 6
capacity of pasture of 2 spaces: mixed
capacity of stable: +1
capacity of family: +1
capacity of pasture without stable, pasture of 1 space without stable, animal card: +2 sheep
capacity of one stable = 3
any time if has(#oven): sheep -> 2 food
sowing of crops: +1 while all_fields <= 2
breeding of sheep: +1 while sheep >= 4
cost of feeding beyond 2: -1 food
on play: may plow up to (all_sum(cards(#oven))) fields
on play: schedule action (may pay 2 food to build up to (set_aside(fences)) fences free) on rounds +6, +10 with 4 fences set aside
well is a minor for you
instead of you plow (twice per game): may plow 2 fields
instead of you play occupation: may (gain 3 food; play occupation chosen at random by left neighbour)
any player action (once per game): pay 1 food to owner to gain 1 wood
after you build stables: fence the stable just built
this card counts as #oven
this card counts as 2 occupations
this card counts as a major improvement too
house holds 2 animals
house holds rooms animals
this card is a field for vegetable, grain
this card is a field
this card houses 1 person
this card houses 2 people
allow renovate_skip
forbid renovation
score of fields, sheep: +1
score of sheep >= 0
ignore 1 begging
after you use reed_bank: claim (take the food of fishing) at returning home
after you use grain_seeds: claim (gain 1 food) at work phase end
after you use forest: claim (take the goods of clay_pit) at round end if rooms > 2
at work phase end: may move your person from grain_seeds or #wood_accumulation to farmland
on play: pile 1 wood, 1 grain on this card
at round start: put 1 wood on this card; move 1 grain to this card
after you use forest if stored(wood) >= 2: take 2 wood from this card
at round start: draw 2 from this card; gain 1 food if drawn(wood) == 2; draw 1 from the bag
capacity of this card: 2 animals
capacity of this card: 1 cattle
capacity of this card: any boar
sowing of vegetable: +1
any time action: move up to 2 grain to this card; move up to (rooms) wood to this card
cost of clay room = 2 clay, 1 wood, 1 reed or the base price
sowing of crops: +2
any time action if house is clay: renovate to stone for 1 stone per room
on play: renovate free
this card is an action space for any player: pay 1 food to owner to take the goods; gain 1 wood if not is_owner
this card is an action space: gain 1 grain
after another player gains building if event_goods(clay) >= 1 and actor(rooms) > rooms: take 1 clay from actor; give 1 wood to actor; pay 1 food to actor
after any player uses forest: for actor (may pay 1 food to owner to gain 1 wood; pay 1 food to owner); may pay 1 food to actor to gain 1 wood
after another player converts if event_via(#fireplace) and event_paid(animals) > 0 and event_goods(food) > 1: gain 1 food
after you build stables if before(stables) < 2 and count_others(rank(rooms) == 1) > 0: for each other player (gain 1 food if rooms < owner(rooms))
after you renovate to clay if first(renovate to clay) and done(use, round) >= 2: gain tier(done_by_any(renovate from wood to clay, game); 1: 3, 2: 1) stone
at scoring: bonus done_since(use fishing or #wood_accumulation, this) + gained(building, harvest) + done(play occupation, turn) + first(gain wood, action)
after you harvest if event_via(this) and event_size >= 2 and during(feeding) == 0: gain (event_goods(grain)) food
feed last
harvest vegetable from the supply
capacity of this card: (pastures) cattle
at returning home: put 1 food on fishing
this card is 3 fields for wood
sowing of grain next to rooms: +2
after you sow if event_size == 1: add 2 to each sown field
on play: gain 1 food if occupied(farmland) or yours(fishing) or most(rooms) or min(rooms, 3) > max(1, people) or others_min(rooms) < others_max(rooms) or occupations_after(this) == 2 or roomy_pastures(2) != 1 or has(fireplace_2) or -rooms <= 3 * people - 1 + newborns or people
"""

SYNTHETIC_BODIES = [
    "discard minors from hand; draw 7 minors; discard occupation from hand; draw 1 occupation; play this card",
    "build rooms and/or build stables",
    "gain 1 food; pay 1 wood; exchange 1 wood -> 2 food",
    "plow fields; plow 2 fields; sow; sow 1 field; bake",
    "build room; build room for 2 wood; renovate; renovate to stone",
    "build stables; build stable free; build fences; build fences free; fence 2 spaces for 1 wood",
    "family growth then family growth without room",
    "build major; build major #cooking; build pastures; build improvement; play minor; play occupation; play occupation for 1 food; take start player",
    "schedule 1 food on next 3 rounds; schedule 1 wood on rounds 5, 8; schedule 1 grain on rounds +2, +4",
    "schedule 1 food on remaining rounds; schedule 1 food on remaining even rounds; schedule 1 food on remaining odd rounds",
    "schedule 1 food on next 1 round", "schedule 1 food on next (sheep) rounds",
    "schedule 1 food on rounds 6 to 14",
    "return 1 wood to the space; give 1 food to each other player",
    "schedule action (plow 1 field) on next 2 rounds; for each player (gain 1 food)",
    "let newborn act; move 1 crop to an empty field",
    "choose(gain 1 reed | gain 1 stone); (gain 1 food; gain 1 wood)",
    "choose(build room | take the goods)",
    "may pay 1 food to gain 1 sheep; may sow; gain 1 food if rooms >= 2",
    "harvest fields; skip the next harvest; sow 1 vegetable; sow grain with 1 fewer; add 1 grain to each grain field",
    "take 1 grain from a field of another player and give them 2 food; take 1 vegetable from a field of another player",
]


def _labels_in_grammar() -> set:
    text = parser.grammar_text()
    return set(re.findall(r"->\s*([a-z_][a-z0-9_]*)", text))


def _labels_used(texts_by_start) -> set:
    lark = parser.grammar()
    used = set()
    for start, text in texts_by_start:
        tree = lark.parse(text, start=parser.START[start])
        used.update(t.data for t in tree.iter_subtrees())
    return {str(u) for u in used}


def test_synthetic_texts_use_every_grammar_alternative():
    texts = [("rules", SYNTHETIC_RULES)] + [("body", b) for b in SYNTHETIC_BODIES]
    missing = _labels_in_grammar() - _labels_used(texts)
    assert not missing, f"the synthetic card does not use: {sorted(missing)}"


def test_synthetic_card_renders_every_construct(checked_packs):
    checked = checked_packs["revised"]
    eng = english.for_pack(checked)
    report = Report()
    rules = parser.parse(SYNTHETIC_RULES, "rules", report)
    assert rules is not None, report.render()
    bodies = []
    for text in SYNTHETIC_BODIES:
        node = parser.parse(text, "body", report)
        assert node is not None, (text, report.render())
        bodies.append((text, node))
    # Resolve names as the compiler does (aliases, 'this'); errors about unsupported combinations are
    # irrelevant here: the text generator must render whatever the parser builds.
    chk = checker.Checker(checked.symbols, Report())
    chk.card_id = checked.cards[0].id  # what this means
    for r in rules:
        chk.rule(r, "card")
    for _t, node in bodies:
        chk.body(node, "space")
    problems = []
    for line, rule in zip([x for x in SYNTHETIC_RULES.splitlines() if x.strip()], rules):
        text = eng.rule(rule, "minor")
        why = bad_text(text)
        if why:
            problems.append(f"{line!r} -> {text!r}: {why}")
    for source, node in bodies:
        for text in (eng.stmt(node), eng.space_effect(node, None)):
            why = bad_text(text)
            if why:
                problems.append(f"{source!r} -> {text!r}: {why}")
    assert not problems, "\n".join(problems)
    assert len(rules) == len([x for x in SYNTHETIC_RULES.splitlines() if x.strip()])


def test_quantities_functions_and_phrases_have_words(checked_packs):
    from compiler import nodes as N
    from runtime import queries as Q
    eng = english.for_pack(checked_packs["revised"])
    for name in list(Q.QUANTITIES) + list(Q.CONTEXT_QUANTITIES):
        for text in (eng.expr(N.Quantity(name)), eng.quantity_words(N.Quantity(name)),
                     eng.cond(N.Compare(">=", N.Quantity(name), N.Num(2))),
                     eng.bonus_amount(N.Quantity(name))):
            assert bad_text(text) is None, (name, text)
    samples = {"space": N.Quantity("fishing"), "card": N.TagRef("fireplace"), "number": N.Num(2),
               "player_value": N.Quantity("rooms"), "goods": N.Quantity("clay"), "space_or_tag": N.TagRef("lessons"),
               "category": N.Quantity("fields"), "source": N.TagRef("fireplace"), "phase": N.Quantity("feeding"),
               "animal": N.Quantity("sheep"), "piece": N.Quantity("fences")}
    for fname, (_fn, kinds) in Q.FUNCTIONS.items():
        text = eng.expr(N.Call(fname, [samples[k] for k in kinds]))
        assert bad_text(text) is None and f"{fname}(" not in text, (fname, text)
    for kind in Q.VIA_KINDS:   # event_via(space), event_via(minor), …: what made the event
        text = eng.expr(N.Call("event_via", [N.Quantity(kind)]))
        assert bad_text(text) is None and "event_via(" not in text, (kind, text)


def _cards_using_spaces(checked, tagged: bool):
    from compiler import nodes as N
    for unit in checked.cards:
        for rule in unit.data["rules"]:
            for node in N.walk(rule):
                if isinstance(node, N.Trigger):
                    for name, is_tag, _ in node.spaces:
                        if is_tag == tagged:
                            yield unit, name


def test_card_text_names_spaces_in_quotes_for_links(checked_packs):
    """docs.py turns quoted names into links: spaces named by a card must come out quoted."""
    checked = checked_packs["revised"]
    eng = english.for_pack(checked)
    names = {u.id: u.data["name"] for u in checked.spaces + checked.rounds}
    found = 0
    for unit, space in _cards_using_spaces(checked, tagged=False):
        if space in names:
            assert f'"{names[space]}"' in " ".join(english.card_lines(eng, unit)), (unit.id, space)
            found += 1
    assert found >= 10
    members: dict = {}
    for u in checked.spaces + checked.rounds:
        for t in u.data["tags"]:
            members.setdefault(t, []).append(u.data["name"])
    found = 0
    for unit, tag in _cards_using_spaces(checked, tagged=True):
        text = " ".join(english.card_lines(eng, unit))
        if tag in members:
            # a #tag reads as the spaces that carry it, never as the tag's own words
            assert tag.replace("_", " ") not in text and all(f'"{n}"' in text for n in members[tag]), (unit.id, tag)
            found += 1
    assert found >= 3


def _strings(value):
    """The texts of a docs model; a space's list of tags (shown as such) and HTML anchors are no texts."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in ("tags", "anchor", "id"):
                yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, str):
        yield value


@pytest.mark.parametrize("pack", PACKS)
def test_every_text_of_the_docs_reads_well(checked_packs, pack, tmp_path):
    """Everything the rules reference shows (cards, improvements, spaces, round cards, rules, scoring):
    no '::', no comparison with 0, no tag words in place of the spaces or cards they stand for."""
    from compiler import docs
    model = docs.build_model(Compiler(ROOT, tmp_path / "build"), pack)
    tags = tag_words(checked_packs[pack])
    problems = [f"{why}: {text}" for text in _strings(model) if (why := wording(text, tags))]
    assert not problems, "\n".join(problems)


def _english(text: str, kind: str = "cond", event=None) -> str:
    checked = _CHECKED["revised"]
    eng = english.for_pack(checked)
    report = Report()
    node = parser.parse(text, kind, report)
    assert node is not None, report.render()
    eng.event = event
    return eng.cond(node) if kind == "cond" else eng.rule(node[0], "minor")


_CHECKED: dict = {}


@pytest.fixture(autouse=True)
def _remember(checked_packs):
    _CHECKED.update(checked_packs)


@pytest.mark.parametrize("text, words", [
    ("rooms >= 3 and house is clay or people >= 4",
     "both you have at least 3 rooms and you live in a clay house, or you have at least 4 people"),
    ("rooms >= 3 and (house is clay or people >= 4)",
     "you have at least 3 rooms, and either you live in a clay house or you have at least 4 people"),
    ("rooms >= 3 or people >= 4 or sheep >= 1", "you have at least 3 rooms or you have at least 4 people or "
     "you have at least 1 sheep"),
    ("unused_spaces == 0", "you have no unused farmyard spaces"),
    ("sheep < 1", "you have no sheep"),
    ("occupations > 0", "you have at least 1 occupation"),
    ("occupations > 2", "you have at least 3 occupations"),
    ("has(#fireplace)", 'you have "Fireplace"'),
    ("has(#cooking)", 'you have "Fireplace" or "Cooking Hearth"'),
    # a quantity that is 1 or 0 compared with a number is a yes or a no, never a count ("no harvest rounds")
    ("harvest_round == 0", "this round does not end with a harvest"),
    ("harvest_round != 0", "this round ends with a harvest"),
    ("harvest_round >= 1", "this round ends with a harvest"),
    ("not harvest_round", "this round does not end with a harvest"),
    ("after_harvest < 1", "it is not the round right after a harvest"),
    # two counts of the player compared, and the verb agreeing with a plural subject
    ("rooms > people", "you have more rooms than people"),
    ("sheep <= cattle", "you have at most as many sheep as cattle"),
    ("food < grain", "you have less food than grain"),
    ("rooms == fields", "you have as many rooms as field tiles"),
    ("actor(rooms) > rooms", "the acting player's rooms are more than your rooms"),
    ("rounds_left >= 3", "the complete rounds left are at least 3"),
    ("round >= 3 + players", "from round 3 plus the number of players"),
    ("players + 1 > rooms", "the number of players plus 1 is more than your rooms"),
])
def test_condition_words(text, words):
    assert _english(text) == words


@pytest.mark.parametrize("rule, words", [
    ("after you build rooms if event_size >= 2: gain (event_size) food",
     "Each time you build at least 1 room, if that was at least 2 rooms: get (the number of rooms built) food."),
    ("after you fence pasture if event_size >= 4: gain 1 sheep",
     "Each time you fence a new pasture, if it covers at least 4 farmyard spaces: get 1 sheep."),
    ("after you use #above_fishing or #round_1: gain 1 food",
     'Each time you use "Forest", "Clay Pit", "Reed Bank" or the round card on round space 1: get 1 food.'),
    ("this card is a field for vegetable", "You sow and harvest this card as you would a field (vegetables only)."),
    ("cost of clay room = 2 clay, 1 wood, 1 reed or the base price", "For clay rooms, you may pay 2 clay, 1 wood "
     "and 1 reed each instead of the usual price."),
    ("sowing of vegetable: +1", "Each field you sow with vegetables (cards that are fields too) gets 1 more "
     "vegetable from the general supply."),
    ("sowing of crops: +2", "Each field you sow (cards that are fields too) gets 2 more of the crop sown on it, "
     "from the general supply."),
    ("any time action: move up to (rooms) grain to this card", "At any time, you may move up to (your rooms) "
     "grain from your supply onto this card."),
    ("on play: may sow 1 field", "When you play this card: you may sow at most 1 field."),
    ("any time: 1 grain -> 3 food (at most 8 times per game) (others may buy 1 grain for 2 food)",
     "At any time, you may exchange: 1 grain → 3 food (at most 8 times in the game) (each time, another player "
     "may buy the 1 grain from you for 2 food instead, and then the exchange gives you nothing: the others are "
     "asked in turn from your left, and of several buyers you choose one)."),
    ("in harvest: 1 reed -> 2 food (at most twice per harvest)",
     "In each harvest, you may exchange: 1 reed → 2 food (at most twice per harvest)."),
    ("on play: renovate to stone for 2 stone", "When you play this card: renovate your house to stone for 2 stone."),
    ("cost of stone renovation: -1 reed", "For renovations to stone, you pay 1 reed less."),
    ("cost of clay rooms = 3 clay, 1 reed", "For clay rooms, you pay only 3 clay and 1 reed each."),
    ("cost of well, #oven: -1 stone", 'For "Well", "Clay Oven" and "Stone Oven", you pay 1 stone less.'),
    ("cost of feeding = 1 food", "For feeding each person, you pay only 1 food each."),
    # the verb agrees with 'any player' also when the event names a material (designer test s5)
    ("after any player renovates to stone: gain 1 clay",
     "Each time any player (you included) renovates to stone: get 1 clay."),
    ("after another player renovates from clay to stone: gain 1 clay",
     "Each time another player renovates from clay to stone: get 1 clay."),
    # a statement after one about another player says 'you' again (Chairman, designer test s5)
    ("before another player uses meeting_place: give 1 food to actor; gain 1 food",
     'Each time before another player uses "Meeting Place": that player gets 1 food from the general supply '
     "and you get 1 food."),
    ("after another player uses forest: give 1 wood to each other player; may pay 1 food to gain 1 clay",
     'Each time another player uses "Forest": every other player gets 1 wood and you may pay 1 food to get 1 clay.'),
    # a scheduled action names rounds, not round spaces ("the rounds of rounds 7" before)
    ("on play: schedule action (gain 1 food) on rounds 7",
     "When you play this card: at the start of round 7 (if still to come), get 1 food."),
    ("on play: schedule action (gain 1 food) on rounds 7, 9",
     "When you play this card: at the start of rounds 7 and 9 (those still to come), get 1 food."),
    ("on play: schedule action (gain 1 food) on rounds 6 to 14",
     "When you play this card: at the start of rounds 6 to 14 (those still to come), get 1 food."),
    # 'build up to N fences' (4.12 UPN), at the rules' price and free
    ("on play: build up to 2 fences",
     "When you play this card: build up to 2 fences (as many as you choose, at least 1) in one fencing action "
     "(fences your cards make free in each fencing action come on top)."),
    ("on play: build up to (rooms) fences free",
     "When you play this card: build as many fences as you choose at no cost, at least 1 and at most your rooms, in "
     "one fencing action (fences your cards make free in each fencing action come on top)."),
    # designer test round 2: the owner's own counts say 'you', the payload a count of goods, and a
    # condition on a group of statements comes first
    ("after you build stables if before(stables) < 2 and stables >= 2: gain 1 cattle",
     "Each time you build stables, if you had at most 1 stable just before it and you have at least 2 stables: "
     "get 1 cattle."),
    ("after another player builds stables if before(stables) < 2: gain 1 food",
     "Each time another player builds stables, if the acting player's stables just before it are less than 2: "
     "get 1 food."),
    ("after you use sheep_market if event_goods(sheep) == 1: gain 1 food",
     'Each time you use "Sheep Market", if it brought exactly 1 sheep: get 1 food.'),
    ("after you use forest if event_goods(building) >= 4: gain 1 food",
     'Each time you use "Forest", if it brought at least 4 building resources: get 1 food.'),
    ("this card is an action space: (gain 2 food; build rooms) if others_min(rooms) > rooms",
     "This card is an action space that you may place a person on; using it: if every other player has more "
     "rooms than you have, get 2 food and build rooms."),
    ("this card is an action space for any player: gain 1 food if others_max(rooms) <= rooms",
     "This card is an action space that any player (you included) may place a person on; using it: get 1 food "
     "if every other player has at most as many rooms as they have."),
    # 'pay <goods> to start player' names the goods paid
    ("at work phase start: pay 2 food, 1 wood to start player",
     "At the start of each work phase (before anyone is placed): give 2 food and 1 wood of yours to the starting "
     "player (nothing when that is you)."),
])
def test_rule_words(rule, words):
    assert _english(rule, "rules") == words


@pytest.mark.parametrize("rule, words", [
    ("on play: choose(gain 1 reed | gain 1 stone); gain 1 food",
     "When you play this card: choose one: get 1 reed or get 1 stone; get 1 food."),
    ("on play: choose(gain 1 reed | (gain 1 food; gain 1 wood))",
     "When you play this card: choose one: get 1 reed; or get 1 food and get 1 wood."),
])
def test_statement_grouping_words(rule, words):
    assert _english(rule, "rules") == words


@pytest.mark.parametrize("word,many", [("field", "fields"), ("family", "families"), ("day", "days"),
                                       ("box", "boxes"), ("begging card", "begging cards"), ("person", "people"),
                                       ("sheep", "sheep"), ("pasture (fenced)", "pastures (fenced)")])
def test_card_texts_and_the_game_log_use_one_plural(word, many):
    """compiler/english.py's plural is the runtime's (runtime/words.py) plus the irregular words of card
    texts: "day" is "days" in both (english.py once said "daies")."""
    from runtime import words
    assert english.plural(word) == many and english.plural(word, 1) == word
    if word not in ("person", "sheep") and " (" not in word:
        assert words.plural(2, word) == f"2 {many}" and words.plural_of(word) == many
