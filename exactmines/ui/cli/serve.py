"""``serve``: the analyzer in the browser."""

import sys
from typing import Annotated

import typer

from exactmines.ui.cli.common import _interrupt_status, app


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on; anything but 127.0.0.1 "
                                           "is reachable from other machines (0.0.0.0: from "
                                           "every network, by any name).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0: any free port).")] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in a browser.")]
    = False,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", help="Default seconds per analysis request.")] = 5.0,
    workers: Annotated[int, typer.Option(
        help="Most worker processes running requests at once (each one ended and replaced "
             "when a request's time runs out).")] = 8,
) -> None:
    """The analyzer in the browser: a board editor with the exact overlay, and play.

    Needs the web extra (pip install 'exactmines[web]'). Ctrl-C (exit 130) or SIGTERM
    (exit 143) stops it.

    Example: exactmines serve --open
    """
    from exactmines.ui.web.server import serve

    try:
        serve(host, port, open_browser, time_limit, workers)
    except KeyboardInterrupt as exc:
        sys.stderr.write("exactmines: stopped\n")
        raise typer.Exit(_interrupt_status(exc)) from None
