"""The verbs of runtime/primitives called when they cannot be carried out: each says so (False) and leaves
the game as it was, and the edge cases of the placement statements. The compiled rules test a verb before
they carry it out; these guards keep a verb that is called anyway (by a rule whose situation changed
between the test and the verb, or by a caller of the runtime) from doing half of its work."""
from __future__ import annotations

import pytest

from runtime import primitives as P
from runtime.engine import Game
from runtime.primitives.placements import FIRST, LODGERS, MORE, NONE


@pytest.fixture
def game(revised):
    g = Game(revised, 2, seed=1, log=True)
    g.run()
    assert g.in_work_phase and g.round == 1
    return g


def _state(g):
    return [(dict(p.goods), p.people, p.newborns, p.home, p.bonus, dict(p.stats)) for p in g.players], \
        {s.id: dict(s.goods) for s in g.spaces}


def test_family_growth_without_a_person_or_a_room_does_nothing(game):
    p = game.players[0]
    before = _state(game)
    assert p.room_count == p.people == 2
    assert P.family_growth(game, p) is False           # no free room
    assert P.family_growth_without_room(game, p) is True and (p.people, p.newborns) == (3, 1)
    p.people, p.newborns = 5, 0
    assert P.family_growth_without_room(game, p) is False   # the supply of people is used up
    assert (p.people, p.newborns) == (5, 0)
    p.people = 2
    assert _state(game) == before
    assert game.log[-1] == "    P1 has a newborn (family of 3)"


def test_taking_the_goods_of_a_space_without_goods_or_without_a_space_takes_nothing(game):
    p = game.players[0]
    empty = next(s for s in game.spaces if not any(s.goods.values()))
    before = _state(game)
    assert P.take_goods(game, p, P.Ctx(actor=p, space=empty)) is False
    assert P.take_goods(game, p, P.Ctx(actor=p)) is False
    assert _state(game) == before


def test_a_newborn_acts_only_if_there_is_one_and_is_placed_at_once_only_in_the_work_phase(game):
    p = game.players[0]
    home = p.home
    assert P.newborn_acts(game, p) is False and p.home == home
    p.newborns = 2
    assert P.newborn_acts(game, p) is True and (p.newborns, p.home) == (1, home + 1)
    game.in_work_phase = False
    assert P.newborn_acts(game, p) is True and (p.newborns, p.home) == (0, home + 1)


def test_goods_put_on_a_space_none_or_on_a_space_not_on_the_board(game):
    """Nothing to put (every amount 0): done without asking for a space; a space that is not on the board
    (a round card not yet turned over) takes no goods."""
    p = game.players[0]
    later = game.round_order[-1]
    assert later not in game.space_by_id
    before = _state(game)
    assert P.put_on_space(game, p, (("wood", 0),)) is True
    assert P.put_on_named_space(game, p, "forest", (("wood", 0), ("clay", 0))) is True
    assert P.put_on_named_space(game, p, later, (("wood", 2),)) is False
    assert _state(game) == before and game.pending is not None and game.pending.kind == "place"


def test_spreading_too_few_goods_moves_none(game):
    p = game.players[0]
    src = game.own_space(game.space_by_id["forest"])
    src.goods["wood"] = 1
    before = _state(game)
    assert P.can_spread_goods(game, "wood", "forest", ("clay_pit",))
    assert P.spread_goods(game, p, "wood", "forest", ("clay_pit", "reed_bank")) is False
    assert _state(game) == before


def test_turning_over_the_later_round_cards_skips_those_already_on_the_board(game):
    p = game.players[0]
    nxt = game.round_order[1]
    game.space_by_id[nxt] = game.space_by_id["forest"]    # round 2's card already on the board
    assert P.reveal_round_cards(game, p) is True
    said = [line.strip() for line in game.log if "turns over the round card" in line]
    assert len(said) == min(game.last_round, len(game.round_order)) - 2
    assert not any("round 2:" in line for line in said) and "round 3:" in said[0]


