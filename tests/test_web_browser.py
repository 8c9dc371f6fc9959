"""The page in a real browser: headless Chromium (Debian's ``chromium``) driven by Playwright,
against ``exactmines serve``'s app on a loopback port. Each test saves a screenshot to
``results/screenshots/`` for people to look at."""

from __future__ import annotations

import base64
import json
import threading
import time
from fractions import Fraction
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Page, sync_playwright
from programs import find_program

from exactmines.analysis.analyze import analyze
from exactmines.analysis.serialize import analysis_to_dict
from exactmines.io.formats import board_to_mbf, board_to_mine, position_from_text
from exactmines.play.strategy import STRATEGIES, Player
from exactmines.position import Board
from exactmines.ui.cli import main
from exactmines.ui.web.app import create_app

ROOT = Path(__file__).parent.parent
INSTANCES = ROOT / "instances"
SHOTS = ROOT / "results" / "screenshots"
# Headless, and nothing that reaches the network on its own.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
REFERENCE = (INSTANCES / "reference-9x9.mine").read_text()
EXPERT = INSTANCES / "position-30x16x99-seed1-000.mine"


@pytest.fixture(scope="module")
def base_url():
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=0,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    # Debian's Chromium (or EXACTMINES_CHROMIUM), never a browser Playwright downloads.
    path = find_program(("chromium", "chromium-browser"), "chromium", "EXACTMINES_CHROMIUM")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  accept_downloads=True)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    # The page writes nothing to the console (a debugging line left in is a defect).
    tab.on("console", lambda message: errors.append(f"console.{message.type}: {message.text}")
           if message.type in ("log", "debug", "info") else None)
    yield tab
    SHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SHOTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert errors == [], errors


def fragment_of(text: str) -> str:
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    return f"#{lines[0]}:{'/'.join(lines[1:])}"


def wait_ready(page: Page, timeout: float = 15_000) -> None:
    """Until the overlay on the board is the answer for the position shown."""
    page.wait_for_function(
        "() => { const b = document.getElementById('board'); return b.dataset.state === 'ready'"
        " && b.dataset.key === window.exactmines.positionKey(); }",
        timeout=timeout)


def page_cells(page: Page) -> dict[tuple[int, int], dict]:
    rows = page.eval_on_selector_all(
        "#board .cell",
        "els => els.map(e => [Number(e.dataset.row), Number(e.dataset.col), e.dataset.p ?? null,"
        " e.textContent, e.className, e.getAttribute('aria-label'),"
        " getComputedStyle(e).backgroundColor])")
    return {(r, c): {"p": p, "text": t, "class": k, "label": a, "bg": bg}
            for r, c, p, t, k, a, bg in rows}


def without_cursor(cells: dict) -> dict:
    return {k: {**v, "class": v["class"].replace(" cursor", "")} for k, v in cells.items()}


def cli_json(capsys, text: str, tmp_path: Path) -> dict:
    path = tmp_path / "position.mine"
    path.write_text(text)
    main(["analyze", str(path), "--format", "json"])
    return json.loads(capsys.readouterr().out)


def assert_page_matches(page: Page, expected: dict) -> None:
    """Every covered cell of the page carries the fraction of ``expected`` (the analyze
    JSON), and shows it: S, M, or the rounded percentage."""
    shown = page_cells(page)
    assert expected["cells"]
    for cell in expected["cells"]:
        got = shown[(cell["row"], cell["col"])]
        assert got["p"] == cell["probability"], (cell, got)
        if cell["verdict"] == "safe":
            assert got["text"] == "S"
        elif cell["verdict"] == "mine":
            assert got["text"] == "M"
        elif cell["probability"] is not None:
            percent = min(max(round(float(Fraction(cell["probability"])) * 100), 1), 99)
            assert got["text"] == str(percent)
            assert f"mine probability {cell['probability']}" in got["label"]


def test_paste_the_reference_and_read_every_fraction(page, base_url, capsys, tmp_path):
    page.goto(base_url)
    wait_ready(page)
    page.click("#paste")
    page.fill("#paste-text", REFERENCE)
    page.click("#paste-load")
    page.wait_for_function("() => window.exactmines.state.width === 9 && "
                           "window.exactmines.positionKey().includes('HHH212HHH')")
    wait_ready(page)
    expected = cli_json(capsys, REFERENCE, tmp_path)
    assert expected["layouts"] == "1031"
    assert_page_matches(page, expected)
    assert page.inner_text("#summary").count("1031") == 1
    # The colours are those of `analyze --image` (matplotlib's YlOrRd).
    from matplotlib import colormaps

    cmap = colormaps["YlOrRd"]
    shown = page_cells(page)
    checked = 0
    for cell in expected["cells"]:
        if cell["verdict"] == "unknown":
            want = [round(255 * v) for v in cmap(float(Fraction(cell["probability"])))[:3]]
            got = [int(v) for v in shown[(cell["row"], cell["col"])]["bg"][4:-1].split(",")]
            assert all(abs(a - b) <= 1 for a, b in zip(got, want, strict=True)), (cell, got, want)
            checked += 1
    assert checked > 50
    assert "row 1, col 0" in page.inner_text("#recommendation")


def test_hover_shows_the_exact_fraction_and_layouts(page, base_url, capsys, tmp_path):
    page.goto(base_url + fragment_of(REFERENCE))
    wait_ready(page)
    expected = cli_json(capsys, REFERENCE, tmp_path)
    cell = next(c for c in expected["cells"] if c["verdict"] == "unknown"
                and "/" in c["probability"] and c["row"] < 5)
    page.hover(f"#c{cell['row'] * 9 + cell['col']}")
    tip = page.locator("#tooltip")
    tip.wait_for(state="visible")
    p = Fraction(cell["probability"])
    text = tip.inner_text()
    assert cell["probability"] in text
    assert f"a mine in {p * 1031} of 1031 layouts" in text
    assert cell["probability"] in page.inner_text("#cell-info")


