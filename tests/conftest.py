"""Every engine runs every test: ``backend`` is parametrised over the registry (``auto``
included: it is an engine of its own, DP counts with SAT verdicts behind them)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from exactmines.analysis.backends import engine_names, get_backend

sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile("ci", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

ENGINES = engine_names()  # aliases (milp) would run an engine twice


@pytest.fixture(params=ENGINES, scope="session")
def backend(request: pytest.FixtureRequest) -> str:
    """Each backend by name; a missing package fails loudly instead of skipping."""
    get_backend(request.param)
    return request.param
