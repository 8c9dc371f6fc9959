"""The exceptions exactmines raises on purpose; everything else is a bug."""

from __future__ import annotations

import errno

__all__ = [
    "ExactminesError",
    "InputError",
    "ParameterError",
    "OutputError",
    "DEVICE_ERRNOS",
    "WorkerLost",
    "BackendUnavailable",
    "BudgetExceeded",
    "OutOfTime",
    "TooLarge",
    "SolverError",
    "ChildDied",
]


class ExactminesError(Exception):
    """Base class: the command line turns any of these into one line on stderr."""

    exit_code = 2


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


#: ``errno`` values that mean the device refused the data (full, over quota, a file size
#: limit, an I/O error): an :class:`OutputError`, where other refusals of a path are the
#: user's input (a directory, no permission) and so an :class:`InputError`.
DEVICE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


class WorkerLost(ExactminesError):
    """A worker process died (killed, out of memory) or a cluster gave up on a task: the run
    stops, not the input's fault (exit code 1). The rows finished before stay in the results
    file and a resumed run does the rest."""

    exit_code = 1


class BackendUnavailable(ExactminesError):
    """A backend was asked for whose package is not installed, or whose name is unknown."""


class BudgetExceeded(ExactminesError):
    """Work stopped at a limit it was given. Not an answer and never read as one: callers
    report "not computed" or try another method. Catch this to handle every kind of limit."""


class OutOfTime(BudgetExceeded):
    """The deadline passed (``--time-limit``, a request's time limit, a player's search time)."""


class TooLarge(BudgetExceeded):
    """The problem is larger than this method accepts (a counting table too wide, more
    layouts than a listing may hold, more search nodes than allowed); another method, or the
    same one with a larger budget, may still answer it."""


class SolverError(ExactminesError):
    """An external solver failed or stopped without a proven answer; never read as one."""


class ChildDied(ExactminesError):
    """A child process running external code ended without an answer: killed by a signal, or
    an abort inside a library (ms_toollib stops the whole process on some damaged files).
    Callers that know what the child was reading turn it into an :class:`InputError`."""

    exit_code = 1
