"""``cabo-log serve``: server time of its pages on a database of many games.

1. Simulate ``--unique`` games (every ruleset, greedy bots) and ``load`` them; then copy their
   rows in SQL under new game ids until the database holds ``--games`` games (every table:
   games, players, rounds, scores, events, powers, calls), each copy with its own start date.
   Replaying 100,000 distinct games would take hours on a 2-core machine; the pages' queries
   only see row counts, so copies measure the same thing. ``--db`` keeps the database between
   runs (it is built only when missing).
2. Call the ASGI app in-process, one event loop, as uvicorn would (the server's time: routing,
   queries, templates; no network, no HTTP parsing) and time each page ``--repeat`` times:
   median and 95th percentile.

The reference, measured in the same run: the framework's floor (a static file through the
same app) and DuckDB answering the list's own query directly.

Usage::

    .venv/bin/python benchmarks/serve.py --games 100000 --db build/serve-100k.duckdb
    .venv/bin/python benchmarks/serve.py --games 2000 --unique 200     # a quick run
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import duckdb

from cabo_log.db.schema import GAME_TABLES
from cabo_log.pages.web import create_app
from cabo_log.pages.web.game_page import _timeline_page as timeline_cache


class Asgi:
    """Requests straight into the ASGI app on one event loop."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.loop = asyncio.new_event_loop()

    def get(self, url: str) -> tuple[int, bytes]:
        path, _, query = url.partition("?")
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": "GET", "scheme": "http", "path": unquote(path),
                 "raw_path": path.encode(), "query_string": query.encode(),
                 "headers": [(b"host", b"127.0.0.1:8000")],
                 "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 8000), "root_path": ""}
        status = 0
        body: list[bytes] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                body.append(message.get("body", b""))

        self.loop.run_until_complete(self.app(scope, receive, send))
        return status, b"".join(body)

RULESETS = ("edition1", "edition2", "golf", "online")


def build(db: Path, games: int, unique: int) -> None:
    """Simulate, load, then copy rows up to ``games`` games."""
    logs = db.parent / f"{db.stem}-logs"        # kept: the game pages read these files
    if True:
        each = max(1, unique // len(RULESETS))
        started = time.perf_counter()
        procs = [subprocess.Popen(
            [sys.executable, "-c", "from cabo_log.cli import main; main()", "simulate",
             "--ruleset", r, "--players", str(2 + i % 3), "--games", str(each), "--seed",
             "11", "--out", str(logs / r)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for i, r in enumerate(RULESETS)]
        for p in procs:
            if p.wait() != 0:
                raise SystemExit("simulate failed")
        print(f"simulated {each * len(RULESETS)} games in {time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "from cabo_log.cli import main; main()", "load",
                        str(logs), "--db", str(db), "-q"], check=True)
        print(f"loaded in {time.perf_counter() - started:.0f} s")
    started = time.perf_counter()
    con = duckdb.connect(str(db))
    base = con.execute("SELECT count(*) FROM games").fetchone()[0]   # type: ignore[index]
    copies = max(0, -(-games // base) - 1)
    con.execute("BEGIN TRANSACTION")
    for table in GAME_TABLES:
        con.execute(f"CREATE TEMP TABLE base AS SELECT * FROM {table}")
        con.execute(f"INSERT INTO {table} SELECT base.* REPLACE (game_id || '~' || k AS "
                    f"game_id) FROM base, (SELECT range + 1 AS k FROM range({copies}))")
        con.execute("DROP TABLE base")
    # spread the games over two years; trim to exactly ``games``
    con.execute("UPDATE games SET started_at = strftime(TIMESTAMP '2024-01-01' + "
                "to_minutes((hash(game_id) % 1051200)::BIGINT), '%Y-%m-%dT%H:%M:%SZ')")
    extra = con.execute("SELECT list(game_id) FROM (SELECT game_id FROM games "
                        "ORDER BY game_id DESC LIMIT greatest(0, (SELECT count(*) FROM games) "
                        f"- {games}))").fetchone()[0]   # type: ignore[index]
    for table in GAME_TABLES:
        con.execute(f"DELETE FROM {table} WHERE list_contains($1, game_id)", [extra])
    con.execute("COMMIT")
    con.execute("CHECKPOINT")
    total = con.execute("SELECT count(*), (SELECT count(*) FROM events) FROM games"
                        ).fetchone()
    con.close()
    assert total is not None
    print(f"copied to {total[0]:,} games, {total[1]:,} events in "
          f"{time.perf_counter() - started:.0f} s")


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    fn()                                  # warm: first use of a page, caches
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--unique", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    db = args.db or Path(tempfile.mkdtemp(prefix="cabo-serve-")) / "bench.duckdb"
    if not db.exists():
        db.parent.mkdir(parents=True, exist_ok=True)
        build(db, args.games, args.unique)
    app = create_app(db)
    client = Asgi(app)
    con = app.app.state.explorer.con
    one = con.execute("SELECT game_id, (SELECT p FROM (SELECT unnest(players) AS p) LIMIT 1) "
                      "FROM games ORDER BY game_id LIMIT 1").fetchone()
    games = con.execute("SELECT count(*) FROM games").fetchone()[0]
    game_ids = [r[0] for r in con.execute("SELECT game_id FROM games USING SAMPLE 50 ROWS")
                .fetchall()]
    print(f"{db}: {games:,} games; {args.repeat} requests per page")

    def get(url: str) -> Callable[[], object]:
        def fetch() -> object:
            status, body = client.get(url)
            assert status == 200, (url, status)
            return body
        return fetch

    ids = iter(game_ids * (args.repeat + 2))
    def cold_game() -> object:            # a different game each time, timeline cache empty
        timeline_cache.cache_clear()
        return get(f"/games/{next(ids)}")()

    pages: list[tuple[str, Callable[[], object]]] = [
        ("static file (framework floor)", get("/static/report.css")),
        ("DuckDB alone: the list's query", lambda: con.execute(
            "SELECT game_id FROM games ORDER BY started_at DESC, game_id DESC LIMIT 50"
        ).fetchall()),
        ("/ (newest 50 games)", get("/")),
        (f"/?player={one[1]}&ruleset=golf&min_rounds=5", get(
            f"/?player={one[1]}&ruleset=golf&min_rounds=5&sort=rounds")),
        ("/?special=1&page=20", get("/?special=1&page=20")),
        ("/games/ID (timeline built from the log)", cold_game),
        (f"/games/{one[0]} (cached timeline)", get(f"/games/{one[0]}")),
        (f"/players/{one[1]}", get(f"/players/{one[1]}")),
        ("/reports/cabo_call_success", get("/reports/cabo_call_success")),
        ("/reports/score_distribution", get("/reports/score_distribution")),
    ]
    print("| page | median ms | p95 ms |\n|---|---|---|")
    for name, fn in pages:
        med, p95 = timed(fn, args.repeat)
        print(f"| {name} | {med * 1000:.1f} | {p95 * 1000:.1f} |")


if __name__ == "__main__":
    main()
