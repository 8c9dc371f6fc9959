"""The ``exactmines`` command line: parse options, call one library function, render.

One error boundary (:func:`main`): an :class:`ExactminesError` becomes one line on stderr
and the exit code its class carries (the table in :mod:`exactmines.errors`: 2 bad input, 4
an engine failure, ...); nothing else here knows about exit codes but ``analyze``'s 3 for
an inconsistent position.

No ``from __future__ import annotations`` here: typer reads every command's parameters
each time the command line runs, and string annotations cost it an ``eval`` each (400 of
them, about 50 ms, before even ``--version`` could answer). Names imported only for typing
are quoted.
"""

# Importing a command's module registers it: in the order the help lists them.
# isort: off
from exactmines.ui.cli import analysis, solvability, play, batch, replay, zini  # noqa: F401
from exactmines.ui.cli import export, generation, serve  # noqa: F401
# isort: on
from exactmines.ui.cli.boundary import main
from exactmines.ui.cli.common import app

__all__ = ["app", "main"]
