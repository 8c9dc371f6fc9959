"""What every route of one app shares: its settings, its worker pool, its game store, and
the rules that turn a request's limits into a worker's time (:class:`Service`; a route
gets it with ``Depends(service)``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request

from exactmines.budget import Budget
from exactmines.errors import OutOfTime, ParameterError
from exactmines.ui.web import bodies
from exactmines.ui.web.store import GameStore
from exactmines.ui.web.workers import Overtime, PoolLimits, WorkerPool

__all__ = ["Settings", "Service", "service", "Server", "PRELOAD", "LOOPBACK_NAMES", "STATIC"]

#: The page's files, inside the installed package.
STATIC = files("exactmines.ui.web") / "static"

#: Host names that reach only this machine (``Host`` headers a local server accepts).
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")

#: What the fork server imports once for every worker (the bodies and the default engines).
PRELOAD = ("exactmines.ui.web.bodies", "exactmines.analysis.backends.auto",
           "exactmines.analysis.backends.dp", "exactmines.analysis.backends.sat")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Settings:
    """Limits of one server (seconds, bytes, games, processes)."""

    time_limit: float = 5.0
    max_time_limit: float = 30.0
    max_body: int = 2_000_000
    #: The most cells of a position ``/api/analyze`` and ``/api/overlay`` take (the page
    #: draws up to 90,000, a 300x300 board; compiled formulas take more), and the longest
    #: side: larger is 413 before any work, so that reading, answering and the reply stay
    #: bounded.
    max_cells: int = 250_000
    max_position_side: int = 1000
    #: The largest analysis answer sent (bytes): a larger one is 413 (ask ``grouped``).
    max_reply: int = 64 * 2**20
    games: int = 64
    #: Seconds a job may run past its time limit, plus ``per_cell`` per covered cell of its
    #: position, before its worker is ended.
    grace: float = 0.5
    per_cell: float = 10e-6
    #: The worker processes: how many, and when one is replaced.
    pool: PoolLimits = PoolLimits()
    #: ``Host`` names accepted (any port); ``None``: any host (a server bound to every
    #: address, whose users reach it by names it cannot know).
    hosts: tuple[str, ...] | None = LOOPBACK_NAMES


class Service:
    """One app's settings, worker pool and game store, and the engines its workers have."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool = WorkerPool(settings.pool, preload=PRELOAD)
        self.store = GameStore(settings.games)
        self._installed: list[str] = []
        self._asking: list[asyncio.Future[None]] = []

    async def engines(self) -> list[str]:
        """The engines installed, asked of a worker once when the pool starts (their
        imports stay there): the server's startup, or its first request without one."""
        if not self._installed:
            asking = self._asking
            if not asking or asking[0].get_loop() is not asyncio.get_running_loop():
                asking[:] = [asyncio.ensure_future(self._ask())]
            await asyncio.shield(asking[0])
        return self._installed

    async def _ask(self) -> None:
        await self.pool.start()
        self._installed[:] = await self.pool.run(bodies.installed_backends, (), seconds=60)

    async def run(self, job: Callable[..., T], args: tuple[Any, ...], seconds: float,
                  stopped: str) -> T:
        """``job(*args)`` in a worker, stopped after ``seconds``: work with no partial
        answer, so a stop is an :class:`OutOfTime` (500) saying ``stopped`` (a format with
        ``{seconds}``)."""
        await self.engines()
        try:
            return await self.pool.run(job, args, seconds=seconds)
        except Overtime:
            raise OutOfTime(stopped.format(seconds=f"{seconds:.3g}")) from None

    def time_limit(self, value: float | None) -> float:
        """A request's time limit: the server's when not given; else the library's rule
        (:meth:`Budget.seconds <exactmines.budget.Budget.seconds>`: more than 0 s), and at
        most the server's ``max_time_limit``."""
        if value is None:
            return self.settings.time_limit
        Budget.seconds(value, "time_limit")
        if value > self.settings.max_time_limit:
            raise ParameterError("time_limit", value,
                                 f"at most {self.settings.max_time_limit:g} s on this server")
        return value

    def game_seconds(self, cells: int) -> float:
        """The time a game's worker has for a move on a board of ``cells`` cells."""
        # A move may analyse more than once (each click's risk, then the player's search),
        # each within the game's time limit.
        settings = self.settings
        return 2 * settings.time_limit + settings.grace + settings.per_cell * cells


def service(request: Request) -> Service:
    """The app's :class:`Service` (a route's dependency)."""
    return request.app.state.service


#: A route's parameter that receives the app's :class:`Service`.
Server = Annotated[Service, Depends(service)]
