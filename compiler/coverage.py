"""``agricola coverage``: how many real cards of an edition a pack expresses.

The reference list of real cards (facts only) is the catalogue shipped with the compiler,
``compiler/reference/cards.json`` (see compiler/catalogue.py), or a list given with ``--reference``
in the same format. A card counts as expressed when the pack has a card file for it that
compiles. A missing card is reported with the language feature it needs, as recorded in
``cards/<pack>/missing.yaml`` (``<reference id>: <missing feature>``).
"""
from __future__ import annotations

import json
from pathlib import Path

import yaml

from runtime.fileio import read_regular_bytes

from .diagnostics import Report

KINDS = {"occupation": "occupations", "minor_improvement": "minor improvements",
         "major_improvement": "major improvements"}
CARD_KINDS = {"occupation": "occupation", "minor": "minor_improvement"}   # a card file's kind -> the catalogue's


def default_reference(root: Path | None = None) -> Path:
    """The catalogue of real cards shipped inside the compiler (the same for every workspace)."""
    from .catalogue import CATALOGUE
    return CATALOGUE


def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def coverage_report(comp, pack_id: str, edition: str | None, reference: str | None = None,
                    default_edition: str = ""):
    """The coverage text and whether every card of the edition is expressed. Without ``edition``, the
    edition the pack names in its ``game.yaml`` (a variant's is its base's), else ``default_edition``."""
    root = comp.ws.root
    report = Report()
    src, checked, report = comp.check(pack_id, report)
    if src is None:
        return report.render() + f"\nerror: pack '{pack_id}' cannot be read", False
    edition = edition or str(src.game.get("edition") or "") or default_edition
    ref_path = Path(reference) if reference else default_reference(root)
    try:
        cards = json.loads(read_regular_bytes(ref_path, 20_000_000).decode("utf-8"))
    except OSError as exc:
        return f"error: cannot read the reference card list {ref_path}: {exc.strerror or exc}", False
    except (ValueError, RecursionError) as exc:
        return f"error: cannot read the reference card list {ref_path}: it is not a JSON list of cards ({exc})", False
    if not isinstance(cards, list) or not all(isinstance(c, dict) for c in cards):
        return f"error: cannot read the reference card list {ref_path}: it is not a JSON list of cards", False
    ref = [c for c in cards if c.get("edition") == edition]
    for i, c in enumerate(ref):
        bad = [k for k in ("id", "name_en", "type") if not isinstance(c.get(k), str)]
        if not isinstance(c.get("number"), (int, type(None))) or isinstance(c.get("number"), bool):
            bad.append("number")
        if bad:
            return (f"error: {ref_path}: card {c.get('id')!r} of edition '{edition}' has no usable "
                    f"{', '.join(repr(b) for b in bad)}"), False
    if not ref:
        editions = sorted({c.get("edition") for c in cards if c.get("edition")})
        return f"error: no cards of edition '{edition}' in {ref_path} (editions: {', '.join(editions)})", False
    broken_files = {d.span.file for d in report.errors}
    e300 = {}
    for d in report.errors:
        if d.code == "E300":
            e300.setdefault(d.span.file, d.message)
    # A file expresses a real card of its own edition and kind only: the 2007 minor improvement Cooking
    # Hearth is not the major of that name, and a revised card is not the 2007 card of the same name.
    pack_edition = str(src.game.get("edition") or "")
    by_deck_number, by_name = {}, {}
    entries = [(e, CARD_KINDS.get(str(e.get("kind")))) for e in src.cards] + [(e, "major_improvement")
                                                                              for e in src.majors]
    for entry, kind in entries:
        own_edition = str(entry.get("edition") or pack_edition)   # a pack that names none: any edition
        if (own_edition and own_edition != edition) or kind is None:
            continue
        file = entry.span.file
        ok = file not in broken_files or (file.endswith(("majors.yaml", "actions.yaml", "rounds.yaml")) and
                                          not any(d.span.file == file and d.span.line >= entry.span.line
                                                  for d in report.errors))
        info = (str(entry.get("id")), ok, e300.get(file))
        if entry.get("deck") is not None and entry.get("number") is not None:
            by_deck_number[(kind, str(entry["deck"]), int(entry["number"]))] = info
        by_name.setdefault((kind, _norm(str(entry.get("name", "")))), []).append((entry, info))
    missing_notes = {}
    notes_path = root / "cards" / pack_id / "missing.yaml"
    if notes_path.exists():
        try:
            missing_notes = yaml.safe_load(read_regular_bytes(notes_path, 2_000_000).decode("utf-8")) or {}
        except (OSError, ValueError, yaml.YAMLError):
            missing_notes = {}
        if not isinstance(missing_notes, dict):
            missing_notes = {}
    shown = "the catalogue shipped with agricola" if reference is None else str(ref_path)
    lines = [f"Coverage of {edition} by pack '{pack_id}' (reference: {shown})"]
    if pack_edition and pack_edition != edition:
        lines.append(f"  (the pack is of edition {pack_edition}: only its files that say "
                     f"'edition: {edition}' count)")
    totals: dict = {}
    missing = []
    for c in ref:
        kind = c["type"]
        info = by_deck_number.get((kind, str(c.get("deck")), int(c.get("number") or -1)))
        if info is None:
            matches = by_name.get((kind, _norm(c["name_en"])), [])
            if kind == "major_improvement" and len(matches) > 1:
                cost = c.get("cost") or {}
                for entry, inf in matches:
                    if str(entry.get("cost", "")).replace(" ", "") == ",".join(f"{n}{g}" for g, n in cost.items()):
                        info = inf
                        break
            if info is None and matches:
                info = matches[0][1]
        t = totals.setdefault(kind, [0, 0])
        t[1] += 1
        if info is not None and info[1]:
            t[0] += 1
            continue
        if info is not None and info[2]:
            reason = info[2]
        elif info is not None:
            reason = f"its file ({info[0]}) has errors: run agricola validate"
        else:
            reason = missing_notes.get(c["id"]) or "no card file yet (and no note in cards/<pack>/missing.yaml)"
        missing.append(f"  {c['id']} {c['name_en']} ({KINDS.get(kind, kind)[:-1]}, "
                       f"{c.get('deck')}{c.get('number') or ''}): {reason}")
    done = sum(t[0] for t in totals.values())
    total = sum(t[1] for t in totals.values())
    for kind, (a, b) in totals.items():
        lines.append(f"  {KINDS.get(kind, kind):20} {a:4}/{b} expressed")
    lines.append(f"  {'total':20} {done:4}/{total} expressed, {total - done} missing")
    if missing:
        lines.append("Missing:")
        lines.extend(missing)
    return "\n".join(lines), done == total
