"""Where ``build`` puts its mines at high density, against uniform no-guess boards.

The reference (docs/noguess.md, ``scripts/bench_noguess_bias.py``): two Markov chains of
40,000 steps over the no-guess boards of 30x16 (first click in the middle, ``opening``
rule), from far-apart starts, put 1.53-1.59 times as many mines per border cell as per
interior cell at 200 mines (far/near 1.08-1.15) and 1.57-1.76 at 240 (far/near
1.39-1.47). ``build`` had 1.22-1.27 and 1.25-1.30 before its moves were weighted to the
edge (:func:`~exactmines.solvability.build.edge_weight`). The boards are seeded: the
figures below are the same on every run.
"""

import random

import pytest

from exactmines.solvability.build import build_board, edge_weight, lean_slack

AT = (8, 15)


def pooled_ratios(mines: int, boards: int) -> tuple[float, float]:
    """(border over interior, far over near) mine densities, pooled over ``boards`` built
    30x16 boards (seeds 0, 1, ...): the opening is left out of the interior; near is king
    distance 2-4 from the first click, far 7 and more."""
    on_border = inside = near = far = 0
    border_cells = inner_cells = near_cells = far_cells = 0
    for seed in range(boards):
        built = build_board(30, 16, mines, random.Random(seed), start="opening", at=AT)
        assert built is not None
        cells = set(built.mines)
        for i in range(30 * 16):
            r, c = divmod(i, 30)
            d = max(abs(r - AT[0]), abs(c - AT[1]))
            if r in (0, 15) or c in (0, 29):
                border_cells += 1
                on_border += i in cells
            elif d >= 2:
                inner_cells += 1
                inside += i in cells
            if 2 <= d <= 4:
                near_cells += 1
                near += i in cells
            elif d >= 7:
                far_cells += 1
                far += i in cells
    return ((on_border / border_cells) / (inside / inner_cells),
            (far / far_cells) / (near / near_cells))


@pytest.mark.parametrize("mines,border,far_near", [
    (200, (1.40, 1.75), (1.00, 1.25)),  # reference 1.53-1.59 and 1.08-1.15
    (240, (1.40, 1.90), (1.25, 1.60)),  # reference 1.57-1.76 and 1.39-1.47
])
def test_built_boards_have_the_edge_mines_of_uniform_noguess_boards(mines, border,
                                                                    far_near):
    # 60 seeded boards: 1.61 and 1.16 at 200 mines, 1.60 and 1.40 at 240; before the edge
    # weight the same seeds gave 1.22 and 1.25 on the border (the ratio moves by about 0.05
    # from one set of seeds to another)
    on_edge, slope = pooled_ratios(mines, 60)
    assert border[0] < on_edge < border[1]
    assert far_near[0] < slope < far_near[1]


def test_the_weights_leave_sparse_boards_alone_and_grow_with_the_density():
    assert edge_weight(99 / 471) == pytest.approx(1.0, abs=0.01)
    assert edge_weight(0.1) == 1.0 and lean_slack(99, 0.21) == 0
    assert 1 < edge_weight(150 / 471) < edge_weight(200 / 471) < edge_weight(240 / 471) <= 8
    assert lean_slack(150, 150 / 471) == 0 < lean_slack(240, 240 / 471)
    assert edge_weight(1.0) == 8.0
