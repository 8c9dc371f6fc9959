"""Text and bytes <-> Position / Board: the ``.mine`` format, x/o board text, MBF.

No file is opened here (see ``files``); every parser takes the text or bytes and a
``source`` name used in error messages, and raises :class:`InputError` naming the line and
column of the first problem.

``.mine`` (JSMinesweeper-compatible)::

    # optional comment lines
    WIDTHxHEIGHTxMINES        (or WIDTHxHEIGHT: total mine count unknown)
    HHH1F2...                 HEIGHT rows of WIDTH characters

``0``-``8`` revealed, ``H`` covered, ``F`` flagged, ``M``/``?`` covered cell holding a mine.

Another topology than the square grid (:mod:`exactmines.topology`) is a word after the
header's numbers (``9x9x10 torus``, ``30x16x99 hex``); a cube's header has three numbers
before the count (``WIDTHxHEIGHTxLAYERSxMINES cube``) and its layers follow one another,
``HEIGHT`` rows each, a blank line between two layers allowed. Where a cell has more than
9 neighbours, numbers from 10 are letters: ``a`` = 10 ... ``z`` = 35.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterable
from dataclasses import dataclass

from exactmines.errors import InputError
from exactmines.position import COVERED, FLAG, Board, Cell, Position
from exactmines.topology import (
    Topology,
    char_number,
    is_number_char,
    make_topology,
    number_char,
    parse_topology_word,
    square,
)
from exactmines.words import plural

__all__ = [
    "MAX_CELLS",
    "MAX_DIGITS",
    "MBF_MAX_SIDE",
    "MBF_MAX_MINES",
    "ParsedGrid",
    "parse_mine_text",
    "position_from_text",
    "board_from_text",
    "board_from_xo",
    "board_from_mbf",
    "board_to_mbf",
    "position_to_mine",
    "board_to_mine",
    "board_to_xo",
    "decode_text",
    "looks_like_mine_text",
    "comments",
    "noted_first_click",
    "header_text",
    "read_int",
    "declared_size",
]

#: The largest board accepted (cells). Generous (a 10,000 x 10,000 board), and checked
#: against the rows actually present before anything of that size is allocated.
MAX_CELLS = 100_000_000

#: The most significant digits a number in a file may have: every size and count of a board
#: fits in 9 (:data:`MAX_CELLS`). A longer number is refused before it is converted, which
#: Python itself refuses past 4,300 digits (``ValueError``) and which costs time quadratic in
#: the length below that.
MAX_DIGITS = 18

#: What MBF can hold: a byte per side and two bytes for the mine count.
MBF_MAX_SIDE = 255
MBF_MAX_MINES = 65535

# ASCII digits only (re.ASCII): ``\d`` alone also matches the digits of other scripts
# (``9x9x١٠``, fullwidth ``９``), which ``int`` would read as numbers.
_HEADER = re.compile(r"(\d+)x(\d+)(?:x(-?\d+))?(?:x(-?\d+))?(?:[ \t]+(\S+))?",
                     re.IGNORECASE | re.ASCII)
#: How a header starts: a digit of any script, so that a malformed header is reported as
#: one (not read as another format) and ``9x9x１0`` is refused by :data:`_HEADER`.
_HEADER_START = re.compile(r"[ \t]*\d")
_MINE_MARKS = "M?"
_ALLOWED = "012345678" + COVERED + FLAG + _MINE_MARKS
#: Every character a row of another topology may hold (numbers up to ``z`` = 35).
_ALLOWED_ANY = "0123456789abcdefghijklmnopqrstuvwxyz" + COVERED + FLAG + _MINE_MARKS


@dataclass(frozen=True, slots=True)
class ParsedGrid:
    """A ``.mine`` file as read: size, header count, rows with the marks kept, topology."""

    width: int
    height: int
    mines: int | None
    rows: tuple[str, ...]
    topology: Topology


def read_int(digits: str, what: str, source: str, line: int | None = None,
             column: int | None = None) -> int:
    """``digits`` (decimal digits after an optional sign, as a pattern matched them) as an
    ``int``, or an :class:`InputError` naming ``what`` and the place when it has more than
    :data:`MAX_DIGITS` significant digits. Cost: linear in ``len(digits)``."""
    significant = len(digits.lstrip("+-").lstrip("0"))
    if significant > MAX_DIGITS:
        raise InputError(f"{what} has {plural(significant, 'digit')}: too large (at most "
                         f"{MAX_DIGITS} "
                         "digits)", source=source, line=line, column=column)
    return int(digits)


def decode_text(data: bytes, source: str) -> str:
    """UTF-8 text (a BOM is dropped), or an :class:`InputError` pointing at the bad byte."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x})", source=source, line=line,
            column=column,
        ) from None
    if "\x00" in text:
        at = text.index("\x00")
        line = text[:at].count("\n") + 1
        raise InputError("binary data (NUL byte) where text was expected", source=source,
                         line=line, column=at - (text.rfind("\n", 0, at) + 1) + 1)
    return text


