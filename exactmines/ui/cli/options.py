"""Option declarations and choices that several commands share."""

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Optional

import typer

from exactmines.analysis.engine_names import backend_names


class OutputFormat(StrEnum):
    text = "text"
    json = "json"
    jsonl = "jsonl"


class TextOrJson(StrEnum):
    text = "text"
    json = "json"


#: The board options of survey and play (generate's say which of its kinds take them).
TopologyOption = Annotated[str, typer.Option(
    "--topology", help="Board topology: square, torus, cylinder, hex, triangle, cube (with "
                       "--layers), knight, offsets:DR,DC;DR,DC;... or graph (with --graph).")]
LayersOption = Annotated[int, typer.Option(help="cube: number of layers.")]
GraphOption = Annotated[Optional[Path], typer.Option(
    help="A graph file (node-link JSON, GraphML or .edges) whose graph the boards are dealt "
         "on; --width and --height are then not needed.")]


#: The options below mean the same in every command that takes them.
FormatOption = Annotated[TextOrJson, typer.Option("--format", help="text or json.")]
EngineOption = Annotated[str, typer.Option(help=f"Engine: {', '.join(backend_names())}.")]
NoCountOption = Annotated[bool, typer.Option(
    "--no-count", help="Deduce without the total mine count.")]
WidthOption = Annotated[Optional[int], typer.Option(help="Board width.", show_default=False)]
HeightOption = Annotated[Optional[int], typer.Option(
    help="Board height (a cube's: of each layer).", show_default=False)]
WorkersOption = Annotated[int, typer.Option(help="Local worker processes.")]
SchedulerOption = Annotated[Optional[str], typer.Option(
    help="Dask scheduler address (tcp://host:port) instead of local processes.")]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
