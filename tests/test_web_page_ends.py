"""The page's loose ends, in headless Chromium (the fixtures of :mod:`test_web_browser`):
the menu of a narrow screen, the size of a game, the Mines field, the Cell panel at the end
of a game and the hint's count of safe cells."""

from __future__ import annotations

from test_web_browser import (  # noqa: F401  (fixtures)
    EXPERT,
    SHOTS,
    base_url,
    browser,
    fragment_of,
    open_replay,
    page,
    wait_ready,
)


def test_a_300x300_game_is_dealt_from_the_form_and_its_mines_fit_their_field(page, base_url):  # noqa: F811 (fixtures)
    # The README's "boards up to 300x300" holds for play: the form took W=H=300 and the
    # server said "each side must be 1 to 250". The Mines field showed 18000 as "1800(".
    page.goto(base_url + "#play:9x9x10:safe:1")
    wait_ready(page)
    page.fill("#width", "300")
    page.fill("#height", "300")
    page.fill("#mines", "18000")
    page.fill("#seed", "1")
    page.click("#new-game")
    page.wait_for_function("() => window.exactmines.state.game.width === 300", timeout=60_000)
    assert page.locator("#error").is_hidden(), page.inner_text("#error")
    assert page.evaluate("window.exactmines.state.game.height") == 300
    mines = page.locator("#mines")
    assert mines.input_value() == "18000"
    # The digits fit inside the field, beside its spinner.
    assert mines.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert mines.evaluate(
        "e => { const c = document.createElement('canvas').getContext('2d');"
        " const s = getComputedStyle(e); c.font = s.font;"
        " return c.measureText(e.value).width + 20 <= e.clientWidth"
        " - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }")


def test_the_menu_of_a_phone_closes_when_a_board_is_loaded_or_a_game_dealt(browser, base_url):  # noqa: F811 (fixtures)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    tab = context.new_page()
    tab.goto(base_url + fragment_of(EXPERT.read_text()))
    wait_ready(tab)
    tab.tap("#menu")
    assert tab.locator("#controls").is_visible()
    tab.tap("#paste")
    tab.fill("#paste-text", (EXPERT.parent / "reference-9x9.mine").read_text())
    tab.tap("#paste-load")
    tab.wait_for_function("() => window.exactmines.state.width === 9")
    wait_ready(tab)
    menu_closed_over_a_board_in_reach(tab, "test_the_menu_after_paste.png")
    tab.tap("#mode-play")
    tab.wait_for_function("() => window.exactmines.state.game !== null")
    tab.tap("#menu")
    assert tab.locator("#controls").is_visible()
    tab.tap("#new-game")
    tab.wait_for_function("() => window.exactmines.state.game !== null")
    tab.screenshot(path=str(SHOTS / "test_the_menu_after_new_game.png"))
    assert not tab.locator("#controls").is_visible()
    context.close()


def test_a_replay_lost_at_its_first_click_reads_as_the_cli_reads_it(page, base_url, tmp_path,  # noqa: F811 (fixtures)
                                                                    capsys):
    # It read "first — kept safe — mine!" and "survival 1 (100%)", with ms_toollib's 3BV/s
    # of a loss; `exactmines replay` says forced guess, 1/6, "luck: 1 (no guess survived)".
    from exactmines.io.replays import Recorder
    from exactmines.position import Board
    from exactmines.ui.cli import main

    recorder = Recorder(Board(4, 3, frozenset({(0, 0), (2, 3)})))
    recorder.left((0, 0))
    path = tmp_path / "boom.evf"
    path.write_bytes(recorder.evf(player="me", software="test"))
    # ms_toollib's video may be dropped only by the thread that made it: kept in this frame,
    # the garbage collector freed it later in a server thread ("unsendable" warning).
    del recorder
    open_replay(page, base_url, path)
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert "luck: 1 (no guess survived)" in text
    assert page.inner_text("#click-class") == "forced guess"
    assert page.inner_text("#click-chance").startswith("1/6")
    assert page.inner_text("#luck") == "1 (no guess survived)"
    row = page.inner_text("#replay-clicks tbody tr")
    assert "forced guess" in row and "1/6" in row and "mine!" in row
    assert "3BV/s" not in page.inner_text("#replay-info")


