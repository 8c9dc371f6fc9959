"""The web app: the page (static files of this package) and its HTTP JSON API, on FastAPI.

Every piece of work (parsing, analysis, the player, dealing, import and export) runs in a
pool of worker processes (:mod:`exactmines.ui.web.workers`), never on the event loop, so
``/api/health`` and small requests answer while hard ones run:

- at most ``workers`` jobs run and ``queue`` more wait; past that a request gets 503 with
  ``Retry-After`` at once;
- each request has a time limit (``time_limit``, default 5 s, at most ``max_time_limit``)
  that the analysis honours: past it, parts are "not computed", an answer (200). A worker
  still busy ``grace`` seconds (plus ``per_cell`` seconds per covered cell, for reading the
  position and writing the answer) after the limit is ended and replaced, and the request
  gets the sound answer that nothing was computed: every cell unknown, consistency
  undecided, and a note (a replay: its clicks not judged but those the rules prove safe).
  Work with no such answer (a deal, an import) gets 500 then.

Requests must come from this machine's page or from scripts: a ``Host`` that is not one of
``hosts`` (loopback names by default: DNS rebinding) and an ``Origin`` other than the
server's own (another site's page in the user's browser) get 403. Bodies larger than
``max_body`` get 413 before they are read. Bad input is 400 with the command line's
one-line message; each error class has its status (:mod:`exactmines.errors`). No endpoint
reads or writes a file on the server.

Errors are always ``{"error": "one line"}``.
"""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from exactmines.ui.web.handlers import install_handlers
from exactmines.ui.web.middleware import BodyLimit, SameHost
from exactmines.ui.web.routes import ROUTERS
from exactmines.ui.web.service import LOOPBACK_NAMES, STATIC, Service, Settings
from exactmines.version import __version__

__all__ = ["Settings", "create_app", "STATIC", "LOOPBACK_NAMES"]

DESCRIPTION = ("Exact Minesweeper analysis over HTTP: the page's API. Errors are "
               "{\"error\": \"one line\"}: 400 bad input, 403 another site's page or host, "
               "404 unknown game or path, 413 body too large, 500 an engine failure, 501 an "
               "engine not installed, 503 busy (with Retry-After). Past its time limit an "
               "analysis answers 200 with parts not computed.")


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new app with its own worker pool and game store (tests make one per test): its
    routes (:mod:`exactmines.ui.web.routes`) share them through ``app.state.service``."""
    server = Service(settings or Settings())

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # type: ignore[no-untyped-def]
        await server.pool.start()  # again after a shutdown: the same app may be served again
        await server.engines()
        yield
        await server.pool.close()

    app = FastAPI(title="exactmines", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,  # their pages load scripts from a CDN
                  description=DESCRIPTION)
    app.state.service = server
    app.state.settings = server.settings
    app.state.store = server.store
    app.state.pool = server.pool
    install_handlers(app, server.settings.games)
    app.add_middleware(BodyLimit, limit=server.settings.max_body)  # type: ignore[arg-type]
    app.add_middleware(SameHost, hosts=server.settings.hosts)  # type: ignore[arg-type]
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app
