"""A connection that can only read the loaded games: for ``cabo-log sql``, ``report`` and the
web explorer, where the SQL may come from anyone who can reach the page, and the database file
itself from anyone who could hand it over.

Three locks, each enough for what it guards:

- **Only a SELECT runs** (``check_query``): DuckDB's parser splits the text and names each
  statement's type; anything but one SELECT (or an EXPLAIN of one) is refused before it runs.
  So ``COPY ... TO``, ``EXPORT DATABASE``, ``ATTACH``, ``INSTALL``/``LOAD``, ``SET``, ``PRAGMA``,
  ``CALL``, ``CREATE`` never reach DuckDB, whatever the other settings allow. This is what
  keeps a Parquet dataset the views read from being overwritten: DuckDB has no read-only
  variant of ``allowed_directories``, a folder it may read is a folder it may write.
- **No other file** (``enable_external_access = false``, extension autoload/autoinstall off,
  ``lock_configuration = true``): ``read_text('/etc/passwd')``, ``read_csv``, ``glob`` and the
  like are refused by DuckDB, and nothing can switch it back. The one folder a database of
  views (``load --parquet-out``) may read is the one the user names (``--dataset DIR``), never
  one the database file says: a file whose ``meta`` table names ``/`` reads nothing more.
- **The file is opened read-only**: no table of it can change.

The limits of the explorer's console (time, memory, result size) are in ``db.console``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import duckdb

from cabo_log.db.database import DatabaseError, connect

__all__ = ["SAFE_CONFIG", "QueryRefused", "check_query", "open_readonly"]

SAFE_CONFIG: dict[str, Any] = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "lock_configuration": True,
}


class QueryRefused(Exception):
    """The text is not one query that only reads (refused before it ran)."""


def open_readonly(path: str | os.PathLike[str], *, dataset: str | os.PathLike[str] | None = None,
                  memory_limit: str | None = None, threads: int | None = None,
                  spill: bool = True) -> duckdb.DuckDBPyConnection:
    """Open a database made by ``load`` so that nothing can be changed or reached through it
    (``DatabaseError`` with a sentence if it cannot be opened). ``dataset``: the Parquet folder
    of a database of views (``load --parquet-out``), the only folder it may then read;
    ``spill=False``: no temporary files, so ``memory_limit`` is a hard limit."""
    folders = _folders(dataset)
    config = {k: v for k, v in SAFE_CONFIG.items()
              if k not in ("enable_external_access", "lock_configuration")}
    if memory_limit is not None:
        config["memory_limit"] = memory_limit
    if threads is not None:
        config["threads"] = threads
    if not spill:
        config["temp_directory"] = ""
    con = connect(path, read_only=True, config=config)
    try:
        if folders:
            con.execute("SET allowed_directories = $dirs", {"dirs": folders})
        else:
            _refuse_views_without_dataset(con, path)
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    except BaseException:
        con.close()
        raise
    return con


def _folders(dataset: str | os.PathLike[str] | None) -> list[str]:
    """The folder named on the command line, as DuckDB compares paths: absolute, with a
    trailing separator (so ``/data/set`` does not also allow ``/data/settings``), and its
    real path too when a link leads there."""
    if dataset is None:
        return []
    folder = Path(dataset)
    if not folder.is_dir():
        raise DatabaseError(f"--dataset {folder}: no such folder")
    names = [os.path.abspath(folder), os.path.realpath(folder)]
    return [os.path.join(name, "") for name in dict.fromkeys(names)]


def _refuse_views_without_dataset(con: duckdb.DuckDBPyConnection,
                                  path: str | os.PathLike[str]) -> None:
    """A database of views reads a Parquet dataset: without ``--dataset`` every query of a
    view would fail on a permission error, so say what to do instead. What the file's ``meta``
    says is only repeated to the user as a hint, never allowed."""
    try:
        row = con.execute("SELECT value FROM meta WHERE key = 'parquet'").fetchone()
    except duckdb.Error:
        return
    if row is not None:
        raise DatabaseError(
            f"{path} is a file of views over a Parquet dataset (load --parquet-out): name the "
            f"dataset's folder with --dataset DIR (the file says it was made over "
            f"{str(row[0])!r})")


ALLOWED = (duckdb.StatementType.SELECT,)
ONLY_SELECT = "only a SELECT query may run here"
WHY = "the database is read-only and no other file can be read or written"
_EXPLAIN = re.compile(r"\s*EXPLAIN\s+(?:ANALY[SZ]E\s+)?", re.IGNORECASE)
_COMMENTS = re.compile(r"\A(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?\*/)*", re.DOTALL)


def check_query(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Refuse (``QueryRefused``) anything but one SELECT, or an EXPLAIN of one; a text DuckDB
    cannot parse raises its own ``duckdb.Error``."""
    statements = con.extract_statements(sql)
    if len(statements) != 1:
        raise QueryRefused("one query at a time, please" if statements else "no query given")
    statement = statements[0]
    try:
        kind = statement.type
    except ValueError:      # a statement type the Python package does not know
        raise QueryRefused(f"{ONLY_SELECT}: {WHY}") from None
    if kind == duckdb.StatementType.EXPLAIN:
        text = _COMMENTS.sub("", statement.query, count=1)
        inner = _EXPLAIN.match(text)
        if inner is not None:
            try:
                check_query(con, text[inner.end():])
            except duckdb.Error:
                raise QueryRefused("only EXPLAIN [ANALYZE] SELECT ... may run here") from None
            return
    if kind not in ALLOWED:
        name = str(kind).rsplit(".", 1)[-1]
        hint = " (a PIVOT runs as a SELECT when its values are listed: ON col IN (...))" \
            if kind == duckdb.StatementType.MULTI else ""
        raise QueryRefused(f"{ONLY_SELECT}, not {name}: {WHY}{hint}")
