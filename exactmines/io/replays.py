"""Recorded games ("replays", "videos"): Minesweeper Arbiter's ``.avf``, Viennasweeper's
``.rmv``, Metasweeper's ``.evf`` and Minesweeper Clone's ``.mvf``, read and written through
ms_toollib (``pip install 'exactmines[replay]'``), a Rust library made for these formats:
no binary parser is written here.

Reading (:func:`parse_replay`) gives a :class:`Replay`: the board, the clicks that changed
it in order with their times (:class:`ReplayEvent`: ``left`` opened a covered cell,
``chord`` opened the covered neighbours of a number, ``right`` put or took a flag), who
played, which program recorded it, and the figures ms_toollib computes (3BV, time, 3BV/s).
ms_toollib follows the mouse (presses, releases, both buttons, moves) through its own model
of the game and keeps only the events that changed the board; that model is the one the
programs share.

ms_toollib's Python readers stop the whole process on a damaged file (it is built with
``panic = "abort"``), so a file is parsed in a child process
(:func:`~exactmines.child.run_in_child`): a damaged file is an
:class:`~exactmines.errors.InputError` naming it, and a batch goes on.

Writing (:class:`Recorder`): a game of a known board, click by click, as Metasweeper's
``.evf`` (version 4 by default); the times recorded are the wall-clock times between the
calls, as the recorder reads its own clock. Pure bytes: files are opened by
:mod:`~exactmines.io.files`.
"""

from __future__ import annotations

import math
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from exactmines.budget import UNLIMITED, Budget
from exactmines.child import run_in_child
from exactmines.errors import BackendUnavailable, ChildDied, InputError, OutOfTime
from exactmines.position import Board, Cell
from exactmines.words import plural

__all__ = ["REPLAY_SUFFIXES", "EVF_VERSIONS", "MODES", "MAX_SIDE", "EventKind", "ReplayEvent",
           "Figures", "Replay", "replay_kind", "parse_replay", "ms_toollib_judgement",
           "Recorder", "ms_toollib_version"]

#: File name endings of the replay formats, and ms_toollib's class for each.
REPLAY_SUFFIXES = {".avf": "AvfVideo", ".rmv": "RmvVideo", ".evf": "EvfVideo",
                   ".mvf": "MvfVideo"}

#: Versions of ``.evf`` that :class:`Recorder` writes and ms_toollib reads back. (Its
#: version 2 writer, in 1.5.20, marks the file as version 0, and its reader then stops the
#: process: such files are reported as damaged.)
EVF_VERSIONS = (0, 3, 4)

#: ms_toollib's game modes by number. In the two "guessable" modes the program may move
#: mines while the game is played, so the board of the file is the one at the end.
MODES = {0: "standard", 1: "upk", 2: "cheat", 3: "density", 4: "win7",
         5: "classic no-guess", 6: "strong no-guess", 7: "weak no-guess",
         8: "quasi no-guess", 9: "strong guessable", 10: "weak guessable"}

EventKind = Literal["left", "right", "chord"]

#: The largest side of a board a replay holds (one byte in every format).
MAX_SIDE = 255

#: ms_toollib's cell states on its game board (``game_board``): 10 covered, 11 flagged, 12
#: covered and marked by its own solver; 0-8 a revealed number.
_COVERED_STATES = (10, 11, 12)

#: ms_toollib's ``useful_level`` of a mouse event: 1 a flag put or taken, 2 a left click
#: that opened cells, 3 a chord that did, 4 a click that opened a mine (left or chord).
_FLAG, _LEFT, _CHORD, _BOOM = 1, 2, 3, 4


@dataclass(frozen=True, slots=True)
class ReplayEvent:
    """A click that changed the board.

    Attributes
    ----------
    time:
        Seconds since the game's first opening click (ms_toollib's clock of the file,
        millisecond resolution; flags put before the first click are at 0 or before).
    kind:
        ``left`` (a covered cell opened), ``chord`` (both buttons, or the middle one, on a
        number: its covered, unflagged neighbours opened) or ``right`` (a flag put on or
        taken off a covered cell).
    cell:
        The cell clicked, ``(row, col)``.
    """

    time: float
    kind: EventKind
    cell: Cell


