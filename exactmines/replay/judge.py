"""Every click of a recorded game judged exactly.

The game is played again on the replay's board, click by click (:class:`~exactmines.game.
Game`: zeros flood as in every program). Before each click that opens cells the position the
player saw (the numbers shown, the board size and its mine count) is analysed by the normal
engine (:func:`~exactmines.analysis.analyze.analyze`), and the click gets:

- the exact probability that it hits a mine: for a left click, its cell's; for a chord, the
  chance that *any* of the cells it opens is a mine (:func:`~exactmines.analysis.joint.
  any_mine`: not a sum of the cells' probabilities);
- its class (:data:`CLASSES`): ``safe`` (probability 0); ``needless guess`` (above 0
  while some covered cell anywhere on the board was certainly safe, the total mine count
  included); ``forced guess`` (no cell was certainly safe); ``first`` for the game's first
  opening click, which the programs keep safe (not judged: whether this program did is not
  known); ``not judged`` when the analysis did not finish within the time limit, or, with
  ``trust_flags``, the flags contradict the numbers;
- for a guess, the safest probability on offer and the excess risk taken (the difference).

The player's flags are shown but not trusted: a flagged cell is analysed as a covered cell
like any other, so a wrong flag cannot corrupt the analysis. With ``trust_flags`` they are
mines, as a player who trusts them reasons.

Most clicks of a game open cells that one number, or two overlapping ones, prove safe. The
walk keeps those local proofs as the game goes (:func:`~exactmines.deduction.grid.
local_deductions`, from the numbers alone, never the flags), and a click they cover is
``safe`` without analysing its whole position: the same answer, exactly, for about a tenth
of the cost of a human expert game (with ``trust_flags`` every click is analysed).

A first click that hit a mine was not kept safe (ms_toollib's recorder, for one, does not
protect it): it is judged as any other click, on the board as the player saw it, all covered
-- a forced guess whose mine chance is the board's density, mines over cells, exactly.

A game's luck is the exact chance of surviving every guess it survived: the product of
``1 - p`` over them (the losing click, if any, is not in it).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from fractions import Fraction

from exactmines.analysis.analyze import Analysis, analyze
from exactmines.analysis.backends import Backend, get_backend
from exactmines.analysis.cache import CountCache
from exactmines.analysis.combine import fraction_of
from exactmines.analysis.joint import any_mine
from exactmines.budget import UNLIMITED, Budget
from exactmines.deduction import Grid, local_deductions
from exactmines.errors import BudgetExceeded, InputError
from exactmines.game import Game
from exactmines.io.replays import EventKind, Replay
from exactmines.position import COVERED, FLAG, Board, Cell, Position, neighbours
from exactmines.words import plural

__all__ = ["FIRST", "SAFE", "NEEDLESS", "FORCED", "UNJUDGED", "CLASSES", "GUESSES", "Click",
           "Judgement", "judge_replay", "analysed_position", "analysis_before"]

FIRST, SAFE, NEEDLESS, FORCED, UNJUDGED = ("first", "safe", "needless guess",
                                           "forced guess", "not judged")
#: The classes of a click that opens cells.
CLASSES = (FIRST, SAFE, NEEDLESS, FORCED, UNJUDGED)
#: The classes that are guesses.
GUESSES = (NEEDLESS, FORCED)
#: A forced guess's reason when safe cells were on offer: the cell was in a 50/50 that no
#: click can ever resolve, so it had to be guessed at 1/2 sooner or later (taken early).
EARLY = "50/50 taken early"
#: A needless guess's reason when every certainly safe cell was under the player's flag.
UNDER_FLAG = "safe cell under a flag"


@dataclass(frozen=True, slots=True)
class Click:
    """One event of the replay, as judged.

    Attributes
    ----------
    index:
        Its place among the replay's events (0-based).
    time, kind, cell:
        As recorded (:class:`~exactmines.io.replays.ReplayEvent`).
    before:
        What the player saw just before it: numbers, covered cells and the player's flags
        (``F``), with the board's mine count.
    opens:
        The covered cells the click opens, row-major (one for a left click; a chord's
        unflagged covered neighbours); empty for a right click.
    judged:
        Its class (:data:`CLASSES`), or ``None`` for a right click (a flag).
    probability:
        The exact chance that it hits a mine (``None``: a right click, the first click, or
        not judged).
    safest:
        The least mine probability of any covered cell at the time (``None`` when not known:
        not judged, or some probability not computed and no cell certainly safe).
    safe_cells:
        How many covered cells were certainly safe (``None`` when the position was not
        analysed: a click the local rules prove safe, or one not judged).
    mine:
        It hit a mine: the game ends here.
    note:
        Why it was not judged, or what the reader should know about it: for a needless
        guess, a safe cell on offer; for a 50/50 taken early, the proof.
    reason:
        :data:`EARLY` (a forced guess though safe cells were on offer), :data:`UNDER_FLAG`
        (a needless guess whose every safe cell was under the player's flag), or ``""``.
    """

    index: int
    time: float
    kind: EventKind
    cell: Cell
    before: Position
    opens: tuple[Cell, ...] = ()
    judged: str | None = None
    probability: Fraction | None = None
    safest: Fraction | None = None
    safe_cells: int | None = None
    mine: bool = False
    note: str = ""
    reason: str = ""

    @property
    def guess(self) -> bool:
        return self.judged in GUESSES

    @property
    def excess(self) -> Fraction | None:
        """For a guess, its probability less the safest on offer; otherwise ``None``."""
        if not self.guess or self.probability is None or self.safest is None:
            return None
        return self.probability - self.safest


@dataclass(frozen=True)
class Judgement:
    """A replay with every click judged.

    Attributes
    ----------
    replay:
        What was read.
    clicks:
        Every event of the replay, in order, judged (:class:`Click`).
    trust_flags:
        Whether the player's flags were taken as mines.
    won:
        Every safe cell was opened (found by playing the clicks again on the board).
    backend:
        The engine that counted.
    notes:
        Remarks on the whole game (a mode that moves mines, a disagreement with the file).
    seconds:
        CPU time of the judging (the reading not included).
    end:
        What the player saw after the last click (``None`` when not given).
    """

    replay: Replay
    clicks: tuple[Click, ...]
    trust_flags: bool
    won: bool
    backend: str
    notes: tuple[str, ...] = field(default=())
    seconds: float = 0.0
    end: Position | None = None

    @property
    def opening(self) -> list[Click]:
        """The clicks that opened cells (the judged ones), in order."""
        return [c for c in self.clicks if c.judged is not None]

    @property
    def lost_at(self) -> Click | None:
        """The click that hit a mine, if the game was lost."""
        return next((c for c in self.clicks if c.mine), None)

    def count(self, judged: str) -> int:
        """How many clicks have this class."""
        return sum(c.judged == judged for c in self.clicks)

    @property
    def guesses(self) -> list[Click]:
        return [c for c in self.clicks if c.guess]

    @property
    def luck(self) -> Fraction:
        """The exact chance of surviving the guesses survived: the product of ``1 - p``
        (guesses whose probability is known; the losing click left out)."""
        out = Fraction(1)
        for click in self.guesses:
            if not click.mine and click.probability is not None:
                out *= 1 - click.probability
        return out

    @property
    def luck_log10(self) -> float:
        """``-log10(luck)``, for reading: 0 for a game without a guess; larger is luckier.
        (The luck itself may have thousands of digits: the logarithm is taken of its
        numerator and denominator separately.)"""
        luck = self.luck
        return _log10(luck.denominator) - _log10(luck.numerator)

    @property
    def largest_excess(self) -> Click | None:
        """The guess that took the most risk beyond the safest cell (the first if tied)."""
        known = [c for c in self.guesses if c.excess is not None]
        return max(known, key=lambda c: c.excess or 0, default=None)

    @property
    def riskiest(self) -> Click | None:
        """The guess with the highest probability of a mine (the first if tied)."""
        known = [c for c in self.guesses if c.probability is not None]
        return max(known, key=lambda c: c.probability or 0, default=None)


def _log10(n: int) -> float:
    """``log10(n)`` of a positive int of any size (``math.log10`` overflows past 1e308)."""
    shift = max(n.bit_length() - 64, 0)
    return math.log10(n >> shift) + shift * math.log10(2)


def judge_replay(replay: Replay, *, trust_flags: bool = False,
                 backend: str | Backend = "auto", budget: Budget = UNLIMITED) -> Judgement:
    """Play ``replay`` again on its board and judge every click (see the module notes).

    Parameters
    ----------
    trust_flags:
        Take the player's flags as mines (by default they are analysed as covered cells).
    backend:
        The counting engine.
    budget:
        The time for the whole replay; each position's analysis gets what is left of it.
        Clicks reached after it are ``not judged`` (with a note), never guessed, unless the
        local rules prove them safe.

    Raises
    ------
    InputError
        Naming the replay's file, when its clicks do not fit its board (a right click on an
        open cell, a chord whose flags do not match its number).

    Notes
    -----
    Cost: the local rules near each change; one analysis (about 0.3 ms on an expert
    mid-game position) per click they do not prove safe, and a second count for a chord not
    settled by the verdicts of its cells; right clicks cost nothing. An expert game of 200
    clicks takes about 10 ms. The analyses share one
    :class:`~exactmines.analysis.cache.CountCache`: a component met before is not counted
    again (with ``trust_flags``, where every click is analysed, an expert game's median
    73 -> 64 ms; beside the local proofs, which leave a dozen counts a game, no difference).
    """
    started = time.process_time()
    engine = get_backend(backend) if isinstance(backend, str) else backend
    board = replay.board
    game = Game(board)
    width, height = board.width, board.height
    shown = bytearray(COVERED.encode()) * (width * height)
    clicks: list[Click] = []
    local = None if trust_flags else _LocalProofs(width, height, board.mines)
    # The positions of a game share most of their components: counted once each.
    cache = CountCache()
    first = True
    for index, event in enumerate(replay.events):
        if game.over:
            raise InputError(f"a click at {event.time:.3f} s comes after the game ended",
                             source=replay.source)
        before = _position(shown, board)
        r, c = cell = event.cell
        if event.kind == "right":
            if game.is_revealed(cell):
                raise InputError(f"a flag at {event.time:.3f} s is on an open cell "
                                 f"(row {r}, col {c})", source=replay.source)
            shown[r * width + c] = ord(FLAG if game.toggle_flag(cell) else COVERED)
            clicks.append(Click(index, event.time, event.kind, cell, before))
            continue
        opens = _opened(game, event.kind, cell, replay, event.time)
        if first:
            click = Click(index, event.time, event.kind, cell, before, opens, FIRST)
            first = False
        elif local is not None and local.proves_safe(opens):
            click = Click(index, event.time, event.kind, cell, before, opens, SAFE,
                          Fraction(0), Fraction(0))
        else:
            click = _judged(Click(index, event.time, event.kind, cell, before, opens),
                            trust_flags, engine, budget, cache)
        numbers = game.numbers
        for target in opens:
            # The flood of a chord's first cells may open the others, and win the game.
            if game.over:
                break
            if game.is_revealed(target):
                continue
            opened = game.reveal(target)
            for r2, c2 in opened:
                shown[r2 * width + c2] = ord(str(numbers[r2 * width + c2]))
            if local is not None:
                local.show(opened, numbers)
        if game.lost:
            if click.judged == FIRST:  # not kept safe: a guess like any other
                click = _judged(click, trust_flags, engine, budget, cache)
            click = _exploded(click)
        clicks.append(click)
    notes = []
    if replay.mode.endswith("guessable"):
        notes.append(f"mode {replay.mode}: the program may move mines during the game, and "
                     "the file holds the board at the end")
    if game.won != replay.completed:
        said, found = ("won" if x else "not won" for x in (replay.completed, game.won))
        notes.append(f"{replay.reader} reads the game as {said}; its clicks played again on "
                     f"its board give {found}")
    end = _position(shown, board)
    return Judgement(replay, tuple(clicks), trust_flags, game.won, engine.name, tuple(notes),
                     time.process_time() - started, end)


def _position(shown: bytearray, board: Board) -> Position:
    """The position of ``shown`` (one ``.mine`` character per cell, row-major)."""
    width = board.width
    return Position(width, board.height, board.mines,
                    tuple(shown[r * width:(r + 1) * width].decode()
                          for r in range(board.height)))


class _LocalProofs:
    """What one clue or two overlapping clues prove (:func:`~exactmines.deduction.grid.
    local_deductions`), kept for the whole game: most clicks of a game open a cell these
    rules prove safe, and such a click is safe without the exact analysis of its position
    (a proof stays true as the game goes on). The rules read the numbers only, never the
    player's flags."""

    def __init__(self, width: int, height: int, mines: int) -> None:
        self.grid = Grid(width, height, mines)
        self.safe: set[int] = set()

    def show(self, opened: list[Cell], numbers: list[int]) -> None:
        width = self.grid.width
        self.grid.show((r * width + c, numbers[r * width + c]) for r, c in opened)

    def proves_safe(self, cells: tuple[Cell, ...]) -> bool:
        """Whether the rules prove every one of ``cells`` safe. Cost: the rules near what
        changed since the last question, run until they find nothing more."""
        grid, width = self.grid, self.grid.width
        while True:
            safe, mines = local_deductions(grid)
            if not safe and not mines:
                break
            self.safe.update(safe)
            grid.mark_mines(mines)
        return all(r * width + c in self.safe for r, c in cells)


