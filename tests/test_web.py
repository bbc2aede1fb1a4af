"""The web playtest server through its HTTP interface (Starlette's test client, and a real server that is
killed and started again): games with people and agents, illegal answers, seats, saves, hot reload."""
from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import httpx
import pytest

from compiler import cli
from compiler.web.app import create_app
from tests.conftest import ROOT
from compiler.web.live import LiveServer

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TINY = ROOT / "tests" / "fixtures" / "tiny"
TINY_TOOL_TEXT = ('Cost: 1 wood. Prerequisite: you have "Tiny Helper" or you have "Tiny Helper" or you have '
                  '"Small Hearth" or "Day Work" is occupied. When you play this card: get 1 food.')


@pytest.fixture
def client(tmp_path, build_root, family):
    app = create_app(ROOT, build_root, tmp_path / "games.sqlite3", hot_reload=False)
    with TestClient(app) as c:
        yield c


def _start(client, seats=("human", "random"), seed=3, pack="revised-family"):
    r = client.post("/api/games", json={"pack": pack, "seats": list(seats), "seed": seed})
    assert r.status_code == 200, r.text
    return r.json()


def _play_to_the_end(client, game_id, token, pick=lambda options: len(options) - 1):
    answered = []
    while True:
        state = client.get(f"/api/games/{game_id}", params={"token": token}).json()
        if state["finished"]:
            return state, answered
        p = state["pending"]
        assert p["yours"] and p["options"]
        index = pick(p["options"])
        r = client.post(f"/api/games/{game_id}/answer", json={"token": token, "decision": p["decision"], "index": index})
        assert r.status_code == 200, r.text
        answered.append((p["decision"], index))


