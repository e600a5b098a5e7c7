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
(``load_connection.drop_cache``) and by folding the committed batches into the database file every
``CHECKPOINT_ROWS`` rows and attaching it again (``database.reattach``): until then DuckDB keeps
the metadata of every row group written (docs/performance.md, "Memory, flat").
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from cabo_log.db import loader as loaders
from cabo_log.db.listing import holds_at_least, iter_logs, listed_in, survey_logs
from cabo_log.db.load_result import LoadError, LoadInterrupted, LoadSummary, NoLogsFound
from cabo_log.db.loader import Progress
from cabo_log.db.replay_files import (
    Outcome,
    Task,
    duplicate,
    file_hash,
    remove_stale_spools,
    replay_tasks,
    replay_to_spool,
)
from cabo_log.workers import interruption, prestart, worker_count

COMMIT_ROWS = 1_000_000     # the writer commits once a transaction holds this many: enough for
                            # each ``events`` table (``event_tables``) to get whole row groups,
                            # which DuckDB writes straight to the file; a smaller part goes
                            # through the write-ahead log and is written again by the
                            # checkpoint (row groups of 122,880 rows, 400,000: +0.9 s of 5 s for
                            # 2,000 games). What a transaction holds is what the loader's memory
                            # grows by (its blocks, its games remembered: 2,000,000 -> 1,000,000
                            # the peak at 100,000 small games ~250 -> ~231 MB, the file +4 %)
CHECKPOINT_ROWS = 1_000_000  # and folds the committed rows into the file every this many, and
                            # attaches it again (``Writer._checkpoint``)

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
    stopped (a worker died, a disk filled up, DuckDB could not write) and ``LoadInterrupted``
    on Ctrl-C or SIGTERM (see ``workers.stop_signals``): the batch in progress is rolled back,
    the batches written before it stay (``committed``), and loading again finishes.
    """
    started = time.perf_counter()
    total, big = survey_logs(paths, loaders.INLINE_BYTES)
    if not total:
        raise NoLogsFound(f"no logs found (no *.jsonl under {', '.join(map(str, paths))})")
    workers = big and worker_count(jobs, 2) > 1
    if workers:
        # the workers' forkserver imports the replay (~0.3 s) while this process imports
        # DuckDB and Arrow (which is why they are imported only here), opens the database
        # and plans the first chunks, instead of after
        prestart(loaders.WORKER_PRELOAD)
    # a new database holds nothing to plan against: the workers start on the first chunks
    # before DuckDB is even imported (~0.1-0.2 s sooner, with a core idle meanwhile)
    new = workers and not any(os.path.exists(f"{database}{end}") for end in ("", ".wal"))
    loader = loaders.Loader(None, None, force, listed_in(paths), new=new)
    tasks = loader.start(iter_logs(paths), on_total, progress, total)
    spool_in = Path(database).absolute().parent
    remove_stale_spools(spool_in)   # those of loads killed outright (SIGKILL) before
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
        _raise_failure(exc, 0, writing=False)
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
        _raise_failure(exc, 0, writing=False)
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
        _raise_failure(exc, writer.committed_games)
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


def _raise_failure(exc: BaseException, committed: int, *, writing: bool = True) -> None:
    """Raise ``exc`` as a ``LoadError`` (one line, exit 1) when it says why the load could
    not go on: a worker died, a disk filled up (the spool's or the database's), DuckDB could
    not write (once it is ``writing``: an error while it opens the database is the opening's,
    ``DatabaseError``). The batch in progress was rolled back; the ``committed`` games stay."""
    error = LoadError.of(exc, committed, database=writing)
    if error is not None:
        raise error from None


def start_workers(paths: Sequence[str | os.PathLike[str]], jobs: int | None) -> None:
    """Start the workers' forkserver if a load of ``paths`` will want workers: ``cabo-log
    load`` calls it before typer parses (~75 ms sooner), ``load_paths`` (a no-op then) after."""
    if worker_count(jobs, 2) > 1 and holds_at_least(paths, loaders.INLINE_BYTES):
        prestart(loaders.WORKER_PRELOAD)


__all__ = ["LoadError", "LoadInterrupted", "LoadSummary", "NoLogsFound", "Outcome", "Progress",
           "Task", "duplicate", "file_hash", "load_paths", "replay_tasks", "replay_to_spool"]
