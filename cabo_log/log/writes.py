"""The library behind ``cabo-log append`` and ``cabo-log seal`` (the CLI only prints).

Events arrive as JSON texts; each is decoded and located at the line it would occupy, so a bad
one is reported as ``FILE:LINE: code: message`` exactly like a replay would report it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cabo_log.log.chain import CHAIN_FIELD
from cabo_log.log.gamelog import GameLog
from cabo_log.log.lock import WriterError
from cabo_log.log.logfile import decode_line, read_bytes
from cabo_log.log.replay import replay_bytes
from engine import CaboLogError, LogSyntaxError


@dataclass(frozen=True)
class Appended:
    """What an append did: the lines written, the next seq, the head of a chained log."""

    file: str
    first_line: int
    last_line: int
    next_seq: int
    head: str | None
    created: bool

    def __str__(self) -> str:
        count = self.last_line - self.first_line + 1
        what = f"{count} event{'s' if count != 1 else ''}"
        where = (f"line {self.first_line}" if count == 1
                 else f"lines {self.first_line}-{self.last_line}")
        text = f"{self.file}: {'created with' if self.created else 'appended'} {what} ({where})"
        text += f"; next seq {self.next_seq}"
        return text + (f"; head {self.head}" if self.head else "")


def _decode(texts: Sequence[str | bytes], file: str, first_line: int) -> list[Any]:
    objs = []
    for i, text in enumerate(texts):
        raw = text.encode() if isinstance(text, str) else text
        try:
            objs.append(decode_line(raw.strip()))
        except CaboLogError as exc:
            raise exc.located(file, first_line + i) from None
    return objs


def append_texts(path: str | os.PathLike[str], texts: Sequence[str | bytes], *,
                 chain: bool = False, expect_seq: int | None = None,
                 fsync: bool = True) -> Appended:
    """Append JSON events to a log, all or nothing; create it when it does not exist (or is
    empty) and the first event is its ``game`` header. ``chain`` starts a chained log."""
    target = Path(path)
    name = str(target)
    if not texts:
        raise ValueError("no events to append")
    if not target.exists():
        objs = _decode(texts, name, 1)
        if not isinstance(objs[0], dict) or objs[0].get("type") != "game":
            raise LogSyntaxError("no_header", "the file does not exist; the first event of a "
                                 "new log must be its 'game' header").located(name, 1)
        if expect_seq not in (None, 0):
            raise WriterError("seq_conflict", f"expected to append at seq {expect_seq}, but "
                              "the log does not exist: a new log starts at seq 0").located(
                                  name, 1)
        log = GameLog.create(target, objs[0], objs[1:], chain=chain, fsync=fsync)
        created = True
    else:
        log = GameLog.open(target, chain=chain, fsync=fsync)
        created = False
    with log:
        if not created:
            log.extend(_decode(texts, name, log.lines + 1), expect_seq=expect_seq)
        return Appended(name, log.lines - len(texts) + 1, log.lines, log.next_seq, log.head,
                        created)


def seal(source: str | os.PathLike[str], out: str | os.PathLike[str]) -> Appended:
    """Write a chained copy of a valid log (complete or in progress) to a new file ``out``.

    Each line is rewritten compactly with its ``h`` last (any ``h`` it had is replaced); the
    events themselves are unchanged and checked again on the way.
    """
    name = str(source)
    data = read_bytes(source)
    result = replay_bytes(data, name, finish_log=False)
    if result.error is not None:
        raise result.error
    objs = [decode_line(raw) for raw in data.split(b"\n") if raw.strip()]
    for obj in objs:
        obj.pop(CHAIN_FIELD, None)
    log = GameLog.create(out, objs[0], objs[1:], chain=True)
    log.close()
    return Appended(str(out), 1, log.lines, log.next_seq, log.head, True)
