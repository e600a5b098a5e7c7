"""The host's web app without a browser (Starlette's test client): a token acts at its own
table and seat only, a socket from another origin is refused, a page cannot send a move
for somebody else, a bad form is answered in words, names are escaped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cabo_log.pages.table.app import create_app
from cabo_log.pages.table.clock import Timing
from cabo_log.pages.table.host import Host, HostSettings, SeatSpec
from cabo_log.pages.table.seats import SeatKind
from cabo_log.pages.table.views import Mode

BASE = "http://127.0.0.1:8000"     # the guard answers only to the address served
P = SeatKind.PERSON


def views(ws: object, until: str) -> dict[str, object]:
    """Messages from the socket until one of type ``until``."""
    while True:
        message = json.loads(ws.receive_text())  # type: ignore[attr-defined]
        if message["type"] == until:
            return message  # type: ignore[no-any-return]


@pytest.fixture
def host(tmp_path: Path) -> Host:
    return Host(HostSettings(tmp_path, timing=Timing(bot_delay=0)))


def test_a_token_acts_at_its_own_table_only(host: Host) -> None:
    one = host.open_table("online", [SeatSpec("ana", P), SeatSpec("bo", P)], step=0,
                          mode=Mode.ASSISTED)
    two = host.open_table("online", [SeatSpec("cy", P), SeatSpec("di", P)], step=0,
                          mode=Mode.ASSISTED)
    with TestClient(create_app(host), base_url=BASE) as client:
        with client.websocket_connect(f"ws://127.0.0.1:8000/t/{two.table.id}/ws") as ws:
            ws.send_text(json.dumps({"hello": one.tokens["ana"]}))
            error = views(ws, "error")
            assert "not valid" in str(error["message"])
            view = views(ws, "view")
            assert view["me"] is None and view["moves"] == []
            ws.send_text(json.dumps({"move": {"type": "cabo", "player": "cy"}}))
        assert two.table.log.lines == 1                  # nothing was played
        with client.websocket_connect(f"ws://127.0.0.1:8000/t/{one.table.id}/ws") as ws:
            ws.send_text(json.dumps({"hello": one.tokens["ana"]}))
            assert views(ws, "view")["me"] == "ana"


def test_a_page_moves_only_for_its_own_seat(host: Host) -> None:
    opened = host.open_table("online", [SeatSpec("ana", P), SeatSpec("bo", P)], step=0,
                             mode=Mode.ASSISTED)
    table = opened.table
    with TestClient(create_app(host), base_url=BASE) as client:
        sockets = {}
        with client.websocket_connect(f"ws://127.0.0.1:8000/t/{table.id}/ws") as a, \
                client.websocket_connect(f"ws://127.0.0.1:8000/t/{table.id}/ws") as b:
            sockets = {"ana": a, "bo": b}
            for name, ws in sockets.items():
                ws.send_text(json.dumps({"hello": opened.tokens[name]}))
                views(ws, "view")
            mover = table.state.current_player()
            other = "bo" if mover == "ana" else "ana"
            before = table.path.read_bytes()
            sockets[other].send_text(json.dumps(
                {"move": {"type": "draw", "source": "deck", "player": mover}}))
            refused = views(sockets[other], "refused")
            assert f"it is {mover}'s turn" in str(refused["message"])
            assert table.path.read_bytes() == before
            sockets[mover].send_text(json.dumps({"move": {"type": "draw", "source": "deck"}}))
            view = views(sockets[mover], "view")
            while view["phase"] != "drawn":
                view = views(sockets[mover], "view")
            assert view["drawn"] is not None and len(table.path.read_bytes()) > len(before)


def test_a_socket_from_another_origin_is_refused(host: Host) -> None:
    opened = host.open_table("online", [SeatSpec("ana", P), SeatSpec("bo", P)], step=0,
                             mode=Mode.ASSISTED)
    with TestClient(create_app(host), base_url=BASE) as client:
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect(f"ws://127.0.0.1:8000/t/{opened.table.id}/ws",
                                          headers={"origin": "http://evil.example"}) as ws:
                ws.receive_text()


def test_the_form_answers_in_words_and_names_are_text(host: Host) -> None:
    with TestClient(create_app(host), base_url=BASE) as client:
        bad = client.post("/tables", data={"kind0": "person", "name0": "ana", "step": "45"})
        assert bad.status_code == 400 and "step timer" in bad.text
        house = client.post("/tables", data={"house": "{nope", "kind0": "person",
                                              "name0": "a", "kind1": "person", "name1": "b"})
        assert house.status_code == 400 and "not JSON" in house.text
        made = client.post("/tables", data={"kind0": "person", "name0": "<i>ana</i>",
                                            "kind1": "greedy", "step": "60",
                                            "mode": "classic", "ruleset": "edition2"})
        assert made.status_code == 200
        assert "&lt;i&gt;ana&lt;/i&gt;" in made.text and "<i>ana</i>" not in made.text
        assert "no forfeits" in made.text
        assert made.text.count("class=\"link\"") == 1   # the person's link; none for the bot
        index = client.get("/")
        assert "&lt;i&gt;ana&lt;/i&gt;" in index.text and "<i>ana" not in index.text
        assert client.get("/t/nope").status_code == 404
        table_id = next(iter(host.tables))
        assert client.get(f"/t/{table_id}/timeline").status_code == 409


def test_the_host_answers_only_its_own_address_and_sends_the_protective_headers(
        host: Host) -> None:
    """A page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) gets nothing:
    not the front page, not a table's socket; what is answered carries the CSP and the rest."""
    opened = host.open_table("online", [SeatSpec("ana", P), SeatSpec("bo", P)], step=0,
                             mode=Mode.ASSISTED)
    with TestClient(create_app(host), base_url=BASE) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["x-frame-options"] == "DENY"
        assert page.headers["x-content-type-options"] == "nosniff"
        for bad in ("evil.example:8000", "127.0.0.1:9999", ""):
            refused = client.get("/", headers={"host": bad})
            assert refused.status_code == 400, bad
            assert "evil" not in refused.text
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect(f"ws://127.0.0.1:8000/t/{opened.table.id}/ws",
                                          headers={"host": "evil.example:8000"}) as ws:
                ws.receive_text()
