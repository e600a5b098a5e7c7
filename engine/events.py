"""The events of format v1 as frozen dataclasses, one per line ``type``, and their way back
to a JSON object (``to_dict``). Reading them from JSON is engine/parsing.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

FORMAT = "cabo-log/1"
Slot = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Event:
    """One line of a log. ``TYPE`` is the line's ``type``: the one name of each event class."""

    TYPE: ClassVar[str] = ""
    seq: int | None
    auto: bool


@dataclass(frozen=True, slots=True)
class GameStart(Event):
    TYPE: ClassVar[str] = "game"
    game_id: str
    ruleset: str | dict[str, Any]
    options: dict[str, Any]
    players: tuple[str, ...]
    names: dict[str, Any] | None
    started_at: str | None


@dataclass(frozen=True, slots=True)
class Deal(Event):
    TYPE: ClassVar[str] = "deal"
    round: int
    first: str
    hands: dict[str, tuple[str, ...]]
    discard: str
    deck: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Peek(Event):
    TYPE: ClassVar[str] = "peek"
    player: str
    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Draw(Event):
    TYPE: ClassVar[str] = "draw"
    player: str
    source: str          # a DrawSource (a decoder outside the engine may give the plain string)
    card: str | None


@dataclass(frozen=True, slots=True)
class Discard(Event):
    TYPE: ClassVar[str] = "discard"
    player: str


@dataclass(frozen=True, slots=True)
class Replace(Event):
    TYPE: ClassVar[str] = "replace"
    player: str
    positions: tuple[int, ...]
    into: int | None
    end: str | None


@dataclass(frozen=True, slots=True)
class Power(Event):
    TYPE: ClassVar[str] = "power"
    player: str
    power: str           # a PowerKind (a decoder outside the engine may give the plain string)
    target: Slot | None
    cards: tuple[Slot, Slot] | None


@dataclass(frozen=True, slots=True)
class Skip(Event):
    TYPE: ClassVar[str] = "skip"
    player: str


@dataclass(frozen=True, slots=True)
class Cabo(Event):
    TYPE: ClassVar[str] = "cabo"
    player: str


@dataclass(frozen=True, slots=True)
class Snap(Event):
    TYPE: ClassVar[str] = "snap"
    player: str
    position: int


@dataclass(frozen=True, slots=True)
class Reshuffle(Event):
    TYPE: ClassVar[str] = "reshuffle"
    deck: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Forfeit(Event):
    TYPE: ClassVar[str] = "forfeit"
    player: str
    reason: str | None


@dataclass(frozen=True, slots=True)
class RoundEnd(Event):
    TYPE: ClassVar[str] = "round_end"
    round: int
    points: dict[str, int]


@dataclass(frozen=True, slots=True)
class GameEnd(Event):
    TYPE: ClassVar[str] = "game_end"
    winners: tuple[str, ...]
    scores: dict[str, int]


def type_name(event: Event) -> str:
    return event.TYPE


def to_dict(event: Event) -> dict[str, Any]:
    """An event as the JSON object of its log line (``type`` first, absent fields omitted)."""
    out: dict[str, Any] = {"type": event.TYPE}
    if isinstance(event, GameStart):
        out["format"] = FORMAT
    if event.seq is not None:
        out["seq"] = event.seq
    for name in event.__slots__:
        value = getattr(event, name)
        if value is None:
            continue
        out[name] = _plain(value)
    if event.auto:
        out["auto"] = True
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
