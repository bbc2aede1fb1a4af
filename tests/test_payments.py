"""Payments that draw on exchanges (runtime/payments.py) and the windows in which abilities are offered."""
from __future__ import annotations

import random

import pytest

from runtime import payments as PM
from runtime import primitives as P
from runtime.agents import RandomAgent
from runtime.engine import Game
from runtime.labels import describe_request


class Picks:
    """An agent that answers from a rule per request kind (the first option otherwise) and records
    every request it is asked."""

    trusted = True

    def __init__(self, **rules):
        self.rules = rules
        self.asked = []

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        self.asked.append((kind, describe_request(game, player, kind, options, labels)))
        rule = self.rules.get(kind)
        return rule(options, labels) if rule else options[0]


def fresh(pack, *cards, agent=None, **goods):
    g = Game(pack, 2, seed=0, agents=[agent or Picks(), RandomAgent(1)])
    p = g.players[0]
    for good in p.goods:
        p.goods[good] = 0
    p.goods.update(goods)
    for cid in cards:
        g.install_card(p, pack.all_cards[cid])
    return g, p


def test_what_is_missing_is_made_and_nothing_more(revised):
    g, p = fresh(revised, food=1, grain=3)
    assert P.can_afford(g, p, (("food", 2),))
    assert not P.can_afford(g, p, (("food", 5),))
    assert P.pay_cost(g, p, (("food", 2),))
    assert p.goods["food"] == 0 and p.goods["grain"] == 2


def test_one_way_is_taken_without_asking_several_are_a_request(revised):
    agent = Picks()
    g, p = fresh(revised, "cooking_hearth_4", agent=agent, vegetable=1)
    P.pay_cost(g, p, (("food", 1),))      # raw (1 food) is worse than cooked (3 food): one way
    assert agent.asked == [] and p.goods["food"] == 2
    g, p = fresh(revised, "cooking_hearth_4", agent=agent, vegetable=1, grain=1)
    P.pay_cost(g, p, (("food", 1),))
    assert agent.asked == [("pay", ["1 food with 1 grain -> 1 food",
                                    "1 food with 1 vegetable -> 3 food (cooking_hearth_4)"])]


def test_a_card_with_alternative_prices_can_be_paid_either_way(pack_loader):
    # the probe card costs '2 wood or 2 clay, 1 reed' (docs/language.md 4.3): the loaded card keeps both
    # ways, and 2 clay and 1 reed without wood pay for it
    from runtime.pack import Pack
    pack = Pack(pack_loader("lang-probes").module)
    card = pack.all_cards["alt_price_probe"]
    assert card.cost_ways == ((("wood", 2),), (("clay", 2), ("reed", 1)))
    g, p = fresh(pack, clay=2, reed=1)
    p.hand_minors = ["alt_price_probe"]
    assert P.card_cost_options(g, p, card) == [(("wood", 2),), (("clay", 2), ("reed", 1))]
    assert P.can_play_minor(g, p)


def test_harvest_exchanges_pay_only_in_the_harvest(revised):
    g, p = fresh(revised, "joinery", wood=1)
    assert not P.can_afford(g, p, (("food", 2),))
    g.open_windows = frozenset(("harvest",))
    assert P.can_afford(g, p, (("food", 2),))
    assert P.pay_cost(g, p, (("food", 2),))
    assert not P.can_afford(g, p, (("food", 2),))   # once per harvest, and the wood is gone anyway


def test_nothing_is_paid_when_the_goods_cannot_be_made(revised):
    g, p = fresh(revised, "cooking_hearth_4", vegetable=3)
    assert not P.can_afford(g, p, (("clay", 1),))
    assert not P.pay_cost(g, p, (("clay", 1),))
    assert p.goods["vegetable"] == 3



