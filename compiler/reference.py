"""The generated reference of the effect language (docs/language.md, section 5).

It is written from the compiler's and the runtime's own tables: the events and their payload
(``runtime.queries.EVENTS``), the quantities and functions (``QUANTITIES``, ``FUNCTIONS``), the verbs and
modifiers (the alternatives of the ``atom`` and ``modifier`` rules of compiler/grammar/effects.lark) and
the modifier targets (``compiler.checker``). Every entry has an example; the examples are ```effects
blocks, so tests/test_language_doc.py checks each one against the revised pack, and
tests/test_language_reference.py fails when the document and the tables differ.

``python -m compiler.reference`` rewrites the section in docs/language.md.
"""
from __future__ import annotations

import ast
import re
import sys
from functools import lru_cache
from pathlib import Path

import runtime
from runtime import queries as Q

from . import checker
from .parser import grammar_text


def _doc(fn) -> str:
    """The docstring of a runtime function, from its source when the function is compiled (make native:
    mypyc keeps no docstrings), so that the reference is the same either way."""
    if fn.__doc__:
        return fn.__doc__.strip()
    return _source_docstrings(fn.__module__).get(fn.__name__, "")


@lru_cache(maxsize=None)
def _source_docstrings(module: str) -> dict:
    """{top-level function name: docstring} of a runtime module, read from its source."""
    path = Path(runtime.__file__).resolve().parent.joinpath(*module.split(".")[1:]).with_suffix(".py")
    if not module.startswith("runtime.") or not path.is_file():
        return {}
    return {node.name: (ast.get_docstring(node, clean=False) or "").strip()
            for node in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(node, ast.FunctionDef)}


BEGIN = "<!-- generated reference: begin (python -m compiler.reference) -->"
END = "<!-- generated reference: end -->"
DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"

