"""The release's version is the same everywhere it is written."""

from __future__ import annotations

import re
from pathlib import Path

from exactmines import __version__
from exactmines.ui.cli import main

ROOT = Path(__file__).parent.parent


def test_the_changelog_names_this_version_first():
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", (ROOT / "CHANGELOG.md").read_text(),
                          flags=re.M)
    assert releases[0] == __version__
    assert releases[-1] == "0.1.0"


def test_version_option_prints_the_package_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"exactmines {__version__}\n"
