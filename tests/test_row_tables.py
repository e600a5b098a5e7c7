"""The row stage's typed tables (``row_tables``, ``row_sink``: written by tools/gen_rows.py)
follow from the schema and the spec: a table per event kind with a row and per other table,
a builder per column whose Arrow type is the schema's, and a handler of ``rows.GameRows`` for
every kind of event (``tests/test_event_spec.py`` checks that the modules are current)."""

from __future__ import annotations

import pyarrow as pa

from cabo_log.db.arrays import Conversion
from cabo_log.db.row_layout import COMMON, LAYOUTS, SINK
from cabo_log.db.row_sink import EventHandlers, RowSink
from cabo_log.db.rows import GameRows
from cabo_log.db.schema import CHUNK_FILLED, COLUMNS, SCHEMAS
from engine.spec import EVENTS


def test_every_table_and_kind_has_a_builder_per_column_of_its_schema_type() -> None:
    sink = RowSink()
    assert len(sink.tables()) == len(SINK)
    assert set(SINK) == {s.type for s in EVENTS if s.row} | set(SCHEMAS) - {"events"}
    events = dict(zip(SCHEMAS["events"].names, SCHEMAS["events"].types, strict=True))
    for name, table in zip(SINK, sink.tables(), strict=True):
        columns = LAYOUTS[name] if name in LAYOUTS else COLUMNS[name]
        types = events if name in LAYOUTS else dict(zip(
            SCHEMAS[name].names, SCHEMAS[name].types, strict=True))
        builders = table.columns()
        assert len(builders) == len(columns), name
        for column, builder in zip(columns, builders, strict=True):
            assert getattr(table, column) is builder, (name, column)
            # the builder's conversion makes an array of the schema's type (one NULL row)
            builder.null()
            conversion = Conversion(1, pa.array([None], pa.string()))
            conversion.add(types[column], [(builder, 1)])
            assert conversion.arrays()[0].type == types[column], (name, column)


def test_the_events_columns_are_the_common_ones_and_each_kinds_own() -> None:
    own = {c for spec in EVENTS for c in spec.columns}
    assert set(COMMON) | own | set(CHUNK_FILLED) == set(COLUMNS["events"])
    assert not set(COMMON) & own
    for spec in EVENTS:
        if spec.row:
            assert LAYOUTS[spec.type] == COMMON + spec.columns


def test_the_rows_handle_every_kind_of_event() -> None:
    for spec in EVENTS[1:]:   # the header is ``begin``'s
        handler = f"on_{spec.type}"
        assert hasattr(EventHandlers, handler), handler
        assert getattr(GameRows, handler) is not getattr(EventHandlers, handler), handler
