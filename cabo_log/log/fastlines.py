"""The per-line half of the whole-body fast path: decoded lines -> the engine's events, the
number of keys they were decoded from, and the loop that applies them.

Compiled by the optional mypyc build (``APP_MODULES`` in tools/build_compiled.py; the pure
module is the default and gives the same results, tests/test_compiled.py): here every line
costs a few native calls, where the interpreted loop cost an interpreted frame, a dict lookup
and a generic call per line. The msgspec structs stay in ``fastdecode`` (Python classes with
their own metaclass); this module reads a line through ``msgspec.structs.astuple`` (one C call,
then plain tuple indexing), never through the struct's attributes.

The key count is what ``fastdecode.fast_body`` compares with the ``":`` of the bytes to prove
that no line repeats a key (the proof is there). A line's keys, when none was dropped: its
``type``, every field that is not at its default (``None``, or ``false`` for ``auto``), and
every entry of its dicts (``hands``, ``points``, ``scores``).
"""

from __future__ import annotations

from typing import Any, Final

from msgspec.structs import astuple

from engine.errors import CaboLogError
from engine.events import (
    Cabo,
    Deal,
    Discard,
    Draw,
    Event,
    Forfeit,
    GameEnd,
    Peek,
    Power,
    Replace,
    Reshuffle,
    RoundEnd,
    Skip,
    Snap,
)
from engine.game import apply
from engine.state import GameState

Stamp = int | float | str | None

COMMON: Final = ("seq", "auto", "t", "h")
"""The fields every decoded line starts with, in this order (``fastdecode._Line``: its structs
are all ``kw_only``, so msgspec keeps the base's fields first), at indexes 0 to 3."""

LAYOUT: Final[dict[str, tuple[str, ...]]] = {
    Draw.TYPE: ("player", "source", "card"),
    Replace.TYPE: ("player", "positions", "into", "end"),
    Discard.TYPE: ("player",),
    Power.TYPE: ("player", "power", "target", "cards"),
    Peek.TYPE: ("player", "positions"),
    Skip.TYPE: ("player",),
    Cabo.TYPE: ("player",),
    Snap.TYPE: ("player", "position"),
    Deal.TYPE: ("round", "first", "hands", "discard", "deck"),
    RoundEnd.TYPE: ("round", "points"),
    GameEnd.TYPE: ("winners", "scores"),
    Reshuffle.TYPE: ("deck",),
    Forfeit.TYPE: ("player", "reason"),
}
"""Each line type's own fields, after ``COMMON``, in the struct's order (from index 4): the
indexes the builders below read (``fastdecode`` checks its structs against this when it is
imported)."""

KIND: Final[dict[str, int]] = {tag: number for number, tag in enumerate(LAYOUT)}
"""Line type -> its place in ``LAYOUT`` (most frequent first), which ``events_of`` branches
on."""


def events_of(lines: list[Any], structs: tuple[type, ...],
              ) -> tuple[list[Event], list[Stamp], int] | None:
    """The engine's event and the ``t`` of every decoded line (no list at all, ``[]``, when
    no line has one), and the keys they hold;
    ``structs`` are the struct classes in ``KIND`` order. None when a line carries a hash
    ``h`` (a chained log is read line by line, where each line's link is checked first) or
    is a power whose ``target`` and ``cards`` do not fit it (``power_fits``)."""
    events: list[Event] = []
    stamps: list[Stamp] = []
    keys = 0
    to_tuple = astuple   # a local: a module's imported name is a dict lookup on each use
    draw, replace, discard, power, peek = structs[0], structs[1], structs[2], structs[3], \
        structs[4]
    for line in lines:
        v: tuple[Any, ...] = to_tuple(line)   # seq, auto, t, h, then the own fields
        if v[3] is not None:
            return None
        seq, auto, t = v[0], v[1], v[2]
        keys += 1 + (seq is not None) + (auto is True) + (t is not None)
        cls = type(line)
        if cls is draw:
            events.append(Draw(seq, auto, v[4], v[5], v[6]))
            keys += 2 + (v[6] is not None)
        elif cls is replace:
            events.append(Replace(seq, auto, v[4], v[5], v[6], v[7]))
            keys += 2 + (v[6] is not None) + (v[7] is not None)
        elif cls is discard:
            events.append(Discard(seq, auto, v[4]))
            keys += 1
        elif cls is power:
            if not power_fits(v[5], v[6], v[7]):
                return None
            events.append(Power(seq, auto, v[4], v[5], v[6], v[7]))
            keys += 2 + (v[6] is not None) + (v[7] is not None)
        elif cls is peek:
            events.append(Peek(seq, auto, v[4], v[5]))
            keys += 2
        else:
            keys += _rare(cls, structs, v, seq, auto, events)
        if t is not None:   # most logs have no ``t``: then no list of Nones is built at all
            while len(stamps) < len(events) - 1:
                stamps.append(None)
            stamps.append(t)
    if stamps:
        while len(stamps) < len(events):
            stamps.append(None)
    return events, stamps, keys


def power_fits(power: str, target: object, cards: object) -> bool:
    """Whether a decoded power line holds what its power takes: a swap its two ``cards`` and
    no ``target``, a peek or spy a ``target`` and no ``cards``. Any other mix is the exact
    reader's to word or to read (the fast path would build another event from it)."""
    swap = power == "swap"
    return (cards is not None) == swap and (target is None) == swap


def _rare(cls: type, structs: tuple[type, ...], v: tuple[Any, ...], seq: int | None,
          auto: bool, events: list[Event]) -> int:
    """``events_of`` for the line types seen a few times per round: appends the event,
    returns the keys of its own fields."""
    if cls is structs[5]:
        events.append(Skip(seq, auto, v[4]))
        return 1
    if cls is structs[6]:
        events.append(Cabo(seq, auto, v[4]))
        return 1
    if cls is structs[7]:
        events.append(Snap(seq, auto, v[4], v[5]))
        return 2
    if cls is structs[8]:
        events.append(Deal(seq, auto, v[4], v[5], v[6], v[7], v[8]))
        return 5 + len(v[6])
    if cls is structs[9]:
        events.append(RoundEnd(seq, auto, v[4], v[5]))
        return 2 + len(v[5])
    if cls is structs[10]:
        events.append(GameEnd(seq, auto, v[4], v[5]))
        return 2 + len(v[5])
    if cls is structs[11]:
        events.append(Reshuffle(seq, auto, v[4]))
        return 1
    events.append(Forfeit(seq, auto, v[4], v[5]))
    return 1 + (v[5] is not None)


def apply_events(state: GameState, events: list[Event], stamps: list[Stamp], visitor: Any,
                 until: int | None) -> tuple[int, bool, CaboLogError | None]:
    """Apply the events of lines 2, 3, ... in order (``stamps`` their ``t``, or empty when none
    has one): (the number of the last line reached,
    whether ``until`` stopped the replay there, the error that rejected that line or None).
    ``visitor`` is the replay's ``ReplayVisitor`` or None."""
    number = 1
    try:
        for event in events:
            number += 1
            done = apply(state, event)
            if visitor is not None:
                if stamps:
                    t = stamps[number - 2]
                    if t is not None:
                        visitor.stamp(number, t)
                visitor.event(number, event, state, done)
            if until is not None:
                seq = event.seq
                if (seq if seq is not None else state.events - 1) >= until:
                    return number, True, None
    except CaboLogError as exc:
        return number, False, exc
    return number, False, None
