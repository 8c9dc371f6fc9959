"""Paths <-> positions and boards, and writes that never leave a half-written file.

The one place besides the command line that opens files, so the library stays usable
on text held in memory (``formats``) and errors always name the file.
"""

from __future__ import annotations

import errno
import glob
import os
import select
import signal
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import DEVICE_ERRNOS, InputError, OutputError, ParameterError
from exactmines.io import registry
from exactmines.io.formats import decode_text
from exactmines.io.replays import REPLAY_SUFFIXES, Replay, parse_replay, replay_kind
from exactmines.io.urls import looks_like_jsm_url
from exactmines.position import Board, Cell, Position
from exactmines.topology import Topology, named_topology
from exactmines.words import plural

__all__ = ["read_text", "read_position", "read_board", "read_board_and_click",
           "read_board_or_link", "read_replay", "files_named", "write_position", "write_board",
           "write_atomic", "interrupts_deferred", "check_folder", "source_name", "is_link",
           "STDIN", "TopologySpec", "settings_meta"]

#: Inputs larger than this are refused (a 10,000 x 10,000 board is ~100 MB): a file whose
#: size ``stat`` reports before reading, and any input (a pipe, a device, standard input) as
#: soon as more than this has been read.
MAX_FILE_BYTES = 200_000_000

#: Seconds a named pipe (FIFO) may give nothing -- no writer has opened it yet, or its writer
#: is silent -- before reading it stops with an :class:`InputError`: a FIFO nobody writes to
#: would otherwise wait forever. Standard input and terminals wait as long as it takes.
FIFO_WAIT = 30.0

#: The most read at once from a pipe or a device (a regular file is read in one piece).
_CHUNK = 1 << 20

#: The name that means standard input, as most command-line tools read it.
STDIN = "-"


def source_name(path: str | os.PathLike[str]) -> str:
    """How errors name what ``path`` reads: ``<stdin>`` for ``-``, a JSMinesweeper link by
    its parameters, else the path."""
    if str(path) == STDIN:
        return "<stdin>"
    if is_link(path):
        query = str(path).partition("?")[2]
        return f"link ?{query if len(query) <= 40 else query[:40] + '...'}"
    return str(path)


def is_link(path: str | os.PathLike[str]) -> bool:
    """``path`` is a JSMinesweeper link given where a file is named, not a file's name.

    A link given on the command line may reach here as a ``Path``, whose ``//`` became
    ``/``: only its ``b=`` and ``m=`` are read, so that does not matter. A file that exists
    under the name is the file."""
    text = str(path)
    if "?" not in text or not looks_like_jsm_url(text):
        return False
    try:
        return not os.path.lexists(text)
    except (OSError, ValueError):  # a name too long, a NUL
        return True


