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

from typing import ClassVar, Final, NamedTuple

from .state import GameState, Phase, RoundState
from .vocabulary import Arrival, DrawSource, PowerKind


class Slot(NamedTuple):
    """The public record of one row slot: how its card got there, and whether its owner knows
    the card (peeked, spied by them, put there after seeing it, or face up). Never its value."""

    arrival: Arrival
    owner_knows: bool


_SLOTS: Final[dict[str, tuple[Slot, Slot]]] = {
    a.value: (Slot(a, False), Slot(a, True)) for a in Arrival}
"""The records, made once and shared (a record is a constant): by arrival, then whether the
owner knows the card."""


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
    still in and seated) are rebuilt only when they changed, compared with what they were
    made from, and shared between observations until then (an observation is read-only: bots
    read it, never write to it). Nothing here follows events: a state that moved on in any
    way (``apply``, a replay's handlers, a copy) is read afresh where it differs.
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
        codes = r.codes
        pile = r.pile
        if pile != self.pile:
            self.pile = pile[:]
            self.discard = tuple([codes[c] for c in pile])
        if g.cumulative != self.cumulative:
            self.cumulative = g.cumulative[:]
            self.scores = g.cumulative_by_name()
        face_up, known, bit, row_of = r.face_up, r.known, 1 << seat, r.rows
        arrivals = r.arrivals
        rows: dict[str, tuple[str | None, ...]] = {}
        slots: dict[str, tuple[Slot, ...]] = {}
        for p, name in self.seated:
            if own_row_only and p != seat:
                continue
            row = row_of[p]
            rows[name] = tuple([codes[c] if face_up[c] or known[c] & bit else None
                                for c in row])
            owner = 1 << p
            slots[name] = tuple([_SLOTS[arrivals[c]][1 if face_up[c] or known[c] & owner else 0]
                                 for c in row])
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
