"""Programs outside Python that some tests drive (a browser, node): found on the path, or
the test skipped with one line naming the package to install. Under ``CI=true`` a missing
program fails instead: CI installs them (``.ci/run``), so there a skip would hide a loss."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

__all__ = ["find_program"]


def find_program(names: tuple[str, ...], package: str, variable: str | None = None) -> str:
    """The path of the first of ``names`` on ``PATH`` (or of the file named by the
    environment variable ``variable``, when set); otherwise skip the test, saying to
    install Debian's ``package``, or fail it under ``CI=true``."""
    given = os.environ.get(variable, "") if variable else ""
    if given and Path(given).is_file():
        return given
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    where = f" (nor {variable}={given})" if given else ""
    message = (f"no {names[0]} found{where}: install it (Debian: apt-get install {package}) "
               "to run this test")
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)
