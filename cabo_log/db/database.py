"""The DuckDB side: opening a database safely, its tables (DDL), and the one transactional writer.

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
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from cabo_log.db.schema import GAME_TABLES, SCHEMAS

SCHEMA_VERSION = "2"   # 2: counts of rounds and turns INTEGER, scores BIGINT
DEFAULT_DB = "cabo.duckdb"
ENV_DB = "CABO_LOG_DB"

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
    "analyses": pa.schema([
        ("game_id", pa.string()), ("ruleset", pa.string()), ("player", pa.string()),
        ("decisions", pa.int32()), ("blunders", pa.int32()), ("mistakes", pa.int32()),
        ("dubious", pa.int32()), ("loss", pa.float64()), ("accuracy", pa.float64()),
        ("rollouts", pa.int32()), ("seed", pa.int64()), ("bot", pa.string()),
        ("file_hash", pa.string())]),
}
ALL_SCHEMAS: dict[str, pa.Schema] = {**SCHEMAS, **LOADER_SCHEMAS, **ANALYSIS_SCHEMAS}

_DUCK_TYPES: dict[pa.DataType, str] = {
    pa.int16(): "SMALLINT", pa.int32(): "INTEGER", pa.int64(): "BIGINT",
    pa.string(): "VARCHAR", pa.bool_(): "BOOLEAN", pa.float64(): "DOUBLE",
    pa.timestamp("us", tz="UTC"): "TIMESTAMPTZ",
}


class DatabaseError(Exception):
    """A database that cannot be used: the message is one line for the user."""


def default_path() -> Path:
    return Path(os.environ.get(ENV_DB) or DEFAULT_DB)


def duck_type(kind: pa.DataType) -> str:
    if pa.types.is_list(kind):
        return duck_type(kind.value_type) + "[]"
    return _DUCK_TYPES[kind]


def ddl() -> list[str]:
    """CREATE TABLE statements for every table (idempotent)."""
    out = ["CREATE TABLE IF NOT EXISTS meta (key VARCHAR, value VARCHAR)"]
    for name, schema in ALL_SCHEMAS.items():
        cols = ", ".join(f'"{f.name}" {duck_type(f.type)}' for f in schema)
        out.append(f"CREATE TABLE IF NOT EXISTS {name} ({cols})")
    return out


# --- opening ------------------------------------------------------------------------------------

def connect(path: str | os.PathLike[str], *, read_only: bool,
            config: dict[str, Any] | None = None) -> duckdb.DuckDBPyConnection:
    """Open the database, or raise DatabaseError with a sentence saying why it cannot be.
    ``config``: DuckDB settings applied at connection time (see ``readonly``)."""
    p = Path(path)
    if p.is_dir():
        raise DatabaseError(f"{p} is a folder, not a database file")
    if p.exists():
        _check_magic(p)
    elif read_only:
        raise DatabaseError(f"no database at {p} (create it with 'cabo-log load')")
    elif not p.parent.is_dir():
        raise DatabaseError(f"cannot create {p}: the folder {p.parent} does not exist")
    try:
        return duckdb.connect(str(p), read_only=read_only, config=config or {})
    except duckdb.Error as exc:
        raise DatabaseError(f"cannot open {p}: {_reason(exc)}") from None


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


def check_version(con: duckdb.DuckDBPyConnection, path: object) -> None:
    try:
        row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except duckdb.Error:
        raise DatabaseError(f"{path} is not a cabo-log database (no meta table); "
                            "load games into it first") from None
    if row is None or row[0] != SCHEMA_VERSION:
        found = row[0] if row else "none"
        raise DatabaseError(f"{path} has cabo-log schema version {found}, this cabo-log uses "
                            f"{SCHEMA_VERSION}: load into a new database (--db)")


# --- writing ------------------------------------------------------------------------------------

@dataclass
class Batch:
    """What one transaction of a load writes: rows to append, rows to delete first."""

    tables: dict[str, list[pa.RecordBatch]] = field(default_factory=dict)
    rows: int = 0
    games: int = 0
    delete_games: list[str] = field(default_factory=list)
    delete_files: list[str] = field(default_factory=list)
    delete_errors: list[str] = field(default_factory=list)
    commit: bool = False        # commit the transaction after this batch, whatever its size
    number: int = 0             # of the submitted batches

    def empty(self) -> bool:
        return not (self.tables or self.delete_games or self.delete_files
                    or self.delete_errors)


class Writer:
    """The single writer of a load. Rows arrive as Arrow record batches and wait in memory
    until ``flush_rows`` of them are pending; then they go to DuckDB (the rows of the games
    they replace deleted first, the new rows appended in bulk: ``INSERT ... SELECT`` from
    Arrow, never row by row) inside a transaction that is committed once it holds
    ``commit_rows`` rows, and by ``flush``.

    A transaction (a batch) is all or nothing: an error, a crash or Ctrl-C in the middle leaves
    the database as it was before it; batches committed earlier stay (a game is always whole,
    and loading again finishes the job). Large transactions are what DuckDB writes fastest: an
    append of whole row groups is compressed straight into the database file, where many
    small commits leave partial row groups in the write-ahead log for the checkpoint to
    rewrite (measured: 1.65 times the CPU of the writer and checkpoint together, and a file
    1.7 times as big). Memory stays flat all the same: ``flush_rows`` bounds what waits here,
    and DuckDB keeps no more than a partial row group per table of what it has not written.

    ``submit`` writes in a background thread (DuckDB releases the GIL), so the loader goes on
    receiving rows meanwhile; at most one batch is being written at a time.
    """

    def __init__(self, con: duckdb.DuckDBPyConnection, *, flush_rows: int = 200_000,
                 commit_rows: int = 0, checkpoint_rows: int = 0) -> None:
        self.con = con.cursor()     # the writing thread's own connection to the database
        self.flush_rows = flush_rows
        self.commit_rows = commit_rows   # 0: every submitted batch is committed at once
        self.checkpoint_rows = checkpoint_rows   # 0: DuckDB decides when to checkpoint
        self._unfolded = 0          # rows committed since the last checkpoint
        self.pending = Batch()
        self.batches = 0            # transactions committed
        self.committed_games = 0    # games written by them
        self.submitted = 0          # batches submitted (numbered from 1)
        self.committed_through = 0  # the number of the last submitted batch committed
        self._open: Batch | None = None   # what the open transaction holds (games, rows, number)
        self._thread: ThreadPoolExecutor | None = None
        self._writing: Future[None] | None = None
        self._lock = threading.Lock()   # guards the two flags: a COMMIT is never interrupted
        self._stopping = False          # set by abort: no COMMIT may start any more
        self._committing = False        # a COMMIT has started: abort lets it finish
        self._active = False            # a batch is being written (even one whose future a
                                        # signal kept ``submit`` from recording)

    # --- collecting ---------------------------------------------------------------------------
    def replace_games(self, game_ids: Iterable[str]) -> None:
        """Rows of these games (as loaded before) are to go, in the batch that brings their
        new version."""
        self.pending.delete_games.extend(game_ids)

    def forget_files(self, paths: Iterable[str]) -> None:
        """``files`` and ``load_errors`` rows of these paths are to go (they are rewritten)."""
        paths = list(paths)
        self.pending.delete_files.extend(paths)
        self.pending.delete_errors.extend(paths)

    def forget_errors(self, paths: Iterable[str]) -> None:
        """``load_errors`` rows of these paths are to go (a new error replaces them)."""
        self.pending.delete_errors.extend(paths)

    def add(self, table: str, batches: Sequence[pa.RecordBatch]) -> None:
        if not batches:
            return
        rows = sum(b.num_rows for b in batches)
        self.pending.tables.setdefault(table, []).extend(batches)
        self.pending.rows += rows
        if table == "games":
            self.pending.games += rows

    @property
    def stopping(self) -> bool:
        """``abort`` was called: the load is being stopped."""
        return self._stopping

    def full(self) -> bool:
        return self.pending.rows >= self.flush_rows

    # --- writing ------------------------------------------------------------------------------
    def submit(self, commit: bool = False) -> int:
        """Write what is pending in the background (after the batch being written, if any);
        its number (``committed_through`` reaches it when it is committed)."""
        self.wait()
        batch, self.pending = self.pending, Batch()
        batch.commit = commit
        if batch.empty() and not (commit and self._open is not None):
            return self.submitted
        self.submitted += 1
        batch.number = self.submitted
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="cabo-log-writer")
        self._writing = self._thread.submit(self._write, batch)
        return batch.number

    def flush(self) -> None:
        """Write what is pending and wait until everything is committed."""
        self.submit(commit=True)
        self.wait()

    def wait(self) -> None:
        """Wait for the batch being written; its error, if any, is raised here. The wait is
        in short steps: a signal delivered to another thread is handled meanwhile, and a
        batch interrupted here stays known to ``abort``, which rolls it back."""
        writing = self._writing
        if writing is None:
            return
        while not wait_futures([writing], timeout=0.1).done:
            pass
        self._writing = None
        writing.result()

    def abort(self) -> None:
        """Stop: interrupt the batch being written (it rolls back) and drop what is pending.
        A batch already committing is let finish: interrupting its COMMIT could leave it
        written while ``committed_games`` says it is not."""
        self.pending = Batch()
        writing, self._writing = self._writing, None
        with self._lock:
            self._stopping = True
            committing, active = self._committing, self._active
        if writing is None and active and not committing:
            self.con.interrupt()   # submitted, but the signal came before it was recorded
        if writing is not None:
            if not writing.done() and not committing:
                self.con.interrupt()
            try:
                writing.result()
            except BaseException:  # noqa: BLE001 - the batch was rolled back, as intended
                pass
        if self._open is not None and not self._active:
            self._rollback()

    def close(self) -> None:
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None
        try:
            self.con.close()
        except duckdb.Error:
            if not self._stopping:
                raise
            # a statement cut short by ``abort`` can leave DuckDB calling this cursor busy;
            # what it held was never committed, so dropping it with the process loses nothing

    def _write(self, batch: Batch) -> None:
        with self._lock:
            if self._stopping:
                return
            self._active = True
        try:
            self._write_batch(batch)
        finally:
            self._active = False

    def _write_batch(self, batch: Batch) -> None:
        con = self.con
        if self._open is None:
            con.execute("BEGIN TRANSACTION")
            self._open = Batch()
        try:
            if batch.delete_games:
                ids = sorted(set(batch.delete_games))
                for table in (*GAME_TABLES, *ANALYSIS_SCHEMAS):
                    con.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT unnest($ids))",
                                {"ids": ids})
            if batch.delete_files:
                con.execute("DELETE FROM files WHERE path IN (SELECT unnest($p))",
                            {"p": sorted(set(batch.delete_files))})
            if batch.delete_errors:
                con.execute("DELETE FROM load_errors WHERE file IN (SELECT unnest($p))",
                            {"p": sorted(set(batch.delete_errors))})
            for table, batches in batch.tables.items():
                self.insert(table, pa.Table.from_batches(batches))
            opened = self._open
            assert opened is not None
            opened.rows += batch.rows
            opened.games += batch.games
            opened.number = batch.number
            if not batch.commit and opened.rows < self.commit_rows:
                return
            with self._lock:
                if self._stopping:
                    raise duckdb.InterruptException("the load was stopped before this commit")
                self._committing = True
            try:
                con.execute("COMMIT")
                self._open = None
            finally:
                self._committing = False
        except BaseException:
            self._rollback()
            raise
        self.batches += 1
        self.committed_games += opened.games
        self.committed_through = opened.number
        self._unfolded += opened.rows
        if self.checkpoint_rows and self._unfolded >= self.checkpoint_rows:
            self._checkpoint()

    def _checkpoint(self) -> None:
        """Fold the committed batches into the database file. Until then DuckDB keeps
        bookkeeping of every row appended in memory: the memory of a load would grow with the
        games it loads. Outside any COMMIT, so a stop never waits for a checkpoint it could
        not interrupt; one that cannot run now (a reader's transaction) runs next time."""
        try:
            self.con.execute("CHECKPOINT")
        except duckdb.TransactionException:
            return
        self._unfolded = 0

    def _rollback(self) -> None:
        self._open = None
        try:
            self.con.execute("ROLLBACK")
        except duckdb.Error:  # pragma: no cover - the transaction is already gone
            pass

    def insert(self, table: str, data: pa.Table) -> None:
        """One bulk append from Arrow (never row by row)."""
        self.con.register("_incoming", data)
        try:
            self.con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _incoming")
        finally:
            self.con.unregister("_incoming")


def fetch(con: duckdb.DuckDBPyConnection, sql: str, params: Any = None
          ) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run a query: (column names, rows)."""
    cursor = con.execute(sql, params) if params is not None else con.execute(sql)
    columns = [d[0] for d in cursor.description or []]
    return columns, cursor.fetchall()
