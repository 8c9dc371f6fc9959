"""The app's routes, one module per area: the page (``page``), analysis and health
(``analysis``), files in memory (``files``), replays (``replays``) and games (``games``).
Each has a ``router`` that :func:`~exactmines.ui.web.app.create_app` includes; each route
reads the request, runs its work in the worker pool (:mod:`~exactmines.ui.web.bodies`) and
sends the bytes back."""

from exactmines.ui.web.routes import analysis, files, games, page, replays

ROUTERS = (page.router, analysis.router, files.router, replays.router, games.router)

__all__ = ["ROUTERS"]
