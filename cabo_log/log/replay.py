"""Replaying a log: header -> state, then every event through ``engine.apply``.

Strict by default (the first bad line stops the replay and is reported) yet never empty-handed:
like python-chess's ``GameBuilder``, the result keeps the state reached before the error.
Readers that need every step (loader, timeline) pass a ``ReplayVisitor``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from cabo_log.log.decode import decode_log
from cabo_log.log.fastlines import apply_events
from cabo_log.log.logfile import read_bytes
from engine import (
    CaboLogError,
    Event,
    GameStart,
    GameState,
    LogSyntaxError,
    Outcome,
    finish,
    new_game,
)
from engine.vocabulary import DRAWN, POWER, TURN_START

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
            "round": g.round_no(), "turn": g.turn(), "to_play": g.players[g.to_act()],
            "phase": g.phase, "caller": g.caller_name(),
            "rows": {g.players[p]: g.row_codes(p) for p in g.active_participants()},
            "discard_top": g.discard_top(), "deck_size": g.deck_size(),
        }
    active = [p for i, p in enumerate(g.players) if not g.active[i]]
    if active:
        report["forfeited"] = active
    return report


def replay_bytes(data: bytes, file: str | None = None, *, until: int | None = None,
                 visitor: ReplayVisitor[Any] | None = None,
                 finish_log: bool = True, line_by_line: bool = False) -> ReplayResult:
    """Replay a whole log held in memory; ``until`` stops after the event with that seq
    (or, in a log without seq, after that 0-based event index). ``finish_log=False`` leaves a
    pending power pending (a writer appends after the last line; see ``log.append``).
    A chained log's ``h`` fields are checked first on every line (``log.chain``).

    This is the hot loop of ``replay``, ``validate`` and ``load``: the log is read into events
    by ``decode.decode_log`` (the fast path inside it; ``line_by_line`` reads every line by
    itself, the reference it is tested against), and they are applied in one loop,
    ``fastlines.apply_events``; a line that could not be read is reported after the events
    before it were applied.
    """
    log = decode_log(data, line_by_line=line_by_line)
    state: GameState | None = None
    number = log.header_line
    try:
        header = log.header
        if header is None:
            assert log.error is not None
            number = log.error_line
            raise log.error
        state = new_game(header)
        if log.error is not None and log.error_line == number:
            raise log.error   # the header itself is at fault (a bad chain declaration)
        if visitor is not None:
            if log.header_t is not None:
                visitor.stamp(number, log.header_t)
            visitor.begin(state, header)
        if until is not None and _index(header, state) >= until:
            return ReplayResult(file, state, None, number)   # no line after it read: no head
        reached, stopped, error = apply_events(state, log.events, log.stamps, visitor, until,
                                               log.numbers)
        if reached:
            number = log.line_of(reached - 1)
        if error is not None:
            raise error
        if stopped:
            return ReplayResult(file, state, None, number, log.head(reached - 1))
        if log.error is not None:
            number = log.error_line
            raise log.error
        number = log.lines
        if finish_log:
            finish(state)
        if visitor is not None:
            visitor.end(state)
        return ReplayResult(file, state, None, number, log.head(len(log.events) - 1))
    except CaboLogError as exc:
        error = _torn(exc, data, number).located(file, number)
        if visitor is not None:
            visitor.handle_error(error, state)
        return ReplayResult(file, state, error, number)


TORN_HINT = ("; the last line has no newline at its end, so it looks torn (a writer stopped in "
             "the middle of it): 'cabo-log repair' cuts it off")


def _torn(exc: CaboLogError, text: bytes, number: int) -> CaboLogError:
    """A last line that does not read and has no newline was most likely cut off by a crashed
    writer: the error says so, and what mends it (the code stays the line's own)."""
    if exc.code in ("bad_json", "not_utf8") and not text.endswith(b"\n") \
            and number == text.count(b"\n") + 1 and TORN_HINT not in exc.message:
        return type(exc)(exc.code, exc.message + TORN_HINT, exc.line, exc.file)
    return exc


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
