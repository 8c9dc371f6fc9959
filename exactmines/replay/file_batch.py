"""Many replay files through :func:`exactmines.runner.run_batch` (local processes or a
Dask cluster; results streamed to JSONL, resumable): tasks and rows are small JSON-able
dicts, as in :mod:`exactmines.analysis.file_batch`."""

from __future__ import annotations

from typing import Any

from exactmines.budget import Budget
from exactmines.errors import ExactminesError
from exactmines.io.files import files_named, read_replay
from exactmines.io.replays import REPLAY_SUFFIXES
from exactmines.replay.efficiency import game_efficiency
from exactmines.replay.judge import judge_replay
from exactmines.replay.serialize import judgement_to_dict
from exactmines.runner import Row, Task

__all__ = ["replay_files", "replay_tasks", "judge_files"]


def replay_files(sources: list[str]) -> list[str]:
    """The replay files named by ``sources`` (:func:`~exactmines.io.files.files_named`:
    a folder gives its ``.avf``, ``.rmv``, ``.evf`` and ``.mvf`` files)."""
    return files_named(sources, tuple(REPLAY_SUFFIXES))


def replay_tasks(files: list[str], *, trust_flags: bool, backend: str,
                 time_limit: float | None, efficiency: bool = False) -> list[Task]:
    """One task per file; its id is the path as given (resume matches on it).
    ``time_limit``: seconds per replay, ``None`` for no limit; ``efficiency``: also a won
    game's clicks against its board's exact ZiNi."""
    return [{"id": name, "file": name, "trust_flags": trust_flags, "backend": backend,
             "time_limit": time_limit, "efficiency": efficiency} for name in files]


def judge_files(chunk: list[Task]) -> list[Row]:
    """Read and judge each task's replay: the ``replay --format json`` object plus ``"id"``.

    A file that cannot be read, or whose clicks do not fit its board, gives ``{"id",
    "file", "error"}`` with the one-line message, and the run goes on. The time limit
    covers a file's reading and judging (the reading's child process is killed at it); with
    the task's ``efficiency``, a won game's exact ZiNi gets what is left of it.
    """
    rows: list[Row] = []
    for task in chunk:
        row: dict[str, Any]
        budget = Budget.seconds(task["time_limit"])  # the replay's, its reading included
        try:
            replay = read_replay(task["file"], budget=budget)
            judged = judge_replay(replay, trust_flags=task["trust_flags"],
                                  backend=task["backend"], budget=budget)
        except ExactminesError as exc:
            row = {"file": task["file"], "error": str(exc)}
        else:
            efficiency = (game_efficiency(replay, budget=budget)
                          if judged.won and task.get("efficiency") else None)
            row = judgement_to_dict(judged, task["file"], efficiency)
        rows.append({"id": task["id"], **row})
    return rows
