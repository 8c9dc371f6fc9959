"""Exact endgame search: the click that maximises the probability of winning.

When few layouts remain, each is listed explicitly (a bitmask of mine cells) and the game
tree is searched. A *state* is the set ``S`` of layouts still consistent with everything
revealed, a bitmask over the layout list; all layouts are equally likely, so the number of
layouts of ``S`` on which optimal play wins is an ``int``, ``wins(S)``, and the win
probability is ``wins(S) / |S|`` exactly.

* Chance: a cell that is safe in every layout of ``S`` is revealed for free (information
  never lowers the optimum, and the player does reveal every certainly safe cell before it
  guesses). If its value differs between layouts, ``S`` splits by value and
  ``wins(S) = sum of wins(part)``. A zero's flood is covered: its neighbours are then safe
  in every layout of the part, and get revealed the same way.
* Decision: otherwise ``wins(S) = max over uncertain cells c of sum over values v of
  wins(S restricted to layouts where c is safe and shows v)``; one layout left is a win.

Pruning, all exact: the layouts in which ``c`` is safe bound what clicking ``c`` can win, so
cells are tried safest first and dropped once their bound cannot beat the best so far, and
the evaluation of a cell stops as soon as the values left cannot lift it above the best.
Cells that split ``S`` identically are tried once. States are memoised.

Cost: about 55 states per layout on expert endgames, some 12 us a state (bitmask operations
over the whole list). Measured on 170 expert searches of 300-4000 layouts and not kept:
renumbering a state's layouts once it holds a small share of the list (so its bitmasks are
short) loses the transpositions between the subtrees -- 2.4 to 3.2 times the states, slower
overall; passing the best so far down as a bound (fail-low search, bounds memoised) -- 14 %
fewer states but slower per state; skipping the memo for one-layout states -- 3 %.
"""

from __future__ import annotations

from operator import itemgetter

__all__ = ["Endgame", "SearchBudgetExceeded"]


class SearchBudgetExceeded(Exception):
    """The search visited more states than its budget allows."""


class Endgame:
    """The game tree over an explicit list of equally likely layouts.

    Parameters
    ----------
    layouts:
        Each layout as a bitmask of the cells (flat indices) holding the remaining mines.
    cells:
        The unknown cells (every cell any layout may put a mine in, and the others still
        covered), flat indices.
    masks:
        Neighbourhood bitmask of every cell of the board (``neighbour_masks``).
    known_mines:
        Cells already known to be mines (their count is added to each value).
    budget:
        States the search may evaluate before :class:`SearchBudgetExceeded`.

    Notes
    -----
    Building costs one pass over cells x layouts. A state costs one bitmask AND per cell
    and value; the memo holds every state evaluated.
    """

    def __init__(self, layouts: list[int], cells: list[int], masks: tuple[int, ...],
                 known_mines: int, budget: int) -> None:
        self.size = len(layouts)
        self.full = (1 << self.size) - 1
        self.budget = budget
        self.nodes = 0
        self.memo: dict[int, int] = {}
        # Per cell: the layouts holding a mine there, and per value the layouts where it is
        # safe and shows that value.
        self.mine_of: dict[int, int] = {}
        self.value_of: dict[int, dict[int, int]] = {}
        for cell in cells:
            bit = 1 << cell
            around = masks[cell]
            base = (around & known_mines).bit_count()
            mine = 0
            values: dict[int, int] = {}
            for j, layout in enumerate(layouts):
                if layout & bit:
                    mine |= 1 << j
                else:
                    v = base + (around & layout).bit_count()
                    values[v] = values.get(v, 0) | (1 << j)
            self.mine_of[cell] = mine
            self.value_of[cell] = values
        self.cells = list(cells)
        self.classes = {c: tuple(self.value_of[c].values()) for c in cells}
        # The search names cells by their position in ``cells`` (lists, not dicts).
        self._mine = [self.mine_of[c] for c in self.cells]
        self._classes = [self.classes[c] for c in self.cells]

    def best_move(self) -> tuple[int, int]:
        """``(cell, wins)`` for the whole list: the click that wins on the most layouts (the
        first such cell in the order tried) and that number of layouts.

        Raises
        ------
        SearchBudgetExceeded
            When the search needs more states than the budget.
        ValueError
            When some cell is safe in every layout (reveal it first: it costs nothing).
        """
        everything = self.full
        for each in self.cells:
            if not self.mine_of[each] & everything:
                raise ValueError(f"cell {each} is safe in every layout: reveal it first")
        live = [n for n, mine in enumerate(self._mine) if mine != everything]
        wins, best = self._decide(everything, live)
        if best is None:
            raise ValueError("no cell to click: every cell is a mine in every layout")
        return self.cells[best], wins

    def win_probability_numerator(self, state: int | None = None) -> int:
        """``wins(state)`` (the whole list by default)."""
        return self._wins(self.full if state is None else state, list(range(len(self.cells))))

    def _wins(self, state: int, cells: list[int]) -> int:
        """``wins(state)``; ``cells`` (positions in ``self.cells``, in increasing order, as
        everywhere: which cell is revealed for free, and so which states are visited and
        counted against the budget, depends on that order) holds every cell uncertain in
        ``state``."""
        found = self.memo.get(state)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.budget:
            raise SearchBudgetExceeded(f"more than {self.budget} states")
        if state & (state - 1) == 0:
            self.memo[state] = 1
            return 1
        mine_at, classes_at, memo = self._mine, self._classes, self.memo
        live = []
        for n, cell in enumerate(cells):
            mine = mine_at[cell] & state
            if mine == state:
                continue
            if mine:
                live.append(cell)
                continue
            # Safe in every layout: revealed for free; it splits the state if its value
            # varies, that is unless the first value class it meets holds all of it.
            for k in classes_at[cell]:
                if state & k:
                    break
            if not state & ~k:
                continue
            parts = [state & k for k in classes_at[cell] if state & k]
            # The cells before it that are certain here stay certain in every part (a mine,
            # or safe with one value): only the live ones and those not yet looked at can
            # matter there.
            rest = live + cells[n + 1:]
            total = 0
            for part in parts:
                found = memo.get(part)
                total += self._wins(part, rest) if found is None else found
            memo[state] = total
            return total
        total, _ = self._decide(state, live)
        memo[state] = total
        return total

    def _decide(self, state: int, live: list[int]) -> tuple[int, int | None]:
        """Best click among ``live`` (positions, each uncertain in ``state``): ``(wins,
        position)``.

        Cells are tried safest first (ties in the order of ``live``); a cell's split of the
        layouts is made only when it is tried, and a cell that splits them exactly as one
        tried before is skipped (such cells have the same safe layouts, so they meet in the
        order of ``live``).
        """
        mine_at, classes_at, memo = self._mine, self._classes, self.memo
        size = state.bit_count()
        options = [(size - (mine_at[cell] & state).bit_count(), cell) for cell in live]
        options.sort(key=itemgetter(0), reverse=True)  # stable: ties keep their order
        seen: set[tuple[int, ...]] = set()
        best, best_cell = 0, None
        for safe, cell in options:
            if safe <= best:
                break
            parts = tuple(state & k for k in classes_at[cell] if state & k)
            if parts in seen:
                continue  # splits the layouts exactly as a cell tried before
            seen.add(parts)
            total, left = 0, safe
            for part in sorted(parts, key=int.bit_count, reverse=True):
                found = memo.get(part)
                total += self._wins(part, live) if found is None else found
                left -= part.bit_count()
                if total + left <= best:
                    break
            if total > best:
                best, best_cell = total, cell
        return best, best_cell
