"""A load test of the web playtest server: many games at once over HTTP on this machine, each with a
person's seat answered by a client at random, the server killed (SIGKILL) and started again once in the
middle. Used by tests/test_web_load.py (a slow test) and ``make bench`` (key ``web_load``).

Checked at the end, game by game, against the save the server gives: every answer the server
acknowledged is in the game at its decision number with its option (nothing lost); every decision of
the person's seat in the game is one the client sent (nothing duplicated or made up); the game is
finished and its save replays to the same final state.
"""
from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from pathlib import Path

import httpx

from .live import LiveServer


class LoadFailure(AssertionError):
    """A decision lost, duplicated or made up, or a game that did not end."""


async def _drive(client, base, game_id, token, rng, acked, sent, times, counter, alive):
    """Answer the person's seat of one game at random until the game is over."""
    while True:
        await alive.wait()
        try:
            r = await client.get(f"{base}/api/games/{game_id}", params={"token": token})
            state = r.json()
            if r.status_code != 200:
                raise LoadFailure(f"game {game_id}: GET answered {r.status_code}: {state}")
            if state["finished"]:
                return state
            p = state["pending"]
            option = rng.choice(p["options"])
            key = (p["decision"], p["kind"], option["value"])
            sent.append(key)
            t = time.perf_counter()
            r = await client.post(f"{base}/api/games/{game_id}/answer",
                                  json={"token": token, "decision": p["decision"], "index": option["index"]})
            if r.status_code == 200:
                times.append(time.perf_counter() - t)
                acked.append(key)
                counter[0] += 1
            elif r.status_code != 409:  # 409: answered already (a retry after a restart): read the state again
                raise LoadFailure(f"game {game_id}: answer refused ({r.status_code}): {r.text}")
        except (httpx.TransportError, ValueError):
            await asyncio.sleep(0.05)   # the server is being restarted: try again


def _check(game_id, doc, acked, sent, seat=0):
    if not doc.get("finished"):
        raise LoadFailure(f"game {game_id} did not end")
    mine = {}
    for n, (pi, kind, option) in enumerate(doc["decisions"], start=1):
        if pi == seat:
            mine[n] = (n, kind, option)
    sent_set = set(map(repr, sent))
    for n, key in mine.items():
        if repr(key) not in sent_set:
            raise LoadFailure(f"game {game_id}: decision {n} of the person's seat was never sent: {key}")
    for key in acked:
        if mine.get(key[0]) is None or repr(mine[key[0]]) != repr(key):
            raise LoadFailure(f"game {game_id}: the acknowledged answer {key} is not in the game")
    if len({k[0] for k in acked}) != len(acked):
        raise LoadFailure(f"game {game_id}: one decision was acknowledged twice")


async def _run(server: LiveServer, games: int, pack: str, seats: list, seed: int, restart: bool) -> dict:
    limits = httpx.Limits(max_connections=games + 10, max_keepalive_connections=games + 10)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        made = []
        for k in range(games):
            r = await client.post(f"{server.url}/api/games", json={"pack": pack, "seats": seats, "seed": seed + k})
            r.raise_for_status()
            made.append(r.json())
        alive = asyncio.Event()
        alive.set()
        counter = [0]
        per_game = [([], [], []) for _ in made]
        tasks = [asyncio.create_task(_drive(client, server.url, m["id"], m["seats"]["0"], random.Random(seed + k),
                                            *per_game[k], counter, alive))
                 for k, m in enumerate(made)]
        restarted_at = None
        if restart:
            # about half-way: each game has some 20 decisions of the person's seat
            while counter[0] < games * 10 and not all(t.done() for t in tasks):
                await asyncio.sleep(0.05)
            restarted_at = counter[0]
            alive.clear()
            await asyncio.to_thread(server.kill)
            await asyncio.to_thread(server.start)
            alive.set()
        await asyncio.gather(*tasks)
        for m, (acked, sent, _) in zip(made, per_game):
            doc = (await client.get(f"{server.url}/api/games/{m['id']}/save")).json()
            _check(m["id"], doc, acked, sent)
            up = await client.post(f"{server.url}/api/saves", content=json.dumps(doc).encode())
            if up.status_code != 200:
                raise LoadFailure(f"game {m['id']}: its save does not replay: {up.text}")
        times = sorted(t for _, _, ts in per_game for t in ts)
    return {"games": games, "answers": len(times), "restarted_after_answers": restarted_at,
            "answer_p50_ms": round(statistics.median(times) * 1000, 2),
            "answer_p95_ms": round(times[int(len(times) * 0.95) - 1] * 1000, 2)}


def run_load(build: Path, db: Path, games: int = 50, pack: str = "revised-family", seats=("human", "random"),
             seed: int = 1, restart: bool = True) -> dict:
    """Start a server, play ``games`` games at once to their end (killing and restarting the server once
    when ``restart``), check every game, stop the server; returns the figures (answer times in ms)."""
    server = LiveServer(Path(build), Path(db)).start(timeout=300)
    try:
        t = time.perf_counter()
        result = asyncio.run(_run(server, games, pack, list(seats), seed, restart))
        result["wall_s"] = round(time.perf_counter() - t, 2)
        result["pack"] = pack
        return result
    finally:
        server.stop()
