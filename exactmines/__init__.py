"""exactmines: exact analysis of Minesweeper positions.

>>> from exactmines import read_position, analyze
>>> result = analyze(read_position("instances/reference-9x9.mine"))
>>> result.layouts
1031

The questions built on the analysis are here too:

>>> from exactmines import read_board, solvable
>>> solvable(read_board("instances/noguess-9x9x10-seed1-000.mine"), (4, 4)).solvable
True
>>> from exactmines import PlaySettings, play_one
>>> play_one(PlaySettings(9, 9, 10, "safe", (0, 0), seed=1), 0).won
True
>>> from exactmines import noguess_boards
>>> noguess_boards(9, 9, 10, seed=3, count=1)[0].metadata["method"]
'rejection'

Names are loaded when first used, so ``import exactmines`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from exactmines.version import __version__

#: Public name -> the module that defines it.
_WHERE = {
    # analysis
    "Analysis": "exactmines.analysis.analyze",
    "CellAnalysis": "exactmines.analysis.analyze",
    "analyze": "exactmines.analysis.analyze",
    "CountCache": "exactmines.analysis.cache",
    "get_backend": "exactmines.analysis.backends",
    "backend_names": "exactmines.analysis.backends",
    "Budget": "exactmines.budget",
    # files and values
    "read_board": "exactmines.io.files",
    "read_position": "exactmines.io.files",
    "write_board": "exactmines.io.files",
    "write_position": "exactmines.io.files",
    "instance_names": "exactmines.io.shipped",
    "instance_path": "exactmines.io.shipped",
    "position_from_graph": "exactmines.io.graphs",
    "Board": "exactmines.position",
    "Position": "exactmines.position",
    "Game": "exactmines.game",
    "ExactminesError": "exactmines.errors",
    "InputError": "exactmines.errors",
    "OutOfTime": "exactmines.errors",
    # no-guess check and surveys
    "solvable": "exactmines.solvability.check",
    "Solvability": "exactmines.solvability.check",
    "is_unique": "exactmines.solvability.check",
    "SurveySettings": "exactmines.solvability.survey",
    "TopologySpec": "exactmines.io.files",
    "run_survey": "exactmines.solvability.survey",
    # the player and whole games
    "Player": "exactmines.play.strategy",
    "Strategy": "exactmines.play.strategy",
    "strategy_named": "exactmines.play.strategy",
    "PlaySettings": "exactmines.play.games",
    "play_game": "exactmines.play.games",
    "play_one": "exactmines.play.games",
    "run_play": "exactmines.play.games",
    # recorded games
    "read_replay": "exactmines.io.files",
    "judge_replay": "exactmines.replay.judge",
    # generators
    "midgame_positions": "exactmines.generate.positions",
    "noguess_boards": "exactmines.generate.positions",
    "random_sat_instances": "exactmines.generate.positions",
    "sat_instance": "exactmines.generate.positions",
    "compile_cnf": "exactmines.generate.hardness",
    "parse_dimacs": "exactmines.generate.hardness",
}

__all__ = [
    "__version__",
    "Analysis",
    "CellAnalysis",
    "analyze",
    "CountCache",
    "get_backend",
    "backend_names",
    "Budget",
    "read_board",
    "read_position",
    "write_board",
    "write_position",
    "instance_names",
    "instance_path",
    "position_from_graph",
    "Board",
    "Position",
    "Game",
    "ExactminesError",
    "InputError",
    "OutOfTime",
    "solvable",
    "Solvability",
    "is_unique",
    "SurveySettings",
    "TopologySpec",
    "run_survey",
    "Player",
    "Strategy",
    "strategy_named",
    "PlaySettings",
    "play_game",
    "play_one",
    "run_play",
    "read_replay",
    "judge_replay",
    "midgame_positions",
    "noguess_boards",
    "random_sat_instances",
    "sat_instance",
    "compile_cnf",
    "parse_dimacs",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'exactmines' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next read is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:  # for type checkers and editors: the same names, imported eagerly
    from exactmines.analysis.analyze import Analysis, CellAnalysis, analyze
    from exactmines.analysis.backends import backend_names, get_backend
    from exactmines.analysis.cache import CountCache
    from exactmines.budget import Budget
    from exactmines.errors import ExactminesError, InputError, OutOfTime
    from exactmines.game import Game
    from exactmines.generate.hardness import compile_cnf, parse_dimacs
    from exactmines.generate.positions import (
        midgame_positions,
        noguess_boards,
        random_sat_instances,
        sat_instance,
    )
    from exactmines.io.files import (
        TopologySpec,
        read_board,
        read_position,
        read_replay,
        write_board,
        write_position,
    )
    from exactmines.io.graphs import position_from_graph
    from exactmines.io.shipped import instance_names, instance_path
    from exactmines.play.games import PlaySettings, play_game, play_one, run_play
    from exactmines.play.strategy import Player, Strategy, strategy_named
    from exactmines.position import Board, Position
    from exactmines.replay.judge import judge_replay
    from exactmines.solvability.check import Solvability, is_unique, solvable
    from exactmines.solvability.survey import SurveySettings, run_survey