# How a trigger names each event, and an example rule that reads its payload.
EVENT_WORDS = {
    "use": "use <space or #tag>", "gain": "gain <good or group>", "build_rooms": "build rooms",
    "renovate": "renovate [from <material>] [to <material>]", "build_stables": "build stables",
    "build_fences": "build fences", "fence_pasture": "fence pasture", "plow": "plow", "sow": "sow",
    "bake": "bake", "family_growth": "family growth", "build_major": "build major", "play_minor": "play minor",
    "build_improvement": "build improvement", "play_occupation": "play occupation",
    "take_start_player": "take start player", "convert": "convert",
    "convert_batch": "convert at one time [with <card or #tag> or …]", "harvest": "harvest",
}
EVENT_EXAMPLES = {
    "use": "after another player uses forest if event_goods(wood) >= 3: gain 1 food",
    "gain": "after you gain building if event_goods(building) >= 2: gain 1 food",
    "build_rooms": "after you build rooms if event_size >= 2: gain 1 reed",
    "renovate": "after you renovate to stone: gain 2 food",
    "build_stables": "after you build stables if before(stables) < 2 and stables >= 2: gain 1 cattle",
    "build_fences": "after another player builds fences: gain 1 wood",
    "fence_pasture": "after you fence pasture if event_size >= 4: gain 2 sheep",
    "plow": "before you plow: gain 1 food",
    "sow": "after you sow: gain (event_goods(vegetable)) food",
    "bake": "after any player bakes: gain (event_size) food",
    "family_growth": "after you family growth if actor(people) >= 4: gain 2 food",
    "build_major": "after another player builds major if event_card(#oven): gain 1 food",
    "play_minor": "before you play minor: may pay 1 food to gain 1 wood",
    "build_improvement": "after any player builds improvement if actor(improvements) > improvements: gain 1 food",
    "play_occupation": "after you play occupation if occupations >= 3: gain 1 grain",
    "take_start_player": "after another player takes start player: for actor (pay 1 food to owner)",
    "convert": "after you convert if event_via(#cooking) and event_paid(vegetable) >= 1: gain 1 food",
    "convert_batch": "after you convert at one time with #cooking: gain (event_size // 2) food",
    "harvest": "after you harvest if event_size >= 3: gain (event_goods(grain)) food",
}
# Examples of verbs and modifiers, by the alias of their grammar alternative.
VERB_EXAMPLES = {
    "gain": "on play: gain 1 wood per room", "pay": "at harvest start: pay 1 food",
    "exchange_now": "on play: exchange 1 wood -> 2 food", "plow": "on play: plow 2 fields",
    "plow_up_to": "on play: plow up to (all_sum(cards(#oven))) fields",
    "spend_up_to": "after you use fishing: spend up to (event_goods(food)) food on (2 food -> 1 sheep; 3 food -> 1 cattle)", "sow": "on play: sow 1 field",
    "bake": "on play: bake", "build_rooms": "on play: build rooms", "build_room": "on play: build room for 2 wood, 1 reed",
    "renovate": "on play: renovate to clay", "build_stables": "any time action (once per round): build stables for 1 wood, 1 food",
    "build_stable": "on play: build stable free", "build_fences": "on play: build fences free",
    "build_fences_up_to": "on play: may build up to 3 fences",
    "fence_spaces": "on play: fence 2 spaces free", "family_growth": "on play: family growth",
    "family_growth_free": "on play: family growth without room", "build_major": "on play: build major",
    "build_pastures": "on play: build pastures",
    "build_improvement": "on play: build improvement", "play_minor": "on play: play minor",
    "play_occupation": "on play: play occupation for 1 food", "take_start_player": "on play: take start player",
    "take_goods": "choose(build room | take the goods)",
    "schedule": "on play: schedule 1 food on next 3 rounds",
    "return_to_space": "after you use forest: may (return 1 wood to the space then gain 2 food)",
    "bonus": "at scoring: bonus rooms // 2", "convert_bonus": "at scoring: convert reed to bonus (2: 1, 4: 2)",
    "give_others": "on play: give 1 food to each other player",
    "give_actor": "after another player uses fishing: give 1 wood to actor",
    "pay_owner": "after another player uses forest: for actor (pay 1 food to owner)",
    "pay_actor": "after another player uses fishing: pay 1 food to actor",
    "take_from_actor": "after another player uses clay_pit: take 1 clay from actor",
    "pay_start_player": "at work phase start if not start_player: pay 1 food to start player",
    "put_on_space": "at work phase start: may put 1 food on an action space",
    "put_on_named_space": "after another player uses fishing: claim (put 2 food on fishing) at returning home",
    "spread_goods": "at work phase start: may spread the wood of forest over clay_pit, reed_bank",
    "mark_space": "on play: mark an action space",
    "lodge_people": "on play: lodge 1 person on this card",
    "reveal_rounds": "at round start if round == 11: reveal the remaining round cards to you",
    "place_first": "at work phase start if not start_player: may pay 1 food to start player to place first",
    "place_more": "on play: schedule action (place 1 more person) on next 1 round",
    "place_less": "at work phase start if round == 14: place 1 person less",
    "place_none": "at work phase start if round == 14: place no people",
    "for_actor": "after another player uses forest: for actor (may pay 1 food to owner to gain 1 clay)",
    "for_each_other": "on play: for each other player (gain 1 grain if rooms > 2)",
    "breed": "at end of round 12: breed boar",
    "schedule_action": "on play: schedule action (may plow 1 field) on rounds +5",
    "for_each_player": "on play: for each player (gain 1 food)",
    "harvest_more": "at field phase: harvest 1 more grain from each field",
    "harvest_fields": "at returning home if not harvest_round: may harvest fields",
    "skip_harvest": "on play: skip the next harvest",
    "sow_goods": "after you harvest: may sow grain with 1 fewer",
    "add_to_sown": "after you sow if event_size == 1: add 2 to each sown field",
    "add_to_fields": "after you use #wish_for_children: add 1 grain to each grain field",
    "take_from_field": "at feeding start: may take 1 grain from a field of another player and give them 2 food",
    "newborn_acts": "in work phase action: pay 1 food to let newborn act",
    "pile": "on play: pile wood, grain, reed on this card",
    "move_crop": "any time action: move 1 crop to an empty field",
    "put_on_card": "at round start: put 1 wood on this card",
    "move_to_card": "any time action: move 1 grain to this card",
    "take_from_card": "in work phase action: take 2 wood from this card",
    "take_pile_top": "after you gain wood if pile_top(wood): take the top of the pile",
    "claim": "after you use #reed_accumulation: claim (take the food of fishing) at returning home",
    "take_from_space": "after you use forest: claim (take the goods of clay_pit) at returning home if not occupied(clay_pit)",
    "take_good_from_space": "at work phase end if not occupied(fishing): take the food of fishing",
    "move_person": "at work phase end: may move your person from grain_seeds to farmland or cultivation",
    "play_this_card": "after another player plays occupation if event_card(#oven): may play this card",
    "draw_cards": "on play: draw 2 occupations",
    "draw_from_card": "at round start: draw 2 from this card",
    "fence_new_stable": "after you build stables: fence the stable just built",
    "play_occupation_random": "instead of you play occupation: may (gain 3 food; play occupation chosen at random)",
    "discard_hand": "on play: discard minors from hand; draw 7 minors",
    "choose": "on play: choose(gain 1 wood | gain 1 clay)", "group": "on play: (gain 1 wood; gain 1 clay)",
}
MODIFIER_EXAMPLES = {
    "cost_delta": "cost of improvement, room, #oven, well: -1 stone", "cost_set": "cost of wood room = 2 wood, 2 reed",
    "cost_delta_limited": "cost of improvement, wood room, stable, fence: -1 wood (once per round)",
    "free_limited": "free stable (the next time)", "free_numbered": "free fence number 3, 6, 9, 12, 15",
    "cost_set_or_base": "cost of clay room = 2 clay, 1 wood, 1 reed or the base price",
    "cost_substitute": "may pay 1 wood instead of 2 clay for rooms",
    "cost_substitute_all": "may pay 1 wood instead of all reed for renovation",
    "free_per_action": "free 3 fences per action", "use_occupied": "may use occupied #wish_for_children",
    "space_fee": "others pay 1 food to owner to use fishing",
    "double_placement": "may place twice if one uses #animal_market", "capacity": "capacity of pasture, animal card: +2 sheep",
    "capacity_less": "capacity of fences: -1",
    "capacity_set": "capacity of stable = 3", "capacity_mixed": "capacity of pasture with stable: mixed",
    "house_holds": "house holds rooms animals", "card_field": "this card is a field for vegetable",
    "card_room": "this card houses 1 person", "card_capacity": "capacity of this card: 2 animals", "card_capacity_any": "capacity of this card: any boar",
    "card_capacity_expr": "capacity of this card: (pastures) cattle",
    "sowing_more": "sowing of vegetable: +1", "breeding_more": "breeding of sheep: +1",
    "card_space": "this card is an action space for any player: pay 2 food to owner to take the goods",
    "as_minor": "well is a minor for you", "counts_as_tag": "this card counts as #oven",
    "counts_as_occupations": "this card counts as 2 occupations",
    "counts_as_major": "this card counts as a major improvement too",
    "allow_rule": "allow renovate_skip",
    "forbid_rule": "forbid renovation",
    "score_delta": "score of pastures, fields: +1", "score_floor": "score of sheep, boar, cattle >= 0",
    "ignore_begging": "ignore 2 begging",
    "feed_last": "feed last", "harvest_from_supply": "harvest vegetable from the supply",
    "sowing_near_rooms": "sowing of grain next to rooms: +2", "card_fields": "this card is 2 fields for grain",
}
# What the grammar allows but the checker narrows, said beside the verb (docs/language.md 1.8).
VERB_NOTES = {"renovate": "`for <goods>` / `free`: this renovation at that price (4.13); with `to <material>` "
                           "from any earlier material",
              "build_fences": "`free` or nothing: `for <goods>` is refused (E212), the fences cost what the rules "
                              "say; `fence <n> spaces for <goods>` pays a price instead",
              "fence_new_stable": "in an 'after you build stables' rule: the space of a stable it built becomes a "
                                  "pasture of its own, the fences free (a fencing action: 'build fences' fires)",
              "build_fences_up_to": "one fencing action of at most N fences (N worked out when it runs), the free "
                                    "fences per action of modifiers on top; `free` or nothing (4.12 UPN)",
              "schedule_action": "`with N fences set aside`: up to N of the owner's unbuilt fences lie on each of "
                                 "those round spaces, the earlier first, until the round starts; no other fencing "
                                 "builds them, `set_aside(fences)` in the action counts them (4.3)",
              "spend_up_to": "the exchanges, in any mix and as often as the player likes, while the good given "
                             "stays within N (only that good is given; 4.12 UPN)"}
