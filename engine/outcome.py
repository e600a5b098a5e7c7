"""What one accepted event did: the ``Outcome`` that ``apply`` returns.

Readers (the loader's rows, the timeline, the text replay, bots, the simulator) are projectors
over ``(event, outcome)``: they never re-derive a rule. The outcome names cards by their code
and row places by ``(seat, position)``; card *ids* (the state's per-round card numbers) appear
where knowledge is concerned, since knowledge follows the card, not the place.

One is built on every event, so cheaply: each kind of event has its own small record class
that stores only what that kind can say (a draw sets two slots, not fourteen); every other
field reads the default declared once on the base class ``Outcome``. Every outcome therefore
answers every field. Outcomes are read-only by contract (nothing assigns to one after
``apply`` returned it); plain slotted classes rather than frozen dataclasses, because a frozen
dataclass pays an ``object.__setattr__`` per field on every event.
"""

from __future__ import annotations

from typing import Final

from .native import mypyc_attr
from .results import RoundResult
from .vocabulary import PowerKind

Place = tuple[int, int]        # (seat, position in that seat's row)
Learned = tuple[tuple[int, int], ...]
EVERYBODY: Final = -1                # the seat of ``learned`` when a card became public


@mypyc_attr(acyclic=True)
class Outcome:
    """The effects of one event. The class-level values are the defaults: "nothing of that
    kind happened". ``Outcome()`` itself is the outcome of an event that only moved the game
    along (see ``NOTHING``)."""

    __slots__ = ()

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
    learned: Learned = ()
    """``(seat, card id)``: a player came to know a card (``EVERYBODY``: it became public)."""
    forgotten: tuple[int, ...] = ()
    """Card ids nobody knows any more (shuffled back into the draw pile)."""
    success: bool | None = None
    """A multi-replacement's or a snap's success (a single replacement always succeeds)."""
    penalty: str | None = None
    """The penalty card taken (failed multi-replacement, wrong snap)."""
    earned: PowerKind | None = None
    """The power this event earned, pending now."""
    lapsed: PowerKind | None = None
    """A pending power that lapsed because this event came instead of its use or skip."""
    turn_ended: bool = False
    """The turn passed on (or the round ended) with this event."""
    round_ended: RoundResult | None = None
    """The result of the round this event ended (every hand is then revealed)."""
    match_ended: bool = False
    """The match is decided: winners are known."""

    def __repr__(self) -> str:
        shown = [f"{name}={getattr(self, name)!r}" for name in FIELDS
                 if getattr(self, name) != DEFAULTS[name]]
        return f"{type(self).__name__}({', '.join(shown)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in FIELDS)

    __hash__ = None  # type: ignore[assignment]  # equal outcomes, mutable results


FIELDS: tuple[str, ...] = (
    "card", "places", "discarded", "moved", "learned", "forgotten", "success", "penalty",
    "earned", "lapsed", "turn_ended", "round_ended", "match_ended",
)
"""Every field an outcome answers, in the order of the documentation."""


_SEATS: Final = 8       # seats -1 (EVERYBODY) to 6 ...
_WIDTH: Final = 128     # ... and card ids or positions 0-127 have their tuple made once
_ONE: Final[list[tuple[tuple[int, int], ...]]] = [
    ((seat, number),) for seat in range(-1, _SEATS - 1) for number in range(_WIDTH)]


def one(seat: int, number: int) -> tuple[tuple[int, int], ...]:
    """``((seat, number),)``: the one place or the one card learned that most events report,
    made once at import for every seat and card id (or position) a game has, so an event
    shares it instead of building two tuples and freeing them again. Tuples are immutable:
    nobody can tell a shared one from a new one but by ``is``."""
    if -1 <= seat < _SEATS - 1 and 0 <= number < _WIDTH:
        return _ONE[(seat + 1) * _WIDTH + number]
    return ((seat, number),)


# --- one record per kind of event: each sets only what that kind can say ----------------------


@mypyc_attr(acyclic=True)
class Dealt(Outcome):
    """A deal: the first card of the discard pile."""

    __slots__ = ("card",)

    def __init__(self, card: str) -> None:
        self.card = card


@mypyc_attr(acyclic=True, free_list_len=1)
class Peeked(Outcome):
    """The initial peek: the places looked at and what the player now knows."""

    __slots__ = ("places", "learned")

    def __init__(self, places: tuple[Place, ...], learned: Learned) -> None:
        self.places = places
        self.learned = learned


@mypyc_attr(acyclic=True, free_list_len=1)
class Drew(Outcome):
    """A draw: the card taken (known to the drawer, or to everybody from the discard pile)."""

    __slots__ = ("card", "learned")

    def __init__(self, card: str, learned: Learned) -> None:
        self.card = card
        self.learned = learned


@mypyc_attr(acyclic=True)
class Ended(Outcome):
    """An event that ends the turn and says nothing else (a skip, a Cabo call, a lapse at the
    end of the log): the round it may have ended, and whether the match is decided."""

    __slots__ = ("round_ended", "match_ended", "lapsed", "learned")
    turn_ended = True

    def __init__(self, round_ended: RoundResult | None, match_ended: bool,
                 lapsed: PowerKind | None = None, learned: Learned = ()) -> None:
        self.round_ended = round_ended
        self.match_ended = match_ended
        self.lapsed = lapsed
        self.learned = learned   # a Cabo call that began the round: the peeks it implied


