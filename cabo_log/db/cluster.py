"""``cabo-log load --cluster ADDRESS``: the replay of a load on a Dask cluster.

Files are cut into partitions (``PARTITION_BYTES`` of logs, at most ``PARTITION_FILES`` files)
and each partition is one Dask task, ``replay_partition``: the same ``replay_tasks`` as a local
load, then one Parquet file per table (``DIR/<table>/part-<id>.parquet``) and, written last, the
partition's manifest (``DIR/_manifest/part-<id>.parquet``: path, size, mtime, hash, status,
error of each file). Every file is written under a temporary name and renamed, and a task's
files are named after its partition, so a task that Dask runs again (its worker was killed)
overwrites its own output: nothing is ever duplicated. The workers and the client must see the
same folders (one machine, or a shared file system).

Two ways to keep the result:

- ``--parquet-out DIR``: the Parquet dataset is the store. A re-run reads the manifests, skips
  every partition whose files are unchanged (size and mtime), and replays again the partitions
  that hold a changed or vanished file, with the new files. ``--db FILE`` then becomes a small
  DuckDB file of views over the dataset (``games``, ``events``, ..., ``files``,
  ``load_errors``), which ``report`` and ``sql`` read like a loaded database.
- otherwise the partitions are written to a staging folder and appended, in partition order,
  to the ``--db`` database by the local loader's own writer (``loader.Loader.handle``), which keeps
  its keys, change detection and ``load_errors``: the same tables as a local load, row for row.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from cabo_log.db import event_tables
from cabo_log.db.event_tables import widen
from cabo_log.db.load import (
    LoadSettings,
    LoadSummary,
    Outcome,
    Progress,
    Task,
    duplicate,
    replay_tasks,
)
from cabo_log.db.load_connection import open_for_load
from cabo_log.db.loader import Loader
from cabo_log.db.settings import DEFAULTS
from cabo_log.log.logfile import find_logs

PARTITION_BYTES = 16 << 20     # about this much log text per task
PARTITION_FILES = 2048         # and at most this many files
MANIFEST = "_manifest"
MANIFEST_SCHEMA = pa.schema([
    ("path", pa.string()), ("size", pa.int64()), ("mtime_ns", pa.int64()),
    ("hash", pa.string()), ("status", pa.string()), ("error", pa.string()),
    ("game_id", pa.string()), ("ruleset", pa.string()), ("events", pa.int32()),
    ("complete", pa.bool_()), ("part", pa.string()),
    ("loaded_at", pa.timestamp("us", tz="UTC")),   # when the partition was written
])
Replay = Callable[[str, list[Task], str], list[Outcome]]


class ClusterError(Exception):
    """The cluster cannot be reached or started: one line for the user."""


# --- the worker side --------------------------------------------------------------------------

def replay_partition(part: str, tasks: list[Task], out_dir: str) -> list[Outcome]:
    """One Dask task: replay a partition of files, write its tables then its manifest."""
    outcomes, chunk = replay_tasks(tasks)
    root = Path(out_dir)
    for table, batches in (widen(chunk.batches()) if len(chunk) else {}).items():
        _write(root / table / f"part-{part}.parquet", pa.Table.from_batches(batches))
    _write(root / MANIFEST / f"part-{part}.parquet", _manifest_table(outcomes, part))
    return outcomes


def _write(path: Path, table: pa.Table) -> None:
    """Write under a temporary name, then rename: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    pq.write_table(table, temporary)
    os.replace(temporary, path)


def _manifest_table(outcomes: Sequence[Outcome], part: str) -> pa.Table:
    now = time.time_ns() // 1000
    rows = [{"path": o.path, "size": o.size, "mtime_ns": o.mtime_ns, "hash": o.hash,
             "status": o.status,
             "error": orjson.dumps(o.error).decode() if o.error is not None else None,
             "game_id": o.game_id, "ruleset": o.ruleset, "events": o.events,
             "complete": o.complete, "part": part, "loaded_at": now} for o in outcomes]
    return pa.Table.from_pylist(rows, schema=MANIFEST_SCHEMA)


# --- the client side --------------------------------------------------------------------------

def connect_cluster(address: str) -> Any:
    """A Dask client: ``local:N`` starts a LocalCluster of N single-threaded processes."""
    from distributed import Client, LocalCluster

    try:
        if address.startswith("local:"):
            count = address.removeprefix("local:")
            workers = int(count) if count.isdigit() else 0
            if workers < 1:
                raise ClusterError(f"--cluster {address}: local:N needs N >= 1 workers")
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=workers, threads_per_worker=1, processes=True,
                dashboard_address=None)
            return Client(cluster)  # type: ignore[no-untyped-call]
        return Client(address, timeout="10s")  # type: ignore[no-untyped-call]
    except ClusterError:
        raise
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def partitions(tasks: Sequence[Task]) -> list[tuple[str, list[Task]]]:
    """Cut the tasks into partitions, each named after what it holds (a re-run of the same
    files under the same state gives the same names)."""
    out: list[tuple[str, list[Task]]] = []
    current: list[Task] = []
    size = 0
    for task in [*tasks, None]:
        if task is not None:
            current.append(task)
            size += task.size
        if current and (task is None or size >= PARTITION_BYTES
                        or len(current) >= PARTITION_FILES):
            key = hashlib.blake2b(digest_size=8)
            for t in current:
                key.update(f"{t.path}\0{t.size}\0{t.known_hash}\n".encode())
            out.append((key.hexdigest(), current))
            current, size = [], 0
    return out


