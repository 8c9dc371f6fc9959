"""The real ``exactmines serve`` in a child process, under hard requests, signals and slow
clients: the server never wedges.

The figures asked of the server (issue 29) are its health check and a small request
answered within 1 s while hard ones run, and the hard ones answered within 2 s of their
limit, on a 2-core machine: ``scripts/bench_serve.py --only hard sigterm`` measures them.
These tests check what the code controls and a loaded machine cannot break: what is
answered, in which order, and by which of the code's own stops; every wait polls with a
generous deadline instead of sleeping a guessed time.
"""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from exactmines.generate.positions import random_sat_instances

ROOT = Path(__file__).parent.parent
REFERENCE = (ROOT / "instances" / "reference-9x9.mine").read_text()



@pytest.fixture(scope="module")
def hard_text() -> str:
    """A compiled 3-SAT formula (20 variables, 40 clauses) no engine counts in seconds."""
    return random_sat_instances(20, 40, 3, 1)[0].text


class Served:
    """``exactmines serve --port 0`` in a child process."""

    def __init__(self, *options: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "exactmines", "serve", "--port", "0", *options],
            stderr=subprocess.PIPE, text=True)
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        if "serving" not in line:
            self.process.kill()
            raise RuntimeError(f"the server did not start: {line!r}")
        self.url = line.split()[2]

    def health(self) -> dict:
        return httpx.get(self.url + "api/health", timeout=30).json()

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        return self.process.wait(30)


def _post_all(url: str, text: str, limit: float, count: int) -> list[threading.Thread]:
    """``count`` hard requests at once, each in a thread; results in ``thread.result``."""

    def post(thread: threading.Thread) -> None:
        started = time.monotonic()
        try:
            answer = httpx.post(url + "api/analyze", json={"text": text, "time_limit": limit},
                                timeout=120)
            thread.result = (answer.status_code, time.monotonic() - started,  # type: ignore
                             answer.json())
        except httpx.HTTPError as exc:
            thread.result = (None, time.monotonic() - started, repr(exc))  # type: ignore

    threads = []
    for _ in range(count):
        thread = threading.Thread(target=lambda: post(threading.current_thread()))
        thread.start()
        threads.append(thread)
    return threads


