"""Seeded random games with invariant checks before every decision, and an independent score recount.

The recount below implements the scoring tables of the rules, from the raw player state; it does not
call the pack's scoring functions. The revised edition scores begging cards in a category of their own and
breaks ties by the building resources left; the 2007 edition (packs original, original-family) scores them
under card points and has no tie-break (docs/editions.md).
"""
from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from runtime import primitives as P
from runtime.agents import GreedyAgent, RandomAgent
from runtime.engine import Game

ROWS, COLS = 3, 5
N = ROWS * COLS
H_EDGES = (ROWS + 1) * COLS
MAX_FENCES, MAX_STABLES, MAX_PEOPLE = 15, 4, 5
MATERIALS = ("wood", "clay", "stone")
ANIMALS = ("sheep", "boar", "cattle")

# printed points of the major improvements (rules/revised/majors.yaml, from the cards)
CARD_POINTS = {
    "fireplace_2": 1, "fireplace_3": 1, "cooking_hearth_4": 1, "cooking_hearth_5": 1, "well": 4,
    "clay_oven": 2, "stone_oven": 3, "joinery": 2, "pottery": 2, "basketmakers_workshop": 2,
}
ROOT = Path(__file__).resolve().parent.parent
ORIGINAL = {"original", "original-family", "original-probes"}   # the 2007 scoring table (Anhang 1)


CARD_FOLDERS = (ROOT / "cards", ROOT / "tests" / "packs" / "cards")


def pack_chain(pack_id: str) -> list:
    """The pack and the packs it extends, base first (read from their game.yaml)."""
    for rules in (ROOT / "rules", ROOT / "tests" / "packs" / "rules"):
        game = rules / pack_id / "game.yaml"
        if game.is_file():
            base = (yaml.safe_load(game.read_text(encoding="utf-8")) or {}).get("extends")
            return (pack_chain(base) if base else []) + [pack_id]
    return [pack_id]


@lru_cache(maxsize=None)
def card_sources(pack_id: str) -> dict:
    """id -> the source data of the hand cards of ``pack_id`` and the packs it extends (cards/<pack>/**/*.yaml,
    or the test packs'), read here, not through the compiled pack. By pack: the 2007 and the revised decks
    may use one id."""
    out = {}
    for folder in [f / name for name in pack_chain(pack_id) for f in CARD_FOLDERS]:
        for path in sorted(folder.rglob("*.yaml")):
            if path.name.endswith(".test.yaml") or path.name == "missing.yaml":
                continue
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            for d in data if isinstance(data, list) else [data]:
                if isinstance(d, dict) and "id" in d:
                    out[d["id"]] = d
    return out


def printed_points(pack_id: str, cid: str) -> int:
    if cid in CARD_POINTS:
        return CARD_POINTS[cid]
    return int(card_sources(pack_id)[cid].get("points", 0) or 0)


def scores_by_effect(pack_id: str, cid: str) -> bool:
    """A hand card with an 'at scoring' effect (its bonus is not recounted here)."""
    return cid not in CARD_POINTS and "at scoring" in (card_sources(pack_id)[cid].get("effects") or "")


def score_changes(pack_id: str, cids, stored=None) -> tuple[dict, set]:
    """The changes of scoring the player's cards write ('score of a, b: +N', 'score of a, b: +(stored(good))'
    with the goods lying on that card, 'score of a, b >= 0', docs/language.md 4.11), read from their effect
    text: ({category: points added}, {categories held >= 0}). ``stored(card id)`` gives a card's goods."""
    import re
    added, floored = {}, set()
    for cid in cids:
        for line in (card_sources(pack_id).get(cid, {}).get("effects") or "").splitlines():
            m = re.fullmatch(r"\s*score of ([a-z_, ]+?)\s*(>= 0|: \+(\d+)|: \+\(stored\((\w+)\)\))\s*", line)
            if m:
                for cat in (c.strip() for c in m.group(1).split(",")):
                    if m.group(3):
                        added[cat] = added.get(cat, 0) + int(m.group(3))
                    elif m.group(4):
                        added[cat] = added.get(cat, 0) + stored(cid).get(m.group(4), 0)
                    else:
                        floored.add(cat)
    return added, floored


