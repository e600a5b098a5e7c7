"""The write side of a log (FORMAT.md, "Appending"): every event checked by the engine against
the state the log already holds, before a byte is written; batches all or nothing.

``EventWriter`` is the write path itself, independent of where the bytes go: it keeps the
engine state of everything accepted so far (appending never replays the log again), numbers the
lines (``seq`` when the log has it), chains them (``h`` when the log is chained) and hands whole
batches to a sink. ``GameLog`` is that writer on a file: one writer at a time (an OS lock),
flush + fsync per batch, torn last lines reported (``torn_line``) instead of appended to.
``LogBuilder``, the simulator, ``cabo-log append`` and ``cabo-log play`` all write through it.

A rejected event leaves the sink untouched and the state as it was: the engine promises that a
rejected event changes nothing, so a single event needs no copy; when the second or a later
event of a batch is rejected, the events before it were already applied, and the state is
rebuilt from the bytes the sink holds (a replay, paid only on that path).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

import orjson

from cabo_log.log.chain import CHAIN_FIELD, DECLARED_FIELD, SHA256, declared, line_hash
from cabo_log.log.lock import WriterError
from cabo_log.log.logfile import parse_line
from cabo_log.log.replay import replay_bytes
from engine import (
    CaboLogError,
    Event,
    GameStart,
    GameState,
    InconsistentLogError,
    LogSyntaxError,
    Outcome,
    apply,
    new_game,
)
from engine.events import to_dict

# A line's JSON object; an engine event; or an engine event with its line's object (``to_dict``
# of it plus extra fields such as ``t``). Engine events are applied as they are, unparsed.
BINARY = getattr(os, "O_BINARY", 0)  # Windows would translate newlines without it

EventLike = Mapping[str, Any] | Event | tuple[Event, Mapping[str, Any]]


class Sink(Protocol):
    """Where accepted bytes go. ``write`` stores a whole batch or nothing."""

    def write(self, data: bytes) -> None: ...

    def committed(self) -> bytes: ...


class MemorySink:
    """A log kept in memory (the builder's, the simulator's)."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.chunks.append(data)

    def committed(self) -> bytes:
        return b"".join(self.chunks)


def next_seq(state: GameState | None) -> int:
    """The seq (or, without seq, the 0-based index) the next line gets."""
    return 0 if state is None else state.events


