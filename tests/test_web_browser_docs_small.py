"""The page says counts as the command line does: "1 mine", "1 more certainly safe cell"
(it printed "1 mines"), through one helper (static/js/words.js)."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")

from test_web_browser import (  # noqa: E402  (fixtures: the server, Chromium, a tab)
    base_url,
    browser,
    fragment_of,
    page,
    wait_ready,
)

__all__ = ["base_url", "browser", "page"]


def test_one_mine_is_one_mine(page, base_url):
    page.goto(base_url + fragment_of("2x1x1\n1H\n"))
    wait_ready(page)
    text = page.inner_text("body")
    assert "2x1, 1 mine" in text and "0 safe, 1 mine" in text
    assert "1 mines" not in text


def test_one_more_safe_cell_is_one(page, base_url):
    page.goto(base_url + fragment_of("4x1x1\nH0HH\n"))
    wait_ready(page)
    page.wait_for_function("() => document.body.innerText.includes('more certainly safe')")
    text = page.inner_text("body")
    assert "(and 1 more certainly safe cell)" in text, text
