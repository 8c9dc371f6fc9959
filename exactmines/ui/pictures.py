"""Pictures for people: a position's mine-probability heat map, and rates with 95 % intervals.

matplotlib is an optional extra (``pip install 'exactmines[plot]'``); without it these
functions raise :class:`ExactminesError` saying so. Only matplotlib's object API is used
(``Figure``, never ``pyplot``): no global backend or figure state, so drawing works without a
display and inside worker processes. Floats appear here for drawing only.

The board's geometry is fixed before anything is drawn (:func:`board_layout`), so the size
of the picture and the pixel under every cell are known exactly (tests rely on it).
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from exactmines.analysis.analyze import Analysis, analyze
from exactmines.errors import ExactminesError, InputError
from exactmines.io.files import check_folder, write_atomic
from exactmines.position import Position, Topology
from exactmines.stats import wilson_interval
from exactmines.topology import char_number
from exactmines.ui.report import (
    layouts_text,
    plural,
    replay_classes,
    replay_luck,
    shape_text,
    unique_text,
)

if TYPE_CHECKING:
    from exactmines.replay.efficiency import Efficiency
    from exactmines.replay.judge import Click, Judgement

__all__ = [
    "IMAGE_SUFFIXES",
    "COLOURS",
    "BoardLayout",
    "board_layout",
    "check_image_path",
    "draw_analysis",
    "draw_replay",
    "CLASS_COLOURS",
    "STAGES",
    "draw_stages",
    "Rate",
    "plot_rates",
]

#: Picture formats, chosen by the file's extension.
IMAGE_SUFFIXES = (".png", ".svg", ".pdf")

#: Fill of each kind of cell; covered cells of unknown verdict take the ``CMAP`` colour of
#: their probability.
COLOURS = {
    "revealed": "#d4d4d4",
    "zero": "#f0f0f0",
    "flag": "#6a3d9a",
    "safe": "#1a9641",
    "mine": "#000000",
    "not computed": "#8c8c8c",
}
CMAP = "YlOrRd"
_NUMBER_COLOURS = {"1": "#0000ff", "2": "#007b00", "3": "#ff0000", "4": "#00007b",
                   "5": "#7b0000", "6": "#007b7b", "7": "#000000", "8": "#7b7b7b"}

DPI = 100
# The top holds the title's three lines (file, answer, verdicts) above the column numbers.
_LEFT, _RIGHT, _TOP, _BOTTOM = 0.6, 1.1, 0.9, 0.55  # inches around the board
_MIN_BOARD_WIDTH = 4.5  # inches: room for the title and legend on narrow boards
_TEXT_MIN_CELL = 0.125  # inches: below this, cells carry colour only


def _figure_class() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ExactminesError("pictures need matplotlib: pip install 'exactmines[plot]'") \
            from None
    return Figure


def check_image_path(path: str | os.PathLike[str], option: str = "--image") -> Path:
    """The path, if its extension names a picture format and matplotlib is installed."""
    target = Path(path)
    if target.suffix.lower() not in IMAGE_SUFFIXES:
        raise InputError(f"{option} {target}: the file name must end in "
                         f"{', '.join(IMAGE_SUFFIXES)}", source="command line")
    check_folder(target)
    _figure_class()
    return target


def _save(figure: Any, target: Path, dpi: int) -> None:
    """The picture written whole or not at all (:func:`write_atomic`), in its folder."""
    picture = io.BytesIO()
    figure.savefig(picture, dpi=dpi, format=target.suffix[1:].lower())
    write_atomic(target, picture.getvalue())


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """Where a ``width`` x ``height`` board sits in its picture (inches, origin bottom left).

    Attributes
    ----------
    cell:
        Side of one cell.
    left, bottom:
        Lower-left corner of the board.
    figure_width, figure_height:
        Size of the whole picture.
    dpi:
        Pixels per inch of PNG output.
    """

    width: int
    height: int
    cell: float
    left: float
    bottom: float
    figure_width: float
    figure_height: float
    dpi: int

    @property
    def pixels(self) -> tuple[int, int]:
        """``(width, height)`` of the PNG in pixels."""
        return (round(self.figure_width * self.dpi), round(self.figure_height * self.dpi))

    def pixel(self, row: int, col: int, dx: float = 0.5, dy: float = 0.5) -> tuple[int, int]:
        """``(x, y)`` PNG pixel (y down from the top) at fraction ``dx, dy`` inside a cell."""
        x = self.left + (col + dx) * self.cell
        y = self.bottom + (self.height - row - dy) * self.cell  # inches from the bottom
        return (int(x * self.dpi), int((self.figure_height - y) * self.dpi))

    @property
    def text(self) -> bool:
        """Whether cells are large enough to carry numbers and marks."""
        return self.cell >= _TEXT_MIN_CELL


def board_layout(width: int, height: int, dpi: int = DPI) -> BoardLayout:
    """Cells of up to 0.4 in while the board fits in 12 in; big boards grow to 20 in.

    A 30x16 board gets 0.4 in cells (40 px at 100 dpi) with numbers in them; a 200x200
    board 0.1 in cells (10 px), colour only.
    """
    side = max(width, height)
    cell = max(min(0.4, 12 / side), min(0.1, 20 / side))
    board_w, board_h = width * cell, height * cell
    left = _LEFT + max(0.0, (_MIN_BOARD_WIDTH - board_w) / 2)
    figure_width = left + board_w + _RIGHT + max(0.0, (_MIN_BOARD_WIDTH - board_w) / 2)
    figure_height = _BOTTOM + max(board_h, 1.5) + _TOP
    bottom = _BOTTOM + max(0.0, (1.5 - board_h) / 2)
    return BoardLayout(width, height, cell, left, bottom, figure_width, figure_height, dpi)


def _ticks(n: int) -> list[int]:
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2500, 5000)
                if n / s <= 16)
    return list(range(0, n, step))


def _big(n: int) -> str:
    """``1,234,567`` up to 15 digits, then ``1.234e4521`` (truncated, never via ``str(n)``,
    which Python refuses past 4300 digits)."""
    if n < 10**15:
        return f"{n:,}"
    exponent = int((n.bit_length() - 1) * 0.30102999566398120)  # floor(log10 n) or one less
    if 10 ** (exponent + 1) <= n:
        exponent += 1
    lead = n * 1000 // 10**exponent
    return f"{lead // 1000}.{lead % 1000:03d}e{exponent}"


def _luminance(rgba: tuple[float, ...]) -> float:
    r, g, b = rgba[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


def draw_analysis(result: Analysis, path: str | os.PathLike[str], *, file: str | None = None,
                  title: str | None = None, dpi: int = DPI) -> BoardLayout:
    """Draw ``result``'s position as a heat map of mine probabilities into ``path``.

    Revealed numbers and flags are shown as on a board; covered cells take the colour of
    their exact probability (colour scale at the right), certainly safe cells are green
    (``S``), certain mines black (``M``), flags purple (``F``), and cells whose
    probability was not computed grey (``?``). Letters and percentages appear only when
    cells are large enough. The format follows the extension (.png, .svg, .pdf). The title
    (``title``, or a summary of the analysis headed by ``file``) sits above the board.

    Returns the layout used. Cost: one pass over the cells plus matplotlib's rendering
    (well under a second for 200x200; per-cell text dominates on mid-sized boards).
    """
    target = check_image_path(path)
    figure_class = _figure_class()
    drawn = _shapes(result.position.topology)  # None: one square per cell
    if drawn is None:
        layout = board_layout(result.position.width, result.position.height, dpi)
    else:
        layout = board_layout(math.ceil(drawn[1]), math.ceil(drawn[2]), dpi)
    figure = figure_class(figsize=(layout.figure_width, layout.figure_height), dpi=dpi)
    _draw_board(figure, result, layout, drawn=drawn)
    figure.text(layout.left / layout.figure_width, 1 - 0.12 / layout.figure_height,
                title or _title(result, file, layout.figure_width - layout.left - 0.1),
                fontsize=9, va="top", ha="left")
    _save(figure, target, dpi)
    return layout


def _draw_board(figure: Any, result: Analysis, layout: BoardLayout, *,
                flags: frozenset[tuple[int, int]] = frozenset(),
                outlined: tuple[tuple[int, int], ...] = (),
                drawn: tuple[list[list[tuple[float, float]]], float, float] | None = None,
                ) -> None:
    """The heat map of :func:`draw_analysis` on ``figure`` where ``layout`` puts it, with its
    colour scale and legend. ``flags``: covered cells to mark with an ``F`` although the
    analysis saw them covered (a player's flags it did not trust); ``outlined``: cells to
    draw a frame around (a click, on a board of squares); ``drawn``: the cells' shapes
    (:func:`_shapes`) on a board not drawn as squares."""
    import numpy as np
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize, to_rgba
    from matplotlib.patches import Patch, Rectangle

    position = result.position
    topology = position.topology
    width, height = position.width, position.height
    cmap = colormaps[CMAP]
    fills = {name: to_rgba(colour) for name, colour in COLOURS.items()}
    image = np.empty((height, width, 4))
    labels: list[tuple[int, int, str, str]] = []  # row, col, text, ink colour
    by_cell = {c.cell: c for c in result.cells}
    kinds_seen: set[str] = set()
    shade: dict[tuple[int, int], tuple[float, float, float, float]] = {}
    for r, row in enumerate(position.rows):
        for c, ch in enumerate(row):
            cell = by_cell.get((r, c))
            if ch == "F":
                kind, text = "flag", "F"
            elif cell is None:
                kind, text = ("zero", "") if ch == "0" else ("revealed", str(char_number(ch)))
            elif result.consistent is False:
                kind, text = "not computed", "?"
            elif cell.verdict == "safe":
                kind, text = "safe", "S"
            elif cell.verdict == "mine":
                kind, text = "mine", "M"
            elif cell.probability is None:
                kind, text = "not computed", "?"
            else:
                kind = "probability"
                key = (cell.probability.numerator, cell.probability.denominator)
                colour = shade.get(key)
                if colour is None:  # one colour map call per distinct probability, not per cell
                    colour = shade[key] = cmap(float(cell.probability))
                image[r, c] = colour
                percent = min(max(round(float(cell.probability) * 100), 1), 99)
                text = str(percent)
            kinds_seen.add(kind)
            if kind != "probability":
                image[r, c] = fills[kind]
            if (r, c) in flags and kind != "flag":
                text = f"F{text}" if kind == "probability" else "F"
            if text and layout.text:
                if kind == "revealed":
                    ink = _NUMBER_COLOURS.get(text, "black")
                elif text.startswith("F") and kind != "flag":
                    ink = COLOURS["flag"] if _luminance(tuple(image[r, c])) >= 0.5 else "white"
                else:
                    ink = "white" if _luminance(tuple(image[r, c])) < 0.5 else "black"
                labels.append((r, c, text, ink))

    fw, fh = layout.figure_width, layout.figure_height
    board_w, board_h = layout.width * layout.cell, layout.height * layout.cell
    # Board marks (numbers, F, S, M) bold; percentages lighter, so the board reads first.
    marks = [(r, c, text, ink, text.lstrip("F").isdigit() and (r, c) in by_cell)
             for r, c, text, ink in labels]
    if drawn is None:
        axes = _board_axes(figure, layout, image, marks)
        if any(topology.shape.wraps):
            _mark_wrap(axes, width, height, topology.shape.wraps)
        for r, c in outlined:
            axes.add_patch(Rectangle((c + 0.06, r + 0.06), 0.88, 0.88, fill=False,
                                     edgecolor=_OUTLINE,
                                     linewidth=max(1.0, layout.cell * layout.dpi / 12)))
    else:
        _shape_axes(figure, layout, topology, drawn[0], image, marks)

    bar = figure.add_axes(((layout.left + board_w + 0.25) / fw, _BOTTOM / fh,
                           0.18 / fw, max(board_h, 1.5) / fh))
    colour_scale = figure.colorbar(ScalarMappable(Normalize(0, 1), cmap), cax=bar)
    colour_scale.set_ticks([0, 0.25, 0.5, 0.75, 1], labels=["0%", "25%", "50%", "75%", "100%"])
    colour_scale.ax.tick_params(labelsize=7)
    colour_scale.set_label("mine probability", fontsize=8)

    names = {"revealed": "revealed", "flag": "flag (F)", "safe": "certainly safe (S)",
             "mine": "certain mine (M)", "not computed": "not computed (?)"}
    handles = [Patch(facecolor=COLOURS[k], edgecolor="#555555", label=label)
               for k, label in names.items() if k in kinds_seen or k in ("safe", "mine")]
    if flags:
        handles.append(Patch(facecolor="none", edgecolor="none",
                             label="F: a flag of the player, not trusted"))
    if outlined:
        handles.append(Patch(facecolor="none", edgecolor=_OUTLINE, label="the click"))
    columns = len(handles) if board_w >= 7 else 3
    figure.legend(handles=handles, loc="lower left", ncol=columns, fontsize=7,
                  frameon=False, bbox_to_anchor=(layout.left / fw, 0.04 / fh))


#: The frame drawn around the cells of a click.
_OUTLINE = "#1f4fff"


def _board_axes(figure: Any, layout: BoardLayout, image: Any,
                labels: Iterable[tuple[int, int, str, str, bool]]) -> Any:
    """The board's axes in ``figure`` where ``layout`` puts them: ``image`` (height x width
    RGBA) one square per cell, white lines between cells, and ``labels`` (row, col, text,
    ink, light) centred in their cells, bold unless ``light``."""
    width, height = layout.width, layout.height
    fw, fh = layout.figure_width, layout.figure_height
    axes = figure.add_axes((layout.left / fw, layout.bottom / fh,
                            width * layout.cell / fw, height * layout.cell / fh))
    axes.imshow(image, extent=(0, width, height, 0), interpolation="nearest", aspect="auto")
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)
    cell_pixels = layout.cell * layout.dpi
    if cell_pixels >= 6:
        lines = dict(colors="white", linewidths=0.6 if cell_pixels >= 20 else 0.3)
        axes.vlines(range(1, width), 0, height, **lines)
        axes.hlines(range(1, height), 0, width, **lines)
    font = layout.cell * 72 * 0.5
    for r, c, text, ink, light in labels:
        axes.text(c + 0.5, r + 0.5, text, ha="center", va="center", color=ink,
                  fontsize=font * (0.75 if light else 1.0),
                  fontweight="normal" if light else "bold")
    axes.set_xticks([t + 0.5 for t in _ticks(width)], [str(t) for t in _ticks(width)])
    axes.set_yticks([t + 0.5 for t in _ticks(height)], [str(t) for t in _ticks(height)])
    axes.tick_params(length=0, labelsize=7)
    axes.xaxis.tick_top()
    for spine in axes.spines.values():
        spine.set_visible(False)
    return axes


def _shapes(topology: Topology) -> tuple[list[list[tuple[float, float]]], float, float] | None:
    """Each cell's polygon for a topology not drawn as a grid of squares (hexagons,
    triangles, a cube's slices side by side, a graph's nodes where networkx lays them out),
    moved so the drawing starts at 0, with its width and height in cell units; ``None``
    for the square grid and the others drawn as it is (torus, cylinder, knight, offsets:
    their :attr:`~exactmines.topology.Shape.cell` is ``"square"``)."""
    if topology.shape.cell == "square":
        return None
    polygons = [topology.outline(i) for i in range(topology.cells)]
    # Triangles of side 1 are small beside squares and hexagons (0.43 of their area):
    # drawn half as large again.
    scale = 1.5 if topology.shape.cell == "triangle" else 1.0
    xs = [x for polygon in polygons for x, _ in polygon]
    ys = [y for polygon in polygons for _, y in polygon]
    left, top = min(xs), min(ys)
    moved = [[((x - left) * scale, (y - top) * scale) for x, y in polygon]
             for polygon in polygons]
    return moved, (max(xs) - left) * scale, (max(ys) - top) * scale


def _shape_axes(figure: Any, layout: BoardLayout, topology: Topology,
                polygons: list[list[tuple[float, float]]], image: Any,
                labels: Iterable[tuple[int, int, str, str, bool]]) -> Any:
    """:func:`_board_axes` for cells of other shapes: each cell's polygon filled with its
    colour of ``image``, white edges, and a graph's edges drawn between its nodes."""
    from matplotlib.collections import LineCollection, PolyCollection

    fw, fh = layout.figure_width, layout.figure_height
    axes = figure.add_axes((layout.left / fw, layout.bottom / fh,
                            layout.width * layout.cell / fw, layout.height * layout.cell / fh))
    width = topology.width
    centres = [(sum(x for x, _ in p) / len(p), sum(y for _, y in p) / len(p))
               for p in polygons]
    if topology.kind == "graph":
        edges = [(centres[i], centres[j]) for i, around in enumerate(topology.neighbour_table)
                 for j in around if i < j]
        axes.add_collection(LineCollection(edges, colors="#999999", linewidths=0.6, zorder=1))
    colours = [tuple(image[i // width, i % width]) for i in range(topology.cells)]
    axes.add_collection(PolyCollection(polygons, facecolors=colours, edgecolors="white",
                                       linewidths=0.6, zorder=2))
    # (A triangle's text sits low in an up triangle and high in a down one: at its
    # centroid, and smaller.)
    font = layout.cell * 72 * (0.3 if topology.shape.cell == "triangle" else 0.45)
    for r, c, text, ink, light in labels:
        x, y = centres[r * width + c]
        axes.text(x, y, text, ha="center", va="center", color=ink, zorder=3,
                  fontsize=font * (0.75 if light else 1.0),
                  fontweight="normal" if light else "bold")
    if topology.kind == "cube":
        rows = topology.layer_height
        for layer in range(topology.layers):
            x, _ = centres[layer * rows * width]
            axes.text(x - 0.5, -0.15, f"layer {layer}", ha="left", va="bottom", fontsize=7)
    if topology.kind == "graph":
        assert topology.labels is not None
        for (x, y), label in zip(centres, topology.labels, strict=True):
            axes.text(x, y + 0.45, str(label), ha="center", va="top", fontsize=5,
                      color="#555555", zorder=3)
    axes.set_xlim(0, layout.width)
    axes.set_ylim(layout.height, 0)
    axes.set_axis_off()
    return axes


def _mark_wrap(axes: Any, width: int, height: int, wraps: tuple[bool, bool]) -> None:
    """A torus's or a cylinder's wrap (``wraps``: rows, columns): the edges that meet
    dashed, and arrows saying which sides meet."""
    style = dict(colors="#6a3d9a", linewidths=1.2, linestyles="dashed")
    rows, columns = wraps
    marks = []
    if columns:
        axes.vlines([0, width], 0, height, **style)
        marks += [(-0.3, height / 2, "\u2194"), (width + 0.3, height / 2, "\u2194")]
    if rows:
        axes.hlines([0, height], 0, width, **style)
        marks.append((width / 2, height + 0.3, "\u2195"))
    axes.set_xlim(-0.6, width + 0.6)
    axes.set_ylim(height + 0.6, -0.6)
    for x, y, text in marks:
        axes.text(x, y, text, ha="center", va="center", color="#6a3d9a", fontsize=9)
    axes.text(width / 2, height + 0.45, "wraps around", ha="center", va="top",
              color="#6a3d9a", fontsize=7)


#: Colours of the timeline's bars, by class of click.
CLASS_COLOURS = {"needless guess": "#e66101", "forced guess": "#5e3c99",
                 "not judged": "#8c8c8c"}
_TIMELINE = 1.7  # inches: height of the risk timeline
_GAP = 0.95  # inches between the board's top and the timeline (ticks and a caption)
_REPLAY_WIDTH = 8.5  # inches at least: room for the titles and the timeline's legend


def draw_replay(judged: Judgement, path: str | os.PathLike[str], *, file: str | None = None,
                dpi: int = DPI, efficiency: Efficiency | None = None) -> BoardLayout:
    """Draw a judged replay into ``path``: above, the game's risk timeline (one bar per
    guess, its height the chance of a mine, coloured by class, a tick at the safest chance
    on offer, a red edge where a mine was hit; grey dots for the safe clicks); below, the
    board before its riskiest guess (the last click if it made none) with the exact
    overlay of :func:`draw_analysis`, the player's flags marked ``F`` and the click's cells
    framed. With a won game's ``efficiency``, under them the player's clicks and the fewest
    that clear the board, side by side (:mod:`exactmines.ui.click_paths`).

    Returns the board's layout (its ``pixel`` places cells in the picture). Cost: one
    analysis, and matplotlib's rendering.
    """
    from dataclasses import replace

    from exactmines.replay.judge import analysis_before

    target = check_image_path(path)
    figure_class = _figure_class()
    opening = judged.opening
    shown = judged.riskiest or (opening[-1] if opening else None)
    if shown is None:
        raise InputError("the replay has no click that opens cells: nothing to draw",
                         source=file or judged.replay.source)
    result = analysis_before(judged, shown, backend=judged.backend)
    width, height = result.position.width, result.position.height
    base = board_layout(width, height, dpi)
    board_top = base.bottom + height * base.cell
    paths = (0.0, 0.0) if efficiency is None else _paths_size(judged)
    layout = replace(base, figure_height=board_top + _GAP + _TIMELINE + paths[1] + 1.1,
                     figure_width=max(base.figure_width, _REPLAY_WIDTH, paths[0]))
    figure = figure_class(figsize=(layout.figure_width, layout.figure_height), dpi=dpi)
    flags = frozenset(cell for cell in shown.before.flags) if not judged.trust_flags \
        else frozenset()
    _draw_board(figure, result, layout, flags=flags, outlined=shown.opens)
    fw, fh = layout.figure_width, layout.figure_height
    what = "riskiest guess" if shown.guess else "last click"
    figure.text(0.75 / fw, (board_top + 0.42) / fh,
                f"before its {what} (click {opening.index(shown) + 1}, {shown.kind} at "
                f"{shown.cell[0]},{shown.cell[1]}, {shown.time:.2f} s): {_chance(shown)}",
                fontsize=8, va="bottom", ha="left")
    timeline = figure.add_axes((0.75 / fw, (board_top + _GAP) / fh, (fw - 1.15) / fw,
                                _TIMELINE / fh))
    _draw_timeline(timeline, opening, shown)
    figure.text(0.2 / fw, 1 - 0.12 / fh, _replay_title(judged, file, fw - 0.3), fontsize=9,
                va="top", ha="left")
    if efficiency is not None:  # between the title and the timeline
        _draw_paths(figure, judged, efficiency, board_top + _GAP + _TIMELINE + 0.2)
    _save(figure, target, dpi)
    return layout


def _paths_size(judged: Judgement) -> tuple[float, float]:
    """Inches across and up that the two click paths take."""
    from exactmines.ui.click_paths import paths_height, paths_width

    board = judged.replay.board
    return paths_width(board), paths_height(board) + 0.2


def _draw_paths(figure: Any, judged: Judgement, efficiency: Efficiency,
                bottom: float) -> None:
    """The player's clicks and the fewest, side by side from ``bottom`` (inches) up,
    captioned with their counts."""
    from exactmines.ui.click_paths import draw_click_paths, player_path

    player = player_path(judged.replay.events)
    wasted = efficiency.clicks - len(player)
    fewest = ("exact ZiNi, proved" if efficiency.zini_optimal else
              f"the fewest found; at least {efficiency.zini_lower_bound}")
    draw_click_paths(figure, judged.replay.board, player, efficiency.sequence, (
        f"the player: {plural(efficiency.clicks, 'click')}"
        + (f" ({wasted} changed nothing: not shown)" if wasted > 0 else ""),
        f"the fewest: {plural(efficiency.zini, 'click')} ({fewest})"), bottom=bottom)


def _chance(click: Click) -> str:
    from exactmines.ui.report import chance

    if click.judged == "first":
        return "the first click, kept safe by the program: not judged"
    if click.probability is None:
        return "not judged"
    text = f"mine chance {chance(str(click.probability))}"
    if click.safest is not None:
        text += f", safest {chance(str(click.safest))}"
    return text + (", hit a mine" if click.mine else "")


def _draw_timeline(axes: Any, opening: list[Click], shown: Click) -> None:
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    xs = range(1, len(opening) + 1)
    safe = [x for x, c in zip(xs, opening, strict=True) if not c.guess and c.judged != "not judged"]
    axes.scatter(safe, [0.0] * len(safe), s=4, color="#b0b0b0", zorder=2, clip_on=False)
    for x, click in zip(xs, opening, strict=True):
        if click.judged not in CLASS_COLOURS:
            continue
        height = 0.02 if click.probability is None else float(click.probability)
        axes.bar(x, height, width=0.8, color=CLASS_COLOURS[click.judged],
                 edgecolor="#d7191c" if click.mine else "none", linewidth=1.5, zorder=3)
        if click.safest is not None and click.guess:
            axes.hlines(float(click.safest), x - 0.45, x + 0.45, colors="black",
                        linewidth=1.2, zorder=4)
        if click is shown:
            axes.annotate("shown below", (x, height), xytext=(0, 6), textcoords="offset points",
                          ha="center", fontsize=7)
    axes.set_xlim(0.3, len(opening) + 0.7)
    if len(opening) <= 10:  # every click its tick (a locator put 0.30 ... 1.65 under one)
        axes.set_xticks(list(xs))
    else:
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylim(0, 1)
    axes.set_yticks([0, 0.25, 0.5, 0.75, 1], ["0%", "25%", "50%", "75%", "100%"])
    axes.set_ylabel("mine chance", fontsize=8)
    axes.set_xlabel("clicks that opened cells, in order", fontsize=8)
    axes.tick_params(labelsize=7)
    handles = [Patch(facecolor=colour, label=name) for name, colour in CLASS_COLOURS.items()
               if any(c.judged == name for c in opening)]
    handles.append(Patch(facecolor="none", edgecolor="#d7191c", label="hit a mine"))
    handles.append(Patch(facecolor="black", label="safest on offer (tick)"))
    axes.legend(handles=handles, loc="upper right", fontsize=7, frameon=False,
                ncol=len(handles))


def _replay_title(judged: Judgement, file: str | None, width: float = math.inf) -> str:
    """The replay picture's title, in lines that fit ``width`` inches (only the file's path
    is shortened, as in the analysis picture's)."""
    from exactmines.replay.judge import CLASSES

    replay = judged.replay
    board = replay.board
    who = ", ".join(x for x in (replay.software, replay.player) if x)
    name = _fit_name(file or replay.source, int(width / _TITLE_CHAR) if width != math.inf
                     else 10**9)
    return (f"{name}\n{who + ': ' if who else ''}{board.width}x{board.height}, "
            f"{plural(board.mines, 'mine')}, {'won' if judged.won else 'lost'}\n"
            f"{plural(len(judged.opening), 'click')} opened cells: "
            f"{replay_classes({kind: judged.count(kind) for kind in CLASSES})}\n"
            f"{_luck(judged)}")


def _luck(judged: Judgement) -> str:
    """The luck as ``exactmines replay`` says it."""
    survived = sum(c.guess and not c.mine and c.probability is not None
                   for c in judged.clicks)
    return replay_luck(str(judged.luck), judged.luck_log10, survived)


#: Inches a character of the 9-point title takes at most (DejaVu Sans's widest common
#: glyphs are about 0.62 em wide; digits 0.64).
_TITLE_CHAR = 9 * 0.64 / 72


def _fit_name(name: str, chars: int) -> str:
    """``name`` in at most ``chars`` characters: a long path keeps its end (the file's own
    name), with ``…`` for what was left out."""
    return name if len(name) <= chars else "…" + name[len(name) - max(chars - 1, 1):]


def _title(result: Analysis, file: str | None, width: float = math.inf) -> str:
    """The analysis picture's title, in lines that fit ``width`` inches: the file (its path
    shortened from the left), then the shape, mines, layouts and uniqueness, then the
    verdicts. Nothing of the answer is cut: only the file's path can be too long."""
    position = result.position
    chars = int(width / _TITLE_CHAR) if width != math.inf else 10**9
    mines = "unknown mines" if position.mines is None else plural(position.mines, "mine")
    head = f"{shape_text(position.topology)}, {mines}"
    lines = [_fit_name(file, chars)] if file else []
    if result.consistent is False:
        lines += [head, "inconsistent: no layout of mines fits this position"]
    else:
        lines += [f"{head}, {layouts_text(result, _big)}, {unique_text(result.unique)}",
                  f"{len(result.safe)} certainly safe, "
                  f"{plural(len(result.mines), 'certain mine')}, "
                  f"{sum(c.verdict == 'unknown' for c in result.cells)} unknown"]
    return "\n".join(lines)


# ------------------------------------------------------------------ the analysis's stages

#: The pictures :func:`draw_stages` writes, in the order the analysis goes.
STAGES = ("frontier", "boxes", "components", "counts", "combination", "probabilities")

#: Fills of the stage pictures: covered cells next to a number, and away from every number.
_FRONTIER, _OUTSIDE = "#fd8d3c", "#c6dbef"
#: One colour per box or component, in turn: matplotlib's tab10 without its grey and red,
#: then light ones unlike the cells off the frontier.
_GROUPS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#bcbd22",
           "#17becf", "#ffbb78", "#98df8a", "#c5b0d5", "#f7b6d2")


def _letters(index: int) -> str:
    """``a`` ... ``z``, then ``aa``, ``ab`` ...: a box's name."""
    name = ""
    index += 1
    while index:
        index, digit = divmod(index - 1, 26)
        name = chr(ord("a") + digit) + name
    return name


def _stage_board(position: Position, path: Path, title: str,
                 fills: Mapping[tuple[int, int], str], marks: Mapping[tuple[int, int], str],
                 legend: Iterable[tuple[str, str]], dpi: int) -> None:
    """The position with ``fills`` on covered cells (the rest plain) and ``marks`` in them."""
    import numpy as np
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Patch

    layout = board_layout(position.width, position.height, dpi)
    image = np.empty((position.height, position.width, 4))
    labels = []
    for r, row in enumerate(position.rows):
        for c, ch in enumerate(row):
            colour = fills.get((r, c), COLOURS["zero"] if ch == "0" else COLOURS["revealed"])
            image[r, c] = to_rgba(colour)
            if (r, c) in marks:
                ink = "white" if _luminance(tuple(image[r, c])) < 0.5 else "black"
                labels.append((r, c, marks[(r, c)], ink, False))
            elif ch not in "0H":
                labels.append((r, c, ch, _NUMBER_COLOURS.get(ch, "black"), False))
    figure = _figure_class()(figsize=(layout.figure_width, layout.figure_height), dpi=dpi)
    _board_axes(figure, layout, image, labels)
    fw, fh = layout.figure_width, layout.figure_height
    handles = [Patch(facecolor=colour, edgecolor="#555555", label=label)
               for label, colour in legend]
    figure.legend(handles=handles, loc="lower left", ncol=min(len(handles), 3), fontsize=7,
                  frameon=False, bbox_to_anchor=(layout.left / fw, 0.04 / fh))
    figure.text(layout.left / fw, 1 - 0.12 / fh, title, fontsize=9, va="top", ha="left")
    _save(figure, path, dpi)


def _bars(path: Path, title: str, panels: list[tuple[str, str, dict[int, str], list[int]]],
          xlabel: str, dpi: int) -> None:
    """One bar chart per panel (name, colour, bar labels by x, heights from x = 0), side by
    side; each bar carries its label."""
    width = max(1.2 + 2.6 * len(panels), 0.7 + 0.075 * len(title))  # room for the title
    figure = _figure_class()(figsize=(width, 2.7), dpi=dpi)
    panel = (width - 0.5 * (len(panels) + 1)) / len(panels)
    for i, (name, colour, texts, heights) in enumerate(panels):
        axes = figure.add_axes(((0.5 + (panel + 0.5) * i) / width, 0.45 / 2.7, panel / width,
                                1.6 / 2.7))
        xs = sorted(texts)
        axes.bar(xs, [heights[x] for x in xs], color=colour, width=0.6)
        for x in xs:
            axes.annotate(texts[x], (x, heights[x]), xytext=(0, 2), textcoords="offset points",
                          ha="center", va="bottom", fontsize=7)
        axes.set_xticks(xs, [str(x) for x in xs])
        axes.set_xlim(min(xs) - 0.8, max(xs) + 0.8)
        axes.set_ylim(0, max(heights) * 1.3)
        axes.set_yticks([])
        axes.tick_params(labelsize=7)
        axes.set_xlabel(xlabel, fontsize=8)
        axes.set_title(name, fontsize=8)
        for side in ("top", "right", "left"):
            axes.spines[side].set_visible(False)
    figure.text(0.5 / width, 1 - 0.1 / 2.7, title, fontsize=9, va="top", ha="left")
    _save(figure, path, dpi)


def draw_stages(position: Position, folder: str | os.PathLike[str], *, backend: str = "dp",
                suffix: str = ".png", dpi: int = DPI) -> list[Path]:
    """A picture of each stage of the analysis of ``position``, for people learning how it
    works: ``stage-N-NAME.png`` in ``folder`` for each name of :data:`STAGES`, in order.

    1. the frontier: the covered cells next to a number, and those away from every number;
    2. the boxes: frontier cells under the same numbers, one colour and letter per box;
    3. the components: boxes linked by shared numbers, one colour per component, with the
       numbers that link them;
    4. the counts: each component's layouts by number of mines, as ``backend`` counts them;
    5. the combination: for each number of mines ``s`` on the frontier, the product of the
       components' counts times the ways to put the other mines off the frontier,
       ``C(U, L - s)``: their sum is the number of layouts (needs the total mine count);
    6. the answer: :func:`draw_analysis` of the same position.

    Returns the paths written. Meant for small positions (a few components and boxes):
    every count is written out. Cost: one analysis and six pictures.
    """
    from exactmines.analysis.backends import get_backend
    from exactmines.analysis.combine import binomial, poly_mul
    from exactmines.analysis.frontier import build_frontier

    check_image_path(Path("stage" + suffix), "suffix")
    frontier = build_frontier(position)
    if frontier.contradiction or frontier.mines_left is None or not frontier.components:
        raise InputError("the stages are drawn for a consistent position with a total mine "
                         "count and a frontier", source="position")
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    paths = [target / f"stage-{i}-{name}{suffix}" for i, name in enumerate(STAGES, 1)]
    outside = dict.fromkeys(frontier.outside, _OUTSIDE)
    cells = [c for boxes in frontier.box_cells for box in boxes for c in box]
    covered = (f"{plural(len(cells), 'covered cell')} next to a number, {len(outside)} away "
               "from them")
    _stage_board(position, paths[0], f"1. frontier: {covered}",
                 {**outside, **dict.fromkeys(cells, _FRONTIER)}, {},
                 [("frontier", _FRONTIER), ("off the frontier", _OUTSIDE)], dpi)

    fills, marks, number = dict(outside), {}, 0
    for boxes in frontier.box_cells:
        for box in boxes:
            for cell in box:
                fills[cell] = _GROUPS[number % len(_GROUPS)]
                marks[cell] = _letters(number)
            number += 1
    _stage_board(position, paths[1], f"2. boxes: {plural(number, 'box', 'boxes')}, each a "
                 "set of cells under the same numbers", fills, marks,
                 [("off the frontier", _OUTSIDE)], dpi)

    fills, marks = dict(outside), {}
    legend = []
    for i, (boxes, clues) in enumerate(zip(frontier.box_cells, frontier.clue_cells,
                                           strict=True)):
        colour = _GROUPS[i % len(_GROUPS)]
        for clue in clues:
            fills[clue] = colour + "66"  # the numbers that link the boxes, lighter
        for cell in (c for box in boxes for c in box):
            fills[cell], marks[cell] = colour, str(i + 1)
        legend.append((f"component {i + 1}", colour))
    _stage_board(position, paths[2], f"3. components: "
                 f"{plural(len(frontier.components), 'component')}, independent but for the "
                 "total count", fills, marks, legend + [("off the frontier", _OUTSIDE)], dpi)

    engine = get_backend(backend)
    counts = [engine.count(component).layouts for component in frontier.components]
    panels = [(f"component {i + 1}: {plural(c.cells, 'cell')}, "
               f"{plural(len(c.sizes), 'box', 'boxes')}", _GROUPS[i % len(_GROUPS)],
               {k: f"{n:,}" for k, n in enumerate(layouts) if n}, list(layouts))
              for i, (c, layouts) in enumerate(zip(frontier.components, counts, strict=True))]
    _bars(paths[3], f"4. counts: layouts of each component by its number of mines "
                    f"({engine.name})", panels, "mines in the component", dpi)

    product = [1]
    for layouts in counts:
        product = poly_mul(product, layouts)
    left, off = frontier.mines_left, len(frontier.outside)
    weights = [n * binomial(off, left - s) for s, n in enumerate(product)]
    texts = {s: f"{n:,} x C({off},{left - s})\n= {w:,}"
             for s, (n, w) in enumerate(zip(product, weights, strict=True)) if w}
    if not texts:
        raise InputError("no layout meets the total mine count", source="position")
    _bars(paths[4], f"5. combination: {plural(left, 'mine')} left, {plural(off, 'cell')} off the "
                    f"frontier; "
                    f"{plural(sum(weights), 'layout', fmt=',')} in all",
          [("layouts by mines on the frontier", _FRONTIER, texts, weights)],
          "mines on the frontier", dpi)
    draw_analysis(analyze(position, backend=backend), paths[5],
                  title="6. probabilities: each cell's share of the layouts with a mine on "
                        "it", dpi=dpi)
    return paths


@dataclass(frozen=True, slots=True)
class Rate:
    """One measured rate: ``successes`` of ``trials``, optionally beside a published figure.

    ``reference`` is a rate in [0, 1] to compare with (e.g. another solver's win rate),
    drawn as a hollow diamond.
    """

    label: str
    successes: int
    trials: int
    reference: float | None = None


def _as_rate(row: Rate | Mapping[str, Any]) -> Rate:
    if isinstance(row, Rate):
        rate = row
    else:
        rate = Rate(str(row["label"]), int(row["successes"]), int(row["trials"]),
                    None if row.get("reference") is None else float(row["reference"]))
    if rate.trials <= 0 or not 0 <= rate.successes <= rate.trials:
        raise ValueError(f"{rate.label}: need 0 <= successes <= trials and trials > 0, got "
                         f"{rate.successes}/{rate.trials}")
    return rate


def plot_rates(rows: Iterable[Rate | Mapping[str, Any]], path: str | os.PathLike[str], *,
               title: str = "", xlabel: str = "rate", option: str = "--plot") -> None:
    """A point per row at ``successes / trials`` with its Wilson 95 % interval, one row per line.

    Parameters
    ----------
    rows:
        :class:`Rate` values or mappings with ``label``, ``successes``, ``trials`` and
        optionally ``reference`` (a rate in [0, 1] drawn as a hollow diamond).
    path:
        ``.png``, ``.svg`` or ``.pdf``.
    title, xlabel:
        Text for people.
    option:
        The command-line option that named ``path``, for the error message.

    Each line is labelled ``41.23% [40.27, 42.19] 4,123/10,000`` at the right. The axis
    spans the intervals (and references) with a margin, so close rates stay apart.
    """
    target = check_image_path(path, option)
    rates = [_as_rate(row) for row in rows]
    if not rates:
        raise ValueError("plot_rates needs at least one row")
    figure_class = _figure_class()
    intervals = [wilson_interval(r.successes, r.trials) for r in rates]
    values = [r.successes / r.trials for r in rates]
    height = 1.3 + 0.42 * len(rates)
    figure = figure_class(figsize=(9.0, height), dpi=DPI)
    axes = figure.add_axes((2.4 / 9.0, 0.6 / height, 4.2 / 9.0, (height - 1.1) / height))
    ys = list(range(len(rates)))[::-1]
    lows = [v - lo for v, (lo, _) in zip(values, intervals, strict=True)]
    highs = [hi - v for v, (_, hi) in zip(values, intervals, strict=True)]
    axes.errorbar(values, ys, xerr=[lows, highs], fmt="o", color="#1f4e99", ecolor="#1f4e99",
                  capsize=4, markersize=6, label="measured, 95% interval")
    references = [(r.reference, y) for r, y in zip(rates, ys, strict=True)
                  if r.reference is not None]
    if references:
        axes.plot([x for x, _ in references], [y for _, y in references], "D",
                  markerfacecolor="none", markeredgecolor="#d95f02", markersize=7,
                  label="reference")
    span = [lo for lo, _ in intervals] + [hi for _, hi in intervals] + [x for x, _ in references]
    low, high = min(span), max(span)
    margin = max(0.02, 0.08 * (high - low))
    axes.set_xlim(max(0.0, low - margin), min(1.0, high + margin))
    axes.set_ylim(-0.7, len(rates) - 0.3)
    axes.set_yticks(ys, [r.label for r in rates], fontsize=8)
    axes.xaxis.set_major_formatter(lambda x, _: f"{x * 100:.0f}%"
                                   if high - low > 0.05 else f"{x * 100:.1f}%")
    axes.tick_params(axis="x", labelsize=8)
    axes.set_xlabel(xlabel, fontsize=9)
    axes.grid(axis="x", color="#dddddd")
    for rate, value, (lo, hi), y in zip(rates, values, intervals, ys, strict=True):
        axes.annotate(f"{value * 100:.2f}% [{lo * 100:.2f}, {hi * 100:.2f}] "
                      f"{rate.successes:,}/{rate.trials:,}", (1.02, y),
                      xycoords=("axes fraction", "data"), va="center", fontsize=8)
    axes.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=8,
                frameon=False)
    if title:
        figure.text(0.02, 1 - 0.1 / height, title, fontsize=10, va="top")
    _save(figure, target, DPI)
