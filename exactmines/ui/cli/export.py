"""``export``, ``convert`` and ``instances``: positions and boards written in other
formats, and the shipped ones found."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from exactmines.analysis.engine_names import backend_names
from exactmines.errors import InputError
from exactmines.ui.cli.common import _emit_json, app, read_position
from exactmines.ui.cli.options import FormatOption, TextOrJson
from exactmines.words import plural


@app.command("export")
def export_command(
    position_file: Annotated[str, typer.Argument(
        metavar="POSITION", help="A position file (.mine), or a JSMinesweeper link "
                                 "(quoted): the board before its first click.",
        show_default=False)],
    to: Annotated[str, typer.Option(
        "--to", help="cnf (DIMACS, projected model counting), opb (pseudo-Boolean), lp or "
                     "mps (the MILP, written by PuLP).", show_default=False)],
    out: Annotated[Path, typer.Option(
        help="The file to write; its ground truth goes to OUT.json.", show_default=False)],
    no_count: Annotated[bool, typer.Option(
        "--no-count", help="Leave the total mine count out (of the file and its "
                           "answer).")] = False,
    backend: Annotated[str, typer.Option(
        help=f"Engine of the ground truth: {', '.join(backend_names())}.")] = "auto",
    time_limit: Annotated[float, typer.Option(
        "--time-limit", help="Seconds for the ground truth's analysis, as in "
                             "analyze.")] = 30.0,
    output: FormatOption = TextOrJson.text,
) -> None:
    """Write a position as an instance for other solvers, with its exact answer in OUT.json.

    Example: exactmines export instances/reference-9x9.mine --to cnf --out reference.cnf
    """
    from exactmines.analysis.backends import get_backend
    from exactmines.analysis.export import write_export
    from exactmines.analysis.serialize import decimal
    from exactmines.budget import Budget
    from exactmines.io.files import check_folder
    from exactmines.ui.report import grouped

    engine = get_backend(backend)
    check_folder(out)  # before the work, which may take the whole time limit
    Budget.seconds(time_limit)  # a limit of 0, or below, is refused before any work
    position = read_position(position_file)
    exported = write_export(out, position, to, count=not no_count, backend=engine,
                            budget=Budget.seconds(time_limit), source=str(position_file))
    models = None if exported.models is None else decimal(exported.models)
    summary = {"in": str(position_file), "out": str(out), "json": f"{out}.json",
               "format": exported.format, "variables": len(exported.cells),
               "count_in_file": exported.count_in_file, "models": models,
               "consistent": exported.analysis.consistent}
    if output is TextOrJson.json:
        _emit_json(summary)
        return
    count = "with the total mine count" if exported.count_in_file else "no total mine count"
    shown = "not counted" if exported.models is None else grouped(exported.models)
    typer.echo(f"{position_file} -> {out} ({exported.format}, "
               f"{plural(len(exported.cells), 'cell variable')}, {count}); models: {shown}; "
               f"ground truth in {out}.json")


@app.command("convert")
def convert_command(
    source: Annotated[str, typer.Argument(
        metavar="IN", help="A board: .mine with every mine marked M, .mbf, x/o text, a "
                           "graph file, or a JSMinesweeper link (...?b=...&m=..., quote it).",
        show_default=False)],
    target: Annotated[Optional[Path], typer.Argument(
        metavar="OUT", help="Where to write: .mine, .mbf, .txt (x/o text), .json, .graphml "
                              "or .edges (a graph), chosen by the extension. Without it, "
                              "only the summary and link are printed.",
        show_default=False)] = None,
    output: FormatOption = TextOrJson.text,
) -> None:
    """Convert a hidden board between .mine, .mbf, x/o text, JSMinesweeper links and graph
    files (.json node-link, .graphml, .edges: any board, a grid's as its graph).

    Also prints the board's JSMinesweeper link (b= size, m= mines), which opens it in
    JSMinesweeper (square boards only).

    Example: exactmines convert board.mbf board.mine

    Example: exactmines convert 'https://.../index.html?b=32&m=8g' board.txt
    """
    from exactmines.io.files import check_folder, read_board_or_link, write_atomic
    from exactmines.io.graphs import GRAPH_SUFFIXES, grid_of_graph
    from exactmines.io.registry import format_for_writing
    from exactmines.io.urls import board_to_jsm_url
    from exactmines.ui.report import shape_text

    kind = None if target is None else format_for_writing(str(target), "target")
    if target is not None:
        check_folder(target)
    board = read_board_or_link(source, "IN")
    if board.topology.kind == "graph" and kind is not None and kind.name not in GRAPH_SUFFIXES:
        # A grid written as a graph comes back as the grid; any other graph has no rows.
        grid = grid_of_graph(board)
        if grid is None:
            raise InputError(f"a graph that is not a grid (nodes named r,c, joined as a grid's "
                             f"cells) has no rows for {kind.suffix}: save it as .json, "
                             ".graphml or .edges", source=source)
        board = grid
    if target is not None and kind is not None:
        write_atomic(target, kind.encode_board(board, str(target),
                                               [f"converted from {source}"]))
    from exactmines.analysis.serialize import shape_to_dict

    # (JSMinesweeper plays the square grid only.)
    link = board_to_jsm_url(board) if board.topology.is_square else None
    summary = {"in": source, "out": None if target is None else str(target),
               **shape_to_dict(board.topology), "mines": board.mines,
               "jsminesweeper": link}
    if output is TextOrJson.json:
        _emit_json(summary)
        return
    written = f" -> {target}" if target is not None else ""
    typer.echo(f"{source}{written}: {shape_text(board.topology)}, "
               f"{plural(board.mines, 'mine')}")
    if link is not None:
        typer.echo(f"JSMinesweeper: {link}")


@app.command("instances")
def instances_command(
    name: Annotated[Optional[str], typer.Argument(
        metavar="NAME", help="One instance (reference-9x9 or reference-9x9.mine): print its "
                             "path. Without it, list them all.", show_default=False)] = None,
    output: FormatOption = TextOrJson.text,
) -> None:
    """The positions and boards shipped inside the package, and where they are.

    Example: exactmines instances

    Example: exactmines analyze "$(exactmines instances reference-9x9)" --backend sat
    """
    from exactmines.io.shipped import FOLDER, instance_names, instance_path

    if name is not None:
        path = instance_path(name)
        if output is TextOrJson.json:
            _emit_json({"name": path.name, "path": str(path)})
        else:
            typer.echo(str(path))
        return
    names = instance_names()
    if output is TextOrJson.json:
        _emit_json({"folder": str(FOLDER), "instances": names})
        return
    typer.echo(f"{plural(len(names), 'instance')} in {FOLDER} (its README.md says what "
               f"each is for):")
    for shipped in names:
        typer.echo(f"  {shipped}")
