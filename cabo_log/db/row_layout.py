"""The layout of the ``events`` rows a load builds: the columns every event has (``COMMON``),
each event kind's own (``OWN``, checked against the ``events`` schema when this module loads),
each kind's columns (``LAYOUTS``), and where many games' rows are written (``RowSink``): the
``COMMON`` columns of each kind as machine values in byte buffers (``Common``), its list
columns (``LISTED``: ``ListColumn``) and int16 columns (``NUMBERED``: ``NumberColumn``) as
machine values too, its other own columns as one flat list (``FLAT``: ``OWN`` in order, but
those). ``rows.GameRows`` writes them; ``chunk`` and
``event_tables`` read them. It is compiled with ``rows`` in the compiled build
(``Common`` and ``RowSink`` native classes that the compiled visitor writes to directly).
"""

from __future__ import annotations

from typing import Any

from cabo_log.db.byte_buffers import BytesWriter, read_i32_le, write_i16_le, write_i32_le
from cabo_log.db.open_rows import Names, PowerColumns, optional_i16
from cabo_log.db.schema import SCHEMAS
from engine import Event, GameStart
from engine.events import (
    CLASSES,
    Discard,
    Forfeit,
    Peek,
    Power,
    Replace,
    Snap,
)
from engine.spec import EVENTS

# the columns every event has, in the order ``GameRows._common`` appends them
# (``t_ms``/``t_iso`` are filled by ``chunk`` from ``times``: few logs carry timestamps)
COMMON = ("seq", "line", "round", "turn", "player", "auto", "card", "value", "deck_left",
          "implicit_skip", "round_ended")
Row = tuple[Any, ...]
# the string columns whose values the rows hold as numbers into the game's ``GameRows.names``
# (``open_rows.Names``; 0: NULL): ``chunk`` turns them into Arrow in C (bytes, then a ``take``
# from the names)
CODED: frozenset[str] = frozenset({"player", "card", "source"})
Flat = list[Any]   # the own values of one event kind's rows, one after the other (``OWN``)

# each event kind's own columns (``engine/spec.py``): what its handler (``GameRows._draw`` ...)
# appends, the event's own fields flattened, and what the replay derived of it; in this order
# the kinds' rows come out (``GameRows.events``)
OWN: dict[type[Event], tuple[str, ...]] = {
    CLASSES[spec.type]: spec.columns for spec in EVENTS if spec.row and spec.type != GameStart.TYPE}


def _check_own() -> None:
    """Every declared column is an ``events`` column (a typo fails at import)."""
    names = set(SCHEMAS["events"].names)
    for kind, columns in OWN.items():
        unknown = set(columns) - names
        if unknown:
            raise AssertionError(f"{kind.TYPE}: no such events columns {sorted(unknown)}")


_check_own()

# event type -> the columns of its rows (the header is a ``game`` event with none of its own)
LAYOUTS: dict[str, tuple[str, ...]] = {
    GameStart.TYPE: COMMON, **{cls.TYPE: COMMON + columns for cls, columns in OWN.items()}}
# the list columns of the kinds that have them, held as machine values (``ListColumn``, one
# per pair, in this order in ``RowSink.lists``), not as a tuple a row in the kind's flat list:
# ``pa.array`` of a list of tuples is slow, and every tuple kept alive until the chunk is
# sent would be one more object for the allocator and the garbage collector
LISTED: tuple[tuple[str, str], ...] = (
    (Discard.TYPE, "discarded"), (Replace.TYPE, "positions"), (Replace.TYPE, "discarded"),
    (Snap.TYPE, "discarded"), (Peek.TYPE, "positions"), (Forfeit.TYPE, "discarded"))
# how a listed column holds its values: card codes into the sink's ``RowSink.cards`` (int32),
# or positions (int16)
LIST_CODED: frozenset[str] = frozenset({"discarded"})
# the int16 columns of the kinds' own, held as machine values too (``NumberColumn``, one per
# pair, in this order in ``RowSink.numbers``): a nullable one would otherwise go the slow
# ``pa.array`` way, converting one Python object per value
NUMBERED: tuple[tuple[str, str], ...] = (
    (Replace.TYPE, "into"), (Replace.TYPE, "row_delta"), (Replace.TYPE, "known_chosen"),
    (Power.TYPE, "target_position"), (Power.TYPE, "swap_position_a"),
    (Power.TYPE, "swap_position_b"), (Power.TYPE, "row_delta"),
    (Snap.TYPE, "position"), (Snap.TYPE, "row_delta"))
