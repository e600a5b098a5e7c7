"""The table's times: the step timer of the online rules (unlimited, 30, 60 or 90 s per
step), how long a lost connection holds a seat, the pause between rounds, how long classic
mode shows a card, and the bots' pace. ``Timing`` holds them (tests shorten them); ``Clock``
is the one source of "now", so a table can be driven by a test's hand.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final

STEP_CHOICES: Final = (0, 30, 60, 90)      # seconds per step; 0: unlimited
DEFAULT_STEP: Final = 60


@dataclass(frozen=True)
class Timing:
    hold: float = 60.0           # a lost connection keeps the seat this long
    between_rounds: float = 20.0  # the next round starts after this, unless all confirm
    first_peek: float = 5.0      # classic mode: the two starting cards are shown this long
    flash: float = 3.2           # classic mode: a peeked or mismatched card
    bot_delay: float = 0.8       # a bot waits this long before its move (people can follow)


class Clock:
    """Wall-clock seconds (``time.time``): the log's ``t`` is measured from the header's
    ``started_at``, which a restarted host reads back."""

    def now(self) -> float:
        return time.time()


class ManualClock(Clock):
    """A clock a test moves by hand."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.value = start

    def now(self) -> float:
        return self.value

    def advance(self, seconds: float) -> None:
        self.value += seconds
