"""Farmyard geometry: enclosure, adjacency, subdivision, capacities, illegal fences, regions, best keeps.

Expected values are worked out by hand from the rules (1 wood per fence, at most 15 fences, a pasture is
a fully enclosed connected area, new pastures touch existing ones, divisions leave connected parts,
2 animals per pasture space doubled per stable, 1 animal per unfenced stable, 1 pet in the house) or
by brute force written here, independently of runtime.farm.
"""
from __future__ import annotations

import itertools
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runtime import primitives as P
from runtime.agents import RandomAgent, ScriptedAgent, ScriptError
from runtime.engine import Game
from runtime.farm import best_keeps, capacity_frontier, fencing_options, fits, grid, open_fence_edges

ROWS, COLS = 3, 5
N = ROWS * COLS
H_EDGES = (ROWS + 1) * COLS          # documented layout: horizontal edges first, then vertical ones


# ---------------------------------------------------------------- independent geometry helpers

def idx(name: str) -> int:
    return "ABC".index(name[0]) * COLS + int(name[1:]) - 1


def M(text: str) -> int:
    """'A3+A4' -> bit mask."""
    m = 0
    for part in text.split("+"):
        m |= 1 << idx(part)
    return m


def cells(mask: int) -> list[int]:
    return [i for i in range(N) if mask >> i & 1]


def adjacent(i: int, j: int) -> bool:
    ri, ci = divmod(i, COLS)
    rj, cj = divmod(j, COLS)
    return abs(ri - rj) + abs(ci - cj) == 1


def bf_connected(mask: int) -> bool:
    cs = cells(mask)
    if not cs:
        return False
    seen = {cs[0]}
    todo = [cs[0]]
    while todo:
        i = todo.pop()
        for j in cs:
            if j not in seen and adjacent(i, j):
                seen.add(j)
                todo.append(j)
    return len(seen) == len(cs)


def cell_edges(i: int) -> set:
    r, c = divmod(i, COLS)
    return {("h", r, c), ("h", r + 1, c), ("v", r, c), ("v", r, c + 1)}


def bf_boundary(mask: int) -> set:
    out: set = set()
    for i in cells(mask):
        out ^= cell_edges(i)
    return out


def edge_bit(e) -> int:
    kind, r, c = e
    return 1 << (r * COLS + c if kind == "h" else H_EDGES + r * (COLS + 1) + c)


def edges_mask(edges) -> int:
    m = 0
    for e in edges:
        m |= edge_bit(e)
    return m


def bf_fences(pastures) -> set:
    out: set = set()
    for m in pastures:
        out |= bf_boundary(m)
    return out


@lru_cache(maxsize=1)
def all_connected_masks() -> frozenset:
    """Every connected set of spaces of the 3x5 farmyard, by brute force over all 2^15 subsets."""
    return frozenset(m for m in range(1, 1 << N) if bf_connected(m))


def bf_fencing_options(blocked: int, pastures, budget: int = 10 ** 9, limit=15):
    """Every single legal fencing step, computed from the rules: returns a set of
    (cost, frozenset of the pastures the step creates, divided pasture or 0)."""
    fenced = 0
    for m in pastures:
        fenced |= m
    fences = bf_fences(pastures)
    free = ((1 << N) - 1) & ~blocked & ~fenced
    out = set()
    for region in all_connected_masks():
        if region & ~free:
            continue
        if fenced and not any(adjacent(i, j) for i in cells(region) for j in cells(fenced)):
            continue
        cost = len(bf_boundary(region) - fences)
        if cost <= budget and (limit is None or len(fences) + cost <= limit):
            out.add((cost, frozenset([region]), 0))
    for pasture in pastures:
        for region in all_connected_masks():
            rest = pasture & ~region
            if region & ~pasture or not rest or not bf_connected(rest):
                continue
            cost = len(bf_boundary(region) - fences)
            if cost <= budget and (limit is None or len(fences) + cost <= limit):
                out.add((cost, frozenset([region, rest]), pasture))
    return out


def engine_option_set(options):
    out = set()
    for cost, region, split in options:
        parts = frozenset([region, split & ~region]) if split else frozenset([region])
        out.add((cost, parts, split))
    return out


# ---------------------------------------------------------------- game helpers

