"""What every command shares: the app, JSON and console output, long-job checks, cells
and topologies read from options."""

import importlib
import json
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
import typer.core
import typer.main

from exactmines.errors import InputError
from exactmines.version import __version__

if TYPE_CHECKING:
    from rich.console import Console

    from exactmines.io.files import TopologySpec
    from exactmines.position import Position
    from exactmines.topology import Topology

#: The command table: each command's name and the module of this package that defines it,
#: in the order the help lists them. A command's module is imported, and its command built,
#: when the command line names it: ``exactmines --version`` builds none, ``exactmines
#: analyze`` one. A new command is one line here and a function in its module.
COMMANDS = {
    "analyze": "analysis",
    "solvable": "solvability",
    "survey": "play",
    "play": "play",
    "batch": "batch",
    "replay": "replay",
    "zini": "zini",
    "export": "export",
    "convert": "export",
    "instances": "export",
    "generate": "generation",
    "serve": "serve",
}


def load_commands() -> None:
    """Import every command's module: each registers its commands on :data:`app`."""
    for module in dict.fromkeys(COMMANDS.values()):
        importlib.import_module(f"exactmines.ui.cli.{module}")


class CommandTable(typer.core.TyperGroup):
    """The top-level group: lists :data:`COMMANDS` and builds a command on first use."""

    def list_commands(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        return list(COMMANDS)

    def get_command(self, ctx: typer.Context, cmd_name: str):  # type: ignore[no-untyped-def,override]
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(f"exactmines.ui.cli.{COMMANDS[cmd_name]}")
            info = next(c for c in app.registered_commands if c.name == cmd_name)
            self.add_command(typer.main.get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode), cmd_name)
        return super().get_command(ctx, cmd_name)


app = typer.Typer(
    name="exactmines",
    cls=CommandTable,
    help="Exact analysis of Minesweeper positions: probabilities as fractions, certain "
         "safe cells and mines, layout counts.",
    no_args_is_help=True,
    rich_markup_mode=None,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"exactmines {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Exact Minesweeper analysis."""


def _json_text(value: Any) -> str:
    """``value`` as the commands write JSON (one line, a space after each separator)."""
    return json.dumps(value, separators=(", ", ": "))


def _emit_json(value: Any) -> None:
    sys.stdout.write(_json_text(value) + "\n")


def _console() -> "Console":
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


# What a command needs is imported when it runs, not when the command line starts:
# ``exactmines --version`` or ``-h`` loads no analysis, no file readers and no rich.


def read_position(path: str | Path) -> "Position":
    """:func:`exactmines.io.files.read_position`, imported on first use."""
    from exactmines.io.files import read_position as read

    return read(path)


def _interrupt_status(exc: KeyboardInterrupt) -> int:
    """Exit status of a run stopped by a signal: 128 + its number (130 for Ctrl-C, 143 for
    SIGTERM, which the runner raises as runner.Interrupted)."""
    return 128 + getattr(exc, "signum", signal.SIGINT)


def _check_long_job(out: Path | None, resume: bool, workers: int | None,
                    plot: Path | None) -> None:
    """What survey, play and batch check before any work: the workers, --resume with
    --out, the picture's name."""
    if workers is not None and workers < 1:
        raise InputError(f"--workers {workers}: must be at least 1", source="command line")
    if resume and out is None:
        raise InputError("--resume needs --out FILE", source="command line")
    if out is not None:
        from exactmines.io.files import check_folder

        check_folder(out)
    if plot is not None:
        from exactmines.ui.pictures import check_image_path

        check_image_path(plot, "--plot")


@contextmanager
def _interrupted(things: str, out: Path | None) -> Iterator[None]:
    """The one way survey, play and batch end when interrupted (Ctrl-C, or SIGTERM, which
    the runner turns into an interrupt): one line saying the finished ``things`` are kept
    in ``out`` for --resume, and exit 130 (143 for SIGTERM)."""
    try:
        yield
    except KeyboardInterrupt as exc:
        kept = f"; finished {things} are kept in {out}, --resume continues" if out else ""
        sys.stderr.write(f"exactmines: interrupted{kept}\n")
        raise typer.Exit(_interrupt_status(exc)) from None


def _parse_cell(text: str, option: str = "--at") -> tuple[int, int]:
    """``"ROW,COL"`` -> ``(row, col)``; anything else is an :class:`InputError`."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        if not all(p.strip().lstrip("-").isdigit() and p.strip().isascii() for p in parts):
            raise ValueError  # int() would read the digits of any script
        row, col = (int(p.strip()) for p in parts)
    except ValueError:
        raise InputError(f"{option} {text!r}: expected ROW,COL (0-based, e.g. 3,3)",
                         source="command line") from None
    return row, col


def _cell_on(text: str, topology: "Topology", option: str = "--at") -> tuple[int, int]:
    """A cell as the topology writes it: ``ROW,COL``; ``LAYER,ROW,COL`` on a cube; a
    node's name on a graph. Anything else is an :class:`InputError`."""
    if topology.is_square:
        return _parse_cell(text, option)
    written = [text] if topology.kind == "graph" else [p.strip() for p in text.split(",")]
    try:
        return topology.cell_at(written)
    except ValueError as exc:
        raise InputError(f"{option} {text!r}: {exc}", source="command line") from None



def _topology_of(topology: str, width: Optional[int], height: Optional[int], layers: int,
                 graph: Optional[Path]) -> "tuple[TopologySpec, int, int, Topology]":
    """The ``--topology`` / ``--layers`` / ``--graph`` options of survey, play and
    generate, the one place that reads them: the settings' topology, the width and height
    the settings take (a graph's node count and 1), and the topology on them."""
    from exactmines.io.files import TopologySpec

    if graph is not None:
        if topology not in ("square", "graph"):
            raise InputError(f"--graph goes with --topology graph, not {topology}",
                             source="command line")
        spec = TopologySpec("graph", layers, str(graph))
        found = spec.build(1, 1)
        return spec, found.width, found.height, found
    if topology == "graph":
        raise InputError("--topology graph needs --graph FILE (node-link JSON, GraphML or an "
                         "edge list)", source="command line")
    missing = [name for name, value in (("--width", width), ("--height", height))
               if value is None]
    if missing:
        raise InputError(f"missing option {' and '.join(missing)}", source="command line")
    assert width is not None and height is not None
    spec = TopologySpec(topology, layers)
    return spec, width, height, spec.build(width, height)
