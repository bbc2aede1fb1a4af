"""Two things the compiler generates for speed (docs/architecture.md, "Speed, session 8"): a tier written
out as a chain of comparisons instead of a call of ``Q.tier``, and the scoring categories added up in one
function (``rules.score_total``) that the greedy agent's heuristic calls for a player whose cards change
no category. Both give what they stand for."""
from __future__ import annotations

import pytest

from compiler import nodes as N
from compiler.codegen import Gen
from runtime import queries as Q
from runtime.agents import RandomAgent, heuristic
from runtime.engine import Game


def _tier_function(entries):
    code = Gen(None).expr(N.Tier(N.Quantity("rooms"), [(k, v) for k, v in entries]))
    namespace = {"Q": Q}
    exec(f"def f(g, p):\n    return {code}", namespace)
    return code, namespace["f"]


class _P:
    def __init__(self, rooms):
        self.room_count = rooms


@pytest.mark.parametrize("entries", [
    ((0, -1), (2, 1), (3, 2), (4, 3), (5, 4)),
    ((1, 3), (2, 1)),
    ((3, 1),),
    ((-2, 5), (0, 0), (7, -3)),
])
@pytest.mark.python_sources  # a stand-in player and no game, which typed compiled functions refuse
def test_a_rising_tier_is_written_out_and_gives_what_q_tier_gives(entries):
    code, f = _tier_function(entries)
    assert "Q.tier" not in code and ":=" in code
    for rooms in range(-4, 12):
        assert f(None, _P(rooms)) == Q.tier(rooms, entries), (code, rooms)


@pytest.mark.python_sources  # a stand-in player and no game, which typed compiled functions refuse
def test_a_tier_inside_a_tier_is_worked_out_before_the_outer_one_reads_its_value():
    inner = N.Tier(N.Quantity("rooms"), [(1, 5), (3, 9)])
    code = Gen(None).expr(N.Tier(inner, [(5, 1), (9, 2)]))
    namespace = {"Q": Q}
    exec(f"def f(g, p):\n    return {code}", namespace)
    for rooms in range(0, 6):
        assert namespace["f"](None, _P(rooms)) == Q.tier(Q.tier(rooms, ((1, 5), (3, 9))), ((5, 1), (9, 2)))


@pytest.mark.parametrize("pack_name", ["revised", "family", "original"])
@pytest.mark.python_sources  # replaces the game's emit
def test_the_total_is_the_sum_of_the_categories_through_games(pack_name, request):
    pack = request.getfixturevalue(pack_name)
    checked = 0
    for seed in range(4):
        g = Game(pack, 2, seed=seed, agents=[RandomAgent(f"{seed}:{i}") for i in range(2)])
        total = g.rules.score_total
        assert total is not None
        emit = g.emit

        def watched(key, p=None, *args, **kwargs):
            nonlocal checked
            for q in g.players:
                if not q.mods.get("score"):
                    assert total(g, q) == sum(fn(g, q) for cid, label, fn in g.rules.scoring)
                    checked += 1
            return emit(key, p, *args, **kwargs)

        g.emit = watched
        g.play()
    assert checked >= 100, checked


@pytest.mark.parametrize("pack_name", ["revised", "family"])
def test_the_heuristic_is_the_same_whichever_way_the_farm_is_added_up(pack_name, request, monkeypatch):
    """The greedy agent's heuristic adds the categories up one by one for a player whose cards change a
    category, and calls ``rules.score_total`` otherwise: on the same farm both give the same value."""
    pack = request.getfixturevalue(pack_name)
    for seed in range(3):
        g = Game(pack, 2, seed=seed, agents=[RandomAgent(f"{seed}:{i}") for i in range(2)])
        while g.round < 6 + seed:
            g.play_round()
        assert g.rules.score_total is not None
        one_call = [heuristic(g, p) for p in g.players]
        with monkeypatch.context() as m:
            m.setattr(g.rules, "score_total", None)
            added_up = [heuristic(g, p) for p in g.players]
        assert added_up == one_call
