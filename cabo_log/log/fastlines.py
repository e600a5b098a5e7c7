"""The hand-written half of the whole-body fast path: the bytes a value takes written
canonically (``int_size``, ...: what ``line_events.events_of``, written from the spec, adds up
per line), the number of keys decoded lines were read from (``keys_of``), and the loop that
applies the events.

Compiled by the mypyc build with ``line_events`` (``APP_MODULES`` in setup.py;
the pure module gives the same results, tests/test_compiled.py): there every line costs a few
native calls. The msgspec structs stay Python classes (``fast_structs``); a line is read
through ``msgspec.structs.astuple`` (one C call, then plain tuple indexing).

The size is what ``fastdecode.fast_body`` compares with the length of the body to prove
that no line repeats a key, has one of no field or spells a default out (the proof is there);
it spares two passes over the bytes (counting the newlines and the colons). The key count
(``keys_of``) is the proof when the sizes differ (a line not written canonically): a line's
keys, when none was dropped, are its ``type``, every field that is not at its default
(``None``, or ``false`` for ``auto``), and every entry of its dicts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from msgspec.structs import astuple

from engine.errors import CaboLogError
from engine.events import Event
from engine.game import apply
from engine.outcome import Outcome
from engine.state import GameState

if TYPE_CHECKING:
    from mypy_extensions import i64  # compiled: a machine integer (annotations only)

Stamp = int | float | str | None

MAX_SEQ: Final = 2**62 - 1
"""The largest ``seq`` the fast path takes (the largest int a compiled module holds unboxed);
a larger one goes the exact way."""


def keys_of(lines: list[Any]) -> int:
    """The keys the decoded lines were read from, if none was dropped (the other proof of
    ``fastdecode.fast_body``): each line's ``type``, every field not at its default (None, or
    false for ``auto``: no other field can be false) and every entry of its dicts."""
    keys = 0
    for line in lines:
        keys += 1
        for value in astuple(line):
            if value is not None and value is not False:
                keys += 1
                if isinstance(value, dict):
                    keys += len(value)
    return keys


# --- the canonical size of a value ---------------------------------------------------------
# What a value takes in a line written compactly (``fastdecode.fast_body`` compares the sum with
# the bytes; the argument is there), each string counted by its characters (at most its UTF-8
# bytes).

def int_size(n: int) -> i64:
    """The digits of ``n`` written in JSON (a minus sign first when negative)."""
    if n < 0:
        return 1 + int_size(-n)
    if n < 10:
        return 1
    if n < 100:
        return 2
    if n < 1000:
        return 3
    if n < 10000:
        return 4
    return len(str(n))


def ints_size(items: tuple[int, ...]) -> i64:
    """``[1,2]``: the brackets, the commas and the numbers."""
    size: i64 = 1 + len(items) if items else 2
    for n in items:
        size += int_size(n)
    return size


def strs_size(items: tuple[str, ...]) -> i64:
    size: i64 = 1 + 3 * len(items) if items else 2
    for s in items:
        size += len(s)
    return size


def slot_size(slot: tuple[str, int]) -> i64:
    """``["ana",0]``."""
    name: str = slot[0]
    return 5 + len(name) + int_size(slot[1])


def hands_size(hands: dict[str, tuple[str, ...]]) -> i64:
    """``{"ana":["1","2"],...}``."""
    size: i64 = 1 + len(hands) if hands else 2
    for name, cards in hands.items():
        size += len(name) + 3 + strs_size(cards)
    return size


def points_size(scores: dict[str, int]) -> i64:
    size: i64 = 1 + len(scores) if scores else 2
    for name, score in scores.items():
        size += len(name) + 3 + int_size(score)
    return size


class EventProjector:
    """The per-event hook of a visitor that ``apply_events`` calls natively: a visitor whose
    ``projector`` attribute is one declares that its ``event`` is this object's ``event``
    (``rows.RowCollector``, whose ``GameRows`` is one). Compiled, the call is a direct C call
    with machine arguments, where ``visitor.event(...)`` is a method looked up by name, its
    arguments boxed and parsed again (as much as a fifth of the rows' own work)."""

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        """After an event was applied (``state`` is the state after it)."""
        raise NotImplementedError


def projector_of(visitor: Any) -> EventProjector | None:
    """The ``EventProjector`` that stands for ``visitor.event``, if the visitor has one."""
    found = getattr(visitor, "projector", None) if visitor is not None else None
    return found if isinstance(found, EventProjector) else None


def apply_events(state: GameState, events: list[Event], stamps: list[Stamp], visitor: Any,
                 until: int | None, numbers: list[int]) -> tuple[int, bool, CaboLogError | None]:
    """The replay loop: apply the events in order, on the lines ``numbers`` (empty: lines 2,
    3, ...), ``stamps`` their ``t`` (or empty when none has one): (how many events were
    reached, whether ``until`` stopped the replay at the last of them, the error that rejected
    it or None). ``visitor`` is the replay's ``ReplayVisitor`` or None; its ``event`` is
    called through its ``projector`` when it has one (``projector_of``: compiled, a direct
    call)."""
    projector = projector_of(visitor)
    reached = 0
    try:
        for event in events:
            reached += 1
            done = apply(state, event)
            if visitor is not None:
                number = numbers[reached - 1] if numbers else reached + 1
                if stamps:
                    t = stamps[reached - 1]
                    if t is not None:
                        visitor.stamp(number, t)
                if projector is not None:
                    projector.event(number, event, state, done)
                else:
                    visitor.event(number, event, state, done)
            if until is not None:
                seq = event.seq
                if (seq if seq is not None else state.events - 1) >= until:
                    return reached, True, None
    except CaboLogError as exc:
        return reached, False, exc
    return reached, False, None
