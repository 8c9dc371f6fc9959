"""``exactmines serve``: run the web app on uvicorn, on this machine only unless told."""

from __future__ import annotations

import sys
import threading
import time
import webbrowser

from exactmines.errors import ExactminesError, InputError

__all__ = ["LOCAL_HOSTS", "serve"]

#: Hosts that only this machine can reach.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False,
          time_limit: float = 5.0) -> None:
    """Serve the page and its API until interrupted (Ctrl-C).

    Binds ``127.0.0.1`` by default; any other host is said on stderr, since the server has
    no authentication. ``open_browser`` opens the page once the server listens.
    """
    try:
        import uvicorn

        from exactmines.ui.web.app import Settings, create_app
    except ImportError as exc:
        raise ExactminesError(f"serve needs the web extra ({exc.name} is missing): "
                              "pip install 'exactmines[web]'") from None
    if not 0 <= port <= 65535:
        raise InputError(f"--port {port}: must be 0 to 65535", source="command line")
    if not time_limit > 0:
        raise InputError(f"--time-limit {time_limit}: must be more than 0",
                         source="command line")
    settings = Settings(time_limit=time_limit, max_time_limit=max(30.0, time_limit))
    # uvicorn's own log stays quiet: failures reach the user as this command's one line.
    config = uvicorn.Config(create_app(settings), host=host, port=port, log_level="critical",
                            access_log=False)
    server = uvicorn.Server(config)
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

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run()
    except OSError as exc:  # the host is unknown
        raise ExactminesError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except SystemExit:  # uvicorn's way to say the port is taken (after logging it)
        server.started = False
    if not server.started:
        raise ExactminesError(f"cannot listen on {host}:{port} (taken, or not an address of "
                              "this machine)")