def _until(condition, seconds: float = 60.0, what: str = "the condition"):
    """Polls ``condition()`` until it gives a true value (returned), failing past
    ``seconds``: a wait that a loaded machine only makes longer, never wrong."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what} did not happen within {seconds} s"
        time.sleep(0.05)


def test_the_server_answers_while_hard_requests_run():
    # Four hard requests with a long limit hold every worker the pool starts for them; the
    # health check and a small analysis are answered while they still run (health says so
    # after the small answer), not queued behind them. The latency itself is measured by
    # scripts/bench_serve.py --only hard, not here: load on the machine only slows it.
    server = Served()
    threads: list[threading.Thread] = []
    try:
        text = random_sat_instances(20, 40, 3, 1)[0].text
        threads = _post_all(server.url, text, 30.0, 4)  # the most it allows
        _until(lambda: server.health()["workers"]["busy"] >= 4, what="four busy workers")
        small = httpx.post(server.url + "api/analyze", json={"text": REFERENCE}, timeout=60)
        assert small.status_code == 200 and small.json()["layouts"] == "1031"
        assert server.health()["workers"]["busy"] >= 4
        assert all(thread.is_alive() for thread in threads)
    finally:
        assert server.stop() in (0, 130)
    for thread in threads:
        thread.join(60)


def _hard_round(server: Served, hard_text: str) -> None:
    """Four hard requests at once, each answered 200 with nothing made up, stopped by the
    code at its limit: the analysis's own budget (a note saying what was not computed), or
    the server, at the limit plus the allowance it gives (the note names that time)."""
    threads = _post_all(server.url, hard_text, 1.0, 4)
    for thread in threads:
        thread.join(120)
    for thread in threads:
        status, _, body = thread.result  # type: ignore[attr-defined]
        assert status == 200, body
        assert body["probabilities_computed"] is False and body["layouts"] is None
        assert body["consistent"] is not False and body["notes"]
        assert body["unique"] is None
        stopped = [n for n in body["notes"] if n.startswith("not computed: the work was")]
        if stopped:  # never before the request's own limit
            assert float(stopped[0].split(" after ")[1].split(" s ")[0]) > 1.0, stopped


def _settled(server: Served, workers: int, rss: float | None = None) -> dict:
    """The health's workers once the extra workers have gone (idle ones end after 5 s),
    none is busy, and (given ``rss``) memory is at most that: polled, 60 s at most."""
    deadline = time.monotonic() + 60
    now = server.health()["workers"]
    while time.monotonic() < deadline and (
            now["workers"] != workers or now["busy"] or rss is not None and now["rss"] > rss):
        time.sleep(0.5)
        now = server.health()["workers"]
    assert now["workers"] == workers and now["busy"] == 0, now
    return now


def test_hard_requests_leave_the_server_answering_and_give_back_what_they_took(hard_text):
    server = Served()
    try:
        workers = server.health()["workers"]["workers"]
        # A first round warms the server (its imports, the text it parsed, the workers a
        # loaded machine had it replace): measured against a cold start, the memory of the
        # second round's end was once 1.28 times it with nothing kept.
        _hard_round(server, hard_text)
        before = _settled(server, workers)
        _hard_round(server, hard_text)
        after = _settled(server, workers, 1.25 * before["rss"])  # and memory comes back
        assert after["rss"] <= 1.25 * before["rss"], (before, after)
    finally:
        assert server.stop() in (0, 130)


def test_sigterm_while_hard_requests_run_exits_143_at_once(hard_text):
    server = Served()
    pids = []
    try:
        threads = _post_all(server.url, hard_text, 30.0, 4)
        _until(lambda: server.health()["workers"]["busy"] == 4, what="four busy workers")
        pids = _worker_pids(server.process.pid)
        server.process.send_signal(signal.SIGTERM)
        code = server.process.wait(60)
    finally:
        if server.process.poll() is None:
            server.process.kill()
    # How soon it stops is measured by scripts/bench_serve.py --only sigterm.
    assert code == 143, code
    assert server.process.stderr is not None
    assert server.process.stderr.read() == "exactmines: stopped\n"
    for thread in threads:
        thread.join(60)
        status, _, body = thread.result  # type: ignore[attr-defined]
        # Answered "stopping" when the workers ended, or cut off when the server went.
        assert status in (503, None), body
    # A worker's own watch on its parent runs twice a second.
    assert pids
    _until(lambda: not [pid for pid in pids if _alive(pid)], what="every worker gone")


def _worker_pids(server: int) -> list[int]:
    """The server's worker processes: children of its fork server (Linux ``/proc``)."""
    def children(pid: int) -> list[int]:
        found = []
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                found += [int(p) for p in (task / "children").read_text().split()]
            except FileNotFoundError:  # a thread that ended since the listing
                continue
        return found

    return [worker for child in children(server) for worker in children(child)]


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_the_worker_pids_are_found():
    server = Served()
    try:
        assert len(_worker_pids(server.process.pid)) == server.health()["workers"]["workers"]
    finally:
        server.stop()


# -- slow and many clients ----------------------------------------------------------------


@pytest.fixture
def guarded_server():
    """The app on uvicorn with the server's protocol, a short read timeout and few
    connections, in a thread of this process."""
    import uvicorn

    from exactmines.ui.web.app import create_app
    from exactmines.ui.web.server import guarded_protocol

    config = uvicorn.Config(create_app(), host="127.0.0.1", port=0, log_level="critical",
                            http=guarded_protocol(read_timeout=0.5, max_connections=20))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive()
        time.sleep(0.02)
    yield server.servers[0].sockets[0].getsockname()[1]
    server.should_exit = True
    thread.join(10)


def _read_answer(sock: socket.socket) -> bytes:
    """One whole answer (its head, and a body of its Content-Length) from ``sock``."""
    sock.settimeout(60)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, "closed before an answer"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "closed within an answer"
        body += chunk
    assert len(body) == length, "more than one answer"
    return data.partition(b"\r\n\r\n")[0] + b"\r\n\r\n" + body


def _read_all(sock: socket.socket) -> bytes:
    sock.settimeout(60)
    chunks = []
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def test_a_request_that_does_not_arrive_whole_in_time_gets_408(guarded_server):
    for partial in (b"", b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n",
                    b"POST /api/analyze HTTP/1.1\r\nHost: localhost\r\n"
                    b"Content-Length: 100\r\n\r\n9x9x10\n"):
        started = time.monotonic()  # before the server's clock for it starts
        with socket.create_connection(("127.0.0.1", guarded_server)) as sock:
            sock.sendall(partial)
            answer = _read_all(sock)
            # Only the server's read timeout answers a request that never ends: not before
            # it (how late, on a loaded machine, is not the server's to bound).
            assert time.monotonic() - started > 0.4
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 ") and b"connection: close" in head
        assert json.loads(body) == {"error": "the request did not arrive whole within 0.5 s"}


