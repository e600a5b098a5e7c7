"""The DuckDB connection a load writes through: opened with a bounded memory, small row groups
and no checkpoint inside a commit, closed so that a stop never waits for the write-ahead log
to be folded in.
"""

from __future__ import annotations

import os
from typing import Any

import duckdb

DUCKDB_MEMORY = "128MB"     # DuckDB's cache of the tables it wrote: of no use to a load, whose
                            # batches are appended and never read back (what does not fit
                            # waits in a temporary file until its commit); at 64MB its buffer
                            # pool gave pages back and faulted them in again all the time
                            # (17,000 madvise calls, ~12 % more CPU for the append)
WAL_BYTES = "4GB"           # DuckDB's write-ahead log may grow this big before a checkpoint
ROW_GROUP_SIZE = 16_384     # rows of a row group (DuckDB's default 122,880): a load's last
                            # COMMIT and the checkpoint at close compress each table's last
                            # partial row group, on one core while the workers are done
                            # (smaller groups leave less of it: on a million events, about
                            # half the COMMIT and close, for a file 2 % larger); full ones are
                            # written as they fill, meanwhile
WRITE_BUFFER_ROW_GROUPS = 1  # full row groups DuckDB keeps in memory before it writes them
                            # together (its default 5, for writing them in parallel, which a
                            # load with one DuckDB thread does not do): whatever is kept is
                            # compressed by the COMMIT, so the last COMMIT of a load, on one core
                            # after the workers are done, compressed up to 5 row groups of each
                            # table (corpus-2000: 0.19 -> 0.10 s of CPU, about the same in all)

CACHE_SLACK = 1 << 20       # bytes over what DuckDB holds besides its cached table blocks that
                            # ``drop_cache`` lets it keep for a moment


def open_for_load(database: str | os.PathLike[str]) -> Any:
    """The load's connection: a bounded memory (or it grows with the database), small row
    groups written as they fill, and no checkpoint inside a COMMIT (seconds a stop would
    have to wait for): the write-ahead log is folded into the database file once, when the
    load closes it.
    A stop signal that comes meanwhile is raised as such (``stop.Interrupted``): DuckDB
    reports the statement it cut short (the ``ATTACH``) as an error of its own."""
    from cabo_log.db import database as db
    from cabo_log.stop import interruption

    con = None
    try:
        con = db.connect(database, read_only=False, row_group_size=ROW_GROUP_SIZE)
        con.execute(f"SET memory_limit = '{DUCKDB_MEMORY}'")
        con.execute(f"SET checkpoint_threshold = '{WAL_BYTES}'")
        con.execute(f"SET write_buffer_row_group_count = {WRITE_BUFFER_ROW_GROUPS}")
    except BaseException as exc:
        if con is not None:
            con.close()
        stop = interruption(exc)
        if stop is not None and stop is not exc:
            raise stop from None
        raise
    return con


def reopen_for_load(con: Any) -> None:
    """Attach the load's database again (``database.reattach``), with the load's row groups."""
    from cabo_log.db import database as db

    db.reattach(con, ROW_GROUP_SIZE)


def drop_cache(con: Any) -> None:
    """Have DuckDB drop the table blocks it keeps cached: it keeps every block it writes
    (appends write whole row groups to the file at once, before their COMMIT) until its
    ``memory_limit``, and a load never reads them back, so a load's memory grew with its
    games up to that limit (docs/performance.md, "Memory, flat"). DuckDB has no call for it
    but its limit: lowered to what it holds besides (the blocks go, being on disk already),
    then set back. ``con`` must be in no transaction (a ``SET`` that fails aborts the
    transaction it is in); if DuckDB refuses, the cache merely stays."""
    try:
        limit = con.execute("SELECT current_setting('memory_limit')").fetchone()
        kept = con.execute("SELECT coalesce(sum(memory_usage_bytes), 0)::BIGINT"
                           " FROM duckdb_memory() WHERE tag <> 'BASE_TABLE'").fetchone()
        if limit is None or kept is None:   # pragma: no cover - both always answer
            return
        try:
            con.execute(f"SET memory_limit = '{kept[0] + CACHE_SLACK}B'")
        finally:
            con.execute(f"SET memory_limit = '{limit[0]}'")
    except duckdb.Error:
        return


def close_after_load(con: Any, *, stopping: bool) -> None:
    """Close the database (folding the write-ahead log in may take a moment). After a stop,
    DuckDB may still call the connection busy with the statement the stop cut short: the
    batches committed are safe in the log, and the next open folds them in."""
    try:
        con.close()
    except duckdb.Error:
        if not stopping:
            raise