def _read_capped(read: Callable[[int], bytes], source: str, first: int = _CHUNK) -> bytes:
    """Everything ``read(n)`` returns until it returns ``b""``, asked ``first`` bytes then
    :data:`_CHUNK` at a time; an :class:`InputError` as soon as more than
    :data:`MAX_FILE_BYTES` came, so memory stays bounded whatever the input (``/dev/zero``)."""
    chunks: list[bytes] = []
    total, want = 0, first
    while chunk := read(max(1, min(want, MAX_FILE_BYTES + 1 - total))):
        chunks.append(chunk)
        total += len(chunk)
        if total > MAX_FILE_BYTES:
            raise InputError(f"more than the {MAX_FILE_BYTES:,} bytes accepted", source=source)
        want = _CHUNK
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _fifo_reads(fd: int, source: str) -> Callable[[int], bytes]:
    """``read(n)`` for a FIFO opened non-blocking: it waits for a writer and its data at most
    :data:`FIFO_WAIT` seconds at a time, and returns ``b""`` once a writer has come and gone
    (Linux's ``poll`` reports no hang-up before a first writer, so no writer is no end)."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)

    def read(size: int) -> bytes:
        while True:
            if not poller.poll(FIFO_WAIT * 1000):
                raise InputError(f"a FIFO, and nothing was written to it for {FIFO_WAIT:g} s "
                                 "(start its writer first, or give the file itself)",
                                 source=source)
            try:
                return os.read(fd, size)
            except BlockingIOError:  # woken, but another reader took the data
                continue

    return read


def _read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of ``path`` (``-``: standard input), at most :data:`MAX_FILE_BYTES` of them
    whatever it is: a file, a FIFO (waited for at most :data:`FIFO_WAIT` s at a time), a
    device."""
    source = source_name(path)
    if str(path) == STDIN:
        return _read_capped(sys.stdin.buffer.read, source)
    if is_link(path):  # the link's text is what there is to read (registry.detect)
        return str(path).strip().encode()
    try:
        # Non-blocking, so that opening a FIFO without a writer returns at once.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", source=source) from None
    except FileNotFoundError:
        raise InputError("no such file", source=source) from None
    except PermissionError:
        raise InputError("permission denied", source=source) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", source=source) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputError("is a directory, expected a file", source=source)
        if stat.S_ISFIFO(info.st_mode):
            return _read_capped(_fifo_reads(fd, source), source)
        if info.st_size > MAX_FILE_BYTES:
            raise InputError(f"file is {plural(info.st_size, 'byte', fmt=',')}, more than the "
                             f"{MAX_FILE_BYTES:,} accepted", source=source)
        os.set_blocking(fd, True)  # a terminal or a device waits for its data
        # A regular file in one read of its size (and one more to see its end); files that
        # report no size (devices, /proc) in chunks.
        return _read_capped(partial(os.read, fd), source, max(_CHUNK, info.st_size + 1))
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", source=source) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", source=source) from None
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str]) -> str:
    """A text file's contents (UTF-8), or an :class:`InputError` naming the file; ``-`` is
    standard input."""
    return decode_text(_read_bytes(path), source_name(path))


def read_position(path: str | os.PathLike[str]) -> Position:
    """Read a position: ``.mine`` text (``M``/``?`` marks are read as covered cells), or an
    ``.mbf`` board or a JSMinesweeper link (given instead of a file) as the position before
    its first click (:func:`registry.read_position`). ``-`` reads standard input."""
    if is_link(path):
        return registry.unopened(read_board(path))
    return registry.read_position(_read_bytes(path), source_name(path), str(path))


def read_board(path: str | os.PathLike[str]) -> Board:
    """Read a hidden board in any format of :mod:`~exactmines.io.registry` (``.mbf`` by
    name; ``.mine`` with marked mines, x/o text or a link by content); ``-`` is standard
    input; a JSMinesweeper link may be given instead of a file."""
    return registry.read_board(_read_bytes(path), source_name(path), str(path))


def read_board_and_click(path: str | os.PathLike[str]) -> tuple[Board, Cell | None]:
    """:func:`read_board`, and the first click the file's comments name (``None`` if none)."""
    data, source = _read_bytes(path), source_name(path)
    board = registry.read_board(data, source, str(path))
    noted = registry.first_click(data, source, str(path))
    if noted is None:
        return board, None
    try:
        return board, board.topology.cell_at(noted)
    except ValueError as exc:
        raise InputError(f"the first click the comments name: {exc}", source=source) from None


def read_board_or_link(source: str, parameter: str = "source") -> Board:
    """A board from a JSMinesweeper link given as text, or else from the file it names.

    Text that names no file and could not be a file's name (control characters, longer than
    a name may be: say, a board pasted in) is refused by ``parameter``, shown shortened."""
    if is_link(source):
        return read_board(source)  # read, and named in errors, as every command reads one
    try:
        exists = os.path.lexists(source)
    except (OSError, ValueError):  # a name too long, a NUL
        exists = False
    if not exists and (len(source) > 255 or not source.isprintable()):
        shown = repr(source if len(source) <= 40 else source[:40] + "...")
        raise InputError(f"neither a file nor a JSMinesweeper link: {shown} "
                         f"({plural(len(source), 'character', fmt=',')})", source=parameter)
    return read_board(source)


