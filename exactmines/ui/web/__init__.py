"""The analyzer in the browser: ``exactmines serve``.

``app`` builds the FastAPI app (the page and its JSON API) from the routes of
``routes`` (one module per area) and the shared ``service``; ``server`` runs it on uvicorn;
``bodies`` (with ``inputs`` and ``games``) are the plain functions behind the endpoints,
run in the worker processes of ``workers``. Needs the
``web`` extra (FastAPI, uvicorn).
"""