@mypyc_attr(acyclic=True, free_list_len=1)
class Discarded(Outcome):
    """The drawn card went to the pile (public now); its power is pending, or the turn ended."""

    __slots__ = ("card", "discarded", "learned", "earned", "turn_ended", "round_ended",
                 "match_ended")

    def __init__(self, code: str, card: int, earned: PowerKind | None,
                 round_ended: RoundResult | None, match_ended: bool) -> None:
        self.card = code
        self.discarded = (code,)
        self.learned = one(EVERYBODY, card)
        self.earned = earned
        self.turn_ended = earned is None
        self.round_ended = round_ended
        self.match_ended = match_ended


@mypyc_attr(acyclic=True, free_list_len=1)
class Replaced(Outcome):
    """A successful replacement: the drawn card's place, the replaced cards on the pile."""

    __slots__ = ("card", "places", "discarded", "learned", "earned", "turn_ended",
                 "round_ended", "match_ended")
    success: bool | None = True

    def __init__(self, card: str, places: tuple[Place, ...], discarded: tuple[str, ...],
                 learned: Learned, earned: PowerKind | None, round_ended: RoundResult | None,
                 match_ended: bool) -> None:
        self.card = card
        self.places = places
        self.discarded = discarded
        self.learned = learned
        self.earned = earned
        self.turn_ended = earned is None
        self.round_ended = round_ended
        self.match_ended = match_ended


@mypyc_attr(acyclic=True)
class ReplaceFailed(Outcome):
    """A failed multi-replacement: the cards shown, the drawn card's place, any penalty."""

    __slots__ = ("card", "places", "learned", "penalty", "round_ended", "match_ended")
    success: bool | None = False
    turn_ended = True

    def __init__(self, card: str, places: tuple[Place, ...], learned: Learned,
                 penalty: str | None, round_ended: RoundResult | None,
                 match_ended: bool) -> None:
        self.card = card
        self.places = places
        self.learned = learned
        self.penalty = penalty
        self.round_ended = round_ended
        self.match_ended = match_ended


@mypyc_attr(acyclic=True, free_list_len=1)
class Looked(Outcome):
    """A peek or spy power: the card seen, at which place, by whom; the turn ends."""

    __slots__ = ("card", "places", "learned", "round_ended", "match_ended")
    turn_ended = True

    def __init__(self, card: str, place: Place, learned: Learned,
                 round_ended: RoundResult | None, match_ended: bool) -> None:
        self.card = card
        self.places = (place,)
        self.learned = learned
        self.round_ended = round_ended
        self.match_ended = match_ended


@mypyc_attr(acyclic=True, free_list_len=1)
class Swapped(Outcome):
    """A swap power: the two places (the user's first) and the cards moved; the turn ends."""

    __slots__ = ("places", "moved", "round_ended", "match_ended")
    turn_ended = True

    def __init__(self, places: tuple[Place, Place], moved: tuple[str, str],
                 round_ended: RoundResult | None, match_ended: bool) -> None:
        self.places = places
        self.moved = moved
        self.round_ended = round_ended
        self.match_ended = match_ended


@mypyc_attr(acyclic=True, free_list_len=1)
class Snapped(Outcome):
    """A snap: the card shown, whether it matched the pile's top, any penalty card."""

    __slots__ = ("card", "places", "discarded", "learned", "success", "penalty")

    def __init__(self, card: str, place: Place, discarded: tuple[str, ...], learned: Learned,
                 success: bool, penalty: str | None) -> None:
        self.card = card
        self.places = (place,)
        self.discarded = discarded
        self.learned = learned
        self.success = success
        self.penalty = penalty


@mypyc_attr(acyclic=True)
class Reshuffled(Outcome):
    """The discard pile became the draw pile: cards nobody knows any more."""

    __slots__ = ("forgotten",)

    def __init__(self, forgotten: tuple[int, ...]) -> None:
        self.forgotten = forgotten


@mypyc_attr(acyclic=True)
class Left(Outcome):
    """A forfeit: a held card dropped on the pile, and what ended with the player leaving."""

    __slots__ = ("discarded", "learned", "turn_ended", "round_ended", "match_ended")

    def __init__(self, discarded: tuple[str, ...], learned: tuple[tuple[int, int], ...],
                 turn_ended: bool, round_ended: RoundResult | None, match_ended: bool) -> None:
        self.discarded = discarded
        self.learned = learned
        self.turn_ended = turn_ended
        self.round_ended = round_ended
        self.match_ended = match_ended


@mypyc_attr(acyclic=True)
class AfterLapse(Outcome):
    """An event that came while a power was pending: its own outcome, plus the lapse of the
    power and the end of the turn (and maybe of the round) that the lapse brought first."""

    __slots__ = FIELDS

    def __init__(self, done: Outcome, lapsed: PowerKind | None, round_ended: RoundResult | None,
                 match_ended: bool) -> None:
        # field by field, not a loop over FIELDS: compiled, each is a direct read and write
        # (``getattr``/``setattr`` by name cost a generic lookup each)
        self.card = done.card
        self.places = done.places
        self.discarded = done.discarded
        self.moved = done.moved
        self.learned = done.learned
        self.forgotten = done.forgotten
        self.success = done.success
        self.penalty = done.penalty
        self.earned = done.earned
        self.lapsed = lapsed
        self.turn_ended = True
        self.round_ended = round_ended if round_ended is not None else done.round_ended
        self.match_ended = done.match_ended or match_ended


NOTHING: Final[Outcome] = Outcome()
"""Most events that only move the game along (a claim, a forfeit outside the round) share
this one instance."""
DEFAULTS: dict[str, object] = {name: getattr(NOTHING, name) for name in FIELDS}
"""The base class's value of each field, read off an instance: a compiled ``Outcome``
(docs/compiled.md) holds its defaults per instance, not on the class."""
TURN_ENDED: Final[Ended] = Ended(None, False)
"""A turn ended and nothing else happened (a skip, most Cabo calls)."""
