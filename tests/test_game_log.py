"""The main job: `agricola play` shows a readable game between competent agents.

The log has a header (pack, seed, players, start player, start goods); every payment, exchange, cooking
and baking is a line (checked by re-adding every player's goods from the log alone); spaces of the same
name are told apart; plurals are real; each farmyard is drawn at the end; bonus points say where they
came from; a solo game shows its target."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler import cli
from runtime.agents import GreedyAgent, RandomAgent
from runtime.engine import Game
from runtime.report import farmyard, header, score_table

ROOT = Path(__file__).resolve().parent.parent


def _game(pack, n, seed, kinds):
    agents = [GreedyAgent(i) if k == "greedy" else RandomAgent(f"{seed}:{i}") for i, k in enumerate(kinds)]
    return Game(pack, n, seed=seed, agents=agents, log=True)


# ---------------------------------------------------------------- the ledger: goods from the log alone

def _parse_goods(text, words):
    out = {}
    if text == "nothing":
        return out
    for part in text.split(", "):
        m = re.fullmatch(r"(\d+) (.+)", part.strip())
        assert m, f"not goods: {part!r} in {text!r}"
        n, word = int(m.group(1)), m.group(2)
        good = words.get(word)
        assert good is not None, f"unknown good word {word!r} in {text!r}"
        out[good] = out.get(good, 0) + n
    return out


G = r"(nothing|\d+ [a-z][a-z ]*(?:, \d+ [a-z][a-z ]*)*)"   # goods in words
SRC = r"(?: \((?:[^()]|\([^()]*\))*\))*$"                 # where it came from: " (<card>)", if said
PATTERNS = [
    (re.compile(r"(P\d) → .*? \(takes " + G + r"\)$"), "+1"),
    (re.compile(r"(P\d) gets \d+ bonus points?" + SRC), None),
    (re.compile(r"(P\d) gets " + G + SRC), "+1"),
    (re.compile(r"(P\d) pays " + G + SRC), "-1"),
    (re.compile(r"(P\d) (?:cooks|turns|bakes) " + G + " into " + G + SRC), "-1+2"),
    (re.compile(r"(P\d) feeds the family \(" + G + r"\)" + SRC), "-1"),
    (re.compile(r"(P\d) feeds the family with (\d+) of \d+ food and takes \d+ begging cards?" + SRC), "food"),
    (re.compile(r"(P\d) has no room for " + G + " and cooks them into " + G + SRC), "-1+2"),
    (re.compile(r"(P\d) has no room for " + G + "; they return to the supply" + SRC), "-1"),
    (re.compile(r"(P\d)'s animals breed: (\+\d+ [a-z ]+(?:, \+\d+ [a-z ]+)*)" + SRC), "breed"),
    (re.compile(r"(P\d) sows (.+?)" + SRC), "sow"),
]


def ledger(lines, game):
    """Every player's goods, re-added from the header's start goods and the log lines only."""
    words = {}
    for good, (one, many) in game.rules.good_words.items():
        words[one] = words[many] = good
    goods = {}
    start = next(line for line in lines if line.startswith("Start goods: "))
    for part in start[len("Start goods: "):].split("; "):
        name, text = part.split(" ", 1)
        goods[name] = _parse_goods(text, words)

    def add(name, items, sign):
        for good, n in items.items():
            goods[name][good] = goods[name].get(good, 0) + sign * n

    for line in lines:
        text = line.strip()
        for pattern, how in PATTERNS:
            m = pattern.match(text)
            if not m:
                continue
            who = m.group(1)
            if how == "+1":
                add(who, _parse_goods(m.group(2), words), +1)
            elif how == "-1":
                add(who, _parse_goods(m.group(2), words), -1)
            elif how == "-1+2":
                add(who, _parse_goods(m.group(2), words), -1)
                add(who, _parse_goods(m.group(3), words), +1)
            elif how == "food":
                add(who, {"food": int(m.group(2))}, -1)
            elif how == "breed":
                add(who, _parse_goods(m.group(2).replace("+", ""), words), +1)
            elif how == "sow":
                for n, crop in re.findall(r"(\d+) (grain|vegetable) fields?", m.group(2)):
                    add(who, {crop: int(n)}, -1)
            break
    return {name: {g: n for g, n in d.items() if n} for name, d in goods.items()}


@pytest.mark.parametrize("pack_name,n,seed,kinds", [
    ("revised", 4, 1, ["greedy"] * 4),
    ("revised", 3, 2, ["greedy", "random", "greedy"]),
    ("revised", 2, 5, ["random", "random"]),
    ("revised-family", 4, 1, ["greedy"] * 4),
    ("revised", 1, 3, ["greedy"]),
])
def test_every_change_of_goods_is_in_the_log(request, pack_name, n, seed, kinds):
    pack = request.getfixturevalue("family" if pack_name == "revised-family" else "revised")
    game = _game(pack, n, seed, kinds)
    top = header(game, kinds)
    game.play()
    lines = top.splitlines() + game.log
    want = {p.name: {g: k for g, k in p.goods.items() if k} for p in game.players}
    assert ledger(lines, game) == want


# ---------------------------------------------------------------- the header and the lines

def test_header_names_pack_seed_players_start_player_and_start_goods(family):
    game = _game(family, 3, 7, ["greedy", "random", "greedy"])
    first = game.players[game.start_player].name
    lines = header(game, ["greedy", "random", "greedy"]).splitlines()
    assert lines[0] == "Agricola (revised edition), family game without hand cards (pack revised-family)"
    assert lines[1] == f"Seed 7; 3 players: P1 greedy, P2 random, P3 greedy; start player {first}"
    others = [p.name for p in game.players if p.name != first]
    assert lines[2].startswith("Start goods: P1 ")
    assert f"{first} 2 food" in lines[2] and all(f"{o} 3 food" in lines[2] for o in others)
    game.play()
    first_placement = next(line for line in game.log if "→" in line)
    assert first_placement.strip().startswith(f"{first} → ")


def test_spaces_of_the_same_name_are_told_apart_by_their_ids(revised):
    game = _game(revised, 4, 1, ["greedy"] * 4)
    same = {}
    for d in revised.spaces:
        if 4 in d.players:
            same.setdefault(d.name, []).append(d.id)
    twins = {name: ids for name, ids in same.items() if len(ids) > 1}
    assert twins, "the revised 4-player board has two spaces of one name"
    game.play()
    placed = [line.strip() for line in game.log if "→" in line]
    for name, ids in twins.items():
        assert not any(re.search(rf"→ {re.escape(name)}( \(|$)", line) for line in placed), \
            f"'{name}' is ambiguous in the log"
    used = {m.group(1) for line in placed for m in [re.search(r"→ .*? \[(\w+)\]", line)] if m}
    assert used & set(sum(twins.values(), [])), "the game used one of the twin spaces"


def test_a_name_used_once_has_no_id(family):
    game = _game(family, 2, 1, ["greedy"] * 2)
    game.play()
    assert not any("[" in line for line in game.log if "→" in line)


def test_farmyard_drawing(family):
    game = Game(family, 1, seed=1, agents=[RandomAgent(0)])
    p = game.players[0]
    gr = p.grid
    from runtime import primitives as P
    p.fields[gr.index("A1")] = ["grain", 3]
    p.fields[gr.index("A2")] = [None, 0]
    p.field_mask |= 1 << gr.index("A1") | 1 << gr.index("A2")
    p.pastures = (1 << gr.index("B4") | 1 << gr.index("B5"),)
    p.fences = gr.boundary(p.pastures[0])
    p.stables = 1 << gr.index("B5") | 1 << gr.index("C3")
    p.goods["sheep"] = 3
    assert P.animals_fit(game, p)
    assert farmyard(game, p) == "\n".join([
        "        1         2         3         4         5",
        "",
        " A   3 grain    field       .         .         .",
        "                                 +---------+---------+",
        " B     wood       .         .    |            stable |",
        "                                 +---------+---------+",
        " C     wood       .       stable      .         .",
        "",
        "   wood house with 2 rooms; family of 2; 1 pasture, 2 stables",
        "   animals: 3 sheep; supply: nothing",
    ])


def test_farmyard_lists_the_fields_on_cards(revised):
    """A card that is a field is no farmyard space: under the drawing, each such field (the last made first)
    with the name of its card ('card' when it is not known) and its crop, or 'empty' when nothing is sown."""
    from runtime import primitives as P
    game = Game(revised, 1, seed=1, agents=[RandomAgent(0)])
    p = game.players[0]
    cid = sorted(revised.cards)[0]
    P.add_card_field(game, p, cid, ("grain",), stacks=2)
    P.add_card_field(game, p, None, None)
    p.fields[-1] = ["grain", 2]
    name = revised.cards[cid].name
    assert farmyard(game, p).split("\n")[-1] == f"   fields on cards: card (empty), {name} (empty), {name} (2 grain)"


def test_bonus_points_say_where_they_came_from(revised):
    from runtime import primitives as P
    game = Game(revised, 2, seed=1, agents=[RandomAgent(0), RandomAgent(1)])
    p = game.players[0]
    cards = sorted(revised.cards)
    P.bonus(game, p, 2, None, cards[0])
    P.bonus(game, p, 1, None, cards[1])
    P.bonus(game, p, 1, None, cards[0])
    game.finish()
    table = score_table(game)
    first, second = revised.cards[cards[0]].name, revised.cards[cards[1]].name
    assert f"\nBonus points of P1: 3 from {first}, 1 from {second}\n" in table
    assert "Bonus points of P2" not in table


def test_bonus_points_of_the_rules_and_from_elsewhere_are_named_so(revised):
    """Bonus points of no card come 'from the rules'; points the tally does not explain come 'from
    elsewhere' (last); the cards and the rules are ordered by points, most first."""
    from runtime import primitives as P
    game = Game(revised, 2, seed=1, agents=[RandomAgent(0), RandomAgent(1)])
    p = game.players[0]
    cid = sorted(revised.cards)[0]
    P.bonus(game, p, 1, None, cid)
    P.bonus(game, p, 2, None, None)
    p.bonus += 3
    game.finish()
    name = revised.cards[cid].name
    assert f"\nBonus points of P1: 2 from the rules, 1 from {name}, 3 from elsewhere\n" in score_table(game)


