"""What one player knows: the table as that player saw it (OpenSpiel's observation).

A card is visible to a player when it lies face up, or when the player's bit is set in
``known``: they dealt-peeked it, drew it, spied it, saw it taken from the discard pile or
revealed by a failed replacement or snap. Knowledge follows the card, so swaps need no
bookkeeping of their own.

What everyone at the table sees happen to a row is public too, and part of each observation:
for every slot, how its card got there (``Arrival``: dealt, kept after a deck draw, taken
from the discard pile, brought or given by a swap, a penalty) and whether its owner knows it
(``Slot``). A card its owner kept after seeing it is their choice; one they never saw is any
card; one another player's swap gave them is what that player wanted rid of. The values stay
hidden: ``rows`` shows only the cards this player knows.
"""

from __future__ import annotations

from typing import ClassVar, Final

from .state import GameState, RoundState
from .vocabulary import (
    DEALT,
    GIVEN,
    KEPT,
    PENALTY,
    SWAPPED,
    TAKEN,
    Arrival,
    DrawSource,
    Phase,
    PowerKind,
)


class Slot:
    """The public record of one row slot: how its card got there, and whether its owner knows
    the card (peeked, spied by them, put there after seeing it, or face up). Never its value.

    A plain class, not a ``NamedTuple``: compiled, a named tuple is unboxed into a native tuple
    and boxed anew (as a plain tuple) wherever it is stored, while the twelve records here are
    made once and shared by every observation. Read-only by contract, like ``Observation``.
    """

    __slots__ = ("arrival", "owner_knows")

    def __init__(self, arrival: Arrival, owner_knows: bool) -> None:
        self.arrival = arrival
        self.owner_knows = owner_knows

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Slot):
            return NotImplemented
        return self.arrival == other.arrival and self.owner_knows == other.owner_knows

    def __hash__(self) -> int:
        return hash((self.arrival.value, self.owner_knows))

    def __repr__(self) -> str:
        return f"Slot(arrival={self.arrival.value!r}, owner_knows={self.owner_knows})"


_DEALT: Final = [Slot(DEALT, False), Slot(DEALT, True)]
_KEPT: Final = [Slot(KEPT, False), Slot(KEPT, True)]
_TAKEN: Final = [Slot(TAKEN, False), Slot(TAKEN, True)]
_SWAPPED: Final = [Slot(SWAPPED, False), Slot(SWAPPED, True)]
_GIVEN: Final = [Slot(GIVEN, False), Slot(GIVEN, True)]
_PENALTY: Final = [Slot(PENALTY, False), Slot(PENALTY, True)]
"""The records, made once and shared (a record is a constant), by whether the owner knows
the card."""


def _records(arrival: Arrival) -> list[Slot]:
    """The two records of an arrival, found by identity (the members are singletons): no
    hashing, which for an Enum member is a Python-level call even when compiled."""
    if arrival is DEALT:
        return _DEALT
    if arrival is KEPT:
        return _KEPT
    if arrival is TAKEN:
        return _TAKEN
    if arrival is SWAPPED:
        return _SWAPPED
    if arrival is GIVEN:
        return _GIVEN
    return _PENALTY


class Observation:
    """Everything a player may legitimately know at one moment; bots receive only this.

    A plain class with an explicit ``__init__`` (not a frozen dataclass), so that the compiled
    engine makes it a native class with a compiled constructor (a dataclass's generated
    ``__init__`` stays interpreted there, with a frozen ``__setattr__`` per field: most of a
    compiled simulation's time). Read-only by contract, like events; equality and ``repr``
    read ``FIELDS`` as the dataclass's did.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        "me", "players", "active", "round", "phase", "to_play", "rows", "slots", "discard",
        "deck_size",
        "drawn", "drawn_source", "pending_power", "caller", "scores", "turn", "ruleset")

    me: str
    players: tuple[str, ...]
    active: tuple[str, ...]
    round: int
    phase: Phase
    to_play: str | None
    rows: dict[str, tuple[str | None, ...]]   # None: a card this player does not know
    slots: dict[str, tuple[Slot, ...]]        # each slot's public record, by the rows' keys
    discard: tuple[str, ...]                  # the whole discard pile, top last (it is public)
    deck_size: int
    drawn: str | None                         # my drawn card (or a card taken from the pile)
    drawn_source: str | None
    pending_power: PowerKind | None
    caller: str | None
    scores: dict[str, int]
    turn: int
    ruleset: str

    def __init__(self, me: str, players: tuple[str, ...], active: tuple[str, ...], round: int,
                 phase: Phase, to_play: str | None, rows: dict[str, tuple[str | None, ...]],
                 slots: dict[str, tuple[Slot, ...]], discard: tuple[str, ...], deck_size: int,
                 drawn: str | None, drawn_source: str | None, pending_power: PowerKind | None,
                 caller: str | None, scores: dict[str, int], turn: int, ruleset: str) -> None:
        self.me = me
        self.players = players
        self.active = active
        self.round = round
        self.phase = phase
        self.to_play = to_play
        self.rows = rows
        self.slots = slots
        self.discard = discard
        self.deck_size = deck_size
        self.drawn = drawn
        self.drawn_source = drawn_source
        self.pending_power = pending_power
        self.caller = caller
        self.scores = scores
        self.turn = turn
        self.ruleset = ruleset

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.FIELDS)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({shown})"

    __hash__ = None  # type: ignore[assignment]  # its rows and scores are dicts


def visible(g: GameState, seat: int, card: int) -> bool:
    r = g.round
    return r.face_up[card] or bool(r.known[card] >> seat & 1)


def row_view(g: GameState, seat: int, owner: int) -> tuple[str | None, ...]:
    """The owner's row as ``seat`` sees it."""
    r = g.round
    return tuple(r.codes[c] if visible(g, seat, c) else None for c in r.rows[owner])


