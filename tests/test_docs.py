"""The generated reference site (compiler/docs.py): content from the pack, links, variant section.

Browser and PDF checks are in test_docs_browser.py.
"""
from __future__ import annotations

import json
import math
import re
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from compiler import docs
from compiler.build import Compiler

ROOT = Path(__file__).resolve().parent.parent


class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.hrefs, self.text = [], [], []
        self.css = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
        if tag == "link" and a.get("rel") == "stylesheet":
            self.css.append(a["href"])

    def handle_data(self, data):
        self.text.append(data)


def parse_page(path: Path) -> _Page:
    p = _Page()
    p.feed(path.read_text(encoding="utf-8"))
    return p


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    comp = Compiler(ROOT, tmp_path_factory.mktemp("docs-build"))
    out = {}
    for pack in ("revised", "revised-family"):
        target = tmp_path_factory.mktemp(f"docs-{pack}")
        t = time.perf_counter()
        result = docs.build_site(comp, pack, target)
        out[pack] = (result, time.perf_counter() - t, comp)
    return out


def test_site_files_and_manifest(sites):
    result, seconds, _ = sites["revised"]
    for page in docs.PAGES + ("style.css", "print.css", "manifest.json"):
        assert (result.out_dir / page).is_file(), page
    man = json.loads((result.out_dir / "manifest.json").read_text())
    assert man["cards"] == 96 and man["sheet_pages"] == math.ceil(96 / 9) == 11
    assert man["spaces"] == 16 and man["rounds"] == 14 and man["majors"] == 10
    # (how long generation takes is measured by `make bench`, not asserted here)


def test_every_link_and_anchor_resolves(sites):
    for pack in sites:
        result = sites[pack][0]
        pages = {p: parse_page(result.out_dir / p) for p in result.pages if p.endswith(".html")}
        for name, page in pages.items():
            dup = {i for i in page.ids if page.ids.count(i) > 1}
            assert not dup, f"{pack}/{name}: duplicate ids {sorted(dup)[:5]}"
            for css in page.css:
                assert (result.out_dir / css).is_file(), css
            for href in page.hrefs:
                parts = urlsplit(href)
                assert not parts.scheme and not parts.netloc, f"{name}: external link {href}"
                target = parts.path or name
                assert target in pages, f"{pack}/{name}: link to missing page {href}"
                if parts.fragment:
                    assert parts.fragment in pages[target].ids, f"{pack}/{name}: broken anchor {href}"


def test_cards_spaces_and_majors_are_all_there(sites):
    result, _, comp = sites["revised"]
    _src, checked, _ = comp.check("revised")
    cards = parse_page(result.out_dir / "cards.html")
    sheets = parse_page(result.out_dir / "sheets.html")
    spaces = parse_page(result.out_dir / "spaces.html")
    majors = parse_page(result.out_dir / "improvements.html")
    index = parse_page(result.out_dir / "index.html")
    index_links = set(index.hrefs)
    for u in checked.cards:
        assert f"card-{u.id}" in cards.ids and f"card-{u.id}" in sheets.ids
        assert f"cards.html#card-{u.id}" in index_links
    for u in checked.spaces + checked.rounds:
        assert f"space-{u.id}" in spaces.ids
        assert f"spaces.html#space-{u.id}" in index_links
    for u in checked.majors:
        assert f"card-{u.id}" in majors.ids
    text = " ".join(cards.text)
    for word in ("None", "?"):
        assert word not in text


def test_card_text_links_to_the_spaces_it_names(sites):
    """Each card whose rule is triggered by a named space links to it, and the space links back."""
    from compiler import nodes as N
    result, _, comp = sites["revised"]
    _src, checked, _ = comp.check("revised")
    cards = (result.out_dir / "cards.html").read_text()
    spaces = (result.out_dir / "spaces.html").read_text()

    def article(html, anchor):
        part = html[html.index(f'id="{anchor}"'):]
        return part[:part.index("</article>")]

    space_ids = {u.id for u in checked.spaces + checked.rounds}
    checked_links = 0
    for unit in checked.cards:
        named = {name for rule in unit.data["rules"] for node in N.walk(rule) if isinstance(node, N.Trigger)
                 for name, is_tag, _ in node.spaces if not is_tag and name in space_ids}
        for sid in named:
            assert f'href="spaces.html#space-{sid}"' in article(cards, f"card-{unit.id}"), (unit.id, sid)
            assert f'href="cards.html#card-{unit.id}"' in article(spaces, f"space-{sid}"), (unit.id, sid)
            checked_links += 1
    assert checked_links >= 10


