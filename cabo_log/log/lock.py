"""One writer per log: an exclusive, non-blocking OS lock on the open file.

``flock`` on POSIX (the lock belongs to the open file, so a second ``open`` of the same path, in
this process or another, is refused); ``msvcrt.locking`` of the first byte on Windows. The lock
goes away with the file descriptor, also when the process is killed, so a crash never leaves a
log locked.
"""

from __future__ import annotations

import os
import sys

from engine import CaboLogError


class WriterError(CaboLogError):
    """The log cannot be written right now (another writer, a stale expectation, a changed
    file); the file is untouched."""

    kind = "write"


def lock_exclusive(fd: int, file: str) -> None:
    """Take the writer's lock on ``fd`` or raise ``locked`` at once (never wait)."""
    try:
        if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
            import msvcrt

            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise WriterError("locked", "another writer has this log open (a cabo-log append, "
                          "play or program); try again when it has finished").located(
                              file, None) from None
