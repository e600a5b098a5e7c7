"""The worker side of a load: read each file, hash it, replay it with a ``RowCollector`` riding
along, and turn the rows of a chunk of files into Arrow record batches, written as Arrow IPC
files into the load's spool folder for the parent to map (``load``), or as Parquet by a cluster
task (``cluster``).
"""

from __future__ import annotations

import gc
import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

    from cabo_log.db.chunk import Chunk

SPOOL_SUFFIX = ".arrow"
SPOOL_PREFIX = ".cabo-log-load-"   # the workers' Arrow files wait in such a folder
REPLAY_MODULES = ["cabo_log.db.chunk", "cabo_log.db.rows", "cabo_log.log.replay"]


@dataclass(slots=True)
class Task:
    path: str                   # absolute path: the key of the ``files`` table
    size: int
    known_hash: str | None      # the hash loaded before, if any


@dataclass(slots=True)
class Outcome:
    """What happened to one file."""

    path: str
    status: str                 # "loaded", "unchanged" or "rejected"
    size: int = 0
    mtime_ns: int = 0
    hash: str | None = None
    game_id: str | None = None
    ruleset: str | None = None
    events: int = 0
    complete: bool = False
    error: dict[str, Any] | None = None



# --- the worker side --------------------------------------------------------------------------

def file_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass(slots=True)
class Spooled:
    """One worker task of a load: replay ``tasks`` and leave their rows in ``folder`` (the
    load's spool), in files named after ``number`` (unique in the load), written through a
    buffer of ``buffer`` bytes (``LoadSettings.spool_buffer``)."""

    folder: str
    number: int
    tasks: list[Task]
    buffer: int


@dataclass(slots=True)
class SpoolFile:
    """A chunk's rows in the load's spool: one Arrow file holding each table's IPC stream, one
    after the other; ``parts`` says where: (table, offset, size)."""

    path: str
    parts: list[tuple[str, int, int]]


def replay_to_spool(job: Spooled) -> tuple[list[Outcome], SpoolFile | None]:
    """The work of one worker task: the outcome of each file, and the rows of the valid ones
    written as one Arrow file into the load's spool folder (None: no valid log).

    A file, not bytes through the pipe: a chunk's rows (~175 bytes per event) would otherwise
    be copied about six times on their way (IPC to bytes, join, pickle, pipe, unpickle); here
    they are written once to the page cache and the parent maps them (``unspool``), so that
    DuckDB reads the worker's Arrow buffers where they lie."""
    with paused_collector():  # through the Arrow writing too (~10 % of a chunk's time)
        outcomes, chunk = replay_tasks(job.tasks)
        spooled = (spool(chunk.batches(), job.folder, job.number, job.buffer) if len(chunk)
                   else None)
        del chunk   # freed while the collector is off: back on, it would first scan it all
    return outcomes, spooled


def write_stream(sink: pa.NativeFile, items: list[pa.RecordBatch]) -> None:
    """One table's batches written to ``sink`` as an Arrow IPC stream (its schema first)."""
    import pyarrow as pa

    with pa.ipc.new_stream(sink, items[0].schema) as writer:
        for batch in items:
            writer.write_batch(batch)


def spool(batches: dict[str, list[pa.RecordBatch]], folder: str, number: int,
          buffer: int) -> SpoolFile:
    """Write the tables' batches into ``NUMBER.arrow`` in ``folder``: each table an Arrow IPC
    stream, one after the other (one file per chunk, not one per table: the parent maps,
    opens and removes a seventh as many files)."""
    import pyarrow as pa

    path = os.path.join(folder, f"{number}{SPOOL_SUFFIX}")
    parts = []
    # buffered: Arrow writes each buffer of each column with a ``write`` of its own (~800 a
    # chunk, half the spool's CPU); a buffer of a megabyte makes them a few large ones
    try:
        with pa.OSFile(path, "wb") as raw, pa.BufferedOutputStream(raw, buffer) as sink:
            for table, items in batches.items():
                start = sink.tell()
                write_stream(sink, items)
                parts.append((table, start, sink.tell() - start))
    except OSError as exc:   # a full disk (ENOSPC): said in words, with the file, to the load
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        raise OSError(exc.errno, f"cannot write the replayed rows ({reason})", path) from None
    return SpoolFile(path, parts)


