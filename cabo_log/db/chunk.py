"""The rows of many games -> one Arrow record batch per table, column by column, by name.

Each table's batch is built from its schema (``schema.WIRE``): for every column, the values are
read by the column's name from the rows (dicts for most tables; for ``events``, the tuples of
each event type, whose layout ``rows.LAYOUTS`` names) and converted to Arrow in one call. A
column that no row fills costs nothing (an all-null array). ``game_id`` and ``ruleset`` are
dictionary-encoded: one value per game, referenced by a parallel column of game numbers.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

import pyarrow as pa

from cabo_log.db.game_rows import Row, game_rows
from cabo_log.db.rows import LAYOUTS, RowCollector
from cabo_log.db.schema import I32, SCHEMAS, STR, WIRE
from engine import GameState

DICT_TABLES = tuple(name for name in SCHEMAS if name != "events")


class Chunk:
    """The rows of many games, turned into one record batch per table by ``batches``."""

    def __init__(self) -> None:
        self.game_ids: list[str] = []
        self.rulesets: list[str] = []
        self.tables: dict[str, list[Row]] = {name: [] for name in DICT_TABLES}
        self.events: dict[str, list[tuple[Any, ...]]] = {kind: [] for kind in LAYOUTS}
        self.owner: dict[str, list[int]] = {name: [] for name in (*DICT_TABLES, *LAYOUTS)}

    def add(self, g: GameState, rows: RowCollector, source: str, file_hash: str) -> None:
        """Add the rows of a game that replayed without error."""
        header = rows.header
        assert header is not None
        index = len(self.game_ids)
        self.game_ids.append(g.game_id)
        self.rulesets.append(g.rules.name)
        parts = game_rows(g, rows, header, source, file_hash)
        parts["powers"] = rows.powers.rows
        parts["cabo_calls"] = rows.calls.rows
        owner = self.owner
        for name, items in parts.items():
            if items:
                self.tables[name].extend(items)
                owner[name].extend(repeat(index, len(items)))
        for kind, tuples in rows.events.items():
            if tuples:
                self.events[kind].extend(tuples)
                owner[kind].extend(repeat(index, len(tuples)))

    def __len__(self) -> int:
        return len(self.game_ids)

    def batches(self) -> dict[str, list[pa.RecordBatch]]:
        """table -> its record batch (tables without rows are left out)."""
        keys = pa.array(self.game_ids, STR), pa.array(self.rulesets, STR)
        out: dict[str, list[pa.RecordBatch]] = {}
        for name in DICT_TABLES:
            rows = self.tables[name]
            if rows:
                columns: dict[str, list[Any] | None] = {
                    f: [row.get(f) for row in rows] for f in SCHEMAS[name].names[2:]}
                out[name] = [_batch(name, columns, self.owner[name], keys)]
        kinds = [kind for kind, rows in self.events.items() if rows]
        if kinds:
            out["events"] = [_batch("events", self._event_columns(kinds),
                                    [i for k in kinds for i in self.owner[k]], keys)]
        return out

    def _event_columns(self, kinds: list[str]) -> dict[str, list[Any] | None]:
        """column -> its values over the events of every type (None: NULL throughout)."""
        given = {kind: dict(zip(LAYOUTS[kind], zip(*self.events[kind], strict=True),
                                strict=True))
                 for kind in kinds}
        columns: dict[str, list[Any] | None] = {}
        for name in (*SCHEMAS["events"].names[2:], "t"):
            if name in ("t_ms", "t_iso"):
                continue
            if name == "type":
                types: list[Any] = []
                for kind in kinds:
                    types.extend(repeat(kind, len(self.events[kind])))
                columns[name] = types
                continue
            if not any(name in given[k] for k in kinds):
                columns[name] = None
                continue
            values: list[Any] = []
            for kind in kinds:
                values.extend(given[kind].get(name) or repeat(None, len(self.events[kind])))
            columns[name] = values
        columns["t_ms"], columns["t_iso"] = _split_times(columns.pop("t"))
        return columns


def _batch(table: str, columns: dict[str, list[Any] | None], owner: list[int],
           keys: tuple[pa.Array, pa.Array]) -> pa.RecordBatch:
    """A table's batch from its columns by name (every column of the schema)."""
    index = pa.array(owner, I32)
    arrays = [pa.DictionaryArray.from_arrays(index, keys[0]),
              pa.DictionaryArray.from_arrays(index, keys[1])]
    schema = WIRE[table]
    for field in list(schema)[2:]:
        values = columns.get(field.name)
        if values is None or values.count(None) == len(values):   # NULL throughout: no work
            arrays.append(pa.nulls(len(owner), field.type))
        else:
            arrays.append(pa.array(values, field.type))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def _split_times(raw: list[Any] | None) -> tuple[list[Any] | None, list[Any] | None]:
    """The raw ``t`` column -> (t_ms, t_iso); None for a column that would be all null."""
    if raw is None or raw.count(None) == len(raw):
        return None, None
    ms = [float(t) if type(t) in (int, float) else None for t in raw]
    iso = [t if type(t) is str else None for t in raw]
    return ms, iso