def _opened(game: Game, kind: EventKind, cell: Cell, replay: Replay,
            when: float) -> tuple[Cell, ...]:
    """The covered cells a left click or a chord opens, or an :class:`InputError` if the
    click cannot open anything on this board."""
    r, c = cell
    if kind == "left":
        if game.is_revealed(cell) or game.is_flagged(cell):
            raise InputError(f"a left click at {when:.3f} s opens nothing (row {r}, col {c} "
                             "is open or flagged)", source=replay.source)
        return (cell,)
    if not game.is_revealed(cell):
        raise InputError(f"a chord at {when:.3f} s is on a covered cell (row {r}, col {c})",
                         source=replay.source)
    around = neighbours(game.width, game.height, cell)
    flagged = sum(map(game.is_flagged, around))
    opens = tuple(n for n in around if not game.is_revealed(n) and not game.is_flagged(n))
    if flagged != game.number(cell) or not opens:
        raise InputError(f"a chord at {when:.3f} s on the {game.number(cell)} at row {r}, "
                         f"col {c} opens nothing ({plural(flagged, 'flag')} around it)",
                         source=replay.source)
    return opens


def _exploded(click: Click) -> Click:
    """``click``, which hit a mine."""
    note = click.note
    if click.probability == 0:
        note = "a mine where the analysis found none: a trusted flag was wrong"
    return _with(click, mine=True, note=note)