# event type -> the columns of its flat list (``RowSink.kinds``): its own, after ``COMMON``,
# but the listed and the numbered ones
FLAT: dict[str, tuple[str, ...]] = {
    kind: tuple(c for c in columns[len(COMMON):]
                if (kind, c) not in LISTED and (kind, c) not in NUMBERED)
    for kind, columns in LAYOUTS.items()}


def _check_listed() -> None:
    """Every listed and numbered column is one of its kind's own, and every numbered one an
    int16 (a typo fails at import)."""
    types = dict(zip(SCHEMAS["events"].names, SCHEMAS["events"].types, strict=True))
    for kind, column in (*LISTED, *NUMBERED):
        if column not in LAYOUTS[kind][len(COMMON):]:
            raise AssertionError(f"{kind}: {column} is not one of its own columns")
    for kind, column in NUMBERED:
        if str(types[column]) != "int16":
            raise AssertionError(f"{kind}: {column} is not an int16 column")


_check_listed()


# how each ``Common`` buffer holds a row: its bytes (``chunk`` reads them as Arrow buffers)
BUFFERS: dict[str, int] = {
    "seq": 4, "line": 8, "round": 4, "turn": 4, "player": 4, "auto": 1, "card": 4, "value": 2,
    "has_value": 1, "deck_left": 2, "has_deck": 1, "implicit_skip": 1, "round_ended": 1}


class Common:
    """The ``COMMON`` columns of one event kind's rows, each a buffer of little-endian machine
    values in the type of the ``events`` schema (``BUFFERS``): ``seq``, ``round``, ``turn``
    int32, ``line`` int64, ``value`` and ``deck_left`` int16 (0 where NULL: ``has_value``,
    ``has_deck`` say which rows have one), ``player`` and ``card`` int32 codes into the game's
    names (``CODED``), one byte a row for ``auto`` and for ``implicit_skip`` and
    ``round_ended`` (1: True, 0: NULL). ``rows.GameRows._common`` writes them, compiled, with
    no Python object per value; ``chunk`` hands them to Arrow as they are (no conversion)."""

    def __init__(self) -> None:
        self.seq = BytesWriter()
        self.line = BytesWriter()
        self.round = BytesWriter()
        self.turn = BytesWriter()
        self.player = BytesWriter()
        self.auto = BytesWriter()
        self.card = BytesWriter()
        self.value = BytesWriter()
        self.has_value = BytesWriter()
        self.deck_left = BytesWriter()
        self.has_deck = BytesWriter()
        self.implicit_skip = BytesWriter()
        self.round_ended = BytesWriter()

    def rows(self) -> int:
        """How many rows are written."""
        return len(self.auto)

    def buffers(self) -> dict[str, BytesWriter]:
        """Buffer name (``BUFFERS``) -> its buffer."""
        return {"seq": self.seq, "line": self.line, "round": self.round, "turn": self.turn,
                "player": self.player, "auto": self.auto, "card": self.card,
                "value": self.value, "has_value": self.has_value,
                "deck_left": self.deck_left, "has_deck": self.has_deck,
                "implicit_skip": self.implicit_skip, "round_ended": self.round_ended}

    def truncate(self, rows: int) -> None:
        """Keep the first ``rows`` rows."""
        for name, buffer in self.buffers().items():
            buffer.truncate(rows * BUFFERS[name])

    def extend(self, other: Common) -> None:
        """Append the rows of ``other`` (a game's rows collected on their own)."""
        mine = self.buffers()
        for name, buffer in other.buffers().items():
            mine[name].write(buffer.getvalue())


class ListColumn:
    """One list column of one event kind's rows (``LISTED``), as machine values: every row's
    items one after the other in ``values`` (little-endian int32 codes into ``RowSink.cards``
    for the cards of ``discarded``, int16 for ``positions``), after each row the count of
    items so far as an int32 (``ends``: Arrow's offsets, but the leading 0), and a byte a row
    (``valid``: 0 where NULL). ``chunk`` hands them to Arrow as they are."""

    def __init__(self) -> None:
        self.values = BytesWriter()
        self.ends = BytesWriter()
        self.valid = BytesWriter()
        self.count = 0   # the items written

    def rows(self) -> int:
        """How many rows are written."""
        return len(self.valid)

    def cards(self, items: tuple[str, ...], names: Names) -> None:
        """A row of cards (their codes in ``names``)."""
        count = self.count
        values = self.values
        for item in items:
            write_i32_le(values, names.code(item))
            count += 1
        self.count = count
        write_i32_le(self.ends, count)
        self.valid.append(1)

    def positions(self, items: tuple[int, ...]) -> None:
        """A row of positions."""
        count = self.count
        values = self.values
        for item in items:
            write_i16_le(values, item)
            count += 1
        self.count = count
        write_i32_le(self.ends, count)
        self.valid.append(1)

    def null(self) -> None:
        """A NULL row."""
        write_i32_le(self.ends, self.count)
        self.valid.append(0)

    def truncate(self, rows: int, width: int) -> None:
        """Keep the first ``rows`` rows (``width``: the bytes of an item)."""
        count: int = 0
        if rows:
            count = read_i32_le(self.ends.getvalue(), (rows - 1) * 4)
        self.values.truncate(count * width)
        self.ends.truncate(rows * 4)
        self.valid.truncate(rows)
        self.count = count


