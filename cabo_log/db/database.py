"""The DuckDB side: opening a database safely and its tables (DDL); the one transactional
writer of a load is ``cabo_log.db.writer``.

The tables of a game are defined once, as Arrow schemas in ``schema``; the DDL is derived from
them, so the rows a worker builds and the tables they land in cannot drift apart. Two more
tables belong to the loader: ``files`` (what was loaded from where, for change detection) and
``load_errors``; ``meta`` records the schema version.

There are no PRIMARY KEY constraints: uniqueness of ``game_id`` is the loader's job (it deletes
a game's rows before inserting its new version, in the same transaction), and bulk appends are
faster without index maintenance.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from cabo_log.db.basics import DatabaseError as DatabaseError  # re-exported
from cabo_log.db.ratings import RATINGS_SCHEMA
from cabo_log.db.schema import SCHEMAS

# 2: counts of rounds and turns INTEGER, scores BIGINT; 3: ``events`` a view over a table per
# frequent event kind (``event_tables``); 4: the times of an event only in ``events_timed``;
# 5: ``games.record`` ('full' or 'tally': a score sheet has no events)
# 6: ``game_players.kind`` (human, bot:expert, ...) and the ``ratings`` table
# 7: ``decision_options`` (each compared option of an analysed decision, for puzzles); a
# database of version 6 is upgraded in place when written to (the table is added, the games
# analysed before get their options at the next ``load --analyse``) and read as it is
SCHEMA_VERSION = "7"
UPGRADABLE = {"6"}   # versions read as they are, and brought to SCHEMA_VERSION by a writer

LOADER_SCHEMAS: dict[str, pa.Schema] = {
    "files": pa.schema([
        ("path", pa.string()), ("size", pa.int64()), ("mtime_ns", pa.int64()),
        ("hash", pa.string()), ("game_id", pa.string()), ("events", pa.int32()),
        ("loaded_at", pa.timestamp("us", tz="UTC"))]),
    "load_errors": pa.schema([
        ("file", pa.string()), ("line", pa.int64()), ("code", pa.string()),
        ("kind", pa.string()), ("message", pa.string()), ("game_id", pa.string()),
        ("ruleset", pa.string()), ("size", pa.int64()), ("hash", pa.string())]),
}
# Filled by ``load --analyse`` (cabo_log.analysis.store); deleted with their game like the rest.
ANALYSIS_SCHEMAS: dict[str, pa.Schema] = {
    "decisions": pa.schema([
        ("game_id", pa.string()), ("ruleset", pa.string()), ("round", pa.int32()),
        ("seq", pa.int64()), ("line", pa.int64()), ("player", pa.string()),
        ("kind", pa.string()), ("chosen_type", pa.string()), ("chosen", pa.string()),
        ("chosen_text", pa.string()), ("best", pa.string()), ("best_text", pa.string()),
        ("options", pa.int32()), ("expected", pa.float64()), ("best_expected", pa.float64()),
        ("loss", pa.float64()), ("stderr", pa.float64()), ("mark", pa.string()),
        ("accuracy", pa.float64()), ("implicit", pa.bool_()), ("must_fail", pa.bool_())]),
    "decision_options": pa.schema([
        ("game_id", pa.string()), ("seq", pa.int64()), ("option", pa.int32()),
        ("move", pa.string()), ("move_type", pa.string()), ("text", pa.string()),
        ("expected", pa.float64()), ("rollouts", pa.int32()), ("margin", pa.float64()),
        ("stderr", pa.float64()), ("best", pa.bool_()), ("chosen", pa.bool_())]),
    "analyses": pa.schema([
        ("game_id", pa.string()), ("ruleset", pa.string()), ("player", pa.string()),
        ("decisions", pa.int32()), ("blunders", pa.int32()), ("mistakes", pa.int32()),
        ("dubious", pa.int32()), ("loss", pa.float64()), ("accuracy", pa.float64()),
        ("rollouts", pa.int32()), ("seed", pa.int64()), ("bot", pa.string()),
        ("file_hash", pa.string())]),
}
# Filled after every load (cabo_log.db.ratings): each player's rating after each game.
RATINGS_SCHEMAS: dict[str, pa.Schema] = {"ratings": RATINGS_SCHEMA}
ALL_SCHEMAS: dict[str, pa.Schema] = {**SCHEMAS, **LOADER_SCHEMAS, **ANALYSIS_SCHEMAS,
                                     **RATINGS_SCHEMAS}

_DUCK_TYPES: dict[pa.DataType, str] = {
    pa.int16(): "SMALLINT", pa.int32(): "INTEGER", pa.int64(): "BIGINT",
    pa.string(): "VARCHAR", pa.bool_(): "BOOLEAN", pa.float64(): "DOUBLE",
    pa.timestamp("us", tz="UTC"): "TIMESTAMPTZ",
}


def duck_type(kind: pa.DataType) -> str:
    if pa.types.is_list(kind):
        return duck_type(kind.value_type) + "[]"
    return _DUCK_TYPES[kind]


def ddl() -> list[str]:
    """CREATE statements for every table (idempotent): ``events`` is a view over the tables
    that store it (``event_tables``)."""
    from cabo_log.db import event_tables

    out = ["CREATE TABLE IF NOT EXISTS meta (key VARCHAR, value VARCHAR)"]
    stored = {**{k: v for k, v in ALL_SCHEMAS.items() if k != event_tables.VIEW},
              **event_tables.STORED}
    for name, schema in stored.items():
        cols = ", ".join(f'"{f.name}" {duck_type(f.type)}' for f in schema)
        out.append(f"CREATE TABLE IF NOT EXISTS {name} ({cols})")
    out.append(f"CREATE VIEW IF NOT EXISTS {event_tables.VIEW} AS {event_tables.view_sql()}")
    return out


# --- opening ------------------------------------------------------------------------------------

def connect(path: str | os.PathLike[str], *, read_only: bool,
            config: dict[str, Any] | None = None, row_group_size: int | None = None
            ) -> duckdb.DuckDBPyConnection:
    """Open the database, or raise DatabaseError with a sentence saying why it cannot be.
    ``config``: DuckDB settings applied at connection time (see ``readonly``);
    ``row_group_size``: the rows of a row group DuckDB writes through this connection (a file
    does not keep it: it is an ``ATTACH`` option, so the file is attached to an in-memory
    database and made the default one; a cursor of it says ``USE`` too, see ``use_same``)."""
    p = Path(path)
    if p.is_dir():
        raise DatabaseError(f"{p} is a folder, not a database file")
    if p.exists():
        if not p.is_file():   # a FIFO would block the open for ever, a device stream without end
            raise DatabaseError(f"{p} is not a regular file, so not a database file")
        _check_magic(p)
    elif read_only:
        raise DatabaseError(f"no database at {p} (create it with 'cabo-log load')")
    elif not p.parent.is_dir():
        raise DatabaseError(f"cannot create {p}: the folder {p.parent} does not exist")
    try:
        if row_group_size is None:
            return duckdb.connect(str(p), read_only=read_only, config=config or {})
        return _attached(p, read_only, config or {}, row_group_size)
    except duckdb.Error as exc:
        raise DatabaseError(f"cannot open {p}: {_reason(exc)}") from None


ALIAS = "cabo"   # the name of a file attached with its own row group size (``connect``)


def _attached(p: Path, read_only: bool, config: dict[str, Any], row_group_size: int
              ) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(":memory:", config=config)
    literal = str(p).replace("'", "''")
    mode = ", READ_ONLY" if read_only else ""
    try:
        con.execute(f"ATTACH '{literal}' AS {ALIAS} (ROW_GROUP_SIZE {int(row_group_size)}"
                    f"{mode})")
        con.execute(f"USE {ALIAS}")
    except BaseException:
        con.close()
        raise
    return con


REATTACH_WAIT = 10.0   # seconds ``reattach`` waits for a program that opened the file meanwhile


def reattach(con: duckdb.DuckDBPyConnection, row_group_size: int,
             wait: float = REATTACH_WAIT) -> None:
    """Detach the file attached by ``connect(row_group_size=...)`` and attach it again, through
    ``con`` (a cursor of that connection: the others find it again by its name). DuckDB keeps
    the metadata of every row group it wrote in memory while the file stays attached; attached
    again, it reads what it needs when it needs it (a load's memory otherwise grows with the
    rows it wrote: docs/performance.md, "Memory, flat"). No other cursor may use the file
    meanwhile (``writer.Writer.reopening``).
    Detached, the file is not locked for a moment: a program that opens it then holds it, and
    the file is attached again once it lets go (``attach_again``)."""
    row = con.execute("SELECT path FROM duckdb_databases() WHERE database_name = $name",
                      {"name": ALIAS}).fetchone()
    if row is None:
        raise DatabaseError("no database attached to reopen")
    con.execute("USE memory")
    con.execute(f"DETACH {ALIAS}")
    attach_again(con, Path(row[0]), row_group_size, wait)


def attach_again(con: duckdb.DuckDBPyConnection, p: Path, row_group_size: int,
                 wait: float) -> None:
    """Attach ``p`` (detached by ``reattach``), waiting up to ``wait`` seconds while another
    program holds it open; then a sentence saying so (``DatabaseError``)."""
    literal = str(p).replace("'", "''")
    deadline = time.monotonic() + wait
    while True:
        try:
            con.execute(f"ATTACH '{literal}' AS {ALIAS} (ROW_GROUP_SIZE {int(row_group_size)})")
            break
        except duckdb.IOException as exc:
            if "lock" not in str(exc).lower():
                raise DatabaseError(f"cannot open {p} again: {_reason(exc)}") from None
            if time.monotonic() >= deadline:
                raise DatabaseError(
                    f"cannot open {p} again: another program opened it while the load was "
                    f"reopening it, and held it for {wait:g} s (what the load committed is "
                    "kept: load again once that program has closed it)") from None
            time.sleep(0.05)
    con.execute(f"USE {ALIAS}")


def use_same(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """A cursor of ``con`` on the same default database (a cursor starts on the in-memory one
    of an attached file, ``connect(row_group_size=...)``)."""
    cursor = con.cursor()
    row = con.execute("SELECT current_database()").fetchone()
    if row is not None and row[0] == ALIAS:
        cursor.execute(f"USE {ALIAS}")
    return cursor


def _check_magic(p: Path) -> None:
    try:
        with p.open("rb") as f:
            head = f.read(12)
    except OSError as exc:
        raise DatabaseError(f"cannot read {p}: {exc.strerror or exc}") from None
    if head[8:12] != b"DUCK":
        raise DatabaseError(f"{p} is not a DuckDB database file")


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    text = re.sub(r"^[A-Za-z ]*Error: ", "", text)
    if "Could not set lock" in text or "Conflicting lock" in text:
        return "the database is in use by another process; try again when it has finished"
    return text


def ensure_schema(con: duckdb.DuckDBPyConnection, path: object) -> None:
    """Create the tables if needed (one transaction); refuse a database of another schema
    version or program."""
    con.execute("BEGIN TRANSACTION")
    try:
        _ensure_schema(con, path)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def _ensure_schema(con: duckdb.DuckDBPyConnection, path: object) -> None:
    tables = {row[0] for row in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
    ).fetchall()}
    if "meta" not in tables and tables & set(ALL_SCHEMAS):
        raise DatabaseError(f"{path} holds tables that cabo-log did not create")
    if "meta" in tables:
        check_version(con, path)
    for statement in ddl():
        con.execute(statement)
    if "meta" not in tables:
        con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [SCHEMA_VERSION])
    else:   # an upgradable version: the DDL above added what it lacked
        con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [SCHEMA_VERSION])


def check_version(con: duckdb.DuckDBPyConnection, path: object) -> None:
    try:
        row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except duckdb.Error:
        raise DatabaseError(f"{path} is not a cabo-log database (no meta table); "
                            "load games into it first") from None
    if row is None or (row[0] != SCHEMA_VERSION and row[0] not in UPGRADABLE):
        found = row[0] if row else "none"
        raise DatabaseError(f"{path} has cabo-log schema version {found}, this cabo-log uses "
                            f"{SCHEMA_VERSION}: load into a new database (--db)")


def fetch(con: duckdb.DuckDBPyConnection, sql: str, params: Any = None
          ) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run a query: (column names, rows)."""
    cursor = con.execute(sql, params) if params is not None else con.execute(sql)
    columns = [d[0] for d in cursor.description or []]
    return columns, cursor.fetchall()
