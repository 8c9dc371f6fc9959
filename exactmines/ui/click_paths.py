"""Two clicks paths on a solved board, side by side: the player's and the fewest that clear
it (``exactmines zini``), each click numbered in order and marked by its kind. Drawn into
the replay picture of :func:`exactmines.ui.pictures.draw_replay` with ``--efficiency``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from exactmines.position import Board

__all__ = ["KIND_STYLE", "draw_click_paths", "paths_height", "paths_width", "player_path"]

#: Marker and colour of each kind of click (the legend's order).
KIND_STYLE = {"left": ("o", "#2166ac", "left click"), "flag": ("^", "#d7191c", "flag"),
              "chord": ("s", "#1a9641", "chord")}
_CAPTION = 0.3  # inches above a panel for its caption
_LEGEND = 0.45  # inches under the panels for the legend
_GAP = 0.8  # inches between the panels
_MARGIN = 0.75  # inches left of the first panel


def _cell(board: Board) -> float:
    """Side of a cell in the panels (inches): two boards must fit side by side."""
    return min(0.4, 7.5 / max(board.width, board.height))


def paths_height(board: Board) -> float:
    """Inches the two panels take, with their captions and legend."""
    return _LEGEND + board.height * _cell(board) + _CAPTION


def paths_width(board: Board) -> float:
    """Inches the two panels take across, with their margins."""
    return _MARGIN + 2 * board.width * _cell(board) + _GAP + 0.4


def player_path(events: Sequence[Any]) -> list[tuple[str, tuple[int, int]]]:
    """The player's clicks that changed the board, as ``(kind, cell)`` (a right click,
    putting a flag on or taking one off, is a ``flag``)."""
    return [("flag" if e.kind == "right" else e.kind, e.cell) for e in events]


def draw_click_paths(figure: Any, board: Board, player: Sequence[tuple[str, tuple[int, int]]],
                     fewest: Sequence[tuple[str, tuple[int, int]]], captions: tuple[str, str],
                     *, bottom: float = 0.0) -> tuple[Any, Any]:
    """Two panels in ``figure`` from ``bottom`` (inches) up (:func:`paths_height`): the
    solved ``board`` with ``player``'s clicks on the left and ``fewest``'s on the right,
    each click a marker of its kind with its number in the sequence (a text whose gid is
    ``"<panel>:<kind>"``, panel ``player`` or ``fewest``; a cell clicked more than twice,
    a flag put and taken off again, gets one mark, ``first+more``), a caption over each and
    one legend. Returns the two axes."""
    from matplotlib.lines import Line2D

    fw, fh = figure.get_size_inches()
    cell = _cell(board)
    w, h = board.width * cell, board.height * cell
    axes = []
    for k, (name, clicks, caption) in enumerate((("player", player, captions[0]),
                                                 ("fewest", fewest, captions[1]))):
        left = _MARGIN + k * (w + _GAP)
        ax = figure.add_axes((left / fw, (bottom + _LEGEND) / fh, w / fw, h / fh))
        _solved_board(ax, board, cell)
        _numbered(ax, name, clicks, cell)
        figure.text(left / fw, (bottom + _LEGEND + h + 0.08) / fh, caption, fontsize=8, va="bottom",
                    ha="left")
        axes.append(ax)
    handles = [Line2D([], [], marker=marker, color=colour, linestyle="none", label=label)
               for marker, colour, label in KIND_STYLE.values()]
    handles.append(Line2D([], [], marker="s", color="#4d4d4d", linestyle="none",
                          label="mine"))
    figure.legend(handles=handles, loc="lower left",
                  bbox_to_anchor=(_MARGIN / fw, (bottom + 0.02) / fh), ncol=len(handles),
                  fontsize=7, frameon=False,
                  title="number: the click's place in its sequence", title_fontsize=7)
    return axes[0], axes[1]


def _solved_board(ax: Any, board: Board, cell: float) -> None:
    """The board with every cell open: mines dark, numbers faint (the marks go on top)."""
    from matplotlib.collections import PolyCollection

    squares, colours = [], []
    for r in range(board.height):
        for c in range(board.width):
            squares.append([(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)])
            mine = (r, c) in board.mine_cells
            colours.append("#4d4d4d" if mine else "#ececec")
            number = board.number((r, c)) if not mine else 0
            if number:
                ax.text(c + 0.5, r + 0.5, str(number), ha="center", va="center",
                        color="#a0a0a0", fontsize=cell * 72 * 0.4, zorder=2)
    ax.add_collection(PolyCollection(squares, facecolors=colours, edgecolors="white",
                                     linewidths=0.5, zorder=1))
    ax.set_xlim(0, board.width)
    ax.set_ylim(board.height, 0)
    ax.set_axis_off()


def _numbered(ax: Any, name: str, clicks: Sequence[tuple[str, tuple[int, int]]],
              cell: float) -> None:
    """Each click a marker of its kind, numbered; several clicks on a cell side by side."""
    on_cell: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
    for number, (kind, at) in enumerate(clicks, 1):
        on_cell[tuple(at)].append((number, kind))  # type: ignore[index]
    points = cell * 72  # a cell's side in points
    for (r, c), here in on_cell.items():
        if len(here) > 2:  # a flag put and taken off again and again: its first click
            marks = [(here[0][1], f"{here[0][0]}+{len(here) - 1}")]
        else:
            marks = [(kind, str(number)) for number, kind in here]
        n = len(marks)
        scale = 1.0 if n == 1 else 0.55
        for j, (kind, label) in enumerate(marks):
            marker, colour, _ = KIND_STYLE[kind]
            x = c + 0.5 + (j - (n - 1) / 2) * (0.9 / n)
            ax.scatter([x], [r + 0.5], s=(0.8 * points * scale) ** 2, marker=marker,
                       color=colour, zorder=3, linewidths=0)
            ax.text(x, r + 0.5 + (0.08 if marker == "^" else 0), label, ha="center",
                    va="center", color="white", fontweight="bold", zorder=4,
                    fontsize=points * 0.36 * scale * (0.8 if len(label) > 2 else 1.0),
                    gid=f"{name}:{kind}")
