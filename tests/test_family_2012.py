"""The 2012 Family Edition (pack family-2012): a farm of tiles on the same runtime.

Seeded games of random and greedy agents for every player count, with the farm's invariants checked
before every decision and the score recounted independently from the raw state (the recount below
implements the pack's scoring table; it calls none of the pack's scoring functions). Also: the farm
file of `agricola score` for a farm of tiles, its located errors, the fixed order of the round spaces,
the player counts. The rules themselves are tested by the scenario files tests/scenarios/family-2012/.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from compiler.farmfile import FarmFileError, score_farm_file
from runtime import primitives as P
from runtime.agents import GreedyAgent, RandomAgent
from runtime.engine import Game

ROOT = Path(__file__).resolve().parent.parent
ROWS, COLS = 6, 8
N = ROWS * COLS
HOUSE = (2 * COLS + 3, 2 * COLS + 4)          # C4, C5
# the pack's tiles, written out here from rules/family-2012/game.yaml: id -> (spaces, cost in wood, capacity, supply)
TILES = {"small_pasture": (1, 3, 2, 20), "large_pasture_4": (2, 4, 4, 8), "large_pasture_6": (2, 6, 6, 8)}
MAX_PEOPLE = 5
# the box's pieces shared by the whole table (shared_supply): rooms beyond the 4 starting houses, stables
BOX_ROOMS, BOX_STABLES = 12, 10
# printed points of the improvements (rules/family-2012/majors.yaml)
POINTS = {"fireplace_1": 1, "fireplace_2": 1, "cooking_hearth_1": 1, "cooking_hearth_2": 1, "clay_oven_1": 2,
          "clay_oven_2": 2, "windmill": 2, "basketmakers_workshop": 2, "pottery": 2, "joinery": 2, "storehouse": 1}


@pytest.fixture(scope="module")
def fam(pack_loader):
    return pack_loader("family-2012")


# ---------------------------------------------------------------- independent geometry

def cells(mask: int):
    return [i for i in range(N) if mask >> i & 1]


def neighbours(i: int):
    r, c = divmod(i, COLS)
    if r > 0:
        yield i - COLS
    if r < ROWS - 1:
        yield i + COLS
    if c > 0:
        yield i - 1
    if c < COLS - 1:
        yield i + 1


def connected(mask: int) -> bool:
    cs = cells(mask)
    if not cs:
        return True
    seen, todo = {cs[0]}, [cs[0]]
    while todo:
        i = todo.pop()
        for j in neighbours(i):
            if mask >> j & 1 and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(cs)


def around(mask: int) -> int:
    out = 0
    for i in cells(mask):
        for j in neighbours(i):
            out |= 1 << j
    return out & ~mask


# ---------------------------------------------------------------- invariants

def check_farm(g, p, animals_must_fit=True):
    where = f"{p.name} round {g.round} decision {g.decisions}"
    for good, n in p.goods.items():
        assert n >= 0, f"{where}: {n} {good}"
    assert "stone" not in p.goods and "vegetable" not in p.goods, where
    if animals_must_fit:
        assert P.animals_fit(g, p), f"{where}: animals do not fit"
    assert not p.pastures and not p.fences, f"{where}: fenced pastures in a game of tiles"
    fields = 0
    for cell, (crop, n) in p.fields.items():
        fields |= 1 << cell
        assert crop in (None, "grain") and (crop is None) == (n == 0), f"{where}: field {cell} {crop} {n}"
    tiles = 0
    for m, tid in p.tile_pastures:
        size = TILES[tid][0]
        assert bin(m).count("1") == size and connected(m), f"{where}: tile {tid} on {m:b}"
        assert not m & tiles, f"{where}: tiles overlap"
        assert bin(m & p.stables).count("1") <= 1, f"{where}: two stables on one pasture"
        tiles |= m
    assert not (p.rooms & fields) and not (p.rooms & tiles) and not (fields & tiles), where
    assert not p.stables & (p.rooms | fields), f"{where}: stable on a room or field"
    loose = p.stables & ~tiles
    assert not loose & ~around(tiles), f"{where}: a stable neither on nor next to a pasture"
    # every tile is laid next to one already there (a stable is a piece standing on the farm, not a tile)
    assert connected(p.rooms | fields | tiles), f"{where}: the farm is in pieces"
    assert p.rooms >> HOUSE[0] & 1 and p.rooms >> HOUSE[1] & 1, f"{where}: the starting house is gone"
    assert connected(p.rooms) and bin(p.rooms).count("1") == p.room_count, where
    assert 1 <= p.people <= MAX_PEOPLE and 0 <= p.newborns <= p.people, where
    assert p.house in ("wood", "clay") and p.begging >= 0, where


def check_supply(g):
    """Every tile is either on a farm or in the shared supply; fields are small pastures turned over."""
    for tid, (size, cost, cap, supply) in TILES.items():
        laid = sum(1 for p in g.players for _, t in p.tile_pastures if t == tid)
        if tid == "small_pasture":
            laid += sum(len(p.fields) for p in g.players)
        assert laid + g.tile_supply[tid] == supply, f"{tid}: {laid} laid, {g.tile_supply[tid]} left of {supply}"
    rooms = sum(bin(p.rooms).count("1") - 2 for p in g.players)
    assert rooms <= BOX_ROOMS, f"{rooms} rooms built, the box has {BOX_ROOMS}"
    stables = sum(bin(p.stables).count("1") for p in g.players)
    assert stables <= BOX_STABLES, f"{stables} stables built, the box has {BOX_STABLES}"


class CheckedGame(Game):
    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.asking = None
        self.before_scoring = None
        self.steps_checked = 0
        self.on_step = self._check

    def decide(self, p, kind, options, labels=None, prompt=None):
        self.asking = (p, kind)
        return super().decide(p, kind, options, labels, prompt)

    def emit(self, key, actor, ctx=None):
        if key == "phase:scoring" and self.before_scoring is None:
            self.before_scoring = [dict(p.goods) for p in self.players]
        return super().emit(key, actor, ctx)

    def _check(self, g):
        asking, kind = self.asking
        for p in self.players:
            check_farm(g, p, animals_must_fit=not (p is asking and kind == "keep_animals"))
        check_supply(g)
        self.steps_checked += 1


def recount(p, goods) -> dict:
    """The family-2012 scoring table from the raw state (goods as before the scoring phase)."""
    tiles = 0
    for m, _ in p.tile_pastures:
        tiles |= m
    grain = goods["grain"] + sum(n for crop, n in p.fields.values() if crop == "grain")
    bonus = 0
    if "windmill" in p.majors:
        bonus += goods["grain"] // 2
    for workshop, good in (("basketmakers_workshop", "reed"), ("pottery", "clay"), ("joinery", "wood")):
        if workshop in p.majors:
            bonus += goods[good] // 2
    if "storehouse" in p.majors:
        bonus += (goods["wood"] + goods["clay"] + goods["reed"] + goods["grain"]) // 3
    return {
        "family": 3 * p.people,
        "rooms": p.room_count * {"wood": 1, "clay": 2}[p.house],
        "fields": len(p.fields),
        "pasture_tiles": len(p.tile_pastures),
        "stables": bin(p.stables & tiles).count("1"),
        "grain": grain // 2,
        "animals": goods["sheep"] + goods["boar"] + goods["cattle"],
        "improvements": sum(POINTS[cid] for cid in p.majors),
        "bonus": bonus,
        "begging": -3 * p.begging,
    }


def play_checked(pack, n, seed, agent="random"):
    make = {"random": lambda i: RandomAgent(f"{seed}:{i}"), "greedy": lambda i: GreedyAgent(seed)}[agent]
    g = CheckedGame(pack, n, seed=seed, agents=[make(i) for i in range(n)])
    try:
        while g.round < g.last_round:
            g.play_round()
        for p in g.players:
            check_farm(g, p)
        g.finish()
        for p, s, goods in zip(g.players, g.scores, g.before_scoring):
            check_farm(g, p)
            cats = recount(p, goods)
            assert s["categories"] == cats, f"{p.name}: {s['categories']} != recount {cats}"
            assert s["total"] == sum(cats.values())
            assert s["tie_break"] == 0       # no tie-break: equal totals share the win
    except AssertionError as exc:
        raise AssertionError(f"family-2012, {n} players, {agent} agents, seed {seed}: {exc}") from exc
    assert g.finished and g.round == 14 and g.steps_checked > 0
    return g


FAST_GAMES = 30       # random games per player count in the fast suite
SLOW_GAMES = 1000     # random games per player count in `make test-slow`


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_random_games_keep_the_invariants(fam, n):
    for seed in range(40_000, 40_000 + FAST_GAMES):
        play_checked(fam, n, seed)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_greedy_games_keep_the_invariants(fam, n):
    g = play_checked(fam, n, 50_000 + n, agent="greedy")
    # the greedy agents build a farm: some tiles and more than the starting house
    assert any(p.tile_pastures or p.fields or p.room_count > 2 for p in g.players)


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_thousand_random_games_keep_the_invariants(fam, n):
    start = time.perf_counter()
    for seed in range(200_000, 200_000 + SLOW_GAMES):
        play_checked(fam, n, seed)
    print(f"family-2012 {n}p: {SLOW_GAMES} games in {time.perf_counter() - start:.1f}s")


def test_random_games_lay_every_kind_of_tile(fam):
    kinds = set()
    for seed in range(40_000, 40_000 + FAST_GAMES):
        g = play_checked(fam, 2, seed)
        kinds |= {t for p in g.players for _, t in p.tile_pastures}
    assert kinds == set(TILES)


# ---------------------------------------------------------------- the game's frame

def test_player_counts(fam):
    for n in (1, 2, 3, 4):
        Game(fam, n, seed=0)
    with pytest.raises(ValueError) as exc:
        Game(fam, 5, seed=0)
    assert str(exc.value) == "pack 'family-2012' is for 1 to 4 players, not 5"


ORDER = ["joinery_space", "pottery_space", "basketmakers_space", "basic_family_growth", "windmill_space",
         "pig_market", "house_renovation", "cattle_market", "storehouse_space", "plow_and_sow",
         "pasture_and_stable", "urgent_family_growth", "timber_yard", "market_day"]


@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_the_round_spaces_open_in_a_fixed_order(fam, seed):
    assert Game(fam, 2, seed=seed).round_order == ORDER


def test_start_food_and_the_board_by_player_count(fam):
    g = Game(fam, 3, seed=5)
    food = [p.goods["food"] for p in g.players]
    assert food[g.start_player] == 2 and sorted(food) == [2, 3, 3]
    board = {n: sorted(s.id for s in Game(fam, n, seed=0).spaces) for n in (1, 2, 3, 4)}
    base = sorted(["farm_expansion", "starting_player", "grain_seeds", "farmland", "sow_fields", "fencing",
                   "hearth_supply", "day_laborer", "forest", "clay_pit", "reed_bank", "fishing", "sheep_market"])
    assert board[1] == board[2] == base
    assert board[3] == sorted(base + ["grove", "hollow"])
    assert board[4] == sorted(base + ["grove", "hollow", "copse", "reed_and_food"])


def test_the_state_view_shows_each_pasture_tile_with_its_spaces_stables_and_tile(fam):
    g = Game(fam, 2, seed=0)
    p = g.players[0]
    gr = p.grid
    large, small = gr.mask_from_names("C6+C7"), gr.mask_from_names("D5")
    p.tile_pastures = tuple(sorted(((large, "large_pasture_4"), (small, "small_pasture"))))
    p.stables = gr.mask_from_names("C7")
    view = g.view(seat=0)["players"][0]
    assert sorted(view["pastures"], key=lambda t: t["tile"]) == [
        {"cells": ["C6", "C7"], "stables": 1, "tile": "large_pasture_4"},
        {"cells": ["D5"], "stables": 0, "tile": "small_pasture"}]
    cells = {c["cell"]: c for c in view["farmyard"]["cells"]}
    assert (cells["C6"]["kind"], cells["C7"]["kind"], cells["C7"]["stable"]) == ("pasture", "pasture", True)
    assert cells["C6"]["pasture"] == cells["C7"]["pasture"] != cells["D5"]["pasture"]

# ---------------------------------------------------------------- farm files (agricola score)

def _farm(tmp_path, text):
    path = tmp_path / "farm.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


EMPTY = ['".  .  .  .  .  .  .  ."'] * 6


def test_the_example_farm_scores_by_the_table(fam):
    result, _ = score_farm_file(ROOT / "rules" / "family-2012" / "example-farm.yaml", fam)
    assert result["categories"] == {"family": 12, "rooms": 6, "fields": 3, "pasture_tiles": 3, "stables": 2,
                                    "grain": 3, "animals": 8, "improvements": 4, "bonus": 6, "begging": 0}
    assert result["total"] == 47


def test_the_state_of_a_farm_of_tiles_names_each_tile_as_the_farm_file_does(fam):
    # the player's state (what the state hash of a save covers) holds the tiles as pasture_tiles in the farm file
    from compiler.farmfile import load_farm
    _, p = load_farm(ROOT / "rules" / "family-2012" / "example-farm.yaml", fam)
    state = p.to_dict()
    assert state["pasture_tiles"] == {"C3": "small_pasture", "C6+C7": "large_pasture_4", "D5": "small_pasture"}
    assert "pasture_tiles" not in Game(fam, 2, seed=1, agents=[RandomAgent(0), RandomAgent(1)]).players[0].to_dict()


def test_agricola_score_on_the_command_line():
    out = subprocess.run([sys.executable, "-m", "compiler.cli", "score", "rules/family-2012/example-farm.yaml",
                          "--pack", "family-2012"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "Pasture tiles               3\n" in out.stdout and "Total                      47\n" in out.stdout


def test_farm_file_errors_are_located(tmp_path, fam):
    cases = [
        # a space marked T without pasture_tiles
        ("farmyard:\n" + "".join(f"  - {r}\n" for r in EMPTY[:2]) +
         '  - ".  .  T  R  R  .  .  ."\n' + "".join(f"  - {r}\n" for r in EMPTY[3:]),
         "farm.yaml:2:3: error[E149]: spaces marked T need 'pasture_tiles' to say which tile lies where"),
        # an unknown tile
        ("farmyard:\n" + "".join(f"  - {r}\n" for r in EMPTY[:2]) +
         '  - ".  .  T  R  R  .  .  ."\n' + "".join(f"  - {r}\n" for r in EMPTY[3:]) +
         "pasture_tiles: {C3: small_pastur}\n",
         "farm.yaml:8:21: error[E149]: unknown pasture tile 'small_pastur' (did you mean 'small_pasture'?)"),
        # a large tile on one square
        ("farmyard:\n" + "".join(f"  - {r}\n" for r in EMPTY[:2]) +
         '  - ".  .  T  R  R  .  .  ."\n' + "".join(f"  - {r}\n" for r in EMPTY[3:]) +
         "pasture_tiles: {C3: large_pasture_4}\n",
         "farm.yaml:8:17: error[E149]: a Large pasture (4 wood) covers 2 connected spaces, not C3"),
        # a tile away from the farm
        ("farmyard:\n" + '  - "T  .  .  .  .  .  .  ."\n' + "".join(f"  - {r}\n" for r in EMPTY[1:2]) +
         '  - ".  .  .  R  R  .  .  ."\n' + "".join(f"  - {r}\n" for r in EMPTY[3:]) +
         "pasture_tiles: {A1: small_pasture}\n",
         "farm.yaml:2:3: error[E144]: the farm is in pieces: each new tile is laid next to one already on the farm"),
    ]
    for text, message in cases:
        path = _farm(tmp_path, text)
        with pytest.raises(FarmFileError) as exc:
            score_farm_file(path, fam)
        first = str(exc.value).splitlines()[0]
        assert first == f"{path.parent}/{message}", first
