"""The page's pure modules (number formats, colour scale, URL fragment, board text) under
node's own test runner: ``node --test tests/js/*.test.mjs``, which ``.ci/run`` also runs."""

from __future__ import annotations

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