def observe(g: GameState, player: str) -> Observation:
    """``player``'s observation: ``g.observation(seat)`` by the player's name."""
    return g.observation(g.seat[player])


class Views:
    """The observations of one match's state, for every seat (``GameState.observation``).

    The rows are read from the state at every question (what each seat knows of a card is one
    bit of ``known``); the parts that change rarely (the discard pile, the scores, who is
    still in and seated, each row's slot records) are rebuilt only when they changed, compared
    with what they were made from, and shared between observations until then (an observation
    is read-only: bots read it, never write to it). Nothing here follows events: a state that
    moved on in any way (``apply``, a replay's handlers, a copy) is read afresh where it
    differs.
    """

    def __init__(self) -> None:
        self.round: RoundState | None = None   # the round ``seated`` is about
        self.active: list[bool] = []            # who was in when ``names`` was made
        self.names: tuple[str, ...] = ()
        self.seated: list[tuple[int, str]] = []
        self.pile: list[int] = []               # the pile ``discard`` shows
        self.discard: tuple[str, ...] = ()
        self.cumulative: list[int] = []
        self.scores: dict[str, int] = {}
        self.slot_seen: list[int] = []           # the round's ``slot_changes`` ``slots`` is of
        self.slot_rows: list[tuple[Slot, ...]] = []   # each seat's records
        self.slots: dict[str, tuple[Slot, ...]] = {}

    def observe(self, g: GameState, seat: int, own_row_only: bool) -> Observation:
        """``g.observation(seat, own_row_only)`` (``g`` holds this, and is passed in rather
        than kept: no reference cycle between a state and its views)."""
        r = g.round
        if r is not self.round or g.active != self.active:
            if r is not self.round:   # a deal: card ids name other cards now
                self.pile = []
                self.discard = ()
            self.round = r
            self.active = g.active[:]
            players, active = g.players, g.active
            self.names = tuple([name for name, on in zip(players, active, strict=True) if on])
            self.seated = [(p, players[p]) for p in r.participants if active[p]]
            self.slot_seen = []
            self.slot_rows = [() for _ in players]
            self.slots = {}
        codes = r.codes
        pile = r.pile
        if pile != self.pile:
            self.pile = pile[:]
            self.discard = tuple([codes[c] for c in pile])
        if g.cumulative != self.cumulative:
            self.cumulative = g.cumulative[:]
            self.scores = g.cumulative_by_name()
        face_up, known, bit, row_of = r.face_up, r.known, 1 << seat, r.rows
        rows: dict[str, tuple[str | None, ...]] = {}
        for p, name in self.seated:
            if own_row_only and p != seat:
                continue
            rows[name] = tuple([codes[c] if face_up[c] or known[c] & bit else None
                                for c in row_of[p]])
        slots = self._slots(r)
        if own_row_only:
            me = g.players[seat]
            slots = {me: slots[me]} if me in slots else {}
        players = g.players
        current = r.current
        drawn: str | None = None
        source: str | None = None
        if r.drawn >= 0 and (current == seat or r.drawn_source == DrawSource.DISCARD):
            drawn = codes[r.drawn]
            source = r.drawn_source
        phase: Phase = g.phase
        return Observation(players[seat], players, self.names, r.round_no, phase,
                           players[current] if phase in _PLAYING else None, rows, slots,
                           self.discard, len(r.deck), drawn, source,
                           r.pending_power if current == seat else None,
                           players[r.caller] if r.caller >= 0 else None, self.scores, r.turn,
                           g.rules.name)


    def _slots(self, r: RoundState) -> dict[str, tuple[Slot, ...]]:
        """The slot records of every seated row: the same for every viewer (they are public),
        a row's rebuilt when its seat's count in ``slot_changes`` moved (a card placed or
        removed, or come to be known by its owner)."""
        changes = r.slot_changes
        seen = self.slot_seen
        if changes == seen:
            return self.slots
        face_up, known, arrivals, rows = r.face_up, r.known, r.arrivals, r.rows
        made = self.slot_rows
        for p, _ in self.seated:
            if p < len(seen) and changes[p] == seen[p]:
                continue
            owner = 1 << p
            made[p] = tuple([_records(arrivals[c])[1 if face_up[c] or known[c] & owner else 0]
                             for c in rows[p]])
        self.slot_seen = changes[:]
        slots = {name: made[p] for p, name in self.seated}
        self.slots = slots
        return slots


_PLAYING: Final = frozenset((Phase.TURN_START, Phase.DRAWN, Phase.POWER))
"""The phases with a player to act (``GameState.current_player``)."""


def known_cards(g: GameState, seat: int, owner: int) -> list[tuple[int, str]]:
    """(position, code) of the owner's cards that ``seat`` knows."""
    r = g.round
    return [(i, r.codes[c]) for i, c in enumerate(r.rows[owner]) if visible(g, seat, c)]


def known_total(g: GameState, seat: int) -> tuple[int, int]:
    """How many of their own cards a player knows, and the sum of those values."""
    r = g.round
    cards = [c for c in r.rows[seat] if visible(g, seat, c)]
    return len(cards), sum(r.values[c] for c in cards)
