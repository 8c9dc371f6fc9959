"""``solvable``: can a board be cleared from a first click without guessing?"""

from pathlib import Path
from typing import Annotated, Optional

import typer

from exactmines.analysis.engine_names import backend_names
from exactmines.errors import InputError
from exactmines.ui.cli.common import _cell_on, _emit_json, app
from exactmines.ui.cli.options import FormatOption, NoCountOption, TextOrJson


@app.command("solvable")
def solvable_command(
    board: Annotated[str, typer.Argument(
        help="Hidden board: .mine with mines marked M, x/o text, .mbf, or a JSMinesweeper "
             "link (...?b=...&m=..., quoted).", show_default=False)],
    at: Annotated[Optional[str], typer.Option(
        "--at", help="First click ROW,COL (0-based) [default: the first click the file's "
                     "header names, as generate writes it].", show_default=False)] = None,
    no_count: NoCountOption = False,
    stuck: Annotated[Optional[Path], typer.Option(
        "--stuck", help="When not solvable, write the position where deduction stops "
                        "(.mine).")] = None,
    backend: Annotated[str, typer.Option(
        help=f"Engine for components too big to enumerate: "
             f"{', '.join(backend_names())}.")] = "auto",
    output: FormatOption = TextOrJson.text,
) -> None:
    """Can the board be cleared from a first click by certain deductions alone?

    Complete: it fails only where no sound reasoning (numbers and, unless --no-count, the
    total mine count) proves any covered cell safe or a mine.

    Example: exactmines solvable board.mine --at 3,3 --format json
    """
    from exactmines.analysis.backends import get_backend
    from exactmines.io.files import check_folder, is_link, read_board_and_click, write_position
    from exactmines.solvability.check import solvable

    if stuck is not None:
        check_folder(stuck)
    engine = get_backend(backend)
    hidden, noted = read_board_and_click(board)
    given = None if at is None else _cell_on(at, hidden.topology)
    cell = given or noted
    if cell is None:
        named = "a link names none" if is_link(board) else "the file's header names none"
        raise InputError(f"--at: give the first click ROW,COL ({named})", source=str(board))
    result = solvable(hidden, cell, use_count=not no_count, backend=engine)
    if stuck is not None and result.stuck is not None:
        write_position(stuck, result.stuck,
                       comments=(f"stuck: {board} from first click {cell[0]},{cell[1]}",))
    if output is TextOrJson.json:
        from exactmines.analysis.serialize import shape_to_dict

        answer = result.to_dict()
        if not hidden.topology.is_square:
            answer["at"] = list(hidden.topology.coordinates(cell))
        _emit_json({"file": str(board), **shape_to_dict(hidden.topology),
                    "mines": hidden.mines, "use_count": not no_count, **answer})
        return
    from exactmines.ui.report import solvable_to_text

    written = None if stuck is None or result.stuck is None else str(stuck)
    typer.echo(solvable_to_text(result, str(board), hidden, cell, not no_count, written))
