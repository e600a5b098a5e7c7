"""Classic mode's flashes: a card a person comes to know (their first peek, a power, a card
taken) is shown for a few seconds and then to be remembered, since the table does not keep it
face up for them.

``Flashes.note`` compares what each person knows after an event (their observation) with what
they knew before it and queues the places newly known; the page takes them once (``take``).
"""

from __future__ import annotations

from typing import Any

from cabo_log.pages.table.clock import Timing
from cabo_log.pages.table.views import Rows, new_places, public_rows
from engine import Event, GameState
from engine.events import Deal, Peek
from engine.knowledge import observe


class Flashes:
    """The flashes waiting for each person, and what each knew after the last event."""

    def __init__(self, persons: list[str], timing: Timing) -> None:
        self.timing = timing
        self.waiting: dict[str, list[dict[str, Any]]] = {n: [] for n in persons}
        self.known: dict[str, Rows] = {}

    def note(self, event: Event, state: GameState) -> None:
        """After ``event``: every card a person now knows and did not, lying face down."""
        shown = public_rows(state)
        seconds = (self.timing.first_peek if isinstance(event, (Deal, Peek))
                   else self.timing.flash)
        for name in self.waiting:
            if isinstance(event, Deal):
                self.known[name] = {}
            after = observe(state, name).rows
            for owner, pos, code in new_places(self.known.get(name, {}), after, shown):
                self.waiting[name].append({"owner": owner, "pos": pos, "card": code,
                                           "seconds": seconds})
            self.known[name] = after

    def take(self, name: str) -> list[dict[str, Any]]:
        """The flashes waiting for ``name``, handed out once."""
        out = self.waiting.get(name, [])
        self.waiting[name] = []
        return out
