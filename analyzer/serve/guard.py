"""Who may use the server, checked before any route runs (an ASGI middleware).

A server on 127.0.0.1 is reachable by every web page the same machine's browser opens, so it
refuses what such a page could do (as Jupyter's local server does):

- **a Host it does not serve** (DNS rebinding: a page at ``evil.example`` whose name is made
  to resolve to 127.0.0.1 talks to the server as its own origin): only the loopback names, or
  the names given at start, pass;
- **a request from another origin**: any request whose ``Origin`` is not the server's own;
  a write (POST, DELETE) or an ``/api/`` request whose ``Referer`` is another origin's, or
  that the browser marks as sent from another site (``Sec-Fetch-Site``; a page on another
  port of 127.0.0.1 is "same-site" but not "same-origin"; an ``<img src>`` could otherwise
  start a question). A link from another site to the page itself opens;
- **a body a form could send**: ``/api/`` POSTs with a body must be ``application/json``
  (a browser sends that cross-origin only after a CORS preflight, which this server never
  grants: it sends no ``Access-Control-*`` header at all);
- **a body over the limit** (413, read in full before the app sees it, chunked or not);
- and, with a **token** (required when listening beyond this machine), any request without
  it: ``?token=`` once (then a cookie), the cookie, or ``Authorization: token ...``.

Every refusal is one JSON line, ``{"error": ...}``, with the status a client can act on."""

from __future__ import annotations

import json
import secrets
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlsplit

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
TOKEN_COOKIE = "euchre_token"
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
SAME_SITE_OK = {"same-origin", "none"}  # Sec-Fetch-Site values of the page itself or a typed URL


def host_name(host: str) -> str:
    """The name of a ``Host`` header without its port (``[::1]:8000`` -> ``::1``), lower
    case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _foreign(url: str | None, host: str) -> bool:
    """Whether an ``Origin`` or ``Referer`` header (None: not sent) names another origin than
    the server's ``host`` (``null``, an opaque origin, is another)."""
    return url is not None and urlsplit(url.strip()).netloc.lower() != host.strip().lower()


def _from_elsewhere(method: str, path: str, host: str, headers: dict) -> str:
    """Why a request sent by another site or origin is refused ("" when it is not): a
    foreign ``Origin`` wherever it appears; a foreign ``Referer``, or a ``Sec-Fetch-Site``
    other than the page's own, on a write or an ``/api/`` request (a link from another site
    to the page itself is a navigation, and opens)."""
    write = method not in SAFE_METHODS
    site = headers.get("sec-fetch-site")
    if _foreign(headers.get("origin"), host) or (write or path.startswith("/api/")) and (
            _foreign(headers.get("referer"), host) or
            (site is not None and site not in SAME_SITE_OK)):
        return ("a request from another site or origin may not change anything here" if write
                else "a page from another site or origin may not use this server")
    return ""


async def _refuse(send, status: int, message: str, extra: list | None = None) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *(extra or [])]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The middleware (see the module): ``hosts`` the names a request's Host may carry (None:
    any, for a server reached by its token), ``token`` the secret every request must carry
    (None: none), ``body_limit`` the bytes a request body may have."""

    def __init__(self, app, hosts: frozenset | None = LOOPBACK_NAMES, token: str | None = None,
                 body_limit: int = 1 << 20):
        self.app, self.hosts, self.token, self.body_limit = app, hosts, token, body_limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        method, path = scope["method"], scope["path"]
        host = headers.get("host", "")
        if self.hosts is not None and host_name(host) not in self.hosts:
            return await _refuse(send, 403, f"this server answers only requests to "
                                 f"{' or '.join(sorted(self.hosts))}, not to {host or 'no host'}"
                                 f" (a page elsewhere may not use it)")
        granted = self._token_granted(scope, headers)
        if granted is None:
            return await _refuse(send, 403, "this server needs its token: open the address "
                                 "it printed at start (with ?token=...)")
        refused = _from_elsewhere(method, path, host, headers)
        if refused:
            return await _refuse(send, 403, refused)
        if method in SAFE_METHODS:
            return await self.app(scope, receive, self._with_cookie(send, granted))
        body, too_big = await self._read_body(receive)
        if too_big:
            return await _refuse(send, 413, f"the request body is over {self.body_limit:,} bytes")
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if body and path.startswith("/api/") and kind != "application/json":
            return await _refuse(send, 415, "send the body as JSON (Content-Type: "
                                 "application/json)")
        return await self.app(scope, _replay(body, receive), self._with_cookie(send, granted))

    def _token_granted(self, scope, headers) -> str | None:
        """``""`` when no token is needed or it came as a cookie or header, the token when it
        came in the query (the response then sets the cookie), None when it is missing."""
        if self.token is None:
            return ""
        given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [])
        if given and secrets.compare_digest(given[0], self.token):
            return self.token
        cookie = SimpleCookie(headers.get("cookie", ""))
        if TOKEN_COOKIE in cookie and secrets.compare_digest(cookie[TOKEN_COOKIE].value,
                                                             self.token):
            return ""
        auth = headers.get("authorization", "")
        if auth.lower().startswith("token ") and secrets.compare_digest(auth[6:].strip(),
                                                                        self.token):
            return ""
        return None

    @staticmethod
    def _with_cookie(send, token: str):
        if not token:
            return send

        async def sending(message):
            if message["type"] == "http.response.start":
                cookie = f"{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"
                message = {**message, "headers": [*message.get("headers", []),
                                                  (b"set-cookie", cookie.encode())]}
            await send(message)
        return sending

    async def _read_body(self, receive) -> tuple[bytes, bool]:
        """The whole request body, or ``(b"", True)`` once it passes the limit (the rest is
        not read: the connection is answered and closed)."""
        parts, seen = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.body_limit:
                return b"", True
            parts.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(parts), False


def _replay(body: bytes, receive):
    """A ``receive`` that gives the app the body read already, then the real messages (a
    disconnect)."""
    sent = False

    async def replayed():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return replayed


def new_token() -> str:
    """A fresh token to print at start."""
    return secrets.token_urlsafe(24)