def test_solo_game_shows_its_target(family):
    game = Game(family, 1, seed=1, agents=[GreedyAgent(0)])
    game.play()
    total = game.scores[0]["total"]
    last = score_table(game).splitlines()[-1]
    assert "Winner" not in score_table(game)
    target = family.rules.solo_target
    assert target == 50
    if total >= target:
        assert last == f"Target 50 points: reached with {total}"
    else:
        assert last == f"Target 50 points: not reached ({total}, {50 - total} short)"


def test_begging_line_has_a_real_plural(family):
    game = Game(family, 2, seed=3, agents=[RandomAgent(0), RandomAgent(1)], log=True)
    game.play()
    begging = [line for line in game.log if "begging card" in line]
    assert begging, "random agents beg"
    for line in begging:
        n = int(re.search(r"takes (\d+) begging card", line).group(1))
        assert line.endswith(f"takes {n} begging card" + ("" if n == 1 else "s")), line


# ---------------------------------------------------------------- agricola play --agents

def test_play_prints_header_log_farmyards_and_scores(capsys):
    assert cli.main(["play", "--pack", "revised-family", "--players", "2", "--seed", "3",
                     "--agents", "greedy,random"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Agricola (revised edition), family game without hand cards (pack revised-family)"
    assert lines[1].startswith("Seed 3; 2 players: P1 greedy, P2 random; start player P")
    assert "\nFarmyard of P1\n" in out and "\nFarmyard of P2\n" in out
    assert "\nFinal scores\n" in out and re.search(r"\n(Winner|Shared win): P\d", out)
    assert "(s)" not in out


@pytest.mark.parametrize("agents,message", [
    ("gredy", "error: --agents: unknown agent kind 'gredy' (did you mean 'greedy'?); the kinds are random, greedy, search, human\n"),
    ("greedy,random", "error: --agents names 2 agents for 3 players: give one kind per player, or one kind for all\n"),
    ("greedy,,random", "error: --agents: unknown agent kind ''; the kinds are random, greedy, search, human\n"),
])
def test_bad_agents_are_refused(capsys, agents, message):
    assert cli.main(["play", "--players", "3", "--agents", agents]) == 2
    assert capsys.readouterr().err == message


def test_agents_are_saved_and_resumed(tmp_path, capsys):
    import json
    save = tmp_path / "g.json"
    assert cli.main(["play", "--players", "2", "--seed", "2", "--agents", "random,greedy", "--json",
                     "--save", str(save)]) == 0
    expected = capsys.readouterr().out
    doc = json.loads(save.read_text())
    assert [a["kind"] for a in doc["agents"]] == ["random", "greedy"]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(dict(doc, decisions=doc["decisions"][:40], finished=False, final=None)))
    assert cli.main(["resume", str(cut), "--json"]) == 0
    assert capsys.readouterr().out == expected


# ---------------------------------------------------------------- make run

def _make_run_play_args():
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if "agricola play" in line)
    return line.split("agricola", 1)[1].split()


