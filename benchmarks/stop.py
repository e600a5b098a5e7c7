"""Stopping ``cabo-log load`` at random moments, to find where a stop leaves something behind.

Makes a corpus of ``--games`` log files (``--unique`` simulated games copied under new ids, as
``benchmarks/load.py`` does), then ``--trials`` times: starts ``cabo-log load`` in a session of
its own, waits a random moment between its start and its expected end, sends SIGINT or SIGTERM
(alternately) to the parent alone or to the whole process group (alternately), and records
how long it took to exit, its exit status and stderr, whether the database holds whole games
only, and whether any process of its group survived it (3 s allowed for the workers to
notice). Prints one line per trial and a summary.

Usage::

    .venv/bin/python benchmarks/stop.py --games 1500 --trials 30
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).parent))
from load import make_corpus, unique_games  # noqa: E402 - the corpus of the load benchmark

CLI = [sys.executable, "-c", "from cabo_log.launch import main; main()"]


def group(pgid: int) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat[2]) == pgid and stat[0] != "Z":
            found.append(int(pid))
    return found


def whole(db: Path) -> tuple[int, bool]:
    """(games, every game has as many events and rounds as it says)"""
    con = duckdb.connect(str(db), read_only=True)
    try:
        if con.execute("SELECT count(*) FROM information_schema.tables").fetchone() == (0,):
            return 0, True
        games = con.execute("SELECT count(*) FROM games").fetchone()
        bad = con.execute("""
            SELECT count(*) FROM games AS g
            WHERE g.events <> (SELECT count(*) FROM events AS e WHERE e.game_id = g.game_id)
               OR g.rounds <> (SELECT count(*) FROM rounds AS r WHERE r.game_id = g.game_id)
        """).fetchone()
        orphans = con.execute("SELECT count(*) FROM events WHERE game_id NOT IN "
                              "(SELECT game_id FROM games)").fetchone()
        assert games is not None and bad is not None and orphans is not None
        return games[0], bad[0] == 0 and orphans[0] == 0
    finally:
        con.close()


def trial(folder: Path, db: Path, moment: float, signum: int, to_group: bool
          ) -> tuple[float, int, str, int, bool, list[int]]:
    db.unlink(missing_ok=True)
    proc = subprocess.Popen([*CLI, "load", str(folder), "--db", str(db)],
                            start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(moment)
    sent = time.monotonic()
    try:
        os.killpg(proc.pid, signum) if to_group else os.kill(proc.pid, signum)
    except ProcessLookupError:
        pass
    try:
        _, err = proc.communicate(timeout=600)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
    took = time.monotonic() - sent
    deadline = time.monotonic() + 3
    while group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    games, ok = whole(db)
    return took, proc.returncode, err.strip(), games, ok, group(proc.pid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--unique", type=int, default=40)
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--dir", type=Path, default=Path("build/bench-stop"))
    args = parser.parse_args()
    base = unique_games(args.dir / "unique", args.unique)
    folder = args.dir / f"corpus-{args.games}"
    make_corpus(base, folder, args.games)
    db = args.dir / "stop.duckdb"
    db.unlink(missing_ok=True)
    started = time.monotonic()
    done = subprocess.run([*CLI, "load", str(folder), "--db", str(db)], check=True,
                          capture_output=True, text=True)
    full = time.monotonic() - started
    print(f"an uninterrupted load: {full:.1f} s ({done.stdout.strip()})")
    rng = random.Random(args.seed)
    times, failures = [], 0
    for i in range(args.trials):
        signum = signal.SIGINT if i % 2 == 0 else signal.SIGTERM
        to_group = i % 4 >= 2
        moment = rng.uniform(0.0, full)
        took, code, err, games, ok, left = trial(folder, db, moment, signum, to_group)
        lines = err.splitlines()
        good = (code in (0, 128 + signum) and ok and not left
                and (code == 0 or len(lines) == 1) and took < 3.0)
        failures += not good
        if code != 0:
            times.append(took)
        print(f"{i:2d} {signal.Signals(signum).name:7s} {'group ' if to_group else 'parent'} "
              f"at {moment:5.2f} s: exit {code} in {took:.2f} s, {games} games whole={ok}, "
              f"left={left} {'OK' if good else 'FAIL'}  {lines[-1] if lines else ''}")
    if times:
        print(f"\n{len(times)} stopped loads: exit time median {statistics.median(times):.2f} s, "
              f"max {max(times):.2f} s; {failures} failure(s) of {args.trials}")


if __name__ == "__main__":
    main()
