"""Many independent jobs: chunks to local processes (default) or a Dask cluster, results
streamed to a JSONL file as they finish, so an interrupted run loses nothing and resumes.

A run is a list of *tasks* (small JSON-able dicts, each with a unique ``"id"``) and a
*work* function, importable at module level, that turns a chunk of tasks into result rows
(dicts that carry the task's ``"id"``). Send inputs, never solvers: PySAT solvers cannot be
pickled. Chunks amortise the per-task overhead (about 2 ms per Dask task, a pickle round
trip per process task).

File layout: the first line is ``{"meta": {...}}`` describing the run (so ``resume`` can
refuse a file written by a different run), then one row per finished task.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import pkgutil
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from exactmines.child import worker_start
from exactmines.errors import DEVICE_ERRNOS, InputError, OutputError, ParameterError, WorkerLost

__all__ = ["run_batch", "read_rows", "chunked", "Rows", "Interrupted", "Task", "Row"]

Task = dict[str, Any]
Row = dict[str, Any]
Work = Callable[[list[Task]], list[Row]]


def chunked(items: Sequence[Task], size: int) -> list[list[Task]]:
    """``items`` cut into lists of at most ``size``, in order."""
    size = max(1, size)
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def read_rows(path: str | os.PathLike[str]) -> tuple[dict[str, Any] | None, list[Row]]:
    """The meta line and the rows of a results file.

    A last line cut short by an interruption is dropped (it is redone on resume); any other
    malformed line is an :class:`InputError` naming it.
    """
    meta: dict[str, Any] | None = None
    rows: list[Row] = []
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    complete = lines[:-1]  # text after the last newline was never finished
    for number, line in enumerate(complete, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not a JSON line ({exc.msg})", source=str(path), line=number,
                             column=exc.colno) from None
        except ValueError:  # a number of more than the 4,300 digits Python converts
            raise InputError("not a JSON line of this program (a number too long to read)",
                             source=str(path), line=number) from None
        except RecursionError:
            raise InputError("not a JSON line of this program (nested too deep to read)",
                             source=str(path), line=number) from None
        if not isinstance(value, dict):
            raise InputError("expected a JSON object", source=str(path), line=number)
        if "meta" in value and number == 1:
            meta = value["meta"]
        elif "id" in value:
            rows.append(value)
        else:
            raise InputError("row without an \"id\"", source=str(path), line=number)
    return meta, rows


@contextmanager
def _progress(total: int, done: int, description: str,
              enabled: bool) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr (only when stderr is a terminal and enabled)."""
    if not enabled or not sys.stderr.isatty():
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=False) as bar:
        task = bar.add_task(description, total=total, completed=done)
        yield lambda n: bar.advance(task, n)


