"""Cost modifiers compose independently of the order in which the cards came into play.

The cards that change prices are found from the compiled pack itself: each card is put into play on a
fresh player, and those that leave a price modifier (a change, a set price or a substitution) are the
cost-modifying cards. For every pair of them, in both orders, every price a player can meet (room,
renovation, stable, fence, every improvement, an occupation) must come out the same, in wooden, clay
and stone houses. (tests/scenarios/engine/cost_modifiers_in_any_order.yaml has the cases by name.)
"""
from __future__ import annotations

from itertools import combinations

from runtime import primitives as P
from runtime.engine import Game

PRICE_MODS = ("cost", "substitute", "free_fences")


def cost_modifying_cards(pack) -> list[str]:
    found = []
    for cid in sorted(pack.all_cards):
        g = Game(pack, 2, seed=0)
        p = g.players[0]
        g.install_card(p, pack.all_cards[cid])
        if any(p.mods.get(kind) for kind in PRICE_MODS):
            found.append(cid)
    return found


def _norm(options):
    return sorted(tuple(sorted((good, n) for good, n in o if n)) for o in options)


def price_sheet(pack, cards, house, extra_room):
    g = Game(pack, 2, seed=0)
    p = g.players[0]
    p.house = house
    if extra_room:
        p.rooms |= 1 << p.grid.index("A1")
        p.room_count += 1
    for cid in cards:
        g.install_card(p, pack.all_cards[cid])
    sheet = {
        "room": _norm(P.room_options(g, p)),
        "stable": _norm(P.stable_options(g, p)),
        "fence": _norm(P._fence_payments(g, p, P.fence_price_per(g, p))),
        "free fences": p.mods.get("free_fences", 0),
    }
    for target in g.rules.materials:
        sheet[f"renovation to {target}"] = _norm(P.renovation_options(g, p, target))
    fee = (("food", 1),)
    for cid, card in sorted(pack.all_cards.items()):
        if card.kind == "occupation":
            sheet[cid] = _norm(P.occupation_cost_options(g, p, card, fee))
        else:
            sheet[cid] = _norm(P.card_cost_options(g, p, card))
    return sheet


def test_the_pack_has_cost_modifying_cards(revised):
    assert len(cost_modifying_cards(revised)) >= 2


def test_every_pair_of_cost_modifiers_composes_in_either_order(revised):
    cards = cost_modifying_cards(revised)
    pairs = list(combinations(cards, 2))
    assert len(pairs) == len(cards) * (len(cards) - 1) // 2
    problems = []
    for a, b in pairs:
        for house in revised.rules.materials:
            for extra_room in (False, True):
                one = price_sheet(revised, (a, b), house, extra_room)
                other = price_sheet(revised, (b, a), house, extra_room)
                for what in one:
                    if one[what] != other[what]:
                        problems.append(f"{a} then {b} ({house} house, extra room {extra_room}): {what} costs "
                                        f"{one[what]}, but {b} then {a} gives {other[what]}")
    assert not problems, "\n".join(problems[:20])
