"""Replaying a log: header -> state, then every event through ``engine.apply``.

Strict by default (the first bad line stops the replay and is reported) yet never empty-handed:
like python-chess's ``GameBuilder``, the result keeps the state reached before the error.
Readers that need every step (loader, timeline) pass a ``ReplayVisitor``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from cabo_log.log.chain import as_stored, check_line, declares_chain, line_hash, may_have_link
from cabo_log.log.fastdecode import fast_body, fast_decode
from cabo_log.log.fastlines import Stamp, apply_events
from cabo_log.log.logfile import decode_line, parse_object, read_bytes, strip_bom
from engine import (
    CaboLogError,
    Event,
    GameStart,
    GameState,
    LogSyntaxError,
    Outcome,
    apply,
    finish,
    new_game,
)
from engine.state import DRAWN, POWER, TURN_START

T = TypeVar("T")


class ReplayVisitor(Generic[T]):
    """Hooks called during a replay; override what you need (python-chess's visitor idea).

    A visitor is a projector over ``(event, outcome)``: what an event did comes from the
    engine's outcome, never from rules of its own. ``result()`` is what the visitor built;
    ``handle_error`` lets it keep what it had when a bad line stopped the replay.
    """

    def stamp(self, line: int, t: int | float | str) -> None:
        """The ``t`` of an accepted line that carries one (the header included), just before
        its ``begin`` or ``event``: read with the line, so no reader decodes a line twice."""

    def begin(self, state: GameState, header: GameStart) -> None:
        """After the header: the state exists, no round yet."""

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        """After an event was applied (``state`` is the state after it)."""

    def end(self, state: GameState) -> None:
        """After the last line (a power left pending has lapsed: ``engine.finish``)."""

    def handle_error(self, error: CaboLogError, state: GameState | None) -> None:
        """A line was rejected (``error`` is located); ``state`` is the state before it."""

    def result(self) -> T:
        """What the visitor built (called by ``visit``)."""
        raise NotImplementedError


@dataclass
class ReplayResult:
    file: str | None
    state: GameState | None
    error: CaboLogError | None
    last_line: int = 0
    head: str | None = None  # a chained log's head: the SHA-256 of its last line

    @property
    def ok(self) -> bool:
        return self.error is None

    def report(self) -> dict[str, Any]:
        """The object FORMAT.md's "What a replay reports" describes (plus a little more)."""
        out: dict[str, Any] = {}
        if self.state is not None:
            out = state_report(self.state)
            if self.head is not None:
                out["head"] = self.head
        if self.error is not None:
            out = {"error": error_dict(self.error), **({"partial": out} if out else {})}
        return out


def error_dict(err: CaboLogError) -> dict[str, Any]:
    return {"file": err.file, "line": err.line, "code": err.code, "kind": err.kind,
            "message": err.message}


def state_report(g: GameState) -> dict[str, Any]:
    report: dict[str, Any] = {
        "game_id": g.game_id, "ruleset": g.rules.name, "players": list(g.players),
        "events": g.events, "complete": g.complete,
        "rounds": [r.as_dict() for r in g.rounds],
        "scores": g.cumulative_by_name(), "winners": list(g.winners),
    }
    if g.names:
        report["names"] = g.names
    if not g.complete and g.phase in (TURN_START, DRAWN, POWER):
        report["current_round"] = {
            "round": g.round.round_no, "turn": g.round.turn, "to_play": g.players[g.round.current],
            "phase": g.phase, "caller": g.caller_name(),
            "rows": {g.players[p]: g.row_codes(p) for p in g.active_participants()},
            "discard_top": g.discard_top(), "deck_size": len(g.round.deck),
        }
    active = [p for i, p in enumerate(g.players) if not g.active[i]]
    if active:
        report["forfeited"] = active
    return report


def replay_bytes(data: bytes, file: str | None = None, *, until: int | None = None,
                 visitor: ReplayVisitor[Any] | None = None,
                 finish_log: bool = True) -> ReplayResult:
    """Replay a whole log held in memory; ``until`` stops after the event with that seq
    (or, in a log without seq, after that 0-based event index). ``finish_log=False`` leaves a
    pending power pending (a writer appends after the last line; see ``log.append``).
    A chained log's ``h`` fields are checked first on every line (``log.chain``).

    This is the hot loop of ``replay``, ``validate`` and ``load``. A log without a hash chain
    is decoded whole, in one msgspec call (``fastdecode.fast_body``), and its events applied
    in one tight loop; a log that path cannot vouch for is read line by line, each line by
    msgspec unless it is unusual, then by the exact reader. Both give the same result.
    """
    text = strip_bom(data)
    head, newline, body = text.partition(b"\n")
    # None for a chained log; a header that may declare its chain is read line by line too
    # (where a bad declaration is reported at line 1)
    declares = b'"chain"' in head or b"\\" in head
    decoded = None if not head.strip() or declares else fast_body(body)
    if decoded is None:
        return _replay_lines(data, file, until, visitor, finish_log)
    events = decoded[0]
    # The lines the line-by-line reading counts, without counting the bytes again: the
    # header's, and then fast_body's whole lines (one event each) and a last, empty one.
    lines = 1 + len(newline) + (len(events) - 1 + body.endswith(b"\n") if events else 0)
    return _replay_decoded(head, events, decoded[1], lines, file, until, visitor, finish_log)


def _replay_decoded(head: bytes, events: list[Event], stamps: list[Stamp], lines: int,
                    file: str | None, until: int | None, visitor: ReplayVisitor[Any] | None,
                    finish_log: bool) -> ReplayResult:
    """The replay of a header line and the events of the lines after it (line 2 on, no blank
    lines; ``stamps`` their ``t``, or empty when none has one), applied by
    ``fastlines.apply_events``; ``lines`` is what the line-by-line reading counts (a trailing
    newline starts one more, empty, line)."""
    state: GameState | None = None
    number = 1
    try:
        header, t = _read_stamped(head)
        if not isinstance(header, GameStart):
            raise LogSyntaxError("no_header", "the first line must be the 'game' header")
        state = new_game(header)
        if visitor is not None:
            if t is not None:
                visitor.stamp(number, t)
            visitor.begin(state, header)
        if until is not None and _index(header, state) >= until:
            return ReplayResult(file, state, None, number)
        number, stopped, error = apply_events(state, events, stamps, visitor, until)
        if error is not None:
            raise error
        if stopped:
            return ReplayResult(file, state, None, number)
        number = lines
        if finish_log:
            finish(state)
        if visitor is not None:
            visitor.end(state)
        return ReplayResult(file, state, None, number)
    except CaboLogError as exc:
        error = exc.located(file, number)
        if visitor is not None:
            visitor.handle_error(error, state)
        return ReplayResult(file, state, error, number)


def _replay_lines(data: bytes, file: str | None, until: int | None,
                  visitor: ReplayVisitor[Any] | None, finish_log: bool) -> ReplayResult:
    """The replay line by line: the hash chain checked first on each line, each line read by
    ``fast_decode`` or, when it cannot vouch for it, the exact reader."""
    text = strip_bom(data)
    state: GameState | None = None
    number = 0
    fast = fast_decode
    previous = b""
    chained: bool | None = None
    try:
        for number, raw in enumerate(text.split(b"\n"), start=1):
            if state is not None and (chained is not False or may_have_link(raw)):
                chained = check_line(previous, raw, chained)  # the chain first (log.chain)
            decoded = fast(raw)
            if decoded is not None:
                event, t = decoded[0], decoded[2]
            else:
                if not raw.strip():
                    continue  # blank lines are skipped
                event, t = _read_stamped(raw)  # the same event, or the precise syntax error
            previous = raw
            if state is not None:
                done = apply(state, event)
                if visitor is not None:
                    if t is not None:
                        visitor.stamp(number, t)
                    visitor.event(number, event, state, done)
            else:
                if not isinstance(event, GameStart):
                    raise LogSyntaxError("no_header", "the first line must be the 'game' header")
                state = new_game(event)
                previous = as_stored(data, number, raw)   # line 1 keeps a BOM (log.chain)
                if declares_chain(raw):
                    chained = True   # every later line must carry its h (format 1.1)
                if visitor is not None:
                    if t is not None:
                        visitor.stamp(number, t)
                    visitor.begin(state, event)
            if until is not None and _index(event, state) >= until:
                return ReplayResult(file, state, None, number, _head(previous, chained))
        if state is None:
            number = 1
            raise LogSyntaxError("empty_log", "the log has no lines")
        if finish_log:
            finish(state)
        if visitor is not None:
            visitor.end(state)
        return ReplayResult(file, state, None, number, _head(previous, chained))
    except CaboLogError as exc:
        error = exc.located(file, number)
        if visitor is not None:
            visitor.handle_error(error, state)
        return ReplayResult(file, state, error, number)


def _read_stamped(raw: bytes) -> tuple[Event, int | float | str | None]:
    """The exact reader's event of one line and the line's ``t`` (checked by
    ``parse_object``: a number or a string), from the one decoding."""
    obj = decode_line(raw)
    event = parse_object(obj)
    return event, obj.get("t") if type(obj) is dict else None


def _head(last: bytes, chained: bool | None) -> str | None:
    return line_hash(last) if chained else None


def _index(event: Event, state: GameState) -> int:
    return event.seq if event.seq is not None else state.events - 1


def replay_file(path: str | os.PathLike[str], *, until: int | None = None,
                visitor: ReplayVisitor[Any] | None = None) -> ReplayResult:
    """Replay one log file; an unreadable file is reported like any other bad log."""
    name = str(path)
    try:
        data = read_bytes(path)
    except OSError as exc:
        err = LogSyntaxError("unreadable", f"cannot read the file ({exc.strerror or exc})")
        located = err.located(name, 0)
        if visitor is not None:
            visitor.handle_error(located, None)
        return ReplayResult(name, None, located)
    return replay_bytes(data, name, until=until, visitor=visitor)


def visit_bytes(data: bytes, visitor: ReplayVisitor[T], file: str | None = None) -> T:
    """Replay a log held in memory through ``visitor`` and return what it built."""
    replay_bytes(data, file, visitor=visitor)
    return visitor.result()


def visit_file(path: str | os.PathLike[str], visitor: ReplayVisitor[T]) -> T:
    """``visit_bytes`` for a log file (an unreadable one goes to ``handle_error``)."""
    replay_file(path, visitor=visitor)
    return visitor.result()
