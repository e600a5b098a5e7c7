"""Rows that stay open across events: a power from the event that earned it until it is used,
skipped, passed or lapses; a Cabo call until its round is scored.

A Cabo call's row is a tuple in its table's column order, its first part (``CALL_START``)
made at the call, the rest (``CALL_END``) when its round is scored. A power's rows are machine
values in byte buffers (``PowerColumns``), as the ``events``' common columns are
(``row_layout.Common``): the ``powers`` table has 26 columns, ten of them strings, and as
Python values its rows were the largest table's share of the Arrow conversion. Used by
``rows.GameRows``.
"""

from __future__ import annotations

from typing import Any

from librt.strings import BytesWriter, write_i16_le, write_i32_le

from cabo_log.db.schema import COLUMNS
from engine import GameState, Outcome
from engine.events import Power
from engine.knowledge import known_total
from engine.vocabulary import SWAP

# a ``cabo_calls`` row in two parts: what is known at the call, and how its round ended
CALL_START = ("round", "seq", "turn", "caller_turn", "caller", "n_players", "hand_cards",
              "total_at_call", "known_cards", "known_total", "unknown_cards",
              "lowest_other_at_call")
CALL_END = ("total_at_end", "lowest_other_at_end", "success", "points", "special_round",
            "caller_forfeited")
if CALL_START + CALL_END != COLUMNS["cabo_calls"]:   # pragma: no cover - fails at import
    raise AssertionError("cabo_calls: CALL_START + CALL_END is not the schema's layout")
_NO_END = (None,) * len(CALL_END)   # a call whose round the log does not finish

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
# how ``PowerColumns`` holds each column: "i16"/"i32" a little-endian int (nullable with
# "?": a byte a row in ``has_NAME`` says whether it has one), "code" an int32 code into the
# game's names (0: NULL), "bool" one byte 0/1, "bool?" one byte 0/1, 2 for NULL
POWER_TYPES: dict[str, str] = {
    "round": "i32", "turn": "i32", "seq": "i32", "player": "code", "card": "code",
    "card_value": "i16", "power": "code", "outcome": "code", "used": "bool",
    "use_seq": "i32?", "target_player": "code", "target_position": "i16?", "seen": "code",
    "seen_value": "i16?", "swap_player_a": "code", "swap_position_a": "i16?",
    "swap_player_b": "code", "swap_position_b": "i16?", "user_involved": "bool?",
    "given": "code", "given_value": "i16?", "received": "code", "received_value": "i16?",
    "knew_given": "bool?", "knew_received": "bool?", "gain": "i16?"}
if tuple(POWER_TYPES) != POWER_LAYOUT or {
        n for n, t in POWER_TYPES.items() if t == "code"} != POWER_CODED:   # pragma: no cover
    raise AssertionError("powers: POWER_TYPES does not match POWER_LAYOUT and POWER_CODED")
# each buffer of ``PowerColumns`` and its bytes a row
POWER_BUFFERS: dict[str, int] = {
    **{name: {"i16": 2, "i32": 4, "code": 4}.get(kind.rstrip("?"), 1)
       for name, kind in POWER_TYPES.items()},
    **{f"has_{name}": 1 for name, kind in POWER_TYPES.items() if kind.startswith("i")
       and kind.endswith("?")}}


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


class PowerColumns:
    """The ``powers`` rows of many games, column by column (``POWER_TYPES``, ``POWER_BUFFERS``),
    as machine values in byte buffers: what ``row_layout.Common`` is to the ``events`` rows.
    No Python object per value, and ``chunk`` hands the buffers to Arrow as they are."""

    def __init__(self) -> None:
        self.round, self.turn, self.seq = BytesWriter(), BytesWriter(), BytesWriter()
        self.player, self.card, self.card_value = BytesWriter(), BytesWriter(), BytesWriter()
        self.power, self.outcome, self.used = BytesWriter(), BytesWriter(), BytesWriter()
        self.use_seq, self.has_use_seq = BytesWriter(), BytesWriter()
        self.target_player = BytesWriter()
        self.target_position, self.has_target_position = BytesWriter(), BytesWriter()
        self.seen = BytesWriter()
        self.seen_value, self.has_seen_value = BytesWriter(), BytesWriter()
        self.swap_player_a = BytesWriter()
        self.swap_position_a, self.has_swap_position_a = BytesWriter(), BytesWriter()
        self.swap_player_b = BytesWriter()
        self.swap_position_b, self.has_swap_position_b = BytesWriter(), BytesWriter()
        self.user_involved = BytesWriter()
        self.given = BytesWriter()
        self.given_value, self.has_given_value = BytesWriter(), BytesWriter()
        self.received = BytesWriter()
        self.received_value, self.has_received_value = BytesWriter(), BytesWriter()
        self.knew_given, self.knew_received = BytesWriter(), BytesWriter()
        self.gain, self.has_gain = BytesWriter(), BytesWriter()

    def rows(self) -> int:
        """How many rows are closed (``used`` is written when a row closes)."""
        return len(self.used)

    def started(self) -> int:
        """How many rows are started (``round`` is written when a power is earned)."""
        return len(self.round) // 4

    def buffer(self, name: str) -> BytesWriter:
        """The buffer ``name`` (``POWER_BUFFERS``)."""
        found: BytesWriter = getattr(self, name)
        return found

    def truncate(self, rows: int) -> None:
        """Keep the first ``rows`` rows (and no part of the next)."""
        for name, width in POWER_BUFFERS.items():
            self.buffer(name).truncate(rows * width)

    def extend(self, other: PowerColumns) -> None:
        """Append the rows of ``other`` (a game's rows collected on their own)."""
        for name in POWER_BUFFERS:
            self.buffer(name).write(other.buffer(name).getvalue())


