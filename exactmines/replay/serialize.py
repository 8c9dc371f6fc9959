"""A judged replay as the JSON object of ``exactmines replay --format json`` (the contract
of docs/contract.md): exact probabilities as fraction strings; floats only for times, the
figures ms_toollib computes, and ``luck_log10``."""

from __future__ import annotations

from typing import Any

from exactmines.analysis.serialize import fraction_text
from exactmines.replay.efficiency import Efficiency
from exactmines.replay.judge import CLASSES, EARLY, UNDER_FLAG, Click, Judgement

__all__ = ["judgement_to_dict", "click_to_dict", "judgement_for_page"]


def click_to_dict(click: Click) -> dict[str, Any]:
    """One event: where and when, what it opened, and its judgement (``class`` ``null`` for
    a flag)."""
    return {
        "index": click.index, "time": click.time, "kind": click.kind,
        "cell": list(click.cell), "opens": [list(c) for c in click.opens],
        "class": click.judged, "probability": fraction_text(click.probability),
        "safest": fraction_text(click.safest), "excess": fraction_text(click.excess),
        "safe_cells": click.safe_cells, "mine": click.mine, "note": click.note,
        "reason": click.reason,
    }


def _at(click: Click | None, value: str) -> dict[str, Any] | None:
    if click is None:
        return None
    return {"index": click.index, "time": click.time,
            value: fraction_text(getattr(click, value))}


def judgement_to_dict(judged: Judgement, file: str | None = None,
                      efficiency: Efficiency | None = None) -> dict[str, Any]:
    """The game's JSON object (docs/contract.md §3, ``replay``); ``efficiency`` ``null``
    unless given (a won game's, :func:`~exactmines.replay.efficiency.game_efficiency`)."""
    replay = judged.replay
    board = replay.board
    figures = replay.figures
    # A lost game's 3BV/s is the whole board's 3BV over the time to the loss: no speed.
    speed = None if figures.bbbv_s is None or not judged.won else round(figures.bbbv_s, 6)
    out: dict[str, Any] = {}
    if file is not None:
        out["file"] = file
    out.update(
        format=replay.format, player=replay.player, software=replay.software,
        mode=replay.mode, width=board.width, height=board.height, mines=board.mines,
        won=judged.won, trust_flags=judged.trust_flags,
        clicks=len(judged.opening), flags=sum(c.kind == "right" for c in judged.clicks),
        classes={name: judged.count(name) for name in CLASSES},
        guesses=len(judged.guesses),
        forced_early=sum(c.reason == EARLY for c in judged.clicks),
        needless_under_flag=sum(c.reason == UNDER_FLAG for c in judged.clicks),
        luck=fraction_text(judged.luck), luck_log10=round(judged.luck_log10, 6),
        largest_excess=_at(judged.largest_excess, "excess"),
        riskiest=_at(judged.riskiest, "probability"),
        lost_at=_at(judged.lost_at, "probability"),
        ms_toollib={"reader": replay.reader, "bbbv": figures.bbbv, "time": figures.time,
                    "bbbv_s": speed,
                    "left": figures.left, "right": figures.right, "double": figures.double,
                    "completed": replay.completed},
        efficiency=None if efficiency is None else efficiency.to_dict(),
        backend=judged.backend, seconds=round(judged.seconds, 6), notes=list(judged.notes),
        events=[click_to_dict(c) for c in judged.clicks],
    )
    return out


def judgement_for_page(judged: Judgement, efficiency: Efficiency | None = None
                       ) -> dict[str, Any]:
    """What the web page steps through: :func:`judgement_to_dict` plus ``shown``, the rows
    the player saw before each event and, last, after the game (``F`` the player's flags),
    and ``board_mines``, the cells of the board's mines (a replay's game is over)."""
    out = judgement_to_dict(judged, efficiency=efficiency)
    rows = [list(click.before.rows) for click in judged.clicks]
    if judged.end is not None:
        rows.append(list(judged.end.rows))
    out["shown"] = rows
    out["board_mines"] = [list(cell) for cell in sorted(judged.replay.board.mine_cells)]
    return out
