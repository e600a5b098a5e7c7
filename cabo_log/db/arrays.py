"""The row stage's builders (``columns``) -> Arrow arrays: one conversion per builder type,
each handing the builder's buffers to Arrow as they are.

A record batch's columns are converted together (``Conversion``), because every pyarrow
call costs microseconds, as much as converting thousands of values: the bitmaps of all its
columns (validities, booleans) are made by one cast, the strings of all its string columns by
one ``take`` from the chunk's names. A column may be made of several tables' builders one
after the other (an ``events`` table holding several kinds); a table without the column has
NULL rows there.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

import pyarrow as pa
import pyarrow.compute as pc

from cabo_log.db.columns import (
    BoolColumn,
    Column,
    Int16ListColumn,
    IntColumn,
    ListColumn,
    StringColumn,
    StringListColumn,
)
from cabo_log.db.schema import BOOL, I16, I32

Part = tuple[Column | None, int]
"""A column's rows from one table: its builder (None: the table has no such column) and
how many rows the table has."""

# a bool builder's byte (0, 1, 2 for NULL) -> 1 where it has a value
_BYTE_VALID = bytes(1 if b < 2 else 0 for b in range(256))
_NULL_BOOLS = b"\x02"


class Conversion:
    """The columns of one record batch of ``rows`` rows, from their builders (``add``, one
    call per column), made with one cast for every bitmap and one ``take`` for every string
    (``arrays``)."""

    def __init__(self, rows: int, names: pa.Array) -> None:
        self.rows = rows
        self.names = names
        self.flags: list[bytes] = []   # a byte a row each, to make into bitmaps
        self.codes: list[bytes] = []   # int32 codes into ``names``, to take
        self.made: list[Callable[[list[pa.Buffer], list[pa.Array]], pa.Array]] = []

    def _flag(self, data: bytes) -> int:
        self.flags.append(data)
        return len(self.flags) - 1

    def _codes(self, data: bytes) -> int:
        self.codes.append(data)
        return len(self.codes) - 1

    def _validity(self, valid: bytes, kind: pa.DataType) -> int | None:
        """Where the bitmap of ``valid`` will be (None: no NULL); -1 when every row is NULL
        (the column is then ``pa.nulls``)."""
        # (``in`` finds a byte with memchr and stops at the first: far cheaper than counting)
        if b"\0" not in valid:
            return None
        if b"\1" not in valid:
            rows = self.rows
            self.made.append(lambda bitmaps, strings: pa.nulls(rows, kind))
            return -1
        return self._flag(valid)

    def add(self, kind: pa.DataType, parts: list[Part]) -> None:
        """The next column, of Arrow type ``kind``, from each table's builder in turn."""
        builder = next((column for column, _ in parts if column is not None), None)
        rows = self.rows
        if builder is None:
            self.made.append(lambda bitmaps, strings: pa.nulls(rows, kind))
        elif isinstance(builder, StringColumn):
            codes = _joined(parts, lambda c: c.codes.getvalue(), 4)
            if codes == bytes(len(codes)):   # every code 0: NULL (no take)
                self.made.append(lambda bitmaps, strings: pa.nulls(rows, kind))
            else:
                at = self._codes(codes)
                self.made.append(lambda bitmaps, strings: strings[at])
        elif isinstance(builder, BoolColumn):
            data = _joined(parts, lambda c: c.values.getvalue(), 1, _NULL_BOOLS)
            valid = self._validity(data.translate(_BYTE_VALID), kind)
            if valid != -1:
                values = self._flag(data)
                self.made.append(lambda bitmaps, strings: pa.Array.from_buffers(
                    kind, rows, [None if valid is None else bitmaps[valid], bitmaps[values]]))
        elif isinstance(builder, IntColumn):
            valid = self._validity(_joined(parts, lambda c: c.valid.getvalue(), 1), kind)
            if valid != -1:
                data = pa.py_buffer(_joined(parts, lambda c: c.values.getvalue(),
                                            builder.width))
                self.made.append(lambda bitmaps, strings: pa.Array.from_buffers(
                    kind, rows, [None if valid is None else bitmaps[valid], data]))
        elif isinstance(builder, ListColumn):
            self._list(kind, parts, builder)
        else:   # pragma: no cover - every builder is handled above
            raise TypeError(f"no conversion of {type(builder).__name__}")

    def _list(self, kind: pa.DataType, parts: list[Part], builder: ListColumn) -> None:
        """A list column: the offsets (each table's ends after the items of the tables before
        it; a table without the column NULL rows of no items), the validity, the items."""
        ends: list[bytes] = [bytes(4)]   # Arrow's offsets begin with 0
        valid: list[bytes] = []
        items: list[bytes] = []
        count = 0   # the items of the tables before
        for column, size in parts:
            if not isinstance(column, ListColumn):
                ends.append(array("i", (count,)).tobytes() * size)
                valid.append(bytes(size))
                continue
            data = column.ends.getvalue()
            if count:
                data = pc.add(_int32(data), pa.scalar(count, I32)).buffers()[1].to_pybytes()
            ends.append(data)
            valid.append(column.valid.getvalue())
            items.append(column.items.getvalue())
            count += column.count
        at = self._validity(b"".join(valid), kind)
        if at == -1:
            return
        offsets = pa.py_buffer(b"".join(ends))
        rows, total = self.rows, count
        if isinstance(builder, StringListColumn):
            item = self._codes(b"".join(items))
            self.made.append(lambda bitmaps, strings: pa.Array.from_buffers(
                kind, rows, [None if at is None else bitmaps[at], offsets],
                children=[strings[item]]))
        elif isinstance(builder, Int16ListColumn):
            values = pa.Array.from_buffers(I16, total, [None, pa.py_buffer(b"".join(items))])
            self.made.append(lambda bitmaps, strings: pa.Array.from_buffers(
                kind, rows, [None if at is None else bitmaps[at], offsets], children=[values]))
        else:   # pragma: no cover
            raise TypeError(f"no conversion of {type(builder).__name__}")

    def arrays(self) -> list[pa.Array]:
        """The columns, in the order they were added."""
        bitmaps = _bitmaps(self.flags, self.rows)
        strings: list[pa.Array] = []
        if self.codes:
            # (every code is one of ``names``: no bounds to check)
            every = pc.take(self.names, _int32(b"".join(self.codes)), boundscheck=False)
            start = 0
            for data in self.codes:
                strings.append(every.slice(start, len(data) // 4))
                start += len(data) // 4
        return [make(bitmaps, strings) for make in self.made]


def _joined(parts: list[Part], data: Callable[..., bytes], width: int, null: bytes = b""
            ) -> bytes:
    """The bytes of each table's builder one after the other (``null`` a row for a table
    without the column, zero bytes by default)."""
    return b"".join([data(column) if column is not None
                     else (null * size if null else bytes(width * size))
                     for column, size in parts])


def _bitmaps(flags: list[bytes], rows: int) -> list[pa.Buffer]:
    """Each entry's bytes (one a row, 0 or not) -> Arrow's bitmap of them, all in one cast:
    joined, each padded to a whole number of bitmap bytes, and the result sliced."""
    if not flags:
        return []
    width = (rows + 7) // 8
    pad = bytes(width * 8 - rows)
    joined = b"".join([part for data in flags for part in (data, pad)])
    bits: pa.Buffer = bytes_array(joined).cast(BOOL).buffers()[1]
    return [bits.slice(i * width, width) for i in range(len(flags))]


def bytes_array(data: bytes) -> pa.Array:
    """Bytes as an Arrow uint8 array (no copy)."""
    return pa.Array.from_buffers(pa.uint8(), len(data), [None, pa.py_buffer(data)])


def _int32(data: bytes) -> pa.Array:
    """Machine int32s as an Arrow int32 array (no copy)."""
    return pa.Array.from_buffers(I32, len(data) // 4, [None, pa.py_buffer(data)])


def int32(values: array[int] | bytes) -> pa.Array:
    """Machine int32s (an ``array("i")`` or its bytes) as an Arrow int32 array (no copy)."""
    return _int32(bytes(values) if isinstance(values, array) else values)
