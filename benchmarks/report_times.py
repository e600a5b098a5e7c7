"""Every shipped report and a few queries over the ``events`` view, timed on one database:
the cost a change of the stored layout puts on the readers (best of ``--repeat``, one thread,
and a digest of each result, so two databases' answers can be compared).

Usage::

    .venv/bin/python benchmarks/report_times.py DB [DB ...] --repeat 5
"""

from __future__ import annotations

import argparse
import hashlib
import time
from pathlib import Path
from typing import Any

from cabo_log.db import reports
from cabo_log.db.readonly import open_readonly

QUERIES = {   # what an ad-hoc query over the view pays: a scan, a filter, a group
    "events: count(*)": "SELECT count(*) FROM events",
    "events: every column": "SELECT * FROM events",
    "events: by type and ruleset": (
        "SELECT ruleset, type, count(*), sum(value) FROM events GROUP BY ALL ORDER BY ALL"),
    "events: one game": "SELECT * FROM events WHERE game_id = 'bench-000123' ORDER BY seq",
    "events: draws of a ruleset": (
        "SELECT count(*) FROM events WHERE type = 'draw' AND ruleset = 'edition1'"),
}

ARROW = ("events: every column",)


def timed(db: Path, repeat: int) -> dict[str, tuple[float, str]]:
    """Each report's and query's best time and the digest of its rows."""
    con = open_readonly(db, threads=1)
    out: dict[str, tuple[float, str]] = {}
    jobs: dict[str, tuple[str, dict[str, Any] | None]] = {
        name: (report.sql, reports.bind(report, {}))
            for name, report in reports.available().items()}
    jobs.update({name: (sql, None) for name, sql in QUERIES.items()})
    for name, (sql, params) in jobs.items():
        best, digest = float("inf"), ""
        for _ in range(repeat):
            started = time.perf_counter()
            result = con.execute(sql, params) if params else con.execute(sql)
            if name in ARROW:   # too many rows for Python tuples: their number
                table: Any = result.to_arrow_table()
                digest = str(table.num_rows)
            else:
                rows = result.fetchall()
                digest = hashlib.sha1(repr(sorted(map(repr, rows))).encode()).hexdigest()[:10]
            best = min(best, time.perf_counter() - started)
        out[name] = (best, digest)
    con.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", type=Path, nargs="+")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    results = [timed(db, args.repeat) for db in args.db]
    for name in results[0]:
        cells = "  ".join(f"{r[name][0] * 1000:8.1f} ms {r[name][1]}" for r in results)
        print(f"{name:32s} {cells}")


if __name__ == "__main__":
    main()