@dataclass(frozen=True, slots=True)
class Figures:
    """What ms_toollib computes of a game (floats as it gives them; read, never judged).

    ``time`` is the game's time in seconds (ms_toollib's ``rtime``); ``bbbv_s`` is ``None``
    when the time is 0; ``left``, ``right`` and ``double`` count every click, useful or
    not, as the programs count them.
    """

    bbbv: int
    time: float
    bbbv_s: float | None
    left: int
    right: int
    double: int


@dataclass(frozen=True, slots=True)
class Replay:
    """A recorded game.

    Attributes
    ----------
    source:
        The file (or name) it was read from.
    format:
        ``avf``, ``rmv``, ``evf`` or ``mvf``.
    board:
        Where the mines are (the board of the file: at the end of the game in the modes
        that move mines).
    events:
        The clicks that changed the board, in order.
    player, software:
        As the file names them (empty strings when it does not).
    mode:
        The game mode (:data:`MODES`; ``mode N`` for a number ms_toollib does not name).
    completed:
        Whether ms_toollib found the game won.
    figures:
        ms_toollib's 3BV, time and click counts.
    reader:
        ``ms_toollib`` and its version.
    """

    source: str
    format: str
    board: Board
    events: tuple[ReplayEvent, ...]
    player: str
    software: str
    mode: str
    completed: bool
    figures: Figures
    reader: str


def replay_kind(name: str) -> str | None:
    """The format (``avf``, ``rmv``, ``evf``, ``mvf``) that a file name's ending says, or
    ``None``."""
    lower = name.lower()
    for suffix in REPLAY_SUFFIXES:
        if lower.endswith(suffix):
            return suffix[1:]
    return None


def _ms_toollib() -> Any:
    try:
        import ms_toollib
    except ImportError:
        raise BackendUnavailable("replays need ms_toollib: pip install "
                                 "'exactmines[replay]'") from None
    return ms_toollib


@lru_cache(maxsize=1)
def ms_toollib_version() -> str:
    """``"ms_toollib 1.5.20"``: the reader and recorder in use (raises when not installed)."""
    _ms_toollib()
    from importlib.metadata import version

    return f"ms_toollib {version('ms_toollib')}"


def parse_replay(data: bytes, source: str, kind: str, *,
                 budget: Budget = UNLIMITED) -> Replay:
    """The replay in ``data``, a file of format ``kind`` (``avf``, ``rmv``, ``evf``,
    ``mvf``) read from ``source``.

    ms_toollib parses it in a child process (it stops its process on a damaged file), killed
    when ``budget`` runs out.

    Raises
    ------
    InputError
        Naming ``source``: a damaged file, one that is not of this format, or one whose
        board or clicks do not make sense.
    BackendUnavailable
        ms_toollib is not installed.

    Notes
    -----
    Cost: ms_toollib's parse and replay of the mouse events, a few milliseconds for an
    expert game of 10,000 mouse events, plus sending the file to the child and the events
    back; the first reading (and the one after a damaged file) also starts the child, about
    0.3 s of imports.
    """
    raw = _in_child("replay", data, source, kind, budget)
    return _replay(raw, source, kind, ms_toollib_version())


def ms_toollib_judgement(data: bytes, source: str, kind: str, *,
                         budget: Budget = UNLIMITED) -> dict[str, Any]:
    """ms_toollib's own analysis of a replay, to compare with exactmines' judging (in
    floating point, read as it is): ``comments``, per click that changed the board (the
    clicks of :attr:`Replay.events`, in order), the words of ms_toollib's
    ``needless_guess`` and ``high_risk_guess`` findings; and ``pluck``, its luck measure
    (-log10 of the chance of surviving the game's guesses; a lost game gets the largest
    float).
    Read like :func:`parse_replay`, with its errors; costs about as much."""
    return _in_child("judgement", data, source, kind, budget)


