"""The web server's worker pool: jobs ended at their time and their worker replaced, busy
said at once, errors handed back whole, workers recycled, and nothing left behind.

The jobs are library and standard-library functions (a worker imports what it runs):
``time.sleep`` for work that will not stop, ``os.getpid`` to see which worker ran.
"""

from __future__ import annotations

import asyncio
import operator
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from exactmines.errors import InputError, WorkerLost
from exactmines.io.formats import position_from_text
from exactmines.ui.web.workers import (
    Busy,
    JobCrashed,
    Overtime,
    PoolLimits,
    ShuttingDown,
    WorkerPool,
)


async def until(condition, seconds: float = 60.0) -> None:
    """Waits on the event loop until ``condition()`` holds, failing past ``seconds``: a
    loaded machine makes the wait longer, never the test wrong."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not within {seconds} s"
        await asyncio.sleep(0.02)


def run(scenario, limits: PoolLimits):
    """``scenario(pool)`` on a new pool, closed afterwards."""

    async def main():
        pool = WorkerPool(limits)
        await pool.start()
        try:
            return await scenario(pool)
        finally:
            await pool.close()

    return asyncio.run(main())


def _gone(pid: int) -> bool:
    try:
        return "\nState:\tZ" in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True


def test_a_job_past_its_time_is_ended_and_its_worker_replaced():
    async def scenario(pool):
        first = await pool.run(os.getpid, (), seconds=10)
        started = time.monotonic()
        with pytest.raises(Overtime, match=r"^not finished within 0.5 s$"):
            await pool.run(time.sleep, (60,), seconds=0.5)
        stopped = time.monotonic() - started
        # Replaced in the background: the caller was not kept waiting for the new process.
        await until(lambda: pool.status()["workers"] == 1)
        status = pool.status()
        second = await pool.run(os.getpid, (), seconds=10)
        return first, second, stopped, status

    first, second, stopped, status = run(scenario, PoolLimits(workers=1, warm=1))
    assert stopped >= 0.5  # not before its time (how soon after: scripts/bench_serve.py)
    assert status["workers"] == 1 and status["busy"] == 0 and status["replaced"] == 1
    assert second != first and _gone(first)


def test_a_fallback_runs_on_the_worker_that_replaces_the_stopped_one():
    async def scenario(pool):
        return await pool.run(time.sleep, (60,), seconds=0.3,
                              fallback=(operator.mul, (6, 7), 10))

    assert run(scenario, PoolLimits(workers=1, warm=1, queue=0)) == 42


def test_every_worker_busy_and_the_queue_full_is_busy_at_once():
    async def scenario(pool):
        sleeping = [asyncio.ensure_future(pool.run(time.sleep, (1.5,), seconds=3))
                    for _ in range(3)]  # two workers, one waiting
        await until(lambda: pool.status()["busy"] == 2 and pool.status()["waiting"] == 1)
        with pytest.raises(Busy) as busy:
            await pool.run(operator.add, (1, 2), seconds=1)
        # Refused at once: while the jobs that fill the pool are all still there.
        running = sum(not s.done() for s in sleeping)
        status = pool.status()
        await asyncio.gather(*sleeping)
        return busy.value, running, status

    busy, running, status = run(scenario, PoolLimits(workers=2, warm=2, queue=1))
    assert running == 3
    assert 1 <= busy.retry_after <= 3  # the running jobs end within their 3 s
    assert str(busy).startswith("busy: every worker is taken and the queue is full")
    assert status["busy"] == 2 and status["waiting"] == 1


def test_a_waiting_caller_gets_the_first_worker_freed():
    async def scenario(pool):
        sleeping = asyncio.ensure_future(pool.run(time.sleep, (0.5,), seconds=5))
        await until(lambda: pool.status()["busy"] == 1)
        total = await pool.run(operator.add, (2, 3), seconds=5)
        waited = sleeping.done()  # it ran on the worker the sleeping one gave back
        await sleeping
        return total, waited

    total, waited = run(scenario, PoolLimits(workers=1, warm=1, queue=1))
    assert total == 5 and waited


def test_errors_come_back_as_raised():
    async def scenario(pool):
        with pytest.raises(InputError) as bad:
            await pool.run(position_from_text, ("3x1\nHXH\n", "a.mine"), seconds=10)
        with pytest.raises(JobCrashed) as crashed:
            await pool.run(int, ("seven",), seconds=10)
        with pytest.raises(WorkerLost):
            await pool.run(os._exit, (3,), seconds=10)
        alive = await pool.run(operator.add, (1, 1), seconds=10)  # a new worker took over
        return bad.value, crashed.value, alive

    bad, crashed, alive = run(scenario, PoolLimits(workers=1, warm=1))
    assert str(bad) == "a.mine:2:2: unknown character 'X' (expected 0-8, H, F, M or ?)"
    assert (bad.source, bad.line, bad.column) == ("a.mine", 2, 2)
    assert str(crashed) == "ValueError: invalid literal for int() with base 10: 'seven'"
    assert alive == 2


@pytest.mark.parametrize("limits", [PoolLimits(workers=1, warm=1, jobs=2),
                                    PoolLimits(workers=1, warm=1, memory=1)])
def test_workers_are_replaced_after_their_jobs_or_past_their_memory(limits):
    async def scenario(pool):
        return [await pool.run(os.getpid, (), seconds=10) for _ in range(4)]

    pids = run(scenario, limits)
    every = limits.jobs if limits.memory > 1 else 1
    assert len(set(pids)) == len(pids) // every
    assert all(_gone(pid) for pid in pids)


def test_a_worker_reaped_by_two_threads_closes_its_pipe_once():
    """The pool's close can reap a worker that its replacement is reaping: the two must
    not close the pipe at the same time (the second close of a descriptor may close
    another file's)."""
    import threading

    from exactmines.ui.web.workers import _Worker

    class Pipe:
        def __init__(self):
            self.inside = 0
            self.overlapped = False
            self.closed = 0

        def close(self):
            self.inside += 1
            self.overlapped |= self.inside > 1
            time.sleep(0.05)
            self.closed += 1
            self.inside -= 1

    class Ended:
        def join(self, timeout):
            return None

    pipe = Pipe()
    worker = _Worker(Ended(), pipe)
    threads = [threading.Thread(target=worker.reap) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not pipe.overlapped and pipe.closed == 4


def test_idle_workers_beyond_the_warm_ones_end():
    async def scenario(pool):
        await asyncio.gather(*(pool.run(time.sleep, (0.3,), seconds=5) for _ in range(4)))
        during = pool.status()["workers"]
        await until(lambda: pool.status()["workers"] == 1)
        return during, pool.status()["workers"]

    during, after = run(scenario, PoolLimits(workers=4, warm=1, idle=1.0))
    assert during >= 4 and after == 1


def test_closing_ends_every_worker_and_answers_every_caller():
    async def main():
        pool = WorkerPool(PoolLimits(workers=1, warm=1, queue=1))
        await pool.start()
        running = asyncio.ensure_future(pool.run(time.sleep, (60,), seconds=60))
        waiting = asyncio.ensure_future(pool.run(time.sleep, (60,), seconds=60))
        await until(lambda: pool.status()["busy"] == 1 and pool.status()["waiting"] == 1)
        pids = pool.pids()
        started = time.monotonic()
        await pool.close()
        outcomes = await asyncio.gather(running, waiting, return_exceptions=True)
        with pytest.raises(ShuttingDown):
            await pool.run(operator.add, (1, 1), seconds=1)
        return pids, outcomes, time.monotonic() - started

    pids, outcomes, seconds = asyncio.run(main())
    assert [type(o) for o in outcomes] == [ShuttingDown, ShuttingDown]
    assert pids and all(_gone(pid) for pid in pids)


ORPHAN = """
import asyncio, time
from exactmines.ui.web.workers import WorkerPool, PoolLimits

async def main():
    pool = WorkerPool(PoolLimits(workers=1, warm=1))
    await pool.start()
    job = asyncio.ensure_future(pool.run(time.sleep, (60,), seconds=60))
    while not pool.status()["busy"]:  # said once the worker has its job
        await asyncio.sleep(0.01)
    print(pool.pids()[0], flush=True)
    await job

if __name__ == "__main__":
    asyncio.run(main())
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_a_worker_ends_when_its_server_is_killed(tmp_path):
    script = tmp_path / "server.py"
    script.write_text(ORPHAN)
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert server.stdout is not None
    worker = int(server.stdout.readline())  # printed once the worker is busy with its job
    server.kill()  # no chance to end its workers
    server.wait()
    deadline = time.monotonic() + 60
    while not _gone(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _gone(worker)