def looks_like_mine_text(text: str) -> bool:
    """True when the first line that is not a comment or blank starts like a ``.mine``
    header: with a digit (of any script). A well-formed header is then read, a malformed
    one refused by :func:`parse_mine_text` with its place; x/o text, links and graph files
    never start so. Cost: the text up to that line."""
    for raw in text.splitlines():
        line = raw.rstrip(" \t\r")
        if not line or line.startswith("#"):
            continue
        return _HEADER_START.match(line) is not None
    return False


def declared_size(text: str) -> tuple[int, int] | None:
    """The ``(width, height)`` a ``.mine`` header declares (a cube's height: its rows in all
    layers), read from the header alone: a server can refuse a position too large before
    any of it is parsed. ``None`` when there is no well-formed header (the parser then
    refuses the text). Cost: the text up to the header line."""
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line, start = text[start:end].rstrip(" \t\r"), end + 1
        if not line or line.startswith("#"):
            continue
        match = _HEADER.fullmatch(line.strip())
        if match is None or any(len(match.group(g) or "") > MAX_DIGITS for g in (1, 2, 3)):
            return None
        width, height = int(match.group(1)), int(match.group(2))
        word = (match.group(5) or "").lower()
        if word == "cube" and match.group(3) is not None:
            height *= int(match.group(3).lstrip("-") or 0)
        return width, height
    return None


def comments(text: str) -> list[str]:
    """The ``#`` comment lines before a ``.mine`` header, without the ``#`` and the space."""
    found = []
    for raw in text.split("\n"):
        line = raw.rstrip(" \t\r")
        if line.startswith("#"):
            found.append(line[1:].strip())
        elif line:
            break
    return found


# A longer number is no cell of any board: such a comment names no click (rather than
# failing to convert its digits). A cube's click has three numbers.
_FIRST_CLICK = re.compile(rf"(?:first click|solvable from) (\d{{1,{MAX_DIGITS}}}"
                          rf"(?:,\d{{1,{MAX_DIGITS}}}){{1,2}})(?![\d,])", re.ASCII)


def noted_first_click(text: str) -> tuple[int, ...] | None:
    """The first click a ``.mine`` file's comments name, as ``exactmines generate`` writes
    them (``... solvable from 4,4 ...``, ``... first click 4,4 ...``; a cube's ``1,4,4``),
    as written (:meth:`~exactmines.topology.Topology.cell_at` makes it a cell); ``None``
    if none does."""
    for line in comments(text):
        match = _FIRST_CLICK.search(line)
        if match:
            return tuple(int(x) for x in match.group(1).split(","))
    return None


