"""The server answers in time or refuses at once: positions larger than it takes are 413
before any work, slow clients cannot hold its connections, and a worker past its memory
limit is replaced. Against a real ``exactmines serve`` on 127.0.0.1 where sockets matter."""

from __future__ import annotations

import contextlib
import socket
import time

import httpx
import pytest
from fastapi.testclient import TestClient
from test_web_server import Served, _read_all

from exactmines.ui.web.app import Settings, create_app
from exactmines.ui.web.server import PER_ADDRESS


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), base_url="http://localhost",
                    raise_server_exceptions=False) as c:
        yield c


def covered(width: int, height: int) -> str:
    return f"{width}x{height}x{width * height // 5}\n" + ("H" * width + "\n") * height


@pytest.mark.parametrize("width, height", [(1, 100_000), (1001, 2), (600, 600)])
def test_a_position_larger_than_the_server_takes_is_413_before_any_work(client, width,
                                                                         height):
    settings = Settings()
    for path in ("/api/analyze", "/api/overlay"):
        for body in ({"text": covered(width, height)},
                     {"grid": ["H" * width] * height, "mines": 3}):
            answer = client.post(path, json=body)
            assert answer.status_code == 413, answer.text
            message = answer.json()["error"]
            assert message == (f"a {width}x{height} position is larger than this server "
                               f"analyses: at most {settings.max_cells:,} cells and "
                               f"{settings.max_position_side} a side")
    # The plain-text form too; the health check publishes both limits.
    answer = client.post("/api/analyze", content=covered(width, height).encode())
    assert answer.status_code == 413
    health = client.get("/api/health").json()
    assert (health["max_cells"], health["max_position_side"]) == (
        settings.max_cells, settings.max_position_side)


def test_the_largest_position_taken_is_answered(client):
    settings = Settings()
    side = int(settings.max_cells ** 0.5)
    answer = client.post("/api/analyze", json={"text": covered(side, side), "time_limit": 1})
    assert answer.status_code == 200 and answer.json()["width"] == side


def test_a_lying_header_is_refused_by_the_parser_not_the_size(client):
    # Declares 9x9 but holds a long row: the size check passes, the parser refuses it.
    answer = client.post("/api/analyze", json={"text": "9x9x10\n" + "H" * 5000 + "\n"})
    assert answer.status_code == 400


def test_slow_clients_from_one_address_never_hold_the_health_check():
    server = Served()
    host, port = server.url.split("//")[1].strip("/").split(":")
    slow: list[socket.socket] = []
    try:
        for _ in range(100):  # a head never finished, one byte at a time
            sock = socket.create_connection((host, int(port)))
            sock.sendall(b"G")
            slow.append(sock)
        for round_ in range(3):
            for sock in slow:
                with contextlib.suppress(OSError):  # closed to make room, or too slow
                    sock.sendall(b"E")
            answer = httpx.get(server.url + "api/health", timeout=30)
            assert answer.status_code == 200, (round_, answer.text)
        # At most PER_ADDRESS of them were ever held; the others were closed with a line.
        closed = 0
        for sock in slow[:100 - PER_ADDRESS]:
            try:
                reply = _read_all(sock)
            except ConnectionResetError:  # closed before the server read what it sent
                reply = b""
            assert reply.startswith(b"HTTP/1.1 408 ") or reply == b"", reply
            closed += 1
        assert closed == 100 - PER_ADDRESS
    finally:
        for sock in slow:
            sock.close()
        server.stop()


def test_a_head_that_does_not_come_in_time_is_408_before_the_body_timeout():
    server = Served()
    host, port = server.url.split("//")[1].strip("/").split(":")
    try:
        with socket.create_connection((host, int(port))) as sock:
            sock.sendall(b"GET /api/health HTTP/1.1\r\n")
            sock.settimeout(30)
            chunks = []
            while chunk := sock.recv(4096):
                chunks.append(chunk)
            answer = b"".join(chunks)
        assert answer.startswith(b"HTTP/1.1 408 ") and b"head did not arrive" in answer
    finally:
        server.stop()


