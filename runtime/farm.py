"""Farmyard geometry: a grid of spaces (3 x 5 by default), rooms, fields, pastures, stables, fences.

Spaces are numbered ``r * cols + c`` (row 0 at the top). Sets of spaces are bit masks. Fences sit on
the edges between spaces: horizontal edges first (``(rows + 1) * cols``), then vertical ones
(``rows * (cols + 1)``), also kept as a bit mask. A pasture is a connected set of spaces; the fences
are the boundaries of the pastures, so a farm's fences are determined by its pastures, except where the
rules allow unfinished fences (``open_fence_edges``): those are fences that close no pasture yet.

Everything here is pure and cached: a fencing option list for a given farm is computed once.
"""
from __future__ import annotations

import sys
from array import array
from bisect import bisect_right
from functools import lru_cache
from operator import itemgetter
from typing import Final

ROW_LETTERS = "ABCDEFGHIJ"


class Grid:
    """Precomputed geometry of a ``rows`` x ``cols`` farmyard."""

    def __init__(self, rows: int = 3, cols: int = 5):
        self.rows, self.cols = rows, cols
        self.n = rows * cols
        self.full = (1 << self.n) - 1
        self.neighbours = [0] * self.n
        self.cell_edges = [0] * self.n
        h_count = (rows + 1) * cols
        for r in range(rows):
            for c in range(cols):
                i = r * cols + c
                m = 0
                if r > 0:
                    m |= 1 << (i - cols)
                if r < rows - 1:
                    m |= 1 << (i + cols)
                if c > 0:
                    m |= 1 << (i - 1)
                if c < cols - 1:
                    m |= 1 << (i + 1)
                self.neighbours[i] = m
                top = r * cols + c
                bottom = (r + 1) * cols + c
                left = h_count + r * (cols + 1) + c
                right = left + 1
                self.cell_edges[i] = (1 << top) | (1 << bottom) | (1 << left) | (1 << right)
        self.edge_count = h_count + rows * (cols + 1)
        self._regions: list[int] | None = None
        self._region_bounds: list[tuple[int, int]] | None = None
        self._by_perimeter: list[tuple[int, int, int]] | None = None
        # by_perimeter's columns (region_columns): perimeters (in order, for bisect), regions, boundaries
        self._perimeters: list[int] | None = None
        self._masks: list[int] | None = None
        self._bounds: list[int] | None = None
        self._positions: bytes | None = None       # mask -> its place in by_perimeter (region_columns)
        self._boundary_cache: dict[int, int] = {}
        self._neighbours_cache: dict[int, int] = {}

    # ----- naming
    def name(self, i: int) -> str:
        return f"{ROW_LETTERS[i // self.cols]}{i % self.cols + 1}"

    def index(self, name: str) -> int:
        name = name.strip().upper()
        if not 2 <= len(name) <= 4 or name[0] not in ROW_LETTERS[: self.rows] or not name[1:].isdecimal() \
                or not name.isascii():
            shown = name if len(name) <= 20 else name[:20] + "…"
            raise ValueError(f"'{shown}' is not a farmyard space (use A1 to {ROW_LETTERS[self.rows - 1]}{self.cols})")
        r = ROW_LETTERS.index(name[0])
        c = int(name[1:]) - 1
        if not 0 <= c < self.cols:
            raise ValueError(f"'{name}' is not a farmyard space (use A1 to {ROW_LETTERS[self.rows - 1]}{self.cols})")
        return r * self.cols + c

    def edge_name(self, e: int) -> str:
        """An edge named by a space it borders and the side: 'A1 north', 'C5 east'."""
        h = (self.rows + 1) * self.cols
        if e < h:
            r, c = divmod(e, self.cols)
            return f"{self.name(r * self.cols + c)} north" if r < self.rows else \
                f"{self.name((r - 1) * self.cols + c)} south"
        r, c = divmod(e - h, self.cols + 1)
        return f"{self.name(r * self.cols + c)} west" if c < self.cols else f"{self.name(r * self.cols + c - 1)} east"

    def enclosures(self, fences: int) -> list[int]:
        """The sets of spaces these fences close in (no way out to the farm's edge without crossing a
        fence), each connected across the edges without a fence, sorted."""
        h = (self.rows + 1) * self.cols
        cols = self.cols

        def links(i):
            r, c = divmod(i, cols)
            out = []
            if r > 0 and not fences >> (r * cols + c) & 1:
                out.append(i - cols)
            if r < self.rows - 1 and not fences >> ((r + 1) * cols + c) & 1:
                out.append(i + cols)
            if c > 0 and not fences >> (h + r * (cols + 1) + c) & 1:
                out.append(i - 1)
            if c < cols - 1 and not fences >> (h + r * (cols + 1) + c + 1) & 1:
                out.append(i + 1)
            return out

        outside = 0
        for i in range(self.n):
            if self.cell_edges[i] & ~fences & self._border_edges():
                outside |= 1 << i
        stack = list(iter_bits(outside))
        while stack:
            for j in links(stack.pop()):
                if not outside >> j & 1:
                    outside |= 1 << j
                    stack.append(j)
        out = []
        rest = self.full & ~outside
        while rest:
            seen = rest & -rest
            stack = [seen.bit_length() - 1]
            while stack:
                for j in links(stack.pop()):
                    if not seen >> j & 1:
                        seen |= 1 << j
                        stack.append(j)
            out.append(seen)
            rest &= ~seen
        return sorted(out)

    def _border_edges(self) -> int:
        b = self._boundary_cache.get(-1)
        if b is None:
            b = self._boundary_cache[-1] = self.boundary(self.full)
        return b

    def mask_names(self, mask: int) -> str:
        return "+".join(self.name(i) for i in iter_bits(mask))

    def mask_from_names(self, text: str) -> int:
        m = 0
        for part in text.replace(",", "+").split("+"):
            if part.strip():
                m |= 1 << self.index(part)
        return m

    # ----- geometry
    def neighbours_of(self, mask: int) -> int:
        out = self._neighbours_cache.get(mask)
        if out is None:  # at most 2 ** n masks, asked for at every placement (rooms, fields, pastures)
            out = 0
            for i in iter_bits(mask):
                out |= self.neighbours[i]
            out = self._neighbours_cache[mask] = out & ~mask
        return out

    def boundary(self, mask: int) -> int:
        b = self._boundary_cache.get(mask)
        if b is None:
            b = 0
            for i in iter_bits(mask):
                b ^= self.cell_edges[i]
            self._boundary_cache[mask] = b
        return b

    def connected(self, mask: int) -> bool:
        if not mask:
            return False
        seen = frontier = mask & -mask
        while frontier:
            grow = 0
            for i in iter_bits(frontier):
                grow |= self.neighbours[i]
            frontier = grow & mask & ~seen
            seen |= frontier
        return seen == mask

    def components(self, mask: int) -> list[int]:
        out = []
        rest = mask
        while rest:
            seen = frontier = rest & -rest
            while frontier:
                grow = 0
                for i in iter_bits(frontier):
                    grow |= self.neighbours[i]
                frontier = grow & rest & ~seen
                seen |= frontier
            out.append(seen)
            rest &= ~seen
        return out

    def region_bounds(self) -> list[tuple[int, int]]:
        """(region, boundary edges) for every connected set of spaces (computed once)."""
        bounds = self._region_bounds
        if bounds is None:
            bounds = self._grow_regions()[1]
        return bounds

    def by_perimeter(self) -> list[tuple[int, int, int]]:
        """(fences around it, region, boundary) for every region, the smallest perimeter first."""
        table = self._by_perimeter
        if table is None:
            shipped = _shipped_regions(self.rows, self.cols)
            if shipped is not None:  # the regions in this order, listed once (runtime/farm_regions.py)
                # a region's boundary is the XOR of its spaces' edges: looked up per byte of its mask
                low, high = self._edges_by_byte(0), self._edges_by_byte(8)
                table = [((b := low[r & 255] ^ high[r >> 8]).bit_count(), r, b) for r in shipped]
            else:
                # (fences, region) is unique, so plain tuple order is (fences, region) order
                table = sorted([(b.bit_count(), r, b) for r, b in self.region_bounds()])
            self._by_perimeter = table
        return table

    def regions_in(self, free: int, limit: int) -> list:
        """The (fences around it, region, boundary) of by_perimeter whose region lies within ``free`` and
        whose perimeter is at most ``limit``, in by_perimeter's order (see region_indices_in)."""
        table: list = self.by_perimeter()   # (list, not of typed tuples: a compiled runtime takes them as they are)
        return [table[i] for i in self.region_indices_in(free, limit)]

    def region_columns(self) -> tuple[list[int], list[int], list[int]]:
        """by_perimeter as three lists: the perimeters, the regions and the boundaries (made once)."""
        perimeters, masks, bounds = self._perimeters, self._masks, self._bounds
        if perimeters is None or masks is None or bounds is None:
            table = self.by_perimeter()
            perimeters = self._perimeters = [t[0] for t in table]
            masks = self._masks = [t[1] for t in table]
            bounds = self._bounds = [t[2] for t in table]
            if self.n <= 16 and len(table) < NO_REGION:
                # indexed by mask (2 ** 15 entries on 3 x 5), two bytes an entry, low byte first: bytes,
                # which the garbage collector need not walk and a compiled runtime reads directly
                place = bytearray(b"\xff\xff") * (1 << self.n)   # NO_REGION: not connected
                for i, r in enumerate(masks):
                    place[2 * r] = i & 255
                    place[2 * r + 1] = i >> 8
                self._positions = bytes(place)
        return perimeters, masks, bounds

    def region_indices_in(self, free: int, limit: int) -> list[int]:
        """The places in by_perimeter (ascending) of the regions that lie within ``free`` and whose
        perimeter is at most ``limit``. Found by walking by_perimeter up to ``limit`` or, when ``free`` has
        fewer subsets than that walk has regions (a farm mostly used up: often 64 subsets against a
        thousand regions), by looking up each subset of ``free``."""
        perimeters, masks, _ = self.region_columns()
        walk = bisect_right(perimeters, limit)
        positions = self._positions
        if positions is None or not looks_up_subsets(free, walk):
            outside = ~free
            return [i for i in range(walk) if not masks[i] & outside]
        found = []
        sub = free
        while sub:   # every non-empty subset of free
            i = positions[2 * sub] | positions[2 * sub + 1] << 8
            if i < walk:   # a region (connected: not NO_REGION) within the perimeter limit
                found.append(i)
            sub = (sub - 1) & free
        found.sort()
        return found

    def _edges_by_byte(self, shift: int) -> list[int]:
        """The XOR of the edges of the spaces shift..shift+7 that each 8-bit value selects."""
        edges = self.cell_edges
        table = [0] * 256
        for v in range(1, 256):
            low = v & -v
            i = shift + low.bit_length() - 1
            table[v] = table[v ^ low] ^ (edges[i] if i < self.n else 0)
        return table

    def regions_table(self) -> str:
        """The regions in by_perimeter order as runtime/farm_regions.py lists them (base64 of 16-bit
        little-endian masks): how that table is made (python -m runtime.farm_regions)."""
        import base64
        bounds = sorted((b.bit_count(), r) for r, b in self.region_bounds())
        return base64.b64encode(b"".join(r.to_bytes(2, "little") for _, r in bounds)).decode("ascii")

    def regions(self) -> list[int]:
        """Every connected set of spaces, smallest first (computed once)."""
        regions = self._regions
        if regions is None:
            regions = self._grow_regions()[0]
        return regions

    def _grow_regions(self) -> tuple[list[int], list[tuple[int, int]]]:
        """Grow every connected set one space at a time from single spaces, carrying along its outside
        neighbours and its boundary (both updated from the space added, not recomputed): this runs
        once per process, in the first game that fences, so it is kept quick."""
        nb, edges = self.neighbours, self.cell_edges
        found: dict = {}   # region -> (outside neighbours, boundary edges)
        ordered: list = []  # by size, then mask: each layer holds the regions one space larger
        layer = {1 << i: (nb[i], edges[i]) for i in range(self.n)}
        while layer:
            found.update(layer)
            ordered.extend(sorted(layer))
            nxt: dict = {}
            for m, (outside, bound) in layer.items():
                rest = outside
                while rest:
                    low = rest & -rest
                    rest ^= low
                    nm = m | low
                    if nm in found or nm in nxt:
                        continue
                    i = low.bit_length() - 1
                    nxt[nm] = ((outside | nb[i]) & ~nm, bound ^ edges[i])
            layer = nxt
        self._regions = ordered
        self._region_bounds = [(m, found[m][1]) for m in ordered]
        return self._regions, self._region_bounds


