"""Whole games: first-click rules, determinism, optimal play on tiny boards, the results
file and the ``exactmines play`` command."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest

from exactmines.errors import InputError
from exactmines.game import Game, board_from_indices
from exactmines.play.games import (
    PlaySettings,
    _settings_from_meta,
    deal_game,
    game_seed,
    play_game,
    play_one,
    run_play,
)
from exactmines.play.strategy import STRATEGIES, Player, strategy_named
from exactmines.position import flood, neighbour_masks
from exactmines.runner import read_rows
from exactmines.ui.cli import main

# -- first-click rules --------------------------------------------------------------------


@pytest.mark.parametrize("start, at", [("safe", (0, 0)), ("safe", (2, 3)),
                                       ("opening", (2, 2)), ("opening", (0, 4))])
def test_first_click_never_loses_under_safe_and_opening(start, at):
    # A dense board: under the unprotected rule the first click would often hit a mine.
    settings = PlaySettings(5, 5, 12, start, at, seed=3, strategy="safest")
    for index in range(200):
        mines = deal_game(settings, index)
        game = Game(board_from_indices(5, 5, mines))
        game.reveal(at)
        assert not game.lost
        if start == "opening":  # no mine around it: it shows 0 and opens its neighbourhood
            assert game.numbers[at[0] * 5 + at[1]] == 0
            r, c = at
            block = {(rr, cc) for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                     if 0 <= rr < 5 and 0 <= cc < 5}
            assert block <= set(game.cells_of(game.revealed))
        record = play_game(5, 5, mines, at, STRATEGIES["safest"])
        assert record.won or record.clicks > 1


def test_unprotected_first_click_can_lose():
    settings = PlaySettings(4, 4, 10, "unprotected", (0, 0), seed=5, strategy="safest")
    first_click_losses = sum(not r.won and r.clicks == 1
                             for r in (play_one(settings, i) for i in range(100)))
    assert 40 <= first_click_losses <= 85  # 10 of 16 cells are mines


def test_a_game_reveals_with_the_flood():
    # 3x3 with one mine in the far corner: the first click at (0,0) is a 0 and floods all
    # the safe cells at once; the game is won without a guess.
    record = play_game(3, 3, [8], (0, 0), STRATEGIES["best"])
    assert record.won and record.clicks == 1 and record.guesses == 1 and record.revealed == 8
    masks = neighbour_masks(3, 3)
    zeros = sum(1 << i for i in range(9) if i != 8 and not (masks[i] >> 8) & 1)
    assert flood(0, 1, zeros, masks) == (1 << 8) - 1


# -- optimal play where it can be checked exactly ------------------------------------------


def optimum_from_first_click(width: int, height: int, mines: int, at: int) -> Fraction:
    """The best win probability over all boards with ``at`` safe (each equally likely), by a
    plain game-tree recursion over explicit layouts with the game's own flood."""
    masks = neighbour_masks(width, height)
    cells = range(width * height)
    layouts = [sum(1 << i for i in pick) for pick in combinations(cells, mines)
               if at not in pick]

    def numbers(layout: int) -> list[int]:
        return [(masks[i] & layout).bit_count() for i in cells]

    def zeros(layout: int) -> int:
        return sum(1 << i for i, n in enumerate(numbers(layout)) if n == 0 and not
                   (layout >> i) & 1)

    def observe(layout: int, click: int, revealed: int) -> tuple[int, tuple[int, ...]]:
        shown = flood(revealed, 1 << click, zeros(layout), masks)
        return shown, tuple(n for i, n in enumerate(numbers(layout)) if (shown >> i) & 1)

    everything = (1 << (width * height)) - 1

    @cache
    def wins(state: frozenset[int], revealed: int) -> int:
        if all(revealed | layouts[j] == everything for j in state):
            return len(state)  # every safe cell shown: won
        best = 0
        for click in cells:
            if (revealed >> click) & 1:
                continue
            parts: dict[tuple[int, tuple[int, ...]], set[int]] = {}
            for j in state:
                if not (layouts[j] >> click) & 1:
                    parts.setdefault(observe(layouts[j], click, revealed), set()).add(j)
            best = max(best, sum(wins(frozenset(p), key[0]) for key, p in parts.items()))
        return best

    groups: dict[tuple[int, tuple[int, ...]], set[int]] = {}
    for j, layout in enumerate(layouts):
        groups.setdefault(observe(layout, at, 0), set()).add(j)
    total = sum(wins(frozenset(p), key[0]) for key, p in groups.items())
    return Fraction(total, len(layouts))


