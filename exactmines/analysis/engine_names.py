"""The engines' names and where each lives, without importing any of them.

:mod:`exactmines.analysis.backends` builds engines from this table; the command line reads
the names for its help from here, so that starting it loads no engine code (importing the
engine package costs more than the whole of the command line's own modules).
"""

from __future__ import annotations

import importlib.util

__all__ = ["REGISTRY", "ALIASES", "backend_names"]

# name -> (module, class, what to install). Imported on first use, so a missing optional
# package only matters to the user who asks for that backend.
REGISTRY: dict[str, tuple[str, str, str]] = {
    "auto": ("exactmines.analysis.backends.auto", "AutoBackend", "python-sat"),
    "dp": ("exactmines.analysis.backends.dp", "DPBackend", ""),
    "sat": ("exactmines.analysis.backends.sat", "SatBackend", "python-sat"),
    "brute": ("exactmines.analysis.backends.brute", "BruteForceBackend", ""),
    "milp-highs": ("exactmines.analysis.backends.milp", "HighsMilpBackend", "highspy"),
    "milp-cbc": ("exactmines.analysis.backends.milp", "CbcMilpBackend", "pulp"),
    "ganak": ("exactmines.analysis.backends.ganak", "GanakBackend", "pyganak"),
}


def _preferred_milp() -> str:
    """HiGHS when installed: in-process, several times cheaper per solve than PuLP's CBC."""
    return "milp-highs" if importlib.util.find_spec("highspy") else "milp-cbc"


#: Other names for registered engines.
ALIASES: dict[str, str] = {"milp": _preferred_milp()}


def backend_names() -> list[str]:
    """Names accepted by :func:`exactmines.analysis.backends.get_backend`, ``auto`` first."""
    return list(dict.fromkeys([*REGISTRY, *ALIASES]))
