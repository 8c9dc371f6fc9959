"""How ``/api/overlay`` shares its time: the analysis first, with the request's whole
budget (what ``/api/analyze`` counts in the same time), the advice with what is left and
never at the count's expense; and what a partly counted position answers. The clock is the
test's own (a fixed deadline and the analysis' measured time set by the test), so nothing
here depends on the machine's speed or load."""

from __future__ import annotations

import json
import time
from dataclasses import replace

import pytest

import exactmines.play.strategy as strategy
from exactmines.analysis.analyze import analyze
from exactmines.analysis.backends import get_backend
from exactmines.budget import UNLIMITED, Budget
from exactmines.errors import OutOfTime
from exactmines.play.shared import SharedCounts
from exactmines.ui.web import bodies
from exactmines.ui.web.models import OverlayReply

#: A corner 1 and nothing else: no certain cell, so the advice needs the player's search.
GUESS = "5x5x3\n1HHHH\nHHHHH\nHHHHH\nHHHHH\nHHHHH\n"


@pytest.fixture
def fixed_budget(monkeypatch):
    """Every budget the overlay makes ends at one deadline far away (the time the analysis
    took is then the test's to set)."""
    deadline = time.monotonic() + 1000.0
    monkeypatch.setattr(bodies.Budget, "seconds",
                        classmethod(lambda cls, limit, parameter="": cls(deadline)))
    return deadline


def _analysis_taking(monkeypatch, seconds: float) -> None:
    """The overlay's analysis as it is, said to have taken ``seconds``."""
    monkeypatch.setattr(bodies, "analyze",
                        lambda position, *, backend, budget, cache=None: replace(
                            analyze(position, backend=backend, budget=budget, cache=cache),
                            seconds=seconds))


def _explains(monkeypatch) -> list[Budget]:
    """Records each start of the player's search (the budget it was given)."""
    calls: list[Budget] = []
    real = strategy.Player.explain

    def recorded(self, keep=5, *, budget=UNLIMITED):
        calls.append(budget)
        return real(self, keep, budget=budget)

    monkeypatch.setattr(strategy.Player, "explain", recorded)
    return calls


def _overlay(text: str | None = None, grid: list[str] | None = None,
             backend: str = "auto") -> dict:
    request = bodies.Request(text, grid, None, backend, 5.0)
    body = json.loads(bodies.overlay_body(request))
    OverlayReply.model_validate(body)
    return body


def test_with_less_time_left_than_the_analysis_took_the_advice_gives_way(
        monkeypatch, fixed_budget):
    # The analysis counted, but used nearly all of the time: the player's search, which
    # starts by finding and counting the same frontier again, is not started (on the
    # shipped 300x300 position it ran more than a second past an expired budget before its
    # first look at the clock, and a server stops such work with the analysis in it). It
    # was started, whatever was left.
    calls = _explains(monkeypatch)
    _analysis_taking(monkeypatch, 2000.0)  # more than the 1000 s the budget has
    body = _overlay(GUESS)
    assert calls == []
    analysis = body["analysis"]
    assert analysis["layouts"] is not None and analysis["probabilities_computed"]
    assert all(c["probability"] is not None for c in analysis["cells"])
    assert body["recommendation"] is None and "too little was left" in body["note"]


def test_with_time_left_the_advice_has_all_of_it(monkeypatch, fixed_budget):
    calls = _explains(monkeypatch)
    _analysis_taking(monkeypatch, 0.5)
    body = _overlay(GUESS)
    assert [b.deadline for b in calls] == [fixed_budget]
    assert body["recommendation"] is not None and body["note"] is None


def test_a_certain_cell_is_recommended_however_little_time_is_left(monkeypatch,
                                                                  fixed_budget):
    # The certain move needs no search: it is given even when the analysis took it all.
    _analysis_taking(monkeypatch, 2000.0)
    body = _overlay("3x1x1\n1HH\n")  # cells (0, 1) the mine, (0, 2) safe
    assert body["recommendation"]["kind"] == "certain"
    assert body["recommendation"]["cells"] == [[0, 2]]


#: Four components: 3, 13, 8 and 3 cells (corner 1s of three cells, and two numbers
#: inside the board whose neighbourhoods overlap or not).
COMPONENTS = ["1HHHHHHHHHHHHH",
              "HHHH2HHHHH3HHH",
              "HHHHHHHHHHHHHH",
              "H22HHHHHHHHHH1"]


class _BigOnesRunOut:
    """The DP engine, except that counting a component of 8 cells or more runs out of time
    (as a real budget does on a component too big for it)."""

    name = "big-ones-run-out"

    def __init__(self) -> None:
        self.engine = get_backend("dp")

    def count(self, component, *, budget=UNLIMITED):
        if component.cells >= 8:
            raise OutOfTime("time limit reached while counting layouts (test)")
        return self.engine.count(component, budget=budget)

    def __getattr__(self, name):
        return getattr(self.engine, name)


@pytest.mark.parametrize("mines", [None, 12])
def test_a_partly_counted_overlay_has_the_counted_probabilities_and_one_note(monkeypatch,
                                                                             mines):
    monkeypatch.setattr(bodies, "get_backend", lambda name: _BigOnesRunOut())
    # The engine decides what is counted: no component is left to the box search of the
    # counts the analysis shares with the advice (which counts these in a few nodes).
    monkeypatch.setattr(bodies, "SharedCounts", lambda: SharedCounts(nodes=0))
    request = bodies.Request(None, COMPONENTS, mines, "dp", 5.0)
    body = json.loads(bodies.overlay_body(request))
    OverlayReply.model_validate(body)
    analysis = body["analysis"]
    assert analysis["components"] == 4 and analysis["layouts"] is None
    notes = [n for n in analysis["notes"] if "layouts not counted" in n]
    assert len(notes) == 1 and notes[0].startswith("2 components (2, 3; 8-13 cells each)")
    cells = {(c["row"], c["col"]): c for c in analysis["cells"]}
    corners = [(0, 1), (1, 0), (1, 1), (2, 12), (2, 13), (3, 12)]
    if mines is None:
        # Independent components: the two counted keep their exact probabilities.
        assert {cells[c]["probability"] for c in corners} == {"1/3"}
    else:
        # With a total, a counted component's share of the mines depends on the ones not
        # counted: no probability is exact, so none is given (the verdicts still are).
        assert all(c["probability"] is None for c in analysis["cells"])
    assert cells[(0, 4)]["probability"] is None  # in the 13-cell component, not counted
    assert body["recommendation"] is None
