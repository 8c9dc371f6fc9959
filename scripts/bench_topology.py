"""Topologies side by side, and the DP on graphs of bounded treewidth.

Usage::

    python scripts/bench_topology.py                  # both tables (an hour or so)
    python scripts/bench_topology.py --quick          # fewer boards and sizes (minutes)
    python scripts/bench_topology.py --only topologies
    python scripts/bench_topology.py --only graphs --sizes 1000,10000 --widths 3
    python scripts/bench_topology.py --write-instance instances/graph-ktree3-2000.json

Table 1, per built-in topology at the size of an expert board (480 cells) and of a 100x100
board (10,000 cells; a cube of 8x8x8 = 512 and 22x22x21 = 10,164 cells): the CPU time of
``analyze`` (engine ``auto``) on a mid-game position (``generate position``: the centre
clicked under the opening rule, then random safe cells next to the revealed area until half
the safe cells are shown, seed 1), the square grid's on the same number of cells (the
topology's sheet) beside it, and the ``survey`` share of boards solvable without guessing
(opening rule at the centre, the mine count used) with its 95 % interval. Mines are 99/480
of the cells (20.6 %, expert's density), but on the cube 10 %: at 20 % a cube's numbers see
26 cells and a mid-game component is too wide to count or to check in minutes (the table
says so).

Table 2, random graphs of bounded treewidth with 1,000 to 100,000 nodes: partial k-trees
(a k-tree grown by joining each new node to a random k-clique of the ones made so far,
never one with a node of degree 4k, then 80 % of its edges kept) and grids of width w with
one long edge per 1,000 nodes; mines on 30 % of the nodes and 35 % of the safe nodes
revealed (no flooding). For each: the CPU time of the DP's counts of the components (the
frontier built and every component counted), of the whole analysis (``dp``: the counts
combined under the total mine count, a product of polynomials of degree up to the number of
unknown cells, which grows faster than the counts past 10,000 nodes), the
width it counted at and how (the sweep, or the tree decomposition of
:mod:`exactmines.analysis.backends.treedp`), and the same position counted by Ganak
(``ganak``, up to ``--ganak-limit`` seconds, CPU time of its child process included; a
family and width where Ganak ran out of time is not tried on larger graphs).

Every figure is CPU time of this process (``time.process_time``), the minimum of 3 runs
where a run takes under 5 s, on a shared, loaded machine: compare rows of one run.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from exactmines.analysis.analyze import Analysis, analyze
from exactmines.analysis.backends import ComponentCounts, get_backend
from exactmines.analysis.frontier import build_frontier
from exactmines.budget import Budget
from exactmines.errors import BudgetExceeded
from exactmines.generate.positions import midgame_positions
from exactmines.io.files import TopologySpec
from exactmines.io.graphs import position_to_graph
from exactmines.position import Board, Position
from exactmines.solvability.survey import SurveySettings, run_survey
from exactmines.topology import Topology, graph_topology, named_topology

#: Table 1's boards: (topology word, width, height per layer, layers, mines).
EXPERT = [("square", 30, 16, 1, 99), ("torus", 30, 16, 1, 99), ("cylinder", 30, 16, 1, 99),
          ("hex", 30, 16, 1, 99), ("triangle", 30, 16, 1, 99), ("knight", 30, 16, 1, 99),
          ("cube", 8, 8, 8, 51)]
LARGE = [("square", 100, 100, 1, 2063), ("torus", 100, 100, 1, 2063),
         ("cylinder", 100, 100, 1, 2063), ("hex", 100, 100, 1, 2063),
         ("triangle", 100, 100, 1, 2063), ("knight", 100, 100, 1, 2063),
         ("cube", 22, 22, 21, 1016)]


def cpu(work: Callable[[], Any], runs: int = 3) -> tuple[float, Any]:
    """The least CPU seconds of ``runs`` runs of ``work`` (one run past 5 s) and its answer."""
    best, answer = float("inf"), None
    for _ in range(runs):
        started = time.process_time()
        answer = work()
        spent = time.process_time() - started
        best = min(best, spent)
        if spent > 5:
            break
    return best, answer


def _cpu_with_children() -> float:
    """CPU seconds of this process and of its children waited for."""
    own, children = (resource.getrusage(w) for w in (resource.RUSAGE_SELF,
                                                      resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _shape(result: Analysis) -> str:
    counted = "counted" if result.probabilities_computed else "NOT counted"
    width = "" if result.dp_width is None else f", DP {result.dp_plan} width {result.dp_width}"
    return f"largest component {result.largest_component}{width}, {counted}"


def topology_table(boards: dict[str, int], time_limit: float) -> list[dict[str, Any]]:
    """Table 1 (see the module docstring): one row per board of :data:`EXPERT` and
    :data:`LARGE`, ``boards[size]`` boards surveyed at each size."""
    rows = []
    for size, cases in (("expert", EXPERT), ("100x100", LARGE)):
        for word, width, height, layers, mines in cases:
            topology = named_topology(word, width, height, layers)
            position = midgame_positions(topology.width, topology.height, mines, 1, 1,
                                         topology=topology)[0].position
            assert position is not None
            seconds, result = cpu(lambda p=position: analyze(p, time_limit=time_limit))
            square = midgame_positions(topology.width, topology.height, mines, 1, 1)[0]
            assert square.position is not None
            square_seconds, _ = cpu(lambda p=square.position: analyze(p, time_limit=time_limit))
            centre = (topology.height // 2, topology.width // 2)
            settings = SurveySettings(width, height, mines, "opening", centre, 1, True,
                                      TopologySpec(word, layers))
            started = time.process_time()
            survey = run_survey(settings, boards[size], progress=False)
            survey_cpu = time.process_time() - started
            row = {"size": size, "topology": word, "cells": topology.cells, "mines": mines,
                   "analyze_ms": round(1000 * seconds, 2),
                   "square_ms": round(1000 * square_seconds, 2),
                   "shape": _shape(result), "survey": survey.to_dict(),
                   "survey_ms_per_board": round(1000 * survey_cpu / boards[size], 2)}
            print(_topology_line(row), flush=True)
            rows.append(row)
    return rows


def _topology_line(row: dict[str, Any]) -> str:
    s = row["survey"]
    low, high = s["ci95"]
    return (f"{row['size']:8} {row['topology']:9} {row['cells']:6} cells {row['mines']:5} mines"
            f"  analyze {row['analyze_ms']:9.2f} ms (square {row['square_ms']:8.2f} ms, "
            f"{row['analyze_ms'] / row['square_ms']:5.2f}x; {row['shape']})"
            f"  survey {s['solvable']}/{s['boards']} = {100 * s['fraction']:.1f} % "
            f"[{100 * low:.1f}-{100 * high:.1f}], {row['survey_ms_per_board']} ms/board")


# -- random graphs of bounded treewidth ----------------------------------------------------


def partial_ktree(n: int, k: int, rng: random.Random, keep: float = 0.8) -> list[tuple[int, int]]:
    """The edges of a random partial k-tree on ``n`` nodes (see the module docstring): a
    graph of treewidth at most ``k`` whose degrees stay near ``4k`` (a k-tree grown by
    random attachment has hubs of degree ~ log n, whose numbers would dwarf the rest)."""
    cap = 4 * k
    edges = {(a, b) for a in range(k + 1) for b in range(a + 1, k + 1)}
    degree = [k] * (k + 1) + [0] * (n - k - 1)
    open_cliques = [tuple(range(k + 1))]
    made = list(open_cliques)
    for v in range(k + 1, n):
        while True:
            if not open_cliques:  # every clique has a full node: the cap gives way
                clique = rng.choice(made)[1:]
                break
            i = rng.randrange(len(open_cliques))
            base = open_cliques[i]
            drop = rng.randrange(k + 1)
            clique = base[:drop] + base[drop + 1:]
            if all(degree[u] < cap for u in clique):
                break
            if sum(degree[u] >= cap for u in base) > 1:  # no k of it can take a node
                open_cliques[i] = open_cliques[-1]
                open_cliques.pop()
        for u in clique:
            edges.add((u, v))
            degree[u] += 1
            degree[v] += 1
        open_cliques.append((*clique, v))
        made.append((*clique, v))
    return sorted(e for e in edges if rng.random() < keep)


def long_grid(n: int, w: int, rng: random.Random) -> list[tuple[int, int]]:
    """A grid of ``w`` rows and ``n / w`` columns (king moves: treewidth about ``w``) with one
    long edge per 1,000 nodes between random nodes."""
    columns = n // w
    index = {(r, c): r * columns + c for r in range(w) for c in range(columns)}
    edges = set()
    for (r, c), i in index.items():
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
            j = index.get((r + dr, c + dc))
            if j is not None:
                edges.add((min(i, j), max(i, j)))
    for _ in range(max(1, n // 1000)):
        a, b = rng.sample(range(w * columns), 2)
        edges.add((min(a, b), max(a, b)))
    return sorted(edges)


def graph_position(topology: Topology, rng: random.Random, density: float = 0.3,
                   reveal: float = 0.35) -> Position:
    """A position on a graph: mines on ``density`` of the nodes, ``reveal`` of the safe
    nodes revealed (no flooding), the mine count known."""
    n = topology.cells
    mines = frozenset((0, i) for i in rng.sample(range(n), round(density * n)))
    safe = [(0, i) for i in range(n) if (0, i) not in mines]
    board = Board(n, 1, mines, topology)
    return board.position(set(rng.sample(safe, round(reveal * len(safe)))))


def dp_counts(position: Position, seconds: float) -> list[ComponentCounts] | None:
    """The DP's counts of every component of ``position`` (the frontier built, the
    components counted: what the DP itself does, without combining them under the total
    mine count), or ``None`` when they take more than ``seconds``."""
    engine, budget = get_backend("dp"), Budget.seconds(seconds)
    try:
        return [engine.count(component, budget=budget)
                for component in build_frontier(position).components]
    except BudgetExceeded:
        return None


def graph_table(sizes: list[int], widths: list[int], ganak_limit: float,
                time_limit: float, families: list[str]) -> list[dict[str, Any]]:
    """Table 2 (see the module docstring)."""
    rows = []
    beaten: set[tuple[str, int]] = set()  # (family, width) Ganak did not count in time
    for family in families:
        for k in widths:
            for n in sizes:
                rng = random.Random(f"bench-topology:{family}:{k}:{n}")
                edges = partial_ktree(n, k, rng) if family == "ktree" else long_grid(n, k, rng)
                nodes = n if family == "ktree" else k * (n // k)
                topology = graph_topology(list(range(nodes)), edges)
                position = graph_position(topology, rng)
                counting, counts = cpu(lambda p=position: dp_counts(p, time_limit))
                if counts is None:  # larger graphs of this family and width are not tried
                    print(f"{family:5} w={k} {nodes:7} nodes  dp count: not within "
                          f"{time_limit:g} s; larger sizes skipped", flush=True)
                    rows.append({"graph": family, "width": k, "nodes": nodes,
                                 "count_ms": None, "counted": False})
                    break
                seconds, result = cpu(lambda p=position: analyze(p, backend="dp",
                                                                 time_limit=time_limit))
                row: dict[str, Any] = {
                    "graph": family, "width": k, "nodes": nodes,
                    "frontier_cells": result.frontier_cells,
                    "largest_component": result.largest_component,
                    "count_ms": round(1000 * counting, 1),
                    "dp_ms": round(1000 * seconds, 1), "dp_width": result.dp_width,
                    "dp_plan": result.dp_plan, "counted": result.probabilities_computed}
                if ganak_limit > 0 and (family, k) not in beaten:
                    # (Ganak counts in a child process: its CPU time is added.)
                    started = _cpu_with_children()
                    counted = analyze(position, backend="ganak", time_limit=ganak_limit)
                    row["ganak_ms"] = round(1000 * (_cpu_with_children() - started), 1)
                    row["ganak_counted"] = counted.probabilities_computed
                    if not counted.probabilities_computed:  # larger graphs are not tried
                        beaten.add((family, k))
                    if counted.probabilities_computed and result.probabilities_computed:
                        row["same"] = (counted.layouts == result.layouts
                                       and list(counted.cells) == list(result.cells))
                print(_graph_line(row), flush=True)
                rows.append(row)
    return rows


def _graph_line(row: dict[str, Any]) -> str:
    ganak = ""
    if "ganak_ms" in row:
        ganak = (f"  ganak {row['ganak_ms']:9.1f} ms"
                 + ("" if row["ganak_counted"] else " (not counted in the limit)")
                 + ("" if row.get("same", True) else " ANSWERS DIFFER"))
    counted = "" if row["counted"] else " (not counted)"
    return (f"{row['graph']:5} w={row['width']} {row['nodes']:7} nodes  frontier "
            f"{row['frontier_cells']:6}, largest {row['largest_component']:6}  dp count "
            f"{row['count_ms']:9.1f} ms, analysis {row['dp_ms']:9.1f} ms, width "
            f"{row['dp_width']} {row['dp_plan']}{counted}{ganak}")


def write_instance(path: Path) -> None:
    """The shipped partial 3-tree position (2,000 nodes), as node-link JSON."""
    rng = random.Random("bench-topology:instance")
    topology = graph_topology(list(range(2000)), partial_ktree(2000, 3, rng))
    path.write_text(position_to_graph(graph_position(topology, rng), "json"))
    print(f"{path}: {topology.cells} nodes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer boards and sizes")
    parser.add_argument("--only", choices=["topologies", "graphs"])
    parser.add_argument("--boards", help="boards surveyed per topology at expert size and "
                                         "at 100x100, comma-separated (default 2000,100)")
    parser.add_argument("--sizes", help="graph node counts, comma-separated")
    parser.add_argument("--widths", help="treewidths, comma-separated")
    parser.add_argument("--families", default="ktree,grid",
                        help="graph families, comma-separated (ktree, grid)")
    parser.add_argument("--ganak-limit", type=float, default=120.0,
                        help="seconds Ganak gets per graph position (0: not run)")
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="analyze's time limit per position")
    parser.add_argument("--json", type=Path, help="write the rows here")
    parser.add_argument("--write-instance", type=Path, help="write the shipped graph "
                                                             "instance and stop")
    args = parser.parse_args()
    if args.write_instance:
        write_instance(args.write_instance)
        return
    out: dict[str, Any] = {}
    if args.only in (None, "topologies"):
        counts = ([int(b) for b in args.boards.split(",")] if args.boards else
                  [100, 10] if args.quick else [2000, 100])
        boards = {"expert": counts[0], "100x100": counts[1]}
        out["topologies"] = topology_table(boards, args.time_limit)
    if args.only in (None, "graphs"):
        sizes = ([int(s) for s in args.sizes.split(",")] if args.sizes else
                 [1000, 3000] if args.quick else [1000, 3000, 10000, 30000, 100000])
        widths = [int(w) for w in args.widths.split(",")] if args.widths else [3, 5, 8]
        out["graphs"] = graph_table(sizes, widths, args.ganak_limit, args.time_limit,
                                    args.families.split(","))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
