"""Fuzz exactmines at full size: thousands of inputs through the real command line and the
real web server, each bounded in time; what goes wrong is kept with its input.

Inputs come from the strategies of ``tests/fuzzing.py`` (the small form of this fuzz runs in
the suite, ``tests/test_fuzz_readers.py``): edited valid files of every format, random
bytes, numbers of up to 6,000 digits, huge grids and big positions, results files with
nested JSON, DIMACS formulas, requests with nested JSON and bytes that are not UTF-8. Input
``i`` of seed ``s`` is drawn from bytes that depend on ``s`` and ``i`` only, so a run is
reproduced by its seed.

* A command line is ``exactmines COMMAND ...`` in a process of its own (``analyze``,
  ``solvable``, ``convert``, ``export``, ``batch``, ``generate sat --cnf``, ``survey`` and
  ``play --resume``), reading its input from a file, a FIFO (written at once, slowly,
  closed empty, or never), standard input, ``/dev/zero``, ``/dev/urandom``, ``/dev/null``, a
  folder or a missing file, its address space capped (``--memory``).
* A request goes to ``exactmines serve --port 0`` running in a process of its own, over
  HTTP with ``Host: 127.0.0.1``, one at a time (what the server prints is then the
  request's); a server that dies or stops answering is started again.

Found, and written to ``OUT/findings/NNNNN-KIND/`` (the input, ``case.json`` with the command
or request, what came back, and ``replay.sh`` where a shell can replay it):

* ``traceback``: a line of a Python traceback on stderr (the command's, or the server's
  during the request), or a 500 whose body is not one line;
* ``hang``: no exit or answer within ``--timeout`` seconds (the process group is killed; a
  server that then fails its health check is started again);
* ``crash``: a command killed by a signal it was not sent, or the server gone (during a
  request, or found gone after it: the last request is kept);
* ``left``: processes of a command (its workers) still running 2 s after it ended;
* ``5xx``: any other HTTP status from 500 up (one line, but the server failed, gave up or
  was busy: requests go one at a time);
* ``stderr``: a command whose stderr is more than one line without a traceback;
* ``accepted``: a file every reader must refuse (JSON nested too deep, a first line that
  starts with a digit but is no ``.mine`` header: digits of another script, a malformed
  header over rows) read with exit 0 or HTTP 200 (``fuzzing.must_refuse``);
* ``late``: ``analyze`` of a file or standard input exiting more than ``LATE_SLACK`` s past
  its ``--time-limit`` (the compiled formulas of 25 to 80 variables among the inputs), its
  report in text: writing JSON, an object per covered cell, is outside the limit
  (docs/limits.md);
* ``held``: ``/api/health`` not answering 200 while 100 sockets from this address send a
  request head that never ends (one request in 150).

Progress goes to stderr. Ctrl-C (or SIGTERM) stops the run: what was found is kept and the
summary printed, as at the end: exit codes and HTTP status codes with their counts (overall
and by command or endpoint), then each kind of finding. ``OUT/summary.json`` holds the same.
Exit status: 0 nothing found, 1 findings, 130 interrupted.

Usage::

    python scripts/fuzz.py --inputs 2400 --seed 0 --out fuzz-out
    python scripts/fuzz.py --replay fuzz-out/findings/00012-hang

Needs the test dependencies (hypothesis) and the web extra. Cost: a command line is a Python
start (about 0.3 s of CPU) plus its work; 2,400 inputs took 11 minutes on two cores shared with
other work (load 7).
"""

from __future__ import annotations

import argparse
import base64
import collections
import contextlib
import errno
import http.client
import json
import os
import random
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from fuzzing import must_refuse  # noqa: E402  (tests/ is put on the path just above)

#: A line of a Python traceback (its head, a frame, or uvicorn's announcement of one).
TRACEBACK = re.compile(r'^\s*(Traceback \(most recent call last\)|File "[^"]*", line \d+|'
                       r"Exception in ASGI application)")
KINDS = ("traceback", "hang", "crash", "left", "5xx", "stderr", "accepted", "late", "held")

#: Seconds past its ``--time-limit`` an ``analyze`` may exit: 1 s, and Python's start (and
#: the imports) on a loaded machine.
LATE_SLACK = 3.0

