"""The ``exactmines`` command line: parse options, call one library function, render.

One error boundary (:func:`main`): an :class:`ExactminesError` becomes one line on stderr
and exit code 2; nothing else here knows about exit codes but ``analyze``'s 3 for an
inconsistent position.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console

from . import __version__
from .analysis import analyze
from .backends import backend_names, get_backend
from .errors import ExactminesError, InputError
from .files import read_position

__all__ = ["app", "main"]

app = typer.Typer(
    name="exactmines",
    help="Exact analysis of Minesweeper positions: probabilities as fractions, certain "
         "safe cells and mines, layout counts.",
    no_args_is_help=True,
    rich_markup_mode=None,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

EXIT_INCONSISTENT = 3


class OutputFormat(str, Enum):
    text = "text"
    json = "json"
    jsonl = "jsonl"


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


def _emit_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, separators=(", ", ": ")) + "\n")


def _console() -> Console:
    return Console(highlight=False, soft_wrap=True)


@app.command("analyze")
def analyze_command(
    files: Annotated[list[Path], typer.Argument(help="Position files (.mine).",
                                                show_default=False)],
    backend: Annotated[str, typer.Option(help=f"Engine: {', '.join(backend_names())}.")] = "auto",
    mines: Annotated[Optional[int], typer.Option(
        help="Total mine count (flags included); overrides the file's header.")] = None,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", help="Seconds for counting layouts per position; past it, verdicts "
                             "stay exact and probabilities are reported as not computed.")] = 30.0,
    output: Annotated[OutputFormat, typer.Option("--format", help="text, json or jsonl.")]
    = OutputFormat.text,
) -> None:
    """Exact probabilities, safe cells and mines of positions.

    Example: exactmines analyze instances/reference-9x9.mine --backend sat --format json
    """
    engine = get_backend(backend)
    if mines is not None and mines < 0:
        raise InputError(f"--mines {mines}: must be at least 0", source="command line")
    # Read everything first: a bad file stops the run before anything is printed.
    positions = []
    for path in files:
        position = read_position(path)
        if mines is not None:
            position = position.with_mines(mines)
            unrevealed = sum(ch in "HF" for row in position.rows for ch in row)
            flags = sum(row.count("F") for row in position.rows)
            if not flags <= mines <= unrevealed:
                raise InputError(f"--mines {mines}: this position needs between {flags} and "
                                 f"{unrevealed} mines", source=str(path))
        positions.append((str(path), position))

    from .report import analysis_to_dict, analysis_to_text

    results = []
    console = _console()
    for name, position in positions:
        result = analyze(position, backend=engine, time_limit=time_limit)
        results.append(result)
        if output is OutputFormat.jsonl:
            _emit_json(analysis_to_dict(result, name))
            sys.stdout.flush()
        elif output is OutputFormat.text:
            console.print(analysis_to_text(result, name))
            if len(positions) > 1:
                console.print()
    if output is OutputFormat.json:
        dicts = [analysis_to_dict(r, name) for r, (name, _) in zip(results, positions)]
        _emit_json(dicts[0] if len(dicts) == 1 else dicts)
    if any(not r.consistent for r in results):
        raise typer.Exit(EXIT_INCONSISTENT)


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning domain errors into one line and exit code 2.

    click itself reports usage errors (exit 2) and interrupts (exit 1 after "Aborted!").
    """
    try:
        app(args=argv, prog_name="exactmines")
    except ExactminesError as exc:
        sys.stderr.write(f"exactmines: error: {exc}\n")
        return exc.exit_code
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
