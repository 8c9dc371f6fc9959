"""Every command the README (and a page of docs/) shows in a ``console`` block runs, and prints
what the page says.

Times (``11.1 ms``, ``9.3 s``) are the only parts left out of the comparison; JSON is compared
as JSON (the README wraps long lines). The ``bash`` blocks are covered elsewhere: the Dask
example by ``test_dask.py`` (the same commands on a local cluster), ``serve`` by
``test_web_api.py`` and ``test_web_browser.py``.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from exactmines.ui.cli import main

ROOT = Path(__file__).parent.parent
#: The README and the pages under docs/: every console example in them runs.
README = "\n".join(path.read_text() for path in [ROOT / "README.md",
                                                 *sorted((ROOT / "docs").glob("*.md"))])
_TIME = re.compile(r"\d[\d,]*(\.\d+)? (CPU )?(ms|s)\b")


def _examples() -> list[tuple[str, list[str]]]:
    examples: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.S):
        for chunk in block.split("$ ")[1:]:
            command, *output = chunk.rstrip("\n").split("\n")
            examples.append((command, output))
    return examples


EXAMPLES = [(c, o) for c, o in _examples() if c.startswith("exactmines ")]


def _normalised(lines: list[str]) -> list[str] | object:
    text = "\n".join(lines).strip()
    if text.startswith("{"):
        # "..." ends a list the README shortens: it shows the list's first items.
        document = json.loads(text.replace(", ...]", "]"))
        document.pop("seconds", None)
        return document
    return [_TIME.sub("T", line.rstrip()) for line in text.split("\n")]


def _shortened(printed: object, shown: object) -> object:
    """``printed`` with its lists cut to the length the README shows."""
    if isinstance(printed, dict) and isinstance(shown, dict):
        return {k: _shortened(v, shown.get(k)) for k, v in printed.items()}
    if isinstance(printed, list) and isinstance(shown, list):
        return printed[:len(shown)]
    return printed


def test_the_readme_has_examples_of_every_command():
    shown = {shlex.split(command)[1] for command, _ in EXAMPLES}  # curl's are web tests
    assert {"analyze", "solvable", "survey", "play", "batch", "convert", "generate",
            "replay"} <= shown


@pytest.mark.parametrize("command, output", EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_readme_example(command, output, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "instances").symlink_to(ROOT / "instances")
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    args = shlex.split(command)
    assert args[0] == "exactmines"
    assert main(args[1:]) == 0
    printed = capsys.readouterr().out.rstrip("\n").split("\n")
    if output:
        shown = _normalised(output)
        assert _shortened(_normalised(printed), shown) == shown
