"""The explorer's game page: time to first byte, as a browser sees it, of ``/games/ID``.

A game page is the game's timeline page, built from its log when first asked for (then kept
per file version). This measures that first visit on a real ``cabo-log serve`` process over
HTTP, for a sample game and a long simulated match:

- ``first visit``: the first request for the game to a server just started (one server per
  game and version of the sources);
- ``rebuilt``: a later request after the log's mtime changed (so the page is built again,
  in a warm process), median of ``--repeat``;
- ``cached``: the same page again, unchanged log, median of ``--repeat``;
- the reference, in the same run and the same server: a static file (the framework's floor).

``--checkout DIR`` runs the server from another copy of the sources (e.g. ``git archive`` of an
older commit unpacked in DIR) with this virtualenv, so two versions are compared side by side.

Usage::

    .venv/bin/python benchmarks/game_page.py
    .venv/bin/python benchmarks/game_page.py --checkout /tmp/old --repeat 5
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_games" / "edition2-match.jsonl"
LONG = ["simulate", "-r", "edition1", "-n", "4", "-g", "1", "-s", "3", "--options",
        '{"target": 300}', "--no-progress"]


def cli(*args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run([sys.executable, "-m", "cabo_log", *args], check=True, env=env,
                   stdout=subprocess.DEVNULL)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def ttfb(port: int, path: str) -> float:
    """Seconds from sending the request to the first byte of the answer (then read it all)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()          # returns once the status line has arrived
    first = time.perf_counter() - started
    body = response.read()
    conn.close()
    if response.status != 200 or not body:
        raise SystemExit(f"{path}: HTTP {response.status}")
    return first


def serve(db: Path, checkout: Path | None) -> tuple[subprocess.Popen[bytes], int]:
    env = dict(os.environ)
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cabo_log", "serve", "--db", str(db),
                             "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            cwd=checkout or ROOT)
    for _ in range(600):
        try:
            ttfb(port, "/static/report.css")
            return proc, port
        except (OSError, http.client.HTTPException):
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def measure(db: Path, game_id: str, log: Path, checkout: Path | None, repeat: int) -> str:
    """One game on a server of its own (so its first visit is the server's first page)."""
    proc, port = serve(db, checkout)
    try:
        first = ttfb(port, f"/games/{game_id}")
        rebuilt = []
        for _ in range(repeat):
            os.utime(log, ns=(time.time_ns(), time.time_ns()))   # a new file version
            rebuilt.append(ttfb(port, f"/games/{game_id}"))
        cached = statistics.median(ttfb(port, f"/games/{game_id}") for _ in range(repeat))
        static = statistics.median(ttfb(port, "/static/report.css") for _ in range(repeat))
    finally:
        proc.terminate()
        proc.wait(10)
    return (f"| {game_id} ({sum(1 for _ in log.open()) - 1} events) | {first * 1000:.0f} | "
            f"{statistics.median(rebuilt) * 1000:.0f} | {cached * 1000:.1f} | "
            f"{static * 1000:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", type=Path, action="append", default=[],
                        help="also measure a server run from these sources (repeatable)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cabo-game-page-"))
    logs = work / "logs"
    logs.mkdir()
    (logs / SAMPLE.name).write_bytes(SAMPLE.read_bytes())
    cli(*LONG, "--out", str(logs))
    db = work / "games.duckdb"
    cli("load", str(logs), "--db", str(db), "-q")
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    games = {gid: Path(src) for gid, src in con.execute(
        "SELECT game_id, source_file FROM games ORDER BY game_id DESC").fetchall()}
    con.close()
    print("| server from | game | first visit ms | rebuilt ms | cached ms | static file ms |")
    print("|---|---|---|---|---|---|")
    for game_id, log in games.items():
        for checkout in [*args.checkout, None]:
            print(f"| {checkout or 'this tree'} " + measure(db, game_id, log, checkout,
                                                            args.repeat))

if __name__ == "__main__":
    main()
