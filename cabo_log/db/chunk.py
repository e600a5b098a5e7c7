"""The rows of many games -> one Arrow record batch per table, column by column, by name.

Each table's batch is built from its schema (``schema.WIRE``): for every column, the values are
read by the column's name from the rows (tuples for most tables; for ``events``, the flat list
of each event type, whose layout ``rows.LAYOUTS`` names: a column is a slice of it) and
converted to Arrow in one call. A
column that no row fills costs nothing (an all-null array). ``game_id`` and ``ruleset`` are
dictionary-encoded: one value per game, referenced by a parallel column of game numbers.
"""

from __future__ import annotations

import gc
import struct
from collections.abc import Sequence
from itertools import repeat
from typing import Any

import pyarrow as pa

from cabo_log.db.game_rows import game_rows
from cabo_log.db.rows import LAYOUTS, RowCollector
from cabo_log.db.schema import I16, I32, I64, SCHEMAS, STR, WIRE
from engine import GameState

TABLES = tuple(name for name in SCHEMAS if name != "events")   # rows in ``COLUMNS`` order


class Chunk:
    """The rows of many games, turned into one record batch per table by ``batches``."""

    def __init__(self) -> None:
        self.game_ids: list[str] = []
        self.rulesets: list[str] = []
        self.times: list[dict[int, Any]] = []    # of each game: line -> raw ``t``
        self.tables: dict[str, list[tuple[Any, ...]]] = {name: [] for name in TABLES}
        self.events: dict[str, list[Any]] = {kind: [] for kind in LAYOUTS}   # flat rows
        self.owner: dict[str, list[int]] = {name: [] for name in (*TABLES, *LAYOUTS)}

    def add(self, g: GameState, rows: RowCollector, source: str, file_hash: str) -> None:
        """Add the rows of a game that replayed without error."""
        header = rows.header
        assert header is not None
        index = len(self.game_ids)
        self.game_ids.append(g.game_id)
        self.rulesets.append(g.rules.name)
        self.times.append(rows.times)
        parts = game_rows(g, rows, header, source, file_hash)
        parts["powers"] = rows.rows.powers.rows
        parts["cabo_calls"] = rows.rows.calls.rows
        owner = self.owner
        for name, items in parts.items():
            if items:
                self.tables[name].extend(items)
                owner[name].extend(repeat(index, len(items)))
        for kind, flat in rows.rows.events.items():
            if flat:
                self.events[kind].extend(flat)
                owner[kind].extend(repeat(index, len(flat) // len(LAYOUTS[kind])))

    def __len__(self) -> int:
        return len(self.game_ids)

    def batches(self) -> dict[str, list[pa.RecordBatch]]:
        """table -> its record batch (tables without rows are left out). The cyclic garbage
        collector is paused meanwhile, as during the replay: the columns are large new
        containers of the rows' many small tuples, and scanning them over and over would cost
        more than building them."""
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._batches()
        finally:
            if collecting:
                gc.enable()

    def _batches(self) -> dict[str, list[pa.RecordBatch]]:
        keys = pa.array(self.game_ids, STR), pa.array(self.rulesets, STR)
        out: dict[str, list[pa.RecordBatch]] = {}
        for name in TABLES:
            rows = self.tables[name]
            if rows:   # transposed in one pass: row by row is what the memory cache likes
                columns = [_array(values, f.type) for values, f in zip(
                    zip(*rows, strict=True), list(WIRE[name])[2:], strict=True)]
                out[name] = [_batch(name, columns, self.owner[name], keys)]
        kinds = [kind for kind, rows in self.events.items() if rows]
        if kinds:
            owner = [i for k in kinds for i in self.owner[k]]
            out["events"] = [_batch("events", self._event_columns(kinds, owner), owner, keys)]
        return out

    def _event_columns(self, kinds: list[str], owner: list[int]) -> list[pa.Array]:
        """The ``events`` columns after the key: each type's values by name, concatenated."""
        given = {kind: _columns(self.events[kind], LAYOUTS[kind]) for kind in kinds}
        sizes = {kind: len(self.events[kind]) // len(LAYOUTS[kind]) for kind in kinds}
        times: dict[str, list[Any]] = {}
        if any(self.times):   # the raw ``t`` of each event, by its game and line
            raw = [self.times[game].get(line) for game, line in zip(
                owner, (n for k in kinds for n in given[k]["line"]), strict=True)]
            times["t_ms"], times["t_iso"] = _split_times(raw)
        arrays = []
        for field in list(WIRE["events"])[2:]:
            name, kind_type = field.name, field.type
            if name == "type":
                parts = [pa.repeat(pa.scalar(k, STR), sizes[k]) for k in kinds]
            elif name in times:
                parts = [_array(times[name], kind_type)]
            else:
                parts = [_array(given[k][name], kind_type) if name in given[k]
                         else pa.nulls(sizes[k], kind_type) for k in kinds]
            arrays.append(parts[0] if len(parts) == 1 else pa.concat_arrays(parts))
        return arrays


def _columns(flat: list[Any], names: tuple[str, ...]) -> dict[str, list[Any]]:
    """A kind's flat rows -> column name -> its values (a slice each, copied in C)."""
    width = len(names)
    return {name: flat[j::width] for j, name in enumerate(names)}


def _batch(table: str, columns: list[pa.Array], owner: list[int],
           keys: tuple[pa.Array, pa.Array]) -> pa.RecordBatch:
    """A table's batch: the dictionary-encoded key, then its other columns in schema order."""
    index = pa.array(owner, I32)
    return pa.RecordBatch.from_arrays(
        [pa.DictionaryArray.from_arrays(index, keys[0]),
         pa.DictionaryArray.from_arrays(index, keys[1]), *columns], schema=WIRE[table])


_MACHINE_INTS = {I16: "h", I32: "i", I64: "q"}


def _array(values: Sequence[Any], kind: pa.DataType) -> pa.Array:
    """``pa.array(values, kind)``, with two shortcuts: no work for a column of NULLs, and an
    integer column without NULLs packed by ``struct`` (about a third of ``pa.array``'s
    instructions; a NULL or a value out of range goes the ``pa.array`` way, which says so).
    Nothing counts the NULLs first: counting compares every value with None, which costs as
    much as converting it."""
    count = len(values)
    if values[0] is None and values.count(None) == count:   # quick: None is None
        return pa.nulls(count, kind)
    code = _MACHINE_INTS.get(kind)
    if code is not None:
        try:
            packed = struct.pack(f"={count}{code}", *values)
        except struct.error:
            pass
        else:
            return pa.Array.from_buffers(kind, count, [None, pa.py_buffer(packed)])
    return pa.array(values, kind)


def _split_times(raw: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    """The raw ``t`` of each event -> (t_ms, t_iso)."""
    ms = [float(t) if type(t) in (int, float) else None for t in raw]
    iso = [t if type(t) is str else None for t in raw]
    return ms, iso
