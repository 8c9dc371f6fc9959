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
    # An editable install asked to compile (EXACTMINES_COMPILE=1) builds the extensions in
    # place: after an edit of the source, the stale extension would be what runs
    # (CONTRIBUTING.md, "The compiled modules").
    stale = []
    for name in _compiled_modules():
        module = importlib.import_module(name)
        path = Path(module.__file__ or "")
        if path.suffix in importlib.machinery.EXTENSION_SUFFIXES or path.name.endswith(".so"):
            source = path.parent / (name.rsplit(".", 1)[1] + ".py")
            if source.exists() and source.stat().st_mtime > path.stat().st_mtime:
                stale.append(name)
    assert not stale, ("rebuild the extensions (EXACTMINES_COMPILE=1 pip install -e .) or "
                       f"delete them: {stale}")


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
    from exactmines.play.lookahead import Cache, _Reveal
    from exactmines.play.strategy import STRATEGIES, Player

    settings = PlaySettings(16, 16, 40, "opening", (8, 8), 1)
    game = Game(board_from_indices(16, 16, deal_game(settings, 0)))
    player = Player(16, 16, 40, STRATEGIES["best"])

    def click(index):
        opened = game.reveal(divmod(index, 16))
        player.show([(r * 16 + c, game.numbers[r * 16 + c]) for r, c in opened])

    click(8 * 16 + 8)
    while not game.over:  # on, until the player has counted (its cache holds parts)
        clicks = player.next_clicks()[0]
        if player.cache.parts:
            break
        for index in clicks:
            if not game.over:
                click(index)
    assert not game.over and player.cache.parts
    again = pickle.loads(pickle.dumps(game))
    assert (again.revealed, again.clicks, again.over) == (game.revealed, game.clicks, False)
    safe = [i for i in range(256) if divmod(i, 16) not in game.board.mine_cells]
    rest = game.reveal_indices(safe)  # clears the board: the restored game does the same
    assert rest and again.reveal_indices(safe) == rest and again.won
    back = pickle.loads(pickle.dumps(player))
    assert back.cache.parts == player.cache.parts
    assert (back.view.revealed, back.view.mines, back.view.unknown) == \
        (player.view.revealed, player.view.mines, player.view.unknown)
    assert back.next_clicks() == player.next_clicks()
    # A part, a reveal and the cache itself on their own.
    for part in player.cache.parts.values():
        assert pickle.loads(pickle.dumps(part)) == part
    reveal = _Reveal((1, 2), (1, 1), {0: [(0, 1, [0, 0])], 1: [(1, 2, [1, 1])]}, 4)
    same = pickle.loads(pickle.dumps(reveal))
    assert (same.polys, same.part(1).counts) == (reveal.polys, reveal.part(1).counts)
    cache = pickle.loads(pickle.dumps(player.cache))
    assert isinstance(cache, Cache) and cache.parts == player.cache.parts
