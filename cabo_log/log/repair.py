"""``cabo-log repair``: mend the one thing a crashed writer can leave behind, a torn last line.

A writer ends every batch with a newline, so a file that does not end in one was cut off while
a line was being written. Repair keeps the original next to the file (``FILE.bak``, or
``FILE.bak.1``, ...), then cuts the torn line off. If the unterminated last line is in fact a
whole, legal event (a tool that omits the final newline), its newline is added instead: nothing
that could be a real event is thrown away. The rest of the log must replay cleanly: repair never
touches the middle of a log, and says exactly what it did.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cabo_log.log.append import BINARY
from cabo_log.log.gamelog import read_prefix
from cabo_log.log.lock import lock_exclusive
from cabo_log.log.replay import replay_bytes
from engine import CaboLogError

RepairAction = Literal["none", "cut", "newline"]
BACKUPS = 1000   # FILE.bak, FILE.bak.1 ... FILE.bak.999: the names a backup may take


class RepairFailed(Exception):
    """The log could not be repaired for a reason outside it (it cannot be opened for
    writing, its backup cannot be written): nothing was changed. The message says what is in
    the way."""


@dataclass(frozen=True)
class Repair:
    """What ``repair`` did: ``action`` is ``"none"``, ``"cut"`` or ``"newline"``."""

    file: str
    action: RepairAction
    line: int = 0            # the torn line's number
    removed: bytes = b""     # the bytes cut off
    backup: Path | None = None
    lines: int = 0           # whole lines left

    def __str__(self) -> str:
        if self.action == "none":
            return f"{self.file}: nothing to repair (the last line is whole)"
        kept = f"; the original is kept as {self.backup}"
        if self.action == "newline":
            return (f"{self.file}:{self.line}: the last line was a whole event without its "
                    f"newline: added the newline{kept}")
        shown = self.removed[:60].decode("utf-8", "replace")
        more = "..." if len(self.removed) > 60 else ""
        return (f"{self.file}:{self.line}: cut off the torn last line ({len(self.removed)} "
                f"bytes: {shown}{more}); {self.lines} whole lines remain{kept}")


def repair(path: str | os.PathLike[str]) -> Repair:
    """Repair ``path`` in place under the writer's lock. Raises the log's own error (a
    ``CaboLogError``) when the part before the torn line does not replay: that is not a crash's
    doing, and repair will not guess; ``RepairFailed`` when the file or its backup cannot be
    written."""
    target = Path(path)
    name = str(target)
    try:
        fd = os.open(target, os.O_RDWR | BINARY)
    except OSError as exc:
        raise RepairFailed(f"cannot open it for writing ({exc.strerror or exc})") from None
    try:
        lock_exclusive(fd, name)
        data = read_prefix(fd)
        cut = data.rfind(b"\n") + 1
        if cut == len(data):
            return Repair(name, "none", lines=data.count(b"\n"))
        whole, tail = data[:cut], data[cut:]
        line = whole.count(b"\n") + 1
        action: RepairAction = "newline" if _is_event(data + b"\n") else "cut"
        if whole.strip():
            result = replay_bytes(whole, name, finish_log=False)
            if result.error is not None:
                raise result.error
        backup = _backup(target, data)
        if action == "newline":
            os.lseek(fd, 0, os.SEEK_END)
            os.write(fd, b"\n")
        else:
            os.ftruncate(fd, cut)
        os.fsync(fd)
        return Repair(name, action, line, tail if action == "cut" else b"", backup,
                      whole.count(b"\n") + (action == "newline"))
    finally:
        os.close(fd)


def _is_event(data: bytes) -> bool:
    """Whether the whole file, its last line terminated, replays cleanly."""
    try:
        return replay_bytes(data, finish_log=False).error is None
    except CaboLogError:  # pragma: no cover - replay_bytes reports, never raises
        return False


def _backup(target: Path, data: bytes) -> Path:
    """Write the original bytes next to the file under a name not yet taken (durably):
    ``FILE.bak``, else ``FILE.bak.1``, ... Taken means anything of that name, a dangling
    symbolic link included (``lexists``; creating through it would fail, ``O_EXCL``), or a
    file made meanwhile by someone else (the next name is tried). A backup that cannot be
    written (a read-only folder, a full disk) is removed again and ``RepairFailed`` says
    why: the log is not touched without its backup."""
    for number in range(BACKUPS):
        candidate = target.with_name(target.name + (f".bak.{number}" if number else ".bak"))
        if os.path.lexists(candidate):
            continue
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | BINARY, 0o644)
        except FileExistsError:   # made since the look: the next name
            continue
        except OSError as exc:
            raise RepairFailed(f"cannot create the backup {candidate} "
                               f"({exc.strerror or exc})") from None
        try:
            _write_all(fd, data)
            os.fsync(fd)
        except OSError as exc:
            os.close(fd)
            candidate.unlink(missing_ok=True)
            raise RepairFailed(f"cannot write the backup {candidate} "
                               f"({exc.strerror or exc})") from None
        os.close(fd)
        return candidate
    raise RepairFailed(f"no free name for the backup: {target.name}.bak and "
                       f"{target.name}.bak.1 to .bak.{BACKUPS - 1} are all taken")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