def test_editing_a_cell_with_the_keyboard_updates_the_overlay(page, base_url, capsys,
                                                              tmp_path):
    page.goto(base_url + fragment_of(REFERENCE))
    wait_ready(page)
    before = page.url
    # From the top-left corner to (3, 7), a covered cell: type a 2 there.
    page.focus("#board")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    for _ in range(7):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("2")
    edited = REFERENCE.replace("000013HHH", "000013H2H")
    assert edited != REFERENCE
    page.wait_for_function("() => window.exactmines.positionKey().includes('000013H2H')")
    wait_ready(page)
    expected = cli_json(capsys, edited, tmp_path)
    assert expected["consistent"] and expected["layouts"] == "776"
    assert_page_matches(page, expected)
    assert page.url != before and "000013H2H" in page.url  # the link follows the position
    # The link reproduces it in a fresh page.
    other = page.context.new_page()
    other.goto(page.url)
    wait_ready(other)
    assert without_cursor(page_cells(other)) == without_cursor(page_cells(page))
    other.close()


def test_a_bad_paste_shows_the_one_line_error(page, base_url):
    page.goto(base_url)
    wait_ready(page)
    page.click("#paste")
    page.fill("#paste-text", REFERENCE.replace("HHH212HHH", "HHH2X2HHH"))
    page.click("#paste-load")
    error = page.locator("#error")
    error.wait_for(state="visible")
    # Line 4: the reference starts with a comment line, then the header.
    assert error.inner_text() == ("pasted text:4:5: unknown character 'X' (expected 0-8, H, F, "
                                  "M or ?)")


def test_a_stale_answer_is_dropped(page, base_url, capsys, tmp_path):
    page.goto(base_url + fragment_of(REFERENCE))
    wait_ready(page)
    # The next answer is held back 800 ms: it arrives after the one for the edit after it.
    page.evaluate("""() => {
        const real = window.fetch; let held = false;
        window.fetch = async (...args) => {
            const answer = await real(...args);
            if (String(args[0]).includes('/api/overlay') && !held) {
                held = true; await new Promise(done => setTimeout(done, 800));
            }
            return answer;
        };
    }""")
    page.focus("#board")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    for _ in range(7):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("2")  # answer held back
    page.keyboard.press("3")  # answered at once
    final = REFERENCE.replace("000013HHH", "000013H3H")
    wait_ready(page)
    page.wait_for_timeout(1200)  # the held answer has come back by now, and was dropped
    assert "000013H3H" in page.evaluate("window.exactmines.positionKey()")
    assert "200" in page.inner_text("#summary")
    assert_page_matches(page, cli_json(capsys, final, tmp_path))


def test_an_inconsistent_position_names_the_clue_at_fault(page, base_url):
    page.goto(base_url + "#5x3:HHHHH/H131H/HHHHH")
    wait_ready(page)
    fault = page.inner_text("#fault")
    assert "inconsistent" in fault and "the 3 at row 1, col 2" in fault
    cells = page_cells(page)
    assert "fault" in cells[(1, 2)]["class"]
    assert all(c["text"] == "?" for (r, _), c in cells.items() if r != 1)


def test_not_computed_within_the_time_limit_is_shown_as_such(page, base_url):
    hard = (INSTANCES / "sat-3sat-v5-c21-seed1-000.mine").read_text()
    page.goto(base_url + fragment_of(hard))
    page.fill("#time-limit", "0.0005")
    page.dispatch_event("#time-limit", "change")
    page.wait_for_selector("#not-computed", timeout=30_000)
    wait_ready(page)
    assert "not computed within the time limit" in page.inner_text("#not-computed").lower() or \
        "Probabilities not computed within the time limit" in page.inner_text("#not-computed")
    cells = page_cells(page)
    unknown = [c for c in cells.values() if c["text"] == "?"]
    assert unknown and all(c["p"] is None and "not computed" in c["label"] for c in unknown)
    assert not any(c["text"].isdigit() and "prob" in c["class"] for c in cells.values())


def test_an_expert_position_analysed(page, base_url, capsys, tmp_path):
    text = EXPERT.read_text()
    page.goto(base_url + fragment_of(text))
    wait_ready(page)
    assert_page_matches(page, cli_json(capsys, text, tmp_path))
    page.hover("#c31")
    page.locator("#tooltip").wait_for(state="visible")


def test_a_seeded_game_auto_played_to_the_end(page, base_url):
    page.goto(base_url + "#play:9x9x10:safe:4")
    wait_ready(page)
    page.click("#auto")
    page.wait_for_selector("#outcome", timeout=60_000)
    outcome = page.get_attribute("#outcome", "data-outcome")
    assert outcome in ("won", "lost")
    state = page.evaluate("window.exactmines.state.game")
    assert state["over"] and state[outcome]
    rows = page.locator("#clicks tbody tr")
    assert rows.count() == len(state["clicks"]) > 0
    assert Fraction(state["risk_total"]) == sum(Fraction(c["probability"])
                                                for c in state["clicks"])
    # Played again from the same link: the same game, click for click.
    again = page.context.new_page()
    again.goto(base_url + "#play:9x9x10:safe:4")
    wait_ready(again)
    again.click("#auto")
    again.wait_for_selector("#outcome", timeout=60_000)
    replay = again.evaluate("window.exactmines.state.game")
    assert replay["rows"] == state["rows"] and replay["clicks"] == state["clicks"]
    again.close()


def test_an_expert_game_played_by_the_player(page, base_url):
    page.goto(base_url + "#play:30x16x99:safe:11")
    wait_ready(page)
    page.click("#step")
    page.wait_for_function("() => window.exactmines.state.game.started")
    wait_ready(page)
    for _ in range(12):
        if page.evaluate("window.exactmines.state.game.over"):
            break
        page.click("#step")
        page.wait_for_function("() => window.exactmines.state.game.clicks.length > 0")
        wait_ready(page)
    if not page.evaluate("window.exactmines.state.game.over"):
        page.click("#hint")
        page.wait_for_selector("#recommendation")
        assert page.locator("#board .cell.rec").count() >= 1
    assert page.locator("#clicks tbody tr").count() >= 1


