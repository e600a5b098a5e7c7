"""The rows of many games -> one Arrow record batch per table, column by column, by name.

Each table's batch is built from its schema (``schema.WIRE``; ``events`` is stored as the
tables of ``event_tables``, each a batch of its own): for every column, the values are read by
the column's name from the rows. The ``events``' common columns (``row_layout.Common``), their
list and int16 columns (``row_layout.ListColumn``, ``NumberColumn``) and the ``powers``
columns (``open_rows.PowerColumns``) are machine values in byte buffers, handed to Arrow as
they are (``arrays.buffered``); the rest are Python values converted in one call per column:
an event kind's other own columns are slices of its flat list (``row_layout.FLAT``), the other
tables' rows tuples. The coded string columns (``row_layout.CODED``,
``open_rows.POWER_CODED``) are decoded by one ``take`` from the games' names, the list
columns' cards from the chunk's own (``RowSink.cards``). A column that no row fills costs
nothing (an all-null array). ``game_id`` and ``ruleset`` are dictionary-encoded: one value per
game, referenced by a parallel column of game numbers (``Chunk.owner``).
"""

from __future__ import annotations

import gc
from array import array
from collections.abc import Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from cabo_log.db.arrays import (
    BYTE_VALID,
    array_of,
    bitmap,
    bitmaps_of,
    buffered,
    bytes_array,
    decoded,
    int32,
    merged,
    names_of,
)
from cabo_log.db.event_tables import KINDS, STORED_WIRE
from cabo_log.db.game_rows import ScoreColumns, game_rows
from cabo_log.db.open_rows import POWER_TYPES, Names
from cabo_log.db.row_layout import (
    CODED,
    COMMON,
    FLAT,
    LAYOUTS,
    LIST_CODED,
    LISTED,
    NUMBERED,
    Common,
    ListColumn,
    NumberColumn,
    RowSink,
)
from cabo_log.db.rows import RowCollector
from cabo_log.db.schema import BOOL, I16, I32, SCHEMAS, STR, WIRE
from engine import GameState

TABLES = tuple(name for name in SCHEMAS if name != "events")
# the tables whose rows are tuples in ``COLUMNS`` order (``powers`` and ``round_scores`` are
# byte buffers: ``sink.powers``, ``scores``)
TUPLES = tuple(name for name in TABLES if name not in ("powers", "round_scores"))


# each tuple table's columns after the key as one struct: ``pa.array`` converts its rows in
# one call (a call per column cost ~10 us each, more than the values of these small tables)
_STRUCTS = {name: pa.struct(list(WIRE[name])[2:]) for name in TUPLES}


