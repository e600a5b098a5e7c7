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
    doing, and repair will not guess."""
    target = Path(path)
    name = str(target)
    fd = os.open(target, os.O_RDWR | BINARY)
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
    """Write the original bytes next to the file under a name not yet taken (durably)."""
    candidate = target.with_name(target.name + ".bak")
    number = 0
    while candidate.exists():
        number += 1
        candidate = target.with_name(f"{target.name}.bak.{number}")
    fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | BINARY, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    return candidate
