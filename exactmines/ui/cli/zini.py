"""``zini``: the fewest clicks that clear a known board."""

from typing import Annotated, Optional

import typer

from exactmines.ui.cli.common import _cell_on, _emit_json, app
from exactmines.ui.cli.options import FormatOption, TextOrJson


@app.command("zini")
def zini_command(
    # str, not Path: a link's "//" stays as given (Path would make it "/").
    board: Annotated[str, typer.Argument(
        help="Board with every mine known: .mbf, x/o text, .mine with mines marked M, a "
             "JSMinesweeper link (...?b=...&m=..., quoted) or a recorded game (.avf, .rmv, "
             ".evf, .mvf).", show_default=False)],
    start: Annotated[Optional[str], typer.Option(
        "--start", help="First click ROW,COL (0-based), or 'free' for none [default: the "
                        "first click the file's header names, else none].",
        show_default=False)] = None,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", help="Seconds; when they run out, the best sequence found and a "
                             "proved lower bound (inf: no limit).")] = 60.0,
    output: FormatOption = TextOrJson.text,
) -> None:
    """The fewest clicks (left clicks, flags, chords) that clear a board: the exact ZiNi,
    with a click sequence that reaches it and a proof that none is shorter.

    Example: exactmines zini board.mbf --format json
    """
    from exactmines.budget import Budget
    from exactmines.efficiency.zini import fewest_clicks
    from exactmines.io.files import read_board_and_click, read_replay
    from exactmines.io.replays import replay_kind

    budget = Budget.seconds(time_limit)
    if replay_kind(str(board)) is not None:
        hidden, noted = read_replay(board, budget=budget).board, None
    else:
        hidden, noted = read_board_and_click(board)
    if start is None:
        first = noted
    elif start.strip().lower() == "free":
        first = None
    else:
        first = _cell_on(start, hidden.topology, "--start")
    answer = fewest_clicks(hidden, first, budget=budget)
    if output is TextOrJson.json:
        _emit_json({"file": str(board), **answer.to_dict()})
        return
    from exactmines.ui.report import zini_to_text

    typer.echo(zini_to_text(answer, str(board)))
