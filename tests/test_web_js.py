"""The page's pure modules (number formats, colour scale, URL fragment, board text) under
node's own test runner: ``node --test tests/js/*.test.mjs``, which ``.ci/run`` also runs."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from programs import find_program

TESTS = Path(__file__).parent / "js"


def test_the_page_modules_pass_their_node_tests():
    node = find_program(("node", "nodejs"), "nodejs")
    files = sorted(str(p) for p in TESTS.glob("*.test.mjs"))
    assert len(files) >= 4
    done = subprocess.run([node, "--test", *files], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout


def test_the_page_preloads_every_module():
    """index.html names every module for preloading (fetched at once, not one import after
    another): a module added to static/js without its line would load late."""
    static = Path(__file__).parent.parent / "exactmines" / "ui" / "web" / "static"
    html = (static / "index.html").read_text()
    preloaded = set(re.findall(r'rel="modulepreload" href="/static/js/([\w.]+\.js)"', html))
    assert preloaded == {p.name for p in (static / "js").glob("*.js")}
    assert '<script type="module" src="/static/js/main.js">' in html
