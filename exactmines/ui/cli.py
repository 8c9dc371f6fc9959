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

import json
import math
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from exactmines.analysis.backends import backend_names, get_backend
from exactmines.budget import Budget
from exactmines.errors import (
    DEVICE_ERRNOS,
    INCONSISTENT_EXIT_CODE,
    ExactminesError,
    InputError,
    OutputError,
    ParameterError,
    TooLarge,
)
from exactmines.ui.report import plural, shape_text, unique_text
from exactmines.version import __version__

if TYPE_CHECKING:
    from rich.console import Console

    from exactmines.analysis.analyze import Analysis
    from exactmines.analysis.backends import Backend
    from exactmines.position import Position
    from exactmines.topology import Topology

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


class OutputFormat(StrEnum):
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


def _console() -> "Console":
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


# What a command needs is imported when it runs, not when the command line starts:
# ``exactmines --version`` or ``-h`` loads no analysis, no file readers and no rich.


def read_position(path: str | Path) -> "Position":
    """:func:`exactmines.io.files.read_position`, imported on first use."""
    from exactmines.io.files import read_position as read

    return read(path)


def analyze(position: "Position", **options: Any) -> "Analysis":
    """:func:`exactmines.analysis.analyze.analyze`, imported on first use."""
    from exactmines.analysis.analyze import analyze as run

    return run(position, **options)


@app.command("analyze")
def analyze_command(
    # str, not Path: a link's "//" stays as given (Path would make it "/").
    files: Annotated[list[str], typer.Argument(
        help="Position files (.mine), or JSMinesweeper links (...?b=...&m=..., quoted): "
             "the board before its first click.", show_default=False)],
    backend: Annotated[str, typer.Option(help=f"Engine: {', '.join(backend_names())}.")] = "auto",
    mines: Annotated[Optional[int], typer.Option(
        help="Total mine count (flags included); overrides the file's header.")] = None,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", help="Seconds per position, more than 0 (inf: no limit), shared "
                             "by counting and then the safe/mine verdicts: past it "
                             "probabilities are reported as not computed, and a cell not "
                             "proved safe or a mine is unknown; the output says so.")] = 30.0,
    output: Annotated[OutputFormat, typer.Option("--format", help="text, json or jsonl.")]
    = OutputFormat.text,
    unique: Annotated[bool, typer.Option(
        "--unique", help="Only answer \"exactly one layout?\" with the --backend engine "
                         "(auto and sat stop at the second layout, never count: fast on big "
                         "positions). Undecided past --time-limit.")] = False,
    image: Annotated[Optional[Path], typer.Option(
        "--image", help="Also draw the position with its mine probabilities: .png, .svg or "
                        ".pdf (one position file; needs the plot extra).")] = None,
) -> None:
    """Exact probabilities, safe cells and mines of positions.

    Example: exactmines analyze instances/reference-9x9.mine --backend sat --format json

    Example: exactmines analyze position.mine --image position.png
    """
    engine = get_backend(backend)
    if mines is not None and mines < 0:
        raise InputError(f"--mines {mines}: must be at least 0", source="command line")
    # A limit of 0, or below, is refused before any work; one position's budget starts
    # here and covers reading it too (several: each from the start of its analysis).
    entry = Budget.seconds(time_limit)
    if image is not None:
        from exactmines.ui.pictures import check_image_path

        if len(files) != 1 or unique:
            raise InputError("--image draws one position: give one file and no --unique",
                             source="command line")
        check_image_path(image)  # before the work: a bad name or missing matplotlib fails fast
    # Read everything first: a bad file stops the run before anything is printed.
    positions = []
    for path in files:
        position = read_position(path)
        if mines is not None:
            position = position.with_mines(mines)
            unrevealed = sum(row.count("H") + row.count("F") for row in position.rows)
            flags = sum(row.count("F") for row in position.rows)
            if not flags <= mines <= unrevealed:
                raise InputError(f"--mines {mines}: this position needs between {flags} and "
                                 f"{plural(unrevealed, 'mine')}", source=str(path))
        positions.append((str(path), position))
    if unique:
        _unique_report(positions, output, engine, time_limit)
        return

    from exactmines.analysis.serialize import analysis_to_dict
    from exactmines.ui.report import analysis_to_text

    results = []
    console = _console()
    for name, position in positions:
        budget = entry if len(positions) == 1 else Budget.seconds(time_limit)
        result = analyze(position, backend=engine, budget=budget)
        results.append(result)
        if output is OutputFormat.jsonl:
            _emit_json(analysis_to_dict(result, name))
            sys.stdout.flush()
        elif output is OutputFormat.text:
            console.print(analysis_to_text(result, name))
            if len(positions) > 1:
                console.print()
    if output is OutputFormat.json:
        dicts = [analysis_to_dict(r, name) for r, (name, _) in zip(results, positions, strict=True)]
        _emit_json(dicts[0] if len(dicts) == 1 else dicts)
    if image is not None:
        from exactmines.ui.pictures import draw_analysis

        draw_analysis(results[0], image, file=positions[0][0])
        if output is OutputFormat.text:
            console.print(f"picture written to {image}")
    if any(r.consistent is False for r in results):
        raise typer.Exit(INCONSISTENT_EXIT_CODE)


def _unique_report(positions: "list[tuple[str, Position]]", output: OutputFormat,
                   engine: "Backend", time_limit: float) -> None:
    """``analyze --unique``: one answer per position from ``engine`` (the one ``--backend``
    names), ``null`` answers when it could not decide within ``time_limit`` seconds or its
    limits (a component too wide for the DP); exit 3 if any is inconsistent."""
    from exactmines.errors import BudgetExceeded
    from exactmines.solvability.check import is_unique

    answers = []
    for name, position in positions:
        try:
            found = is_unique(position, backend=engine,
                              budget=Budget.seconds(time_limit)).to_dict()
        except BudgetExceeded as exc:
            found = {"consistent": None, "unique": None,
                     "reason": f"not decided by {engine.name}: {exc}"}
        answer = {"file": name, "width": position.width, "height": position.height,
                  "mines": position.mines, **found, "backend": engine.name}
        answers.append(answer)
        if output is OutputFormat.jsonl:
            _emit_json(answer)
            sys.stdout.flush()
        elif output is OutputFormat.text:
            verdict = ("inconsistent" if answer["consistent"] is False
                       else unique_text(answer["unique"]))
            reason = f" ({answer['reason']})" if answer["reason"] else ""
            typer.echo(f"{name}: {verdict}{reason}")
    if output is OutputFormat.json:
        _emit_json(answers[0] if len(answers) == 1 else answers)
    if any(a["consistent"] is False for a in answers):
        raise typer.Exit(INCONSISTENT_EXIT_CODE)


