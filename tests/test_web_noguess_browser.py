"""Play mode's no-guess boards at any density, in headless Chromium (the fixtures of
:mod:`test_web_browser`): the mines box and the method box, the board dealt where the
player clicks first, won by the player without a guess."""

from __future__ import annotations

import time

from test_web_browser import (  # noqa: F401  (fixtures)
    SHOTS,
    base_url,
    browser,
    page,
    wait_ready,
)

from exactmines.game import board_from_indices
from exactmines.solvability.check import solvable


def test_a_dense_expert_noguess_game_from_the_toolbar_is_won_without_a_guess(page, base_url):  # noqa: F811 (fixtures)
    page.goto(base_url)
    page.click("#mode-play")
    assert page.locator("#noguess-method").is_disabled()  # live only for no-guess games
    page.fill("#width", "30")
    page.fill("#height", "16")
    page.fill("#mines", "240")
    page.select_option("#rule", "opening")
    page.fill("#seed", "5")
    page.check("#noguess")
    page.select_option("#noguess-method", "build")
    page.click("#new-game")
    page.wait_for_function("() => window.exactmines.state.game?.mines === 240"
                           " && !window.exactmines.state.game.started")
    started = time.monotonic()
    page.click('#board .cell[data-row="3"][data-col="21"]')  # far from the centre
    page.wait_for_function("() => window.exactmines.state.game.started", timeout=60_000)
    dealt = time.monotonic() - started
    game = page.evaluate("window.exactmines.state.game")
    assert game["noguess"] and game["noguess_method"] == "build"
    assert game["rows"][3][21] == "0"  # the opening rule: the first click opens
    assert page.evaluate("location.hash") == "#play:30x16x240:opening:5:noguess-build"
    wait_ready(page)
    page.screenshot(path=str(SHOTS / "noguess_dense_first_click.png"), full_page=True)
    page.click("#auto")
    page.wait_for_selector("#outcome", timeout=120_000)
    game = page.evaluate("window.exactmines.state.game")
    assert game["won"], game["rows"]
    # only the first click was a risk: every later click was certainly safe
    assert [c["probability"] for c in game["clicks"][1:] if c["probability"] != "0"] == []
    # the board shown at the end is a no-guess board from that click
    rows = game["rows"]
    mines = [r * 30 + c for r in range(16) for c in range(30) if rows[r][c] in "FM"]
    assert len(mines) == 240
    assert solvable(board_from_indices(30, 16, mines), (3, 21)).solvable
    print(f"dealt and first click shown in {dealt:.2f} s")
