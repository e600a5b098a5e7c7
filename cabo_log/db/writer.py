"""The one transactional writer of a load: Arrow batches in, DuckDB appends out, a bounded
batch of games per transaction, in a background thread."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field

import duckdb
import pyarrow as pa

from cabo_log.db.database import ANALYSIS_SCHEMAS, use_same
from cabo_log.db.event_tables import GAME_STORED, stored
from cabo_log.db.load_connection import drop_cache
from cabo_log.db.settings import LoadSettings
from cabo_log.db.writer_state import WriterState

FILE_TABLES = ("files", "load_errors")   # the tables keyed by a file's path, not a game's


@dataclass
class Held:
    """What the open transaction holds back of a table (``Writer._holds_back``)."""

    rows: int = 0
    size: int = 0               # bytes
    mapped: int = 0             # its last batches still read from the spool (``_own_held``)


@dataclass
class Batch:
    """What one transaction of a load writes: rows to append, rows to delete first."""

    tables: dict[str, list[pa.RecordBatch]] = field(default_factory=dict)
    held: dict[str, Held] = field(default_factory=dict)   # (the open transaction's) what
                                # it holds back of each table in ``tables``
    rows: int = 0
    games: int = 0
    delete_games: list[str] = field(default_factory=list)
    delete_files: list[str] = field(default_factory=list)
    delete_errors: list[str] = field(default_factory=list)
    commit: bool = False        # commit the transaction after this batch, whatever its size
    number: int = 0             # of the submitted batches
    to_come: float = float("inf")   # rows still to come per row come so far (the loader's
                                    # estimate, ``Writer._holds_back``)

    def empty(self) -> bool:
        return not (self.tables or self.delete_games or self.delete_files
                    or self.delete_errors)


class Writer:
    """The single writer of a load. Rows arrive as Arrow record batches and wait in memory
    until the loader ``submit``s them (about a chunk's, ``LoadSettings.flush_rows``); then
    they go to DuckDB, a table's rows once enough of them wait (``_holds_back``) (the rows of
    the games they replace deleted first, the new rows appended in bulk: ``INSERT ... SELECT``
    from Arrow, never row by row) inside a transaction that is committed once it holds
    ``settings.commit_rows`` rows, and by ``flush``.

    A transaction (a batch) is all or nothing: an error, a crash or Ctrl-C in the middle leaves
    the database as it was before it; batches committed earlier stay (a game is always whole,
    and loading again finishes the job). Large transactions are what DuckDB writes fastest: an
    append of whole row groups is compressed straight into the database file, where many
    small commits leave partial row groups in the write-ahead log for the checkpoint to
    rewrite (measured: 1.65 times the CPU of the writer and checkpoint together, and a file
    1.7 times as big). Memory stays flat all the same: the loader bounds what waits here,
    DuckDB keeps no more than a partial row group per table of what it has not written, the
    blocks it has written are dropped from its cache (``_drop_cache``), and the file is
    attached again after each checkpoint (``_checkpoint``).

    ``submit`` writes in a background thread (DuckDB releases the GIL), so the loader goes on
    receiving rows meanwhile; one batch is written at a time, in the order submitted, and up to
    ``settings.queued`` more wait their turn before ``submit`` waits. A batch that failed fails
    the ones behind it unwritten: what is committed is always every batch up to some number.
    What the writing thread is doing, and what ``abort`` may do to it, is one phase
    (``writer_state.WriterState``) with its allowed changes listed in one place.
    """

    def __init__(self, con: duckdb.DuckDBPyConnection, *, settings: LoadSettings,
                 reopen: Callable[[duckdb.DuckDBPyConnection], None] | None = None) -> None:
        self.settings = settings    # its ``commit_rows`` (0: every submitted batch is committed
                                    # at once), ``checkpoint_rows`` (0: DuckDB decides) and
                                    # what a transaction holds back
        self.con = use_same(con)    # the writing thread's own connection to the database
        self._tuner = con.cursor()  # and the one that lowers DuckDB's memory limit for a
                                    # moment (``_drop_cache``), outside its transactions
        self._uncached = 0          # rows appended since the last ``_drop_cache``
        self._reopen = reopen       # attaches the database again after a checkpoint
        self.reopening = threading.Lock()   # held while it does: the loader's questions to
                                            # the database wait (``known.Known.lock``)
        self._unfolded = 0          # rows committed since the last checkpoint
        self._seen: dict[str, int] = {}   # table -> its rows submitted so far
        self._columns: dict[str, list[str]] = {}   # table -> its columns (``_columns_of``)
        self.pending = Batch()
        self.batches = 0            # transactions committed
        self.committed_games = 0    # games written by them
        self.submitted = 0          # batches submitted (numbered from 1)
        self.committed_through = 0  # the number of the last submitted batch committed
        self._open: Batch | None = None   # what the open transaction holds (games, rows, number)
        self._thread: ThreadPoolExecutor | None = None
        self._writing: deque[Future[None]] = deque()   # submitted, oldest first, not yet waited
        self._uncommitted = False   # (the loader's side) a batch submitted since the last
                                    # that commits
        self.state = WriterState()  # the writing thread's phase, which ``abort`` changes too

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
        return self.state.stopped

    # --- writing ------------------------------------------------------------------------------
    def submit(self, commit: bool = False, to_come: float = float("inf")) -> int:
        """Write what is pending in the background (after the batch being written, if any);
        its number (``committed_through`` reaches it when it is committed). Waits first only
        while ``settings.queued`` batches wait behind the one being written."""
        self._wait_until(self.settings.queued)
        batch, self.pending = self.pending, Batch()
        batch.commit, batch.to_come = commit, to_come
        if batch.empty() and not (commit and self._uncommitted):
            return self.submitted
        self._uncommitted = not commit   # (``_open``, the writing thread's, may lag behind)
        self.submitted += 1
        batch.number = self.submitted
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="cabo-log-writer")
        self._writing.append(self._thread.submit(self._write, batch))
        return batch.number

    def flush(self) -> None:
        """Write what is pending and wait until everything is committed."""
        self.submit(commit=True)
        self.wait()

    def wait(self) -> None:
        """Wait until every batch submitted is written; the first error, if any, is raised
        here."""
        self._wait_until(0)

    def _wait_until(self, left: int) -> None:
        """Wait until at most ``left`` submitted batches are still to be waited for, oldest
        first, raising the error of the first that failed. The wait is in short steps: a signal
        delivered to another thread is handled meanwhile, and a batch interrupted here stays
        known to ``abort``, which rolls it back."""
        while len(self._writing) > left:
            oldest = self._writing[0]
            while not wait_futures([oldest], timeout=0.1).done:
                pass
            self._writing.popleft()
            oldest.result()

    def abort(self) -> None:
        """Stop: interrupt the batch being written (it rolls back) and drop what is pending.
        A batch already committing is let finish: interrupting its COMMIT could leave it
        written while ``committed_games`` says it is not."""
        self.pending = Batch()
        writing, self._writing = list(self._writing), deque()
        if self.state.stop():   # (the queued batches behind the one being written: not begun)
            self.con.interrupt()   # (even one whose submission a signal kept from the list)
        for future in writing:
            try:
                future.result()
            except BaseException:  # noqa: BLE001 - the batch was rolled back, as intended
                pass
        if self._open is not None and not self.state.busy:
            self._rollback()

    def close(self) -> None:
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None
        try:
            self._tuner.close()
            self.con.close()
        except duckdb.Error:
            if not self.state.stopped:
                raise
            # a statement cut short by ``abort`` can leave DuckDB calling this cursor busy;
            # what it held was never committed, so dropping it with the process loses nothing

    def _write(self, batch: Batch) -> None:
        """Write one batch in the writing thread, unless the load is stopping (``state``)."""
        if not self.state.begin():
            return
        failed = True
        try:
            self._write_batch(batch)
            failed = False
        finally:
            self.state.end(failed)

    def _write_batch(self, batch: Batch) -> None:
        con = self.con
        if self._open is None:
            con.execute("BEGIN TRANSACTION")
            self._open = Batch()
        opened = self._open
        try:
            if batch.delete_games:
                self._insert_deferred(opened, [t for t in opened.tables if t not in FILE_TABLES])
                ids = sorted(set(batch.delete_games))
                for table in (*GAME_STORED, *ANALYSIS_SCHEMAS):
                    con.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT unnest($ids))",
                                {"ids": ids})
            if batch.delete_files:
                self._insert_deferred(opened, ["files"])
                con.execute("DELETE FROM files WHERE path IN (SELECT unnest($p))",
                            {"p": sorted(set(batch.delete_files))})
            if batch.delete_errors:
                self._insert_deferred(opened, ["load_errors"])
                con.execute("DELETE FROM load_errors WHERE file IN (SELECT unnest($p))",
                            {"p": sorted(set(batch.delete_errors))})
            last = batch.commit or opened.rows + batch.rows >= self.settings.commit_rows
            for table, batches in batch.tables.items():
                opened.tables.setdefault(table, []).extend(batches)
                rows = sum(b.num_rows for b in batches)
                self._seen[table] = self._seen.get(table, 0) + rows
                held = opened.held.setdefault(table, Held())
                held.rows += rows
                # (the buffers' sizes: ``nbytes`` walks every buffer's byte ranges, ~60 us a
                # batch read from the spool, for the same figure within 1 %)
                held.size += sum(b.get_total_buffer_size() for b in batches)
                held.mapped += len(batches)
                if not self._holds_back(table, held, batch.to_come):
                    self._insert_deferred(opened, [table])
                elif held.mapped > self.settings.held_mapped:
                    self._own_held(opened.tables[table], held)
            if last:   # the transaction commits with this batch: nothing may stay behind
                self._insert_deferred(opened, list(opened.tables))
            elif self._uncached >= self.settings.drop_rows:
                self._drop_cache()
            opened.rows += batch.rows
            opened.games += batch.games
            opened.number = batch.number
            if not batch.commit and opened.rows < self.settings.commit_rows:
                return
            with self.state.uninterrupted("this commit"):
                con.execute("COMMIT")
                self._open = None
        except BaseException:
            self._rollback()
            raise
        self.batches += 1
        self.committed_games += opened.games
        self.committed_through = opened.number
        self._unfolded += opened.rows
        checkpoint_rows = self.settings.checkpoint_rows
        if checkpoint_rows and self._unfolded >= checkpoint_rows:
            self._checkpoint(reopen=not batch.commit)   # (a flush: the load is ending)
        self._drop_cache()

    def _holds_back(self, table: str, held: Held, to_come: float) -> bool:
        """Whether the rows of ``table`` that the transaction holds wait for more: each
        append costs DuckDB ~1-2 ms whatever its size, so a table's rows wait until they are
        ``settings.defer_rows`` (or ``held_bytes``), or as many as its rows still to come (its rows
        so far times ``to_come``, the loader's estimate). What is held is
        written after the workers' last chunk, with a core idle: so the rows held of each
        table shrink with what is still to come (a small table is appended once half its rows
        are in, then three quarters...), and none are held once nothing is to come. Measured
        on 2,000 games, held until ``defer_rows`` or the COMMIT alone: ~0.3 s of appends
        after the last chunk."""
        settings = self.settings
        return (held.rows < min(settings.defer_rows, self._seen[table] * to_come)
                and held.size < settings.held_bytes)

    def _own_held(self, batches: list[pa.RecordBatch], held: Held) -> None:
        """Copy a table's held rows out of the spool files they lie in (their last
        ``held.mapped`` batches), done once they come from more than ``settings.held_mapped``
        of them: a batch read from a worker's file keeps the whole file mapped while it lives,
        and a small table's rows (a ``games`` row a game) are held across hundreds of chunks
        (measured before: the loader's peak 217 MB at 5,000 small games, 428 MB at 50,000).
        The copy is of few rows: those of the small tables, or up to ``settings.defer_rows``
        of a big one."""
        tail = batches[-held.mapped:]
        batches[-held.mapped:] = pa.Table.from_batches(tail).combine_chunks().to_batches()
        held.mapped = 0

    def _insert_deferred(self, opened: Batch, tables: Sequence[str]) -> None:
        """Append the rows of ``tables`` that the open transaction holds back
        (``_holds_back``): now, because enough wait, the transaction commits, or a DELETE on
        them comes first."""
        for table in tables:
            batches = opened.tables.pop(table, None)
            opened.held.pop(table, None)
            if batches:
                self.insert(table, pa.Table.from_batches(batches))

    def _checkpoint(self, reopen: bool) -> None:
        """Fold the committed batches into the database file, then have it attached again
        (``reopen``, when given): DuckDB keeps the metadata of every row group it wrote while
        the file stays attached, and the memory of a load grew with the games it loads
        (~15 MB a 100,000 small games). Outside any COMMIT, so a stop never waits for a
        checkpoint it could not interrupt; one that cannot run now (a reader's transaction)
        runs next time. The reopening is not interrupted (``abort`` waits for it, as for a
        COMMIT), and no other cursor asks the database meanwhile (``reopening``)."""
        try:
            self.con.execute("CHECKPOINT")
        except duckdb.TransactionException:
            return
        self._unfolded = 0
        if not (reopen and self._reopen):
            return
        try:
            with self.state.uninterrupted("attaching the database again"), self.reopening:
                self._reopen(self.con)
        except duckdb.InterruptException:   # stopping: the file stays attached as it is
            return

    def _drop_cache(self) -> None:
        """Have DuckDB drop the blocks it cached (``load_connection.drop_cache``), through the
        writer's connection that is in no transaction."""
        self._uncached = 0
        drop_cache(self._tuner, self.settings.cache_slack)

    def _rollback(self) -> None:
        self._open = None
        try:
            self.con.execute("ROLLBACK")
        except duckdb.Error:  # pragma: no cover - the transaction is already gone
            pass

    def insert(self, table: str, data: pa.Table) -> None:
        """One bulk append from Arrow (never row by row) per table the rows are stored in
        (``event_tables.stored``: an ``events`` table's rows without the times, or with)."""
        for name, rows in stored(table, data):
            self._uncached += rows.num_rows
            if rows.column_names == self._columns_of(name):
                # the table's columns in its order: DuckDB's relation from the Arrow table,
                # no view registered (~0.6 ms less per append of a table of ~20 columns)
                self.con.from_arrow(rows).insert_into(name)
            else:   # a database made by an older version may order its columns otherwise
                self.con.register("_incoming", rows)
                try:
                    self.con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM _incoming")
                finally:
                    self.con.unregister("_incoming")

    def _columns_of(self, table: str) -> list[str]:
        """The table's column names, in its order (asked once a load)."""
        names = self._columns.get(table)
        if names is None:
            names = [row[0] for row in self.con.execute(f"DESCRIBE {table}").fetchall()]
            self._columns[table] = names
        return names
