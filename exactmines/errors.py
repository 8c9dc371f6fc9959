"""The exceptions exactmines raises on purpose; everything else is a bug.

Each class carries what it means to the two boundaries that report it: ``exit_code`` for
the command line (``ui/cli/boundary.py``'s ``main``) and ``http_status`` for the web server
(its handlers answer ``{"error": "one line"}`` with that status). The table, which
docs/contract.md repeats and a test keeps equal:

=====================  ====  ====  ===============================================
class                  exit  HTTP  meaning
=====================  ====  ====  ===============================================
ExactminesError          2   400   base class: a refusal explained in one line
InputError               2   400   bad input, with the file (or field) and place
ParameterError           2   400   a value a function cannot take, by parameter
UnknownBackend           2   400   an engine name that is not registered
BackendUnavailable       2   501   a registered engine whose package is missing
OutputError              1   500   results could not be written
WorkerLost               1   500   a worker process died, or a cluster gave up
BudgetExceeded           4   500   a limit stopped the work and no caller turned
                                   it into "not computed" (OutOfTime, TooLarge)
SolverError              4   500   an engine or solver failed without an answer
ChildDied                4   500   a child process running external code died
                                   (a SolverError)
=====================  ====  ====  ===============================================

An inconsistent position is an answer, not an error: exit code
:data:`INCONSISTENT_EXIT_CODE` (3) from ``analyze``, HTTP 200 with the fault.
"""

from __future__ import annotations

import errno
from typing import Any

__all__ = [
    "INCONSISTENT_EXIT_CODE",
    "ExactminesError",
    "InputError",
    "ParameterError",
    "OutputError",
    "DEVICE_ERRNOS",
    "WorkerLost",
    "BackendUnavailable",
    "UnknownBackend",
    "BudgetExceeded",
    "OutOfTime",
    "TooLarge",
    "SolverError",
    "ChildDied",
]


#: ``analyze``'s exit code when a position is inconsistent (an answer: HTTP 200).
INCONSISTENT_EXIT_CODE = 3


def _rebuilt(cls: type[ExactminesError], args: tuple[Any, ...],
             state: dict[str, Any]) -> ExactminesError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class ExactminesError(Exception):
    """Base class: the command line turns any of these into one line on stderr and its
    ``exit_code``; the web server into ``{"error": ...}`` with its ``http_status``.

    Errors travel between processes (a worker's failure is reported by its parent) and
    come back equal: the message and every attribute, whatever the subclass's
    constructor takes."""

    exit_code = 2
    http_status = 400

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuilt, (type(self), self.args, dict(self.__dict__)))


class InputError(ExactminesError):
    """Malformed input, with the place it was found.

    ``str(error)`` reads ``FILE:LINE:COL: message`` (line and column are 1-based and
    omitted when unknown), the form editors and compilers use.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str = "<input>",
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        place = source
        if line is not None:
            place += f":{line}"
            if column is not None:
                place += f":{column}"
        super().__init__(f"{place}: {message}")


class ParameterError(InputError):
    """A value a function cannot take, named by its parameter (``mines``, ``count``, ``at``).

    ``str(error)`` reads ``mines 120: must be between 0 and 81``; the command line shows the
    option that set the parameter instead (``--mines 120: ...``), so the library never needs
    to know its flags. ``value`` is ``None`` when the parameter was missing.
    """

    def __init__(self, parameter: str, value: object, message: str) -> None:
        self.parameter = parameter
        self.value = value
        self.detail = message
        super().__init__(message, source=parameter)
        self.args = (self.shown(parameter),)

    def shown(self, name: str) -> str:
        """The error with the parameter called ``name`` (a flag such as ``--mines``)."""
        value = self.value
        if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
            value = ",".join(str(v) for v in value)  # a cell: ROW,COL
        return f"{name}{'' if value is None else f' {value}'}: {self.detail}"


class OutputError(ExactminesError):
    """Results could not be written (disk full, a closed pipe, a write refused mid-run): not
    the input's fault, so not exit code 2. What was written before stays valid."""

    exit_code = 1
    http_status = 500


#: ``errno`` values that mean the device refused the data (full, over quota, a file size
#: limit, an I/O error): an :class:`OutputError`, where other refusals of a path are the
#: user's input (a directory, no permission) and so an :class:`InputError`.
DEVICE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


class WorkerLost(ExactminesError):
    """A worker process died (killed, out of memory) or a cluster gave up on a task: the run
    stops, not the input's fault (exit code 1). The rows finished before stay in the results
    file and a resumed run does the rest."""

    exit_code = 1
    http_status = 500


class BackendUnavailable(ExactminesError):
    """A registered backend whose package is not installed: the message says what to
    install. Usage, not a failure (exit 2); the server does not implement it (501)."""

    http_status = 501


class UnknownBackend(BackendUnavailable):
    """A backend name that is not registered: bad input (exit 2, HTTP 400). A kind of
    :class:`BackendUnavailable`, so one ``except`` catches every engine that cannot be
    had."""

    http_status = 400


class BudgetExceeded(ExactminesError):
    """Work stopped at a limit it was given. Not an answer and never read as one: callers
    report "not computed" or try another method. Catch this to handle every kind of limit.
    One that reaches a boundary is reported like an engine failure (exit 4, HTTP 500),
    never as bad input."""

    exit_code = 4
    http_status = 500


class OutOfTime(BudgetExceeded):
    """The deadline passed (``--time-limit``, a request's time limit, a player's search time)."""


class TooLarge(BudgetExceeded):
    """The problem is larger than this method accepts (a counting table too wide, more
    layouts than a listing may hold, more search nodes than allowed); another method, or the
    same one with a larger budget, may still answer it."""


class SolverError(ExactminesError):
    """An external solver failed or stopped without a proven answer; never read as one.
    Not the input's fault: exit code 4, HTTP 500."""

    exit_code = 4
    http_status = 500


class ChildDied(SolverError):
    """A child process running external code (:mod:`exactmines.child`) ended without an
    answer: killed by a signal, or an abort inside a library (ms_toollib stops the whole
    process on some damaged files, a solver may crash). Callers that know what the child
    was reading turn it into an :class:`InputError`; one that reaches a boundary is an
    engine's failure, a :class:`SolverError`."""
