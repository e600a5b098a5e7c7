"""A connection that can only read the loaded games: for ``cabo-log sql``, ``report`` and the
web explorer, where the SQL may come from anyone who can reach the page.

Opened read-only (no table of the file can change) with DuckDB's external access off and the
configuration locked: no ``COPY ... TO`` or ``EXPORT`` writing files, no ``read_text``/
``read_csv`` of other files, no ``ATTACH`` of another database, no ``INSTALL``/``LOAD`` of
extensions, and no ``SET`` to switch any of it back on. A query runs under a time limit (DuckDB
has no statement timeout: a timer interrupts it) and returns a bounded number of rows.
A database of views over a Parquet dataset (``load --parquet-out``) may read that one folder.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any

import duckdb

from cabo_log.db.database import connect

__all__ = ["SAFE_CONFIG", "QueryResult", "QueryTimeout", "open_readonly", "run_limited"]

SAFE_CONFIG: dict[str, Any] = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "lock_configuration": True,
}


class QueryTimeout(Exception):
    """The query ran longer than it was allowed to."""


def open_readonly(path: str | os.PathLike[str], *, memory_limit: str | None = None,
                  threads: int | None = None) -> duckdb.DuckDBPyConnection:
    """Open a database made by ``load`` so that nothing can be changed or reached through it
    (raises ``DatabaseError`` with a sentence if it cannot be opened)."""
    config = {k: v for k, v in SAFE_CONFIG.items()
              if k not in ("enable_external_access", "lock_configuration")}
    if memory_limit is not None:
        config["memory_limit"] = memory_limit
    if threads is not None:
        config["threads"] = threads
    con = connect(path, read_only=True, config=config)
    try:
        dataset = _dataset_folder(con)
        if dataset is not None:   # a file of views over a Parquet dataset (load --parquet-out)
            con.execute("SET allowed_directories = $dirs", {"dirs": [dataset]})
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    except BaseException:
        con.close()
        raise
    return con


def _dataset_folder(con: duckdb.DuckDBPyConnection) -> str | None:
    """The Parquet folder the views of this database read (the one place they may read)."""
    try:
        row = con.execute("SELECT value FROM meta WHERE key = 'parquet'").fetchone()
    except duckdb.Error:
        return None
    return os.path.join(str(row[0]), "") if row else None


@dataclass(frozen=True)
class QueryResult:
    columns: list[str]
    rows: list[tuple[Any, ...]]
    truncated: bool          # more rows existed than were fetched


def run_limited(con: duckdb.DuckDBPyConnection, sql: str, params: Any = None, *,
                max_rows: int | None = None, seconds: float | None = None) -> QueryResult:
    """Run one query on ``con`` (a cursor of its own, so other threads may use ``con`` too),
    interrupted after ``seconds`` (QueryTimeout) and cut at ``max_rows``."""
    cursor = con.cursor()
    timer = threading.Timer(seconds, cursor.interrupt) if seconds else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        result = cursor.execute(sql, params) if params is not None else cursor.execute(sql)
        columns = [d[0] for d in result.description or []]
        if max_rows is None:
            rows = result.fetchall()
            truncated = False
        else:
            rows = result.fetchmany(max_rows + 1)
            truncated = len(rows) > max_rows
            rows = rows[:max_rows]
    except duckdb.InterruptException:
        raise QueryTimeout(f"the query took longer than {seconds:g} s and was stopped") from None
    finally:
        if timer is not None:
            timer.cancel()
        cursor.close()
    return QueryResult(columns, rows, truncated)
