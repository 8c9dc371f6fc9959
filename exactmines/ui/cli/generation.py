"""``generate``: instances written with their ground truth."""

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
import typer.core

from exactmines.errors import InputError
from exactmines.ui.cli.common import (
    _cell_on,
    _check_long_job,
    _emit_json,
    _interrupted,
    _parse_cell,
    _topology_of,
    app,
)
from exactmines.ui.cli.options import FormatOption, TextOrJson, WorkersOption
from exactmines.words import plural


class GenerateKind(StrEnum):
    sat = "sat"
    position = "position"
    noguess = "noguess"
    lattice = "lattice"
    sparse = "sparse"
    dense = "dense"


#: Which kinds read which of generate's options (by parameter name): its help lists them
#: in a section per group of kinds. An option not named here is read by every kind.
KIND_OPTIONS = {
    "every kind but sat": ("width", "height", "mines"),
    "sat": ("cnf", "variables", "clauses"),
    "position, noguess and dense": ("start", "at"),
    "position and noguess": ("topology", "layers", "graph"),
    "position": ("progress",),
    "noguess": ("method", "attempts", "no_count", "chain_steps", "resume", "quiet",
                "workers"),
    "lattice": ("step",),
    "sparse": ("share",),
}


class GenerateHelp(typer.core.TyperCommand):
    """generate's help: its options in sections, those every kind reads first, then those
    of each kind (:data:`KIND_OPTIONS`)."""

    def format_options(self, ctx: Any, formatter: Any) -> None:
        kinds_of = {name: kinds for kinds, names in KIND_OPTIONS.items() for name in names}
        every = "Options (every kind)"
        sections: dict[str, list[tuple[str, str]]] = {"Arguments": [], every: []}
        sections.update((f"Options of {kinds}", []) for kinds in KIND_OPTIONS)
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                sections["Arguments"].append(record)
            else:
                kinds = kinds_of.get(param.name or "")
                sections[every if kinds is None else f"Options of {kinds}"].append(record)
        for title, records in sections.items():
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)


