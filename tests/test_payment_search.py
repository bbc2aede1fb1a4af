"""The payment search made cheaper changes no answer (runtime/payments.py, docs/architecture.md "Speed").

``reference_plans`` below is the search as it was before it was made cheaper (a dict of goods copied per
step, every combination found compared with every other, no weights bound): the specification. Whole
random games of the 2007 pack with its hand cards (Dock Worker's cycle of twelve material exchanges
among them) are played with every call of ``payments._plans`` answered by the new code and checked
against the reference: the same plans in the same order, also when the search is cut off early.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from runtime import payments as PM
from runtime.agents import RandomAgent
from runtime.engine import Game


CUT_OFF = []   # one entry per reference search stopped by the limit before it had tried everything


def reference_search(g, p, need, short, first):
    goods = p.goods
    entries = g.exchanges_of(p)
    cached = PM._index(g, p)
    made, index, pile_ids = cached.made, cached.index, cached.piles
    piles = {}
    for i in pile_ids:
        if PM._usable(g, p, entries[i]):
            piles[i] = PM.P.pile_stack(p, entries[i][4])
    produces: dict = {}

    def producers(good):
        found = produces.get(good)
        if found is None:
            found = [i for i in index.get(good, ()) if PM._usable(g, p, entries[i])]
            found += [i for i, stack in piles.items() if good in stack]
            produces[good] = found
        return found

    for good in short:
        if not producers(good):
            return []
    wanted = set(short)
    todo = list(short)
    relevant = []
    while todo:
        good = todo.pop()
        for i in producers(good):
            if i not in relevant:
                relevant.append(i)
                for h, k in entries[i][0]:
                    if h not in wanted:
                        wanted.add(h)
                        todo.append(h)
    relevant.sort()
    slot = {i: k for k, i in enumerate(relevant)}
    left = {}
    for i in relevant:
        at_most, key = entries[i][3], entries[i][5]
        left[i] = None if at_most is None else at_most - p.used.get(key, 0)
    found = []
    seen = set()
    stack = [((0,) * len(relevant), (), dict(goods))]
    searched = 0
    while stack and searched < PM.MAX_PLANS_SEARCHED:
        uses, path, have = stack.pop()
        searched += 1
        for i in reversed(relevant):
            give, get, window, at_most, source, key = entries[i]
            k = slot[i]
            n_used = uses[k]
            if left[i] is not None and n_used >= left[i]:
                continue
            if any(have[h] < m for h, m in give):
                continue
            if get == "pile":
                pile = piles[i]
                offset = sum(uses[slot[j]] for j in piles if entries[j][4] == source)
                if offset >= len(pile):
                    continue
                out = ((pile[offset], 1),)
                if not any(good in wanted for good in pile[offset:]):
                    continue
            else:
                out = get
                if not any(good in wanted and n > 0 for good, n in out):
                    continue
            nuses = uses[:k] + (n_used + 1,) + uses[k + 1:]
            if nuses in seen:
                continue
            seen.add(nuses)
            nhave = dict(have)
            for h, m in give:
                nhave[h] -= m
            for h, m in out:
                nhave[h] = nhave.get(h, 0) + m
            npath = path + (i,)
            if all(nhave[good] >= n for good, n in need.items()):
                found.append((nuses, npath))
                if first:
                    return [npath]
                continue
            stack.append((nuses, npath, nhave))
    if stack:
        CUT_OFF.append(need)
    return [path for uses, path in found
            if not any(o is not uses and all(a <= b for a, b in zip(o, uses)) for o, _ in found)]


def reference_plans(g, p, options, first=False):
    goods = p.goods
    plans = []
    for oi, cost in enumerate(options):
        need: dict = {}
        for good, n in cost:
            if n > 0:
                need[good] = need.get(good, 0) + n
        short = [good for good, n in need.items() if goods[good] < n]
        if not short:
            plans.append((oi, ()))
            if first:
                return plans
            continue
        quick = PM._quick(g, p, need, short)
        if quick is False:
            continue
        if quick is True and first:
            return [(oi, None)]
        for path in reference_search(g, p, need, short, first):
            plans.append((oi, path))
            if first:
                return plans
    return plans


def checked_games(pack, monkeypatch, seeds, players=2, enough=None):
    """Play ``seeds`` with every payment search compared with the reference; counts of what was compared.
    With ``enough`` (a test of the counts) the games stop once it holds."""
    counts = {"first": 0, "all": 0, "pruned by weights": 0, "plans": 0}
    plans, beyond = PM._plans, PM._beyond_weights

    def compared(g, p, options, first=False):
        expected = reference_plans(g, p, options, first)
        got = plans(g, p, options, first)
        assert got == expected, (options, dict(p.goods), [e[:2] for e in g.exchanges_of(p)])
        counts["first" if first else "all"] += 1
        counts["plans"] += len(got)
        return got

    def counted(g, p, need, short):
        pruned = beyond(g, p, need, short)
        counts["pruned by weights"] += pruned
        return pruned

    monkeypatch.setattr(PM, "_plans", compared)
    monkeypatch.setattr(PM, "_beyond_weights", counted)
    monkeypatch.setattr(PM, "_can_make", lambda g, p, options: bool(compared(g, p, options, first=True)))
    for seed in seeds:
        Game(pack, players, seed=seed, agents=[RandomAgent(f"{seed}:{i}") for i in range(players)]).play()
        if enough is not None and enough(counts):
            break
    return counts


@pytest.mark.python_sources  # replaces payments' functions: compiled callers call them directly
def test_the_search_finds_what_the_reference_finds_through_whole_games(original, monkeypatch):
    # the games met the cases this is about: searches that stop at the first way, searches for every way
    # (a payment with a choice), and searches the weights ruled out. A game meets the last only when a player
    # holds cards whose exchanges make a cycle (about one deal in ten or fifteen, and which ones changes with
    # the cards the decks hold): the games go on from seed 0 until the cases are met
    def met(counts):
        return counts["first"] >= 1000 and counts["all"] >= 20 and counts["pruned by weights"] >= 1000
    counts = checked_games(original, monkeypatch, range(200), enough=met)
    assert met(counts), counts


@pytest.mark.python_sources  # replaces payments' functions: compiled callers call them directly
def test_a_search_cut_off_early_is_cut_off_in_the_same_place(original, monkeypatch):
    """The combinations are tried in the reference's order: with a small limit, the same ways are found."""
    monkeypatch.setattr(PM, "MAX_PLANS_SEARCHED", 12)
    CUT_OFF.clear()

    def met(counts):   # searches cut off come with the same deals as above: the games go on until met
        return counts["all"] >= 10 and len(CUT_OFF) >= 20
    counts = checked_games(original, monkeypatch, range(200), enough=met)
    assert met(counts), (counts, len(CUT_OFF))


