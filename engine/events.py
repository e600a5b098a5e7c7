"""The events of format v1, one class per line ``type``, and their way back to a JSON object
(``to_dict``). Reading them from JSON is engine/parsing.py.

Plain classes with an explicit ``__init__`` rather than dataclasses, so that the optional
mypyc build (docs/compiled.md) compiles them as native classes: there a dataclass's generated
methods stay interpreted and ``slots=True`` swaps in an ordinary Python class. Each class
declares ``TYPE`` (the line's ``type``) and ``FIELDS`` (its fields in constructor order, what
``dataclasses.fields`` gave before); equality, ``repr`` and hashing read ``FIELDS`` as a frozen
dataclass's did. Events are read-only by contract: nothing assigns to one after it is built
(``with_fields`` makes a changed copy).
"""

from __future__ import annotations

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


@mypyc_attr(acyclic=True)
class GameStart(Event):
    TYPE: ClassVar[str] = "game"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "game_id", "ruleset", "options",
                                         "players", "names", "started_at", "record")
    __slots__ = ("game_id", "ruleset", "options", "players", "names", "started_at", "record")
    game_id: str
    ruleset: str | dict[str, Any]
    options: dict[str, Any]
    players: tuple[str, ...]
    names: dict[str, Any] | None
    started_at: str | None
    record: str | None   # "tally" for a score sheet (format 1.1); None or "full" otherwise

    def __init__(self, seq: int | None, auto: bool, game_id: str,
                 ruleset: str | dict[str, Any], options: dict[str, Any],
                 players: tuple[str, ...], names: dict[str, Any] | None,
                 started_at: str | None, record: str | None = None) -> None:
        self.seq = seq
        self.auto = auto
        self.game_id = game_id
        self.ruleset = ruleset
        self.options = options
        self.players = players
        self.names = names
        self.started_at = started_at
        self.record = record


@mypyc_attr(acyclic=True)
class Deal(Event):
    TYPE: ClassVar[str] = "deal"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "round", "first", "hands", "discard",
                                         "deck")
    __slots__ = ("round", "first", "hands", "discard", "deck")
    round: int
    first: str
    hands: dict[str, tuple[str, ...]]
    discard: str
    deck: tuple[str, ...]

    def __init__(self, seq: int | None, auto: bool, round: int, first: str,
                 hands: dict[str, tuple[str, ...]], discard: str,
                 deck: tuple[str, ...]) -> None:
        self.seq = seq
        self.auto = auto
        self.round = round
        self.first = first
        self.hands = hands
        self.discard = discard
        self.deck = deck


@mypyc_attr(acyclic=True)
class Peek(Event):
    TYPE: ClassVar[str] = "peek"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "player", "positions")
    __slots__ = ("player", "positions")
    player: str
    positions: tuple[int, ...]

    def __init__(self, seq: int | None, auto: bool, player: str,
                 positions: tuple[int, ...]) -> None:
        self.seq = seq
        self.auto = auto
        self.player = player
        self.positions = positions


@mypyc_attr(acyclic=True)
class Draw(Event):
    TYPE: ClassVar[str] = "draw"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "player", "source", "card")
    __slots__ = ("player", "source", "card")
    player: str
    source: str          # a DrawSource (a decoder outside the engine may give the plain string)
    card: str | None

    def __init__(self, seq: int | None, auto: bool, player: str, source: str,
                 card: str | None) -> None:
        self.seq = seq
        self.auto = auto
        self.player = player
        self.source = source
        self.card = card


@mypyc_attr(acyclic=True)
class Discard(Event):
    TYPE: ClassVar[str] = "discard"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "player")
    __slots__ = ("player",)
    player: str

    def __init__(self, seq: int | None, auto: bool, player: str) -> None:
        self.seq = seq
        self.auto = auto
        self.player = player


@mypyc_attr(acyclic=True)
class Replace(Event):
    TYPE: ClassVar[str] = "replace"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "player", "positions", "into", "end")
    __slots__ = ("player", "positions", "into", "end")
    player: str
    positions: tuple[int, ...]
    into: int | None
    end: str | None

    def __init__(self, seq: int | None, auto: bool, player: str, positions: tuple[int, ...],
                 into: int | None, end: str | None) -> None:
        self.seq = seq
        self.auto = auto
        self.player = player
        self.positions = positions
        self.into = into
        self.end = end