class TextOrJson(StrEnum):
    text = "text"
    json = "json"


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


#: The board options of survey and play (generate's say which of its kinds take them).
TopologyOption = Annotated[str, typer.Option(
    "--topology", help="Board topology: square, torus, hex, triangle, cube (with --layers), "
                       "knight, offsets:DR,DC;DR,DC;... or graph (with --graph).")]
LayersOption = Annotated[int, typer.Option(help="cube: number of layers.")]
GraphOption = Annotated[Optional[Path], typer.Option(
    help="A graph file (node-link JSON, GraphML or .edges) whose graph the boards are dealt "
         "on; --width and --height are then not needed.")]


def _topology_of(topology: str, width: Optional[int], height: Optional[int], layers: int,
                 graph: Optional[Path]) -> "tuple[str, int, int, Topology]":
    """The ``--topology`` / ``--layers`` / ``--graph`` options of survey, play and
    generate: the topology's name, the width and height the settings take (a graph's node
    count and 1), and the topology."""
    from exactmines.io.files import board_topology

    if graph is not None:
        if topology not in ("square", "graph"):
            raise InputError(f"--graph goes with --topology graph, not {topology}",
                             source="command line")
        found = board_topology("graph", 1, 1, graph=str(graph))
        return "graph", found.width, found.height, found
    if topology == "graph":
        raise InputError("--topology graph needs --graph FILE (node-link JSON, GraphML or an "
                         "edge list)", source="command line")
    missing = [name for name, value in (("--width", width), ("--height", height))
               if value is None]
    if missing:
        raise InputError(f"missing option {' and '.join(missing)}", source="command line")
    assert width is not None and height is not None
    found = board_topology(topology, width, height, layers)
    return topology, width, height, found


@app.command("solvable")
def solvable_command(
    board: Annotated[str, typer.Argument(
        help="Hidden board: .mine with mines marked M, x/o text, .mbf, or a JSMinesweeper "
             "link (...?b=...&m=..., quoted).", show_default=False)],
    at: Annotated[Optional[str], typer.Option(
        "--at", help="First click ROW,COL (0-based) [default: the first click the file's "
                     "header names, as generate writes it].", show_default=False)] = None,
    no_count: Annotated[bool, typer.Option(
        "--no-count", help="Deduce without the total mine count.")] = False,
    stuck: Annotated[Optional[Path], typer.Option(
        "--stuck", help="When not solvable, write the position where deduction stops "
                        "(.mine).")] = None,
    backend: Annotated[str, typer.Option(
        help=f"Engine for components too big to enumerate: "
             f"{', '.join(backend_names())}.")] = "auto",
    output: Annotated[TextOrJson, typer.Option("--format", help="text or json.")]
    = TextOrJson.text,
) -> None:
    """Can the board be cleared from a first click by certain deductions alone?

    Complete: it fails only where no sound reasoning (numbers and, unless --no-count, the
    total mine count) proves any covered cell safe or a mine.

    Example: exactmines solvable board.mine --at 3,3 --format json
    """
    from exactmines.io.files import check_folder, read_board_and_click, write_position
    from exactmines.solvability.check import solvable

    if stuck is not None:
        check_folder(stuck)
    engine = get_backend(backend)
    hidden, noted = read_board_and_click(board)
    given = None if at is None else _cell_on(at, hidden.topology)
    cell = given or noted
    if cell is None:
        raise InputError("--at: give the first click ROW,COL (the file's header names none)",
                         source=str(board))
    result = solvable(hidden, cell, use_count=not no_count, backend=engine)
    if stuck is not None and result.stuck is not None:
        write_position(stuck, result.stuck,
                       comments=(f"stuck: {board} from first click {cell[0]},{cell[1]}",))
    if output is TextOrJson.json:
        from exactmines.analysis.serialize import shape_to_dict

        answer = result.to_dict()
        if not hidden.topology.is_square:
            answer["at"] = list(hidden.topology.coordinates(cell))
        _emit_json({"file": str(board), **shape_to_dict(hidden.topology),
                    "mines": hidden.mines, "use_count": not no_count, **answer})
        return
    from exactmines.ui.report import solvable_to_text

    written = None if stuck is None or result.stuck is None else str(stuck)
    typer.echo(solvable_to_text(result, str(board), hidden, cell, not no_count, written))


