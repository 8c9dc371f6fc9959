"""Option declarations and choices that several commands share."""

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Optional

import typer


class OutputFormat(StrEnum):
    text = "text"
    json = "json"
    jsonl = "jsonl"


class TextOrJson(StrEnum):
    text = "text"
    json = "json"


#: The board options of survey and play (generate's say which of its kinds take them).
TopologyOption = Annotated[str, typer.Option(
    "--topology", help="Board topology: square, torus, hex, triangle, cube (with --layers), "
                       "knight, offsets:DR,DC;DR,DC;... or graph (with --graph).")]
LayersOption = Annotated[int, typer.Option(help="cube: number of layers.")]
GraphOption = Annotated[Optional[Path], typer.Option(
    help="A graph file (node-link JSON, GraphML or .edges) whose graph the boards are dealt "
         "on; --width and --height are then not needed.")]
