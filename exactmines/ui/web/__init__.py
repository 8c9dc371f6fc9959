"""The analyzer in the browser: ``exactmines serve``.

``app`` builds the FastAPI app (the page and its JSON API), ``server`` runs it on uvicorn;
``inputs`` and ``games`` are the plain functions behind the endpoints. Needs the
``web`` extra (FastAPI, uvicorn).
"""