def parse_mine_text(text: str, source: str = "<input>") -> ParsedGrid:
    """Parse ``.mine`` text, checking shape and characters (not the numbers' meaning)."""
    lines = text.split("\n")
    index = 0
    while index < len(lines) and (
        lines[index].startswith("#") or not lines[index].rstrip(" \t\r")
    ):
        index += 1
    if index == len(lines):
        raise InputError("empty file: expected a header WIDTHxHEIGHT[xMINES]", source=source,
                         line=1, column=1)
    header_line = index + 1
    header = lines[index].rstrip(" \t\r").strip()
    indent = len(lines[index]) - len(lines[index].lstrip())
    match = _HEADER.fullmatch(header)
    if match is None:
        shown = header if len(header) <= 40 else header[:40] + "..."
        foreign = next((i for i, ch in enumerate(header) if ch.isdigit() and not ch.isascii()),
                       None)
        if foreign is not None:
            raise InputError(f"bad header {shown!r}: numbers are written in ASCII digits 0-9, "
                             f"not {header[foreign]!r}", source=source, line=header_line,
                             column=indent + foreign + 1)
        raise InputError(f"bad header {shown!r}: expected WIDTHxHEIGHT or WIDTHxHEIGHTxMINES",
                         source=source, line=header_line, column=1)
    topology_word = match.group(5)
    kind = "square"
    offsets: tuple[tuple[int, int], ...] = ()
    if topology_word is not None:
        try:
            kind, offsets = parse_topology_word(topology_word.lower())
        except ValueError as exc:
            raise InputError(str(exc), source=source, line=header_line,
                             column=indent + match.start(5) + 1) from None
    layers = 1
    count_group = 3
    if kind == "cube":
        if match.group(3) is None:
            raise InputError("a cube's header is WIDTHxHEIGHTxLAYERS[xMINES] cube",
                             source=source, line=header_line, column=1)
        layers = read_int(match.group(3), "the number of layers", source, header_line,
                          indent + match.start(3) + 1)
        count_group = 4
    elif match.group(4) is not None:
        raise InputError(f"bad header {header!r}: four numbers are a cube's "
                         "(WIDTHxHEIGHTxLAYERSxMINES cube)", source=source, line=header_line,
                         column=indent + match.start(4) + 1)
    width, layer_rows = (read_int(match.group(g), what, source, header_line,
                                  indent + match.start(g) + 1)
                         for g, what in ((1, "the width"), (2, "the height")))
    height = layer_rows * layers
    mines = None if match.group(count_group) is None else read_int(
        match.group(count_group), "the mine count", source, header_line,
        indent + match.start(count_group) + 1)
    count_column = 1 if mines is None else indent + match.start(count_group) + 1
    if width < 1 or layer_rows < 1 or layers < 1:
        size = f"{width}x{layer_rows}" + (f"x{layers}" if kind == "cube" else "")
        raise InputError(f"board size {size}: width and height must be at least 1",
                         source=source, line=header_line, column=1)
    if width * height > MAX_CELLS:
        raise InputError(f"board size {width}x{height} is larger than {MAX_CELLS} cells",
                         source=source, line=header_line, column=1)
    if mines is not None and mines < 0:
        raise InputError(f"mine count {mines} is negative", source=source, line=header_line,
                         column=count_column)

    body = [(header_line + i + 1, line.rstrip(" \t\r"))
            for i, line in enumerate(lines[index + 1:])]
    if kind == "cube":  # a blank line may part two layers
        body = [(number, line) for number, line in body if line]
    while body and not body[-1][1]:
        body.pop()
    # Check the row count before touching the rows: a 10000x10000 header over three
    # lines is refused here, without building anything of that size.
    if len(body) < height:
        raise InputError(f"missing row {len(body) + 1}: the header promises "
                         f"{plural(height, 'row')}, "
                         f"found {len(body)}", source=source,
                         line=(body[-1][0] if body else header_line) + 1, column=1)
    if len(body) > height:
        raise InputError(f"extra line after the {plural(height, 'row')} of the "
                         f"board", source=source,
                         line=body[height][0], column=1)
    allowed = _ALLOWED if kind == "square" else _ALLOWED_ANY
    expected = ("0-8, H, F, M or ?" if kind == "square" else
                "0-9, a-z (10-35), H, F, M or ?")
    rows = []
    for r, (line_no, row) in enumerate(body):
        for c, ch in enumerate(row[:width]):
            if ch not in allowed:
                what = ("9 is not a Minesweeper number" if ch == "9"
                        else f"unknown character {ch!r} (expected {expected})")
                raise InputError(what, source=source, line=line_no, column=c + 1)
        if len(row) != width:
            raise InputError(f"row {r + 1} has {plural(len(row), 'cell')}, expected {width}",
                             source=source, line=line_no,
                             column=min(len(row), width) + 1)
        rows.append(row)
    topology = (square(width, height) if kind == "square" else
                make_topology(kind, width, height, layers=layers, offsets=offsets))
    grid = ParsedGrid(width, height, mines, tuple(rows), topology)
    _check_grid(grid, source, [number for number, _ in body], header_line, count_column)
    return grid


def _check_grid(grid: ParsedGrid, source: str, row_lines: list[int], header_line: int,
                count_column: int) -> None:
    """Numbers that cannot be (more than the cell's neighbours) and impossible counts
    (reported at the header's mine count, ``count_column``); ``row_lines[r]`` is the line
    of row ``r``."""
    topology = grid.topology
    # Counted at C speed (str.count): rows hold only the allowed characters.
    marks = sum(row.count(ch) for row in grid.rows for ch in FLAG + _MINE_MARKS)
    unrevealed = marks + sum(row.count(COVERED) for row in grid.rows)
    marked = marks
    width, height = grid.width, grid.height
    for r, row in enumerate(grid.rows):
        if topology.is_square:
            # Only a cell on the edge has fewer than 8 neighbours, and no number is above
            # 8: the inside of a square board cannot fail (checked row-major all the same).
            columns: Iterable[int] = (range(width) if r in (0, height - 1) else
                                      (0, width - 1) if width > 1 else (0,))
        else:
            columns = range(width)
        for c in columns:
            ch = row[c]
            if is_number_char(ch):
                if topology.is_square:
                    # The cells of the 3x3 block on the board, less the cell itself.
                    room = (min(r + 1, height - 1) - max(r - 1, 0) + 1) * (
                        min(c + 1, width - 1) - max(c - 1, 0) + 1) - 1
                else:
                    room = topology.degree(r * width + c)
                if char_number(ch) > room:
                    raise InputError(f"number {char_number(ch)} but the cell has only "
                                     f"{plural(room, 'neighbour')}", source=source,
                                     line=row_lines[r], column=c + 1)
    if grid.mines is not None:
        if grid.mines > unrevealed:
            raise InputError(f"{plural(grid.mines, 'mine')} but only "
                             f"{plural(unrevealed, 'unrevealed cell')}",
                             source=source, line=header_line, column=count_column)
        if marked > grid.mines:
            raise InputError(f"{plural(marked, 'cell')} are flagged or marked as mines but the "
                             f"header "
                             f"says {plural(grid.mines, 'mine')}", source=source, line=header_line,
                             column=count_column)