# Verbs that belong to an action space's effect or to a card file: their examples are shown, not checked
# as rules here (the action spaces and the card examples of the guide check them).
IN_CONTEXT = {"take_goods": "in an action space's effect", "pile": "in a card's rules", "put_on_card": "in a card's rules",
              "lodge_people": "in a card's rules",
              "move_to_card": "in a card's rules", "take_from_card": "in a card's rules",
              "take_pile_top": "in the rules of a card with a pile",
              "draw_from_card": "in a card's rules",
              "card_capacity": "in a card's rules", "card_capacity_any": "in a card's rules: any number of one kind",
              "card_capacity_expr": "in a card's rules: as many as the expression gives, worked out when animals are kept", "card_space": "in a card's rules",
              "counts_as_occupations": "in an occupation's rules", "play_this_card": "in an occupation's rules", "counts_as_major": "in a minor improvement's rules"}
# Functions about the card whose rule it is ('this', the goods on it): only in a card's rules.
CARD_RULES_ONLY = {"occupations_after", "stored", "drawn", "round_played", "pile_top"}
# Examples of functions whose generic example would not fit.
FUNCTION_EXAMPLES = {
    "occupations_after": "at scoring: bonus occupations_after(this)",  # 'this': in a card's rules
    "round_played": "at scoring if round_played(this) <= 11 and rooms > people: bonus 4",
    "room_for": "on play: may gain 1 sheep if room_for(sheep)",
    "owner": "on play: for each player (gain 1 food if rooms < owner(rooms))",
    "event_goods": "after you use forest if event_goods(wood) >= 4: gain 1 food",
    "event_card": "after you play minor if event_card(#oven): gain 1 food",
    "event_paid": "after you convert if event_paid(sheep) >= 1: gain 1 food",
    "event_via": "after you convert if event_via(#cooking): gain 1 food",
    "during": "after you convert if during(feeding) and event_paid(animals) >= 1: gain 1 food",
    "event_space": "after you gain wood if event_space(#wood_accumulation): gain 1 food",
    "space_goods": "after you use forest if space_goods(fishing, food) >= 3: gain 1 food",
    "actor": "after another player uses forest if actor(rooms) > rooms: gain 1 food",
    "before": "after you build rooms if before(rooms) == 2: gain 1 food",
    "score": "at scoring: bonus tier(score(fields); 4: 1)",
    "set_aside": "on play: schedule action (may pay 2 food to build up to (set_aside(fences)) fences free) on "
                 "rounds +6, +10 with 4 fences set aside",
}
# Examples of the history counters (in a card's rules: tests/test_language_reference.py checks them so).
HISTORY_EXAMPLES = {
    "done": "at scoring: bonus 2 if done(renovate to stone, game) >= 1",
    "done_by_any": "after you renovate to clay: gain tier(done_by_any(renovate to clay, game); 1: 3, 2: 2, 3: 1, 4: 0) stone",
    "done_since": "at scoring: bonus done_since(use fishing, this)",
    "gained": "at round start if gained(wood, game) >= 10: gain 1 food",
    "first": "after another player uses #reed_accumulation if first(use #reed_accumulation, round): gain 1 food",
}
_ARG_SAMPLES = {"space": "fishing", "card": "#oven", "number": "2", "player_value": "rooms", "goods": "wood",
                "space_or_tag": "#wood_accumulation", "category": "fields", "source": "#oven", "phase": "feeding",
                "animal": "sheep", "piece": "fences"}


