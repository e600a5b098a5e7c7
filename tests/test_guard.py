"""``pages.guard.Guard``: requests for another host are refused before the app sees them (DNS
rebinding), and every answer carries the protective headers. First on a bare app (the guard
knows nothing of the explorer), then on the explorer, then on ``cabo-log serve`` itself."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from serve_db import build_db
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from cabo_log.pages.guard import CSP, Guard, served_hosts
from cabo_log.pages.web import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PROTECTIVE = {"content-security-policy": CSP, "x-frame-options": "DENY",
              "x-content-type-options": "nosniff", "referrer-policy": "no-referrer",
              "cross-origin-resource-policy": "same-origin"}


def secret_app() -> Starlette:
    seen: list[str] = []

    async def secret(request: Request) -> PlainTextResponse:
        seen.append(request.headers.get("host", ""))
        return PlainTextResponse("the secret")

    app = Starlette(routes=[Route("/", secret)])
    app.state.seen = seen
    return app


def call(app: Any, headers: list[tuple[bytes, bytes]], server: tuple[str, int] | None = (
        "127.0.0.1", 8000)) -> tuple[int, dict[str, str], bytes]:
    """One GET / straight into the ASGI app with exactly these headers."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": "/", "raw_path": b"/",
             "query_string": b"", "headers": headers, "client": ("127.0.0.1", 5),
             "server": server, "root_path": ""}
    out: dict[str, Any] = {"body": b""}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}
        else:
            out["body"] += message.get("body", b"")

    # in a thread of its own: a browser test may leave an event loop running in this one
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    return out["status"], out["headers"], out["body"]


GOOD = ["127.0.0.1:8000", "localhost:8000", "LocalHost:8000", "[::1]:8000"]
BAD = ["evil.example.com", "evil.example.com:8000", "127.0.0.1", "127.0.0.1:8001",
       "localhost.evil.example.com:8000", "127.0.0.1:8000.evil", "::1:8000", "", " ",
       "127.0.0.1:8000 ", "x" * 10_000, "127.0.0.1:8000" + "0" * 10_000]


@pytest.mark.parametrize("host", GOOD)
def test_the_served_names_are_answered(host: str) -> None:
    inner = secret_app()
    status, headers, body = call(Guard(inner, hosts=served_hosts("127.0.0.1"), port=8000),
                                 [(b"host", host.encode())])
    assert (status, body) == (200, b"the secret")
    assert {k: headers.get(k) for k in PROTECTIVE} == PROTECTIVE
    assert inner.state.seen == [host]


@pytest.mark.parametrize("host", BAD)
def test_any_other_host_is_refused(host: str) -> None:
    inner = secret_app()
    status, headers, body = call(Guard(inner, hosts=served_hosts("127.0.0.1"), port=8000),
                                 [(b"host", host.encode())])
    assert status == 400 and b"secret" not in body
    assert body.startswith(b"Bad request: this server answers only to 127.0.0.1:8000")
    if "evil" in host or len(host) > 100:
        assert host.encode() not in body             # the given name is never echoed
    assert len(body) < 200
    assert {k: headers.get(k) for k in PROTECTIVE} == PROTECTIVE
    assert inner.state.seen == []                    # the app never saw it


def test_no_host_or_two_hosts_are_refused() -> None:
    guard = Guard(secret_app(), hosts=served_hosts("127.0.0.1"), port=8000)
    assert call(guard, [])[0] == 400
    assert call(guard, [(b"host", b"127.0.0.1:8000"), (b"host", b"evil.example.com")])[0] == 400
    assert call(guard, [(b"host", b"127.0.0.1:8000")])[0] == 200


def test_the_host_given_and_extra_names() -> None:
    guard = Guard(secret_app(), hosts=served_hosts("192.168.7.7", ["cabo.lan"]), port=8080)
    for host in ("192.168.7.7:8080", "cabo.lan:8080", "localhost:8080"):
        assert call(guard, [(b"host", host.encode())])[0] == 200, host
    assert call(guard, [(b"host", b"cabo.lan:8000")])[0] == 400
    v6 = Guard(secret_app(), hosts=served_hosts("fe80::1"), port=8080)
    assert call(v6, [(b"host", b"[fe80::1]:8080")])[0] == 200
    # a wildcard address is not a name: only the loopback names and those the user gave
    assert served_hosts("0.0.0.0") == ("127.0.0.1", "localhost", "::1")


