"""The web playtest server: an ASGI application on Starlette (``agricola serve``).

Routes (JSON unless said otherwise; docs/web.md describes them):

- ``GET /`` the page (plain JavaScript, no build step, nothing from the internet); ``GET /static/NAME``
  its files, from a fixed list read from the package at start (no path from a request is opened)
- ``GET /api/packs`` the packs, each with the diagnostics of its last compile (hot reload)
- ``GET /api/games`` the stored games; ``POST /api/games`` ``{pack, seats: ["human", "greedy", …], seed, decks}``
  starts one and returns its id and one secret token per person's seat
- ``GET /api/games/{id}?token=T`` the game as that seat sees it (no token: a spectator)
- ``POST /api/games/{id}/answer`` ``{token, decision, index}``: 400 for an option that is not legal,
  409 for a decision that is not the pending one; the decision is stored before the reply
- ``POST /api/games/{id}/undo`` ``{token}`` takes back that seat's last decision
- ``GET /api/games/{id}/at/{k}`` the game after its first k decisions (watch, replay);
  ``GET /api/games/{id}/rounds`` the first decision of each round
- ``GET /api/games/{id}/save`` the save file (docs/save-format.md); ``POST /api/saves`` uploads one
"""
from __future__ import annotations

import asyncio
import contextlib
import json
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .server import Server, WebError

STATIC_FILES = {"app.js": "text/javascript", "style.css": "text/css", "index.html": "text/html"}
MAX_BODY = 25_000_000


def _static() -> dict:
    folder = resources.files("compiler.web") / "static"
    return {name: (folder / name).read_bytes() for name in STATIC_FILES}


def create_app(root: Path, build_root: Path, db_path: Path, hot_reload: bool = True,
               poll_seconds: float = 0.5) -> Starlette:
    """The application: one Server (its games in ``db_path``), the open games restored at start."""
    server = Server(root, build_root, db_path)
    files = _static()

    def page(request):
        return Response(files["index.html"], media_type="text/html; charset=utf-8",
                        headers={"Cache-Control": "no-store"})

    def static(request):
        name = request.path_params["name"]
        if name not in files:
            return JSONResponse({"error": "no such file"}, status_code=404)
        return Response(files[name], media_type=STATIC_FILES[name] + "; charset=utf-8")

    async def body(request) -> dict:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise WebError(413, "the request is too large")
        try:
            data = json.loads(raw or b"{}")
        except ValueError:
            raise WebError(400, "the request is not JSON") from None
        if not isinstance(data, dict):
            raise WebError(400, "the request is not a JSON object")
        return data

    def handled(fn):
        async def endpoint(request: Request):
            try:
                result = await fn(request)
            except WebError as exc:
                return JSONResponse({"error": exc.message}, status_code=exc.status)
            if isinstance(result, Response):
                return result
            return JSONResponse(result)
        return endpoint

    async def packs(request):
        return server.pack_list()

    async def games(request):
        if request.method == "POST":
            data = await body(request)
            return server.start(data.get("pack"), data.get("seats"), data.get("seed", 1), data.get("decks"))
        return server.games()

    async def game(request):
        return server.state(request.path_params["id"], request.query_params.get("token"))

    async def answer(request):
        data = await body(request)
        return server.answer(request.path_params["id"], data.get("token"), data.get("decision"), data.get("index"))

    async def undo(request):
        data = await body(request)
        return server.undo(request.path_params["id"], data.get("token"))

    async def at(request):
        return server.watch(request.path_params["id"], request.path_params["k"])

    async def rounds(request):
        return server.rounds(request.path_params["id"])

    async def save(request):
        doc = server.save(request.path_params["id"])
        return Response(json.dumps(doc, sort_keys=True), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="agricola-{request.path_params["id"]}.json"'})

    async def upload(request):
        raw = await request.body()
        return server.upload(raw)

    async def reload_loop():
        while True:
            await asyncio.sleep(poll_seconds)
            try:
                if server._fingerprint() != server.fingerprint:
                    await asyncio.to_thread(server.reload_if_changed)
            except Exception as exc:  # a reload that fails shows in the packs' diagnostics, never stops the server
                for state in server.packs.values():
                    state.diagnostics = f"internal error while recompiling: {type(exc).__name__}: {exc}"

    @contextlib.asynccontextmanager
    async def lifespan(app):
        server.restore_all()
        task = asyncio.get_running_loop().create_task(reload_loop()) if hot_reload else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
            server.store.close()

    routes = [
        Route("/", page), Route("/play/{id}/{token}", page), Route("/game/{id}", page), Route("/watch/{id}", page),
        Route("/static/{name}", static),
        Route("/api/packs", handled(packs)),
        Route("/api/games", handled(games), methods=["GET", "POST"]),
        Route("/api/games/{id}", handled(game)),
        Route("/api/games/{id}/answer", handled(answer), methods=["POST"]),
        Route("/api/games/{id}/undo", handled(undo), methods=["POST"]),
        Route("/api/games/{id}/at/{k:int}", handled(at)),
        Route("/api/games/{id}/rounds", handled(rounds)),
        Route("/api/games/{id}/save", handled(save)),
        Route("/api/saves", handled(upload), methods=["POST"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app
