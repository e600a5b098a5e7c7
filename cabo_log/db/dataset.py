"""``load --cluster ... --parquet-out DIR``: a Parquet dataset of loaded games, kept up to date
partition by partition, and a DuckDB file of views over it for ``report`` and ``sql``.

``DIR/<table>/part-<id>.parquet`` holds a partition's rows, ``DIR/_manifest/part-<id>.parquet``
its files (path, size, mtime, hash, status, error): the manifest is written last and is what
makes a partition part of the dataset. A re-run keeps every partition whose files are all
unchanged on disk (size and mtime), and replays again, with the new files, those of the
partitions that hold a changed or vanished file; those partitions are dropped first (manifest,
then data), so a crash at any point leaves the dataset without them, never with two copies.
Data files without a manifest (a crashed run's) are deleted at the start of the next run; one
load at a time writes to a dataset.

A ``game_id`` is loaded once: when two files hold the same game, the one already in the dataset
(or, among new files, the first in the order they were given) stays, the other is rejected with
``duplicate_game`` and its rows are taken out of its partition.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from cabo_log.db.cluster import (
    MANIFEST,
    MANIFEST_SCHEMA,
    Replay,
    _run,
    _write,
    outcome_of,
    partitions,
)
from cabo_log.db.load import LoadSummary, Progress, Task, duplicate

Entries = dict[str, list[dict[str, Any]]]     # partition -> its manifest rows


def read_manifest(root: Path) -> Entries:
    out: Entries = {}
    folder = root / MANIFEST
    if folder.is_dir():
        for path in sorted(folder.glob("part-*.parquet")):
            out[path.stem.removeprefix("part-")] = pq.read_table(path).to_pylist()
    return out


def read_part_manifest(root: Path, part: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(
        root / MANIFEST / f"part-{part}.parquet").to_pylist()
    return rows


def _stat(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def _drop(root: Path, parts: Iterable[str]) -> None:
    """Remove partitions: manifest first (it is what counts), then their data files."""
    parts = set(parts)
    for part in parts:
        (root / MANIFEST / f"part-{part}.parquet").unlink(missing_ok=True)
    for folder in root.iterdir():
        if folder.is_dir() and folder.name != MANIFEST:
            for data in folder.glob("part-*.parquet"):
                if data.stem.removeprefix("part-") in parts:
                    data.unlink()


def _orphans(root: Path, known: set[str]) -> set[str]:
    found: set[str] = set()
    for folder in root.iterdir():
        if folder.is_dir() and folder.name != MANIFEST:
            found |= {p.stem.removeprefix("part-") for p in folder.glob("part-*.parquet")}
    return found - known


def load_dataset(client: Any, files: list[str], root: Path, database: str | os.PathLike[str],
                 *, force: bool, progress: Progress | None,
                 on_total: Callable[[int], None] | None, replay: Replay) -> LoadSummary:
    """Bring the dataset at ``root`` up to date with ``files``; ``database`` gets the views."""
    root.mkdir(parents=True, exist_ok=True)
    manifest = read_manifest(root)
    _drop(root, _orphans(root, set(manifest)))
    stale = {part for part, rows in manifest.items()
             if force or any(_stat(r["path"]) != (r["size"], r["mtime_ns"]) for r in rows)}
    kept = {part: rows for part, rows in manifest.items() if part not in stale}
    covered = {r["path"] for rows in kept.values() for r in rows}
    again = sorted({r["path"] for part in stale for r in manifest[part]
                    if _stat(r["path"]) is not None} - set(files))
    _drop(root, stale)
    summary = LoadSummary(files=len(files))
    if on_total is not None:
        on_total(len(files))
    wanted = set(files)
    summary.skipped = sum(1 for rows in kept.values() for r in rows
                          if r["path"] in wanted and r["status"] != "rejected")
    if progress is not None and summary.skipped:
        progress(summary.skipped)
    todo = [Task(p, (_stat(p) or (0, 0))[0], None) for p in [*files, *again] if p not in covered]
    parts = partitions(todo)
    for (part, tasks), future in zip(parts, _run(client, parts, str(root), replay),
                                     strict=True):
        future.result()
        kept[part] = read_part_manifest(root, part)   # as the task wrote it (loaded_at)
        future.release()
        summary.replayed += len(tasks)
        if progress is not None:
            progress(len([t for t in tasks if t.path in wanted]))
    _reject_duplicates(root, kept, [part for part, _ in parts])
    new = {part for part, _ in parts}
    for part, rows in kept.items():
        for row in rows:
            if row["path"] not in wanted:
                continue
            if row["status"] == "rejected":
                summary.rejected.append(outcome_of(row).error or {})
            elif part in new:
                summary.loaded += 1
                summary.events += row["events"]
                summary.in_progress += not row["complete"]
    write_views(database, root)
    return summary


def _reject_duplicates(root: Path, entries: Entries, new_parts: list[str]) -> None:
    """The second file of a game loaded twice is rejected and its rows taken out."""
    order = [p for p in entries if p not in new_parts] + new_parts
    first: dict[str, str] = {}
    for part in order:
        dropped: list[str] = []
        for row in entries[part]:
            game = row["game_id"]
            if row["status"] != "loaded" or game is None:
                continue
            if game not in first:
                first[game] = row["path"]
                continue
            row["status"] = "rejected"
            row["error"] = orjson.dumps(duplicate(row["path"], game, first[game])).decode()
            dropped.append(game)
        if dropped:
            _filter_part(root, part, dropped)
            _write(root / MANIFEST / f"part-{part}.parquet",
                   pa.Table.from_pylist(entries[part], schema=MANIFEST_SCHEMA))


def _filter_part(root: Path, part: str, games: list[str]) -> None:
    drop = pa.array(games, pa.string())
    for folder in root.iterdir():
        path = folder / f"part-{part}.parquet"
        if folder.name != MANIFEST and path.exists():
            table = pq.read_table(path)
            ids = table.column("game_id").cast(pa.string())
            _write(path, table.filter(pc.invert(pc.is_in(ids, value_set=drop))))


def write_views(database: str | os.PathLike[str], root: Path) -> None:
    """A DuckDB file whose tables are views over the dataset (recreated on every load)."""
    from cabo_log.db import database as db

    con = db.connect(database, read_only=False)
    try:
        tables = {row[0]: row[1] for row in con.execute(
            "SELECT table_name, table_type FROM information_schema.tables "
            "WHERE table_schema = 'main'").fetchall()}
        if any(kind == "BASE TABLE" and name != "meta" for name, kind in tables.items()):
            raise db.DatabaseError(f"{database} holds loaded tables; give --parquet-out its "
                                   "own --db file (of views)")
        con.execute("BEGIN TRANSACTION")
        con.execute("CREATE TABLE IF NOT EXISTS meta (key VARCHAR, value VARCHAR)")
        if not con.execute("SELECT 1 FROM meta WHERE key = 'schema_version'").fetchall():
            con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [db.SCHEMA_VERSION])
        con.execute("INSERT INTO meta SELECT 'parquet', ? WHERE NOT EXISTS "
                    "(SELECT 1 FROM meta WHERE key = 'parquet')", [str(root)])
        for name, sql in view_sql(root).items():
            con.execute(f"CREATE OR REPLACE VIEW {name} AS {sql}")
        con.execute("COMMIT")
    finally:
        con.close()


def _glob(root: Path, table: str) -> str | None:
    if not any((root / table).glob("part-*.parquet")):
        return None
    return "'" + str(root / table / "part-*.parquet").replace("'", "''") + "'"


def view_sql(root: Path) -> dict[str, str]:
    """The SELECT of each view; a table with no rows yet is an empty SELECT of its columns."""
    from cabo_log.db.database import ALL_SCHEMAS, duck_type
    from cabo_log.db.schema import SCHEMAS

    def empty(schema: pa.Schema) -> str:
        cols = ", ".join(f'CAST(NULL AS {duck_type(f.type)}) AS "{f.name}"' for f in schema)
        return f"SELECT {cols} WHERE false"

    out: dict[str, str] = {}
    for name, schema in SCHEMAS.items():
        source = _glob(root, name)
        cols = ", ".join(f'"{f.name}"' for f in schema)
        out[name] = (f"SELECT {cols} FROM read_parquet({source}, union_by_name = true)"
                     if source else empty(schema))
    manifest = _glob(root, MANIFEST)
    if manifest is None:
        out["files"] = empty(ALL_SCHEMAS["files"])
        out["load_errors"] = empty(ALL_SCHEMAS["load_errors"])
        return out
    # union_by_name: a manifest written before ``loaded_at`` existed reads it as NULL
    out["files"] = ("SELECT path, size, mtime_ns, hash, game_id, events, "
                    "CAST(loaded_at AS TIMESTAMPTZ) AS loaded_at "
                    f"FROM read_parquet({manifest}, union_by_name = true) "
                    "WHERE status = 'loaded'")
    out["load_errors"] = (
        "SELECT path AS file, CAST(json_extract(error, '$.line') AS INTEGER) AS line, "
        "json_extract_string(error, '$.code') AS code, "
        "json_extract_string(error, '$.kind') AS kind, "
        "json_extract_string(error, '$.message') AS message, game_id, ruleset, size, hash "
        f"FROM read_parquet({manifest}, union_by_name = true) WHERE status = 'rejected'")
    return out