def unspool(spooled: SpoolFile | None) -> dict[str, list[pa.RecordBatch]]:
    """The batches of the file ``spool`` wrote, memory-mapped (no copy: the pages stay in
    the page cache until the batches are dropped). The file is removed at once: its data
    lives on while mapped, and nothing is left behind whatever happens next."""
    if spooled is None:
        return {}
    import pyarrow as pa

    mapped = pa.memory_map(spooled.path).read_buffer()
    os.unlink(spooled.path)
    return {table: list(pa.ipc.open_stream(mapped.slice(offset, size)))
            for table, offset, size in spooled.parts}


def replay_tasks(tasks: Sequence[Task]) -> tuple[list[Outcome], Chunk]:
    """Replay files into one ``Chunk`` of rows. The cyclic garbage collector is paused
    meanwhile: the rows are hundreds of thousands of small tuples without cycles, and
    scanning them over and over costs a quarter of the time."""
    from cabo_log.db.chunk import Chunk

    chunk = Chunk()
    first_path: dict[str, str] = {}
    with paused_collector():
        outcomes = [_replay_one(task, chunk, first_path) for task in tasks]
    return outcomes, chunk


@contextmanager
def paused_collector() -> Iterator[None]:
    """The cyclic garbage collector off inside, back as it was after (nesting keeps it off
    until the outermost block ends)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _replay_one(task: Task, chunk: Chunk, first_path: dict[str, str]) -> Outcome:
    from cabo_log.db.rows import collect
    from cabo_log.log.logfile import read_log
    from cabo_log.log.replay import error_dict
    from engine import LogSyntaxError

    path = task.path
    try:
        data, mtime_ns = read_log(path)
    except OSError as exc:
        err = LogSyntaxError("unreadable", f"cannot read the file ({exc.strerror or exc})")
        return Outcome(path, "rejected", error=error_dict(err.located(path, 0)))
    digest = file_hash(data)
    out = Outcome(path, "rejected", len(data), mtime_ns, digest)
    if digest == task.known_hash:
        out.status = "unchanged"
        return out
    try:
        result, rows = collect(data, path, chunk.sink)   # appended to the chunk's lists
    except Exception as exc:  # a bug of ours must not load half a game, nor stop the load
        out.error = {"file": path, "line": None, "code": "internal_error", "kind": "internal",
                     "message": f"cabo-log failed on this log ({type(exc).__name__}: {exc})"}
        return out
    state = result.state
    if state is not None:
        out.game_id, out.ruleset = state.game_id, state.rules.name
        out.events, out.complete = state.events, state.complete
    if result.error is not None:
        out.error = error_dict(result.error)
        return out
    if state is None:  # pragma: no cover - a replay without error always has a state
        return out
    if state.game_id in first_path:
        out.error = duplicate(path, state.game_id, first_path[state.game_id])
        return out
    first_path[state.game_id] = path
    chunk.add(state, rows, path, digest)
    out.status = "loaded"
    return out


def duplicate(path: str, game_id: str, other: str, *, earlier: bool = False
              ) -> dict[str, Any]:
    """The ``duplicate_game`` error of ``path``, whose game ``other`` holds: loaded by this
    same command, or (``earlier``) by an earlier load, from a file that still holds it."""
    if earlier:
        message = (f"game {game_id!r} is also in {other}, loaded by an earlier command (a "
                   "different file: remove one of the two, or give one another game_id)")
    else:
        message = f"game {game_id!r} is also in {other}, loaded by this same command"
    return {"file": path, "line": None, "code": "duplicate_game", "kind": "load",
            "message": message}


def serialise(batches: dict[str, list[pa.RecordBatch]]) -> bytes:
    """The batches as Arrow IPC streams in one byte string (each preceded by the table name
    and length): what a chunk's rows cost to put on the wire (``benchmarks/replay.py``)."""
    import pyarrow as pa

    parts = []
    for table, items in batches.items():
        sink = pa.BufferOutputStream()
        write_stream(sink, items)
        body = sink.getvalue().to_pybytes()
        name = table.encode()
        parts.append(len(name).to_bytes(2, "little") + name + len(body).to_bytes(8, "little"))
        parts.append(body)
    return b"".join(parts)