def ex(give, get):
    """An exchange as the weights see it: (goods taken, goods given)."""
    return tuple(give.items()), tuple(get.items())


DOCK_WORKER = (ex({"wood": 3}, {"clay": 1}), ex({"wood": 3}, {"reed": 1}), ex({"clay": 2}, {"wood": 1}),
               ex({"clay": 2}, {"reed": 1}), ex({"reed": 2}, {"wood": 1}), ex({"reed": 2}, {"clay": 1}))


def test_weights_hold_through_a_cycle_of_exchanges():
    weights = dict(PM._weights(DOCK_WORKER, "wood"))
    assert weights == {"wood": 2, "clay": 1, "reed": 1}   # 2 clay or 2 reed make 1 wood
    for give, get in DOCK_WORKER:    # no exchange gives more weight than it takes
        assert sum(weights[h] * n for h, n in get) <= sum(weights[h] * n for h, n in give)


def test_weights_through_a_pile_and_an_exchange_of_two_goods():
    pile = ((("food", 1),), frozenset({"wood", "stone"}))   # 1 food for whichever good lies on top
    weights = dict(PM._weights((pile, ex({"grain": 1, "reed": 1}, {"stone": 2})), "stone"))
    assert weights == {"stone": 1, "food": 1, "grain": 2}


