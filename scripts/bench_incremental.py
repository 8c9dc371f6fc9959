"""What a :class:`~exactmines.analysis.cache.CountCache` saves where positions come one click
apart: the replays of expert games (``exactmines replay``, which shares one cache per game)
and the overlays the page asks for while an expert game is played (``POST /api/overlay``,
one request per position, analysed without a cache).

Usage::

    python scripts/bench_incremental.py

Replays: :func:`~exactmines.replay.judge.judge_replay` on the shipped expert games, with
the player's flags trusted (every click analysed) and not (the local rules settle most
clicks), with its cache and with a cache that never answers; CPU ms, least of 5. Page: the
body of each overlay (analysis, advice, JSON; no HTTP) of every position met in 5 seeded
expert games played with safe moves only, against the analyses alone, without and with one
cache per game.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from exactmines.analysis.analyze import analyze
from exactmines.analysis.backends import Backend, ComponentCounts
from exactmines.analysis.cache import CountCache
from exactmines.analysis.frontier import Component
from exactmines.budget import UNLIMITED, Budget
from exactmines.generate.families import dense_games
from exactmines.io.files import read_replay
from exactmines.replay import judge
from exactmines.ui.web import bodies as web_bodies

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ("tests/data/replays/public/arbiter-expert-wang-jianing.avf",
           "tests/data/replays/public/vienna-expert-wang-jianing.rmv",
           "tests/data/replays/public/clone-expert-zhang-shen-jia.mvf",
           "tests/data/replays/recorded/habits-expert-30x16x99-seed1-v4.evf",
           "tests/data/replays/recorded/exactmines-expert-30x16x99-seed1-v3.evf")


class NoCache(CountCache):
    """A cache that never answers: every component is counted."""

    def count(self, engine: Backend, component: Component, *,
              budget: Budget = UNLIMITED) -> ComponentCounts:
        self.misses += 1
        return engine.count(component, budget=budget)


def least_ms(work: Callable[[], object], runs: int = 5) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return 1000 * best


def replays() -> None:
    print("replays (judge_replay, CPU ms, least of 5): with its CountCache / without")
    real = judge.CountCache
    try:
        for name in REPLAYS:
            replay = read_replay(ROOT / name)
            for trust in (True, False):
                figures = []
                for cache in (real, NoCache):
                    judge.CountCache = cache  # type: ignore[misc]
                    figures.append(least_ms(partial(judge.judge_replay, replay,
                                                    trust_flags=trust)))
                print(f"  {Path(name).name:<44} {'trusted flags' if trust else 'no flags':<14}"
                      f" {figures[0]:7.1f} / {figures[1]:7.1f}")
    finally:
        judge.CountCache = real  # type: ignore[misc]


def page() -> None:
    steps = list(dense_games(5, 40))
    requests = [(None, list(s.position.rows), s.position.mines, "auto", 5.0, (), True,
                 "square") for s in steps]
    for request in requests:  # warm
        web_bodies.overlay_body(request)

    def cached() -> None:
        cache, game = CountCache(), None
        for step in steps:
            if step.game != game:
                cache, game = CountCache(), step.game
            analyze(step.position, cache=cache).cells.probabilities()

    bodies = least_ms(lambda: [web_bodies.overlay_body(r) for r in requests])
    plain = least_ms(lambda: [analyze(s.position).cells.probabilities() for s in steps])
    print(f"page: {len(steps)} positions of 5 expert games (CPU ms, least of 5): the overlays' "
          f"bodies {bodies:.1f}, their analyses {plain:.1f}, the analyses with one CountCache "
          f"per game {least_ms(cached):.1f}")


if __name__ == "__main__":
    replays()
    page()
