"""What one accepted event did: the frozen ``Outcome`` that ``apply`` returns.

Readers (the loader's rows, the timeline, the text replay, bots, the simulator) are projectors
over ``(event, outcome)``: they never re-derive a rule. The outcome names cards by their code
and row places by ``(seat, position)``; card *ids* (the state's per-round card numbers) appear
where knowledge is concerned, since knowledge follows the card, not the place.

Built on every event, so cheaply: ``outcome(...)`` sets the slots directly instead of going
through the frozen dataclass's ``__setattr__`` round trip (about twice as fast).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import TYPE_CHECKING, Any

from .state import RoundResult

Place = tuple[int, int]        # (seat, position in that seat's row)
EVERYBODY = -1                 # the seat of ``learned`` when a card became public


@dataclass(frozen=True, slots=True)
class Outcome:
    """The effects of one event. Defaults mean "nothing of that kind happened"."""

    card: str | None = None
    """The card the event is about: drawn, placed in a row, discarded, snapped, seen, or the
    deal's first discard."""
    places: tuple[Place, ...] = ()
    """Row places the event touched, after it: peeked, replaced, targeted, snapped. For a swap
    the user's own place comes first (when the user is one of the two players)."""
    discarded: tuple[str, ...] = ()
    """Cards that went onto the discard pile, in order (the last is the new top)."""
    moved: tuple[str, ...] = ()
    """A swap: the card that left the first place, then the card that came into it."""
    learned: tuple[tuple[int, int], ...] = ()
    """``(seat, card id)``: a player came to know a card (``EVERYBODY``: it became public)."""
    forgotten: tuple[int, ...] = ()
    """Card ids nobody knows any more (shuffled back into the draw pile)."""
    success: bool | None = None
    """A multi-replacement's or a snap's success (a single replacement always succeeds)."""
    penalty: str | None = None
    """The penalty card taken (failed multi-replacement, wrong snap)."""
    earned: str | None = None
    """The power this event earned, pending now."""
    lapsed: str | None = None
    """A pending power that lapsed because this event came instead of its use or skip."""
    turn_ended: bool = False
    """The turn passed on (or the round ended) with this event."""
    round_ended: RoundResult | None = None
    """The result of the round this event ended (every hand is then revealed)."""
    match_ended: bool = False
    """The match is decided: winners are known."""


def _maker(cls: type[Outcome]) -> Callable[..., Outcome]:
    """A keyword constructor with the defaults of ``cls`` that stores the slots directly."""
    names = [f.name for f in fields(cls)]
    namespace: dict[str, Any] = {"_new": object.__new__, "cls": cls}
    params = []
    for i, f in enumerate(fields(cls)):
        namespace[f"s{i}"] = getattr(cls, f.name).__set__
        namespace[f"d{i}"] = f.default if f.default is not MISSING else None
        params.append(f"{f.name}=d{i}")
    body = "; ".join(f"s{i}(o, {name})" for i, name in enumerate(names))
    exec(f"def outcome(*, {', '.join(params)}):\n    o = _new(cls); {body}; return o",  # noqa: S102
         namespace)
    return namespace["outcome"]  # type: ignore[no-any-return]


if TYPE_CHECKING:
    outcome = Outcome   # the same keywords, checked
else:
    outcome = _maker(Outcome)
NOTHING = Outcome()
"""Most events that only move the game along (a claim, a Cabo with final turns to come) share
this one instance."""