def _alternatives(rule: str) -> list[tuple[str, str]]:
    """The alternatives of a grammar rule: (pattern as written, alias)."""
    text = grammar_text()
    m = re.search(rf"^{rule}:(.*?)(?=^\S|\Z)", text, re.S | re.M)
    out = []
    for line in m.group(1).split("\n"):
        line = line.split("//")[0].strip().lstrip("|").strip()
        if "->" not in line:
            continue
        pattern, alias = (x.strip() for x in line.rsplit("->", 1))
        out.append((_pattern_words(pattern), alias))
    return out


_PLACEHOLDERS = {"goods_x": "<goods>", "goods": "<goods>", "price": "[for <goods> | free]", "round_spec": "<rounds>",
                 "seq": "<statements>", "cond": "<condition>", "tier_entries": "<tiers>", "expr": "<expression>",
                 "targets": "<targets>", "categories": "<categories>", "claim_phase": "<moment>", "spaces": "<spaces>", "signed_goods": "<changes>", "space_ref": "<space or #tag>", "INT": "<n>",
                 "NAME": "<name>", "OFFSET": "<+n>", "CMP": ">=",
                 "hand_kind": "minors/occupations"}


def _pattern_words(pattern: str) -> str:
    """A grammar alternative as a reader writes it: ``plow [<n>] field/fields``, ``renovate [to <name>]``."""
    tokens = re.findall(r'"[^"]*"|\(|\)\??|\||[A-Za-z_]+\??', pattern)
    out, stack = [], []
    for tok in tokens:
        if tok == "(":
            stack.append(out)
            out = []
        elif tok.startswith(")"):
            inner = " ".join(out).replace(" | ", "/")
            out = stack.pop()
            out.append(f"[{inner}]" if tok.endswith("?") else inner)
        elif tok == "|":
            out.append("|")
        elif tok.startswith('"'):
            out.append(tok.strip('"'))
        else:
            word = _PLACEHOLDERS.get(tok.rstrip("?"), f"<{tok.rstrip('?')}>")
            out.append(f"[{word}]" if tok.endswith("?") and not word.startswith("[") else word)
    return " ".join(out)


