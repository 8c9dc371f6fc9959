"""What ``exactmines serve`` costs over the analysis itself, under load, in a browser, and
whether it keeps answering under hard requests, signals, slow clients and big boards.

Usage::

    python scripts/bench_serve.py              # everything (a few minutes)
    python scripts/bench_serve.py --quick      # fewer positions, requests and boards
    python scripts/bench_serve.py --no-browser # without headless Chromium
    python scripts/bench_serve.py --only hard sigterm   # some parts only

It starts the real command (``python -m exactmines serve --port 0``) in a child process and
talks to it over loopback only:

``overhead``
    ``POST /api/analyze`` on the expert mid-game positions of ``bench_analyze.py`` (30x16/99,
    safe moves only), one keep-alive client: the round trip minus the analysis's own
    ``seconds`` is the server's overhead (HTTP, JSON in and out, the pool hand-off)
    [median <= 5 ms, p99 <= 30 ms].
``load``
    4 concurrent clients x 500 requests (the reference position): errors, requests per
    second, and the resident memory of the server and its workers before and after [no
    error, no growth].
``browser``
    headless Chromium (Debian's ``chromium``), the page as a player opens it, median of
    several runs each, with the CPU time the server and its workers spent on each run
    (user + system time of the process tree, from ``/proc``): navigation to the first
    overlay with the list of guesses of an expert position at a guess
    (``instances/guide-candidates-30x16x99-seed1.mine``) [<= 500 ms]; a cell of that
    position edited with the keyboard to its updated overlay [<= 100 ms], median of 20
    edits; navigation to the first overlay of a 300x300 position
    (``instances/large-300x300x18000-seed1.mine``, painted on a canvas) [<= 2 s].
``hard``
    4 hard positions at once (a compiled 3-SAT formula, 20 variables and 40 clauses, that no
    engine counts in seconds) with ``time_limit`` 1, then ``/api/health`` and the 9x9
    reference: their latency [<= 1 s], when the hard ones answer (200, "not computed")
    [<= 2 s past the limit], and how long until the server's workers and memory are back
    where they were [back].
``sigterm``
    the same with ``time_limit`` 30 and SIGTERM to the server 1 s in: its exit status and
    how long it took [143 within 5 s], and whether a worker process outlived it [none].
``slow``
    600 clients that open a connection and send half a request head: how many the server
    holds, how many it refuses at once (503), whether a new client is answered once the
    read timeout (10 s) has closed the slow ones.
``fuzz``
    all-covered boards of random sizes up to 1400x1400 (the biggest answers the server
    makes: every cell's probability), one after another: the resident memory of the
    server and its workers at the start, at its peak and once the big jobs are gone
    [back near the start].
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(Path(__file__).parent))

from bench_analyze import midgame_positions  # noqa: E402

from exactmines.io.formats import position_to_mine  # noqa: E402

REFERENCE = (ROOT / "instances" / "reference-9x9.mine").read_text()
CHROMIUM = os.environ.get("EXACTMINES_CHROMIUM") or shutil.which("chromium") or "chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def start_server() -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen([sys.executable, "-m", "exactmines", "serve", "--port", "0"],
                              stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert server.stderr is not None
    line = server.stderr.readline()
    if "serving" not in line:
        server.kill()
        raise SystemExit(f"the server did not start: {line.strip()}")
    return server, line.split()[2]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def overhead(url: str, games: int) -> None:
    texts = [position_to_mine(p) for _, p in midgame_positions(games)]
    extra: list[float] = []
    analysis: list[float] = []
    with httpx.Client(base_url=url, timeout=60) as client:
        client.post("api/analyze", json={"text": texts[0]})  # warm up imports and caches
        for text in texts:
            started = time.perf_counter()
            answer = client.post("api/analyze", json={"text": text})
            wall = time.perf_counter() - started
            answer.raise_for_status()
            seconds = answer.json()["seconds"]
            analysis.append(seconds * 1000)
            extra.append((wall - seconds) * 1000)
    print(f"overhead: {len(texts)} expert mid-game positions; analysis median "
          f"{statistics.median(analysis):.2f} ms; server overhead median "
          f"{statistics.median(extra):.2f} ms, p99 {percentile(extra, 0.99):.2f} ms, "
          f"max {max(extra):.2f} ms")


def settle(url: str, seconds: float = 60) -> tuple[dict, float]:
    """Wait until no request runs and the extra workers are gone (idle ones end after 5 s,
    2 stay): the server's health then, and how long that took."""
    started = time.perf_counter()
    health = httpx.get(url + "api/health", timeout=60).json()["workers"]
    while (health["busy"] or health["workers"] > 2) and time.perf_counter() - started < seconds:
        time.sleep(0.25)
        health = httpx.get(url + "api/health", timeout=60).json()["workers"]
    return health, time.perf_counter() - started


