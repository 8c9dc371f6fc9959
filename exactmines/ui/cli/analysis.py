"""``analyze``: exact probabilities, safe cells and mines of positions."""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from exactmines.errors import INCONSISTENT_EXIT_CODE, InputError
from exactmines.ui.cli.common import _console, _emit_json, _json_text, app, read_position
from exactmines.ui.cli.options import EngineOption, OutputFormat
from exactmines.words import plural

if TYPE_CHECKING:
    from exactmines.analysis.analyze import Analysis
    from exactmines.analysis.backends import Backend
    from exactmines.position import Position

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
    backend: EngineOption = "auto",
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
    explain: Annotated[bool, typer.Option(
        "--explain", help="Also what the web page shows: the clues at fault in an "
                          "inconsistent position; the recommended click, the best guesses "
                          "with their reasons, dead cells and 50/50s in a consistent one "
                          "(within the same --time-limit).")] = False,
) -> None:
    """Exact probabilities, safe cells and mines of positions.

    Example: exactmines analyze instances/reference-9x9.mine --backend sat --format json

    Example: exactmines analyze position.mine --image position.png
    """
    from exactmines.analysis.backends import get_backend
    from exactmines.budget import Budget

    engine = get_backend(backend)
    if mines is not None and mines < 0:
        raise InputError(f"--mines {mines}: must be at least 0", source="command line")
    # A limit of 0, or below, is refused before any work; one position's budget starts
    # here and covers reading it too (several: each from the start of its analysis).
    entry = Budget.seconds(time_limit)
    if explain and unique:
        raise InputError("--explain needs the analysis: give no --unique", source="command line")
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

    from exactmines.analysis.serialize import analysis_json
    from exactmines.ui.report import analysis_to_text

    if explain:
        from exactmines.play.shared import SharedCounts
        from exactmines.ui.explain import explain_dict, explain_text

    results, texts = [], []
    console = _console()
    for name, position in positions:
        budget = entry if len(positions) == 1 else Budget.seconds(time_limit)
        # With --explain, the analysis and the advice count each component once (as the
        # page's overlay does).
        counts = SharedCounts() if explain else None
        result = analyze(position, backend=engine, budget=budget, cache=counts)
        results.append(result)
        if output is not OutputFormat.text:  # the JSON text (fast: many cells)
            texts.append(_json_text(explain_dict(result, name, engine, budget, counts))
                         if explain else analysis_json(result, name))
        if output is OutputFormat.jsonl:
            sys.stdout.write(texts[-1] + "\n")
            sys.stdout.flush()
        elif output is OutputFormat.text:
            console.print(explain_text(result, name, engine, budget, counts) if explain
                          else analysis_to_text(result, name))
            if len(positions) > 1:
                console.print()
    if output is OutputFormat.json:
        sys.stdout.write((texts[0] if len(texts) == 1 else f"[{', '.join(texts)}]") + "\n")
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
    from exactmines.budget import Budget
    from exactmines.errors import BudgetExceeded
    from exactmines.solvability.check import is_unique
    from exactmines.ui.report import unique_text

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
