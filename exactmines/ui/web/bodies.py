"""The response bodies the web server's worker processes compute (:mod:`exactmines.ui.web.workers`).

Each job is a plain function of the request's data -- strings, numbers, a game's pickled
state -- that returns the response body as JSON bytes (and a game's new state): the work,
the answer's objects and their encoding all stay in the worker, whose memory goes back to
the system when it is replaced, and the server's event loop only moves bytes. Errors are
raised as the library raises them (:mod:`exactmines.errors`); the server answers each with
its class's HTTP status.
"""

from __future__ import annotations

import json
import pickle
import time
from dataclasses import replace
from fractions import Fraction
from typing import Any, NamedTuple

from exactmines.analysis.analyze import Analysis, analyze, not_computed
from exactmines.analysis.backends import get_backend, installed_backend_names
from exactmines.analysis.fault import find_fault
from exactmines.analysis.serialize import (
    analysis_json,
    analysis_to_dict,
    fraction_text,
    shape_to_dict,
)
from exactmines.budget import Budget
from exactmines.errors import BudgetExceeded, InputError
from exactmines.io.formats import board_from_text
from exactmines.io.replays import Replay, parse_replay, replay_kind
from exactmines.play.advice import Advice, advise, recommendation_to_dict
from exactmines.play.shared import SharedCounts
from exactmines.position import Position
from exactmines.replay.judge import judge_replay
from exactmines.replay.serialize import judgement_for_page
from exactmines.topology import Topology
from exactmines.ui.web.games import WebGame
from exactmines.ui.web.inputs import EXPORT_KINDS, decode_base64, exported, imported_text
from exactmines.ui.web.inputs import position_from_input as read_position

__all__ = ["analysis_body", "overlay_body", "geometry", "unanswered_body", "import_body",
           "export_body", "replay_body", "unjudged_replay_body", "new_game", "play",
           "installed_backends", "json_bytes", "Request"]

class Request(NamedTuple):
    """An analysis request as the server hands it over (``/api/analyze`` and
    ``/api/overlay``): the position as ``.mine`` text or as a grid of rows (with its total
    ``mines`` and its ``topology``), the engine's name, the time limit in seconds, and for
    the overlay the cells a player flagged and whether the cells are grouped by value."""

    text: str | None
    grid: list[str] | None
    mines: int | None
    backend: str
    time_limit: float
    flagged: tuple[tuple[int, int], ...] = ()
    grouped: bool = False
    topology: str = "square"


def _position(request: Request) -> Position:
    """The request's position (its text, or its grid on its topology)."""
    return read_position(request.text, request.grid, request.mines, topology=request.topology)