def _as_position(grid: ParsedGrid) -> Position:
    """Marks of hidden mines (``M``, ``?``) become plain covered cells."""
    rows = tuple(row.replace("M", COVERED).replace("?", COVERED) for row in grid.rows)
    return Position(grid.width, grid.height, grid.mines, rows, grid.topology)


def position_from_text(text: str, source: str = "<input>") -> Position:
    """A position from ``.mine`` text (``M``/``?`` are read as covered cells)."""
    return _as_position(parse_mine_text(text, source))


def board_from_text(text: str, source: str = "<input>") -> Board:
    """A hidden board from ``.mine`` text (mines marked ``M``/``?``/``F``) or x/o text."""
    if not looks_like_mine_text(text):
        return board_from_xo(text, source)
    grid = parse_mine_text(text, source)
    mine_cells = frozenset(
        (r, c) for r, row in enumerate(grid.rows) for c, ch in enumerate(row) if ch in "M?F"
    )
    if grid.mines is not None and grid.mines != len(mine_cells):
        header = text.split("\n")[_row_line(text, -1) - 1]
        raise InputError(f"a board must mark every mine: the header says {grid.mines} but "
                         f"{plural(len(mine_cells), 'cell')} are marked M, ? or F", source=source,
                         line=_row_line(text, -1), column=header.lower().rfind("x") + 2)
    board = Board(grid.width, grid.height, mine_cells, grid.topology)
    numbers = board.numbers()
    for r, row in enumerate(grid.rows):
        for c, ch in enumerate(row):
            if is_number_char(ch) and char_number(ch) != numbers[r * grid.width + c]:
                raise InputError(f"shows {char_number(ch)} but its neighbours hold "
                                 f"{plural(numbers[r * grid.width + c], 'marked mine')}",
                                 source=source,
                                 line=_row_line(text, r, grid.topology), column=c + 1)
    return board


def _row_line(text: str, row: int, topology: Topology | None = None) -> int:
    """1-based line of board row ``row`` in ``.mine`` text (after comments and header;
    on a cube, blank lines between layers skipped)."""
    lines = text.split("\n")
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip(" \t\r")
        if line and not line.startswith("#"):
            if topology is None or topology.kind != "cube" or row < 0:
                return number + 1 + row
            rows = [n for n, body in enumerate(lines[number:], start=number + 1)
                    if body.rstrip(" \t\r")]
            return rows[row]
    return row + 2


def board_from_xo(text: str, source: str = "<input>") -> Board:
    """The petersohn solver's board text: ``x`` mine, ``o`` safe, anything else ignored."""
    rows: list[tuple[int, str]] = []
    places: list[list[int]] = []  # 1-based columns of each row's x/o characters
    for number, raw in enumerate(text.split("\n"), start=1):
        columns = [i + 1 for i, ch in enumerate(raw) if ch in "xo"]
        if columns:
            rows.append((number, "".join(raw[i - 1] for i in columns)))
            places.append(columns)
    if not rows:
        raise InputError("no board: expected a .mine header or rows of x (mine) and o (safe)",
                         source=source, line=1, column=1)
    width = len(rows[0][1])
    for (number, cells), columns in zip(rows, places, strict=True):
        if len(cells) != width:
            # The first cell too many, or just after the last cell of a short row.
            column = columns[width] if len(cells) > width else columns[-1] + 1
            raise InputError(f"row has {plural(len(cells), 'cell')}, expected {width} like the "
                             f"first",
                             source=source, line=number, column=column)
    mine_cells = frozenset(
        (r, c) for r, (_, cells) in enumerate(rows) for c, ch in enumerate(cells) if ch == "x"
    )
    return Board(width, len(rows), mine_cells)


