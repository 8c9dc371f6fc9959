"""Long-term risk: the 50/50 patterns, their exact tallies and each cell's influence, against
layouts listed one by one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from test_strategy import game_positions, layouts_of, view_of

import exactmines.play.strategy as strategy_module
from exactmines.play.fifty_patterns import KINDS, shape
from exactmines.play.lookahead import Cache
from exactmines.play.strategy import estimate
from exactmines.position import Position


def _mask(width: int, cells: list[tuple[int, int]]) -> int:
    return sum(1 << (r * width + c) for r, c in cells)


def test_shapes_on_a_small_board():
    found = {(kind, cell): shape(4, 3, kind, cell) for kind in KINDS for cell in range(12)}
    found = {key: value for key, value in found.items() if value is not None}
    # A horizontal pair in the top left corner: its outer cells are the column to its
    # right (rows 0 and 1); the left column and the row above are off the board.
    assert found["h", 0] == (_mask(4, [(0, 0), (0, 1)]), _mask(4, [(0, 0)]),
                             _mask(4, [(0, 1)]), _mask(4, [(0, 2), (1, 2)]))
    # A vertical pair in the middle column 1: rows 0-1, outer cells below it only.
    assert found["v", 1] == (_mask(4, [(0, 1), (1, 1)]), _mask(4, [(0, 1)]),
                             _mask(4, [(1, 1)]), _mask(4, [(2, 0), (2, 1), (2, 2)]))
    # A 2x2 block at the bottom right: one outer corner on the board.
    assert found["box", 6] == (_mask(4, [(1, 2), (1, 3), (2, 2), (2, 3)]),
                               _mask(4, [(1, 2), (2, 3)]), _mask(4, [(1, 3), (2, 2)]),
                               _mask(4, [(0, 1)]))
    # Nothing sticks out of the board.
    assert ("h", 3) not in found and ("v", 8) not in found and ("box", 7) not in found
    assert len(found) == 3 * 3 + 4 * 2 + 3 * 2


@given(game_positions(max_unknown=12))
def test_the_scan_finds_every_pattern_a_plain_scan_finds(position):
    # The scan tallies only the patterns a few whole-board shifts let through; tallying
    # every pattern of the board one by one gives the same patterns and tallies.
    view = view_of(position)
    base = estimate(view, Cache())
    risk = strategy_module._risk(view, base, Cache())
    inside: dict[int, int] = {}
    enablers: dict[int, int] = {}
    for kind in KINDS:
        for cell in range(view.width * view.height):
            found = risk.tally(kind, cell, 2)
            if found and found[0]:
                for i in range(view.width * view.height):
                    if shape(view.width, view.height, kind, cell)[0] >> i & 1:
                        inside[i] = inside.get(i, 0) + found[0]
                    if found[1] >> i & 1:
                        enablers[i] = enablers.get(i, 0) + found[0]
    assert (risk.inside, risk.enablers) == (inside, enablers)


def test_the_scan_sees_patterns_walled_by_mines_and_the_edge():
    # 5x5: a 2x2 pocket in the corner walled by five flags, one mine left in it. Its four
    # pairs need no missing mine (their outer cells are flags or off the board) and each
    # forms in one layout; the block would need two mines.
    view = view_of(Position(5, 5, 6, ("HHF20", "HHF30", "FFF20", "23210", "00000")))
    base = estimate(view, Cache())
    assert base.layouts == 4
    risk = strategy_module._risk(view, base, Cache())
    assert risk.inside == {0: 2, 1: 2, 5: 2, 6: 2} and risk.enablers == {}
    assert risk.tally("box", 0, 4) is None


@given(game_positions(), st.data())
def test_layouts_with_fixed_cells_match_brute_force(position, data):
    view = view_of(position)
    base = estimate(view, Cache())
    unknown = [i for i in range(view.width * view.height) if (view.unknown >> i) & 1]
    chosen = data.draw(st.lists(st.sampled_from(unknown), unique=True, max_size=4))
    split = data.draw(st.integers(0, len(chosen)))
    mines = sum(1 << i for i in chosen[:split])
    safe = sum(1 << i for i in chosen[split:])
    expected = sum(1 for x in layouts_of(view) if x & mines == mines and not x & safe)
    assert strategy_module._layouts_with(base, Cache(), mines, safe) == expected


def test_pairs_walled_by_flags_are_tallied_exactly():
    # 3x2, the right column flagged, one mine left among the four cells on the left: every
    # pair there has no missing mine (its outer cells are flags or off the board).
    position = Position(3, 2, 3, ("HHF", "HHF"))
    view = view_of(position)
    base = estimate(view, Cache())
    layouts = layouts_of(view)
    risk = strategy_module._risk(view, base, Cache())
    for kind, cell, mine, safe in (("h", 0, 0, 1), ("v", 0, 0, 3), ("v", 1, 1, 4)):
        tally, missing = risk.tally(kind, cell, 2)
        assert missing == 0
        assert tally == sum(1 for x in layouts if (x >> mine) & 1 and not (x >> safe) & 1)
        assert tally == 1
    # The 2x2 block would need two mines: only one is left.
    assert risk.tally("box", 0, 5) is None
    # Cell 0 is in the pairs h0 and v0; its influence, 2 tallies, is capped by its single
    # mine layout (of 4).
    assert risk.scanned(0) == 2
    assert risk.influence(0, 1, 4) == 1


def test_a_revealed_outer_cell_stops_a_pattern_and_a_true_fifty_fifty_is_found():
    # 3x2, one mine, the right column shows 1 1: the mine is in (0,1) or (1,1), a 50/50
    # nothing can resolve (outer cells off the board), and no pair through column 2 forms.
    position = Position(3, 2, 1, ("HH1", "HH1"))
    view = view_of(position)
    base = estimate(view, Cache())
    assert base.layouts == 2
    risk = strategy_module._risk(view, base, Cache())
    assert risk.tally("h", 0, 4) is None  # its outer cells are revealed
    assert risk.tally("v", 0, 4) == (0, 0)  # fits, but no layout has a mine in column 0
    assert risk.tally("v", 1, 4) == (1, 0)
    assert risk.scanned(1) == 1 and risk.scanned(4) == 1 and risk.scanned(0) == 0
    # Its whole mine layouts are the pattern's: influence = mine layouts (a pseudo 50/50).
    assert risk.influence(1, 1, 2) == 1
