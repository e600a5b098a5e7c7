"""The whole product before and after, in one run: ``replay_bytes`` and ``cabo-log load`` of
other git revisions of cabo-log against this tree, on the same files, runs alternating.

``engine_compare.py`` puts engines side by side; this puts the products side by side, each in
its own process with ``PYTHONPATH`` set to that revision's tree (so every module, decoder and
row builder is that revision's), because a change can move time between the engine and the
reading around it. On a shared machine, figures taken minutes apart drift more than what is
measured, so each revision runs in turn, several rounds, and every figure comes with a
reference measured in the same round: ``orjson.loads`` of the same lines for replay, DuckDB's
``read_json`` (default options) of the same files for load.

- replay: ``replay_bytes`` of every log held in memory (decode, validate, apply), CPU time,
  best of three in each process;
- load: ``cabo-log load DIR --db NEW`` of the same folder, CPU seconds of the whole process tree
  (workers included) and wall time.

Usage (comparing the tree at 2727bff with this one)::

    .venv/bin/python benchmarks/replay.py --games 50 --corpus /tmp/corpus50 --no-rows  # corpus
    .venv/bin/python benchmarks/load.py --games 2000 --unique 200                     # corpus
    .venv/bin/python benchmarks/before_after.py 2727bff --replay /tmp/corpus50 \\
        --load build/bench-load/corpus-2000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from load import RAW, run  # noqa: E402  (the process-tree CPU sampler of benchmarks/load.py)

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

REPLAY = r'''
import glob, os, sys, time
tree = sys.argv[1]
if os.path.isdir(tree + "/cabo_log/log"):
    from cabo_log.log.replay import replay_bytes
else:                                   # before cabo_log/ had subpackages
    from cabo_log.replay import replay_bytes
import cabo_log, engine, orjson
assert cabo_log.__file__.startswith(tree) and engine.__file__.startswith(tree)
datas = [open(f, "rb").read() for f in sorted(glob.glob(sys.argv[2] + "/**/*.jsonl",
                                                        recursive=True))]
events = sum(d.count(b"\n") for d in datas)
best = reference = float("inf")
for _ in range(3):
    started = time.process_time()
    for data in datas:
        if replay_bytes(data).error is not None:
            raise SystemExit("a corpus log is invalid")
    best = min(best, time.process_time() - started)
    started = time.process_time()
    for data in datas:
        for line in data.splitlines():
            orjson.loads(line)
    reference = min(reference, time.process_time() - started)
print(events, best, reference)
'''


def checkout(rev: str, into: Path) -> Path:
    """The tree of ``rev`` (``git archive``), or this worktree for ``.``."""
    if rev == ".":
        return ROOT
    tree = into / rev
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                             capture_output=True).stdout
    tar = into / f"{rev}.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as f:
        f.extractall(tree, filter="data")
    return tree


def replay(trees: dict[str, Path], corpus: Path, rounds: int) -> None:
    runs: dict[str, list[tuple[int, float, float]]] = {rev: [] for rev in trees}
    for _ in range(rounds):
        for rev, tree in trees.items():
            out = subprocess.run([sys.executable, "-c", REPLAY, str(tree), str(corpus)],
                                 env=dict(os.environ, PYTHONPATH=str(tree)), cwd="/tmp",
                                 capture_output=True, text=True, check=True).stdout.split()
            runs[rev].append((int(out[0]), float(out[1]), float(out[2])))
    print(f"replay_bytes of {corpus} (CPU, best of {3 * rounds}; x: of orjson.loads' time)")
    for rev, got in runs.items():
        events = got[0][0]
        seconds, reference = min(r[1] for r in got), min(r[2] for r in got)
        print(f"  {rev:10s} {events / seconds:10,.0f} events/s  x{seconds / reference:5.2f}")


def load(trees: dict[str, Path], folder: Path, rounds: int, work: Path) -> None:
    print(f"cabo-log load of {folder} (x: of DuckDB read_json's, default options, same round)")
    for round_no in range(rounds):
        db = work / "raw.duckdb"
        raw = run([sys.executable, "-c", RAW, str(db), str(folder), "sniff"])
        db.unlink()
        for rev, tree in trees.items():
            db = work / f"{rev}.duckdb"
            os.environ["PYTHONPATH"] = str(tree)
            try:
                got = run([str(BIN / "cabo-log"), "load", str(folder), "--db", str(db)])
            finally:
                del os.environ["PYTHONPATH"]
            db.unlink()
            print(f"  round {round_no + 1} {rev:10s} wall {got[0]:6.1f} s x{got[0] / raw[0]:5.2f}"
                  f"  CPU {got[4]:6.1f} s x{got[4] / raw[4]:5.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revs", nargs="+", help="git revisions to compare with this tree")
    parser.add_argument("--replay", type=Path, metavar="DIR", help="corpus for replay_bytes")
    parser.add_argument("--load", type=Path, metavar="DIR", help="folder for cabo-log load")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (3)")
    args = parser.parse_args()
    for folder in ("replay", "load"):
        if getattr(args, folder) is not None:
            setattr(args, folder, getattr(args, folder).resolve())
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.chdir(work)  # not this tree: a revision's processes must not import from the cwd
        trees = {rev: checkout(rev, work) for rev in [*args.revs, "."]}
        if args.replay:
            replay(trees, args.replay, args.rounds)
        if args.load:
            load(trees, args.load, args.rounds, work)


if __name__ == "__main__":
    main()
