"""A move as a page sends it, made into an engine event for the seat that sent it."""

from __future__ import annotations

from engine import Event, LogSyntaxError, parse_event

MOVE_TYPES = frozenset({"draw", "discard", "replace", "power", "skip", "cabo", "snap", "peek"})
MOVE_FIELDS = frozenset({"type", "source", "positions", "into", "end", "power", "target",
                         "cards", "position"})


def parse_move(obj: object, player: str) -> Event:
    """A move from a page, for ``player`` only: a move type, its own fields (the player is the
    seat's, a deck draw's card is the dealer's to name); the engine's syntax errors else."""
    if not isinstance(obj, dict) or obj.get("type") not in MOVE_TYPES:
        raise _refused("that is not a move")
    fields = {k: v for k, v in obj.items() if k in MOVE_FIELDS}
    fields["player"] = player
    return parse_event(fields)


def _refused(message: str) -> LogSyntaxError:
    return LogSyntaxError("not_a_move", message)
