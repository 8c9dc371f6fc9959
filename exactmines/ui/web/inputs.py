"""What the web page and scripts send -> positions and boards, and boards -> files to save.

Everything goes through :mod:`exactmines.io` (the same readers and writers as the command
line), so a bad paste gets the CLI's one-line message with its line and column. Pure values:
nothing here opens a file or touches the network.
"""

from __future__ import annotations

import base64
import binascii

from exactmines.errors import InputError
from exactmines.io.formats import board_to_mine, looks_like_mine_text, position_from_text
from exactmines.io.registry import FORMATS, detect, format_named
from exactmines.position import Board, Position

__all__ = ["position_from_input", "imported_text", "exported", "EXPORT_KINDS", "decode_base64"]

#: What :func:`exported` can write, and each file's suffix (``link`` is no file).
EXPORT_KINDS = {name: kind.suffix for name, kind in FORMATS.items()}


def position_from_input(text: str | None, grid: list[str] | None, mines: int | None,
                        source: str = "input", topology: str = "square") -> Position:
    """The position of ``.mine`` text, or of a grid (rows of ``.mine`` characters) with an
    optional total mine count, on ``topology`` (a ``.mine`` header's word: ``torus``,
    ``hex``, ...; text names its own in its header).

    Errors name the place: ``source:LINE:COL`` in the text, ``grid:ROW:COL`` (1-based) in a
    grid. Exactly one of ``text`` and ``grid`` must be given; ``mines`` goes with a grid only
    (text carries its count in the header).
    """
    if (text is None) == (grid is None):
        raise InputError("give either \"text\" (.mine text) or \"grid\" (a list of rows)",
                         source=source)
    if text is not None:
        if mines is not None:
            raise InputError("\"mines\" goes with \"grid\"; .mine text has its count in the "
                             "header", source=source)
        return position_from_text(text, source)
    assert grid is not None
    if not grid:
        raise InputError("the grid has no rows", source="grid")
    if mines is not None and mines < 0:
        raise InputError(f"mines {mines}: must be at least 0", source="mines")
    for r, row in enumerate(grid):
        breaks = [i for i, ch in enumerate(row) if ch in "\r\n"]
        if breaks:
            raise InputError("a row may not contain a line break", source="grid", line=r + 1,
                             column=breaks[0] + 1)
    header = (f"{len(grid[0])}x{len(grid)}" + ("" if mines is None else f"x{mines}")
              + ("" if topology == "square" else f" {topology}"))
    try:
        return position_from_text("\n".join([header, *grid]), "grid")
    except InputError as exc:
        # Line 1 of that text is the header we wrote: the grid's row r is line r + 1.
        if exc.line is None or exc.line == 1:
            place = "mines" if mines is not None and "mine" in exc.message else "grid"
            raise InputError(exc.message, source=place) from None
        raise InputError(exc.message, source="grid", line=exc.line - 1,
                         column=exc.column) from None


def decode_base64(data: str, source: str) -> bytes:
    """Bytes sent as base64 text, or an :class:`InputError`."""
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise InputError("not base64 data", source=source) from None


def imported_text(name: str, data: bytes) -> tuple[str, str]:
    """``.mine`` text for an uploaded or pasted file, and what it was.

    Every format of :mod:`exactmines.io.registry` is read, recognised as the command line
    recognises files (:func:`~exactmines.io.registry.detect`). A board comes back as
    ``.mine`` text with every mine marked ``M`` (covered cells the analysis does not see
    through); a ``.mine`` position comes back as it was sent. Returns ``(text, kind)``, kind
    the format's name (``mbf``, ``link``, ``xo``, ``mine``).
    """
    source = name or "pasted text"
    kind, content = detect(data, source, name)
    if kind.name == "mine" and isinstance(content, str):
        position_from_text(content, source)  # checked here: errors name the place now
        return content, "mine"
    board = kind.decode(content, source)
    FORMATS["mine"].check_fits(board, source)  # a graph has no rows to show
    return board_to_mine(board), kind.name


def _board(text: str, source: str) -> Board:
    """The board of ``.mine`` text whose mines are all marked (``M``, ``?`` or ``F``)."""
    if not looks_like_mine_text(text):
        raise InputError("expected .mine text", source=source, line=1, column=1)
    return FORMATS["mine"].decode(text, source)


def exported(text: str, kind: str, source: str = "input") -> tuple[str, str]:
    """``text`` (a ``.mine`` position or board) written as ``kind``: ``(data, encoding)``.

    ``mine`` gives the position's text back in the canonical form; ``mbf``, ``xo`` and
    ``link`` need a board (every mine marked ``M`` or ``F``) and give base64 MBF bytes,
    x/o text and a JSMinesweeper link.
    """
    if kind not in EXPORT_KINDS:
        raise InputError(f"unknown export {kind!r}: choose one of {', '.join(EXPORT_KINDS)}",
                         source="to")
    target = format_named(kind)
    if kind == "mine":
        if not looks_like_mine_text(text):
            raise InputError("expected .mine text", source=source, line=1, column=1)
        # A board's mine marks are kept: the file reopens as the same board.
        position_from_text(text, source)
        return text if text.endswith("\n") else text + "\n", "text"
    data = target.encode_board(_board(text, source), source)
    if isinstance(data, bytes):
        return base64.b64encode(data).decode("ascii"), "base64"
    return data, "text"