#: Slow clients: sockets that send part of a request head, then ``/api/health`` is asked
#: (one in this many requests).
SLOW_SOCKETS = 100
SLOW_EVERY = 150

#: Runs ``exactmines`` with its address space capped: ``python -c RUN LIMIT ARGS...``.
RUN = ("import resource, sys; limit = int(sys.argv.pop(1)); "
       "resource.setrlimit(resource.RLIMIT_AS, (limit, limit)); sys.argv[0] = 'exactmines'; "
       "from exactmines.ui.cli import main; sys.exit(main(sys.argv[1:]))")
DEVICES = ("/dev/zero", "/dev/urandom", "/dev/null")


def looks_like_traceback(text: str) -> bool:
    """Whether any line of ``text`` is part of a Python traceback."""
    return any(TRACEBACK.match(line) for line in text.splitlines())


def _refused_request(case: dict[str, Any]) -> bool:
    """A request whose position or file every reader must refuse (``must_refuse``)."""
    if case["path"] not in ("/api/import", "/api/analyze", "/api/overlay"):
        return False
    try:
        body = json.loads(case["body"])
    except ValueError:
        return False
    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        return False
    name = body.get("name", "")
    return must_refuse(body["text"].encode(), name if isinstance(name, str) else "")


def one_line_body(body: bytes) -> bool:
    """Whether an HTTP error body is one line: ``{"error": "one line"}``, or plain text."""
    try:
        document = json.loads(body)
    except ValueError:
        return b"\n" not in body.strip()
    message = str(document.get("error", document) if isinstance(document, dict) else document)
    return "\n" not in message and not looks_like_traceback(message)


# -- the inputs ----------------------------------------------------------------------------


class Cases:
    """Input ``i`` of a seed: a command line (``kind`` ``cli``) or a request (``api``),
    drawn by the strategies of ``tests/fuzzing.py`` from bytes of a generator seeded with
    ``(seed, i)``. Not thread-safe (hypothesis is not): draw from one thread."""

    def __init__(self, seed: int, only: str | None, api_share: float) -> None:
        from fuzzing import api_request, cli_case
        from hypothesis import given

        self.seed, self.only, self.api_share = seed, only, api_share
        self._drawn: list[Any] = []

        @given(cli_case())
        def cli(case: dict[str, Any]) -> None:
            self._drawn.append(case)

        @given(api_request(routes=True))
        def api(request: tuple[str, str, bytes, str]) -> None:
            self._drawn.append(request)

        self._cli, self._api = cli, api

    def __call__(self, index: int) -> dict[str, Any]:
        rng = random.Random(f"{self.seed}/{index}")
        api = self.only == "api" or (self.only is None and rng.random() < self.api_share)
        target = self._api if api else self._cli
        while not self._drawn:  # a buffer that runs short draws nothing: take another
            target.hypothesis.fuzz_one_input(rng.randbytes(1 << 15))  # type: ignore[attr-defined]
        drawn = self._drawn.pop()
        if not api:
            return {"kind": "cli", "index": index, **drawn}
        method, path, body, content_type = drawn
        if rng.randrange(SLOW_EVERY) == 0:
            method, path, body, content_type = "SLOW", "/api/health", b"", "text/plain"
        return {"kind": "api", "index": index, "method": method, "path": path, "body": body,
                "content_type": content_type}


