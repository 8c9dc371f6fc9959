"""The page's loose ends, second round, in headless Chromium (the fixtures of
:mod:`test_web_browser`): a wrong flag in the count of safe cells, the probabilities of the
components counted in time, the size fields' limits and the phone's menu."""

from __future__ import annotations

import json

from test_web_browser import (  # noqa: F401  (fixtures)
    REFERENCE,
    SHOTS,
    base_url,
    browser,
    fragment_of,
    page,
    wait_ready,
)
from test_web_page_ends import menu_closed_over_a_board_in_reach, one_step

SAFE_CELLS = ("window.exactmines.state.overlay.analysis.cell_groups"
              ".filter(g => g.verdict === 'safe').flatMap(g => g.cells)")


def test_a_wrong_flag_is_counted_once_in_the_safe_cells(page, base_url):  # noqa: F811 (fixtures)
    # 30x16/99, opening, no-guess, seed 3, three clicks and a flag on a certainly safe cell:
    # the panel said "5 safe" while it framed 4 and the hint said "(and 3 more certainly
    # safe cells)". The flagged one is named beside the count.
    page.goto(base_url + "#play:30x16x99:opening:3:noguess")
    wait_ready(page)
    for _ in range(3):
        one_step(page)
    safe = page.evaluate(SAFE_CELLS)
    assert len(safe) > 2
    page.click(f"#c{safe[-1]}", button="right")
    page.wait_for_function("() => window.exactmines.state.game.flags === 1")
    wait_ready(page)
    safe = page.evaluate(SAFE_CELLS)
    framed = page.locator("#board .cell.rec").count()
    assert framed == len(safe) - 1
    assert page.inner_text("#certain") == (
        f"{len(safe)} safe (1 of them flagged: a wrong flag), "
        f"{page.evaluate('window.exactmines.state.overlay.analysis.mine')} mines")
    assert page.locator("#board .cell.flag-wrong").count() == 1
    page.click("#hint")
    page.wait_for_function("() => window.exactmines.state.hintMove !== null")
    words = page.inner_text("#recommendation")
    assert f"(and {framed - 1} more certainly safe cells)" in words, words
    assert page.locator("#board .cell.rec").count() == framed


def test_the_probabilities_of_the_components_counted_in_time_are_shown(page, base_url):  # noqa: F811 (fixtures)
    # An overlay that counted some components and not others sends the probabilities it
    # has (null elsewhere): those cells show them, the others "?", and the notice says some.
    def partly(route):
        answer = route.fetch().json()
        a = answer["analysis"]
        width = a["width"]
        groups = []
        for group in a["cell_groups"]:
            if group["verdict"] != "unknown":
                groups.append(group)
                continue
            left = [i for i in group["cells"] if i % width < 5]
            right = [i for i in group["cells"] if i % width >= 5]
            if left:
                groups.append({**group, "cells": left})
            if right:
                groups.append({**group, "cells": right, "probability": None})
        a.update(cell_groups=groups, probabilities_computed=False, layouts=None)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    page.route("**/api/overlay", partly)
    page.goto(base_url + fragment_of(REFERENCE))
    wait_ready(page)
    shown = page.eval_on_selector_all(
        "#board .cell", "els => els.map(e => [Number(e.dataset.col), e.className, e.textContent,"
        " e.dataset.p ?? null])")
    groups = page.evaluate("window.exactmines.state.overlay.analysis.cell_groups")
    unknown = {i for g in groups if g["verdict"] == "unknown" for i in g["cells"]}
    assert unknown
    for i in unknown:
        col, cls, text, p = shown[i]
        if col < 5:
            assert "prob" in cls and text.isdigit() and p is not None, shown[i]
        else:
            assert "nc" in cls and text == "?" and p is None, shown[i]
    notice = page.inner_text("#not-computed")
    assert notice.startswith("Some probabilities not computed within the time limit"), notice


def test_the_size_fields_stop_at_the_servers_largest_side(page, base_url):  # noqa: F811 (fixtures)
    # The form took any side up to 1000 in play, where the server deals games up to its
    # max_side: the fields now stop there (and at the position limit when analysing).
    health = page.request.get(base_url + "api/health").json()
    page.goto(base_url + "#play:9x9x10:safe:1")
    wait_ready(page)
    for field in ("#width", "#height"):
        assert page.get_attribute(field, "max") == str(health["max_side"])
        page.fill(field, str(health["max_side"]))
        page.press(field, "ArrowUp")
        assert page.input_value(field) == str(health["max_side"])
    page.click("#mode-edit")
    assert page.get_attribute("#width", "max") == str(health["max_position_side"])
    page.click("#mode-play")
    assert page.get_attribute("#height", "max") == str(health["max_side"])


