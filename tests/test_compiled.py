"""The compiled speed-up (setup.py): an extension in use is built from the source beside it."""

from __future__ import annotations

import importlib
import importlib.machinery
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _compiled_modules() -> list[str]:
    """The modules setup.py compiles, as dotted names (read from its ``COMPILED`` list)."""
    text = (ROOT / "setup.py").read_text()
    listed = re.search(r"COMPILED = \[(.*?)\]", text, re.S)
    assert listed is not None
    return [path[:-3].replace("/", ".") for path in re.findall(r'"([\w/]+\.py)"', listed[1])]


def test_the_compiled_list_names_modules_of_the_package():
    names = _compiled_modules()
    assert "exactmines.analysis.backends.dp" in names
    for name in names:
        assert importlib.import_module(name).__name__ == name


def test_no_extension_in_use_is_older_than_its_source():
    # An editable install builds the extensions in place: after an edit of the source, the
    # stale extension would be what runs (CONTRIBUTING.md, "The compiled modules").
    stale = []
    for name in _compiled_modules():
        module = importlib.import_module(name)
        path = Path(module.__file__ or "")
        if path.suffix in importlib.machinery.EXTENSION_SUFFIXES or path.name.endswith(".so"):
            source = path.parent / (name.rsplit(".", 1)[1] + ".py")
            if source.exists() and source.stat().st_mtime > path.stat().st_mtime:
                stale.append(name)
    assert not stale, f"rebuild the extensions (python setup.py build_ext --inplace): {stale}"


def test_results_of_the_compiled_modules_pickle():
    # Workers hand these to their parents; compiled, each needs its own __reduce__.
    import pickle

    from exactmines import analyze, read_board, solvable
    from exactmines.analysis.backends import get_backend
    from exactmines.analysis.combine import combine, combine_ratios
    from exactmines.analysis.frontier import build_frontier, split_forced
    from exactmines.io.formats import position_from_text
    from exactmines.solvability.check import is_unique, solve_indices

    position = position_from_text("4x3x3\nHHHH\n1221\nHHHH\n")
    frontier = build_frontier(position)
    counts = [get_backend("dp").count(c) for c in frontier.components]
    args = (counts, [c.sizes for c in frontier.components], len(frontier.outside),
            frontier.mines_left)
    board = read_board(str(ROOT / "instances" / "noguess-9x9x10-seed1-000.mine"))
    values = [combine(*args), combine_ratios(*args), solvable(board, (4, 4)),
              solve_indices(3, 1, [1], 0), is_unique(position), analyze(position),
              get_backend("auto"), get_backend("dp"), frontier, frontier.components[0],
              split_forced(position)]
    for value in values:
        back = pickle.loads(pickle.dumps(value))
        assert type(back) is type(value)
        if not hasattr(value, "count"):  # engines compare by identity
            assert back == value


def test_a_player_in_the_middle_of_a_game_pickles():
    # The web server moves games, players included, between processes.
    import pickle

    from exactmines.game import Game, board_from_indices
    from exactmines.play.games import PlaySettings, deal_game
    from exactmines.play.strategy import STRATEGIES, Player

    game = Game(board_from_indices(9, 9, deal_game(PlaySettings(9, 9, 10, "opening", (4, 4),
                                                                1), 0)))
    player = Player(9, 9, 10, STRATEGIES["best"])
    opened = game.reveal((4, 4))
    player.show([(r * 9 + c, game.numbers[r * 9 + c]) for r, c in opened])
    again = pickle.loads(pickle.dumps(game))
    assert (again.revealed, again.clicks, again.over) == (game.revealed, game.clicks, game.over)
    assert again.reveal((0, 0)) == game.reveal((0, 0))
    back = pickle.loads(pickle.dumps(player))
    assert (back.view.revealed, back.view.mines, back.view.unknown) == \
        (player.view.revealed, player.view.mines, player.view.unknown)
    assert back.next_clicks() == player.next_clicks()
