"""The state of one match: a mutable ``GameState`` that ``apply`` advances in place, holding
the round being played in a ``RoundState`` that each deal replaces.

Cards are numbered per round (their place in the deal); rows, piles and the drawn card hold
those numbers. ``codes``, ``values``, ``known`` and ``face_up`` are indexed by them, so what a
player knows about a card follows the card through swaps, snaps and reshuffles for free.
``known`` is a bit mask of player seats.
"""

from __future__ import annotations

import copy
from enum import StrEnum
from typing import Any, ClassVar, Final, TypeVar

from .rulesets import Ruleset
from .vocabulary import PowerKind


class Phase(StrEnum):
    """Where the match stands between two events (str-valued: reports print the value)."""

    BEFORE_DEAL = "before_deal"     # the header is read, no round dealt yet
    TURN_START = "turn_start"       # the current player must draw or call Cabo; snaps allowed
    DRAWN = "drawn"                 # the current player holds a drawn card
    POWER = "power"                 # the current player may use the power just earned
    ROUND_OVER = "round_over"       # the round was scored; a deal (or claims) comes next
    MATCH_OVER = "match_over"       # winners known; only claims may follow


class EndReason(StrEnum):
    """Why a round ended (the ``end`` of a round result)."""

    CABO = "cabo"                   # the final turns after a Cabo call were played
    DECK_EMPTY = "deck_empty"       # the draw pile ran out (where the ruleset says so)
    FORFEIT = "forfeit"             # fewer than two players were left


BEFORE_DEAL: Final[Phase] = Phase.BEFORE_DEAL
TURN_START: Final[Phase] = Phase.TURN_START
DRAWN: Final[Phase] = Phase.DRAWN
POWER: Final[Phase] = Phase.POWER
ROUND_OVER: Final[Phase] = Phase.ROUND_OVER
MATCH_OVER: Final[Phase] = Phase.MATCH_OVER

END_CABO: Final[EndReason] = EndReason.CABO
END_DECK_EMPTY: Final[EndReason] = EndReason.DECK_EMPTY
END_FORFEIT: Final[EndReason] = EndReason.FORFEIT
S = TypeVar("S")


class RoundResult:
    """What a finished round came to; the replay report's ``rounds`` entries.

    A plain class (it was a dataclass): compiled, a dataclass's generated ``__init__`` stays
    interpreted and cost ~7k instructions per round; equality, ``repr`` and copying read
    ``FIELDS`` as the dataclass's did, and ``__reduce__`` keeps it picklable in both builds.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        "round", "first", "players", "caller", "cabo_success", "end", "hands", "totals",
        "points", "cumulative", "turns", "reshuffles", "special", "resets", "tiebreak")
    __slots__ = FIELDS

    def __init__(self, round: int, first: str, players: tuple[str, ...], caller: str | None,
                 cabo_success: bool | None, end: EndReason, hands: dict[str, list[str]],
                 totals: dict[str, int], points: dict[str, int], cumulative: dict[str, int],
                 turns: int, reshuffles: int, special: tuple[str, ...] = (),
                 resets: tuple[str, ...] = (), tiebreak: bool = False) -> None:
        self.round = round
        self.first = first
        self.players = players
        self.caller = caller
        self.cabo_success = cabo_success
        self.end = end
        self.hands = hands
        self.totals = totals
        self.points = points
        self.cumulative = cumulative
        self.turns = turns
        self.reshuffles = reshuffles
        self.special = special
        self.resets = resets
        self.tiebreak = tiebreak

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self, self.FIELDS) == _values(other, self.FIELDS)

    def __repr__(self) -> str:
        return _repr(self, self.FIELDS)

    def __reduce__(self) -> tuple[type[RoundResult], tuple[Any, ...]]:
        return RoundResult, tuple(_values(self, self.FIELDS))

    def __copy__(self) -> RoundResult:
        return RoundResult(*_values(self, self.FIELDS))

    def __deepcopy__(self, memo: dict[int, object]) -> RoundResult:
        new = RoundResult(*copy.deepcopy(_values(self, self.FIELDS), memo))
        memo[id(self)] = new
        return new

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.round, "first": self.first, "players": list(self.players),
            "caller": self.caller, "cabo_success": self.cabo_success, "end": self.end,
            "hands": self.hands, "totals": self.totals, "points": self.points,
            "cumulative": self.cumulative, "turns": self.turns, "reshuffles": self.reshuffles,
            "special": list(self.special), "resets": list(self.resets),
            "tiebreak": self.tiebreak,
        }


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
        "reshuffles")
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
                 reshuffles: int = 0) -> None:
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
    compiled engine, like ``RoundState``."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "rules", "game_id", "players", "names", "seat", "values_of", "power_of",
        "deck_counter", "deck_index", "deck_values", "deck_counts", "deck_ids", "active",
        "cumulative", "reset_used", "rounds", "phase",
        "complete", "winners", "ending", "tiebreak", "events", "everybody", "seq_mode", "round",
        "tally")
    __slots__ = FIELDS

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

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self, self.FIELDS) == _values(other, self.FIELDS)

    def __repr__(self) -> str:
        return _repr(self, self.FIELDS)

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

    def snapshot(self) -> GameState:
        """An independent copy, for ``--until`` and step-through views; never on the hot path."""
        return copy.deepcopy(self)


def _values(obj: object, names: tuple[str, ...]) -> list[Any]:
    return [getattr(obj, name) for name in names]


def _repr(obj: object, names: tuple[str, ...]) -> str:
    shown = ", ".join(f"{name}={getattr(obj, name)!r}" for name in names)
    return f"{type(obj).__name__}({shown})"


def _copy_into(new: S, old: S, names: tuple[str, ...], memo: dict[int, object] | None) -> S:
    """``new`` given ``old``'s fields: the same objects (``copy.copy``), or deep copies
    (``copy.deepcopy``, ``memo`` its memo). Written out because a compiled (native) class
    cannot be rebuilt by ``copy``'s default ``__reduce_ex__``."""
    if memo is None:
        for name in names:
            setattr(new, name, getattr(old, name))
        return new
    memo[id(old)] = new
    for name in names:
        setattr(new, name, copy.deepcopy(getattr(old, name), memo))
    return new
