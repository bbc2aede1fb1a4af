"""The reference site in a real browser (headless Chromium via Playwright), and its PDF, for the revised
pack, for the two packs of the 2007 edition (which have five player counts and no hand cards yet) and for
the 2012 Family Edition (a farm of tiles: its rules page lists the pasture tiles).

Needs Debian's Chromium at /usr/bin/chromium (or AGRICOLA_CHROMIUM): `make browser` installs it and
`make test` depends on that target. These tests fail (not skip) when it is missing.
Screenshots for people to look at are written to build/docs-screenshots/.
"""
from __future__ import annotations

import math
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from compiler import docs
from compiler.build import Compiler

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "build" / "docs-screenshots"
PX_PER_MM = 96 / 25.4


@pytest.fixture(scope="module")
def chromium_path():
    path = docs.find_chromium()
    if path is None:
        pytest.fail("Chromium is not installed: run `make browser` (Debian package 'chromium'), "
                    "or set AGRICOLA_CHROMIUM to a Chromium binary")
    return path


PACKS = ("revised", "original", "original-family", "family-2012")
PLAYER_COUNTS = {"revised": 4, "original": 5, "original-family": 5, "family-2012": 4}


@pytest.fixture(scope="module")
def compiler_for_docs(tmp_path_factory):
    return Compiler(ROOT, tmp_path_factory.mktemp("docs-browser-build"))


@pytest.fixture(scope="module", params=PACKS)
def site(request, tmp_path_factory, chromium_path, compiler_for_docs):
    pack = request.param
    out = tmp_path_factory.mktemp("docs-browser") / pack
    result = docs.build_site(compiler_for_docs, pack, out, pdf=True, chromium=chromium_path)
    _src, checked, _ = compiler_for_docs.check(pack)
    return result, checked


def _hand_cards(checked):
    """The cards the site shows: none for a pack played without hand cards (the family versions, which
    inherit the cards of their base pack)."""
    return checked.cards if checked.game["settings"].get("hand") else []


def _shot(result, name: str) -> Path:
    """Screenshots of the revised pack keep their old names; the others carry the pack's name."""
    return SHOTS / (name if result.pack == "revised" else f"{result.pack}-{name}")


@pytest.fixture(scope="module")
def browser(chromium_path, tmp_path_factory):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - a test dependency
        pytest.fail("playwright is not installed: `pip install -e '.[test]'`")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        args = [f for f in docs.CHROMIUM_FLAGS if f != "--headless"]
        ctx = p.chromium.launch_persistent_context(str(profile), executable_path=chromium_path, headless=True,
                                                   args=args, viewport={"width": 1200, "height": 1500})
        try:
            yield ctx
        finally:
            ctx.close()


def _open(ctx, path: Path):
    """Open a page, collecting console errors, page errors and failed requests."""
    page = ctx.new_page()
    errors = []
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
    page.goto(path.as_uri(), wait_until="load")
    return page, errors


def test_pages_load_cleanly_and_links_resolve(site, browser):
    result, _ = site
    html_pages = [p for p in result.pages if p.endswith(".html")]
    ids = {}
    hrefs = {}
    for name in html_pages:
        page, errors = _open(browser, result.out_dir / name)
        assert not errors, f"{name}: {errors}"
        ids[name] = set(page.eval_on_selector_all("[id]", "els => els.map(e => e.id)"))
        hrefs[name] = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
        sheets_ok = page.eval_on_selector_all("link[rel=stylesheet]", "els => els.map(e => !!e.sheet)")
        assert all(sheets_ok), f"{name}: a stylesheet did not load"
        page.close()
    broken = []
    for name, links in hrefs.items():
        for href in links:
            parts = urlsplit(href)
            target = parts.path or name
            if parts.scheme or target not in ids or (parts.fragment and parts.fragment not in ids[target]):
                broken.append(f"{name}: {href}")
    assert not broken, "broken links:\n" + "\n".join(broken[:20])
    # one column per player count, up to the pack's largest
    page, _ = _open(browser, result.out_dir / "spaces.html")
    heads = page.eval_on_selector_all("table th", "els => els.map(e => e.textContent.trim())")
    page.close()
    most = PLAYER_COUNTS[result.pack]
    assert f"{most} players" in heads and f"{most + 1} players" not in heads


