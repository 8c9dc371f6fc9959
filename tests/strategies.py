"""Hypothesis strategies: positions generated from hidden random layouts, on any topology."""

from __future__ import annotations

from hypothesis import strategies as st

from exactmines.position import Board, Position
from exactmines.topology import Topology, graph_topology, make_topology, number_char

#: Every topology kind the strategies draw boards on (every kind of exactmines.topology:
#: tests/test_topology.py checks).
KINDS = ("square", "torus", "cylinder", "hex", "triangle", "cube", "knight", "offsets",
         "graph")


@st.composite
def topologies(draw: st.DrawFn, kind: str, max_side: int = 5, max_cells: int = 20) -> Topology:
    """A small topology of ``kind``: a grid of up to ``max_side`` a side and ``max_cells``
    cells (a cube of 2 or 3 layers), or a random graph of up to ``max_cells`` nodes."""
    if kind == "graph":
        n = draw(st.integers(1, max_cells))
        pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
        edges = draw(st.lists(st.sampled_from(pairs), max_size=2 * n)) if pairs else []
        labels = draw(st.permutations([f"v{i}" for i in range(n)]))
        return graph_topology(labels, edges)
    width = draw(st.integers(1, max_side))
    if kind == "cube":
        layers = draw(st.integers(2, 3))
        rows = draw(st.integers(1, max(1, min(max_side, max_cells // (width * layers)))))
        return make_topology("cube", width, rows * layers, layers=layers)
    height = draw(st.integers(1, max(1, min(max_side, max_cells // width))))
    if kind == "offsets":
        steps = draw(st.sets(st.sampled_from([(0, 2), (2, 0), (1, 1), (1, -1), (0, 1),
                                              (1, 2)]), min_size=1))
        return make_topology("offsets", width, height,
                             offsets=sorted(steps | {(-a, -b) for a, b in steps}))
    return make_topology(kind, width, height)


@st.composite
def boards(draw: st.DrawFn, max_side: int = 5, max_cells: int = 20,
           kind: str = "square") -> Board:
    topology = draw(topologies(kind, max_side, max_cells))
    width, height = topology.width, topology.height
    cells = [(r, c) for r in range(height) for c in range(width)]
    mines = draw(st.sets(st.sampled_from(cells), max_size=len(cells)))
    return Board(width, height, frozenset(mines), topology)


@st.composite
def positions(draw: st.DrawFn, max_side: int = 5, max_covered: int = 14,
              count_known: bool | None = None, allow_lies: bool = False,
              kind: str = "square") -> Position:
    """What a player could see on a hidden random board (flags on true mines) of the
    topology ``kind``.

    ``allow_lies`` sometimes alters one number, so inconsistent positions are covered too.
    """
    board = draw(boards(max_side=max_side, kind=kind))
    safe = [(r, c) for r in range(board.height) for c in range(board.width)
            if (r, c) not in board.mine_cells]
    revealed = set(draw(st.sets(st.sampled_from(safe), max_size=len(safe)))) if safe else set()
    mines = sorted(board.mine_cells)
    flagged = set(draw(st.sets(st.sampled_from(mines), max_size=len(mines)))) if mines else set()
    covered = board.width * board.height - len(revealed) - len(flagged)
    if covered > max_covered:
        # Reveal more safe cells (deterministically) until the oracle stays quick.
        for cell in safe:
            if covered <= max_covered:
                break
            if cell not in revealed:
                revealed.add(cell)
                covered -= 1
        for cell in mines:
            if covered <= max_covered:
                break
            if cell not in flagged:
                flagged.add(cell)
                covered -= 1
    known = draw(st.booleans()) if count_known is None else count_known
    position = board.position(revealed, flagged, count_known=known)
    if allow_lies and revealed and draw(st.booleans()):
        r, c = draw(st.sampled_from(sorted(revealed)))
        room = len(position.neighbours((r, c)))
        value = draw(st.integers(0, room))
        rows = list(position.rows)
        rows[r] = rows[r][:c] + number_char(value) + rows[r][c + 1:]
        position = Position(position.width, position.height, position.mines, tuple(rows),
                            position.topology)
    return position
