"""Many independent jobs: chunks to local processes (default) or a Dask cluster, results
streamed to a JSONL file as they finish, so an interrupted run loses nothing and resumes.

A run is a list of *tasks* (small JSON-able dicts, each with a unique ``"id"``) and a
*work* function, importable at module level, that turns a chunk of tasks into result rows
(dicts that carry the task's ``"id"``). Send inputs, never solvers: PySAT solvers cannot be
pickled. Chunks amortise the per-task overhead (about 2 ms per Dask task, a pickle round
trip per process task).

File layout: the first line is ``{"meta": {...}}`` describing the run (so ``resume`` can
refuse a file written by a different run), then one row per finished task.

Local workers start and end by the rules of :mod:`exactmines.child`
(:func:`~exactmines.child.worker_start`, :data:`~exactmines.child.TERM_GRACE`), plus a
watchdog on the pipe to their parent; the web server's pool (``ui/web/workers.py``) has
rules of its own, for requests with a deadline each (CONTRIBUTING, "Processes").
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import pickle
import pkgutil
import signal
import socket
import stat
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from functools import partial
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from exactmines.child import TERM_GRACE, worker_start
from exactmines.errors import (
    DEVICE_ERRNOS,
    InputError,
    OutputError,
    ParameterError,
    WorkerLost,
)
from exactmines.words import plural

__all__ = ["run_batch", "read_rows", "row_problem", "chunked", "Rows", "Interrupted", "Task",
           "Row", "RowCheck"]

Task = dict[str, Any]
Row = dict[str, Any]
Work = Callable[[list[Task]], list[Row]]
#: What is wrong with a row read back from a results file for the run that reads it (one
#: line), or ``None`` when the run can use it.
RowCheck = Callable[[Row], "str | None"]

#: How :func:`row_problem` names the JSON types it is given.
_TYPE_NAMES = {bool: "true or false", int: "a whole number", float: "a number",
               str: "a string", list: "a list", dict: "an object", type(None): "null"}


def _is(value: Any, kinds: tuple[type, ...]) -> bool:
    """Whether the JSON value is of one of ``kinds``: true and false are not numbers, and a
    whole number is also a number."""
    if isinstance(value, bool):
        return bool in kinds
    return isinstance(value, kinds) or (float in kinds and isinstance(value, int))


def row_problem(row: Mapping[str, Any], required: Mapping[str, tuple[type, ...]],
                optional: Mapping[str, tuple[type, ...]] | None = None, *,
                what: str = "row") -> str | None:
    """What is wrong with ``row`` for a run that reads its fields ``required`` and, when
    there, ``optional``, each holding one of the JSON types given (``bool``, ``int``,
    ``float``: any number, ``str``, ``list``, ``dict``, ``type(None)``): a field missing or
    of another type, said in one line (``row without "won"``), or ``None``."""
    for name, kinds in (*required.items(), *(optional or {}).items()):
        if name not in row:
            if name in required:
                return f'{what} without "{name}"'
        elif not _is(row[name], kinds):
            return f'{what} whose "{name}" is not {" or ".join(_TYPE_NAMES[k] for k in kinds)}'
    return None


def chunked(items: Sequence[Task], size: int) -> list[list[Task]]:
    """``items`` cut into lists of at most ``size``, in order."""
    size = max(1, size)
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def read_rows(path: str | os.PathLike[str], check: RowCheck | None = None,
              ) -> tuple[dict[str, Any] | None, list[Row]]:
    """The meta line and the rows of a results file.

    A last line cut short by an interruption is dropped (it is redone on resume); any other
    malformed line is an :class:`InputError` naming it: not a JSON object, a row without an
    ``"id"`` that is a whole number or a string, or one that ``check`` finds wrong (the
    fields its run reads back).
    """
    meta: dict[str, Any] | None = None
    rows: list[Row] = []
    with open(path, "rb") as handle:
        lines = handle.read().split(b"\n")
    complete = lines[:-1]  # text after the last newline was never finished
    for number, raw in enumerate(complete, start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("not UTF-8 text", source=str(path), line=number) from None
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
            problem = (None if _is(value["id"], (int, str)) else
                       'row whose "id" is not a whole number or a string')
            if problem is None and check is not None:
                problem = check(value)
            if problem is not None:
                raise InputError(problem, source=str(path), line=number)
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
    """Writes to the results file: a device that refuses them (full, quota, I/O error, a file
    size limit) is an :class:`OutputError`, exit 1, not bad input. The rows written before
    stay, every one of them whole (:class:`_Results`)."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in DEVICE_ERRNOS:
            raise
        raise OutputError(f"{out}: cannot write: {exc.strerror}; the rows before this write "
                          "are kept, and a resumed run does the rest") from None


