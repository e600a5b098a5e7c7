"""Rows that stay open across events: a power from the event that earned it until it is used,
skipped, passed or lapses; a Cabo call until its round is scored.

An open row is a dict keyed by the column names of its table (``schema.SCHEMAS``), filled as
the replay goes (None: NULL); when it closes it is kept as a tuple in the schema's column order
(``as_row``), the form ``chunk`` turns into columns. Used by ``rows.GameRows``.
"""

from __future__ import annotations

from typing import Any

from cabo_log.db.schema import COLUMNS
from engine import GameState, Outcome
from engine.events import Power
from engine.knowledge import known_total

Row = dict[str, Any]


def as_row(table: str, row: Row) -> tuple[Any, ...]:
    """A row by column name -> the tuple of ``table``'s columns after the key, in order."""
    return tuple(map(row.get, COLUMNS[table]))


# an open row starts as a copy of its table's empty row (every column, in order, NULL), so it
# closes as ``tuple(row.values())`` without a lookup per column
_EMPTY_POWER: Row = dict.fromkeys(COLUMNS["powers"])
_EMPTY_CALL: Row = dict.fromkeys(COLUMNS["cabo_calls"])


class PowerRows:
    """The ``powers`` rows of one game."""

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []
        self.open: Row | None = None
        self.known: list[int] | None = None   # what was known when the power was earned

    def start(self, g: GameState) -> None:
        """A power is pending (``g.phase`` is POWER) and was not seen before."""
        r = g.round
        top = r.pile[-1]
        row = self.open = _EMPTY_POWER.copy()
        row.update(round=r.round_no, turn=r.turn, seq=g.events - 1,
                   player=g.players[r.current], card=r.codes[top], card_value=r.values[top],
                   power=r.pending_power)
        # what is known now is what the user knows when using the power (a swap on a final
        # turn ends the round, which reveals every hand before the visitor sees it)
        self.known = r.known[:]

    def close(self, outcome: str, use_seq: int | None) -> None:
        """``used``, ``skipped``, ``passed`` (the next turn began) or ``lapsed`` (log ended)."""
        row = self.open
        assert row is not None
        row["outcome"] = outcome
        row["used"] = outcome == "used"
        row["use_seq"] = use_seq
        self.rows.append(tuple(row.values()))
        self.open = None
        self.known = None

    def peeked(self, e: Power, g: GameState, out: Outcome) -> None:
        """A peek or spy used the open power (if the replay saw it earned)."""
        row = self.open
        if row is None:
            return
        assert e.target is not None
        row["target_player"], row["target_position"] = e.target
        row["seen"] = out.card
        row["seen_value"] = g.values_of[out.card] if out.card is not None else None
        self.close("used", g.events - 1)

    def swapped(self, e: Power, g: GameState, out: Outcome, gain: int | None) -> None:
        """A swap used the open power; ``out.places`` has the user's own place first."""
        row = self.open
        if row is None:
            return
        assert e.cards is not None
        (a, pos_a), (b, pos_b) = out.places
        given, received = out.moved
        if self.known is not None:
            bit = 1 << g.seat[e.player]
            rows = g.round.rows
            row["knew_given"] = bool(self.known[rows[b][pos_b]] & bit)  # what left a is at b
            row["knew_received"] = bool(self.known[rows[a][pos_a]] & bit)
        (row["swap_player_a"], row["swap_position_a"]), \
            (row["swap_player_b"], row["swap_position_b"]) = e.cards
        values_of = g.values_of
        row.update(user_involved=a == g.seat[e.player], given=given,
                   given_value=values_of[given], received=received,
                   received_value=values_of[received], gain=gain)
        self.close("used", g.events - 1)


class CallRows:
    """The ``cabo_calls`` rows of one game."""

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []
        self.open: Row | None = None

    def start(self, g: GameState, out: Outcome, caller_turn: int) -> None:
        """A Cabo call (``g`` is the state after it)."""
        r = g.round
        seat = r.caller
        others = [g.row_total(p) for p in g.active_participants() if p != seat]
        count: int | None = None
        total: int | None = None
        if out.round_ended is None:
            count, total = known_total(g, seat)
        # else the round ended at once (no final turn was possible) and revealed every hand
        hand = len(r.rows[seat])
        self.open = row = _EMPTY_CALL.copy()
        row.update({
            "round": r.round_no, "seq": g.events - 1, "turn": r.turn,
            "caller_turn": caller_turn, "caller": g.players[seat],
            "n_players": len(r.participants), "hand_cards": hand,
            "total_at_call": g.row_total(seat), "known_cards": count, "known_total": total,
            "unknown_cards": hand - count if count is not None else None,
            "lowest_other_at_call": min(others) if others else None})

    def close(self, g: GameState) -> None:
        """The round of the open call was scored."""
        row = self.open
        assert row is not None
        result = g.rounds[-1]
        caller = row["caller"]
        others = [v for p, v in result.totals.items() if p != caller]
        row.update(total_at_end=result.totals.get(caller),
                   lowest_other_at_end=min(others) if others else None,
                   success=result.cabo_success, points=result.points.get(caller),
                   special_round=bool(result.special),
                   caller_forfeited=caller not in result.totals)
        self.end()

    def end(self) -> None:
        """Keep the open call as it is (the log stops in its round: no outcome yet)."""
        if self.open is not None:
            self.rows.append(tuple(self.open.values()))
            self.open = None