def test_placements_of_a_round_without_placements(game):
    """'places no people this round': nobody to place, and a visitor or a lodger adds none in the work
    phase; 'no people' outside the work phase is kept for the work phase."""
    p = game.players[0]
    home = p.home
    assert P.place_less(game, p, None) is True and p.home == 0 and P.people_to_place(game, p) == 0
    assert P.place_more(game, p, 1) is True and p.home == 0
    assert P.lodge_people(game, p, 1, "forest") is True and p.home == 0 and p.stats[LODGERS] == 1
    q = game.players[1]
    game.in_work_phase = False
    q_home = q.home
    assert P.place_less(game, q, None) is True and q.stats[NONE] is True and q.home == q_home
    assert game.log[-1] == "    P2 places no people this round"
    assert home > 0


def test_placing_first_is_refused_once_someone_is_placed(game):
    p = game.players[0]
    game.own_space(game.space_by_id["forest"]).occupants.append(1)
    assert P.place_first(game, p) is False and FIRST not in p.stats


def test_goods_paid_to_oneself_or_taken_from_oneself_do_not_move(game):
    p, q = game.players
    p.goods["wood"] = 2
    before = _state(game)
    assert P.pay_to(game, p, p, (("wood", 5),)) is True
    assert P.take_from(game, p, p, (("wood", 1),)) is True
    assert P.pay_to(game, p, q, (("wood", 5),)) is False   # more than p has
    assert _state(game) == before


def test_taking_from_a_player_takes_only_what_they_have(game):
    p, q = game.players
    q.goods["wood"], q.goods["clay"], p.goods["wood"], p.goods["clay"] = 1, 0, 0, 0
    assert P.take_from(game, p, q, (("wood", 3), ("clay", 2))) is True
    assert (p.goods["wood"], q.goods["wood"], p.goods["clay"]) == (1, 0, 0)
    before = _state(game)
    assert P.take_from(game, p, q, (("clay", 2),)) is True   # q has none: nothing moves, nothing is said
    assert _state(game) == before


def test_bonus_conversion_below_every_threshold_and_return_without_a_space(game):
    p = game.players[0]
    p.goods["grain"] = 1
    before = _state(game)
    assert P.convert_bonus(game, p, "grain", ((2, 1), (4, 3))) is False
    assert P.return_to_space(game, p, (("grain", 1),), None) is False
    assert P.return_to_space(game, p, (("grain", 1),), P.Ctx(actor=p)) is False
    assert P.never(game, p) is False
    assert _state(game) == before
    p.goods["grain"] = 5
    assert P.convert_bonus(game, p, "grain", ((2, 1), (4, 3))) is True and (p.goods["grain"], p.bonus) == (1, 3)


def test_a_claim_staked_for_the_end_of_the_round_is_resolved_then_and_spent(game):
    from runtime import claims
    p = game.players[0]
    done = []
    claim = (game.round, "round_end", P.always, lambda g, q, c: done.append(q.idx) or True, None, "gain 1 wood", None)
    early = (game.round, "work_phase_end", P.always, lambda g, q, c: done.append("early") or True, None, "x", None)
    p.card_state["claims"] = [claim, early]
    assert claims.resolve_round_end(game, p) is True
    assert done == [0] and p.card_state["claims"] == [early]
    assert game.log[-1] == "    P1's claim is resolved: gain 1 wood"


def test_taking_from_a_space_not_on_the_board_or_without_the_good_takes_nothing(game):
    from runtime import claims
    p = game.players[0]
    game.own_space(game.space_by_id["forest"]).goods.update(wood=3)
    before = _state(game)
    assert claims.take_from_space(game, p, game.round_order[-1]) is False
    assert claims.take_from_space(game, p, "forest", "clay") is False
    assert _state(game) == before
    assert claims.take_from_space(game, p, "forest", "wood") is True
    assert p.goods["wood"] == before[0][0][0]["wood"] + 3 and game.space_by_id["forest"].goods["wood"] == 0


