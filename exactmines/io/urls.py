"""JSMinesweeper board links (``...index.html?b=DESCRIPTOR&m=MINES``) <-> :class:`Board`.

The encoding, as JSMinesweeper (DavidNHill/JSMinesweeper, ``MinesweeperGame.js``
``getBoardDescriptor``/``getMinesString`` and ``main.js`` ``interpretBMParms``) writes and
reads it; the same ``b``/``m`` pair is understood by llamasweeper's ZiNi explorer:

``b``
    ``1``, ``2`` or ``3`` for the standard 9x9, 16x16 and 30x16 boards; otherwise the width
    and the height in decimal, zero-padded to the same number of digits and joined
    (``"2020"`` is 20x20, ``"0916"`` is 9x16). JSMinesweeper splits the string in the middle.
``m``
    Base-32 digits (``0-9a-v``), each holding five cells, most significant bit first, cells
    in row-major order (x = column runs fastest); a set bit is a mine. Bits past the last
    cell are zero.

The mine count is not in the link: it is the number of set bits. Pure text <-> values: no
network access, no files.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from exactmines.errors import InputError
from exactmines.io.formats import read_int
from exactmines.position import Board
from exactmines.words import plural

__all__ = ["board_from_jsm_url", "board_to_jsm_url", "looks_like_jsm_url", "JSM_PAGE",
           "LARGEST_SIDE"]

#: Where JSMinesweeper's player lives; links written here point to it.
JSM_PAGE = "https://davidnhill.github.io/JSMinesweeper/index.html"

_STANDARD = {"1": (9, 9), "2": (16, 16), "3": (30, 16)}
_STANDARD_MINES = {(9, 9): 10, (16, 16): 40, (30, 16): 99}
_DIGITS32 = "0123456789abcdefghijklmnopqrstuv"
#: The longest side a link may give (JSMinesweeper itself stops at 250).
LARGEST_SIDE = 10_000


def looks_like_jsm_url(text: str) -> bool:
    """True when ``text`` carries both a ``b=`` and an ``m=`` parameter (a board link)."""
    params = _parameters(text.strip())
    return "b" in params and "m" in params


def _parameters(text: str) -> dict[str, list[str]]:
    # The pair may sit in the query (JSMinesweeper) or in the fragment after "?"
    # (llamasweeper's "#/game/zini-explorer?b=...&m=..."): read both, and whatever follows
    # the first "?" of text that is no URL to urllib (an unclosed "[" in the host).
    try:
        parts = urlsplit(text)
        chunks = [parts.query, parts.fragment.partition("?")[2]]
    except ValueError:
        chunks = []
    found: dict[str, list[str]] = {}
    for chunk in (*chunks, text.partition("?")[2]):
        for key, values in parse_qs(chunk, keep_blank_values=True).items():
            found.setdefault(key, values)
    return found


def _size(descriptor: str, source: str) -> tuple[int, int]:
    if descriptor in _STANDARD:
        return _STANDARD[descriptor]
    shown = descriptor if len(descriptor) <= 20 else descriptor[:20] + "..."
    if len(descriptor) < 2 or not descriptor.isdigit() or not descriptor.isascii():
        raise InputError(f"board descriptor b={shown!r}: expected 1, 2, 3 or the width "
                         "and height as digits of equal length (e.g. 2020)", source=source)
    # Split as JSMinesweeper reads it: an odd length puts the extra digit in the height
    # (its writer pads the height to the width's digits, so 9x16 becomes "916").
    half = len(descriptor) // 2
    width = read_int(descriptor[:half], f"the width in b={shown}", source)
    height = read_int(descriptor[half:], f"the height in b={shown}", source)
    if not (1 <= width <= LARGEST_SIDE and 1 <= height <= LARGEST_SIDE):
        raise InputError(f"board descriptor b={shown!r} gives {width}x{height}: each side "
                         f"must be 1 to {LARGEST_SIDE}", source=source)
    return width, height


def board_from_jsm_url(url: str, source: str = "<url>") -> Board:
    """The board of a JSMinesweeper link, or an :class:`InputError` saying what is wrong.

    ``m`` must hold exactly ``ceil(width * height / 5)`` base-32 digits (upper case accepted)
    and no mine past the last cell. Like JSMinesweeper, the mine count is whatever ``m``
    marks, even under a standard descriptor.
    """
    params = _parameters(url.strip())
    missing = [key for key in ("b", "m") if key not in params]
    if missing:
        raise InputError(f"not a JSMinesweeper board link: no {'= or '.join(missing)}= "
                         "parameter (expected ...?b=DESCRIPTOR&m=MINES)", source=source)
    descriptor, mines_text = params["b"][0].strip(), params["m"][0].strip().lower()
    width, height = _size(descriptor, source)
    cells = width * height
    digits = -(-cells // 5)
    if len(mines_text) != digits:
        raise InputError(f"m= has {plural(len(mines_text), 'digit')} but a {width}x{height} "
                         f"board needs "
                         f"{digits} (five cells a digit)", source=source)
    mine_cells: set[tuple[int, int]] = set()
    for position, ch in enumerate(mines_text):
        value = _DIGITS32.find(ch)
        if value < 0:
            raise InputError(f"m= digit {position + 1} is {ch!r}, not a base-32 digit (0-9, a-v)",
                             source=source)
        for bit in range(5):
            if value & (16 >> bit):
                index = position * 5 + bit
                if index >= cells:
                    raise InputError(f"m= marks a mine past the last cell of the {width}x{height} "
                                     "board", source=source)
                mine_cells.add(divmod(index, width))
    return Board(width, height, frozenset(mine_cells))


def board_to_jsm_url(board: Board, page: str = JSM_PAGE) -> str:
    """A link that opens ``board`` in JSMinesweeper (``page`` + ``?b=...&m=...``)."""
    size = (board.width, board.height)
    if _STANDARD_MINES.get(size) == board.mines:
        descriptor = next(key for key, value in _STANDARD.items() if value == size)
    else:
        digits = max(len(str(board.width)), len(str(board.height)))
        descriptor = f"{board.width:0{digits}d}{board.height:0{digits}d}"
    cells = board.width * board.height
    out = []
    for start in range(0, cells, 5):
        value = 0
        for index in range(start, start + 5):
            value = value * 2 + (index < cells and divmod(index, board.width) in board.mine_cells)
        out.append(_DIGITS32[value])
    return f"{page}?b={descriptor}&m={''.join(out)}"
