"""Instructions per event of each replay stage, counted by callgrind: figures that the load of a
shared machine does not move (wall-clock figures there swing by ±30 %).

Each stage runs once over the corpus in a fresh ``valgrind --tool=callgrind`` process; the same
process with no stage (imports, reading and parsing the corpus) is subtracted, and the rest
divided by the events. The modules of every stage (``pyarrow`` and the row stage's included)
are imported in every stage, the base too: a load worker imports them once, not per event, and
over a small corpus their import alone would outweigh the per-event work in ``collect``
(``--cold`` imports each stage's own modules in the stage).

Stages: ``orjson`` (``orjson.loads`` of every line, the reference), ``decode`` (what
``replay_bytes`` decodes with: the header by the exact reader, the body by
``fastdecode.fast_body``, which builds the engine's events in ``fastlines``), ``apply``
(``new_game`` + ``apply`` of parsed events + ``finish``), ``replay`` (``replay_bytes``:
decode + validate + apply), ``collect`` (the replay with the loader's ``RowCollector`` riding
along), ``rows`` (what a load worker does short of the IPC: ``collect``, ``Chunk.add`` and the
Arrow record batches of the chunk) and ``worker`` (``rows`` and the Arrow IPC it sends). The
row stage on its own is ``rows`` minus ``replay``.

Usage::

    python benchmarks/instructions.py --corpus /tmp/corpus10

The build counted is the one the interpreter runs (``compiled`` or ``pure``, printed first).

The corpus is any folder of logs (``benchmarks/replay.py --games 10 --corpus DIR`` makes one);
a few thousand events are enough, and each stage takes ~50x its normal time under callgrind.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGES = ("orjson", "decode", "apply", "replay", "collect", "rows", "worker")


def run_stage(stage: str, corpus: Path, cold: bool = False) -> int:
    """Run ``stage`` (or nothing, for ``none``) over the corpus; returns the events. Unless
    ``cold``, the row stage's modules are imported first, whatever the stage."""
    import orjson

    import cabo_log.db.replay_files  # noqa: F401  (imported in every stage: the base has it)
    if not cold:
        import cabo_log.db.chunk  # noqa: F401  (pyarrow, the rows: imported once a worker)
    from cabo_log.log.fastdecode import fast_body
    from cabo_log.log.logfile import decode_line, iter_lines, parse_line
    from cabo_log.log.replay import replay_bytes
    from engine import GameStart, apply, finish, new_game, parse_event

    logs = [p.read_bytes() for p in sorted(corpus.rglob("*.jsonl"))]
    parsed = [[parse_event(decode_line(raw)) for _, raw in iter_lines(d)] for d in logs]
    lines = [raw for d in logs for raw in d.split(b"\n") if raw]
    gc.collect()
    if stage == "orjson":
        for raw in lines:
            orjson.loads(raw)
    elif stage == "decode":
        for data in logs:
            head, _, body = data.partition(b"\n")
            header = parse_line(head)
            assert isinstance(header, GameStart)
            assert fast_body(body, 0, header.players) is not None, "a log it cannot vouch for"
    elif stage == "apply":
        for game in parsed:
            header = game[0]
            assert isinstance(header, GameStart)
            g = new_game(header)
            for event in game[1:]:
                apply(g, event)
            finish(g)
    elif stage == "replay":
        for data in logs:
            assert replay_bytes(data).error is None
    elif stage in ("collect", "rows", "worker"):
        run_rows(stage, logs)
    return sum(len(p) for p in parsed)


def run_rows(stage: str, logs: list[bytes]) -> None:
    """The loader's row stage over the logs: one ``Chunk`` of every game, as a worker would
    build for a chunk of files (``collect`` only replays with the ``RowCollector``)."""
    from cabo_log.db.chunk import Chunk
    from cabo_log.db.replay_files import paused_collector, serialise
    from cabo_log.db.rows import collect

    with paused_collector():   # as in a load worker
        chunk = Chunk()
        for i, data in enumerate(logs):
            # as a worker: the rows written in place into the chunk's builders (``collect``
            # alone: never added, so each game's rows are dropped when the next one begins)
            result, rows = collect(data, f"log{i}", chunk.sink)
            assert result.error is None and result.state is not None
            if stage != "collect":
                chunk.add(result.state, rows, f"log{i}", f"{i:032x}")
        if stage != "collect":
            batches = chunk.batches()
            if stage == "worker":
                serialise(batches)


def count(stage: str, corpus: Path, cold: bool = False) -> tuple[int, int]:
    """(instructions, events) of one callgrind run of ``stage`` (``cold``: see ``run_stage``)."""
    # one hash seed for every run: a random one moves the count of a stage by ~±200
    # instructions per event over 15 logs (dict and set layouts), more than most changes
    env = {"PYTHONHASHSEED": "0", **os.environ}
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, __file__, "--stage", stage, "--corpus", str(corpus),
                          *(["--cold"] if cold else [])],
                         env=env, capture_output=True, text=True, check=True)
    collected = re.search(r"Collected : (\d+)", run.stderr)
    events = re.search(r"^events (\d+)$", run.stdout, re.MULTILINE)
    assert collected and events, run.stderr[-2000:]
    return int(collected.group(1)), int(events.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True, help="a folder of logs")
    parser.add_argument("--stages", nargs="+", choices=STAGES, default=STAGES,
                        help="the stages to count (all)")
    parser.add_argument("--cold", action="store_true",
                        help="import each stage's modules in the stage (pyarrow's import then "
                             "counts in collect, rows, worker)")
    parser.add_argument("--stage", choices=("none", *STAGES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stage:
        print(f"events {run_stage(args.stage, args.corpus, args.cold)}")
        return
    from cabo_log.build_info import build_kind

    base, events = count("none", args.corpus, args.cold)
    print(f"{build_kind()} build, {events:,} events "
          f"(instructions per event, setup{'' if args.cold else ' and imports'} subtracted)")
    for stage in args.stages:
        total, _ = count(stage, args.corpus, args.cold)
        print(f"{stage:8s} {(total - base) / events:>10,.0f}")


if __name__ == "__main__":
    main()
