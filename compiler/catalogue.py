"""The catalogue of real cards that ``agricola coverage`` compares a pack with: facts only, no card text.

``compiler/reference/cards.json`` is generated once from a full reference list (one JSON list of cards,
such as the project's shared research folder holds) and committed; no command reads that list::

    python -m compiler.catalogue PATH/TO/cards.json        # rewrites compiler/reference/cards.json

Only the facts below are kept: ids, names, types, editions, decks, numbers, costs, prerequisites,
points, player counts and passing. A card's text, rulings and sources are dropped: the text belongs to
its publisher, and the project states cards in its own words (generated from the effect language).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

CATALOGUE = Path(__file__).resolve().parent / "reference" / "cards.json"

# the fields kept, in this order (every other field, the card's text above all, is dropped)
FIELDS = ("id", "name_en", "type", "edition", "deck", "set", "number", "players", "cost", "cost_alternatives",
          "cost_text", "prerequisite", "vp", "bonus_points", "passing")


def facts(card: dict) -> dict:
    """The facts of one card of the reference list."""
    return {key: card.get(key) for key in FIELDS}


def render(cards: list) -> str:
    """The catalogue's text: one card per line, in a stable order (edition, deck, number, id)."""
    kept = sorted((facts(c) for c in cards),
                  key=lambda c: (str(c["edition"]), str(c["deck"]), c["number"] or 0, str(c["id"])))
    lines = [json.dumps(c, ensure_ascii=False, sort_keys=False) for c in kept]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def load(path: Path | None = None) -> list:
    """The cards of a catalogue (the shipped one by default)."""
    from runtime.fileio import read_regular_bytes
    return json.loads(read_regular_bytes(path or CATALOGUE, 20_000_000).decode("utf-8"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m compiler.catalogue", description=__doc__.split("\n\n")[0])
    ap.add_argument("source", help="the full reference list of cards (JSON)")
    ap.add_argument("--out", default=str(CATALOGUE), help=f"where to write the catalogue (default: {CATALOGUE})")
    args = ap.parse_args(argv)
    try:
        cards = json.loads(Path(args.source).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"error: {args.source}: cannot read the reference list: {exc}", file=sys.stderr)
        return 2
    if not isinstance(cards, list) or not all(isinstance(c, dict) for c in cards):
        print(f"error: {args.source}: the reference list must be a JSON list of cards", file=sys.stderr)
        return 2
    from runtime.fileio import write_text_atomic
    write_text_atomic(Path(args.out), render(cards))
    print(f"wrote {args.out}: {len(cards)} cards, facts only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
