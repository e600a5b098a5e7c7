"""``cabo-log host``: moves per second and the latency of a move through the host's own
message path, beside the same number of matches through ``simulate``.

1. ``cabo-log host`` runs in a process of its own (127.0.0.1, a free port, a temporary
   ``--dir``). ``--tables`` tables are opened through its form, each of ``--players``
   persons (header lines included in the count), every seat played by a
   client over the table's WebSocket: it reads its view, picks one of the legal moves the view
   lists (from the engine; Cabo with a small probability, else uniformly), and sends it. A
   move's latency is from sending it to receiving the first view that shows it written
   (parsed, checked by the engine, appended, fsync'd, chained, every seat's view rebuilt and
   sent). Between rounds the clients confirm at once. Each table plays one match.
2. The references, in the same run: ``simulate`` (random bots, one process, the same ruleset,
   players and target) writing the same number of matches to files; and those matches' lines
   appended again one at a time through ``GameLog`` with an fsync each, as the host writes
   them (the floor the disk sets: the host cannot be faster than its fsyncs).

Usage::

    .venv/bin/python benchmarks/host.py                      # 8 tables of 3, online, target 100
    .venv/bin/python benchmarks/host.py --tables 20 --players 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from cabo_log.log.gamelog import GameLog
from cabo_log.play.simulate import write_games

NAMES = ("ana", "bruno", "carla", "dora", "eli")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def start(directory: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``cabo-log host`` in a process of its own, as a user starts it."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cabo_log", "host", "--dir", str(directory),
                             "--port", str(port)], stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 30
    while True:
        try:
            httpx.get(base + "/", timeout=1)
            return proc, base
        except httpx.HTTPError:
            if time.monotonic() > end or proc.poll() is not None:
                raise SystemExit("the host did not start") from None
            time.sleep(0.1)


def open_table(base: str, args: argparse.Namespace) -> tuple[str, list[str]]:
    """A table of persons opened through the form: its id and the seats' tokens."""
    form = {"house": json.dumps({"base": args.ruleset, "target": args.target}), "step": "0",
            "mode": "assisted"}
    for i in range(args.players):
        form[f"kind{i}"], form[f"name{i}"] = "person", NAMES[i]
    page = httpx.post(base + "/tables", data=form).text
    links = re.findall(r'value="http://[^"]*/t/([^"#]+)#seat=([^"]+)"', page)
    if len(links) != args.players:
        raise SystemExit(f"the table did not open: {page[:2000]}")
    return links[0][0], [token for _, token in links]


async def seat(base: str, table_id: str, token: str, rng: random.Random,
               latencies: list[float]) -> int:
    """Play one seat to the end of the match; the number of moves it made."""
    moves = 0
    url = base.replace("http://", "ws://") + f"/t/{table_id}/ws"
    async with websockets.connect(url, max_size=2**22) as ws:
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
    directory.mkdir(parents=True)
    proc, base = start(directory)
    try:
        rng = random.Random(args.seed)
        tables = [open_table(base, args) for _ in range(args.tables)]
        latencies: list[float] = []

        async def everyone() -> list[int]:
            return await asyncio.gather(*(
                seat(base, table_id, token, random.Random(rng.getrandbits(64)), latencies)
                for table_id, tokens in tables for token in tokens))

        began = time.perf_counter()
        moves = sum(asyncio.run(everyone()))
        seconds = time.perf_counter() - began
    finally:
        proc.terminate()
        proc.wait(30)
    lines = sum(len(p.read_bytes().splitlines()) for p in directory.glob("*.jsonl"))
    return {"moves": moves, "lines": lines, "seconds": seconds, "latencies": latencies}


def fsync_floor(files: list[Path], out: Path) -> tuple[int, float]:
    """Append the lines of ``files`` one call (one fsync) each: lines and seconds."""
    out.mkdir()
    lines = 0
    began = time.perf_counter()
    for path in files:
        raw = [json.loads(x) for x in path.read_bytes().splitlines()]
        with GameLog.create(out / path.name, raw[0]) as log:
            for line in raw[1:]:
                log.append(line)
        lines += len(raw)
    return lines, time.perf_counter() - began


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
        floor_lines, floor_seconds = fsync_floor(simulated.files, Path(tmp) / "floor")
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
    floor_rate = floor_lines / floor_seconds
    print(f"GameLog, an fsync a line: {floor_lines:,} lines in {floor_seconds:.2f} s: "
          f"{floor_rate:,.0f} lines/s")
    print(f"host / simulate: {host_rate / sim_rate:.3f}x the lines per second; "
          f"host / GameLog with fsync: {host_rate / floor_rate:.2f}x")


if __name__ == "__main__":
    main()