def _shipped_regions(rows: int, cols: int):
    """The masks of every region of a farmyard of this size in by_perimeter order, when
    runtime/farm_regions.py lists them (growing them takes ~90 million instructions, the first
    fencing of every process paid it), else None."""
    from .farm_regions import TABLES
    text = TABLES.get((rows, cols))
    if text is None or rows * cols > 16:
        return None
    import binascii
    masks = array("H", binascii.a2b_base64(text))
    if sys.byteorder == "big":
        masks.byteswap()
    return masks.tolist()


def shapes(gr: Grid, free: int, size: int, touch: int) -> list[int]:
    """Every connected set of ``size`` spaces within ``free`` that meets ``touch`` (where a tile of that
    size can be laid next to the farm), lowest masks first. Grown space by space from single spaces, so
    it stays cheap for the small tiles it is used for (unlike ``regions``, which lists every region)."""
    layer = {1 << i for i in iter_bits(free)}
    for _ in range(size - 1):
        grown = set()
        for m in layer:
            rest = gr.neighbours_of(m) & free
            while rest:
                low = rest & -rest
                rest ^= low
                grown.add(m | low)
        layer = grown
    return sorted(m for m in layer if m & touch)


_BITS_OF_BYTE: Final = bytes(bin(i).count("1") for i in range(256))


