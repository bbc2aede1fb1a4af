"""The pre-game phase of the draft and hand-rule packs (runtime/pregame.py, docs/variants.md): every
decision is a request answered through the request API (Game.run, pending, answer), as a person would."""
from __future__ import annotations

import shutil
from pathlib import Path

from compiler import cli
from runtime.agents import RandomAgent
from runtime.engine import Game

ROOT = Path(__file__).resolve().parent.parent


def held_open(pack, n, seed=1):
    g = Game(pack, n, seed=seed, agents=[None] * n)
    return g, g.run()


def answer_first(g, req, times=1):
    for _ in range(times):
        req = g.answer(0)
    return req


def test_a_draft_round_passes_the_rest_of_each_packet_to_the_left(pack_loader):
    g, req = held_open(pack_loader("revised-draft"), 3)
    packets = {}
    for _ in range(3):                      # the first pick: one request for each player, in turn order
        assert req.kind == "draft" and len(req.options) == 7
        packets[req.seat] = list(req.options)
        kept = req.options[2]
        packets[req.seat].remove(kept)
        req = g.answer(2)
        assert kept in g.players[list(packets)[-1]].hand_occupations
    for _ in range(3):                      # the second pick: each player holds the packet of the right
        right = (req.seat - 1) % 3
        assert req.kind == "draft" and list(req.options) == packets[right], (req.seat, right)
        req = g.answer(0)
    while req.kind == "draft":
        req = g.answer(0)
    for p in g.players:
        assert len(p.hand_occupations) == 7 and len(p.hand_minors) == 7
    hands = [c for p in g.players for c in p.hand_occupations + p.hand_minors]
    assert len(set(hands)) == len(hands)    # every card in one hand only
    assert req.kind == "place"


def test_a_draft_to_the_right_passes_the_other_way(pack_loader, tmp_path):
    g, req = held_open(pack_loader("revised-draft"), 3)
    first = {}
    for _ in range(3):
        first[req.seat] = [o for o in req.options[1:]]
        req = g.answer(0)
    assert list(req.options) == first[(req.seat - 1) % 3]


def test_the_simultaneous_draft_keeps_one_of_each_kind_at_each_pick(pack_loader):
    g, req = held_open(pack_loader("revised-draft-together"), 2)
    kinds = []
    for _ in range(4):
        card = g.pack.cards[req.options[0]]
        kinds.append((req.seat, card.kind))
        req = g.answer(0)
    start = g.start_player
    other = 1 - start
    assert kinds == [(start, "occupation"), (start, "minor"), (other, "occupation"), (other, "minor")]


def test_the_eight_card_draft_removes_the_last_card_of_each_kind(pack_loader):
    g, req = held_open(pack_loader("revised-draft-8"), 2)
    assert len(req.options) == 8
    draft_requests = 0
    while req.kind == "draft":
        draft_requests += 1
        req = g.answer(0)
    assert draft_requests == 2 * 2 * 7      # 2 players, 2 kinds, 7 picks
    for p in g.players:
        assert len(p.hand_occupations) == 7 and len(p.hand_minors) == 7


def test_the_quick_draft_keeps_three_then_two_and_the_last_two_come_with_the_pass(pack_loader):
    g, req = held_open(pack_loader("revised-draft-quick"), 2)
    sizes = []
    while req.kind == "draft":
        sizes.append(len(req.options))
        req = g.answer(0)
    # each player: 3 picks of 7, 6, 5 occupations, then 3 of the minors; then 2 of the 4 passed to them
    assert sizes == [7, 6, 5] * 2 * 2 + [4, 3] * 2 * 2
    for p in g.players:
        assert len(p.hand_occupations) == 7 and len(p.hand_minors) == 7


def test_deal_ten_keep_seven(pack_loader):
    g, req = held_open(pack_loader("revised-deal-10-keep-7"), 2)
    assert len(req.options) == 10
    while req.kind == "draft":
        req = g.answer(len(req.options) - 1)
    for p in g.players:
        assert len(p.hand_occupations) == 7 and len(p.hand_minors) == 7


def test_redrawing_a_kind_gives_one_card_fewer_until_the_player_keeps(pack_loader):
    g, req = held_open(pack_loader("revised-redraw"), 2)
    p = g.players[req.seat]
    old = list(p.hand_occupations)
    assert req.kind == "redraw" and req.labels == ["keep", "occupations", "minors"]
    req = g.answer(1)
    assert len(p.hand_occupations) == 6 and not set(p.hand_occupations) & set(old)
    assert req.kind == "redraw" and req.seat == p.idx
    req = g.answer(1)
    assert len(p.hand_occupations) == 5
    req = g.answer(0)                       # keep
    assert req.seat != p.idx and req.kind == "redraw"