def test_no_weights_for_a_cycle_that_gains_or_an_exchange_taking_nothing():
    assert PM._weights((ex({"wood": 1}, {"clay": 2}), ex({"clay": 1}, {"wood": 1})), "wood") is None
    assert PM._weights((ex({}, {"wood": 1}),), "wood") is None


def test_weights_are_exact_fractions_scaled():
    weights = dict(PM._weights((ex({"wood": 3}, {"clay": 1}), ex({"clay": 3}, {"wood": 2})), "wood"))
    assert Fraction(weights["clay"], weights["wood"]) == Fraction(2, 3)


def test_weights_that_floating_point_cannot_hold_are_worked_out_in_fractions():
    """1 wood -> 1 clay and 17 clay -> 1 wood: clay weighs 1/17 of wood, which 720720 does not divide, so
    the rounded weights fail the exact check and the weights are worked out again in fractions."""
    assert PM._weights((ex({"wood": 1}, {"clay": 1}), ex({"clay": 17}, {"wood": 1})), "wood") == (
        ("clay", 1), ("wood", 17))


def test_a_cycle_gaining_less_than_floating_point_sees_has_no_weights():
    """10**13 wood -> 1 clay -> 10**13 + 1 wood gains one wood in 10**13: within the slack of floating point,
    which finds weights; the exact check refuses them and the exact raising finds none."""
    edges = (ex({"wood": 10**13}, {"clay": 1}), ex({"clay": 1}, {"wood": 10**13 + 1}))
    assert PM._raised(edges, "wood", 1.0) == {"wood": 1.0, "clay": 10**13 + 1.0}
    assert PM._weights(edges, "wood") is None


@pytest.mark.parametrize("found, kept", [
    ([((1, 0), "a"), ((1, 1), "b"), ((0, 2), "c")], ["a", "c"]),
    ([((2, 1), "a"), ((0, 1), "b"), ((1, 1), "c")], ["b"]),
    ([((1, 2, 0), "a"), ((2, 1, 0), "b"), ((0, 0, 3), "c")], ["a", "b", "c"]),
    ([((0, 3), "a"), ((1, 2), "b"), ((2, 5), "c")], ["a", "b"]),
    ([((1, 0), "a"), ((0, 7), "b"), ((7, 1), "c")], ["a", "b"]),   # no borrow from one field to the next
])
def test_fewest_keeps_the_combinations_that_contain_no_other_in_the_order_found(found, kept):
    width = 4   # the search packs the counts into one integer, a field of ``width`` bits each
    packed = [(sum(n << (k * width) for k, n in enumerate(uses)), "x" * sum(uses) + path) for uses, path in found]
    assert [path[-1] for path in PM._fewest(packed, width, len(found[0][0]))] == kept



@pytest.mark.python_sources  # replaces payments' functions: compiled callers call them directly
def test_remembered_answers_are_the_fresh_answers_through_whole_games(original, monkeypatch):
    """Whether exchanges can pay a price is remembered per goods (those the prices name or an exchange takes),
    windows and uses (payments._can_make, kept in p.producible until the player's exchanges or piles change);
    every answer, remembered or not, is what a fresh search says at that moment."""
    can_make = PM._can_make
    counts = {"asked": 0, "remembered": 0}

    def compared(g, p, options):
        memo = PM._index(g, p).memo
        before = len(memo)
        got = can_make(g, p, options)
        counts["asked"] += 1
        counts["remembered"] += len(memo) == before
        assert got == bool(PM._plans(g, p, options, first=True)), (options, dict(p.goods))
        return got

    monkeypatch.setattr(PM, "_can_make", compared)
    def met():
        return counts["asked"] >= 1000 and counts["remembered"] >= 500

    # how often a game asks depends on the cards the decks deal: the games go on until the cases are met
    for players, seeds in ((4, range(50, 55)), (2, range(30, 130))):
        for seed in seeds:
            if players == 2 and met():
                break
            Game(original, players, seed=seed, agents=[RandomAgent(f"{seed}:{i}") for i in range(players)]).play()
    assert met(), counts


