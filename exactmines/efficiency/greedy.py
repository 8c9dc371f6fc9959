"""Greedy click sequences: the starting bound of the exact search, and a sequence to give
when the time runs out before anything better is found.

The classic ZiNi greedy: while some chord saves clicks, make the one that saves most (its
*premium*: the 3BV units it reveals, less the clicks it costs: a left click on its number
if still covered, a flag per unflagged mine beside it, the chord itself); when none does,
left-click one unit (an opening first) and look again. The openings-first variant clicks
every opening before the first chord. The randomized variant (like ms_toollib's RZiNi) breaks
ties at random, sometimes takes a chord saving one click less than the best, and clicks the
openings and isolated numbers in a random order; :func:`best_heuristic` keeps the shortest
of many such runs. Cost per step: each numbered cell and its neighbours once.
"""

from __future__ import annotations

import random
import time
from typing import Any

from exactmines.efficiency.layout import Click, Clicks, Layout, tidy

__all__ = ["greedy", "best_greedy", "best_heuristic", "heuristic_runs"]


def _premium(layout: Layout, state: Clicks, active: bytearray, d: int) -> tuple[int, int]:
    """(premium, units revealed) of clicking (if needed), flagging and chording ``d``;
    units -1 when no safe cell beside it is covered."""
    revealed, flagged = state.revealed, state.flagged
    cost = 1 + (not revealed[d])
    units, opened = 0, set()
    if not revealed[d] and not any(not active[k] for k in layout.borders_of[d]):
        units += 1
    covered = False
    for i in layout.neighbours[d]:
        if layout.mine[i]:
            cost += not flagged[i]
        elif not revealed[i]:
            covered = True
            k = layout.opening_of[i]
            if k >= 0:
                if not active[k] and k not in opened:
                    opened.add(k)
                    units += 1
            elif not any(not active[j] for j in layout.borders_of[i]):
                units += 1
    if not covered:
        return -1, -1  # for good: nothing beside it will be covered again
    return units - cost, units


def greedy(layout: Layout, start: int | None = None, *, openings_first: bool = False,
           threshold: int = 1, prefix: tuple[Click, ...] = (),
           part: Any = None, rng: random.Random | None = None,
           jitter: float = 0.0) -> list[Click]:
    """A sequence that clears the board, from a first left click at ``start`` (flat index;
    ``None``: no first click imposed), then ``prefix`` (clicks the rules allow), then
    greedy. With ``part`` (a :class:`~exactmines.efficiency.model.Part`), only its cells
    are cleared and clicked. Chords are made while one has a premium of at least ``threshold``.
    With ``rng``, each chord's premium gets a random part below ``jitter`` (below 1: ties
    broken at random; above: sometimes a chord saving a click less) and the next opening or
    number to left-click is drawn at random."""
    state = Clicks(layout)
    changed: list[int] = []
    state.changed = changed  # the cells each click changes, read and cleared below
    # Each number's (premium, units), kept until a cell beside it or itself is revealed or
    # flagged: everything _premium reads is there (an opening becomes active as its zeros
    # and border are revealed).
    cache: dict[int, tuple[int, int]] = {}
    active = bytearray(len(layout.openings))
    numbered = layout.numbered if part is None else part.numbered
    openings = range(len(layout.openings)) if part is None else part.openings
    targets = [layout.openings[k][0][0] for k in openings] + list(numbered)
    clicks: list[Click] = []

    def click(c: Click) -> None:
        clicks.append(c)
        state.play(c)
        for i in changed:
            cache.pop(i, None)
            for j in layout.neighbours[i]:
                cache.pop(j, None)
        changed.clear()
        for k in range(len(layout.openings)):
            if not active[k] and state.revealed[layout.openings[k][0][0]]:
                active[k] = 1

    if start is not None:
        click(("left", start))
    for c in prefix:
        click(c)
    if openings_first:
        for k in openings:
            if not state.revealed[layout.openings[k][0][0]]:
                click(("left", layout.openings[k][0][0]))
    live = list(numbered)  # the numbers with a covered safe cell beside them
    while not all(state.revealed[i] for i in targets):
        best, best_units, chosen = threshold - 1, -1, -1
        dead: list[int] = []
        if rng is None:
            for d in live:
                got = cache.get(d)
                if got is None:
                    got = cache[d] = _premium(layout, state, active, d)
                premium, units = got
                if units < 0:
                    dead.append(d)
                if premium > best or (premium == best and chosen >= 0 and units > best_units):
                    best, best_units, chosen = premium, units, d
        else:
            score = -1.0
            for d in live:
                got = cache.get(d)
                if got is None:
                    got = cache[d] = _premium(layout, state, active, d)
                premium, units = got
                if units < 0:
                    dead.append(d)
                if premium >= threshold:
                    noisy = premium + rng.random() * jitter
                    if noisy > score:
                        score, chosen = noisy, d
        if dead:
            gone = set(dead)
            live = [d for d in live if d not in gone]
        if chosen >= 0:
            if not state.revealed[chosen]:
                click(("left", chosen))
            for i in layout.neighbours[chosen]:
                if layout.mine[i] and not state.flagged[i]:
                    click(("flag", i))
            click(("chord", chosen))
            continue
        if rng is None:
            target = next((layout.openings[k][0][0] for k in openings if not active[k]),
                          None)
            if target is None:
                target = next(i for i in numbered if not state.revealed[i])
        else:
            waiting = [layout.openings[k][0][0] for k in openings if not active[k]]
            if not waiting or rng.random() < 0.1:
                waiting += [i for i in numbered if not state.revealed[i]
                            and not layout.borders_of[i]]
            if not waiting:
                waiting = [i for i in numbered if not state.revealed[i]]
            target = rng.choice(waiting)
        click(("left", target))
    return tidy(layout, clicks) if part is None else clicks


