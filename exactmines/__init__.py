"""exactmines: exact analysis of Minesweeper positions.

>>> from exactmines import read_position, analyze
>>> result = analyze(read_position("instances/reference-9x9.mine"))
>>> result.layouts
1031
"""

from __future__ import annotations

__version__ = "0.1.0"

from .analysis import Analysis, CellAnalysis, analyze
from .errors import ExactminesError, InputError
from .files import read_board, read_position, write_board, write_position
from .position import Board, Position

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
