"""Every board format in one table: its name, file suffix, reader, writer and limits.

Reading (:mod:`~exactmines.io.files`), writing, ``exactmines convert`` and the web page's
import and export all look a format up here, so a new format is one :class:`FileFormat`
entry (with its codec in :mod:`~exactmines.io.formats` or :mod:`~exactmines.io.urls`) and
every one of them knows it. Pure bytes and text <-> values: nothing here opens a file.

How data is recognised (:func:`detect`): a name ending in a binary format's suffix
(``.mbf``) is that format; otherwise the data must be UTF-8 text, and the suffix ``.mine``
or a graph format's (``.json``, ``.graphml``, ``.edges``) names it, else the text tells:
one line with ``b=`` and ``m=`` parameters is a JSMinesweeper link, a first line starting
with a digit is a ``.mine`` header (a malformed one is refused, never read as x/o text),
text starting with ``{`` node-link JSON and with ``<`` GraphML, anything else x/o board
text. Data the format its name or content names cannot read is refused with that format's
error. Unnamed data that is not text is MBF (the only binary format).

MBF, x/o text and links hold square-grid boards only, ``.mine`` any topology with rows
(every one but a graph), the graph formats any board (a grid's as its graph).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from exactmines.errors import InputError, ParameterError
from exactmines.io.formats import (
    MAX_CELLS,
    MBF_MAX_MINES,
    MBF_MAX_SIDE,
    board_from_mbf,
    board_from_text,
    board_from_xo,
    board_to_mbf,
    board_to_mine,
    board_to_xo,
    decode_text,
    looks_like_mine_text,
    noted_first_click,
    parse_mine_text,
    position_from_text,
    position_to_mine,
)
from exactmines.io.graphs import (
    GRAPH_SUFFIXES,
    board_from_graph,
    board_to_graph,
    graph_kind,
    position_from_graph,
    position_to_graph,
)
from exactmines.io.urls import (
    LARGEST_SIDE,
    board_from_jsm_url,
    board_to_jsm_url,
    looks_like_jsm_url,
)
from exactmines.position import COVERED, Board, Position
from exactmines.words import plural

__all__ = ["Limits", "FileFormat", "FORMATS", "format_named", "format_of_name",
           "format_for_writing", "detect", "read_board", "read_position", "first_click",
           "unopened", "write_suffixes", "position_text"]


@dataclass(frozen=True, slots=True)
class Limits:
    """The largest board a format holds (``None``: no limit of that kind), and the
    topologies it holds: ``square`` (the square grid only), ``rows`` (any but a graph) or
    ``any``."""

    side: int | None = None
    mines: int | None = None
    cells: int | None = None
    topologies: str = "square"

    def refusal(self, board: Board) -> str | None:
        """Why ``board`` does not fit, or ``None`` when it does."""
        kind = board.topology.kind
        if self.topologies == "square" and kind != "square":
            return f"square-grid boards only, this one is a {kind}"
        if self.topologies == "rows" and kind == "graph":
            return "boards with rows only, not graphs"
        if self.side is not None and max(board.width, board.height) > self.side:
            return f"each side at most {self.side}"
        if self.cells is not None and board.width * board.height > self.cells:
            return f"at most {plural(self.cells, 'cell')}"
        if self.mines is not None and board.mines > self.mines:
            return f"at most {plural(self.mines, 'mine')}"
        return None


@dataclass(frozen=True, slots=True)
class FileFormat:
    """One board format.

    Attributes
    ----------
    name:
        What the command line and the web page call it (``mine``, ``mbf``, ``xo``, ``link``).
    suffix:
        The file name ending it is written under (``""``: not a file, a link).
    description:
        A few words for people.
    binary:
        Bytes rather than UTF-8 text (recognised by the suffix, not by content).
    decode:
        ``(text or bytes, source) -> Board``; errors are :class:`InputError` naming the place.
    encode:
        ``(board, comments) -> text or bytes``; comments are kept where the format has them.
    limits:
        The largest board it holds; :meth:`encode_board` refuses more.
    """

    name: str
    suffix: str
    description: str
    binary: bool
    decode: Callable[[str | bytes, str], Board]
    encode: Callable[[Board, Sequence[str]], str | bytes]
    limits: Limits

    def check_fits(self, board: Board, source: str) -> None:
        """An :class:`InputError` naming ``source`` when ``board`` is larger than the format."""
        why = self.limits.refusal(board)
        if why is not None:
            graph = board.topology.kind == "graph"
            instead = ".json" if graph else ".mine"
            shape = (f"graph of {board.topology.size_text}" if graph else
                     f"{board.topology.size_text} board")
            raise InputError(f"a {shape} with {plural(board.mines, 'mine')} "
                             f"does not fit {self.description} ({why}): save {instead} "
                             "instead", source=source)

    def encode_board(self, board: Board, source: str, comments: Sequence[str] = ()
                     ) -> str | bytes:
        """``board`` in this format, after :meth:`check_fits`."""
        self.check_fits(board, source)
        return self.encode(board, comments)



def _text(reader: Callable[[str, str], Board]) -> Callable[[str | bytes, str], Board]:
    def read(data: str | bytes, source: str) -> Board:
        return reader(decode_text(data, source) if isinstance(data, bytes) else data, source)
    return read


def _mbf(data: str | bytes, source: str) -> Board:
    return board_from_mbf(data.encode() if isinstance(data, str) else data, source)


def _mine_board(text: str, source: str) -> Board:
    if not looks_like_mine_text(text):
        parse_mine_text(text, source)  # raises the .mine reader's error with its place
    return board_from_text(text, source)


def _graph_format(kind: str, description: str) -> FileFormat:
    return FileFormat(kind, GRAPH_SUFFIXES[kind], description, False,
                      _text(lambda text, source: board_from_graph(text, kind, source)),
                      lambda board, comments: board_to_graph(board, kind),
                      Limits(cells=MAX_CELLS, topologies="any"))


FORMATS: dict[str, FileFormat] = {f.name: f for f in (
    FileFormat("mine", ".mine", ".mine text (mines marked M)", False, _text(_mine_board),
               lambda board, comments: board_to_mine(board, comments=comments),
               Limits(cells=MAX_CELLS, topologies="rows")),
    FileFormat("mbf", ".mbf", "MBF", True, _mbf, lambda board, comments: board_to_mbf(board),
               Limits(side=MBF_MAX_SIDE, mines=MBF_MAX_MINES)),
    FileFormat("xo", ".txt", "x/o text", False, _text(board_from_xo),
               lambda board, comments: board_to_xo(board), Limits(cells=MAX_CELLS)),
    FileFormat("link", "", "a JSMinesweeper link", False,
               _text(lambda text, source: board_from_jsm_url(text.strip(), source)),
               lambda board, comments: board_to_jsm_url(board), Limits(side=LARGEST_SIDE)),
    _graph_format("json", "node-link JSON (a graph)"),
    _graph_format("graphml", "GraphML (a graph)"),
    _graph_format("edges", "an edge list (a graph)"),
)}


def format_named(name: str) -> FileFormat:
    """The format called ``name``, or a :class:`ParameterError` listing the names."""
    if name not in FORMATS:
        raise ParameterError("format", name, f"choose one of {', '.join(FORMATS)}")
    return FORMATS[name]


def format_of_name(name: str) -> FileFormat | None:
    """The format a file name's suffix says (case ignored), or ``None``."""
    lowered = name.lower()
    return next((f for f in FORMATS.values() if f.suffix and lowered.endswith(f.suffix)), None)


