"""Work that :func:`exactmines.runner.run_batch` sends to processes or a Dask cluster.

Work functions live at module level so workers can import them; tasks and rows are small
JSON-able dicts (inputs travel, never solvers). A worker needs only ``exactmines``
installed, the same version as the client, and the files at the same paths.
"""

from __future__ import annotations

from typing import Any

from exactmines.analysis.analyze import analyze
from exactmines.analysis.serialize import analysis_to_dict
from exactmines.budget import Budget
from exactmines.errors import ExactminesError
from exactmines.io.files import files_named, read_position
from exactmines.runner import Row, Task, row_problem

__all__ = ["position_files", "analysis_tasks", "analyze_files", "check_row"]


def position_files(sources: list[str]) -> list[str]:
    """The ``.mine`` files named by ``sources`` (:func:`~exactmines.io.files.files_named`)."""
    return files_named(sources, (".mine",))


def analysis_tasks(files: list[str], backend: str, time_limit: float | None) -> list[Task]:
    """One task per file; its id is the path as given (resume matches on it).
    ``time_limit``: seconds per file (``None``: no limit), each file's budget made when
    its analysis starts."""
    return [{"id": name, "file": name, "backend": backend, "time_limit": time_limit}
            for name in files]


def analyze_files(chunk: list[Task]) -> list[Row]:
    """Read and analyse each task's file: the ``analyze --format json`` object plus ``"id"``.

    A file that cannot be read or parsed gives ``{"id", "file", "error"}`` with the same
    one-line message ``analyze`` prints, and the run goes on. Anything else propagates:
    it is a bug, and the rows written so far stay on disk for ``--resume``.
    """
    rows: list[Row] = []
    for task in chunk:
        row: dict[str, Any]
        try:
            position = read_position(task["file"])
        except ExactminesError as exc:
            row = {"file": task["file"], "error": str(exc)}
        else:
            result = analyze(position, backend=task["backend"],
                             budget=Budget.seconds(task["time_limit"]))
            row = analysis_to_dict(result, task["file"])
        rows.append({"id": task["id"], **row})
    return rows


#: The fields of a row of :func:`analyze_files` that ``batch`` reads back on resume (its
#: summary), and their JSON types.
_ROW_FIELDS = {"consistent": (bool, type(None)), "unique": (bool, type(None)),
               "probabilities_computed": (bool,), "seconds": (float,)}


def check_row(row: Row) -> str | None:
    """What keeps a resumed ``batch`` from reading ``row`` (one line), or ``None``: a file's
    answer and an error row (``{"id", "file", "error"}``, retried) each have their fields."""
    if "error" in row:
        return row_problem(row, {"error": (str,)})
    return row_problem(row, _ROW_FIELDS, {"verdicts_complete": (bool,)})