def test_moving_a_person_needs_one_placed_on_a_source_and_a_free_target(game):
    from runtime import claims
    p = game.players[0]
    forest = (("forest", False),)
    clay = (("clay_pit", False),)
    assert claims.move_person(game, p, forest, clay) is False      # nobody of P1's on the Forest
    game.own_space(game.space_by_id["forest"]).occupants.append(0)
    game.own_space(game.space_by_id["clay_pit"]).occupants.append(1)
    assert claims.move_person(game, p, forest, clay) is False      # the Clay Pit is taken
    assert game.space_by_id["forest"].occupants == [0] and game.space_by_id["clay_pit"].occupants == [1]


def test_partner_verbs_without_team_play_do_nothing(game):
    p = game.players[0]
    assert game.partner_of(p) is None
    before = _state(game)
    assert P.partner_plow_cells(game, p) == (None, 0)
    assert P.partner_stable_cells(game, p) == (None, 0)
    assert P.partner_exchange(game, p) is False
    assert _state(game) == before


def test_sowing_taking_crops_and_moving_crops_without_fields_do_nothing(game):
    p, q = game.players
    before = _state(game)
    assert not p.fields and not q.fields
    assert P.sow(game, p) is False
    assert P.take_from_field(game, p, None, "grain", 1, (("food", 1),)) is False
    assert P.move_crop(game, p) is False
    assert _state(game) == before


def test_a_card_field_is_named_after_its_card(game):
    from runtime.primitives.sowing import _field_name
    p = game.players[0]
    p.card_state["field_cards"] = {-1: "probe_card"}
    assert (_field_name(p, -1), _field_name(p, -2), _field_name(p, 0)) == ("probe_card", "card", "A1")


def test_a_stable_is_not_built_when_none_can_be(game):
    p = game.players[0]
    p.goods["wood"] = 0
    before = _state(game)
    stables = p.stables
    assert P.build_stable(game, p) is False and p.stables == stables
    assert _state(game) == before


def test_a_game_needs_one_agent_for_each_player(revised):
    with pytest.raises(ValueError) as exc:
        Game(revised, 2, agents=[None, None, None])
    assert str(exc.value) == "3 agents for 2 players"


def test_improvements_and_occupations_are_not_taken_when_none_can_be(game):
    """No major affordable, no minor or occupation in hand: each verb says False and nothing moves."""
    p = game.players[0]
    for good in p.goods:
        p.goods[good] = 0
    p.hand_minors.clear()
    p.hand_occupations.clear()
    supply = list(game.major_supply)
    before = _state(game)
    assert P.build_major(game, p) is False
    assert P.play_minor(game, p) is False
    assert P.build_improvement(game, p) is False
    assert P.play_occupation(game, p) is False
    assert P.play_occupation_random(game, p) is False
    assert _state(game) == before and game.major_supply == supply and not p.majors and not p.minors
    assert not any("draws" in line for line in game.log)


def test_baking_without_grain_or_an_oven_bakes_nothing(game):
    p = game.players[0]
    p.goods["grain"] = 0
    before = _state(game)
    assert P.bake(game, p) is False
    p.goods["grain"] = 3
    assert not p.bake_rates and P.bake(game, p) is False and p.goods["grain"] == 3
    p.goods["grain"] = 0
    assert _state(game) == before


def test_an_exchange_whose_price_is_not_there_takes_and_gives_nothing(game):
    p = game.players[0]
    p.goods["grain"], p.goods["food"] = 0, 4
    before = _state(game)
    assert P.exchange(game, p, (("grain", 1),), (("food", 2),)) is False
    assert _state(game) == before
    p.goods["grain"] = 1
    assert P.exchange(game, p, (("grain", 1),), (("food", 2),)) is True
    assert (p.goods["grain"], p.goods["food"]) == (0, 6)