def test_play_with_the_keyboard(page, base_url):
    page.goto(base_url + "#play:9x9x10:opening:8")
    wait_ready(page)
    page.focus("#board")
    for _ in range(4):
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # reveal (4, 4): opening rule, so a 0 and its area
    page.wait_for_function("() => window.exactmines.state.game.started")
    game = page.evaluate("window.exactmines.state.game")
    assert game["rows"][4][4] == "0" and len(game["clicks"]) == 1
    target = next((r, c) for r in range(9) for c in range(9) if game["rows"][r][c] == "H")
    page.keyboard.press("Home")
    for _ in range(4):
        page.keyboard.press("ArrowUp")
    for _ in range(target[0]):
        page.keyboard.press("ArrowDown")
    for _ in range(target[1]):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("f")
    row, col = target
    page.wait_for_function(f"() => window.exactmines.state.game.rows[{row}][{col}] === 'F'")
    page.keyboard.press("i")  # hint
    page.wait_for_selector("#recommendation")
    page.keyboard.press("o")  # overlay off: no numbers on the board
    page.wait_for_function("() => !document.querySelector('#board .cell.prob')")


def test_upload_an_mbf_and_download_it_back(page, base_url, tmp_path):
    board = Board(8, 6, frozenset({(0, 0), (2, 3), (5, 7), (4, 1)}))
    path = tmp_path / "board.mbf"
    path.write_bytes(board_to_mbf(board))
    page.goto(base_url)
    wait_ready(page)
    page.set_input_files("#upload", str(path))
    page.wait_for_function("() => window.exactmines.state.width === 8")
    wait_ready(page)
    cells = page_cells(page)
    assert {cell for cell, c in cells.items() if "hidden-mine" in c["class"]} == board.mine_cells
    with page.expect_download() as download:
        page.click("#download-mbf")
    saved = tmp_path / "saved.mbf"
    download.value.save_as(saved)
    assert saved.read_bytes() == board_to_mbf(board)
    with page.expect_download() as download:
        page.click("#download-mine")
    saved = tmp_path / "saved.mine"
    download.value.save_as(saved)
    assert saved.read_text() == board_to_mine(board)


def test_a_100x100_board_scrolls_and_zooms(page, base_url):
    page.goto(base_url)
    wait_ready(page)
    page.fill("#width", "100")
    page.fill("#height", "100")
    page.fill("#mines", "1500")
    page.click("#new-board")
    page.wait_for_function("() => document.querySelectorAll('#board .cell').length === 10000")
    wait_ready(page)
    cell = page.locator("#c5050")
    assert cell.get_attribute("data-p") == "3/20"
    size = cell.bounding_box()["width"]
    page.click("#zoom-out")
    page.click("#zoom-out")
    assert page.locator("#c5050").bounding_box()["width"] < size
    wrap = page.evaluate("(() => { const w = document.getElementById('board-wrap'); return"
                         " [w.scrollWidth, w.clientWidth, w.scrollHeight, w.clientHeight]; })()")
    assert wrap[0] > wrap[1] or wrap[2] > wrap[3]  # the board scrolls inside its frame
    page.click("[data-tool='2']")
    page.click("#c0")
    page.wait_for_function("() => window.exactmines.positionKey().includes(':2H')")
    wait_ready(page)
    analysis = analysis_to_dict(analyze(position_from_text(
        "100x100x1500\n2" + "H" * 99 + "\n" + ("H" * 100 + "\n") * 99)))
    assert page.locator("#c1").get_attribute("data-p") == next(
        c["probability"] for c in analysis["cells"] if (c["row"], c["col"]) == (0, 1))


def test_readable_at_phone_width(browser, base_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto(base_url + fragment_of(EXPERT.read_text()))
    wait_ready(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing pushes the page sideways: the board scrolls in its frame
    panel = page.locator("#panel").bounding_box()
    board = page.locator("#board-wrap").bounding_box()
    assert panel["y"] >= board["y"] + board["height"] - 1  # the panel goes below the board
    font = page.evaluate(
        "parseFloat(getComputedStyle(document.getElementById('summary')).fontSize)")
    assert font >= 13
    # The board comes first: the controls are folded into the menu, above nothing.
    assert not page.locator("#controls").is_visible()
    assert board["y"] < 80
    page.tap("#c35")
    # The recommended cell's frame is drawn around the cell (18 px cells: a frame inside
    # would cover its number).
    rec = page.locator("#board .cell.rec").first
    assert rec.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "test_readable_at_phone_width.png"), full_page=True)
    page.tap("#menu")
    assert page.locator("#controls").is_visible()
    assert page.get_attribute("#menu", "aria-expanded") == "true"
    page.screenshot(path=str(SHOTS / "test_readable_at_phone_width-menu.png"))
    page.tap("#menu")
    assert not page.locator("#controls").is_visible()
    context.close()


def test_the_page_loads_nothing_from_outside(browser, base_url):
    context = browser.new_context()
    page = context.new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(base_url + fragment_of(REFERENCE))
    wait_ready(page)
    assert requested and all(url.startswith(base_url) or url.startswith("data:")
                             for url in requested), requested
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "test_the_page_loads_nothing_from_outside.png"))
    context.close()


def test_upload_data_is_sent_as_base64(page, base_url, tmp_path):
    # An x/o board text file: read by the server, never written anywhere.
    path = tmp_path / "board.txt"
    path.write_text("xoo\noox\n")
    page.goto(base_url)
    wait_ready(page)
    sent: list[dict] = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data))
            if r.url.endswith("/api/import") else None)
    page.set_input_files("#upload", str(path))
    page.wait_for_function("() => window.exactmines.state.width === 3")
    assert base64.b64decode(sent[0]["data"]) == b"xoo\noox\n" and sent[0]["name"] == "board.txt"


# -- help at a guess ----------------------------------------------------------------------

GUIDE = {p.name.split("-")[1]: p for p in INSTANCES.glob("guide-*.mine")}


def guide_expected(kind: str) -> dict:
    return json.loads(GUIDE[kind].with_suffix(".json").read_text())["expected"]


