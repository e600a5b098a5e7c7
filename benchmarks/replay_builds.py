"""Replay throughput (``replay_bytes``: parse + validate + apply) of one or more builds on any
folder of logs, each build in its own child processes, the builds taking turns: a same-run
comparison of, say, this checkout's compiled build and another revision's. A build is a folder
that holds an install of ``engine`` and ``cabo_log`` (``pip install --no-deps --target DIR .``
of a checkout; ``.`` for the sources), put first on the children's ``PYTHONPATH``.

Unlike ``benchmarks/replay.py`` this reads any folder (searched for ``*.jsonl``, never written
to), such as the load's corpus, and replays it as a load worker does: the garbage collector
paused, every log once per run. Each child prints the best CPU time of ``--repeat`` runs and
of ``orjson.loads`` of the same lines (the reference in the same process).

Usage::

    .venv/bin/python benchmarks/replay_builds.py --corpus build/bench-load/corpus-2000 \\
        /tmp/new-site /tmp/old-site                 # two installed builds, three rounds
    .venv/bin/python benchmarks/replay_builds.py --corpus /tmp/corpus50 .   # the sources
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import time
from pathlib import Path


def child(corpus: Path, repeat: int) -> None:
    """Replay the corpus ``repeat`` times in this process; print the figures and the build."""
    import orjson

    import cabo_log.log.fastlines
    from cabo_log.log.replay import replay_bytes

    logs = [p.read_bytes() for p in sorted(corpus.rglob("*.jsonl"))]
    lines = [raw for data in logs for raw in data.split(b"\n") if raw]
    gc.collect()
    gc.disable()   # as in a load worker (cabo_log.db.replay_files.paused_collector)
    replay = reference = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for data in logs:
            replay_bytes(data)
        replay = min(replay, time.process_time() - start)
        start = time.process_time()
        for raw in lines:
            orjson.loads(raw)
        reference = min(reference, time.process_time() - start)
    module = cabo_log.log.fastlines.__file__ or ""
    print(f"{len(lines)} {replay} {reference} {'pure' if module.endswith('.py') else 'compiled'}")


def run(build: str, corpus: Path, repeat: int) -> tuple[int, float, float, str]:
    """One child with ``build`` first on its path (``.`` or a checkout: the pure build)."""
    env = {**os.environ, "PYTHONPATH": str(Path(build).resolve())}
    out = subprocess.run([sys.executable, "-P", __file__, "--child", "--corpus", str(corpus),
                          "--repeat", str(repeat)], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[0]), float(out[1]), float(out[2]), out[3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("builds", nargs="*",
                        help="folders to put first on PYTHONPATH, each holding a build")
    parser.add_argument("--corpus", type=Path, required=True, help="a folder of logs")
    parser.add_argument("--repeat", type=int, default=3, help="runs per child, best kept (3)")
    parser.add_argument("--rounds", type=int, default=3, help="children per build (3)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.corpus, args.repeat)
        return
    for number in range(1, args.rounds + 1):
        for build in args.builds:
            events, replay, reference, kind = run(build, args.corpus, args.repeat)
            print(f"round {number}  {build:40s} {kind:8s} {events / replay:>11,.0f} events/s  "
                  f"{replay / events * 1e6:5.2f} us/event  {replay / reference:5.2f}x orjson  "
                  f"(load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
