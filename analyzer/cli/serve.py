"""``euchre serve``: the analyzer as a page in the browser, on this machine."""

from typing import Annotated

import typer

from ..errors import UserError
from .app import app
from .common import err_console

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


@app.command("serve")
def serve_cmd(
    host: Annotated[str, typer.Option(help="Address to listen on. Other machines can reach "
                                      "the page only when this is not 127.0.0.1.")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).", min=0,
                                      max=65535)] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the browser.")]
    = False,
    max_deals: Annotated[int, typer.Option(help="The most deals one question may ask for.",
                                           min=1)] = 200_000,
    max_worlds: Annotated[int, typer.Option(help="The most PIMC worlds one question may ask "
                                            "for.", min=1)] = 1_000,
):
    """A page where you click a hand, the upcard, your seat, the dealer and the calls heard,
    and see every call's net points and chances, the verdict and how sure it is; and review a
    played hand. Runs on this machine, with no internet; Ctrl-C stops it.

      euchre serve --open

      euchre serve --port 8080

    The same answers are an API: GET /api/odds takes the options of `euchre odds` as
    parameters (docs/serve.md).
    """
    import socket
    import webbrowser

    import uvicorn

    from ..serve.app import create_app

    if host not in LOCAL_HOSTS:
        err_console.print(f"warning: listening on {host}: anyone who can reach this machine "
                          f"can use the page and its CPU")
    try:
        sock = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host
                                    else socket.AF_INET)
    except OSError as e:
        raise UserError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    err_console.print(f"Euchre analyzer at {url} (Ctrl-C stops it)")
    if open_browser:
        webbrowser.open(url)
    config = uvicorn.Config(create_app(max_deals, max_worlds), log_level="warning")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shut down cleanly, then passed the signal on
        pass
    err_console.print("stopped")
