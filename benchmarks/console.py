"""The SQL console's cost and its bounds, and ``cabo-log sql``'s memory on a large result.

1. A small query through the explorer's console (a process of its own per query, taken from
   those kept ready; one query every half second, as a person would type them) against the
   same query on an open in-process connection: the median of each, and the overhead.
2. The queries that once took the server down, through the console: outcome and seconds.
3. ``cabo-log sql`` over N rows of 300 characters, as a subprocess: peak RSS and seconds,
   against the same rows fetched whole and rendered in one piece (what ``sql`` used to do),
   also as a subprocess.

    .venv/bin/python benchmarks/console.py [--rows 300000] [--repeat 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cabo_log.db.console import Console, ConsoleError, Limits
from cabo_log.db.readonly import open_readonly

ROOT = Path(__file__).resolve().parent.parent

SMALL = "SELECT ruleset, count(*) AS games, avg(rounds) FROM games GROUP BY ALL ORDER BY 1"
HEAVY = [("~1 GB of result", "SELECT repeat('x', 1000000) FROM range(1000)"),
         ("a 60M-element sort", "SELECT length(list_sort(range(60000000)))"),
         ("a 10^10-row join", "SELECT count(*) FROM range(100000) a, range(100000) b "
                              "WHERE a.range * b.range = 7")]
WHOLE = """
import sys
from cabo_log.db.readonly import open_readonly
from cabo_log.db.reports import render
con = open_readonly(sys.argv[1])
cur = con.execute(sys.argv[2])
cols = [d[0] for d in cur.description]
text = render(cols, cur.fetchall(), sys.argv[3])
open(sys.argv[4], "w", encoding="utf-8").write(text + "\\n")
"""


def measured(args: list[str]) -> tuple[float, int]:
    """Seconds and peak RSS (MB) of one subprocess."""
    start = time.monotonic()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, args
    return time.monotonic() - start, usage.ru_maxrss // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=300_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cabo-console-"))
    db = folder / "d" / "cabo.duckdb"
    # in a process of its own: its load would start the forkserver without DuckDB loaded,
    # as no server does
    subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                    "from serve_db import build_db; from pathlib import Path; "
                    "build_db(Path(sys.argv[2]))", str(ROOT / "tests"), str(db.parent)],
                   check=True)

    console = Console(db, limits=Limits())
    console.start()
    console.run(SMALL)                       # warm: the forkserver has started
    con = open_readonly(db)
    inproc, viaconsole = [], []
    for _ in range(args.repeat):
        t = time.perf_counter()
        con.execute(SMALL).fetchall()
        inproc.append(time.perf_counter() - t)
        time.sleep(0.5)
        t = time.perf_counter()
        console.run(SMALL)
        viaconsole.append(time.perf_counter() - t)
    con.close()
    a, b = statistics.median(inproc), statistics.median(viaconsole)
    print(f"small query, median of {args.repeat}: in-process {a * 1000:.1f} ms, through the "
          f"console {b * 1000:.1f} ms (+{(b - a) * 1000:.0f} ms, x{b / a:.0f})")

    for name, sql in HEAVY:
        t = time.monotonic()
        try:
            result = console.run(sql)
            outcome = f"{len(result.rows)} rows" + (", cut" if result.truncated else "")
        except ConsoleError as exc:
            outcome = str(exc)
        print(f"{name}: {outcome} in {time.monotonic() - t:.2f} s")
        time.sleep(1)
    console.close()

    query = f"SELECT range AS n, repeat('x', 300) AS s FROM range({args.rows})"
    exe = [sys.executable, "-c", "from cabo_log.cli import main; main()"]
    for fmt in ("csv", "json", "table"):
        out = folder / f"out.{fmt}"
        s_time, s_mb = measured([*exe, "sql", query, "--db", str(db), "-f", fmt, "-o", str(out)])
        w_time, w_mb = measured([sys.executable, "-c", WHOLE, str(db), query, fmt, str(out)])
        print(f"sql -f {fmt}, {args.rows:,} rows: streamed {s_time:.1f} s, {s_mb} MB peak; "
              f"whole {w_time:.1f} s, {w_mb} MB peak (time x{s_time / w_time:.2f}, "
              f"memory x{s_mb / w_mb:.2f})")


if __name__ == "__main__":
    main()
