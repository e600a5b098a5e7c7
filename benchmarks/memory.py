"""Peak memory of ``cabo-log load`` as the number of games grows (it should stay flat from
10,000 to 1,000,000 games).

For each size N (``--games``, default 10000 100000): N small games, each the first round of a
simulated game (every ruleset; cut after its first ``round_end``, so an in-progress game with one
finished round, ~50 events) copied under a new game id, written in folders of 1,000 files; then
``cabo-log load DIR --db NEW.duckdb`` while its process tree is sampled every 50 ms from /proc:
peak resident memory of the whole tree (loader + workers), of the loader (the main
process, which also holds DuckDB) and of the largest worker. Memory is flat when the figures of
the largest N are those of the smallest, give or take the noise of a sample.

Usage::

    .venv/bin/python benchmarks/memory.py                        # 10k and 100k games
    .venv/bin/python benchmarks/memory.py --games 2000 20000     # a quicker look
    .venv/bin/python benchmarks/memory.py --compiled --games 10000 100000 1000000
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import BIN, _rss, _tree, mb, unique_games  # noqa: E402


def first_rounds(base: list[Path]) -> list[tuple[dict[str, object], bytes]]:
    """(header, the lines after it up to the first ``round_end``) of each base game."""
    out = []
    for path in base:
        lines = path.read_bytes().split(b"\n")
        end = next((i for i, raw in enumerate(lines) if b'"round_end"' in raw), 60)
        out.append((orjson.loads(lines[0]), b"".join(raw + b"\n" for raw in lines[1:end + 1])))
    return out


def make_corpus(games: list[tuple[dict[str, object], bytes]], folder: Path, n: int) -> None:
    """N files cycling through ``games``, each under its own game id (kept with ``--keep``)."""
    marker = folder / ".complete"
    if marker.exists() and marker.read_text() == str(n):
        return
    shutil.rmtree(folder, ignore_errors=True)
    for i in range(n):
        header, body = games[i % len(games)]
        sub = folder / f"{i // 1000:04d}"
        if i % 1000 == 0:
            sub.mkdir(parents=True)
        data = orjson.dumps({**header, "game_id": f"mem-{i:07d}"}) + b"\n" + body
        (sub / f"mem-{i:07d}.jsonl").write_bytes(data)
    marker.write_text(str(n))


def measure(cmd: list[str]) -> tuple[float, int, int, int, str]:
    """Run ``cmd``: (seconds, peak RSS of the tree, of the main process, of the largest other
    process, the last line it printed)."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = [0, 0, 0]

    def sample() -> None:
        while proc.poll() is None:
            pids = _tree(proc.pid)
            sizes = {pid: _rss(pid) for pid in pids}
            peak[0] = max(peak[0], sum(sizes.values()))
            peak[1] = max(peak[1], sizes.get(proc.pid, 0))
            peak[2] = max([peak[2], *(v for pid, v in sizes.items() if pid != proc.pid)])
            time.sleep(0.05)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    out, err = proc.communicate()
    seconds = time.perf_counter() - started
    watcher.join()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:3])}... failed ({proc.returncode}):\n{err}")
    return seconds, peak[0], peak[1], peak[2], out.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10000, 100000],
                        help="corpus sizes, in games (10000 100000)")
    parser.add_argument("--unique", type=int, default=200,
                        help="distinct simulated games the copies are made from (200)")
    parser.add_argument("--dir", type=Path, default=Path("build/bench-memory"),
                        help="where corpora and databases go (build/bench-memory)")
    parser.add_argument("--jobs", type=int, default=None, help="load --jobs (one per core)")
    parser.add_argument("--keep", action="store_true", help="keep the corpora for a re-run")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    games = first_rounds(unique_games(Path("build/bench-load/unique"), args.unique))
    print(f"{'games':>8s} {'events':>11s} {'seconds':>8s} {'tree peak':>10s} "
          f"{'loader':>9s} {'worker':>9s}")
    for n in args.games:
        folder = args.dir / f"corpus-{n}"
        make_corpus(games, folder, n)
        db = args.dir / "memory.duckdb"
        db.unlink(missing_ok=True)
        cmd = [str(BIN / "cabo-log"), "load", str(folder), "--db", str(db)]
        if args.jobs:
            cmd += ["--jobs", str(args.jobs)]
        seconds, tree, loader, worker, note = measure(cmd)
        events = note.split(";")[1].split("events")[0].strip() if ";" in note else "?"
        print(f"{n:>8,d} {events:>11s} {seconds:8.1f} {mb(tree):>10s} {mb(loader):>9s} "
              f"{mb(worker):>9s}", flush=True)
        db.unlink(missing_ok=True)
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