class Chunk:
    """The rows of many games, turned into one record batch per table by ``batches``."""

    def __init__(self) -> None:
        self.game_ids: list[str] = []
        self.rulesets: list[str] = []
        self.times: list[dict[int, Any]] = []    # of each game: line -> raw ``t``
        self.tables: dict[str, list[tuple[Any, ...]]] = {name: [] for name in TUPLES}
        # the games' ``GameRows`` append their rows to these lists in place (``collect(data,
        # source, chunk.sink)``): each kind's flat rows, and the powers' (``POWER_LAYOUT``)
        self.sink = RowSink()
        self.scores = ScoreColumns()   # the ``round_scores`` rows (``game_rows``)
        self.events: dict[str, list[Any]] = dict(zip(LAYOUTS, self.sink.kinds, strict=True))
        self.common: dict[str, Common] = dict(zip(LAYOUTS, self.sink.common, strict=True))
        self.lists: dict[tuple[str, str], ListColumn] = dict(zip(LISTED, self.sink.lists,
                                                                 strict=True))
        self.numbers: dict[tuple[str, str], NumberColumn] = dict(
            zip(NUMBERED, self.sink.numbers, strict=True))
        # each table's (each event kind's) rows: the number of the game each belongs to, as
        # int32 (an ``array``: handed to Arrow as it is)
        self.owner: dict[str, array[int]] = {name: array("i") for name in (*TABLES, *LAYOUTS)}
        # the ``CODED`` columns' values: each game's ``GameRows.names`` one after the other,
        # and where each game's begin (a row's code + its game's base = its index here)
        self.names: list[str | None] = []
        self.bases: list[int] = []

    def add(self, g: GameState, rows: RowCollector, source: str, file_hash: str) -> None:
        """Add the rows of a game that replayed without error."""
        header = rows.header
        assert header is not None
        index = len(self.game_ids)
        self.game_ids.append(g.game_id)
        self.rulesets.append(g.rules.name)
        self.times.append(rows.times)
        scores = self.scores
        before = scores.rows()
        base = len(self.names)   # where this game's names will begin in ``names``
        parts = game_rows(g, rows, header, source, file_hash, scores, base)
        parts["cabo_calls"] = rows.rows.calls.rows
        owner = self.owner
        # the game's number, repeated for each of its rows by ``*`` (a copy in C; ``extend``
        # from an iterator would convert every value)
        one = array("i", (index,))
        owner["round_scores"].extend(one * (scores.rows() - before))
        for name, items in parts.items():
            if items:
                self.tables[name].extend(items)
                owner[name].extend(one * len(items))
        game = rows.rows
        self.bases.append(base)
        self.names.extend(game.names.values)
        if game.sink is not self.sink:   # rows of a game collected on its own: copied
            self.sink.rollback()
            self.sink.powers.extend(game.sink.powers)
            for kind, flat, common in zip(LAYOUTS, game.sink.kinds, game.sink.common,
                                          strict=True):
                self.events[kind].extend(flat)
                self.common[kind].extend(common)
            for key, number in zip(NUMBERED, game.sink.numbers, strict=True):
                self.numbers[key].extend(number)
            for key, column in zip(LISTED, game.sink.lists, strict=True):
                _copy_list(self.lists[key], column, key[1] in LIST_CODED,
                           game.sink.cards.values, self.sink.cards)
        counts = game.counts()   # each kind's rows, then the powers'
        self.sink.commit()
        for kind, count in zip((*LAYOUTS, "powers"), counts, strict=True):
            if count:
                owner[kind].extend(one * count)

    def __len__(self) -> int:
        return len(self.game_ids)

    def batches(self) -> dict[str, list[pa.RecordBatch]]:
        """table -> its record batch (tables without rows are left out). The cyclic garbage
        collector is paused meanwhile, as during the replay: the columns are large new
        containers of the rows' many small tuples, and scanning them over and over would cost
        more than building them."""
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
        names = pa.array(self.names, STR)
        cards = pa.array(self.sink.cards.values, STR)   # the listed columns' cards
        out: dict[str, list[pa.RecordBatch]] = {}
        for name in TABLES:
            if name == "powers":
                if self.sink.powers.rows():
                    out[name] = [_batch(name, self._power_columns(names), int32(self.owner[name]),
                                        keys)]
                continue
            if name == "round_scores":
                if self.scores.rows():
                    out[name] = [_batch(name, self._score_columns(names),
                                        int32(self.owner[name]), keys)]
                continue
            rows = self.tables[name]
            if rows:   # one conversion of the tuples as structs: its fields are the columns
                columns = pa.array(rows, _STRUCTS[name]).flatten()
                out[name] = [_batch(name, columns, int32(self.owner[name]), keys)]
        for table, stored in KINDS.items():   # ``events``: the table of each kind
            kinds = [kind for kind in stored if self.common[kind].rows()]
            if kinds:
                owner = int32(b"".join([self.owner[k] for k in kinds]))
                out[table] = [_batch(table, self._event_columns(table, kinds, owner, names,
                                                                cards), owner, keys)]
        return out

    def _power_columns(self, names: pa.Array) -> list[pa.Array]:
        """The ``powers`` columns after the key, from their buffers (``open_rows.PowerColumns``)
        as they are, with as few compute calls as the table allows (each costs ~10-20 us, as
        much as converting thousands of values, and there are 26 columns a chunk): the coded
        columns' codes one after the other, each row's game's base added in one ``add`` and
        decoded in one ``take`` (each column a slice of it); every bitmap (the nullable
        columns' validity, the booleans' values) in one cast (``bitmaps``)."""
        o = self.sink.powers
        rows = o.rows()
        fields = list(WIRE["powers"])[2:]
        coded = [f.name for f in fields if POWER_TYPES[f.name] == "code"]
        base = pc.take(array_of(self.bases, I32), int32(self.owner["powers"]))
        codes = int32(b"".join([o.buffer(name).getvalue() for name in coded]))
        strings = names_of(names, pc.add(codes, pa.concat_arrays([base] * len(coded))))
        decoded = {name: strings.slice(i * rows, rows) for i, name in enumerate(coded)}
        # the bytes (one a row) of each bitmap: "valid NAME" (0 where NULL), "NAME" (values)
        flags: dict[str, bytes] = {}
        for f in fields:
            kind = POWER_TYPES[f.name]
            if kind in ("i16?", "i32?"):
                flags[f"valid {f.name}"] = o.buffer(f"has_{f.name}").getvalue()
            elif kind == "bool?":
                data = o.buffer(f.name).getvalue()
                flags[f"valid {f.name}"] = data.translate(BYTE_VALID)
                flags[f.name] = data
            elif kind == "bool":
                flags[f.name] = o.buffer(f.name).getvalue()
        bitmaps = bitmaps_of(flags, rows)
        arrays = []
        for f in fields:
            name, kind = f.name, POWER_TYPES[f.name]
            if kind == "code":
                arrays.append(decoded[name])
                continue
            validity = None
            valid = flags.get(f"valid {name}")
            if valid is not None:
                nulls = valid.count(0)
                if nulls == rows:
                    arrays.append(pa.nulls(rows, f.type))
                    continue
                if nulls:
                    validity = bitmaps[f"valid {name}"]
            values = bitmaps[name] if kind in ("bool", "bool?") else pa.py_buffer(
                o.buffer(name).getvalue())
            arrays.append(pa.Array.from_buffers(f.type, rows, [validity, values]))
        return arrays

    def _score_columns(self, names: pa.Array) -> list[pa.Array]:
        """The ``round_scores`` columns after the key, from their buffers
        (``game_rows.ScoreColumns``), with as few compute calls as ``_power_columns``: the
        strings' codes (indices into ``names``) of ``player``, ``dealt`` and ``hand`` decoded
        by one ``take``, the bitmaps made by one cast."""
        o = self.scores
        rows = o.rows()
        fields = list(WIRE["round_scores"])[2:]
        coded = ("player", "dealt", "hand")
        codes = [getattr(o, name).getvalue() for name in coded]
        strings = names_of(names, int32(b"".join(codes)))
        decoded, start = {}, 0
        for name, data in zip(coded, codes, strict=True):
            decoded[name] = strings.slice(start, len(data) // 4)
            start += len(data) // 4
        has_dealt = o.has_dealt.getvalue()
        nulls = has_dealt.count(0)
        flags = {f.name: getattr(o, f.name).getvalue() for f in fields if f.type == BOOL}
        if nulls:
            flags["valid dealt"] = has_dealt
        bitmaps = bitmaps_of(flags, rows)
        valid = bitmaps.get("valid dealt")
        arrays = []
        for f in fields:
            name, kind = f.name, f.type
            if name == "player":
                arrays.append(decoded[name])
            elif name in ("dealt", "hand"):
                ends = pa.py_buffer(getattr(o, f"{name}_ends").getvalue())
                arrays.append(pa.Array.from_buffers(
                    kind, rows, [valid if name == "dealt" else None, ends],
                    children=[decoded[name]]))
            elif kind == BOOL:
                arrays.append(pa.Array.from_buffers(kind, rows, [None, bitmaps[name]]))
            else:
                data = getattr(o, name).getvalue()
                arrays.append(pa.Array.from_buffers(
                    kind, rows, [valid if name == "dealt_total" else None,
                                 pa.py_buffer(data)]))
        return arrays

    def _event_columns(self, table: str, kinds: list[str], owner: pa.Array, names: pa.Array,
                       cards: pa.Array) -> list[pa.Array]:
        """The columns after the key of an ``events`` table (``event_tables``): each of its
        kinds' values by name, one kind after the other. A table holds only the columns its
        kinds fill, so most are one conversion of one kind's values; in ``events_other`` the
        NULL rows of a column are made in as few calls as its kinds allow (``merged``: every
        pyarrow call costs microseconds, as much as converting ~100 values), and the ``CODED``
        and ``type`` columns in C, each in one ``take`` over all kinds."""
        given = {kind: _columns(self.events[kind], FLAT[kind]) for kind in kinds}
        commons = [self.common[kind] for kind in kinds]
        sizes = [common.rows() for common in commons]
        times: dict[str, list[Any]] = {}
        if any(self.times):   # the raw ``t`` of each event, by its game and line
            lines = memoryview(_joined(commons, "line")).cast("q").tolist()
            raw = [self.times[game].get(line) for game, line in zip(
                owner.to_pylist(), lines, strict=True)]
            times["t_ms"], times["t_iso"] = _split_times(raw)
        base = pc.take(array_of(self.bases, I32), owner)   # each row's game's names
        arrays = []
        for field in list(STORED_WIRE[table])[2:]:
            name, kind_type = field.name, field.type
            segments = [given[k].get(name) for k in kinds]
            if name in COMMON:
                arrays.append(_common_column(name, kind_type, commons, len(owner), base,
                                             names))
            elif name in CODED:
                arrays.append(decoded(segments, sizes, base, names))
            elif name in _LISTED_NAMES:
                arrays.append(self._list_column(name, kind_type, kinds, sizes, cards))
            elif name in _NUMBERED_NAMES:
                arrays.append(self._number_column(name, kind_type, kinds, sizes, base, names))
            elif name == "type":
                index = b"".join(bytes((i,)) * n for i, n in enumerate(sizes))
                arrays.append(pc.take(pa.array(kinds, STR), bytes_array(index)))
            elif name in times:
                arrays.append(array_of(times[name], kind_type))
            else:
                arrays.append(merged(segments, sizes, kind_type))
        return arrays


    def _list_column(self, name: str, kind: pa.DataType, kinds: list[str], sizes: list[int],
                     cards: pa.Array) -> pa.Array:
        """A list column (``row_layout.LISTED``) of an ``events`` table from its kinds'
        buffers (``row_layout.ListColumn``) as they are: the items (the cards decoded from
        ``cards`` by one ``take``), the offsets (each kind's ends after the items of the kinds
        before it; a kind without the column NULL rows of no items) and the validity."""
        rows = sum(sizes)
        ends: list[bytes] = [bytes(4)]   # Arrow's offsets begin with 0
        valid: list[bytes] = []
        items: list[bytes] = []
        count = 0   # the items of the kinds before
        for k, size in zip(kinds, sizes, strict=True):
            column = self.lists.get((k, name))
            if column is None:
                ends.append(array("i", (count,)).tobytes() * size)
                valid.append(bytes(size))
                continue
            data = column.ends.getvalue()
            if count:   # (``events_other``: a second kind with the column)
                data = pc.add(int32(data), pa.scalar(count, I32)).buffers()[1].to_pybytes()
            ends.append(data)
            valid.append(column.valid.getvalue())
            items.append(column.values.getvalue())
            count += column.count
        flags = b"".join(valid)
        nulls = flags.count(0)
        if nulls == rows:
            return pa.nulls(rows, kind)
        if name in LIST_CODED:
            values = names_of(cards, int32(b"".join(items)))
        else:
            values = pa.Array.from_buffers(I16, count, [None, pa.py_buffer(b"".join(items))])
        return pa.Array.from_buffers(kind, rows, [bitmap(flags) if nulls else None,
                                                  pa.py_buffer(b"".join(ends))],
                                     children=[values])


    def _number_column(self, name: str, kind: pa.DataType, kinds: list[str], sizes: list[int],
                       base: pa.Array, names: pa.Array) -> pa.Array:
        """A numbered column (``row_layout.NUMBERED``) of an ``events`` table: its kinds'
        buffers (``row_layout.NumberColumn``) joined and handed to Arrow as they are (a kind
        without the column NULL rows)."""
        values: list[bytes] = []
        has: list[bytes] = []
        for k, size in zip(kinds, sizes, strict=True):
            number = self.numbers.get((k, name))
            if number is None:
                values.append(bytes(2 * size))
                has.append(bytes(size))
            else:
                values.append(number.values.getvalue())
                has.append(number.has.getvalue())
        return buffered(b"".join(values), "i16?", kind, sum(sizes), b"".join(has), base, names)


_LISTED_NAMES = frozenset(name for _, name in LISTED)
_NUMBERED_NAMES = frozenset(name for _, name in NUMBERED)


def _copy_list(into: ListColumn, rows: ListColumn, coded: bool, cards: list[str | None],
               codes: Names) -> None:
    """Append the rows of ``rows`` (a game's own, collected without the chunk's sink) to
    ``into``: the ends after ``into``'s items, the cards coded again in the chunk's ``codes``
    (``cards``: the values of the game's own codes)."""
    ends = memoryview(rows.ends.getvalue()).cast("i")
    valid = rows.valid.getvalue()
    items = memoryview(rows.values.getvalue()).cast("i" if coded else "h").tolist()
    start = 0
    for end, has in zip(ends, valid, strict=True):
        row = items[start:end]
        start = end
        if not has:
            into.null()
        elif coded:
            into.cards(tuple(str(cards[c]) for c in row), codes)
        else:
            into.positions(tuple(row))


# how a ``COMMON`` column is held (as ``open_rows.POWER_TYPES``; "true?": 1 True, 0 NULL) and
# the buffer of the nullable ones that says which rows have a value
_COMMON_TYPES = {"seq": "i32", "line": "i64", "round": "i32", "turn": "i32", "player": "code",
                 "auto": "bool", "card": "code", "value": "i16?", "deck_left": "i16?",
                 "implicit_skip": "true?", "round_ended": "true?"}
_HAS = {"value": "has_value", "deck_left": "has_deck"}


def _common_column(name: str, kind: pa.DataType, commons: list[Common], rows: int,
                   base: pa.Array, names: pa.Array) -> pa.Array:
    """A ``COMMON`` column of an ``events`` table: its kinds' buffers (``row_layout.Common``)
    joined and handed to Arrow as they are."""
    has = _joined(commons, _HAS[name]) if name in _HAS else None
    return buffered(_joined(commons, name), _COMMON_TYPES[name], kind, rows, has, base, names)


def _joined(commons: list[Common], name: str) -> bytes:
    """The buffer ``name`` of each kind, one after the other."""
    return b"".join([getattr(common, name).getvalue() for common in commons])


def _columns(flat: list[Any], names: tuple[str, ...]) -> dict[str, list[Any]]:
    """A kind's flat rows -> column name -> its values (a slice each, copied in C)."""
    width = len(names)
    return {name: flat[j::width] for j, name in enumerate(names)}


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
