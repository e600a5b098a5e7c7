"""Which columns each kind of row has, derived from ``schema.SCHEMAS`` and ``engine/spec.py``
(nothing here lists a column): the ``events`` columns every event row has (``COMMON``), each
event kind's (``LAYOUTS``: ``COMMON`` then its own, ``EventSpec.columns``), and every table a
chunk's rows are kept in (``SINK``). tools/gen_rows.py writes the row stage's typed tables
(``row_tables``) from these; ``chunk`` reads them back by the same names.
"""

from __future__ import annotations

from cabo_log.db.schema import CHUNK_FILLED, COLUMNS, SCHEMAS
from engine.spec import EVENTS

HEADER = EVENTS[0].type
"""The header's kind (``game``): its row has the ``COMMON`` columns only."""

OWN: dict[str, tuple[str, ...]] = {spec.type: spec.columns for spec in EVENTS if spec.row}
"""Each event kind that has rows -> its own columns, in its spec's order."""

COMMON: tuple[str, ...] = tuple(
    name for name in COLUMNS["events"]
    if name not in CHUNK_FILLED and not any(name in own for own in OWN.values()))
"""The ``events`` columns every event row has: those no kind owns, but the chunk's."""

LAYOUTS: dict[str, tuple[str, ...]] = {kind: COMMON + own for kind, own in OWN.items()}
"""Event kind -> the columns of its rows, in the order its table's builders are listed."""

TABLES: tuple[str, ...] = tuple(name for name in SCHEMAS if name != "events")
"""The tables whose rows are kept whole (``events`` is kept a kind at a time)."""

SINK: tuple[str, ...] = (*LAYOUTS, *TABLES)
"""Everything a chunk keeps rows of, in ``RowSink.tables()`` order: each event kind, then
each other table."""


def _check() -> None:
    """Every kind's columns are ``events`` columns (a typo in the spec fails at import)."""
    names = set(SCHEMAS["events"].names)
    for kind, own in OWN.items():
        unknown = set(own) - names
        if unknown:
            raise AssertionError(f"{kind}: no such events columns {sorted(unknown)}")
    if set(SINK) & {"events"} or len(set(SINK)) != len(SINK):
        raise AssertionError("an event kind is named as a table")


_check()
