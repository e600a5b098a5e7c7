"""``cabo-log load``: log files -> replay in worker processes -> Arrow batches -> one DuckDB writer.

The flow is one way. The parent lists the files as a stream (``listing``), skips the ones it
loaded before and that have not changed (same size and mtime; when only those differ, a content
hash decides), and sends the rest in chunks to a pool of worker processes. A worker reads each
file, hashes it, replays it through the engine and turns what the replay derived into Arrow
record batches (``replay_files``: ``rows`` then ``chunk``), written as Arrow IPC files into a
spool folder next to the database, which the parent memory-maps (no copy on the way). The parent
is the only writer (``writer.Writer``): it appends the batches in bulk, a bounded batch of games per
transaction, so a rejected log, a crash or Ctrl-C never leaves a game half-loaded, and loading
again picks up where it stopped. Results are handled in the order the chunks were sent, with a
bounded number in flight.

Memory stays flat however many files there are: the parent holds no list of them, asks the
database what it knew of each block of files (``known``) and which game ids it holds for each
chunk, and remembers only the games of the batches not committed yet. DuckDB's own memory is
bounded by a transaction's rows (``COMMIT_ROWS``), by dropping the blocks it wrote from its cache
(``writer.Writer._drop_cache``) and by folding the committed batches into the database file every
``CHECKPOINT_ROWS`` rows and attaching it again (``database.reattach``): until then DuckDB keeps
the metadata of every row group written (docs/performance.md, "Memory, flat").
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cabo_log.db import replay_files
from cabo_log.db.known import Known, errors_batch, files_batch, unchanged_on_disk, without_games
from cabo_log.db.listing import blocks, holds_at_least, iter_logs, listed_in, survey_logs
from cabo_log.db.load_result import LoadError, LoadInterrupted, LoadSummary, NoLogsFound
from cabo_log.db.replay_files import (
    Outcome,
    Spooled,
    SpoolFile,
    Task,
    duplicate,
    file_hash,
    replay_tasks,
    replay_to_spool,
    spool_folder,
    unspool,
)
from cabo_log.workers import (
    Pool,
    WorkerDied,
    cores,
    interruption,
    prestart,
    worker_count,
)

if TYPE_CHECKING:
    import pyarrow as pa

    from cabo_log.db.writer import Writer

CHUNK_BYTES = 1 << 20       # about this much log text per task sent to a worker
CHUNK_FILES = 256           # and at most this many files
INLINE_BYTES = 2 << 20      # below this much changed data, replay in this process
FLUSH_ROWS = 20_000         # rows handed to the writer at a time (about a chunk's), and
                            # every result as it comes once every chunk is handed out: the
                            # writer appends them when it sees fit (``writer.Batch.to_come``)
COMMIT_ROWS = 1_000_000     # and commits once a transaction holds this many: enough for
                            # each ``events`` table (``event_tables``) to get whole row groups,
                            # which DuckDB writes straight to the file; a smaller part goes
                            # through the write-ahead log and is written again by the
                            # checkpoint (row groups of 122,880 rows, 400,000: +0.9 s of 5 s for
                            # 2,000 games). What a transaction holds is what the loader's memory
                            # grows by (its blocks, its games remembered: 2,000,000 -> 1,000,000
                            # the peak at 100,000 small games ~250 -> ~231 MB, the file +4 %)
CHECKPOINT_ROWS = 1_000_000  # and folds the committed rows into the file every this many, and
                            # attaches it again (``Writer._checkpoint``)
WORKER_NICE = 10            # the workers' niceness: the writer, the one serial stage, gets a
                            # core whenever it has rows (at 0 it fell behind: ~0.5-0.8 s of
                            # appends alone after the last chunk; docs/workers.md)
PLAN_BLOCK = 1024           # files stat'ed and looked up in the database at a time
WORKER_PRELOAD = [replay_files.__name__, *replay_files.REPLAY_MODULES]   # what the workers'
                                            # forkserver imports once


Progress = Callable[[int], None]   # called with the number of files just handled


# --- the parent side --------------------------------------------------------------------------

def load_paths(paths: Sequence[str | os.PathLike[str]], database: str | os.PathLike[str], *,
               jobs: int | None = None, force: bool = False,
               progress: Progress | None = None,
               on_total: Callable[[int], None] | None = None) -> LoadSummary:
    """Load log files and folders (searched for ``*.jsonl``) into the database.

    The rows go to the writer about ``FLUSH_ROWS`` at a time (once every chunk is handed out
    to the workers, each result as it comes), into a transaction committed once it holds
    ``COMMIT_ROWS`` (a batch: many row groups at once, which DuckDB writes compressed
    straight to the database file, with little left for the checkpoint at the end).
    Raises ``db.DatabaseError`` when the database cannot be used, ``LoadError`` when the load
    stopped (a worker died) and ``LoadInterrupted`` on Ctrl-C or SIGTERM (see
    ``workers.stop_signals``): the batch in progress is rolled back, the batches written before
    it stay (``committed``), and loading again finishes.
    """
    started = time.perf_counter()
    total, big = survey_logs(paths, INLINE_BYTES)
    if not total:
        raise NoLogsFound(f"no logs found (no *.jsonl under {', '.join(map(str, paths))})")
    workers = big and worker_count(jobs, 2) > 1
    if workers:
        # the workers' forkserver imports the replay (~0.3 s) while this process imports
        # DuckDB and Arrow (which is why they are imported only here), opens the database
        # and plans the first chunks, instead of after
        prestart(WORKER_PRELOAD)
    # a new database holds nothing to plan against: the workers start on the first chunks
    # before DuckDB is even imported (~0.1-0.2 s sooner, with a core idle meanwhile)
    new = workers and not any(os.path.exists(f"{database}{end}") for end in ("", ".wal"))
    loader = _Loader(None, None, force, listed_in(paths), new=new)
    tasks = loader.start(iter_logs(paths), on_total, progress, total)
    spool_in = Path(database).absolute().parent
    try:
        if new:
            loader.begin(tasks, jobs, spool_in=spool_in)
        import duckdb

        from cabo_log.db import database as db
        from cabo_log.db.load_connection import close_after_load, open_for_load, reopen_for_load
        from cabo_log.db.writer import Writer

        con = open_for_load(database)
    except BaseException as exc:
        loader.abandon(exc)
        stop = interruption(exc)
        if stop is not None:
            raise LoadInterrupted(0, stop.signum) from None
        raise
    try:   # its cursor runs a statement, which a stop signal can cut short too
        writer = Writer(con, commit_rows=COMMIT_ROWS, checkpoint_rows=CHECKPOINT_ROWS,
                        reopen=reopen_for_load)
    except BaseException as exc:
        loader.abandon(exc)
        close_after_load(con, stopping=True)
        stop = interruption(exc)
        if stop is not None:
            raise LoadInterrupted(0, stop.signum) from None
        raise
    try:
        db.ensure_schema(con, database)
        loader.attach(con, writer)
        if not new:
            loader.begin(tasks, jobs, spool_in=spool_in)
        loader.finish(progress)
        writer.flush()
    except BaseException as exc:
        loader.abandon(exc)
        writer.abort()
        stop = interruption(exc)
        if stop is not None:
            # the committed batches are safe in DuckDB's write-ahead log: folding it into the
            # database file can take seconds, and the next open does it instead
            try:
                con.execute("PRAGMA disable_checkpoint_on_shutdown")
            except duckdb.Error:   # the signal cut a call on this connection short: the
                pass               # checkpoint then happens on close, slower but as safe
            raise LoadInterrupted(writer.committed_games, stop.signum) from None
        if isinstance(exc, WorkerDied):
            error = LoadError(str(exc))
            error.committed = writer.committed_games
            raise error from None
        raise
    finally:
        try:
            writer.close()
            close_after_load(con, stopping=writer.stopping)
        except KeyboardInterrupt as exc:   # the stop came while closing: all was committed
            stop = interruption(exc)
            if stop is None:   # pragma: no cover - interruption always names a signal
                raise
            raise LoadInterrupted(writer.committed_games, stop.signum) from None
    summary = loader.summary
    summary.seconds = time.perf_counter() - started
    return summary


def start_workers(paths: Sequence[str | os.PathLike[str]], jobs: int | None) -> None:
    """Start the workers' forkserver if a load of ``paths`` will want workers: ``cabo-log
    load`` calls it before typer parses (~75 ms sooner), ``load_paths`` (a no-op then) after."""
    if worker_count(jobs, 2) > 1 and holds_at_least(paths, INLINE_BYTES):
        prestart(WORKER_PRELOAD)


class _Loader:
    """The parent's bookkeeping of one load, kept flat in memory: what the database knew of
    each file is asked block by block as the files are planned (``Known``), which game ids
    the database already holds is asked chunk by chunk, and only the games of the batches not
    yet committed (what the database cannot answer yet) are remembered here."""

    def __init__(self, con: Any, writer: Writer | None, force: bool,
                 listed: Callable[[str], bool] | None = None, *, new: bool = False) -> None:
        self.con = con          # (None until ``attach``: a new database, planned before
        self.writer: Writer = writer  # type: ignore[assignment]   # it is open, ``new``)
        self.force = force
        self.summary = LoadSummary()
        self.stamp = time.time_ns() // 1000     # ``loaded_at`` of every ``files`` row written
        self.known = Known(con, self.stamp, new=new)
        self.chunks: Iterator[list[Task]] = iter(())   # what ``begin`` planned, for ``finish``
        self.results: Iterator[tuple[list[Outcome], SpoolFile | None]] | None = None
        self.working = ExitStack()   # the workers and their spool folder, from ``begin``
        self.listed = listed or (lambda path: False)
        self.before: dict[str, tuple[str | None, int]] = {}   # planned path -> game, events
        self.fresh: set[str] = set()   # planned paths of which the database has no row, in
                                       # ``files`` or ``load_errors``: nothing to delete
        self.held: dict[str, str | None] = {}   # game_id -> path (None: deleted), uncommitted
        self.sent: dict[str, tuple[str | None, int]] = {}   # game_id -> (path, batch): held,
                                # handed to the writer, not yet committed (the last say)
        self.pruned = 0         # ``sent`` holds no game of the batches up to this one
        self.draining = False   # every chunk is handed out: write each result as it comes
        self.total = 0          # files listed
        self.handled = 0        # files whose outcome came back
        self.passed = 0         # files skipped unchanged without a worker seeing them
        self.rows_in = 0        # rows of the handled files

    def attach(self, con: Any, writer: Writer) -> None:
        """The database is open (after ``begin``, for a new one)."""
        self.con = self.known.con = con
        self.writer = writer
        self.known.lock = writer.reopening

    def start(self, files: Iterable[str], on_total: Callable[[int], None] | None,
              progress: Progress | None, total: int | None = None) -> Iterator[Task]:
        """Tell the caller how many files there are (``total``, or ``len(files)``), then
        ``plan`` them as they are consumed."""
        self.total = total if total is not None else len(files)  # type: ignore[arg-type]
        if on_total is not None:
            on_total(self.total)
        return self.plan(files, progress)

    def plan(self, files: Iterable[str], progress: Progress | None = None) -> Iterator[Task]:
        """Tasks for the files that may have changed, block by block; the others are counted
        as skipped (and on the progress bar) as they are met."""
        for block in blocks(files, PLAN_BLOCK):
            known = self.known.files(block)
            with_errors = self.known.with_errors(block)
            skipped = 0
            for path in block:
                self.summary.files += 1
                try:
                    st = os.stat(path)
                except OSError:
                    yield Task(path, 0, None)   # the worker reports why it is unreadable
                    continue
                before = known.get(path)
                if before is None or self.force:
                    if before is None and path not in with_errors:
                        self.fresh.add(path)
                    yield Task(path, st.st_size, None)
                elif (before[0] == st.st_size and before[1] == st.st_mtime_ns
                        and path not in with_errors):
                    skipped += 1
                else:
                    self.before[path] = (before[3], before[4])
                    yield Task(path, st.st_size, before[2])
            self.summary.skipped += skipped
            self.passed += skipped
            if progress is not None and skipped:
                progress(skipped)

    def begin(self, tasks: Iterator[Task], jobs: int | None, *, spool_in: Path) -> None:
        """Choose where the tasks are replayed: in this process when there is little to do,
        else in a ``Pool`` of workers (at most one per core), started now on the first chunks.
        The chunks are made as the workers ask for them: only the first few are looked at
        beforehand, to choose. The workers leave their rows in a spool folder made in
        ``spool_in`` (next to the database) and removed when the load ends, however it ends
        (``finish``, or ``abandon`` on an error)."""
        chunks = _chunks(tasks)
        head: list[list[Task]] = []
        size = 0
        for chunk in chunks:
            head.append(chunk)
            size += sum(t.size for t in chunk)
            if size >= INLINE_BYTES and len(head) >= cores():
                break
        workers = worker_count(jobs, len(head))
        self.chunks = itertools.chain(head, chunks)
        if workers <= 1 or size < INLINE_BYTES:
            return
        folder = self.working.enter_context(spool_folder(spool_in))
        pool = self.working.enter_context(
            Pool(workers, preload=WORKER_PRELOAD, nice=WORKER_NICE))
        work = (Spooled(folder, n, chunk) for n, chunk in enumerate(self.chunks))
        self.results = pool.imap(replay_to_spool, self._then_drain(work), now=True)

    def finish(self, progress: Progress | None) -> None:
        """Handle every result, in the order the chunks were sent (the database is open)."""
        if self.results is None:
            for chunk in self.chunks:
                outcomes, rows = replay_tasks(chunk)
                self.handle(outcomes, rows.batches() if len(rows) else {}, progress)
            return
        # the workers keep the cores busy: DuckDB's own threads would only compete with them
        with self.writer.reopening:   # (the writer may be attaching the database again)
            self.con.execute("SET threads = 1")
        for outcomes, spooled in self.results:
            self.handle(outcomes, unspool(spooled), progress)
        self.results = None
        self.working.close()   # the workers told to leave, the spool removed
        # the workers are done: the last batch and the checkpoint at close may use every core
        with self.writer.reopening:
            self.con.execute("RESET threads")

    def abandon(self, error: BaseException) -> None:
        """The load failed or was stopped: kill the workers (if any) and remove the spool."""
        self.results = None
        self.working.__exit__(type(error), error, error.__traceback__)

    def _then_drain(self, work: Iterator[Spooled]) -> Iterator[Spooled]:
        """``work``, then ``draining`` on: the last results are written as they come, while
        the workers finish theirs, instead of all at the end with every core but one idle."""
        yield from work
        self.draining = True

    def holders(self, game_ids: Iterable[str | None]) -> dict[str, tuple[str, bool] | None]:
        """game_id -> (the file it was loaded from, whether that file counts as met by this
        load), or None where the database holds no such game. Met: loaded by this load, or
        listed in it and unchanged (skipped): a game from another file is then a duplicate."""
        ids = {g for g in game_ids if g is not None}
        found: dict[str, tuple[str, bool] | None] = {}
        held = {g: self._held(g) for g in ids}
        for game_id, path, this_run, size, mtime_ns, errors in self.known.games(
                [g for g, (known, _) in held.items() if not known]):
            met = this_run or (not self.force and not errors and self.listed(path)
                               and unchanged_on_disk(path, size, mtime_ns))
            found[game_id] = (path, met)
        for game_id, (known, where) in held.items():
            if known:
                found[game_id] = None if where is None else (where, True)
        return found

    def _held(self, game_id: str) -> tuple[bool, str | None]:
        """What this load wrote of a game that the database does not show yet: (whether it
        wrote anything, the file the game now comes from or None when it deleted it)."""
        if game_id in self.held:
            return True, self.held[game_id]
        sent = self.sent.get(game_id)
        if sent is not None:
            return True, sent[0]
        return False, None

    def handle(self, outcomes: list[Outcome], batches: dict[str, list[pa.RecordBatch]],
               progress: Progress | None) -> None:
        """Record one chunk's results with the writer (written with its batch)."""
        summary = self.summary
        committed = self.writer.committed_through
        if committed > self.pruned:   # the database answers for these games now
            self.sent = {g: sent for g, sent in self.sent.items() if sent[1] > committed}
            self.pruned = committed
        holders = self.holders([*(o.game_id for o in outcomes if o.status == "loaded"),
                                *(self.before.get(o.path, (None, 0))[0] for o in outcomes)])
        drop: list[str] = []
        files: list[Outcome] = []
        forget: list[str] = []   # the paths whose ``files`` and ``load_errors`` rows go
        errors: list[dict[str, Any]] = []
        for out in outcomes:
            before = self.before.pop(out.path, None)
            fresh = out.path in self.fresh
            self.fresh.discard(out.path)
            if out.status != "unchanged":
                summary.replayed += 1
            holder = holders.get(out.game_id) if out.game_id is not None else None
            if out.status == "loaded" and holder is not None and holder[1] \
                    and holder[0] != out.path:
                assert out.game_id is not None
                drop.append(out.game_id)
                out.status = "rejected"
                out.error = duplicate(out.path, out.game_id, holder[0])
            if out.status == "rejected":
                assert out.error is not None
                summary.rejected.append(out.error)
                errors.append({**out.error, "game_id": out.game_id, "ruleset": out.ruleset,
                               "size": out.size, "hash": out.hash, "file": out.path})
                if not fresh:
                    self.writer.forget_errors([out.path])
                continue
            files.append(out)
            if not fresh:
                forget.append(out.path)
            if out.status == "unchanged":
                summary.skipped += 1
                out.game_id, out.events = before if before is not None else (None, 0)
                if out.game_id is not None:
                    self._hold(holders, out.game_id, out.path)
                continue
            assert out.game_id is not None
            summary.loaded += 1
            summary.events += out.events
            summary.in_progress += not out.complete
            if holder is not None:
                summary.replaced += 1
                self.writer.replace_games([out.game_id])
                if holder[0] != out.path:
                    self.writer.forget_files([holder[0]])
            old_game = before[0] if before is not None else None
            old = holders.get(old_game) if old_game is not None else None
            if old_game is not None and old_game != out.game_id and old is not None \
                    and old[0] == out.path:
                self.writer.replace_games([old_game])
                self.held[old_game] = holders[old_game] = None
            self._hold(holders, out.game_id, out.path)
        if drop:
            batches = without_games(batches, drop)
        if forget:
            self.writer.forget_files(forget)
        self.writer.add("files", [files_batch(files, self.stamp)] if files else [])
        self.writer.add("load_errors", [errors_batch(errors)] if errors else [])
        for table, items in batches.items():
            self.writer.add(table, items)
            self.rows_in += sum(b.num_rows for b in items)
        self.handled += len(outcomes)
        if self.writer.pending.rows and (self.draining
                                         or self.writer.pending.rows >= FLUSH_ROWS):
            self.submit(self._to_come())
        if progress is not None:
            progress(len(outcomes))

    def _to_come(self) -> float:
        """Files still to come per file handled (the writer's estimate of each table's rows
        still to come: ``Batch.to_come``); 0 once every file's result is in."""
        left = self.total - self.handled - self.passed
        if left <= 0:
            return 0.0
        return left / self.handled if self.handled else float("inf")

    def _hold(self, holders: dict[str, tuple[str, bool] | None], game_id: str,
              path: str) -> None:
        self.held[game_id] = path
        self.known.saw(game_id)
        holders[game_id] = (path, True)

    def submit(self, to_come: float) -> None:
        """Hand what is pending to the writer; its games stay remembered until committed."""
        batch = self.writer.submit(to_come=to_come)
        for game_id, path in self.held.items():
            self.sent[game_id] = (path, batch)
        self.held = {}


def _chunks(tasks: Iterable[Task]) -> Iterator[list[Task]]:
    chunk: list[Task] = []
    size = 0
    for task in tasks:
        chunk.append(task)
        size += task.size
        if size >= CHUNK_BYTES or len(chunk) >= CHUNK_FILES:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


__all__ = ["LoadError", "LoadInterrupted", "LoadSummary", "NoLogsFound", "Outcome", "Task",
           "duplicate", "file_hash", "load_paths", "replay_tasks", "replay_to_spool"]
