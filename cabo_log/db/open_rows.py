"""Rows that stay open across events: a power from the event that earned it until it is used,
skipped, passed or lapses; a Cabo call until its round is scored.

A Cabo call's open row is a dict keyed by the column names of its table (``schema.SCHEMAS``),
filled as the replay goes (None: NULL); when it closes it is kept as a tuple in the schema's
column order (``as_row``), the form ``chunk`` turns into columns. A power's rows are flat, as
the ``events`` rows are (``PowerRows``): the ``powers`` table has ten string columns, so its
rows were a fifth of the row stage's instructions as tuples of dicts' values. Used by
``rows.GameRows``.
"""

from __future__ import annotations

from typing import Any

from cabo_log.db.schema import COLUMNS
from engine import GameState, Outcome
from engine.events import Power
from engine.knowledge import known_total
from engine.vocabulary import SWAP

Row = dict[str, Any]


def as_row(table: str, row: Row) -> tuple[Any, ...]:
    """A row by column name -> the tuple of ``table``'s columns after the key, in order."""
    return tuple(map(row.get, COLUMNS[table]))


# an open call starts as a copy of its table's empty row (every column, in order, NULL), so it
# closes as ``tuple(row.values())`` without a lookup per column
_EMPTY_CALL: Row = dict.fromkeys(COLUMNS["cabo_calls"])

# a ``powers`` row in three parts: what is known when the power is earned (``start``), how it
# ended (``close``) and, when it was used, what it did (``peeked``, ``swapped``)
POWER_START = ("round", "turn", "seq", "player", "card", "card_value", "power")
POWER_END = ("outcome", "used", "use_seq")
POWER_USE = ("target_player", "target_position", "seen", "seen_value", "swap_player_a",
             "swap_position_a", "swap_player_b", "swap_position_b", "user_involved", "given",
             "given_value", "received", "received_value", "knew_given", "knew_received",
             "gain")
POWER_LAYOUT = POWER_START + POWER_END + POWER_USE
# the ``powers`` columns whose values the rows hold as numbers into the game's names (0: NULL)
POWER_CODED: frozenset[str] = frozenset({
    "player", "card", "power", "outcome", "target_player", "seen", "swap_player_a",
    "swap_player_b", "given", "received"})
if POWER_LAYOUT != COLUMNS["powers"]:   # pragma: no cover - a schema change fails at import
    raise AssertionError(f"powers: the rows' layout {POWER_LAYOUT} is not the schema's")
# the ``POWER_USE`` values of a power not used: NULL everywhere (code 0 in the coded columns)
_UNUSED = tuple(0 if name in POWER_CODED else None for name in POWER_USE)


class Names:
    """The values of one game's coded string columns (``row_layout.CODED`` of ``events``,
    ``POWER_CODED`` of ``powers``): ``values[code]`` is the value of a row's ``code``, code 0
    is NULL. A number is as cheap to append as a str, and ``chunk`` turns a column of small
    numbers into Arrow in C, where ``pa.array`` of str objects costs ~250 instructions a
    value."""

    def __init__(self) -> None:
        self.values: list[str | None] = [None]
        self.codes: dict[str, int] = {}

    def code(self, value: str) -> int:
        """The number of ``value`` in this game (a new one is added)."""
        code = self.codes.get(value)
        if code is None:
            code = self.codes[value] = len(self.values)
            self.values.append(value)
        return code


class PowerRows:
    """The ``powers`` rows of one game, one flat list (``rows``: the values of the first row in
    the order of ``POWER_LAYOUT``, then the next row's...), as ``GameRows`` keeps its events.
    The string columns (``POWER_CODED``) hold numbers into the game's names (``Names``): a
    power row has up to ten of them, and ``chunk`` turns numbers into Arrow in C."""

    def __init__(self, names: Names, rows: list[Any] | None = None) -> None:
        # the flat rows (a chunk's shared list, ``row_layout.RowSink``, or the game's own)
        self.rows: list[Any] = [] if rows is None else rows
        self.names = names
        self.open: tuple[Any, ...] | None = None   # the ``POWER_START`` values
        self.known: list[int] | None = None   # what was known when the power was earned

    def start(self, g: GameState) -> None:
        """A power is pending (``g.phase`` is POWER) and was not seen before."""
        r = g.round
        top = r.pile[-1]
        power = r.pending_power
        assert power is not None
        names = self.names   # (a call through ``names``, not a bound method: native)
        self.open = (r.round_no, r.turn, g.events - 1, names.code(g.players[r.current]),
                     names.code(r.codes[top]), r.values[top], names.code(power))
        # what is known now is what the user knows when using the power (a swap on a final
        # turn ends the round, which reveals every hand before the visitor sees it); only a
        # swap reads it (``knew_given``, ``knew_received``)
        self.known = r.known[:] if power == SWAP else None

    def close(self, outcome: str, use_seq: int | None) -> None:
        """``skipped``, ``passed`` (the next turn began) or ``lapsed`` (log ended): unused."""
        self._close((self.names.code(outcome), False, use_seq), _UNUSED)

    def _close(self, end: tuple[Any, ...], use: tuple[Any, ...]) -> None:
        """Append the open row: its start, its ``POWER_END`` and ``POWER_USE`` values."""
        start = self.open
        assert start is not None
        rows = self.rows
        rows.extend(start)
        rows.extend(end)
        rows.extend(use)
        self.open = None
        self.known = None

    def peeked(self, e: Power, g: GameState, out: Outcome) -> None:
        """A peek or spy used the open power (if the replay saw it earned)."""
        if self.open is None:
            return
        target = e.target
        assert target is not None
        names = self.names
        seen = out.card
        seen_code = 0
        seen_value: int | None = None
        if seen is not None:
            seen_code = names.code(seen)
            seen_value = g.values_of[seen]
        seq = g.events - 1
        self._close((names.code("used"), True, seq),
                    (names.code(target[0]), target[1], seen_code, seen_value, 0, None, 0, None,
                     None, 0, None, 0, None, None, None, None))

    def swapped(self, e: Power, g: GameState, out: Outcome, gain: int | None, seat: int
                ) -> None:
        """A swap used the open power (by the player at ``seat``); ``out.places`` has the
        user's own place first."""
        if self.open is None:
            return
        cards = e.cards
        assert cards is not None
        (a, pos_a), (b, pos_b) = out.places
        given, received = out.moved
        knew_given: bool | None = None
        knew_received: bool | None = None
        known = self.known
        if known is not None:
            bit = 1 << seat
            rows = g.round.rows
            knew_given = bool(known[rows[b][pos_b]] & bit)   # what left a is at b
            knew_received = bool(known[rows[a][pos_a]] & bit)
        (player_a, position_a), (player_b, position_b) = cards
        values_of = g.values_of
        names = self.names
        seq = g.events - 1
        self._close((names.code("used"), True, seq),
                    (0, None, 0, None, names.code(player_a), position_a, names.code(player_b),
                     position_b, a == seat, names.code(given), values_of[given],
                     names.code(received), values_of[received], knew_given, knew_received,
                     gain))


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