def test_a_replays_log_marks_its_chords(page, base_url):  # noqa: F811 (fixtures)
    # Two rows "1,0 safe 0%" looked like a double click: a chord's row says so.
    path = EXPERT.parent.parent / "tests" / "data" / "replays" / "recorded" / \
        "clumsy-small-5x5x4-seed21-v0.evf"
    answer = open_replay(page, base_url, path)
    opening = [e for e in answer["events"] if e["class"] is not None]
    assert any(e["kind"] == "chord" for e in opening)
    cells = page.eval_on_selector_all("#replay-clicks tbody tr td:nth-child(2)",
                                      "els => els.map(e => e.innerText)")
    assert [cell.split("\n")[0] for cell in cells] == [
        f"{e['cell'][0]},{e['cell'][1]}" + (" chord" if e["kind"] == "chord" else "")
        for e in opening]
    # Lost at a chord: the luck reads as the text's.
    survived = any(e["class"] in ("needless guess", "forced guess") and not e["mine"]
                   for e in opening)
    if not survived:
        assert page.inner_text("#luck") == "1 (no guess survived)"


def test_after_a_game_the_cell_panel_says_the_game_is_over(page, base_url):  # noqa: F811 (fixtures)
    # The Cell panel kept "analysing…" for ever: no overlay is asked for a game that ended.
    page.goto(base_url + "#play:9x9x10:opening:11:noguess")
    wait_ready(page)
    page.click("#c40")  # 4,4
    page.wait_for_function("() => window.exactmines.state.game.started")
    wait_ready(page)
    page.click("#c14", button="right")  # flag 1,5
    page.wait_for_function("() => window.exactmines.state.game.rows[1][5] === 'F'")
    wait_ready(page)
    page.click("#auto")
    page.wait_for_selector("#outcome", timeout=60_000)
    page.wait_for_function("() => document.getElementById('board').dataset.state === 'idle'")
    info = page.inner_text("#cell-info")
    assert "row 1, col 5" in info and "analysing" not in info, info
    assert "the game is over" in info
    game = page.evaluate("window.exactmines.state.game")
    covered = [r * 9 + c for r, row in enumerate(game["rows"]) for c, ch in enumerate(row)
               if ch in "HM"]
    if covered:  # a mine left covered (shown M at the end): the panel says what it is
        page.click(f"#c{covered[0]}")
        info = page.inner_text("#cell-info")
        assert "analysing" not in info and "the game is over" in info, info


def menu_closed_over_a_board_in_reach(tab, shot: str) -> None:
    """The phone's menu is closed (screenshot ``shot`` taken) and a tap on the board lands
    on a cell (the open menu covered it)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SHOTS / shot))
    assert not tab.locator("#controls").is_visible()
    assert tab.get_attribute("#menu", "aria-expanded") == "false"
    box = tab.locator("#c0").bounding_box()
    hit = tab.evaluate(f"document.elementFromPoint({box['x'] + box['width'] / 2}, "
                       f"{box['y'] + box['height'] / 2}).id")
    assert hit == "c0"


def one_step(tab) -> None:
    """Press Step and wait for its answer: a step may open several cells, so it waits for
    the clicks to grow past their number before it, then for the overlay."""
    before = tab.evaluate("window.exactmines.state.game.clicks.length")
    tab.click("#step")
    tab.wait_for_function(f"() => window.exactmines.state.game.clicks.length > {before}")
    wait_ready(tab)


def test_the_hint_names_every_safe_cell_the_panel_counts_and_frames(page, base_url):  # noqa: F811 (fixtures)
    # The hint said "(and 2 more certainly safe cells)" while the panel said 6 safe and
    # framed 6: the player's move was the few cells its local rules found first.
    page.goto(base_url + "#play:30x16x99:opening:3:noguess")
    wait_ready(page)
    for _ in range(3):
        one_step(page)
        safe = page.evaluate("window.exactmines.state.overlay.analysis.cell_groups"
                             ".filter(g => g.verdict === 'safe')"
                             ".reduce((n, g) => n + g.cells.length, 0)")
        if safe > 1:
            break
    assert safe > 1
    assert f"{safe} safe" in page.inner_text("#summary")
    assert page.locator("#board .cell.rec").count() == safe
    page.click("#hint")
    page.wait_for_function("() => window.exactmines.state.hintMove !== null")
    words = page.inner_text("#recommendation")
    assert f"(and {safe - 1} more certainly safe cells)" in words, words
    move = page.evaluate("window.exactmines.state.hintMove")
    assert len(move["cells"]) == safe
