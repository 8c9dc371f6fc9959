"""``exactmines serve``: run the web app on uvicorn, on this machine only unless told.

What uvicorn does not bound, this module does (:func:`guarded_protocol`): a request's head
must arrive within ``head_timeout`` seconds of its connection opening (or of the previous
response on a kept-alive connection), and the whole request within ``read_timeout``, else
408 and the connection closes. Past ``max_connections`` open connections, or
``per_address`` from one address, the oldest connection still waiting for its request head
(a slow client, or an idle kept-alive one) is closed with 408 to make room; only when none
is waiting does the new one get 503. So slow clients cannot hold the server: a request
that arrives whole at once is always read, however many sockets another holds. uvicorn
itself refuses a request head still unfinished past 16 KiB (h11's incomplete-event limit:
a head can be longer only if it arrives in one read; the refusal is 400 ``{"error": ...}``
here) and closes a kept-alive connection idle for 5 s. SIGTERM and Ctrl-C end the worker
processes at once, answer the requests they were running with 503, and exit with 143 / 130.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import signal
import sys
import threading
import time
import webbrowser
from types import FrameType
from typing import Any

from exactmines.budget import Budget
from exactmines.errors import ExactminesError, InputError

__all__ = ["LOCAL_HOSTS", "serve", "guarded_protocol", "allowed_hosts"]

#: Hosts that only this machine can reach.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")

#: Seconds a request may take to arrive whole, and its head; connections open at most,
#: and from one address.
READ_TIMEOUT = 10.0
HEAD_TIMEOUT = 2.0
MAX_CONNECTIONS = 100
PER_ADDRESS = 50


def allowed_hosts(host: str) -> tuple[str, ...] | None:
    """The ``Host`` names a server bound to ``host`` answers: the loopback names and
    ``host`` itself; ``None`` (any name) when bound to every address (``0.0.0.0``,
    ``::``), where users reach it by names the server cannot know."""
    from exactmines.ui.web.app import LOOPBACK_NAMES

    try:
        if ipaddress.ip_address(host).is_unspecified:
            return None
    except ValueError:
        pass  # a name, not an address
    return tuple(dict.fromkeys([*LOOPBACK_NAMES, host.lower()]))


def _raw_response(status: int, reason: str, message: str,
                  extra: tuple[str, ...] = ()) -> bytes:
    body = json.dumps({"error": message}).encode()
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json",
            f"content-length: {len(body)}", "connection: close", *extra]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def guarded_protocol(read_timeout: float = READ_TIMEOUT,
                     max_connections: int = MAX_CONNECTIONS,
                     head_timeout: float | None = HEAD_TIMEOUT,
                     per_address: int = PER_ADDRESS) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with deadlines for each request's head and for the whole of
    it, and caps on open connections, in all and per address, that close the oldest
    connection waiting for its head first (see the module docstring): slow or idle clients
    cannot hold the server's connections, and a full server says so at once. Its refusals,
    and a request it cannot read, are answered ``{"error": ...}`` like every other error.
    ``head_timeout`` ``None``: the head has the whole ``read_timeout``."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    head_seconds = read_timeout if head_timeout is None else min(head_timeout, read_timeout)
    too_slow = _raw_response(408, "Request Timeout",
                             f"the request did not arrive whole within {read_timeout:g} s")
    head_too_slow = _raw_response(408, "Request Timeout", f"the request's head did not "
                                                          f"arrive within {head_seconds:g} s")
    made_room = _raw_response(408, "Request Timeout", "closed to make room: no request came "
                                                      "on this connection and others waited")
    too_many = _raw_response(503, "Service Unavailable",
                             f"busy: {max_connections} connections are open; try again",
                             ("retry-after: 1",))
    malformed = _raw_response(400, "Bad Request", "not an HTTP request this server can read "
                                                  "(malformed, or too long a head)")

    class GuardedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _head_deadline: asyncio.TimerHandle | None = None
        _head_pending = False  # no request head since it opened or its last answer
        _before: Any = None  # the request cycle the deadline was set after
        _waiting_since = 0.0  # monotonic time it began waiting for a request head
        _address: Any = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            self._address = peer[0] if isinstance(peer, tuple) and peer else peer
            self._waiting_since = time.monotonic()
            others = [c for c in self.connections if c is not self]
            same = [c for c in others if getattr(c, "_address", None) == self._address]
            if (len(same) >= per_address and not self._make_room(same)) or (
                    len(others) >= max_connections and not self._make_room(others)):
                transport.write(too_many)
                transport.close()
                return
            self._arm(None)

        def _make_room(self, among: list[Any]) -> bool:
            """Close the connection of ``among`` waiting longest for a request head; False
            when every one is reading or answering a request."""
            waiting = [c for c in among if isinstance(c, GuardedH11Protocol)
                       and c._waiting_head() and not c.transport.is_closing()]
            if not waiting:
                return False
            oldest = min(waiting, key=lambda c: c._waiting_since)
            oldest.transport.write(made_room)
            oldest._disarm()
            oldest.transport.close()
            return True

        def _waiting_head(self) -> bool:
            """No request head has come since the connection opened or its last answer."""
            return self._head_pending

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._check()

        def on_response_complete(self) -> None:
            before = self.cycle
            super().on_response_complete()  # may start a pipelined request at once
            if not self.transport.is_closing():
                self._arm(before)
                self._check()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            # uvicorn's own answer is plain text; every error here is {"error": ...}.
            self.transport.write(malformed)
            self.transport.close()

        def _arm(self, before: Any) -> None:
            self._disarm()
            self._before = before
            self._waiting_since = time.monotonic()
            self._deadline = self.loop.call_later(read_timeout, self._expired)
            self._head_pending = True
            if head_seconds < read_timeout:
                self._head_deadline = self.loop.call_later(head_seconds, self._head_expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            self._head_arrived()

        def _head_arrived(self) -> None:
            self._head_pending = False
            if self._head_deadline is not None:
                self._head_deadline.cancel()
                self._head_deadline = None

        def _head_expired(self) -> None:
            self._head_deadline = None
            if self.transport.is_closing():
                return
            if self._head_pending:
                self._disarm()
                self.transport.write(head_too_slow)
                self.transport.close()

        def _check(self) -> None:
            """Note a new request's head, and disarm once it has arrived whole (its head
            and every body byte)."""
            cycle = self.cycle
            if cycle is None or cycle is self._before:
                return
            self._head_arrived()
            if self._deadline is not None and not cycle.more_body:
                self._disarm()

        def _expired(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            if self.cycle is None or self.cycle is self._before \
                    or not self.cycle.response_started:
                self.transport.write(too_slow)
            self.transport.close()

    return GuardedH11Protocol


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False,
          time_limit: float = 5.0, workers: int = 8) -> None:
    """Serve the page and its API until interrupted (Ctrl-C, SIGTERM).

    Binds ``127.0.0.1`` by default; any other host is said on stderr, since the server has
    no authentication. ``open_browser`` opens the page once the server listens; ``workers``
    is the most worker processes running analyses at once.

    Raises
    ------
    KeyboardInterrupt
        When stopped by a signal: a :class:`~exactmines.runner.Interrupted` with its
        ``signum`` for SIGTERM (exit status 128 + signum).
    """
    try:
        import uvicorn

        from exactmines.ui.web.app import Settings, create_app
        from exactmines.ui.web.workers import PoolLimits, give_back_large_blocks
    except ImportError as exc:
        raise ExactminesError(f"serve needs the web extra ({exc.name} is missing): "
                              "pip install 'exactmines[web]'") from None
    from exactmines.runner import Interrupted

    if not 0 <= port <= 65535:
        raise InputError(f"--port {port}: must be 0 to 65535", source="command line")
    Budget.seconds(time_limit)  # the library's rule: more than 0 s
    if workers < 1:
        raise InputError(f"--workers {workers}: must be at least 1", source="command line")
    settings = Settings(time_limit=time_limit, max_time_limit=max(30.0, time_limit),
                        pool=PoolLimits(workers=workers, warm=min(2, workers)),
                        hosts=allowed_hosts(host))
    app = create_app(settings)
    give_back_large_blocks()  # every answer passes through this process
    # uvicorn's own log stays quiet: failures reach the user as this command's one line.
    config = uvicorn.Config(app, host=host, port=port, log_level="critical",
                            access_log=False, http=guarded_protocol(),
                            timeout_graceful_shutdown=3)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            # The workers end now, so the requests they run answer at once and the
            # graceful shutdown has nothing long to wait for.
            app.state.pool.stop_soon()
            super().handle_exit(sig, frame)

    server = Server(config)
    shown = f"[{host}]" if ":" in host else host

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if not server.started:
            return
        bound = port or server.servers[0].sockets[0].getsockname()[1]
        url = f"http://{shown}:{bound}/"
        where = ("this machine only" if host in LOCAL_HOSTS else
                 f"WARNING: bound to {host}, reachable from other machines; the server has "
                 "no authentication")
        sys.stderr.write(f"exactmines: serving {url} ({where}); Ctrl-C stops\n")
        if open_browser:
            webbrowser.open(url)

    def terminate(signum: int, frame: FrameType | None) -> None:
        raise Interrupted(signum)

    threading.Thread(target=announce, daemon=True).start()
    # uvicorn catches SIGTERM while it serves, then passes it on to this handler.
    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        server.run()
    except OSError as exc:  # the host is unknown
        raise ExactminesError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except SystemExit:  # uvicorn's way to say the port is taken (after logging it)
        server.started = False
    finally:
        signal.signal(signal.SIGTERM, previous)
    if not server.started:
        raise ExactminesError(f"cannot listen on {host}:{port} (taken, or not an address of "
                              "this machine)")
