"""The web app: the page (static files of this package) and its HTTP JSON API, on FastAPI.

Every piece of work (parsing, analysis, the player, dealing, import and export) runs in a
pool of worker processes (:mod:`exactmines.ui.web.workers`), never on the event loop, so
``/api/health`` and small requests answer while hard ones run:

- at most ``workers`` jobs run and ``queue`` more wait; past that a request gets 503 with
  ``Retry-After`` at once;
- each request has a time limit (``time_limit``, default 5 s, at most ``max_time_limit``)
  that the analysis honours: past it, parts are "not computed", an answer (200). A worker
  still busy ``grace`` seconds (plus ``per_cell`` seconds per covered cell, for reading the
  position and writing the answer) after the limit is ended and replaced, and the request
  gets the sound answer that nothing was computed: every cell unknown, consistency
  undecided, and a note (a replay: its clicks not judged but those the rules prove safe).
  Work with no such answer (a deal, an import) gets 500 then.

Requests must come from this machine's page or from scripts: a ``Host`` that is not one of
``hosts`` (loopback names by default: DNS rebinding) and an ``Origin`` other than the
server's own (another site's page in the user's browser) get 403. Bodies larger than
``max_body`` get 413 before they are read. Bad input is 400 with the command line's
one-line message; each error class has its status (:mod:`exactmines.errors`). No endpoint
reads or writes a file on the server.

Errors are always ``{"error": "one line"}``.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, TypeVar

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from exactmines.analysis.backends import registered
from exactmines.errors import ExactminesError, OutOfTime, ParameterError
from exactmines.io.formats import declared_size, decode_text
from exactmines.ui.web import bodies
from exactmines.ui.web.games import MAX_SIDE
from exactmines.ui.web.middleware import BodyLimit, SameHost
from exactmines.ui.web.models import (
    AnalyzeRequest,
    CellRequest,
    ExportRequest,
    ImportRequest,
    NewGameRequest,
    ReplayRequest,
)
from exactmines.ui.web.store import GameStore, UnknownGame
from exactmines.ui.web.workers import (
    Busy,
    JobCrashed,
    Overtime,
    PoolLimits,
    ShuttingDown,
    WorkerPool,
)
from exactmines.version import __version__
from exactmines.words import plural

__all__ = ["Settings", "create_app", "STATIC", "LOOPBACK_NAMES"]

#: The page's files, inside the installed package.
STATIC = files("exactmines.ui.web") / "static"

#: Host names that reach only this machine (``Host`` headers a local server accepts).
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")

#: What the fork server imports once for every worker (the bodies and the default engines).
PRELOAD = ("exactmines.ui.web.bodies", "exactmines.analysis.backends.auto",
           "exactmines.analysis.backends.dp", "exactmines.analysis.backends.sat")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Settings:
    """Limits of one server (seconds, bytes, games, processes)."""

    time_limit: float = 5.0
    max_time_limit: float = 30.0
    max_body: int = 2_000_000
    #: The most cells of a position ``/api/analyze`` and ``/api/overlay`` take (the page
    #: draws up to 90,000, a 300x300 board; compiled formulas take more), and the longest
    #: side: larger is 413 before any work, so that reading, answering and the reply stay
    #: bounded.
    max_cells: int = 250_000
    max_position_side: int = 1000
    #: The largest analysis answer sent (bytes): a larger one is 413 (ask ``grouped``).
    max_reply: int = 64 * 2**20
    games: int = 64
    #: Seconds a job may run past its time limit, plus ``per_cell`` per covered cell of its
    #: position, before its worker is ended.
    grace: float = 0.5
    per_cell: float = 10e-6
    #: The worker processes: how many, and when one is replaced.
    pool: PoolLimits = PoolLimits()
    #: ``Host`` names accepted (any port); ``None``: any host (a server bound to every
    #: address, whose users reach it by names it cannot know).
    hosts: tuple[str, ...] | None = LOOPBACK_NAMES


class BadBody(Exception):
    """A request body that does not have the shape asked for (400, like bad input)."""


class TooBig(Exception):
    """A position larger than the server takes (413), refused before any work."""


def _size_of(text: str | None, grid: list[str] | None) -> tuple[int, int] | None:
    """The ``(width, height)`` a request's position declares: its ``.mine`` header's
    (:func:`~exactmines.io.formats.declared_size`), or its grid's rows and longest row.
    ``None``: no size to read (the parser refuses such a request). Cost: the header, or
    one pass over the grid's row lengths."""
    if text is not None:
        return declared_size(text)
    if grid:
        return max(len(row) for row in grid), len(grid)
    return None