@pytest.mark.parametrize("width, height, mines, at", [(3, 3, 2, 0), (4, 2, 2, 0),
                                                       (4, 3, 3, 5), (5, 2, 3, 0)])
def test_best_strategy_plays_tiny_boards_optimally(width, height, mines, at):
    # With few layouts the endgame search decides every guess: summed over every board the
    # first-click rule allows, the player wins exactly as often as perfect play does.
    boards = [pick for pick in combinations(range(width * height), mines) if at not in pick]
    cell = divmod(at, width)
    wins = sum(play_game(width, height, list(pick), cell, STRATEGIES["best"]).won
               for pick in boards)
    assert Fraction(wins, len(boards)) == optimum_from_first_click(width, height, mines, at)
    safest = sum(play_game(width, height, list(pick), cell, STRATEGIES["safest"]).won
                 for pick in boards)
    assert safest <= wins


# -- determinism and the results file -------------------------------------------------------


# -- where the risk is taken ----------------------------------------------------------------


@pytest.mark.parametrize("without, kind", [((), "endgame"), (("endgame",), "fifty"),
                                           (("endgame", "fifty"), "frontier")])
def test_player_sums_the_risk_of_its_guesses_by_kind(without, kind):
    # 3x1, one mine, the middle shows 1: the guess is a cell with mine probability 1/2,
    # chosen by the endgame search, else as a forced 50/50, else by the scores.
    player = Player(3, 1, 1, strategy_named("best", without))
    player.show([(1, 1)])
    assert player.next_clicks() == ([0], True)
    assert player.risks == {kind: Fraction(1, 2)}


def test_off_frontier_guesses_and_the_first_click_carry_their_risk():
    # 1x3, two mines, unprotected: the first click risks 2/3; (0,0) safe shows 1, so one
    # mine is in (0,1) and the other in (0,2): both certain, no guess follows.
    record = play_game(3, 1, [1, 2], (0, 0), STRATEGIES["best"], "unprotected")
    assert record.won and record.risk == {"start": round(2 / 3, 6)}
    assert play_game(3, 1, [1, 2], (0, 0), STRATEGIES["best"], "safe").risk == {}
    # 4x1, two mines, (0,0) shows 1: (0,1) is a mine, and the other is in (0,2) or (0,3),
    # which no number sees: an off-frontier guess at 1/2 (the endgame search would take it
    # otherwise).
    player = Player(4, 1, 2, strategy_named("best", ("endgame",)))
    player.show([(0, 1)])
    clicks, guess = player.next_clicks()
    assert guess and clicks[0] in (2, 3) and player.risks == {"off_frontier": Fraction(1, 2)}


def test_risk_taken_estimates_the_loss_rate():
    # The risks summed over a game have the loss rate as their mean: over 600 games of
    # 9x9/10 the two agree within a few standard errors (deterministic for the seed).
    result = run_play(PlaySettings(9, 9, 10, "unprotected", (0, 0), seed=4), 600,
                      progress=False)
    per_game = result.risk_per_game()
    assert set(per_game) == {"start", "frontier", "off_frontier", "fifty", "endgame"}
    assert per_game["start"] == round(10 / 81, 4)
    lost = 1 - result.wins / result.games
    assert abs(sum(per_game.values()) - lost) < 3 * (lost * (1 - lost) / 600) ** 0.5


