"""An :class:`~exactmines.analysis.analyze.Analysis` as the JSON object of ``analyze --format
json``: the contract that the command line, batch rows and the web API all print. Exact:
probabilities are fraction strings, counts decimal strings; no floats but the timing."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from typing import Any

from exactmines.analysis.analyze import Analysis
from exactmines.position import Cell, Topology

__all__ = ["analysis_to_dict", "analysis_json", "shape_to_dict", "cell_to_dict",
           "fraction_text", "decimal"]


def decimal(n: int) -> str:
    """``str(n)`` for ints of any size: Python refuses more than 4300 digits by default, and
    a 200x200 board has layout counts far longer than that."""
    limit = sys.get_int_max_str_digits()
    if limit == 0 or n.bit_length() < limit * 3:  # 3 bits < one decimal digit: surely fits
        return str(n)
    sys.set_int_max_str_digits(0)
    try:
        return str(n)
    finally:
        sys.set_int_max_str_digits(limit)


def fraction_text(p: Fraction | None) -> str | None:
    """``str(Fraction)`` in lowest terms (``"0"``, ``"1"``, ``"3/17"``), or ``None``."""
    if p is None:
        return None
    return decimal(p.numerator) if p.denominator == 1 else \
        f"{decimal(p.numerator)}/{decimal(p.denominator)}"


def shape_to_dict(topology: Topology) -> dict[str, Any]:
    """The board's shape as the JSON objects of docs/contract.md §3 give it: ``width`` and
    ``height``; on another topology than the square grid also ``topology`` (its word, or
    ``graph``), a cube's ``layers`` (``height`` then per layer) and a graph's ``nodes``."""
    if topology.is_square:
        return {"width": topology.width, "height": topology.height}
    out: dict[str, Any] = {"topology": topology.word or topology.kind,
                           "width": topology.width, "height": topology.layer_height}
    if topology.kind == "cube":
        out["layers"] = topology.layers
    if topology.kind == "graph":
        out["nodes"] = topology.cells
    return out


def cell_to_dict(topology: Topology, cell: Cell) -> dict[str, Any]:
    """A cell as the JSON objects name it: ``row``, ``col``; a cube's ``layer``, ``row``,
    ``col``; a graph node's ``id`` (its label in the file)."""
    if topology.kind == "graph":
        return {"id": topology.coordinates(cell)[0]}
    if topology.kind == "cube":
        layer, row, col = topology.coordinates(cell)
        return {"layer": layer, "row": row, "col": col}
    return {"row": cell[0], "col": cell[1]}


def analysis_to_dict(result: Analysis, file: str | None = None, *,
                     cells: bool = True) -> dict[str, Any]:
    """The JSON object of docs/contract.md §3 (with the shape, counts of verdicts, notes and
    timing); without its ``"cells"`` when ``cells`` is false (a caller that writes them in
    another form: each cell's fraction costs its digits). On another topology than the
    square grid, the shape of :func:`shape_to_dict` and each cell named by
    :func:`cell_to_dict`."""
    position = result.position
    topology = position.topology
    out: dict[str, Any] = {}
    if file is not None:
        out["file"] = file
    out.update(shape_to_dict(topology))
    out.update(
        mines=position.mines,
        consistent=result.consistent,
        layouts=None if result.layouts is None else decimal(result.layouts),
        unique=result.unique,
        probabilities_computed=result.probabilities_computed,
        verdicts_complete=result.verdicts_complete,
        backend=result.backend,
        components=result.components,
        frontier_cells=result.frontier_cells,
        largest_component=result.largest_component,
        safe=len(result.safe),
        mine=len(result.mines),
        notes=list(result.notes),
        seconds=round(result.seconds, 6),
    )
    if not topology.is_square:
        out.update(dp_width=result.dp_width, dp_plan=result.dp_plan)
    if cells and topology.is_square:
        out["cells"] = [{"row": c.row, "col": c.col, "probability": fraction_text(c.probability),
                         "verdict": c.verdict} for c in result.cells]
    elif cells:
        out["cells"] = [{**cell_to_dict(topology, c.cell),
                         "probability": fraction_text(c.probability), "verdict": c.verdict}
                        for c in result.cells]
    return out


def analysis_json(result: Analysis, file: str | None = None, *,
                  separators: tuple[str, str] = (", ", ": "), ensure_ascii: bool = True) -> str:
    """``json.dumps(analysis_to_dict(result, file), separators=separators,
    ensure_ascii=ensure_ascii)``, the same
    text, written fast on the square grid: each distinct value of a cell (the cells of one
    box share one) is written once and every cell's row is its place plus that text, never
    a dict per cell. A compiled formula of 1.7 million cells has 260,000 covered cells:
    their objects took 2 s to make and encode, longer than a time limit it was asked
    within (issue 41); this takes a tenth of that. Other topologies name their cells one
    by one (:func:`cell_to_dict`)."""
    if not result.position.topology.is_square:
        return json.dumps(analysis_to_dict(result, file), separators=separators,
                          ensure_ascii=ensure_ascii)
    head = json.dumps(analysis_to_dict(result, file, cells=False), separators=separators,
                      ensure_ascii=ensure_ascii)
    item, key = separators
    pairs, covered = result.cells.flat_pairs()
    width = result.position.width
    tails: dict[int, str] = {}  # by the pair object
    rows: list[str] = []
    append = rows.append
    for i in covered:
        pair = pairs[i]
        tail = tails.get(id(pair))
        if tail is None:
            tail = tails[id(pair)] = (
                f'{item}"probability"{key}{json.dumps(fraction_text(pair[0]))}'
                f'{item}"verdict"{key}{json.dumps(pair[1])}}}')
        append(f'{{"row"{key}{i // width}{item}"col"{key}{i % width}{tail}')
    return f'{head[:-1]}{item}"cells"{key}[{item.join(rows)}]}}'