def _with(click: Click, **changes: object) -> Click:
    return replace(click, **changes)  # type: ignore[arg-type]


def analysed_position(click: Click, trust_flags: bool) -> Position:
    """The position as the analysis of ``click`` saw it: what the player saw, with the flags
    as covered cells unless they are trusted."""
    position = click.before
    if trust_flags:
        return position
    return Position(position.width, position.height, position.mines,
                    tuple(row.replace(FLAG, COVERED) for row in position.rows))


def analysis_before(judged: Judgement, click: Click, *, backend: str | Backend = "auto",
                    budget: Budget = UNLIMITED) -> Analysis:
    """The exact analysis of the position before ``click`` (the overlay as it was then)."""
    return analyze(analysed_position(click, judged.trust_flags), backend=backend,
                   budget=budget)


def _judged(click: Click, trust_flags: bool, engine: Backend, budget: Budget,
            cache: CountCache) -> Click:
    """``click`` with its probability, class, safest cell and excess risk."""
    position = analysed_position(click, trust_flags)
    if budget.expired():
        return _with(click, judged=UNJUDGED, note="the time limit was reached before it")
    result = analyze(position, backend=engine, budget=budget, cache=cache)
    if result.consistent is False:
        return _with(click, judged=UNJUDGED,
                     note="the flags contradict the numbers: no layout fits them")
    safe_cells = len(result.safe)
    try:
        probability = _probability(result, click.opens, engine, budget)
    except BudgetExceeded:
        probability = None
    safest = _safest(result, safe_cells)
    if probability is None:
        return _with(click, judged=UNJUDGED, safest=safest, safe_cells=safe_cells,
                     note="its probability was not computed within the time limit")
    judged = SAFE if probability == 0 else NEEDLESS if safe_cells else FORCED
    note, reason = "", ""
    if judged == NEEDLESS:
        proof = _unresolvable_pair(position, result, click.opens)
        if proof is not None:
            judged, note, reason = FORCED, proof, EARLY
        else:
            note, reason = _safe_on_offer(click.before, result.safe)
    return _with(click, judged=judged, probability=probability, safest=safest,
                 safe_cells=safe_cells, note=note, reason=reason)