def test_with_a_cycle_of_exchanges_the_weights_count_the_exchanges_open_now(original):
    """A card whose exchanges make a cycle (3 wood -> 1 clay, 2 clay -> 1 wood, …; found in the pack's
    data) brings the weights bound in (payments._beyond_weights): it counts the exchanges usable now. In
    the harvest, Joinery's exchange (1 wood -> 2 food, a harvest one) makes the food, so 4 wood pay for
    2 food and 1 clay; outside the harvest nothing makes food and they cannot."""
    cycle = next(cid for cid, card in sorted(original.all_cards.items())
                 if card.exchanges and PM._has_cycle(*fresh(original, cid)))
    g, p = fresh(original, cycle, "joinery", wood=4)
    cost = (("food", 2), ("clay", 1))
    assert not P.can_afford(g, p, cost) and PM._beyond_weights(g, p, dict(cost), ["food", "clay"])
    g.open_windows = frozenset(("harvest",))
    assert PM._quick(g, p, dict(cost), ["food", "clay"]) is None   # the bounds cannot tell: the weights are asked
    assert not PM._beyond_weights(g, p, dict(cost), ["food", "clay"])
    assert P.can_afford(g, p, cost)
    assert P.pay_cost(g, p, cost)
    assert sum(p.goods.values()) == 0

@pytest.mark.parametrize("seed", range(40))
def test_the_quick_bounds_agree_with_the_search(revised, seed):
    """can_afford (goods, cache, bounds, then search) answers as the plain search over combinations."""
    rng = random.Random(seed)
    with_exchanges = sorted(cid for cid, card in revised.all_cards.items() if card.exchanges)
    cards = rng.sample(with_exchanges, rng.randint(0, 3))
    goods = {good: rng.randint(0, 3) for good in ("food", "grain", "vegetable", "sheep", "boar", "clay", "wood")}
    g, p = fresh(revised, *cards, **goods)
    for cid in cards:   # goods piled on a card by its 'on play' effect
        g.run_on_play(p, revised.all_cards[cid])
    for good in goods:
        p.goods[good] = goods[good]
    if rng.random() < 0.5:
        g.open_windows = frozenset(("harvest",))
    for _ in range(20):
        cost = tuple((good, rng.randint(1, 4)) for good in rng.sample(["food", "stone", "vegetable", "boar", "wood"],
                                                                       rng.randint(1, 2)))
        need = dict(cost)
        short = [good for good, n in cost if p.goods[good] < n]
        expected = not short or bool(PM._search(g, p, need, short, first=False))
        assert P.can_afford(g, p, cost) == expected, (cards, goods, cost)
        plans = PM._plans(g, p, (cost,))
        assert bool(plans) == expected
        for oi, path in plans:   # every plan found really pays
            trial = g.copy_state(agents=[Picks(), Picks()])
            tp = trial.players[0]
            PM.apply_plan(trial, tp, path)
            assert P.can_pay(tp, cost), (cards, goods, cost, path)


def test_a_person_a_work_phase_action_adds_is_placed_in_the_same_work_phase(revised):
    """A card with an 'in work phase action' that lets the newborn act (found in the pack's data): the
    growth with P1's second person, the action after it, and the child is placed in the same work phase."""
    cid = next(cid for cid, card in sorted(revised.all_cards.items())
               if any(window == "work_phase" for window, *_ in card.actions))
    label = f"{revised.all_cards[cid].actions[0][3]} ({cid})"

    def place(options, labels):
        return "urgent_wish_for_children" if "urgent_wish_for_children" in options else options[-1]

    def act(options, labels):
        return next((o for o in options if o not in ("place", "stop")), options[0])

    agent = Picks(place=place, any_time=act)
    g = Game(revised, 2, seed=0, agents=[agent, RandomAgent(1)])
    g.start_player = 0
    g.round = 12
    space = g._add_space(revised.space_defs["urgent_wish_for_children"])
    g.mark_round_space(space, 12)
    p = g.players[0]
    p.goods["food"] = 5
    g.install_card(p, revised.all_cards[cid])
    g.start_round()
    g.work_phase()
    assert p.people == 3 and p.newborns == 0
    assert sum(s.occupants.count(0) for s in g.spaces) == 3, "the third person was not placed"
    assert any(kind == "any_time" and label in options for kind, options in agent.asked)


# ---------------------------------------------------------------- prices: the parts, on plain data

