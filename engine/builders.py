"""Events built from objects that carry an event's fields as attributes of the same names.

A decoder outside the engine (``cabo_log/log/fastdecode.py``: msgspec's typed structs) has
already checked every JSON type; these functions only move its values into the engine's own
event classes, so the engine needs no import of the decoder. Each is a plain function naming
its fields, so that the compiled engine (docs/compiled.md) turns it into a direct call of the
native constructor: a dozen machine instructions per field, not an interpreted frame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .events import (
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
    Tally,
)


def deal(s: Any) -> Deal:
    return Deal(s.seq, s.auto, s.round, s.first, s.hands, s.discard, s.deck)


def peek(s: Any) -> Peek:
    return Peek(s.seq, s.auto, s.player, s.positions)


def draw(s: Any) -> Draw:
    return Draw(s.seq, s.auto, s.player, s.source, s.card)


def discard(s: Any) -> Discard:
    return Discard(s.seq, s.auto, s.player)


def replace(s: Any) -> Replace:
    return Replace(s.seq, s.auto, s.player, s.positions, s.into, s.end)


def power(s: Any) -> Power:
    return Power(s.seq, s.auto, s.player, s.power, s.target, s.cards)


def skip(s: Any) -> Skip:
    return Skip(s.seq, s.auto, s.player)


def cabo(s: Any) -> Cabo:
    return Cabo(s.seq, s.auto, s.player)


def snap(s: Any) -> Snap:
    return Snap(s.seq, s.auto, s.player, s.position)


def reshuffle(s: Any) -> Reshuffle:
    return Reshuffle(s.seq, s.auto, s.deck)


def forfeit(s: Any) -> Forfeit:
    return Forfeit(s.seq, s.auto, s.player, s.reason)


def round_end(s: Any) -> RoundEnd:
    return RoundEnd(s.seq, s.auto, s.round, s.points)


def game_end(s: Any) -> GameEnd:
    return GameEnd(s.seq, s.auto, s.winners, s.scores)


def tally(s: Any) -> Tally:
    return Tally(s.seq, s.auto, s.round, s.caller, s.hands, s.end, s.first)


BUILDERS: dict[str, Callable[[Any], Event]] = {
    Deal.TYPE: deal, Peek.TYPE: peek, Draw.TYPE: draw, Discard.TYPE: discard,
    Replace.TYPE: replace, Power.TYPE: power, Skip.TYPE: skip, Cabo.TYPE: cabo,
    Snap.TYPE: snap, Reshuffle.TYPE: reshuffle, Forfeit.TYPE: forfeit,
    RoundEnd.TYPE: round_end, GameEnd.TYPE: game_end, Tally.TYPE: tally,
}
"""Line ``type`` -> the builder of its event (every type but the header, which the exact
reader always reads)."""
