"""The web app: the page (static files of this package) and its HTTP JSON API, on FastAPI.

Every piece of work (parsing, analysis, the player, dealing) runs off the event loop in a
bounded thread pool: at most ``workers`` jobs run and ``queue`` more wait; past that the
server answers 503 at once instead of piling work up. Each request has a time limit
(``time_limit``, default 5 s, at most ``max_time_limit``) that the analysis itself honours
("not computed within the time limit" is an answer); a job still running well past it
(twice the limit plus ``grace``, the analysis's own worst case) gets 504 and its slot is
freed only when it ends. Bodies larger than ``max_body`` are refused with 413 before they
are read. Bad input is 400 with the command line's one-line message; no endpoint reads or
writes a file on the server.

Errors are always ``{"error": "one line"}``.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Literal, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from exactmines.analysis.analyze import analyze
from exactmines.analysis.backends import backend_names, get_backend
from exactmines.analysis.serialize import analysis_to_dict
from exactmines.budget import Budget
from exactmines.errors import ExactminesError, InputError
from exactmines.io.formats import board_from_text
from exactmines.ui.web.advice import overlay, recommendation_to_dict
from exactmines.ui.web.games import MAX_SIDE, GameStore, UnknownGame, WebGame
from exactmines.ui.web.inputs import (
    EXPORT_KINDS,
    decode_base64,
    exported,
    imported_text,
    position_from_input,
)
from exactmines.version import __version__

__all__ = ["Settings", "create_app", "STATIC"]

#: The page's files, inside the installed package.
STATIC = files("exactmines.ui.web") / "static"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Settings:
    """Limits of one server (seconds, bytes, jobs)."""

    time_limit: float = 5.0
    max_time_limit: float = 30.0
    max_body: int = 2_000_000
    workers: int = 2
    queue: int = 8
    games: int = 64
    grace: float = 5.0


class BadBody(Exception):
    """A request body that does not have the shape asked for (400, like bad input)."""


class Busy(Exception):
    """Every worker is busy and the queue is full."""


class TooSlow(Exception):
    """A job ran far past its time limit."""


# -- request bodies ---------------------------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AnalyzeRequest(_Body):
    """A position as ``.mine`` text, or as a grid of rows (``.mine`` characters) with an
    optional total mine count."""

    text: str | None = Field(None, description=".mine text (header and rows)")
    grid: list[str] | None = Field(None, description="rows of 0-8, H, F, M or ?")
    mines: int | None = Field(None, description="total mines (flags included), with grid")
    backend: str = Field("auto", description="engine: " + ", ".join(backend_names()))
    time_limit: float | None = Field(None, description="seconds (default 5, capped)")


class ImportRequest(_Body):
    """An uploaded file (base64 ``data`` with its ``name``) or pasted ``text``."""

    name: str = ""
    data: str | None = None
    text: str | None = None


class ExportRequest(_Body):
    text: str
    to: Literal["mine", "mbf", "xo", "link"]


class NewGameRequest(_Body):
    width: int = 9
    height: int = 9
    mines: int = 10
    rule: str = "safe"
    seed: int | None = None
    noguess: bool = False
    board: str | None = Field(None, description=".mine text of a board (mines marked M)")


class CellRequest(_Body):
    row: int
    col: int


def _one_line(exc: ValidationError | RequestValidationError) -> str:
    """A validation error as one line: where, and what is wrong."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
    return f"{where}: {first.get('msg', 'invalid')}"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(message.split())}, status_code=status)


