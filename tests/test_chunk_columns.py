"""The column builders of ``cabo_log.db.chunk`` give what ``pa.array`` of the plain values
gives: the ``CODED`` columns (numbers into the games' names, one byte a row or, past 255
distinct values in a game, four) and the ``events`` columns made of each kind's values and
runs of NULL rows."""

from __future__ import annotations

import pyarrow as pa

from cabo_log.db.arrays import array_of as _array
from cabo_log.db.arrays import decoded as _decode
from cabo_log.db.arrays import merged as _merged
from cabo_log.db.schema import BOOL, I16, I32, STR


def test_coded_columns_decode_to_each_games_names() -> None:
    # two games: names [None, "ana", "bo"] and [None, "cy", "ana"] one after the other
    names = pa.array([None, "ana", "bo", None, "cy", "ana"], STR)
    base = pa.array([0, 0, 0, 3, 3, 3, 3], I32)   # the rows' games: 0, 0, 0, 1, 1, 1, 1
    segments: list[list[int] | None] = [[1, 2], None, [2, 0, 1]]   # a kind without the column
    column = _decode(segments, [2, 2, 3], base, names)
    assert column.type == STR
    assert column.to_pylist() == ["ana", "bo", None, None, "ana", None, "cy"]


def test_coded_columns_of_a_game_with_more_than_255_values() -> None:
    many = [None, *(f"p{i}" for i in range(300))]
    column = _decode([[299, 0, 1]], [3], pa.array([0, 0, 0], I32), pa.array(many, STR))
    assert column.to_pylist() == ["p298", None, "p0"]


def test_merged_columns_are_the_kinds_values_with_null_runs() -> None:
    segments: list[list[object] | None] = [[None, None], None, [3, -2], [None, 7], None]
    column = _merged(segments, [2, 1, 2, 2, 3], I16)
    assert column.to_pylist() == [None, None, None, 3, -2, None, 7, None, None, None]
    assert column.type == I16
    assert _merged([None, [None]], [2, 1], STR).to_pylist() == [None, None, None]


def test_bool_and_int_shortcuts_match_pa_array() -> None:
    for values, kind in (([True, False, True], BOOL), ([True, None, False], BOOL),
                         ([1, 2, 40000], I32), ([1, None], I16), ([None, None], BOOL)):
        assert _array(values, kind).equals(pa.array(values, kind))
