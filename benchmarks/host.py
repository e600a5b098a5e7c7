"""``cabo-log host``: moves per second and the latency of a move through the host's own
message path, beside the same number of matches through ``simulate``.

1. The host runs on uvicorn in a thread (127.0.0.1, a free port, a temporary ``--dir``).
   ``--tables`` tables open at once, each of ``--players`` persons, every seat played by a
   client over the table's WebSocket: it reads its view, picks one of the legal moves the view
   lists (from the engine; Cabo with a small probability, else uniformly), and sends it. A
   move's latency is from sending it to receiving the first view that shows it written
   (parsed, checked by the engine, appended, fsync'd, chained, every seat's view rebuilt and
   sent). Between rounds the clients confirm at once. Each table plays one match.
2. The reference, in the same run: ``simulate`` (random bots, one process, the same ruleset,
   players and target) writing the same number of matches to files.

Usage::

    .venv/bin/python benchmarks/host.py                      # 8 tables of 3, online, target 100
    .venv/bin/python benchmarks/host.py --tables 20 --players 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
import websockets

from cabo_log.pages.table.app import create_app
from cabo_log.pages.table.clock import Timing
from cabo_log.pages.table.host import Host, HostSettings, SeatSpec
from cabo_log.pages.table.seats import SeatKind
from cabo_log.pages.table.views import Mode
from cabo_log.play.simulate import write_games

NAMES = ("ana", "bruno", "carla", "dora", "eli")


def start(directory: Path) -> tuple[Host, uvicorn.Server, threading.Thread, str]:
    directory.mkdir(parents=True, exist_ok=True)
    host = Host(HostSettings(directory, timing=Timing(between_rounds=0, bot_delay=0),
                             max_tables=1000, max_connections=10000))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    base = f"ws://127.0.0.1:{sock.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(create_app(host), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return host, server, thread, base


async def seat(base: str, table_id: str, token: str, rng: random.Random,
               latencies: list[float]) -> int:
    """Play one seat to the end of the match; the number of moves it made."""
    moves = 0
    async with websockets.connect(f"{base}/t/{table_id}/ws", max_size=2**22) as ws:
        await ws.send(json.dumps({"hello": token}))
        sent_at: float | None = None
        sent_lines = -1
        while True:
            view = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if view.get("type") != "view":
                continue
            if sent_at is not None and view["lines"] > sent_lines:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if view["status"] == "over":
                return moves
            if view["status"] == "between_rounds" and view["me"] not in view["confirmed"]:
                await ws.send(json.dumps({"confirm": True}))
                continue
            if sent_at is not None or not view["moves"]:
                continue
            options = view["moves"]
            calls = [m for m in options if m["kind"] == "cabo"]
            others = [m for m in options if m["kind"] != "cabo"] or calls
            move = calls[0] if calls and rng.random() < 0.03 else rng.choice(others)
            sent_at, sent_lines = time.perf_counter(), view["lines"]
            await ws.send(json.dumps({"move": move["event"]}))
            moves += 1


def host_run(args: argparse.Namespace, directory: Path) -> dict[str, Any]:
    host, server, thread, base = start(directory)
    rng = random.Random(args.seed)
    opened = [host.open_table(args.ruleset, [SeatSpec(n, SeatKind.PERSON)
                                             for n in NAMES[:args.players]],
                              step=0, mode=Mode.ASSISTED, options={"target": args.target})
              for _ in range(args.tables)]
    latencies: list[float] = []

    async def everyone() -> list[int]:
        return await asyncio.gather(*(
            seat(base, o.table.id, token, random.Random(rng.getrandbits(64)), latencies)
            for o in opened for token in o.tokens.values()))

    began = time.perf_counter()
    moves = sum(asyncio.run(everyone()))
    seconds = time.perf_counter() - began
    lines = sum(o.table.log.lines for o in opened)
    server.should_exit = True
    thread.join(30)
    return {"moves": moves, "lines": lines, "seconds": seconds, "latencies": latencies}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--ruleset", default="online")
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        hosted = host_run(args, Path(tmp) / "host")
        began = time.perf_counter()
        simulated = write_games(Path(tmp) / "sim", args.ruleset, games=args.tables,
                                players=args.players, seed=args.seed, bots="random",
                                options={"target": args.target}, jobs=1)
        sim_seconds = time.perf_counter() - began
    lat = sorted(hosted["latencies"])
    p50 = statistics.median(lat) * 1000
    p95 = lat[int(0.95 * (len(lat) - 1))] * 1000
    host_rate = hosted["lines"] / hosted["seconds"]
    sim_rate = simulated.events / sim_seconds
    print(f"{args.tables} tables of {args.players} ({args.ruleset}, target {args.target}), "
          f"one match each", file=sys.stderr)
    print(f"host:     {hosted['moves']:,} moves by the clients, {hosted['lines']:,} lines in "
          f"{hosted['seconds']:.2f} s: {hosted['moves'] / hosted['seconds']:,.0f} moves/s, "
          f"{host_rate:,.0f} lines/s; latency of a move p50 {p50:.1f} ms, p95 {p95:.1f} ms")
    print(f"simulate: {simulated.events:,} lines of {simulated.games} matches in "
          f"{sim_seconds:.2f} s: {sim_rate:,.0f} lines/s")
    print(f"host / simulate: {host_rate / sim_rate:.3f}x the lines per second")


if __name__ == "__main__":
    main()