def _in_child(work: str, data: bytes, source: str, kind: str,
              budget: Budget) -> dict[str, Any]:
    """ms_toollib's ``work`` (a key of :data:`_WORK`) on a file, in a child process."""
    if f".{kind}" not in REPLAY_SUFFIXES:
        raise InputError(f"unknown replay format {kind!r}: expected one of "
                         f"{', '.join(s[1:] for s in REPLAY_SUFFIXES)}", source=source)
    reader = ms_toollib_version()
    if not data:
        raise InputError("empty file, expected a replay", source=source)
    # On a panic ms_toollib writes crash.log in the working folder: the child reads in a
    # folder of its own, and the log's message says why the file could not be read.
    with tempfile.TemporaryDirectory(prefix="exactmines-replay-") as folder:
        try:
            return run_in_child(_in_folder, (folder, work, data, kind), budget,
                                doing=f"reading {source}")
        except ChildDied:
            why = _panic_message(Path(folder) / "crash.log")
            raise InputError(f"{reader} cannot read it as {kind.upper()}{why}: a damaged "
                             "file, or not such a replay", source=source) from None
        except OutOfTime:
            raise InputError(f"{reader} did not finish reading it within the time limit",
                             source=source) from None


def _panic_message(log: Path) -> str:
    """``" (index out of bounds)"``: the message of ms_toollib's crash log, if it wrote one."""
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    for line in text.splitlines():
        if line.startswith("message: "):
            return f" ({line[len('message: '):].strip()[:200]})"
    return ""


def _in_folder(folder: str, work: str, data: bytes, kind: str,
               budget: Budget) -> dict[str, Any]:
    """``_WORK[work](data, kind)`` in the child process, in ``folder`` while ms_toollib
    works (where a panic writes its crash.log). The child is kept for later work, so it
    leaves for the folder's parent, the system's temporary folder: ``folder`` is removed
    next, and the folder the child started in may be gone by now. (``budget``: the
    child's, which its parent enforces.)"""
    os.chdir(folder)
    try:
        return _WORK[work](data, kind)
    finally:
        os.chdir(os.path.dirname(folder))


def _video(data: bytes, kind: str) -> Any:
    """ms_toollib's video of a file, parsed and analysed, at the game's end."""
    ms = _ms_toollib()
    video = getattr(ms, REPLAY_SUFFIXES[f".{kind}"])(raw_data=data)
    video.parse()
    video.analyse()
    return video


def _board_changes(video: Any) -> list[Any]:
    """The video's mouse events that changed the board."""
    return [e for e in video.events if e.event.is_mouse() and e.useful_level >= _FLAG]


def _read_replay(data: bytes, kind: str) -> dict[str, Any]:
    """What :func:`parse_replay` needs of ms_toollib's reading, as plain values."""
    video = _video(data, kind)
    video.current_time = 1e9  # the figures below are read "at the end" of the game
    pixels = video.pix_size
    events = []
    for event in _board_changes(video):
        level = event.useful_level
        mouse = event.event.unwrap_mouse()
        row, col = mouse.y // pixels, mouse.x // pixels
        if level == _BOOM:
            before = event.prior_game_board.game_board[row][col]
            level = _LEFT if before in _COVERED_STATES else _CHORD
        events.append((event.time, level, row, col))
    return {
        "board": video.board, "width": video.column, "height": video.row,
        "mines": video.mine_num, "events": events, "player": video.player_identifier,
        "software": video.software, "mode": video.mode, "completed": video.is_completed,
        "bbbv": video.bbbv, "time": video.rtime, "left": video.left, "right": video.right,
        "double": video.double,
    }


def _read_judgement(data: bytes, kind: str) -> dict[str, Any]:
    """What :func:`ms_toollib_judgement` returns."""
    video = _video(data, kind)
    video.analyse_for_features(["needless_guess", "high_risk_guess", "pluck"])
    video.current_time = 1e9
    return {"comments": [e.comments for e in _board_changes(video)], "pluck": video.pluck}


#: What :func:`_in_folder` runs, by name.
_WORK = {"replay": _read_replay, "judgement": _read_judgement}

_KINDS: dict[int, EventKind] = {_FLAG: "right", _LEFT: "left", _CHORD: "chord"}


