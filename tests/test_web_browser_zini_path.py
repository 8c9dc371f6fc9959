"""Replay mode's "show the fewest clicks", in headless Chromium (the fixtures of
:mod:`test_web_browser`): the toggle asks the server for the efficiency once and numbers
each click of the fewest on its cell, by kind; the numbers stay while the replay is stepped
through and go when the toggle is turned off; a lost game has no toggle."""

from __future__ import annotations

from test_web_browser import (  # noqa: F401  (fixtures)
    REPLAYS,
    base_url,
    browser,
    open_replay,
    page,
    wait_ready,
)
from test_zini import replay as replayed

from exactmines.io.files import read_replay

WON = REPLAYS / "public" / "arbiter-beginner-wang-jianing.avf"
LOST = REPLAYS / "recorded" / "clumsy-small-5x5x4-seed1-v3.evf"

_DRAWN = """() => Array.from(document.querySelectorAll('#board .cell[data-zini]')).map(
  c => [Number(c.dataset.row), Number(c.dataset.col), c.dataset.zini, c.dataset.ziniKind,
        getComputedStyle(c, '::before').content])"""


def test_the_fewest_clicks_are_numbered_on_the_board(page, base_url):  # noqa: F811 (fixtures)
    answer = open_replay(page, base_url, WON)
    assert answer["won"] and answer["efficiency"] is None  # not asked for yet
    assert not page.is_checked("#zini-path-toggle")
    assert page.evaluate(_DRAWN) == []
    page.check("#zini-path-toggle")
    page.wait_for_selector("#zini-path-counts", timeout=60_000)
    efficiency = page.evaluate("window.exactmines.state.replay.answer.efficiency")
    sequence = efficiency["sequence"]
    # The sequence clears the board, by the rules' own simulator, in exactly its clicks.
    assert replayed(read_replay(WON).board, sequence) == efficiency["zini"] == len(sequence)
    drawn = page.evaluate(_DRAWN)
    numbers = {}
    for r, c, text, kind, content in drawn:
        assert content == f'"{text}"'  # the badge shows the numbers
        for n in text.split("·"):
            numbers[int(n)] = (r, c)
        assert kind == sequence[int(text.split("·")[-1]) - 1][0]
    assert numbers == {k + 1: (r, c) for k, (_, r, c) in enumerate(sequence)}
    counts = page.inner_text("#zini-path-counts")
    # (Proved unless the server's time limit ran out first on a loaded machine.)
    fewest = ("(exact ZiNi, proved)" if efficiency["zini_optimal"] else
              f"found, at least {efficiency['zini_lower_bound']}")
    assert counts == (f"the player {efficiency['clicks']}, the fewest {efficiency['zini']} "
                      f"{fewest}")
    assert page.eval_on_selector_all("#zini-path-legend .zini-key", "els => els.map(e => "
                                     "[e.textContent, e.dataset.ziniKind])") == [
        ["left click", "left"], ["flag", "flag"], ["chord", "chord"]]
    # Stepping through the replay keeps them (and does not ask the server again).
    page.click("#replay-guess")
    wait_ready(page)
    assert page.evaluate(_DRAWN) == drawn
    page.uncheck("#zini-path-toggle")
    page.wait_for_function("() => !document.querySelector('#zini-path-counts')")
    assert page.evaluate(_DRAWN) == []
    page.check("#zini-path-toggle")
    page.wait_for_selector("#zini-path-counts")
    assert page.evaluate(_DRAWN) == drawn


def test_a_lost_game_has_no_fewest_clicks(page, base_url):  # noqa: F811 (fixtures)
    answer = open_replay(page, base_url, LOST)
    assert not answer["won"]
    assert page.query_selector("#zini-path-toggle") is None