class Recorder:
    """Answers every request with the first option (or 'stop' once possible) and records the requests."""

    trusted = True

    def __init__(self, stop_after=1):
        self.requests = []
        self.stop_after = stop_after

    def choose(self, game, player, kind, options, labels=None, prompt=None):
        self.requests.append((kind, list(options)))
        if kind == "fence" and P.STOP in options and sum(k == "fence" for k, _ in self.requests) > self.stop_after:
            return P.STOP
        return options[0]


def new_game(pack, agent=None):
    g = Game(pack, 1, seed=0, agents=[agent or RandomAgent(0)])
    p = g.players[0]
    for k in p.goods:
        p.goods[k] = 0
    return g, p


def set_pastures(p, pastures):
    p.pastures = tuple(sorted(pastures))
    p.fences = edges_mask(bf_fences(pastures))


# ================================================================ enclosure

def test_edge_layout_and_corner_pasture_needs_board_edge_fences():
    gr = grid(3, 5)
    # A5 is the top-right corner: its top and right sides lie on the board edge and still need fences.
    assert gr.boundary(M("A5")) == edges_mask({("h", 0, 4), ("h", 1, 4), ("v", 0, 4), ("v", 0, 5)})
    assert bin(gr.boundary(M("A5"))).count("1") == 4
    # A 2x1 pasture: 2 * 4 sides - 2 for the shared side = 6 fences.
    assert bin(gr.boundary(M("A4+A5"))).count("1") == 6
    # 2x2: 8 fences; a full 3x5 board: 2 * (3 + 5) = 16.
    assert bin(gr.boundary(M("A4+A5+B4+B5"))).count("1") == 8
    assert bin(gr.boundary(gr.full)).count("1") == 16


def test_costs_of_first_pastures_on_the_starting_farm(family):
    g, p = new_game(family)
    assert p.rooms == M("B1+C1")
    opts = {region: cost for cost, region, split in fencing_options(p.grid, p.rooms, (), 0)}
    assert opts[M("A3")] == 4          # single space: 4 fences
    assert opts[M("A1")] == 4          # corner against the board edge and the house: still 4
    assert opts[M("A5")] == 4
    assert opts[M("C5")] == 4
    assert opts[M("A3+A4")] == 6       # 2x1: 6
    assert opts[M("B3+C3")] == 6
    assert opts[M("A4+A5+B4+B5")] == 8
    assert opts[M("A2+A3+A4+A5+B2+B3+B4+B5")] == 12   # 2x4: 12
    # every new pasture costs 4 per space minus 2 per pair of neighbouring spaces
    for region, cost in opts.items():
        cs = cells(region)
        pairs = sum(1 for a, b in itertools.combinations(cs, 2) if adjacent(a, b))
        assert cost == 4 * len(cs) - 2 * pairs


# ================================================================ adjacency

def test_new_pastures_must_touch_an_existing_pasture(family):
    g, p = new_game(family)
    set_pastures(p, [M("A3")])
    opts = fencing_options(p.grid, p.rooms, p.pastures, p.fences)
    new = {region: cost for cost, region, split in opts if not split}
    assert M("A4") in new and new[M("A4")] == 3      # shares the A3|A4 fence: 4 - 1
    assert M("B3") in new and new[M("B3")] == 3
    assert M("A2") in new and new[M("A2")] == 3
    assert M("A5") not in new                        # not adjacent
    assert M("B4") not in new                        # diagonal only
    assert M("C3") not in new
    assert M("B4+B5") not in new
    assert new[M("A4+A5")] == 5                      # 6 - the shared fence
    for region in new:
        assert any(adjacent(i, idx("A3")) for i in cells(region)), region
        assert not region & M("A3")


# ================================================================ subdivision

def test_dividing_a_two_space_pasture_costs_the_shared_fence(family):
    g, p = new_game(family)
    set_pastures(p, [M("A3+A4")])
    assert bin(p.fences).count("1") == 6
    p.goods["wood"] = 10
    divisions = [o for o in fencing_options(p.grid, p.rooms, p.pastures, p.fences) if o[2]]
    assert divisions == [(1, M("A4"), M("A3+A4"))]
    P._apply_fence_step(g, p, divisions[0], P.fence_price_per(g, p), False)
    assert p.goods["wood"] == 9
    assert p.pastures == tuple(sorted([M("A3"), M("A4")]))
    assert bin(p.fences).count("1") == 7
    assert p.fences == edges_mask(bf_fences([M("A3"), M("A4")]))


