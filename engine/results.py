"""What a finished round came to (``RoundResult``) and why it ended (``EndReason``)."""

from __future__ import annotations

import copy
from enum import StrEnum
from typing import Any, ClassVar, Final, TypeVar

S = TypeVar("S")


class EndReason(StrEnum):
    """Why a round ended (the ``end`` of a round result)."""

    CABO = "cabo"                   # the final turns after a Cabo call were played
    DECK_EMPTY = "deck_empty"       # the draw pile ran out (where the ruleset says so)
    FORFEIT = "forfeit"             # fewer than two players were left


END_CABO: Final[EndReason] = EndReason.CABO
END_DECK_EMPTY: Final[EndReason] = EndReason.DECK_EMPTY
END_FORFEIT: Final[EndReason] = EndReason.FORFEIT


class RoundResult:
    """What a finished round came to; the replay report's ``rounds`` entries.

    A plain class rather than a dataclass: in the compiled build a dataclass's generated
    ``__init__`` stays interpreted, a slow call for every round. Equality, ``repr`` and copying
    read ``FIELDS`` as a dataclass's would, and ``__reduce__`` keeps it picklable in both
    builds.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        "round", "first", "players", "caller", "cabo_success", "end", "hands", "totals",
        "points", "cumulative", "turns", "reshuffles", "special", "resets", "tiebreak")
    __slots__ = FIELDS

    def __init__(self, round: int, first: str, players: tuple[str, ...], caller: str | None,
                 cabo_success: bool | None, end: EndReason, hands: dict[str, list[str]],
                 totals: dict[str, int], points: dict[str, int], cumulative: dict[str, int],
                 turns: int, reshuffles: int, special: tuple[str, ...] = (),
                 resets: tuple[str, ...] = (), tiebreak: bool = False) -> None:
        self.round = round
        self.first = first
        self.players = players
        self.caller = caller
        self.cabo_success = cabo_success
        self.end = end
        self.hands = hands
        self.totals = totals
        self.points = points
        self.cumulative = cumulative
        self.turns = turns
        self.reshuffles = reshuffles
        self.special = special
        self.resets = resets
        self.tiebreak = tiebreak

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self, self.FIELDS) == _values(other, self.FIELDS)

    def __repr__(self) -> str:
        return _repr(self, self.FIELDS)

    def __reduce__(self) -> tuple[type[RoundResult], tuple[Any, ...]]:
        return RoundResult, tuple(_values(self, self.FIELDS))

    def __copy__(self) -> RoundResult:
        return RoundResult(*_values(self, self.FIELDS))

    def __deepcopy__(self, memo: dict[int, object]) -> RoundResult:
        new = RoundResult(*copy.deepcopy(_values(self, self.FIELDS), memo))
        memo[id(self)] = new
        return new

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.round, "first": self.first, "players": list(self.players),
            "caller": self.caller, "cabo_success": self.cabo_success, "end": self.end,
            "hands": self.hands, "totals": self.totals, "points": self.points,
            "cumulative": self.cumulative, "turns": self.turns, "reshuffles": self.reshuffles,
            "special": list(self.special), "resets": list(self.resets),
            "tiebreak": self.tiebreak,
        }


def _values(obj: object, names: tuple[str, ...]) -> list[Any]:
    return [getattr(obj, name) for name in names]


def _repr(obj: object, names: tuple[str, ...]) -> str:
    shown = ", ".join(f"{name}={getattr(obj, name)!r}" for name in names)
    return f"{type(obj).__name__}({shown})"


def _copy_into(new: S, old: S, names: tuple[str, ...], memo: dict[int, object] | None) -> S:
    """``new`` given ``old``'s fields: the same objects (``copy.copy``), or deep copies
    (``copy.deepcopy``, ``memo`` its memo). Written out because a compiled (native) class
    cannot be rebuilt by ``copy``'s default ``__reduce_ex__``."""
    if memo is None:
        for name in names:
            setattr(new, name, getattr(old, name))
        return new
    memo[id(old)] = new
    for name in names:
        setattr(new, name, copy.deepcopy(getattr(old, name), memo))
    return new
