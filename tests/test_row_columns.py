"""The list and int16 columns that the row stage holds as machine values
(``row_layout.ListColumn``, ``row_layout.NumberColumn``): what a row writes, what a rollback to
a row keeps, and that ``chunk`` turns them into the Arrow columns ``pa.array`` made of the same
rows' Python values (NULLs, empty lists, and kinds without the column included)."""

from __future__ import annotations

from array import array

import pyarrow as pa

from cabo_log.db.chunk import Chunk
from cabo_log.db.open_rows import Names
from cabo_log.db.row_layout import LISTED, NUMBERED, ListColumn, NumberColumn
from cabo_log.db.schema import I16, I16S, STRS


def _ints(data: bytes, code: str) -> list[int]:
    return array(code, data).tolist()


def test_a_list_column_keeps_each_rows_items_and_ends() -> None:
    column, names = ListColumn(), Names()
    column.cards(("AS", "2H"), names)
    column.null()
    column.cards((), names)
    column.cards(("KD", "AS"), names)
    assert column.rows() == 4
    assert names.values == [None, "AS", "2H", "KD"]
    assert _ints(column.values.getvalue(), "i") == [1, 2, 3, 1]
    assert _ints(column.ends.getvalue(), "i") == [2, 2, 2, 4]
    assert column.valid.getvalue() == bytes([1, 0, 1, 1])
    column.truncate(2, 4)   # a rollback to the first two rows
    assert (column.rows(), column.count) == (2, 2)
    column.cards(("3C",), names)
    assert _ints(column.values.getvalue(), "i") == [1, 2, 4]
    assert _ints(column.ends.getvalue(), "i") == [2, 2, 3]


def test_a_positions_column_and_its_rollback() -> None:
    column = ListColumn()
    column.positions((0, 3))
    column.positions((1,))
    column.truncate(1, 2)
    column.positions((2, 2))
    assert _ints(column.values.getvalue(), "h") == [0, 3, 2, 2]
    assert _ints(column.ends.getvalue(), "i") == [2, 4]
    column.truncate(0, 2)
    assert (column.rows(), column.count, column.values.getvalue()) == (0, 0, b"")


def test_a_number_column_and_its_rollback() -> None:
    column = NumberColumn()
    column.add(-3)
    column.optional(None)
    column.optional(7)
    assert _ints(column.values.getvalue(), "h") == [-3, 0, 7]
    assert column.has.getvalue() == bytes([1, 0, 1])
    column.truncate(1)
    assert (column.rows(), _ints(column.values.getvalue(), "h")) == (1, [-3])


def test_the_columns_of_kinds_sharing_a_table_are_those_of_pa_array() -> None:
    """``events_other``: ``snap`` and ``forfeit`` both have ``discarded`` (the second kind's
    offsets after the first's items), ``peek`` has ``positions``, the others neither."""
    chunk = Chunk()
    lists = dict(zip(LISTED, chunk.sink.lists, strict=True))
    numbers = dict(zip(NUMBERED, chunk.sink.numbers, strict=True))
    snaps, forfeits = lists[("snap", "discarded")], lists[("forfeit", "discarded")]
    cards = chunk.sink.cards
    snaps.cards(("5H",), cards)
    snaps.null()
    forfeits.null()
    forfeits.cards(("QS", "QC"), cards)
    lists[("peek", "positions")].positions((0, 1))
    numbers[("snap", "position")].add(2)
    numbers[("snap", "position")].add(0)
    kinds, sizes = ["skip", "snap", "peek", "forfeit"], [1, 2, 1, 2]
    names = pa.array(cards.values, pa.string())
    discarded = chunk._list_column("discarded", STRS, kinds, sizes, names)
    discarded.validate(full=True)
    assert discarded.equals(pa.array(
        [None, ["5H"], None, None, None, ["QS", "QC"]], STRS))
    positions = chunk._list_column("positions", I16S, kinds, sizes, names)
    assert positions.equals(pa.array([None, None, None, [0, 1], None, None], I16S))
    position = chunk._number_column("position", I16, kinds, sizes, pa.array([], pa.int32()),
                                    pa.array([], pa.string()))
    assert position.equals(pa.array([None, 2, 0, None, None, None], I16))