class _Results:
    """A results file open for appending whole lines.

    :meth:`append` leaves whole lines only: when the device refuses a write part of the way
    (a full disk, a file size limit) or a signal cuts it, the file is truncated back to the
    end of the last line written whole, so it is always valid JSON lines and needs no repair
    to be read. Unbuffered: every line is with the system once ``append`` returns.
    """

    def __init__(self, path: Path, fd: int) -> None:
        self.path, self.fd = path, fd
        self.size = os.fstat(fd).st_size  # every byte before this belongs to a whole line

    def append(self, text: str) -> None:
        encoded = text.encode()
        written = 0
        try:
            while written < len(encoded):  # a write may take part (then the next one fails)
                written += os.write(self.fd, memoryview(encoded)[written:])
        except BaseException:
            # Keep the whole lines that made it, take back the torn one. A signal's handler
            # may raise after a write has made it but before ``written`` counts it (a
            # SIGTERM sent as the rows appear took a whole finished chunk back): a regular
            # file's size says what made it.
            with suppress(OSError):
                on_disk = os.fstat(self.fd)
                if stat.S_ISREG(on_disk.st_mode):
                    written = max(written, min(len(encoded), on_disk.st_size - self.size))
            self.size += encoded.rfind(b"\n", 0, written) + 1
            with suppress(OSError):  # not a regular file (a device): nothing to take back
                os.ftruncate(self.fd, self.size)
            raise
        self.size += written

    def close(self) -> None:
        os.close(self.fd)


def _open_output(out: Path, meta: dict[str, Any], resume: bool,
                 retry: Callable[[Row], bool] | None = None,
                 check: RowCheck | None = None) -> tuple[_Results, list[Row]]:
    with _writing(out):
        return _open_output_unguarded(out, meta, resume, retry, check)


