"""Replay mode says a game as ``exactmines replay`` says it, in headless Chromium (the
fixtures of :mod:`test_web_browser`): a chord's row of the log names the cells it opened,
the luck is called luck with the text's words, the clicks are counted by class as the text
counts them, a lost game has no 3BV/s anywhere, and a game lost at its first click reads
as the text and the JSON read it."""

from __future__ import annotations

import json

from test_web_browser import (  # noqa: F401  (fixtures)
    REPLAYS,
    base_url,
    browser,
    open_replay,
    page,
)

from exactmines.ui.cli import main

#: Two chords, then lost at a guess after one guess survived (luck 8/9).
LOST = REPLAYS / "recorded" / "clumsy-small-5x5x4-seed1-v3.evf"


def _cells(cells: list[list[int]]) -> str:
    return " ".join(f"{r},{c}" for r, c in cells)


def test_a_chords_row_and_panel_say_what_it_opened(page, base_url):  # noqa: F811 (fixtures)
    # Two rows "1,0 safe 0%" looked like a double click, and a chord's row did not say
    # what it opened.
    answer = open_replay(page, base_url, LOST)
    opening = [e for e in answer["events"] if e["class"] is not None]
    chords = [e for e in opening if e["kind"] == "chord"]
    assert chords
    rows = page.eval_on_selector_all("#replay-clicks tbody tr td:nth-child(2)",
                                     "els => els.map(e => e.innerText)")
    assert rows == [f"{e['cell'][0]},{e['cell'][1]}" + (
        f" chord\nopens {_cells(e['opens'])}" if e["kind"] == "chord" else "")
        for e in opening]
    # The panel of the chord shown says the same.
    chord = chords[0]
    page.click(f"#replay-clicks tbody tr[data-step='{chord['index']}']")
    page.wait_for_function(f"() => window.exactmines.state.replay.step === {chord['index']}")
    assert page.inner_text("#click-opens") == _cells(chord["opens"])


def test_the_luck_is_called_luck_in_the_texts_words(page, base_url, capsys):  # noqa: F811 (fixtures)
    # The page said "survival 8/9 (88.89%)" where the text says "luck: 8/9 = 88.9% ...,
    # the chance of surviving the 1 guess it survived".
    answer = open_replay(page, base_url, LOST)
    assert main(["replay", str(LOST)]) == 0
    (line,) = [t for t in capsys.readouterr().out.splitlines() if t.startswith("luck:")]
    assert line.startswith(f"luck: {answer['luck']} = ")
    words = line.split("), ", 1)[1]
    assert words == "the chance of surviving the 1 guess it survived"
    labels = page.eval_on_selector_all("#replay-info dt", "els => els.map(e => e.textContent)")
    assert "luck" in labels and "survival" not in labels
    assert page.inner_text("#luck").startswith(answer["luck"])
    assert page.inner_text("#luck-words") == f", {words}"


def test_a_lost_game_has_no_3bv_s_in_the_json_the_text_or_the_page(page, base_url, capsys):  # noqa: F811 (fixtures)
    # ms_toollib gives a lost game's 3BV/s (the whole board's 3BV over the time to the
    # loss: 115 here); the JSON passed it on while the text and the page left it out.
    answer = open_replay(page, base_url, LOST)
    assert answer["won"] is False and answer["ms_toollib"]["bbbv_s"] is None
    assert main(["replay", str(LOST), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["ms_toollib"]["bbbv_s"] is None
    assert main(["replay", str(LOST)]) == 0
    assert "3BV/s" not in capsys.readouterr().out
    assert "3BV/s" not in page.inner_text("#replay-info")


def test_the_clicks_by_class_read_as_the_text_reads_them(page, base_url, capsys):  # noqa: F811 (fixtures)
    # The page said "guesses 1 needless, 1 forced" where the text says "6 clicks opened
    # cells, 4 flags put or taken off: 1 first, 3 safe, 1 needless guess, 1 forced guess".
    open_replay(page, base_url, LOST)
    assert main(["replay", str(LOST)]) == 0
    (line,) = [t for t in capsys.readouterr().out.splitlines() if " opened cells" in t]
    assert page.inner_text("#replay-classes") == line
    page.check("#trust-flags")
    page.wait_for_function("() => window.exactmines.state.replay.answer.trust_flags")
    assert main(["replay", str(LOST), "--trust-flags"]) == 0
    (line,) = [t for t in capsys.readouterr().out.splitlines() if " opened cells" in t]
    page.wait_for_function(f"() => document.getElementById('replay-classes').textContent"
                           f" === {json.dumps(line)}")


def test_a_game_lost_at_its_first_click_reads_as_the_text_and_the_json(page, base_url,  # noqa: F811 (fixtures)
                                                                       tmp_path, capsys):
    # A first click on a mine (ms_toollib's recorder does not keep it safe) is a forced
    # guess at the board's density, 2 mines in 12 cells: the page's panel and log say what
    # the JSON and the text say, the luck that of no guess survived.
    from exactmines.io.replays import Recorder
    from exactmines.position import Board

    recorder = Recorder(Board(4, 3, frozenset({(0, 0), (2, 3)})))
    recorder.left((0, 0))
    path = tmp_path / "boom.evf"
    path.write_bytes(recorder.evf(player="me", software="test"))
    answer = open_replay(page, base_url, path)
    assert main(["replay", str(path), "--format", "json"]) == 0
    game = json.loads(capsys.readouterr().out)
    assert [(e["class"], e["probability"], e["mine"]) for e in game["events"]] == [
        ("forced guess", "1/6", True)]
    assert answer["events"] == game["events"]
    assert game["ms_toollib"]["bbbv_s"] is None
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert page.inner_text("#replay-classes") in text  # "1 click opened cells: 1 forced guess"
    assert page.inner_text("#luck") == "1 (no guess survived)"
    assert "luck: 1 (no guess survived)" in text
    assert page.inner_text("#click-class") == "forced guess"
    assert page.inner_text("#click-chance").startswith("1/6")
    row = page.inner_text("#replay-clicks tbody tr")
    assert "forced guess" in row and "1/6" in row and "mine!" in row and "kept safe" not in row