def _safe_on_offer(seen: Position, safe: list[Cell]) -> tuple[str, str]:
    """The note naming a certainly safe cell on offer (one not under the player's flag if
    there is one), and :data:`UNDER_FLAG` when every one was under a flag."""
    free = [cell for cell in safe if seen.rows[cell[0]][cell[1]] != FLAG]
    r, c = (free or safe)[0]
    if free:
        return f"{r},{c} was certainly safe", ""
    return f"{r},{c} was certainly safe, under the player's flag", UNDER_FLAG


def _unresolvable_pair(position: Position, result: Analysis,
                       opens: tuple[Cell, ...]) -> str | None:
    """The proof that the one cell of ``opens`` is in a 50/50 no click can ever resolve,
    or ``None``: a number has exactly one mine left among its covered cells not proved
    mines, which are the cell and one other, and every cell beside one of the two but not
    the other is a proved mine (or a trusted flag). Swapping the mine between the two then
    changes no number any click could show: each is a mine at exactly 1/2, now and after
    any other click, so the guess had to be made sooner or later."""
    if len(opens) != 1:
        return None
    width, height = position.width, position.height
    cell = opens[0]

    def mine(at: Cell) -> bool:
        if position.rows[at[0]][at[1]] == FLAG:
            return True
        try:
            return result.cell(*at).verdict == "mine"
        except KeyError:  # a revealed cell
            return False

    def covered(at: Cell) -> bool:
        return position.rows[at[0]][at[1]] in (COVERED, FLAG)

    for number in neighbours(width, height, cell):
        r, c = number
        if not position.rows[r][c].isdigit():
            continue
        around = neighbours(width, height, number)
        proved = sum(mine(n) for n in around if covered(n))
        unsure = [n for n in around if covered(n) and not mine(n)]
        if int(position.rows[r][c]) - proved != 1 or len(unsure) != 2 or cell not in unsure:
            continue
        other = unsure[0] if unsure[1] == cell else unsure[1]
        a, b = set(neighbours(width, height, cell)), set(neighbours(width, height, other))
        if all(mine(n) for n in (a ^ b) - {cell, other}):
            return (f"a 50/50 with {other[0]},{other[1]} no click can ever resolve: the "
                    f"{position.rows[r][c]} at {r},{c} has one mine in the two, and every "
                    "cell beside one of them only is a proved mine")
    return None