def test_a_worker_past_its_memory_limit_is_ended_and_replaced():
    import asyncio

    from exactmines.ui.web.workers import OverMemory, PoolLimits, WorkerPool, process_rss

    # A job that takes 400 MB and then would run for a minute (exec: a builtin a worker
    # can be sent; its own namespace, not the worker's).
    hog = ("import time\nheld = bytearray(400 * 2**20)\nfor _ in range(600):\n"
           "    held[::4096] = bytes(len(held[::4096]))\n    time.sleep(0.1)\n")

    async def scenario():
        pool = WorkerPool(PoolLimits(workers=1, warm=1, memory_limit=300 * 2**20))
        await pool.start()
        try:
            pid = pool.pids()[0]
            assert process_rss(pid) < 300 * 2**20
            with pytest.raises(OverMemory, match="memory limit of 300 MB"):
                await pool.run(exec, (hog, {}), seconds=120)
            # Replaced in the background: poll (a loaded machine starts it later).
            deadline = time.monotonic() + 60
            while not pool.pids() and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert pool.replaced == 1 and pool.pids() and pool.pids()[0] != pid
            return await pool.run(sum, ([1, 2],), seconds=30)
        finally:
            await pool.close()

    assert asyncio.run(scenario()) == 3


def test_an_answer_larger_than_the_server_sends_is_413():
    with TestClient(create_app(Settings(max_reply=100_000)), base_url="http://localhost",
                    raise_server_exceptions=False) as small:
        text = covered(60, 60)  # 3,600 cell objects: about 200 KB
        answer = small.post("/api/analyze", json={"text": text})
        assert answer.status_code == 413
        assert answer.json()["error"].endswith("more than the 100,000 this server sends")
        answer = small.post("/api/overlay", json={"text": text})
        assert answer.status_code == 413
        assert answer.json()["error"].endswith('; ask for "grouped": true')
        grouped = small.post("/api/overlay", json={"text": text, "grouped": True})
        assert grouped.status_code == 200 and len(grouped.content) < 100_000


def test_a_job_given_up_leaves_no_exception_unretrieved():
    # The fuzz found "Future exception was never retrieved" (an EOFError) in the server's
    # output after a worker was ended at its time: the exchange was left behind.
    import asyncio
    import gc

    from exactmines.ui.web.workers import Overtime, PoolLimits, WorkerPool

    logged: list[dict] = []

    async def scenario():
        asyncio.get_running_loop().set_exception_handler(lambda loop, context:
                                                         logged.append(context))
        pool = WorkerPool(PoolLimits(workers=1, warm=1))
        await pool.start()
        try:
            with pytest.raises(Overtime):
                await pool.run(time.sleep, (30,), seconds=0.3)
            assert await pool.run(sum, ([2, 3],), seconds=30) == 5
            await asyncio.sleep(0.5)  # the killed worker's exchange ends meanwhile
            gc.collect()
        finally:
            await pool.close()

    asyncio.run(scenario())
    assert [c.get("message") for c in logged] == []


@pytest.mark.parametrize("path", ["/api/analyze", "/api/overlay"])
def test_a_worker_ended_before_it_read_the_position_answers_200_not_computed(path):
    # The worker went past its time and was ended before even its position was read (a
    # loaded machine); no other worker is asked to read it again (the audit got 500 when
    # that one did not finish in time either): the server answers itself.
    from exactmines.ui.web import bodies
    from exactmines.ui.web.workers import Overtime

    app = create_app()
    pool = app.state.pool
    real = pool.run
    asked = []

    async def ended(job, args, *, seconds, fallback=None):
        if job is bodies.installed_backends:
            return await real(job, args, seconds=seconds)
        asked.append(job)
        raise Overtime(f"not finished within {seconds:g} s")

    pool.run = ended
    text = "3x3x2\n1HH\nHHH\nHH1\n"
    with TestClient(app, base_url="http://localhost", raise_server_exceptions=False) as c:
        answer = c.post(path, json={"text": text, "time_limit": 1})
    assert answer.status_code == 200, answer.text
    assert len(asked) == 1  # the job, once: no second worker
    body = answer.json()
    analysis = body["analysis"] if path == "/api/overlay" else body
    assert analysis["consistent"] is None and analysis["layouts"] is None
    assert analysis["probabilities_computed"] is False
    assert analysis["verdicts_complete"] is False
    assert [(c["row"], c["col"], c["probability"], c["verdict"])
            for c in analysis["cells"]] == [
        (r, col, None, "unknown") for r, row in enumerate(text.split("\n")[1:4])
        for col, ch in enumerate(row) if ch == "H"]
    assert analysis["notes"][0].startswith("not computed: the work was stopped after ")
