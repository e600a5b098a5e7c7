"""The rows of many games -> one Arrow record batch per table.

The games' rows are written into the chunk's ``row_sink.RowSink`` (a builder per column); each
table's batch is its builders converted column by column in the schema's order
(``arrays.Conversion``). ``events`` is stored as the tables of ``event_tables``, each of one
or more event kinds: its columns are each kind's builder of that column one after the other
(NULL rows for a kind without it), its ``type`` the kind, its times (``t_ms``, ``t_iso``) the
raw ``t`` the collector saw on each event's line. ``game_id`` and ``ruleset`` are
dictionary-encoded: one value per game, referenced by a parallel column of game numbers
(``Chunk.owner``).
"""

from __future__ import annotations

import gc
from array import array
from collections.abc import Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from cabo_log.db.arrays import Conversion, Part, bytes_array, int32
from cabo_log.db.columns import Column, Int64Column
from cabo_log.db.event_tables import KINDS, STORED_WIRE
from cabo_log.db.game_rows import game_rows
from cabo_log.db.row_layout import LAYOUTS, SINK, TABLES
from cabo_log.db.row_sink import RowSink
from cabo_log.db.rows import RowCollector
from cabo_log.db.schema import COLUMNS, STR, WIRE
from engine import GameState


class Chunk:
    """The rows of many games, turned into one record batch per table by ``batches``."""

    def __init__(self) -> None:
        self.game_ids: list[str] = []
        self.rulesets: list[str] = []
        self.times: list[dict[int, Any]] = []    # of each game: line -> raw ``t``
        # the games' ``GameRows`` write their rows here in place (``collect(data, source,
        # chunk.sink)``)
        self.sink = RowSink()
        # each table's and event kind's builders by column name
        self.columns: dict[str, dict[str, Column]] = {
            name: dict(zip((LAYOUTS[name] if name in LAYOUTS else COLUMNS[name]),
                           table.columns(), strict=True))
            for name, table in zip(SINK, self.sink.tables(), strict=True)}
        # each table's (each event kind's) rows: the number of the game each belongs to, as
        # int32 (an ``array``: handed to Arrow as it is)
        self.owner: dict[str, array[int]] = {name: array("i") for name in SINK}

    def add(self, g: GameState, rows: RowCollector, source: str, file_hash: str) -> None:
        """Add the rows of a game that replayed without error (collected into this chunk's
        sink)."""
        header = rows.header
        assert header is not None
        game = rows.rows
        if game.sink is not self.sink:
            raise ValueError("the game's rows were collected into another chunk's sink")
        index = len(self.game_ids)
        self.game_ids.append(g.game_id)
        self.rulesets.append(g.rules.name)
        self.times.append(rows.times)
        game_rows(g, rows, header, source, file_hash, self.sink)
        counts = game.counts()
        self.sink.commit()
        # the game's number, repeated for each of its rows by ``*`` (a copy in C; ``extend``
        # from an iterator would convert every value)
        one = array("i", (index,))
        for name, count in zip(SINK, counts, strict=True):
            if count:
                self.owner[name].extend(one * count)

    def __len__(self) -> int:
        return len(self.game_ids)

    def batches(self) -> dict[str, list[pa.RecordBatch]]:
        """table -> its record batch (tables without rows are left out). The cyclic garbage
        collector is paused meanwhile, as during the replay: the columns are large new
        containers, and scanning them over and over would cost more than building them."""
        self.sink.rollback()   # the rows of a game collected last but not added
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._batches()
        finally:
            if collecting:
                gc.enable()

    def _batches(self) -> dict[str, list[pa.RecordBatch]]:
        keys = pa.array(self.game_ids, STR), pa.array(self.rulesets, STR)
        names = pa.array(self.sink.names.values, STR)
        out: dict[str, list[pa.RecordBatch]] = {}
        for name in TABLES:
            owner = self.owner[name]
            if owner:
                conversion = Conversion(len(owner), names)
                columns = self.columns[name]
                for field in list(WIRE[name])[2:]:
                    conversion.add(field.type, [(columns[field.name], len(owner))])
                out[name] = [_batch(name, conversion.arrays(), int32(owner), keys)]
        for table, stored in KINDS.items():   # ``events``: the table of each kind
            kinds = [kind for kind in stored if self.owner[kind]]
            if kinds:
                owner = int32(b"".join([self.owner[k] for k in kinds]))
                out[table] = [_batch(table, self._event_columns(table, kinds, owner, names),
                                     owner, keys)]
        return out

    def _event_columns(self, table: str, kinds: list[str], owner: pa.Array, names: pa.Array
                       ) -> list[pa.Array]:
        """The columns after the key of an ``events`` table (``event_tables``): each of its
        kinds' builders of the column one after the other; its ``type`` and times."""
        sizes = [len(self.owner[kind]) for kind in kinds]
        conversion = Conversion(len(owner), names)
        fields = list(STORED_WIRE[table])[2:]
        made = [f.name for f in fields if f.name not in ("type", "t_ms", "t_iso")]
        for name in made:
            parts: list[Part] = [(self.columns[k].get(name), n)
                                 for k, n in zip(kinds, sizes, strict=True)]
            conversion.add(STORED_WIRE[table].field(name).type, parts)
        arrays = dict(zip(made, conversion.arrays(), strict=True))
        if "type" in STORED_WIRE[table].names:   # each row's kind
            index = b"".join(bytes((i,)) * n for i, n in enumerate(sizes))
            arrays["type"] = pc.take(pa.array(kinds, STR), bytes_array(index))
        arrays["t_ms"], arrays["t_iso"] = self._times(kinds, owner, fields)
        return [arrays[f.name] for f in fields]

    def _times(self, kinds: list[str], owner: pa.Array, fields: list[pa.Field]
               ) -> tuple[pa.Array, pa.Array]:
        """The ``t_ms`` and ``t_iso`` of each row: the raw ``t`` of its game's line."""
        types = {f.name: f.type for f in fields}
        rows = len(owner)
        if not any(self.times):
            return pa.nulls(rows, types["t_ms"]), pa.nulls(rows, types["t_iso"])
        lines: list[int] = []
        for kind in kinds:
            line = self.columns[kind]["line"]
            assert isinstance(line, Int64Column)
            lines += memoryview(line.values.getvalue()).cast("q").tolist()
        raw = [self.times[game].get(line) for game, line in zip(
            owner.to_pylist(), lines, strict=True)]
        ms, iso = _split_times(raw)
        return pa.array(ms, types["t_ms"]), pa.array(iso, types["t_iso"])


def _batch(table: str, columns: list[pa.Array], index: pa.Array,
           keys: tuple[pa.Array, pa.Array]) -> pa.RecordBatch:
    """A table's batch: the dictionary-encoded key, then its other columns in schema order."""
    return pa.RecordBatch.from_arrays(
        [pa.DictionaryArray.from_arrays(index, keys[0]),
         pa.DictionaryArray.from_arrays(index, keys[1]), *columns],
        schema=STORED_WIRE[table] if table in STORED_WIRE else WIRE[table])


def _split_times(raw: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    """The raw ``t`` of each event -> (t_ms, t_iso)."""
    ms = [float(t) if type(t) in (int, float) else None for t in raw]
    iso = [t if type(t) is str else None for t in raw]
    return ms, iso