def test_division_leaving_a_disconnected_part_is_not_offered(family):
    g, p = new_game(family)
    line = M("A3+A4+A5")
    set_pastures(p, [line])
    divisions = engine_option_set(o for o in fencing_options(p.grid, p.rooms, p.pastures, p.fences) if o[2])
    # cutting off the middle space A4 would leave A3 and A5 apart
    assert (2, frozenset([M("A4"), M("A3+A5")]), line) not in divisions
    assert divisions == {
        (1, frozenset([M("A3"), M("A4+A5")]), line),
        (1, frozenset([M("A3+A4"), M("A5")]), line),
    }
    for cost, parts, split in divisions:
        assert all(bf_connected(part) for part in parts)


def test_divisions_of_a_square_pasture(family):
    g, p = new_game(family)
    sq = M("A4+A5+B4+B5")
    set_pastures(p, [sq])
    divisions = engine_option_set(o for o in fencing_options(p.grid, p.rooms, p.pastures, p.fences) if o[2])
    # 4 single corners (2 new fences each) and 2 halves (2 new fences each); no diagonal split
    assert divisions == {
        (2, frozenset([M("A4"), M("A5+B4+B5")]), sq),
        (2, frozenset([M("A5"), M("A4+B4+B5")]), sq),
        (2, frozenset([M("B4"), M("A4+A5+B5")]), sq),
        (2, frozenset([M("B5"), M("A4+A5+B4")]), sq),
        (2, frozenset([M("A4+A5"), M("B4+B5")]), sq),
        (2, frozenset([M("A4+B4"), M("A5+B5")]), sq),
    }


# ================================================================ engine options == brute force

FARMS = [
    # (rooms, fields, pastures)
    ("B1+C1", "", []),
    ("B1+C1", "B2+C2", ["A3+A4"]),
    ("A1+B1+C1", "A2", ["A4+A5+B4+B5"]),
    ("B1+C1", "", ["A2+A3+A4+A5+B2+B3+B4+B5"]),
    ("B1+C1", "C2+C3", ["A3", "A4", "B4+B5"]),
    ("B1+C1", "", ["B3+B4+B5+C3+C4+C5"]),
]


@pytest.mark.parametrize("rooms,fields,pastures", FARMS)
def test_fencing_options_match_brute_force(family, rooms, fields, pastures):
    gr = grid(3, 5)
    blocked = M(rooms) | (M(fields) if fields else 0)
    pms = [M(x) for x in pastures]
    fences = edges_mask(bf_fences(pms))
    opts = fencing_options(gr, blocked, tuple(sorted(pms)), fences)
    # the raw geometry lists every step; the verb applies the wood and 15-fence limits (tested below)
    assert engine_option_set(opts) == bf_fencing_options(blocked, pms, limit=None)
    for cost, region, split in opts:
        assert not region & blocked            # never a room or a field
    assert len(opts) == len(engine_option_set(opts))   # no duplicates


@pytest.mark.parametrize("rooms,fields,pastures", FARMS)
@pytest.mark.parametrize("touching", [True, False])
def test_new_pastures_of_n_spaces_are_found_within_2n_plus_2_fences(family, rooms, fields, pastures, touching):
    """'fence n spaces' looks for its pastures among the steps of at most 2n+2 new fences (primitives.fences.
    _new_pastures_of: no pasture of n spaces has more fences around it): the same steps, in the same order, as
    among all the steps of the whole budget."""
    gr = grid(3, 5)
    blocked = M(rooms) | (M(fields) if fields else 0)
    pms = tuple(sorted(M(x) for x in pastures))
    fences = edges_mask(bf_fences(list(pms)))
    found = 0
    for n in range(1, 7):
        for budget in range(0, 16):
            whole = [o for o in fencing_options(gr, blocked, pms, fences, budget, touching)
                     if bin(o[1]).count("1") == n and not o[2]]
            capped = [o for o in fencing_options(gr, blocked, pms, fences, min(budget, 2 * n + 2), touching)
                      if bin(o[1]).count("1") == n and not o[2]]
            assert capped == whole, (n, budget)
            found += len(whole)
    assert found > 0


