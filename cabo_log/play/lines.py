"""The simulator's recorder: an event stamped with its line's ``seq`` and written as the line's
JSON object, in one step per event.

``engine.events.to_dict`` is general (any event, walked field by field with ``getattr``); the
simulator records every event it makes, so this compiles, once per event type, one function
that builds the stamped event (by its constructor: a native class in the compiled engine) and
its line together, with the field names written into its code. The lines are the
same objects, key for key and in the same order, as ``to_dict`` gives
(``tests/test_moveset.py`` compares them; ``tests/test_simulate.py`` keeps the output
byte-identical).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from engine.events import Event, GameStart, field_names

Line = dict[str, Any]
_Stamper = Callable[..., tuple[Event, Line]]
PLANS: dict[type, tuple[_Stamper, Callable[[Event], tuple[Any, ...]]]] = {}
"""The compiled stampers by event type (``plan`` fills it)."""
_NESTED = (tuple, dict)


def _compile(kind: type[Event]) -> tuple[_Stamper, Callable[[Event], tuple[Any, ...]]]:
    """(a function ``(seq, auto, *fields) -> (event, line)`` for ``kind``, a getter of an
    event's fields after ``seq`` and ``auto``)."""
    names = field_names(kind)[2:]   # after seq and auto
    namespace: dict[str, Any] = {"cls": kind, "_plain": _plain, "_nested": _NESTED,
                                 "TYPE": kind.TYPE}
    args = [f"a{i}" for i in range(len(names))]
    body = [f"e = cls(seq, auto, {', '.join(args)})", "line = {'type': TYPE, 'seq': seq}"]
    for i, name in enumerate(names):
        body.append(f"if a{i} is not None: line[{name!r}] = "
                    f"_plain(a{i}) if type(a{i}) in _nested else a{i}")
    body += ["if auto: line['auto'] = True", "return e, line"]
    source = f"def stamp(seq, auto, {', '.join(args)}):\n    " + "\n    ".join(body)
    exec(source, namespace)  # noqa: S102 - generated from the class's own field names
    if len(names) > 1:
        getter: Callable[[Event], tuple[Any, ...]] = attrgetter(*names)
    else:
        only = names[0]
        getter = lambda e: (getattr(e, only),)  # noqa: E731
    compiled = (namespace["stamp"], getter)
    PLANS[kind] = compiled
    return compiled


def _plain(value: Any) -> Any:
    """Tuples as lists, all the way down (what ``to_dict`` writes)."""
    if type(value) is tuple:
        return [_plain(v) if type(v) in _NESTED else v for v in value]
    if type(value) is dict:
        return {k: _plain(v) if type(v) in _NESTED else v for k, v in value.items()}
    return value


def plan(kind: type[Event]) -> tuple[_Stamper, Callable[[Event], tuple[Any, ...]]]:
    """(the stamper ``(seq, auto, *fields) -> (event, line)`` of ``kind``, the getter of an
    event's fields after ``seq`` and ``auto``), compiled on first use."""
    found = PLANS.get(kind)
    if found is None:
        if kind is GameStart:
            raise TypeError("the header is written by the simulator itself")
        found = _compile(kind)
    return found


def stamp(event: Event, seq: int, auto: bool) -> tuple[Event, Line]:
    """(the event with this ``seq`` and ``auto``, its log line as a dict)."""
    make, getter = PLANS.get(type(event)) or plan(type(event))
    return make(seq, auto, *getter(event))


def maker(kind: type[Event]) -> Callable[..., Event]:
    """A positional constructor ``(seq, auto, *fields)`` of ``kind`` (for events the simulator
    builds on the hot path, e.g. a deck draw naming its card): the class itself, in a function
    of fixed arity."""
    args = ", ".join(f"a{i}" for i in range(len(field_names(kind))))
    namespace: dict[str, Any] = {"cls": kind}
    exec(f"def make({args}):\n    return cls({args})", namespace)  # noqa: S102
    return namespace["make"]  # type: ignore[no-any-return]


__all__ = ["PLANS", "Line", "maker", "plan", "stamp"]