def test_make_run_shows_competent_agents_whose_winner_scores_at_least_20(capsys):
    args = _make_run_play_args()
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    totals = [int(x) for x in re.search(r"\nTotal +([-\d ]+)\n", out).group(1).split()]
    assert max(totals) >= 20, out[-1500:]
    assert re.search(r"; \d+ players: P1 greedy", out)
    assert "begging card" not in out.split("Final scores")[0] or max(totals) >= 20



def _cards_scheduling_on_play(pack, verb):
    """The cards (majors and hand cards) whose on-play effect calls ``verb`` of the runtime, found in
    their generated modules (tests name no hand card)."""
    import inspect
    return sorted((card for card in pack.all_cards.values()
                   if any(f"P.{verb}(" in inspect.getsource(inspect.getmodule(fn)) for fn in card.on_play)),
                  key=lambda card: card.id)


@pytest.mark.parametrize("verb", ["schedule", "schedule_action"])
def test_goods_and_actions_a_card_lays_on_round_spaces_name_the_card_when_taken(revised, verb):
    """'schedule' (the Well, hand cards) and 'schedule action': the line that promises the goods or the
    action, and each line written when they are taken, name the card ("P1 gets 1 food (Well)")."""
    checked = 0
    for card in _cards_scheduling_on_play(revised, verb):
        game = Game(revised, 2, seed=1, agents=[RandomAgent(0), RandomAgent(1)], log=True)
        game.round = 3
        p = game.players[0]
        start = len(game.log)
        game.acquire_card(p, card)
        rounds = sorted(r for r, entries in game.schedule.items() for pi, _what, source in entries
                        if source == card.id)
        if not rounds:
            continue      # its schedule has a condition the empty farm does not meet
        checked += 1
        promise = [line.strip() for line in game.log[start:] if " will " in line]
        assert promise and promise[-1].startswith("P1 will ") and promise[-1].endswith(f" ({card.name})"), promise
        assert promise[-1].endswith(
            ("in round " if len(rounds) == 1 else "in rounds ") + ", ".join(map(str, rounds)) + f" ({card.name})")
        if verb == "schedule":
            assert "will get 1 boar" not in promise[-1]          # goods in the pack's words ("1 wild boar")
            for r in rounds:
                start = len(game.log)
                game.collect_scheduled(r)
                given = [line.strip() for line in game.log[start:]]
                # what arrives first, then what follows from it (animals without room go back)
                assert given[0].startswith("P1 gets ") and given[0].endswith(f" ({card.name})"), given
                assert all(line.startswith("P1 has no room for ") for line in given[1:]), given
    assert checked >= (3 if verb == "schedule" else 1)


