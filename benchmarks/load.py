"""``cabo-log load`` end to end, against DuckDB's own ``read_json`` of the same files, side by side.

For each corpus size N (``--games``, default 10000; several allowed), in one run:

1. make N per-game log files (``--unique`` distinct simulated games, every ruleset, copied
   under new game ids up to N: the replay work per file is that of a real game);
2. read every file once (both contenders then find them in the page cache);
3. ``raw``: DuckDB ``CREATE TABLE raw AS SELECT * FROM read_json('DIR/**/*.jsonl', ...)`` - no
   replay, no validation - with ``union_by_name = true`` (every field of every file kept) and
   without (the schema sniffed from the first files);
4. ``load``: ``cabo-log load DIR --db NEW.duckdb --jobs J`` (replay, validation, rows, one
   transaction), then once more (every file unchanged: skipped);
5. peak resident memory of each command: the sum over its process tree (the loader and its
   workers), sampled every 50 ms from /proc; CPU time: that of every process of the tree,
   exactly (``run``).

The ``cabo-log`` measured is the one installed beside the Python that runs this script, in
whichever build it is (printed first: ``compiled`` or ``pure``, docs/compiled.md).

Usage::

    python benchmarks/load.py --games 1000            # a quick run
    python benchmarks/load.py --games 2000 --unique 200 --no-union   # the README's figure
    python benchmarks/load.py --games 10000 50000     # larger corpora
    python benchmarks/load.py --games 2000 --profile  # + where the loader's time goes

``--profile`` also runs the load in this process with one job under cProfile and prints the
parent's hot spots (the writer: DuckDB appends, IPC) and, separately, a worker's.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

TABLES = [("edition1", 3, 0.0), ("edition2", 4, 0.0), ("golf", 3, 0.0), ("online", 4, 0.01)]
BIN = Path(sys.executable).parent


# --- corpus -----------------------------------------------------------------------------------

def _simulate(args: tuple[str, int, float, int, int, str]) -> None:
    from cabo_log.play.simulate import write_games

    ruleset, players, forfeits, games, seed, out = args
    write_games(out, ruleset, games=games, players=players, forfeit_rate=forfeits, seed=seed)


def unique_games(folder: Path, count: int) -> list[Path]:
    """``count`` distinct simulated games (a quarter per ruleset), made once and kept."""
    per = max(1, count // len(TABLES))
    jobs = []
    for ruleset, players, forfeits in TABLES:
        have = len(list((folder / ruleset).rglob("*.jsonl")))
        if have < per:
            step = max(1, (per - have + 1) // 2)
            for k, start in enumerate(range(have, per, step)):
                jobs.append((ruleset, players, forfeits, min(step, per - start), 1000 + k,
                             str(folder / ruleset / f"part{start}")))
    if jobs:
        print(f"simulating {sum(j[3] for j in jobs)} games into {folder} ...", file=sys.stderr)
        with ProcessPoolExecutor() as pool:
            list(pool.map(_simulate, jobs))
    files = []
    for ruleset, _, _ in TABLES:
        files.extend(sorted((folder / ruleset).rglob("*.jsonl"))[:per])
    return files


def make_corpus(base: list[Path], folder: Path, n: int) -> tuple[int, int]:
    """N files: the base games cycled, each copy with its own game id. (bytes, events)"""
    if folder.exists() and len(list(folder.rglob("*.jsonl"))) == n:
        total = sum(p.stat().st_size for p in folder.rglob("*.jsonl"))
        return total, -1
    shutil.rmtree(folder, ignore_errors=True)
    import orjson

    headers = []
    bodies = []
    for path in base:
        data = path.read_bytes()
        first, _, rest = data.partition(b"\n")
        headers.append(orjson.loads(first))
        bodies.append(rest)
    total = events = 0
    for i in range(n):
        k = i % len(base)
        header = dict(headers[k], game_id=f"bench-{i:06d}")
        sub = folder / f"{i // 1000:03d}"
        sub.mkdir(parents=True, exist_ok=True)
        data = orjson.dumps(header) + b"\n" + bodies[k]
        (sub / f"bench-{i:06d}.jsonl").write_bytes(data)
        total += len(data)
        events += data.count(b"\n")
    return total, events


# --- measuring -------------------------------------------------------------------------------

def _tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _adopt_orphans() -> None:
    """Make this process the reaper of the commands' orphans (``PR_SET_CHILD_SUBREAPER``): a
    process a command leaves behind for a moment (a forkserver, a resource tracker, which
    leave when it has) is then waited for here, so that its CPU time is counted exactly."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(36, 1, 0, 0, 0) != 0:   # PR_SET_CHILD_SUBREAPER
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def _reap_orphans(seconds: float = 30.0) -> None:
    """Wait for every process left to this one (``_adopt_orphans``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if not pid:
            time.sleep(0.01)
    raise SystemExit("a process of the command did not end")


def _own_cpu(pid: int) -> float:
    """CPU seconds of a process's own threads, not of its children (it must not be reaped)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(cmd: list[str]) -> tuple[float, int, int, str, float, float]:
    """Run a command: (seconds, peak RSS of its process tree, peak RSS of the root, stdout,
    CPU seconds of the tree, CPU seconds of the root's own threads).

    The tree's CPU is exact: every process of the command is waited for, by its parent or by
    this one (``_adopt_orphans``), so each one's CPU time ends up in this process's
    ``RUSAGE_CHILDREN``; the root's is read before it is reaped."""
    _adopt_orphans()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        peak = [0, 0]
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                pids = _tree(proc.pid)
                peak[0] = max(peak[0], sum(_rss(p) for p in pids))
                peak[1] = max(peak[1], _rss(proc.pid))
                done.wait(0.05)

        watcher = threading.Thread(target=sample, daemon=True)
        watcher.start()
        os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)   # ended, not yet reaped
        seconds = time.perf_counter() - started
        done.set()
        watcher.join()
        root_cpu = _own_cpu(proc.pid)
        proc.wait()
        _reap_orphans()
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode not in (0,):
        raise SystemExit(f"{' '.join(cmd[:3])}... failed ({proc.returncode}):\n{stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, peak[0], peak[1], stdout.strip(), cpu, root_cpu


RAW = """
import duckdb, sys
con = duckdb.connect(sys.argv[1])
con.execute("SET enable_progress_bar = false")
con.execute("CREATE TABLE raw AS SELECT * FROM read_json(?, format = 'newline_delimited'"
            + (", union_by_name = true" if sys.argv[3] == "union" else "") + ")",
            [sys.argv[2] + "/**/*.jsonl"])
print(con.execute("SELECT count(*) FROM raw").fetchone()[0])
"""


def mb(n: int) -> str:
    return f"{n / 2**20:,.0f} MB"


def bench(folder: Path, work: Path, jobs: int | None, *, union: bool = True) -> None:
    files = list(folder.rglob("*.jsonl"))
    for f in files:      # the page cache, for both
        f.read_bytes()
    results = {}
    for mode in ("union", "sniff") if union else ("sniff",):
        db = work / f"raw-{mode}.duckdb"
        db.unlink(missing_ok=True)
        results[f"raw read_json ({mode})"] = run(
            [sys.executable, "-c", RAW, str(db), str(folder), mode])
        db.unlink(missing_ok=True)
    db = work / "load.duckdb"
    db.unlink(missing_ok=True)
    load = [str(BIN / "cabo-log"), "load", str(folder), "--db", str(db)]
    if jobs:
        load += ["--jobs", str(jobs)]
    results["cabo-log load"] = run(load)
    results["cabo-log load (again, unchanged)"] = run(load)
    db.unlink(missing_ok=True)
    raw_rows = int(results["raw read_json (sniff)"][3])
    print(f"{len(files):,} files, {raw_rows:,} events, "
          f"{sum(f.stat().st_size for f in files) / 2**20:,.0f} MB of logs, "
          f"{os.cpu_count()} cores; x: of read_json's (default options) wall / CPU")
    sniff = results["raw read_json (sniff)"]
    for label, (seconds, peak, root, out, cpu, root_cpu) in results.items():
        note = out.splitlines()[-1] if label.startswith("cabo") else ""
        print(f"  {label:34s} {seconds:8.2f} s  x{seconds / sniff[0]:5.2f}  CPU {cpu:7.2f} s "
              f"x{cpu / sniff[4]:5.2f} (main process {root_cpu:5.2f} s)  peak RSS "
              f"{mb(peak):>9s} (main process {mb(root)})"
              f"{'  ' + note[note.find('loaded'):] if note else ''}")
    wall, cpu = results["cabo-log load"][0] / sniff[0], results["cabo-log load"][4] / sniff[4]
    print(f"  cabo-log load / read_json with default options: wall {wall:.2f}, CPU {cpu:.2f}")


def profile(folder: Path, work: Path) -> None:
    from cabo_log.db import replay_files
    from cabo_log.db.load import load_paths
    from cabo_log.db.loader import _chunks
    from cabo_log.db.replay_files import Task
    from cabo_log.db.settings import DEFAULTS

    db = work / "profile.duckdb"
    db.unlink(missing_ok=True)
    prof = cProfile.Profile()
    prof.runcall(load_paths, [folder], db, jobs=1)
    _print(prof, "the whole load in one process (--jobs 1)")
    db.unlink(missing_ok=True)
    tasks = [Task(str(p), p.stat().st_size, None) for p in sorted(folder.rglob("*.jsonl"))]
    prof = cProfile.Profile()
    with tempfile.TemporaryDirectory(dir=work) as spool:
        for n, chunk in enumerate(list(_chunks(tasks, DEFAULTS))[:20]):
            prof.runcall(replay_files.replay_to_spool, replay_files.Spooled(spool, n, chunk,
                                                                        DEFAULTS.spool_buffer))
    _print(prof, "a worker (20 chunks: read, hash, replay, rows, Arrow, IPC files)")


def _print(prof: cProfile.Profile, title: str) -> None:
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(20)
    print(f"\n--- cProfile: {title}, by own time ---")
    print("\n".join(line for line in out.getvalue().splitlines()[6:] if line.strip()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10000],
                        help="corpus sizes, in files (10000)")
    parser.add_argument("--unique", type=int, default=1000,
                        help="distinct simulated games the files are made from (1000)")
    parser.add_argument("--dir", type=Path, default=Path("build/bench-load"),
                        help="where corpora and databases go (build/bench-load)")
    parser.add_argument("--jobs", type=int, default=None, help="load --jobs (one per core)")
    parser.add_argument("--profile", action="store_true", help="also profile the loader")
    parser.add_argument("--no-union", action="store_true",
                        help="skip read_json with union_by_name (only the default options)")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    version = subprocess.run([str(BIN / "cabo-log"), "--version"], capture_output=True,
                             text=True, check=True).stdout.strip()
    print(f"build: {version}")
    base = unique_games(args.dir / "unique", args.unique)
    for n in args.games:
        folder = args.dir / f"corpus-{n}"
        make_corpus(base, folder, n)
        bench(folder, args.dir, args.jobs, union=not args.no_union)
    if args.profile:
        profile(args.dir / f"corpus-{args.games[0]}", args.dir)


if __name__ == "__main__":
    main()