def _replay(raw: dict[str, Any], source: str, kind: str, reader: str) -> Replay:
    """Check what ms_toollib read and make the :class:`Replay`."""
    width, height, board = raw["width"], raw["height"], raw["board"]
    if width < 1 or height < 1 or len(board) != height or any(len(r) != width for r in board):
        raise InputError(f"the board read is not {width}x{height}", source=source)
    mines = frozenset((r, c) for r, row in enumerate(board) for c, v in enumerate(row)
                      if v == -1)
    if len(mines) != raw["mines"]:
        raise InputError(f"the file says {plural(raw['mines'], 'mine')} but its board has "
                         f"{len(mines)}", source=source)
    opening = [t for t, level, _, _ in raw["events"] if level in (_LEFT, _CHORD)]
    start = opening[0] if opening else 0.0
    events = []
    for time, level, row, col in raw["events"]:
        if not (0 <= row < height and 0 <= col < width):
            raise InputError(f"a click at {time:.3f} s is off the {width}x{height} board",
                             source=source)
        events.append(ReplayEvent(round(time - start, 3), _KINDS[level], (row, col)))
    game_time = raw["time"]
    figures = Figures(raw["bbbv"], game_time,
                      raw["bbbv"] / game_time if game_time > 0 and math.isfinite(game_time)
                      else None, raw["left"], raw["right"], raw["double"])
    return Replay(source, kind, Board(width, height, mines), tuple(events),
                  raw["player"], raw["software"], MODES.get(raw["mode"], f"mode {raw['mode']}"),
                  raw["completed"], figures, reader)


class Recorder:
    """A game of a known board recorded click by click through ms_toollib, written as
    Metasweeper's ``.evf``.

    Each call is one click as a player makes it (press and release at the centre of the
    cell, 16-pixel cells); the time recorded is the wall-clock time of the call since the
    first click. ms_toollib plays the click on its own copy of the board, so a click that
    changes nothing (on an open cell, a chord whose flags do not match) is recorded and
    ignored, as in the game.

    Examples
    --------
    >>> from exactmines.position import Board
    >>> recorder = Recorder(Board(3, 1, frozenset({(0, 2)})))
    >>> recorder.left((0, 0))
    >>> recorder.over, recorder.won
    (True, True)
    >>> data = recorder.evf(player="me", software="exactmines")
    >>> parse_replay(data, "game.evf", "evf").events
    (ReplayEvent(time=0.0, kind='left', cell=(0, 0)),)
    """

    #: Pixels per cell: the logical size the classic programs use.
    PIXELS = 16

    def __init__(self, board: Board) -> None:
        if not 1 <= board.width <= MAX_SIDE or not 1 <= board.height <= MAX_SIDE:
            raise InputError(f"a {board.width}x{board.height} board: a replay holds at most "
                             f"{MAX_SIDE}x{MAX_SIDE} cells", source="board")
        ms = _ms_toollib()
        numbers = board.numbers()
        grid = [[-1 if (r, c) in board.mine_cells else numbers[r * board.width + c]
                 for c in range(board.width)] for r in range(board.height)]
        self.board = board
        self._video = ms.BaseVideo(grid, self.PIXELS)

    def _press(self, cell: Cell, *buttons: str) -> None:
        r, c = cell
        if not (0 <= r < self.board.height and 0 <= c < self.board.width):
            raise InputError(f"row {r}, col {c} is off the {self.board.width}x"
                             f"{self.board.height} board", source="click")
        at = (r * self.PIXELS + self.PIXELS // 2, c * self.PIXELS + self.PIXELS // 2)
        for button in buttons:
            self._video.step(button, at)

    def left(self, cell: Cell) -> None:
        """A left click: opens a covered cell."""
        self._press(cell, "lc", "lr")

    def right(self, cell: Cell) -> None:
        """A right click: flags a covered cell, or takes its flag off."""
        self._press(cell, "rc", "rr")

    def chord(self, cell: Cell) -> None:
        """Both buttons on a number: opens its covered unflagged neighbours when its flags
        match it."""
        self._press(cell, "lc", "rc", "lr", "rr")

    @property
    def over(self) -> bool:
        """The game is won or lost."""
        return self._video.game_board_state in (3, 4)

    @property
    def won(self) -> bool:
        return self._video.game_board_state == 3

    def evf(self, *, player: str, software: str, version: int = 4) -> bytes:
        """The finished game as ``.evf`` of ``version`` (:data:`EVF_VERSIONS`)."""
        if version not in EVF_VERSIONS:
            raise InputError(f"evf version {version}: ms_toollib writes and reads back "
                             f"{', '.join(map(str, EVF_VERSIONS))}", source="version")
        if not self.over:
            raise ValueError("the game is not over: only finished games are recorded")
        video = self._video
        video.player_identifier = player
        video.software = software
        getattr(video, f"generate_evf_v{version}_raw_data")()
        return bytes(video.raw_data)