def popcount(m: int) -> int:
    """How many bits of ``m`` are set (as int.bit_count(), which a compiled runtime calls as a Python method:
    this reads a table of 256 entries instead)."""
    if m < 0:
        m = -m
    n = 0
    while m:
        n += _BITS_OF_BYTE[m & 255]
        m >>= 8
    return n


def iter_bits(m: int):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


NO_REGION = 0xFFFF   # a mask's place in Grid._positions when the mask is no region (its spaces not connected)


def looks_up_subsets(free: int, walk: int) -> bool:
    """Whether Grid.region_indices_in looks up each subset of ``free`` rather than walking the first ``walk``
    regions: when there are fewer of those subsets."""
    return 1 << popcount(free) < walk


@lru_cache(maxsize=8)
def grid(rows: int = 3, cols: int = 5) -> Grid:
    return Grid(rows, cols)


_FENCE_CACHE: dict = {}
_STEP_ORDER = itemgetter(0, 2, 1)  # fencing steps: fewest new fences, then new pastures first, then by mask
_FENCE_CACHE_LIMIT = 60_000


def fencing_options(gr: Grid, blocked: int, pastures: tuple, fences: int, budget: int = 99, touching=True):
    """All single fencing steps from this farm that need at most ``budget`` new fences, cheapest first.

    ``blocked`` are spaces that cannot be fenced (rooms, fields). Returns a list of
    ``(new_fence_count, new_pasture_mask, split_from_mask)`` where ``split_from_mask`` is 0 for a new
    pasture and the divided pasture otherwise. New pastures must touch an existing pasture once there
    is one (unless ``touching`` is false); a division must leave both parts connected. Fences already
    built (unfinished ones too) are not paid again.
    """
    budget = max(0, min(budget, gr.edge_count))
    key = (gr.rows, gr.cols, blocked, pastures, fences, budget, touching)
    hit = _FENCE_CACHE.get(key)
    if hit is not None:
        return hit
    fenced = 0
    for m in pastures:
        fenced |= m
    free = gr.full & ~(blocked | fenced)
    nf = ~fences
    out = []
    perimeters, masks, bounds = gr.region_columns()
    if fences:
        # a region's new fences are its perimeter less the fences already on it
        touch = gr.neighbours_of(fenced) if touching and fenced else gr.full
        for i in gr.region_indices_in(free, budget + popcount(fences)):
            r = masks[i]
            if r & touch:
                cost = popcount(bounds[i] & nf)
                if cost <= budget:
                    out.append((cost, r, 0))
    else:
        for i in gr.region_indices_in(free, budget):
            out.append((perimeters[i], masks[i], 0))
    for pasture in pastures:
        if popcount(pasture) < 2:
            continue
        low = pasture & -pasture
        rest_bits = pasture & ~low
        sub = rest_bits
        while sub:  # every part that leaves out the lowest space (each division once)
            if gr.connected(sub) and gr.connected(pasture & ~sub):
                cost = popcount(gr.boundary(sub) & nf)
                if cost <= budget:
                    out.append((cost, sub, pasture))
            sub = (sub - 1) & rest_bits
    loose = fences & ~fences_of(gr, pastures)
    if loose:   # unfinished fences inside a region would cut it: such a region is no one pasture
        out = [o for o in out if _closes_one(gr, fences, o[1])]
    if pastures:  # (without any, the regions came in (fences, region) order already)
        out.sort(key=_STEP_ORDER)
    if len(_FENCE_CACHE) > _FENCE_CACHE_LIMIT:
        _FENCE_CACHE.clear()
    _FENCE_CACHE[key] = out
    return out


