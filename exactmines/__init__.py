"""exactmines: exact analysis of Minesweeper positions.

>>> from exactmines import read_position, analyze
>>> result = analyze(read_position("instances/reference-9x9.mine"))
>>> result.layouts
1031
"""

from __future__ import annotations

from exactmines.analysis.analyze import Analysis, CellAnalysis, analyze
from exactmines.errors import ExactminesError, InputError
from exactmines.io.files import read_board, read_position, write_board, write_position
from exactmines.position import Board, Position
from exactmines.version import __version__

__all__ = [
    "__version__",
    "Analysis",
    "CellAnalysis",
    "analyze",
    "ExactminesError",
    "InputError",
    "read_board",
    "read_position",
    "write_board",
    "write_position",
    "Board",
    "Position",
]
