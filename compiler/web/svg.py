"""A farmyard drawn as SVG: rooms by material, fields with their crops, pastures inside their fences,
stables, animals and the family. The web page, ``agricola score --svg`` and the printable reference use
the same picture.

Colours are chosen by the pack's own order of materials and animals (the first material is drawn like
wood, the second like clay, …), so no material or animal is named here.
"""
from __future__ import annotations

from html import escape

from runtime.farm import popcount

CELL = 64        # the side of a farmyard space
GAP = 6          # the room left between spaces for a fence
MARGIN = 22      # room for the row letters and column numbers
MATERIAL_COLOURS = ("#c99a5b", "#c4683f", "#9aa0a6", "#7d6b9e", "#5b8fa8")
ANIMAL_COLOURS = ("#f4f1e8", "#3b3b3b", "#8a5a33", "#c9a227", "#6a8d3a")
CROP_COLOURS = ("#e5c34b", "#e07b2e", "#9bbf4c", "#b04a7c")
FIELD = "#8b6b43"
PASTURE = "#b7d98b"
GRASS = "#dfe9c6"
FENCE = "#6b3f14"


def farm_svg(game, p, title: str | None = None) -> str:
    """``p``'s farmyard as a standalone SVG document (a string)."""
    rules = game.rules
    gr = p.grid
    rows, cols = gr.rows, gr.cols
    step = CELL + GAP
    width = MARGIN + cols * step + GAP
    animals = [(a, p.goods[a]) for a in rules.animals if p.goods[a]]
    height = MARGIN + rows * step + GAP + 34
    fenced = p.pasture_mask()      # fenced pastures and pasture tiles (packs that have them)
    pasture_of = {}
    for k, mask in enumerate(list(p.pastures) + [m for m, _ in p.tile_pastures]):
        for c in range(gr.n):
            if mask >> c & 1:
                pasture_of[c] = k
    name = title or f"Farmyard of {p.name}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="farm" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" role="img" aria-label="{escape(name)}">',
           f"<title>{escape(name)}</title>",
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#f7f3e8"/>']
    for c in range(cols):
        out.append(_text(MARGIN + GAP + c * step + CELL / 2, 15, str(c + 1), 12, "#555"))
    for r in range(rows):
        out.append(_text(10, MARGIN + GAP + r * step + CELL / 2 + 4, gr.name(r * cols)[0], 12, "#555"))
    crops = list(rules.crops)
    people_left = p.people
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        x, y = MARGIN + GAP + c * step, MARGIN + GAP + r * step
        bit = 1 << i
        kind, fill, label = "empty", GRASS, ""
        if p.rooms & bit:
            kind = "room"
            fill = MATERIAL_COLOURS[rules.materials.index(p.house) % len(MATERIAL_COLOURS)] \
                if p.house in rules.materials else MATERIAL_COLOURS[0]
            label = p.house
        elif i in p.fields:
            kind, fill = "field", FIELD
            crop, n = p.fields[i]
            label = f"{n} {crop}" if crop and n else "field"
        elif fenced & bit:
            kind, fill = "pasture", PASTURE
        cell = gr.name(i)
        out.append(f'<g class="cell {kind}" data-cell="{cell}">')
        out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="4" fill="{fill}" stroke="#0002"/>')
        if kind == "room":
            out.append(f'<path d="M{x + 8} {y + 26} L{x + CELL / 2} {y + 8} L{x + CELL - 8} {y + 26}" '
                       f'fill="none" stroke="#0006" stroke-width="3"/>')
            here = min(people_left, 2)
            for k in range(here):
                out.append(_person(x + 22 + k * 20, y + 42))
            people_left -= here
        if kind == "field" and p.fields[i][1]:
            crop, n = p.fields[i]
            colour = CROP_COLOURS[crops.index(crop) % len(CROP_COLOURS)] if crop in crops else CROP_COLOURS[0]
            for k in range(min(n, 6)):
                out.append(f'<circle class="crop" cx="{x + 12 + (k % 3) * 20}" cy="{y + 16 + (k // 3) * 18}" '
                           f'r="6" fill="{colour}" stroke="#0005"/>')
        if p.stables & bit:
            out.append(f'<rect class="stable" x="{x + CELL - 26}" y="{y + CELL - 24}" width="20" height="16" '
                       f'fill="#7a4a24" stroke="#000a"/>')
        if kind == "pasture":
            k = pasture_of.get(i)
            if k is not None:
                out.append(_text(x + CELL / 2, y + 14, f"pasture {k + 1}", 9, "#355e1f"))
        if label:
            out.append(_text(x + CELL / 2, y + CELL - 6, label, 10, "#222"))
        out.append("</g>")
    out.extend(_fences(p, rows, cols, step))
    y = MARGIN + rows * step + GAP + 20
    x = MARGIN
    if animals:
        for k, (a, n) in enumerate(animals):
            colour = ANIMAL_COLOURS[list(rules.animals).index(a) % len(ANIMAL_COLOURS)]
            out.append(f'<g class="animal" data-animal="{escape(a)}">'
                       f'<ellipse cx="{x + 8}" cy="{y - 4}" rx="8" ry="6" fill="{colour}" stroke="#000"/>'
                       + _text(x + 20, y, f"{n} {a}", 12, "#222", anchor="start") + "</g>")
            x += 30 + 8 * len(f"{n} {a}")
    else:
        out.append(_text(x, y, "no animals", 12, "#666", anchor="start"))
    out.append(_text(width - 8, y, f"family of {p.people}; {popcount(p.fences)} fences", 11, "#444", anchor="end"))
    out.append("</svg>")
    return "".join(out)


def _fences(p, rows: int, cols: int, step: int) -> list[str]:
    """The fences: bit r*cols+c is the fence above row r, column c; then the vertical ones row by row."""
    out = []
    h_count = (rows + 1) * cols
    for r in range(rows + 1):
        for c in range(cols):
            if p.fences >> (r * cols + c) & 1:
                x, y = MARGIN + GAP / 2 + c * step, MARGIN + GAP / 2 + r * step
                out.append(f'<line class="fence" x1="{x}" y1="{y}" x2="{x + step}" y2="{y}" stroke="{FENCE}" '
                           f'stroke-width="5" stroke-linecap="round"/>')
    for r in range(rows):
        for c in range(cols + 1):
            if p.fences >> (h_count + r * (cols + 1) + c) & 1:
                x, y = MARGIN + GAP / 2 + c * step, MARGIN + GAP / 2 + r * step
                out.append(f'<line class="fence" x1="{x}" y1="{y}" x2="{x}" y2="{y + step}" stroke="{FENCE}" '
                           f'stroke-width="5" stroke-linecap="round"/>')
    return out


def _person(x, y) -> str:
    return (f'<g class="person"><circle cx="{x}" cy="{y - 7}" r="5" fill="#2d5fa8"/>'
            f'<rect x="{x - 6}" y="{y - 2}" width="12" height="12" rx="4" fill="#2d5fa8"/></g>')


def _text(x, y, text, size, colour, anchor="middle") -> str:
    return (f'<text x="{x}" y="{y}" font-family="sans-serif" font-size="{size}" fill="{colour}" '
            f'text-anchor="{anchor}">{escape(str(text))}</text>')