def test_few_cards_make_a_cycle_of_exchanges(original):
    g = Game(original, 2, seed=0, agents=[RandomAgent(0), RandomAgent(1)])
    p = g.players[0]
    p.producible = None
    assert not PM._in_cycle(g, p)          # the base exchanges (grain eaten raw, …) only
    # the deck's cards whose exchanges alone form a cycle (one such card turns wood into clay and back)
    cyclic = []
    for cid in sorted(original.all_cards):
        trial = g.copy_state()
        q = trial.players[0]
        q.producible = None
        trial.install_card(q, original.all_cards[cid])
        if PM._in_cycle(trial, q):
            cyclic.append(cid)
    assert 1 <= len(cyclic) <= 5, cyclic   # rare: most exchanges only turn goods into food


def hand_made(pack, goods, exchanges, piles):
    """A 2-player game whose P1 holds ``goods``, the rules' exchanges and ``exchanges`` ((give, get, window,
    at most, source) each, as a card's would be), and the ``piles`` on those sources (top first)."""
    g = Game(pack, 2, seed=0)
    p = g.players[0]
    for good in p.goods:
        p.goods[good] = 0
    p.goods.update(goods)
    p.exchanges[:] = [(give, get, window, at_most, source, f"x:{source}")
                      for give, get, window, at_most, source in exchanges]
    p.card_state["piles"] = {source: list(stack) for source, stack in piles.items()}
    p.producible = None
    return g, p


def test_the_search_over_piles_limits_and_exchanges_of_two_goods_finds_what_the_reference_finds(revised):
    """Exchanges 2 to 6 (after the rules' 2): food for the top of a pile (stone, then sheep: the sheep is
    wanted by nothing), the same from a pile of the harvest (closed now), 1 wood -> 1 stone once, 1 clay and
    2 reed -> 1 stone (the second use lacks reed, the second good taken), 1 food -> 1 sheep and 1 stone
    (the first good made is not wanted). Every way is the reference's; the ways offered are those not worse
    in every good, a use of the limited exchange or a good of the pile counted as goods."""
    g, p = hand_made(revised, {"food": 2, "wood": 2, "clay": 2, "reed": 3}, [
        ((("food", 1),), "pile", "any_time", None, "pile_a"),
        ((("food", 1),), "pile", "harvest", None, "pile_b"),
        ((("wood", 1),), (("stone", 1),), "any_time", 1, "limited"),
        ((("clay", 1), ("reed", 2)), (("stone", 1),), "any_time", None, "two"),
        ((("food", 1),), (("sheep", 1), ("stone", 1)), "any_time", None, "both"),
    ], {"pile_a": ["stone", "sheep"], "pile_b": ["stone"]})
    expected = {2: [(0, (2, 6)), (0, (2, 5)), (0, (2, 4)), (0, (4, 6)), (0, (4, 5)), (0, (5, 6)), (0, (6, 6))],
                3: [(0, (2, 4, 6)), (0, (2, 4, 5)), (0, (2, 5, 6)), (0, (4, 5, 6)), (0, (4, 6, 6)), (0, (5, 6, 6))],
                4: [(0, (2, 4, 5, 6)), (0, (4, 5, 6, 6))],
                5: []}
    best = {2: [(0, (4, 5)), (0, (4, 6)), (0, (5, 6)), (0, (6, 6))],
            3: [(0, (4, 5, 6)), (0, (4, 6, 6)), (0, (5, 6, 6))],
            4: [(0, (4, 5, 6, 6))]}
    for n, plans in expected.items():
        options = ((("stone", n),),)
        assert PM._plans(g, p, options) == reference_plans(g, p, options) == plans, n
        if plans:
            ordered = sorted(plans, key=lambda plan: (plan[0], len(plan[1]), sorted(plan[1])))
            assert PM._best_plans(g, p, options, ordered) == best[n], n