def _one_line(exc: ValidationError | RequestValidationError) -> str:
    """A validation error as one line: where, and what is wrong."""
    first = exc.errors()[0]
    if first.get("type") == "json_invalid":  # the body is no JSON at all
        detail = first.get("ctx", {}).get("error") or first.get("msg", "")
        detail = str(detail).removeprefix("Invalid JSON: ")
        return f"body: not valid JSON ({detail})"
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
    return f"{where}: {first.get('msg', 'invalid')}"


def _error(status: int, message: str,
           headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": " ".join(message.split())}, status_code=status,
                        headers=headers)


def _json(body: bytes) -> Response:
    return Response(body, media_type="application/json")


def _covered(raw: bytes) -> int:
    """Covered cells in a request's body, as near as counting their characters tells
    (the allowance for reading the position and writing its answer)."""
    return raw.count(b"H") + raw.count(b"M") + raw.count(b"?")


# -- the app ----------------------------------------------------------------------------


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new app with its own worker pool and game store (tests make one per test)."""
    settings = settings or Settings()
    pool = WorkerPool(settings.pool, preload=PRELOAD)
    store = GameStore(settings.games)
    installed: list[str] = []
    asking: list[asyncio.Future[None]] = []

    async def engines() -> list[str]:
        """The engines installed, asked of a worker once when the pool starts (their
        imports stay there): the server's startup, or its first request without one."""
        if not installed:
            if not asking or asking[0].get_loop() is not asyncio.get_running_loop():
                asking[:] = [asyncio.ensure_future(ask())]
            await asyncio.shield(asking[0])
        return installed

    async def ask() -> None:
        await pool.start()
        installed[:] = await pool.run(bodies.installed_backends, (), seconds=60)

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # type: ignore[no-untyped-def]
        await pool.start()  # again after a shutdown: the same app may be served again
        await engines()
        yield
        await pool.close()

    app = FastAPI(title="exactmines", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,  # their pages load scripts from a CDN
                  description="Exact Minesweeper analysis over HTTP: the page's API. "
                              "Errors are {\"error\": \"one line\"}: 400 bad input, 403 "
                              "another site's page or host, 404 unknown game or path, 413 "
                              "body too large, 500 an engine failure, 501 an engine not "
                              "installed, 503 busy (with Retry-After). Past its time limit "
                              "an analysis answers 200 with parts not computed.")
    app.state.settings = settings
    app.state.store = store
    app.state.pool = pool

    async def run(job: Callable[..., T], args: tuple[Any, ...], seconds: float,
                  stopped: str) -> T:
        """``job(*args)`` in a worker, stopped after ``seconds``: work with no partial
        answer, so a stop is an :class:`OutOfTime` (500) saying ``stopped`` (a format with
        ``{seconds}``)."""
        await engines()
        try:
            return await pool.run(job, args, seconds=seconds)
        except Overtime:
            raise OutOfTime(stopped.format(seconds=f"{seconds:.3g}")) from None

    def time_limit(value: float | None) -> float:
        if value is None:
            return settings.time_limit
        if not value > 0:
            raise ParameterError("time_limit", value, "must be more than 0 s")
        if value > settings.max_time_limit:
            raise ParameterError("time_limit", value,
                                 f"at most {settings.max_time_limit:g} s on this server")
        return value

    async def analyze_request(request: Request) -> tuple[bodies.Request, int]:
        """The request's position, engine and limit, and its covered cells (roughly)."""
        raw = await request.body()
        if request.headers.get("content-type", "").startswith("application/json"):
            try:
                body = AnalyzeRequest.model_validate_json(raw)
            except ValidationError as exc:
                raise BadBody(_one_line(exc)) from None
        else:  # a plain .mine file, options in the query
            text = decode_text(raw, "input")
            query = request.query_params
            try:
                limit = float(query["time_limit"]) if "time_limit" in query else None
            except ValueError:
                raise ParameterError("time_limit", repr(query["time_limit"]),
                                     "not a number") from None
            body = AnalyzeRequest(text=text, grid=None, mines=None,
                                  backend=query.get("backend", "auto"), time_limit=limit,
                                  flagged=[], grouped=False, topology="square")
        registered(body.backend)  # an unknown engine is refused before any work
        limit = time_limit(body.time_limit)
        size = _size_of(body.text, body.grid)
        if size is not None:
            width, height = size
            if max(width, height) > settings.max_position_side \
                    or width * height > settings.max_cells:
                raise TooBig(f"a {width}x{height} position is larger than this server "
                             f"analyses: at most {plural(settings.max_cells, 'cell', fmt=',')} and "
                             f"{settings.max_position_side} a side")
        return (body.text, body.grid, body.mines, body.backend, limit, tuple(body.flagged),
                body.grouped, body.topology), _covered(raw)

    async def analysis(request: Request, overlay: bool) -> Response:
        """An analysis (or the overlay) in a worker; a worker stopped past the limit gives
        the answer that nothing was computed, made on the worker that replaces it."""
        data, covered = await analyze_request(request)
        await engines()
        limit = data[4]
        allowance = settings.grace + settings.per_cell * covered
        seconds = limit + allowance
        job = bodies.overlay_body if overlay else bodies.analysis_body
        # Linear work (read the position, write every cell unknown): given room enough for
        # a loaded machine, it only ever fails on a worker that cannot run at all.
        fallback = (bodies.unanswered_body, (data, overlay, seconds),
                    10.0 + 2 * settings.per_cell * covered)
        try:
            body = await pool.run(job, (data,), seconds=seconds, fallback=fallback)
        except Overtime:
            raise OutOfTime(f"the analysis was stopped, and not even its position was read "
                            f"within {fallback[2]:.3g} s after") from None
        if len(body) > settings.max_reply:
            raise TooBig(f"the answer is {plural(len(body), 'byte', fmt=',')}, more than the "
                         f"{settings.max_reply:,} this server sends"
                         + ("; ask for \"grouped\": true" if overlay and not data[6] else ""))
        return _json(body)

    # -- errors: one line each, the status of the error's class ---------------------------

    @app.exception_handler(ExactminesError)
    async def _refused(_: Request, exc: ExactminesError) -> JSONResponse:
        return _error(type(exc).http_status, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _bad_body(_: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(400, _one_line(exc))

    @app.exception_handler(BadBody)
    async def _bad_shape(_: Request, exc: BadBody) -> JSONResponse:
        return _error(400, str(exc))

    @app.exception_handler(TooBig)
    async def _too_big(_: Request, exc: TooBig) -> JSONResponse:
        return _error(413, str(exc))

    @app.exception_handler(UnknownGame)
    async def _no_game(_: Request, exc: UnknownGame) -> JSONResponse:
        return _error(404, f"no game {exc.args[0]!r} (games are kept in memory, the last "
                           f"{settings.games} only): start a new one")

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 404:
            message = f"no such page: {request.method} {request.url.path}"
        elif exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow", "")
            message = (f"method {request.method} not allowed on {request.url.path}"
                       + (f" (use {allowed})" if allowed else ""))
        else:
            message = str(exc.detail)
        return _error(exc.status_code, message, exc.headers)

    @app.exception_handler(Busy)
    async def _busy(_: Request, exc: Busy) -> JSONResponse:
        return _error(503, str(exc), {"Retry-After": str(exc.retry_after)})

    @app.exception_handler(ShuttingDown)
    async def _stopping(_: Request, exc: ShuttingDown) -> JSONResponse:
        return _error(503, "the server is stopping", {"Connection": "close"})

    @app.exception_handler(JobCrashed)
    async def _crashed(_: Request, exc: JobCrashed) -> JSONResponse:
        return _error(500, f"internal error: {exc}")

    @app.exception_handler(Exception)
    async def _bug(_: Request, exc: Exception) -> JSONResponse:
        # A bug, not bad input: still one line and no traceback to the client.
        return _error(500, f"internal error: {type(exc).__name__}: {exc}")

    app.add_middleware(BodyLimit, limit=settings.max_body)  # type: ignore[arg-type]
    app.add_middleware(SameHost, hosts=settings.hosts)  # type: ignore[arg-type]

    # -- page -------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    # -- analysis ---------------------------------------------------------------------

    @app.get("/api/health", summary="Liveness, version, the engines installed, limits and "
                                    "the workers")
    async def health() -> dict[str, Any]:
        status = pool.status()
        return {"status": "ok", "version": __version__, "backends": await engines(),
                "time_limit": settings.time_limit, "max_time_limit": settings.max_time_limit,
                "max_body": settings.max_body, "max_side": MAX_SIDE,
                "max_cells": settings.max_cells,
                "max_position_side": settings.max_position_side,
                "busy": status["busy"] + status["waiting"],
                "workers": {**status, "max": settings.pool.workers,
                            "queue": settings.pool.queue}}

    analyze_body = {"requestBody": {"content": {
        "application/json": {"schema": AnalyzeRequest.model_json_schema()},
        "text/plain": {"schema": {"type": "string", "description":
                                  ".mine text; backend and time_limit in the query"}}},
        "required": True}}

    @app.post("/api/analyze", openapi_extra=analyze_body,
              summary="Exact analysis: the JSON of `exactmines analyze --format json`")
    async def analyze_endpoint(request: Request) -> Response:
        return await analysis(request, overlay=False)

    @app.post("/api/overlay", openapi_extra=analyze_body,
              summary="What the page draws: the analysis, the player's recommended click "
                      "with its reason, the best guesses, dead cells, 50/50s, the endgame's "
                      "win probability, and the clues at fault in an inconsistent position")
    async def overlay_endpoint(request: Request) -> Response:
        return await analysis(request, overlay=True)

    # -- files, in memory -------------------------------------------------------------

    @app.post("/api/import", summary="A .mbf, x/o, .mine file or a JSMinesweeper link -> "
                                     ".mine text")
    async def import_endpoint(body: ImportRequest) -> Response:
        size = len(body.data or "") + len(body.text or "")
        return _json(await run(bodies.import_body, (body.name, body.data, body.text),
                               settings.time_limit + settings.per_cell * size,
                               "the import was not finished within {seconds} s and was "
                               "stopped"))

    @app.post("/api/export", summary="A .mine position or board -> .mine, .mbf (base64), "
                                     "x/o text or a JSMinesweeper link")
    async def export_endpoint(body: ExportRequest) -> Response:
        return _json(await run(bodies.export_body, (body.text, body.to),
                               settings.time_limit + settings.per_cell * len(body.text),
                               "the export was not finished within {seconds} s and was "
                               "stopped"))

    # -- replays -----------------------------------------------------------------------

    @app.post("/api/replay", summary="A replay file judged: every click with its exact "
                                     "chance and class, and the board before each")
    async def replay_endpoint(body: ReplayRequest) -> Response:
        limit = time_limit(body.time_limit)
        args = (body.name, body.data, body.trust_flags)
        # Reading the file and writing the board before each of its events grow with it.
        allowance = settings.grace + settings.per_cell * len(body.data)
        seconds = limit + allowance
        fallback = (bodies.unjudged_replay_body, (*args, seconds), 10.0 + 2 * allowance)
        await engines()
        try:
            return _json(await pool.run(bodies.replay_body, (*args, limit), seconds=seconds,
                                        fallback=fallback))
        except Overtime:
            raise OutOfTime(f"the replay was stopped, and not even read again within "
                            f"{fallback[2]:.3g} s after") from None

    # -- play -------------------------------------------------------------------------

    def game_seconds(cells: int) -> float:
        # A move may analyse more than once (each click's risk, then the player's search),
        # each within the game's time limit.
        return 2 * settings.time_limit + settings.grace + settings.per_cell * cells

    @app.post("/api/games", summary="A new game (dealt at its first click)")
    async def new_game(body: NewGameRequest) -> Response:
        game_id = store.new_id()
        seed = body.seed if body.seed is not None else secrets.randbits(32)
        # Time for the sizes a game can have: the worker refuses others in one line (sides
        # of 10^320 cells overflowed the float of the time allowed, negative ones made it
        # negative: both were 500s).
        cells = len(body.board or "") or max(0, min(body.width * body.height,
                                                    MAX_SIDE * MAX_SIDE))
        state, answer = await run(
            bodies.new_game, (game_id, body.width, body.height, body.mines, body.rule, seed,
                            body.noguess, body.board, settings.time_limit, body.topology),
            game_seconds(cells), "the new game was not made within {seconds} s and was stopped")
        store.add(game_id, state)
        return _json(answer)

    async def on_game(game_id: str, method: str, *args: Any) -> Response:
        """``WebGame.method(*args)`` on the game, in a worker, one move at a time."""
        game = store.get(game_id)
        async with game.lock:
            state, answer = await run(bodies.play, (game.state, game_id, method, args),
                                      game_seconds(len(game.state)),
                                      "the move was not finished within {seconds} s and was "
                                      "stopped; the game is as it was before it")
            if state is not None:
                game.state = state
        return _json(answer)

    @app.get("/api/games/{game_id}", summary="The game as the player sees it")
    async def game_state(game_id: str) -> Response:
        return await on_game(game_id, "to_dict")

    @app.post("/api/games/{game_id}/reveal", summary="Click a cell (zeros flood)")
    async def reveal(game_id: str, body: CellRequest) -> Response:
        return await on_game(game_id, "reveal", (body.row, body.col))

    @app.post("/api/games/{game_id}/chord", summary="Click a revealed number whose flags "
                                                     "are all placed: open its other "
                                                     "neighbours (a wrong flag loses)")
    async def chord(game_id: str, body: CellRequest) -> Response:
        return await on_game(game_id, "chord", (body.row, body.col))

    @app.post("/api/games/{game_id}/flag", summary="Put or take away a flag")
    async def flag(game_id: str, body: CellRequest) -> Response:
        return await on_game(game_id, "flag", (body.row, body.col))

    @app.post("/api/games/{game_id}/hint", summary="The player's next move, not played")
    async def hint(game_id: str) -> Response:
        return await on_game(game_id, "hint")

    @app.post("/api/games/{game_id}/step", summary="Play the player's next move")
    async def step(game_id: str) -> Response:
        return await on_game(game_id, "step")

    return app