def players_choice(text: str) -> tuple[int, int]:
    """The cell ``exactmines play``'s player clicks on this position."""
    position = position_from_text(text)
    width = position.width
    player = Player(width, position.height, position.mines, STRATEGIES["best"])
    player.show([(r * width + c, int(ch)) for r, row in enumerate(position.rows)
                 for c, ch in enumerate(row) if ch.isdigit()])
    cells, guess = player.next_clicks()
    assert guess
    return divmod(cells[0], width)


def candidate_rows(page: Page) -> list[dict]:
    return page.eval_on_selector_all(
        "#candidates tbody tr",
        "rows => rows.map(r => ({cell: Number(r.dataset.cell), chosen: r.classList.contains("
        "'chosen'), p: r.querySelector('[data-field=probability]').dataset.exact}))")


def test_the_best_guesses_are_the_players_with_analyze_s_fractions(page, base_url, capsys,
                                                                    tmp_path):
    text = GUIDE["candidates"].read_text()
    page.goto(base_url + fragment_of(text))
    wait_ready(page)
    rows = candidate_rows(page)
    assert len(rows) == 5 and rows[0]["chosen"] and not any(r["chosen"] for r in rows[1:])
    # The first is the cell the player plays; the order is the strategy's (the instance's
    # expectation, from /api/overlay).
    width = 30
    assert divmod(rows[0]["cell"], width) == players_choice(text)
    assert [list(divmod(r["cell"], width)) for r in rows] == guide_expected("candidates")[
        "candidates"]
    # Each one's mine probability is analyze's fraction for its cell.
    fractions = {(c["row"], c["col"]): c["probability"]
                 for c in cli_json(capsys, text, tmp_path)["cells"]}
    for r in rows:
        assert r["p"] == fractions[divmod(r["cell"], width)]
    assert "row 4, col 24" in page.inner_text("#recommendation")
    # Clicking an entry marks its cell on the board.
    second = rows[1]["cell"]
    page.click(f"#candidates button[data-cell='{second}']")
    assert "picked" in page.get_attribute(f"#c{second}", "class")
    assert "picked" in page.get_attribute(f"#candidates tr[data-cell='{second}']", "class")
    page.hover(f"#candidates tr[data-cell='{second}'] [data-field=probability]")
    page.locator("#exact-pop").wait_for(state="visible")
    assert page.inner_text("#exact-pop") == rows[1]["p"]


@pytest.mark.parametrize("kind", ["pair", "box"])
def test_dead_cells_and_fifty_fifties_are_marked(page, base_url, kind):
    page.goto(base_url + fragment_of(GUIDE[kind].read_text()))
    wait_ready(page)
    want = guide_expected(kind)
    cells = page_cells(page)
    dead = sorted([r, c] for (r, c), v in cells.items() if " dead" in v["class"])
    fifty = sorted([r, c] for (r, c), v in cells.items() if " fifty" in v["class"])
    assert dead == sorted(want["dead"]) and dead
    assert fifty == sorted(cell for group in want["fifty_fifties"] for cell in group) and fifty
    assert all("dead: opening it tells nothing" in cells[tuple(c)]["label"] for c in dead)
    marks = page.inner_text("#markers")
    assert f"{len(dead)} dead cell" in marks and "1 50/50" in marks
    assert "dead" in page.inner_text("#legend") and "50/50" in page.inner_text("#legend")


def test_the_endgame_win_probability_is_shown_exactly(page, base_url):
    # The position's win probability with best play is 2/5: tests/test_guide_instances.py
    # finds the same by brute force over its 5 layouts.
    page.goto(base_url + fragment_of(GUIDE["endgame"].read_text()))
    wait_ready(page)
    text = page.inner_text("#endgame")
    assert "Chance to win with best play: 2/5 (40.00%)" in text and "5 layouts" in text
    win = page.eval_on_selector_all("#candidates tbody tr.chosen td:last-child .short",
                                    "els => els.map(e => e.dataset.exact)")
    assert win == ["2/5"]


def play_board(page: Page, base_url: str, rows: list[str], mines: int) -> None:
    """Play a board drawn in the editor (mines marked M)."""
    page.goto(base_url + f"#{len(rows[0])}x{len(rows)}x{mines}:{'/'.join(rows)}")
    wait_ready(page)
    page.click("#play-board")
    page.wait_for_function("() => window.exactmines.state.game && "
                           "window.exactmines.state.game.fixed_board")


def test_a_chord_opens_the_cells_around_a_satisfied_number(page, base_url):
    play_board(page, base_url, ["HMHH", "HHHM"], 2)
    page.click("#c0")  # the corner shows 1
    page.wait_for_function("() => window.exactmines.state.game.rows[0][0] === '1'")
    page.click("#c1", button="right")  # the mine
    page.wait_for_function("() => window.exactmines.state.game.rows[0][1] === 'F'")
    wait_ready(page)
    # The flag is drawn as a flag, overlay on or not.
    assert page.inner_text("#c1") == "F" and "flag" in page.get_attribute("#c1", "class")
    page.click("#c0")  # a click on the satisfied 1: a chord
    page.wait_for_function("() => window.exactmines.state.game.rows[1].startsWith('11')")
    game = page.evaluate("window.exactmines.state.game")
    assert game["rows"] == ["1FHH", "11HH"] and game["clicks"][-1]["by"] == "chord"
    assert game["clicks"][-1]["probability"] == "2/3"
    assert "chord" in page.inner_text("#clicks")


def test_a_chord_on_a_wrong_flag_loses(page, base_url):
    play_board(page, base_url, ["HMHH", "HHHM"], 2)
    page.click("#c0")
    page.wait_for_function("() => window.exactmines.state.game.rows[0][0] === '1'")
    page.click("#c4", button="right")  # (1,0): safe, so the flag is wrong
    page.wait_for_function("() => window.exactmines.state.game.rows[1][0] === 'F'")
    page.click("#c0", button="middle")  # the middle button chords too
    page.wait_for_selector("#outcome")
    assert page.get_attribute("#outcome", "data-outcome") == "lost"
    assert page.inner_text("#c1") == "✸"
    assert page.inner_text("#bbbv") == "6"