def test_a_price_given_as_a_list_is_resolved_and_changed_as_the_same_tuple(revised):
    """A price as a list (not hashable) is resolved as a tuple price is, without being kept in the material's
    cache; cost_options takes it as the same tuple (as_price), so it is changed and kept in the player's
    prices under that tuple."""
    assert PM.resolve_material([("material", 2), ("reed", 1)], "clay") == (("clay", 2), ("reed", 1))
    assert PM.as_price([("wood", 5), ("reed", 2)]) == (("wood", 5), ("reed", 2))
    g, p = fresh(revised)
    p.mods = {"cost": [("delta", ("room",), (("reed", -1),))]}
    p.prices = PM.price_cache_for(p)
    assert PM.cost_options(g, p, ("room",), [("wood", 5), ("reed", 2)]) == [(("wood", 5), ("reed", 1))]
    cached = {(("room",), (("wood", 5), ("reed", 2)), "wood", True): ((("wood", 5), ("reed", 1)),)}
    assert p.prices == cached
    assert PM.cost_options(g, p, ("room",), (("material", 5), ("reed", 2))) == [(("wood", 5), ("reed", 1))]
    assert p.prices == cached


def test_a_price_change_computed_from_the_game_is_kept_under_its_value_now(revised):
    """A change of price computed from the game ('-1 stone per room built', a delta_fn) marks the player's
    prices (COMPUTED): each is kept under the values the changes have when it is asked, so a change of the
    game gives the new price and a return to the old value finds the price kept."""
    g, p = fresh(revised)
    rooms = {"built": 0}
    p.mods = {"cost": [("delta_fn", ("major",), lambda game, who: (("stone", -rooms["built"]),))]}
    p.prices = PM.price_cache_for(p)
    assert p.prices == {PM.COMPUTED: True}
    price = (("clay", 2), ("stone", 2))
    assert PM.cost_options(g, p, ("major",), price) == [price]
    rooms["built"] = 1
    assert PM.cost_options(g, p, ("major",), price) == [(("clay", 2), ("stone", 1))]
    assert sorted(k[-1] for k in p.prices if k != PM.COMPUTED) == [((("stone", -1),),), ((("stone", 0),),)]
    rooms["built"] = 0
    assert PM.cost_options(g, p, ("major",), price) == [price] and len(p.prices) == 3
    assert PM.cost_options(g, p, ("room",), (("wood", 5),)) == [(("wood", 5),)]   # not a major: no value in the key
    assert ((("room",), (("wood", 5),), "wood", True, ())) in p.prices


def test_a_cards_changed_price_is_kept_under_the_card_for_its_house_and_kind(revised):
    """card_cost_options keeps a printed price as the player's cards change it in p.prices under the card
    itself: asked again it is the same; another house, or the major played as a minor, is worked out anew;
    a change of p.mods (a new p.prices) drops it."""
    g, p = fresh(revised)
    card = revised.all_cards["fireplace_2"]
    p.mods = {"cost": [("delta", ("major",), (("clay", -1),))]}
    p.prices = PM.price_cache_for(p)
    assert P.card_cost_options(g, p, card) == [(("clay", 1),)]
    assert p.prices[card] == ("wood", False, ((("clay", 1),),))
    assert P.card_cost_options(g, p, card) == [(("clay", 1),)]
    p.prices[card] = ("wood", False, ((("stone", 9),),))   # (what is kept is what is answered)
    assert P.card_cost_options(g, p, card) == [(("stone", 9),)]
    p.house = "clay"
    assert P.card_cost_options(g, p, card) == [(("clay", 1),)]
    p.mods["as_minor"] = ["fireplace_2"]   # a minor for the player: the change of majors' prices is not for it
    assert P.card_cost_options(g, p, card) == [(("clay", 2),)]
    assert p.prices[card] == ("clay", True, ((("clay", 2),),))
    p.prices = PM.price_cache_for(p)
    assert card not in p.prices