@contextmanager
def spool_folder(parent: Path) -> Iterator[str]:
    """A fresh folder for the workers' Arrow files (``replay_files.spool``), in ``parent``
    (the database's folder: the same disk, chosen by the user) or, where no folder can be made
    there, in the system's temporary folder; removed with whatever is left in it when the
    block ends: a stopped load leaves nothing behind. The load holds a lock on it meanwhile
    (``_lock_folder``), so that a load killed outright (SIGKILL), which removes nothing, leaves
    a folder that the next load can tell from a live one's (``remove_stale_spools``)."""
    try:
        folder, lock = _locked_folder(str(parent))
    except OSError:
        remove_stale_spools(tempfile.gettempdir())
        folder, lock = _locked_folder(None)   # (the system's temporary folder)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if lock is not None:
            os.close(lock)


def _locked_folder(parent: str | None) -> tuple[str, int | None]:
    """A new spool folder in ``parent`` and the descriptor holding its lock (None where the
    system has no ``flock``). A folder removed by another load's ``remove_stale_spools``
    before this one locked it (it then looked like a dead load's) is made again."""
    while True:
        folder = tempfile.mkdtemp(prefix=SPOOL_PREFIX, dir=parent)
        try:
            lock = _lock_folder(folder)
        except FileNotFoundError:   # removed before it could be opened
            continue
        if lock is None:
            return folder, None
        try:
            if os.path.samestat(os.stat(folder), os.fstat(lock)):
                return folder, lock
        except FileNotFoundError:
            pass
        os.close(lock)   # removed while this load waited for the lock: another folder


def _lock_folder(folder: str) -> int | None:
    """Take the exclusive lock (``flock``) of ``folder``, waiting while another load holds it
    (only ``remove_stale_spools``, for as long as it removes the folder); None where there is
    no ``flock`` (Windows) or the file system refuses it. The lock lasts as long as the
    descriptor: the operating system releases it when the process ends, however it ends."""
    try:
        import fcntl
    except ImportError:   # pragma: no cover - Windows
        return None
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:   # a file system without flock: the folder is merely not protected
        os.close(fd)
        return None
    except BaseException:
        os.close(fd)
        raise
    return fd


def remove_stale_spools(parent: str | os.PathLike[str]) -> int:
    """Remove the spool folders in ``parent`` that were left by loads killed outright (no
    ``finally`` ran): those whose lock no process holds. A live load's folder is locked and
    left alone, whatever database it loads into. Returns how many were removed. A load calls
    it on the database's folder before it begins (a scan of its names: a folder of 100,000
    files costs a few tens of milliseconds)."""
    try:
        import fcntl
    except ImportError:   # pragma: no cover - Windows: no lock tells a dead load's folder
        return 0
    removed = 0
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return 0
    for entry in entries:
        try:
            if not entry.name.startswith(SPOOL_PREFIX) or not entry.is_dir(
                    follow_symlinks=False):
                continue
            fd = os.open(entry.path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
                         | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:   # held: a live load's (or a file system without flock)
            os.close(fd)
            continue
        try:
            shutil.rmtree(entry.path, ignore_errors=True)   # while holding its lock
            removed += not os.path.lexists(entry.path)
        finally:
            os.close(fd)
    return removed
