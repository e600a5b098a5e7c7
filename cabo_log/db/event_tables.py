"""How ``events`` is stored: a few tables, each holding only the columns its event kinds can
fill, and the view ``events`` over them with the columns of ``schema.SCHEMAS["events"]``.

Most ``events`` columns are an event kind's own (a draw's ``source``, a swap's four
``swap_*``...), so in one wide table most of every row is NULL, and DuckDB's append costs per
column whatever it holds: measured on 1.17 M events, 35-150 ms of CPU per column even when all
NULL, 2.1-2.4 s for the 40 columns. The four frequent kinds (``draw``, ``discard``, ``replace``,
``power``: ~85 % of the events) have a table each, and the rest share ``events_other``, with a
``type`` column; the view puts back each kind's ``type`` as a constant and the columns a table
lacks as typed NULLs, so every query sees the one ``events`` table of docs/schema.md.

Nothing here lists columns: a table's columns are those of ``schema.SCHEMAS["events"]`` that
its kinds' rows fill (``row_layout.LAYOUTS``), plus the key and the timestamps, in the
schema's order.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from cabo_log.db.row_layout import LAYOUTS
from cabo_log.db.schema import GAME_KEY, GAME_TABLES, SCHEMAS, STR, WIRE

VIEW = "events"
# each physical table's event kinds: one table per frequent kind, the others together
OWN_TABLE = ("draw", "discard", "replace", "power")
KINDS: dict[str, tuple[str, ...]] = {
    **{f"{VIEW}_{kind}": (kind,) for kind in OWN_TABLE},
    f"{VIEW}_other": tuple(kind for kind in LAYOUTS if kind not in OWN_TABLE),
}
TABLE_OF: dict[str, str] = {kind: table for table, kinds in KINDS.items() for kind in kinds}
# columns every table has besides its kinds' rows (``chunk`` fills the times)
ALWAYS = ("game_id", "ruleset", "t_ms", "t_iso")


def _stored(kinds: tuple[str, ...]) -> pa.Schema:
    """The columns of the view that these kinds fill (``type`` when there are several)."""
    filled = {name for kind in kinds for name in LAYOUTS[kind]} | set(ALWAYS)
    if len(kinds) > 1:
        filled.add("type")
    return pa.schema([f for f in SCHEMAS[VIEW] if f.name in filled])


STORED: dict[str, pa.Schema] = {table: _stored(kinds) for table, kinds in KINDS.items()}
# the tables a game's rows are stored in: ``schema.GAME_TABLES`` with ``events``' own
GAME_STORED: tuple[str, ...] = tuple(
    stored for name in GAME_TABLES for stored in (KINDS if name == VIEW else (name,)))
# what crosses from a worker to the writer: game_id and ruleset dictionary-encoded
STORED_WIRE: dict[str, pa.Schema] = {
    name: pa.schema([pa.field(f.name, GAME_KEY) if f.name in ("game_id", "ruleset") else f
                     for f in schema])
    for name, schema in STORED.items()}


def view_sql() -> str:
    """The SELECT of the view ``events``: each table's rows with the view's columns, in the
    view's order (a kind's ``type`` a constant, a column the table lacks a typed NULL)."""
    from cabo_log.db.database import duck_type as sql_type

    parts = []
    for table, kinds in KINDS.items():
        have = set(STORED[table].names)
        cols = []
        for f in SCHEMAS[VIEW]:
            if f.name in have:
                cols.append(f'"{f.name}"')
            elif f.name == "type":
                cols.append(f"'{kinds[0]}' AS \"type\"")
            else:
                cols.append(f'CAST(NULL AS {sql_type(f.type)}) AS "{f.name}"')
        parts.append(f"SELECT {', '.join(cols)} FROM {table}")
    return " UNION ALL ".join(parts)


def widen(batches: dict[str, list[pa.RecordBatch]]) -> dict[str, list[pa.RecordBatch]]:
    """A chunk's batches with the ``events`` tables' put together as batches of the one wide
    ``events`` (``schema.WIRE``): what a Parquet dataset holds (``load --parquet-out``), so
    that its ``DIR/events/`` reads as the table of docs/schema.md with any Parquet reader."""
    out = {name: found for name, found in batches.items() if name not in KINDS}
    wide: list[pa.RecordBatch] = []
    for table, kinds in KINDS.items():
        for batch in batches.get(table, []):
            have, rows = set(batch.schema.names), batch.num_rows
            wide.append(pa.RecordBatch.from_arrays([
                batch.column(f.name) if f.name in have
                else pa.array([kinds[0]] * rows, f.type) if f.name == "type"
                else pa.nulls(rows, f.type) for f in WIRE[VIEW]], schema=WIRE[VIEW]))
    if wide:
        out[VIEW] = wide
    return out


def split(data: pa.Table) -> dict[str, pa.Table]:
    """Rows of the wide ``events`` (a Parquet dataset's) -> the tables that store them (those
    with rows)."""
    out: dict[str, pa.Table] = {}
    types = data.column("type")
    for table, kinds in KINDS.items():
        part = data.filter(pc.is_in(types, value_set=pa.array(kinds, STR)))
        if part.num_rows:
            out[table] = part.select(STORED[table].names)
    return out
