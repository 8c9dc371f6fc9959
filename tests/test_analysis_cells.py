"""The cells of an analysis: made on first read, the same answers as a tuple of cells."""

from __future__ import annotations

import pickle
import random
from fractions import Fraction

from hypothesis import given, settings
from strategies import positions

import exactmines.analysis.analyze as analyze_module
from exactmines import analyze
from exactmines.analysis.analyze import CellAnalysis, Cells
from exactmines.analysis.backends import VerdictsOnly, get_backend
from exactmines.analysis.combine import combine, combine_ratios
from exactmines.analysis.frontier import build_frontier, split_forced
from exactmines.budget import Budget
from exactmines.game import Game, deal
from exactmines.io.formats import position_from_text


@settings(max_examples=150)
@given(positions(max_side=6, max_covered=16, allow_lies=True))
def test_cells_read_from_the_boxes_agree_with_the_cell_objects(position):
    result = analyze(position)
    cells = tuple(result.cells)  # the objects, made here
    assert all(isinstance(c, CellAnalysis) for c in cells)
    assert [c.cell for c in cells] == position.covered
    assert len(result.cells) == len(cells)
    fresh = analyze(position)  # nothing read yet: answered from the boxes
    assert fresh.safe == [c.cell for c in cells if c.verdict == "safe"]
    assert fresh.mines == [c.cell for c in cells if c.verdict == "mine"]
    assert fresh.unique == (result.consistent is True
                            and all(c.verdict != "unknown" for c in cells))
    for verdict in ("safe", "mine", "unknown"):  # from the boxes: empty groups count for none
        assert analyze(position).cells.any_with(verdict) == any(c.verdict == verdict
                                                                  for c in cells)
    assert fresh.cells == cells == result.cells
    # Read in bulk, without the cell objects, or from them once made: the same fractions.
    assert analyze(position).cells.probabilities() == tuple(c.probability for c in cells)
    assert result.cells.probabilities() == tuple(c.probability for c in cells)
    assert hash(fresh.cells) == hash(cells)
    for c in cells:
        assert result.cell(c.row, c.col) is c
        assert c.probability is None or type(c.probability) is Fraction
        assert c.probability is None or c.verdict == (
            "safe" if c.probability == 0 else "mine" if c.probability == 1 else "unknown")


def test_cells_pickle_and_compare_as_tuples():
    result = analyze(position_from_text("4x3x3\nHHHH\n1221\nHHHH\n"))
    back = pickle.loads(pickle.dumps(result))
    assert back == result
    assert isinstance(back.cells, Cells)
    assert list(back.cells) == list(result.cells)
    assert result.cells[1:3] == tuple(result.cells)[1:3]
    assert result.cells != tuple(result.cells)[1:]
    assert len(result.cells) == 8 and result.cells[-1].cell == (2, 3)


def test_the_outside_cells_take_the_outside_value():
    # A lone 0 settles nothing off the frontier: every other cell has the outside value,
    # and with as many mines as cells off the frontier they are all mines.
    result = analyze(position_from_text("3x3x5\n0HH\nHHH\nHHH\n"))
    assert result.mines == [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)]
    assert result.safe == [(0, 1), (1, 0), (1, 1)]
    assert result.unique


def test_ratios_are_the_fractions_of_combine():
    position = position_from_text("6x3x4\nHHHHHH\nH121HH\nHHHHHH\n")
    frontier = build_frontier(position)
    counts = [get_backend("dp").count(c) for c in frontier.components]
    sizes = [c.sizes for c in frontier.components]
    args = (counts, sizes, len(frontier.outside), frontier.mines_left)
    ratios, combined = combine_ratios(*args), combine(*args)
    assert ratios.layouts == combined.layouts
    assert [[Fraction(*r) for r in box] for box in ratios.box] == \
        [list(box) for box in combined.box_probability]
    assert Fraction(*ratios.outside) == combined.outside_probability


def _general(position, **options):
    """analyze without the part-by-part path: every component counted whole."""
    saved = analyze_module._SPLIT_ENGINES
    analyze_module._SPLIT_ENGINES = frozenset()
    try:
        return analyze(position, **options)
    finally:
        analyze_module._SPLIT_ENGINES = saved