def _run(client: Any, parts: list[tuple[str, list[Task]]], out_dir: str, replay: Replay
         ) -> list[Any]:
    """Submit every partition; Dask reschedules a task whose worker died (``retries`` more
    for a task that raised)."""
    return [client.submit(replay, part, tasks, out_dir, key=f"cabo-log-replay-{part}",
                          pure=False, retries=2)
            for part, tasks in parts]


def load_cluster(paths: Sequence[str | os.PathLike[str]], database: str | os.PathLike[str],
                 address: str, *, parquet_out: str | os.PathLike[str] | None = None,
                 force: bool = False, progress: Progress | None = None,
                 on_total: Callable[[int], None] | None = None,
                 replay: Replay = replay_partition, recurse: bool = True,
                 settings: LoadSettings = DEFAULTS) -> LoadSummary:
    """Load log files on a Dask cluster, into ``database`` or as a Parquet dataset with
    ``database`` a file of views over it (``parquet_out``). ``replay`` is the task (tests
    pass one that kills its worker once); ``settings`` tune the local writer, as a local
    load's (its checkpoints aside: DuckDB decides)."""
    started = time.perf_counter()
    files = [os.path.abspath(p) for p in find_logs(paths, recurse)]
    client = connect_cluster(address)
    try:
        if parquet_out is not None:
            from cabo_log.db.dataset import load_dataset

            summary = load_dataset(client, files, Path(parquet_out).resolve(), database,
                                   force=force, progress=progress, on_total=on_total,
                                   replay=replay)
        else:
            summary = _load_database(client, files, database, force, progress, on_total,
                                     replay, settings)
    finally:
        _close(client)
    summary.seconds = time.perf_counter() - started
    return summary


def _close(client: Any) -> None:
    cluster = client.cluster if address_is_local(client) else None
    client.close()
    if cluster is not None:
        cluster.close()


def address_is_local(client: Any) -> bool:
    from distributed import LocalCluster

    return isinstance(getattr(client, "cluster", None), LocalCluster)


def _load_database(client: Any, files: list[str], database: str | os.PathLike[str],
                   force: bool, progress: Progress | None,
                   on_total: Callable[[int], None] | None, replay: Replay,
                   settings: LoadSettings) -> LoadSummary:
    """Replay on the cluster into a staging folder next to the database, then append each
    partition, in order, through the local loader's writer (same keys, same checks)."""
    from cabo_log.db import database as db
    from cabo_log.db.ratings import update_ratings
    from cabo_log.db.writer import Writer

    con = open_for_load(database, settings)
    writer = Writer(con, settings=replace(settings, checkpoint_rows=0))
    staging = tempfile.mkdtemp(prefix=".cabo-log-cluster-",
                               dir=Path(database).resolve().parent)
    try:
        db.ensure_schema(con, database)
        loader = Loader(con, writer, force, set(files).__contains__, settings=settings)
        parts = partitions(list(loader.start(files, on_total, progress)))
        for (part, _), future in zip(parts, _run(client, parts, staging, replay), strict=True):
            outcomes: list[Outcome] = future.result()
            loader.handle(outcomes, read_partition(Path(staging), part), progress)
            future.release()
        writer.flush()
        update_ratings(con)   # as a local load does
    except BaseException:
        writer.abort()
        raise
    finally:
        writer.close()
        con.close()
        shutil.rmtree(staging, ignore_errors=True)
    return loader.summary


def read_partition(root: Path, part: str) -> dict[str, list[pa.RecordBatch]]:
    """The tables a partition wrote (absent tables: no rows), as a local load's workers give
    them (``events`` as the tables that store it)."""
    out: dict[str, list[pa.RecordBatch]] = {}
    for folder in sorted(root.iterdir()):
        path = folder / f"part-{part}.parquet"
        if folder.name == event_tables.VIEW and path.exists():   # wide: split into its tables
            for table, data in event_tables.split(pq.read_table(path)).items():
                out[table] = data.to_batches()
        elif folder.name != MANIFEST and path.exists():
            out[folder.name] = pq.read_table(path).to_batches()
    return out


def outcome_of(row: dict[str, Any]) -> Outcome:
    """A manifest row back as the loader's ``Outcome``."""
    error = orjson.loads(row["error"]) if row["error"] is not None else None
    return Outcome(row["path"], row["status"], row["size"], row["mtime_ns"], row["hash"],
                   row["game_id"], row["ruleset"], row["events"], row["complete"], error)


__all__ = ["ClusterError", "duplicate", "load_cluster", "replay_partition"]