def test_a_300x300_position_opens_on_its_recommended_cell(page, base_url):
    text = (INSTANCES / "large-300x300x18000-seed1.mine").read_text()
    page.goto(base_url + fragment_of(text))
    # A limit a loaded machine keeps (at the default 5 s, the count was cut short at load 7
    # and no cell was recommended); the page's own speed is measured by scripts/bench_serve.py.
    page.fill("#time-limit", "30")  # the most the server takes
    page.dispatch_event("#time-limit", "change")
    page.evaluate("document.activeElement.blur()")  # the key R below is the page's, not typed
    page.wait_for_function(
        "() => { const s = window.exactmines.state, b = document.getElementById('board');"
        " return b.dataset.state === 'ready' && b.dataset.key === window.exactmines.positionKey()"
        " && s.overlay && s.overlay.recommendation; }", timeout=120_000)
    move = page.evaluate("window.exactmines.state.overlay.recommendation")
    cell = move["row"] * 300 + move["col"]
    assert (move["row"], move["col"]) == (26, 104) and move["kind"] == "certain"
    assert page.evaluate(f"window.exactmines.cellVisible({cell})")
    assert not page.evaluate("window.exactmines.cellVisible(0)")  # the view moved there
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "test_a_300x300_position-recommended.png"))
    # The overview: the whole board in its frame.
    page.click("#zoom-fit")
    frame = page.locator("#board-wrap").bounding_box()
    board = page.locator("#board").bounding_box()
    assert board["width"] <= frame["width"] and board["height"] <= frame["height"]
    assert page.evaluate("window.exactmines.cellVisible(0)")
    assert page.evaluate(f"window.exactmines.cellVisible({300 * 300 - 1})")
    page.screenshot(path=str(SHOTS / "test_a_300x300_position-overview.png"))
    # Zoomed in again, the key R brings the recommended cell back into view.
    for _ in range(4):
        page.click("#zoom-in")
    page.evaluate("document.getElementById('board-wrap').scrollTo(4000, 4000)")
    assert not page.evaluate(f"window.exactmines.cellVisible({cell})")
    page.keyboard.press("r")
    assert page.evaluate(f"window.exactmines.cellVisible({cell})")
    # A click on the canvas reaches the cell under it.
    box = page.locator("#board-canvas").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.locator("#tooltip").wait_for(state="visible")
    assert page.inner_text("#tooltip").startswith("row ")


def test_a_48_digit_count_is_short_with_its_exact_value_on_hover(page, base_url):
    page.goto(base_url + "#16x16x40:" + "/".join(["H" * 16] * 16))
    wait_ready(page)
    exact = "104921249538770987879991995968495941124675048800"  # C(256, 40)
    short = page.locator("#layouts .short")
    assert short.inner_text() == "1.04 × 10⁴⁷"
    assert short.get_attribute("data-exact") == exact
    assert short.evaluate("e => getComputedStyle(e).whiteSpace") == "nowrap"
    short.hover()
    pop = page.locator("#exact-pop")
    pop.wait_for(state="visible")
    assert pop.inner_text() == exact
    assert page.locator("#layouts .copy").is_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "test_a_48_digit_count-hover.png"))


@pytest.mark.parametrize("outcome", ["504", "503", "network", "not-computed"])
def test_an_overlay_that_fails_never_leaves_analysing(page, base_url, outcome):
    """However /api/overlay ends (an error status, busy, no server, or an answer past the
    time limit), the panel says so instead of "Analysing…"."""
    page.goto(base_url + fragment_of(REFERENCE))
    wait_ready(page)
    calls = {"n": 0}

    def answer(route):
        calls["n"] += 1
        if outcome == "504":
            route.fulfill(status=504, json={"error": "not finished within 6 s"})
        elif outcome == "503":
            route.fulfill(status=503, json={"error": "busy: every worker is taken"},
                          headers={"Retry-After": "1"})
        elif outcome == "network":
            route.abort("connectionrefused")
        else:
            body = json.loads(route.request.post_data)
            route.continue_(post_data=json.dumps({**body, "time_limit": 0.0005}))

    page.route("**/api/overlay", answer)
    hard = (INSTANCES / "sat-3sat-v5-c21-seed1-000.mine").read_text()
    page.evaluate(f"location.hash = {fragment_of(hard)!r}")
    summary = page.locator("#summary")
    if outcome == "not-computed":
        page.wait_for_selector("#not-computed", timeout=30_000)
        assert "not computed within the time limit" in summary.inner_text()
    else:
        page.wait_for_selector("#overlay-failed", timeout=30_000)
        text = page.inner_text("#overlay-failed")
        assert text.startswith("Not analysed: ")
        assert {"504": "not finished within 6 s", "503": "busy",
                "network": "the server does not answer"}[outcome] in text
        assert page.get_attribute("#board", "data-state") == "error"
    assert "Analysing" not in summary.inner_text()
    if outcome == "503":
        assert calls["n"] == 4  # asked again three times, a second apart


def test_time_limit_half_a_second_on_a_hard_file_ends_in_an_answer(page, base_url):
    # The trial: generate sat --variables 5 --clauses 21 --seed 2, time limit 0.5.
    hard = (INSTANCES / "sat-3sat-v5-c21-seed2-000.mine").read_text()
    page.goto(base_url + fragment_of(hard))
    page.fill("#time-limit", "0.5")
    page.dispatch_event("#time-limit", "change")
    page.wait_for_function(
        "() => ['ready', 'error'].includes(document.getElementById('board').dataset.state)"
        " && !document.getElementById('analysing')", timeout=60_000)
    summary = page.inner_text("#summary")
    assert "Analysing" not in summary
    assert "layouts" in summary or "Not analysed" in summary