def _closes_one(gr: Grid, fences: int, region: int) -> bool:
    """Whether fencing ``region`` (with the fences already built) closes it in as one pasture."""
    return region in gr.enclosures(fences | gr.boundary(region))


def min_fencing_cost(gr: Grid, blocked: int, pastures: tuple, fences: int, budget: int, touching=True) -> bool:
    """Whether some fencing step costs at most ``budget`` fences (cheap answers first)."""
    fenced = 0
    for m in pastures:
        fenced |= m
    if budget >= 4:
        free = gr.full & ~blocked & ~fenced
        if fenced and touching:
            free &= gr.neighbours_of(fenced)
        if free:
            return True
    if not fences:
        return False  # a first pasture needs at least 4 fences
    return bool(fencing_options(gr, blocked, pastures, fences, budget, touching))


def open_fence_edges(gr: Grid, fences: int, max_fences: int) -> list[int]:
    """The edges where one more unfinished fence may go: it closes in nothing and divides no pasture
    (closing a pasture is a fencing step of ``fencing_options``, which counts the fences already there)."""
    if popcount(fences) >= max_fences:
        return []
    key = ("open", gr.rows, gr.cols, fences)
    hit = _FENCE_CACHE.get(key)
    if hit is not None:
        return hit
    closed = gr.enclosures(fences)
    out = [e for e in range(gr.edge_count) if not fences >> e & 1 and gr.enclosures(fences | 1 << e) == closed]
    _FENCE_CACHE[key] = out
    return out


