"""The reasoning the player and the no-guess check share, on bitmasks.

Above :mod:`exactmines.analysis` (whose :class:`~exactmines.analysis.frontier.Component` it
builds) and below :mod:`exactmines.solvability` and :mod:`exactmines.play`, which both use it:

* :mod:`.rules` -- the local rules: what one clue (:func:`single`) or two overlapping clues
  (:func:`pair`) prove, as functions of a clue's unknown neighbours as a small bitmask (in any
  numbering of the cells: the player uses a 7-wide frame around a clue, the check flat board
  indices) and the mines it still needs, so a rule's cost does not grow with the board; and
  the grouping of rules into boxes (cells under the same rules, :func:`boxes`,
  :func:`component`) and into independent components (:func:`group`).
* :mod:`.known` -- :class:`KnownGrid`, the one protocol of what a player of certain moves
  knows, on any topology; :mod:`.grid` implements it on the square grid, one byte per cell
  on a padded grid (:class:`Grid`), :mod:`.table_grid` on every other topology from its
  neighbour table (:class:`TableGrid`); :func:`new_grid` makes the one that fits, and
  :func:`local_deductions` applies the single and pair rules to the clues near what changed
  on either, at a cost per click that does not grow with the board.
* :mod:`.search` -- the one enumerator of a component's solutions over its boxes
  (:func:`box_search`), bounded by :data:`NODES` search nodes unless told otherwise, past
  which it raises :class:`~exactmines.errors.TooLarge` and the caller hands the component to
  a counting backend; and :func:`extremes`, which folds those solutions into the cells that
  are a mine in some and in every layout, per mine number (what a complete deduction needs).
"""

from exactmines.deduction.grid import Grid, local_deductions
from exactmines.deduction.known import KnownGrid
from exactmines.deduction.rules import Boxes, boxes, component, group, pair, single
from exactmines.deduction.search import NODES, box_search, extremes
from exactmines.deduction.table_grid import TableGrid
from exactmines.topology import Topology

__all__ = ["single", "pair", "Boxes", "boxes", "component", "group", "KnownGrid", "Grid",
           "TableGrid", "new_grid", "local_deductions", "NODES", "box_search", "extremes"]


def new_grid(topology: Topology, total: int) -> KnownGrid:
    """What a player of certain moves knows at the start of a game of ``total`` mines on
    ``topology``: a :class:`Grid` on the square grid, else a :class:`TableGrid`."""
    if topology.is_square:
        return Grid(topology.width, topology.height, total)
    return TableGrid(topology, total)