def test_fence_spaces_offers_the_new_pastures_of_its_size(revised):
    """The verb 'fence 1 space' (free) offers every new pasture of one space the farm allows, and can_… agrees."""
    g = Game(revised, 2, seed=0)
    p = g.players[0]
    steps = P.fences._new_pastures_of(g, p, 15, 1)
    assert steps == [o for o in P.fencing_steps(g, p, 15) if o[1] & (o[1] - 1) == 0 and not o[2]]
    assert len(steps) == 13 and P.can_fence_spaces(g, p, None, 1, True)   # 15 spaces less the 2 rooms


# ================================================================ illegal fences through the verb

def test_no_option_covers_a_room_or_field_and_budget_is_wood(family):
    agent = Recorder()
    g, p = new_game(family, agent)
    p.fields = {idx("B2"): [None, 0], idx("A1"): ["grain", 2]}
    p.field_mask = M("B2+A1")
    p.goods["wood"] = 5
    assert P.can_build_fences(g, p)
    assert P.build_fences(g, p)
    kind, first = agent.requests[0]
    assert kind == "fence"
    # 5 wood: only single spaces (4 fences) are affordable; 2 rooms + 2 fields leave 11 spaces
    want = {(4, frozenset([1 << i]), 0) for i in range(N) if not (1 << i) & M("B1+C1+B2+A1")}
    assert engine_option_set(first) == want
    assert p.goods["wood"] == 1
    assert len(p.pastures) == 1 and not p.pastures[0] & M("B1+C1+B2+A1")


def test_not_enough_wood_means_no_fencing(family):
    agent = Recorder()
    g, p = new_game(family, agent)
    p.goods["wood"] = 3
    assert not P.can_build_fences(g, p)
    assert not P.build_fences(g, p)
    assert agent.requests == [] and p.pastures == () and p.goods["wood"] == 3


def test_fence_supply_limit_of_15(family):
    agent = Recorder()
    g, p = new_game(family, agent)
    big = M("A2+A3+A4+A5+B2+B3+B4+B5")
    set_pastures(p, [big])
    assert bin(p.fences).count("1") == 12
    p.goods["wood"] = 100
    assert P.build_fences(g, p)
    kind, first = agent.requests[0]
    got = engine_option_set(first)
    # 3 fences left: C2..C5 alone (3 each), divisions of the 2x4 costing 2 or 3
    assert got == bf_fencing_options(M("B1+C1"), [big], budget=3)
    assert (3, frozenset([M("C2")]), 0) in got
    assert all(cost <= 3 for cost, _, _ in got)
    assert not any(parts == frozenset([M("C2+C3")]) for _, parts, _ in got)   # would need 4 more
    for cost, region, split in first:
        assert len(bf_fences([big]) | bf_boundary(region)) <= 15


def test_fences_never_exceed_15_after_any_sequence(family):
    agent = Recorder(stop_after=100)     # keeps fencing as long as there is an option
    g, p = new_game(family, agent)
    p.goods["wood"] = 100
    P.build_fences(g, p)
    assert bin(p.fences).count("1") <= 15
    assert p.goods["wood"] == 100 - bin(p.fences).count("1")
    assert p.fences == edges_mask(bf_fences(p.pastures))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(min_value=0, max_value=10 ** 6), min_size=1, max_size=8),
       st.integers(min_value=0, max_value=20))
def test_random_fencing_sequences_stay_legal(family, picks, wood):
    g, p = new_game(family)
    p.goods["wood"] = wood
    per = P.fence_price_per(g, p)
    spent = 0
    for k in picks:
        budget = min(15 - bin(p.fences).count("1"), p.goods["wood"])
        opts = P.fencing_steps(g, p, P._fence_budget(g, p, per, False))
        assert engine_option_set(opts) == bf_fencing_options(p.rooms | p.field_mask, list(p.pastures), budget)
        if not opts:
            break
        step = opts[k % len(opts)]
        P._apply_fence_step(g, p, step, per, False)
        spent += step[0]
        assert p.fences == edges_mask(bf_fences(p.pastures))
        assert bin(p.fences).count("1") <= 15
        union = 0
        for m in p.pastures:
            assert bf_connected(m) and not m & union and not m & p.rooms
            union |= m
    assert p.goods["wood"] == wood - spent == wood - bin(p.fences).count("1")


# ================================================================ capacities

