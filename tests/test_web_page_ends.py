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
    SHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SHOTS / "test_the_menu_after_paste.png"))
    assert not tab.locator("#controls").is_visible()
    assert tab.get_attribute("#menu", "aria-expanded") == "false"
    # The board is in reach: a tap lands on a cell (the menu covered it).
    box = tab.locator("#c0").bounding_box()
    hit = tab.evaluate(f"document.elementFromPoint({box['x'] + box['width'] / 2}, "
                       f"{box['y'] + box['height'] / 2}).id")
    assert hit == "c0"
    tab.tap("#mode-play")
    tab.wait_for_function("() => window.exactmines.state.game !== null")
    tab.tap("#menu")
    assert tab.locator("#controls").is_visible()
    tab.tap("#new-game")
    tab.wait_for_function("() => window.exactmines.state.game !== null")
    tab.screenshot(path=str(SHOTS / "test_the_menu_after_new_game.png"))
    assert not tab.locator("#controls").is_visible()
    context.close()