def test_games_are_deterministic_for_a_seed():
    settings = PlaySettings(9, 9, 10, "safe", (0, 0), seed=11)
    assert deal_game(settings, 4) == deal_game(settings, 4)
    assert deal_game(settings, 4) != deal_game(settings, 5)
    assert game_seed(11, 4) != game_seed(12, 4)
    first = [play_one(settings, i) for i in range(30)]
    again = [play_one(settings, i) for i in range(30)]
    strip = lambda r: (r.won, r.guesses, r.clicks, r.revealed)  # noqa: E731
    assert [strip(r) for r in first] == [strip(r) for r in again]


def test_run_is_the_same_with_more_workers_and_resumes(tmp_path):
    settings = PlaySettings(8, 8, 10, "safe", (0, 0), seed=2)
    one = run_play(settings, 40, workers=1, progress=False)
    out = tmp_path / "games.jsonl"
    two = run_play(settings, 24, out=str(out), workers=2, chunk_size=5, progress=False)
    more = run_play(settings, 40, out=str(out), resume=True, workers=2, chunk_size=5,
                    progress=False)
    assert more.wins == one.wins and more.games == 40
    meta, rows = read_rows(out)
    assert meta == settings.as_meta() and sorted(r["id"] for r in rows) == list(range(40))
    assert two.wins == sum(r["won"] for r in rows if r["id"] < 24)
    for row in rows[:5]:
        assert row["seed"] == game_seed(2, row["id"])
    other = PlaySettings(8, 8, 10, "safe", (0, 0), seed=2, without=("endgame",))
    with pytest.raises(InputError, match="other settings"):
        run_play(other, 40, out=str(out), resume=True, progress=False)
    with pytest.raises(InputError, match="exists"):
        run_play(settings, 40, out=str(out), progress=False)


@pytest.mark.parametrize("kwargs, message", [
    (dict(at=(9, 0)), "off the 9x9 board"),
    (dict(start="bold"), "unknown first-click rule"),
    (dict(mines=81), "do not fit"),
    (dict(strategy="lucky"), "unknown strategy"),
    (dict(without=("luck",)), "unknown strategy part"),
    (dict(tuning=("luck=1",)), "cannot set 'luck=1'"),
    (dict(tuning=("progress=much",)), "not a fraction"),
])
def test_bad_settings_are_input_errors(kwargs, message):
    base = dict(width=9, height=9, mines=10, start="safe", at=(0, 0), seed=1)
    with pytest.raises(InputError, match=message):
        PlaySettings(**{**base, **kwargs})


def test_ablation_switches_parts_off():
    settings = PlaySettings(9, 9, 10, "safe", (0, 0), seed=1, without=("secondary", "dead"))
    assert settings.player_strategy() == strategy_named("best", ("secondary", "dead"))


def test_tuning_reaches_the_player_and_the_workers():
    tuned = PlaySettings(9, 9, 10, "safe", (0, 0), seed=1, tuning=("endgame_layouts=7",))
    assert tuned.player_strategy().endgame_layouts == 7
    meta = tuned.as_meta()
    assert meta["tuning"] == ["endgame_layouts=7"]
    assert meta["parameters"]["endgame_layouts"] == "7"
    # Workers rebuild the settings from the meta: the tuning must survive the trip.
    assert _settings_from_meta(meta) == tuned
    # Untuned settings write the meta they always did, so older results files resume.
    plain = PlaySettings(9, 9, 10, "safe", (0, 0), seed=1).as_meta()
    assert "tuning" not in plain and plain["parameters"]["endgame_layouts"] == "2000"


# -- command line ----------------------------------------------------------------------------