def test_the_rules_page_draws_an_example_farm(site, browser):
    """Every pack's rules page shows an example farm as a picture with its score; the Family Edition's
    is its own farm of tiles (rules/family-2012/example-farm.yaml), the others the compiler's."""
    result, _ = site
    page, errors = _open(browser, result.out_dir / "rules.html")
    farm = page.locator("svg.farm")
    assert farm.count() == 1
    box = farm.bounding_box()
    assert box["width"] > 200 and box["height"] > 150
    caption = page.locator("figure figcaption").first.text_content()
    labels = farm.locator("text").all_text_contents()
    if result.pack == "family-2012":
        assert caption == "A clay house of 3 rooms, a family of 4, 3 fields and 3 pastures, at the end of the game."
        assert {"pasture 1", "pasture 2", "pasture 3"} <= set(labels)
    else:
        assert caption.startswith("A clay house of 3 rooms, a family of 3")
    assert not errors
    page.close()


def test_card_sheets_fit_and_hold_every_card(site, browser):
    result, checked = site
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, shot in (("rules.html", "rules.png"), ("spaces.html", "spaces.png"), ("index.html", "index.png")):
        page, errors = _open(browser, result.out_dir / name)
        page.screenshot(path=str(_shot(result, shot)), full_page=True)
        page.close()
    if not _hand_cards(checked):      # no card pages at all
        assert "sheets.html" not in result.pages and "cards.html" not in result.pages
        assert result.cards == 0 and result.sheet_pages == 0
        assert not (result.out_dir / "sheets.html").exists()
        return
    page, errors = _open(browser, result.out_dir / "sheets.html")
    assert not errors
    info = page.eval_on_selector_all(".sheet .card", """els => els.map(c => {
        const r = c.getBoundingClientRect();
        const parts = [c, c.querySelector('.card-inner'), c.querySelector('.card-text'), c.querySelector('.card-head')];
        const over = parts.filter(e => e && (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1))
                          .map(e => e.className);
        const text = c.querySelector('.card-text');
        const last = text.lastElementChild;
        const clipped = last ? last.getBoundingClientRect().bottom > text.getBoundingClientRect().bottom + 0.5 : false;
        return {id: c.dataset.card, w: r.width, h: r.height, over, clipped};
    })""")
    ids = [c["id"] for c in info]
    assert sorted(ids) == sorted(u.id for u in _hand_cards(checked)), "the sheets must hold every card once"
    bad = [c for c in info if c["over"] or c["clipped"]]
    assert not bad, f"text overflows the card box: {bad[:5]}"
    for c in info:
        assert abs(c["w"] - 63 * PX_PER_MM) < 0.6 and abs(c["h"] - 88 * PX_PER_MM) < 0.6, c
    sheets = page.eval_on_selector_all(".sheet", "els => els.map(s => s.querySelectorAll('.card').length)")
    assert sheets == [9] * (len(ids) // 9) + ([len(ids) % 9] if len(ids) % 9 else [])
    page.locator(".sheet").first.screenshot(path=str(_shot(result, "card-sheet-1.png")))
    page.close()


def test_pdf_pages_and_text(site):
    from pypdf import PdfReader
    result, checked = site
    assert result.pdf is not None and result.pdf.is_file()
    reader = PdfReader(str(result.pdf))
    n_cards = len(_hand_cards(checked))
    sheets = math.ceil(n_cards / 9)
    texts = [re.sub(r"\s+", " ", p.extract_text() or "") for p in reader.pages]
    assert len(reader.pages) == result.pdf_pages
    first_sheet = next((i for i, t in enumerate(texts) if "card sheet 1 of" in t), len(texts))
    assert first_sheet == result.rules_pages >= 3, "rules pages come first"
    assert len(reader.pages) == result.rules_pages + sheets, "cards/9 rounded up, plus the rules pages"
    for i in range(sheets):
        assert f"card sheet {i + 1} of {sheets}" in texts[first_sheet + i]
    for p in reader.pages:  # A4
        assert abs(float(p.mediabox.width) - 595.3) < 1.5 and abs(float(p.mediabox.height) - 841.9) < 1.5
    assert "Rules of" in texts[0] and "Scoring" in " ".join(texts[:first_sheet])
    sheet_text = " ".join(texts[first_sheet:])
    missing = [u.data["name"] for u in _hand_cards(checked) if u.data["name"] not in sheet_text]
    assert not missing, f"card names not found in the PDF text: {missing}"
    rules_text = " ".join(texts[:first_sheet])
    for u in checked.spaces + checked.rounds + checked.majors:
        assert u.data["name"] in rules_text, u.data["name"]
    for tile in checked.game["settings"].get("pasture_tiles", ()):   # a farm of tiles: every pasture tile
        assert f"{tile['name']} {tile['spaces']} " in rules_text, tile["name"]
    shutil.copyfile(result.pdf, SHOTS / f"{result.pack}.pdf") if SHOTS.is_dir() else None
