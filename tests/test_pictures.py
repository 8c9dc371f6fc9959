"""Pictures: right size, every cell painted with the colour of what is known about it."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from matplotlib import colormaps
from matplotlib.colors import to_rgba
from matplotlib.image import imread

from exactmines.analysis.analyze import analyze
from exactmines.analysis.frontier import build_frontier
from exactmines.errors import ExactminesError, InputError
from exactmines.io.files import read_position
from exactmines.io.shipped import instance_path
from exactmines.position import Board, Position
from exactmines.topology import named_topology
from exactmines.ui.pictures import (
    CMAP,
    COLOURS,
    STAGES,
    Rate,
    board_layout,
    draw_analysis,
    draw_stages,
    plot_rates,
)
from exactmines.ui.report import analysis_to_text

DATA = Path(__file__).parent / "data"
COLOUR_MAP = colormaps[CMAP]  # colormaps[...] copies the map on every lookup


def expected_colour(result, row, col):
    """What the picture promises for a cell (see draw_analysis's docstring)."""
    ch = result.position.rows[row][col]
    if ch == "F":
        return to_rgba(COLOURS["flag"])
    if ch == "0":
        return to_rgba(COLOURS["zero"])
    if ch in "12345678":
        return to_rgba(COLOURS["revealed"])
    cell = result.cell(row, col)
    if not result.consistent or cell.probability is None and cell.verdict == "unknown":
        return to_rgba(COLOURS["not computed"])
    if cell.verdict != "unknown":
        return to_rgba(COLOURS[cell.verdict])
    return COLOUR_MAP(float(cell.probability))


def assert_cells_painted(png, result, layout, inset=0.15):
    pixels = imread(png)
    assert pixels.shape[:2] == (layout.pixels[1], layout.pixels[0])
    for r in range(result.position.height):
        for c in range(result.position.width):
            # A corner inside the cell: away from the grid lines and the centred text.
            x, y = layout.pixel(r, c, inset, inset)
            got = pixels[y, x][:3]
            want = expected_colour(result, r, c)[:3]
            assert max(abs(a - b) for a, b in zip(got, want, strict=True)) < 0.02, (r, c)


@pytest.mark.parametrize("name", ["reference-9x9", "flags-and-count", "unknown-count",
                                  "inconsistent", "needs-count"])
def test_every_cell_has_the_colour_of_its_verdict(tmp_path, name):
    result = analyze(read_position(DATA / f"{name}.mine"), backend="brute")
    out = tmp_path / f"{name}.png"
    layout = draw_analysis(result, out, file=name)
    assert layout.text  # small boards carry numbers and marks
    assert_cells_painted(out, result, layout)


def test_the_reference_picture_shows_every_kind_of_cell(tmp_path):
    result = analyze(read_position(DATA / "reference-9x9.mine"))
    kinds = {expected_colour(result, r, c) for r in range(9) for c in range(9)}
    # revealed, zero, safe, mine, and more than one probability colour
    assert to_rgba(COLOURS["safe"]) in kinds and to_rgba(COLOURS["mine"]) in kinds
    assert len(kinds) >= 6


def test_expert_board_cells_are_big_enough_for_numbers():
    layout = board_layout(30, 16)
    assert layout.text and layout.cell * layout.dpi >= 30
    assert layout.pixels[0] < 2000


def test_a_200x200_board_is_drawn_cell_by_cell_without_text(tmp_path):
    # Mines everywhere but the top-left 5x5 block; the 3x3 corner is revealed.
    mines = frozenset((r, c) for r in range(200) for c in range(200)
                      if (r >= 5 or c >= 5) and (r * 7 + c * 13) % 10 == 0)
    board = Board(200, 200, mines)
    position = board.position({(r, c) for r in range(3) for c in range(3)})
    result = analyze(position)
    out = tmp_path / "big.png"
    layout = draw_analysis(result, out)
    assert not layout.text and layout.cell * layout.dpi >= 8
    assert_cells_painted(out, result, layout, inset=0.5)


def test_svg_and_pdf_by_extension(tmp_path):
    result = analyze(read_position(DATA / "flags-and-count.mine"))
    layout = draw_analysis(result, tmp_path / "p.svg")
    root = ET.parse(tmp_path / "p.svg").getroot()
    assert root.tag.endswith("svg")
    assert float(root.get("width").removesuffix("pt")) == pytest.approx(
        layout.figure_width * 72, abs=0.5)
    draw_analysis(result, tmp_path / "p.pdf")
    assert (tmp_path / "p.pdf").read_bytes().startswith(b"%PDF")


def test_unknown_picture_format_is_refused(tmp_path):
    result = analyze(read_position(DATA / "flags-and-count.mine"))
    with pytest.raises(InputError, match=r"\.png, \.svg, \.pdf"):
        draw_analysis(result, tmp_path / "p.gif")
    assert not (tmp_path / "p.gif").exists()


def test_missing_matplotlib_is_a_clear_error(tmp_path, monkeypatch):
    result = analyze(read_position(DATA / "flags-and-count.mine"))
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import now fails
    with pytest.raises(ExactminesError, match=r"pip install 'exactmines\[plot\]'"):
        draw_analysis(result, tmp_path / "p.png")
    with pytest.raises(ExactminesError, match="matplotlib"):
        plot_rates([Rate("a", 1, 2)], tmp_path / "r.png")


def colour_pixels(png, colour):
    pixels = imread(png)[:, :, :3]
    want = to_rgba(colour)[:3]
    close = abs(pixels - want).max(axis=2) < 0.02
    return int(close.sum())


def test_rates_plot_shows_points_intervals_and_references(tmp_path):
    rows = [Rate("9x9/10 SFAR corner", 917, 1000, reference=0.9172),
            {"label": "16x16/40 SFAR corner", "successes": 780, "trials": 1000},
            Rate("30x16/99 SFAR corner", 411, 1000, reference=0.4113)]
    out = tmp_path / "rates.png"
    plot_rates(rows, out, title="win rates", xlabel="games won")
    pixels = imread(out)
    assert pixels.shape[1] == 900 and pixels.shape[0] == round((1.3 + 0.42 * 3) * 100)
    assert colour_pixels(out, "#1f4e99") > 100  # measured points and their intervals
    assert colour_pixels(out, "#d95f02") > 10  # the reference diamonds

    plain = tmp_path / "plain.png"
    plot_rates([Rate("only", 5, 10)], plain)
    assert colour_pixels(plain, "#1f4e99") > 30
    assert colour_pixels(plain, "#d95f02") == 0


@pytest.mark.parametrize("row", [Rate("a", 3, 0), Rate("a", 4, 3), Rate("a", -1, 3)])
def test_rates_plot_refuses_impossible_counts(tmp_path, row):
    with pytest.raises(ValueError, match="successes <= trials"):
        plot_rates([row], tmp_path / "r.png")


def test_rates_plot_needs_rows_and_a_picture_name(tmp_path):
    with pytest.raises(ValueError, match="at least one row"):
        plot_rates([], tmp_path / "r.png")
    with pytest.raises(InputError, match="--plot r.txt"):
        plot_rates([Rate("a", 1, 2)], "r.txt")


# ------------------------------------------------------------------ the analysis's stages

def cell_colours(png, position):
    """The colour of a corner inside each cell (away from the grid lines and the text)."""
    pixels = imread(png)
    layout = board_layout(position.width, position.height)
    colours = {}
    for r in range(position.height):
        for c in range(position.width):
            x, y = layout.pixel(r, c, 0.15, 0.15)
            colours[(r, c)] = tuple(round(float(v), 2) for v in pixels[y, x][:3])
    return colours


def test_the_stages_colour_frontier_boxes_and_components_apart(tmp_path):
    position = read_position(instance_path("stages-8x6"))
    frontier = build_frontier(position)
    paths = draw_stages(position, tmp_path)
    assert [p.name for p in paths] == [f"stage-{i}-{name}.png"
                                       for i, name in enumerate(STAGES, 1)]
    assert all(p.stat().st_size > 0 for p in paths)
    boxes = [box for component in frontier.box_cells for box in component]
    frontier_cells = [cell for box in boxes for cell in box]

    colours = cell_colours(paths[0], position)
    on = {colours[c] for c in frontier_cells}
    off = {colours[c] for c in frontier.outside}
    assert len(on) == 1 and len(off) == 1 and on != off

    colours = cell_colours(paths[1], position)
    by_box = [{colours[c] for c in box} for box in boxes]
    assert all(len(shades) == 1 for shades in by_box)  # a box is one colour
    assert len(set().union(*by_box)) == len(boxes)  # and every box another
    assert not set().union(*by_box) & {colours[c] for c in frontier.outside}

    colours = cell_colours(paths[2], position)
    by_component = [{colours[c] for box in component for c in box}
                    for component in frontier.box_cells]
    assert [len(shades) for shades in by_component] == [1, 1]
    assert by_component[0] != by_component[1]

    result = analyze(position)
    assert_cells_painted(paths[5], result, board_layout(position.width, position.height))


def test_the_stages_need_a_total_count_and_a_frontier(tmp_path):
    with pytest.raises(InputError, match="total mine count"):
        draw_stages(Position(3, 2, None, ("1HH", "HHH")), tmp_path)
    with pytest.raises(InputError, match="total mine count"):
        draw_stages(Position(2, 1, 1, ("HH",)), tmp_path)
    with pytest.raises(InputError, match="file name must end"):
        draw_stages(Position(3, 2, 1, ("1HH", "HHH")), tmp_path, suffix=".gif")


def test_a_replay_picture_shows_the_board_before_its_riskiest_guess(tmp_path):
    from exactmines.io.files import read_replay
    from exactmines.replay.judge import analysis_before, judge_replay
    from exactmines.ui.pictures import draw_replay

    judged = judge_replay(read_replay(DATA / "replays" / "public" /
                                      "clone-expert-zhang-shen-jia.mvf"))
    out = tmp_path / "replay.png"
    layout = draw_replay(judged, out)
    riskiest = judged.riskiest
    assert riskiest is not None and riskiest.probability == 1 / 2
    assert_cells_painted(out, analysis_before(judged, riskiest), layout)
    # The clicked cell is framed.
    pixels = imread(out)
    r, c = riskiest.cell
    x, y = layout.pixel(r, c, 0.5, 0.08)
    assert max(abs(a - b) for a, b in zip(pixels[y, x][:3], to_rgba("#1f4fff")[:3],
                                         strict=True)) < 0.05


@pytest.mark.parametrize("name", ["reference-9x9", "position-30x16x99-seed1-000"])
def test_the_title_is_whole_in_the_picture(tmp_path, monkeypatch, name):
    # A long path cut the title at the picture's edge: "…/instances/reference-9x", with the
    # size, the mines and the layouts lost. Now only the path is shortened, from the left.
    import exactmines.ui.pictures as pictures

    saved = []
    monkeypatch.setattr(pictures, "_save", lambda figure, target, dpi: saved.append(figure))
    result = analyze(read_position(instance_path(f"{name}.mine")))
    long = "/a/very/long/folder/name/that/goes/on/" * 4 + f"instances/{name}.mine"
    draw_analysis(result, tmp_path / "x.png", file=long)
    (figure,) = saved
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(figure).get_renderer()
    title = figure.texts[-1]
    box = title.get_window_extent(renderer)
    assert box.x0 >= 0 and box.x1 <= figure.bbox.width and box.y1 <= figure.bbox.height
    lines = title.get_text().split("\n")
    assert lines[0].startswith("…") and lines[0].endswith(f"/instances/{name}.mine")
    assert lines[1] == (f"{result.position.width}x{result.position.height}, "
                        f"{result.position.mines} mines, layouts: {pictures._big(result.layouts)}, "
                        "not unique")
    # The title ends above the board and its column numbers.
    assert box.y0 > figure.axes[0].get_tightbbox(renderer).y1


@pytest.mark.parametrize(("word", "rows", "columns"), [("torus", True, True),
                                                         ("cylinder", False, True),
                                                         ("square", False, False)])
def test_the_edges_that_wrap_are_marked_and_only_they(tmp_path, word, rows, columns):
    import matplotlib

    result = analyze(Position(3, 3, 1, ("H1H", "111", "000"), named_topology(word, 3, 3)))
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # text kept as text
        draw_analysis(result, tmp_path / "wrap.svg")
    svg = (tmp_path / "wrap.svg").read_text()
    # The arrows saying which sides meet: left-right for wrapped columns, up-down for rows;
    # each wrapped pair of edges dashed.
    assert ("\u2194" in svg) == columns
    assert ("\u2195" in svg) == rows
    assert svg.count("stroke-dasharray") == 2 * (rows + columns)


def test_the_text_report_says_how_the_edges_wrap():
    result = analyze(Position(3, 3, 1, ("H1H", "111", "000"), named_topology("cylinder", 3, 3)))
    assert "; the left and right edges wrap around" in analysis_to_text(result)


def test_the_replay_picture_title_is_whole(tmp_path, monkeypatch):
    # The replay picture wrote its file's path whole: a long one ran off the picture.
    import exactmines.ui.pictures as pictures
    from exactmines.io.files import read_replay
    from exactmines.replay.judge import judge_replay

    saved = []
    monkeypatch.setattr(pictures, "_save", lambda figure, target, dpi: saved.append(figure))
    judged = judge_replay(read_replay(DATA / "replays" / "public" /
                                      "clone-expert-zhang-shen-jia.mvf"))
    long = "/a/very/long/folder/name/that/goes/on/" * 4 + "clone-expert-zhang-shen-jia.mvf"
    pictures.draw_replay(judged, tmp_path / "x.png", file=long)
    (figure,) = saved
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(figure).get_renderer()
    title = next(t for t in figure.texts if "clone-expert" in t.get_text())
    box = title.get_window_extent(renderer)
    assert box.x0 >= 0 and box.x1 <= figure.bbox.width
    lines = title.get_text().split("\n")
    assert lines[0].startswith("…") and lines[0].endswith("/clone-expert-zhang-shen-jia.mvf")
    assert "30x16, 99 mines" in lines[1]