def test_pasture_capacity_with_stables(family):
    g, p = new_game(family)
    set_pastures(p, [M("A3")])
    assert P.housing(g, p) == (((2, -1),), 1)          # 2 per space; the house holds 1
    p.stables = M("A3")
    assert P.housing(g, p) == (((4, -1),), 1)          # x2 for the stable
    set_pastures(p, [M("A3+A4")])
    p.stables = 0
    assert P.housing(g, p)[0] == ((4, -1),)
    p.stables = M("A3")
    assert P.housing(g, p)[0] == ((8, -1),)
    p.stables = M("A3+A4")
    assert P.housing(g, p) == (((16, -1),), 1)         # 2 spaces * 2 * 2 * 2 = 16
    assert P.animals_fit(g, p, (16, 0, 0))
    assert P.animals_fit(g, p, (0, 0, 17))             # 16 + the pet in the house
    assert not P.animals_fit(g, p, (18, 0, 0))
    assert P.animals_fit(g, p, (16, 1, 0))
    assert not P.animals_fit(g, p, (16, 1, 1))


def test_unfenced_stable_and_house(family):
    g, p = new_game(family)
    assert P.housing(g, p) == ((), 1)
    assert P.animals_fit(g, p, (0, 0, 0))
    assert P.animals_fit(g, p, (1, 0, 0)) and P.animals_fit(g, p, (0, 0, 1))
    assert not P.animals_fit(g, p, (2, 0, 0))
    assert not P.animals_fit(g, p, (0, 1, 1))
    p.stables = M("A5")                                 # an unfenced stable holds 1 animal of any type
    assert P.housing(g, p) == ((), 2)
    assert P.animals_fit(g, p, (0, 1, 1))
    assert P.animals_fit(g, p, (2, 0, 0))
    assert not P.animals_fit(g, p, (1, 1, 1))
    p.stables = M("A5+C5")
    assert P.animals_fit(g, p, (1, 1, 1))


def test_one_type_per_pasture(family):
    g, p = new_game(family)
    set_pastures(p, [M("A3"), M("A4")])                 # two 1-space pastures, no stables: 2 + 2
    assert P.animals_fit(g, p, (4, 0, 0))
    assert P.animals_fit(g, p, (2, 2, 1))               # the cow is the pet
    assert P.animals_fit(g, p, (3, 2, 0))               # 2 sheep + 2 boar fenced, 1 sheep in the house
    assert not P.animals_fit(g, p, (3, 3, 0))           # one extra sheep and one extra boar, one house
    assert not P.animals_fit(g, p, (2, 2, 2))           # a pasture cannot mix types
    p.stables = M("C5")                                 # an unfenced stable for the other extra
    assert P.animals_fit(g, p, (3, 3, 0))
    assert not P.animals_fit(g, p, (3, 3, 1))
    assert not P.animals_fit(g, p, (4, 3, 0))


def bf_fits(caps, singles, counts):
    """Brute force: give each container one type, the rest go one by one into the single spaces."""
    types = len(counts)
    for assign in itertools.product(range(types), repeat=len(caps)):
        room = [0] * types
        for (cap, only), t in zip(caps, assign):
            if only >= 0 and t != only:
                break
            room[t] += cap
        else:
            if sum(max(0, c - r) for c, r in zip(counts, room)) <= singles:
                return True
    return False


CAP_CHOICES = [2, 4, 6, 8, 12, 16]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(CAP_CHOICES), max_size=4), st.integers(0, 3),
       st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(0, 20)))
def test_capacity_frontier_agrees_with_brute_force(caps, singles, counts):
    caps = tuple(sorted(((c, -1) for c in caps), reverse=True))
    frontier = capacity_frontier(caps, singles, 3)
    assert fits(frontier, counts) == bf_fits(caps, singles, counts)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(CAP_CHOICES[:4]), max_size=3), st.integers(0, 2),
       st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9)))
def test_best_keeps_are_exactly_the_pareto_maximal_feasible_keeps(caps, singles, counts):
    caps = tuple(sorted(((c, -1) for c in caps), reverse=True))
    frontier = capacity_frontier(caps, singles, 3)
    feasible = [k for k in itertools.product(*(range(c + 1) for c in counts)) if bf_fits(caps, singles, k)]

    def dominated(a, b):   # a <= b everywhere and a != b
        return a != b and all(x <= y for x, y in zip(a, b))

    maximal = {k for k in feasible if not any(dominated(k, o) for o in feasible)}
    keeps = best_keeps(frontier, counts)
    assert len(keeps) == len(set(keeps))
    assert set(map(tuple, keeps)) == maximal
    for k in keeps:
        assert all(x <= c for x, c in zip(k, counts))
        assert bf_fits(caps, singles, k)