@pytest.mark.parametrize("request_head", [
    b"NOT HTTP AT ALL\r\n\r\n",
    # A head still unfinished past h11's limit of 16 KiB (read by 64 KiB at most).
    b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"x" * 40_000,
])
def test_a_request_that_cannot_be_read_gets_400_with_an_error_line(guarded_server,
                                                                  request_head):
    with socket.create_connection(("127.0.0.1", guarded_server)) as sock:
        sock.sendall(request_head)
        answer = _read_all(sock)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ")
    assert json.loads(body) == {"error": "not an HTTP request this server can read "
                                         "(malformed, or too long a head)"}


def test_a_kept_alive_connection_must_send_its_next_request_whole_in_time(guarded_server):
    with socket.create_connection(("127.0.0.1", guarded_server)) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        first = _read_answer(sock)  # the first answer is in; the deadline holds for the next
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: loc")
        answer = _read_all(sock)
    assert first.startswith(b"HTTP/1.1 200 ") and answer.startswith(b"HTTP/1.1 408 ")


def test_connections_past_the_cap_close_the_oldest_waiting_and_the_server_answers(
        guarded_server):
    slow = []
    try:
        for _ in range(60):  # slow clients: a request head never finished
            sock = socket.create_connection(("127.0.0.1", guarded_server))
            sock.sendall(b"GET /api/health HTTP/1.1\r\n")
            slow.append(sock)
        # Each connection past the cap of 20 closed the oldest one waiting for its head,
        # at once, without waiting for the read timeout (with a line, or reset when the
        # server closed it before reading what it had sent).
        for sock in slow[:40]:
            try:
                answer = _read_all(sock)
            except ConnectionResetError:
                continue
            assert answer.startswith(b"HTTP/1.1 408 ") and b"make room" in answer
        answer = httpx.get(f"http://127.0.0.1:{guarded_server}/api/health", timeout=5)
        assert answer.status_code == 200
    finally:
        for sock in slow:
            sock.close()


def test_serve_caps_its_connections():
    from exactmines.ui.web.server import MAX_CONNECTIONS

    server = Served()
    host, port = server.url.split("//")[1].strip("/").split(":")
    held = []
    try:
        for _ in range(MAX_CONNECTIONS):
            sock = socket.create_connection((host, int(port)))
            sock.sendall(b"GET /api/health HTTP/1.1\r\n")  # a head never finished
            held.append(sock)
        # One more connection: the oldest one waiting for its head makes room for it.
        assert server.health()["status"] == "ok"
        with contextlib.suppress(ConnectionResetError):  # closed before its head was read
            assert _read_all(held[0]).startswith(b"HTTP/1.1 408 ")
        for sock in held:
            sock.close()
        _until(lambda: server.health()["status"] == "ok", what="health ok")
    finally:
        for sock in held:
            sock.close()
        server.stop()


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_memory_comes_back_after_large_answers():
    # Every covered cell's probability of four 500x500 boards: 15 MB answers that pass
    # through the server process (glibc kept them: +45 MB), made in workers that keep
    # the objects they took (recycled past their memory mark).
    server = Served()
    try:
        before = server.health()["workers"]
        own = _rss(server.process.pid)
        for mines in (10_000, 20_000, 30_000, 40_000):
            text = f"500x500x{mines}\n" + ("H" * 500 + "\n") * 500
            answer = httpx.post(server.url + "api/analyze", content=text, timeout=120)
            assert answer.status_code == 200 and len(answer.json()["cells"]) == 250_000
        assert _rss(server.process.pid) - own < 15 * 2**20
        after = server.health()["workers"]
        assert after["workers"] == before["workers"] and after["busy"] == 0
        assert after["rss"] < before["rss"] + 40 * 2**20, (before, after)
    finally:
        server.stop()


@pytest.mark.parametrize("host, names", [
    ("127.0.0.1", ("localhost", "127.0.0.1", "::1")),
    ("localhost", ("localhost", "127.0.0.1", "::1")),
    ("127.0.0.2", ("localhost", "127.0.0.1", "::1", "127.0.0.2")),
    ("192.168.1.5", ("localhost", "127.0.0.1", "::1", "192.168.1.5")),
    ("Box.LAN", ("localhost", "127.0.0.1", "::1", "box.lan")),
    ("0.0.0.0", None),
    ("::", None),
])
def test_the_host_names_a_server_answers(host, names):
    from exactmines.ui.web.server import allowed_hosts

    assert allowed_hosts(host) == names


def test_a_server_on_another_address_answers_by_that_address():
    server = Served("--host", "127.0.0.2")
    try:
        assert server.url.startswith("http://127.0.0.2:")
        assert server.health()["status"] == "ok"  # Host: 127.0.0.2:PORT
        refused = httpx.get(server.url + "api/health", headers={"host": "evil.example"})
        assert refused.status_code == 403
    finally:
        server.stop()
