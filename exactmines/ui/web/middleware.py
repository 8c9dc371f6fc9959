"""The server's two ASGI middlewares: only this machine's page and scripts drive it
(:class:`SameHost`), and no request body is read past its limit (:class:`BodyLimit`). Each
refuses with ``{"error": "one line"}``."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from exactmines.words import plural

__all__ = ["SameHost", "BodyLimit"]


# -- middleware ---------------------------------------------------------------------------

Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _host_name(host: str) -> str:
    """The name in a ``Host`` header (``[::1]:8000`` -> ``::1``, ``localhost:80`` ->
    ``localhost``), lower case."""
    return (urlsplit(f"//{host}").hostname or "").lower()


class SameHost:
    """ASGI middleware: only this machine's page and scripts drive the server.

    A ``Host`` whose name is not in ``hosts`` gets 403 (a page of another site that
    resolves its own name to 127.0.0.1, DNS rebinding, sends its own name); so does a
    request with an ``Origin`` other than ``http://`` + its ``Host`` (another site's page
    in the user's browser posting here). Scripts and ``curl`` send no ``Origin`` and pass.
    ``hosts=None`` accepts any ``Host`` (the Origin check still holds).
    """

    def __init__(self, app: Callable[..., Awaitable[None]],
                 hosts: tuple[str, ...] | None) -> None:
        self.app = app
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", ()))
        host = headers.get(b"host", b"").decode("latin-1")
        if self.hosts is not None and _host_name(host) not in self.hosts:
            await _refuse(send, 403, f"host {host!r} refused: this server answers "
                                     f"{', '.join(sorted(self.hosts))} only")
            return
        origin = headers.get(b"origin")
        if origin is not None and origin.decode("latin-1").lower() != f"http://{host}".lower():
            await _refuse(send, 403, f"origin {origin.decode('latin-1')!r} refused: only "
                                     "this server's own page may send requests from a "
                                     "browser")
            return
        await self.app(scope, receive, send)


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413 without being read
    whole (by its Content-Length, or as soon as a chunked body passes the limit)."""

    def __init__(self, app: Callable[..., Awaitable[None]], limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        message = f"request body larger than {plural(self.limit, 'byte')}"
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _refuse(send, 413, message)
                return
        seen = 0
        started = False

        async def guarded_send(message: dict) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        async def counted_receive() -> dict:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge()
            return message

        try:
            await self.app(scope, counted_receive, guarded_send)
        except _TooLarge:
            if not started:
                await _refuse(send, 413, message)


class _TooLarge(Exception):
    pass