def test_best_keeps_example():
    # two 2-space pastures (4 each) and the house; 5 sheep, 5 boar, 1 cattle
    caps = ((4, -1), (4, -1))
    frontier = capacity_frontier(caps, 1, 3)
    keeps = set(best_keeps(frontier, (5, 5, 1)))
    # one pasture each for sheep and boar (4 + 4) and the pet is the 5th sheep/boar or the cow;
    # or both pastures for one type (8 >= 5) and the cow as the pet (4 + 4 + the pet's 1 = at most 9)
    assert keeps == {(5, 4, 0), (4, 5, 0), (4, 4, 1), (5, 0, 1), (0, 5, 1)}


# ================================================================ regions

def test_regions_count_is_5726_by_brute_force():
    brute = all_connected_masks()
    assert len(brute) == 5726
    regions = grid(3, 5).regions()
    assert len(regions) == 5726
    assert set(regions) == brute


def test_the_shipped_regions_are_the_grown_ones():
    """runtime/farm_regions.py lists the 3 x 5 regions (no process grows them): the same as grown, in the
    same by_perimeter order, with the same boundaries."""
    from runtime.farm import Grid
    from runtime import farm_regions
    shipped = Grid(3, 5)
    assert shipped._region_bounds is None
    listed = shipped.by_perimeter()
    assert shipped._region_bounds is None  # not grown
    grown = Grid(3, 5)
    assert grown.regions_table() == "".join(farm_regions.TABLES[(3, 5)])
    assert listed == sorted((b.bit_count(), r, b) for r, b in grown.region_bounds())
    # the source file (farm_regions.__file__ is the compiled module's under build/native with make native)
    text = (Path(__file__).resolve().parent.parent / "runtime" / "farm_regions.py").read_text(encoding="utf-8")
    assert farm_regions.tables_literal() in text  # python -m runtime.farm_regions prints it


@settings(max_examples=300, deadline=None)
@given(free=st.integers(0, (1 << 15) - 1), limit=st.integers(0, 40))
def test_regions_within_a_set_of_spaces_are_those_of_the_whole_list(free, limit):
    """regions_in walks by_perimeter or looks up the subsets of ``free``, whichever is shorter: the same
    regions in the same order either way."""
    from runtime.farm import Grid
    gr = Grid(3, 5)
    expected = [t for t in gr.by_perimeter() if t[0] <= limit and not t[1] & ~free]
    assert gr.regions_in(free, limit) == expected


def test_regions_in_looks_up_subsets_when_few_spaces_are_free_and_walks_otherwise():
    """With 3 free spaces (7 subsets) and a walk of thousands of regions, the subsets are looked up; with 13
    free spaces and a walk of the 31 regions of at most 6 fences, the list is walked. Either way the regions
    come in by_perimeter order (the property test above checks them against the whole list)."""
    from runtime.farm import Grid, looks_up_subsets
    from bisect import bisect_right
    gr = Grid(3, 5)
    few, many = M("A4+A5+B5"), gr.full & ~M("B1+C1")
    perimeters = gr.region_columns()[0]
    assert looks_up_subsets(few, bisect_right(perimeters, 40))
    assert [r for _, r, _ in gr.regions_in(few, 40)] == [M("A4"), M("A5"), M("B5"), M("A4+A5"), M("A5+B5"),
                                                         M("A4+A5+B5")]
    assert not looks_up_subsets(many, bisect_right(perimeters, 6))
    assert len(gr.regions_in(many, 6)) == 31   # 13 single spaces, 18 pairs
    assert not looks_up_subsets(0b111, 8) and looks_up_subsets(0b111, 9)   # 8 subsets against 8 or 9 regions


def test_running_the_regions_module_prints_the_tables_literal(capsys, monkeypatch):
    import runpy
    import sys
    from runtime import farm_regions
    monkeypatch.delitem(sys.modules, "runtime.farm_regions")   # run afresh as __main__
    runpy.run_module("runtime.farm_regions", run_name="__main__")
    assert capsys.readouterr().out == farm_regions.tables_literal()


# ================================================================ a real game with a scripted agent

