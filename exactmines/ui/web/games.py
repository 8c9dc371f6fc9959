"""Games played in the page: the hidden board stays on the server, the page sees what a
player sees.

A game is dealt at its first click, as in every Minesweeper, from its seed and the first
click (``exactmines.game.deal`` under the chosen rule), or taken from ``generate noguess``
(a board certified solvable without guessing from that click), or given whole (an
imported board). Each click's risk is its exact mine probability in the position the player
saw (a fresh exact analysis of the revealed cells and the total count; the player's own
flags are not trusted), a chord's the exact chance that one of the cells it opens is a mine.
Flags are the player's own: drawn, never clicked nor taken away by the player's moves. A
game is a plain picklable value: the server keeps it pickled in memory only, in a bounded
store (:mod:`exactmines.ui.web.store`), and each move runs in a worker process on the game
sent there and back. Nothing touches the disk.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from exactmines.analysis.analyze import Analysis, analyze
from exactmines.analysis.serialize import fraction_text
from exactmines.budget import Budget
from exactmines.errors import BudgetExceeded, InputError
from exactmines.game import START_RULES, Game, deal, free_indices, protected_cells, three_bv
from exactmines.play.advice import CANDIDATES, Recommendation, avoid_flags, first_click
from exactmines.play.strategy import STRATEGIES, Player
from exactmines.position import Board, Cell
from exactmines.topology import SHAPES, Topology, named_topology
from exactmines.words import plural

__all__ = ["MAX_SIDE", "NOGUESS_METHODS", "PAGE_KINDS", "PageTopology", "page_topologies",
           "Click", "WebGame"]

#: How the page's no-guess boards can be made (``generate noguess --method``; repair is for
#: boards larger than the page's).
NOGUESS_METHODS = ("auto", "build", "rejection", "chain")

#: Largest side of a game board in the page (a bigger board is no game for a person).
MAX_SIDE = 300

#: The topologies the page draws and plays (:attr:`Shape.page
#: <exactmines.topology.Shape.page>`), in the order of :data:`~exactmines.topology.SHAPES`.
PAGE_KINDS = tuple(word for word, shape in SHAPES.items() if shape.page)

if TYPE_CHECKING:
    PageTopology = str
else:
    #: A request's topology: a word of :data:`PAGE_KINDS` (the API's schema lists them).
    PageTopology = Literal[PAGE_KINDS]


def page_topologies() -> list[dict[str, object]]:
    """What the page needs of each topology it offers (``/api/health``'s ``topologies``:
    :meth:`Shape.page_entry <exactmines.topology.Shape.page_entry>`), in menu order."""
    return [SHAPES[word].page_entry() for word in PAGE_KINDS]


@dataclass(frozen=True, slots=True)
class Click:
    """One click in a game's log: the cell, who chose it (``you``, ``step``; ``chord`` for
    a chord on a number), its exact mine probability when clicked (for a chord, that one of
    the cells it opens is a mine; ``None`` when not computed in time) and the outcome."""

    cell: Cell
    by: str
    probability: Fraction | None
    mine: bool
    opened: int

    def to_dict(self) -> dict[str, Any]:
        return {"row": self.cell[0], "col": self.cell[1], "by": self.by,
                "probability": fraction_text(self.probability), "mine": self.mine,
                "opened": self.opened}


class WebGame:
    """One game: settings, the hidden board once dealt, the player that plays it on
    request, the player's flags and the log of clicks. Picklable (the server moves it to
    a worker process for each move); methods are not thread-safe: the server runs one move
    of a game at a time."""

    def __init__(self, width: int, height: int, mines: int, rule: str, seed: int,
                 noguess: bool = False, board: Board | None = None,
                 time_limit: float = 5.0, topology: str = "square",
                 noguess_method: str = "auto") -> None:
        if board is not None:
            width, height, mines = board.width, board.height, board.mines
        if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
            raise InputError(f"board size {width}x{height}: each side must be 1 to {MAX_SIDE}",
                             source="game")
        if rule not in START_RULES:
            raise InputError(f"unknown first-click rule {rule!r}: choose one of "
                             f"{', '.join(START_RULES)}", source="rule")
        if noguess and rule == "unprotected":
            raise InputError("a no-guess board needs the rule safe or opening (unprotected "
                             "cannot promise a safe first click)", source="rule")
        if not 0 <= mines < width * height:
            raise InputError(f"{plural(mines, 'mine')} on {width}x{height}: must be 0 to "
                             f"{width * height - 1}", source="mines")
        self.width, self.height, self.mines = width, height, mines
        #: Which cells a number counts (a given board's own; a word of the page's choice).
        self.topology: Topology = (board.topology if board is not None
                                   else named_topology(topology, width, height))
        if self.topology.kind not in PAGE_KINDS:
            raise InputError(f"a {self.topology.kind} board is not played in the page: "
                             f"{', '.join(PAGE_KINDS)} only", source="game")
        self.rule, self.seed, self.noguess = rule, seed, noguess
        if noguess_method not in NOGUESS_METHODS:
            raise InputError(f"unknown no-guess method {noguess_method!r}: choose one of "
                             f"{', '.join(NOGUESS_METHODS)}", source="noguess_method")
        self.noguess_method = noguess_method
        self.fixed_board = board
        self.time_limit = time_limit
        self.game: Game | None = None
        self.player: Player | None = None
        self.flags: set[Cell] = set()
        self.log: list[Click] = []
        self.flag_clicks = 0  # flags put or taken away: clicks too, for the efficiency
        # time.monotonic() of the first click and of the end (the machine's clock: the
        # same in every worker process that plays the game).
        self.started: float | None = None
        self.ended: float | None = None
        self._pending: Recommendation | None = None
        self._analysis: tuple[int, Analysis] | None = None

    # -- dealing ------------------------------------------------------------------------

    def _deal(self, at: Cell) -> Board:
        if self.fixed_board is not None:
            return self.fixed_board
        topology = None if self.topology.is_square else self.topology
        free_indices(self.width, self.height, self.mines,
                     protected_cells(self.width, self.height, self.rule, at, topology))
        if self.noguess:
            from exactmines.generate.positions import noguess_boards

            instance = noguess_boards(self.width, self.height, self.mines, self.seed, 1,
                                      start=self.rule, at=at, topology=topology,
                                      method=self.noguess_method)[0]
            assert instance.board is not None
            return instance.board
        return deal(self.width, self.height, self.mines, random.Random(self.seed),
                    rule=self.rule, at=at, topology=topology)

    def _check_cell(self, cell: Cell) -> None:
        r, c = cell
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise InputError(f"row {r}, col {c} is off the {self.width}x{self.height} board",
                             source="cell")

    # -- what the player sees -----------------------------------------------------------

    def analysis(self) -> Analysis:
        """The exact analysis of what the player sees (revealed numbers and the total),
        kept until the next click."""
        game = self.game
        revealed = 0 if game is None else game.revealed
        if self._analysis is None or self._analysis[0] != revealed:
            board = (Board(self.width, self.height, frozenset(), self.topology) if game is None
                     else game.board)
            shown = frozenset() if game is None else frozenset(game.cells_of(revealed))
            position = board.position(shown).with_mines(self.mines)
            self._analysis = (revealed, analyze(position, time_limit=self.time_limit))
        return self._analysis[1]

    def _risk(self, cell: Cell) -> Fraction | None:
        if self.game is None:
            # The first click: a mine may be there only when the rule protects nothing.
            if self.fixed_board is None and self.rule != "unprotected":
                return Fraction(0)
            return Fraction(self.mines, self.width * self.height)
        result = self.analysis()
        return result.cell(*cell).probability if result.probabilities_computed else None

    # -- moves --------------------------------------------------------------------------

    def reveal(self, cell: Cell, by: str = "you") -> None:
        """Click ``cell``; zeros flood. A click on a flag, on a revealed cell or after the
        end is refused (400), so the page never changes the game by accident."""
        self._check_cell(cell)
        if self.game is not None and self.game.over:
            raise InputError("the game is over: start a new one", source="click")
        if cell in self.flags:
            raise InputError(f"row {cell[0]}, col {cell[1]} is flagged: unflag it first",
                             source="click")
        if self.game is not None and self.game.is_revealed(cell):
            raise InputError(f"row {cell[0]}, col {cell[1]} is already revealed",
                             source="click")
        risk = self._risk(cell)
        if self.game is None:
            self.game = Game(self._deal(cell))
            self.player = Player(self.width, self.height, self.mines, STRATEGIES["best"],
                                 topology=None if self.topology.is_square else self.topology)
            self.started = time.monotonic()
        opened = self.game.reveal(cell)
        self._opened(Click(cell, by, risk, self.game.lost, len(opened)), opened)

    def chord(self, cell: Cell) -> None:
        """Click a revealed number with as many flags around it as it says: every covered
        neighbour not flagged opens at once, as in the game. A wrong flag leaves a mine
        among them, and the game is lost. The click's risk is the exact chance that one of
        them is a mine, the flags not trusted. Refused (400) on anything else."""
        self._check_cell(cell)
        game = self.game
        r, c = cell
        if game is None or game.over or not game.is_revealed(cell):
            raise InputError(f"row {r}, col {c}: a chord is a click on a revealed number "
                             "while the game goes on", source="chord")
        around = self.topology.neighbours(cell)
        number = game.numbers[r * self.width + c]
        flags = sum(1 for n in around if n in self.flags)
        if flags != number:
            raise InputError(f"row {r}, col {c} shows {number} with {plural(flags, 'flag')} "
                             "around: a chord needs as many flags as the number", source="chord")
        todo = [n for n in around if n not in self.flags and not game.is_revealed(n)]
        if not todo:
            raise InputError(f"row {r}, col {c}: nothing left to open around it",
                             source="chord")
        risk = self._chord_risk(todo)
        opened: list[Cell] = []
        for n in todo:
            if game.lost:
                break
            opened.extend(game.reveal(n))
        self._opened(Click(cell, "chord", risk, game.lost, len(opened)), opened)

    def _opened(self, click: Click, opened: list[Cell]) -> None:
        """Log a click that opened ``opened`` (or lost), and tell the player what it saw."""
        game, player = self.game, self.player
        assert game is not None and player is not None
        self.log.append(click)
        self._pending = None
        if game.over:
            self.ended = time.monotonic()
        if not game.lost:
            width, numbers = self.width, game.numbers
            player.show([(r * width + c, numbers[r * width + c]) for r, c in opened])
            self.flags -= set(opened)

    def _chord_risk(self, cells: list[Cell]) -> Fraction | None:
        """The exact chance that one of ``cells`` is a mine: 0 when all are certainly safe,
        one cell's probability when only it is uncertain, else counted jointly by the
        player's analysis; ``None`` when not computed in time."""
        result = self.analysis()
        if not result.probabilities_computed:
            return None
        uncertain = [cell for cell in cells if result.cell(*cell).probability]
        if len(uncertain) <= 1:
            return result.cell(*uncertain[0]).probability if uncertain else Fraction(0)
        assert self.player is not None
        try:
            return 1 - self.player.chance_all_safe([r * self.width + c for r, c in uncertain],
                                                   budget=Budget.seconds(self.time_limit))
        except BudgetExceeded:
            return None

    def flag(self, cell: Cell) -> None:
        """Put or take away a flag (the player's own mark: never trusted by the analysis)."""
        self._check_cell(cell)
        if self.game is not None and (self.game.over or self.game.is_revealed(cell)):
            raise InputError(f"row {cell[0]}, col {cell[1]} cannot be flagged now",
                             source="flag")
        self.flags ^= {cell}
        self.flag_clicks += 1

    def hint(self) -> tuple[Recommendation | None, str | None]:
        """The player's next move (every certainly safe cell, the player's first, or one
        guess), never on a cell the player flagged (flags are the player's: certain cells
        flagged are left out, a flagged guess gives way to the best guess not flagged); or
        ``None`` and why.
        The player's move is computed once per position: asking again is free."""
        if self.game is None:
            return avoid_flags(first_click(self.width, self.height,
                                           "safe" if self.fixed_board is not None
                                           else self.rule), self.flags, ())
        if self.game.over:
            return None, "the game is over"
        if self._pending is None:
            assert self.player is not None
            cells, guess = self.player.next_clicks(budget=Budget.seconds(self.time_limit))
            width = self.width
            if guess:
                chosen = self.player.guesses[-1]
                self._pending = Recommendation((divmod(chosen.cell, width),), chosen.kind,
                                               chosen.probability, chosen.win)
            else:
                # Every cell the analysis proves safe, as the overlay frames them and counts
                # them (the player's move may be the few its local rules found first).
                mine = [divmod(i, width) for i in cells]
                proved = set(mine)
                rest = sorted(c for c in self.analysis().safe if c not in proved)
                self._pending = Recommendation((*mine, *rest), "certain", Fraction(0))
        move = self._pending
        others: list[tuple[Cell, Fraction]] = []
        if move.kind != "certain" and move.cells[0] in self.flags:
            assert self.player is not None
            explained = self.player.explain(CANDIDATES + len(self.flags),
                                            budget=Budget.seconds(self.time_limit))
            others = [(divmod(c.cell, self.width), c.probability)
                      for c in explained.candidates]
        return avoid_flags(move, self.flags, others)

    def step(self) -> tuple[Recommendation | None, str | None]:
        """Play :meth:`hint`'s move: all its certainly safe cells, or its one guess (never
        a flagged cell: the player's flags stay)."""
        move, note = self.hint()
        if move is None:
            return None, note
        for cell in move.cells:
            if self.game is not None and (self.game.over or self.game.is_revealed(cell)):
                continue
            self.reveal(cell, by="step")
        return move, note

    # -- the page's view ----------------------------------------------------------------

    def rows(self) -> list[str]:
        """What the page draws: digits revealed, ``H`` covered, ``F`` flagged; after the
        end, ``M`` for mines not flagged and ``X`` for the mine clicked."""
        game = self.game
        out = []
        for r in range(self.height):
            row = []
            for c in range(self.width):
                cell = (r, c)
                if game is not None and game.is_revealed(cell):
                    row.append(str(game.numbers[r * self.width + c]))
                elif game is not None and game.exploded == cell:
                    row.append("X")
                elif cell in self.flags:
                    row.append("F")
                elif game is not None and game.over and cell in game.board.mine_cells:
                    row.append("M")
                else:
                    row.append("H")
            out.append("".join(row))
        return out

    def to_dict(self, game_id: str) -> dict[str, Any]:
        """The game as the page needs it; risks as exact fractions (strings)."""
        game = self.game
        risks = [c.probability for c in self.log]
        known = [p for p in risks if p is not None]
        total = sum(known, Fraction(0))
        survive = Fraction(1)
        for p in known:
            survive *= 1 - p
        clicks = len(self.log) + self.flag_clicks
        over = bool(game and game.over)
        bbbv = three_bv(game.board) if game is not None and over else None
        seconds = (None if self.started is None
                   else (self.ended or time.monotonic()) - self.started)
        return {
            "id": game_id, "width": self.width, "height": self.height, "mines": self.mines,
            "topology": self.topology.word or "square",
            "rule": self.rule, "seed": self.seed, "noguess": self.noguess,
            "noguess_method": self.noguess_method,
            "fixed_board": self.fixed_board is not None,
            "rows": self.rows(), "started": game is not None,
            "over": bool(game and game.over), "won": bool(game and game.won),
            "lost": bool(game and game.lost),
            "safe_left": (self.width * self.height - self.mines if game is None
                          else game.safe_left),
            "flags": len(self.flags),
            "clicks": [c.to_dict() for c in self.log],
            "risk_total": fraction_text(total),
            "survival": fraction_text(survive),
            "risk_complete": len(known) == len(risks),
            "click_count": clicks,
            "seconds": None if seconds is None else round(seconds, 3),
            "bbbv": bbbv,
            "efficiency": (fraction_text(Fraction(bbbv, clicks))
                           if bbbv is not None and game is not None and game.won else None),
            "zini": self._zini(game.board) if game is not None and game.won else None,
        }

    def _zini(self, board: Board) -> dict[str, Any]:
        """The fewest clicks that clear the won game's board (``exactmines zini``, within
        the game's time limit), solved once and kept: ``{"clicks", "lower_bound",
        "optimal"}``."""
        found = getattr(self, "zini", None)
        if found is None:
            from exactmines.efficiency.zini import fewest_clicks

            answer = fewest_clicks(board, budget=Budget.seconds(self.time_limit))
            found = self.zini = {"clicks": answer.clicks, "lower_bound": answer.lower_bound,
                                 "optimal": answer.optimal}
        return found