def json_bytes(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON (what FastAPI's ``JSONResponse`` writes)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")).encode()


def installed_backends() -> list[str]:
    """The engines whose packages are installed (the page offers only these)."""
    return installed_backend_names()


# -- analysis ------------------------------------------------------------------------------


def analysis_body(request: Request) -> bytes:
    """``POST /api/analyze``: the JSON of ``analyze --format json`` (no ``"file"``)."""
    budget = Budget.seconds(request.time_limit)
    position = _position(request)
    return _analysis_bytes(analyze(position, backend=get_backend(request.backend), budget=budget))


def _analysis_bytes(result: Analysis) -> bytes:
    """The analysis's JSON as :func:`json_bytes` writes it, its cells written fast, with
    :func:`geometry` last."""
    text = analysis_json(result, separators=(",", ":"), ensure_ascii=False)
    extra = json.dumps(geometry(result.position.topology), ensure_ascii=False,
                       separators=(",", ":"))
    return f'{text[:-1]},"geometry":{extra}}}'.encode()


def geometry(topology: Topology) -> dict[str, Any]:
    """The reply's topology as one object (``"geometry"``, beside the shape keys of
    ``analyze --format json``, which existing clients read): its kind, the word a
    ``.mine`` header names it by, how a cell is drawn, which edges wrap, and its size as
    those keys give it (``height`` per layer on a cube; a graph's node count as its
    ``width``)."""
    keys = shape_to_dict(topology)
    shape = topology.shape
    return {"kind": topology.kind, "word": topology.word or topology.kind, "cell": shape.cell,
            "wraps": list(shape.wraps), "width": keys["width"], "height": keys["height"],
            "layers": keys.get("layers"), "nodes": keys.get("nodes")}


def overlay_body(request: Request) -> bytes:
    """``POST /api/overlay``: the analysis, the player's advice (the recommended click with
    its reason, at a guess the best guesses, dead cells, 50/50s and the endgame's odds:
    :func:`~exactmines.play.advice.advise`, never on a cell the player flagged), and the
    clues at fault in an inconsistent position.

    The analysis has the request's whole budget, as ``/api/analyze`` has: it counts what
    that endpoint counts in the same time (it returns as soon as every component is
    counted). The search for the faulty clues and the advice have what is left: without
    probabilities there is no advice to give, so nothing is lost when the analysis used it
    all; and the player's search is not started with less time left than the analysis took
    (:func:`~exactmines.play.advice.advise`), so that the advice never runs the work past
    its limit and loses the counts with it.
    """
    budget = Budget.seconds(request.time_limit)
    position = _position(request)
    engine = get_backend(request.backend)
    counts = SharedCounts()  # each component counted once, for the analysis and the advice
    result = analyze(position, backend=engine, budget=budget, cache=counts)
    out: dict[str, Any] = {"analysis": _analysis(result, request.grouped), "fault": None}
    if result.consistent is False:
        fault = find_fault(position, engine, budget=budget)
        out["fault"] = None if fault is None else fault.to_dict()
    # Whatever is left, however little: a position without probabilities is said so
    # before any search starts.
    out.update(advise(position, result, flagged=request.flagged, budget=budget,
                      counts=counts).to_dict())
    return json_bytes(out)


def _analysis(result: Analysis, grouped: bool) -> dict[str, Any]:
    """The analysis's JSON, its cells one object each or, ``grouped``, by value
    (``"cell_groups"``)."""
    out = analysis_to_dict(result, cells=not grouped)
    if grouped:
        out["cell_groups"] = cell_groups(result)
    out["geometry"] = geometry(result.position.topology)
    return out


def unanswered_body(request: Request, overlay: bool, seconds: float) -> bytes:
    """What ``/api/analyze`` (or ``/api/overlay``) answers for a request whose worker was
    stopped after ``seconds``: :func:`~exactmines.analysis.analyze.not_computed` (no
    frontier built: reading the position is all it costs), in the endpoint's shape."""
    note = (f"not computed: the work was stopped after {seconds:g} s (it did not end at "
            "its time limit); consistency, layouts and every verdict are unknown")
    result = not_computed(_position(request), request.backend, note)
    if not overlay:
        return _analysis_bytes(result)
    advice = Advice(None, "no recommendation: nothing was computed within the time limit")
    return json_bytes({"analysis": _analysis(result, request.grouped), "fault": None,
                       **advice.to_dict()})


def cell_groups(result: Analysis) -> list[dict[str, Any]]:
    """The analysis's covered cells grouped by value, for a page drawing a large board:
    ``{"probability", "verdict", "cells"}`` per distinct value, its cells as flat indices
    ``row * width + col`` (row-major), the groups in the order they first appear. Each
    fraction is written once (a 300x300 position's cells take 22 MB one by one, a few
    hundred KB grouped)."""
    # Read from the analysis' flat tables (no cell objects made), keyed by the value's
    # numerator and denominator: equal values share a group, and hashing two integers costs
    # a fraction of a Fraction's hash (a modular inverse of a denominator hundreds of
    # digits long). The cells of a box share one pair object, so its key is found once
    # (``known``: a cache of the keys, by the pairs the tables hold; groups are by value).
    pairs, covered = result.cells.flat_pairs()
    groups: dict[tuple[tuple[int, int] | None, str], list[int]] = {}
    known: dict[int, tuple[tuple[int, int] | None, str]] = {}
    for q in covered:
        pair = pairs[q]
        key = known.get(id(pair))
        if key is None:
            p, verdict = pair
            key = known[id(pair)] = (None if p is None else (p.numerator, p.denominator),
                                     verdict)
        groups.setdefault(key, []).append(q)
    return [{"probability": None if p is None else fraction_text(Fraction(*p)),
             "verdict": verdict, "cells": cells}
            for (p, verdict), cells in groups.items()]


# -- files, in memory ----------------------------------------------------------------------


def import_body(name: str, data: str | None, text: str | None) -> bytes:
    """``POST /api/import``: ``{"text": .mine text, "kind": format}``."""
    if (data is None) == (text is None):
        raise InputError("give either data (base64) or text", source="body")
    raw = decode_base64(data, name or "data") if data is not None else (text or "").encode()
    mine, kind = imported_text(name, raw)
    return json_bytes({"text": mine, "kind": kind})


def export_body(text: str, to: str) -> bytes:
    """``POST /api/export``: ``{"data", "encoding", "suffix"}``."""
    data, encoding = exported(text, to)
    return json_bytes({"data": data, "encoding": encoding, "suffix": EXPORT_KINDS[to]})


# -- replays ------------------------------------------------------------------------------


def _replay(name: str, data: str, budget: Budget) -> Replay:
    """The replay file ``name`` sent as base64 ``data``, read within ``budget``."""
    kind = replay_kind(name)
    if kind is None:
        raise InputError("not a replay: the name must end in .avf, .rmv, .evf or .mvf",
                         source=name or "name")
    return parse_replay(decode_base64(data, name), name, kind, budget=budget)


def replay_body(name: str, data: str, trust_flags: bool, limit: float,
                efficiency: bool = False) -> bytes:
    """``POST /api/replay``: the JSON of ``replay --format json`` plus what the page steps
    through (:func:`~exactmines.replay.serialize.judgement_for_page`). The time limit
    covers the reading and the judging, as a replay's does on the command line: clicks
    reached after it are ``not judged`` unless the rules prove them safe. With
    ``efficiency``, a won game's ZiNi gets what is left of it (``replay --efficiency``)."""
    from exactmines.replay.efficiency import game_efficiency

    budget = Budget.seconds(limit)
    replay = _replay(name, data, budget)
    judged = judge_replay(replay, trust_flags=trust_flags, budget=budget)
    found = game_efficiency(replay, budget=budget) if efficiency and judged.won else None
    return json_bytes(judgement_for_page(judged, found))


def unjudged_replay_body(name: str, data: str, trust_flags: bool, seconds: float) -> bytes:
    """What ``/api/replay`` answers for a request whose worker was stopped after
    ``seconds``: the replay read again and walked with no time left (the clicks the rules
    prove safe judged, the others ``not judged``), with a note saying why. Sound, like
    every "not computed" answer. Cost: reading the file and the rules' walk."""
    replay = _replay(name, data, Budget.seconds(seconds))
    judged = judge_replay(replay, trust_flags=trust_flags, budget=Budget(time.monotonic()))
    note = (f"the judging was stopped after {seconds:g} s (it did not end at its time "
            "limit): the clicks the rules do not prove safe are not judged")
    return json_bytes(judgement_for_page(replace(judged, notes=(*judged.notes, note))))


# -- games ---------------------------------------------------------------------------------


def new_game(game_id: str, width: int, height: int, mines: int, rule: str, seed: int,
             noguess: bool, board: str | None, time_limit: float,
             topology: str = "square", noguess_method: str = "auto") -> tuple[bytes, bytes]:
    """``POST /api/games``: the new game's state (pickled) and its JSON."""
    hidden = None if board is None else board_from_text(board, "board")
    game = WebGame(width, height, mines, rule, seed, noguess, hidden, time_limit, topology,
                   noguess_method)
    return pickle.dumps(game), json_bytes(game.to_dict(game_id))


def play(state: bytes, game_id: str, method: str, args: tuple[Any, ...]
         ) -> tuple[bytes | None, bytes]:
    """``game.method(*args)`` on the game pickled in ``state``: its new state (``None``
    when nothing changed) and the game's JSON, with ``"move"`` (and ``"note"``) when the
    method answers a move.

    A move the player's search could not choose within the game's time limit is no move,
    with a note saying so; the game is then unchanged.
    """
    game: WebGame = pickle.loads(state)
    extra: dict[str, Any] = {}
    changed = method != "to_dict"
    if changed:
        try:
            answer = getattr(game, method)(*args)
        except BudgetExceeded as exc:
            return None, json_bytes({**game.to_dict(game_id), "move": None,
                                     "note": f"no move: the player's search went past its "
                                             f"time limit ({exc})"})
        if method in ("hint", "step"):
            move, note = answer
            extra["move"] = None if move is None else recommendation_to_dict(move)
            extra["note"] = note
        elif isinstance(answer, dict):
            extra.update(answer)
    out = {**game.to_dict(game_id), **extra}
    return (pickle.dumps(game) if changed else None), json_bytes(out)