def test_build_fences_in_a_game_with_a_scripted_agent(family):
    agent = ScriptedAgent(["A3+A4", "divide A3+A4: A4", "A5", "stop"])
    g, p = new_game(family, agent)
    p.goods["wood"] = 20
    assert P.build_fences(g, p)
    assert agent.used == 4
    # 6 for the 2x1, 1 to divide it, 3 for A5 next to A4 (A4|A5 is already there)
    assert p.goods["wood"] == 20 - 6 - 1 - 3
    assert p.pastures == tuple(sorted([M("A3"), M("A4"), M("A5")]))
    # three single pastures in a row: 3 top + 3 bottom + 4 upright = 10
    assert bin(p.fences).count("1") == 10
    assert p.fences == edges_mask(bf_fences(p.pastures))


def test_fencing_action_space_in_a_game(revised):
    agent = ScriptedAgent(["A4+A5+B4+B5", "divide A4+A5+B4+B5: A5+B5", "stop"])
    g, p = new_game(revised, agent)
    p.goods["wood"] = 11
    space = g._add_space(revised.space_defs["fencing"])
    g.use_space(p, space)
    assert agent.used == 3
    assert p.goods["wood"] == 11 - 8 - 2
    assert p.pastures == tuple(sorted([M("A4+B4"), M("A5+B5")]))
    assert bin(p.fences).count("1") == 10


def test_scripted_agent_cannot_pick_illegal_fences(family):
    # too expensive: a 2x1 needs 6 wood
    g, p = new_game(family, ScriptedAgent(["A3+A4"]))
    p.goods["wood"] = 5
    with pytest.raises(ScriptError):
        P.build_fences(g, p)
    assert p.goods["wood"] == 5 and p.pastures == ()
    # a room
    g, p = new_game(family, ScriptedAgent(["B1"]))
    p.goods["wood"] = 15
    with pytest.raises(ScriptError):
        P.build_fences(g, p)
    # not adjacent to the existing pasture
    g, p = new_game(family, ScriptedAgent(["A3", "C5"]))
    p.goods["wood"] = 15
    with pytest.raises(ScriptError):
        P.build_fences(g, p)
    assert p.pastures == (M("A3"),) and p.goods["wood"] == 11


def test_edges_are_named_by_a_space_and_its_side():
    gr = grid()
    names = [gr.edge_name(e) for e in range(gr.edge_count)]
    assert len(set(names)) == gr.edge_count == 38
    assert names[0] == "A1 north" and names[5] == "B1 north" and names[15] == "C1 south"
    assert gr.boundary(1 << 4) == sum(1 << names.index(n) for n in ("A5 north", "B5 north", "A5 west", "A5 east"))


def test_enclosures_are_the_spaces_fences_close_in():
    gr = grid()
    assert gr.enclosures(0) == []
    assert gr.enclosures(gr.boundary(1 << 4)) == [1 << 4]
    two = (1 << 3) | (1 << 4)
    assert gr.enclosures(gr.boundary(two)) == [two]
    # the fence between the two spaces divides them
    assert gr.enclosures(gr.boundary(two) | gr.boundary(1 << 4) & gr.boundary(1 << 3)) == [1 << 3, 1 << 4]


def test_an_unfinished_fence_never_closes_a_space_in():
    gr = grid()
    three = gr.boundary(1 << 4) & ~(1 << 9)          # A5 without its south fence (B5 north)
    edges = open_fence_edges(gr, three, 15)
    assert 9 not in edges and len(edges) == 38 - 3 - 1
    assert open_fence_edges(gr, three, 3) == []       # no fences left in the supply


def test_pastures_need_not_touch_when_the_rules_say_so():
    gr = grid()
    a5 = (1 << 4,)
    near = {r for _, r, _ in fencing_options(gr, 0, a5, gr.boundary(1 << 4), 4)}
    anywhere = {r for _, r, _ in fencing_options(gr, 0, a5, gr.boundary(1 << 4), 4, touching=False)}
    assert near == {1 << 3, 1 << 9}
    assert anywhere == {1 << i for i in range(15) if i != 4}


# ================================================================ naming, small grids, the caches

def test_a_space_past_the_last_column_is_not_a_farmyard_space():
    from runtime.farm import Grid
    with pytest.raises(ValueError) as exc:
        Grid(3, 5).index("B6")
    assert str(exc.value) == "'B6' is not a farmyard space (use A1 to C5)"
    assert Grid(3, 5).index("c5") == 14