@app.command("survey")
def survey_command(
    mines: Annotated[int, typer.Option(help="Mines per board.", show_default=False)],
    boards: Annotated[int, typer.Option(help="How many boards.", show_default=False)],
    start: Annotated[str, typer.Option(
        help="First-click rule: random-zero, safe or opening.", show_default=False)],
    seed: Annotated[int, typer.Option(help="Run seed (board i gets its own seed from it).",
                                      show_default=False)],
    width: Annotated[Optional[int], typer.Option(help="Board width.", show_default=False)]
    = None,
    height: Annotated[Optional[int], typer.Option(
        help="Board height (a cube's: of each layer).", show_default=False)] = None,
    at: Annotated[Optional[str], typer.Option(
        "--at", help="First click ROW,COL for safe and opening (LAYER,ROW,COL on a cube, "
                     "a node's name on a graph).")] = None,
    topology: TopologyOption = "square",
    layers: LayersOption = 1,
    graph: GraphOption = None,
    no_count: Annotated[bool, typer.Option(
        "--no-count", help="Deduce without the total mine count.")] = False,
    workers: Annotated[int, typer.Option(help="Local worker processes.")] = 1,
    out: Annotated[Optional[Path], typer.Option(
        help="JSONL file: one row per board (seed, mines, first click, verdict), written as "
             "it goes.")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the run in --out, skipping boards already there.")] = False,
    scheduler: Annotated[Optional[str], typer.Option(
        help="Dask scheduler address (tcp://host:port) instead of local processes.")] = None,
    plot: Annotated[Optional[Path], typer.Option(
        "--plot", help="Also draw the solvable share with its 95 % interval: .png, .svg or "
                       ".pdf (needs the plot extra).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    output: Annotated[TextOrJson, typer.Option("--format", help="text or json.")]
    = TextOrJson.text,
) -> None:
    """What share of random boards can be cleared without guessing?

    Example: exactmines survey --width 8 --height 8 --mines 13 --boards 10000
    --start random-zero --seed 1 --workers 2
    """
    from exactmines.solvability.survey import SurveySettings, run_survey
    from exactmines.ui.report import survey_to_text

    _check_long_job(out, resume, workers, plot)
    name, width, height, shape = _topology_of(topology, width, height, layers, graph)
    settings = SurveySettings(width, height, mines, start,
                              None if at is None else _cell_on(at, shape), seed, not no_count,
                              name, layers, None if graph is None else str(graph))
    with _interrupted("boards", out):
        result = run_survey(settings, boards, out=None if out is None else str(out),
                            resume=resume, workers=workers, scheduler=scheduler,
                            progress=not quiet)
    summary = result.to_dict()
    if out is not None:
        summary["out"] = str(out)
    rule = start + ("" if at is None else f" at {at}")
    if plot is not None:
        from exactmines.ui.pictures import plot_rates

        rows = [{"label": f"{rule}, seed {seed}", "successes": result.solvable,
                 "trials": result.boards}]
        plot_rates(rows, plot, title=f"{shape_text(shape)}/{mines}: solvable without guessing"
                   + (", without the mine count" if no_count else ""),
                   xlabel="boards solvable", option="--plot")
    if output is TextOrJson.json:
        _emit_json(summary)
        return
    typer.echo(survey_to_text(result, None if out is None else str(out)))
    if plot is not None:
        typer.echo(f"picture written to {plot}")


@app.command("play")
def play_command(
    mines: Annotated[int, typer.Option(help="Mines per board.", show_default=False)],
    games: Annotated[int, typer.Option(help="How many games.", show_default=False)],
    start: Annotated[str, typer.Option(
        help="First-click rule: safe (SFAR), opening (SNR: no mine around it) or "
             "unprotected.", show_default=False)],
    at: Annotated[str, typer.Option("--at", help="First click ROW,COL (0-based; "
                                                 "LAYER,ROW,COL on a cube, a node's name "
                                                 "on a graph).", show_default=False)],
    seed: Annotated[int, typer.Option(help="Run seed (game i gets its own board seed from "
                                           "it).", show_default=False)],
    width: Annotated[Optional[int], typer.Option(help="Board width.", show_default=False)]
    = None,
    height: Annotated[Optional[int], typer.Option(
        help="Board height (a cube's: of each layer).", show_default=False)] = None,
    topology: TopologyOption = "square",
    layers: LayersOption = 1,
    graph: GraphOption = None,

    strategy: Annotated[str, typer.Option(
        help="best (every part) or safest (the safest cell, nothing else).")] = "best",
    without: Annotated[Optional[list[str]], typer.Option(
        "--without", metavar="PART", help="Switch a part of the strategy off (repeatable): "
                                          "secondary, dead, fifty, openings, endgame, risk.",
        show_default=False)] = None,
    tune: Annotated[Optional[list[str]], typer.Option(
        "--set", metavar="NAME=VALUE", help="Set a parameter of the strategy (repeatable): "
        "candidate_ratio, progress, risk_weight (fractions such as 9/10), endgame_layouts, "
        "endgame_nodes (whole numbers).", show_default=False)] = None,
    boards: Annotated[str, typer.Option(
        help="random (uniform under the first-click rule) or noguess (boards cleared "
             "without guessing from the first click: a perfect player wins them all).")]
    = "random",
    workers: Annotated[int, typer.Option(help="Local worker processes.")] = 1,
    out: Annotated[Optional[Path], typer.Option(
        help="JSONL file: one row per game (board seed, won, guesses, CPU ms), written as "
             "it goes.")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the run in --out, skipping games already there.")] = False,
    scheduler: Annotated[Optional[str], typer.Option(
        help="Dask scheduler address (tcp://host:port) instead of local processes.")] = None,
    plot: Annotated[Optional[Path], typer.Option(
        "--plot", help="Also draw the win rate with its 95 % interval next to the published "
                       "figure for these rules: .png, .svg or .pdf (needs the plot extra).")]
    = None,
    record: Annotated[Optional[Path], typer.Option(
        "--record", metavar="DIR", help="Also write every game there as a Metasweeper "
                                        "replay (.evf, through ms_toollib: needs the replay "
                                        "extra); the folder is made, in a folder that "
                                        "exists.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    output: Annotated[TextOrJson, typer.Option("--format", help="text or json.")]
    = TextOrJson.text,
) -> None:
    """Play whole games with the exact strategy and report the win rate.

    Deterministic: the same seed deals the same boards and the player uses no randomness,
    whatever --workers is.

    Example: exactmines play --width 30 --height 16 --mines 99 --games 1000 --start safe
    --at 0,0 --seed 1 --workers 2 --out expert.jsonl
    """
    from exactmines.play.games import PlaySettings, run_play
    from exactmines.ui.report import play_summary, play_to_text

    _check_long_job(out, resume, workers, plot)
    if record is not None:
        from exactmines.io.files import check_folder

        if record.exists() and not record.is_dir():
            raise InputError(f"--record {record}: exists and is not a directory",
                             source="command line")
        check_folder(record)  # the folder DIR is made in, before the work
    name, width, height, shape = _topology_of(topology, width, height, layers, graph)
    settings = PlaySettings(width, height, mines, start, _cell_on(at, shape), seed, strategy,
                            tuple(without or ()), tuple(tune or ()), name, layers,
                            None if graph is None else str(graph), boards)
    with _interrupted("games", out):
        result = run_play(settings, games, out=None if out is None else str(out),
                          resume=resume, workers=workers, scheduler=scheduler,
                          progress=not quiet, record=None if record is None else str(record))
    summary = play_summary(result, None if out is None else str(out))
    if plot is not None:
        from exactmines.ui.pictures import plot_rates

        published = summary["published"]
        rows = [{"label": f"{summary['strategy']}, seed {seed}", "successes": result.wins,
                 "trials": result.games,
                 "reference": None if published is None else published["win_rate"]}]
        plot_rates(rows, plot, title=f"{shape_text(shape)}/{mines}, {start} at {at}: win rate"
                   + ("" if published is None else f" (diamond: {published['source']})"),
                   xlabel="games won", option="--plot")
    if output is TextOrJson.json:
        _emit_json(summary)
        return
    typer.echo(play_to_text(summary))
    if plot is not None:
        typer.echo(f"picture written to {plot}")


@app.command("batch")
def batch_command(
    sources: Annotated[list[str], typer.Argument(
        metavar="DIR_OR_GLOB", help="Position files, directories (their *.mine files) or "
                                       "quoted glob patterns ('runs/**/*.mine').",
        show_default=False)],
    out: Annotated[Path, typer.Option(
        help="JSONL results: a meta line, then one analyze JSON object per file (with "
             "\"id\" = the path), written as each chunk finishes.", show_default=False)],
    backend: Annotated[str, typer.Option(help=f"Engine: {', '.join(backend_names())}.")] = "auto",
    time_limit: Annotated[float, typer.Option(
        "--time-limit", help="Seconds per position, as in analyze.")] = 30.0,
    workers: Annotated[Optional[int], typer.Option(
        help="Local worker processes [default: one per CPU core].", show_default=False)] = None,
    scheduler: Annotated[Optional[str], typer.Option(
        help="Dask scheduler address (tcp://host:port) instead of local processes; workers "
             "need exactmines installed and the files at the same paths.")] = None,
    chunk_size: Annotated[Optional[int], typer.Option(
        "--chunk-size", help="Positions per task [default: up to 32, fewer when there are "
                             "few files].", show_default=False)] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the run in --out: files already analysed there are "
                         "skipped, files that failed are tried again.")]
    = False,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No progress bar and no text summary.")] = False,
    output: Annotated[TextOrJson, typer.Option("--format", help="text or json (summary).")]
    = TextOrJson.text,
) -> None:
    """Analyse many positions on local processes or a Dask cluster, streaming to JSONL.

    A file that cannot be read becomes a row with an "error" key naming it, and the run goes
    on; the command then exits 2. Inconsistent positions are answers (rows with
    "consistent": false), not errors. Interrupted runs keep every finished row: run again
    with --resume (which also retries the files that failed).

    Example: exactmines batch positions/ --out results.jsonl --workers 2

    Example: exactmines batch 'runs/**/*.mine' --out r.jsonl --scheduler tcp://10.0.0.5:8786
    """
    from exactmines.analysis.jobs import analysis_tasks, analyze_files, check_row, position_files
    from exactmines.runner import run_batch
    from exactmines.ui.report import batch_summary, batch_to_text

    get_backend(backend)  # an unknown or uninstalled engine fails before any work
    _check_long_job(out, resume, workers, None)
    if chunk_size is not None and chunk_size < 1:
        raise InputError(f"--chunk-size {chunk_size}: must be at least 1",
                         source="command line")
    # Refused when not more than 0; no limit is null in the tasks and meta (JSON has no inf).
    limit = time_limit if Budget.seconds(time_limit).limited else None
    files = position_files(sources)
    processes = workers if workers is not None else (os.cpu_count() or 1)
    if chunk_size is None:
        # About four chunks per worker keeps everyone busy to the end; 32 amortises the
        # ~2 ms a Dask task costs.
        chunk_size = max(1, min(32, len(files) // (4 * (processes if scheduler is None else 8))))
    tasks = analysis_tasks(files, backend, limit)
    meta = {"command": "batch", "backend": backend, "time_limit": limit}
    with _interrupted("files", out):
        rows = run_batch(tasks, analyze_files, out=out, meta=meta, resume=resume,
                         workers=processes, chunk_size=chunk_size, scheduler=scheduler,
                         progress=not quiet, description="analysing",
                         retry=lambda row: "error" in row, check=check_row)
    failed = [r for r in rows if "error" in r]
    summary = batch_summary(rows, str(out))
    if output is TextOrJson.json:
        _emit_json(summary)
    elif not quiet:
        typer.echo(batch_to_text(summary))
    if failed:
        first = failed[0]["error"]
        raise ExactminesError(f"{len(failed)} of {plural(len(rows), 'file')} could not be analysed "
                              f"(rows with \"error\" in {out}); first: {first}")


@app.command("replay")
def replay_command(
    sources: Annotated[list[str], typer.Argument(
        metavar="FILE_OR_DIR", help="Replay files (.avf, .rmv, .evf, .mvf), directories (their "
                                    "replay files) or quoted glob patterns.",
        show_default=False)],
    output: Annotated[TextOrJson, typer.Option(
        "--format", help="text, or json (one object per game; one per line for several "
                         "games; with --out, the run's summary).")] = TextOrJson.text,
    out: Annotated[Optional[Path], typer.Option(
        help="JSONL results: a meta line, then one game object per file (with \"id\" = the "
             "path), written as each chunk finishes.")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the run in --out: files already judged there are "
                         "skipped, files that failed are tried again.")] = False,
    trust_flags: Annotated[bool, typer.Option(
        "--trust-flags", help="Take the player's flags as mines (by default they are shown "
                              "but analysed as covered cells: a wrong flag cannot mislead "
                              "the analysis).")] = False,
    efficiency: Annotated[bool, typer.Option(
        "--efficiency", help="Also a won game's clicks against the fewest that clear its "
                             "board (exact ZiNi, within what is left of --time-limit) and "
                             "its wasted clicks.")] = False,
    image: Annotated[Optional[Path], typer.Option(
        "--image", help="Also draw the game's risk timeline and the board at its riskiest "
                        "guess: .png, .svg or .pdf (one replay; needs the plot extra).")]
    = None,
    backend: Annotated[str, typer.Option(help=f"Engine: {', '.join(backend_names())}.")] = "auto",
    time_limit: Annotated[float, typer.Option(
        "--time-limit", help="Seconds per replay, its reading included (inf: no limit); "
                             "clicks reached past it are reported as not judged.")] = 60.0,
    workers: Annotated[Optional[int], typer.Option(
        help="Local worker processes [default: one per CPU core].", show_default=False)] = None,
    scheduler: Annotated[Optional[str], typer.Option(
        help="Dask scheduler address (tcp://host:port) instead of local processes; workers "
             "need exactmines[replay] installed and the files at the same paths.")] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No progress bar (and, with --out, no text summary).")] = False,
) -> None:
    """Judge every click of recorded games exactly: was it a guess, how risky, was a
    certainly safe cell on offer, and how lucky was the game.

    Reads Minesweeper Arbiter (.avf), Viennasweeper (.rmv), Metasweeper (.evf) and
    Minesweeper Clone (.mvf) replays through ms_toollib (pip install 'exactmines[replay]').
    A file that cannot be read is one line on stderr and the others go on; the command then
    exits 2.

    Example: exactmines replay game.avf

    Example: exactmines replay replays/ --out judged.jsonl --workers 2
    """
    from exactmines.io.replays import ms_toollib_version
    from exactmines.replay.jobs import judge_files, replay_files, replay_tasks
    from exactmines.runner import run_batch
    from exactmines.ui.report import replay_summary, replay_summary_to_text, replay_to_text

    get_backend(backend)  # an unknown or uninstalled engine fails before any work
    ms_toollib_version()  # so does a missing ms_toollib
    _check_long_job(out, resume, workers, image)
    Budget.seconds(time_limit)  # 0, negatives and NaN are refused before any work
    limit = None if time_limit == math.inf else time_limit  # per replay; None: no limit
    files = replay_files(sources)
    if image is not None and (len(files) != 1 or out is not None or scheduler is not None):
        raise InputError("--image draws one replay: give one file, and no --out or "
                         "--scheduler", source="command line")
    processes = workers if workers is not None else (os.cpu_count() or 1)
    chunk_size = max(1, min(16, len(files) // (4 * (processes if scheduler is None else 8))))
    tasks = replay_tasks(files, trust_flags=trust_flags, backend=backend, time_limit=limit,
                         efficiency=efficiency)
    meta = {"command": "replay", "trust_flags": trust_flags, "backend": backend,
            "time_limit": limit, **({"efficiency": True} if efficiency else {})}
    console = _console()
    printed = 0

    def show(rows: "list[dict[str, Any]]") -> None:
        nonlocal printed
        for row in rows:
            if "error" in row:
                sys.stderr.write(f"exactmines: error: {row['error']}\n")
            elif out is None and output is TextOrJson.json:
                _emit_json({k: v for k, v in row.items() if k != "id"})
            elif out is None:
                if printed:
                    console.print()
                console.print(replay_to_text(row))
                printed += 1
        sys.stdout.flush()

    if image is not None:  # one replay, judged here: the picture needs the judgement
        from exactmines.io.files import read_replay
        from exactmines.replay.judge import judge_replay
        from exactmines.replay.serialize import judgement_to_dict
        from exactmines.ui.pictures import draw_replay

        budget = Budget.seconds(limit)
        replay = read_replay(files[0], budget=budget)
        judged = judge_replay(replay, trust_flags=trust_flags, backend=backend, budget=budget)
        from exactmines.replay.efficiency import game_efficiency

        found = game_efficiency(replay, budget=budget) if judged.won and efficiency else None
        show([judgement_to_dict(judged, files[0], found)])
        draw_replay(judged, image, file=files[0])
        if output is TextOrJson.text:
            console.print(f"picture written to {image}")
        return
    with _interrupted("replays", out):
        rows = run_batch(tasks, judge_files, out=out, meta=meta, resume=resume,
                         workers=processes, chunk_size=chunk_size, scheduler=scheduler,
                         progress=not quiet and out is not None, description="judging",
                         retry=lambda row: "error" in row, on_rows=show)
    if out is not None:
        summary = replay_summary(rows, str(out))
        if output is TextOrJson.json:
            _emit_json(summary)
        elif not quiet:
            typer.echo(replay_summary_to_text(summary))
    failed = sum("error" in r for r in rows)
    if failed:
        raise ExactminesError(f"{failed} of {plural(len(rows), 'replay')} could not be "
                              "judged (each named above)")


@app.command("zini")
def zini_command(
    board: Annotated[Path, typer.Argument(
        help="Board with every mine known: .mbf, x/o text, .mine with mines marked M, or a "
             "recorded game (.avf, .rmv, .evf, .mvf).", show_default=False)],
    start: Annotated[Optional[str], typer.Option(
        "--start", help="First click ROW,COL (0-based), or 'free' for none [default: the "
                        "first click the file's header names, else none].",
        show_default=False)] = None,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", help="Seconds; when they run out, the best sequence found and a "
                             "proved lower bound (inf: no limit).")] = 60.0,
    output: Annotated[TextOrJson, typer.Option("--format", help="text or json.")]
    = TextOrJson.text,
) -> None:
    """The fewest clicks (left clicks, flags, chords) that clear a board: the exact ZiNi,
    with a click sequence that reaches it and a proof that none is shorter.

    Example: exactmines zini board.mbf --format json
    """
    from exactmines.efficiency.zini import fewest_clicks
    from exactmines.io.files import read_board_and_click, read_replay
    from exactmines.io.replays import replay_kind

    budget = Budget.seconds(time_limit)
    if replay_kind(str(board)) is not None:
        hidden, noted = read_replay(board, budget=budget).board, None
    else:
        hidden, noted = read_board_and_click(board)
    if start is None:
        first = noted
    elif start.strip().lower() == "free":
        first = None
    else:
        first = _cell_on(start, hidden.topology, "--start")
    answer = fewest_clicks(hidden, first, budget=budget)
    if output is TextOrJson.json:
        _emit_json({"file": str(board), **answer.to_dict()})
        return
    from exactmines.ui.report import zini_to_text

    typer.echo(zini_to_text(answer, str(board)))


@app.command("export")
def export_command(
    position_file: Annotated[str, typer.Argument(
        metavar="POSITION", help="A position file (.mine), or a JSMinesweeper link "
                                 "(quoted): the board before its first click.",
        show_default=False)],
    to: Annotated[str, typer.Option(
        "--to", help="cnf (DIMACS, projected model counting), opb (pseudo-Boolean), lp or "
                     "mps (the MILP, written by PuLP).", show_default=False)],
    out: Annotated[Path, typer.Option(
        help="The file to write; its ground truth goes to OUT.json.", show_default=False)],
    no_count: Annotated[bool, typer.Option(
        "--no-count", help="Leave the total mine count out (of the file and its "
                           "answer).")] = False,
    backend: Annotated[str, typer.Option(
        help=f"Engine of the ground truth: {', '.join(backend_names())}.")] = "auto",
    time_limit: Annotated[float, typer.Option(
        "--time-limit", help="Seconds for the ground truth's analysis, as in "
                             "analyze.")] = 30.0,
    output: Annotated[TextOrJson, typer.Option("--format", help="text or json.")]
    = TextOrJson.text,
) -> None:
    """Write a position as an instance for other solvers, with its exact answer in OUT.json.

    Example: exactmines export instances/reference-9x9.mine --to cnf --out reference.cnf
    """
    from exactmines.analysis.export import write_export
    from exactmines.analysis.serialize import decimal
    from exactmines.io.files import check_folder
    from exactmines.ui.report import grouped

    engine = get_backend(backend)
    check_folder(out)  # before the work, which may take the whole time limit
    Budget.seconds(time_limit)  # a limit of 0, or below, is refused before any work
    position = read_position(position_file)
    exported = write_export(out, position, to, count=not no_count, backend=engine,
                            budget=Budget.seconds(time_limit), source=str(position_file))
    models = None if exported.models is None else decimal(exported.models)
    summary = {"in": str(position_file), "out": str(out), "json": f"{out}.json",
               "format": exported.format, "variables": len(exported.cells),
               "count_in_file": exported.count_in_file, "models": models,
               "consistent": exported.analysis.consistent}
    if output is TextOrJson.json:
        _emit_json(summary)
        return
    count = "with the total mine count" if exported.count_in_file else "no total mine count"
    shown = "not counted" if exported.models is None else grouped(exported.models)
    typer.echo(f"{position_file} -> {out} ({exported.format}, {len(exported.cells)} cell "
               f"variables, {count}); models: {shown}; ground truth in {out}.json")


@app.command("convert")
def convert_command(
    source: Annotated[str, typer.Argument(
        metavar="IN", help="A board: .mine with every mine marked M, .mbf, x/o text, a "
                           "graph file, or a JSMinesweeper link (...?b=...&m=..., quote it).",
        show_default=False)],
    target: Annotated[Optional[Path], typer.Argument(
        metavar="OUT", help="Where to write: .mine, .mbf, .txt (x/o text), .json, .graphml "
                              "or .edges (a graph), chosen by the extension. Without it, "
                              "only the summary and link are printed.",
        show_default=False)] = None,
    output: Annotated[TextOrJson, typer.Option("--format", help="text or json.")]
    = TextOrJson.text,
) -> None:
    """Convert a hidden board between .mine, .mbf, x/o text, JSMinesweeper links and graph
    files (.json node-link, .graphml, .edges: any board, a grid's as its graph).

    Also prints the board's JSMinesweeper link (b= size, m= mines), which opens it in
    JSMinesweeper (square boards only).

    Example: exactmines convert board.mbf board.mine

    Example: exactmines convert 'https://.../index.html?b=32&m=8g' board.txt
    """
    from exactmines.io.files import check_folder, read_board_or_link, write_atomic
    from exactmines.io.graphs import GRAPH_SUFFIXES, grid_of_graph
    from exactmines.io.registry import format_for_writing
    from exactmines.io.urls import board_to_jsm_url

    kind = None if target is None else format_for_writing(str(target), "target")
    if target is not None:
        check_folder(target)
    board = read_board_or_link(source, "IN")
    if board.topology.kind == "graph" and kind is not None and kind.name not in GRAPH_SUFFIXES:
        # A grid written as a graph comes back as the grid; any other graph has no rows.
        grid = grid_of_graph(board)
        if grid is None:
            raise InputError(f"a graph that is not a grid (nodes named r,c, joined as a grid's "
                             f"cells) has no rows for {kind.suffix}: save it as .json, "
                             ".graphml or .edges", source=source)
        board = grid
    if target is not None and kind is not None:
        write_atomic(target, kind.encode_board(board, str(target),
                                               [f"converted from {source}"]))
    from exactmines.analysis.serialize import shape_to_dict

    # (JSMinesweeper plays the square grid only.)
    link = board_to_jsm_url(board) if board.topology.is_square else None
    summary = {"in": source, "out": None if target is None else str(target),
               **shape_to_dict(board.topology), "mines": board.mines,
               "jsminesweeper": link}
    if output is TextOrJson.json:
        _emit_json(summary)
        return
    written = f" -> {target}" if target is not None else ""
    typer.echo(f"{source}{written}: {shape_text(board.topology)}, "
               f"{plural(board.mines, 'mine')}")
    if link is not None:
        typer.echo(f"JSMinesweeper: {link}")


@app.command("instances")
def instances_command(
    name: Annotated[Optional[str], typer.Argument(
        metavar="NAME", help="One instance (reference-9x9 or reference-9x9.mine): print its "
                             "path. Without it, list them all.", show_default=False)] = None,
    output: Annotated[TextOrJson, typer.Option("--format", help="text or json.")]
    = TextOrJson.text,
) -> None:
    """The positions and boards shipped inside the package, and where they are.

    Example: exactmines instances

    Example: exactmines analyze "$(exactmines instances reference-9x9)" --backend sat
    """
    from exactmines.io.shipped import FOLDER, instance_names, instance_path

    if name is not None:
        path = instance_path(name)
        if output is TextOrJson.json:
            _emit_json({"name": path.name, "path": str(path)})
        else:
            typer.echo(str(path))
        return
    names = instance_names()
    if output is TextOrJson.json:
        _emit_json({"folder": str(FOLDER), "instances": names})
        return
    typer.echo(f"{plural(len(names), 'instance')} in {FOLDER} (its README.md says what "
               f"each is for):")
    for shipped in names:
        typer.echo(f"  {shipped}")


class GenerateKind(StrEnum):
    sat = "sat"
    position = "position"
    noguess = "noguess"
    lattice = "lattice"
    sparse = "sparse"
    dense = "dense"


@app.command("generate")
def generate_command(
    kind: Annotated[GenerateKind, typer.Argument(
        help="sat (a CNF compiled to a position: layouts = models), position (a random "
             "mid-game position), noguess (a board solvable without guessing), or a "
             "benchmark family: lattice (every safe cell of a lattice clicked), sparse "
             "(random safe cells revealed, no flooding) or dense (every position of "
             "mid-games played with safe moves only).",
        show_default=False)],
    out: Annotated[Path, typer.Option(
        help="Directory for the .mine and .json files (made if missing).",
        show_default=False)],
    cnf: Annotated[Optional[Path], typer.Option(help="sat: a DIMACS CNF file.")] = None,
    variables: Annotated[Optional[int], typer.Option(help="sat: random 3-SAT variables.")]
    = None,
    clauses: Annotated[Optional[int], typer.Option(help="sat: random 3-SAT clauses.")] = None,
    seed: Annotated[Optional[int], typer.Option(
        help="Run seed (instance i gets its own seed from it); lattice/sparse/dense: "
             "default 0.")] = None,
    width: Annotated[Optional[int], typer.Option(
        help="Board width (lattice/dense default 30, sparse 50).")] = None,
    height: Annotated[Optional[int], typer.Option(
        help="Board height (lattice/dense default 16, sparse 50).")] = None,
    mines: Annotated[Optional[int], typer.Option(
        help="Mines (lattice/dense default 99, sparse 500).")] = None,
    count: Annotated[int, typer.Option(
        help="How many instances (dense: games, each giving every position met).")] = 1,
    start: Annotated[str, typer.Option(
        help="position/noguess/dense: first-click rule (safe, opening; position also "
             "unprotected).")] = "opening",
    at: Annotated[Optional[str], typer.Option(
        "--at", help="position/noguess/dense: first click ROW,COL (default: the "
                     "centre).")] = None,
    step: Annotated[int, typer.Option(
        help="lattice: the cells of every STEP-th row and column are clicked (2: every "
             "4th cell).")] = 2,
    share: Annotated[float, typer.Option(
        help="sparse: share of the safe cells revealed.")] = 0.125,
    progress: Annotated[float, typer.Option(
        help="position: share of the safe cells revealed.")] = 0.5,
    method: Annotated[str, typer.Option(
        help="noguess: rejection (uniform), build (biased, any density), chain (a "
             "Markov chain from a built board: uniform in the limit), repair (biased, "
             "large boards) or auto.")]
    = "auto",
    attempts: Annotated[int, typer.Option(
        help="noguess: boards dealt by rejection before giving up (rejection) or "
             "building (auto: at most 25).")] = 2000,
    no_count: Annotated[bool, typer.Option(
        "--no-count", help="noguess: deduce without the total mine count.")] = False,
    chain_steps: Annotated[int, typer.Option(
        help="noguess --method chain: the chain's steps per board (one check each).")]
    = 1000,
    resume: Annotated[bool, typer.Option(
        "--resume", help="noguess: skip the boards of this seed already in --out (each "
                         "board is written as it is made).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="noguess: no progress.")]
    = False,
    topology: Annotated[str, typer.Option(
        "--topology", help="position/noguess: the board's topology (square, torus, hex, "
                           "triangle, cube with --layers, knight, offsets:DR,DC;... or graph "
                           "with --graph).")] = "square",
    layers: Annotated[int, typer.Option(help="position/noguess: a cube's layers.")] = 1,
    graph: Annotated[Optional[Path], typer.Option(
        help="position/noguess: a graph file whose graph the boards are dealt on.")] = None,
    output: Annotated[TextOrJson, typer.Option("--format", help="text or json.")]
    = TextOrJson.text,
) -> None:
    """Write instances with their ground truth: NAME.mine and NAME.json in --out.

    Example: exactmines generate sat --variables 20 --clauses 85 --seed 1 --out instances

    Example: exactmines generate sat --cnf formula.cnf --out instances

    Example: exactmines generate position --width 30 --height 16 --mines 99 --seed 1
    --count 5 --out instances

    Example: exactmines generate lattice --count 8 --out bench
    """
    from exactmines.generate import families
    from exactmines.generate.hardness import parse_dimacs
    from exactmines.generate.positions import (
        midgame_positions,
        noguess_boards,
        random_sat_instances,
        sat_instance,
    )
    from exactmines.io.files import read_text, source_name

    instances: list[Any]  # each kind's instances: .mine text and .json metadata
    finished: list[dict[str, Any]] = []  # noguess: the rows of the boards written so far

    def need(**given: Any) -> None:
        missing = [f"--{k.replace('_', '-')}" for k, v in given.items() if v is None]
        if missing:
            raise InputError(f"generate {kind.value} needs {' '.join(missing)}",
                             source="command line")

    if kind is GenerateKind.sat:
        if cnf is not None:
            if variables is not None or clauses is not None or count != 1:
                raise InputError("give --cnf FILE or --variables/--clauses/--seed [--count], "
                                 "not both", source="command line")
            source = source_name(cnf)
            formula = parse_dimacs(read_text(cnf), source)
            name = "stdin" if source != str(cnf) else cnf.stem
            instances = [sat_instance(formula, name, generator={"cnf": source})]
        else:
            need(variables=variables, clauses=clauses, seed=seed)
            assert variables is not None and clauses is not None and seed is not None
            instances = random_sat_instances(variables, clauses, seed, count)
    elif kind.value in families.FAMILIES:
        size = {"lattice": families.LATTICE_SIZE, "sparse": families.SPARSE_SIZE,
                "dense": families.DENSE_SIZE}[kind.value]
        w = size[0] if width is None else width
        h = size[1] if height is None else height
        m = size[2] if mines is None else mines
        run = 0 if seed is None else seed
        made: list[Any]
        if kind is GenerateKind.lattice:
            made = families.lattice_instances(run, count, width=w, height=h, mines=m, step=step)
        elif kind is GenerateKind.sparse:
            made = families.sparse_instances(run, count, width=w, height=h, mines=m,
                                             share=share)
        else:
            made = families.dense_instances(run, count, width=w, height=h, mines=m,
                                            start=start,
                                            at=None if at is None else _parse_cell(at))
        instances = made
    else:
        if graph is None:
            need(width=width, height=height, mines=mines, seed=seed)
        need(mines=mines, seed=seed)
        assert mines is not None and seed is not None
        _, width, height, shape = _topology_of(topology, width, height, layers, graph)
        cell = None if at is None else _cell_on(at, shape)
        if kind is GenerateKind.position:
            instances = midgame_positions(width, height, mines, seed, count, start=start,
                                          at=cell, progress=progress, topology=shape)
        else:  # each board written as it is made: an interrupted run keeps them
            if out.exists() and not out.is_dir():
                raise InputError("exists and is not a directory", source=str(out))
            done: frozenset[int] = frozenset()
            if resume and out.is_dir():  # instance i's name ends in -iii before .json
                done = frozenset(int(p.stem.rsplit("-", 1)[1]) for p in out.glob(
                    f"noguess-*-seed{seed}-*.json") if p.stem.rsplit("-", 1)[1].isdigit())
            total = count - len(done & set(range(count)))

            def keep(instance: Any) -> None:
                finished.append(_generate_write(out, instance))
                if not quiet and count > 1:
                    sys.stderr.write(f"\r{len(finished)}/{plural(total, 'board')}")
                    sys.stderr.flush()

            with _interrupted("boards", out):
                noguess_boards(width, height, mines, seed, count, start=start, at=cell,
                               method=method, use_count=not no_count, attempts=attempts,
                               topology=shape, chain_steps=chain_steps, skip=done,
                               made=keep)
            if not quiet and count > 1 and finished:
                sys.stderr.write("\n")
            instances = []
    if out.exists() and not out.is_dir():
        raise InputError("exists and is not a directory", source=str(out))
    written: list[dict[str, Any]] = finished if kind is GenerateKind.noguess else []
    for instance in instances:
        written.append(_generate_write(out, instance))
    _generate_report(written, output)


def _generate_report(written: list[dict[str, Any]], output: "TextOrJson") -> None:
    """``generate``'s answer: the rows of the instances written."""
    if output is TextOrJson.json:
        _emit_json(written)
        return
    for row in written:
        detail = ""
        if "size" in row:
            size = row["size"]
            models = "unknown" if row["model_count"] is None else row["model_count"]
            detail = (f": {size['width']}x{size['height']}, "
                      f"{plural(size['covered'], 'covered cell')}, "
                      f"{plural(size['mines'], 'mine')}; layouts = models = {models}")
        elif "method" in row:
            detail = f": {row['method']}"
        elif "layouts" in row:
            layouts = row["layouts"]
            if layouts is None:
                layouts = "not counted"
            elif len(layouts) > 15:
                layouts = f"{layouts[0]}.{layouts[1:3]}e{len(layouts) - 1}"
            detail = f": layouts = {layouts}"
        typer.echo(f"{row['mine']}{detail}")


def _generate_write(out: Path, instance: Any) -> dict[str, Any]:
    """Write one instance's files into ``out`` (made with its parents); its row of
    ``generate``'s answer."""
    from exactmines.io.files import write_atomic

    mine_path = out / f"{instance.name}{instance.suffix}"
    json_path = out / f"{instance.name}.json"
    write_atomic(mine_path, instance.text, make_folders=True)  # --out names the folder
    write_atomic(json_path, instance.json_text())
    row: dict[str, Any] = {"mine": str(mine_path), "json": str(json_path)}
    row.update((k, instance.metadata[k]) for k in ("kind", "model_count", "size", "method")
               if k in instance.metadata)
    if "expected" in instance.metadata:
        row["layouts"] = instance.metadata["expected"]["layouts"]
    return row


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on; anything but 127.0.0.1 "
                                           "is reachable from other machines (0.0.0.0: from "
                                           "every network, by any name).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0: any free port).")] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in a browser.")]
    = False,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", help="Default seconds per analysis request.")] = 5.0,
    workers: Annotated[int, typer.Option(
        help="Most worker processes running requests at once (each one ended and replaced "
             "when a request's time runs out).")] = 8,
) -> None:
    """The analyzer in the browser: a board editor with the exact overlay, and play.

    Needs the web extra (pip install 'exactmines[web]'). Ctrl-C (exit 130) or SIGTERM
    (exit 143) stops it.

    Example: exactmines serve --open
    """
    from exactmines.ui.web.server import serve

    try:
        serve(host, port, open_browser, time_limit, workers)
    except KeyboardInterrupt as exc:
        sys.stderr.write("exactmines: stopped\n")
        raise typer.Exit(_interrupt_status(exc)) from None


def _click_error_names(exc: BaseException) -> set[str]:
    """Class names of a click exception: typer vendors its own click, whose classes are
    not importable by a public name, so they are recognised by name."""
    return {cls.__name__ for cls in type(exc).__mro__}


#: Library parameters whose option has another name (``PlaySettings.tuning`` is ``--set``).
_OPTION_OF_PARAMETER = {"tuning": "tune"}


def _as_option(error: ParameterError, argv: list[str]) -> InputError:
    """A library's :class:`ParameterError` as the command line says it: under the option (or
    argument) of the command being run that sets that parameter (``mines`` -> ``--mines``);
    under the parameter's own name when none does."""
    import typer.main

    group = typer.main.get_command(app)
    name = next((arg for arg in argv if not arg.startswith("-")), None)
    command = getattr(group, "commands", {}).get(name)
    wanted = _OPTION_OF_PARAMETER.get(error.parameter, error.parameter)
    for param in getattr(command, "params", ()):
        if param.name == wanted:
            shown = (param.opts[0] if param.param_type_name == "option"
                     else param.metavar or param.name.upper())
            return InputError(error.shown(shown), source="command line")
    return error


def _error(message: str) -> None:
    """``exactmines: error: MESSAGE`` on stderr, in one line whatever the message quotes: a
    control character (a newline in a file's name) is written as its escape, ``\\n``."""
    shown = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)
    sys.stderr.write(f"exactmines: error: {shown}\n")


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning domain errors, usage errors and refused paths into
    one line on stderr (docs/contract.md: one clear line, no traceback) and an exit code:
    an error's own (:mod:`exactmines.errors`), 2 for usage errors and refused paths.

    ``exactmines`` alone prints the help (exit 2); an interrupt exits 130 (SIGTERM during a
    run 143) or, at a prompt, 1 after "Aborted!"; memory run out is a limit (exit 4).
    """
    args = sys.argv[1:] if argv is None else argv
    try:
        code = app(args=args, prog_name="exactmines", standalone_mode=False)
        sys.stdout.flush()  # a refused write shows here, not at exit with a traceback
    except BrokenPipeError:
        # The reader went away (``| head``) after the last write: end quietly with 1, as click
        # does when it meets this during a command. Python would complain again when it
        # flushes stdout at exit, so point stdout at nothing first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except ParameterError as exc:
        _error(str(_as_option(exc, args)))
        return exc.exit_code
    except ExactminesError as exc:
        _error(str(exc))
        return exc.exit_code
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except OSError as exc:
        if exc.errno in DEVICE_ERRNOS:  # writing the output, not reading the input
            where = exc.filename or "standard output"
            _error(f"{where}: cannot write: {exc.strerror}")
            return OutputError.exit_code
        # A path the system refuses that no check above caught (say, a name too long):
        # still bad input, said in one line.
        where = f"{exc.filename}: " if exc.filename else ""
        _error(f"{where}{exc.strerror or exc}")
        return 2
    except MemoryError:
        # A limit the work ran into (a machine's memory, ulimit -v), as a TooLarge would.
        _error("out of memory: this work needs more memory than the machine (or a limit set "
               "on the command) gives it")
        return TooLarge.exit_code
    except Exception as exc:
        names = _click_error_names(exc)
        if "NoArgsIsHelpError" in names:
            exc.show()  # type: ignore[attr-defined]
            return 2
        if "UsageError" in names:
            ctx = getattr(exc, "ctx", None)
            where = f"{ctx.command_path}: " if ctx is not None else ""
            hint = f" (see '{ctx.command_path} -h')" if ctx is not None else ""
            message = " ".join(exc.format_message().split())  # type: ignore[attr-defined]
            _error(f"{where}{message}{hint}")
            return 2
        if "Abort" in names:
            sys.stderr.write("Aborted!\n")
            return 1
        raise
    return code if isinstance(code, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