def test_piles_and_cards_without_goods_give_nothing(game):
    p = game.players[0]
    p.goods["wood"] = 0
    before = _state(game)
    assert P.take_pile_top(game, p, "probe_card") is False
    assert P.move_up_to_card(game, p, "probe_card", "wood", 3) is False
    assert "probe_card" not in p.card_state.get("piles", {}) and _state(game) == before


def test_fencing_steps_that_cannot_be_taken_are_refused(game):
    p = game.players[0]
    for good in p.goods:
        p.goods[good] = 0
    before = _state(game)
    assert P.fence_spaces(game, p, n=1, free=False) is False
    assert P.fence_new_stable(game, p, P.Ctx(actor=p)) is False
    assert P.fence_new_stable(game, p, None) is False
    assert not p.pastures and _state(game) == before


def _bare_game(pack):
    g = Game(pack, 2, seed=1)
    g.run()
    p = g.players[0]
    for good in p.goods:
        p.goods[good] = 0
    return g, p


def _taking_everything(seen):
    def rule(g, owner, ctx):
        seen.append(dict(owner.goods))
        for good in owner.goods:
            owner.goods[good] = 0
        return True
    return rule


def test_a_renovation_whose_price_a_before_rule_took_is_not_carried_out(revised):
    g, p = _bare_game(revised)
    p.goods.update(clay=p.room_count, reed=1)
    seen = []
    g.listeners["before:renovate"] = [(0, _taking_everything(seen), "you")]
    house = p.house
    assert P.renovate(g, p) is False
    assert p.house == house and seen and seen[0]["clay"] == p.room_count and p.goods["clay"] == 0


def test_a_room_or_a_fence_is_not_built_without_the_goods(revised):
    g, p = _bare_game(revised)
    rooms, fences = (p.rooms, p.room_count), p.fences
    assert P.build_room(g, p) is False
    assert P.build_fences(g, p, max_spaces=1) is False
    assert P.build_fences(g, p, single=True) is False
    assert (p.rooms, p.room_count, p.fences) == (*rooms, fences) and not any(p.goods.values())


def _priced_minor(pack):
    return next(cid for cid, c in pack.cards.items() if c.kind == "minor" and c.cost and c.requires is None
                and not c.upgrade_of and c.cost_ways is None and c.cost_fn is None and not c.passing)


def test_a_minor_whose_price_a_before_rule_took_is_not_played(revised):
    g, p = _bare_game(revised)
    cid = _priced_minor(revised)
    card = revised.cards[cid]
    p.hand_minors[:] = [cid]
    p.goods.update(dict(card.cost))
    seen = []
    g.listeners["before:play_minor"] = [(0, _taking_everything(seen), "you")]
    assert P.play_minor(g, p) is False
    assert p.hand_minors == [cid] and cid not in p.minors and seen == [dict(p.goods, **dict(card.cost))]
    p.goods.update(dict(card.cost))
    g.major_supply[:] = []
    assert P.build_improvement(g, p) is False
    assert p.hand_minors == [cid] and cid not in p.minors and len(seen) == 2


def test_the_goods_exchanges_make_leave_out_those_others_may_buy_and_empty_piles(revised):
    """The rules' own exchanges make food; a card's exchange whose goods others may buy is not counted on,
    nor a pile without the good; an exchange used up or whose pile is empty is not ready."""
    g, p = _bare_game(revised)
    assert {get for give, get, *rest in g.exchanges_of(p)} == {(("food", 1),)}
    p.exchanges[:] = [((), (("reed", 2),), "any_time", 1, "probe_card", "probe_card:0"),
                      ((), "pile", "any_time", None, "probe_pile", "probe_pile:0")]
    p.card_state["piles"] = {"probe_pile": ["clay"]}
    p.producible = None
    assert P.exchanges_make(g, p, {"clay"}) is True and P.exchanges_make(g, p, {"reed"}) is True
    assert P.exchanges_make(g, p, {"wood"}) is False
    p.mods["exchange_offers"] = (("probe_card:0", (("food", 1),)),)
    assert P.exchanges_make(g, p, {"reed"}) is False
    reed, pile = g.exchanges_of(p)[-2:]
    assert P.exchange_ready(g, p, reed) is True
    p.used["probe_card:0"] = 1
    assert P.exchange_ready(g, p, reed) is False
    assert P.exchange_ready(g, p, pile) is True
    p.card_state["piles"]["probe_pile"] = []
    assert P.exchange_ready(g, p, pile) is False