def test_a_search_through_a_cycle_and_a_pile_finds_what_the_reference_finds(revised):
    """1 wood -> 2 clay (once) and 1 clay -> 1 wood (twice) gain in a cycle: no weights bound it, and the
    pile of clay is one of the exchanges the weights look at."""
    g, p = hand_made(revised, {"wood": 1, "food": 1}, [
        ((("food", 1),), "pile", "any_time", None, "pile_a"),
        ((("wood", 1),), (("clay", 2),), "any_time", 1, "up"),
        ((("clay", 1),), (("wood", 1),), "any_time", 2, "down"),
    ], {"pile_a": ["clay"]})
    assert PM._in_cycle(g, p)
    for need, plans in ((("clay", 3), [(0, (2, 3))]), (("clay", 4), []), (("wood", 2), [(0, (2, 4)), (0, (3, 4, 4))]),
                        (("wood", 3), [])):
        assert PM._plans(g, p, ((need,),)) == reference_plans(g, p, ((need,),)) == plans, need


def test_whether_exchanges_can_pay_is_remembered_for_hashable_prices_only(revised, monkeypatch):
    """The answers of _can_make are remembered per price, the goods it names or an exchange takes, the windows
    and the uses of limited exchanges; a price given to it as a list is answered afresh each time (can_afford turns one into a tuple first); past 4096 answers the memory
    is emptied first. The first way that needs no exchange answers the question at once."""
    g, p = hand_made(revised, {"wood": 1, "food": 1}, [
        ((("wood", 1),), (("clay", 2),), "any_time", 1, "up"),
        ((("clay", 1),), (("wood", 1),), "any_time", 2, "down"),
    ], {})
    memo = PM._index(g, p).memo
    weights = ("weights", "clay", False, frozenset(), (0, 0))   # the weights of the exchanges usable now, for clay
    assert PM._can_make(g, p, ([("clay", 2)],)) and not PM._can_make(g, p, ([("clay", 3)],))
    assert memo == {"cycle": True, weights: None}   # no answer remembered; the weights: none bound this cycle
    assert PM.can_afford(g, p, (("clay", 2),))

    def answer(price):   # the key: the price, the windows, the uses of up and down, the goods taken and named
        held = tuple(p.goods[good] for good in PM._index(g, p).taken) + tuple(p.goods[good] for good, _ in price)
        return (price,), False, frozenset(), (0, 0), held

    assert memo == {"cycle": True, weights: None, answer((("clay", 2),)): True}
    memo.update({("filler", i): False for i in range(4094)})
    assert len(memo) == 4097 and not PM.can_afford(g, p, (("clay", 3),))
    # emptied before the answer was added: the answer, and the cycle and weights the search asked for again
    assert memo == {"cycle": True, weights: None, answer((("clay", 3),)): False}
    assert PM._plans(g, p, ((("wood", 1),), (("clay", 2),)), first=True) == [(0, ())]
    assert PM.can_afford(g, p, [("clay", 2)]) and not PM.can_afford(g, p, [("clay", 3)])   # a list, as a tuple


def test_an_exchange_taking_nothing_leaves_the_bound_open(revised):
    """An unlimited exchange that takes nothing (as the weights allow, ``_weights``) makes as much as is
    wanted: the bound along chains of exchanges gives up, and the search finds its ways. (One stone is
    surely there without a search: the pile's top, for the food held.)"""
    g, p = hand_made(revised, {"food": 1}, [
        ((("food", 1),), "pile", "any_time", None, "pile_a"),
        ((), (("stone", 1),), "any_time", None, "free"),
    ], {"pile_a": ["stone"]})
    for n, quick, plans in ((1, True, [(0, (3,)), (0, (2,))]), (3, None, [(0, (2, 3, 3)), (0, (3, 3, 3))])):
        options = ((("stone", n),),)
        assert PM._quick(g, p, {"stone": n}, ["stone"]) is quick
        assert PM._plans(g, p, options) == reference_plans(g, p, options) == plans


