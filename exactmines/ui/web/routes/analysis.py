"""``/api/health``, ``/api/analyze`` and ``/api/overlay``."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import ValidationError

from exactmines.analysis.backends import registered
from exactmines.errors import ParameterError
from exactmines.io.formats import declared_size, decode_text
from exactmines.ui.web import bodies
from exactmines.ui.web.games import MAX_SIDE, page_topologies
from exactmines.ui.web.handlers import BadBody, TooBig, one_line
from exactmines.ui.web.models import AnalysisReply, AnalyzeRequest, HealthReply, OverlayReply
from exactmines.ui.web.service import Server, Service
from exactmines.ui.web.workers import Overtime
from exactmines.version import __version__
from exactmines.words import plural

__all__ = ["router"]

router = APIRouter()


def json_response(body: bytes) -> Response:
    """A worker's JSON bytes, sent as they are (never parsed again on the event loop)."""
    return Response(body, media_type="application/json")


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


def _covered(raw: bytes) -> int:
    """Covered cells in a request's body, as near as counting their characters tells
    (the allowance for reading the position and writing its answer)."""
    return raw.count(b"H") + raw.count(b"M") + raw.count(b"?")


@router.get("/api/health", response_model=HealthReply,
            summary="Liveness, version, the engines installed, limits and "
                    "the workers")
async def health(server: Server) -> dict[str, Any]:
    settings = server.settings
    status = server.pool.status()
    return {"status": "ok", "version": __version__, "backends": await server.engines(),
            "time_limit": settings.time_limit, "max_time_limit": settings.max_time_limit,
            "max_body": settings.max_body, "max_side": MAX_SIDE,
            "max_cells": settings.max_cells,
            "max_position_side": settings.max_position_side,
            "topologies": page_topologies(),
            "busy": status["busy"] + status["waiting"],
            "workers": {**status, "max": settings.pool.workers,
                        "queue": settings.pool.queue}}


async def analyze_request(request: Request, server: Service) -> tuple[bodies.Request, int]:
    """The request's position, engine and limit, and its covered cells (roughly)."""
    raw = await request.body()
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            body = AnalyzeRequest.model_validate_json(raw)
        except ValidationError as exc:
            raise BadBody(one_line(exc)) from None
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
    limit = server.time_limit(body.time_limit)
    settings = server.settings
    size = _size_of(body.text, body.grid)
    if size is not None:
        width, height = size
        if max(width, height) > settings.max_position_side \
                or width * height > settings.max_cells:
            raise TooBig(f"a {width}x{height} position is larger than this server "
                         f"analyses: at most {plural(settings.max_cells, 'cell', fmt=',')} and "
                         f"{settings.max_position_side} a side")
    return bodies.Request(body.text, body.grid, body.mines, body.backend, limit,
                          tuple(body.flagged), body.grouped, body.topology), _covered(raw)


async def analysis(request: Request, server: Service, overlay: bool) -> Response:
    """An analysis (or the overlay) in a worker; a worker stopped past the limit gives
    the answer that nothing was computed, made by the server itself at once."""
    data, covered = await analyze_request(request, server)
    await server.engines()
    settings = server.settings
    allowance = settings.grace + settings.per_cell * covered
    seconds = data.time_limit + allowance
    job = bodies.overlay_body if overlay else bodies.analysis_body
    try:
        body = await server.pool.run(job, (data,), seconds=seconds)
    except Overtime:
        # The answer that nothing was computed, made here at once (reading a position
        # of at most max_cells and writing every cell unknown: a fraction of a second),
        # not on a new worker, which a loaded machine may take seconds to start: the
        # reply is 200 within about a second of the limit, never a 500 because the
        # position was not read again in time.
        body = await asyncio.to_thread(bodies.unanswered_body, data, overlay, seconds)
    if len(body) > settings.max_reply:
        raise TooBig(f"the answer is {plural(len(body), 'byte', fmt=',')}, more than the "
                     f"{settings.max_reply:,} this server sends"
                     + ("; ask for \"grouped\": true" if overlay and not data.grouped else ""))
    return json_response(body)


ANALYZE_BODY = {"requestBody": {"content": {
    "application/json": {"schema": AnalyzeRequest.model_json_schema()},
    "text/plain": {"schema": {"type": "string", "description":
                              ".mine text; backend and time_limit in the query"}}},
    "required": True}}


@router.post("/api/analyze", openapi_extra=ANALYZE_BODY, response_model=AnalysisReply,
             summary="Exact analysis: the JSON of `exactmines analyze --format json`")
async def analyze_endpoint(request: Request, server: Server) -> Response:
    return await analysis(request, server, overlay=False)


@router.post("/api/overlay", openapi_extra=ANALYZE_BODY, response_model=OverlayReply,
             summary="What the page draws: the analysis, the player's recommended click "
                     "with its reason, the best guesses, dead cells, 50/50s, the endgame's "
                     "win probability, and the clues at fault in an inconsistent position")
async def overlay_endpoint(request: Request, server: Server) -> Response:
    return await analysis(request, server, overlay=True)
