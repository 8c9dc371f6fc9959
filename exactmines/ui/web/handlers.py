"""How the app answers what went wrong: ``{"error": "one line"}`` with the status of the
error's class (:mod:`exactmines.errors` for the library's, the worker pool's and the
server's own below)."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from exactmines.errors import ExactminesError
from exactmines.ui.web.store import UnknownGame
from exactmines.ui.web.workers import Busy, JobCrashed, ShuttingDown

__all__ = ["BadBody", "TooBig", "one_line", "install_handlers"]


class BadBody(Exception):
    """A request body that does not have the shape asked for (400, like bad input)."""


class TooBig(Exception):
    """A position larger than the server takes (413), refused before any work."""


def one_line(exc: ValidationError | RequestValidationError) -> str:
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


def install_handlers(app: FastAPI, games: int) -> None:
    """Every error of ``app`` answered in one line (``games``: how many games the server
    keeps, for the message of an unknown one)."""

    @app.exception_handler(ExactminesError)
    async def _refused(_: Request, exc: ExactminesError) -> JSONResponse:
        return _error(type(exc).http_status, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _bad_body(_: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(400, one_line(exc))

    @app.exception_handler(BadBody)
    async def _bad_shape(_: Request, exc: BadBody) -> JSONResponse:
        return _error(400, str(exc))

    @app.exception_handler(TooBig)
    async def _too_big(_: Request, exc: TooBig) -> JSONResponse:
        return _error(413, str(exc))

    @app.exception_handler(UnknownGame)
    async def _no_game(_: Request, exc: UnknownGame) -> JSONResponse:
        return _error(404, f"no game {exc.args[0]!r} (games are kept in memory, the last "
                           f"{games} only): start a new one")

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