def test_a_person_and_an_agent_play_to_the_end(client):
    made = _start(client)
    assert list(made["seats"]) == ["0"]
    state, answered = _play_to_the_end(client, made["id"], made["seats"]["0"])
    assert len(answered) > 25
    assert state["finished"] and state["view"]["scores"] is not None
    assert state["score_table"]["totals"] == [s["total"] for s in state["view"]["scores"]]
    assert all(svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') for svg in state["farms"])
    # the stored decisions are the game: its save replays to the same end
    save = client.get(f"/api/games/{made['id']}/save")
    doc = save.json()
    assert doc["finished"] and doc["agents"] == [{"kind": "open"}, {"kind": "random", "seed": "3:1"}]
    assert [d[0] for d in doc["decisions"]].count(0) == len(answered)


def test_an_illegal_answer_is_refused_and_changes_nothing(client):
    made = _start(client)
    gid, token = made["id"], made["seats"]["0"]
    before = client.get(f"/api/games/{gid}", params={"token": token}).json()
    decision = before["pending"]["decision"]
    for index, status, message in [
            (999, 400, f"999 is not an option of this request (0 to {len(before['pending']['options']) - 1})"),
            (-1, 400, None), ("0", 400, None), (True, 400, None), (None, 400, None)]:
        r = client.post(f"/api/games/{gid}/answer", json={"token": token, "decision": decision, "index": index})
        assert r.status_code == status, r.text
        if message:
            assert r.json() == {"error": "'999' is not an option of this request (0 to "
                                         f"{len(before['pending']['options']) - 1})"}
    stale = client.post(f"/api/games/{gid}/answer", json={"token": token, "decision": decision - 1, "index": 0})
    assert stale.status_code == 409
    assert stale.json() == {"error": f"decision {decision - 1} is not the pending one (decision {decision})"}
    assert client.post(f"/api/games/{gid}/answer", content=b"not json").status_code == 400
    after = client.get(f"/api/games/{gid}", params={"token": token}).json()
    assert after == before


def test_one_secret_link_per_seat(client):
    made = _start(client, seats=("human", "human"))
    gid, t0, t1 = made["id"], made["seats"]["0"], made["seats"]["1"]
    assert t0 != t1 and len(t0) >= 20
    seat = client.get(f"/api/games/{gid}", params={"token": t1}).json()["pending"]["seat"]
    other = made["seats"][str(1 - seat)]
    state = client.get(f"/api/games/{gid}", params={"token": other}).json()
    p = state["pending"]
    assert not p["yours"] and "options" not in p
    assert client.get(f"/api/games/{gid}", params={"token": made["seats"][str(seat)]}).json()["pending"]["yours"]
    # the other seat's link cannot answer for it; a made-up link is no seat; a spectator sees no hand
    r = client.post(f"/api/games/{gid}/answer", json={"token": other, "decision": p["decision"], "index": 0})
    assert (r.status_code, r.json()) == (409, {"error": f"it is P{seat + 1}'s decision, not yours"})
    r = client.post(f"/api/games/{gid}/answer", json={"token": "x" * len(t0), "decision": p["decision"], "index": 0})
    assert (r.status_code, r.json()) == (403, {"error": "this link is not a seat of this game"})
    spectator = client.get(f"/api/games/{gid}").json()
    assert spectator["seat"] is None and all(pl["hand"] is None for pl in spectator["view"]["players"])
    r = client.post(f"/api/games/{gid}/answer", json={"decision": p["decision"], "index": 0})
    assert r.status_code == 403
    assert client.get("/api/games/nosuchgame").status_code == 404


def test_undo_takes_back_the_seats_last_decision(client):
    made = _start(client)
    gid, token = made["id"], made["seats"]["0"]
    first = client.get(f"/api/games/{gid}", params={"token": token}).json()
    assert first["can_undo"] is False
    assert client.post(f"/api/games/{gid}/undo", json={"token": token}).status_code == 409
    client.post(f"/api/games/{gid}/answer", json={"token": token, "decision": first["pending"]["decision"], "index": 0})
    back = client.post(f"/api/games/{gid}/undo", json={"token": token}).json()
    assert back["pending"] == first["pending"] and back["decisions"] == first["decisions"]
    assert len(client.get(f"/api/games/{gid}/save").json()["decisions"]) == first["decisions"]


def test_watch_steps_through_a_stored_game(client):
    made = _start(client, seats=("random", "greedy"))
    gid = made["id"]
    assert made["seats"] == {}
    state = client.get(f"/api/games/{gid}").json()
    assert state["finished"]
    total = state["decisions"]
    rounds = client.get(f"/api/games/{gid}/rounds").json()
    assert [r["round"] for r in rounds] == list(range(1, 15))
    start = client.get(f"/api/games/{gid}/at/0").json()
    assert (start["at"], start["total"], start["view"]["round"]) == (0, total, 1)
    end = client.get(f"/api/games/{gid}/at/{total}").json()
    assert end["finished"] and end["score_table"]["totals"] == state["score_table"]["totals"]
    r5 = client.get(f"/api/games/{gid}/at/{rounds[4]['at']}").json()
    assert r5["view"]["round"] == 5
    assert client.get(f"/api/games/{gid}/at/{total + 1}").status_code == 400


def test_uploaded_saves_are_checked_like_resume(client, tmp_path):
    made = _start(client)
    gid, token = made["id"], made["seats"]["0"]
    for _ in range(3):
        p = client.get(f"/api/games/{gid}", params={"token": token}).json()["pending"]
        client.post(f"/api/games/{gid}/answer", json={"token": token, "decision": p["decision"], "index": 0})
    doc = client.get(f"/api/games/{gid}/save").json()
    up = client.post("/api/saves", content=json.dumps(doc).encode())
    assert up.status_code == 200, up.text
    again = client.get(f"/api/games/{up.json()['id']}", params={"token": up.json()["seats"]["0"]}).json()
    original = client.get(f"/api/games/{gid}", params={"token": token}).json()
    assert again["pending"] == original["pending"] and again["view"]["players"] == original["view"]["players"]
    # a damaged save is refused with the message resume gives, located, naming no file of the server
    r = client.post("/api/saves", content=b'{"format": "agricola-save", "version": 1}')
    assert r.status_code == 400
    assert r.json()["error"].startswith("the uploaded save:1:1: error[E")
    doc["pack_hash"] = "0" * 64
    r = client.post("/api/saves", content=json.dumps(doc).encode())
    assert r.json() == {"error": "the uploaded save: pack 'revised-family' has changed since this game was saved "
                                 "(its content hash differs); the game cannot be resumed with the changed rules"}
    doc["pack"] = "../../etc"
    assert client.post("/api/saves", content=json.dumps(doc).encode()).json() == {
        "error": "the save is a game of pack '../../etc', which this server does not have"}


def test_no_path_from_a_request_reaches_the_file_system(client):
    assert client.get("/static/app.js").status_code == 200
    for name in ("..%2Fapp.py", "../app.py", "%2e%2e%2fserver.py", "app.py", "index.html%00"):
        assert client.get(f"/static/{name}").status_code == 404
    r = client.post("/api/games", json={"pack": "../../rules/revised", "seats": ["human"], "seed": 1})
    assert (r.status_code, r.json()) == (400, {"error": "no pack '../../rules/revised' in this workspace"})
    r = client.post("/api/games", json={"pack": "revised-family", "seats": ["human", "python"], "seed": 1})
    assert r.json() == {"error": "unknown seat kind 'python'; the kinds are human, greedy, random"}
    r = client.post("/api/games", json={"pack": "revised-family", "seats": ["human"] * 9, "seed": 1})
    assert r.json() == {"error": "pack 'revised-family' is for 1 to 4 players"}


def test_a_restarted_server_continues_every_open_game(tmp_path, build_root, family):
    server = LiveServer(build_root, tmp_path / "games.sqlite3").start()
    try:
        games = []
        for seed in (1, 2):
            made = httpx.post(server.url + "/api/games", json={"pack": "revised-family", "seats": ["human", "greedy"],
                                                                "seed": seed}).json()
            games.append((made["id"], made["seats"]["0"]))
        for gid, token in games:
            for _ in range(4):
                p = httpx.get(f"{server.url}/api/games/{gid}", params={"token": token}).json()["pending"]
                assert httpx.post(f"{server.url}/api/games/{gid}/answer",
                                  json={"token": token, "decision": p["decision"], "index": 1}).status_code == 200
        before = [httpx.get(f"{server.url}/api/games/{gid}", params={"token": t}).json() for gid, t in games]
        server.kill()
        server.start()
        after = [httpx.get(f"{server.url}/api/games/{gid}", params={"token": t}).json() for gid, t in games]
        assert [a["pending"] for a in after] == [b["pending"] for b in before]
        assert [a["view"] for a in after] == [b["view"] for b in before]
    finally:
        server.stop()


def test_hot_reload_shows_the_diagnostics_and_new_games_use_the_new_card(tmp_path, monkeypatch):
    root = tmp_path / "workspace"
    shutil.copytree(TINY, root)
    monkeypatch.chdir(root)   # files print relative to the working folder, as 'agricola compile' prints them
    app = create_app(root, tmp_path / "build", tmp_path / "games.sqlite3", hot_reload=False)
    with TestClient(app) as client:
        server = app.state.server
        made = client.post("/api/games", json={"pack": "tiny", "seats": ["human"], "seed": 1}).json()
        hand = client.get(f"/api/games/{made['id']}", params={"token": made["seats"]["0"]}).json()
        assert "Tiny Tool" in hand["card_names"].values()
        tool = next(cid for cid, name in hand["card_names"].items() if name == "Tiny Tool")
        assert hand["card_texts"][tool] == TINY_TOOL_TEXT
        card = root / "cards" / "tiny" / "A" / "tiny_tool.yaml"
        text = card.read_text()
        card.write_text(text.replace("gain 1 food", "gain 1 reeds"))
        assert server.reload_if_changed()
        tiny = next(p for p in client.get("/api/packs").json() if p["id"] == "tiny")
        assert tiny["diagnostics"] == ("cards/tiny/A/tiny_tool.yaml:8:19: error[E203]: unknown good 'reeds' "
                                       "(did you mean 'reed'?)\n    on play: gain 1 reeds\n"
                                       "                    ^^^^^\n1 problem found")
        r = client.post("/api/games", json={"pack": "tiny", "seats": ["human"], "seed": 1})
        assert r.status_code == 400 and "unknown good 'reeds'" in r.json()["error"]
        # the game going on keeps its pack
        assert client.get(f"/api/games/{made['id']}").status_code == 200
        card.write_text(text.replace("gain 1 food", "gain 2 food").replace("name: Tiny Tool", "name: Tiny Shovel"))
        assert server.reload_if_changed() and not server.reload_if_changed()
        assert next(p for p in client.get("/api/packs").json() if p["id"] == "tiny")["diagnostics"] is None
        new = client.post("/api/games", json={"pack": "tiny", "seats": ["human"], "seed": 1}).json()
        state = client.get(f"/api/games/{new['id']}", params={"token": new["seats"]["0"]}).json()
        assert "Tiny Shovel" in state["card_names"].values()


def test_score_draws_the_farm_as_svg(tmp_path, capsys):
    out = tmp_path / "farm.svg"
    assert cli.main(["--root", str(TINY), "--build", str(tmp_path / "b"), "score", str(TINY / "farm.yaml"),
                     "--pack", "tiny", "--svg", str(out)]) == 0
    svg = out.read_text()
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="farm"')
    assert svg.count('class="cell ') == 15 and "<title>Farm of farm.yaml</title>" in svg
    assert "Total" in capsys.readouterr().out


def test_serve_refuses_a_port_it_cannot_listen_on(capsys):
    import socket
    assert cli.main(["serve", "--port", "70000"]) == 2
    assert capsys.readouterr().err == "error: --port 70000: a port is a number from 1 to 65535\n"
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        taken.listen()
        assert cli.main(["serve", "--port", str(port)]) == 2
    assert capsys.readouterr().err == f"error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_the_printable_reference_draws_and_scores_an_example_farm(tmp_path, compiler, family):
    from compiler import docs
    from compiler.farmfile import score_farm_file
    out = tmp_path / "site"
    docs.build_site(compiler, "revised-family", out)
    html = (out / "rules.html").read_text()
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="farm"') == 1
    assert "<title>An example farm at the end of a game</title>" in html
    result, _ = score_farm_file(docs.EXAMPLE_FARM, family)
    assert f"<tr><th>Total</th><th>{result['total']}</th></tr>" in html
    assert "<figcaption>A clay house of 3 rooms, a family of 3, 4 fields and 1 pasture, at the end of the game." in html


def test_concurrent_answers_to_one_game_are_serialised(tmp_path, build_root, family):
    import asyncio
    app = create_app(ROOT, build_root, tmp_path / "games.sqlite3", hot_reload=False)

    async def race():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            made = (await c.post("/api/games", json={"pack": "revised-family", "seats": ["human", "random"],
                                                     "seed": 5})).json()
            gid, token = made["id"], made["seats"]["0"]
            p = (await c.get(f"/api/games/{gid}", params={"token": token})).json()["pending"]
            answers = [c.post(f"/api/games/{gid}/answer", json={"token": token, "decision": p["decision"], "index": i % 2})
                       for i in range(12)]
            replies = await asyncio.gather(*answers)
            doc = (await c.get(f"/api/games/{gid}/save")).json()
            return p, [r.status_code for r in replies], doc
    p, statuses, doc = asyncio.run(race())
    assert statuses.count(200) == 1 and statuses.count(409) == 11
    assert [d[0] for d in doc["decisions"]].count(0) == 1
    assert len([d for d in doc["decisions"] if d[0] == 0]) == 1