def test_the_cell_panel_and_tooltip_follow_the_overlay(page, base_url):
    page.goto(base_url + fragment_of(REFERENCE))
    wait_ready(page)
    # The next overlay is held back: the pointer rests on a cell while it is on its way.
    page.evaluate("""() => {
        const real = window.fetch;
        window.fetch = async (...args) => {
            const answer = await real(...args);
            if (String(args[0]).includes('/api/overlay')) {
                await new Promise(done => setTimeout(done, 1500));
            }
            return answer;
        };
    }""")
    page.focus("#board")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("2")  # (1,0) becomes a 2: a new position
    page.hover("#c4")
    tip = page.locator("#tooltip")
    tip.wait_for(state="visible")
    assert "analysing" in tip.inner_text()
    wait_ready(page)
    assert "mine probability" in tip.inner_text()
    assert "mine probability" in page.inner_text("#cell-info")
    # A position of another size: the old cell's text goes.
    page.evaluate("location.hash = '#3x1x1:H1H'")
    page.wait_for_function("() => window.exactmines.state.width === 3")
    wait_ready(page)
    assert "row 0, col 4" not in page.inner_text("#cell-info")


def test_flags_are_drawn_never_recommended_and_kept_by_step(page, base_url):
    page.goto(base_url + "#play:16x16x40:safe:21")
    wait_ready(page)
    for _ in range(40):  # step to the first guess
        move = page.evaluate("window.exactmines.state.overlay.recommendation")
        if move["kind"] not in ("first", "certain"):
            break
        page.click("#step")
        page.wait_for_function("() => window.exactmines.state.game.clicks.length > 0")
        wait_ready(page)
    assert move["kind"] not in ("first", "certain")
    guess = move["row"] * 16 + move["col"]
    page.click(f"#c{guess}", button="right")
    page.wait_for_function(f"() => window.exactmines.state.game.rows[{move['row']}]"
                           f"[{move['col']}] === 'F'")
    wait_ready(page)
    assert page.inner_text(f"#c{guess}") == "F"  # drawn as a flag with the overlay on
    other = page.evaluate("window.exactmines.state.overlay.recommendation")
    assert (other["row"], other["col"]) != (move["row"], move["col"])
    assert other["kind"] == "unflagged"
    assert guess not in [r["cell"] for r in candidate_rows(page)]
    page.click("#step")
    page.wait_for_function("() => window.exactmines.state.game.clicks.some(c => c.by === "
                           f"'step' && c.row === {other['row']} && c.col === {other['col']})")
    assert page.evaluate(f"window.exactmines.state.game.rows[{move['row']}]"
                         f"[{move['col']}]") == "F"


def test_auto_play_at_a_chosen_speed_with_the_clock_3bv_and_efficiency(page, base_url):
    page.goto(base_url + "#play:9x9x10:opening:3:noguess")
    wait_ready(page)
    page.select_option("#step-delay", "250")
    started = time.monotonic()
    page.click("#auto")
    page.wait_for_selector("#outcome", timeout=60_000)
    game = page.evaluate("window.exactmines.state.game")
    steps = sum(1 for c in game["clicks"] if c["by"] == "step")
    assert game["won"] and steps >= 2
    # A step every 0.25 s: the moves after the first waited their turn.
    moves = len({(c["row"], c["col"]) for c in game["clicks"]})
    assert time.monotonic() - started >= 0.25 * (len(game["clicks"]) > 1)
    assert moves == len(game["clicks"])
    assert page.inner_text("#bbbv") == str(game["bbbv"])
    assert page.inner_text("#efficiency").endswith(
        f"(3BV {game['bbbv']} in {game['click_count']} clicks)")
    assert page.inner_text("#timer").endswith(" s")


def test_a_won_game_shows_its_exact_zini(page, base_url, tmp_path):
    # The efficiency line of Play mode ends with the exact ZiNi of the board, once won.
    from exactmines.efficiency.zini import fewest_clicks
    from exactmines.position import Board

    page.goto(base_url + "#play:9x9x10:opening:3:noguess")
    wait_ready(page)
    assert page.locator("#zini").count() == 0
    page.click("#auto")
    page.wait_for_selector("#outcome", timeout=60_000)
    game = page.evaluate("window.exactmines.state.game")
    assert game["won"]
    page.wait_for_selector("#zini")
    zini = game["zini"]
    mines = frozenset((r, c) for r in range(9) for c in range(9)
                      if game["rows"][r][c] in "FMHX")
    board = Board(9, 9, mines)
    assert len(mines) == 10
    expected = fewest_clicks(board)  # unlimited: proved (the server's may not be, loaded)
    assert zini["lower_bound"] <= expected.clicks <= zini["clicks"]
    assert zini["optimal"] == (zini["lower_bound"] == zini["clicks"])
    if zini["optimal"]:
        share = round(100 * expected.clicks / game["click_count"])
        text = f"{expected.clicks}: {game['click_count']} clicks, {share}% of the fewest"
    else:
        text = (f"between {zini['lower_bound']} and {zini['clicks']} (time limit reached): "
                f"{game['click_count']} clicks")
    assert page.inner_text("#zini") == text
    page.screenshot(path=str(tmp_path / "zini.png"), full_page=True)
    print("screenshot", tmp_path / "zini.png")


def test_undo_takes_back_the_last_edit(page, base_url):
    page.goto(base_url + fragment_of(REFERENCE))
    wait_ready(page)
    before = page.evaluate("window.exactmines.positionKey()")
    page.focus("#board")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("3")
    page.wait_for_function(f"() => window.exactmines.positionKey() !== {before!r}")
    wait_ready(page)
    page.keyboard.press("u")
    page.wait_for_function(f"() => window.exactmines.positionKey() === {before!r}")
    wait_ready(page)
    assert "1031" in page.inner_text("#summary")
    page.keyboard.press("Control+z")  # nothing more to undo: the position stays
    assert page.evaluate("window.exactmines.positionKey()") == before


HEX = INSTANCES / "hex-position-30x16x99-seed1-000.mine"


