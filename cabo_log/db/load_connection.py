"""The DuckDB connection a load writes through: opened with a bounded memory, small row groups
and no checkpoint inside a commit, closed so that a stop never waits for the write-ahead log
to be folded in.
"""

from __future__ import annotations

import os
from typing import Any

import duckdb

from cabo_log.db.settings import DEFAULTS, LoadSettings


def open_for_load(database: str | os.PathLike[str],
                  settings: LoadSettings = DEFAULTS) -> Any:
    """The load's connection, as ``settings`` tune it: a bounded memory (or it grows with the
    database), small row groups written as they fill, and no checkpoint inside a COMMIT
    (seconds a stop would have to wait for): the write-ahead log is folded into the database
    file once, when the load closes it.
    A stop signal that comes meanwhile is raised as such (``stop.Interrupted``): DuckDB
    reports the statement it cut short (the ``ATTACH``) as an error of its own."""
    from cabo_log.db import database as db
    from cabo_log.stop import interruption

    con = None
    try:
        con = db.connect(database, read_only=False, row_group_size=settings.row_group_size)
        con.execute(f"SET memory_limit = '{settings.duckdb_memory}'")
        con.execute(f"SET checkpoint_threshold = '{settings.wal_bytes}'")
        con.execute(f"SET write_buffer_row_group_count = {settings.write_buffer_row_groups}")
    except BaseException as exc:
        if con is not None:
            con.close()
        stop = interruption(exc)
        if stop is not None and stop is not exc:
            raise stop from None
        raise
    return con


def reopen_for_load(con: Any, settings: LoadSettings = DEFAULTS) -> None:
    """Attach the load's database again (``database.reattach``), with the load's row groups."""
    from cabo_log.db import database as db

    db.reattach(con, settings.row_group_size)


def drop_cache(con: Any, slack: int) -> None:
    """Have DuckDB drop the table blocks it keeps cached: it keeps every block it writes
    (appends write whole row groups to the file at once, before their COMMIT) until its
    ``memory_limit``, and a load never reads them back, so a load's memory grew with its
    games up to that limit (docs/performance.md, "Memory, flat"). DuckDB has no call for it
    but its limit: lowered to what it holds besides (the blocks go, being on disk already),
    then set back (``slack`` bytes over it: ``LoadSettings.cache_slack``). ``con`` must be in
    no transaction (a ``SET`` that fails aborts the transaction it is in); if DuckDB refuses,
    the cache merely stays."""
    try:
        limit = con.execute("SELECT current_setting('memory_limit')").fetchone()
        kept = con.execute("SELECT coalesce(sum(memory_usage_bytes), 0)::BIGINT"
                           " FROM duckdb_memory() WHERE tag <> 'BASE_TABLE'").fetchone()
        if limit is None or kept is None:   # pragma: no cover - both always answer
            return
        try:
            con.execute(f"SET memory_limit = '{kept[0] + slack}B'")
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
