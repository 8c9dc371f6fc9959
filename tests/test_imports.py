"""What starting up loads: the package and the command line import only what they need.

Each check runs a fresh interpreter and reads its ``sys.modules``, so it tests which
modules are loaded, not how long that takes (speed is measured by scripts/, not tests).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Packages that only some commands or engines need.
HEAVY = ("pulp", "networkx", "numpy", "fastapi", "pysat", "highspy", "matplotlib", "PIL",
         "dask", "rich", "pydantic")


def loaded(code: str) -> set[str]:
    """The top-level packages loaded by a fresh interpreter after running ``code``."""
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def heavy(modules: set[str]) -> set[str]:
    """The packages of :data:`HEAVY` among ``modules``."""
    return {m.split(".")[0] for m in modules} & set(HEAVY)


def test_importing_the_package_loads_only_its_version():
    modules = loaded("import exactmines")
    assert heavy(modules) == set()
    assert {m for m in modules if m.startswith("exactmines")} == {"exactmines",
                                                                  "exactmines.version"}


def test_the_command_line_loads_no_engine_reader_or_renderer_until_a_command_runs():
    modules = loaded("import exactmines.ui.cli")
    assert heavy(modules) == set()
    for module in ("exactmines.analysis.analyze", "exactmines.analysis.frontier",
                   "exactmines.analysis.backends.dp",
                   "exactmines.io.files", "exactmines.solvability.check",
                   "exactmines.play.games", "exactmines.generate.positions"):
        assert module not in modules


def test_starting_the_command_line_loads_no_command_engine_budget_or_report():
    # What every command line start pays for (--version, a mistyped option): the command
    # table names the commands; a command's module is loaded when it runs, and the engine
    # package, the budget and the text reports by the command that uses them.
    modules = loaded("from exactmines.ui.cli import main\nmain(['--version'])")
    for module in ("exactmines.analysis.backends", "exactmines.budget", "exactmines.ui.report",
                   "exactmines.io", "exactmines.position", "fractions",
                   "exactmines.ui.cli.analysis", "exactmines.ui.cli.generation"):
        assert module not in modules


def test_a_command_loads_its_own_module_only():
    modules = loaded("import contextlib, io\nfrom exactmines.ui.cli import main\n"
                     "with contextlib.redirect_stdout(io.StringIO()):\n"
                     "    main(['instances'])")
    commands = {m for m in modules if m.startswith("exactmines.ui.cli.")}
    assert commands == {"exactmines.ui.cli.common", "exactmines.ui.cli.options",
                        "exactmines.ui.cli.boundary", "exactmines.ui.cli.export"}


def test_version_loads_nothing_heavy():
    modules = loaded("from exactmines.ui.cli import main\nmain(['--version'])")
    assert heavy(modules) == set()


@pytest.mark.parametrize("backend", ["auto", "dp"])
def test_analyze_loads_no_solver_library(backend):
    # typer's own parameter checks load pydantic, and a text report uses rich: those are
    # the command line's; no solver, graph or array library is needed to analyse.
    modules = loaded("import contextlib, io\nfrom exactmines.ui.cli import main\n"
                     "with contextlib.redirect_stdout(io.StringIO()):\n"
                     f"    main(['analyze', 'instances/reference-9x9.mine', '--backend', "
                     f"'{backend}'])")
    assert heavy(modules) - {"rich", "pydantic"} == set()
    assert "exactmines.analysis.analyze" in modules