def board_from_mbf(data: bytes, source: str = "<input>") -> Board:
    """An MBF board: u8 width, u8 height, u16 big-endian mines, then (u8 x, u8 y) per mine."""
    if len(data) < 4:
        raise InputError(f"MBF file too short ({plural(len(data), 'byte')}, need at least 4)",
                         source=source)
    width, height, mines = struct.unpack(">BBH", data[:4])
    if width < 1 or height < 1:
        raise InputError(f"MBF board size {width}x{height}: must be at least 1x1",
                         source=source)
    if len(data) != 4 + 2 * mines:
        raise InputError(f"MBF header says {plural(mines, 'mine')} "
                         f"({plural(4 + 2 * mines, 'byte')}) but the "
                         f"file has {plural(len(data), 'byte')}", source=source)
    mine_cells: set[Cell] = set()
    for i in range(mines):
        x, y = data[4 + 2 * i], data[5 + 2 * i]
        if x >= width or y >= height:
            raise InputError(f"MBF mine {i + 1} at x={x}, y={y} is off the {width}x{height} "
                             "board", source=source)
        if (y, x) in mine_cells:
            raise InputError(f"MBF mine {i + 1} at x={x}, y={y} is listed twice", source=source)
        mine_cells.add((y, x))
    return Board(width, height, frozenset(mine_cells))


def board_to_mbf(board: Board) -> bytes:
    """MBF bytes; a board MBF cannot hold (:data:`MBF_MAX_SIDE`, :data:`MBF_MAX_MINES`) is a
    ``ValueError`` (callers check first: ``registry.FileFormat.check_fits``)."""
    if max(board.width, board.height) > MBF_MAX_SIDE or board.mines > MBF_MAX_MINES:
        raise ValueError(f"MBF holds boards up to {MBF_MAX_SIDE}x{MBF_MAX_SIDE} with at most "
                         f"{MBF_MAX_MINES} mines")
    out = bytearray(struct.pack(">BBH", board.width, board.height, board.mines))
    for r, c in sorted(board.mine_cells):
        out += bytes((c, r))
    return bytes(out)


def header_text(topology: Topology, mines: int | None) -> str:
    """A ``.mine`` header: ``WIDTHxHEIGHT[xMINES]``, then the topology's word
    (``WIDTHxHEIGHTxLAYERS[xMINES] cube`` on a cube).

    Raises
    ------
    ValueError
        For a graph, which has no rows (graph formats: :mod:`exactmines.io.graphs`).
    """
    if topology.kind == "graph":
        raise ValueError("a graph has no rows: write it as node-link JSON, GraphML or an "
                         "edge list")
    size = topology.size_text
    count = "" if mines is None else f"x{mines}"
    word = topology.word
    return f"{size}{count} {word}" if word else f"{size}{count}"


def _rows_text(topology: Topology, rows: Iterable[str]) -> list[str]:
    """A board's rows as lines, a blank line between a cube's layers."""
    lines = list(rows)
    if topology.kind != "cube":
        return lines
    step = topology.layer_height
    out: list[str] = []
    for start in range(0, len(lines), step):
        if out:
            out.append("")
        out.extend(lines[start:start + step])
    return out


def position_to_mine(position: Position, comments: Iterable[str] = ()) -> str:
    """``.mine`` text for a position (header without count when it is unknown)."""
    lines = [f"# {c}" for c in comments] + [header_text(position.topology, position.mines),
                                             *_rows_text(position.topology, position.rows)]
    return "\n".join(lines) + "\n"


def board_to_mine(board: Board, revealed: Iterable[Cell] = (),
                  comments: Iterable[str] = ()) -> str:
    """``.mine`` text for a board: mines as ``M``, ``revealed`` cells as numbers, rest ``H``."""
    shown = set(revealed)
    numbers = board.numbers()
    rows = []
    for r in range(board.height):
        row = []
        for c in range(board.width):
            if (r, c) in board.mine_cells:
                row.append("M")
            elif (r, c) in shown:
                row.append(number_char(numbers[r * board.width + c]))
            else:
                row.append(COVERED)
        rows.append("".join(row))
    lines = [f"# {c}" for c in comments] + [header_text(board.topology, board.mines),
                                             *_rows_text(board.topology, rows)]
    return "\n".join(lines) + "\n"


def board_to_xo(board: Board) -> str:
    """The petersohn solver's board text: one line per row, ``x`` mine, ``o`` safe."""
    return "".join(
        "".join("x" if (r, c) in board.mine_cells else "o" for c in range(board.width)) + "\n"
        for r in range(board.height)
    )
