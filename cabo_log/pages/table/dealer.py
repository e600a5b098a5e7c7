"""The hosted table's dealer: the one write path of a live match (``play.dealer.Dealer``),
its cards shuffled with the operating system's randomness (``random.SystemRandom``: the log
records no seed from which a player could work out the deck) and every line stamped with
``t``, the milliseconds since the table opened.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from cabo_log.log.gamelog import GameLog
from cabo_log.play.dealer import Dealer as LiveDealer
from cabo_log.play.dealer import Listener


def started_at(now: float) -> str:
    """The header's ``started_at``: the second the table opened, in UTC."""
    return datetime.fromtimestamp(int(now), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def start_seconds(header: dict[str, Any], fallback: float) -> float:
    """When a game started (its header's ``started_at``), as a Unix time."""
    text = header.get("started_at")
    if isinstance(text, str):
        try:
            return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()
        except ValueError:
            pass
    return fallback


class Dealer(LiveDealer):
    """A hosted game's dealer: lines stamped from ``started`` by the table's clock ``now``."""

    def __init__(self, log: GameLog, started: float, now: Callable[[], float],
                 listener: Listener) -> None:
        super().__init__(log, random.SystemRandom(), listener,
                         lambda: max(0, int((now() - started) * 1000)))
