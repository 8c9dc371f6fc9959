"""The ``exactmines`` command line: parse options, call one library function, render.

One error boundary (:func:`main`): an :class:`ExactminesError` becomes one line on stderr
and the exit code its class carries (the table in :mod:`exactmines.errors`: 2 bad input, 4
an engine failure, ...); nothing else here knows about exit codes but ``analyze``'s 3 for
an inconsistent position.

A module per group of commands (``analysis``, ``solvability``, ``play``, ``batch``,
``replay``, ``zini``, ``export``, ``generation``, ``serve``), options several commands share
declared once in ``options``, the app, its command table and the shared helpers in
``common``, the boundary in ``boundary``. The command table (``common.COMMANDS``) lets
:func:`main` import and build only the command it runs.

No ``from __future__ import annotations`` in these modules: typer reads a command's
parameters each time it runs, and string annotations would cost it an ``eval`` each (about
50 ms for the 400 of all the commands). Names imported only for typing are quoted.
"""

from typing import Any

from exactmines.ui.cli.boundary import main

__all__ = ["app", "main"]


def __getattr__(name: str) -> Any:
    """``app``: the typer application with every command registered (their modules are
    imported here; :func:`main` imports only the one it runs)."""
    if name == "app":
        from exactmines.ui.cli.common import app, load_commands

        load_commands()
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