def test_adding_to_each_grain_field_says_how_many_fields_got_more(revised):
    """'add N <good> to each <good> field': one line with the number of fields that got more
    (the empty field and the vegetable field get nothing), and the verb reports that it did something."""
    from runtime import primitives as P
    game = Game(revised, 2, seed=1, agents=[RandomAgent(0), RandomAgent(1)], log=True)
    p = game.players[0]
    p.fields.update({0: ["grain", 2], 1: ["grain", 1], 2: ["vegetable", 2], 3: [None, 0]})
    start = len(game.log)
    assert P.add_to_fields(game, p, None, 1, "grain") is True
    assert [line.strip() for line in game.log[start:]] == ["P1 puts 1 more on each of 2 fields"]
    assert p.fields == {0: ["grain", 3], 1: ["grain", 2], 2: ["vegetable", 2], 3: [None, 0]}


def test_goods_put_moved_to_and_taken_from_a_card_say_so(revised):
    """The three lines of goods on a card: put there from the supply, moved there from the player's
    supply, taken from it."""
    from runtime import primitives as P
    game = Game(revised, 2, seed=1, agents=[RandomAgent(0), RandomAgent(1)], log=True)
    p = game.players[0]
    p.goods["wood"] = 3
    start = len(game.log)
    assert P.put_on_card(game, p, "well", (("wood", 2),))
    assert P.move_to_card(game, p, "well", (("wood", 1),))
    assert P.take_from_card(game, p, "well", (("wood", 3),))
    assert [line.strip() for line in game.log[start:]] == [
        "P1 puts 2 wood on Well", "P1 moves 1 wood to Well", "P1 takes 3 wood from Well"]
    assert p.goods["wood"] == 5


def test_a_line_naming_its_card_inside_another_cards_effect_names_only_its_own(revised):
    """A line that already names the card it comes from keeps that name alone when a card effect around
    it names the lines it wrote; the effect's other lines get the effect's card."""
    from runtime import gamelog
    game = Game(revised, 2, seed=1, agents=[RandomAgent(0), RandomAgent(1)], log=True)
    p = game.players[0]

    def effect(g, who, ctx):
        gamelog.paid(g, who, (("wood", 1),))
        gamelog.gained(g, who, (("food", 2),), "well")
        return True
    start = len(game.log)
    assert gamelog.from_card(game, "joinery", effect, p, None) is True
    assert [line.strip() for line in game.log[start:]] == ["P1 pays 1 wood (Joinery)", "P1 gets 2 food (Well)"]
