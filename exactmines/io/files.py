"""Paths <-> positions and boards, and writes that never leave a half-written file.

The one place besides the command line that opens files, so the library stays usable
on text held in memory (``formats``) and errors always name the file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from exactmines.errors import InputError
from exactmines.io.formats import (
    board_from_mbf,
    board_from_text,
    board_to_mbf,
    board_to_mine,
    decode_text,
    position_from_text,
    position_to_mine,
)
from exactmines.position import Board, Position

__all__ = ["read_text", "read_position", "read_board", "write_position", "write_board",
           "write_atomic"]

#: Files larger than this are refused before reading (a 10,000 x 10,000 board is ~100 MB).
MAX_FILE_BYTES = 200_000_000


def _read_bytes(path: str | os.PathLike[str]) -> bytes:
    source = str(path)
    try:
        size = os.stat(path).st_size
        if size > MAX_FILE_BYTES:
            raise InputError(f"file is {size} bytes, more than the {MAX_FILE_BYTES} accepted",
                             source=source)
        with open(path, "rb") as handle:
            return handle.read()
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", source=source) from None
    except FileNotFoundError:
        raise InputError("no such file", source=source) from None
    except PermissionError:
        raise InputError("permission denied", source=source) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", source=source) from None


def read_text(path: str | os.PathLike[str]) -> str:
    """A text file's contents (UTF-8), or an :class:`InputError` naming the file."""
    return decode_text(_read_bytes(path), str(path))


def read_position(path: str | os.PathLike[str]) -> Position:
    """Read a ``.mine`` position (``M``/``?`` marks are read as covered cells)."""
    return position_from_text(decode_text(_read_bytes(path), str(path)), str(path))


def read_board(path: str | os.PathLike[str]) -> Board:
    """Read a hidden board: ``.mbf`` (by extension), ``.mine`` with marked mines, or x/o text."""
    data = _read_bytes(path)
    if str(path).lower().endswith(".mbf"):
        return board_from_mbf(data, str(path))
    return board_from_text(decode_text(data, str(path)), str(path))


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write via a temporary file in the same folder and rename: all or nothing.

    A target that cannot be written (a directory, a folder that cannot be made, no
    permission) is an :class:`InputError` naming it, not a traceback.
    """
    target = Path(path)
    raw = data.encode() if isinstance(data, str) else data
    try:
        # Inside the try: a name the system refuses (too long) fails already here.
        if target.is_dir():
            raise InputError("is a directory, expected a file name to write", source=str(path))
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except (FileExistsError, NotADirectoryError):
        raise InputError(f"cannot write: a parent of {target.name!r} is a file, not a folder",
                         source=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", source=str(path)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
        os.replace(tmp, target)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise InputError(f"cannot write: {exc.strerror or exc}", source=str(path)) from None
        raise


def write_position(path: str | os.PathLike[str], position: Position,
                   comments: tuple[str, ...] = ()) -> None:
    write_atomic(path, position_to_mine(position, comments))


def write_board(path: str | os.PathLike[str], board: Board, comments: tuple[str, ...] = ()) -> None:
    """``.mbf`` by extension, otherwise ``.mine`` with every mine marked ``M``."""
    if str(path).lower().endswith(".mbf"):
        write_atomic(path, board_to_mbf(board))
    else:
        write_atomic(path, board_to_mine(board, comments=comments))