@pytest.mark.parametrize("cache", ["_RESOLVED", "_MEMO", "_WEIGHTS"])
def test_a_price_cache_is_emptied_once_it_holds_more_than_4096_entries(revised, monkeypatch, cache):
    """The caches of plain data (resolved prices, substitutions, weights of goods) stay small: past 4096
    entries the next new entry empties the cache first."""
    g, p = fresh(revised)
    sub = (("room",), (("wood", 1),), (("clay", 2),))

    def weights():
        p.producible = None   # (the player's own memo of the weights would answer first)
        return PM._beyond_weights(g, p, {"stone": 1}, ["stone"])

    add = {"_RESOLVED": lambda: PM.resolve_material((("material", 1),), "stone"),
           "_MEMO": lambda: PM._substituted([(("clay", 2),)], [sub]),
           "_WEIGHTS": weights}[cache]
    expected = add()
    for size, after in ((4096, 4097), (4097, 1)):
        full = {("filler", i): () for i in range(size)}
        monkeypatch.setattr(PM, cache, full)
        assert add() == expected
        assert len(full) == after
    assert expected == {"_RESOLVED": (("stone", 1),), "_MEMO": [(("clay", 2),), (("wood", 1),)],
                        "_WEIGHTS": True}[cache]   # no stone, and nothing makes stone


def test_price_changes_and_substitutions_on_goods_a_price_lacks():
    # a change adds a good the price lacks only when it raises it
    assert PM._apply_delta((("wood", 2),), {"reed": 1, "clay": -1}) == (("wood", 2), ("reed", 1))
    # '-N building' lowers building goods only (none left: the price as it is), never a count of 0
    assert PM._lowered_any((("food", 2),), 1, ("wood", "clay")) == [(("food", 2),)]
    assert PM._lowered_any((("wood", 0), ("clay", 1), ("food", 1)), 2, ("wood", "clay")) == [
        (("wood", 0), ("food", 1))]
    # 'instead of all the clay': only for a price with clay
    every_clay = (("room",), (("reed", 1),), ("all", "clay"))
    assert PM._substitute({"wood": 2}, every_clay) is None
    assert PM._substitute({"clay": 3, "wood": 1}, every_clay) == {"wood": 1, "reed": 1}
    # two ways that are the same price once counts of 0 are left out are substituted once
    sub = (("room",), (("wood", 1),), (("clay", 2),))
    assert PM._all_substitutions([(("clay", 2),), (("clay", 2), ("wood", 0))], [sub]) == [
        (("clay", 2),), (("wood", 1),)]
    # the same price written twice (with a count of 0) is one way
    assert PM._undominated([(("wood", 1), ("clay", 0)), (("wood", 1),)]) == [(("wood", 1), ("clay", 0))]


def test_in_team_play_only_the_partners_changes_that_lower_a_building_price_are_shared(pack_loader):
    """share_costs (revised-teams): of the partner's price changes, those that lower the price of a building
    apply to the player, a change computed from the game worked out for the partner; a change that raises
    a price, or one of the price of an occupation, is not shared."""
    teams = pack_loader("revised-teams")
    g = Game(teams, 4, seed=0)
    p = g.players[0]
    q = g.partner_of(p)
    assert q is g.players[2]
    q.mods = {"cost": [("delta", ("room",), (("wood", 1),)),
                       ("delta_fn", ("major",), lambda game, who: (("stone", -1 - who.idx),)),
                       ("delta_fn", ("stable",), lambda game, who: (("wood", 2),)),
                       ("delta", ("occupation",), (("food", -1),)),
                       ("delta", ("room", "occupation"), (("food", -1),)),
                       ("set", ("fence",), (("wood", 0),))]}
    assert PM.shared_cost_mods(g, p) == [("delta", ("major",), (("stone", -3),)), ("set", ("fence",), (("wood", 0),))]
    assert PM.shared_cost_mods(g, g.players[1]) == []
    assert PM.cost_options(g, p, ("major",), (("clay", 2), ("stone", 4))) == [(("clay", 2), ("stone", 1))]


@pytest.mark.python_sources  # replaces payments.apply_plan
def test_a_plan_that_does_not_make_the_goods_pays_nothing(revised, monkeypatch):
    """pay_one_of pays only what the player holds once the plan's exchanges are used: should they not make
    the goods (the search and the exchanges disagreeing), nothing is paid and the answer is False."""
    g, p = fresh(revised, grain=1)
    assert PM._plans(g, p, ((("food", 1),),)) == [(0, (0,))]   # 1 grain -> 1 food
    monkeypatch.setattr(PM, "apply_plan", lambda game, who, path: None)
    assert PM.pay_cost(g, p, (("food", 1),)) is False
    assert (p.goods["food"], p.goods["grain"]) == (0, 1) and g.last_paid != (("food", 1),)