def test_the_log_says_each_redraw(pack_loader):
    g = Game(pack_loader("revised-redraw"), 2, seed=1, agents=[None] * 2, log=True)
    req = g.run()
    name = g.players[req.seat].name
    g.answer(1)
    assert g.log == [f"    {name} gives back 7 occupations and draws 6"]


def test_swaps_and_a_card_drawn_after_each_card_played(pack_loader):
    g, req = held_open(pack_loader("revised-swap-and-draw"), 2)
    p = g.players[req.seat]
    given = req.options[1]
    assert req.kind == "swap" and req.options[0] == "keep" and given in p.hand_occupations + p.hand_minors
    req = g.answer(1)
    assert given not in p.hand_occupations + p.hand_minors
    assert len(p.hand_occupations) == 7 and len(p.hand_minors) == 7
    played = Game(pack_loader("revised-swap-and-draw"), 2, seed=3, agents=[RandomAgent(0), RandomAgent(1)])
    played.play()
    draws = sum(1 for _, kind, _ in played.record if kind == "draw")
    cards = sum(len(q.hand_occupations) + len(q.hand_minors) + len(q.occupations) + len(q.minors)
                for q in played.players)
    assert draws > 0 and cards == 28 + draws


def test_solo_the_player_lays_out_the_round_cards_and_chooses_the_hand(pack_loader):
    pack = pack_loader("revised-solo-choices")
    g, req = held_open(pack, 1)
    chosen = []
    while req.kind == "round_card":
        stage = {pack.space_defs[o].stage for o in req.options}
        assert len(stage) == 1
        pick = req.options[-1]
        chosen.append(pick)
        req = g.answer(len(req.options) - 1)
    # a stage's last card needs no question (a request with one option is not asked)
    assert len(g.round_order) == 14 and len(chosen) == 14 - 6
    assert [c for c in g.round_order if c in chosen] == chosen
    assert g.round_order[0] == chosen[0]
    assert req.kind == "draft"
    solo_occupations = [c for c, d in pack.cards.items() if d.kind == "occupation" and (d.players or 1) <= 1]
    assert sorted(req.options) == sorted(solo_occupations)
    while req.kind == "draft":
        req = g.answer(0)
    assert len(g.players[0].hand_occupations) == 7 and len(g.players[0].hand_minors) == 7
    while req is not None and g.round < 1:
        req = g.answer(0)
    assert g.space_by_id[chosen[0]].round_revealed == 1


def test_the_log_names_the_round_cards_in_the_order_laid_out(pack_loader):
    pack = pack_loader("revised-solo-choices")
    g = Game(pack, 1, seed=1, agents=[None], log=True)
    req = g.run()
    while req.kind == "round_card":
        req = g.answer(len(req.options) - 1)     # the last of the sorted ids: each stage in reverse order
    order = ["sheep_market", "major_improvement", "grain_utilization", "fencing", "western_quarry",
             "house_redevelopment", "basic_wish_for_children", "vegetable_seeds", "pig_market", "eastern_quarry",
             "cattle_market", "urgent_wish_for_children", "cultivation", "farm_redevelopment"]
    assert g.round_order == order
    # (the names are the pack's: two of them end in a word that is also a hand card's name)
    assert g.log == ["    P1 lays out the round cards: Sheep Market, Major Improvement, Grain Utilization, Fencing, "
                     + ", ".join(pack.space_defs[c].name for c in order[4:])]


def test_a_drafted_game_replays_from_its_decisions(pack_loader):
    pack = pack_loader("revised-draft")
    g = Game(pack, 3, seed=9, agents=[RandomAgent(i) for i in range(3)])
    g.play()
    again = Game(pack, 3, seed=9, agents=[None] * 3)
    again.replay(g.record)
    assert again.run() is None and again.scores == g.scores


def test_a_draft_that_does_not_make_the_hand_is_refused(tmp_path, capsys):
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    (tmp_path / "rules/mine").mkdir()
    (tmp_path / "rules/mine/game.yaml").write_text(
        "extends: revised\nid: mine\nname: Mine\ndraft:\n  - {kinds: [occupations], deal: 7, picks: [1, 1], rest: remove}\n"
        "  - {kinds: [minors], deal: 3, picks: [4]}\n", encoding="utf-8")
    assert cli.main(["--root", str(tmp_path), "validate", str(tmp_path / "rules/mine")]) == 2
    err = capsys.readouterr().err
    assert "rules/mine/game.yaml:5:5: error[E137]: the draft gives each player 2 occupations, but 'hand' says 7\n" in err
    assert "rules/mine/game.yaml:6:5: error[E137]: the draft keeps 4 cards of 3 dealt\n" in err