def _open_output_unguarded(out: Path, meta: dict[str, Any], resume: bool,
                           retry: Callable[[Row], bool] | None,
                           check: RowCheck | None) -> tuple[_Results, list[Row]]:
    flags = os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC
    if out.exists() and out.stat().st_size > 0:
        if not resume:
            raise ParameterError("resume", None, f"not given, but the results file {out} "
                                 "exists: resume the run in it, or remove the file")
        old_meta, rows = read_rows(out, check)
        if retry is not None:
            rows = [r for r in rows if not retry(r)]
        if old_meta != meta:
            raise InputError("results file was written by a run with other settings "
                             f"({old_meta}); cannot resume it with {meta}", source=str(out))
        # Rewrite without a torn last line (nor rows to retry), then append.
        text = "\n".join([json.dumps({"meta": meta})] + [json.dumps(r) for r in rows]) + "\n"
        tmp = out.with_name(f".{out.name}.tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, out)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return _Results(out, os.open(out, flags)), rows
    if not out.parent.is_dir():  # a missing folder is a slip in the name: never made here
        raise InputError(f"cannot write: {str(out.parent)!r} is not an existing folder",
                         source=str(out))
    existed = out.exists()
    results = _Results(out, os.open(out, flags | os.O_CREAT | os.O_TRUNC, 0o666))
    try:
        results.append(json.dumps({"meta": meta}) + "\n")
    except BaseException:
        results.close()
        if not existed and out.is_file():  # made here, and empty again: take it away
            out.unlink(missing_ok=True)
        raise
    return results, []


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
    KeyboardInterrupt (only the main thread may set handlers; elsewhere nothing changes).
    Once: a SIGTERM that comes while the first is being acted on (the workers stopped, at
    most a second or two) would cut that clean-up short, so it is let pass."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raised: list[int] = []

    def interrupt(signum: int, frame: Any) -> None:
        if not raised:
            raised.append(signum)
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
              check: RowCheck | None = None,
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
    check:
        On resume, what is wrong with a row of ``out`` for the caller, which reads the rows
        returned (:func:`row_problem` of the fields it reads): a row it finds wrong is an
        :class:`InputError` naming its line, before any work.
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
    handle: _Results | None = None
    finished: dict[Any, Row] = {}
    if out is not None:
        handle, old_rows = _open_output(Path(out), meta, resume, retry, check)
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
                handle.append("".join(json.dumps(r) + "\n" for r in rows))
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
            handle.close()
    rows = Rows(finished[i] for i in ids)
    rows.ran, rows.seconds = len(todo), time.perf_counter() - started
    return rows


def _watch_parent() -> None:
    """End this worker process when its parent goes, where the kernel's parent-death signal
    (:func:`exactmines.child.worker_start`) is not had: a watchdog thread on the pipe
    multiprocessing keeps to the parent, which reads end-of-file once the parent is gone (a
    thread only runs when the GIL is handed over, hence the kernel's signal first). With the
    ``fork`` start method a sibling forked later holds the parent's end of an earlier
    worker's pipe, so there the watchdogs end in turn, last first."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    if not parent.is_alive():  # the parent died before the watchdog started
        os._exit(1)

    def watch() -> None:
        parent.join()
        os._exit(1)

    threading.Thread(target=watch, name="exactmines-parent-watchdog", daemon=True).start()


def _serve(conn: Connection, work: Work) -> None:
    """A local worker process: chunks from ``conn``, their rows (or the exception the work
    raised) back, until ``None`` or end-of-file. The parent alone handles Ctrl-C and SIGTERM
    (it stops the workers itself; a worker that raised KeyboardInterrupt would only report
    it), and the worker dies with its parent: the start every worker of the project's
    own has (:func:`exactmines.child.worker_start`), then a watchdog
    (:func:`_watch_parent`)."""
    # The process that started this one (a fork server's, under that start method): the
    # kernel's signal follows it, the watchdog the run's own process.
    worker_start(os.getppid())
    _watch_parent()
    try:
        while (chunk := conn.recv()) is not None:
            try:
                reply: tuple[list[Row] | None, BaseException | None, str] = (work(chunk), None,
                                                                            "")
            except Exception as exc:
                reply = (None, _portable(exc), traceback.format_exc())
            conn.send(reply)
    except (EOFError, OSError):  # the parent has gone: nobody to answer
        pass


def _portable(exc: Exception) -> Exception:
    """``exc`` if it survives a pickle round trip as itself (every ExactminesError does; an
    exception whose ``__init__`` takes other arguments than its ``args`` may not), else a
    RuntimeError saying what it was."""
    with suppress(Exception):
        back = pickle.loads(pickle.dumps(exc))
        if type(back) is type(exc) and str(back) == str(exc):
            return exc
    return RuntimeError(f"{type(exc).__name__}: {exc}")


class _RemoteTraceback(Exception):
    """Where a worker's exception was raised: the cause of the one re-raised here."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0])


class _Worker:
    """A local worker process and this side of a duplex pipe to it, one chunk at a time.

    Only the worker holds the other end of its pipe, so a worker that dies, even in the
    middle of sending its rows, is end-of-file here, never a wait (ProcessPoolExecutor's
    manager thread waits for the rest of a message cut short by a killed worker, and every
    shutdown then waits for it).
    """

    def __init__(self, context: Any, work: Work) -> None:
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, work), daemon=True,
                                       name="exactmines-worker")
        self.process.start()
        theirs.close()
        self.chunk: list[Task] | None = None

    def give(self, chunk: list[Task] | None) -> None:
        """Send ``chunk`` (``None``: no more work, the worker ends)."""
        self.chunk = chunk
        self.conn.send(chunk)

    def take(self, where: str) -> list[Row]:
        """The rows of the chunk given; :class:`WorkerLost` if the worker died first, or the
        exception its work raised."""
        try:
            rows, failure, trace = self.conn.recv()
        except (EOFError, OSError):
            raise WorkerLost(f"a worker process died (killed, or out of memory){where}"
                             ) from None
        self.chunk = None
        if failure is not None:
            raise failure from _RemoteTraceback(trace)
        return rows


def _stop(workers: list[_Worker], grace: float) -> None:
    """End ``workers`` and wait for them: an idle worker ends on the end-of-file of its
    pipe within ``grace`` seconds; then SIGTERM, and SIGKILL after
    :data:`~exactmines.child.TERM_GRACE` seconds (as a child of :mod:`exactmines.child`)."""
    for worker in workers:
        worker.conn.close()
    deadline = time.monotonic() + grace
    for worker in workers:
        worker.process.join(max(0.0, deadline - time.monotonic()))
    for worker in workers:
        worker.process.terminate()
    deadline = time.monotonic() + TERM_GRACE
    for worker in workers:
        worker.process.join(max(0.0, deadline - time.monotonic()))
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()


def _run_processes(chunks: list[list[Task]], work: Work, workers: int,
                   record: Callable[[list[Row]], None], advance: Callable[[int], None],
                   where: str) -> None:
    """``work`` over ``chunks`` on local worker processes, each given its next chunk as soon
    as it hands back its rows. However the run ends (done, a worker lost, an interrupt, a
    refused write), every worker process has ended when this returns or raises."""
    context = multiprocessing.get_context()
    pool: list[_Worker] = []
    queue = iter(chunks)
    finished = False
    try:
        pool.extend(_Worker(context, work) for _ in range(min(workers, len(chunks))))
        for worker in pool:
            worker.give(next(queue, None))
        while busy := [w for w in pool if w.chunk is not None]:
            ready = set(wait([*(w.conn for w in busy), *(w.process.sentinel for w in busy)]))
            for worker in busy:
                if worker.conn in ready or worker.process.sentinel in ready:
                    size = len(worker.chunk or ())
                    rows = worker.take(where)
                    worker.give(next(queue, None))  # working while the rows are written
                    record(rows)
                    advance(size)
        finished = True
    finally:
        # Work cut short: a running chunk would go on, and SIGTERM reaches only this process.
        _stop(pool, grace=1.0 if finished else 0.0)


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