def best_greedy(layout: Layout, start: int | None = None) -> list[Click]:
    """The shortest of the greedy variants (plain and openings-first, premium above 0 or
    at least 0)."""
    runs = [greedy(layout, start, openings_first=first, threshold=threshold)
            for first in (False, True) for threshold in (1, 0)]
    return min(runs, key=len)


def heuristic_runs(layout: Layout, start: int | None = None, *, runs: int = 200,
                   seconds: float = 0.5, seed: int = 0, at_least: int = 6,
                   ) -> list[tuple[list[Click], str]]:
    """The greedy variants' best sequence (:func:`best_greedy`, named ``"greedy"``) and up
    to ``runs`` randomized runs (``"randomized"``; seeded: the same board gives the same
    runs), stopping after ``seconds`` once ``at_least`` runs are made; every second run
    keeps the best sequence so far up to a random click and plays the rest again (a local
    search around it). Every run is kept:
    a board's independent parts can each take their clicks from a different run."""
    found = [(best_greedy(layout, start), "greedy")]
    best = found[0][0]
    rng = random.Random(seed)
    stop = time.monotonic() + seconds
    for n in range(runs):
        if n >= at_least and time.monotonic() > stop:
            break
        prefix: tuple[Click, ...] = ()
        if n % 2:  # the best so far kept up to a random click, the rest played again
            prefix = tuple(best[start is not None:rng.randrange(len(best) + 1)])
        run = greedy(layout, start, openings_first=n % 3 == 0 and not prefix,
                     threshold=1 - n // 2 % 2, prefix=prefix, rng=rng,
                     jitter=(0.99, 1.5, 2.5)[n % 3])
        found.append((run, "randomized"))
        if len(run) < len(best):
            best = run
    return found


def best_heuristic(layout: Layout, start: int | None = None, **options: Any,
                   ) -> tuple[list[Click], str]:
    """The shortest of :func:`heuristic_runs` (the first of the shortest), with its name."""
    return min(heuristic_runs(layout, start, **options), key=lambda run: len(run[0]))