def test_rules_page_from_game_yaml(sites):
    result = sites["revised"][0]
    rules = " ".join(parse_page(result.out_dir / "rules.html").text)
    rules = re.sub(r"\s+", " ", rules)
    assert "1–4 players over 14 rounds" in rules
    assert "rounds 4, 7, 9, 11, 13, 14" in rules
    assert "7 occupations and 7 minor improvements" in rules
    for label in ("Fields", "Pastures", "Grain", "Vegetables", "Sheep", "Wild boar", "Cattle", "Unused spaces",
                  "Fenced stables", "Rooms", "Family members", "Begging cards"):
        assert label in rules
    html = (result.out_dir / "rules.html").read_text()
    row = html[html.index('id="score-fields"'):]
    row = row[:row.index("</tr>")]
    cells = re.findall(r'tier-count">([^<]*)</span><span class="tier-points">([^<]*)<', row)
    assert cells == [("0–1", "−1"), ("2", "1"), ("3", "2"), ("4", "3"), ("5+", "4")]
    assert "building resources" in rules  # tie-break
    assert "What this variant changes" not in rules


def test_variant_section_lists_the_overlay(sites):
    result = sites["revised-family"][0]
    assert not (result.out_dir / "cards.html").exists() and result.cards == 0  # played without hand cards
    html = (result.out_dir / "rules.html").read_text()
    assert "What this variant changes" in html
    section = re.sub(r"\s+", " ", html[html.index('id="variant"'):])
    for name, change in (("Meeting Place", "changed"), ("Lessons", "removed"), ("Side Job", "added"),
                         ("Major Improvement", "changed"), ("Basic Wish for Children", "changed")):
        assert re.search(re.escape(name) + r"(</a>)?</b> — " + change, section), (name, change)
    assert "no hand cards" in section


def test_cli_docs_command(tmp_path, capsys):
    from compiler import cli
    out = tmp_path / "site"
    assert cli.main(["--build", str(tmp_path / "b"), "docs", "--pack", "revised-family", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert str(out) in said and (out / "index.html").is_file()
    assert cli.main(["--build", str(tmp_path / "b"), "docs", "--pack", "nope", "--out", str(out)]) == 2


def test_index_lists_the_card_tags_and_their_cards(sites):
    """Issue 11, designer test round 3: the tags cards carry (#fireplace, #oven, …) were listed nowhere."""
    result = sites["revised"][0]
    html = (result.out_dir / "index.html").read_text()
    page = parse_page(result.out_dir / "index.html")
    assert "card-tags" in page.ids and "#card-tags" in page.hrefs
    row = html[html.index('<tr id="tag-oven">'):]
    assert row[:row.index("</tr>")] == (
        '<tr id="tag-oven"><td><code>#oven</code></td><td><a href="improvements.html#card-clay_oven">Clay Oven</a>, '
        '<a href="improvements.html#card-stone_oven">Stone Oven</a></td>')
    for tag in ("baking", "cooking", "cooking_hearth", "fireplace", "oven", "plow", "well", "workshop"):
        assert f"tag-{tag}" in page.ids, tag
    plow = html[html.index('id="tag-plow"'):]
    assert 'href="cards.html#card-' in plow[:plow.index("</tr>")]   # hand cards link to the cards page


def test_cli_lists_the_card_tags(capsys):
    from compiler import cli
    assert cli.main(["cards", "tags", "#oven", "fireplace"]) == 0
    assert capsys.readouterr().out == (
        "#fireplace (2 cards)\n"
        "  fireplace_2                  major          Fireplace\n"
        "  fireplace_3                  major          Fireplace\n"
        "#oven (2 cards)\n"
        "  clay_oven                    major          Clay Oven\n"
        "  stone_oven                   major          Stone Oven\n")
    assert cli.main(["cards", "tags", "oven", "--pack", "lang-probes", "--packs", str(ROOT / "tests" / "packs")]) == 0
    assert capsys.readouterr().out.endswith(
        "  counts_as_probe              minor      T   Counts As Probe  (counts as one)\n")
    assert cli.main(["cards", "show", "clay_oven"]) == 0
    assert capsys.readouterr().out == ("Clay Oven (major improvement)\n"
                                       "Cost: 3 clay and 1 stone · Points: 2\n"
                                       "Bake bread: 1 grain → 5 food (at most once).\n"
                                       "When you build this improvement: you may bake bread.\n"
                                       "Tags: #baking, #oven\n\n")
    assert cli.main(["cards", "tags", "#ovens"]) == 2
    assert capsys.readouterr().err == "error: no card of pack 'revised' has the tag '#ovens' (did you mean '#oven'?)\n"