class EventWriter:
    """Validates, numbers, chains and encodes events, and writes them to a sink in batches."""

    def __init__(self, sink: Sink, *, state: GameState | None = None, lines: int = 0,
                 last_line: bytes | None = None, chained: bool = False,
                 file: str | None = None) -> None:
        self.sink = sink
        self.state = state
        self.lines = lines            # lines in the log so far (the next one is lines + 1)
        self.last_line = last_line    # the last line's bytes, without its newline
        self.chained = chained
        self.file = file
        self.outcome: Outcome | None = None   # what the last event accepted did

    @property
    def next_seq(self) -> int:
        return next_seq(self.state)

    @property
    def head(self) -> str | None:
        """A chained log's head (the SHA-256 of its last line); None when not chained."""
        if not self.chained or self.last_line is None:
            return None
        return line_hash(self.last_line)

    def append(self, event: EventLike, *, expect_seq: int | None = None) -> int:
        """Append one event; returns its line number. Raises the engine's typed error (or a
        ``WriterError``) with nothing written and nothing changed."""
        return self.extend([event], expect_seq=expect_seq)[0]

    def append_stamped(self, event: Event, line: dict[str, Any]) -> Outcome:
        """Append one engine event whose line object is already numbered (the simulator's
        path, one call per event): the same check by the engine and the same bytes as
        ``append((event, line))``, without a batch's bookkeeping; returns what it did. A
        chained log, or a line without its seq, takes the general path."""
        state = self.state
        if state is None or self.chained or CHAIN_FIELD in line or (
                state.seq_mode and "seq" not in line):
            self.append((event, line))
            assert self.outcome is not None
            return self.outcome
        return self._write(state, event, _encode(line))

    def append_encoded(self, event: Event, raw: bytes) -> Outcome:
        """``append_stamped`` with the line already encoded (``raw``, without its newline):
        the simulator's path when it writes a line's bytes itself. A chained log, or one
        without seq, takes the general path (the line read back from ``raw``)."""
        state = self.state
        if state is None or self.chained or not state.seq_mode:
            self.append((event, orjson.loads(raw)))
            assert self.outcome is not None
            return self.outcome
        return self._write(state, event, raw)

    def _write(self, state: GameState, event: Event, raw: bytes) -> Outcome:
        """Apply one event and write its line: the engine first (a refusal changes nothing),
        then the sink (a failure there rebuilds the state from what the sink holds)."""
        try:
            done = apply(state, event)   # refused: nothing changed, nothing to undo
        except BaseException as exc:
            if not isinstance(exc, CaboLogError):
                self.state = self._rebuild()
            else:
                exc.located(self.file, self.lines + 1)
            raise
        sink = self.sink
        try:
            if isinstance(sink, MemorySink):   # the simulator's: a native call when compiled
                sink.chunks.append(raw + b"\n")
            else:
                sink.write(raw + b"\n")
        except BaseException as exc:
            self.state = self._rebuild()   # the engine took it, the sink did not
            if isinstance(exc, CaboLogError):
                exc.located(self.file, self.lines + 1)
            raise
        self.outcome = done
        self.lines += 1
        self.last_line = raw
        return done

    def extend(self, events: Iterable[EventLike], *, expect_seq: int | None = None
               ) -> list[int]:
        """Append a batch, all or nothing; returns the line numbers written."""
        batch = list(events)
        if expect_seq is not None and expect_seq != self.next_seq:
            raise WriterError("seq_conflict", f"expected to append at seq {expect_seq}, but "
                              f"the log is at seq {self.next_seq}: it has moved on").located(
                                  self.file, self.lines + 1)
        saved = (self.state, self.lines, self.last_line, self.chained)
        chunks: list[bytes] = []
        try:
            for obj in batch:
                chunks.append(self._accept(obj))
            if chunks:
                self.sink.write(b"\n".join(chunks) + b"\n")
        except BaseException as exc:
            # the engine's refusal of a first event changed nothing; anything else might have
            touched = (len(chunks) > 0 or self.state is not saved[0]
                       or not isinstance(exc, CaboLogError))
            self.lines, self.last_line, self.chained = saved[1], saved[2], saved[3]
            self.state = self._rebuild() if touched else saved[0]
            if isinstance(exc, CaboLogError):
                exc.located(self.file, self.lines + len(chunks) + 1)
            raise
        return list(range(saved[1] + 1, self.lines + 1))

    def _accept(self, obj: EventLike) -> bytes:
        """One event: the line's bytes, with the state advanced (or an error, unchanged)."""
        known: Event | None = None
        if isinstance(obj, tuple):
            known, line = obj[0], dict(obj[1])
        elif isinstance(obj, Event):
            known, line = obj, to_dict(obj)
        else:
            line = dict(obj)
        state = self.state
        if state is not None and state.seq_mode and "seq" not in line and "type" in line:
            line = {"type": line.pop("type", None), "seq": state.events, **line}
            known = None  # numbered here: read back from its line
        if state is None and line.get("type") == "game":
            # a chained log declares its chain in its header (format 1.1), and a header that
            # declares one makes the log chained: later writers continue it untold
            if declared(line):
                self.chained = True
            elif self.chained:
                line[DECLARED_FIELD] = SHA256
        if self.chained and state is not None:
            given = line.pop(CHAIN_FIELD, None)
            line[CHAIN_FIELD] = line_hash(self.last_line or b"")
            if given is not None and given != line[CHAIN_FIELD]:
                raise InconsistentLogError("chain_broken", "the event's hash 'h' does not "
                                           "match the last line of the log")
        elif state is not None and CHAIN_FIELD in line:
            raise InconsistentLogError("chain_broken", "the event has a hash 'h' but the log "
                                       "is not chained")
        raw = _encode(line)
        # exactly what a replay will read (an engine event reads back as itself)
        event = known if known is not None else parse_line(raw)
        if state is None:
            if not isinstance(event, GameStart):
                raise LogSyntaxError("no_header", "the first line must be the 'game' header")
            self.state = new_game(event)
        else:
            self.outcome = apply(state, event)
        self.lines += 1
        self.last_line = raw
        return raw

    def _rebuild(self) -> GameState | None:
        """The state of what the sink holds (after a batch was refused part-way)."""
        data = self.sink.committed()
        if not data:
            return None
        result = replay_bytes(data, self.file, finish_log=False)
        if result.error is not None or result.state is None:  # pragma: no cover - a bug
            raise RuntimeError(f"the log no longer replays: {result.error}")
        return result.state


def _encode(line: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(line)
    except (orjson.JSONEncodeError, TypeError) as exc:
        raise LogSyntaxError("bad_json", f"the event cannot be written as JSON ({exc})") from None
