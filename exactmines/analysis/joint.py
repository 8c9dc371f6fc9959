"""Several cells at once: the exact probability that at least one of them holds a mine.

A chord opens every covered, unflagged neighbour of a number at once, and loses if any of
them is a mine. That chance is not the sum of the cells' probabilities (they are not
independent) but ``1 - P(all of them clear)``, and ``P(all clear)`` is the share of the
position's layouts that leave every one of the cells clear. Those layouts are counted like
any others: each component that holds some of the cells is counted again with its boxes
split into the part among the cells and the rest, and one more rule, "exactly 0 mines in
these parts"; the components without any of the cells keep their counts; the cells off the
frontier shrink the room for the mines left there. Both counts are combined under the total
mine count as :mod:`~exactmines.analysis.combine` does.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from exactmines.analysis.backends import Backend, get_backend
from exactmines.analysis.combine import combine_ratios, combine_ratios_without_count
from exactmines.analysis.counting import count_components
from exactmines.analysis.frontier import Component, Constraint, build_frontier
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import InputError
from exactmines.position import COVERED, Cell, Position

__all__ = ["any_mine", "clear_component"]


def clear_component(component: Component, box_cells: tuple[tuple[Cell, ...], ...],
                    clear: frozenset[Cell]) -> tuple[Component, tuple[int, ...]]:
    """``component`` with the cells of ``clear`` held free of mines, and its box sizes.

    Each box is split into its cells outside ``clear`` and those inside (an empty part is
    left out); every rule covers both parts of the boxes it covered, and one more rule says
    the parts inside ``clear`` hold no mine. Its layouts by mine number are the original
    component's layouts that leave ``clear`` empty.
    """
    sizes: list[int] = []
    parts: list[list[int]] = []  # new boxes of each old box
    inside: list[int] = []  # new boxes that lie in ``clear``
    for cells in box_cells:
        held = sum(cell in clear for cell in cells)
        mine = []
        for size, kept in ((len(cells) - held, False), (held, True)):
            if size:
                mine.append(len(sizes))
                if kept:
                    inside.append(len(sizes))
                sizes.append(size)
        parts.append(mine)
    rules = [Constraint(tuple(b for old in rule.boxes for b in parts[old]), rule.mines)
             for rule in component.constraints]
    rules.append(Constraint(tuple(inside), 0))
    return Component(tuple(sizes), tuple(rules)), tuple(sizes)


def any_mine(position: Position, cells: Iterable[Cell], *, backend: str | Backend = "auto",
             budget: Budget = UNLIMITED) -> Fraction | None:
    """The exact probability that at least one of ``cells`` holds a mine.

    Parameters
    ----------
    position:
        The position (its total mine count, when known, is used as by
        :func:`~exactmines.analysis.analyze.analyze`).
    cells:
        Covered, unflagged cells of the position.
    backend, budget:
        The engine that counts and the time it may take (:class:`~exactmines.errors.
        OutOfTime` past it).

    Returns
    -------
    ``1 - (layouts leaving every cell clear) / layouts``; ``None`` when it is not defined:
    an inconsistent position, or, without a total mine count, a cell next to no number.

    Notes
    -----
    Cost: counting every component once, and again each component that holds one of the
    cells (with one rule more), then two combinations.
    """
    clear = frozenset(cells)
    for r, c in sorted(clear):
        if not (0 <= r < position.height and 0 <= c < position.width) \
                or position.rows[r][c] != COVERED:
            raise InputError(f"row {r}, col {c} is not a covered, unflagged cell",
                             source="cells")
    engine = get_backend(backend) if isinstance(backend, str) else backend
    frontier = build_frontier(position)
    if frontier.contradiction:
        return None
    every = count_components(frontier.components, engine, budget, every=False)
    sizes = [component.sizes for component in frontier.components]
    # The components with a cell of ``cells``, counted again with those cells clear.
    held, held_sizes = list(every), list(sizes)
    touched = [i for i, boxes in enumerate(frontier.box_cells)
               if any(cell in clear for box in boxes for cell in box)]
    splits = [clear_component(frontier.components[i], frontier.box_cells[i], clear)
              for i in touched]
    for i, (_, split_sizes), counts in zip(
            touched, splits, count_components([split for split, _ in splits], engine,
                                              budget, every=False), strict=True):
        held[i], held_sizes[i] = counts, split_sizes
    outside = len(frontier.outside)
    outside_held = sum(cell in clear for cell in frontier.outside)
    if frontier.mines_left is None:
        if outside_held:
            return None
        total = combine_ratios_without_count(every, sizes).layouts
        kept = combine_ratios_without_count(held, held_sizes).layouts if total else 0
    else:
        total = combine_ratios(every, sizes, outside, frontier.mines_left).layouts
        kept = (combine_ratios(held, held_sizes, outside - outside_held,
                               frontier.mines_left).layouts if total else 0)
    if total == 0:
        return None
    return 1 - Fraction(kept, total)
