"""``euchre serve``: the analyzer as a page in the browser, on this machine."""

from pathlib import Path
from typing import Annotated

import typer

from ..errors import UserError
from .app import app
from .common import err_console

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


@app.command("serve")
def serve_cmd(
    host: Annotated[str, typer.Option(help="Address to listen on. Other machines can reach "
                                      "the page only when this is not 127.0.0.1; it then "
                                      "needs a token.")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).", min=0,
                                      max=65535)] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the browser.")]
    = False,
    token: Annotated[str | None, typer.Option(
        help="A secret every request must carry (?token= once, then a cookie). Made up and "
             "printed when --host is not this machine's; none by default on 127.0.0.1.")]
    = None,
    allow_host: Annotated[list[str] | None, typer.Option(
        help="Another name the page may be opened by (repeatable; e.g. this machine's name "
             "on the network). On 127.0.0.1 only the loopback names are answered, so that a "
             "page elsewhere cannot reach the server through a name of its own.")] = None,
    strategies: Annotated[Path | None, typer.Option(
        help="A folder of strategy files (*.toml) the page may choose for the other calls; "
             "a request may name no other file.", exists=True, file_okay=False)] = None,
    max_deals: Annotated[int, typer.Option(help="The most deals one question may ask for.",
                                           min=1)] = 200_000,
    max_worlds: Annotated[int, typer.Option(help="The most PIMC worlds one question may ask "
                                            "for.", min=1)] = 1_000,
    max_minutes: Annotated[float, typer.Option(help="A question estimated to take longer is "
                                               "refused.", min=0.1)] = 15.0,
):
    """A page where you click a hand, the upcard, your seat, the dealer and the calls heard,
    and see every call's net points and chances, the verdict and how sure it is; practise on
    dealt positions; review a played hand. Runs on this machine, with no internet; Ctrl-C
    stops it.

      euchre serve --open

      euchre serve --port 8080

      euchre serve --host 0.0.0.0 --strategies my-strategies

    The same answers are an API: GET /api/odds takes the options of `euchre odds` as
    parameters (docs/serve.md).
    """
    from ..serve.guard import LOOPBACK_NAMES, new_token
    from ..serve.requests import Limits

    local = host in LOCAL_HOSTS
    if not local:
        token = token or new_token()
        err_console.print(f"warning: listening on {host}: anyone who can reach this machine "
                          f"and has the token can use the page and its CPU")
    hosts = None if not local else LOOPBACK_NAMES | {h.lower() for h in allow_host or ()}
    _serve(_listen(host, port), host, token, hosts, open_browser,
           Limits(max_deals, max_worlds, max_minutes * 60, strategies))


def _listen(host: str, port: int):
    """The listening socket (UserError when the address cannot be had)."""
    import socket

    try:
        return socket.create_server((host, port), family=socket.AF_INET6 if ":" in host
                                    else socket.AF_INET)
    except OSError as e:
        raise UserError(f"cannot listen on {host}:{port}: {e.strerror}") from None


def _serve(sock, host: str, token: str | None, hosts, open_browser: bool, limits) -> None:
    """Get the analyzer ready, print the address, serve until Ctrl-C or SIGTERM."""
    import os
    import sys
    import webbrowser

    from ..serve.routes import create_app
    from ..serve.warm import warm_up

    err_console.print("getting the analyzer ready (a first run compiles the kernels: "
                      "minutes)...")
    warm_up()
    port = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else (f"[{host}]" if ":" in host
                                                            else host)
    url = f"http://{shown}:{port}/" + (f"?token={token}" if token else "")
    err_console.print(f"Euchre analyzer at {url} (Ctrl-C stops it)")
    if open_browser:
        webbrowser.open(url)
    web = create_app(limits, hosts, token)
    server = _Server(web.state.runner, _config(web))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # a second Ctrl-C: uvicorn stopped without waiting
        pass
    err_console.print("stopped")
    if web.state.runner.busy():  # a question's kernel still runs: do not free its memory
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def _config(web):
    import uvicorn

    # a question in flight has seconds to stop at its next piece before uvicorn gives up
    return uvicorn.Config(web, log_level="warning", timeout_graceful_shutdown=5)


def _Server(runner, config):
    """A uvicorn server that, on Ctrl-C or SIGTERM, first tells every running question to
    stop (at its next piece) so that shutting down does not wait for a whole question."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            runner.cancel_all()
            super().handle_exit(sig, frame)

    return Server(config)
