"""The page's overlay counts each component once: its analysis and the player's advice share
one :class:`~exactmines.play.shared.SharedCounts`, and the answers are those of the two
asked apart."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from exactmines.analysis.analyze import analyze
from exactmines.analysis.backends.auto import AutoBackend
from exactmines.analysis.counting import canonical
from exactmines.analysis.frontier import Component, Constraint, split_forced
from exactmines.io.formats import position_from_text
from exactmines.play import lookahead
from exactmines.play.advice import advise
from exactmines.play.shared import SharedCounts
from exactmines.ui.web import bodies

INSTANCES = Path(__file__).resolve().parent.parent / "instances"

#: The spies below replace module attributes; compiled, the player's look-ahead calls its
#: box search directly and never sees them (the pure run checks the same source).
spied = pytest.mark.skipif(not lookahead.__file__.endswith(".py"),
                           reason="the compiled look-ahead does not call through the spies")
GUIDES = sorted(INSTANCES.glob("guide-*.mine"))


def _request(path: Path, grouped: bool = False) -> bodies.Request:
    return bodies.Request(path.read_text(), None, None, "auto", 60.0, (), grouped)


def _key(sizes, rule_boxes, needs) -> Component:  # type: ignore[no-untyped-def]
    return canonical(Component(tuple(sizes), tuple(
        Constraint(tuple(b), n) for b, n in zip(rule_boxes, needs, strict=True))))


@pytest.mark.parametrize("path", GUIDES, ids=lambda p: p.stem)
def test_the_overlays_analysis_is_the_analysis(path: Path) -> None:
    """The overlay's probabilities (its whole analysis) are those of /api/analyze."""
    overlay = json.loads(bodies.overlay_body(_request(path)))["analysis"]
    alone = json.loads(bodies.analysis_body(_request(path)))
    overlay.pop("seconds")
    alone.pop("seconds")
    assert overlay == alone
    assert any(cell["probability"] not in ("0", "1") for cell in overlay["cells"])


@pytest.mark.parametrize("path", GUIDES, ids=lambda p: p.stem)
def test_shared_counts_give_the_same_advice(path: Path) -> None:
    """The advice made on the analysis' counts is the advice made from scratch."""
    position = position_from_text(path.read_text(), path.name)
    shared = SharedCounts()
    result = analyze(position, cache=shared)
    assert len(shared) > 0
    assert advise(position, result, counts=shared) == advise(position, analyze(position))


def _players_components(position) -> list[Component]:  # type: ignore[no-untyped-def]
    """The components of the player's view at its move on ``position`` (after its local
    rules marked the mines they prove), canonical."""
    from exactmines.deduction import component
    from exactmines.play.strategy import STRATEGIES, Player, _checked_estimate, _local_safe
    from exactmines.position import COVERED

    width = position.width
    player = Player(width, position.height, position.mines, STRATEGIES["best"])
    player.show([(r * width + c, n) for r, row in enumerate(position.rows)
                 for c, ch in enumerate(row)
                 if ch != COVERED and (n := position.number((r, c))) is not None])
    view = player.view.copy()
    _local_safe(view)
    base = _checked_estimate(view, player.cache)
    return [canonical(component(rules)[0]) for _, rules in base.groups]


def _spy_counts(monkeypatch: pytest.MonkeyPatch) -> Counter[Component]:
    """Every count of a component from now on, by the box search or the engine, keyed by
    the component's canonical form."""
    counted: Counter[Component] = Counter()
    search, count = lookahead.box_search, AutoBackend.count

    def spied_search(sizes, rule_boxes, needs, *args, **kwargs):  # type: ignore[no-untyped-def]
        counted[_key(sizes, rule_boxes, needs)] += 1
        return search(sizes, rule_boxes, needs, *args, **kwargs)

    def spied_count(self, component, **kwargs):  # type: ignore[no-untyped-def]
        counted[canonical(component)] += 1
        return count(self, component, **kwargs)

    monkeypatch.setattr(lookahead, "box_search", spied_search)
    monkeypatch.setattr(AutoBackend, "count", spied_count)
    return counted


@spied
@pytest.mark.parametrize("path", GUIDES, ids=lambda p: p.stem)
def test_the_overlay_counts_each_component_once(monkeypatch: pytest.MonkeyPatch,
                                                path: Path) -> None:
    """Every component of the analysis is counted once, by the engine or by the box
    search, for the analysis and the advice together (before, the player's box search
    counted each again); a component of the player's that is an analysis' part without
    the mines its local rules proved (the endgame position's) is made from that part's
    counts, not counted."""
    position = position_from_text(path.read_text(), path.name)
    players = _players_components(position)
    counted = _spy_counts(monkeypatch)
    out = json.loads(bodies.overlay_body(_request(path)))
    assert out["recommendation"]["kind"] in ("frontier", "fifty", "endgame")
    split = split_forced(position)
    assert split is not None and split.parts
    parts = {canonical(part) for part in split.parts}
    for part in parts:
        assert counted[part] == 1, part
    for component in players:
        assert counted[component] == (1 if component in parts else 0), component


@spied
@pytest.mark.parametrize("path", GUIDES, ids=lambda p: p.stem)
def test_analyze_explain_counts_each_component_once(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str],
                                                    path: Path) -> None:
    """``analyze --explain`` is the overlay on the command line: its analysis and its advice
    count each component once too (its advice counted every component again)."""
    from exactmines.ui.cli import main

    position = position_from_text(path.read_text(), path.name)
    counted = _spy_counts(monkeypatch)
    assert main(["analyze", str(path), "--explain", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["explain"]["recommendation"]["kind"] in ("frontier", "fifty", "endgame")
    split = split_forced(position)
    assert split is not None and split.parts
    assert counted and all(counted[canonical(part)] == 1 for part in split.parts), counted
    assert set(counted.values()) == {1}


def test_shared_counts_past_the_budget_count_nothing() -> None:
    """Out of time, the shared counts raise as an engine does and keep nothing (the box
    search is not a way around the analysis' time limit); in time, a part of the split path
    (nothing forced) is counted by the box search, which lists its solutions, and a
    component with forced boxes by the engine, whose counts the player takes and lists."""
    from exactmines.budget import Budget
    from exactmines.errors import OutOfTime

    shared, engine = SharedCounts(), AutoBackend()
    part = Component((1, 1), (Constraint((0, 1), 1),), (-1, -1))
    with pytest.raises(OutOfTime):
        shared.count(engine, part, budget=Budget(0.0))
    assert len(shared) == 0
    assert shared.count(engine, part).layouts[:2] == (0, 2)
    counts, solutions = shared.listed(engine, part)
    assert solutions is not None and shared.hits == 1 and shared.misses == 1
    whole = Component((1, 1, 1), (Constraint((0, 1), 1), Constraint((2,), 1)), (-1, -1, 1))
    shared.count(engine, whole)
    assert shared.listed(engine, whole)[1] is not None and shared.misses == 2
