"""``cabo-log host`` under load, without a browser: 50 tables of bots opened through the form
and played at once, each watched over its WebSocket to the end; and a finished game loaded
into the database by itself, where ``serve`` finds it."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import httpx
import websockets
from host_server import Running, wait_for
from starlette.testclient import TestClient

from cabo_log.log.replay import replay_file
from cabo_log.pages.table.clock import Timing
from cabo_log.pages.table.model import Status
from cabo_log.pages.web import create_app as explorer

T = TypeVar("T")
BOTS = Timing(hold=60, between_rounds=0, bot_delay=0.001)   # a move per table per tick
SHORT = json.dumps({"base": "online", "name": "short online", "target": 20})


def open_bots(base: str, client: httpx.Client, n: int) -> None:
    form = {"house": SHORT, "step": "0", "mode": "classic"}
    for i, bot in enumerate(("greedy", "random", "expert")):
        form[f"kind{i}"] = bot
    for _ in range(n):
        answer = client.post(base + "/tables", data=form)
        assert answer.status_code == 200, answer.text


async def watch_to_the_end(base: str, table_id: str) -> dict[str, object]:
    """A spectator's socket on one table, read until the match is over: its last view."""
    url = base.replace("http://", "ws://") + f"/t/{table_id}/ws"
    async with websockets.connect(url, max_size=2**20) as ws:
        await ws.send(json.dumps({"hello": None}))
        while True:
            view = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if view.get("type") == "view" and view["status"] == "over":
                return view


def apart(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine on an event loop of its own thread (a browser test of the same session
    may hold this thread's loop)."""
    out: list[T] = []
    thread = threading.Thread(target=lambda: out.append(asyncio.run(make())))
    thread.start()
    thread.join(300)
    assert out, "the spectators did not finish"
    return out[0]


def test_fifty_tables_of_bots_at_once(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    run = Running(tmp_path / "games", BOTS, tick=0.02)
    try:
        with httpx.Client() as client:
            open_bots(run.base, client, 50)
            ids = list(run.host.tables)
            assert len(ids) == 50

            async def all_of_them() -> list[dict[str, object]]:
                return await asyncio.gather(*(watch_to_the_end(run.base, t) for t in ids))

            views = apart(all_of_them)
            index = client.get(run.base + "/").text
    finally:
        run.stop()
    assert all(v["winners"] for v in views)
    assert index.count("over</td>") == 50
    for table_id, view in zip(ids, views, strict=True):
        result = replay_file(str(tmp_path / "games" / f"{table_id}.jsonl"))
        assert result.error is None and result.state is not None and result.state.complete
        assert list(result.state.winners) == view["winners"]
        assert result.state.cumulative_by_name() == view["scores"]
        assert result.head is not None                  # chained


def test_a_finished_game_is_loaded_and_serve_shows_it(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    db = tmp_path / "games.duckdb"
    run = Running(tmp_path / "games", BOTS, db=db, tick=0.02)
    try:
        with httpx.Client() as client:
            open_bots(run.base, client, 1)
        table = next(iter(run.host.tables.values()))
        wait_for(lambda: table.status == Status.OVER, 30, "the match")
        wait_for(lambda: table.id in run.host.load_notes, 60, "the load")
        assert run.host.load_notes[table.id] == f"loaded into {db.name}"
        assert any("loaded into" in line for line in table.feeds[None])
        timeline = httpx.get(f"{run.base}/t/{table.id}/timeline")
        assert timeline.status_code == 200 and table.id in timeline.text
    finally:
        run.stop()
    con = duckdb.connect(str(db), read_only=True)
    row = con.execute("SELECT complete FROM games WHERE game_id = ?", [table.id]).fetchone()
    con.close()
    assert row == (True,)
    with TestClient(explorer(db), base_url="http://127.0.0.1:8000") as client:
        page = client.get(f"/games/{table.id}")
        assert page.status_code == 200 and table.id in page.text
