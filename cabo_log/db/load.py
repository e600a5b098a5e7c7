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
bounded by a transaction's rows (``LoadSettings.commit_rows``), by dropping the blocks it wrote
from its cache (``load_connection.drop_cache``) and by folding the committed batches into the
database file every ``checkpoint_rows`` rows and attaching it again (``database.reattach``):
until then DuckDB keeps the metadata of every row group written (docs/performance.md, "Memory,
flat"). Every such tuning is a field of one ``settings.LoadSettings``, passed down.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

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
from cabo_log.db.settings import DEFAULTS, LoadSettings
from cabo_log.forkserver import fork_context
from cabo_log.workers import Pool, cores, interruption, prestart, worker_count

if TYPE_CHECKING:
    from cabo_log.db.writer import Writer

# --- the parent side --------------------------------------------------------------------------

ARROW_POOL = "ARROW_DEFAULT_MEMORY_POOL"   # Arrow's allocator, read once, at its import
JEMALLOC_CONF = "JE_ARROW_MALLOC_CONF"      # the options of Arrow's jemalloc, read then too
QUIET_JEMALLOC = "background_thread:false"


@contextmanager
def _arrow_allocator(name: str) -> Iterator[None]:
    """Arrow imported inside (this process's and so the workers', or the forkserver's)
    allocates with ``name`` (``LoadSettings.arrow_memory_pool``), unless the environment
    already names an allocator or ``name`` is empty. Arrow reads the variables when it is
    imported and never after, so they are set only meanwhile: they do not leak into what this
    process runs later. Unless the allocator is jemalloc, Arrow's jemalloc (unused) is also
    told to start no background thread of its own at the import: a process with a thread
    does not fork its workers itself (``forkserver.fork_context``)."""
    names = {} if not name or ARROW_POOL in os.environ else {ARROW_POOL: name}
    if os.environ.get(ARROW_POOL, name) != "jemalloc" and JEMALLOC_CONF not in os.environ:
        names[JEMALLOC_CONF] = QUIET_JEMALLOC
    os.environ.update(names)
    try:
        yield
    finally:
        for variable in names:
            os.environ.pop(variable, None)


_early: tuple[int | None, Pool] | None = None
"""The workers ``start_workers`` started before the command line was parsed, and the
``jobs`` they were started for (``load_paths`` takes them)."""


def _start_pool(jobs: int | None, settings: LoadSettings) -> Pool:
    """The load's workers (one per core unless ``jobs`` says fewer), started now: forked
    from this process once it has imported what they run (the replay and Arrow, with the
    load's allocator), so that it is imported once in all. A process that already runs other
    threads (or a system without ``fork_context``) starts the workers' forkserver instead,
    without waiting for it: it imports what they run while this process goes on, and the
    pool's first ``imap`` starts them from it."""
    pool = Pool(worker_count(jobs, cores()), preload=loaders.WORKER_PRELOAD,
                nice=settings.worker_nice, fork=True)
    with _arrow_allocator(settings.arrow_memory_pool):
        import pyarrow  # noqa: F401  (Arrow, with that allocator, here and in the workers)

        if fork_context() is None:
            prestart(loaders.WORKER_PRELOAD)
            return pool
        for name in loaders.WORKER_PRELOAD:
            import_module(name)
        pool.start(main=False)
    return pool


def _take_early(jobs: int | None) -> Pool | None:
    """The workers ``start_workers`` started, if they were started for these ``jobs`` (else
    they are told to leave)."""
    global _early
    early, _early = _early, None
    if early is None:
        return None
    if early[0] != jobs:
        early[1].close()
        return None
    return early[1]


def load_paths(paths: Sequence[str | os.PathLike[str]], database: str | os.PathLike[str], *,
               jobs: int | None = None, force: bool = False,
               progress: Progress | None = None,
               on_total: Callable[[int], None] | None = None,
               recurse: bool = True, settings: LoadSettings = DEFAULTS) -> LoadSummary:
    """Load log files and folders (searched for ``*.jsonl``, in their subfolders too unless
    ``recurse`` is False) into the database, tuned by ``settings`` (passed down to the loader,
    the writer, the workers and the connection).

    The rows go to the writer about ``settings.flush_rows`` at a time (once every chunk is
    handed out to the workers, each result as it comes), into a transaction committed once it
    holds ``settings.commit_rows`` (a batch: many row groups at once, which DuckDB writes compressed
    straight to the database file, with little left for the checkpoint at the end).
    Raises ``db.DatabaseError`` when the database cannot be used, ``LoadError`` when the load
    stopped (a worker died, a disk filled up, DuckDB could not write) and ``LoadInterrupted``
    on Ctrl-C or SIGTERM (see ``workers.stop_signals``): the batch in progress is rolled back,
    the batches written before it stay (``committed``), and loading again finishes.
    """
    started = time.perf_counter()
    total, big = survey_logs(paths, settings.inline_bytes, recurse)
    if not total:
        where = "directly in" if not recurse else "under"
        raise NoLogsFound(f"no logs found (no *.jsonl {where} {', '.join(map(str, paths))})")
    workers = big and worker_count(jobs, 2) > 1
    # a new database holds nothing to plan against: the workers start on the first chunks
    # before DuckDB is even imported (~0.1-0.2 s sooner, with a core idle meanwhile)
    new = workers and not any(os.path.exists(f"{database}{end}") for end in ("", ".wal"))
    loader = loaders.Loader(None, None, force, listed_in(paths, recurse), new=new,
                            settings=settings, pool=_take_early(jobs))
    held = _Held()   # what the ``finally`` releases, as far as the load got
    try:
        if workers and loader.pool is None:
            # before DuckDB is imported: this process has no other thread yet, and forks
            loader.adopt(_start_pool(jobs, settings))
        with _arrow_allocator(settings.arrow_memory_pool):
            import pyarrow  # noqa: F401  (Arrow in this process too, with that allocator)
        tasks = loader.start(iter_logs(paths, recurse), on_total, progress, total)
        spool_in = Path(database).absolute().parent
        remove_stale_spools(spool_in)   # those of loads killed outright (SIGKILL) before
        if new:
            loader.begin(tasks, jobs, spool_in=spool_in)
        from cabo_log.db import database as db
        from cabo_log.db.load_connection import open_for_load, reopen_for_load
        from cabo_log.db.ratings import update_ratings
        from cabo_log.db.writer import Writer

        held.con = con = open_for_load(database, settings)
        held.writer = writer = Writer(con, settings=settings,
                                      reopen=lambda con: reopen_for_load(con, settings))
        db.ensure_schema(con, database)
        loader.attach(con, writer)
        if not new:
            loader.begin(tasks, jobs, spool_in=spool_in)
        loader.finish(progress)
        writer.flush()
        update_ratings(con)   # the ratings follow the games (a few queries when unchanged)
    except BaseException as exc:
        _stop(exc, loader, held)
    finally:
        held.release()
    summary = loader.summary
    summary.seconds = time.perf_counter() - started
    return summary


class _Held:
    """The database connection and writer a load has opened so far (None: not yet), for the
    one cleanup path of ``load_paths``: ``_stop`` on a failure or a stop, then ``release``
    whatever the outcome. The workers and the spool folder (with its lock) are the loader's
    (``Loader.working``): ``Loader.finish`` lets them go when every result is in, ``_stop``
    kills them (``Loader.abandon``)."""

    def __init__(self) -> None:
        self.con: Any = None
        self.writer: Writer | None = None

    @property
    def committed(self) -> int:
        """Games of the batches committed (the writer's), 0 before there is a writer."""
        return self.writer.committed_games if self.writer is not None else 0

    def release(self) -> None:
        """Close the writer and the database: after a stop, without folding the write-ahead
        log in when DuckDB still calls the connection busy (``close_after_load``). A stop
        that comes while closing is a stop too: everything was committed or rolled back.
        Without a connection nothing is imported: a load stopped before it opened the
        database ends without importing DuckDB."""
        try:
            if self.writer is not None:
                self.writer.close()
            if self.con is not None:
                from cabo_log.db.load_connection import close_after_load

                close_after_load(self.con, stopping=self.writer is None or self.writer.stopping)
        except KeyboardInterrupt as exc:
            stop = interruption(exc)
            if stop is None:   # pragma: no cover - interruption always names a signal
                raise
            raise LoadInterrupted(self.committed, stop.signum) from None


def _stop(exc: BaseException, loader: loaders.Loader, held: _Held) -> NoReturn:
    """The load failed or was stopped (``exc``): kill the workers and remove the spool, roll
    the batch in progress back, and raise what the caller is to see. ``LoadInterrupted`` on
    Ctrl-C or SIGTERM; ``LoadError`` when ``exc`` says why the load could not go on (a worker
    died, a disk filled up, DuckDB could not write once it is writing: an error while it
    opens the database is the opening's, ``DatabaseError``); else ``exc`` itself. The batches
    committed before stay (``committed``)."""
    loader.abandon(exc)
    writer = held.writer
    if writer is not None:
        writer.abort()
    stop = interruption(exc)
    if stop is not None:
        if writer is not None:
            _no_checkpoint_on_close(held.con)
        raise LoadInterrupted(held.committed, stop.signum) from None
    error = LoadError.of(exc, held.committed, database=writer is not None)
    if error is not None:
        raise error from None
    raise exc


def _no_checkpoint_on_close(con: Any) -> None:
    """The committed batches are safe in DuckDB's write-ahead log: folding it into the
    database file can take seconds a stop should not wait, and the next open does it."""
    import duckdb

    try:
        con.execute("PRAGMA disable_checkpoint_on_shutdown")
    except duckdb.Error:   # the signal cut a call on this connection short: the checkpoint
        pass               # then happens on close, slower but as safe


def start_workers(paths: Sequence[str | os.PathLike[str]], jobs: int | None,
                  settings: LoadSettings = DEFAULTS) -> None:
    """Start the workers now if a load of ``paths`` will want workers (``_start_pool``), for
    the ``load_paths`` that follows: ``cabo-log load`` calls it before typer is imported, so
    that the workers are forked from a process that holds none of the command line (typer,
    pydantic). A command line read otherwise than typer reads it costs nothing but two idle
    workers, which leave with the command (their lifeline)."""
    global _early
    if worker_count(jobs, 2) > 1 and holds_at_least(paths, settings.inline_bytes):
        _early = (jobs, _start_pool(jobs, settings))


__all__ = ["LoadError", "LoadInterrupted", "LoadSettings", "LoadSummary", "NoLogsFound",
           "Outcome", "Progress",
           "Task", "duplicate", "file_hash", "load_paths", "replay_tasks", "replay_to_spool"]
