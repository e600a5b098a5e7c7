"""A row-stage builder's rows as Python values, read from its bytes by hand (what
``cabo_log.db.arrays`` must turn into Arrow): the tests' independent reading of
``cabo_log.db.columns``. Not a test module itself."""

from __future__ import annotations

from typing import Any

from cabo_log.db.columns import (
    BoolColumn,
    Column,
    Int16Column,
    Int16ListColumn,
    Int32Column,
    Int64Column,
    ListColumn,
    StringColumn,
    StringListColumn,
)

_FORMAT = {Int16Column: "h", Int32Column: "i", Int64Column: "q"}


def values(column: Column) -> list[Any]:
    """The column's rows: None for NULL, strings decoded from their names."""
    if isinstance(column, StringColumn):
        names = column.names.values
        return [names[c] for c in memoryview(column.codes.getvalue()).cast("i").tolist()]
    if isinstance(column, BoolColumn):
        return [None if b == 2 else bool(b) for b in column.values.getvalue()]
    if isinstance(column, (Int16Column, Int32Column, Int64Column)):
        data = memoryview(column.values.getvalue()).cast(_FORMAT[type(column)]).tolist()
        return [v if ok else None for v, ok in zip(data, column.valid.getvalue(), strict=True)]
    assert isinstance(column, ListColumn)
    if isinstance(column, StringListColumn):
        names = column.names.values
        items: list[Any] = [names[c] for c in
                            memoryview(column.items.getvalue()).cast("i").tolist()]
    else:
        assert isinstance(column, Int16ListColumn)
        items = memoryview(column.items.getvalue()).cast("h").tolist()
    out: list[Any] = []
    start = 0
    for end, ok in zip(memoryview(column.ends.getvalue()).cast("i").tolist(),
                       column.valid.getvalue(), strict=True):
        out.append(items[start:end] if ok else None)
        start = end
    return out
