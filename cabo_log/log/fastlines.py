"""The per-line half of the whole-body fast path: decoded lines -> the engine's events, the
size of the lines written canonically (or the number of keys they were decoded from), and
the loop that applies them.

Compiled in the compiled build (``APP_MODULES`` in setup.py; the pure module gives the same
results, tests/test_compiled.py): there every line costs a few native calls, where the
interpreted loop costs an interpreted frame, a dict lookup and a generic call per line. The
msgspec structs stay in ``fastdecode`` (Python classes with their own metaclass); this module
reads a line through ``msgspec.structs.astuple`` (one C call, then plain tuple indexing), never
through the struct's attributes.

The size is what ``fastdecode.fast_body`` compares with the length of the body to prove
that no line repeats a key, has one of no field or spells a default out (the proof is there):
worked out in the loop that builds the events (a length or a few digits per field), it spares
two passes over the bytes (counting the newlines and the colons), which cost several times
more. The key count (``keys_of``) is the proof when the
sizes differ (a line not written canonically): a line's keys, when none was dropped, are
its ``type``, every field that is not at its default (``None``, or ``false`` for ``auto``),
and every entry of its dicts (``hands``, ``points``, ``scores``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

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
from engine.outcome import Outcome
from engine.state import GameState

if TYPE_CHECKING:
    from mypy_extensions import i64  # compiled: a machine integer (annotations only)

Stamp = int | float | str | None

COMMON: Final = ("seq", "auto")
"""The fields every decoded line starts with, in this order (``fastdecode._Line``: its structs
are all ``kw_only``, so msgspec keeps the base's fields first), at indexes 0 and 1."""

STAMPS: Final = ("t", "h")
"""The fields a stamped struct (``fastdecode._stamped``) has after its own, the last two."""

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
"""Each line type's own fields, after ``COMMON``, in the struct's order (from index 2): the
indexes the builders below read (``fastdecode`` checks its structs against this when it is
imported)."""

KIND: Final[dict[str, int]] = {tag: number for number, tag in enumerate(LAYOUT)}
"""Line type -> its place in ``LAYOUT`` (most frequent first), which ``events_of`` branches
on."""


def events_of(lines: list[Any], structs: tuple[type, ...], stamped: bool, body: bytes = b"",
              ) -> tuple[list[Event], list[Stamp], int, bool] | None:
    """The engine's event and the ``t`` of every decoded line (no list at all, ``[]``, when
    no line has one), the size of the lines written canonically (``fastdecode.fast_body``'s
    proof; -1 when a line has a ``t``, whose float could be written in several ways), and
    whether ``body`` (the bytes the lines were decoded from) has a newline where each line
    would end if every line before it were canonical and ended with one.
    ``structs`` are the struct classes in ``KIND`` order, the ``stamped`` ones (with ``t`` and
    ``h`` last) or the lean ones. None when a line carries a hash ``h`` (a chained log is read
    line by line, where each line's link is checked first), is a power whose ``target`` and
    ``cards`` do not fit it (``power_fits``), or has a ``seq`` out of 0 to 2**62 - 1 (the lean
    structs do not bound it: the stamped ones and the exact reader judge it)."""
    events: list[Event] = []
    stamps: list[Stamp] = []
    size: i64 = 0
    timed = False
    aligned = True
    ends: i64 = 0      # the newlines before the line (one per line before it)
    length: i64 = len(body)
    to_tuple = astuple   # a local: a module's imported name is a dict lookup on each use
    draw, replace, discard, power, peek = structs[0], structs[1], structs[2], structs[3], \
        structs[4]
    t: Stamp = None
    for line in lines:
        v: tuple[Any, ...] = to_tuple(line)   # seq, auto, the own fields (then t, h)
        if stamped:
            if v[-1] is not None:
                return None
            t = v[-2]
        seq: int | None = v[0]   # typed: compiled, its compares are machine compares
        auto: bool = v[1]
        if seq is not None:
            if not 0 <= seq <= _MAX_SEQ:
                return None
            size += _SEQ + _int_size(seq)
        if auto is True:
            size += _AUTO
        cls = type(line)
        if cls is draw:
            player: str = v[2]
            source: str = v[3]
            events.append(Draw(seq, auto, player, source, v[4]))
            size += _DRAW + len(player) + len(source)
            if v[4] is not None:
                card: str = v[4]
                size += _CARD + len(card)
        elif cls is replace:
            player = v[2]
            events.append(Replace(seq, auto, player, v[3], v[4], v[5]))
            size += _REPLACE + len(player) + _ints_size(v[3])
            if v[4] is not None:
                size += _INTO + _int_size(v[4])
            if v[5] is not None:
                end: str = v[5]
                size += _END + len(end)
        elif cls is discard:
            player = v[2]
            events.append(Discard(seq, auto, player))
            size += _DISCARD + len(player)
        elif cls is power:
            if not power_fits(v[3], v[4], v[5]):
                return None
            player = v[2]
            kind: str = v[3]
            events.append(Power(seq, auto, player, kind, v[4], v[5]))
            size += _POWER + len(player) + len(kind) + (
                _TARGET + _slot_size(v[4]) if v[5] is None
                else _CARDS + _slot_size(v[5][0]) + _slot_size(v[5][1]))
        elif cls is peek:
            player = v[2]
            events.append(Peek(seq, auto, player, v[3]))
            size += _PEEK + len(player) + _ints_size(v[3])
        else:
            size += _rare(cls, structs, v, seq, auto, events)
        if aligned:   # (the last line's end may be the end of the body: no newline there)
            at = size + ends
            aligned = at == length or (at < length and body[at] == 10)
            ends += 1
        if t is not None:   # most logs have no ``t``: then no list of Nones is built at all
            timed = True
            while len(stamps) < len(events) - 1:
                stamps.append(None)
            stamps.append(t)
    if stamps:
        while len(stamps) < len(events):
            stamps.append(None)
    return events, stamps, -1 if timed else size, aligned


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


def power_fits(power: str, target: object, cards: object) -> bool:
    """Whether a decoded power line holds what its power takes: a swap its two ``cards`` and
    no ``target``, a peek or spy a ``target`` and no ``cards``. Any other mix is the exact
    reader's to word or to read (the fast path would build another event from it)."""
    swap = power == "swap"
    return (cards is not None) == swap and (target is None) == swap


def _rare(cls: type, structs: tuple[type, ...], v: tuple[Any, ...], seq: int | None,
          auto: bool, events: list[Event]) -> i64:
    """``events_of`` for the line types seen a few times per round: appends the event,
    returns the size of the line short of its ``seq`` and ``auto``."""
    if cls is structs[5]:
        events.append(Skip(seq, auto, v[2]))
        return _SKIP + _str_size(v[2])
    if cls is structs[6]:
        events.append(Cabo(seq, auto, v[2]))
        return _CABO + _str_size(v[2])
    if cls is structs[7]:
        events.append(Snap(seq, auto, v[2], v[3]))
        return _SNAP + _str_size(v[2]) + _int_size(v[3])
    if cls is structs[8]:
        events.append(Deal(seq, auto, v[2], v[3], v[4], v[5], v[6]))
        return (_DEAL + _int_size(v[2]) + _str_size(v[3]) + _hands_size(v[4])
                + _str_size(v[5]) + _strs_size(v[6]))
    if cls is structs[9]:
        events.append(RoundEnd(seq, auto, v[2], v[3]))
        return _ROUND_END + _int_size(v[2]) + _scores_size(v[3])
    if cls is structs[10]:
        events.append(GameEnd(seq, auto, v[2], v[3]))
        return _GAME_END + _strs_size(v[2]) + _scores_size(v[3])
    if cls is structs[11]:
        events.append(Reshuffle(seq, auto, v[2]))
        return _RESHUFFLE + _strs_size(v[2])
    events.append(Forfeit(seq, auto, v[2], v[3]))
    if v[3] is None:
        return _FORFEIT + _str_size(v[2])
    return _FORFEIT + _str_size(v[2]) + _REASON + _str_size(v[3])


# --- the canonical size of a line ----------------------------------------------------------
# What ``fastdecode.fast_body`` compares with the bytes (the argument is there): the length of
# the line written compactly from its decoded values, the keys in any order, each string
# counted by its characters (at most its UTF-8 bytes).

def _int_size(n: int) -> i64:
    """The digits of ``n`` written in JSON (a minus sign first when negative)."""
    if n < 0:
        return 1 + _int_size(-n)
    if n < 10:
        return 1
    if n < 100:
        return 2
    if n < 1000:
        return 3
    if n < 10000:
        return 4
    return len(str(n))


def _str_size(s: str) -> i64:
    return len(s) + 2


def _ints_size(items: tuple[int, ...]) -> i64:
    """``[1,2]``: the brackets, the commas and the numbers."""
    size: i64 = 1 + len(items) if items else 2
    for n in items:
        size += _int_size(n)
    return size


def _strs_size(items: tuple[str, ...]) -> i64:
    size: i64 = 1 + 3 * len(items) if items else 2
    for s in items:
        size += len(s)
    return size


def _slot_size(slot: tuple[str, int]) -> i64:
    """``["ana",0]``."""
    name: str = slot[0]
    return 5 + len(name) + _int_size(slot[1])


def _hands_size(hands: dict[str, tuple[str, ...]]) -> i64:
    """``{"ana":["1","2"],...}``."""
    size: i64 = 1 + len(hands) if hands else 2
    for name, cards in hands.items():
        size += len(name) + 3 + _strs_size(cards)
    return size


def _scores_size(scores: dict[str, int]) -> i64:
    size: i64 = 1 + len(scores) if scores else 2
    for name, score in scores.items():
        size += len(name) + 3 + _int_size(score)
    return size


_MAX_SEQ: Final = 2**62 - 1   # the largest int a compiled module holds unboxed
# The fixed bytes of each kind of line and of each optional field (literals: compiled, each
# is a machine constant), tests/test_decode.py checks them against real lines.
_SEQ: Final = 7          # ,"seq":
_AUTO: Final = 12        # ,"auto":true
_CARD: Final = 10        # ,"card":""
_INTO: Final = 8         # ,"into":
_END: Final = 9          # ,"end":""
_TARGET: Final = 10      # ,"target":
_CARDS: Final = 12       # ,"cards":[,]
_REASON: Final = 10      # ,"reason":
_DRAW: Final = 39        # {"type":"draw","player":"","source":""}
_REPLACE: Final = 43     # {"type":"replace","player":"","positions":}
_DISCARD: Final = 30     # {"type":"discard","player":""}
_POWER: Final = 39       # {"type":"power","player":"","power":""}
_PEEK: Final = 40        # {"type":"peek","player":"","positions":}
_SKIP: Final = 25        # {"type":"skip","player":}
_CABO: Final = 25        # {"type":"cabo","player":}
_SNAP: Final = 37        # {"type":"snap","player":,"position":}
_DEAL: Final = 61        # {"type":"deal","round":,"first":,"hands":,"discard":,"deck":}
_ROUND_END: Final = 39   # {"type":"round_end","round":,"points":}
_GAME_END: Final = 40    # {"type":"game_end","winners":,"scores":}
_RESHUFFLE: Final = 28   # {"type":"reshuffle","deck":}
_FORFEIT: Final = 28     # {"type":"forfeit","player":}


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
                 until: int | None) -> tuple[int, bool, CaboLogError | None]:
    """Apply the events of lines 2, 3, ... in order (``stamps`` their ``t``, or empty when none
    has one): (the number of the last line reached,
    whether ``until`` stopped the replay there, the error that rejected that line or None).
    ``visitor`` is the replay's ``ReplayVisitor`` or None (its ``event`` called through its
    ``projector`` when it has one: ``projector_of``)."""
    projector = projector_of(visitor) if until is None else None
    if projector is not None:
        return _apply_projected(state, events, stamps, visitor, projector)
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


def _apply_projected(state: GameState, events: list[Event], stamps: list[Stamp], visitor: Any,
                     projector: EventProjector) -> tuple[int, bool, CaboLogError | None]:
    """``apply_events`` without ``until``, each event handed to ``projector`` (the visitor's
    ``event``), its ``t`` first to the visitor's ``stamp``, as there."""
    number = 1
    try:
        for event in events:
            number += 1
            done = apply(state, event)
            if stamps:
                t = stamps[number - 2]
                if t is not None:
                    visitor.stamp(number, t)
            projector.event(number, event, state, done)
    except CaboLogError as exc:
        return number, False, exc
    return number, False, None