# -- outcomes ------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one input gave: ``label`` (``exit 2``, ``HTTP 400``, ``hang``, ``signal 9``),
    the group it is counted in (command or endpoint), a finding's kind if any, and what came
    back (stderr, or the body and what the server printed)."""

    label: str
    group: str
    finding: str | None = None
    detail: str = ""
    seconds: float = 0.0
    files: dict[str, bytes] = field(default_factory=dict)


def save_finding(out: Path, case: dict[str, Any], outcome: Outcome) -> Path:
    """The case in ``out/findings/NNNNN-KIND/``: ``case.json`` (replayable), the input as a
    file, what came back, and a shell line to replay it where one exists."""
    folder = out / "findings" / f"{case['index']:05d}-{outcome.finding}"
    folder.mkdir(parents=True, exist_ok=True)
    stored = {key: (base64.b64encode(value).decode() if isinstance(value, bytes) else value)
              for key, value in case.items()}
    record = {"case": stored, "label": outcome.label, "finding": outcome.finding,
              "seconds": round(outcome.seconds, 2), "detail": outcome.detail[-4000:]}
    (folder / "case.json").write_text(json.dumps(record, indent=1) + "\n")
    if case["kind"] == "cli":
        if case["data"]:
            (folder / f"input-{case['name']}").write_bytes(case["data"])
        if case["out_data"] is not None:
            (folder / "out.jsonl").write_bytes(case["out_data"])
        source, data_file = case["source"], shlex.quote(f"input-{case['name']}")
        given = {"argument": f'"$(cat {data_file})"', "stdin": "-", "folder": "input-folder",
                 "missing": "input-missing"}.get(source, source if source in DEVICES
                                                  else data_file)
        line = " ".join(["exactmines", *(given if a == "{in}" else
                                          shlex.quote(a.replace("{dir}", "."))
                                          for a in case["args"])])
        if source == "stdin":
            line += f" < {data_file}"
        elif source == "folder":
            line = f"mkdir -p input-folder && {line}"
        (folder / "replay.sh").write_text(
            f"# input given as: {case['source']}\n{line}\n")
    else:
        (folder / "body").write_bytes(case["body"])
        (folder / "replay.sh").write_text(
            "# against a server started with: exactmines serve --port 8000\n" + shlex.join([
                "curl", "-s", "-X", case["method"], "-H", "Host: 127.0.0.1", "-H",
                f"Content-Type: {case['content_type']}", "--data-binary", "@body",
                f"http://127.0.0.1:8000{case['path']}"]) + "\n")
    for name, data in outcome.files.items():
        (folder / name).write_bytes(data)
    return folder


# -- command lines -------------------------------------------------------------------------


def feed_fifo(path: Path, data: bytes, how: str, done: threading.Event) -> None:
    """Write ``data`` to the FIFO at ``path`` once its reader opens it (never blocking before:
    a command that fails first never opens it): all at once, in small slow pieces, or
    nothing (``fifo empty``: opened and closed)."""
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as exc:
            if exc.errno != errno.ENXIO or done.wait(0.01):
                return
    os.set_blocking(fd, True)
    try:
        step = 97 if how == "fifo slow" else 1 << 16
        for start in range(0, len(data) if how != "fifo empty" else 0, step):
            os.write(fd, data[start:start + step])
            if how == "fifo slow":
                time.sleep(0.001)
    except OSError:  # the reader went away
        pass
    finally:
        os.close(fd)


class Commands:
    """Runs command-line cases, each in a process group of its own so that a hang is ended
    whole (``batch`` and ``survey`` have workers)."""

    def __init__(self, timeout: float, memory: int, scratch: Path) -> None:
        self.timeout, self.memory, self.scratch = timeout, memory, scratch
        self.running: dict[int, subprocess.Popen[bytes]] = {}
        self.lock = threading.Lock()
        self.stopped = False

    def stop_all(self) -> None:
        """Kill the process groups of the cases running, and start no more (an interrupted
        run)."""
        with self.lock:
            self.stopped = True
            for process in self.running.values():
                if process.poll() is None:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(process.pid, signal.SIGKILL)

    def run(self, case: dict[str, Any]) -> Outcome:
        folder = Path(tempfile.mkdtemp(prefix=f"case-{case['index']}-", dir=self.scratch))
        try:
            return self._run(case, folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _run(self, case: dict[str, Any], folder: Path) -> Outcome:
        source, data = case["source"], case["data"]
        path = folder / f"input-{case['name']}"
        stdin: bytes | None = None
        feeder = None
        done = threading.Event()
        if source == "file":
            path.write_bytes(data)
        elif source.startswith("fifo"):
            os.mkfifo(path)
            if source != "fifo silent":
                feeder = threading.Thread(target=feed_fifo, args=(path, data, source, done),
                                          daemon=True)
        elif source == "stdin":
            path, stdin = Path("-"), data
        elif source in DEVICES:
            path = Path(source)
        elif source == "folder":
            path.mkdir()
        if case["out_data"] is not None:
            (folder / "out.jsonl").write_bytes(case["out_data"])
        argument = os.fsdecode(data.replace(b"\0", b"")) if source == "argument" else str(path)
        args = [a.replace("{in}", argument).replace("{dir}", str(folder)) for a in case["args"]]
        group = case["args"][0]
        started = time.monotonic()
        with self.lock:
            if self.stopped:
                return Outcome("not run", group)
            process = subprocess.Popen([sys.executable, "-c", RUN, str(self.memory), *args],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, cwd=folder,
                                       start_new_session=True)
            self.running[process.pid] = process
        if feeder is not None:
            feeder.start()
        left: list[int] = []
        try:
            stdout, stderr = process.communicate(stdin or b"", timeout=self.timeout)
            hung = False
            # The command's workers end with it (within a second when it is killed).
            deadline = time.monotonic() + 2
            while (left := group_members(process.pid)) and time.monotonic() < deadline:
                time.sleep(0.1)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            stdout, stderr = process.communicate()
            hung = True
        finally:
            _kill_group(process)
            with self.lock:
                self.running.pop(process.pid, None)
            done.set()
        seconds = time.monotonic() - started
        text = stderr.decode("utf-8", "replace")
        files = {"stderr.txt": stderr, "stdout.txt": stdout[-100_000:]}
        code = process.returncode
        if hung:
            return Outcome("hang", group, "hang", f"no exit within {self.timeout:g} s\n{text}",
                           seconds, files)
        label = f"exit {code}" if code >= 0 else f"signal {-code}"
        if looks_like_traceback(text):
            finding: str | None = "traceback"
        elif code < 0:
            finding = "crash"
        elif left:
            finding, text = "left", f"processes {left} still ran 2 s after it ended\n{text}"
        elif len(text.strip().splitlines()) > 1:
            finding = "stderr"
        elif code == 0 and group in ("analyze", "solvable", "convert", "export") \
                and source in ("file", "stdin", "fifo", "fifo slow") \
                and must_refuse(data, case["name"]):
            finding, text = "accepted", f"exit 0 on a file every reader must refuse\n{text}"
        elif group == "analyze" and source in ("file", "stdin") \
                and not any(a.startswith("json") for a in case["args"]) \
                and seconds > _limit_of(case["args"]) + LATE_SLACK:
            finding = "late"
            text = (f"{seconds:.2f} s for --time-limit {_limit_of(case['args']):g}\n{text}")
        else:
            finding = None
        return Outcome(label, group, finding, text, seconds, files)


def _limit_of(args: list[str]) -> float:
    """The ``--time-limit`` of a command line (``inf`` when none, not a number, or refused:
    0 or below)."""
    try:
        limit = float(args[args.index("--time-limit") + 1])
    except (ValueError, IndexError):
        return float("inf")
    return limit if limit > 0 else float("inf")


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the process group of ``process`` while it lives (once it is reaped, its
    number may be another's), and to what is left of the group after."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    for pid in group_members(process.pid):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def group_members(group: int) -> list[int]:
    """The live processes (zombies aside) of process group ``group``, read from ``/proc``.
    While one lives, the group's number is not given to another process, so they are the
    ones this script started."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == group:
            members.append(int(entry.name))
    return members