def _answers(result):
    return (result.consistent, result.layouts, tuple(result.cells), result.components,
            result.frontier_cells, result.largest_component, result.notes,
            result.probabilities_computed, result.verdicts_complete)


@settings(max_examples=300)
@given(positions(max_side=7, max_covered=24, allow_lies=True))
def test_counting_part_by_part_gives_the_same_answers(position):
    # The split (forced cells settled for the whole board, the rest counted in parts) against
    # the components counted whole, on both DP engines, inconsistent positions included.
    for backend in ("auto", "dp"):
        assert _answers(analyze(position, backend=backend)) == \
            _answers(_general(position, backend=backend)), position


def test_the_split_gives_way_to_the_general_path():
    # A contradiction found only by propagating: the general path tells it.
    position = position_from_text("2x2\n1H\n0H\n")
    assert split_forced(position) is None
    assert _answers(analyze(position)) == _answers(_general(position))
    # No count: verdicts only, as before.
    position = position_from_text("5x2x2\nHHHHH\n01HHH\n")
    assert _answers(analyze(position, backend=_no_count())) == \
        _answers(_general(position, backend=_no_count()))
    assert not analyze(position, backend=_no_count()).probabilities_computed
    # Nothing to count once the forced cells are settled, but no time left either.
    position = position_from_text("4x2x3\nHHHH\n02HH\n")
    assert _answers(analyze(position, budget=Budget(0.0))) == \
        _answers(_general(position, budget=Budget(0.0)))
    assert not analyze(position, budget=Budget(0.0)).probabilities_computed


def _no_count() -> VerdictsOnly:
    return VerdictsOnly(get_backend("auto"))


def test_a_split_position():
    # The 0 clears the two cells above it; the 1 then needs one mine in the two cells
    # left to it, one box of two cells; four cells are next to no number.
    position = position_from_text("5x2x2\nHHHHH\n01HHH\n")
    split = split_forced(position)
    assert split is not None
    assert split.safe() == ((0, 0), (0, 1)) and split.mines() == ()
    assert (split.components, split.frontier_cells, split.largest_component) == (1, 4, 4)
    assert split.mines_left == 2 and split.outside == 4
    assert [part.sizes for part in split.parts] == [(2,)]
    assert split.part_cells == ((((0, 2), (1, 2)),),)
    result = analyze(position)
    assert result.layouts == 2 * 4 and result.safe == [(0, 0), (0, 1)]
    assert result.cell(0, 2).probability == Fraction(1, 2)
    assert result.cell(0, 4).probability == Fraction(1, 4)
    # The 2 needs both cells right of the 0: forced mines, nothing left to count.
    split = split_forced(position_from_text("4x2x3\nHHHH\n02HH\n"))
    assert split.mines() == ((0, 2), (1, 2)) and split.parts == () and split.mines_left == 1
    result = analyze(position_from_text("4x2x3\nHHHH\n02HH\n"))
    assert result.mines == [(0, 2), (1, 2)] and result.layouts == 2


def _midgame(width, height, mines, games):
    """Positions met playing seeded games with safe moves only, the mines proved so far
    flagged in every other position (bench_analyze's mid-game family, smaller)."""
    for g in range(games):
        rng = random.Random(g)
        start = (height // 2, width // 2)
        game = Game(deal(width, height, mines, rng, rule="opening", at=start))
        game.reveal(start)
        flags: set = set()
        for move in range(40):
            if game.over:
                break
            position = game.position(frozenset(flags) if move % 2 else frozenset())
            yield position
            result = _general(position)
            if not result.safe:
                break
            flags.update(result.mines)
            for cell in result.safe:
                if not game.over and not game.is_revealed(cell):
                    game.reveal(cell)


def test_part_by_part_on_played_positions():
    # Ordinary positions, where most of the frontier is forced and what is left falls into
    # many small parts: every answer as the components counted whole give it.
    seen = 0
    for position in _midgame(16, 16, 40, 6):
        for backend in ("auto", "dp"):
            assert _answers(analyze(position, backend=backend)) == \
                _answers(_general(position, backend=backend)), position
        seen += 1
    assert seen > 30