@app.command("generate", cls=GenerateHelp)
def generate_command(
    kind: Annotated[GenerateKind, typer.Argument(
        help="sat (a CNF compiled to a position: layouts = models), position (a random "
             "mid-game position), noguess (a board solvable without guessing), or a "
             "benchmark family: lattice (every safe cell of a lattice clicked), sparse "
             "(random safe cells revealed, no flooding) or dense (every position of "
             "mid-games played with safe moves only).",
        show_default=False)],
    out: Annotated[Path, typer.Option(
        help="Directory for the .mine and .json files (made if missing).",
        show_default=False)],
    cnf: Annotated[Optional[Path], typer.Option(help="sat: a DIMACS CNF file.")] = None,
    variables: Annotated[Optional[int], typer.Option(help="sat: random 3-SAT variables.")]
    = None,
    clauses: Annotated[Optional[int], typer.Option(help="sat: random 3-SAT clauses.")] = None,
    seed: Annotated[Optional[int], typer.Option(
        help="Run seed (instance i gets its own seed from it); lattice/sparse/dense: "
             "default 0.")] = None,
    width: Annotated[Optional[int], typer.Option(
        help="Board width (lattice/dense default 30, sparse 50).")] = None,
    height: Annotated[Optional[int], typer.Option(
        help="Board height (lattice/dense default 16, sparse 50).")] = None,
    mines: Annotated[Optional[int], typer.Option(
        help="Mines (lattice/dense default 99, sparse 500).")] = None,
    count: Annotated[int, typer.Option(
        help="How many instances (dense: games, each giving every position met).")] = 1,
    start: Annotated[str, typer.Option(
        help="position/noguess/dense: first-click rule (safe, opening; position also "
             "unprotected).")] = "opening",
    at: Annotated[Optional[str], typer.Option(
        "--at", help="position/noguess/dense: first click ROW,COL (default: the "
                     "centre).")] = None,
    step: Annotated[int, typer.Option(
        help="lattice: the cells of every STEP-th row and column are clicked (2: every "
             "4th cell).")] = 2,
    share: Annotated[float, typer.Option(
        help="sparse: share of the safe cells revealed.")] = 0.125,
    progress: Annotated[float, typer.Option(
        help="position: share of the safe cells revealed.")] = 0.5,
    method: Annotated[str, typer.Option(
        help="noguess: rejection (uniform), build (biased, any density), chain (a "
             "Markov chain from a built board: uniform in the limit), repair (biased, "
             "large boards) or auto.")]
    = "auto",
    attempts: Annotated[int, typer.Option(
        help="noguess: boards dealt by rejection before giving up (rejection) or "
             "building (auto: at most 25).")] = 2000,
    no_count: Annotated[bool, typer.Option(
        "--no-count", help="noguess: deduce without the total mine count.")] = False,
    chain_steps: Annotated[int, typer.Option(
        help="noguess --method chain: the chain's steps per board (one check each).")]
    = 1000,
    resume: Annotated[bool, typer.Option(
        "--resume", help="noguess: skip the boards of this seed already in --out (each "
                         "board is written as it is made).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="noguess: no progress.")]
    = False,
    workers: WorkersOption = 1,
    topology: Annotated[str, typer.Option(
        "--topology", help="position/noguess: the board's topology (square, torus, "
                           "cylinder, hex, triangle, cube with --layers, knight, "
                           "offsets:DR,DC;... or graph with --graph).")] = "square",
    layers: Annotated[int, typer.Option(help="position/noguess: a cube's layers.")] = 1,
    graph: Annotated[Optional[Path], typer.Option(
        help="position/noguess: a graph file whose graph the boards are dealt on.")] = None,
    output: FormatOption = TextOrJson.text,
) -> None:
    """Write instances with their ground truth: NAME.mine and NAME.json in --out.

    Example: exactmines generate sat --variables 20 --clauses 85 --seed 1 --out instances

    Example: exactmines generate sat --cnf formula.cnf --out instances

    Example: exactmines generate position --width 30 --height 16 --mines 99 --seed 1
    --count 5 --out instances

    Example: exactmines generate lattice --count 8 --out bench
    """
    from exactmines.generate import families
    from exactmines.generate.hardness import parse_dimacs
    from exactmines.generate.positions import (
        midgame_positions,
        noguess_boards,
        random_sat_instances,
        sat_instance,
    )
    from exactmines.io.files import read_text, source_name

    instances: list[Any]  # each kind's instances: .mine text and .json metadata
    finished: list[dict[str, Any]] = []  # noguess: the rows of the boards written so far

    def need(**given: Any) -> None:
        missing = [f"--{k.replace('_', '-')}" for k, v in given.items() if v is None]
        if missing:
            raise InputError(f"generate {kind.value} needs {' '.join(missing)}",
                             source="command line")

    if kind is GenerateKind.sat:
        if cnf is not None:
            if variables is not None or clauses is not None or count != 1:
                raise InputError("give --cnf FILE or --variables/--clauses/--seed [--count], "
                                 "not both", source="command line")
            source = source_name(cnf)
            formula = parse_dimacs(read_text(cnf), source)
            name = "stdin" if source != str(cnf) else cnf.stem
            instances = [sat_instance(formula, name, generator={"cnf": source})]
        else:
            need(variables=variables, clauses=clauses, seed=seed)
            assert variables is not None and clauses is not None and seed is not None
            instances = random_sat_instances(variables, clauses, seed, count)
    elif kind.value in families.FAMILIES:
        size = {"lattice": families.LATTICE_SIZE, "sparse": families.SPARSE_SIZE,
                "dense": families.DENSE_SIZE}[kind.value]
        w = size[0] if width is None else width
        h = size[1] if height is None else height
        m = size[2] if mines is None else mines
        run = 0 if seed is None else seed
        made: list[Any]
        if kind is GenerateKind.lattice:
            made = families.lattice_instances(run, count, width=w, height=h, mines=m, step=step)
        elif kind is GenerateKind.sparse:
            made = families.sparse_instances(run, count, width=w, height=h, mines=m,
                                             share=share)
        else:
            made = families.dense_instances(run, count, width=w, height=h, mines=m,
                                            start=start,
                                            at=None if at is None else _parse_cell(at))
        instances = made
    else:
        if graph is None:
            need(width=width, height=height, mines=mines, seed=seed)
        need(mines=mines, seed=seed)
        assert mines is not None and seed is not None
        _, width, height, shape = _topology_of(topology, width, height, layers, graph)
        cell = None if at is None else _cell_on(at, shape)
        if kind is GenerateKind.position:
            instances = midgame_positions(width, height, mines, seed, count, start=start,
                                          at=cell, progress=progress, topology=shape)
        else:  # each board written as it is made: an interrupted run keeps them
            if out.exists() and not out.is_dir():
                raise InputError("exists and is not a directory", source=str(out))
            done: frozenset[int] = frozenset()
            if resume and out.is_dir():  # instance i's name ends in -iii before .json
                done = frozenset(int(p.stem.rsplit("-", 1)[1]) for p in out.glob(
                    f"noguess-*-seed{seed}-*.json") if p.stem.rsplit("-", 1)[1].isdigit())
            total = count - len(done & set(range(count)))

            def keep(instance: Any) -> None:
                finished.append(_generate_write(out, instance))
                if not quiet and count > 1:
                    sys.stderr.write(f"\r{len(finished)}/{plural(total, 'board')}")
                    sys.stderr.flush()

            settings: dict[str, Any] = dict(
                width=width, height=height, mines=mines, seed=seed, start=start, at=cell,
                method=method, use_count=not no_count, attempts=attempts, topology=shape,
                chain_steps=chain_steps)
            _check_long_job(None, False, workers, None)
            with _interrupted("boards", out):
                if workers > 1:  # the runner's processes; each board written as it comes
                    from functools import partial

                    from exactmines.generate.positions import noguess_rows
                    from exactmines.runner import run_batch

                    def keep_rows(rows: list[dict[str, Any]]) -> None:
                        for row in rows:
                            keep(row["instance"])

                    # bad input refused here, at once (no board is made)
                    noguess_boards(**settings, count=1, skip=frozenset([0]))
                    run_batch([{"id": i} for i in range(count) if i not in done],
                              partial(noguess_rows, settings), workers=workers,
                              chunk_size=1, progress=False,
                              on_rows=keep_rows)
                    finished.sort(key=lambda row: row["json"])
                else:
                    noguess_boards(**settings, count=count, skip=done, made=keep)
            if not quiet and count > 1 and finished:
                sys.stderr.write("\n")
            instances = []
    if out.exists() and not out.is_dir():
        raise InputError("exists and is not a directory", source=str(out))
    written: list[dict[str, Any]] = finished if kind is GenerateKind.noguess else []
    for instance in instances:
        written.append(_generate_write(out, instance))
    _generate_report(written, output)


def _generate_report(written: list[dict[str, Any]], output: "TextOrJson") -> None:
    """``generate``'s answer: the rows of the instances written."""
    if output is TextOrJson.json:
        _emit_json(written)
        return
    for row in written:
        detail = ""
        if "size" in row:
            size = row["size"]
            models = "unknown" if row["model_count"] is None else row["model_count"]
            detail = (f": {size['width']}x{size['height']}, "
                      f"{plural(size['covered'], 'covered cell')}, "
                      f"{plural(size['mines'], 'mine')}; layouts = models = {models}")
        elif "method" in row:
            detail = f": {row['method']}"
        elif "layouts" in row:
            layouts = row["layouts"]
            if layouts is None:
                layouts = "not counted"
            elif len(layouts) > 15:
                layouts = f"{layouts[0]}.{layouts[1:3]}e{len(layouts) - 1}"
            detail = f": layouts = {layouts}"
        typer.echo(f"{row['mine']}{detail}")


def _generate_write(out: Path, instance: Any) -> dict[str, Any]:
    """Write one instance's files into ``out`` (made with its parents); its row of
    ``generate``'s answer."""
    from exactmines.io.files import interrupts_deferred, write_atomic

    mine_path = out / f"{instance.name}{instance.suffix}"
    json_path = out / f"{instance.name}.json"
    text, json_text = instance.text, instance.json_text()
    with interrupts_deferred():  # the pair whole: Ctrl-C between them left a lone .mine
        write_atomic(mine_path, text, make_folders=True)  # --out names the folder
        write_atomic(json_path, json_text)
    row: dict[str, Any] = {"mine": str(mine_path), "json": str(json_path)}
    row.update((k, instance.metadata[k]) for k in ("kind", "model_count", "size", "method")
               if k in instance.metadata)
    if "expected" in instance.metadata:
        row["layouts"] = instance.metadata["expected"]["layouts"]
    return row
