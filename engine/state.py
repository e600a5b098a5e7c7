"""The state of one match: a mutable ``GameState`` that ``apply`` advances in place, holding
the round being played in a ``RoundState`` that each deal replaces.

Cards are numbered per round (their place in the deal); rows, piles and the drawn card hold
those numbers. ``codes``, ``values``, ``known`` and ``face_up`` are indexed by them, so what a
player knows about a card follows the card through swaps, snaps and reshuffles for free.
``known`` is a bit mask of player seats.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import StrEnum

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


BEFORE_DEAL = Phase.BEFORE_DEAL
TURN_START = Phase.TURN_START
DRAWN = Phase.DRAWN
POWER = Phase.POWER
ROUND_OVER = Phase.ROUND_OVER
MATCH_OVER = Phase.MATCH_OVER

END_CABO = EndReason.CABO
END_DECK_EMPTY = EndReason.DECK_EMPTY
END_FORFEIT = EndReason.FORFEIT


@dataclass
class RoundResult:
    """What a finished round came to; the replay report's ``rounds`` entries."""

    round: int
    first: str
    players: tuple[str, ...]
    caller: str | None
    cabo_success: bool | None
    end: EndReason
    hands: dict[str, list[str]]
    totals: dict[str, int]
    points: dict[str, int]
    cumulative: dict[str, int]
    turns: int
    reshuffles: int
    special: tuple[str, ...] = ()
    resets: tuple[str, ...] = ()
    tiebreak: bool = False

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.round, "first": self.first, "players": list(self.players),
            "caller": self.caller, "cabo_success": self.cabo_success, "end": self.end,
            "hands": self.hands, "totals": self.totals, "points": self.points,
            "cumulative": self.cumulative, "turns": self.turns, "reshuffles": self.reshuffles,
            "special": list(self.special), "resets": list(self.resets),
            "tiebreak": self.tiebreak,
        }


@dataclass(slots=True)
class RoundState:
    """One round being played: the cards, where they lie, who knows them, whose turn it is.

    A deal builds a fresh one and replaces the previous round's, so nothing of a round can
    leak into the next. Before the first deal the match holds an empty one (nobody in play).
    """

    round_no: int = 0
    participants: tuple[int, ...] = ()
    in_play: list[bool] = field(default_factory=list)  # dealt in this round and still active
    codes: list[str] = field(default_factory=list)
    values: list[int] = field(default_factory=list)
    known: list[int] = field(default_factory=list)
    face_up: list[bool] = field(default_factory=list)
    rows: list[list[int]] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)   # top is the last element
    pile: list[int] = field(default_factory=list)   # discard pile, top is the last element
    out: list[int] = field(default_factory=list)    # rows of forfeited players
    first: int = 0
    current: int = 0
    turn: int = 0
    started: bool = False
    peeked: list[bool] = field(default_factory=list)
    caller: int = -1
    caller_forfeited: bool = False
    final_left: list[int] = field(default_factory=list)
    drawn: int = -1
    drawn_source: str = ""                    # a DrawSource while a card is held
    pending_power: PowerKind | None = None
    reshuffles: int = 0


@dataclass(slots=True)
class GameState:
    """One match in progress: the match-long facts here, the round being played in
    ``round``. Mutated by ``engine.apply``; copy with ``snapshot()``."""

    rules: Ruleset
    game_id: str
    players: tuple[str, ...]
    names: dict[str, object] = field(default_factory=dict)
    seat: dict[str, int] = field(default_factory=dict)
    values_of: dict[str, int] = field(default_factory=dict)
    power_of: dict[int, PowerKind] = field(default_factory=dict)
    deck_counter: dict[str, int] = field(default_factory=dict)
    sorted_deck: list[str] = field(default_factory=list)
    active: list[bool] = field(default_factory=list)
    cumulative: list[int] = field(default_factory=list)
    reset_used: list[bool] = field(default_factory=list)
    rounds: list[RoundResult] = field(default_factory=list)
    phase: Phase = Phase.BEFORE_DEAL
    complete: bool = False
    winners: tuple[str, ...] = ()
    ending: bool = False                     # the end condition was met; a tie is being broken
    tiebreak: tuple[int, ...] | None = None  # golf: seats that play the tie-break round
    events: int = 1                          # lines applied, header included
    everybody: int = 0                       # the bit mask of every seat (a public card)
    seq_mode: bool = False
    round: RoundState = field(default_factory=RoundState)

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
