"""An ASGI middleware for a web server meant for one machine: it answers only requests addressed
to the address it serves, and tells the browser to keep its pages to themselves.

A server on 127.0.0.1 is still reachable from any web page the user opens: a page on
``evil.example`` may point its own name at 127.0.0.1 (DNS rebinding) and then read the answers
as its own. Such a request carries the attacker's name in its ``Host`` header, so ``Guard``
refuses (400, before the app sees it) every request whose ``Host`` is not one of the names
served with the port served: ``127.0.0.1``, ``localhost``, ``[::1]`` and the ``--host`` given.
An empty, repeated or oversized ``Host`` is refused the same way. Every answer, the refusals
and the app's error pages included, carries headers that keep it from being framed, sniffed
into another type, read by another origin's ``<script>`` or given to another site as a
referrer, and a Content-Security-Policy under which a page may run only scripts the server
itself serves (an injected ``<script>`` or ``onclick`` would not run).

It knows nothing of the app it wraps: ``Guard(app, hosts=served_hosts(host), port=port)``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

__all__ = ["CSP", "LOOPBACK", "Guard", "served_hosts"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK = ("127.0.0.1", "localhost", "::1")

# Scripts, styles, fonts and requests only from the server itself (styles may also be inline:
# the pages and plotly set them; a style cannot run code); images also as data: and blob: URLs
# (plotly's "download plot" makes one); no plugin, frame, <base> or form to another site.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")

MAX_HOST = 300     # longer than any name with its port: refused without further look


def served_hosts(host: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The names a browser may use for a server listening on ``host``: the loopback names,
    ``host`` itself unless it is a wildcard (0.0.0.0 or ::, which no browser sends), and
    ``extra`` (other names the user said the server is reached by)."""
    names = list(LOOPBACK)
    if host not in ("0.0.0.0", "::", ""):
        names.append(host)
    names.extend(extra)
    return tuple(dict.fromkeys(names))


def _host_value(name: str, port: int) -> str:
    """How ``name`` appears in a Host header with ``port`` (an IPv6 address in brackets)."""
    bare = name.strip().lower().removeprefix("[").removesuffix("]")
    try:
        if isinstance(ipaddress.ip_address(bare), ipaddress.IPv6Address):
            bare = f"[{bare}]"
    except ValueError:
        pass
    return f"{bare}:{port}"


class Guard:
    """Wraps an ASGI app: refuses requests for another host, adds the protective headers.

    ``hosts``: the names the server is reached by (``served_hosts``); ``port``: the port it
    listens on, or None to take the one the request came in on (``scope["server"]``, for a
    server started on port 0); ``csp``: the Content-Security-Policy to send."""

    def __init__(self, app: ASGIApp, *, hosts: Iterable[str], port: int | None = None,
                 csp: str = CSP) -> None:
        self.app = app
        self.hosts = tuple(hosts)
        self.port = port
        self.headers: list[tuple[bytes, bytes]] = [
            (b"content-security-policy", csp.encode("latin-1")),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (b"cross-origin-resource-policy", b"same-origin"),
            (b"cross-origin-opener-policy", b"same-origin"),
        ]

    def allowed(self, scope: Scope) -> frozenset[str]:
        """The Host values this request may carry."""
        port = self.port
        if port is None:
            server = scope.get("server")
            port = int(server[1]) if server and server[1] is not None else None
        if port is None:
            return frozenset()
        values = {_host_value(h, port) for h in self.hosts}
        if port == (443 if scope.get("scheme") in ("https", "wss") else 80):
            values |= {v.rsplit(":", 1)[0] for v in values}    # the default port is left out
        return frozenset(values)

    def host_ok(self, scope: Scope) -> bool:
        given = [v for k, v in scope.get("headers", []) if k.lower() == b"host"]
        if len(given) != 1 or not 0 < len(given[0]) <= MAX_HOST:
            return False
        return given[0].decode("latin-1").lower() in self.allowed(scope)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):     # lifespan: nothing to guard
            await self.app(scope, receive, send)
            return
        if not self.host_ok(scope):
            await self.refuse(scope, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = self.with_headers(message.get("headers", []))
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def with_headers(self, headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
        """The app's headers plus each protective one the app did not set itself."""
        out = list(headers)
        present = {k.lower() for k, _ in out}
        out.extend(h for h in self.headers if h[0] not in present)
        return out

    async def refuse(self, scope: Scope, send: Send) -> None:
        """400 (or a closed websocket): the request was meant for another host. The answer
        names the addresses served, never the Host given."""
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        names = ", ".join(sorted(self.allowed(scope))) or "its own address"
        body = (f"Bad request: this server answers only to {names}.\n").encode()
        await send({"type": "http.response.start", "status": 400,
                    "headers": self.with_headers([
                        (b"content-type", b"text/plain; charset=utf-8"),
                        (b"content-length", str(len(body)).encode()),
                        (b"connection", b"close")])})
        await send({"type": "http.response.body", "body": body})
