"""The state of one match: a mutable ``GameState`` that ``apply`` advances in place, holding
the round being played in a ``RoundState`` that each deal replaces.

Cards are numbered per round (their place in the deal); rows, piles and the drawn card hold
those numbers. ``codes``, ``values``, ``known``, ``face_up`` and ``arrivals`` are indexed by
them, so what a player knows about a card follows the card through swaps, snaps and reshuffles
for free. ``known`` is a bit mask of player seats.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .results import RoundResult, _copy_into, _repr, _values
from .rulesets import Ruleset
from .vocabulary import DRAWN, POWER, TURN_START, Arrival, Phase, PowerKind

if TYPE_CHECKING:
    from .events import Event
    from .knowledge import Observation, Views
    from .moves import MoveLister

Place = tuple[int, int]   # (seat, position in that seat's row)


class RoundState:
    """One round being played: the cards, where they lie, who knows them, whose turn it is.

    A deal builds a fresh one and replaces the previous round's, so nothing of a round can
    leak into the next. Before the first deal the match holds an empty one (nobody in play).
    A plain class (not a dataclass) so that the compiled engine makes it a native class;
    equality, ``repr`` and copying read ``FIELDS`` as the dataclass's did.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        "round_no", "participants", "in_play", "codes", "values", "known", "face_up", "rows",
        "deck", "pile", "out", "first", "current", "turn", "started", "peeked", "caller",
        "caller_forfeited", "final_left", "drawn", "drawn_source", "pending_power",
        "reshuffles", "arrivals", "slot_changes")
    __slots__ = FIELDS

    def __init__(self, round_no: int = 0, participants: tuple[int, ...] = (),
                 in_play: list[bool] | None = None, codes: list[str] | None = None,
                 values: list[int] | None = None, known: list[int] | None = None,
                 face_up: list[bool] | None = None, rows: list[list[int]] | None = None,
                 deck: list[int] | None = None, pile: list[int] | None = None,
                 out: list[int] | None = None, first: int = 0, current: int = 0,
                 turn: int = 0, started: bool = False, peeked: list[bool] | None = None,
                 caller: int = -1, caller_forfeited: bool = False,
                 final_left: list[int] | None = None, drawn: int = -1,
                 drawn_source: str = "", pending_power: PowerKind | None = None,
                 reshuffles: int = 0, arrivals: list[Arrival] | None = None,
                 slot_changes: list[int] | None = None) -> None:
        self.round_no = round_no
        self.participants = participants
        self.in_play: list[bool] = [] if in_play is None else in_play  # dealt, still active
        self.codes: list[str] = [] if codes is None else codes
        self.values: list[int] = [] if values is None else values
        self.known: list[int] = [] if known is None else known
        self.face_up: list[bool] = [] if face_up is None else face_up
        self.rows: list[list[int]] = [] if rows is None else rows
        self.deck: list[int] = [] if deck is None else deck   # top is the last element
        self.pile: list[int] = [] if pile is None else pile   # discard pile, top is last
        self.out: list[int] = [] if out is None else out      # rows of forfeited players
        self.first = first
        self.current = current
        self.turn = turn
        self.started = started
        self.peeked: list[bool] = [] if peeked is None else peeked
        self.caller = caller
        self.caller_forfeited = caller_forfeited
        self.final_left: list[int] = [] if final_left is None else final_left
        self.drawn = drawn
        self.drawn_source = drawn_source          # a DrawSource while a card is held
        self.pending_power = pending_power
        self.reshuffles = reshuffles
        # by card number: how the card came to the row slot it lies in (public, like
        # ``known``); it follows the card, and counts only while the card lies in a row
        self.arrivals: list[Arrival] = [] if arrivals is None else arrivals
        # by seat: how many times a slot of its row changed its public record (a card placed,
        # removed or come to be known by the owner): ``knowledge.Views`` rebuilds a row's then
        self.slot_changes: list[int] = [] if slot_changes is None else slot_changes

    def row_changed(self, seat: int) -> None:
        """Count a change of the public record of ``seat``'s row (a card placed or removed, or
        come to be known by its owner), so that observations rebuild that row's records."""
        changes = self.slot_changes   # not ``+=`` on the item: compiled, a generic number call
        changes[seat] = changes[seat] + 1

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self, self.FIELDS) == _values(other, self.FIELDS)

    def __repr__(self) -> str:
        return _repr(self, self.FIELDS)

    def __copy__(self) -> RoundState:
        return _copy_into(RoundState(), self, self.FIELDS, None)

    def __deepcopy__(self, memo: dict[int, object]) -> RoundState:
        return _copy_into(RoundState(), self, self.FIELDS, memo)

    __hash__ = None  # type: ignore[assignment]  # mutable