def optional_i16(values: BytesWriter, has: BytesWriter, value: int | None) -> None:
    """A nullable int16 (``POWER_TYPES`` "i16?", ``row_layout.NumberColumn``): its value (0
    for NULL) and whether it has one."""
    if value is None:
        write_i16_le(values, 0)
        has.append(0)
    else:
        write_i16_le(values, value)
        has.append(1)


def _flag(out: BytesWriter, value: bool | None) -> None:
    """A nullable bool (``POWER_TYPES`` "bool?"): 0, 1, or 2 for NULL."""
    out.append(2 if value is None else 1 if value else 0)


class PowerRows:
    """The ``powers`` rows of one game, written to ``out`` (a chunk's ``PowerColumns``,
    ``row_layout.RowSink.powers``, or the game's own): a row's ``POWER_START`` columns when the
    power is earned (``start``), the rest when it closes (``close``, ``peeked``, ``swapped``).
    The string columns (``POWER_CODED``) are numbers into the game's names (``Names``)."""

    def __init__(self, names: Names, out: PowerColumns | None = None) -> None:
        self.out = PowerColumns() if out is None else out
        self.names = names
        self.open = False   # a row is started and not closed
        self.known: list[int] | None = None   # what was known when the power was earned

    def start(self, g: GameState) -> None:
        """A power is pending (``g.phase`` is POWER) and was not seen before."""
        r = g.round
        top = r.pile[-1]
        power = r.pending_power
        assert power is not None
        names, o = self.names, self.out   # (``names.code``, not a bound method: native)
        write_i32_le(o.round, r.round_no)
        write_i32_le(o.turn, r.turn)
        write_i32_le(o.seq, g.events - 1)
        write_i32_le(o.player, names.code(g.players[r.current]))
        write_i32_le(o.card, names.code(r.codes[top]))
        write_i16_le(o.card_value, r.values[top])
        write_i32_le(o.power, names.code(power))
        self.open = True
        # what is known now is what the user knows when using the power (a swap on a final
        # turn ends the round, which reveals every hand before the visitor sees it); only a
        # swap reads it (``knew_given``, ``knew_received``)
        self.known = r.known[:] if power == SWAP else None

    def close(self, outcome: str, use_seq: int | None) -> None:
        """``skipped``, ``passed`` (the next turn began) or ``lapsed`` (log ended): unused."""
        o = self.out
        self._end(outcome, False, use_seq)
        write_i32_le(o.target_player, 0)
        optional_i16(o.target_position, o.has_target_position, None)
        write_i32_le(o.seen, 0)
        optional_i16(o.seen_value, o.has_seen_value, None)
        self._no_swap()

    def _end(self, outcome: str, used: bool, use_seq: int | None) -> None:
        """The ``POWER_END`` columns of the open row (``used`` counts the rows)."""
        o = self.out
        write_i32_le(o.outcome, self.names.code(outcome))
        if use_seq is None:
            write_i32_le(o.use_seq, 0)
            o.has_use_seq.append(0)
        else:
            write_i32_le(o.use_seq, use_seq)
            o.has_use_seq.append(1)
        o.used.append(1 if used else 0)
        self.open = False
        self.known = None

    def _no_swap(self) -> None:
        """The swap columns of a row without a swap: NULL."""
        o = self.out
        write_i32_le(o.swap_player_a, 0)
        optional_i16(o.swap_position_a, o.has_swap_position_a, None)
        write_i32_le(o.swap_player_b, 0)
        optional_i16(o.swap_position_b, o.has_swap_position_b, None)
        _flag(o.user_involved, None)
        write_i32_le(o.given, 0)
        optional_i16(o.given_value, o.has_given_value, None)
        write_i32_le(o.received, 0)
        optional_i16(o.received_value, o.has_received_value, None)
        _flag(o.knew_given, None)
        _flag(o.knew_received, None)
        optional_i16(o.gain, o.has_gain, None)

    def peeked(self, e: Power, g: GameState, out: Outcome) -> None:
        """A peek or spy used the open power (if the replay saw it earned)."""
        if not self.open:
            return
        target = e.target
        assert target is not None
        names, o = self.names, self.out
        self._end("used", True, g.events - 1)
        write_i32_le(o.target_player, names.code(target[0]))
        optional_i16(o.target_position, o.has_target_position, target[1])
        seen = out.card
        if seen is None:
            write_i32_le(o.seen, 0)
            optional_i16(o.seen_value, o.has_seen_value, None)
        else:
            write_i32_le(o.seen, names.code(seen))
            optional_i16(o.seen_value, o.has_seen_value, g.values_of[seen])
        self._no_swap()

    def swapped(self, e: Power, g: GameState, out: Outcome, gain: int | None, seat: int
                ) -> None:
        """A swap used the open power (by the player at ``seat``); ``out.places`` has the
        user's own place first."""
        if not self.open:
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
        names, o = self.names, self.out
        self._end("used", True, g.events - 1)
        write_i32_le(o.target_player, 0)
        optional_i16(o.target_position, o.has_target_position, None)
        write_i32_le(o.seen, 0)
        optional_i16(o.seen_value, o.has_seen_value, None)
        write_i32_le(o.swap_player_a, names.code(player_a))
        optional_i16(o.swap_position_a, o.has_swap_position_a, position_a)
        write_i32_le(o.swap_player_b, names.code(player_b))
        optional_i16(o.swap_position_b, o.has_swap_position_b, position_b)
        _flag(o.user_involved, a == seat)
        write_i32_le(o.given, names.code(given))
        optional_i16(o.given_value, o.has_given_value, values_of[given])
        write_i32_le(o.received, names.code(received))
        optional_i16(o.received_value, o.has_received_value, values_of[received])
        _flag(o.knew_given, knew_given)
        _flag(o.knew_received, knew_received)
        optional_i16(o.gain, o.has_gain, gain)