def test_port_80_may_be_left_out_and_port_none_is_the_one_served() -> None:
    guard = Guard(secret_app(), hosts=served_hosts("127.0.0.1"), port=80)
    assert call(guard, [(b"host", b"localhost")])[0] == 200
    assert call(guard, [(b"host", b"localhost:80")])[0] == 200
    free = Guard(secret_app(), hosts=served_hosts("127.0.0.1"))   # started on port 0
    assert call(free, [(b"host", b"127.0.0.1:40123")], ("127.0.0.1", 40123))[0] == 200
    assert call(free, [(b"host", b"127.0.0.1:8000")], ("127.0.0.1", 40123))[0] == 400


def test_the_app_may_set_its_own_policy() -> None:
    async def own(request: Request) -> PlainTextResponse:
        return PlainTextResponse("x", headers={"Content-Security-Policy": "default-src 'none'"})

    guard = Guard(Starlette(routes=[Route("/", own)]), hosts=["127.0.0.1"], port=8000)
    _, headers, _ = call(guard, [(b"host", b"127.0.0.1:8000")])
    assert headers["content-security-policy"] == "default-src 'none'"
    assert headers["x-frame-options"] == "DENY"


# --- on the explorer ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def explorer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = build_db(tmp_path_factory.mktemp("guarddb"))
    with TestClient(create_app(db), base_url="http://127.0.0.1:8000",
                    raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("host", ["evil.example.com", "evil.example.com:8000", "",
                                  "x" * 10_000, "127.0.0.1:9999"])
def test_the_console_answers_no_other_host(explorer: TestClient, host: str) -> None:
    page = explorer.get("/sql", params={"q": "SELECT 'leaked' || count(*) FROM games"},
                        headers={"host": host})
    assert page.status_code == 400 and "leaked" not in page.text
    assert page.headers["x-frame-options"] == "DENY"


def test_every_page_carries_the_headers(explorer: TestClient) -> None:
    for url, status in [("/", 200), ("/sql?q=SELECT%20'leaked'%20||%201", 200),
                        ("/games/golf-a", 200), ("/reports/score_distribution", 200),
                        ("/static/timeline.js", 200), ("/no/such/page", 404),
                        ("/?min_rounds=x", 400)]:
        page = explorer.get(url)
        assert page.status_code == status, url
        assert {k: page.headers.get(k) for k in PROTECTIVE} == PROTECTIVE, url
    assert "leaked1" in explorer.get("/sql?q=SELECT%20'leaked'%20||%201").text


def test_a_game_page_has_no_inline_script(explorer: TestClient) -> None:
    """Under ``script-src 'self'`` an inline script would not run: the timeline's script is
    served as a file (a JSON data block is not a script and may stay)."""
    import re

    page = explorer.get("/games/golf-a").text
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert scripts, "no script at all"
    for attrs, body in scripts:
        assert 'type="application/json"' in attrs or (body == "" and "src=" in attrs), attrs
    assert '<script src="/static/timeline.js"></script>' in page
    assert "caboTimeline" in explorer.get("/static/timeline.js").text


def test_serve_refuses_another_host(tmp_path: Path) -> None:
    """``cabo-log serve`` itself, over a real socket: a request for another name gets 400."""
    import http.client
    import socket
    import subprocess
    import sys
    import time

    db = build_db(tmp_path / "d")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-c", "from cabo_log.cli import main; main()",
                             "serve", "--db", str(db), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def get(host: str) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.putrequest("GET", "/sql?q=SELECT%20'leaked'", skip_host=True)
            conn.putheader("Host", host)
            conn.endheaders()
            r = conn.getresponse()
            return r.status, r.read()
        finally:
            conn.close()

    try:
        end = time.monotonic() + 30
        while True:
            try:
                status, body = get(f"127.0.0.1:{port}")
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < end, proc.stderr
                time.sleep(0.2)
        assert status == 200 and b"leaked" in body
        assert get(f"localhost:{port}")[0] == 200
        for host in ("evil.example.com", f"evil.example.com:{port}", "", "x" * 10_000):
            status, body = get(host)
            assert status in (400, 431) and b"leaked" not in body, host
    finally:
        proc.terminate()
        proc.communicate(timeout=10)