# -- the app ----------------------------------------------------------------------------


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new app with its own pool and game store (tests make one per test)."""
    settings = settings or Settings()
    pool = ThreadPoolExecutor(max_workers=settings.workers, thread_name_prefix="exactmines")
    slots = {"free": settings.workers + settings.queue}
    store = GameStore(settings.games)

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # type: ignore[no-untyped-def]
        yield
        pool.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(title="exactmines", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,  # their pages load scripts from a CDN
                  description="Exact Minesweeper analysis over HTTP: the page's API. "
                              "Errors are {\"error\": \"one line\"}: 400 bad input, 404 "
                              "unknown game, 413 body too large, 503 busy, 504 past the "
                              "time limit.")
    app.state.settings = settings
    app.state.store = store

    async def run(job: Callable[[], T], limit: float) -> T:
        """``job()`` in the pool; :class:`Busy` when full, :class:`TooSlow` past the wait."""
        if slots["free"] <= 0:
            raise Busy()
        slots["free"] -= 1
        future: Future[T] = pool.submit(job)
        loop = asyncio.get_running_loop()

        def give_back() -> None:
            slots["free"] += 1

        def release(_: Future[T]) -> None:
            # From the worker thread: the count changes on the loop only, never raced.
            loop.call_soon_threadsafe(give_back)

        future.add_done_callback(release)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future),
                                          2 * limit + settings.grace)
        except TimeoutError:
            raise TooSlow(f"not finished within {2 * limit + settings.grace:g} s "
                          "(the work goes on and its slot stays taken until it ends)") from None

    def time_limit(value: float | None) -> float:
        if value is None:
            return settings.time_limit
        if not value > 0:
            raise InputError(f"time_limit {value}: must be more than 0 s", source="time_limit")
        if value > settings.max_time_limit:
            raise InputError(f"time_limit {value}: at most {settings.max_time_limit:g} s on "
                             "this server", source="time_limit")
        return value

    async def analyze_request(request: Request) -> tuple[AnalyzeRequest, float]:
        raw = await request.body()
        if request.headers.get("content-type", "").startswith("application/json"):
            try:
                body = AnalyzeRequest.model_validate_json(raw)
            except ValidationError as exc:
                raise BadBody(_one_line(exc)) from None
        else:  # a plain .mine file, options in the query
            text = raw.decode("utf-8", errors="replace")
            query = request.query_params
            try:
                limit = float(query["time_limit"]) if "time_limit" in query else None
            except ValueError:
                raise InputError(f"time_limit {query['time_limit']!r}: not a number",
                                 source="time_limit") from None
            body = AnalyzeRequest(text=text, grid=None, mines=None,
                                  backend=query.get("backend", "auto"), time_limit=limit)
        get_backend(body.backend)  # an unknown engine is refused before any work
        return body, time_limit(body.time_limit)

    @app.exception_handler(ExactminesError)
    async def _bad_input(_: Request, exc: ExactminesError) -> JSONResponse:
        return _error(400, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _bad_body(_: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(400, _one_line(exc))

    @app.exception_handler(BadBody)
    async def _bad_shape(_: Request, exc: BadBody) -> JSONResponse:
        return _error(400, str(exc))

    @app.exception_handler(UnknownGame)
    async def _no_game(_: Request, exc: UnknownGame) -> JSONResponse:
        return _error(404, f"no game {exc.args[0]!r} (games are kept in memory, the last "
                           f"{settings.games} only): start a new one")

    @app.exception_handler(Busy)
    async def _busy(_: Request, exc: Busy) -> JSONResponse:
        return _error(503, "busy: every worker is taken and the queue is full; try again")

    @app.exception_handler(TooSlow)
    async def _slow(_: Request, exc: TooSlow) -> JSONResponse:
        return _error(504, str(exc))

    @app.exception_handler(Exception)
    async def _bug(_: Request, exc: Exception) -> JSONResponse:
        # A bug, not bad input: still one line and no traceback to the client.
        return _error(500, f"internal error: {type(exc).__name__}: {exc}")

    app.add_middleware(BodyLimit, limit=settings.max_body)  # type: ignore[arg-type]

    # -- page -------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    # -- analysis ---------------------------------------------------------------------

    @app.get("/api/health", summary="Liveness, version and limits")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "version": __version__, "backends": backend_names(),
                "time_limit": settings.time_limit, "max_time_limit": settings.max_time_limit,
                "max_body": settings.max_body, "max_side": MAX_SIDE,
                "busy": settings.workers + settings.queue - slots["free"]}

    analyze_body = {"requestBody": {"content": {
        "application/json": {"schema": AnalyzeRequest.model_json_schema()},
        "text/plain": {"schema": {"type": "string", "description":
                                  ".mine text; backend and time_limit in the query"}}},
        "required": True}}

    @app.post("/api/analyze", openapi_extra=analyze_body,
              summary="Exact analysis: the JSON of `exactmines analyze --format json`")
    async def analyze_endpoint(request: Request) -> JSONResponse:
        body, limit = await analyze_request(request)

        def job() -> dict[str, Any]:
            position = position_from_input(body.text, body.grid, body.mines)
            return analysis_to_dict(analyze(position, backend=body.backend, time_limit=limit))

        return JSONResponse(await run(job, limit))

    @app.post("/api/overlay", openapi_extra=analyze_body,
              summary="What the page draws: the analysis, the player's recommended click "
                      "with its reason, and the clues at fault in an inconsistent position")
    async def overlay_endpoint(request: Request) -> JSONResponse:
        body, limit = await analyze_request(request)

        def job() -> dict[str, Any]:
            budget = Budget.seconds(limit)
            position = position_from_input(body.text, body.grid, body.mines)
            return overlay(position, get_backend(body.backend), budget)

        return JSONResponse(await run(job, limit))

    # -- files, in memory -------------------------------------------------------------

    @app.post("/api/import", summary="A .mbf, x/o, .mine file or a JSMinesweeper link -> "
                                     ".mine text")
    async def import_endpoint(body: ImportRequest) -> dict[str, Any]:
        def job() -> dict[str, Any]:
            if (body.data is None) == (body.text is None):
                raise InputError("give either data (base64) or text", source="body")
            raw = (decode_base64(body.data, body.name or "data") if body.data is not None
                   else (body.text or "").encode())
            text, kind = imported_text(body.name, raw)
            return {"text": text, "kind": kind}

        return await run(job, settings.time_limit)

    @app.post("/api/export", summary="A .mine position or board -> .mine, .mbf (base64), "
                                     "x/o text or a JSMinesweeper link")
    async def export_endpoint(body: ExportRequest) -> dict[str, Any]:
        def job() -> dict[str, Any]:
            data, encoding = exported(body.text, body.to)
            return {"data": data, "encoding": encoding, "suffix": EXPORT_KINDS[body.to]}

        return await run(job, settings.time_limit)

    # -- play -------------------------------------------------------------------------

    @app.post("/api/games", summary="A new game (dealt at its first click)")
    async def new_game(body: NewGameRequest) -> dict[str, Any]:
        def job() -> dict[str, Any]:
            board = None if body.board is None else board_from_text(body.board, "board")
            seed = body.seed if body.seed is not None else secrets.randbits(32)
            game = WebGame(body.width, body.height, body.mines, body.rule, seed,
                           body.noguess, board, settings.time_limit)
            return game.to_dict(store.add(game))

        return await run(job, settings.time_limit)

    async def on_game(game_id: str, action: Callable[[WebGame], Any]) -> dict[str, Any]:
        game = store.get(game_id)

        def job() -> dict[str, Any]:
            with game.lock:
                extra = action(game)
                out = game.to_dict(game_id)
                if extra is not None:
                    out.update(extra)
                return out

        return await run(job, settings.time_limit)

    @app.get("/api/games/{game_id}", summary="The game as the player sees it")
    async def game_state(game_id: str) -> dict[str, Any]:
        return await on_game(game_id, lambda g: None)

    @app.post("/api/games/{game_id}/reveal", summary="Click a cell (zeros flood)")
    async def reveal(game_id: str, body: CellRequest) -> dict[str, Any]:
        return await on_game(game_id, lambda g: g.reveal((body.row, body.col)))

    @app.post("/api/games/{game_id}/flag", summary="Put or take away a flag")
    async def flag(game_id: str, body: CellRequest) -> dict[str, Any]:
        return await on_game(game_id, lambda g: g.flag((body.row, body.col)))

    def _move(move: Any) -> dict[str, Any]:
        return {"move": None if move is None else recommendation_to_dict(move)}

    @app.post("/api/games/{game_id}/hint", summary="The player's next move, not played")
    async def hint(game_id: str) -> dict[str, Any]:
        return await on_game(game_id, lambda g: _move(g.hint()))

    @app.post("/api/games/{game_id}/step", summary="Play the player's next move")
    async def step(game_id: str) -> dict[str, Any]:
        return await on_game(game_id, lambda g: _move(g.step()))

    return app


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413 without being read
    whole (by its Content-Length, or as soon as a chunked body passes the limit)."""

    def __init__(self, app: Callable[..., Awaitable[None]], limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[dict]],
                       send: Callable[[dict], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(send)
                return
        seen = 0
        started = False

        async def guarded_send(message: dict) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        async def counted_receive() -> dict:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge()
            return message

        try:
            await self.app(scope, counted_receive, guarded_send)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Callable[[dict], Awaitable[None]]) -> None:
        body = json.dumps({"error": f"request body larger than {self.limit} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass
