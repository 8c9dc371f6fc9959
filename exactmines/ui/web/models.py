"""The shapes of the HTTP API's request bodies (pydantic models: FastAPI validates each
request against them, and the OpenAPI schema describes them)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from exactmines.analysis.backends import backend_names
from exactmines.ui.web.games import NOGUESS_METHODS, PageTopology
from exactmines.ui.web.inputs import EXPORT_KINDS

__all__ = ["PageTopology", "TopologyReply", "AnalyzeRequest", "ImportRequest", "ReplayRequest",
           "ExportFormat", "ExportRequest", "NewGameRequest", "CellRequest", "AnalysisReply",
           "OverlayReply", "HealthReply", "ImportReply", "ExportReply", "ReplayReply",
           "GameReply"]


# -- request bodies ---------------------------------------------------------------------




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
    efficiency: bool = Field(False, description="a won game's efficiency too, with the "
                                                "fewest clicks' sequence (its time counted)")


#: The formats an export writes: every one of the format registry
#: (:data:`exactmines.io.registry.FORMATS`).
ExportFormat = Literal[tuple(EXPORT_KINDS)]  # type: ignore[valid-type]


class ExportRequest(_Body):
    text: str
    to: ExportFormat = Field(description="a format of the registry")  # type: ignore[valid-type]


class NewGameRequest(_Body):
    width: int = 9
    height: int = 9
    mines: int = 10
    topology: PageTopology = Field("square", description="the board's topology")
    rule: str = "safe"
    seed: int | None = Field(None, ge=0, description="at least 0; random when not given")
    noguess: bool = False
    noguess_method: Literal[NOGUESS_METHODS] = Field(  # type: ignore[valid-type]
        "auto", description="how a no-guess board is made (generate noguess --method)")
    board: str | None = Field(None, description=".mine text of a board (mines marked M)")


class CellRequest(_Body):
    row: int
    col: int


# -- replies -----------------------------------------------------------------------------
#
# What each route answers, for the OpenAPI schema: the bodies are JSON bytes made in a
# worker process (:mod:`exactmines.ui.web.bodies`) and sent as they are, never parsed
# again nor validated on the event loop (a 300x300 overlay is hundreds of KB). The tests
# validate real replies against these models, so that the schema says what is sent.

#: An exact fraction as Python's ``str(Fraction)`` writes it (``"0"``, ``"1"``, ``"3/17"``).
ExactFraction = Annotated[str, Field(description="an exact fraction: \"0\", \"1\", \"3/17\"")]

#: A cell of the page's boards: ``[row, col]``.
CellPair = tuple[int, int]


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CellAnswer(_Reply):
    """A covered cell's answer, named as its topology names it (``row``, ``col``; a cube's
    ``layer`` too; a graph node's ``id``)."""

    row: int | None = None
    col: int | None = None
    layer: int | None = None
    id: str | int | None = None
    probability: ExactFraction | None
    verdict: Literal["safe", "mine", "unknown"]


class CellGroup(_Reply):
    """The cells sharing one value (``"grouped": true``), as flat indices
    ``row * width + col``."""

    probability: ExactFraction | None
    verdict: Literal["safe", "mine", "unknown"]
    cells: list[int]


class TopologyReply(_Reply):
    """The board's topology as one object (every topology, the square grid too): the
    shape keys of ``analyze --format json`` together, with how its cells are drawn."""

    kind: str = Field(description="the topology's kind: square, torus, cylinder, hex, "
                                  "triangle, cube, knight, offsets or graph")
    word: str = Field(description="as a .mine header names it (square for the square grid; "
                                  "offsets with its offsets)")
    cell: Literal["square", "hex", "triangle", "cube", "node"] = Field(
        description="how a cell is drawn")
    wraps: tuple[bool, bool] = Field(description="[rows, columns]: which edges wrap around")
    width: int = Field(description="a graph's node count")
    height: int = Field(description="per layer on a cube; 1 on a graph")
    layers: int | None = Field(description="a cube's, else null")
    nodes: int | None = Field(description="a graph's, else null")


class AnalysisReply(_Reply):
    """The JSON of ``exactmines analyze --format json`` without ``"file"``, plus the
    topology as one object (``geometry``; docs/contract.md)."""

    width: int
    height: int
    topology: str | None = Field(None, description="another topology than the square grid "
                                                   "(its word; kept for existing clients: "
                                                   "geometry has it with the rest)")
    layers: int | None = Field(None, description="a cube's (height is then per layer); "
                                                 "also in geometry")
    nodes: int | None = Field(None, description="a graph's; also in geometry")
    geometry: TopologyReply = Field(description="the board's topology as one object")
    mines: int | None
    consistent: bool | None
    layouts: str | None = Field(description="a decimal string, null when not counted")
    unique: bool | None
    probabilities_computed: bool
    verdicts_complete: bool
    backend: str
    components: int | None
    frontier_cells: int | None
    largest_component: int | None
    safe: int
    mine: int
    notes: list[str]
    seconds: float
    dp_width: int | None = None
    dp_plan: str | None = None
    cells: list[CellAnswer] | None = Field(None, description="every covered cell, row-major "
                                                             "(not with grouped)")
    cell_groups: list[CellGroup] | None = Field(None, description="with grouped")


class FaultReply(_Reply):
    """Why the position is inconsistent: the clues (or the total, ``count``) at fault."""

    message: str
    clues: list[CellPair]
    count: bool


class RecommendationReply(_Reply):
    row: int
    col: int
    cells: list[CellPair]
    kind: Literal["certain", "first", "endgame", "fifty", "frontier", "off_frontier",
                  "unflagged"]
    reason: str
    probability: ExactFraction
    win: ExactFraction | None


class CandidateReply(_Reply):
    row: int
    col: int
    probability: ExactFraction
    progress: ExactFraction
    score: ExactFraction
    living: bool
    opening: ExactFraction
    win: ExactFraction | None
    chosen: bool
    considered: bool


class EndgameReply(_Reply):
    win: ExactFraction | None
    layouts: int | None
    whole: bool
    note: str | None


class OverlayReply(_Reply):
    """The analysis and what the page shows beside it (docs/http-api.md)."""

    analysis: AnalysisReply
    fault: FaultReply | None
    recommendation: RecommendationReply | None
    note: str | None
    candidates: list[CandidateReply]
    dead: list[CellPair]
    fifty_fifties: list[list[CellPair]]
    endgame: EndgameReply | None


class WorkersStatus(_Reply):
    workers: int
    busy: int
    waiting: int
    replaced: int
    rss: int | None
    max: int
    queue: int


class HealthReply(_Reply):
    status: Literal["ok"]
    version: str
    backends: list[str]
    time_limit: float
    max_time_limit: float
    max_body: int
    max_side: int
    max_cells: int
    max_position_side: int
    topologies: list[dict[str, Any]] = Field(
        description="the topologies the page offers: each one's word, title, how a cell is "
                    "drawn, which edges wrap and its neighbour steps")
    busy: int
    workers: WorkersStatus


class ImportReply(_Reply):
    text: str = Field(description=".mine text")
    kind: str = Field(description="the format read")


class ExportReply(_Reply):
    data: str
    encoding: Literal["text", "base64"]
    suffix: str = Field(description="the file's suffix (empty for a link)")


class ReplayMoment(_Reply):
    """An event of the game, with its ``excess`` or ``probability``."""

    index: int
    time: float | None
    excess: ExactFraction | None = None
    probability: ExactFraction | None = None


class ReplayFigures(_Reply):
    reader: str | None
    bbbv: int | None
    time: float | None
    bbbv_s: float | None
    left: int | None
    right: int | None
    double: int | None
    completed: bool | None


class ReplayEvent(_Reply):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    index: int
    time: float | None
    kind: str
    cell: CellPair
    opens: list[CellPair]
    judged: str | None = Field(alias="class")
    probability: ExactFraction | None
    safest: ExactFraction | None
    excess: ExactFraction | None
    safe_cells: int | None
    mine: bool
    note: str | None
    reason: str = Field("", description="\"50/50 taken early\", \"safe cell under a "
                                         "flag\" or empty (docs/contract.md)")


class ReplayEfficiency(_Reply):
    """A won game's clicks against the fewest that clear its board (``--efficiency``)."""

    clicks: int
    zini: int
    zini_lower_bound: int
    zini_optimal: bool
    efficiency: ExactFraction | None
    efficiency_bounds: list[ExactFraction] | None
    changed_nothing: int
    flags_unused: int
    wasted: int
    solver: str
    sequence: list[tuple[Literal["left", "flag", "chord"], int, int]] = Field(
        description="the fewest clicks found, in order: [kind, row, col]")


class ReplayReply(_Reply):
    """The JSON of ``exactmines replay --format json`` (no ``"file"``) plus what the page
    steps through: ``shown``, the rows before each event and after the game, and
    ``board_mines``."""

    format: str
    player: str | None
    software: str | None
    mode: str | None
    width: int
    height: int
    mines: int
    won: bool
    trust_flags: bool
    clicks: int
    flags: int
    classes: dict[str, int]
    guesses: int
    forced_early: int
    needless_under_flag: int
    luck: ExactFraction | None
    luck_log10: float | None
    largest_excess: ReplayMoment | None
    riskiest: ReplayMoment | None
    lost_at: ReplayMoment | None
    ms_toollib: ReplayFigures
    backend: str
    seconds: float
    notes: list[str]
    efficiency: ReplayEfficiency | None = None
    events: list[ReplayEvent]
    shown: list[list[str]]
    board_mines: list[CellPair]


class GameZini(_Reply):
    """The fewest clicks that clear a won game's board, solved once within the game's time
    limit."""

    clicks: int
    lower_bound: int
    optimal: bool


class GameClick(_Reply):
    row: int
    col: int
    by: str
    probability: ExactFraction | None
    mine: bool
    opened: int


class GameReply(_Reply):
    """A game as the page sees it; after ``hint`` and ``step`` also the ``move`` (or
    ``null``) and a ``note``."""

    id: str
    width: int
    height: int
    mines: int
    topology: str
    rule: str
    seed: int
    noguess: bool
    noguess_method: str
    fixed_board: bool
    rows: list[str]
    started: bool
    over: bool
    won: bool
    lost: bool
    safe_left: int
    flags: int
    clicks: list[GameClick]
    risk_total: ExactFraction
    survival: ExactFraction
    risk_complete: bool
    click_count: int
    seconds: float | None
    bbbv: int | None
    efficiency: ExactFraction | None
    zini: GameZini | None
    move: RecommendationReply | None = None
    note: str | None = None