# workshops: the good they count and the (threshold, bonus) steps
WORKSHOPS = {
    "joinery": ("wood", ((3, 1), (5, 2), (7, 3))),
    "pottery": ("clay", ((3, 1), (5, 2), (7, 3))),
    "basketmakers_workshop": ("reed", ((2, 1), (4, 2), (5, 3))),
}


# ---------------------------------------------------------------- independent geometry

def popcount(m: int) -> int:
    return bin(m).count("1")


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
    seen = {cs[0]}
    todo = [cs[0]]
    while todo:
        i = todo.pop()
        for j in neighbours(i):
            if mask >> j & 1 and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(cs)


def boundary(mask: int) -> int:
    """Fence edges around a set of spaces (documented numbering: horizontal edges, then vertical)."""
    out = 0
    for i in cells(mask):
        r, c = divmod(i, COLS)
        for bit in (r * COLS + c, (r + 1) * COLS + c, H_EDGES + r * (COLS + 1) + c, H_EDGES + r * (COLS + 1) + c + 1):
            out ^= 1 << bit
    return out


# ---------------------------------------------------------------- invariants

def check_player(g, p, animals_must_fit=True):
    where = f"{p.name} round {g.round} decision {g.decisions}"
    for good, n in p.goods.items():
        assert n >= 0, f"{where}: {n} {good}"
    if animals_must_fit:
        assert P.animals_fit(g, p), f"{where}: animals {[p.goods[a] for a in ANIMALS]} do not fit"
    # pastures: connected, disjoint from each other, rooms and fields
    fields = 0
    for cell in p.fields:
        if cell >= 0:               # negative keys are cards that are fields, not farmyard spaces
            fields |= 1 << cell
    assert fields == p.field_mask, where
    union = 0
    fences = 0
    for m in p.pastures:
        assert m and connected(m), f"{where}: pasture {m:b} is not connected"
        assert not m & union, f"{where}: pastures overlap"
        assert not m & p.rooms, f"{where}: pasture on a room"
        assert not m & fields, f"{where}: pasture on a field"
        union |= m
        fences |= boundary(m)
    if g.rules.unfinished_fences:   # fences closing no pasture yet may stand besides the boundaries
        assert p.fences & fences == fences, f"{where}: a pasture boundary lacks its fences"
        closed = p.grid.enclosures(p.fences)
        assert all(m in closed for m in p.pastures), f"{where}: a pasture is not what its fences close in"
    else:
        assert p.fences == fences, f"{where}: fences are not the pasture boundaries"
    assert popcount(p.fences) <= MAX_FENCES, f"{where}: {popcount(p.fences)} fences"
    aside = P.set_aside_count(p, "fences")   # fences set aside on round spaces (docs/language.md 4.3)
    assert aside >= 0 and popcount(p.fences) + aside <= MAX_FENCES, f"{where}: {aside} fences set aside"
    # stables
    assert popcount(p.stables) <= MAX_STABLES, where
    assert not p.stables & (p.rooms | fields), f"{where}: stable on a room or field"
    # rooms and fields
    assert not p.rooms & fields, where
    assert p.rooms and connected(p.rooms), f"{where}: rooms not connected"
    assert popcount(p.rooms) == p.room_count, where
    assert connected(fields), f"{where}: fields not connected"
    for cell, (crop, n) in p.fields.items():
        assert n >= 0 and (crop is None) == (n == 0), f"{where}: field {cell} {crop} {n}"
        allowed = p.card_state.get("field_crops", {}).get(cell) if cell < 0 else None
        # a crop, or on a card that is fields for other goods one of those (docs/language.md 4.14)
        assert crop in (None, "grain", "vegetable") or (allowed is not None and crop in allowed), where
    # family and house
    assert 1 <= p.people <= MAX_PEOPLE, f"{where}: {p.people} people"
    assert 0 <= p.newborns <= p.people, where
    assert p.house in MATERIALS, where
    assert p.begging >= 0, where


