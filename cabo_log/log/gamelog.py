"""A log on a file (FORMAT.md, "Appending"): ``GameLog`` is ``log.append.EventWriter`` on an
open, locked file, one writer at a time (an OS lock), flush + fsync per batch, torn last lines
reported (``torn_line``) instead of appended to; ``write_log`` creates one in a single batch.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any

from cabo_log.log.append import BINARY, EventLike, EventWriter, MemorySink
from cabo_log.log.lock import WriterError, lock_exclusive
from cabo_log.log.replay import replay_bytes
from engine import Event, LogSyntaxError, Outcome


class FileSink:
    """Appends whole batches to an open, locked file: one ``write`` loop, flush, fsync; a
    failed write is cut back off, so the file never keeps part of a batch it refused."""

    def __init__(self, fd: int, size: int, file: str, *, fsync: bool) -> None:
        self.fd = fd
        self.size = size
        self.file = file
        self.fsync = fsync

    def write(self, data: bytes) -> None:
        size = os.fstat(self.fd).st_size
        if size != self.size:
            raise WriterError("file_changed", f"the file changed size ({self.size} -> {size} "
                              "bytes) without this writer: something wrote to it without "
                              "the lock").located(self.file, None)
        view = memoryview(data)
        done = 0
        try:
            while done < len(data):
                done += os.write(self.fd, view[done:])
            if self.fsync:
                os.fsync(self.fd)
        except BaseException:
            try:
                os.ftruncate(self.fd, size)
            except OSError:  # pragma: no cover - the disk is gone
                pass
            raise
        self.size += len(data)

    def committed(self) -> bytes:
        return read_prefix(self.fd, self.size)


class GameLog(EventWriter):
    """A log file open for appending; use as a context manager (``with GameLog.open(p) as log``).

    ``fsync=False`` relaxes durability for bulk writes (a batch then survives a crash of the
    process, not of the machine).
    """

    def __init__(self, fd: int, path: Path, sink: FileSink, **kwargs: Any) -> None:
        super().__init__(sink, file=str(path), **kwargs)
        self.fd: int | None = fd
        self.path = path

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, chain: bool = False,
             fsync: bool = True) -> GameLog:
        """Open an existing log: lock it, replay it once, refuse a torn or invalid one.

        ``chain=True`` starts a chain on a log that holds only its header (a log already
        chained is always appended to with its chain).
        """
        target = Path(path)
        fd = os.open(target, os.O_RDWR | os.O_APPEND | BINARY)
        try:
            lock_exclusive(fd, str(target))
            data = read_prefix(fd)
            log = cls._from_bytes(fd, target, data, chain=chain, fsync=fsync)
        except BaseException:
            os.close(fd)
            raise
        return log

    @classmethod
    def _from_bytes(cls, fd: int, path: Path, data: bytes, *, chain: bool,
                    fsync: bool) -> GameLog:
        name = str(path)
        lines = data.split(b"\n")
        if lines[-1]:
            raise LogSyntaxError("torn_line", "the last line is incomplete (no newline at its "
                                 "end): a writer stopped in the middle of it; 'cabo-log repair' "
                                 "cuts it off").located(name, len(lines))
        whole = [line for line in lines if line.strip()]
        state, chained = None, False
        if whole:  # an empty file is a log still to be started with its header
            result = replay_bytes(data, name, finish_log=False)
            if result.error is not None:
                raise result.error
            state, chained = result.state, result.head is not None
        if chain and not chained:
            if len(whole) > 1:
                raise WriterError("not_chained", "the log is not chained, so it cannot be "
                                  "continued with a chain; 'cabo-log seal' writes a chained "
                                  "copy").located(name, None)
            chained = True
        sink = FileSink(fd, len(data), name, fsync=fsync)
        return cls(fd, path, sink, state=state, lines=len(lines) - 1,
                   last_line=whole[-1] if whole else None, chained=chained)

    @classmethod
    def create(cls, path: str | os.PathLike[str], header: EventLike,
               events: Iterable[EventLike] = (), *, chain: bool = False, fsync: bool = True,
               replace: bool = False) -> GameLog:
        """Create a new log: the header and ``events`` in one batch (``log_exists`` if the file
        exists, unless ``replace``). A refused batch leaves no new file behind.

        The batch is written into a temporary file of the same folder, locked, and linked into
        place only when whole: no other writer ever sees the new log empty (it would write a
        header of its own there, which this one would cut), and a writer that loses the race
        is refused with ``log_exists`` and removes only its own temporary file.
        """
        target = Path(path)
        if replace and target.exists():
            return cls._replace(target, header, events, chain=chain, fsync=fsync)
        fd, draft = _draft(target)
        try:
            lock_exclusive(fd, str(target))
            log = cls(fd, target, FileSink(fd, 0, str(target), fsync=fsync), chained=chain)
            log.extend([header, *events])
            os.link(draft, target)
        except FileExistsError:
            os.close(fd)
            if replace:   # created meanwhile: replaced in place, as asked
                return cls._replace(target, header, events, chain=chain, fsync=fsync)
            raise WriterError("log_exists", "the file already exists; append to it, or "
                              "choose another name").located(str(target), None) from None
        except BaseException:
            os.close(fd)
            raise
        finally:
            draft.unlink(missing_ok=True)
        if fsync:
            _sync_dir(target)
        return log

    @classmethod
    def _replace(cls, target: Path, header: EventLike, events: Iterable[EventLike], *,
                 chain: bool, fsync: bool) -> GameLog:
        """``create(replace=True)`` on an existing file: cut it under the lock and write the
        batch (the file stays where it is, so a writer that opened it sees the new log)."""
        EventWriter(MemorySink(), file=str(target)).append(header)  # refuse before cutting
        fd = os.open(target, os.O_RDWR | os.O_APPEND | BINARY)
        try:
            lock_exclusive(fd, str(target))
            os.ftruncate(fd, 0)
            log = cls(fd, target, FileSink(fd, 0, str(target), fsync=fsync), chained=chain)
            log.extend([header, *events])
        except BaseException:
            os.close(fd)
            raise
        return log

    def close(self) -> None:
        """Release the lock (closing the file); the writer cannot be used afterwards."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def extend(self, events: Iterable[EventLike], *, expect_seq: int | None = None
               ) -> list[int]:
        if self.fd is None:
            raise ValueError(f"{self.file}: the log was closed")
        return super().extend(events, expect_seq=expect_seq)

    def append_stamped(self, event: Event, line: dict[str, Any]) -> Outcome:
        if self.fd is None:
            raise ValueError(f"{self.file}: the log was closed")
        return super().append_stamped(event, line)

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def read_prefix(fd: int, size: int | None = None) -> bytes:
    """The first ``size`` bytes of an open file (all of it by default). ``lseek`` + ``read``
    rather than ``pread``, which Windows lacks; appends (``O_APPEND``) ignore the position."""
    if size is None:
        size = os.fstat(fd).st_size
    os.lseek(fd, 0, os.SEEK_SET)
    chunks: list[bytes] = []
    left = size
    while left > 0:
        chunk = os.read(fd, left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _draft(target: Path) -> tuple[int, Path]:
    """A new, empty temporary file next to ``target`` (a hidden name of its own), open for
    appending: where ``create`` writes a log before linking it into place."""
    while True:
        draft = target.with_name(f".{target.name}.{secrets.token_hex(6)}.new")
        try:
            return os.open(draft, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL | BINARY,
                           0o644), draft
        except FileExistsError:  # pragma: no cover - 48 random bits taken
            continue


def _sync_dir(path: Path) -> None:
    """Make a new file's directory entry durable too (POSIX; a no-op where unsupported)."""
    try:
        fd = os.open(path.parent if str(path.parent) else ".", os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def write_log(path: str | os.PathLike[str], events: Iterable[EventLike], *,
              chain: bool = False, fsync: bool = True, replace: bool = False) -> GameLog:
    """Create a log from a header and its events in one batch (returned closed)."""
    items = iter(events)
    header = next(items, None)
    if header is None:
        raise ValueError("a log needs at least its header")
    log = GameLog.create(path, header, items, chain=chain, fsync=fsync, replace=replace)
    log.close()
    return log