def load(url: str, clients: int, requests: int) -> None:
    errors: list[str] = []
    before = settle(url)[0]["rss"]

    def client_loop() -> None:
        with httpx.Client(base_url=url, timeout=60) as client:
            for _ in range(requests):
                answer = client.post("api/analyze", json={"text": REFERENCE})
                if answer.status_code != 200 or answer.json()["layouts"] != "1031":
                    errors.append(f"{answer.status_code} {answer.text[:80]}")

    threads = [threading.Thread(target=client_loop) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    after, waited = settle(url)
    total = clients * requests
    print(f"load: {clients} clients x {requests} requests = {total} in {seconds:.1f} s "
          f"({total / seconds:.0f}/s), {len(errors)} errors; server and workers RSS "
          f"{before / 2**20:.1f} MB before, {after['rss'] / 2**20:.1f} MB after "
          f"({waited:.1f} s later, {after['workers']} workers)")
    if errors:
        print("  first error:", errors[0])


def cpu_ms(pid: int) -> float:
    """CPU time (user + system) used so far by process ``pid`` and its descendants (the
    server's workers, those ended included), in ms."""
    total = 0
    for process in [pid, *descendants(pid)]:
        try:
            fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:  # ended meanwhile: its parent counts it once reaped
            continue
        total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return total * 1000 / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    found = []
    for child in children(pid):
        found += [child, *descendants(child)]
    return found


def fragment_of(name: str) -> str:
    text = (ROOT / "instances" / name).read_text()
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    return f"#{lines[0]}:{'/'.join(lines[1:])}"


READY = ("() => { const b = document.getElementById('board'); return b.dataset.state === "
         "'ready' && b.dataset.key === window.exactmines.positionKey(); }")

# Timed in the page itself, not through the browser's remote control: the moment each
# overlay has been drawn (the frame after the board became ready) with the number of
# guesses listed, and the moment of the last key pressed.
CLOCK = """
window.__drawn = []; window.__key = null;
document.addEventListener("keydown", () => { window.__key = performance.now(); }, true);
new MutationObserver((changes) => {
  for (const change of changes) {
    if (change.target.id === "board" && change.target.dataset.state === "ready") {
      requestAnimationFrame(() => window.__drawn.push([performance.now(),
        document.querySelectorAll("#candidates tbody tr").length]));
    }
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
"""


def first_overlays(chromium, url: str, fragment: str, runs: int, pid: int, guesses: int
                   ) -> tuple[list[float], list[float]]:
    """Milliseconds from navigation to the first overlay drawn with ``guesses`` guesses
    listed (the page's clock), and the server's CPU ms, for ``runs`` fresh pages."""
    walls, cpus = [], []
    for _ in range(runs):
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        page.add_init_script(CLOCK)
        before = cpu_ms(pid)
        page.goto(url + fragment)
        page.wait_for_function(f"() => window.__drawn.some(d => d[1] === {guesses})",
                               timeout=120_000)
        walls.append(page.evaluate(f"window.__drawn.find(d => d[1] === {guesses})[0]"))
        cpus.append(cpu_ms(pid) - before)
        page.close()
    return walls, cpus


def browser(url: str, edits: int, runs: int, pid: int) -> None:
    from playwright.sync_api import sync_playwright

    expert = fragment_of("guide-candidates-30x16x99-seed1.mine")
    large = fragment_of("large-300x300x18000-seed1.mine")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        first_overlays(chromium, url, expert, 1, pid, 5)  # warm up the server
        loads, load_cpu = first_overlays(chromium, url, expert, runs, pid, 5)
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        page.add_init_script(CLOCK)
        page.goto(url + expert)
        page.wait_for_function(READY)
        page.focus("#board")
        for _ in range(15):  # to (15, 0): a covered cell far from the numbers
            page.keyboard.press("ArrowDown")
        times, edit_cpu = [], []
        for _ in range(edits):
            key = page.evaluate("window.exactmines.positionKey()")
            drawn = page.evaluate("window.__drawn.length")
            before = cpu_ms(pid)
            page.keyboard.press("f")  # a flag there, then taken away again
            page.wait_for_function(f"() => window.exactmines.positionKey() !== {key!r}")
            page.wait_for_function(f"() => ({READY})() && window.__drawn.length > {drawn}")
            times.append(page.evaluate("window.__drawn[window.__drawn.length - 1][0] - "
                                       "window.__key"))
            edit_cpu.append(cpu_ms(pid) - before)
        page.close()
        big, big_cpu = first_overlays(chromium, url, large, max(runs // 2, 2), pid, 0)
        chromium.close()
    med = statistics.median
    print(f"browser: navigation to the first overlay with its guesses, expert position: median "
          f"{med(loads):.0f} ms, min {min(loads):.0f} ({runs} loads; server CPU median "
          f"{med(load_cpu):.0f} ms)")
    print(f"browser: a key pressed to the updated overlay drawn, same position: median "
          f"{med(times):.0f} ms, min {min(times):.0f}, max {max(times):.0f} ({edits} edits; "
          f"server CPU median {med(edit_cpu):.0f} ms)")
    print(f"browser: navigation to the first overlay, 300x300 position: median {med(big):.0f} "
          f"ms, min {min(big):.0f} ({len(big)} loads; server CPU median {med(big_cpu):.0f} ms)")


def hard_text() -> str:
    from exactmines.generate.positions import random_sat_instances

    return random_sat_instances(20, 40, 3, 1)[0].text


def post_at_once(url: str, text: str, limit: float, count: int) -> list[dict]:
    """``count`` analyses posted at once; each result: status, seconds, body (or error)."""
    results: list[dict] = [{} for _ in range(count)]

    def post(i: int) -> None:
        started = time.perf_counter()
        try:
            answer = httpx.post(url + "api/analyze", json={"text": text, "time_limit": limit},
                                timeout=120)
            results[i].update(status=answer.status_code, body=answer.json())
        except httpx.HTTPError as exc:
            results[i].update(status=None, body=repr(exc))
        results[i]["seconds"] = time.perf_counter() - started

    threads = [threading.Thread(target=post, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    results.append({"threads": threads})
    return results


def timed(call) -> tuple[float, httpx.Response]:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    answer = call()
    return time.perf_counter() - started, answer


def hard(url: str, text: str, runs: int) -> None:
    limit = 1.0
    for run in range(runs):
        before = settle(url)[0]
        results = post_at_once(url, text, limit, 4)
        threads = results.pop()["threads"]
        time.sleep(0.3)
        health_s, _ = timed(lambda: httpx.get(url + "api/health", timeout=60))
        small_s, small = timed(lambda: httpx.post(url + "api/analyze", json={"text": REFERENCE},
                                                  timeout=60))
        for thread in threads:
            thread.join()
        after, back = settle(url)
        statuses = sorted({str(r["status"]) for r in results})
        computed = sum(isinstance(r["body"], dict) and r["body"].get("probabilities_computed")
                       is not False for r in results)
        stopped = sum(isinstance(r["body"], dict) and any("stopped" in n for n in
                                                          r["body"].get("notes", ()))
                      for r in results)
        past = [r["seconds"] - limit for r in results]
        print(f"hard (run {run + 1}): 4 hard positions, limit {limit:g} s: health "
              f"{health_s * 1000:.0f} ms, 9x9 reference {small_s * 1000:.0f} ms "
              f"({small.status_code}); hard ones {'/'.join(statuses)} at "
              f"{min(past):.2f}-{max(past):.2f} s past the limit ({computed} claimed "
              f"anything computed, {stopped} of 4 ended by the server); workers "
              f"{before['workers']} -> {after['workers']}, memory {before['rss'] / 2**20:.0f} "
              f"-> {after['rss'] / 2**20:.0f} MB, back {back:.1f} s after the last answer")


def sigterm(text: str) -> None:
    server, url = start_server()
    try:
        results = post_at_once(url, text, 30.0, 4)
        threads = results.pop()["threads"]
        time.sleep(1.0)
        busy = httpx.get(url + "api/health").json()["workers"]["busy"]
        workers = [int(p) for child in children(server.pid) for p in children(child)]
        started = time.perf_counter()
        server.send_signal(signal.SIGTERM)
        code = server.wait(30)
        seconds = time.perf_counter() - started
    finally:
        if server.poll() is None:
            server.kill()
    for thread in threads:
        thread.join()
    time.sleep(1.5)
    alive = [pid for pid in workers if Path(f"/proc/{pid}").exists()
             and "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()]
    statuses = sorted({str(r["status"]) for r in results})
    print(f"sigterm: 4 hard positions, limit 30 s, {busy} running; SIGTERM 1 s in: exit "
          f"{code} after {seconds:.2f} s; the requests got {'/'.join(statuses)}; "
          f"{len(alive)} of {len(workers)} workers alive 1.5 s later")


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(p) for p in (task / "children").read_text().split()]
    return found


def slow(url: str, clients: int) -> None:
    import socket

    host, port = url.split("//")[1].strip("/").rsplit(":", 1)
    held: list[socket.socket] = []
    refused = 0
    started = time.perf_counter()
    for _ in range(clients):
        sock = socket.create_connection((host, int(port)))
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n")
        sock.settimeout(0.05)
        try:
            if sock.recv(64).startswith(b"HTTP/1.1 503"):
                refused += 1
                sock.close()
                continue
        except TimeoutError:
            pass
        held.append(sock)
    opened = time.perf_counter() - started
    during = httpx.get(url + "api/health", timeout=30).status_code if refused == 0 else None
    for sock in held:
        sock.settimeout(30)
    answered = []
    for sock in held:
        try:
            answered.append(sock.recv(64)[:12].decode())
        except OSError:
            answered.append("closed")
        sock.close()
    freed = time.perf_counter() - started
    after_s, after = timed(lambda: httpx.get(url + "api/health", timeout=30))
    shown = ", ".join(f"{n} {code}" for code, n in sorted(
        (code, answered.count(code)) for code in set(answered)))
    print(f"slow: {clients} clients sending half a head in {opened:.1f} s: {len(held)} held, "
          f"{refused} refused at once (503){'' if during is None else f', health {during}'}; "
          f"the held ones got {shown} within {freed:.1f} s; then health {after.status_code} "
          f"in {after_s * 1000:.0f} ms")


def fuzz(url: str, boards: int, seed: int = 1) -> None:
    import random

    rng = random.Random(seed)
    start = peak = settle(url)[0]["rss"]
    errors = []
    stop = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, httpx.get(url + "api/health", timeout=60).json()["workers"]["rss"])
            time.sleep(0.2)

    watcher = threading.Thread(target=watch)
    watcher.start()
    started = time.perf_counter()
    cells = 0
    with httpx.Client(base_url=url, timeout=300) as client:
        for _ in range(boards):
            width, height = rng.randint(1, 1400), rng.randint(1, 1400)
            mines = rng.randint(0, width * height - 1)
            text = f"{width}x{height}x{mines}\n" + ("H" * width + "\n") * height
            cells += width * height
            answer = client.post("api/analyze", content=text, params={"time_limit": 30})
            if answer.status_code != 200:
                errors.append(f"{answer.status_code} {answer.text[:80]}")
    stop.set()
    watcher.join()
    seconds = time.perf_counter() - started
    after, waited = settle(url)
    print(f"fuzz: {boards} all-covered boards up to 1400x1400 ({cells / 1e6:.1f} M cells) in "
          f"{seconds:.0f} s, {len(errors)} errors; memory of the server and its workers "
          f"{start / 2**20:.0f} MB at the start, {peak / 2**20:.0f} MB at the peak, "
          f"{after['rss'] / 2**20:.0f} MB {waited:.1f} s after the last answer "
          f"({after['workers']} workers, {after['replaced']} replaced so far)")
    if errors:
        print("  first error:", errors[0])


PARTS = ("overhead", "load", "browser", "hard", "sigterm", "slow", "fuzz")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--only", nargs="+", choices=PARTS, default=list(PARTS))
    args = parser.parse_args(argv)
    parts = [p for p in args.only if not (p == "browser" and args.no_browser)]
    print(f"load average: {json.dumps(os.getloadavg())}")
    text = hard_text() if {"hard", "sigterm"} & set(parts) else ""
    server, url = start_server()
    try:
        if "overhead" in parts:
            overhead(url, 3 if args.quick else 10)
        if "load" in parts:
            load(url, 4, 100 if args.quick else 500)
        if "browser" in parts:
            browser(url, 6 if args.quick else 20, 3 if args.quick else 7, server.pid)
        if "hard" in parts:
            hard(url, text, 1 if args.quick else 3)
        if "slow" in parts:
            slow(url, 600)
        if "fuzz" in parts:
            fuzz(url, 10 if args.quick else 40)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(20)
    if "sigterm" in parts:
        sigterm(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
