"""A hosted table read back from its log after a restart: who sits where, and who left."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from cabo_log.pages.table.seats import Presence, Seat, SeatKind, load_digests
from cabo_log.pages.table.views import dealt
from engine import GameState


def header_seats(header: dict[str, Any], path: Path, g: GameState, data: bytes,
                 now: float) -> list[Seat]:
    """The seats of a table read back from its log (header, the players the engine counts
    as active, the moves a stand-in bot made) and its seat file: persons still playing are
    away, held for the usual time, until they reconnect."""
    given = header.get("bots")
    bots: dict[str, Any] = given if isinstance(given, dict) else {}
    digests = load_digests(path)
    standing_in = stand_ins(data)
    seats = []
    for name in header["players"]:
        if name in bots:
            seats.append(Seat(name, SeatKind.BOT, bot=str(bots[name]), presence=Presence.HERE))
            continue
        seat = Seat(name, SeatKind.PERSON, token_digest=digests.get(name))
        if name in standing_in:
            seat.presence, seat.stand_in, seat.bot = Presence.GONE, True, standing_in[name]
        elif not g.active[g.seat[name]]:
            seat.presence = Presence.GONE
        elif dealt(g):
            seat.presence, seat.away_since = Presence.AWAY, now
        seats.append(seat)
    return seats


def stand_ins(data: bytes) -> dict[str, str]:
    """Persons a bot played for (their moves carry ``"bot"``), from a log's lines."""
    out: dict[str, str] = {}
    for raw in data.splitlines():
        if b'"bot"' in raw:
            line = orjson.loads(raw)
            if isinstance(line.get("bot"), str) and isinstance(line.get("player"), str):
                out[line["player"]] = line["bot"]
    return out