def test_a_card_not_in_the_hand_or_a_choice_without_a_possible_part_does_nothing(revised):
    g, p = _bare_game(revised)
    hand = list(p.hand_occupations)
    before = _state(g)
    assert P.play_from_hand(g, p, "probe_card") is False and p.hand_occupations == hand
    never = (lambda g, q, c: False, lambda g, q, c: True, "gain 1 wood")
    assert P.choose(g, p, P.Ctx(actor=p), [never, never]) is False
    assert _state(g) == before


def test_an_effect_for_each_player_without_an_event_is_run_as_the_owners(revised):
    g, p = _bare_game(revised)
    seen = []
    assert P.for_each_player(g, p, None, lambda g, q, c: q.idx == 1,
                             lambda g, q, c: seen.append((q.idx, c.actor.idx, c.owner.idx))) is True
    assert seen == [(1, 0, 0)]


class _Script:
    """An agent that answers from a list (then the first option) and keeps what it was asked."""

    trusted = True

    def __init__(self, *answers):
        self.answers, self.asked = list(answers), []

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        self.asked.append((kind, list(options), prompt))
        return self.answers.pop(0) if self.answers else options[0]


def _rule(result, can):
    """An 'instead of' rule whose test says ``can`` and whose body says ``result``; it counts its runs."""
    def rule(g, q, c):
        rule.runs += 1
        return result
    rule.runs = 0
    rule.can = lambda g, q, c: can
    return rule


def test_a_family_growth_without_a_room_whose_instead_rule_fails_after_all_does_nothing(revised):
    """The rule's test said it would replace the growth (so the growth was possible without a room); its
    body did not: the growth is not carried out in a house without a free room."""
    g, p = _bare_game(revised)
    rule = _rule(False, True)
    g.listeners["instead:family_growth"] = [(0, rule, "you")]
    assert p.room_count == p.people == 2 and P.can_family_growth(g, p) is True
    assert P.family_growth(g, p) is False
    assert (rule.runs, p.people, p.newborns) == (1, 2, 0)


def test_a_renovation_without_the_price_is_not_replaced_by_an_instead_rule_that_would_not(revised):
    g, p = _bare_game(revised)
    rule = _rule(True, False)
    g.listeners["instead:renovate"] = [(0, rule, "you")]
    house = p.house
    assert P.can_renovate(g, p) is False
    assert P.renovate(g, p) is False
    assert (rule.runs, p.house) == (0, house)


def test_moving_a_person_placed_on_two_sources_asks_which_one(game):
    from runtime import claims
    p = game.players[0]
    sources = (("forest", False), ("clay_pit", False))
    for sid in ("forest", "clay_pit"):
        game.own_space(game.space_by_id[sid]).occupants.append(0)
    reed = p.goods["reed"]
    game.agents[0] = script = _Script("clay_pit")
    assert claims.move_person(game, p, sources, (("reed_bank", False),)) is True
    assert script.asked == [("place", ["forest", "clay_pit"], "move a person from")]
    assert [game.space_by_id[s].occupants for s in ("forest", "clay_pit", "reed_bank")] == [[0], [], [0]]
    assert p.goods["reed"] == reed + 1
    assert game.log[-2:] == ["    P1 moves a person from Clay Pit", "  P1 → Reed Bank (takes 1 reed)"]


