"""``/api/replay``: a recorded game judged click by click."""

from __future__ import annotations

from fastapi import APIRouter, Response

from exactmines.errors import OutOfTime
from exactmines.ui.web import bodies
from exactmines.ui.web.models import ReplayReply, ReplayRequest
from exactmines.ui.web.routes.analysis import json_response
from exactmines.ui.web.service import Server
from exactmines.ui.web.workers import Overtime

__all__ = ["router"]

router = APIRouter()


@router.post("/api/replay", response_model=ReplayReply,
             summary="A replay file judged: every click with its exact "
                     "chance and class, and the board before each")
async def replay_endpoint(body: ReplayRequest, server: Server) -> Response:
    limit = server.time_limit(body.time_limit)
    args = (body.name, body.data, body.trust_flags)
    # Reading the file and writing the board before each of its events grow with it.
    settings = server.settings
    allowance = settings.grace + settings.per_cell * len(body.data)
    seconds = limit + allowance
    fallback = (bodies.unjudged_replay_body, (*args, seconds), 10.0 + 2 * allowance)
    await server.engines()
    try:
        return json_response(await server.pool.run(bodies.replay_body,
                                                   (*args, limit, body.efficiency),
                                                   seconds=seconds, fallback=fallback))
    except Overtime:
        raise OutOfTime(f"the replay was stopped, and not even read again within "
                        f"{fallback[2]:.3g} s after") from None
