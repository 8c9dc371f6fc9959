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

Independent regions: at a decision with many layouts (at least ``SPLIT_FROM``), the
uncertain cells are grouped by adjacency (a click shows only its neighbours). A group whose
layouts combine freely with the rest's (``|S| = |S on the group| x |S off it|``: no number
and not the mine count ties them) is a game of its own: ``wins(S)`` is the product of the
groups' wins, each searched on its own short list of layouts (and remembered by that list),
and any group's best click is a best click overall. Without this the search interleaves
the groups' moves and visits about the product of their state counts: an expert endgame of
3852 layouts, a closed 50/50 beside 1926 layouts, took 1.4 million states instead of 90,000.
Checking costs a pass over the layouts of the state, so small states are not checked.

Cost: about 55 states per layout on expert endgames, some 11 us a state (bitmask operations
over the whole list): 71 searches of 2000-6000 layouts from expert games averaged 53 states
a layout, so 3000-4000 layouts take 1-3 s, a few up to 14 s. Measured on 170 expert
searches of 300-4000 layouts and not kept: renumbering a state's layouts once it holds a
small share of the list (so its bitmasks are short) loses the transpositions between the
subtrees -- 2.4 to 3.2 times the states, slower overall; passing the best so far down as a
bound (fail-low search, bounds memoised) -- 14 % fewer states but slower per state; skipping
the memo for one-layout states -- 3 %. Revealing every certainly safe cell of a state at
once (one split by all their values, no state in between) visits 40 % fewer states but is
slower, each state then scanning every cell; ordering equally safe cells by how many values
they can show, either way, 2 % fewer states or more, and slower (41 expert searches).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from operator import itemgetter

from exactmines.errors import TooLarge
from exactmines.position import indices_of

__all__ = ["Endgame"]

#: Decisions over at least this many layouts look for independent regions. Measured on 41
#: expert searches of 200-5700 layouts (seed 11, games 0-599): never 61 s, from 2 layouts
#: 56 s, from 64 43 s, from 512 33 s, from 2048 34 s. Checking is a pass over the state's
#: layouts, and small states rarely split.
SPLIT_FROM = 512


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
        Neighbourhood bitmask of each cell, indexed by cell (``neighbour_masks``, or the
        player's :attr:`~exactmines.deduction.known.KnownGrid.masks`, made on demand on
        large boards).
    known_mines:
        Cells already known to be mines (their count is added to each value).
    node_limit:
        States the search may evaluate before it gives up
        (:class:`~exactmines.errors.TooLarge`).
    solved:
        Regions already searched, by their list of layouts (shared by the searches of the
        independent regions of one search).

    Notes
    -----
    Building costs one pass over cells x layouts. A state costs one bitmask AND per cell
    and value; the memo holds every state evaluated.
    """

    def __init__(self, layouts: list[int], cells: list[int], masks: Sequence[int],
                 known_mines: int, node_limit: int,
                 solved: dict[frozenset[int], tuple[int, int, int]] | None = None) -> None:
        self.layouts, self.masks, self.known_mines = layouts, masks, known_mines
        self.solved = {} if solved is None else solved
        self.size = len(layouts)
        self.full = (1 << self.size) - 1
        self.node_limit = node_limit
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
        self._position = {c: n for n, c in enumerate(self.cells)}
        # Per position: the positions of the cells next to it, as a bitmask.
        self._near = [sum(1 << self._position[d] for d in indices_of(masks[c])
                          if d in self._position) for c in self.cells]

    def best_move(self) -> tuple[int, int]:
        """``(cell, wins)`` for the whole list: the click that wins on the most layouts (the
        first such cell in the order tried) and that number of layouts.

        Raises
        ------
        TooLarge
            When the search needs more states than its node limit.
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

    def wins_after(self, cell: int) -> int:
        """The layouts won by clicking ``cell`` first and playing best after it (a layout
        with a mine there is lost)."""
        everything = self.full
        live = [n for n, mine in enumerate(self._mine) if mine != everything]
        return sum(self._wins(everything & k, live)
                   for k in self._classes[self._position[cell]] if everything & k)

    def win_probability_numerator(self, state: int | None = None) -> int:
        """``wins(state)`` (the whole list by default)."""
        return self._wins(self.full if state is None else state, list(range(len(self.cells))))

    def _wins(self, state: int, cells: list[int]) -> int:
        """``wins(state)``; ``cells`` (positions in ``self.cells``, in increasing order, as
        everywhere: which cell is revealed for free, and so which states are visited and
        counted against the node limit, depends on that order) holds every cell uncertain in
        ``state``."""
        found = self.memo.get(state)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise TooLarge(f"the endgame search needs more than {self.node_limit} states")
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
        if size >= SPLIT_FROM and len(live) > 1:
            split = self._split(state, live)
            if split is not None:
                return split
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

    def _split(self, state: int, live: list[int]) -> tuple[int, int] | None:
        """``(wins, position)`` for ``state`` from its independent regions, or ``None``
        when its uncertain cells (``live``) do not fall apart.

        The groups of adjacent uncertain cells are found first (cheap); each is checked
        against the rest of the layouts; the independent ones are searched alone, the
        others together as one more region. The click returned is the safest of the
        regions' best clicks (each is a best click overall).
        """
        near = self._near
        left = sum(1 << n for n in live)
        groups = []
        while left:
            group = frontier = left & -left
            while frontier:
                grow = 0
                for n in indices_of(frontier):
                    grow |= near[n]
                frontier = grow & left & ~group
                group |= frontier
            left &= ~group
            groups.append(group)
        if len(groups) == 1:
            return None
        # The state's layouts (not indices_of: a state is a long, dense mask, and reading
        # its binary digits is about 5 times faster there).
        chosen = [self.layouts[j] for j, bit in enumerate(bin(state)[:1:-1]) if bit == "1"]
        regions: list[tuple[int, frozenset[int]]] = []
        coupled = 0
        for group in groups:
            cells = sum(1 << self.cells[n] for n in indices_of(group))
            own = frozenset(layout & cells for layout in chosen)
            if len(own) * len({layout & ~cells for layout in chosen}) == len(chosen):
                regions.append((cells, own))
            else:
                coupled |= cells
        if not regions:
            return None
        if coupled:
            regions.append((coupled, frozenset(layout & coupled for layout in chosen)))
        # A region's layouts leave out the mines of every other cell: those next to it are
        # certain mines (an uncertain one would be in it), which add the same to a value
        # in every layout and so split nothing.
        total, best, best_safety = 1, 0, None
        for cells, region in regions:
            found = self.solved.get(region)
            if found is None:
                search = Endgame(sorted(region), indices_of(cells), self.masks,
                                 self.known_mines, self.node_limit - self.nodes, self.solved)
                try:
                    cell, wins = search.best_move()
                finally:
                    self.nodes += search.nodes
                safe = search.size - search.mine_of[cell].bit_count()
                found = self.solved[region] = (cell, wins, safe)
            cell, wins, safe = found
            total *= wins
            safety = Fraction(safe, len(region))
            if best_safety is None or safety > best_safety:
                best, best_safety = self._position[cell], safety
        return total, best