class NumberColumn:
    """One int16 column of one event kind's own (``NUMBERED``), as machine values: a
    little-endian int16 a row (0 where NULL) and a byte a row (``has``: 0 where NULL), as
    ``Common.value``; ``chunk`` hands them to Arrow as they are."""

    def __init__(self) -> None:
        self.values = BytesWriter()
        self.has = BytesWriter()

    def rows(self) -> int:
        """How many rows are written."""
        return len(self.has)

    def add(self, value: int) -> None:
        """A row's value."""
        write_i16_le(self.values, value)
        self.has.append(1)

    def optional(self, value: int | None) -> None:
        """A row's value, or NULL."""
        optional_i16(self.values, self.has, value)

    def truncate(self, rows: int) -> None:
        """Keep the first ``rows`` rows."""
        self.values.truncate(rows * 2)
        self.has.truncate(rows)

    def extend(self, other: NumberColumn) -> None:
        """Append the rows of ``other`` (a game's rows collected on their own)."""
        self.values.write(other.values.getvalue())
        self.has.write(other.has.getvalue())


class RowSink:
    """Where the rows of many games are appended, one game at a time: each event kind's
    ``COMMON`` columns (``common``) and own columns (``kinds``: a flat list each, laid out as
    ``OWN`` but the ``LISTED`` and ``NUMBERED`` columns), both in ``LAYOUTS`` order, the
    numbered columns (``numbers``, in ``NUMBERED`` order), the listed columns
    (``lists``, in ``LISTED`` order; their cards coded in ``cards``, the chunk's, not a
    game's: a row's items need no game's base to decode) and the ``powers`` rows
    (``open_rows.PowerColumns``).
    A ``chunk.Chunk`` hands its sink to each game's ``GameRows``, which appends in place: no
    per-game lists to grow and then copy into the chunk's, and free. A game's rows are kept by
    ``commit``; the next game (or ``rollback``) drops the rows of a game that was not
    committed (a rejected log)."""

    def __init__(self) -> None:
        self.common: list[Common] = [Common() for _ in LAYOUTS]
        self.kinds: list[Flat] = [[] for _ in LAYOUTS]
        self.powers = PowerColumns()
        self.lists: list[ListColumn] = [ListColumn() for _ in LISTED]
        self.numbers: list[NumberColumn] = [NumberColumn() for _ in NUMBERED]
        self.cards = Names()   # the cards of the listed columns (never rolled back)
        self.committed: list[int] = [0] * len(LAYOUTS)   # each flat list's values
        self.committed_rows: list[int] = [0] * (len(LAYOUTS) + 1)   # ``common``'s, powers'
        self.committed_lists: list[int] = [0] * len(LISTED)   # each list column's rows
        self.committed_numbers: list[int] = [0] * len(NUMBERED)   # each number column's rows

    def rollback(self) -> None:
        """Drop what was appended since the last ``commit``."""
        for i, n in enumerate(self.committed):
            rows = self.kinds[i]
            if len(rows) > n:
                del rows[n:]
        for i, common in enumerate(self.common):
            n = self.committed_rows[i]
            if common.rows() > n:
                common.truncate(n)
        n = self.committed_rows[-1]
        if self.powers.started() > n:
            self.powers.truncate(n)
        for (_, name), column, n in zip(LISTED, self.lists, self.committed_lists,
                                        strict=True):
            if column.rows() > n:
                column.truncate(n, 4 if name in LIST_CODED else 2)
        for number, n in zip(self.numbers, self.committed_numbers, strict=True):
            if number.rows() > n:
                number.truncate(n)

    def commit(self) -> None:
        """Keep what was appended: the rows of a game that is loaded."""
        self.committed = [len(rows) for rows in self.kinds]
        self.committed_rows = [*(common.rows() for common in self.common), self.powers.rows()]
        self.committed_lists = [column.rows() for column in self.lists]
        self.committed_numbers = [number.rows() for number in self.numbers]