def test_a_hex_position_drawn_as_hexagons_with_analyzes_fractions(page, base_url, capsys,
                                                                  tmp_path):
    text = HEX.read_text()
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert lines[0] == "30x16x99 hex"
    page.goto(base_url + f"#30x16x99@hex:{'/'.join(lines[1:])}")
    wait_ready(page)
    expected = cli_json(capsys, text, tmp_path)
    assert expected["topology"] == "hex"
    assert_page_matches(page, expected)
    assert page.get_attribute("#board", "data-topology") == "hex"
    assert page.input_value("#topology") == "hex"
    # Odd rows sit half a cell to the right, rows step down less than a hexagon's height.
    first, below, right = (page.locator(f"#c{i}").bounding_box() for i in (0, 30, 1))
    assert first and below and right
    assert abs((below["x"] - first["x"]) - (right["x"] - first["x"]) / 2) < 1.5
    assert 0 < below["y"] - first["y"] < below["height"]
    # The player's advice on hexagons: the certainly safe cells are recommended.
    recommended = page.eval_on_selector_all("#board .cell.rec", "els => els.map(e => e.id)")
    safe = {f"c{c['row'] * 30 + c['col']}" for c in expected["cells"] if c["verdict"] == "safe"}
    assert recommended and set(recommended) <= safe
    page.screenshot(path=str(SHOTS / "hex-position.png"))


def _numbers_agree(rows: list[str], word: str) -> int:
    """How many revealed numbers of a finished game's rows (every mine shown, M or X) are
    checked against the topology's neighbour table; raises when one differs."""
    from exactmines.topology import named_topology

    width, height = len(rows[0]), len(rows)
    topology = named_topology(word, width, height)
    flat = "".join(rows)
    checked = 0
    for i, ch in enumerate(flat):
        if ch.isdigit():
            around = topology.neighbour_table[i]
            assert int(ch) == sum(flat[j] in "MXF" for j in around), (word, divmod(i, width))
            checked += 1
    return checked


def test_torus_and_hex_games_are_played_on_their_own_neighbours(page, base_url):
    page.goto(base_url + "#play:9x9x10@torus:safe:4")
    wait_ready(page)
    assert page.get_attribute("#board", "data-topology") == "torus"
    assert page.eval_on_selector("#board", "e => getComputedStyle(e).borderTopStyle") == "dashed"
    page.click("#auto")
    page.wait_for_selector("#outcome", timeout=60_000)
    game = page.evaluate("window.exactmines.state.game")
    assert game["topology"] == "torus" and game["over"]
    assert _numbers_agree(game["rows"], "torus") > 0
    page.screenshot(path=str(SHOTS / "torus-game.png"))
    # Another shape from the menu: a new game on hexagons, played with the overlay on.
    page.select_option("#topology", "hex")
    page.wait_for_function("() => window.exactmines.state.game.topology === 'hex'"
                           " && !window.exactmines.state.game.started")
    assert page.get_attribute("#board", "data-topology") == "hex"
    assert "@hex" in page.evaluate("location.hash")
    page.click("#c40")  # the centre
    page.wait_for_function("() => window.exactmines.state.game.started")
    wait_ready(page)
    for _ in range(3):
        if page.evaluate("window.exactmines.state.game.over"):
            break
        page.click("#step")
        page.wait_for_function("() => window.exactmines.state.game.clicks.length > 1")
        wait_ready(page)
    page.screenshot(path=str(SHOTS / "hex-game.png"))
    page.click("#auto")
    page.wait_for_selector("#outcome", timeout=60_000)
    game = page.evaluate("window.exactmines.state.game")
    assert game["topology"] == "hex" and _numbers_agree(game["rows"], "hex") > 0


def test_the_shapes_offered_are_the_servers_and_a_cylinder_is_drawn_and_played(
        page, base_url, capsys, tmp_path):
    from exactmines.ui.web.games import PAGE_KINDS

    # The menu is the server's list (/api/health), the cylinder among it.
    page.goto(base_url)
    wait_ready(page)
    options = page.eval_on_selector_all("#topology option", "els => els.map(e => e.value)")
    assert options == list(PAGE_KINDS) and "cylinder" in options
    # A cylinder position from a link: drawn as squares, its left and right edges dashed,
    # its analysis the command line's.
    rows = ["H10HHH1H", "H10HHH1H", "10111011", "H01HHH1H", "H01HHH1H"]
    page.goto(base_url + f"#8x5x4@cylinder:{'/'.join(rows)}")
    wait_ready(page)
    expected = cli_json(capsys, "8x5x4 cylinder\n" + "\n".join(rows) + "\n", tmp_path)
    assert expected["topology"] == "cylinder"
    assert_page_matches(page, expected)
    assert page.get_attribute("#board", "data-wrap") == "cols"
    style = "e => [getComputedStyle(e).borderLeftStyle, getComputedStyle(e).borderTopStyle]"
    assert page.eval_on_selector("#board", style) == ["dashed", "solid"]
    page.screenshot(path=str(SHOTS / "cylinder-position.png"))
    # A game on it from a link, played to the end on the cylinder's neighbours.
    page.goto(base_url + "#play:9x9x10@cylinder:safe:4")
    wait_ready(page)
    assert page.get_attribute("#board", "data-topology") == "cylinder"
    page.click("#auto")
    page.wait_for_selector("#outcome", timeout=60_000)
    game = page.evaluate("window.exactmines.state.game")
    assert game["topology"] == "cylinder" and game["over"]
    assert _numbers_agree(game["rows"], "cylinder") > 0
    page.screenshot(path=str(SHOTS / "cylinder-game.png"))


# -- replays ----------------------------------------------------------------------------

REPLAYS = ROOT / "tests" / "data" / "replays"


def open_replay(page: Page, base_url: str, path: Path) -> dict:
    page.goto(base_url)
    wait_ready(page)
    page.click("#mode-replay")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_function("() => window.exactmines.state.replay !== null")
    wait_ready(page)
    return page.evaluate("window.exactmines.state.replay.answer")


