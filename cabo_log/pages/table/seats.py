"""Who sits at a table: a person (reached by an invitation link that carries a secret seat
token) or a bot of the registry (``cabo_log.play.bots``).

A token is 32 random bytes (``secrets.token_urlsafe``), shown once, in the invitation link;
the host keeps only its SHA-256 (in the table's seat file beside the log, never in the log,
which is loaded into databases and shown by ``serve``). A token is checked against a seat's
digest with ``hmac.compare_digest`` (constant time) and acts for that seat only.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any


class SeatKind(StrEnum):
    PERSON = "person"
    BOT = "bot"


class Presence(StrEnum):
    """Where a person stands with the table (a bot is always ``HERE``)."""

    INVITED = "invited"     # has not opened the invitation yet
    HERE = "here"           # at least one connection open
    AWAY = "away"           # every connection closed: the seat is held for a while
    GONE = "gone"           # forfeited, or left and replaced by a bot


TOKEN_BYTES = 32


def new_token() -> str:
    """A seat token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Seat:
    """One seat: its player id in the log, and who plays it."""

    name: str
    kind: SeatKind
    bot: str | None = None             # the bot's kind (a bot seat, or a stand-in for a person)
    token_digest: str | None = None    # a person's token, hashed
    presence: Presence = Presence.INVITED
    connections: int = 0
    away_since: float | None = None
    stand_in: bool = False             # a bot took this person's seat (no forfeits here)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def person(self) -> bool:
        return self.kind == SeatKind.PERSON

    @property
    def played_by_bot(self) -> bool:
        return self.kind == SeatKind.BOT or self.stand_in

    def accepts(self, token: str) -> bool:
        """Whether ``token`` is this seat's (constant time; a bot seat accepts none)."""
        if self.token_digest is None:
            return False
        return hmac.compare_digest(self.token_digest, digest(token))


def find_seat(seats: list[Seat], token: str) -> Seat | None:
    """The seat whose token this is (every seat compared, so the time says nothing)."""
    found = None
    for seat in seats:
        if seat.accepts(token) and found is None:
            found = seat
    return found


def seat_file(log: Path) -> Path:
    """Where a table keeps its seat tokens' digests: a hidden file beside its log."""
    return log.with_name(f".{log.stem}.seats.json")


def save_digests(log: Path, seats: list[Seat]) -> None:
    """Write the persons' token digests (owner-only permissions, replaced whole)."""
    write_private(seat_file(log), {s.name: s.token_digest for s in seats
                                   if s.token_digest is not None})


def load_digests(log: Path) -> dict[str, str]:
    """The digests saved for a table's log ({} if there are none: its persons cannot come
    back, and forfeit once their seats' hold runs out)."""
    return read_private(seat_file(log))


def write_private(path: Path, data: dict[str, str]) -> None:
    """A small JSON object of secrets' digests, owner-only, fsync'd and replaced whole (a
    crash leaves the old file or the new one, never half of one)."""
    draft = path.with_name(path.name + ".new")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(draft, path)


def read_private(path: Path) -> dict[str, str]:
    """What ``write_private`` wrote ({} when the file is missing or not such an object)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, str)}
