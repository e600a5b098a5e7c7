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

The times (``t_ms``, ``t_iso``) are not in those tables: few logs carry them, and a column of
NULLs costs DuckDB's append nearly what a filled one does (~60 ms of CPU for the two per
1.17 M events). An event that has a time is stored whole in ``events_timed`` instead, with
every column of the view, as the one wide table was; the view reads it as one more part.
"""

from __future__ import annotations

import pyarrow as pa

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
TIMES = ("t_ms", "t_iso")
# the events that have a time, with every column of the view
TIMED = f"{VIEW}_timed"


def _filled(kinds: tuple[str, ...]) -> pa.Schema:
    """The columns of the view that these kinds fill (``type`` when there are several)."""
    filled = {name for kind in kinds for name in LAYOUTS[kind]} | set(ALWAYS)
    if len(kinds) > 1:
        filled.add("type")
    return pa.schema([f for f in SCHEMAS[VIEW] if f.name in filled])


# what crosses from a worker to the writer, a batch per table of ``KINDS``: the columns its
# kinds fill, the times included, game_id and ruleset dictionary-encoded
STORED_WIRE: dict[str, pa.Schema] = {
    table: pa.schema([pa.field(f.name, GAME_KEY) if f.name in ("game_id", "ruleset") else f
                      for f in _filled(kinds)])
    for table, kinds in KINDS.items()}
# what the tables hold: those columns but the times; ``TIMED`` every column of the view
STORED: dict[str, pa.Schema] = {
    **{table: pa.schema([f for f in _filled(kinds) if f.name not in TIMES])
       for table, kinds in KINDS.items()},
    TIMED: SCHEMAS[VIEW]}
# the tables a game's rows are stored in: ``schema.GAME_TABLES`` with ``events``' own
GAME_STORED: tuple[str, ...] = tuple(
    stored for name in GAME_TABLES for stored in (STORED if name == VIEW else (name,)))


def view_sql() -> str:
    """The SELECT of the view ``events``: each table's rows with the view's columns, in the
    view's order (a kind's ``type`` a constant, a column the table lacks a typed NULL), then
    ``TIMED``'s."""
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
    every = ", ".join(f'"{name}"' for name in SCHEMAS[VIEW].names)
    parts.append(f"SELECT {every} FROM {TIMED}")
    return " UNION ALL ".join(parts)


def widen(batches: dict[str, list[pa.RecordBatch]]) -> dict[str, list[pa.RecordBatch]]:
    """A chunk's batches with the ``events`` tables' put together as batches of the one wide
    ``events`` (``schema.WIRE``): what a Parquet dataset holds (``load --parquet-out``), so
    that its ``DIR/events/`` reads as the table of docs/schema.md with any Parquet reader."""
    out = {name: found for name, found in batches.items() if name not in KINDS}
    wide = [_wide(batch, kinds) for table, kinds in KINDS.items()
            for batch in batches.get(table, [])]
    if wide:
        out[VIEW] = wide
    return out


def _wide(batch: pa.RecordBatch, kinds: tuple[str, ...]) -> pa.RecordBatch:
    """A batch of these kinds' table as one of the wide ``events`` (``schema.WIRE``)."""
    have, rows = set(batch.schema.names), batch.num_rows
    return pa.RecordBatch.from_arrays([
        batch.column(f.name) if f.name in have
        else pa.array([kinds[0]] * rows, f.type) if f.name == "type"
        else pa.nulls(rows, f.type) for f in WIRE[VIEW]], schema=WIRE[VIEW])


def stored(table: str, data: pa.Table) -> list[tuple[str, pa.Table]]:
    """Rows of a table as a worker sends them (``STORED_WIRE``) -> (table, rows) as they are
    stored: without the times, or, the events that have a time, whole in ``TIMED``. Free
    when no event has a time (the usual case: two counts of NULLs)."""
    if table not in KINDS:
        return [(table, data)]
    names = STORED[table].names
    t_ms, t_iso = data.column("t_ms"), data.column("t_iso")
    if t_ms.null_count == len(t_ms) and t_iso.null_count == len(t_iso):
        return [(table, data.select(names))]
    # (imported here: the writer of a load without times never needs it, ~30 ms of CPU)
    import pyarrow.compute as pc

    timed = pc.or_(pc.is_valid(t_ms), pc.is_valid(t_iso))
    out = []
    rest = data.filter(pc.invert(timed))
    if rest.num_rows:
        out.append((table, rest.select(names)))
    wide = [_wide(batch, KINDS[table]) for batch in data.filter(timed).to_batches()]
    out.append((TIMED, pa.Table.from_batches(wide, schema=WIRE[VIEW])))
    return out


def split(data: pa.Table) -> dict[str, pa.Table]:
    """Rows of the wide ``events`` (a Parquet dataset's) -> the tables that store them (those
    with rows) as a worker sends them (``stored`` makes them the stored rows): the events
    that have a time in ``TIMED``, the others by their kind."""
    import pyarrow.compute as pc

    out: dict[str, pa.Table] = {}
    timed = pc.or_(pc.is_valid(data.column("t_ms")), pc.is_valid(data.column("t_iso")))
    part = data.filter(timed)
    if part.num_rows:
        out[TIMED] = part.select(STORED[TIMED].names)
    data = data.filter(pc.invert(timed))
    types = data.column("type")
    for table, kinds in KINDS.items():
        part = data.filter(pc.is_in(types, value_set=pa.array(kinds, STR)))
        if part.num_rows:
            out[table] = part.select(STORED_WIRE[table].names)
    return out