def test_the_phones_menu_closes_when_another_size_shape_or_mode_is_chosen(browser, base_url):  # noqa: F811 (fixtures)
    # Another board in the menu's Board list (or Analyse in the header) put a new board
    # behind the open menu, which stayed over it and took its taps.
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    tab = context.new_page()
    tab.goto(base_url + "#play:9x9x10:safe:1")
    wait_ready(tab)
    tab.tap("#menu")
    assert tab.locator("#controls").is_visible()
    tab.select_option("#preset", "16x16x40")
    tab.wait_for_function("() => window.exactmines.state.game.width === 16")
    wait_ready(tab)
    menu_closed_over_a_board_in_reach(tab, "test_the_menu_after_another_size.png")
    # Analyse from the header, the menu open: the board drawn is in reach at once.
    tab.tap("#menu")
    assert tab.locator("#controls").is_visible()
    tab.tap("#mode-edit")
    wait_ready(tab)
    assert not tab.locator("#controls").is_visible()
    # Another shape in the editor: a new board, the menu closed as well.
    tab.tap("#menu")
    shapes = tab.eval_on_selector_all("#topology option", "els => els.map(e => e.value)")
    tab.select_option("#topology", next(s for s in shapes if s != "square"))
    tab.wait_for_function("() => window.exactmines.state.topology !== 'square'")
    assert not tab.locator("#controls").is_visible()
    context.close()


def test_the_jsminesweeper_link_copied_is_read_back_by_convert(page, base_url, tmp_path,  # noqa: F811 (fixtures)
                                                               capsys):
    # A board drawn in the editor (mines marked M, one flagged F) on a board wider than
    # tall: the link the button makes is the same board for `exactmines convert`.
    from exactmines.io.files import read_board
    from exactmines.position import Board
    from exactmines.ui.cli import main

    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(base_url + "#8x5x4:MHHHHHHH/HHHHHHHH/HHHMHHHH/HHHHHHHH/HHHHHHFM")
    wait_ready(page)
    page.click("#copy-jsm-link")
    page.wait_for_selector("#jsm-link:not([hidden])", timeout=60_000)
    page.wait_for_function("() => document.getElementById('jsm-link').textContent"
                           ".startsWith('link copied')", timeout=30_000)
    link = page.get_attribute("#jsm-link", "href")
    assert page.evaluate("navigator.clipboard.readText()") == link
    out = tmp_path / "back.mine"
    assert main(["convert", link, str(out)]) == 0
    capsys.readouterr()
    assert read_board(out) == Board(8, 5, frozenset({(0, 0), (2, 3), (4, 6), (4, 7)}))


def test_the_jsminesweeper_link_is_shown_when_the_clipboard_never_answers(page, base_url):  # noqa: F811 (fixtures)
    # A clipboard write left unanswered (headless Chromium may leave it so) held the link
    # back for good: the link is shown when the server answers, never "copied".
    page.add_init_script("navigator.clipboard.writeText = () => new Promise(() => {});")
    page.goto(base_url + "#8x5x4:MHHHHHHH/HHHHHHHH/HHHMHHHH/HHHHHHHH/HHHHHHFM")
    wait_ready(page)
    page.click("#copy-jsm-link")
    page.wait_for_selector("#jsm-link:not([hidden])", timeout=60_000)
    assert page.text_content("#jsm-link") == "open in JSMinesweeper"
    assert page.get_attribute("#jsm-link", "href").startswith("https://")
    assert page.is_hidden("#error")


def type_in(page, values: dict[str, str]) -> None:  # noqa: F811 (fixtures)
    """Type each value in the field of that id, as a player would."""
    for name, value in values.items():
        page.fill(f"#{name}", value)


def fields(page, values: dict[str, str]) -> dict[str, str]:  # noqa: F811 (fixtures)
    """What the fields named in ``values`` hold now."""
    return {name: page.input_value(f"#{name}") for name in values}


def test_what_the_player_types_before_the_server_answers_stays(page, base_url):  # noqa: F811
    # The server's first answer (its limits and shapes) held back while the player picks
    # Play and types a size: the page used to draw its empty 9x9 board when the answer came,
    # and that put 9, 9 and 10 back in the fields the player had filled (a dense no-guess
    # game in the browser tests then waited for 240 mines that never came).
    held = []
    page.route("**/api/health", lambda route: held.append(route))
    page.goto(base_url)
    page.wait_for_function("() => document.querySelector('#board .cell') !== null")
    page.click("#mode-play")
    typed = {"width": "30", "height": "16", "mines": "240", "time-limit": "2"}
    type_in(page, typed)
    page.wait_for_function("() => true")  # one turn of the page's loop
    assert held, "the page asks the server for its limits at once"
    for route in held:
        route.continue_()
    page.wait_for_function("() => document.getElementById('backend').options.length > 1")
    assert fields(page, typed) == typed


def test_what_the_player_types_while_a_game_is_dealt_stays(page, base_url):  # noqa: F811
    # Play deals a game at once; when it came back (late on a loaded machine) the fields took
    # its size back, so a width typed meanwhile went, and New game then dealt 9x16 with 240
    # mines ("must be 0 to 143") instead of the 30x16 the player had typed.
    page.goto(base_url)
    wait_ready(page)
    held = []
    page.route("**/api/games", lambda route: held.append(route))
    page.click("#mode-play")
    page.wait_for_function("() => true")
    typed = {"width": "30", "height": "16", "mines": "240", "seed": "5"}
    type_in(page, typed)
    assert held, "Play deals a game at once"
    for route in held:
        route.continue_()
    page.unroute("**/api/games")
    page.wait_for_function("() => window.exactmines.state.game !== null")
    assert fields(page, typed) == typed
    page.click("#new-game")
    page.wait_for_function("() => window.exactmines.state.game.mines === 240")
    game = page.evaluate("window.exactmines.state.game")
    assert (game["width"], game["height"], game["seed"]) == (30, 16, 5)