@mypyc_attr(acyclic=True)
class Power(Event):
    TYPE: ClassVar[str] = "power"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "player", "power", "target", "cards")
    __slots__ = ("player", "power", "target", "cards")
    player: str
    power: str           # a PowerKind (a decoder outside the engine may give the plain string)
    target: Slot | None
    cards: tuple[Slot, Slot] | None

    def __init__(self, seq: int | None, auto: bool, player: str, power: str,
                 target: Slot | None, cards: tuple[Slot, Slot] | None) -> None:
        self.seq = seq
        self.auto = auto
        self.player = player
        self.power = power
        self.target = target
        self.cards = cards


@mypyc_attr(acyclic=True)
class Skip(Event):
    TYPE: ClassVar[str] = "skip"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "player")
    __slots__ = ("player",)
    player: str

    def __init__(self, seq: int | None, auto: bool, player: str) -> None:
        self.seq = seq
        self.auto = auto
        self.player = player


@mypyc_attr(acyclic=True)
class Cabo(Event):
    TYPE: ClassVar[str] = "cabo"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "player")
    __slots__ = ("player",)
    player: str

    def __init__(self, seq: int | None, auto: bool, player: str) -> None:
        self.seq = seq
        self.auto = auto
        self.player = player


@mypyc_attr(acyclic=True)
class Snap(Event):
    TYPE: ClassVar[str] = "snap"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "player", "position")
    __slots__ = ("player", "position")
    player: str
    position: int

    def __init__(self, seq: int | None, auto: bool, player: str, position: int) -> None:
        self.seq = seq
        self.auto = auto
        self.player = player
        self.position = position


@mypyc_attr(acyclic=True)
class Reshuffle(Event):
    TYPE: ClassVar[str] = "reshuffle"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "deck")
    __slots__ = ("deck",)
    deck: tuple[str, ...]

    def __init__(self, seq: int | None, auto: bool, deck: tuple[str, ...]) -> None:
        self.seq = seq
        self.auto = auto
        self.deck = deck


@mypyc_attr(acyclic=True)
class Forfeit(Event):
    TYPE: ClassVar[str] = "forfeit"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "player", "reason")
    __slots__ = ("player", "reason")
    player: str
    reason: str | None

    def __init__(self, seq: int | None, auto: bool, player: str, reason: str | None) -> None:
        self.seq = seq
        self.auto = auto
        self.player = player
        self.reason = reason


@mypyc_attr(acyclic=True)
class RoundEnd(Event):
    TYPE: ClassVar[str] = "round_end"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "round", "points")
    __slots__ = ("round", "points")
    round: int
    points: dict[str, int]

    def __init__(self, seq: int | None, auto: bool, round: int, points: dict[str, int]) -> None:
        self.seq = seq
        self.auto = auto
        self.round = round
        self.points = points


@mypyc_attr(acyclic=True)
class GameEnd(Event):
    TYPE: ClassVar[str] = "game_end"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "winners", "scores")
    __slots__ = ("winners", "scores")
    winners: tuple[str, ...]
    scores: dict[str, int]

    def __init__(self, seq: int | None, auto: bool, winners: tuple[str, ...],
                 scores: dict[str, int]) -> None:
        self.seq = seq
        self.auto = auto
        self.winners = winners
        self.scores = scores


@mypyc_attr(acyclic=True)
class Tally(Event):
    """One round of a score sheet (``record: "tally"``, format 1.1): the cards each player
    turned over at the end and who called. The engine scores it as it scores a dealt round's
    end (engine/tally.py)."""

    TYPE: ClassVar[str] = "tally"
    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", "round", "caller", "hands", "end",
                                         "first")
    NULLABLE: ClassVar[tuple[str, ...]] = ("caller",)   # "caller": null, nobody called
    __slots__ = ("round", "caller", "hands", "end", "first")
    round: int
    caller: str | None
    hands: dict[str, tuple[str, ...]]
    end: str | None
    first: str | None

    def __init__(self, seq: int | None, auto: bool, round: int, caller: str | None,
                 hands: dict[str, tuple[str, ...]], end: str | None,
                 first: str | None) -> None:
        self.seq = seq
        self.auto = auto
        self.round = round
        self.caller = caller
        self.hands = hands
        self.end = end
        self.first = first


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
    if isinstance(event, GameStart):
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
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
