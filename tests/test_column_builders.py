"""The row stage's column builders (``cabo_log.db.columns``, one per Arrow type): what a row
writes, what a rollback to a row keeps, and that ``arrays.Conversion`` turns them into the
Arrow columns ``pa.array`` makes of the same rows' Python values (NULLs, empty lists, all-NULL
columns, and columns made of several tables' builders, some without the column)."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pytest
from column_values import values

from cabo_log.db.arrays import Conversion, Part
from cabo_log.db.columns import (
    BoolColumn,
    Column,
    Int16Column,
    Int16ListColumn,
    Int32Column,
    Int64Column,
    Names,
    StringColumn,
    StringListColumn,
)
from cabo_log.db.schema import BOOL, I16, I16S, I32, I64, STR, STRS
from engine.vocabulary import PEEK, SWAP


def _filled(kind: str, names: Names, rows: list[Any]) -> Column:
    """A builder of ``kind`` with ``rows`` written (None: a NULL row)."""
    column: Any = {"i16": Int16Column(), "i32": Int32Column(), "i64": Int64Column(),
                   "bool": BoolColumn(), "str": StringColumn(names),
                   "strs": StringListColumn(names), "i16s": Int16ListColumn()}[kind]
    for row in rows:
        if row is None:
            column.null()
        else:   # a list's items as a tuple (what the events hold)
            column.add(tuple(row) if isinstance(row, list) else row)
    return column


CASES: list[tuple[str, pa.DataType, list[Any]]] = [
    ("i16", I16, [3, None, -32768, 32767]),
    ("i32", I32, [None, 2**31 - 1, 0, -5]),
    ("i64", I64, [2**40, None, -(2**62), 1]),
    ("bool", BOOL, [True, None, False, True]),
    ("str", STR, ["ana", None, "bo", "ana"]),
    ("strs", STRS, [["AS", "2H"], None, [], ["KD", "AS"]]),
    ("i16s", I16S, [[0, 3], [], None, [1]]),
]


def _converted(kind: pa.DataType, parts: list[Part], names: Names) -> pa.Array:
    conversion = Conversion(sum(size for _, size in parts), pa.array(names.values, STR))
    conversion.add(kind, parts)
    (array,) = conversion.arrays()
    array.validate(full=True)
    return array


@pytest.mark.parametrize(("kind", "arrow", "rows"), CASES, ids=[c[0] for c in CASES])
def test_a_builder_holds_its_rows_and_converts_to_what_pa_array_makes(
        kind: str, arrow: pa.DataType, rows: list[Any]) -> None:
    names = Names()
    column = _filled(kind, names, rows)
    assert column.rows() == len(rows)
    assert values(column) == rows
    assert _converted(arrow, [(column, len(rows))], names).equals(pa.array(rows, arrow))


@pytest.mark.parametrize(("kind", "arrow", "rows"), CASES, ids=[c[0] for c in CASES])
def test_a_rollback_keeps_the_first_rows_and_writes_on_after_them(
        kind: str, arrow: pa.DataType, rows: list[Any]) -> None:
    names = Names()
    column: Any = _filled(kind, names, rows)
    column.truncate(2)
    assert values(column) == rows[:2]
    some = next(row for row in rows if row is not None)
    column.add(tuple(some) if isinstance(some, list) else some)
    column.null()
    want = [*rows[:2], some, None]
    assert values(column) == want
    assert _converted(arrow, [(column, 4)], names).equals(pa.array(want, arrow))
    column.truncate(0)
    assert column.rows() == 0 and values(column) == []


@pytest.mark.parametrize(("kind", "arrow", "rows"), CASES, ids=[c[0] for c in CASES])
def test_a_column_of_several_tables_builders_has_null_rows_where_one_lacks_it(
        kind: str, arrow: pa.DataType, rows: list[Any]) -> None:
    """An ``events`` table of several kinds: each kind's builder in turn (a list column's
    offsets after the items of the kinds before), NULL rows for a kind without the column."""
    names = Names()
    first, second = _filled(kind, names, rows[:2]), _filled(kind, names, rows[2:])
    parts: list[Part] = [(None, 1), (first, 2), (None, 2), (second, len(rows) - 2)]
    want = [None, *rows[:2], None, None, *rows[2:]]
    assert _converted(arrow, parts, names).equals(pa.array(want, arrow))


def test_all_null_columns_and_columns_no_table_has() -> None:
    names = Names()
    for kind, arrow, _ in CASES:
        column = _filled(kind, names, [None, None])
        assert _converted(arrow, [(column, 2), (None, 1)], names).equals(
            pa.nulls(3, arrow))
        assert _converted(arrow, [(None, 3)], names).equals(pa.nulls(3, arrow))


def test_a_batch_of_many_columns_converts_each_in_order() -> None:
    """One ``Conversion`` for a table: the bitmaps and strings of every column made together,
    each column still its own values."""
    names = Names()
    built = [(_filled(kind, names, rows), arrow, rows) for kind, arrow, rows in CASES]
    conversion = Conversion(4, pa.array(names.values, STR))
    for column, arrow, _ in built:
        conversion.add(arrow, [(column, 4)])
    for array, (_, arrow, rows) in zip(conversion.arrays(), built, strict=True):
        assert array.equals(pa.array(rows, arrow))


def test_strings_are_coded_once_per_value() -> None:
    names = Names()
    column = _filled("strs", names, [["AS", "2H"], ["2H"]])
    other = _filled("str", names, ["AS", "ana"])
    assert names.values == [None, "AS", "2H", "ana"]
    assert values(column) == [["AS", "2H"], ["2H"]] and values(other) == ["AS", "ana"]


def test_a_str_enum_member_and_its_string_share_one_plain_code() -> None:
    """A member (a power, a draw's source) is coded apart from the plain strings, by identity,
    yet under the one code of its string, kept as a plain str; a column's repeated value
    (compared with the last one by identity) is coded the same as a fresh equal string."""
    names = Names()
    column = StringColumn(names)
    fresh = "".join(["pe", "ek"])   # equal to PEEK, another object
    for value in (PEEK, PEEK, "peek", fresh, SWAP, PEEK, "swap"):
        column.add(value)
    assert names.values == [None, "peek", "swap"]
    assert all(type(v) is str for v in names.values[1:])
    assert values(column) == ["peek", "peek", "peek", "peek", "swap", "peek", "swap"]
    assert names.code(SWAP) == names.code("swap") == 2 and "peek" in names.codes


def test_a_list_column_with_null_for_empty_and_from_a_list() -> None:
    names = Names()
    column = StringListColumn(names)
    column.nonempty(())
    column.nonempty(("QS",))
    column.add_list(["AS", "QS"])
    assert values(column) == [None, ["QS"], ["AS", "QS"]]