def run_cli(capsys, *args):
    code = main(["play", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


BASE = ["--width", "9", "--height", "9", "--mines", "10", "--start", "safe", "--at", "0,0",
        "--seed", "7"]


def test_cli_json(capsys, tmp_path):
    out = tmp_path / "r.jsonl"
    code, stdout, stderr = run_cli(capsys, *BASE, "--games", "12", "--format", "json",
                                   "--out", str(out), "--quiet")
    assert code == 0, stderr
    summary = json.loads(stdout)
    assert summary["games"] == 12 and 0 <= summary["wins"] <= 12
    assert summary["win_rate"] == summary["wins"] / 12
    low, high = summary["ci95"]
    assert low <= summary["win_rate"] <= high
    assert summary["published"]["win_rate"] == 0.9172
    assert summary["parts"] == {p: True for p in summary["parts"]}
    assert set(summary["risk_per_game"]) == {"start", "frontier", "off_frontier", "fifty",
                                             "endgame"}
    _, rows = read_rows(out)
    assert len(rows) == 12 and sum(r["won"] for r in rows) == summary["wins"]
    # Resuming with more games plays only the new ones and agrees with a fresh run.
    code, stdout, _ = run_cli(capsys, *BASE, "--games", "20", "--format", "json", "--out",
                              str(out), "--resume", "--quiet")
    fresh = json.loads(run_cli(capsys, *BASE, "--games", "20", "--format", "json",
                               "--quiet")[1])
    assert code == 0 and json.loads(stdout)["wins"] == fresh["wins"]


def test_cli_text(capsys):
    code, stdout, _ = run_cli(capsys, *BASE, "--games", "5", "--without", "endgame",
                              "--quiet")
    assert code == 0
    assert "of 5 games won" in stdout and "best-without-endgame" in stdout
    assert "published: 91.72 %" in stdout
    assert "risk taken per game" in stdout and "(expected losses)" in stdout
    code, stdout, _ = run_cli(capsys, *BASE, "--games", "3", "--set", "risk_weight=3/2",
                              "--quiet")
    assert code == 0 and "best-risk_weight=3/2" in stdout


@pytest.mark.parametrize("changes, extra, message", [
    ({"--at": "9,0"}, [], "off the 9x9 board"),
    ({"--at": "one"}, [], "expected ROW,COL"),
    ({"--start": "bold"}, [], "unknown first-click rule"),
    ({"--mines": "81"}, [], "do not fit"),
    ({"--games": "0"}, [], "--games 0"),
    ({}, ["--workers", "0"], "--workers 0"),
    ({}, ["--without", "luck"], "unknown strategy part"),
    ({}, ["--set", "progress"], "write NAME=VALUE"),
    ({}, ["--strategy", "lucky"], "unknown strategy"),
    ({}, ["--resume"], "--resume needs --out"),
    ({}, ["--plot", "win.txt"], "must end in"),
])
def test_cli_bad_options_exit_2_with_one_line(capsys, changes, extra, message):
    options = {**dict(zip(BASE[::2], BASE[1::2], strict=True)), "--games": "3", **changes}
    flat = [x for pair in options.items() for x in pair]
    code, stdout, stderr = run_cli(capsys, *flat, *extra, "--quiet")
    assert code == 2
    assert stdout == ""
    assert message in stderr and len(stderr.strip().splitlines()) == 1


def test_cli_smallest_run_is_one_game(capsys):
    # The bounds that refuse 0 games and 0 workers let 1 through.
    code, stdout, stderr = run_cli(capsys, *BASE, "--games", "1", "--workers", "1",
                                   "--format", "json", "--quiet")
    assert code == 0, stderr
    assert json.loads(stdout)["games"] == 1


def test_cli_plot_draws_the_rate(capsys, tmp_path):
    from matplotlib.image import imread

    picture = tmp_path / "rate.png"
    code, stdout, _ = run_cli(capsys, *BASE, "--games", "6", "--plot", str(picture),
                              "--quiet")
    assert code == 0 and f"picture written to {picture}" in stdout
    pixels = imread(picture)
    assert pixels.shape[0] > 50 and pixels.shape[1] > 300