def _probability(result: Analysis, opens: tuple[Cell, ...], engine: Backend,
                 budget: Budget) -> Fraction | None:
    """The chance that one of ``opens`` is a mine: a cell's probability, or for several
    cells 0 when all are certainly safe, 1 when one is certainly a mine, else counted."""
    cells = [result.cell(*cell) for cell in opens]
    if len(cells) == 1:
        return cells[0].probability if cells[0].verdict == "unknown" else \
            Fraction(cells[0].verdict == "mine")
    if all(c.verdict == "safe" for c in cells):
        return Fraction(0)
    if any(c.verdict == "mine" for c in cells):
        return Fraction(1)
    if budget.expired():
        return None
    return any_mine(result.position, opens, backend=engine, budget=budget)


def _safest(result: Analysis, safe_cells: int) -> Fraction | None:
    """The least mine probability of the position's covered cells (``None`` if some are
    not computed and none is certainly safe)."""
    if safe_cells:
        return Fraction(0)
    groups, rest = result.cells.values()
    ratios = [value[0] for cells, value in groups if cells]  # a group may be empty
    if len(result.cells) > sum(len(cells) for cells, _ in groups):
        ratios.append(rest[0])
    known = [r for r in ratios if r is not None]
    if not known or len(known) < len(ratios):
        return None
    return min(fraction_of(*r) for r in known)
