"""Hypothesis strategies: positions generated from hidden random layouts."""

from __future__ import annotations

from hypothesis import strategies as st

from exactmines.position import Board, Position


@st.composite
def boards(draw: st.DrawFn, max_side: int = 5, max_cells: int = 20) -> Board:
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max(1, min(max_side, max_cells // width))))
    cells = [(r, c) for r in range(height) for c in range(width)]
    mines = draw(st.sets(st.sampled_from(cells), max_size=len(cells)))
    return Board(width, height, frozenset(mines))


@st.composite
def positions(draw: st.DrawFn, max_side: int = 5, max_covered: int = 14,
              count_known: bool | None = None, allow_lies: bool = False) -> Position:
    """What a player could see on a hidden random board (flags on true mines).

    ``allow_lies`` sometimes alters one number, so inconsistent positions are covered too.
    """
    board = draw(boards(max_side=max_side))
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
        rows[r] = rows[r][:c] + str(value) + rows[r][c + 1:]
        position = Position(position.width, position.height, position.mines, tuple(rows))
    return position