def fences_of(gr: Grid, pastures) -> int:
    f = 0
    for m in pastures:
        f |= gr.boundary(m)
    return f


_FRONTIER_CACHE: dict = {}


def pasture_frontier(caps: tuple, types: int = 3, per_kind=None):
    """The Pareto-maximal capacities per animal type of the single-type containers alone.
    ``per_kind``: at most this many pastures (containers of any type) hold one kind (None: no limit);
    a container for one type only (a card's) is not a pasture and is not limited."""
    key = (caps, types, per_kind)
    hit = _PASTURE_CACHE.get(key)
    if hit is not None:
        return hit
    if per_kind is None:
        states = {(0,) * types}
        for c in caps:
            cap, only = c[0], c[1]
            more = c[2] if len(c) > 2 else None
            nxt = set()
            for st in states:
                kinds = range(types) if only < 0 else (only,)
                for t in kinds:
                    s = list(st)
                    s[t] += cap if more is None else cap + more[t]
                    nxt.add(tuple(s))
            states = _pareto(nxt)
    else:
        # a state is (capacities, pastures used per kind); an unused pasture may stay empty
        pairs = {((0,) * types, (0,) * types)}
        for c in caps:
            cap, only = c[0], c[1]
            more = c[2] if len(c) > 2 else None
            grown = set()
            for st, used in pairs:
                if only < 0:
                    grown.add((st, used))
                    for t in range(types):
                        if used[t] < per_kind:
                            s, u = list(st), list(used)
                            s[t] += cap if more is None else cap + more[t]
                            u[t] += 1
                            grown.add((tuple(s), tuple(u)))
                else:
                    s = list(st)
                    s[only] += cap
                    grown.add((tuple(s), used))
            by_used: dict = {}
            for st, used in grown:
                by_used.setdefault(used, set()).add(st)
            pairs = {(st, used) for used, sts in by_used.items() for st in _pareto(sts)}
        states = _pareto({st for st, _ in pairs})
    result = tuple(sorted(states))
    if len(_PASTURE_CACHE) > 20_000:
        _PASTURE_CACHE.clear()
    _PASTURE_CACHE[key] = result
    return result