@dataclass(frozen=True, slots=True)
class TopologySpec:
    """The topology a run's settings name, as one small picklable value: a grid's header
    word (``square``, ``torus``, ``hex``, ``cube`` with ``layers``, ``offsets:...``) or
    ``graph`` with the path of its ``graph`` file. :meth:`build` makes the
    :class:`~exactmines.topology.Topology` on a size; :meth:`to_meta` and
    :meth:`from_meta` are its keys in the meta line of a results file.
    """

    word: str = "square"
    layers: int = 1
    graph: str | None = None

    @property
    def is_square(self) -> bool:
        return self.word == "square"

    def build(self, width: int, height: int) -> Topology:
        """The topology on ``width`` x ``height`` cells per layer; a graph's is its file's
        (read once per process and kept; its node states are not used).

        Raises
        ------
        ParameterError
            For an unknown word or a shape that does not fit it (named ``topology``), or a
            graph without its file.
        InputError
            For a graph file that cannot be read.
        """
        if self.word == "graph":
            if self.graph is None:
                raise ParameterError("graph", None, "the topology graph needs the graph file")
            return _graph_of(self.graph)
        if self.graph is not None:
            raise ParameterError("graph", self.graph,
                                 f"goes with the topology graph, not {self.word}")
        if self.layers != 1 and self.word != "cube":
            raise ParameterError("layers", self.layers, "only a cube has layers")
        try:
            return named_topology(self.word, width, height, self.layers)
        except ValueError as exc:
            raise ParameterError("topology", self.word, str(exc)) from None

    def to_meta(self) -> dict[str, Any]:
        """Its keys in a results file's meta: none for the square grid (as before there
        were other topologies, so older files resume), else ``topology``, ``layers`` and
        ``graph``."""
        if self.is_square:
            return {}
        return {"topology": self.word, "layers": self.layers, "graph": self.graph}

    @classmethod
    def from_meta(cls, meta: dict[str, Any]) -> TopologySpec:
        """The spec of a results file's meta (:meth:`to_meta`; missing keys: square)."""
        return cls(meta.get("topology", "square"), meta.get("layers", 1), meta.get("graph"))


def settings_meta(settings: Any) -> dict[str, Any]:
    """A run's settings (a dataclass) as the JSON of its results file's meta line: its
    fields in their order, a :class:`TopologySpec` as its :meth:`~TopologySpec.to_meta`
    keys in its place (none for the square grid)."""
    meta: dict[str, Any] = {}
    for field in fields(settings):
        value = getattr(settings, field.name)
        if isinstance(value, TopologySpec):
            meta.update(value.to_meta())
        else:
            meta[field.name] = value
    return meta


@lru_cache(maxsize=4)
def _graph_of(path: str) -> Topology:
    return read_position(path).topology


def files_named(sources: list[str], suffixes: tuple[str, ...]) -> list[str]:
    """The files named by ``sources``: files (FIFOs, devices) as given, every file directly
    in a directory whose name ends in one of ``suffixes`` (any case; sorted), the matches
    of glob patterns (``**`` reaches into subfolders), and JSMinesweeper links as given
    (each read here, so that a bad one stops the run before it starts).

    Each file is listed once, in the order first named. A source that names nothing is an
    :class:`InputError`: a typo must not silently shrink a run.
    """
    found: dict[str, None] = {}
    for source in sources:
        path = Path(source)
        if path.is_dir():
            matches = sorted(str(p) for p in path.iterdir()
                             if p.name.lower().endswith(suffixes) and p.is_file())
            if not matches:
                named = (suffixes[0] if len(suffixes) == 1 else
                         f"{', '.join(suffixes[:-1])} or {suffixes[-1]}")
                raise InputError(f"directory has no {named} files", source=source)
        elif path.exists():  # a file, or a FIFO or device that the reader reads as one
            matches = [source]
        elif is_link(source):  # (its "?" is no glob pattern)
            read_board(source)
            matches = [source]
        elif glob.has_magic(source):
            matches = sorted(p for p in glob.glob(source, recursive=True) if os.path.isfile(p))
            if not matches:
                raise InputError("no file matches this pattern", source=source)
        else:
            raise InputError("no such file or directory", source=source)
        found.update(dict.fromkeys(matches))
    return list(found)


