"""``/api/games``: games played on the server, one move at a time (their state pickled in
the app's game store, each move made in a worker)."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Response

from exactmines.ui.web import bodies
from exactmines.ui.web.games import MAX_SIDE
from exactmines.ui.web.models import CellRequest, GameReply, NewGameRequest
from exactmines.ui.web.routes.analysis import json_response
from exactmines.ui.web.service import Server, Service

__all__ = ["router"]

router = APIRouter()


@router.post("/api/games", response_model=GameReply,
             summary="A new game (dealt at its first click)")
async def new_game(body: NewGameRequest, server: Server) -> Response:
    game_id = server.store.new_id()
    seed = body.seed if body.seed is not None else secrets.randbits(32)
    # Time for the sizes a game can have: the worker refuses others in one line (sides
    # of 10^320 cells overflowed the float of the time allowed, negative ones made it
    # negative: both were 500s).
    cells = len(body.board or "") or max(0, min(body.width * body.height,
                                                MAX_SIDE * MAX_SIDE))
    state, answer = await server.run(
        bodies.new_game, (game_id, body.width, body.height, body.mines, body.rule, seed,
                          body.noguess, body.board, server.settings.time_limit,
                          body.topology, body.noguess_method),
        server.game_seconds(cells), "the new game was not made within {seconds} s and was "
                                    "stopped")
    server.store.add(game_id, state)
    return json_response(answer)


async def on_game(server: Service, game_id: str, method: str, *args: Any) -> Response:
    """``WebGame.method(*args)`` on the game, in a worker, one move at a time."""
    game = server.store.get(game_id)
    async with game.lock:
        state, answer = await server.run(bodies.play, (game.state, game_id, method, args),
                                         server.game_seconds(len(game.state)),
                                         "the move was not finished within {seconds} s and "
                                         "was stopped; the game is as it was before it")
        if state is not None:
            game.state = state
    return json_response(answer)


@router.get("/api/games/{game_id}", response_model=GameReply,
             summary="The game as the player sees it")
async def game_state(game_id: str, server: Server) -> Response:
    return await on_game(server, game_id, "to_dict")


@router.post("/api/games/{game_id}/reveal", response_model=GameReply,
             summary="Click a cell (zeros flood)")
async def reveal(game_id: str, body: CellRequest,
                 server: Server) -> Response:
    return await on_game(server, game_id, "reveal", (body.row, body.col))


@router.post("/api/games/{game_id}/chord", response_model=GameReply,
             summary="Click a revealed number whose flags "
                                                    "are all placed: open its other "
                                                    "neighbours (a wrong flag loses)")
async def chord(game_id: str, body: CellRequest, server: Server) -> Response:
    return await on_game(server, game_id, "chord", (body.row, body.col))


@router.post("/api/games/{game_id}/flag", response_model=GameReply,
             summary="Put or take away a flag")
async def flag(game_id: str, body: CellRequest, server: Server) -> Response:
    return await on_game(server, game_id, "flag", (body.row, body.col))


@router.post("/api/games/{game_id}/hint", response_model=GameReply,
             summary="The player's next move, not played")
async def hint(game_id: str, server: Server) -> Response:
    return await on_game(server, game_id, "hint")


@router.post("/api/games/{game_id}/step", response_model=GameReply,
             summary="Play the player's next move")
async def step(game_id: str, server: Server) -> Response:
    return await on_game(server, game_id, "step")
