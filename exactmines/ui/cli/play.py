"""``survey`` and ``play``: many random boards, checked or played, with progress and
--resume."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from exactmines.errors import InputError
from exactmines.ui.cli.common import (
    _cell_on,
    _check_long_job,
    _emit_json,
    _interrupted,
    _topology_of,
    app,
)
from exactmines.ui.cli.options import (
    FormatOption,
    GraphOption,
    HeightOption,
    LayersOption,
    NoCountOption,
    QuietOption,
    SchedulerOption,
    TextOrJson,
    TopologyOption,
    WidthOption,
    WorkersOption,
)


@app.command("survey")
def survey_command(
    mines: Annotated[int, typer.Option(help="Mines per board.", show_default=False)],
    boards: Annotated[int, typer.Option(help="How many boards.", show_default=False)],
    start: Annotated[str, typer.Option(
        help="First-click rule: random-zero, safe or opening.", show_default=False)],
    seed: Annotated[int, typer.Option(help="Run seed (board i gets its own seed from it).",
                                      show_default=False)],
    width: WidthOption = None,
    height: HeightOption = None,
    at: Annotated[Optional[str], typer.Option(
        "--at", help="First click ROW,COL for safe and opening (LAYER,ROW,COL on a cube, "
                     "a node's name on a graph).")] = None,
    topology: TopologyOption = "square",
    layers: LayersOption = 1,
    graph: GraphOption = None,
    no_count: NoCountOption = False,
    deal: Annotated[str, typer.Option(
        help="random (uniform under the first-click rule) or noguess (from the no-guess "
             "generator: every board must be solvable).")] = "random",
    workers: WorkersOption = 1,
    out: Annotated[Optional[Path], typer.Option(
        help="JSONL file: one row per board (seed, mines, first click, verdict), written as "
             "it goes.")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the run in --out, skipping boards already there.")] = False,
    scheduler: SchedulerOption = None,
    plot: Annotated[Optional[Path], typer.Option(
        "--plot", help="Also draw the solvable share with its 95 % interval: .png, .svg or "
                       ".pdf (needs the plot extra).")] = None,
    quiet: QuietOption = False,
    output: FormatOption = TextOrJson.text,
) -> None:
    """What share of random boards can be cleared without guessing?

    Example: exactmines survey --width 8 --height 8 --mines 13 --boards 10000
    --start random-zero --seed 1 --workers 2
    """
    from exactmines.solvability.survey import SurveySettings, run_survey
    from exactmines.ui.report import shape_text, survey_to_text

    _check_long_job(out, resume, workers, plot)
    spec, width, height, shape = _topology_of(topology, width, height, layers, graph)
    settings = SurveySettings(width, height, mines, start,
                              None if at is None else _cell_on(at, shape), seed, not no_count,
                              spec, deal)
    with _interrupted("boards", out):
        result = run_survey(settings, boards, out=None if out is None else str(out),
                            resume=resume, workers=workers, scheduler=scheduler,
                            progress=not quiet)
    summary = result.to_dict()
    if out is not None:
        summary["out"] = str(out)
    rule = start + ("" if at is None else f" at {at}")
    if plot is not None:
        from exactmines.ui.pictures import plot_rates

        rows = [{"label": f"{rule}, seed {seed}", "successes": result.solvable,
                 "trials": result.boards}]
        plot_rates(rows, plot, title=f"{shape_text(shape)}/{mines}: solvable without guessing"
                   + (", without the mine count" if no_count else ""),
                   xlabel="boards solvable", option="--plot")
    if output is TextOrJson.json:
        _emit_json(summary)
        return
    typer.echo(survey_to_text(result, None if out is None else str(out)))
    if plot is not None:
        typer.echo(f"picture written to {plot}")


@app.command("play")
def play_command(
    mines: Annotated[int, typer.Option(help="Mines per board.", show_default=False)],
    games: Annotated[int, typer.Option(help="How many games.", show_default=False)],
    start: Annotated[str, typer.Option(
        help="First-click rule: safe (SFAR), opening (SNR: no mine around it) or "
             "unprotected.", show_default=False)],
    at: Annotated[str, typer.Option("--at", help="First click ROW,COL (0-based; "
                                                 "LAYER,ROW,COL on a cube, a node's name "
                                                 "on a graph).", show_default=False)],
    seed: Annotated[int, typer.Option(help="Run seed (game i gets its own board seed from "
                                           "it).", show_default=False)],
    width: WidthOption = None,
    height: HeightOption = None,
    topology: TopologyOption = "square",
    layers: LayersOption = 1,
    graph: GraphOption = None,

    strategy: Annotated[str, typer.Option(
        help="best (every part) or safest (the safest cell, nothing else).")] = "best",
    without: Annotated[Optional[list[str]], typer.Option(
        "--without", metavar="PART", help="Switch a part of the strategy off (repeatable): "
                                          "secondary, dead, fifty, openings, endgame, risk.",
        show_default=False)] = None,
    tune: Annotated[Optional[list[str]], typer.Option(
        "--set", metavar="NAME=VALUE", help="Set a parameter of the strategy (repeatable): "
        "candidate_ratio, progress, risk_weight (fractions such as 9/10), endgame_layouts, "
        "endgame_nodes (whole numbers).", show_default=False)] = None,
    deal: Annotated[Optional[str], typer.Option(
        help="random (uniform under the first-click rule; the default) or noguess (boards "
             "cleared without guessing from the first click: a perfect player wins them "
             "all), as survey's --deal.")] = None,
    boards: Annotated[str, typer.Option(
        help="The older name of --deal.")] = "random",
    workers: WorkersOption = 1,
    out: Annotated[Optional[Path], typer.Option(
        help="JSONL file: one row per game (board seed, won, guesses, CPU ms), written as "
             "it goes.")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the run in --out, skipping games already there.")] = False,
    scheduler: SchedulerOption = None,
    plot: Annotated[Optional[Path], typer.Option(
        "--plot", help="Also draw the win rate with its 95 % interval next to the published "
                       "figure for these rules: .png, .svg or .pdf (needs the plot extra).")]
    = None,
    record: Annotated[Optional[Path], typer.Option(
        "--record", metavar="DIR", help="Also write every game there as a Metasweeper "
                                        "replay (.evf, through ms_toollib: needs the replay "
                                        "extra); the folder is made, in a folder that "
                                        "exists.")] = None,
    quiet: QuietOption = False,
    output: FormatOption = TextOrJson.text,
) -> None:
    """Play whole games with the exact strategy and report the win rate.

    Deterministic: the same seed deals the same boards and the player uses no randomness,
    whatever --workers is.

    Example: exactmines play --width 30 --height 16 --mines 99 --games 1000 --start safe
    --at 0,0 --seed 1 --workers 2 --out expert.jsonl
    """
    from exactmines.play.games import PlaySettings, run_play
    from exactmines.ui.report import play_summary, play_to_text, shape_text

    _check_long_job(out, resume, workers, plot)
    if record is not None:
        from exactmines.io.files import check_folder

        if record.exists() and not record.is_dir():
            raise InputError(f"--record {record}: exists and is not a directory",
                             source="command line")
        check_folder(record)  # the folder DIR is made in, before the work
    if deal is not None and boards not in ("random", deal):
        raise InputError(f"--deal {deal} and --boards {boards}: give one (--boards is the "
                         "older name of --deal)", source="command line")
    boards = boards if deal is None else deal
    spec, width, height, shape = _topology_of(topology, width, height, layers, graph)
    settings = PlaySettings(width, height, mines, start, _cell_on(at, shape), seed, strategy,
                            tuple(without or ()), tuple(tune or ()), spec, boards)
    with _interrupted("games", out):
        result = run_play(settings, games, out=None if out is None else str(out),
                          resume=resume, workers=workers, scheduler=scheduler,
                          progress=not quiet, record=None if record is None else str(record))
    summary = play_summary(result, None if out is None else str(out))
    if plot is not None:
        from exactmines.ui.pictures import plot_rates

        published = summary["published"]
        rows = [{"label": f"{summary['strategy']}, seed {seed}", "successes": result.wins,
                 "trials": result.games,
                 "reference": None if published is None else published["win_rate"]}]
        plot_rates(rows, plot, title=f"{shape_text(shape)}/{mines}, {start} at {at}: win rate"
                   + ("" if published is None else f" (diamond: {published['source']})"),
                   xlabel="games won", option="--plot")
    if output is TextOrJson.json:
        _emit_json(summary)
        return
    typer.echo(play_to_text(summary))
    if plot is not None:
        typer.echo(f"picture written to {plot}")
