"""How fast the command line starts: ``exactmines --version`` against importing typer alone,
the project's own import time, and ``exactmines analyze`` of the 9x9 reference position.

    python scripts/bench_startup.py               # 15 runs of each, after one warm-up
    python scripts/bench_startup.py --runs 31

Each figure is the median over fresh processes (wall time from outside; CPU time of the
child from the system's accounting). Targets (issue 40): ``--version`` at most 0.02 s of
CPU more than ``python -c "import typer"``; ``analyze`` of the reference under 0.3 s wall.
The project's own import time is the sum of ``python -X importtime``'s self times of the
``exactmines`` modules that ``--version`` loads (one process, the fastest of the runs). On
a loaded machine the medians grow: quote them with the load, and compare the pair.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "instances" / "reference-9x9.mine"
CLI = "from exactmines.ui.cli import main; import sys; sys.exit(main(sys.argv[1:]))"


def timed(command: list[str], runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``command`` run ``runs`` times (after one warm-up)."""
    walls, cpus = [], []
    for index in range(runs + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if index:  # the first run warms the file cache
            walls.append(wall)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def own_import_seconds(runs: int) -> float:
    """The self times of the ``exactmines`` modules ``--version`` imports, in seconds (the
    fewest of ``runs`` processes)."""
    best = float("inf")
    for _ in range(runs):
        err = subprocess.run([sys.executable, "-X", "importtime", "-c", CLI, "--version"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stderr
        total = 0
        for line in err.splitlines():
            if line.startswith("import time:") and line.rsplit("|", 1)[1].strip().startswith(
                    "exactmines"):
                total += int(line.split("|")[0].split(":")[1])
        best = min(best, total / 1e6)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="fresh processes per figure")
    args = parser.parse_args()
    python = sys.executable
    typer_wall, typer_cpu = timed([python, "-c", "import typer"], args.runs)
    version_wall, version_cpu = timed([python, "-c", CLI, "--version"], args.runs)
    analyze_wall, analyze_cpu = timed([python, "-c", CLI, "analyze", str(REFERENCE)], args.runs)
    own = own_import_seconds(args.runs)
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
          f"medians of {args.runs} runs")
    print(f"python -c 'import typer'          wall {typer_wall:.3f} s  cpu {typer_cpu:.3f} s")
    print(f"exactmines --version              wall {version_wall:.3f} s  cpu {version_cpu:.3f} s")
    over = version_cpu - typer_cpu
    print(f"  over importing typer (cpu)      {over:.3f} s  (target at most 0.020 s: "
          f"{'met' if over <= 0.020 else 'not met'})")
    print(f"  exactmines' own imports (self)  {own:.3f} s")
    print(f"exactmines analyze reference-9x9  wall {analyze_wall:.3f} s  cpu {analyze_cpu:.3f} s  "
          f"(target under 0.3 s wall: {'met' if analyze_wall < 0.3 else 'not met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