def write_suffixes() -> list[str]:
    """The suffixes a board can be written under."""
    return [f.suffix for f in FORMATS.values() if f.suffix]


def format_for_writing(name: str, parameter: str) -> FileFormat:
    """The format to write the file ``name`` in, chosen by its suffix; a name without a
    known suffix is a :class:`ParameterError` on ``parameter``."""
    found = format_of_name(name)
    if found is None:
        *most, last = write_suffixes()
        raise ParameterError(parameter, name, f"the file name must end in {', '.join(most)} "
                             f"or {last}")
    return found


def detect(data: bytes, source: str, name: str = "") -> tuple[FileFormat, str | bytes]:
    """The format of ``data`` (see the module docstring) and what to decode: the text of a
    text format, the bytes of a binary one. ``name`` is the file name, ``""`` if none."""
    named = format_of_name(name)
    if named is not None and named.binary:
        return named, data
    try:
        text = decode_text(data, source)
    except InputError as exc:
        if not name:  # unnamed bytes that are not text: the only binary format
            return FORMATS["mbf"], data
        binary = " or ".join(f.suffix for f in FORMATS.values() if f.binary)
        raise InputError(f"{exc.message}; a binary board file must be named {binary}",
                         source=exc.source, line=exc.line, column=exc.column) from None
    if named is not None and (named.name in GRAPH_SUFFIXES or named.name == "mine"):
        return named, text  # the name says it: read so, or refused (never read as another)
    stripped = text.strip()
    if "\n" not in stripped and looks_like_jsm_url(stripped):
        return FORMATS["link"], text
    if looks_like_mine_text(text):
        return FORMATS["mine"], text
    graph = graph_kind(text)
    return FORMATS["xo" if graph is None else graph], text


def read_board(data: bytes, source: str, name: str = "") -> Board:
    """The hidden board in ``data``, in whichever format :func:`detect` finds."""
    found, content = detect(data, source, name)
    return found.decode(content, source)


def unopened(board: Board) -> Position:
    """What a player sees of ``board`` before the first click: every cell covered, the
    mine count known."""
    return Position(board.width, board.height, board.mines,
                    tuple(COVERED * board.width for _ in range(board.height)), board.topology)


def read_position(data: bytes, source: str, name: str = "") -> Position:
    """The position in ``data``: ``.mine`` text (``M``/``?`` read as covered cells), or a
    binary board read as :func:`unopened` (nothing revealed yet).

    A graph file is read as the position on its graph (:mod:`~exactmines.io.graphs`). x/o
    text and links hold boards too, but are not read as positions: text without a ``.mine``
    header is reported as the ``.mine`` error it most likely is.
    """
    found, content = detect(data, source, name)
    if isinstance(content, bytes):
        return unopened(found.decode(content, source))
    if found.name in GRAPH_SUFFIXES:
        return position_from_graph(content, found.name, source)
    return position_from_text(content, source)


def position_text(position: Position, comments: Sequence[str] = (), name: str = "") -> str:
    """A position as text: ``.mine``, or a graph's in the graph format ``name``'s suffix
    names (node-link JSON by default)."""
    if position.topology.kind != "graph":
        return position_to_mine(position, comments)
    named = format_of_name(name)
    return position_to_graph(position, named.name if named is not None
                             and named.name in GRAPH_SUFFIXES else "json")


def first_click(data: bytes, source: str, name: str = "") -> tuple[int, ...] | None:
    """The first click ``data``'s comments name (``.mine`` files from ``exactmines
    generate``), as written (``(row, col)``; a cube's ``(layer, row, col)``), or ``None``."""
    found, content = detect(data, source, name)
    return noted_first_click(content) if isinstance(content, str) else None
