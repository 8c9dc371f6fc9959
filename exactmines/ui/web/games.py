"""Games played in the page: the hidden board stays on the server, the page sees what a
player sees.

A game is dealt at its first click, as in every Minesweeper, from its seed and the first
click (``exactmines.game.deal`` under the chosen rule), or taken from ``generate noguess``
(a board certified solvable without guessing from that click), or given whole (an
imported board). Each click's risk is its exact mine probability in the position the player
saw (a fresh exact analysis of the revealed cells and the total count; the player's own
flags are not trusted). Games live in memory only, in a bounded store: nothing touches
the disk.
"""

from __future__ import annotations

import random
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactmines.analysis.analyze import Analysis, analyze
from exactmines.analysis.serialize import fraction_text
from exactmines.budget import Budget
from exactmines.errors import InputError
from exactmines.game import START_RULES, Game, deal, free_indices, protected_cells
from exactmines.play.strategy import STRATEGIES, Player
from exactmines.position import Board, Cell
from exactmines.ui.web.advice import Recommendation, first_click

__all__ = ["MAX_SIDE", "Click", "WebGame", "GameStore", "UnknownGame"]

#: Largest side of a game board in the page (a bigger board is no game for a person).
MAX_SIDE = 250


class UnknownGame(LookupError):
    """No game with that id (never made, or dropped from the bounded store)."""


@dataclass(frozen=True, slots=True)
class Click:
    """One click in a game's log: the cell, who chose it (``you``, ``step``), its exact
    mine probability when clicked (``None`` when not computed in time) and the outcome."""

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
    request, the player's flags and the log of clicks. Methods are not thread-safe on
    their own: :class:`GameStore` hands out each game under its lock."""

    def __init__(self, width: int, height: int, mines: int, rule: str, seed: int,
                 noguess: bool = False, board: Board | None = None,
                 time_limit: float = 5.0) -> None:
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
            raise InputError(f"{mines} mines on {width}x{height}: must be 0 to "
                             f"{width * height - 1}", source="mines")
        self.width, self.height, self.mines = width, height, mines
        self.rule, self.seed, self.noguess = rule, seed, noguess
        self.fixed_board = board
        self.time_limit = time_limit
        self.game: Game | None = None
        self.player: Player | None = None
        self.flags: set[Cell] = set()
        self.log: list[Click] = []
        self.lock = threading.Lock()
        self._pending: Recommendation | None = None
        self._analysis: tuple[int, Analysis] | None = None

    # -- dealing ------------------------------------------------------------------------

    def _deal(self, at: Cell) -> Board:
        if self.fixed_board is not None:
            return self.fixed_board
        free_indices(self.width, self.height, self.mines,
                     protected_cells(self.width, self.height, self.rule, at))
        if self.noguess:
            from exactmines.generate.positions import noguess_boards

            instance = noguess_boards(self.width, self.height, self.mines, self.seed, 1,
                                      start=self.rule, at=at)[0]
            assert instance.board is not None
            return instance.board
        return deal(self.width, self.height, self.mines, random.Random(self.seed),
                    rule=self.rule, at=at)

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
            board = Board(self.width, self.height, frozenset()) if game is None else game.board
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
            self.player = Player(self.width, self.height, self.mines, STRATEGIES["best"])
        game, player = self.game, self.player
        assert player is not None
        opened = game.reveal(cell)
        self.log.append(Click(cell, by, risk, game.lost, len(opened)))
        self._pending = None
        if not game.lost:
            width, numbers = self.width, game.numbers
            player.show([(r * width + c, numbers[r * width + c]) for r, c in opened])
            self.flags -= set(opened)

    def flag(self, cell: Cell) -> None:
        """Put or take away a flag (the player's own mark: never trusted by the analysis)."""
        self._check_cell(cell)
        if self.game is not None and (self.game.over or self.game.is_revealed(cell)):
            raise InputError(f"row {cell[0]}, col {cell[1]} cannot be flagged now",
                             source="flag")
        self.flags ^= {cell}

    def hint(self) -> Recommendation | None:
        """The player's next move (every certainly safe cell, or one guess), or ``None``
        when the game is over. Computed once per position: asking again is free."""
        if self.game is None:
            return first_click(self.width, self.height,
                               "safe" if self.fixed_board is not None else self.rule)
        if self.game.over:
            return None
        if self._pending is None:
            assert self.player is not None
            cells, guess = self.player.next_clicks(budget=Budget.seconds(self.time_limit))
            width = self.width
            if guess:
                chosen = self.player.guesses[-1]
                self._pending = Recommendation((divmod(chosen.cell, width),), chosen.kind,
                                               chosen.probability, chosen.win)
            else:
                self._pending = Recommendation(tuple(divmod(i, width) for i in cells),
                                               "certain", Fraction(0))
        return self._pending

    def step(self) -> Recommendation | None:
        """Play the player's next move: all its certainly safe cells, or its one guess
        (cells the player flagged are unflagged first: the player's move wins)."""
        move = self.hint()
        if move is None:
            return None
        for cell in move.cells:
            if self.game is not None and (self.game.over or self.game.is_revealed(cell)):
                continue
            self.flags.discard(cell)
            self.reveal(cell, by="step")
        return move

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
        return {
            "id": game_id, "width": self.width, "height": self.height, "mines": self.mines,
            "rule": self.rule, "seed": self.seed, "noguess": self.noguess,
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
        }


class GameStore:
    """The games in play, at most ``capacity`` (the least recently used is dropped): the
    server's memory stays bounded however many games the page starts."""

    def __init__(self, capacity: int = 64) -> None:
        self.capacity = capacity
        self._games: OrderedDict[str, WebGame] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, game: WebGame) -> str:
        game_id = secrets.token_hex(8)
        with self._lock:
            self._games[game_id] = game
            while len(self._games) > self.capacity:
                self._games.popitem(last=False)
        return game_id

    def get(self, game_id: str) -> WebGame:
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                raise UnknownGame(game_id)
            self._games.move_to_end(game_id)
            return game

    def __len__(self) -> int:
        return len(self._games)