def _row(*cells) -> str:
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"


def _examples(lines) -> list[str]:
    return ["", "```effects", *lines, "```", ""]


def language_reference() -> str:
    """The generated section, between its markers."""
    out = [BEGIN, "", "## 5. Generated reference", "",
           "Written from the compiler's tables by `python -m compiler.reference`; "
           "tests/test_language_reference.py fails when this section and the tables differ, and every "
           "example below is checked against the revised pack like the other examples of this guide.", ""]
    out += ["### 5.1 Events", "",
            "Every event has its actor (`actor(…)`) and the actor's state just before it (`before(…)`); "
            "the other payload fields are listed. `before` rules exist for every event but "
            + ", ".join(f"`{checker.event_name(e)}`" for e in sorted(set(Q.EVENTS) - checker.EVENTS_WITH_BEFORE)) + ".", "",
            _row("event", "happens when", "`event_size`", "`event_goods`", "`event_card`", "`event_paid`",
                 "`event_via`"), "|---|---|---|---|---|---|---|"]
    for name, fields in Q.EVENTS.items():
        out.append(_row(f"`{EVENT_WORDS[name]}`", fields["what"], *(fields.get(k, "—") for k in (
            "size", "goods", "card", "paid", "via"))))
    out += _examples(EVENT_EXAMPLES[name] for name in Q.EVENTS)
    out += ["### 5.2 Quantities", "", _row("quantity", "meaning"), "|---|---|"]
    for name, fn in Q.QUANTITIES.items():
        out.append(_row(f"`{name}`", _doc(fn)))
    for name, fn in Q.CONTEXT_QUANTITIES.items():
        out.append(_row(f"`{name}`", _doc(fn) + " (in a rule that reacts to an event)"))
    for name, fn in Q.OWNER_QUANTITIES.items():
        out.append(_row(f"`{name}`", _doc(fn) + " (in a body run for another player: 'for "
                        "actor (…)', 'for each … player (…)', a card that is an action space)"))
    aliases = ", ".join(f"`{a}`" for a in Q.ALIASES)
    out += ["", f"Singular forms: {aliases}.", ""]
    out += _examples(f"on play if {name} >= 1: gain 1 food" for name in Q.QUANTITIES)
    out += ["### 5.3 Functions", "", _row("function", "arguments", "value"), "|---|---|---|"]
    examples = []
    for name, (fn, kinds) in Q.FUNCTIONS.items():
        call = f"{name}({', '.join(_ARG_SAMPLES[k] for k in kinds)})"
        example = FUNCTION_EXAMPLES.get(name, f"on play if {call} >= 1: gain 1 food")
        doc = _doc(fn)
        if name in CARD_RULES_ONLY:  # about the card whose rule it is: shown here, checked with the card examples
            doc += f" (in a card's rules: `{example}`)"
        else:
            examples.append(example)
        out.append(_row(f"`{name}`", ", ".join(kinds), doc))
    out += ["", "Argument kinds: `space` an action space id, `card` a card id or `#tag`, `number` an expression, "
            "`player_value` any expression or condition (worked out for each player), `goods` a good or one of "
            + ", ".join(f"`{g}`" for g in Q.GOOD_GROUPS) + ", `space_or_tag` an action space id or `#tag`, `category` the id of a scoring category of the "
            "pack's game.yaml (`fields`, `sheep`, `begging`, …)."]
    out += _examples(examples)
    out += ["### 5.4 Verbs", "", _row("statement", "grammar name", "note"), "|---|---|---|"]
    verbs = _alternatives("atom")
    for pattern, alias in verbs:
        note = f"{IN_CONTEXT[alias]}: `{VERB_EXAMPLES[alias]}`" if alias in IN_CONTEXT else VERB_NOTES.get(alias, "")
        out.append(_row(f"`{pattern}`", alias, note))
    out += _examples(VERB_EXAMPLES[alias] for _, alias in verbs if alias not in IN_CONTEXT)
    out += ["### 5.5 Modifiers and their targets", "", _row("modifier", "grammar name", "note"), "|---|---|---|"]
    mods = _alternatives("modifier")
    for pattern, alias in mods:
        note = f"{IN_CONTEXT[alias]}: `{MODIFIER_EXAMPLES[alias]}`" if alias in IN_CONTEXT else ""
        out.append(_row(f"`{pattern}`", alias, note))
    out += ["", "Cost targets: " + ", ".join(f"`{t}`" for t in sorted(checker.COST_TARGETS))
            + " (singular or plural; a house material in front narrows it; `newborn feeding` the food of a "
            "newborn, `feeding beyond N` the food of each grown person after the first N), a card id (that card's price) and a card `#tag` (the price of every card with it). "
            "Capacity targets: "
            + ", ".join(f"`{checker.CAPACITY_WORDS.get(t, t)}`" for t in sorted(checker.CAPACITY_TARGETS))
            + " (`stable`: an unfenced stable; `one stable`: one unfenced stable of the player's, which the "
            "changes of `stable` skip; `animal card`: each place of a card that holds animals; `family`, `fences`, "
            "`stables`: the most a player may have; `+N <animal>`: N more of that kind in a place that holds it). "
            "Rule switches: "
            + "; ".join(f"`{k}` " + ", ".join(f"`{w}`" for w in sorted(v)) for k, v in checker.RULE_SWITCHES.items())
            + "."]
    out += _examples(MODIFIER_EXAMPLES[alias] for _, alias in mods if alias not in IN_CONTEXT)
    out += ["### 5.6 History counters", "",
            "In a card's rules only (docs/language.md 4.7): `<event>` as a trigger names it (`use` alone: any action "
            "space), `<period>` one of " + ", ".join(f"`{x}`" for x in Q.HISTORY_PERIODS) + ".", "",
            _row("counter", "arguments", "value", "example"), "|---|---|---|---|"]
    for name, (fn, arguments) in Q.HISTORY.items():
        out.append(_row(f"`{name}`", f"`{arguments}`", _doc(fn), f"`{HISTORY_EXAMPLES[name]}`"))
    out.append("")
    out.append(END)
    return "\n".join(out) + "\n"


