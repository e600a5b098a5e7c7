"""How a load's rows get from a worker to the parent, old way against new, in one process.

The rows of the same chunks (``--chunks`` of the load's ~1 MB chunks of the 2,000-file corpus
of ``benchmarks/load.py``), already built as Arrow record batches, go:

- ``pipe``: the simple way: Arrow IPC streams into bytes, joined, pickled
  (what ``multiprocessing`` does to a result), unpickled and read back (``serialise`` and the
  former ``deserialise``), the pipe itself not counted;
- ``spool``: as now: Arrow IPC files written into a spool folder, memory-mapped back and
  removed (``replay_files.spool``, ``unspool``), the pages then read as DuckDB would read them.

Both end with the parent's tables holding the same columns. CPU time (the process's, with
the kernel's share: page faults and file writes count), best of ``--repeat``, the two ways
alternating.

Usage::

    .venv/bin/python benchmarks/load_transport.py build/bench-load/corpus-2000
"""

from __future__ import annotations

import argparse
import os
import pickle
import resource
import tempfile
from pathlib import Path

import pyarrow as pa

from cabo_log.db.event_tables import KINDS
from cabo_log.db.loader import _chunks
from cabo_log.db.replay_files import Task, replay_tasks, serialise, spool, unspool

Batches = dict[str, list[pa.RecordBatch]]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def deserialise(data: bytes) -> Batches:
    """The parent's side of the former transport (removed from ``replay_files``)."""
    out: Batches = {}
    buf = pa.py_buffer(data)
    pos = 0
    while pos < len(data):
        size = int.from_bytes(data[pos:pos + 2], "little")
        table = data[pos + 2:pos + 2 + size].decode()
        pos += 2 + size
        length = int.from_bytes(data[pos:pos + 8], "little")
        pos += 8
        out[table] = list(pa.ipc.open_stream(buf.slice(pos, length)))
        pos += length
    return out


def touch(batches: Batches) -> int:
    """Read a byte of every page of every buffer, as DuckDB's append reads them all (a mapped
    page is faulted in here, not when mapped)."""
    total = 0
    for items in batches.values():
        for batch in items:
            for column in batch.columns:
                for buffer in column.buffers():
                    if buffer is not None and buffer.size:
                        total += sum(memoryview(buffer)[::4096])
    return total


def by_pipe(chunks: list[Batches]) -> int:
    total = 0
    for batches in chunks:
        wire = pickle.dumps(([], serialise(batches)), protocol=pickle.HIGHEST_PROTOCOL)
        total += touch(deserialise(pickle.loads(wire)[1]))
    return total


def by_spool(chunks: list[Batches], folder: str) -> int:
    total = 0
    for n, batches in enumerate(chunks):
        total += touch(unspool(spool(batches, folder, n)))
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--chunks", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    tasks = [Task(str(p), p.stat().st_size, None) for p in sorted(args.corpus.rglob("*.jsonl"))]
    chunks = [replay_tasks(c)[1].batches() for c in list(_chunks(tasks))[:args.chunks]]
    events = sum(b.num_rows for c in chunks for t in KINDS for b in c.get(t, []))
    ipc = sum(len(serialise(c)) for c in chunks)
    best = {"pipe": float("inf"), "spool": float("inf")}
    with tempfile.TemporaryDirectory(dir=args.corpus.parent) as folder:
        for _ in range(args.repeat):
            for way in best:
                started = cpu()
                by_pipe(chunks) if way == "pipe" else by_spool(chunks, folder)
                best[way] = min(best[way], cpu() - started)
        assert not os.listdir(folder)
    print(f"{len(chunks)} chunks, {events:,} events, {ipc / events:.0f} bytes of IPC per event; "
          f"CPU, best of {args.repeat}")
    for way, seconds in best.items():
        print(f"  {way:6s} {seconds:6.3f} s  {seconds / events * 1e6:5.2f} µs/event")


if __name__ == "__main__":
    main()
