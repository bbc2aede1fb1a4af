"""``agricola coverage``: how many real cards of an edition a pack expresses.

The reference list of real cards (facts only) is ``cards.json`` (by default the shared reference
folder next to the project). A card counts as expressed when the pack has a card file for it that
compiles. A missing card is reported with the language feature it needs, as recorded in
``cards/<pack>/missing.yaml`` (``<reference id>: <missing feature>``).
"""
from __future__ import annotations

import json
from pathlib import Path

import yaml

from .diagnostics import Report

KINDS = {"occupation": "occupations", "minor_improvement": "minor improvements",
         "major_improvement": "major improvements"}


def default_reference(root: Path) -> Path:
    return root.parent / "shared" / "reference" / "cards.json"


def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def coverage_report(comp, pack_id: str, edition: str, reference: str | None = None):
    """The coverage text and whether every card of the edition is expressed."""
    root = comp.ws.root
    ref_path = Path(reference) if reference else default_reference(root)
    try:
        cards = json.loads(ref_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"error: cannot read the reference card list {ref_path}: {exc}", False
    ref = [c for c in cards if c.get("edition") == edition]
    if not ref:
        editions = sorted({c.get("edition") for c in cards if c.get("edition")})
        return f"error: no cards of edition '{edition}' in {ref_path} (editions: {', '.join(editions)})", False
    report = Report()
    src, checked, report = comp.check(pack_id, report)
    if src is None:
        return report.render() + f"\nerror: pack '{pack_id}' cannot be read", False
    broken_files = {d.span.file for d in report.errors}
    e300 = {}
    for d in report.errors:
        if d.code == "E300":
            e300.setdefault(d.span.file, d.message)
    by_deck_number, by_name = {}, {}
    for entry in src.cards + src.majors:
        file = entry.span.file
        ok = file not in broken_files or (file.endswith(("majors.yaml", "actions.yaml", "rounds.yaml")) and
                                          not any(d.span.file == file and d.span.line >= entry.span.line
                                                  for d in report.errors))
        info = (str(entry.get("id")), ok, e300.get(file))
        if entry.get("deck") is not None and entry.get("number") is not None:
            by_deck_number[(str(entry["deck"]), int(entry["number"]))] = info
        by_name.setdefault(_norm(str(entry.get("name", ""))), []).append((entry, info))
    missing_notes = {}
    notes_path = root / "cards" / pack_id / "missing.yaml"
    if notes_path.exists():
        try:
            missing_notes = yaml.safe_load(notes_path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError:
            missing_notes = {}
    lines = [f"Coverage of {edition} by pack '{pack_id}' (reference: {ref_path})"]
    totals: dict = {}
    missing = []
    for c in ref:
        kind = c["type"]
        info = by_deck_number.get((str(c.get("deck")), int(c.get("number") or -1)))
        if info is None:
            matches = by_name.get(_norm(c["name_en"]), [])
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