def read_replay(path: str | os.PathLike[str], *, budget: Budget = UNLIMITED) -> Replay:
    """Read a recorded game (``.avf``, ``.rmv``, ``.evf``, ``.mvf``: the name's ending says
    which) through ms_toollib (:func:`~exactmines.io.replays.parse_replay`); an
    :class:`InputError` naming the file if it is not one or cannot be read."""
    kind = replay_kind(str(path))
    if kind is None:
        raise InputError("not a replay: the name must end in "
                         f"{', '.join(REPLAY_SUFFIXES)}", source=source_name(path))
    return parse_replay(_read_bytes(path), source_name(path), kind, budget=budget)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_folder(path: str | os.PathLike[str]) -> None:
    """An :class:`InputError` naming ``path`` when the folder it would be written in is not
    there: a missing folder is a slip in the name, not one to make unasked (as root, that
    could be anywhere). Cheap: one ``stat``; commands call it before their work."""
    folder = Path(path).parent
    try:
        if stat.S_ISDIR(os.stat(folder).st_mode):
            return
        why = "is a file, not a folder"
    except FileNotFoundError:
        why = "does not exist"
    except NotADirectoryError:
        why = "is inside a file, not a folder"
    except OSError as exc:
        why = f"cannot be reached ({exc.strerror})"
    raise InputError(f"cannot write: the folder {str(folder)!r} {why}", source=str(path))


def write_atomic(path: str | os.PathLike[str], data: str | bytes, *,
                 make_folders: bool = False) -> None:
    """Write via a temporary file in the same folder and rename: all or nothing. The file
    gets the mode a plain ``open`` would give it (0666 less the umask).

    The folder must exist (:func:`check_folder`) unless ``make_folders`` asks for it and
    its parents to be made. A target that cannot be written (a directory, a missing folder,
    no permission) is an :class:`InputError` naming it, not a traceback; a disk that refuses
    the data (full, over quota, a file size limit) is an :class:`OutputError`.

    A symbolic link is kept: the file it names is written. A name that is not a regular file
    (``/dev/null``, a FIFO) is written into, never replaced (:func:`_write_stream`).
    """
    target = Path(path)
    raw = data.encode() if isinstance(data, str) else data
    try:
        # Inside the try: a name the system refuses (too long) fails already here.
        if target.is_dir():
            raise InputError("is a directory, expected a file name to write", source=str(path))
        if target.is_symlink():
            target = Path(os.path.realpath(target))
        if target.exists() and not target.is_file():
            _write_stream(target, raw, str(path))
            return
        if make_folders:
            target.parent.mkdir(parents=True, exist_ok=True)
        else:
            check_folder(target)
    except (FileExistsError, NotADirectoryError):
        raise InputError(f"cannot write: a parent of {target.name!r} is a file, not a folder",
                         source=str(path)) from None
    except OSError as exc:
        if exc.errno in DEVICE_ERRNOS:
            raise OutputError(f"{path}: cannot write: {exc.strerror}") from None
        raise InputError(f"cannot write: {exc.strerror or exc}", source=str(path)) from None
    # From the temporary file's making to its rename, Ctrl-C waits: an interrupt between
    # ``mkstemp`` and the ``try`` that removes the file again left a ``.tmp`` behind.
    with interrupts_deferred():
        try:
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                       suffix=".tmp")
        except OSError as exc:
            if exc.errno in DEVICE_ERRNOS:
                raise OutputError(f"{path}: cannot write: {exc.strerror}") from None
            raise InputError(f"cannot write: {exc.strerror or exc}", source=str(path)) from None
        try:
            os.fchmod(fd, 0o666 & ~_umask())
            with os.fdopen(fd, "wb") as handle:
                handle.write(raw)
            os.replace(tmp, target)
        except BaseException as exc:
            Path(tmp).unlink(missing_ok=True)
            if isinstance(exc, OSError):
                raise OutputError(f"{path}: cannot write: {exc.strerror or exc}; nothing was "
                                  "written") from None
            raise