_PASTURE_CACHE: dict = {}


def fits_housing(caps: tuple, singles: int, counts, per_kind=None) -> bool:
    """Whether ``counts`` animals fit: single-type containers first, the rest one per single space
    (``per_kind``: at most that many pastures a kind, see pasture_frontier)."""
    want: tuple[int, ...] = tuple(counts)
    for cap in pasture_frontier(caps, len(want), per_kind):
        if _overflow(want, cap) <= singles:
            return True
    return False


def _overflow(counts: tuple[int, ...], cap: tuple[int, ...]) -> int:
    """How many of ``counts`` are beyond the capacities ``cap`` (the counts both have)."""
    over = 0
    for i in range(min(len(counts), len(cap))):
        if counts[i] > cap[i]:
            over += counts[i] - cap[i]
    return over


def capacity_frontier(caps: tuple, singles: int, types: int = 3, per_kind=None):
    """The Pareto-maximal housing capacities per animal type.

    ``caps`` is a tuple of ``(capacity, only_type)`` containers (pastures: only_type -1 = any one type)
    that each hold a single type, or ``(capacity, -1, more)`` where ``more[t]`` is added to the capacity
    when the container keeps type ``t`` ('capacity of pasture: +2 sheep', docs/language.md 4.3); ``singles`` is the number of spaces holding one animal of any type
    (the house, unfenced stables). Returns tuples ``(cap_type0, cap_type1, ...)``.
    """
    key = (caps, singles, types, per_kind)
    hit = _FRONTIER_CACHE.get(key)
    if hit is not None:
        return hit
    states = set(pasture_frontier(caps, types, per_kind))
    if singles:
        nxt = set()
        dists = list(_distributions(singles, types))
        for st in states:
            for dist in dists:
                nxt.add(tuple(a + b for a, b in zip(st, dist)))
        states = _pareto(nxt)
    result = tuple(sorted(states))
    if len(_FRONTIER_CACHE) > 20_000:
        _FRONTIER_CACHE.clear()
    _FRONTIER_CACHE[key] = result
    return result


def _distributions(n, k):
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _distributions(n - first, k - 1):
            yield (first,) + rest


def _pareto(points) -> set:
    pts: list[tuple[int, ...]] = sorted(points, reverse=True)
    keep: list[tuple[int, ...]] = []
    for p in pts:
        for q in keep:
            if _at_most(p, q):
                break  # p is dominated by q
        else:
            keep.append(p)
    return set(keep)


def _at_most(p: tuple[int, ...], q: tuple[int, ...]) -> bool:
    """Whether no count of ``p`` is above the same count of ``q`` (the counts both have)."""
    for i in range(min(len(p), len(q))):
        if p[i] > q[i]:
            return False
    return True


def fits(frontier, counts) -> bool:
    for cap in frontier:
        for a, b in zip(counts, cap):
            if a > b:
                break
        else:
            return True
    return False


_KEEPS_CACHE: dict = {}


def best_keeps(frontier, counts):
    """The Pareto-maximal animal counts, no more than ``counts``, that fit the housing (a new list each
    call; the answer is plain data, kept per process: two of three calls in random games repeat one)."""
    key = (frontier, tuple(counts))
    hit = _KEEPS_CACHE.get(key)
    if hit is None:
        cands = {tuple(min(a, b) for a, b in zip(counts, cap)) for cap in frontier}
        if len(_KEEPS_CACHE) > 20_000:
            _KEEPS_CACHE.clear()
        hit = _KEEPS_CACHE[key] = tuple(sorted(_pareto(cands), reverse=True))
    return list(hit)