def missing_examples() -> list[str]:
    """Table entries that have no example (the reference needs one for each)."""
    missing = [f"event {e}" for e in Q.EVENTS if e not in EVENT_EXAMPLES or e not in EVENT_WORDS]
    missing += [f"verb {a}" for _, a in _alternatives("atom") if a not in VERB_EXAMPLES]
    missing += [f"modifier {a}" for _, a in _alternatives("modifier") if a not in MODIFIER_EXAMPLES]
    missing += [f"history counter {h}" for h in Q.HISTORY if h not in HISTORY_EXAMPLES]
    missing += [f"argument kind {k}" for _, kinds in Q.FUNCTIONS.values() for k in kinds if k not in _ARG_SAMPLES]
    return missing


def current_section(doc_text: str) -> str | None:
    """The generated section as it stands in the document (markers included), or None."""
    if BEGIN not in doc_text or END not in doc_text:
        return None
    start = doc_text.index(BEGIN)
    return doc_text[start:doc_text.index(END, start) + len(END)] + "\n"


def write(doc: Path = DOC) -> bool:
    """Put the generated section into the document (at its end the first time); True if it changed."""
    text = doc.read_text(encoding="utf-8")
    new = language_reference()
    old = current_section(text)
    if old == new:
        return False
    text = text.replace(old, new) if old is not None else text.rstrip("\n") + "\n\n" + new
    doc.write_text(text, encoding="utf-8")
    return True


if __name__ == "__main__":
    changed = write()
    print(f"{DOC}: {'updated' if changed else 'unchanged'}")
    sys.exit(0)