#: The signals :func:`interrupts_deferred` holds back: Ctrl-C, and SIGTERM (which the
#: runner turns into an interrupt).
_DEFERRED_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Ctrl-C and SIGTERM arriving inside the block take effect when it ends: for a few
    short writes that must be whole together (a file and its rename; a board's ``.mine``
    and its ``.json``). Nested blocks hand a held signal to the outer one.

    Only the main thread receives Python's signal handlers; elsewhere this does nothing.
    An ignored signal, and a handler not set from Python (``signal.getsignal`` gives
    ``None``), are left alone.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous: dict[int, Any] = {}
    try:
        for number in _DEFERRED_SIGNALS:
            if signal.getsignal(number) not in (None, signal.SIG_IGN):
                previous[number] = signal.signal(number, lambda n, _frame: held.append(n))
        yield
    finally:
        for held_back, handler in previous.items():
            signal.signal(held_back, handler)
        if held:  # delivered again, now to the handler that was there before
            signal.raise_signal(held[0])


def _write_stream(target: Path, data: bytes, source: str) -> None:
    """``data`` written into ``target``, a device or a FIFO (whose reader is waited for at
    most :data:`FIFO_WAIT` s): a stream has no "all or nothing", and putting a file in its
    place would take the device away (as root, ``/dev/null`` for everyone)."""
    try:
        if stat.S_ISFIFO(os.stat(target).st_mode):
            waited = 0.0
            while True:  # non-blocking: a FIFO nobody reads would block open() for ever
                try:
                    fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
                    break
                except OSError as exc:
                    if exc.errno != errno.ENXIO:
                        raise
                if waited >= FIFO_WAIT:
                    raise InputError(f"cannot write: a FIFO, and nothing opened it to read "
                                     f"for {FIFO_WAIT:g} s", source=source)
                time.sleep(0.05)
                waited += 0.05
            os.set_blocking(fd, True)
        else:
            fd = os.open(target, os.O_WRONLY | os.O_CLOEXEC)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        if exc.errno in DEVICE_ERRNOS or exc.errno == errno.EPIPE:
            raise OutputError(f"{source}: cannot write: {exc.strerror}") from None
        raise InputError(f"cannot write: {exc.strerror or exc}", source=source) from None


def write_position(path: str | os.PathLike[str], position: Position,
                   comments: tuple[str, ...] = ()) -> None:
    """``.mine`` text, or a graph's file (node-link JSON, GraphML or an edge list by the
    name's suffix; JSON by default)."""
    write_atomic(path, registry.position_text(position, comments, str(path)))


def write_board(path: str | os.PathLike[str], board: Board, comments: tuple[str, ...] = ()) -> None:
    """In the format of the name's suffix (:func:`registry.format_of_name`: ``.mbf``,
    ``.txt`` x/o text), ``.mine`` with every mine marked ``M`` for any other name; a board
    larger than the format holds is an :class:`InputError`."""
    kind = registry.format_of_name(str(path)) or registry.FORMATS["mine"]
    write_atomic(path, kind.encode_board(board, str(path), comments))
