"""SAT -> Minesweeper: every gadget by exhaustive counting, whole instances against brute
force over assignments, DIMACS reading, random k-SAT and the model counter."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactmines import analyze
from exactmines.budget import Budget
from exactmines.errors import InputError
from exactmines.generate.hardness import (
    CNF,
    TILE_SIZE,
    TILES,
    TileGrid,
    compile_cnf,
    count_models,
    gadget_grid,
    parse_dimacs,
    random_ksat,
)
from exactmines.position import Board, Position


def brute_models(cnf: CNF) -> int:
    return sum(cnf.satisfied_by(a) for a in product((False, True), repeat=cnf.variables))


def flags_of(position: Position) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(position.rows) for c, ch in enumerate(row)
            if ch == "F"}


def assert_shows(position: Position, mines: frozenset[tuple[int, int]]) -> None:
    """Every revealed number of ``position`` is what the layout ``mines`` (plus the flags)
    puts around it, and the header counts exactly those mines."""
    flags = flags_of(position)
    board = Board(position.width, position.height, frozenset(mines | flags))
    numbers = board.numbers()
    for r, row in enumerate(position.rows):
        for c, ch in enumerate(row):
            if ch.isdigit():
                assert numbers[r * position.width + c] == int(ch), (r, c)
    assert position.mines == len(mines) + len(flags)


# ------------------------------------------------------------------------------- gadgets


@pytest.mark.parametrize("name", sorted(TILES))
def test_gadget_is_parsimonious_and_mine_balanced(name):
    """Between plain wires with free ends, the tile has exactly one layout per accepted
    input assignment (with and without the total count), each showing every number."""
    tile = TILES[name]
    grid = gadget_grid(name)
    position = grid.position()
    used = sorted(set(grid.sources.values()))
    accepted = 0
    for bits in product((0, 1), repeat=len(used)):
        values = [0, 0, 0]
        for k, bit in zip(used, bits, strict=True):
            values[k] = bit
        inputs = grid.signals(values)[2][2]
        if tile.allowed is not None and not tile.allowed(inputs):
            with pytest.raises(ValueError):
                grid.layout(values)
            continue
        accepted += 1
        assert_shows(position, grid.layout(values))  # same mine total every time
    assert accepted == len(tile.input_assignments()) > 0
    for mines in (position.mines, None):
        result = analyze(position.with_mines(mines), backend="sat")
        assert result.layouts == accepted
    # the count above covers every covered cell: none lies off the frontier
    assert analyze(position, backend="sat").frontier_cells == sum(
        row.count("H") for row in position.rows)


def _alone(name: str) -> tuple[list[str], dict[str, tuple[tuple[int, int], tuple[int, int]]]]:
    """The tile alone: its neighbours' port cells as free covered cells, every other cell
    around it a flag (so only the tile's own numbers constrain). Returns the rows (one cell
    of margin) and, per side, (tile port cell, neighbour port cell)."""
    tile = TILES[name]
    n = TILE_SIZE + 2
    grid = [["F"] * n for _ in range(n)]
    signals = tile.input_assignments()[0]
    values = {(r + 1, c + 1): v
              for (r, c), v in {**tile.cells(signals), **tile.port_values(signals)}.items()}
    for r, row in enumerate(tile.rows):
        for c, ch in enumerate(row):
            grid[r + 1][c + 1] = "F" if ch == "F" else "." if ch == "." else "H"
    pairs = {}
    for (r, c) in tile.port_values(signals):
        grid[r + 1][c + 1] = "H"
    for side in tile.sides:
        inner = {"W": (3, 1), "E": (3, TILE_SIZE), "N": (1, 3), "S": (TILE_SIZE, 3)}[side]
        outer = {"W": (3, 0), "E": (3, n - 1), "N": (0, 3), "S": (n - 1, 3)}[side]
        pairs[side] = (inner, outer)
    rows = []
    for r in range(n):
        line = ""
        for c in range(n):
            if grid[r][c] == ".":
                around = [(rr, cc) for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                          if (rr, cc) != (r, c) and 0 <= rr < n and 0 <= cc < n]
                line += str(sum(values.get(x, 0) + (grid[x[0]][x[1]] == "F") for x in around))
            else:
                line += grid[r][c]
        rows.append(line)
    return rows, pairs


def _all_layouts(rows: list[str]) -> list[set[tuple[int, int]]]:
    h, w = len(rows), len(rows[0])
    covered = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == "H"]
    assert len(covered) <= 16
    out = []
    for bits in product((0, 1), repeat=len(covered)):
        mines = {cell for cell, bit in zip(covered, bits, strict=True) if bit}
        if all(int(ch) == sum((rr, cc) in mines or rows[rr][cc] == "F"
                              for rr in range(max(r - 1, 0), min(r + 2, h))
                              for cc in range(max(c - 1, 0), min(c + 2, w)) if (rr, cc) != (r, c))
               for r, row in enumerate(rows) for c, ch in enumerate(row) if ch.isdigit()):
            out.append(mines)
    return out


@pytest.mark.parametrize("name", sorted(TILES))
def test_gadget_ties_its_ports_except_the_declared_lazy_sides(name):
    """Alone, a tile's own numbers tie each port pair (its port cell = not the neighbour's)
    except on its ``lazy`` sides, where the neighbour must; this is what lets tiles be
    verified one at a time (TileGrid refuses two lazy sides face to face)."""
    tile = TILES[name]
    rows, pairs = _alone(name)
    layouts = _all_layouts(rows)
    assert len(layouts) == len(tile.input_assignments()) * 2 ** len(tile.lazy)
    for side, (inner, outer) in pairs.items():
        tied = all((inner in m) != (outer in m) for m in layouts)
        assert tied == (side not in tile.lazy), side


def test_transposed_tiles_mirror_their_originals():
    for a, b in (("HWIRE", "VWIRE"), ("HSTART", "VSTART"), ("HEND", "VEND")):
        rows = TILES[a].rows
        assert TILES[b].rows == tuple("".join(rows[c][r] for c in range(6)) for r in range(6))


def test_tile_grid_refuses_broken_joins(monkeypatch):
    with pytest.raises(ValueError, match="port"):
        TileGrid((("HSTART", "EMPTY"),), {(0, 0): 0})
    with pytest.raises(ValueError, match="edge"):
        TileGrid((("HWIRE", "HEND"),), {})
    with pytest.raises(ValueError, match="free signal"):
        TileGrid((("HSTART", "HEND"),), {})
    # OR leaves its west pair to its neighbour: a neighbour that does the same is refused.
    monkeypatch.setitem(TILES, "LAZY", replace(TILES["HWIRE"], name="LAZY", lazy=frozenset("E")))
    corner = (("EMPTY", "EMPTY", "VSTART", "EMPTY"), ("HSTART", "LAZY", "OR", "HEND"))
    with pytest.raises(ValueError, match="untied"):
        TileGrid(corner, {(0, 2): 0, (1, 0): 1})
    TileGrid(tuple(tuple("HWIRE" if n == "LAZY" else n for n in r) for r in corner),
             {(0, 2): 0, (1, 0): 1})


# ----------------------------------------------------------------------- whole instances


def assert_instance_matches_formula(cnf: CNF) -> None:
    instance = compile_cnf(cnf)
    position = instance.position
    models = [a for a in product((False, True), repeat=cnf.variables) if cnf.satisfied_by(a)]
    result = analyze(position, backend="sat")
    assert result.consistent == bool(models)
    assert result.layouts == len(models)
    assert analyze(position.with_mines(None), backend="sat").layouts == len(models)
    seen = set()
    for model in models:
        layout = instance.layout(model)
        assert_shows(position, layout)
        assert instance.assignment(layout) == model
        seen.add(layout)
    assert len(seen) == len(models)


@pytest.mark.parametrize("clauses", [
    (),
    ((1,),),
    ((-1,),),
    ((1, 1),),
    ((1, -1),),                      # a tautology
    ((1, 2, 3),),
    ((-1, -2, -3),),
    ((1, 2), (-1, 2), (1, -2)),
    ((1, 2, 3), (-1, -2), (-3,)),
    ((1, 2, 3, -1, 2),),             # five literals, repeats
    ((1,), (-1,)),                   # unsatisfiable
    ((),),                           # the empty clause
    ((1, 2), ()),
])
def test_instances_have_one_layout_per_model(clauses):
    cnf = CNF(max([abs(lit) for c in clauses for lit in c], default=0) or 1, clauses)
    assert_instance_matches_formula(cnf)


def test_free_variables_double_the_layouts():
    assert_instance_matches_formula(CNF(3, ((2,),)))
    assert_instance_matches_formula(CNF(0, ()))


@given(st.integers(1, 4).flatmap(lambda v: st.tuples(
    st.just(v),
    st.lists(st.lists(st.integers(1, v).flatmap(lambda x: st.sampled_from((x, -x))),
                      min_size=1, max_size=4).map(tuple), max_size=5))))
def test_random_small_formulas(formula):
    variables, clauses = formula
    assert_instance_matches_formula(CNF(variables, tuple(clauses)))


def test_random_3sat_near_the_threshold():
    rng = random.Random(7)
    for _ in range(4):
        cnf = random_ksat(5, 21, rng)
        assert_instance_matches_formula(cnf)


def test_compiled_board_shape_and_variable_cells():
    cnf = CNF(3, ((1, -2, 3), (2, 3)))
    instance = compile_cnf(cnf)
    # rows: start, 3 + 2 literal rows, end; columns: 3 variables + clause area of 2
    assert instance.grid.shape == (7, 5)
    assert (instance.position.width, instance.position.height) == (30, 42)
    assert instance.variable_cells == ((3, 2), (3, 8), (3, 14))
    assert all(instance.position.char(cell) == "H" for cell in instance.variable_cells)
    size = instance.summary()
    assert size["cells"] == 30 * 42 and size["mines"] == instance.position.mines
    with pytest.raises(ValueError):
        instance.layout((False, True, False))  # not a model


def test_oversized_formulas_are_refused_before_building():
    cnf = CNF(400, tuple((1, 2, 3) for _ in range(4000)))
    with pytest.raises(InputError, match="cells"):
        compile_cnf(cnf)


# ------------------------------------------------------------------------- model counts


@given(st.integers(0, 10).flatmap(lambda v: st.tuples(
    st.just(v),
    st.lists(st.lists(st.integers(1, max(v, 1)).flatmap(lambda x: st.sampled_from((x, -x))),
                      min_size=0 if v else 1, max_size=4).map(tuple),
             max_size=0 if v == 0 else 40))))
def test_model_count_matches_brute_force(formula):
    variables, clauses = formula
    cnf = CNF(variables, tuple(c for c in clauses if variables))
    assert count_models(cnf) == brute_models(cnf)


def test_model_count_on_threshold_formulas_and_time_limit():
    rng = random.Random(3)
    for _ in range(3):
        cnf = random_ksat(14, 60, rng)
        assert count_models(cnf) == brute_models(cnf)
    assert count_models(random_ksat(60, 240, random.Random(1)), budget=Budget(0.0)) is None


def test_random_ksat_is_seeded_and_well_formed():
    a = random_ksat(20, 85, random.Random(5))
    b = random_ksat(20, 85, random.Random(5))
    assert a == b and len(a.clauses) == 85 and a.variables == 20
    assert all(len({abs(lit) for lit in c}) == 3 for c in a.clauses)
    assert random_ksat(20, 85, random.Random(6)) != a
    with pytest.raises(InputError):
        random_ksat(2, 5, random.Random(1))
    with pytest.raises(InputError, match="clauses -1: must be at least 0"):
        random_ksat(5, -1, random.Random(1))
    assert random_ksat(5, 0, random.Random(1)).clauses == ()  # the empty formula: allowed


# ------------------------------------------------------------------------------ DIMACS


def test_dimacs_round_trip_and_tolerances():
    text = ("c a comment\n"
            "p cnf 4 3\n"
            "1 -2\n 3 0 -4 0\n"      # a clause across lines, two on a line
            "c between\n"
            "2 4\n"                  # the last clause without its 0
            "%\n0\n")                # SATLIB end marker
    cnf = parse_dimacs(text, "f.cnf")
    assert cnf == CNF(4, ((1, -2, 3), (-4,), (2, 4)))
    assert parse_dimacs(cnf.to_dimacs(["round trip"])) == cnf
    assert parse_dimacs("p cnf 2 1\n0\n") == CNF(2, ((),))


@pytest.mark.parametrize("text, where, what", [
    ("", "f.cnf:1:1", "no problem line"),
    ("c only comments\n", "f.cnf:1:1", "no problem line"),
    ("1 2 0\np cnf 2 1\n", "f.cnf:1:1", "before the problem line"),
    ("p cnf two 1\n1 0\n", "f.cnf:1:1", "bad problem line"),
    ("p dnf 2 1\n1 0\n", "f.cnf:1:1", "bad problem line"),
    ("p cnf 2 1\np cnf 2 1\n1 0\n", "f.cnf:2:1", "second problem line"),
    ("p cnf 2 1\n1 x 0\n", "f.cnf:2:3", "'x' is not a literal"),
    ("p cnf 2 1\n1  -3 0\n", "f.cnf:2:4", "literal -3"),
    ("p cnf 2 2\n1 0\n", "f.cnf:1:9", "declares 2 clauses but the file has 1"),
    ("c x\np  cnf 12 12 \n1 0\n", "f.cnf:2:11", "declares 12 clauses but the file has 1"),
])
def test_dimacs_errors_name_file_line_and_column(text, where, what):
    with pytest.raises(InputError) as caught:
        parse_dimacs(text, "f.cnf")
    message = str(caught.value)
    assert message.startswith(where + ":") and what in message