@contextmanager
def _writing(out: str | os.PathLike[str] | None) -> Iterator[None]:
    """Writes to the results file: a device that refuses them (full, quota, I/O error) is an
    :class:`OutputError`, exit 1, not bad input. The rows written before stay; a torn last
    line is dropped by a resumed run."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in DEVICE_ERRNOS:
            raise
        raise OutputError(f"{out}: cannot write: {exc.strerror}; the rows before this write "
                          "are kept, and a resumed run does the rest") from None


def _open_output(out: Path, meta: dict[str, Any], resume: bool,
                 retry: Callable[[Row], bool] | None = None) -> tuple[TextIO, list[Row]]:
    with _writing(out):
        return _open_output_unguarded(out, meta, resume, retry)


def _open_output_unguarded(out: Path, meta: dict[str, Any], resume: bool,
                           retry: Callable[[Row], bool] | None) -> tuple[TextIO, list[Row]]:
    if out.exists() and out.stat().st_size > 0:
        if not resume:
            raise ParameterError("resume", None, f"not given, but the results file {out} "
                                 "exists: resume the run in it, or remove the file")
        old_meta, rows = read_rows(out)
        if retry is not None:
            rows = [r for r in rows if not retry(r)]
        if old_meta != meta:
            raise InputError("results file was written by a run with other settings "
                             f"({old_meta}); cannot resume it with {meta}", source=str(out))
        # Rewrite without a torn last line (nor rows to retry), then append.
        text = "\n".join([json.dumps({"meta": meta})] + [json.dumps(r) for r in rows]) + "\n"
        tmp = out.with_name(f".{out.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out)
        return open(out, "a", encoding="utf-8"), rows
    out.parent.mkdir(parents=True, exist_ok=True)
    handle = open(out, "w", encoding="utf-8")  # noqa: SIM115 - the caller closes it
    handle.write(json.dumps({"meta": meta}) + "\n")
    handle.flush()
    return handle, []


class Rows(list[Row]):
    """What :func:`run_batch` returns: one row per task, in task order, plus how many tasks
    this call ran (``ran``; the others were read back from a resumed file) and the wall time
    it spent running them (``seconds``). A speed is ``seconds / ran``, never per row."""

    ran: int = 0
    seconds: float = 0.0


class Interrupted(KeyboardInterrupt):
    """SIGTERM (or SIGINT) stopped a run: raised in the main thread by :func:`run_batch`'s
    handler so that a terminated run ends as an interrupted one (workers stopped, finished
    rows kept). ``signum`` says which signal; the usual exit status is ``128 + signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """While the run lasts, SIGTERM raises :class:`Interrupted` like Ctrl-C raises
    KeyboardInterrupt (only the main thread may set handlers; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise Interrupted(signum)

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_batch(tasks: Sequence[Task], work: Work, *, out: str | os.PathLike[str] | None = None,
              meta: dict[str, Any] | None = None, resume: bool = False, workers: int = 1,
              chunk_size: int = 32, scheduler: str | None = None, progress: bool = True,
              description: str = "working",
              retry: Callable[[Row], bool] | None = None,
              on_rows: Callable[[list[Row]], None] | None = None) -> Rows:
    """Run ``work`` over ``tasks`` and return one row per task, in task order.

    Parameters
    ----------
    tasks:
        JSON-able dicts with unique ``"id"`` values.
    work:
        Module-level function (or a :func:`functools.partial` of one): a chunk of tasks ->
        their rows (each with the task's id).
    out:
        JSONL file to stream rows to (flushed after every chunk). With ``resume``, tasks
        that already have a row there are not run again.
    meta:
        What defines the run (sizes, seeds, rules): written first, checked on resume.
    workers:
        Local processes (1 runs in this process: easiest to debug and profile).
    scheduler:
        Address of an existing Dask scheduler (``tcp://host:port``); overrides ``workers``.
    retry:
        On resume, rows of ``out`` for which this is true (e.g. error rows) are dropped from
        the file and their tasks run again.
    on_rows:
        Called in this process with the rows of each chunk as it finishes (in the order
        chunks finish), after they are written: a command can print results as they come.

    Notes
    -----
    On KeyboardInterrupt, or SIGTERM (raised as :class:`Interrupted`), pending chunks are
    cancelled, every local worker process is stopped before the exception propagates, and
    every row already written stays in ``out``. A worker process that dies, or a task the
    Dask cluster gives up on, stops the run with :class:`~exactmines.errors.WorkerLost`,
    the finished rows kept likewise.
    """
    ids = [t["id"] for t in tasks]
    if len(set(ids)) != len(ids):
        raise ValueError("task ids must be unique")
    meta = dict(meta or {})
    handle: TextIO | None = None
    finished: dict[Any, Row] = {}
    if out is not None:
        handle, old_rows = _open_output(Path(out), meta, resume, retry)
        wanted = set(ids)
        finished = {r["id"]: r for r in old_rows if r["id"] in wanted}
    todo = [t for t in tasks if t["id"] not in finished]
    chunks = chunked(todo, chunk_size)
    where = ("" if out is None else
             f"; the finished rows are kept in {out} and a resumed run does the rest")

    def record(rows: list[Row]) -> None:
        for row in rows:
            finished[row["id"]] = row
        if handle is not None:
            with _writing(out):
                handle.write("".join(json.dumps(r) + "\n" for r in rows))
                handle.flush()
        if on_rows is not None:
            on_rows(rows)

    started = time.perf_counter()
    try:
        with (_terminate_as_interrupt(),
              _progress(len(tasks), len(tasks) - len(todo), description, progress) as advance):
            if scheduler is not None:
                _run_dask(chunks, work, scheduler, record, advance, where)
            elif workers <= 1 or len(chunks) <= 1:
                for chunk in chunks:
                    record(work(chunk))
                    advance(len(chunk))
            else:
                _run_processes(chunks, work, workers, record, advance, where)
    finally:
        if handle is not None:
            with _writing(out):
                handle.close()
    rows = Rows(finished[i] for i in ids)
    rows.ran, rows.seconds = len(todo), time.perf_counter() - started
    return rows


def _worker_start(parent: int) -> None:
    """Initializer of a local worker process (:func:`~exactmines.child.worker_start`)."""
    worker_start(parent)


def _stop(processes: list[multiprocessing.process.BaseProcess]) -> None:
    """Terminate ``processes`` and wait for them: SIGTERM, then SIGKILL after a second."""
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(1)
        if process.is_alive():
            process.kill()
            process.join()


def _run_processes(chunks: list[list[Task]], work: Work, workers: int,
                   record: Callable[[list[Row]], None], advance: Callable[[int], None],
                   where: str) -> None:
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_start,
                               initargs=(os.getpid(),))
    try:
        pending: dict[Future[list[Row]], list[Task]] = {}
        queue = iter(chunks)
        # Keep a couple of chunks in flight per worker: memory stays bounded on huge runs.
        for chunk in queue:
            pending[pool.submit(work, chunk)] = chunk
            if len(pending) >= 2 * workers:
                break
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                chunk = pending.pop(future)
                try:
                    rows = future.result()
                except BrokenProcessPool:
                    # Every pending chunk fails alike: which one killed the worker is unknown.
                    raise WorkerLost("a worker process died (killed, or out of memory)"
                                     f"{where}") from None
                record(rows)
                advance(len(chunk))
                nxt = next(queue, None)
                if nxt is not None:
                    pending[pool.submit(work, nxt)] = nxt
    except BaseException:
        # Workers do not stop on their own (a running chunk would go on, and SIGTERM reaches
        # only this process): the pool's processes are the children started since `before`.
        _stop([p for p in multiprocessing.active_children() if p not in before])
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _span(chunk: list[Task]) -> str:
    """The ids of a chunk, for messages: ``3`` or ``200-399`` (a chunk is consecutive
    tasks, though not always consecutive ids)."""
    first, last = chunk[0]["id"], chunk[-1]["id"]
    return str(first) if len(chunk) == 1 else f"{first}-{last}"


def _dask_client(scheduler: str) -> Any:
    """A connected ``dask.distributed.Client``, or an :class:`InputError` saying why not.

    A plain TCP probe comes first: Dask's own connect retries until its timeout and then
    leaves a half-built client whose destructor stalls the exit and prints a traceback.
    """
    try:
        from dask.distributed import Client
        from distributed.comm.addressing import parse_address, parse_host_port
    except ImportError:
        raise ParameterError("scheduler", scheduler, "needs Dask: pip install "
                             "'exactmines[dask]'") from None
    try:
        protocol, location = parse_address(scheduler)
        host, port = parse_host_port(location)
    except ValueError as exc:
        raise ParameterError("scheduler", scheduler, f"{exc} (expected tcp://HOST:PORT)"
                             ) from None
    if protocol in ("tcp", "tls"):
        try:
            socket.create_connection((host, port), timeout=10).close()
        except OSError as exc:
            raise ParameterError("scheduler", scheduler, "cannot reach the Dask scheduler: "
                                 f"{exc.strerror or exc}") from None
    try:
        return Client(scheduler, timeout=30, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ParameterError("scheduler", scheduler, "cannot connect to the Dask scheduler: "
                             f"{exc}") from None


def _check_workers(client: Any, work: Work, scheduler: str) -> None:
    """Every worker can import ``work`` (and runs this exactmines version).

    Without this, a worker that cannot unpickle a task fails inside Dask's comm layer and
    the task is never finished: the run would hang. ``pkgutil.resolve_name`` is standard
    library, so the check itself unpickles anywhere. Workers that join later are not checked.
    ``work`` may be a :func:`functools.partial` (work bound to its run's settings): the
    function inside is what the workers must import.
    """
    from exactmines.version import __version__

    function = work
    while isinstance(function, partial):
        function = function.func
    name = f"{function.__module__}:{function.__qualname__}"
    found = client.run(pkgutil.resolve_name, name, on_error="return")
    broken = {w: e for w, e in found.items() if isinstance(e, BaseException)}
    if broken:
        worker, error = sorted(broken.items())[0]
        raise InputError(f"{len(broken)} of {len(found)} Dask workers cannot load {name} "
                         f"(first, {worker}: {error!r}); install exactmines on every worker",
                         source=scheduler)
    if function.__module__.split(".")[0] == "exactmines":
        versions = client.run(pkgutil.resolve_name, "exactmines:__version__")
        other = sorted({v for v in versions.values() if v != __version__})
        if other:
            raise InputError(f"Dask workers run exactmines {', '.join(other)}, this client "
                             f"{__version__}: install the same version everywhere",
                             source=scheduler)


def _run_dask(chunks: list[list[Task]], work: Work, scheduler: str,
              record: Callable[[list[Row]], None], advance: Callable[[int], None],
              where: str) -> None:
    if not chunks:
        return  # all done already (resume): no need for the cluster
    client = _dask_client(scheduler)
    from dask.distributed import as_completed
    from distributed import KilledWorker

    try:
        _check_workers(client, work, scheduler)
        futures = [client.submit(work, chunk, pure=False) for chunk in chunks]
        by_key = {f.key: c for f, c in zip(futures, chunks, strict=True)}
        try:
            for future in as_completed(futures, loop=client.loop):
                chunk = by_key[future.key]
                try:
                    rows = future.result()
                except KilledWorker:
                    # Dask already retried the chunk on other workers (its allowed-failures).
                    raise WorkerLost(f"Dask workers died each time they ran tasks "
                                     f"{_span(chunk)}, so the cluster gave up on them"
                                     f"{where}") from None
                record(rows)
                advance(len(chunk))
        except BaseException:
            client.cancel(futures)
            raise
    finally:
        client.close()