def test_a_replay_stepped_through_with_the_overlay_as_it_was(page, base_url, capsys,
                                                              tmp_path):
    path = REPLAYS / "public" / "clone-expert-zhang-shen-jia.mvf"
    answer = open_replay(page, base_url, path)
    assert main(["replay", str(path), "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert answer["events"] == printed["events"] and answer["luck"] == printed["luck"]
    assert page.inner_text("#replay-step") == f"event 1 of {len(answer['events'])}"
    # To the riskiest guess, the board drawn in the picture of docs/replay.md.
    riskiest = answer["riskiest"]["index"]
    while page.evaluate("window.exactmines.state.replay.step") != riskiest:
        page.click("#replay-guess")
        wait_ready(page)
    event = answer["events"][riskiest]
    assert page.inner_text("#click-class") == event["class"] == "needless guess"
    assert page.inner_text("#click-chance").startswith(event["probability"])
    # The overlay is the exact analysis of the position the player saw, flags untrusted.
    rows = [row.replace("F", "H") for row in answer["shown"][riskiest]]
    text = f"{answer['width']}x{answer['height']}x{answer['mines']}\n" + "\n".join(rows) + "\n"
    assert_page_matches(page, cli_json(capsys, text, tmp_path))
    clicked = page.eval_on_selector_all("#board .cell.clicked",
                                        "els => els.map(e => [Number(e.dataset.row),"
                                        " Number(e.dataset.col)])")
    assert clicked == event["opens"]
    # The risk log: one row per click that opened cells, the current one marked; a row
    # jumps to its click.
    opening = [e for e in answer["events"] if e["class"] is not None]
    assert page.locator("#replay-clicks tbody tr").count() == len(opening)
    assert page.locator("#replay-clicks tr.current").count() == 1
    page.locator("#replay-clicks tbody tr").nth(3).click()
    wait_ready(page)
    assert page.evaluate("window.exactmines.state.replay.step") == opening[3]["index"]
    page.keyboard.press(".")
    wait_ready(page)
    assert page.evaluate("window.exactmines.state.replay.step") == opening[3]["index"] + 1
    # Back to the guess for the screenshot people look at.
    page.locator("#replay-clicks tbody tr").nth(opening.index(event)).click()
    wait_ready(page)
    assert page.evaluate("window.exactmines.state.replay.step") == riskiest
    assert page.inner_text("#click-class") == "needless guess"


def test_the_end_of_a_lost_replay_shows_the_mines(page, base_url):
    answer = open_replay(page, base_url, REPLAYS / "recorded" /
                         "clumsy-small-5x5x4-seed21-v0.evf")
    page.click("#replay-last")
    page.wait_for_selector("#outcome")
    assert page.get_attribute("#outcome", "data-outcome") == "lost"
    assert page.inner_text("#replay-step") == f"the end ({len(answer['events'])} events)"
    assert page.locator("#board .cell.exploded").count() == 1
    assert page.locator("#board .cell.shown-mine").count() == answer["mines"] - 1
    # Trusting the flags, the losing chord looked safe.
    page.click("#replay-first")
    wait_ready(page)
    page.check("#trust-flags")
    page.wait_for_function("() => window.exactmines.state.replay.answer.trust_flags")
    wait_ready(page)
    lost = page.evaluate("window.exactmines.state.replay.answer.lost_at")
    assert lost["probability"] == "0"


def test_a_damaged_replay_is_one_line(page, base_url):
    page.goto(base_url)
    wait_ready(page)
    page.click("#mode-replay")
    page.set_input_files("#replay-file", str(REPLAYS / "public" /
                                            "damaged-vienna-invalid-utf8.rmv"))
    page.wait_for_selector("#error:not([hidden])")
    message = page.inner_text("#error")
    assert message.startswith("damaged-vienna-invalid-utf8.rmv: ms_toollib")
    assert "\n" not in message.strip()


def test_copy_a_jsminesweeper_link_of_the_board_drawn(page, base_url, tmp_path):
    from exactmines.io.urls import board_from_jsm_url, board_to_jsm_url

    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(base_url)
    wait_ready(page)
    # A position without its mines marked is no board: the one-line error, no link.
    page.click("#copy-jsm-link")
    page.wait_for_selector("#error:not([hidden])")
    assert "mine" in page.text_content("#error") and page.is_hidden("#jsm-link")
    board = Board(9, 9, frozenset({(0, 0), (2, 3), (8, 8), (4, 1), (7, 2)}))
    path = tmp_path / "board.mbf"
    path.write_bytes(board_to_mbf(board))
    page.set_input_files("#upload", str(path))
    # The board shown before was 9 wide too, and ready: wait for the file's own (its mine at
    # the corner in the page's address), else the click may export the old one and fail.
    page.wait_for_function("() => location.hash.startsWith('#9x9x5:M')")
    wait_ready(page)
    page.click("#copy-jsm-link")
    page.wait_for_selector("#jsm-link:not([hidden])", timeout=60_000)  # a loaded machine
    link = page.get_attribute("#jsm-link", "href")
    assert link == board_to_jsm_url(board) and board_from_jsm_url(link) == board
    # The link is shown when the server answers; "copied" once the clipboard took it.
    page.wait_for_function("() => document.getElementById('jsm-link').textContent"
                           ".startsWith('link copied')", timeout=30_000)
    assert page.evaluate("navigator.clipboard.readText()") == link
    assert page.text_content("#jsm-link") == "link copied: open in JSMinesweeper"
    assert page.is_hidden("#error")


def test_uniqueness_not_decided_is_said_never_no(page, base_url):
    # An overlay whose uniqueness the time limit left open (unique null): the panel said
    # "no", a claim never proved.
    def undecided(route):
        response = route.fetch()
        body = response.json()
        body["analysis"].update(unique=None, consistent=None, layouts=None)
        route.fulfill(response=response, json=body)

    page.route("**/api/overlay", undecided)
    page.goto(base_url + fragment_of(REFERENCE))
    page.wait_for_selector("#unique-undecided", timeout=30_000)
    assert page.inner_text("#unique-undecided") == "not decided within the time limit"
    rows = page.inner_text("#summary")
    assert "unique\tno" not in rows and "unique no" not in rows
