"""What every event is: ``Event``, the base of the classes ``engine/events.py`` declares (from
``engine/spec.py``), and the ways back from an event to its JSON object (``to_dict``) or to a
changed copy (``with_fields``).

Plain classes with an explicit ``__init__`` rather than dataclasses, so that the compiled build
(docs/compiled.md) makes them native classes. Each class declares ``TYPE`` (the line's
``type``) and ``FIELDS`` (its fields in constructor order); equality, ``repr`` and hashing read
``FIELDS`` as a frozen dataclass's did. Events are read-only by contract: nothing assigns to
one after it is built (``with_fields`` makes a changed copy).
"""

from __future__ import annotations

from enum import Enum
from typing import Any, ClassVar

from .native import mypyc_attr

FORMAT = "cabo-log/1"
Slot = tuple[str, int]


@mypyc_attr(acyclic=True)
class Event:
    """One line of a log. ``TYPE`` is the line's ``type``: the one name of each event class."""

    TYPE: ClassVar[str] = ""
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto")
    NULLABLE: ClassVar[tuple[str, ...]] = ()   # fields written as null, not left out, if None
    __slots__ = ("seq", "auto")
    seq: int | None
    auto: bool

    def __init__(self, seq: int | None, auto: bool) -> None:
        self.seq = seq
        self.auto = auto

    def values(self) -> tuple[Any, ...]:
        """The fields' values in ``FIELDS`` order."""
        return tuple([getattr(self, name) for name in self.FIELDS])

    def __reduce__(self) -> tuple[type[Event], tuple[Any, ...]]:
        # compiled, a native class is rebuilt through its constructor (the analysis' workers)
        return type(self), self.values()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Event)
        return self.values() == other.values()

    def __hash__(self) -> int:
        return hash((self.__class__, self.values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({shown})"



def type_name(event: Event) -> str:
    return event.TYPE


def field_names(kind: type[Event]) -> tuple[str, ...]:
    """An event class's fields in constructor order (``seq`` and ``auto`` first)."""
    return kind.FIELDS


def with_fields(event: Event, **changes: Any) -> Event:
    """A copy of ``event`` with some fields changed (``dataclasses.replace`` for events)."""
    unknown = set(changes) - set(event.FIELDS)
    if unknown:
        raise TypeError(f"{type(event).__name__} has no field {sorted(unknown)[0]!r}")
    values = [changes[name] if name in changes else getattr(event, name)
              for name in event.FIELDS]
    return type(event)(*values)


def to_dict(event: Event) -> dict[str, Any]:
    """An event as the JSON object of its log line (``type`` first, absent fields omitted)."""
    out: dict[str, Any] = {"type": event.TYPE}
    if event.TYPE == "game":   # the header
        out["format"] = FORMAT
    if event.seq is not None:
        out["seq"] = event.seq
    for name in event.FIELDS[2:]:
        value = getattr(event, name)
        if value is None and name not in event.NULLABLE:
            continue   # (a tally line says "caller": null outright, FORMAT.md)
        out[name] = _plain(value)
    if event.auto:
        out["auto"] = True
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):   # a domain word: its spelling in the log, never its repr
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
