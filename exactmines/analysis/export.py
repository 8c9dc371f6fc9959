"""A position as an instance for other solvers, with its exact answer beside it.

Formats (:data:`FORMATS`), all over one 0/1 variable per covered, unflagged cell, numbered
``1..n`` row-major (``x1..xn`` where variables have names):

``cnf``
    DIMACS CNF in the model counting competition's form (``c t pmc``; the projection on the
    cell variables as ``c p show 1 .. n 0``). A clue "exactly ``t`` of these ``m`` cells"
    (``m <= 8``) is written without auxiliary variables, as in the SAT engine: every
    ``t + 1`` of them not all mines, every ``m - t + 1`` not all clear. The total mine count
    is PySAT's k-modulo totalizer (auxiliaries numbered after the cells, each fixed by the
    cells, so a counter that ignores the projection counts the same), or on very large
    boards a cardinality network (smaller, but its auxiliaries are free: only the projected
    count is right).
``opb``
    pseudo-Boolean (``* #variable= n #constraint= m``): each clue and the total are one
    ``=`` constraint.
``lp``, ``mps``
    the MILP written by PuLP: binaries ``x1..xn``, one equality row per clue (``clue_R_C``)
    and the total (``total``); the objective, the number of mines, lists every cell, so
    cells in no row are still columns of the file.

Flags are mines, as in :func:`~exactmines.analysis.analyze.analyze`: they are no variables,
each clue asks for its number less the flags around it, and the total for the mines less
the flags. A position inconsistent on its face (a clue with too many flags, more mines than
cells) gets a constraint no assignment meets. Without a known total (or with
``count=False``) there is no count constraint.

The exact answer is :func:`~exactmines.analysis.analyze.analyze` of the position as
exported (without its total when ``count=False``). ``models`` is the number of assignments
of the cell variables the file allows: ``layouts`` when the total is in the file; without
it, ``layouts`` (which counts the cells next to a number only) times 2 to the number of
covered cells next to none, each of them free.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

from exactmines.analysis.analyze import Analysis, analyze
from exactmines.analysis.backends import Backend
from exactmines.analysis.frontier import build_frontier
from exactmines.analysis.serialize import analysis_to_dict, decimal
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import InputError, ParameterError
from exactmines.io.files import interrupts_deferred, write_atomic
from exactmines.position import Cell, Position, Topology
from exactmines.words import plural

__all__ = ["FORMATS", "Rule", "Exported", "export_position", "write_export"]

FORMATS = ("cnf", "opb", "lp", "mps")

#: The totalizer's clauses grow as cells x min(mines, cells - mines); past this product
#: the total is a cardinality network instead (O(n log^2 n) clauses).
TOTALIZER_LIMIT = 20_000_000


@dataclass(frozen=True, slots=True)
class Rule:
    """``sum of variables == need``: a clue (``clue`` is its cell) or the total (``None``)."""

    clue: Cell | None
    variables: tuple[int, ...]
    need: int


@dataclass(frozen=True)
class Exported:
    """One instance and its ground truth.

    Attributes
    ----------
    format:
        One of :data:`FORMATS`.
    text:
        The file's contents.
    cells:
        Variable ``i + 1`` is the covered cell ``cells[i]``.
    count_in_file:
        The total mine count is a constraint of the file.
    models:
        Assignments of the cell variables the file allows (the projected model count of the
        CNF); ``None`` when the analysis could not count them in its time limit.
    analysis:
        :func:`analyze` of the position as exported.
    encoding:
        The cardinality encoding of the total in a CNF, else ``None``.
    """

    format: str
    text: str
    cells: tuple[Cell, ...]
    count_in_file: bool
    models: int | None
    analysis: Analysis
    encoding: str | None = None

    def sidecar(self, file: str | None = None) -> dict[str, Any]:
        """``analyze --format json``'s object for the position as exported, plus
        ``format``, ``count_in_file``, ``models`` (decimal string or ``null``) and
        ``variables`` (``[row, col]`` of variable ``i + 1`` at index ``i``)."""
        out = analysis_to_dict(self.analysis, file)
        out.update(format=self.format, count_in_file=self.count_in_file,
                   models=None if self.models is None else decimal(self.models),
                   encoding=self.encoding,
                   variables=[list(self.analysis.position.topology.coordinates(cell))
                              for cell in self.cells])
        return out


def export_position(position: Position, to: str, *, count: bool = True,
                    backend: str | Backend = "auto", budget: Budget = UNLIMITED,
                    source: str = "position") -> Exported:
    """``position`` as a ``to`` instance (one of :data:`FORMATS`) with its exact answer.

    ``count=False`` leaves the total mine count out of the file and out of the analysis.
    ``backend`` and ``budget`` are :func:`analyze`'s. ``source`` names the position in
    the file's comments. Cost: the analysis, plus the file (linear in the board; a CNF's
    total is O(n x min(k, n - k)) clauses up to :data:`TOTALIZER_LIMIT`).
    """
    if to not in FORMATS:
        raise ParameterError("to", to, f"unknown format; choose one of {', '.join(FORMATS)}")
    target = position if count else position.with_mines(None)
    frontier = build_frontier(target)
    cells = tuple(target.covered)
    number = {cell: i for i, cell in enumerate(cells, 1)}
    rules: list[Rule] = []
    for component, boxes, clues in zip(frontier.components, frontier.box_cells,
                                       frontier.clue_cells, strict=True):
        for constraint, clue in zip(component.constraints, clues, strict=True):
            variables = sorted(number[c] for b in constraint.boxes for c in boxes[b])
            rules.append(Rule(clue, tuple(variables), constraint.mines))
    rules.sort(key=lambda rule: rule.clue or (-1, -1))
    if frontier.mines_left is not None:
        rules.append(Rule(None, tuple(range(1, len(cells) + 1)), frontier.mines_left))
    analysis = analyze(target, backend=backend, budget=budget)
    models = analysis.layouts
    if models is not None and frontier.mines_left is None:
        models <<= len(frontier.outside)
    header = _header(target, source, count, models, analysis, frontier.contradiction)
    false = frontier.contradiction is not None
    encoding = None
    topology = target.topology
    if to == "cnf":
        text, encoding = _cnf(cells, rules, false, header, topology)
    elif to == "opb":
        text = _opb(cells, rules, false, header, topology)
    else:
        text = _pulp(cells, rules, false, header, to, topology)
    return Exported(to, text, cells, frontier.mines_left is not None, models, analysis,
                    encoding)


def write_export(path: str | os.PathLike[str], position: Position, to: str, *,
                 count: bool = True, backend: str | Backend = "auto",
                 budget: Budget = UNLIMITED, source: str = "position") -> Exported:
    """:func:`export_position`, written to ``path`` and its ground truth to ``path.json``
    (:meth:`Exported.sidecar`), each file all or nothing. Both names are checked before
    the work, so a name that cannot be written leaves nothing behind."""
    out = Path(path)
    sidecar = Path(f"{out}.json")
    for name in (out, sidecar):
        if name.is_dir():
            raise InputError("is a directory, expected a file name to write", source=str(name))
    exported = export_position(position, to, count=count, backend=backend,
                               budget=budget, source=source)
    truth = json.dumps(exported.sidecar(source), separators=(", ", ": ")) + "\n"
    with interrupts_deferred():  # the pair whole: Ctrl-C between them left no ground truth
        write_atomic(out, exported.text)
        write_atomic(sidecar, truth)
    return exported


# ---------------------------------------------------------------------------- writers

def _header(position: Position, source: str, count: bool, models: int | None,
            analysis: Analysis, contradiction: str | None) -> list[str]:
    """The comment lines every format starts with (without the comment mark)."""
    if position.mines is not None:
        total = f"{plural(position.mines, 'mine')} (flags included)"
    else:
        total = "total mine count left out" if not count else "total mine count unknown"
    topology = position.topology
    shape = (f"{position.width}x{position.height}" if topology.is_square else
             f"{topology.size_text} {topology.word or topology.kind}")
    lines = [f"exactmines export of {source}: {shape}, {total}",
             f"models over the cell variables (consistent layouts): "
             f"{'not counted' if models is None else decimal(models)}"]
    if analysis.layouts is not None and models != analysis.layouts:
        lines.append(f"analyze's layouts (cells next to a number only, no total): "
                     f"{decimal(analysis.layouts)}")
    if contradiction is not None:
        lines.append(f"inconsistent: {contradiction}")
    return lines


def _cell_map(cells: Sequence[Cell], name: str, topology: Topology) -> Iterable[str]:
    """``x1 = cell 0,4`` for every variable: a cube's cells ``layer,row,col``, a graph's
    ``node NAME``."""
    if topology.is_square:
        return (f"{name}{i} = cell {r},{c}" for i, (r, c) in enumerate(cells, 1))
    if topology.kind == "graph":
        return (f"{name}{i} = node {topology.coordinates(cell)[0]}"
                for i, cell in enumerate(cells, 1))
    return (f"{name}{i} = cell {','.join(map(str, topology.coordinates(cell)))}"
            for i, cell in enumerate(cells, 1))



def _cnf(cells: Sequence[Cell], rules: Sequence[Rule], false: bool,
         header: list[str], topology: Topology) -> tuple[str, str | None]:
    from pysat.card import CardEnc, EncType

    from exactmines.analysis.backends.sat import DIRECT_CLAUSES

    n = len(cells)
    top = n
    encoding = None
    clauses: list[Sequence[int]] = []
    for rule in rules:
        variables, need = rule.variables, rule.need
        size = len(variables)
        if need < 0 or need > size:
            clauses.append(())
        elif need in (0, size) or (rule.clue is not None and comb(size, need + 1)
                                   + comb(size, size - need + 1) <= DIRECT_CLAUSES):
            clauses.extend([-v for v in subset] for subset in combinations(variables, need + 1))
            clauses.extend(combinations(variables, size - need + 1))
        else:
            # Exactly ``need`` true is exactly ``size - need`` false: encode the smaller.
            literals = list(variables) if 2 * need <= size else [-v for v in variables]
            bound = min(need, size - need)
            kind = "kmtotalizer" if size * bound <= TOTALIZER_LIMIT else "cardnetwrk"
            formula = CardEnc.equals(lits=literals, bound=bound, top_id=top,
                                     encoding=getattr(EncType, kind))
            clauses.extend(formula.clauses)
            top = max(top, formula.nv)
            if rule.clue is None:
                encoding = kind
    if false:
        clauses.append(())
    lines = ["c t pmc", *(f"c {line}" for line in header)]
    lines.append(f"c variables 1..{n} are the covered cells (row,col, 0-based, row 0 at the "
                 f"top), row-major; the projection: the 'c p show' line")
    if top > n:
        lines.append(f"c variables {n + 1}..{top}: the total mine count ({encoding}) and "
                     "numbers with many neighbours, as totalizers their cells determine")
    lines.extend(f"c {line}" for line in _cell_map(cells, "var ", topology))
    lines.append(f"p cnf {top} {len(clauses)}")
    lines.append(" ".join(["c p show", *map(str, range(1, n + 1)), "0"]))
    lines.extend(" ".join([*map(str, clause), "0"]) for clause in clauses)
    return "\n".join(lines) + "\n", encoding


def _opb(cells: Sequence[Cell], rules: Sequence[Rule], false: bool, header: list[str],
         topology: Topology) -> str:
    n = len(cells)
    body: list[str] = []
    for rule in rules:
        if rule.variables:
            terms = " ".join(f"+1 x{v}" for v in rule.variables)
            body.append(f"{terms} = {rule.need} ;")
        elif rule.need != 0:  # the total over no cells: false
            false = True
    variables = n
    if false:
        if n == 0:  # OPB has no empty constraint: one spare variable to break
            variables = 1
        body.append("+1 x1 >= 2 ;")
    lines = [f"* #variable= {variables} #constraint= {len(body)}",
             *(f"* {line}" for line in header),
             f"* x1..x{n} are the covered cells (row,col, 0-based, row 0 at the top), row-major",
             *(f"* {line}" for line in _cell_map(cells, "x", topology)),
             *body]
    return "\n".join(lines) + "\n"


def _pulp(cells: Sequence[Cell], rules: Sequence[Rule], false: bool, header: list[str],
          to: str, topology: Topology) -> str:
    import pulp

    problem = pulp.LpProblem("minesweeper", pulp.LpMinimize)
    xs = [problem.add_variable(f"x{i}", 0, 1, pulp.LpBinary) for i in range(1, len(cells) + 1)]
    problem += pulp.lpSum(xs), "mines"
    for rule in rules:
        name = "total" if rule.clue is None else f"clue_{rule.clue[0]}_{rule.clue[1]}"
        problem += pulp.lpSum(xs[v - 1] for v in rule.variables) == rule.need, name
    if false:
        problem += pulp.LpAffineExpression() == 1, "inconsistent"
    # PuLP writes to a named file only: a scratch folder of our own, read back.
    with tempfile.TemporaryDirectory(prefix="exactmines-export-") as scratch:
        name = os.path.join(scratch, f"model.{to}")
        if to == "lp":
            problem.writeLP(name)
        else:
            problem.writeMPS(name)
        with open(name, encoding="utf-8") as handle:
            written = handle.read()
    mark = "\\" if to == "lp" else "*"
    notes = [*header, f"x1..x{len(cells)} are the covered cells (row,col, 0-based, row 0 at "
             "the top), row-major", "objective: the number of mines",
             *_cell_map(cells, "x", topology)]
    return "".join(f"{mark} {line}\n" for line in notes) + written
