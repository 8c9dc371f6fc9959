"""``replay``: every click of recorded games judged exactly."""

import math
import os
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from exactmines.errors import ExactminesError, InputError
from exactmines.ui.cli.common import _check_long_job, _console, _emit_json, _interrupted, app
from exactmines.ui.cli.options import EngineOption, TextOrJson
from exactmines.words import plural


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
                        "guess: .png, .svg or .pdf (one replay; needs the plot extra); "
                        "with --efficiency, the player's clicks beside the fewest.")]
    = None,
    backend: EngineOption = "auto",
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
    from exactmines.analysis.backends import get_backend
    from exactmines.budget import Budget
    from exactmines.io.replays import ms_toollib_version
    from exactmines.replay.file_batch import judge_files, replay_files, replay_tasks
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
        draw_replay(judged, image, file=files[0], efficiency=found)
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
