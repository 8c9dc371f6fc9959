"""What ``exactmines serve`` costs over the analysis itself, under load, and in a browser.

Usage::

    python scripts/bench_serve.py              # everything (about a minute)
    python scripts/bench_serve.py --quick      # fewer positions and requests
    python scripts/bench_serve.py --no-browser # without headless Chromium
    python scripts/bench_serve.py --browser-only

It starts the real command (``python -m exactmines serve --port 0``) in a child process and
talks to it over loopback only:

``overhead``
    ``POST /api/analyze`` on the expert mid-game positions of ``bench_analyze.py`` (30x16/99,
    safe moves only), one keep-alive client: the round trip minus the analysis's own
    ``seconds`` is the server's overhead (HTTP, JSON in and out, the pool hand-off)
    [median <= 5 ms, p99 <= 30 ms].
``load``
    4 concurrent clients x 500 requests (the reference position): errors, requests per
    second, and the server's resident memory (VmRSS) before and after [no error, no growth].
``browser``
    headless Chromium (Debian's ``chromium``), the page as a player opens it, median of
    several runs each, with the server's CPU time per run (its process's user + system
    time, from ``/proc``): navigation to the first overlay with the list of guesses of an
    expert position at a guess (``instances/guide-candidates-30x16x99-seed1.mine``)
    [<= 500 ms]; a cell of that position edited with the keyboard to its updated overlay
    [<= 100 ms], median of 20 edits; navigation to the first overlay of a 300x300 position
    (``instances/large-300x300x18000-seed1.mine``, painted on a canvas) [<= 2 s].
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
                              stderr=subprocess.PIPE, text=True)
    assert server.stderr is not None
    line = server.stderr.readline()
    if "serving" not in line:
        server.kill()
        raise SystemExit(f"the server did not start: {line.strip()}")
    return server, line.split()[2]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


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


def load(url: str, pid: int, clients: int, requests: int) -> None:
    errors: list[str] = []
    before = rss_kb(pid)

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
    after = rss_kb(pid)
    total = clients * requests
    print(f"load: {clients} clients x {requests} requests = {total} in {seconds:.1f} s "
          f"({total / seconds:.0f}/s), {len(errors)} errors; server RSS {before / 1024:.1f} MB "
          f"before, {after / 1024:.1f} MB after")
    if errors:
        print("  first error:", errors[0])


def cpu_ms(pid: int) -> float:
    """CPU time (user + system) used so far by process ``pid``, in ms."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def fragment_of(name: str) -> str:
    text = (ROOT / "instances" / name).read_text()
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    return f"#{lines[0]}:{'/'.join(lines[1:])}"


READY = ("() => { const b = document.getElementById('board'); return b.dataset.state === "
         "'ready' && b.dataset.key === window.exactmines.positionKey(); }")


def first_overlays(chromium, url: str, fragment: str, runs: int, pid: int, ready: str
                   ) -> tuple[list[float], list[float]]:
    """Milliseconds from navigation to ``ready`` (the page's clock), and the server's CPU ms,
    for ``runs`` fresh pages."""
    walls, cpus = [], []
    for _ in range(runs):
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        before = cpu_ms(pid)
        page.goto(url + fragment)
        page.wait_for_function(ready, timeout=120_000)
        walls.append(page.evaluate("performance.now()"))
        cpus.append(cpu_ms(pid) - before)
        page.close()
    return walls, cpus


def browser(url: str, edits: int, runs: int, pid: int) -> None:
    from playwright.sync_api import sync_playwright

    expert = fragment_of("guide-candidates-30x16x99-seed1.mine")
    large = fragment_of("large-300x300x18000-seed1.mine")
    with_guesses = (f"() => ({READY})() && document.querySelectorAll('#candidates tbody tr')"
                    ".length === 5")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        first_overlays(chromium, url, expert, 1, pid, with_guesses)  # warm up the server
        loads, load_cpu = first_overlays(chromium, url, expert, runs, pid, with_guesses)
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url + expert)
        page.wait_for_function(with_guesses)
        page.focus("#board")
        for _ in range(15):  # to (15, 0): a covered cell far from the numbers
            page.keyboard.press("ArrowDown")
        times, edit_cpu = [], []
        for _ in range(edits):
            key = page.evaluate("window.exactmines.positionKey()")
            before = cpu_ms(pid)
            page.evaluate("window.__t0 = performance.now()")
            page.keyboard.press("f")  # a flag there, then taken away again
            page.wait_for_function(f"() => window.exactmines.positionKey() !== {key!r}")
            page.wait_for_function(READY)
            times.append(page.evaluate("performance.now() - window.__t0"))
            edit_cpu.append(cpu_ms(pid) - before)
        page.close()
        big, big_cpu = first_overlays(chromium, url, large, max(runs // 2, 2), pid, READY)
        chromium.close()
    med = statistics.median
    print(f"browser: navigation to the first overlay with its guesses, expert position: median "
          f"{med(loads):.0f} ms, min {min(loads):.0f} ({runs} loads; server CPU median "
          f"{med(load_cpu):.0f} ms)")
    print(f"browser: an edit to the updated overlay, same position: median {med(times):.0f} ms, "
          f"min {min(times):.0f}, max {max(times):.0f} ({edits} edits; server CPU median "
          f"{med(edit_cpu):.0f} ms)")
    print(f"browser: navigation to the first overlay, 300x300 position: median {med(big):.0f} "
          f"ms, min {min(big):.0f} ({len(big)} loads; server CPU median {med(big_cpu):.0f} ms)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--browser-only", action="store_true")
    args = parser.parse_args(argv)
    print(f"load average: {json.dumps(os.getloadavg())}")
    server, url = start_server()
    try:
        if not args.browser_only:
            overhead(url, 3 if args.quick else 10)
            load(url, server.pid, 4, 100 if args.quick else 500)
        if not args.no_browser:
            browser(url, 6 if args.quick else 20, 3 if args.quick else 7, server.pid)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