class CallRows:
    """The ``cabo_calls`` rows of one game, each a tuple in the table's column order: the
    ``CALL_START`` values when the call is made, the ``CALL_END`` ones when its round is
    scored (NULL if the log stops first)."""

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []
        self.open: tuple[Any, ...] | None = None   # the open call's ``CALL_START`` values
        self.caller = ""

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
        self.caller = g.players[seat]
        self.open = (r.round_no, g.events - 1, r.turn, caller_turn, self.caller,
                     len(r.participants), hand, g.row_total(seat), count, total,
                     hand - count if count is not None else None,
                     min(others) if others else None)

    def close(self, g: GameState) -> None:
        """The round of the open call was scored."""
        start = self.open
        assert start is not None
        result = g.rounds[-1]
        caller = self.caller
        totals = result.totals
        others = [v for p, v in totals.items() if p != caller]
        self.rows.append(start + (totals.get(caller), min(others) if others else None,
                                  result.cabo_success, result.points.get(caller),
                                  bool(result.special), caller not in totals))
        self.open = None

    def tallied(self, g: GameState) -> None:
        """The call of a score sheet's round (``g`` is the state after its ``tally`` line):
        what the sheet shows is the end of the round, so the columns of the moment of the
        call (its turn, the hand then, what the caller knew) are NULL."""
        result = g.rounds[-1]
        caller = result.caller
        if caller is None:
            return
        totals = result.totals
        others = [v for p, v in totals.items() if p != caller]
        self.rows.append((result.round, g.events - 1, None, None, caller, len(result.players),
                          len(result.hands.get(caller, ())), None, None, None, None, None,
                          totals.get(caller), min(others) if others else None,
                          result.cabo_success, result.points.get(caller),
                          bool(result.special), caller not in totals))

    def end(self) -> None:
        """Keep the open call as it is (the log stops in its round: no outcome yet)."""
        if self.open is not None:
            self.rows.append(self.open + _NO_END)
            self.open = None
