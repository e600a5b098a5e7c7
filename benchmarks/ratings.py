"""The cost of the ratings beside the load they follow: a corpus loaded into a new database
(the reference, ratings included), then ``rebuild_ratings`` (every game rated again) and
``update_ratings`` with nothing new, each as a ratio to the load's time.

    .venv/bin/python benchmarks/ratings.py [--games 1000] [--jobs 2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import duckdb

from cabo_log.db.load import load_paths
from cabo_log.db.ratings import rebuild_ratings, update_ratings
from cabo_log.play.simulate import write_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(tmp) / "logs"
        write_games(logs, "golf", games=args.games, players=4, seed=1, bots="greedy,random",
                    seat_names="bots", jobs=args.jobs)
        db = Path(tmp) / "bench.duckdb"
        start = time.perf_counter()
        load_paths([logs], db, jobs=args.jobs)
        load = time.perf_counter() - start
        con = duckdb.connect(str(db))
        try:
            start = time.perf_counter()
            rated = rebuild_ratings(con)
            rebuild = time.perf_counter() - start
            start = time.perf_counter()
            update_ratings(con)
            update = time.perf_counter() - start
        finally:
            con.close()
    print(f"load of {args.games} games (ratings included)  {load:6.2f} s  = 1.00x")
    print(f"rebuild_ratings ({rated} games)             {rebuild:6.2f} s  = "
          f"{rebuild / load:.2f}x the load")
    print(f"update_ratings, nothing new            {update:6.3f} s  = "
          f"{update / load:.3f}x the load")


if __name__ == "__main__":
    main()