class GameState:
    """One match in progress: the match-long facts here, the round being played in
    ``round``. Mutated by ``engine.apply``; copy with ``snapshot()``. A plain class for the
    compiled engine, like ``RoundState``.

    Readers outside the engine ask it questions (the read API, docs/engine-api.md):
    ``observation(seat)``, ``knows(seat, place)``, ``legal_moves()`` and the table's public
    facts (``deck_size()``, ``pile()``, ``to_act()``...), and read only the match facts
    ``PUBLIC`` names; the round state and the other fields are the engine's own.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        "rules", "game_id", "players", "names", "seat", "values_of", "power_of",
        "deck_counter", "deck_index", "deck_values", "deck_counts", "deck_ids", "active",
        "cumulative", "reset_used", "rounds", "phase",
        "complete", "winners", "ending", "tiebreak", "events", "everybody", "seq_mode", "round",
        "tally")
    __slots__ = FIELDS + ("_views", "_lister")
    PUBLIC: ClassVar[tuple[str, ...]] = (
        "rules", "game_id", "players", "names", "seat", "active", "cumulative", "rounds",
        "phase", "complete", "winners", "tiebreak", "events", "seq_mode", "tally")
    """The fields a reader outside the engine may read (never write)."""

    def __init__(self, rules: Ruleset, game_id: str, players: tuple[str, ...],
                 names: dict[str, object] | None = None, seat: dict[str, int] | None = None,
                 values_of: dict[str, int] | None = None,
                 power_of: dict[int, PowerKind] | None = None,
                 deck_counter: dict[str, int] | None = None,
                 deck_index: dict[str, int] | None = None,
                 deck_values: list[int] | None = None, deck_counts: list[int] | None = None,
                 deck_ids: list[int] | None = None, active: list[bool] | None = None,
                 cumulative: list[int] | None = None, reset_used: list[bool] | None = None,
                 rounds: list[RoundResult] | None = None, phase: Phase = Phase.BEFORE_DEAL,
                 complete: bool = False, winners: tuple[str, ...] = (), ending: bool = False,
                 tiebreak: tuple[int, ...] | None = None, events: int = 1, everybody: int = 0,
                 seq_mode: bool = False, round: RoundState | None = None,
                 tally: bool = False) -> None:
        self.rules = rules
        self.game_id = game_id
        self.players = players
        self.names: dict[str, object] = {} if names is None else names
        self.seat: dict[str, int] = {} if seat is None else seat
        self.values_of: dict[str, int] = {} if values_of is None else values_of
        self.power_of: dict[int, PowerKind] = {} if power_of is None else power_of
        self.deck_counter: dict[str, int] = {} if deck_counter is None else deck_counter
        # the deck by kind of card (code -> its number; the value and count of each number),
        # what a deal is checked against, and the card numbers ``n - 1`` down to 0
        self.deck_index: dict[str, int] = {} if deck_index is None else deck_index
        self.deck_values: list[int] = [] if deck_values is None else deck_values
        self.deck_counts: list[int] = [] if deck_counts is None else deck_counts
        self.deck_ids: list[int] = [] if deck_ids is None else deck_ids
        self.active: list[bool] = [] if active is None else active
        self.cumulative: list[int] = [] if cumulative is None else cumulative
        self.reset_used: list[bool] = [] if reset_used is None else reset_used
        self.rounds: list[RoundResult] = [] if rounds is None else rounds
        self.phase = phase
        self.complete = complete
        self.winners = winners
        self.ending = ending            # the end condition was met; a tie is being broken
        self.tiebreak = tiebreak        # golf: seats that play the tie-break round
        self.events = events            # lines applied, header included
        self.everybody = everybody      # the bit mask of every seat (a public card)
        self.seq_mode = seq_mode
        self.round: RoundState = RoundState() if round is None else round
        self.tally = tally              # a score sheet (record "tally"): rounds come as tallies
        # what the read API remembers between questions (never copied nor compared)
        self._views: Views | None = None
        self._lister: MoveLister | None = None

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self, self.FIELDS) == _values(other, self.FIELDS)

    def __repr__(self) -> str:
        return _repr(self, self.FIELDS)

    def __reduce__(self) -> tuple[type[GameState], tuple[Any, ...]]:
        # compiled, a native class is rebuilt through its __init__, which needs arguments
        return GameState, tuple(_values(self, self.FIELDS))

    def __copy__(self) -> GameState:
        return _copy_into(GameState(self.rules, self.game_id, self.players), self,
                          self.FIELDS, None)

    def __deepcopy__(self, memo: dict[int, object]) -> GameState:
        return _copy_into(GameState(self.rules, self.game_id, self.players), self,
                          self.FIELDS, memo)

    __hash__ = None  # type: ignore[assignment]  # mutable

    # --- small questions -----------------------------------------------------------------
    def name(self, seat: int) -> str:
        return self.players[seat]

    def in_round(self, seat: int) -> bool:
        return self.round.in_play[seat]

    def active_participants(self) -> list[int]:
        active = self.active
        return [p for p in self.round.participants if active[p]]

    def active_players(self) -> list[int]:
        return [p for p in range(len(self.players)) if self.active[p]]

    def row_codes(self, seat: int) -> list[str]:
        codes = self.round.codes
        return [codes[c] for c in self.round.rows[seat]]

    def row_total(self, seat: int) -> int:
        values = self.round.values
        return sum(values[c] for c in self.round.rows[seat])

    def discard_top(self) -> str | None:
        r = self.round
        return r.codes[r.pile[-1]] if r.pile else None

    def cumulative_by_name(self) -> dict[str, int]:
        return {p: self.cumulative[i] for i, p in enumerate(self.players)}

    def current_player(self) -> str | None:
        if self.phase in (TURN_START, DRAWN, POWER):
            return self.players[self.round.current]
        return None

    def caller_name(self) -> str | None:
        caller = self.round.caller
        return self.players[caller] if caller >= 0 else None

    def card_locations(self) -> list[int]:
        """Every card id of the round wherever it lies (for conservation checks)."""
        r = self.round
        ids = [c for row in r.rows for c in row] + r.deck + r.pile + r.out
        if r.drawn >= 0:
            ids.append(r.drawn)
        return ids

    # --- the read API (docs/engine-api.md) -------------------------------------------------
    def observation(self, seat: int, own_row_only: bool = False) -> Observation:
        """What the player at ``seat`` may know now (OpenSpiel's observation): the one
        implementation is ``knowledge.Views``, which keeps the parts that rarely change
        between questions. ``own_row_only``: ``rows`` holds only the player's own row (for a
        bot that reads no other; every other field is the same)."""
        views = self._views
        if views is None:
            from .knowledge import Views
            views = self._views = Views()
        return views.observe(self, seat, own_row_only)

    def knows(self, seat: int, place: Place) -> bool:
        """Whether the player at ``seat`` knows the card at ``place`` (it lies face up, or they
        saw it: knowledge follows the card through swaps)."""
        r = self.round
        card = r.rows[place[0]][place[1]]
        return r.face_up[card] or bool(r.known[card] >> seat & 1)

    def knows_row(self, seat: int, owner: int) -> int:
        """``knows(seat, (owner, i))`` for every position ``i`` of the owner's row, as the bits
        of one number (bit ``i`` set: known), for a reader that asks about a whole row per
        event."""
        r = self.round
        face_up, known = r.face_up, r.known
        mask = 0
        position = 1
        for c in r.rows[owner]:
            if face_up[c] or known[c] >> seat & 1:
                mask |= position
            position <<= 1
        return mask

    def legal_moves(self) -> Sequence[Event]:
        """The moves of the player to act, as events ready for ``apply`` (draw or Cabo at a
        turn's start, the placements of a drawn card, a power's uses): the placements lazy
        (made when read), the other lists remembered per ruleset and table (``moves``)."""
        lister = self._lister
        if lister is None:
            from .moves import MoveLister
            lister = self._lister = MoveLister((self.rules, self.players))
        return lister.moves(self)

    def round_no(self) -> int:
        """The number of the round being played (0 before the first deal)."""
        return self.round.round_no

    def turn(self) -> int:
        """Turns begun in the round being played."""
        return self.round.turn

    def to_act(self) -> int:
        """The seat whose turn it is (or was, once the round is over)."""
        return self.round.current

    def caller(self) -> int:
        """The seat that called Cabo this round, or -1."""
        return self.round.caller

    def participants(self) -> tuple[int, ...]:
        """The seats dealt into the round being played."""
        return self.round.participants

    def deck_size(self) -> int:
        return len(self.round.deck)

    def deck_top(self) -> str | None:
        """The card a deck draw takes now (None: the draw pile is empty)."""
        r = self.round
        return r.codes[r.deck[-1]] if r.deck else None

    def pile(self) -> list[str]:
        """The discard pile, bottom first (it is public)."""
        codes = self.round.codes
        return [codes[c] for c in self.round.pile]

    def pile_size(self) -> int:
        return len(self.round.pile)

    def row_size(self, seat: int) -> int:
        return len(self.round.rows[seat])

    def card(self, place: Place) -> str:
        """The card at ``place`` (everybody's view: a referee's, not a player's)."""
        r = self.round
        return r.codes[r.rows[place[0]][place[1]]]

    def drawn(self) -> str | None:
        """The card the player to act holds (drawn, or taken from the pile), if any."""
        r = self.round
        return r.codes[r.drawn] if r.drawn >= 0 else None

    def drawn_source(self) -> str | None:
        """Where the held card came from (a ``DrawSource`` value), if a card is held."""
        r = self.round
        return r.drawn_source if r.drawn >= 0 else None

    def pending_power(self) -> PowerKind | None:
        """The power the player to act may use now, if any."""
        return self.round.pending_power

    def reshuffles(self) -> int:
        """Reshuffles of the discard pile in the round being played."""
        return self.round.reshuffles

    def value_of(self, code: str) -> int:
        """A card's value under the match's ruleset."""
        return self.values_of[code]

    # cards by id (the round's card numbers, as ``Outcome.learned`` names them): what a
    # player knows follows the card, not the place, so a reader that follows knowledge
    # across moves (the words of an event, the timeline) holds ids
    def card_count(self) -> int:
        """How many cards the round holds (ids are 0 to this, exclusive)."""
        return len(self.round.codes)

    def card_id(self, place: Place) -> int:
        return self.round.rows[place[0]][place[1]]

    def row_ids(self, seat: int) -> list[int]:
        """The ids of a seat's row, left to right (a copy)."""
        return self.round.rows[seat][:]

    def code(self, card: int) -> str:
        return self.round.codes[card]

    def value(self, card: int) -> int:
        return self.round.values[card]

    def face_up(self, card: int) -> bool:
        return self.round.face_up[card]

    def sees(self, seat: int, card: int) -> bool:
        """Whether the player at ``seat`` knows the card ``card`` (``knows`` by id)."""
        r = self.round
        return r.face_up[card] or bool(r.known[card] >> seat & 1)

    def drawn_id(self) -> int:
        """The id of the card held by the player to act, or -1."""
        return self.round.drawn

    def pile_top_id(self) -> int | None:
        pile = self.round.pile
        return pile[-1] if pile else None

    def snapshot(self) -> GameState:
        """An independent copy, for ``--until`` and step-through views; never on the hot path."""
        return copy.deepcopy(self)