#: Seconds a Dask run waits while the cluster has no worker (every one killed, or none
#: joined yet; a nanny restarts a killed worker in a second or two, an adaptive cluster may
#: take longer to start one) before it gives up with :class:`WorkerLost`.
DASK_NO_WORKER_WAIT = 60.0

#: Seconds between two looks at the cluster's workers while nothing finishes.
_DASK_LOOK = 1.0


def _dask_workers(client: Any) -> int | None:
    """How many workers the scheduler has, or ``None`` when it cannot be asked (the
    connection to it is down)."""
    if client.status != "running":
        return None
    try:
        return len(client.scheduler_info(n_workers=-1)["workers"])
    except (OSError, TimeoutError):  # distributed's CommClosedError is an OSError
        return None


def _run_dask(chunks: list[list[Task]], work: Work, scheduler: str,
              record: Callable[[list[Row]], None], advance: Callable[[int], None],
              where: str) -> None:
    """``work`` over ``chunks`` on the Dask cluster at ``scheduler``. A chunk Dask gave up on
    (its workers died each time it ran) and a cluster left without a worker (or without its
    scheduler) for :data:`DASK_NO_WORKER_WAIT` seconds both end the run with
    :class:`WorkerLost`, the finished rows kept."""
    if not chunks:
        return  # all done already (resume): no need for the cluster
    client = _dask_client(scheduler)
    from dask.distributed import as_completed
    from distributed import KilledWorker

    alone_since: float | None = None

    def look() -> None:
        """Called each :data:`_DASK_LOOK` seconds that nothing finishes: give up once the
        cluster has had no worker for :data:`DASK_NO_WORKER_WAIT` seconds."""
        nonlocal alone_since
        now = time.monotonic()
        if _dask_workers(client):
            alone_since = None
        elif alone_since is None:
            alone_since = now
        elif now - alone_since >= DASK_NO_WORKER_WAIT:
            raise WorkerLost(f"the Dask cluster at {scheduler} has had no worker (or no "
                             f"scheduler) for {DASK_NO_WORKER_WAIT:g} s, with "
                             f"{plural(len(futures) - recorded, 'task')} left{where}")

    futures: list[Any] = []
    recorded = 0  # (a recorded task whose result was lost with its worker is pending again)
    # Dask's client warns on stderr of each result it could not fetch from a dead worker
    # ("Couldn't gather ..., rescheduling"): the run computes those again or ends in one
    # line of its own, so the warning is only noise beside it. Quiet during the run.
    quiet = logging.getLogger("distributed.client")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        _check_workers(client, work, scheduler)
        futures = [client.submit(work, chunk, pure=False) for chunk in chunks]
        by_key = {f.key: c for f, c in zip(futures, chunks, strict=True)}
        try:
            # Results are fetched in the client's own loop as tasks finish: a result lost
            # with its worker after it was computed is computed again elsewhere and fetched
            # then, while this loop keeps looking at the cluster. (Waiting here on
            # future.result with a timeout left, at each timeout, Dask tasks that raised
            # AllExit once the futures were cancelled: a traceback on stderr at exit.)
            running = as_completed(futures, loop=client.loop, with_results=True)
            looked = time.monotonic()
            while not running.is_empty():
                finished = running.next_batch(block=False)
                for future, rows in finished:
                    chunk = by_key[future.key]
                    if isinstance(rows, tuple):
                        # The task raised: Dask gives (type, exception, traceback) in place
                        # of the rows. (The future's status may already have moved on: a
                        # future whose worker died since is pending again.)
                        _, error, trace = rows
                        if isinstance(error, KilledWorker):
                            # Dask already retried the chunk on other workers (its
                            # allowed-failures).
                            raise WorkerLost(f"Dask workers died each time they ran tasks "
                                             f"{_span(chunk)}, so the cluster gave up on "
                                             f"them{where}") from None
                        raise error.with_traceback(trace)
                    if isinstance(rows, BaseException):  # cancelled (by the scheduler)
                        raise rows
                    record(rows)
                    recorded += 1
                    advance(len(chunk))
                if finished:
                    looked = time.monotonic()
                elif time.monotonic() - looked >= _DASK_LOOK:
                    look()
                    looked = time.monotonic()
                else:
                    time.sleep(0.02)
        except BaseException:
            client.cancel(futures)
            raise
    finally:
        client.close()
        quiet.setLevel(level)