def test_the_bound_through_a_chain_counts_only_the_uses_left_of_a_limited_exchange(revised):
    """1 wood -> 1 sheep, then 1 sheep -> 2 food at most twice, once used already: 3 wood make at most 2
    food (one use left), so 4 food are surely out of reach without a search; 2 are not."""
    g, p = hand_made(revised, {"wood": 3, "food": 0}, [
        ((("wood", 1),), (("sheep", 1),), "any_time", None, "w2s"),
        ((("sheep", 1),), (("food", 2),), "any_time", 2, "s2f"),
    ], {})
    p.used["x:s2f"] = 1
    assert PM._quick(g, p, {"food": 4}, ["food"]) is False
    assert PM._quick(g, p, {"food": 2}, ["food"]) is None   # within the bound: a search tells
    assert PM._plans(g, p, ((("food", 4),),)) == reference_plans(g, p, ((("food", 4),),)) == []
    assert PM._plans(g, p, ((("food", 2),),)) == reference_plans(g, p, ((("food", 2),),)) != []


def test_what_a_pile_gives_for_the_goods_held_is_there_without_a_search(revised):
    """The bound that proves a payment possible counts what a pile gives from its top for the goods held
    beyond the price: 2 food reach the wood under the grain, 1 food only the grain. The second wood needs
    the grain eaten for a third food: only the search finds that way, the same as the reference's."""
    g, p = hand_made(revised, {"food": 2}, [((("food", 1),), "pile", "any_time", None, "pile_a")],
                     {"pile_a": ["grain", "wood", "wood"]})
    assert PM._quick(g, p, {"wood": 1}, ["wood"]) is True
    assert PM._quick(g, p, {"wood": 2}, ["wood"]) is None
    for n, plans in ((1, [(0, (2, 2))]), (2, [(0, (2, 0, 2, 2))]), (3, [])):
        options = ((("wood", n),),)
        assert PM._plans(g, p, options) == reference_plans(g, p, options) == plans, n
    p.goods["food"] = 1
    assert PM._quick(g, p, {"wood": 1}, ["wood"]) is None


@pytest.mark.python_sources  # replaces payments' _search: compiled callers call it directly
def test_the_weights_rule_out_a_pile_the_goods_held_cannot_reach(revised, monkeypatch):
    """Food for a pile's grain, and the rules' grain eaten as food: a way round through the pile, which the
    bound along chains of exchanges does not follow (nor _in_cycle, which leaves piles out). The weights do
    (food and grain weigh the same): with neither held, no food is in reach, and no search is made."""
    g, p = hand_made(revised, {}, [((("food", 1),), "pile", "any_time", None, "pile_a")], {"pile_a": ["grain", "grain"]})
    assert PM._quick(g, p, {"food": 1}, ["food"]) is None and not PM._in_cycle(g, p)
    assert PM._beyond_weights(g, p, {"food": 1}, ["food"])
    searched = []
    search = PM._search
    monkeypatch.setattr(PM, "_search", lambda *args: searched.append(args) or search(*args))
    assert PM._plans(g, p, ((("food", 1),),)) == [] and searched == []
    assert reference_plans(g, p, ((("food", 1),),)) == []


def test_a_good_neither_the_price_names_nor_an_exchange_takes_keeps_a_remembered_answer(revised):
    """_can_make's key holds of the goods only those the prices name or an exchange takes: more wood (taken
    by none of these exchanges) finds the answer remembered; less grain (eaten as food) asks again."""
    g, p = hand_made(revised, {"grain": 1}, [], {})
    memo = PM._index(g, p).memo
    assert "wood" not in PM._index(g, p).taken
    assert PM.can_afford(g, p, (("food", 1),))
    remembered = dict(memo)
    p.goods["wood"] += 3
    assert PM.can_afford(g, p, (("food", 1),)) and memo == remembered
    p.goods["grain"] = 0
    assert not PM.can_afford(g, p, (("food", 1),)) and len(memo) == len(remembered) + 1
