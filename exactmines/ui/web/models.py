"""The shapes of the HTTP API's request bodies (pydantic models: FastAPI validates each
request against them, and the OpenAPI schema describes them)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from exactmines.analysis.backends import backend_names

__all__ = ["PageTopology", "AnalyzeRequest", "ImportRequest", "ReplayRequest",
           "ExportRequest", "NewGameRequest", "CellRequest"]


# -- request bodies ---------------------------------------------------------------------


#: The topologies the page draws (a ``.mine`` header's word).
PageTopology = Literal["square", "torus", "hex"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AnalyzeRequest(_Body):
    """A position as ``.mine`` text, or as a grid of rows (``.mine`` characters) with an
    optional total mine count."""

    text: str | None = Field(None, description=".mine text (header and rows)")
    grid: list[str] | None = Field(None, description="rows of 0-8, H, F, M or ?")
    mines: int | None = Field(None, description="total mines (flags included), with grid")
    backend: str = Field("auto", description="engine: " + ", ".join(backend_names()))
    time_limit: float | None = Field(None, description="seconds (default 5, capped)")
    flagged: list[tuple[int, int]] = Field(
        [], description="overlay only: [row, col] of cells a player flagged in a game (covered "
                        "in grid, not trusted): drawn as flags, never recommended")
    grouped: bool = Field(False, description="overlay only: the analysis's cells as "
                                             "cell_groups (flat indices by value) instead of "
                                             "one object per cell")
    topology: PageTopology = Field("square", description="with grid: the board's topology "
                                                        "(.mine text names its own)")


class ImportRequest(_Body):
    """An uploaded file (base64 ``data`` with its ``name``) or pasted ``text``."""

    name: str = ""
    data: str | None = None
    text: str | None = None


class ReplayRequest(_Body):
    """A recorded game: the file's ``name`` (its ending says the format: .avf, .rmv, .evf,
    .mvf) and its bytes in base64 ``data``."""

    name: str
    data: str
    trust_flags: bool = False
    time_limit: float | None = Field(None, description="seconds (default 5, capped)")


class ExportRequest(_Body):
    text: str
    to: Literal["mine", "mbf", "xo", "link"]


class NewGameRequest(_Body):
    width: int = 9
    height: int = 9
    mines: int = 10
    topology: PageTopology = Field("square", description="the board's topology")
    rule: str = "safe"
    seed: int | None = Field(None, ge=0, description="at least 0; random when not given")
    noguess: bool = False
    board: str | None = Field(None, description=".mine text of a board (mines marked M)")


class CellRequest(_Body):
    row: int
    col: int