class CheckedGame(Game):
    """A game that checks every player's farm before each decision (through ``on_step``)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.pending = None
        self.fencing = set()        # players inside their own fencing action (between its requests)
        self.before_scoring = None
        self.steps_checked = 0
        self.on_step = self._check

    def decide(self, p, kind, options, labels=None, prompt=None):
        self.pending = (p, kind)
        # A fencing action asks for its steps, the payment of a step and at its end which animals to
        # keep; any other request (of anyone) comes after the action, when its animals are settled.
        # A rule that reacts to a pasture of the action ('after you fence pasture', a 2007 occupation) asks
        # its 'may' or 'choose' inside the action too, before the surplus is settled at its end.
        if kind == "fence":
            self.fencing = {p}
        elif kind not in ("pay", "keep_animals", "may", "choose"):
            self.fencing = set()
        else:
            self.fencing &= {p}
        return super().decide(p, kind, options, labels, prompt)

    def emit(self, key, actor, ctx=None):
        # the goods as the scoring phase finds them (after the players' last exchanges)
        if key == "phase:scoring" and self.before_scoring is None:
            self.before_scoring = [(dict(p.goods), p.bonus) for p in self.players]
        return super().emit(key, actor, ctx)

    def _check(self, g):
        asking, kind = self.pending
        for p in self.players:
            # Animals must be housed except for the asking player while choosing which animals to keep
            # (they have more than fit, that is why they are asked) and inside their own fencing action
            # (its next step or the payment of a step), where a division may have shrunk a pasture (with
            # one pasture per kind, any division can); the surplus is settled when the action ends.
            in_fencing = p is asking and (kind == "keep_animals" or (kind in ("fence", "pay", "may", "choose")
                                                                     and p in self.fencing))
            check_player(g, p, animals_must_fit=not in_fencing)
        self.steps_checked += 1


# ---------------------------------------------------------------- independent score recount

def tier(value, steps):
    out = 0
    for threshold, pts in steps:
        if value >= threshold:
            out = pts
    return out


TABLE = {
    "fields": ((0, -1), (2, 1), (3, 2), (4, 3), (5, 4)),
    "pastures": ((0, -1), (1, 1), (2, 2), (3, 3), (4, 4)),
    "grain": ((0, -1), (1, 1), (4, 2), (6, 3), (8, 4)),
    "vegetables": ((0, -1), (1, 1), (2, 2), (3, 3), (4, 4)),
    "sheep": ((0, -1), (1, 1), (4, 2), (6, 3), (8, 4)),
    "boar": ((0, -1), (1, 1), (3, 2), (5, 3), (7, 4)),
    "cattle": ((0, -1), (1, 1), (2, 2), (4, 3), (6, 4)),
}


def recount(p, goods, bonus, begging_under_cards=False, pack_id="", workshop_goods=None):
    """Score from the raw state: ``goods`` as scoring finds them (after the cards that act as scoring
    begins, such as one that brings animals), ``bonus`` as it was before the scoring phase, and
    ``workshop_goods`` (default ``goods``) the goods before it, which the workshops' bonus counts.
    ``begging_under_cards``: the 2007 table, begging cards counted in card points; ``pack_id``: whose hand
    cards the player has."""
    if workshop_goods is None:
        workshop_goods = goods
    fenced = 0
    for m in p.pastures:
        fenced |= m
    field_cells = [cell for cell in p.fields if cell >= 0]     # field tiles in the farmyard
    grain = goods["grain"] + sum(n for crop, n in p.fields.values() if crop == "grain")
    veg = goods["vegetable"] + sum(n for crop, n in p.fields.values() if crop == "vegetable")
    used = p.rooms | p.stables | fenced
    for cell in field_cells:
        used |= 1 << cell
    extra = 0
    for cid in p.majors + p.minors:   # a major played as a minor (docs/language.md 4.8) keeps its scoring
        if cid in WORKSHOPS:
            good, steps = WORKSHOPS[cid]
            extra += tier(workshop_goods[good], steps)
    cats = {
        "fields": tier(len(field_cells), TABLE["fields"]),
        "pastures": tier(len(p.pastures), TABLE["pastures"]),
        "grain": tier(grain, TABLE["grain"]),
        "vegetables": tier(veg, TABLE["vegetables"]),
        "sheep": tier(goods["sheep"], TABLE["sheep"]),
        "boar": tier(goods["boar"], TABLE["boar"]),
        "cattle": tier(goods["cattle"], TABLE["cattle"]),
        "unused": -(N - popcount(used)),
        "fenced_stables": popcount(p.stables & fenced),
        "rooms": popcount(p.rooms) * {"wood": 0, "clay": 1, "stone": 2}[p.house],
        "family": 3 * p.people,
        "cards": sum(printed_points(pack_id, cid) for cid in p.majors + p.minors),   # improvements only
        "bonus": bonus + extra,
        "begging": -3 * p.begging,
    }
    if begging_under_cards:
        cats["cards"] += cats.pop("begging")
    return cats, sum(cats.values()), extra


# ---------------------------------------------------------------- the runs

def play_checked(pack, n, seed, agent="random"):
    try:
        return _play_checked(pack, n, seed, agent)
    except AssertionError as exc:
        raise AssertionError(f"{pack.id}, {n} players, seed {seed}, {agent} agents: {exc}") from exc


def _play_checked(pack, n, seed, agent="random"):
    agents = [RandomAgent(f"{seed}:{i}") if agent == "random" else GreedyAgent(f"{seed}:{i}") for i in range(n)]
    g = CheckedGame(pack, n, seed=seed, agents=agents)
    while g.round < g.last_round:
        g.play_round()
    # the farms as the last round left them, before the scoring phase
    for p in g.players:
        check_player(g, p)
    # Hand cards with 'at scoring' effects (some give bonus points to every player) are not recounted:
    # in such a game the bonus category is taken from the engine and everything else is recounted.
    cards_of = pack.id
    card_bonus = any(scores_by_effect(cards_of, cid) for p in g.players for cid in p.majors + p.minors + p.occupations)
    g.finish()
    for p, s, (goods, bonus) in zip(g.players, g.scores, g.before_scoring):
        check_player(g, p)
        # the scored goods are those scoring finds (a card acting as scoring begins may bring animals,
        # which then must fit); the workshops' bonus counts the goods held before the scoring phase
        cats, total, workshop_bonus = recount(p, dict(p.goods), bonus, begging_under_cards=pack.id in ORIGINAL,
                                              pack_id=cards_of, workshop_goods=goods)
        added, floored = score_changes(cards_of, p.majors + p.minors + p.occupations,
                                       stored=lambda cid, p=p: P.stored_on(p, cid))
        for cat, n in added.items():
            cats[cat] += n
            total += n
        for cat in floored:   # no points lost: below 0, nor the begging cards or bonus points lost inside it
            lost = {"bonus": p.stats.get("bonus_lost", 0),
                    "cards": 3 * p.begging if pack.id in ORIGINAL else 0}.get(cat, 0)
            kept = max(0, cats[cat] + lost)
            total += kept - cats[cat]
            cats[cat] = kept
        if card_bonus:
            total += s["categories"]["bonus"] - cats["bonus"]
            cats["bonus"] = s["categories"]["bonus"]
        assert s["categories"] == cats, f"seed {seed} {n}p {p.name}: {s['categories']} != recount {cats}"
        assert s["total"] == total, f"seed {seed} {n}p {p.name}"
        if pack.id in ORIGINAL:
            assert s["tie_break"] == 0     # no tie-break in 2007: equal totals share the win
        elif not workshop_bonus and not card_bonus:
            # no workshop bonus: the tie-break is the building resources left
            assert s["tie_break"] == sum(goods[k] for k in ("wood", "clay", "reed", "stone"))
        # (a workshop pays the goods it converts into bonus points; only the rest breaks ties)
    return g


def run_many(pack, n, seeds, agent="random"):
    checked = 0
    for seed in seeds:
        g = play_checked(pack, n, seed, agent)
        assert g.finished and g.round == g.last_round
        checked += g.steps_checked
    assert checked > 0
    return checked


DEFAULT_GAMES = {"revised-family": 250, "revised": 50, "original-family": 60, "original": 40}
# The slow runs: 1,000 games per pack and player count (the ten runs of the 2007 packs take about 140 s
# of CPU time: docs/editions.md, "Tests").
SLOW_GAMES = 1000


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_random_family_games_keep_invariants(family, n):
    run_many(family, n, range(DEFAULT_GAMES["revised-family"]))


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_random_revised_games_keep_invariants(revised, n):
    run_many(revised, n, range(10_000, 10_000 + DEFAULT_GAMES["revised"]))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_random_original_family_games_keep_invariants(original_family, n):
    run_many(original_family, n, range(20_000, 20_000 + DEFAULT_GAMES["original-family"]))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_random_original_games_keep_invariants(original, n):
    run_many(original, n, range(30_000, 30_000 + DEFAULT_GAMES["original"]))


@pytest.mark.slow
@pytest.mark.parametrize("pack_name,n", [(pack, n) for pack in ("family", "revised") for n in (1, 2, 3, 4)]
                         + [(pack, n) for pack in ("original_family", "original") for n in (1, 2, 3, 4, 5)])
def test_thousand_random_games_keep_invariants(request, pack_name, n):
    pack = request.getfixturevalue(pack_name)
    games = SLOW_GAMES
    start = time.perf_counter()
    run_many(pack, n, range(100_000, 100_000 + games))
    print(f"{pack_name} {n}p: {games} games in {time.perf_counter() - start:.1f}s")


# ---------------------------------------------------------------- the 2007 edition with its hand cards
# The `original` pack deals 7 + 7 from decks E, I and K as they are encoded (an equal share of the
# cards there are while the decks are short: docs/editions.md); these runs play whatever cards exist,
# with random and with greedy agents (greedy ones play cards far more often). The probe pack deals its
# few test cards, so the passing and short-hand paths are run before the real decks are complete.

def hands_as_dealt(g):
    occs = len(g.dealable("occupations"))
    minors = len(g.dealable("minors"))
    want = (min(7, occs // g.nplayers), min(7, minors // g.nplayers))
    return want, [(len(p.hand_occupations), len(p.hand_minors)) for p in g.players]


def run_2007(pack, n, seeds, agent):
    """Checked games of ``pack`` (hands checked as dealt); the number of hand cards played."""
    played = 0
    for seed in seeds:
        fresh = Game(pack, n, seed=seed)
        want, hands = hands_as_dealt(fresh)
        assert hands == [want] * n, f"{pack.id} {n}p seed {seed}: hands {hands}, expected {want} each"
        g = play_checked(pack, n, seed, agent)
        assert g.finished and g.round == g.last_round and g.steps_checked > 0
        played += sum(len(p.occupations) + sum(1 for c in p.minors if c in pack.cards) for p in g.players)
    return played


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_greedy_original_games_with_the_2007_cards_keep_invariants(original, n):
    run_2007(original, n, [40_000 + n], "greedy")


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_random_games_with_probe_cards_dealt_keep_invariants(pack_loader, n):
    probes = pack_loader("original-probes")   # the 2007 cards there are and 5 probe cards (passing among them)
    assert run_2007(probes, n, range(41_000, 41_020), "random") > 0


SLOW_2007_GAMES = {"random": 200, "greedy": 20}   # per player count


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_2007_cards_dealt_keep_invariants(original, n):
    start = time.perf_counter()
    played = {agent: run_2007(original, n, range(200_000, 200_000 + games), agent)
              for agent, games in SLOW_2007_GAMES.items()}
    print(f"original {n}p with {len(original.cards)} hand cards: {SLOW_2007_GAMES} games, cards played "
          f"{played}, {time.perf_counter() - start:.1f}s")