def test_names_of_spaces_skip_empty_parts():
    """'A1+ +B2,' names A1 and B2: the empty parts between separators name nothing."""
    from runtime.farm import Grid
    assert Grid(3, 5).mask_from_names("A1+ +B2,") == M("A1+B2")


def test_no_spaces_are_not_connected():
    from runtime.farm import Grid
    gr = Grid(3, 5)
    assert gr.connected(0) is False
    assert gr.connected(M("A1")) is True


def test_a_farmyard_of_another_size_grows_its_regions_in_perimeter_order():
    """Only 3 x 5 is listed in runtime/farm_regions.py: a 2 x 3 farmyard grows its regions and orders them
    by the fences around them, then by mask (the 2 x 2 square, 8 fences, among the 3-space regions)."""
    from runtime.farm import Grid
    gr = Grid(2, 3)
    listed = gr.by_perimeter()
    assert gr._region_bounds is not None   # grown
    square = 0b011011   # A1+A2+B1+B2
    row = 0b000111      # A1+A2+A3
    assert [f for f, _, _ in listed][:6] == [4] * 6
    assert listed.index((8, row, gr.boundary(row))) < listed.index((8, square, gr.boundary(square)))
    assert listed[-1] == (12, 0b111101, gr.boundary(0b111101))   # the U of A1, A3 and row B: 12 fences
    assert [f for f, _, _ in listed] == sorted(f for f, _, _ in listed)
    assert sorted(gr.regions()) == sorted(r for _, r, _ in listed)   # kept from the growing


def test_a_card_for_one_kind_beside_pastures_limited_per_kind():
    """A pasture of 2 (at most 1 pasture per kind) and a card holding 2 sheep: the card adds to the
    sheep whatever the pasture keeps (the card is no pasture and is not limited)."""
    from runtime.farm import pasture_frontier
    assert pasture_frontier(((2, -1), (2, 0)), 3, per_kind=1) == ((2, 0, 2), (2, 2, 0), (4, 0, 0))


@pytest.mark.parametrize("name, limit", [("_FENCE_CACHE", "_FENCE_CACHE_LIMIT"), ("_PASTURE_CACHE", 20_000),
                                         ("_FRONTIER_CACHE", 20_000), ("_KEEPS_CACHE", 20_000)])
def test_a_full_cache_is_emptied_before_the_next_answer_is_kept(monkeypatch, name, limit):
    from runtime import farm
    if isinstance(limit, str):
        limit = getattr(farm, limit)
    full = {("filler", i): () for i in range(limit + 1)}
    monkeypatch.setattr(farm, name, full)
    if name == "_FENCE_CACHE":
        farm.fencing_options(farm.grid(3, 5), 0, (), 0, 4)
    elif name == "_PASTURE_CACHE":
        farm.pasture_frontier(((5, -1),), 3)
    elif name == "_FRONTIER_CACHE":
        farm.capacity_frontier(((5, -1),), 1, 3)
    else:
        farm.best_keeps(((4, 1, 0),), [2, 3, 1])
    assert len(full) == 1 and ("filler", 0) not in full
    full.update({("filler", i): () for i in range(limit - 1)})   # at the limit: nothing is emptied
    if name == "_FENCE_CACHE":
        farm.fencing_options(farm.grid(3, 5), 0, (), 0, 5)
    elif name == "_PASTURE_CACHE":
        farm.pasture_frontier(((6, -1),), 3)
    elif name == "_FRONTIER_CACHE":
        farm.capacity_frontier(((6, -1),), 1, 3)
    else:
        farm.best_keeps(((4, 1, 0),), [2, 3, 2])
    assert len(full) == limit + 1


def test_a_full_cache_of_renovation_prices_is_emptied_before_the_next_is_kept(family, monkeypatch):
    from runtime.primitives import rooms
    g, p = new_game(family)
    full = {("filler", i): () for i in range(1025)}
    monkeypatch.setattr(rooms, "_RENOVATION_PRICES", full)
    assert [dict(o) for o in P.renovation_options(g, p, "clay")] == [{"clay": 2, "reed": 1}]
    assert list(full.values()) == [(("clay", 2), ("reed", 1))]
    full.update({("filler", i): () for i in range(1023)})   # 1024 kept: nothing is emptied
    P.renovation_options(g, p, "stone")
    assert len(full) == 1025
