"""The rows of many games -> one Arrow record batch per table, column by column, by name.

Each table's batch is built from its schema (``schema.WIRE``): for every column, the values are
read by the column's name from the rows (dicts for most tables; for ``events``, the tuples of
each event type, whose layout ``rows.LAYOUTS`` names) and converted to Arrow in one call. A
column that no row fills costs nothing (an all-null array). ``game_id`` and ``ruleset`` are
dictionary-encoded: one value per game, referenced by a parallel column of game numbers.
"""

from __future__ import annotations

from array import array
from itertools import repeat
from typing import Any

import pyarrow as pa

from cabo_log.db.game_rows import Row, game_rows
from cabo_log.db.rows import LAYOUTS, RowCollector
from cabo_log.db.schema import I16, I32, I64, SCHEMAS, STR, WIRE
from engine import GameState

DICT_TABLES = tuple(name for name in SCHEMAS if name != "events")


class Chunk:
    """The rows of many games, turned into one record batch per table by ``batches``."""

    def __init__(self) -> None:
        self.game_ids: list[str] = []
        self.rulesets: list[str] = []
        self.times: list[dict[int, Any]] = []    # of each game: line -> raw ``t``
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
        self.times.append(rows.times)
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
            owner = [i for k in kinds for i in self.owner[k]]
            columns = self._event_columns(kinds)
            if any(self.times):
                times, lines = self.times, columns["line"]
                assert lines is not None
                columns["t_ms"], columns["t_iso"] = _split_times(
                    [times[game].get(line) for game, line in zip(owner, lines, strict=True)])
            out["events"] = [_batch("events", columns, owner, keys)]
        return out

    def _event_columns(self, kinds: list[str]) -> dict[str, list[Any] | None]:
        """column -> its values over the events of every type (None: NULL throughout)."""
        given = {kind: dict(zip(LAYOUTS[kind], zip(*self.events[kind], strict=True),
                                strict=True))
                 for kind in kinds}
        columns: dict[str, list[Any] | None] = {}
        for name in SCHEMAS["events"].names[2:]:
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
        nulls = len(owner) if values is None else values.count(None)
        if nulls == len(owner):   # NULL throughout: no work
            arrays.append(pa.nulls(len(owner), field.type))
        else:
            assert values is not None
            arrays.append(_array(values, field.type, nulls))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


_MACHINE_INTS = {I16: "h", I32: "i", I64: "q"}


def _array(values: list[Any], kind: pa.DataType, nulls: int) -> pa.Array:
    """``pa.array(values, kind)``; an integer column without NULLs goes through a machine
    array instead, which is about twice as fast (out of range: ``pa.array`` says so)."""
    code = _MACHINE_INTS.get(kind)
    if code is not None and not nulls:
        try:
            ints = array(code, values)
        except (OverflowError, TypeError):
            pass
        else:
            return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(ints)])
    return pa.array(values, kind)


def _split_times(raw: list[Any]) -> tuple[list[Any], list[Any]]:
    """The raw ``t`` of each event -> (t_ms, t_iso)."""
    ms = [float(t) if type(t) in (int, float) else None for t in raw]
    iso = [t if type(t) is str else None for t in raw]
    return ms, iso
