"""The parent's bookkeeping of one load (``Loader``), driven by ``load.load_paths``: the files
planned block by block against what the database knew of them, handed to the workers in chunks
(or replayed here when there is little to do), and each chunk's results recorded with the
writer (duplicate and replaced games, the ``files`` and ``load_errors`` rows), with only the
games of the batches not committed yet remembered.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from cabo_log.db import replay_files
from cabo_log.db.known import (
    Known,
    errors_batch,
    files_batch,
    header_game_id,
    unchanged_on_disk,
    without_games,
)
from cabo_log.db.listing import blocks
from cabo_log.db.load_result import LoadSummary
from cabo_log.db.replay_files import (
    Outcome,
    Spooled,
    SpoolFile,
    Task,
    duplicate,
    replay_tasks,
    replay_to_spool,
    spool_folder,
    unspool,
)
from cabo_log.db.settings import LoadSettings
from cabo_log.workers import Pool, cores, worker_count

if TYPE_CHECKING:
    import pyarrow as pa

    from cabo_log.db.writer import Writer

WORKER_PRELOAD = [replay_files.__name__, *replay_files.REPLAY_MODULES]   # what the workers
                    # run: imported before they are forked (or by their forkserver)


Progress = Callable[[int], None]   # called with the number of files just handled



class Holder(NamedTuple):
    """Where a game is held (``Loader.holders``): the file it was loaded from, and whether that
    file counts as met by this load: loaded by it, or listed in it and unchanged (skipped). A
    game from another file is then a duplicate, as within one load.

    A game loaded by an earlier load from a file not met (``hash``, ``size`` and ``mtime_ns``
    as loaded) is a duplicate too when that file still holds it (``elsewhere``)."""

    path: str
    met: bool
    hash: str | None = None
    size: int | None = None
    mtime_ns: int | None = None

    def elsewhere(self, out: Outcome) -> bool:
        """Whether ``out``'s game, loaded before from this holder's (other) file, is still
        there: that file unchanged since (same size and mtime), or its header still names the
        game. Not when ``out`` has the very bytes the game was loaded from (the file moved,
        or is a copy: the same game, whose ``source_file`` becomes the new path) nor when the
        earlier file is gone or now holds another game: then ``out`` replaces the game."""
        if out.hash is not None and out.hash == self.hash:
            return False
        if unchanged_on_disk(self.path, self.size, self.mtime_ns):
            return True
        return header_game_id(self.path) == out.game_id


class Loader:
    """The parent's bookkeeping of one load, kept flat in memory: what the database knew of
    each file is asked block by block as the files are planned (``Known``), which game ids
    the database already holds is asked chunk by chunk, and only the games of the batches not
    yet committed (what the database cannot answer yet) are remembered here."""

    def __init__(self, con: Any, writer: Writer | None, force: bool,
                 listed: Callable[[str], bool] | None = None, *, new: bool = False,
                 settings: LoadSettings, pool: Pool | None = None) -> None:
        self.settings = settings
        self.con = con          # (None until ``attach``: a new database, planned before
        self.writer: Writer = writer  # type: ignore[assignment]   # it is open, ``new``)
        self.force = force
        self.summary = LoadSummary()
        self.stamp = time.time_ns() // 1000     # ``loaded_at`` of every ``files`` row written
        self.known = Known(con, self.stamp, new=new, scan_games=settings.scan_games)
        self.chunks: Iterator[list[Task]] = iter(())   # what ``begin`` planned, for ``finish``
        self.results: Iterator[tuple[list[Outcome], SpoolFile | None]] | None = None
        self.working = ExitStack()   # the workers and their spool folder, from ``begin``
        # the spool folder is removed last, after every worker (adopted ones too) is gone: a
        # worker still writing while it is removed would leave it behind
        self.spool = self.working.enter_context(ExitStack())
        self.pool: Pool | None = None   # the workers started before ``begin`` (``adopt``)
        if pool is not None:
            self.adopt(pool)
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

    def adopt(self, pool: Pool) -> None:
        """Workers started before the database was opened (forked from this process while it
        ran no thread of DuckDB's), for ``begin``; they go with the load however it ends."""
        self.pool = self.working.enter_context(pool)

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
        for block in blocks(files, self.settings.plan_block):
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
        """Choose where the tasks are replayed: in this process when there is little to do
        (the workers ``adopt``ed, if any, are told to leave), else in a ``Pool`` of workers (at
        most one per core: those adopted, or started now), set to work on the first chunks.
        The chunks are made as the workers ask for them: only the first few are looked at
        beforehand, to choose. The workers leave their rows in a spool folder made in
        ``spool_in`` (next to the database) and removed when the load ends, however it ends
        (``finish``, or ``abandon`` on an error)."""
        settings = self.settings
        chunks = _chunks(tasks, settings)
        head: list[list[Task]] = []
        size = 0
        for chunk in chunks:
            head.append(chunk)
            size += sum(t.size for t in chunk)
            if size >= settings.inline_bytes and len(head) >= cores():
                break
        workers = worker_count(jobs, len(head))
        self.chunks = itertools.chain(head, chunks)
        if workers <= 1 or size < settings.inline_bytes:
            if self.pool is not None:
                self.pool.close()
            return
        folder = self.spool.enter_context(spool_folder(spool_in))
        pool = self.pool or self.working.enter_context(
            Pool(workers, preload=WORKER_PRELOAD, nice=settings.worker_nice, fork=True))
        work = (Spooled(folder, n, chunk, settings.spool_buffer)
                for n, chunk in enumerate(self.chunks))
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

    def holders(self, game_ids: Iterable[str | None]) -> dict[str, Holder | None]:
        """game_id -> where the database (or this load) has it (``Holder``), or None where
        it holds no such game."""
        ids = {g for g in game_ids if g is not None}
        found: dict[str, Holder | None] = {}
        held = {g: self._held(g) for g in ids}
        for game_id, path, this_run, size, mtime_ns, errors, digest in self.known.games(
                [g for g, (known, _) in held.items() if not known]):
            met = this_run or (not self.force and not errors and self.listed(path)
                               and unchanged_on_disk(path, size, mtime_ns))
            found[game_id] = Holder(path, met, digest, size, mtime_ns)
        for game_id, (known, where) in held.items():
            if known:
                found[game_id] = None if where is None else Holder(where, True)
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
            if out.status == "loaded" and holder is not None and holder.path != out.path \
                    and (holder.met or holder.elsewhere(out)):
                assert out.game_id is not None
                drop.append(out.game_id)
                out.status = "rejected"
                out.error = duplicate(out.path, out.game_id, holder.path,
                                      earlier=not holder.met)
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
                if holder.path != out.path:
                    self.writer.forget_files([holder.path])
            old_game = before[0] if before is not None else None
            old = holders.get(old_game) if old_game is not None else None
            if old_game is not None and old_game != out.game_id and old is not None \
                    and old.path == out.path:
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
                                         or self.writer.pending.rows >= self.settings.flush_rows):
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

    def _hold(self, holders: dict[str, Holder | None], game_id: str, path: str) -> None:
        self.held[game_id] = path
        self.known.saw(game_id)
        holders[game_id] = Holder(path, True)

    def submit(self, to_come: float) -> None:
        """Hand what is pending to the writer; its games stay remembered until committed."""
        batch = self.writer.submit(to_come=to_come)
        for game_id, path in self.held.items():
            self.sent[game_id] = (path, batch)
        self.held = {}


def _chunks(tasks: Iterable[Task], settings: LoadSettings) -> Iterator[list[Task]]:
    """The tasks in chunks of about ``chunk_bytes`` of log text, at most ``chunk_files``."""
    chunk: list[Task] = []
    size = 0
    for task in tasks:
        chunk.append(task)
        size += task.size
        if size >= settings.chunk_bytes or len(chunk) >= settings.chunk_files:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


__all__ = ["Loader", "Progress", "WORKER_PRELOAD"]