# -- the server ----------------------------------------------------------------------------


class Server:
    """``exactmines serve --port 0`` in a process of its own; its output is kept line by
    line, so what it prints during a request is known. One request at a time."""

    def __init__(self, timeout: float, memory: int, scratch: Path) -> None:
        self.timeout, self.memory, self.scratch = timeout, memory, scratch
        self.lines: list[str] = []
        self.lock = threading.Lock()
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.starts = 0
        self.stopped = False
        self.last: dict[str, Any] | None = None
        #: Requests after which the server was found gone, with what it printed last.
        self.deaths: list[tuple[dict[str, Any], Outcome]] = []

    def start(self) -> None:
        self.lines = []
        self.process = subprocess.Popen(
            [sys.executable, "-c", RUN, str(self.memory), "serve", "--port", "0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=self.scratch, start_new_session=True)  # python -c imports from its folder
        self.starts += 1
        announced = threading.Event()
        for stream in (self.process.stdout, self.process.stderr):
            threading.Thread(target=self._keep, args=(stream, announced), daemon=True).start()
        if not announced.wait(120):
            raise RuntimeError("the server did not say where it listens within 120 s:\n"
                               + "".join(self.lines[-20:]))

    def _keep(self, stream: Any, announced: threading.Event) -> None:
        for raw in stream:
            line = raw.decode("utf-8", "replace")
            found = re.search(r"serving http://[^:]+:(\d+)/", line)
            if found and not announced.is_set():
                self.port = int(found.group(1))
                announced.set()
            else:
                self.lines.append(line)

    def stop(self, for_good: bool = False) -> None:
        """End the server (``for_good``: and start no other, an interrupted run)."""
        self.stopped = self.stopped or for_good
        if self.process is not None:
            _kill_group(self.process)
            self.process.wait()
            self.process = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def request(self, method: str, path: str, body: bytes, content_type: str,
                timeout: float) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers={
                "Host": "127.0.0.1", "Content-Type": content_type})
            answer = connection.getresponse()
            return answer.status, answer.read()
        finally:
            connection.close()

    def healthy(self) -> bool:
        try:
            return self.request("GET", "/api/health", b"", "text/plain", 10)[0] == 200
        except OSError:
            return False

    def run(self, case: dict[str, Any]) -> Outcome:
        with self.lock:
            if self.stopped:
                return Outcome("not run", case["method"])
            if self.process is not None and not self.alive() and self.last is not None:
                code = self.process.returncode
                self.deaths.append((self.last, Outcome(
                    "gone", "server", "crash", f"the server was gone (exit status {code}) "
                    "after this request had its answer", 0.0,
                    {"server.txt": "".join(self.lines[-200:]).encode()})))
            if not self.alive():
                self.start()
            self.last = case
            return self._run(case)

    def _run(self, case: dict[str, Any]) -> Outcome:
        path = case["path"]
        group = case["method"] + " " + re.sub(r"/api/games/[^/?]+", "/api/games/{id}",
                                              path.split("?")[0])
        if "GAME" in path:
            try:
                status, body = self.request("POST", "/api/games", b'{"seed": 1}',
                                            "application/json", self.timeout)
                path = path.replace("GAME", json.loads(body)["id"])
            except (OSError, http.client.HTTPException, ValueError, KeyError) as exc:
                return Outcome("no game", group, "crash", f"a new game failed: {exc!r}")
        seen = len(self.lines)
        started = time.monotonic()
        if case["method"] == "SLOW":
            return self._slow(group, seen)
        try:
            status, body = self.request(case["method"], path, case["body"],
                                        case["content_type"], self.timeout)
        except TimeoutError:
            healthy = self.healthy()
            if not healthy:
                self.stop()
            return Outcome("hang", group, "hang", f"no answer within {self.timeout:g} s; "
                           f"health {'answers' if healthy else 'fails: server restarted'}",
                           time.monotonic() - started, self._printed(seen))
        except (OSError, http.client.HTTPException) as exc:
            time.sleep(0.5)
            died = not self.alive()
            return Outcome("no answer", group, "crash",
                           f"{exc!r}; the server {'died' if died else 'lives'}",
                           time.monotonic() - started, self._printed(seen))
        seconds = time.monotonic() - started
        if status == 500:
            time.sleep(0.2)  # what the server prints about it may follow the answer
        printed = "".join(self.lines[seen:])
        files = {"response": body[:1_000_000], **self._printed(seen)}
        finding: str | None = None
        if looks_like_traceback(printed) or (status == 500 and not one_line_body(body)):
            finding = "traceback"
        elif not self.alive():
            finding = "crash"
        elif status >= 500:
            finding = "5xx"
        elif status == 200 and _refused_request(case):
            finding = "accepted"
        detail = body[:2000].decode("utf-8", "replace") + ("\n" + printed if printed else "")
        return Outcome(f"HTTP {status}", group, finding, detail, seconds, files)

    def _slow(self, group: str, seen: int) -> Outcome:
        """``/api/health`` while :data:`SLOW_SOCKETS` sockets hold a request head open."""
        sockets = []
        started = time.monotonic()
        try:
            for _ in range(SLOW_SOCKETS):
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                sockets.append(sock)
            try:
                status, body = self.request("GET", "/api/health", b"", "text/plain", 5)
            except (OSError, http.client.HTTPException) as exc:
                status, body = 0, repr(exc).encode()
        except OSError as exc:
            status, body = 0, f"opening the slow sockets: {exc!r}".encode()
        finally:
            for sock in sockets:
                sock.close()
        seconds = time.monotonic() - started
        finding = None if status == 200 else "held"
        return Outcome(f"HTTP {status}", "GET /api/health (100 slow sockets open)", finding,
                       body[:2000].decode("utf-8", "replace"), seconds, self._printed(seen))

    def _printed(self, seen: int) -> dict[str, bytes]:
        printed = "".join(self.lines[seen:])
        return {"server.txt": printed.encode()} if printed else {}


# -- the run -------------------------------------------------------------------------------


class Tally:
    """Counts by label (overall and per group) and the findings, as the run goes."""

    def __init__(self) -> None:
        self.labels: dict[str, collections.Counter[str]] = {
            "cli": collections.Counter(), "api": collections.Counter()}
        self.groups: dict[str, collections.Counter[str]] = collections.defaultdict(
            collections.Counter)
        self.findings: dict[str, list[str]] = {kind: [] for kind in KINDS}
        self.done = 0
        self.seconds = 0.0

    def add(self, case: dict[str, Any], outcome: Outcome, folder: Path | None) -> None:
        self.done += 1
        self.labels[case["kind"]][outcome.label] += 1
        self.groups[outcome.group][outcome.label] += 1
        if outcome.finding is not None and folder is not None:
            self.findings[outcome.finding].append(str(folder))

    def found(self) -> int:
        return sum(len(found) for found in self.findings.values())

    def report(self, seed: int, asked: int, interrupted: bool) -> str:
        cli, api = sum(self.labels["cli"].values()), sum(self.labels["api"].values())
        lines = [f"fuzz: {self.done} of {asked} inputs (seed {seed}) in "
                 f"{self.seconds / 60:.1f} min: {cli} command lines, {api} API requests"
                 + (" (interrupted)" if interrupted else "")]
        for kind, title in (("cli", "command lines, exit codes"),
                            ("api", "API requests, HTTP status codes")):
            lines.append(f"{title}: {_counts(self.labels[kind])}")
            for group in sorted(self.groups):
                if group.startswith(("GET", "POST", "PUT", "DELETE", "PATCH")) == (kind == "api"):
                    lines.append(f"  {group}: {_counts(self.groups[group])}")
        for kind in KINDS:
            lines.append(f"{kind}: {len(self.findings[kind])}")
            lines.extend(f"  {folder}" for folder in self.findings[kind][:50])
        return "\n".join(lines)

    def to_dict(self, seed: int, asked: int, interrupted: bool) -> dict[str, Any]:
        return {"seed": seed, "inputs": asked, "done": self.done,
                "interrupted": interrupted, "seconds": round(self.seconds, 1),
                "exit_codes": dict(self.labels["cli"]), "http_status": dict(self.labels["api"]),
                "groups": {group: dict(counts) for group, counts in sorted(self.groups.items())},
                "findings": self.findings}


def _counts(counter: collections.Counter[str]) -> str:
    return ", ".join(f"{label} x{n}" for label, n in sorted(counter.items())) or "none"


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cases = Cases(args.seed, args.only, args.api_share)
    scratch = Path(tempfile.mkdtemp(prefix="exactmines-fuzz-"))
    commands = Commands(args.timeout, args.memory << 20, scratch)
    server = Server(args.timeout, args.memory << 20, scratch)
    tally = Tally()
    started = time.monotonic()
    last_shown = 0.0
    interrupted = False

    def one(case: dict[str, Any]) -> tuple[dict[str, Any], Outcome]:
        return case, (commands.run(case) if case["kind"] == "cli" else server.run(case))

    def show(force: bool = False) -> None:
        nonlocal last_shown
        now = time.monotonic()
        if not force and now - last_shown < args.progress:
            return
        last_shown = now
        elapsed = now - started
        left = elapsed / max(tally.done, 1) * (args.inputs - tally.done)
        print(f"fuzz: {tally.done}/{args.inputs} inputs, {tally.found()} findings, "
              f"{elapsed / 60:.1f} min, about {left / 60:.0f} min left", file=sys.stderr,
              flush=True)

    # Ctrl-C and SIGTERM ask the loop to stop between cases, never in the middle of one's
    # bookkeeping: a finding written is a finding counted (an exception raised between
    # the two once left a finding out of the summary).
    stopping = threading.Event()

    def ask_to_stop(signum: int, frame: Any) -> None:
        stopping.set()

    signal.signal(signal.SIGINT, ask_to_stop)
    signal.signal(signal.SIGTERM, ask_to_stop)
    pool = ThreadPoolExecutor(args.jobs)
    pending: set[Future[tuple[dict[str, Any], Outcome]]] = set()
    index = args.start
    try:
        while (index < args.start + args.inputs or pending) and not stopping.is_set():
            while (index < args.start + args.inputs and len(pending) < 2 * args.jobs
                   and not stopping.is_set()):
                pending.add(pool.submit(one, cases(index)))
                index += 1
            finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for future in finished:
                case, outcome = future.result()
                if outcome.label == "not run":
                    continue
                folder = None if outcome.finding is None else save_finding(out, case, outcome)
                tally.add(case, outcome, folder)
            while server.deaths:  # a finding about a request already counted
                case, outcome = server.deaths.pop()
                tally.findings["crash"].append(str(save_finding(out, case, outcome)))
            tally.seconds = time.monotonic() - started
            show()
        if stopping.is_set():
            interrupted = True
            for future in pending:
                future.cancel()
            commands.stop_all()
            server.stop(for_good=True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    tally.seconds = time.monotonic() - started
    show(force=True)
    summary = tally.to_dict(args.seed, args.inputs, interrupted)
    summary["server_starts"] = server.starts
    summary["command"] = shlex.join(["python", "scripts/fuzz.py", *sys.argv[1:]])
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(tally.report(args.seed, args.inputs, interrupted))
    print(f"server started {server.starts} time(s); summary in {out / 'summary.json'}")
    return 130 if interrupted else (1 if tally.found() else 0)


def replay(folder: Path, args: argparse.Namespace) -> int:
    """Run a saved case again and print what it gives now."""
    record = json.loads((folder / "case.json").read_text())
    case = dict(record["case"])
    for key in ("data", "out_data", "body"):
        if isinstance(case.get(key), str):
            case[key] = base64.b64decode(case[key])
    scratch = Path(tempfile.mkdtemp(prefix="exactmines-fuzz-"))
    server = Server(args.timeout, args.memory << 20, scratch)
    try:
        outcome = (Commands(args.timeout, args.memory << 20, scratch).run(case)
                   if case["kind"] == "cli" else server.run(case))
    finally:
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{folder}: was {record['label']} ({record['finding']}); now {outcome.label} "
          f"({outcome.finding or 'fine'}) in {outcome.seconds:.1f} s")
    if outcome.detail:
        print(outcome.detail[-3000:])
    return 0 if outcome.finding is None else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=2400, help="inputs to try (2400)")
    parser.add_argument("--seed", type=int, default=0, help="run seed (0)")
    parser.add_argument("--start", type=int, default=0,
                        help="index of the first input (to go on from an interrupted run)")
    parser.add_argument("--out", default="fuzz-out", help="output folder (fuzz-out)")
    parser.add_argument("--jobs", type=int, default=2, help="inputs run at once (2)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds an input may take before it counts as a hang (60)")
    parser.add_argument("--memory", type=int, default=2048,
                        help="address space of each process started, MiB (2048)")
    parser.add_argument("--only", choices=["cli", "api"], help="only command lines or requests")
    parser.add_argument("--api-share", type=float, default=0.45,
                        help="share of the inputs that are requests (0.45)")
    parser.add_argument("--progress", type=float, default=10.0,
                        help="seconds between progress lines (10)")
    parser.add_argument("--replay", type=Path, metavar="FINDING",
                        help="run the case saved in this findings folder again")
    args = parser.parse_args()
    if args.replay is not None:
        return replay(args.replay, args)
    if args.inputs < 1 or args.jobs < 1 or args.timeout <= 0 or not 0 <= args.api_share <= 1:
        parser.error("--inputs and --jobs at least 1, --timeout above 0, --api-share 0 to 1")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