def test_a_drawn_card_with_rules_in_the_hand_listens_from_the_hand_of_its_drawer(original):
    g = Game(original, 2, seed=1)
    g.run()
    p = g.players[1]
    cid, card = next((cid, c) for cid, c in original.all_cards.items() if c.hand_listeners and c.kind == "occupation")
    for q in g.players:
        q.hand_occupations[:] = [c for c in q.hand_occupations if c != cid]
    g.decks["occupations"] = [cid] + [c for c in g.decks["occupations"] if c != cid]
    handlers = {h for _key, h, _who in card.hand_listeners}
    for key in g.listeners:
        g.listeners[key] = [hook for hook in g.listeners[key] if hook[1] not in handlers]
    P.draw_cards(g, p, "occupations", 1)
    assert p.hand_occupations[-1] == cid
    for key, handler, who in card.hand_listeners:
        assert [hook for hook in g.listeners[key] if hook[1] is handler] == [(1, handler, who)]


def test_stables_for_the_partner_need_a_stable_left_in_the_shared_supply(pack_loader, monkeypatch):
    pack = pack_loader("revised-teams")
    g = Game(pack, 4, seed=1)
    g.run()
    p = g.players[0]
    p.goods["wood"] = 3
    partner, cells = P.partner_stable_cells(g, p)
    assert partner is g.players[2] and cells
    monkeypatch.setattr(pack.rules, "shared_stables", 1)
    assert P.partner_stable_cells(g, p)[0] is partner
    g.players[3].stables = 1
    assert P.partner_stable_cells(g, p) == (None, 0)


def test_a_team_pack_without_partner_rooms_lets_no_one_build_the_partner_a_room(pack_loader, monkeypatch):
    pack = pack_loader("revised-teams")
    g = Game(pack, 4, seed=1)
    p = g.players[1]
    assert P.partner_for(g, p, "rooms") is g.players[3]
    monkeypatch.delitem(pack.rules.teams, "rooms")
    assert P.partner_for(g, p, "rooms") is None and P.partner_for(g, p, "stables") is g.players[3]


def test_fencing_a_single_pasture_stops_after_one(revised):
    g, p = _bare_game(revised)
    p.goods["wood"] = 15
    g.agents[0] = script = _Script()
    assert P.build_fences(g, p, single=True) is True
    assert len(p.pastures) == 1 and len(script.asked) == 1 and script.asked[0][0] == "fence"


def test_a_major_with_another_price_can_be_built_for_that_price(revised, monkeypatch):
    g, p = _bare_game(revised)
    g.major_supply[:] = [cid] = [next(c for c in g.major_supply if revised.all_cards[c].cost)]
    card = revised.all_cards[cid]
    monkeypatch.setattr(card, "cost_ways", (card.cost, (("food", 3),)))
    assert P.can_build_major(g, p) is False
    p.goods["food"] = 3
    assert P.can_build_major(g, p) is True


def test_only_the_eight_largest_pastures_are_weighed_for_room(revised):
    g, p = _bare_game(revised)
    free = [c for c in range(p.grid.rows * p.grid.cols) if not p.rooms >> c & 1]
    p.pastures = tuple(sorted(1 << c for c in free[:9]))
    p.goods["sheep"] = 9
    assert P.roomy_pasture_count(g, p, 1) == 8


def test_a_trial_of_the_before_rules_of_an_occupation_answers_yes_or_the_first_option(revised):
    """Whether a 'before you play occupation' rule would make an occupation affordable is tried on a copy
    whose agents answer yes to an optional effect, else the first option."""
    g, p = _bare_game(revised)
    asked = []

    def rule(options):
        def before(game, q, c):
            pick = game.decide(q, "choose", options)
            asked.append(pick)
            if pick in (P.YES, "food"):
                q.goods["food"] += 1
        return before
    fee = (("food", 1),)
    for options, playable in ((["wood", P.YES], True), (["food", "wood"], True), (["wood", "food"], False)):
        g.listeners["before:play_occupation"] = [(0, rule(options), "you")]
        assert P.can_play_occupation(g, p, fee=fee) is playable
    assert asked == [P.YES, "food", "wood"] and p.goods["food"] == 0
