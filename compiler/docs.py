"""The printable reference of a pack: a static HTML site and, optionally, a PDF.

Everything on the pages comes from the data the game runs on: the checked pack (``game.yaml``
settings, action spaces, round cards, improvements, hand cards) and the text that
``compiler/english.py`` generates from the effect trees. No printed card text is copied.

``build_site(compiler, pack_id, out_dir, pdf=False)`` writes:

- ``index.html``: contents and an alphabetical index of every space, round card and card;
- ``rules.html``: set-up, round structure, harvest, costs, scoring table, tie-break, and, for a pack
  that extends another, "What this variant changes";
- ``spaces.html``: the action spaces by player count and the round cards by stage;
- ``improvements.html``: the major improvements;
- ``cards.html``: every occupation and minor improvement;
- ``sheets.html``: the hand cards at poker size (63 x 88 mm), nine to an A4 page, with crop marks;
- ``print.html``: the whole reference as one document, printed to ``<pack>.pdf`` by headless Chromium;
- ``style.css``, ``print.css`` and ``manifest.json`` (what was written, page counts).

Anchors are stable: ``space-<id>`` for action spaces and round cards, ``card-<id>`` for improvements
and hand cards. See docs/docs-site.md.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from . import english
from . import nodes as N

TEMPLATES = Path(__file__).parent / "templates" / "docs"
CARDS_PER_SHEET = 9
PAGES = ("index.html", "rules.html", "spaces.html", "improvements.html", "cards.html", "sheets.html", "print.html")
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage")
KIND_LABEL = {"occupation": "Occupation", "minor": "Minor improvement", "major": "Major improvement"}


class DocsError(Exception):
    """A problem the user can fix (pack errors, no Chromium for --pdf)."""


@dataclass
class DocsResult:
    pack: str
    out_dir: Path
    pages: list = field(default_factory=list)
    cards: int = 0
    sheet_pages: int = 0
    pdf: Path | None = None
    pdf_pages: int = 0
    rules_pages: int = 0
    seconds: float = 0.0
    pdf_seconds: float = 0.0


# ---------------------------------------------------------------- text with links

_QUOTED = re.compile(r'"([^"]+)"')


class Linker:
    """Turns the quoted names in generated text into links to the anchors of spaces and cards."""

    def __init__(self, model):
        self.targets = {}
        for sp in model["spaces"] + model["rounds"]:
            self.targets.setdefault(sp["name"], sp["anchor"])
        for c in model["majors"] + model["cards"]:
            self.targets.setdefault(c["name"], c["anchor"])
        self.where: dict = {}    # anchor -> page holding it ("" for this page), set per page rendered

    def __call__(self, text: str) -> Markup:
        out = []
        pos = 0
        for m in _QUOTED.finditer(text):
            out.append(escape(text[pos:m.start()]))
            anchor = self.targets.get(m.group(1))
            href = self.href(anchor) if anchor else None
            if href:
                out.append(Markup('<a class="ref" href="{}">{}</a>').format(href, m.group(1)))
            else:
                out.append(escape(m.group(0)))
            pos = m.end()
        out.append(escape(text[pos:]))
        return Markup("").join(out)

    def href(self, anchor: str) -> str | None:
        page = self.where.get(anchor)
        if page is None:
            return None
        return f"#{anchor}" if page == "" else f"{page}#{anchor}"


# ---------------------------------------------------------------- the model

def _players_text(counts) -> str:
    counts = sorted(counts)
    if not counts:
        return "—"
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return ", ".join(map(str, counts))


def _card(eng, unit) -> dict:
    d = unit.data
    facts = []
    cost = None
    if d.get("cost") is not None:
        cost = eng.price(d)
    elif d["kind"] != "occupation":
        cost = "nothing"
    if cost and d.get("upgrade_of"):
        cost = english.upgrade_cost(cost, d)
    requires = eng.cond(d["requires"]) if d.get("requires") is not None else None
    points = d.get("points") or 0
    rules = [eng.rule(r, d["kind"]) for r in d["rules"]]
    facts = [x for x in (cost, requires) if x]
    length = sum(len(x) for x in rules + facts)
    return {
        "id": unit.id, "anchor": f"card-{unit.id}", "name": d["name"], "kind": d["kind"],
        "kind_label": KIND_LABEL[d["kind"]], "deck": d.get("deck"), "number": d.get("number"),
        "players": f"{d['players']}+" if d.get("players") else None, "cost": cost, "requires": requires,
        "points": points, "bonus_points": bool(d.get("bonus_points")), "passing": bool(d.get("passing")),
        "rules": rules, "size": "long" if length > 330 else ("medium" if length > 230 else "short"),
        "tags": list(d.get("tags") or []), "refs": N.names_in(d["rules"]),
    }


def card_texts(checked) -> dict:
    """The generated English of each improvement and hand card of a checked pack, by id, as one paragraph:
    its price and prerequisite, then its rules (what the terminal's ``h`` shows beside a card in hand)."""
    eng = english.for_pack(checked)
    out = {}
    for unit in checked.majors + checked.cards:
        c = _card(eng, unit)
        parts = ([f"Cost: {c['cost']}."] if c["cost"] else []) + ([f"Prerequisite: {c['requires']}."] if c["requires"] else [])
        out[unit.id] = " ".join(parts + [r if r.endswith(".") else r + "." for r in c["rules"]])
    return out


def pack_card_texts(compiler, pack_id: str) -> dict:
    """card_texts of a pack as its sources are now (empty when they do not check): the hands of the
    terminal and of the web page show them."""
    _src, checked, _report = compiler.check(pack_id)
    return card_texts(checked) if checked is not None else {}


def card_tags(checked) -> list:
    """The tags of a pack's improvements and hand cards, for 'agricola cards tags' and the index page: a list
    of {"tag", "cards"} sorted by tag, each card {"id", "name", "kind", "deck", "counts_as"} in the pack's
    order (majors first); ``counts_as`` when the card has the tag by 'this card counts as #tag' (4.8), not
    by its ``tags``."""
    found: dict = {}
    for u in checked.majors + checked.cards:
        d = u.data
        own = list(d.get("tags") or [])
        counted = [r.modifier.words[0][0] for r in d.get("rules") or []
                   if r.kind == "modifier" and r.modifier.kind == "counts_as_tag"]
        for tag in dict.fromkeys(own + counted):
            found.setdefault(str(tag), []).append({"id": u.id, "name": d["name"], "kind": d["kind"],
                                                   "deck": d.get("deck"), "counts_as": tag not in own})
    return [{"tag": t, "cards": found[t]} for t in sorted(found)]


def _space(eng, unit, counts) -> dict:
    d = unit.data
    by_count = {}
    for n in counts:
        if n in d["variants"]:
            effect, acc = d["variants"][n]
            by_count[n] = eng.space_effect(effect, acc)
    texts = list(dict.fromkeys(by_count.values()))
    groups = []
    for text in texts:
        ns = [n for n, t in by_count.items() if t == text]
        groups.append({"players": _players_text(ns), "text": text})
    return {"id": unit.id, "anchor": f"space-{unit.id}", "name": d["name"], "stage": d.get("stage"),
            "players": _players_text(d["players"]), "counts": d["players"], "by_count": by_count,
            "groups": groups, "varies": len(texts) > 1,
            "group": english.group_sentence(d["group"]) if d.get("group") else None, "tags": [t.replace("_", " ") for t in d.get("tags") or []],
            "referred_by": []}


def _tier_cells(tier: N.Tier):
    entries = [(k, v) for k, v, *_ in tier.entries]
    cells = []
    for i, (k, v) in enumerate(entries):
        if i + 1 < len(entries):
            hi = entries[i + 1][0] - 1
            label = str(k) if hi == k else f"{k}–{hi}"
        else:
            label = f"{k}+"
        cells.append((label, v))
    return cells


def _product(node):
    """(coefficient, factors) of a product of numbers, quantities and house(...) values."""
    if isinstance(node, N.Num):
        return node.value, []
    if isinstance(node, N.Neg):
        c, f = _product(node.value)
        return (-c if c is not None else None), f
    if isinstance(node, N.BinOp) and node.op == "*":
        a, fa = _product(node.left)
        b, fb = _product(node.right)
        if a is None or b is None:
            return None, []
        return a * b, fa + fb
    if isinstance(node, (N.Quantity, N.ByHouse)):
        return 1, [node]
    return None, []


def _score_text(eng, node) -> str:
    coef, factors = _product(node)
    quantities = [f for f in factors if isinstance(f, N.Quantity)]
    houses = [f for f in factors if isinstance(f, N.ByHouse)]
    if coef is not None and len(quantities) == 1 and len(houses) <= 1:
        q = quantities[0]
        what = english._QUANTITY.get(q.name, q.name.replace("_", " "))
        if q.name in english._GOOD_PLURAL:
            what = eng.good(q.name, 1)
        sign = "−" if coef < 0 else ""
        if houses:
            vals = ", ".join(f"{sign}{abs(coef) * v} in a {k} house" for k, v, *_ in houses[0].entries)
            return f"per {what}: {vals}"
        return f"{sign}{abs(coef)} point{'s' if abs(coef) != 1 else ''} per {what}"
    return english._cap(eng.expr(node))


def _goods_or_none(eng, node) -> str:
    """Goods in words; goods that depend on the player count as 'X (1 player), Y (2 or more players)'."""
    if node is None:
        return "nothing"
    if len(node.items) == 1 and isinstance(node.items[0], N.PlayersGoods):
        parts = []
        for n, exact, goods, _ in node.items[0].entries:
            who = f"{n} player{'s' if n != 1 else ''}" if exact else f"{n} or more players"
            parts.append(f"{eng.goods(goods)} with {who}")
        return ", ".join(parts)
    return eng.goods(node)


def rules_words(checked, eng) -> dict:
    """The pack's settings in words (set-up, costs, feeding, housing, scoring table), for the rules page
    and for comparing a variant with its base."""
    s = checked.game["settings"]
    g = checked.game
    lo, hi = s["players"]
    hand = s.get("hand")
    start_sp, start_others = g["start_goods"]
    per_person, per_newborn = g["feeding"]
    costs = g["costs"]
    materials = s["materials"]
    rules = {
        "players": f"{lo}–{hi}" if lo != hi else str(lo),
        "rounds": s["rounds"],
        "farmyard": f"{s['rows']} rows × {s['cols']} columns",
        "house": ", ".join(s["house"]),
        "materials": materials,
        "start_people": s["start_people"], "max_people": s["max_people"],
        "max_fences": s["max_fences"], "max_stables": s["max_stables"],
        "shared_supply": dict(s.get("shared_supply") or {}),
        "start_player_goods": _goods_or_none(eng, start_sp), "other_goods": _goods_or_none(eng, start_others),
        "hand": hand,
        "harvest_rounds": s["harvest_rounds"],
        "per_person": _goods_or_none(eng, per_person), "per_newborn": _goods_or_none(eng, per_newborn),
        "costs": [
            ("A room", _goods_or_none(eng, costs["room"]).replace("material", "of your house material")),
            ("Renovating", f"{_goods_or_none(eng, costs['renovation_per_room']).replace('material', 'of the new material')} per room, "
                           f"plus {_goods_or_none(eng, costs['renovation'])}"),
            ("A stable", _goods_or_none(eng, costs["stable"])),
            ("A fence", _goods_or_none(eng, costs["fence"])),
        ],
        "sowing": [(eng.good(k, 1), v) for k, v in s["sowing"].items()],
        "housing": s["housing"],
        "goods": s["goods"],
        "animals": [eng.good(a, 2) for a in s["goods"]["animals"]],
        "exchanges": [eng.rule(r, "game") for r in g["exchanges"]],
        "tie_break": eng.quantity_words(g["tie_break"]) if isinstance(g.get("tie_break"), N.Quantity)
        else (eng.expr(g["tie_break"]) if g.get("tie_break") is not None else None),
    }
    rules["costs"] = [(k, v.replace("of your house material of your house material", "of your house material"))
                      for k, v in rules["costs"]]
    scoring = []
    max_cells = 0
    for cid, label, node, _span in g["scoring"]:
        if isinstance(node, N.Tier):
            cells = _tier_cells(node)
            max_cells = max(max_cells, len(cells))
            scoring.append({"id": cid, "label": label, "cells": cells, "text": None,
                            "counts": eng.quantity_words(node.value)})
        else:
            scoring.append({"id": cid, "label": label, "cells": None, "text": _score_text(eng, node)})
    rules["scoring"] = scoring
    rules["scoring_columns"] = max_cells

    rules["solo_target"] = s.get("solo_target")
    rules["special"] = special_rules(s)
    _tile_farm_words(rules, checked, eng)
    return rules


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


# what the usual rules say where a pack gives none of the special rules (for a variant's comparison)
USUAL_RULES = {
    "Placement order": "every placement in turn order, the start player first",
    "Animals without room": "cooked when the player can, else back to the supply",
    "Pastures per animal kind": "no limit",
    "Where a new pasture goes": "next to a pasture already fenced (the first one anywhere)",
    "Unfinished fences": "none: every fence built closes a pasture",
    "Teams": "none: every player plays alone",
    "Team score": "none: every player scores alone",
    "Partner acts": "none",
    "Draft": "none: the hand is dealt", "Draft 1": "none: the hand is dealt", "Draft 2": "none",
    "Redrawing": "none", "Swapping": "none", "Drawing": "none",
    "Round cards": "shuffled within each stage",
    "Campaign": "none: each game stands alone",
    "Hand by card class": "none: any cards of the deck", "Open display": "none",
}


def _team_rules(teams) -> list:
    """Team play in words: who is partnered, how a team scores, what partners may do for each other."""
    if not teams:
        return []
    pairs = "; ".join(" with ".join(f"P{i + 1}" for i in pair) for pair in teams["pairs"])
    texts = teams["texts"]
    acts = []
    if teams["exchange_tag"]:
        fee = f", paying {texts['exchange_fee']} for each kind of good moved" if texts["exchange_fee"] else ""
        acts.append(f"on {', '.join(texts['spaces'])} the player may pass goods to the partner and take "
                    f"goods from them{fee}")
    if texts["rooms"]:
        acts.append(f"build the partner a room for {texts['rooms']} (the material of the partner's house)")
    if texts["stables"]:
        acts.append(f"build the partner a stable for {texts['stables']}")
    if teams["fence_per"]:
        acts.append(f"fence on the partner's farm with the partner's fences, for {texts['fence_extra']} more for "
                    f"each {teams['fence_per']} fences started there")
    if teams["plow"]:
        acts.append("plow a field on the partner's farm")
    if teams["share_costs"]:
        acts.append("a card that lowers a building price (rooms, renovations, stables, fences, improvements) "
                    "lowers the partner's too")
    how = "the lower of the partners' points" if teams["score"] == "lower" else "the partners' points added"
    return [("Teams", f"{teams['players']} players in teams of two: {pairs}"),
            ("Team score", f"in each scoring category, {how}; the team with the highest total wins"),
            ("Partner acts", "; ".join(acts) if acts else "none")]


def special_rules(s: dict) -> list:
    """The settings a variant may add to the frame (placement order, arriving animals, pastures per
    kind), as (label, words); empty for a pack that keeps the usual rules."""
    out = []
    for r, k in s.get("reverse_passes") or ():
        out.append(("Placement order", f"in round {r} every player's {_ordinal(k)} person is placed in reverse "
                                       "turn order, the last player first"))
    arriving = s.get("arriving_animals") or {}
    cook, stay = arriving.get("cook", True), arriving.get("leftovers", "supply") == "space"
    if not cook or stay:
        words = ("animals that find no room are not turned into food on arrival (only housed animals can be cooked)"
                 if not cook else "animals that find no room are cooked when the player can")
        words += ("; those taken from an action space that are neither kept nor cooked stay on it" if stay
                  else "; the rest go back to the supply")
        out.append(("Animals without room", words))
    words_of = {"occupations": "occupations", "minors": "minor improvements"}
    phases = s.get("draft") or ()
    for i, phase in enumerate(phases):
        kinds = " and ".join(words_of[k] for k in phase["kinds"])
        dealt = (f"{phase['deal']} {kinds} each" if phase["deal"] is not None
                 else f"all the {kinds}, shared out evenly")
        picks = phase["picks"]
        if len(picks) == 1:
            how = f"each player keeps {picks[0]} of each kind"
        elif len(set(picks)) == 1:
            how = (f"{len(picks)} times each player keeps {picks[0]} card of each packet in front of them and "
                   f"passes the rest to the {'left' if phase['pass'] == 1 else 'right'}")
        else:
            how = ("each player keeps " + ", then ".join(map(str, picks)) + " cards of each packet in front of "
                   f"them, passing the rest to the {'left' if phase['pass'] == 1 else 'right'} after each pick")
        rest = "the cards left at the end are kept" if phase["rest"] == "keep" else "the cards left at the end leave the game"
        out.append((f"Draft {i + 1}" if len(phases) > 1 else "Draft", f"deal {dealt}; {how}; {rest}"))
    if s.get("redraw"):
        out.append(("Redrawing", "before the game a player may give back all hand cards of one kind and draw one "
                                 "card fewer of it, as often as they like"))
    if s.get("swaps"):
        out.append(("Swapping", f"before the game a player may give back a hand card and draw one of the same kind, "
                                f"up to {s['swaps']} times"))
    if s.get("draw_after_play"):
        out.append(("Drawing", "after playing a card from the hand, a player draws a card of the kind they choose"))
    if s.get("round_order") == "chosen":
        out.append(("Round cards", "the start player lays out each stage's round cards in the order they like"))
    if s.get("pastures_per_animal_kind"):
        k = s["pastures_per_animal_kind"]
        out.append(("Pastures per animal kind", f"animals of one kind live in at most {k} pasture{'s' if k != 1 else ''}"))
    kinds_words = {"occupations": "occupations", "minors": "minor improvements"}
    for kind, classes in (s.get("deal_by_class") or {}).items():
        parts = []
        for c in classes:
            what = []
            if "players" in c:
                what.append(f"marked {c['players']}+")
            if "passing" in c:
                what.append("passed on when played" if c["passing"] else "not passed on")
            parts.append(f"{c['count']} {' and '.join(what)}")
        out.append(("Hand by card class", f"{kinds_words[kind]}: " + ", ".join(parts) + " (a class the deck runs "
                    "out of is made up from the deck)"))
    display = s.get("open_display") or {}
    if any(display.get(k) for k in kinds_words):
        laid = " and ".join(f"{display[k]} {kinds_words[k]}" for k in kinds_words if display.get(k))
        out.append(("Open display", f"{laid} lie open before round 1; once a round one player may take one of "
                    "them into their hand instead of placing a person"
                    + ("; the card taken is replaced from the deck" if display.get("refill") else "")))
    out.extend(_team_rules(s.get("teams")))
    fence_rules = s.get("fence_rules") or {}
    if fence_rules.get("adjacent_pastures") is False:
        out.append(("Where a new pasture goes", "anywhere on the farm; it need not touch the pastures already fenced"))
    if fence_rules.get("unfinished_fences"):
        out.append(("Unfinished fences", "a fencing action may build single fences that close nothing yet; a later "
                                         "fencing closes the pasture with the fences still missing"))
    if s.get("campaign"):
        out.extend(campaign_words(s["campaign"], (s.get("hand") or {})))
    return out


def campaign_words(c: dict, hand: dict) -> list:
    """The campaign rules of a pack (docs/variants.md, Campaigns) as (label, words)."""
    players = " or ".join(map(str, c["players"]))
    games = f"{c['games']} games in a row" if c["games"] is not None else "games in a row, as many as wanted"
    more = " (more may follow)" if c["games"] is not None and c["more_games"] else ""
    out = [("Campaign", f"{games} for {players} player{'s' if c['players'] != [1] else ''}{more}, each game "
                        "carrying into the next (agricola campaign)")]
    rows = c["points_by_rank"]
    if rows:
        words = "; ".join(f"after game {i + 1}: {'/'.join(map(str, row))}" for i, row in enumerate(rows))
        out.append(("Campaign points by rank", words + (" (and so for later games)" if c["games"] is None else "")))
    if c["winner"] == "campaign_points" and rows:
        out.append(("The campaign's winner", "most campaign points; a tie is broken by the total of the game scores"))
    elif len(c["players"]) > 1 or c["players"][0] > 1:
        out.append(("The campaign's winner", "the highest total of the game scores"))
    if c["start_player"] == "winner":
        out.append(("Start player", "each game's winner starts the next game"))
    if c["food_for_last"]:
        out.append(("Food for the last", f"each game's last player gets {c['food_for_last']} more food at the start "
                                         "of the next game"))
    keep = c["keep"]
    if keep:
        k = keep["occupations"]
        what = f"{k} occupation{'s' if k != 1 else ''} they had in play"
        words = (f"after each game each player {'may keep' if keep['optional'] else 'keeps'} {what}; "
                 + ("kept occupations stay for the rest of the campaign" if keep["add"]
                    else "only the occupation kept after the last game is carried (it may be kept again)")
                 + "; in the next game they are in play from the start, without an action or the occupation "
                 "fee; a cost printed on the card is paid at the start, and one that cannot be paid goes back "
                 "into the deck")
        out.append(("Occupations kept", words))
        kinds = {"occupations": "occupations", "minors": "minor improvements"}
        one = {"occupations": "occupation", "minors": "minor improvement"}
        less = [f"{n} {one[kind] if n == 1 else kinds[kind]} fewer" for kind, n in (keep.get("hand_less") or {}).items()
                if n]
        if less:
            out.append(("Hand in a campaign", "for each occupation in play from the start, the hand holds "
                        + " and ".join(less) + f" (of {', '.join(f'{v} {kinds[k]}' for k, v in hand.items())})"))
    if c["targets"]:
        words = ", ".join(map(str, c["targets"])) + " in games 1 to " + str(len(c["targets"]))
        if c["target_step"]:
            words += f"; then the target rises by {c['target_step']} a game"
        out.append(("Targets", words))
    over = c["food_over_target"]
    if over:
        per = "point" if over["points"] == 1 else f"{over['points']} points"
        out.append(("Food over the target", f"each game starts with {over['food']} food for every {per} the previous "
                                            "game scored over its target (rounded down)"))
    if c["targets"]:
        out.append(("A missed target", "the game is played again at the same target, without food over the target "
                                       "and without keeping an occupation" if c["missed_target"] == "replay"
                    else "the campaign goes on to the next game (no food over the target)"))
    return out


def _tile_farm_words(rules: dict, checked, eng) -> None:
    """The settings of a farm of tiles in words (only where the pack has them): the pasture tiles, room
    prices by material, where fields and stables go, how many fields a sowing sows, people eating
    together."""
    s = checked.game["settings"]
    g = checked.game
    rules["tiles"] = [{"id": t["id"], "name": t["name"], "spaces": t["spaces"], "cost": _goods_or_none(eng, t["cost"]),
                       "capacity": t["capacity"], "supply": t["supply"], "anchor": f"tile-{t['id']}",
                       "field": t["id"] == s.get("field_tile")} for t in s.get("pasture_tiles", ())]
    by_material = g.get("room_by_material") or {}
    if by_material:
        costs = [(f"A {mat} room", _goods_or_none(eng, by_material[mat])) for mat in s["materials"] if mat in by_material]
        costs += [c for c in rules["costs"] if c[0] != "A room"]
        rules["costs"] = costs
    if g["costs"].get("renovation_per_room") is None:
        rules["costs"] = [("Renovating", f"{_goods_or_none(eng, g['costs']['renovation'])} for the whole house")
                          if what == "Renovating" else (what, cost) for what, cost in rules["costs"]]
    if not s["max_fences"]:
        rules["costs"] = [c for c in rules["costs"] if c[0] != "A fence"]
    rules["fields_next_to_farm"] = s.get("fields_next_to") == "farm"
    rules["stables_on_pastures"] = s.get("stables_on") == "pastures"
    rules["sow_at_most"] = s.get("sowing_fields")
    group = s.get("feeding_group")
    rules["feeding_group"] = None
    if group is not None:
        tag, people, food = group
        members = [u.data["name"] for u in checked.spaces + checked.rounds if tag in (u.data.get("tags") or ())]
        rules["feeding_group"] = {"people": people, "food": f"{food} {eng.good('food', food)}",
                                  "spaces": _and(members) if members else f"spaces tagged #{tag}"}
    rules["fixed_order"] = all(a == b for _, (a, b) in s["stages"])


def build_model(compiler, pack_id: str) -> dict:
    src, checked, report = compiler.check(pack_id)
    if checked is None or report:
        raise DocsError(f"the pack '{pack_id}' has problems; fix them first:\n{report.render()}\n{report.summary()}")
    eng = english.for_pack(checked)
    s = checked.game["settings"]
    lo, hi = s["players"]
    counts = list(range(lo, hi + 1))

    spaces = [_space(eng, u, counts) for u in checked.spaces]
    rounds = [_space(eng, u, counts) for u in checked.rounds]
    majors = [_card(eng, u) for u in checked.majors]
    hand = s.get("hand")
    cards = [_card(eng, u) for u in checked.cards] if hand else []
    order = {"occupation": 0, "minor": 1}
    cards.sort(key=lambda c: (str(c["deck"] or ""), order.get(c["kind"], 2), c["number"] or 0, c["name"]))

    by_id = {sp["id"]: sp for sp in spaces + rounds}
    tag_members: dict = {}
    for sp, u in zip(spaces + rounds, checked.spaces + checked.rounds):
        for t in u.data.get("tags") or []:
            tag_members.setdefault(t, []).append(sp["id"])
    for card in majors + cards:
        targets = set()
        for how, name in card.pop("refs"):
            if how == "id" and name in by_id:
                targets.add(name)
            elif how == "tag":
                targets.update(tag_members.get(name, []))
        for sid in sorted(targets):
            by_id[sid]["referred_by"].append({"anchor": card["anchor"], "name": card["name"]})

    stages = []
    for stage, (a, b) in s["stages"]:
        stages.append({"stage": stage, "first": a, "last": b,
                       "rounds": f"round {a}" if a == b else f"rounds {a}–{b}",
                       "cards": [r for r in rounds if r["stage"] == stage]})

    rules = rules_words(checked, eng)

    variant = _variant(compiler, src, checked, eng, rules, stages) if len(src.chain) > 1 else None

    matrix = []
    for sp in spaces:
        row = []
        for n in counts:
            if n not in sp["by_count"]:
                row.append(None)
            else:
                row.append(sp["by_count"][n])
        matrix.append({"space": sp, "cells": row})

    index = []
    for sp in spaces:
        index.append({"name": sp["name"], "what": "action space", "anchor": sp["anchor"]})
    for r in rounds:
        index.append({"name": r["name"], "what": f"round card, stage {r['stage']}", "anchor": r["anchor"]})
    for c in majors:
        index.append({"name": c["name"], "what": "major improvement", "anchor": c["anchor"]})
    for c in cards:
        index.append({"name": c["name"], "what": f"{c['kind_label'].lower()}, deck {c['deck']} no. {c['number']}",
                      "anchor": c["anchor"]})
    index.sort(key=lambda e: (e["name"].lower(), e["what"]))
    letters = []
    for e in index:
        letter = e["name"][:1].upper()
        if not letters or letters[-1]["letter"] != letter:
            letters.append({"letter": letter, "entries": []})
        letters[-1]["entries"].append(e)

    sheets = [cards[i:i + CARDS_PER_SHEET] for i in range(0, len(cards), CARDS_PER_SHEET)]
    decks = []
    for c in cards:
        key = (c["deck"], c["kind"])
        if not decks or decks[-1]["key"] != key:
            decks.append({"key": key, "title": f"Deck {c['deck']}: {c['kind_label'].lower()}s", "cards": []})
        decks[-1]["cards"].append(c)
    shown = {c["id"] for c in majors + cards}   # the hand cards of a pack played without them are not shown
    tags = []
    for entry in card_tags(checked):
        members = [dict(c, anchor=f"card-{c['id']}") for c in entry["cards"] if c["id"] in shown]
        if members:
            tags.append({"tag": entry["tag"], "cards": members})
    return {
        "pack": {"id": pack_id, "name": s["name"], "chain": src.chain}, "tags": tags,
        "counts": counts, "rules": rules, "stages": stages, "spaces": spaces, "rounds": rounds,
        "majors": majors, "cards": cards, "decks": decks, "sheets": sheets, "matrix": matrix,
        "index": index, "letters": letters, "variant": variant,
        "example_farm": _example_farm(compiler, pack_id, src.chain),
    }


EXAMPLE_FARM = TEMPLATES / "example-farm.yaml"


def example_farm_file(compiler, chain) -> Path:
    """The farm file of a pack's example: its own ``example-farm.yaml`` (in its rules folder, or the
    nearest base's in its chain), else the compiler's, which fits the farmyards of the 2016 and 2007
    editions."""
    for pid in reversed(chain):
        directory = compiler.ws.pack_dir(pid)
        if directory is not None and (directory / "example-farm.yaml").is_file():
            return directory / "example-farm.yaml"
    return EXAMPLE_FARM


def _example_farm(compiler, pack_id: str, chain):
    """The example farm of the rules page: drawn as SVG (the picture of the web playtest page) and scored
    by the pack's own scoring table; None for a pack whose farmyard cannot hold it."""
    from runtime.pack import load_pack
    from .farmfile import FarmFileError, load_farm, score_farm_file
    from .web.svg import farm_svg
    if not compiler.compile(pack_id).ok:
        return None
    pack = load_pack(pack_id, compiler.build_root)
    farm_file = example_farm_file(compiler, chain)
    try:
        game, p = load_farm(farm_file, pack)
        scores, _ = score_farm_file(farm_file, pack)
    except FarmFileError:
        return None
    labels = {cid: label for cid, label, _ in pack.rules.scoring}
    from runtime.words import plural
    about = (f"A {p.house} house of {plural(p.room_count, 'room')}, a family of {p.people}, "
             f"{plural(len(p.fields), 'field')} and {plural(len(p.pastures) + len(p.tile_pastures), 'pasture')}, "
             f"at the end of the game.")
    return {"svg": farm_svg(game, p, title="An example farm at the end of a game"), "about": about,
            "rows": [(labels[c], n) for c, n in scores["categories"].items()], "total": scores["total"]}


def _and(items) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def setting_facts(rules: dict, stages) -> list:
    """The settings of a pack as (label, words) facts, one per thing a variant may change."""
    r = rules
    hand = r["hand"]
    facts = [
        ("Players", r["players"]),
        ("Rounds", str(r["rounds"])),
    ]
    facts += [(f"Stage {st['stage']}", st["rounds"]) for st in stages]
    facts += [
        ("Harvests", "after rounds " + _and(r["harvest_rounds"])),
        ("Farmyard", r["farmyard"]),
        ("Starting rooms", f"{r['materials'][0]} rooms on {r['house']}"),
        ("House materials", " → ".join(r["materials"])),
        ("People at the start", str(r["start_people"])),
        ("People at most", str(r["max_people"])),
        ("Fences in each supply", str(r["max_fences"])),
        ("Stables in each supply", str(r["max_stables"])),
    ]
    shared = r.get("shared_supply") or {}
    if "rooms" in shared:
        facts.append(("Rooms in the box, for the whole table", f"{shared['rooms']} besides the starting houses"))
    if "stables" in shared:
        facts.append(("Stables in the box, for the whole table", str(shared["stables"])))
    facts += [
        ("The start player gets", r["start_player_goods"]),
        ("Every other player gets", r["other_goods"]),
        ("Hand cards", "each player is dealt " + _and(
            f"{v} {'occupations' if k == 'occupations' else 'minor improvements' if k == 'minors' else k}"
            for k, v in hand.items()) if hand else "no hand cards: the game is played without them"),
        ("Food per person at a harvest", r["per_person"]),
        ("Food per newborn at a harvest", r["per_newborn"]),
    ]
    facts += [(f"{what} costs", cost) for what, cost in r["costs"]]
    facts += [(f"Sowing {crop}", f"a field holds {n}") for crop, n in r["sowing"]]
    h = r["housing"]
    facts += [
        ("Animals per pasture space", str(h["pasture_space"])),
        ("A stable in a pasture", f"multiplies its capacity by {h['stable_factor']}"),
        ("A stable outside pastures", f"holds {h['unfenced_stable']} animal{'s' if h['unfenced_stable'] != 1 else ''}"),
        ("The house", f"holds {h['house']} pet{'s' if h['house'] != 1 else ''}"),
        ("Goods", _and([r["goods"]["food"]] + r["goods"]["crops"] + r["goods"]["building"] + r["goods"]["animals"])),
        ("Food at any time", " ".join(r["exchanges"]) or "nothing"),
    ]
    for sc in r["scoring"]:
        if sc["cells"]:
            words = f"{sc['counts']}: " + ", ".join(f"{label} → {pts}" for label, pts in sc["cells"])
        else:
            words = sc["text"]
        facts.append((f"Scoring: {sc['label']}", words))
    facts.append(("Tie-break", f"the most {r['tie_break']} left" if r["tie_break"] else "none"))
    target = r.get("solo_target")
    facts.append(("Solo target", f"{target} points" if target else "none"))
    facts += list(r.get("special") or ())
    return facts


def _variant(compiler, src, checked, eng, rules, stages) -> dict:
    """What the last pack of the chain changes in its base, in words: each setting that differs (with
    the base's words beside it), then the action spaces, round cards and cards added, changed or removed."""
    base_id = src.chain[-2]
    _bsrc, base, _rep = compiler.check(base_id)
    base_eng = english.for_pack(base) if base is not None else None
    ov = src.overlay or {}
    out = {"base": base_id, "base_name": base.game["settings"]["name"] if base else base_id,
           "game": [], "sections": []}
    if base is not None:
        base_stages = [{"stage": st, "rounds": f"round {a}" if a == b else f"rounds {a}–{b}"}
                       for st, (a, b) in base.game["settings"]["stages"]]
        old = dict(setting_facts(rules_words(base, base_eng), base_stages))
        for label, words in setting_facts(rules, stages):
            if old.get(label) != words:
                out["game"].append({"key": label, "old": old.get(label, USUAL_RULES.get(label, "none")), "new": words})
        new_labels = {label for label, _ in setting_facts(rules, stages)}
        for label, words in old.items():
            if label not in new_labels:
                out["game"].append({"key": label, "old": words, "new": USUAL_RULES.get(label, "none")})
    groups = (("spaces", "Action spaces", "spaces", "space"), ("rounds", "Round cards", "rounds", "space"),
              ("majors", "Major improvements", "majors", "card"), ("cards", "Hand cards", "cards", "card"))
    for key, title, attr, what in groups:
        items = []
        new_units = {u.id: u for u in getattr(checked, attr)}
        old_units = {u.id: u for u in getattr(base, attr)} if base else {}
        for change, eid, _entry in ov.get(key, []):
            nu, ou = new_units.get(eid), old_units.get(eid)
            name = (nu or ou).data["name"] if (nu or ou) else eid
            item = {"change": change, "name": name, "anchor": f"{what}-{eid}" if nu else None, "players": None,
                    "renamed_from": None, "why": (ov.get("why") or {}).get(eid) if change == "removed" else None}
            if what == "space":
                item["new"] = english.space_text(eng, nu) if nu else None
                item["old"] = english.space_text(base_eng, ou) if ou else None
                item["players"] = _players_text((nu or ou).data["players"])
            else:
                item["new"] = " ".join(english.card_lines(eng, nu)[1:]) if nu else None
                item["old"] = " ".join(english.card_lines(base_eng, ou)[1:]) if ou else None
            if change == "changed" and item["new"] == item["old"] and (nu.data["name"] == ou.data["name"]):
                continue  # an entry given again without a change in what it does
            if change == "changed" and ou is not None and nu is not None and nu.data["name"] != ou.data["name"]:
                item["renamed_from"] = ou.data["name"]
            items.append(item)
        if items:
            out["sections"].append({"title": title, "items": items})
    return out


# ---------------------------------------------------------------- rendering

def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["signed"] = lambda v: (f"−{abs(v)}" if v < 0 else str(v))
    return env


def _anchors_of_pages(model) -> dict:
    """Which page holds each anchor, on the multi-page site."""
    where = {}
    for sp in model["spaces"] + model["rounds"]:
        where[sp["anchor"]] = "spaces.html"
    for c in model["majors"]:
        where[c["anchor"]] = "improvements.html"
    for c in model["cards"]:
        where[c["anchor"]] = "cards.html"
    return where


def render_site(model, out_dir: Path, linker: Linker) -> list:
    out_dir.mkdir(parents=True, exist_ok=True)
    env = _env()
    site_where = _anchors_of_pages(model)
    written = []
    nav = [("index.html", "Index"), ("rules.html", "Rules"), ("spaces.html", "Action spaces"),
           ("improvements.html", "Major improvements"), ("cards.html", "Hand cards"),
           ("sheets.html", "Card sheets"), ("print.html", "Print version")]
    if not model["cards"]:
        nav = [n for n in nav if n[0] not in ("cards.html", "sheets.html")]
    env.globals.update(link=linker, nav=nav, m=model, pdf_name=f"{model['pack']['id']}.pdf")
    for page in PAGES:
        if page in ("cards.html", "sheets.html") and not model["cards"]:
            stale = out_dir / page
            if stale.exists():
                stale.unlink()
            continue
        if page == "print.html":
            linker.where = {a: "" for a in site_where}
        else:
            linker.where = {a: ("" if p == page else p) for a, p in site_where.items()}
        env.globals["href"] = linker.href
        html = env.get_template(page + ".j2").render(page=page)
        (out_dir / page).write_text(html, encoding="utf-8")
        written.append(page)
    for css in ("style.css", "print.css"):
        shutil.copyfile(TEMPLATES / css, out_dir / css)
        written.append(css)
    return written


# ---------------------------------------------------------------- PDF

def find_chromium(explicit: str | None = None) -> str | None:
    """The Chromium to print with: ``explicit`` (--chromium) when given, which must be a program (DocsError
    otherwise: a missing one is not silently replaced by another), else $AGRICOLA_CHROMIUM or the usual
    places."""
    if explicit:
        if not (os.path.isfile(explicit) and os.access(explicit, os.X_OK)):
            raise DocsError(f"--chromium {explicit}: not a program that can be run (give the path of Chromium)")
        return explicit
    for cand in (os.environ.get("AGRICOLA_CHROMIUM"), "/usr/bin/chromium"):
        if cand and Path(cand).exists():
            return cand
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def print_pdf(html: Path, pdf: Path, chromium: str | None = None, timeout: float = 120) -> None:
    exe = find_chromium(chromium)
    if exe is None:
        raise DocsError("--pdf needs Chromium, and none was found (install it with `make browser`, "
                        "or set AGRICOLA_CHROMIUM to its path)")
    profile = tempfile.mkdtemp(prefix="agricola-chromium-")
    try:
        tmp_pdf = pdf.with_suffix(".pdf.tmp")
        cmd = [exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--no-pdf-header-footer",
               f"--print-to-pdf={tmp_pdf}", html.resolve().as_uri()]
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise DocsError(f"Chromium took longer than {timeout:.0f} s to print {html}") from None
        except OSError as exc:  # not a program after all (exec format error, …)
            raise DocsError(f"cannot run Chromium {exe}: {exc.strerror or exc}") from None
        if res.returncode != 0 or not tmp_pdf.exists() or tmp_pdf.stat().st_size == 0:
            raise DocsError(f"Chromium could not print {html} (exit {res.returncode}):\n{res.stderr[-2000:]}")
        os.replace(tmp_pdf, pdf)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


_PAGE_OBJ = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")


def pdf_page_count(pdf: Path) -> int:
    """Pages of a PDF written by Chromium (which writes no compressed object streams)."""
    return len(_PAGE_OBJ.findall(pdf.read_bytes()))


# ---------------------------------------------------------------- entry point

def build_site(compiler, pack_id: str, out_dir: Path, pdf: bool = False, chromium: str | None = None) -> DocsResult:
    t0 = time.perf_counter()
    out_dir = Path(out_dir)
    if pdf and chromium:
        find_chromium(chromium)  # a --chromium that cannot run is refused before anything is written
    model = build_model(compiler, pack_id)
    linker = Linker(model)
    pages = render_site(model, out_dir, linker)
    result = DocsResult(pack_id, out_dir, pages, cards=len(model["cards"]), sheet_pages=len(model["sheets"]))
    result.seconds = time.perf_counter() - t0
    if pdf:
        t1 = time.perf_counter()
        target = out_dir / f"{pack_id}.pdf"
        print_pdf(out_dir / "print.html", target, chromium)
        result.pdf = target
        result.pdf_pages = pdf_page_count(target)
        result.rules_pages = result.pdf_pages - result.sheet_pages
        result.pdf_seconds = time.perf_counter() - t1
    manifest = {"pack": pack_id, "name": model["pack"]["name"], "chain": model["pack"]["chain"],
                "pages": pages, "cards": result.cards, "cards_per_sheet": CARDS_PER_SHEET,
                "sheet_pages": result.sheet_pages, "spaces": len(model["spaces"]), "rounds": len(model["rounds"]),
                "majors": len(model["majors"]),
                "pdf": (result.pdf.name if result.pdf else None),
                "pdf_pages": result.pdf_pages or None, "rules_pages": result.rules_pages or None}
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return result


