"""The simulator's recorder: an event stamped with its line's ``seq`` and written as the line's
JSON object, in one step per event.

``engine.events.to_dict`` is general (any event, walked field by field with ``getattr``); the
simulator records every event it makes, by its type and its field values (after ``seq`` and
``auto``), so ``stamp_fields`` builds the stamped event (by its constructor: a native class in
the compiled engine) and its line together from those values, with no attribute read at all.
Compiled with the simulator (tools/build_compiled.py). The lines are the same objects, key for
key and in the same order, as ``to_dict`` gives (``tests/test_moveset.py`` compares them;
``tests/test_simulate.py`` keeps the output byte-identical).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, Final

import orjson

from engine.events import (
    Cabo,
    Discard,
    Draw,
    Event,
    GameStart,
    Peek,
    Power,
    Replace,
    Skip,
    field_names,
)

Line = dict[str, Any]
Fields = Callable[[Event], tuple[Any, ...]]

PLANS: Final[dict[type, tuple[tuple[str, ...], Fields]]] = {}
"""By event type: (its field names after ``seq`` and ``auto``, a getter of those fields);
``plan`` fills it."""


def plan(kind: type[Event]) -> tuple[tuple[str, ...], Fields]:
    """(the field names of ``kind`` after ``seq`` and ``auto``, the getter of an event's values
    of them), made on first use."""
    found = PLANS.get(kind)
    if found is None:
        if kind is GameStart:
            raise TypeError("the header is written by the simulator itself")
        names = field_names(kind)[2:]
        getter: Fields = (attrgetter(*names) if len(names) > 1
                          else _single(names[0]))
        found = PLANS[kind] = (names, getter)
    return found


def _single(name: str) -> Fields:
    """The getter of a one-field event, as a 1-tuple (``attrgetter`` of one name is not)."""
    get = attrgetter(name)
    return lambda e: (get(e),)


def stamp_fields(kind: type[Event], seq: int | None, auto: bool, values: tuple[Any, ...]
                 ) -> tuple[Event, Line]:
    """(the event of type ``kind`` with this ``seq``, ``auto`` and field ``values``, its log
    line as a dict: ``type``, ``seq``, the fields that are not None, ``auto`` when set)."""
    names = (PLANS.get(kind) or plan(kind))[0]
    event = make_event(kind, seq, auto, values)
    line: Line = {"type": kind.TYPE, "seq": seq}
    for i in range(len(names)):
        value = values[i]
        if value is not None:
            line[names[i]] = _plain(value) if isinstance(value, (tuple, dict)) else value
        elif names[i] in kind.NULLABLE:
            line[names[i]] = None
    if auto:
        line["auto"] = True
    return event, line


# The constructors of the events made on every decision, called directly (compiled: a native
# constructor call, not the generic call of a class object with unpacked arguments).
def _draw(seq: int | None, auto: bool, v: tuple[Any, ...]) -> Event:
    return Draw(seq, auto, v[0], v[1], v[2])


def _discard(seq: int | None, auto: bool, v: tuple[Any, ...]) -> Event:
    return Discard(seq, auto, v[0])


def _replace(seq: int | None, auto: bool, v: tuple[Any, ...]) -> Event:
    return Replace(seq, auto, v[0], v[1], v[2], v[3])


def _power(seq: int | None, auto: bool, v: tuple[Any, ...]) -> Event:
    return Power(seq, auto, v[0], v[1], v[2], v[3])


def _skip(seq: int | None, auto: bool, v: tuple[Any, ...]) -> Event:
    return Skip(seq, auto, v[0])


def _cabo(seq: int | None, auto: bool, v: tuple[Any, ...]) -> Event:
    return Cabo(seq, auto, v[0])


def _peek(seq: int | None, auto: bool, v: tuple[Any, ...]) -> Event:
    return Peek(seq, auto, v[0], v[1])


_MAKE: Final[dict[type, Callable[[int | None, bool, tuple[Any, ...]], Event]]] = {
    Draw: _draw, Discard: _discard, Replace: _replace, Power: _power, Skip: _skip,
    Cabo: _cabo, Peek: _peek}


def make_event(kind: type[Event], seq: int | None, auto: bool, values: tuple[Any, ...]
               ) -> Event:
    """The event of type ``kind`` with this ``seq``, ``auto`` and field ``values``."""
    make = _MAKE.get(kind)
    return make(seq, auto, values) if make is not None else kind(seq, auto, *values)


def line_bytes(kind: type[Event], seq: int, auto: bool, values: tuple[Any, ...]
               ) -> bytes | None:
    """The line of a decision's event (a draw, discard, replacement, power, skip, Cabo call or
    peek), written out as bytes: exactly ``orjson.dumps`` of ``stamp_fields``'s line, without
    building the dict (``tests/test_moveset.py`` compares them). None for the other kinds,
    which take the dict. The text after ``seq`` depends on the values alone, and the same
    few recur all match long (a player's draws, discards, single replacements): each is
    written once (``_BODIES``) and only the ``seq`` is written per line."""
    known = _BODIES.get(kind)
    if known is None:
        return None
    head, bodies = known
    if auto:
        body = _body(kind, values) + ',"auto":true}'
    else:
        found = bodies.get(values)
        if found is None:
            if len(bodies) > 4096:   # many matches' ids: keep the memory flat
                bodies.clear()
            found = bodies[values] = _body(kind, values) + "}"
        body = found
    return f"{head}{seq}{body}".encode()


def _body(kind: type[Event], values: tuple[Any, ...]) -> str:
    """The fields of a decision's line after ``seq``, as JSON text (``line_bytes``)."""
    if kind is Draw:
        return _draw_text(values)
    if kind is Replace:
        return _replace_text(values)
    if kind is Power:
        return _power_text(values)
    if kind is Peek:
        return f',"player":{_text(values[0])},"positions":{_ints(values[1])}'
    return f',"player":{_text(values[0])}'   # a discard, skip or Cabo call


_BODIES: Final[dict[type, tuple[str, dict[tuple[Any, ...], str]]]] = {
    kind: (f'{{"type":"{kind.TYPE}","seq":', {})
    for kind in (Draw, Replace, Discard, Skip, Cabo, Power, Peek)}
"""By decision type: the line's text up to ``seq``, and the text after ``seq`` of each line
written so far, by its values."""


_TEXT: Final[dict[str, str]] = {}
"""A string's JSON (as orjson writes it), made once: player ids, card codes, sources."""


def _text(value: str) -> str:
    found = _TEXT.get(value)
    if found is None:
        if len(_TEXT) > 4096:   # ids of many matches: keep the memory flat
            _TEXT.clear()
        found = _TEXT[value] = orjson.dumps(value).decode()
    return found


def _ints(values: tuple[int, ...]) -> str:
    return "[" + ",".join([str(v) for v in values]) + "]"


def _place(place: tuple[str, int]) -> str:
    return f"[{_text(place[0])},{place[1]}]"


def _draw_text(v: tuple[Any, ...]) -> str:
    card = v[2]
    text = f',"player":{_text(v[0])},"source":{_text(v[1])}'
    return text if card is None else f'{text},"card":{_text(card)}'


def _replace_text(v: tuple[Any, ...]) -> str:
    text = f',"player":{_text(v[0])},"positions":{_ints(v[1])}'
    if v[2] is not None:
        text += f',"into":{v[2]}'
    return text if v[3] is None else f'{text},"end":{_text(v[3])}'


def _power_text(v: tuple[Any, ...]) -> str:
    text = f',"player":{_text(v[0])},"power":{_text(v[1])}'
    if v[2] is not None:
        text += f',"target":{_place(v[2])}'
    if v[3] is not None:
        text += f',"cards":[{_place(v[3][0])},{_place(v[3][1])}]'
    return text


def _plain(value: Any) -> Any:
    """Tuples as lists, all the way down (what ``to_dict`` writes)."""
    if isinstance(value, tuple):
        return [_plain(v) if isinstance(v, (tuple, dict)) else v for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) if isinstance(v, (tuple, dict)) else v for k, v in value.items()}
    return value


def stamp(event: Event, seq: int, auto: bool) -> tuple[Event, Line]:
    """(the event with this ``seq`` and ``auto``, its log line as a dict)."""
    kind = type(event)
    return stamp_fields(kind, seq, auto, (PLANS.get(kind) or plan(kind))[1](event))


__all__ = ["PLANS", "Line", "line_bytes", "make_event", "plan", "stamp", "stamp_fields"]
