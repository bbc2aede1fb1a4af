"""The playtest page in a real browser (headless Debian Chromium via Playwright, as tests/test_docs_browser.py):
a person and three agents play to the final score through the buttons, two people play a game to its
end each through their own seat link in their own browser, a save is uploaded and watched to
its end, a card is hot-reloaded with a mistake and then fixed. No console errors; screenshots of the
table and of a farm go to build/web-screenshots/ for people to look at.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import httpx
import pytest

from compiler import docs
from tests.conftest import ROOT
from compiler.web.live import LiveServer

SHOTS = ROOT / "build" / "web-screenshots"
TINY = ROOT / "tests" / "fixtures" / "tiny"


@pytest.fixture(scope="module")
def playwright_chromium():
    chromium = docs.find_chromium()
    if chromium is None:
        pytest.fail("Chromium is not installed: run `make browser` (Debian package 'chromium'), "
                    "or set AGRICOLA_CHROMIUM to a Chromium binary")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        yield p, chromium


def _context(playwright_chromium, profile):
    """A browser of its own: a Chromium with its own profile (cookies, storage, history)."""
    p, chromium = playwright_chromium
    args = [f for f in docs.CHROMIUM_FLAGS if f != "--headless"]
    return p.chromium.launch_persistent_context(str(profile), executable_path=chromium, headless=True,
                                                args=args, viewport={"width": 1400, "height": 1200})


@pytest.fixture(scope="module")
def browser(playwright_chromium, tmp_path_factory):
    ctx = _context(playwright_chromium, tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory, family):
    folder = tmp_path_factory.mktemp("web-browser")
    live = LiveServer(folder / "build", folder / "games.sqlite3").start(timeout=300)
    try:
        yield live
    finally:
        live.stop()


def _open(ctx, url: str):
    page = ctx.new_page()
    errors = []
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
    page.goto(url, wait_until="load")
    return page, errors


def _fill_start_form(page, pack: str, players: int, seed: int) -> None:
    """The start page, filled in: pack, number of players (its seats follow) and seed."""
    page.wait_for_selector("#new-game")
    page.select_option("#pack", pack)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    page.fill("#seed", str(seed))


def test_a_person_and_three_agents_play_to_the_final_score(browser, server):
    page, errors = _open(browser, server.url + "/")
    _fill_start_form(page, "revised-family", 4, 11)
    kinds = page.eval_on_selector_all("select.seat", "els => els.map(e => e.value)")
    assert kinds == ["human", "greedy", "greedy", "greedy"]
    page.click("#start")
    page.wait_for_url("**/play/**")
    clicks = 0
    shot_taken = False
    while True:
        page.wait_for_selector("#final, #request[data-decision] button.option")
        if page.query_selector("#final"):
            break
        decision = page.get_attribute("#request", "data-decision")
        if clicks == 12 and not shot_taken:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "table.png"), full_page=True)
            shot_taken = True
        buttons = page.query_selector_all("#options button.option")
        buttons[-1 if len(buttons) < 8 else 0].click()
        clicks += 1
        page.wait_for_function("d => !document.querySelector('#request[data-decision=\"' + d + '\"]')", arg=decision)
    assert clicks > 30
    assert page.inner_text("#scores h2") == "Final scores"
    totals = page.eval_on_selector_all("#scores tr.total th.n", "els => els.map(e => e.textContent)")
    assert len(totals) == 4
    game_id = page.url.split("/play/")[1].split("/")[0]
    state = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert state["finished"] and [str(t) for t in state["score_table"]["totals"]] == totals
    assert page.locator("#farms svg.farm").count() == 4
    page.screenshot(path=str(SHOTS / "final.png"), full_page=True)
    # the farm of the winner, at the end
    best = max(range(4), key=lambda i: state["score_table"]["totals"][i])
    page.locator(".farm-box").nth(best).screenshot(path=str(SHOTS / "farm.png"))
    assert shot_taken and not errors, errors


def test_two_people_at_one_table_each_in_their_own_browser(browser, playwright_chromium, server, tmp_path):
    """Two people, each through their own secret seat link in their own browser, play a game with hand
    cards to its end; each sees only their own hand, waits while the other decides, and a seat cannot
    answer for the other (the server refuses it and nothing changes)."""
    page, errors = _open(browser, server.url + "/")
    _fill_start_form(page, "revised", 2, 4)
    for select in page.query_selector_all("select.seat"):
        select.select_option("human")
    page.click("#start")
    page.wait_for_selector("#links a[href^='/play/']")
    links = page.eval_on_selector_all("#links a[href^='/play/']", "els => els.map(e => e.getAttribute('href'))")
    assert len(links) == 2 and links[0] != links[1]
    game_id = links[0].split("/")[2]
    tokens = [link.split("/")[3] for link in links]
    other = _context(playwright_chromium, tmp_path / "second-profile")
    try:
        assert not errors, errors
        page.close()   # (the lobby's poll of the packs may be in flight: not an error of the page)
        p1, errors1 = _open(browser, server.url + links[0])   # each person opens their own link
        p2, errors2 = _open(other, server.url + links[1])
        pages = [p1, p2]
        for seat, pg in enumerate(pages):
            pg.wait_for_selector("#farms .farm-box")
            mine = pg.locator(".farm-box.mine")
            assert mine.count() == 1 and mine.get_attribute("data-player") == f"P{seat + 1}"
            assert pg.locator(".hand").count() == 1   # the own hand only; the other's is counted
        state = httpx.get(f"{server.url}/api/games/{game_id}", params={"token": tokens[0]}).json()
        hands = [set(p["hand"]["occupations"] + p["hand"]["minors"]) if p["hand"] else None
                 for p in state["view"]["players"]]
        assert hands[0] and hands[1] is None
        names = [state["card_names"][c] for c in sorted(hands[0])]
        assert all(n in p1.inner_text(".hand") for n in names)
        # each card in hand with its text, generated from its effects
        assert all(f"{state['card_names'][c]}: {state['card_texts'][c]}" in p1.inner_text(".hand") for c in hands[0])
        shown_to_p2 = p2.inner_text("#farms")
        assert not any(n in shown_to_p2 for n in names)   # P2's page holds nothing of P1's hand
        clicks = [0, 0]
        refused = False
        while True:
            turn = httpx.get(f"{server.url}/api/games/{game_id}").json()
            if turn["finished"]:
                break
            seat = turn["pending"]["seat"]
            waiting = pages[1 - seat]
            mover = pages[seat]
            decision = turn["pending"]["decision"]
            mover.wait_for_selector(f"#request[data-decision='{decision}'] button.option")
            # the other person's page has no buttons, and their link cannot answer this decision
            assert waiting.locator("#options button.option").count() == 0
            if not refused:
                assert waiting.inner_text("#request h2") == f"Waiting for P{seat + 1} ({turn['pending']['kind']})"
                # (sent from the waiting person's browser, as the page's own button would send it)
                answer = waiting.request.post(f"{server.url}/api/games/{game_id}/answer",
                                              data={"token": tokens[1 - seat], "decision": decision, "index": 0})
                assert (answer.status, answer.json()) == (409, {"error": f"it is P{seat + 1}'s decision, not yours"})
                after = httpx.get(f"{server.url}/api/games/{game_id}").json()
                assert after["pending"]["decision"] == decision and after["decisions"] == turn["decisions"]
                refused = True
            buttons = mover.query_selector_all("#options button.option")
            buttons[-1 if len(buttons) < 8 else 0].click()
            clicks[seat] += 1
            mover.wait_for_function("d => !document.querySelector('#request[data-decision=\"' + d + '\"]')",
                                    arg=decision)
        assert refused and min(clicks) > 20
        for pg in pages:   # each page follows the other's decisions to the end by itself
            pg.wait_for_selector("#final", timeout=30_000)
            assert pg.inner_text("#scores h2") == "Final scores"
        final = httpx.get(f"{server.url}/api/games/{game_id}").json()
        totals = [str(t) for t in final["score_table"]["totals"]]
        for pg in pages:
            assert pg.eval_on_selector_all("#scores tr.total th.n", "els => els.map(e => e.textContent)") == totals
        SHOTS.mkdir(parents=True, exist_ok=True)
        p2.screenshot(path=str(SHOTS / "two-people-p2.png"), full_page=True)
        assert not errors1 and not errors2, (errors1 + errors2)[:5]
    finally:
        other.close()


def test_a_save_is_uploaded_and_watched_to_its_end(browser, server, tmp_path, build_root):
    save = tmp_path / "game.json"
    subprocess.run([sys.executable, "-m", "compiler.cli", "--build", str(server.build), "play", "--agents",
                    "random,greedy", "--seed", "8", "--save", str(save)], cwd=str(ROOT), check=True,
                   capture_output=True)
    doc = json.loads(save.read_text())
    page, errors = _open(browser, server.url + "/")
    page.wait_for_selector("#upload")
    page.set_input_files("#upload", str(save))
    page.wait_for_url("**/game/**")
    game_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#final")
    page.goto(f"{server.url}/watch/{game_id}")
    page.wait_for_selector("#position")
    assert page.inner_text("#position") == f"Decision 0 of {len(doc['decisions'])}"
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#position').textContent.startsWith('Decision 1 ')")
    page.click("#back")
    page.wait_for_function("() => document.querySelector('#position').textContent.startsWith('Decision 0 ')")
    # round 14, then the next decision until the end
    rounds = page.eval_on_selector_all("#round option", "els => els.map(e => e.textContent)")
    assert rounds[-1] == "round 14"
    page.select_option("#round", label="round 14")
    page.wait_for_function("() => document.querySelector('#board h2').textContent.startsWith('Round 14 ')")
    steps = 0
    while "the game is over" not in page.inner_text("#position"):
        before = page.inner_text("#position")
        page.click("#next")
        page.wait_for_function("b => document.querySelector('#position').textContent !== b", arg=before)
        steps += 1
    assert 0 < steps < len(doc["decisions"])
    assert page.inner_text("#position") == (f"Decision {len(doc['decisions'])} of {len(doc['decisions'])} — "
                                            "the game is over")
    assert page.inner_text("#scores h2") == "Final scores"
    shown = page.eval_on_selector_all("#scores tr.total th.n", "els => els.map(e => Number(e.textContent))")
    assert shown == [s["total"] for s in doc["final"]["scores"]]
    assert not errors, errors


def test_hot_reload_of_a_card_with_a_mistake(browser, tmp_path):
    root = tmp_path / "workspace"
    shutil.copytree(TINY, root)
    live = LiveServer(tmp_path / "build", tmp_path / "games.sqlite3", root=root).start(timeout=300)
    try:
        page, errors = _open(browser, live.url + "/")
        page.wait_for_selector("#new-game")
        # a game first, so that the pack is compiled and watched
        made = httpx.post(live.url + "/api/games", json={"pack": "tiny", "seats": ["random"], "seed": 1}).json()
        assert made["id"]
        card = root / "cards" / "tiny" / "A" / "tiny_tool.yaml"
        text = card.read_text()
        card.write_text(text.replace("gain 1 food", "gain 1 reeds"))
        page.wait_for_selector("pre.diagnostics", timeout=60_000)
        shown = page.inner_text("pre.diagnostics")
        assert shown.startswith("cards/tiny/A/tiny_tool.yaml:8:19: error[E203]: unknown good 'reeds' "
                                "(did you mean 'reed'?)")
        assert shown.endswith("1 problem found")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "hot-reload-diagnostics.png"), full_page=True)
        card.write_text(text.replace("name: Tiny Tool", "name: Tiny Shovel"))
        page.wait_for_selector("pre.diagnostics", state="detached", timeout=60_000)
        page.select_option("#pack", "tiny")
        page.fill("#players", "1")
        page.dispatch_event("#players", "change")
        page.click("#start")
        page.wait_for_url("**/play/**")
        page.wait_for_selector(".hand")
        assert "Tiny Shovel: Cost: 1 wood. Prerequisite: " in page.inner_text(".hand")
        assert not errors, errors
    finally:
        live.stop()
