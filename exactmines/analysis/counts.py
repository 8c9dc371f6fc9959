"""What counting gives back: the exact counts of one component (:class:`ComponentCounts`)
and the safe/mine facts of one (:class:`Deductions`), or, when the time ran out while
proving those, the facts proved so far (:class:`PartlyProved`).

The values every engine returns and every consumer reads (the combination, the caches, the
player), kept apart from the registry of engines (:mod:`exactmines.analysis.backends`) so
that a module that only reads counts does not import it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from exactmines.errors import OutOfTime

__all__ = ["ComponentCounts", "Deductions", "PartlyProved"]


@dataclass(frozen=True, slots=True)
class ComponentCounts:
    """Exact layout counts of one component.

    Attributes
    ----------
    layouts:
        ``layouts[k]``: the number of cell layouts with exactly ``k`` mines that satisfy every
        constraint (boxes weighted by C(size, mines)).
    box_mines:
        ``box_mines[k][b]``: summed over those layouts, the mines in box ``b``. A cell of box
        ``b`` is a mine in ``box_mines[k][b] / size[b]`` of the layouts with ``k`` mines.
    """

    layouts: tuple[int, ...]
    box_mines: tuple[tuple[int, ...], ...]
    #: How the DP engine counted, when it swept a part (not part of the answer): the
    #: widest table's width (rules open at a cut of a sweep, or a tree decomposition's
    #: largest bag less one) and ``"sweep"`` or ``"tree"``.
    dp_width: int | None = field(default=None, compare=False)
    dp_plan: str | None = field(default=None, compare=False)

    @property
    def total(self) -> int:
        return sum(self.layouts)

    def mine_numbers(self) -> frozenset[int]:
        return frozenset(k for k, n in enumerate(self.layouts) if n)


@dataclass(frozen=True, slots=True)
class Deductions:
    """Per box: ``can_mine[b]`` some allowed layout puts a mine in box ``b``;
    ``can_clear[b]`` some allowed layout leaves a cell of box ``b`` without one.

    ``complete`` is ``False`` when the engine stopped at the end of its budget: a ``False``
    fact is still proved, but a ``True`` one may only be unproved (reported as possible)."""

    can_mine: tuple[bool, ...]
    can_clear: tuple[bool, ...]
    complete: bool = True

    @classmethod
    def unsettled(cls, boxes: int) -> Deductions:
        """Nothing proved about any of ``boxes`` boxes: every fact possible, incomplete."""
        return cls((True,) * boxes, (True,) * boxes, complete=False)


class PartlyProved(OutOfTime):
    """An engine's ``deduce`` ran out of time: :class:`~exactmines.errors.OutOfTime`, as
    every engine call that runs out raises, carrying in ``facts`` what it had proved
    (``complete=False``: a ``False`` fact is proved, a ``True`` one may only be unproved).
    A caller that can use a partial answer (the analysis' verdicts) reads ``facts``; any
    other treats it as the time running out."""

    def __init__(self, message: str, facts: Deductions) -> None:
        super().__init__(message)
        self.facts = facts
