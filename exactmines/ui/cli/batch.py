"""``batch``: many positions analysed on local processes or a Dask cluster, streamed to
JSONL."""

import os
from pathlib import Path
from typing import Annotated, Optional

import typer

from exactmines.errors import ExactminesError, InputError
from exactmines.ui.cli.common import _check_long_job, _emit_json, _interrupted, app
from exactmines.ui.cli.options import EngineOption, TextOrJson
from exactmines.words import plural


@app.command("batch")
def batch_command(
    sources: Annotated[list[str], typer.Argument(
        metavar="DIR_OR_GLOB", help="Position files, directories (their *.mine files) or "
                                       "quoted glob patterns ('runs/**/*.mine').",
        show_default=False)],
    out: Annotated[Path, typer.Option(
        help="JSONL results: a meta line, then one analyze JSON object per file (with "
             "\"id\" = the path), written as each chunk finishes.", show_default=False)],
    backend: EngineOption = "auto",
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
    from exactmines.analysis.backends import get_backend
    from exactmines.analysis.file_batch import (
        analysis_tasks,
        analyze_files,
        check_row,
        position_files,
    )
    from exactmines.budget import Budget
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
