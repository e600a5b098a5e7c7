"""The simulator's recorder: an event stamped with its line's ``seq`` and written as the line's
JSON object, in one step per event.

``engine.events.to_dict`` is general (any event, walked field by field with ``getattr``); the
simulator records every event it makes, so this does the same work with what can be prepared
once per event type: a fast constructor of the stamped event (no frozen ``__setattr__`` round
trip), an ``attrgetter`` for its fields, the field names. The lines are the same objects,
key for key and in the same order, as ``to_dict`` gives (``tests/test_simulate.py`` keeps the
output byte-identical).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any

from engine.events import Event, GameStart

_Plan = tuple[Callable[..., Event], Callable[[Event], Any], tuple[str, ...], str]
_PLANS: dict[type, _Plan] = {}


def _plan(kind: type[Event]) -> _Plan:
    names = tuple(f.name for f in fields(kind))[2:]   # after seq and auto
    namespace: dict[str, Any] = {"_new": object.__new__, "cls": kind}
    body = []
    for i, name in enumerate(("seq", "auto", *names)):
        namespace[f"s{i}"] = getattr(kind, name).__set__
        body.append(f"s{i}(e, a{i})")
    args = ", ".join(f"a{i}" for i in range(len(names) + 2))
    exec(f"def make({args}):\n    e = _new(cls); {'; '.join(body)}; return e",  # noqa: S102
         namespace)
    getter = attrgetter(*names) if len(names) > 1 else (lambda e: (getattr(e, names[0]),))
    plan = (namespace["make"], getter, names, kind.TYPE)
    _PLANS[kind] = plan
    return plan


def _plain(value: Any) -> Any:
    if type(value) is tuple:
        return [_plain(v) for v in value]
    if type(value) is dict:
        return {k: _plain(v) for k, v in value.items()}
    return value


def stamp(event: Event, seq: int, auto: bool) -> tuple[Event, dict[str, Any]]:
    """(the event with this ``seq`` and ``auto``, its log line as a dict)."""
    kind = type(event)
    if kind is GameStart:
        raise TypeError("the header is written by the simulator itself")
    plan = _PLANS.get(kind) or _plan(kind)
    make, getter, names, type_name = plan
    values = getter(event)
    line: dict[str, Any] = {"type": type_name, "seq": seq}
    for name, value in zip(names, values, strict=True):
        if value is not None:
            line[name] = _plain(value) if type(value) in (tuple, dict) else value
    if auto:
        line["auto"] = True
    return make(seq, auto, *values), line
