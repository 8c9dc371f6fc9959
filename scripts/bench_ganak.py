"""The Ganak engine on sparse 30x16/99 boards (issue 40: "Ganak without a process per count").

    python scripts/bench_ganak.py                 # the board of docs/benchmarks.md (seed 1)
    python scripts/bench_ganak.py --seeds 1 2 3 --runs 3

For each board (``exactmines generate sparse --width 30 --height 16 --mines 99 --seed S``,
instance 0):

``components``
    every component counted by ``ganak.count_component`` in this process, smallest first:
    its cells, Ganak calls and CPU seconds, checked against the DP's counts (exit 1 if
    they differ);
``analyze``
    ``analyze(position, backend="ganak")`` as the command runs it (the counts in a child
    process, the verdicts after them), no time limit: wall seconds, and CPU seconds of
    this process plus the child's (read from the system while the child waits for its next
    request), the fastest of ``--runs`` after a first run that also starts the child
    (shown apart). Its answer must equal the DP engine's (exit 1 otherwise).

CPU time is the per-core cost even on a shared, loaded machine; wall time grows with the
load: quote both with the load (shown).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import psutil

from exactmines import analyze
from exactmines.analysis.backends import ganak
from exactmines.analysis.backends.dp import count_component as dp_count
from exactmines.analysis.frontier import build_frontier
from exactmines.analysis.serialize import analysis_to_dict
from exactmines.child import _idle
from exactmines.generate.families import sparse_position


def children_cpu() -> float:
    """CPU seconds of the idle children of :mod:`exactmines.child` (0 for none)."""
    total = 0.0
    for child in list(_idle):
        try:
            times = psutil.Process(child.process.pid).cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def own_cpu() -> float:
    return time.process_time()


def answer(position, backend: str) -> dict:  # type: ignore[no-untyped-def]
    data = analysis_to_dict(analyze(position, backend=backend))
    data.pop("seconds", None)
    data.pop("backend", None)
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    failed = False
    print(f"load {os.getloadavg()[0]:.1f}")
    for seed in args.seeds:
        position = sparse_position(seed, 0, width=30, height=16, mines=99)
        components = sorted(build_frontier(position).components, key=lambda c: c.cells)
        print(f"seed {seed}: {len(components)} components")
        calls: list[int] = []
        real = ganak._ganak

        def counted(*a, real=real, calls=calls):  # type: ignore[no-untyped-def]
            calls.append(1)
            return real(*a)

        ganak._ganak = counted  # type: ignore[assignment]
        total = 0.0
        try:
            for component in components:
                calls.clear()
                start = own_cpu()
                counts = ganak.count_component(component)
                spent = own_cpu() - start
                total += spent
                same = counts == dp_count(component)
                failed |= not same
                print(f"  {component.cells:4d} cells  {len(calls):3d} Ganak calls  "
                      f"{spent:7.3f} s CPU{'' if same else '  DIFFERS FROM THE DP'}")
        finally:
            ganak._ganak = real  # type: ignore[assignment]
        print(f"  components: {total:.3f} s CPU in all")
        expected = answer(position, "dp")
        best: tuple[float, float] | None = None
        for run in range(args.runs + 1):
            cpu = own_cpu() + children_cpu()
            wall = time.perf_counter()
            started_child = not _idle
            got = answer(position, "ganak")
            wall = time.perf_counter() - wall
            cpu = own_cpu() + children_cpu() - cpu
            if got != expected:
                failed = True
                print("  analyze: the answer differs from the DP's")
            if run == 0:
                note = " (a child started)" if started_child else ""
                print(f"  analyze, first run{note}: {wall:.3f} s wall")
                continue
            if best is None or wall < best[0]:
                best = (wall, cpu)
        if best is not None:
            print(f"  analyze: {best[0]:.3f} s wall, {best[1]:.3f} s CPU "
                  f"(fastest of {args.runs}; load {os.getloadavg()[0]:.1f})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
