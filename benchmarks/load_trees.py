"""``cabo-log load`` run from several package trees (e.g. the compiled builds of two
checkouts, each installed with ``pip install --no-deps --target DIR .``), rounds alternating,
with DuckDB's ``read_json`` of the same files in every round: wall, CPU of the process tree,
CPU and peak RSS of the main process.

``before_after.py`` compares git revisions of the pure tree; this compares trees as they are,
compiled ones included.
The workers inherit ``PYTHONPATH``, so every process of a load runs the given tree.

Usage::

    .venv/bin/python benchmarks/load_trees.py build/bench-load/corpus-2000 \\
        /tmp/old-site /tmp/new-site --rounds 3
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from load import RAW, run  # noqa: E402  (the process-tree CPU sampler of benchmarks/load.py)

BIN = Path(sys.executable).parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="folder of logs to load")
    parser.add_argument("trees", nargs="+", type=Path, help="folders to put on PYTHONPATH")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (3)")
    parser.add_argument("--db", type=Path, default=Path("build/bench-load/trees.duckdb"),
                        help="the database each load creates (removed before each)")
    parser.add_argument("--no-reference", action="store_true",
                        help="no read_json round (it takes minutes on 100,000 small files)")
    args = parser.parse_args()
    for f in args.corpus.rglob("*.jsonl"):   # the page cache, for every run
        f.read_bytes()
    args.db.parent.mkdir(parents=True, exist_ok=True)
    for number in range(args.rounds):
        for tree in [*([] if args.no_reference else [None]), *args.trees]:
            for suffix in ("", ".wal"):
                Path(f"{args.db}{suffix}").unlink(missing_ok=True)
            if tree is None:
                label = "read_json (default options)"
                result = run([sys.executable, "-c", RAW, str(args.db), str(args.corpus),
                              "sniff"])
            else:
                label = str(tree)
                os.environ["PYTHONPATH"] = str(tree.resolve())
                try:
                    result = run([str(BIN / "cabo-log"), "load", str(args.corpus), "--db",
                                  str(args.db)])
                finally:
                    del os.environ["PYTHONPATH"]
            wall, peak, root_peak, _, cpu, root_cpu = result
            print(f"{number} {label:40s} wall {wall:6.2f} s  CPU {cpu:6.2f} s  main process "
                  f"CPU {root_cpu:5.2f} s, peak RSS {root_peak >> 20} MB (tree {peak >> 20} MB)",
                  flush=True)
    for suffix in ("", ".wal"):
        Path(f"{args.db}{suffix}").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
