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
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exactmines.analysis.analyze import Analysis, analyze
from exactmines.errors import ExactminesError, InputError
from exactmines.io.files import check_folder, write_atomic
from exactmines.position import Position
from exactmines.stats import wilson_interval
from exactmines.ui.report import plural

__all__ = [
    "IMAGE_SUFFIXES",
    "COLOURS",
    "BoardLayout",
    "board_layout",
    "check_image_path",
    "draw_analysis",
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
_LEFT, _RIGHT, _TOP, _BOTTOM = 0.6, 1.1, 0.75, 0.55  # inches around the board
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
    import numpy as np
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize, to_rgba
    from matplotlib.patches import Patch

    position = result.position
    width, height = position.width, position.height
    layout = board_layout(width, height, dpi)
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
                kind, text = ("zero", "") if ch == "0" else ("revealed", ch)
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
            if text and layout.text:
                if kind == "revealed":
                    ink = _NUMBER_COLOURS.get(text, "black")
                else:
                    ink = "white" if _luminance(tuple(image[r, c])) < 0.5 else "black"
                labels.append((r, c, text, ink))

    figure = figure_class(figsize=(layout.figure_width, layout.figure_height), dpi=dpi)
    fw, fh = layout.figure_width, layout.figure_height
    board_w, board_h = width * layout.cell, height * layout.cell
    # Board marks (numbers, F, S, M) bold; percentages lighter, so the board reads first.
    _board_axes(figure, layout, image, [(r, c, text, ink, text.isdigit() and (r, c) in by_cell)
                                        for r, c, text, ink in labels])

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
    columns = len(handles) if board_w >= 7 else 3
    figure.legend(handles=handles, loc="lower left", ncol=columns, fontsize=7,
                  frameon=False, bbox_to_anchor=(layout.left / fw, 0.04 / fh))
    figure.text(layout.left / fw, 1 - 0.12 / fh, title or _title(result, file), fontsize=9,
                va="top", ha="left")
    _save(figure, target, dpi)
    return layout


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


def _title(result: Analysis, file: str | None) -> str:
    position = result.position
    mines = "unknown mines" if position.mines is None else plural(position.mines, "mine")
    head = f"{file + ': ' if file else ''}{position.width}x{position.height}, {mines}"
    if result.consistent is False:
        return f"{head}\ninconsistent: no layout of mines fits this position"
    layouts = "not counted" if result.layouts is None else _big(result.layouts)
    return (f"{head}, layouts {layouts}{', unique' if result.unique else ''}\n"
            f"{len(result.safe)} certainly safe, {len(result.mines)} certain mines, "
            f"{sum(c.verdict == 'unknown' for c in result.cells)} unknown")


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
    covered = f"{len(cells)} covered cells next to a number, {len(outside)} away from them"
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
    _bars(paths[4], f"5. combination: {left} mines left, {off} cells off the frontier; "
                    f"{sum(weights):,} layouts in all",
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
