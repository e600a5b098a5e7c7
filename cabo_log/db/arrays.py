"""Arrow arrays from what the row stage holds: lists of Python values, or machine values in
byte buffers (``row_layout.Common``, ``open_rows.PowerColumns``, ``game_rows.ScoreColumns``)
handed to Arrow as they are, and coded strings decoded by one ``take`` from a chunk's names.
Each function is one conversion, chosen for what it costs per value (``chunk`` puts the columns
together into each table's record batches).
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Sequence
from itertools import repeat
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from cabo_log.db.schema import BOOL, I16, I32, I64

# a nullable bool's byte ("bool?": 0, 1, 2 for NULL) -> 1 where it has a value
BYTE_VALID = bytes(1 if b < 2 else 0 for b in range(256))


def buffered(data: bytes, held: str, kind: pa.DataType, rows: int, has: bytes | None,
              base: pa.Array, names: pa.Array) -> pa.Array:
    """A column of machine values (``held`` as ``open_rows.POWER_TYPES`` says; ``has``: a
    byte a row, 0 where NULL) as Arrow: the buffer as it is, the coded ones decoded in one
    ``take`` from the names (each row's ``base`` added to its code)."""
    if held == "code":
        codes = pa.Array.from_buffers(I32, rows, [None, pa.py_buffer(data)])
        return names_of(names, pc.add(codes, base))
    if held == "bool":
        return bytes_array(data).cast(kind)
    if held == "true?":
        has = data
    elif held == "bool?":
        has = data.translate(BYTE_VALID)
    validity = None
    if has is not None:
        nulls = has.count(0)
        if nulls == rows:
            return pa.nulls(rows, kind)
        if nulls:
            validity = bitmap(has)
    if held in ("true?", "bool?"):
        return pa.Array.from_buffers(kind, rows, [validity, bitmap(data)])
    return pa.Array.from_buffers(kind, rows, [validity, pa.py_buffer(data)])


def bitmaps_of(flags: dict[str, bytes], rows: int) -> dict[str, pa.Buffer]:
    """Each entry's bytes (one a row, 0 or not) -> Arrow's bitmap of them, all in one cast:
    joined, each padded to a whole number of bitmap bytes, and the result sliced."""
    width = (rows + 7) // 8
    pad = bytes(width * 8 - rows)
    bits: pa.Buffer = bytes_array(b"".join([data + pad for data in flags.values()])).cast(
        BOOL).buffers()[1]
    return {name: bits.slice(i * width, width) for i, name in enumerate(flags)}


def bitmap(flags: bytes) -> pa.Buffer:
    """One byte a row (0 or not) -> Arrow's bitmap of them."""
    buffer: pa.Buffer = bytes_array(flags).cast(BOOL).buffers()[1]
    return buffer


def merged(segments: list[list[Any] | None], sizes: list[int], kind: pa.DataType
            ) -> pa.Array:
    """One ``events`` column from each kind's values (None: the kind has no such column, its
    rows are NULL there): each run of NULL rows (kinds without the column, or with only NULLs
    in it) one ``pa.nulls``, each kind's values one conversion. (Converting the values of
    neighbouring kinds in one call was dearer: a NULL among them sends the whole list the slow
    ``pa.array`` way instead of ``struct``.)"""
    parts: list[pa.Array] = []
    values: list[Any] = []
    nulls = 0
    for segment, size in zip(segments, sizes, strict=True):
        if segment is None or (segment[0] is None and segment.count(None) == size):
            if values:
                parts.append(array_of(values, kind))
                values = []
            nulls += size
            continue
        if nulls:
            parts.append(pa.nulls(nulls, kind))
            nulls = 0
        if values:
            parts.append(array_of(values, kind))
        values = segment
    if values:
        parts.append(array_of(values, kind))
    if nulls:
        parts.append(pa.nulls(nulls, kind))
    return parts[0] if len(parts) == 1 else pa.concat_arrays(parts)


def decoded(segments: list[list[Any] | None], sizes: list[int], base: pa.Array,
            names: pa.Array) -> pa.Array:
    """A ``CODED`` column: each row's code in its game's names (0 for NULL, and for the kinds
    without the column) -> the str."""
    try:   # the usual case: a game has fewer than 256 distinct values (names, cards)
        codes = bytes_array(b"".join(bytes(s) if s is not None else bytes(n)
                                      for s, n in zip(segments, sizes, strict=True)))
    except ValueError:
        codes = array_of([c for s, n in zip(segments, sizes, strict=True)
                        for c in (s if s is not None else repeat(0, n))], I32)
    return names_of(names, pc.add(codes.cast(I32), base))


def names_of(names: pa.Array, indices: pa.Array) -> pa.Array:
    """The strings of coded values: ``names`` at ``indices`` (codes plus their game's base).
    The take keeps its bounds check (under 0.5 % of a worker's time): without it a code out of
    range, a bug, would read memory that is not the names' and load wrong strings, or crash
    the worker, instead of failing the chunk with an error."""
    return pc.take(names, indices)


def bytes_array(data: bytes) -> pa.Array:
    """Bytes as an Arrow uint8 array (no copy)."""
    return pa.Array.from_buffers(pa.uint8(), len(data), [None, pa.py_buffer(data)])


def int32(values: array[int] | bytes) -> pa.Array:
    """Machine int32s (an ``array("i")`` or its bytes) as an Arrow int32 array (no copy)."""
    data = bytes(values) if isinstance(values, array) else values
    return pa.Array.from_buffers(I32, len(data) // 4, [None, pa.py_buffer(data)])


_MACHINE_INTS = {I16: "h", I32: "i", I64: "q"}


def array_of(values: Sequence[Any], kind: pa.DataType) -> pa.Array:
    """``pa.array(values, kind)``, with three shortcuts: no work for a column of NULLs, a
    boolean column without NULLs packed by ``bytes`` and an integer column without NULLs by
    ``struct`` (a fraction of ``pa.array``'s time; a NULL or a value out of range goes the
    ``pa.array`` way, which says so).
    Nothing counts the NULLs first: counting compares every value with None, which costs as
    much as converting it."""
    count = len(values)
    if values[0] is None and values.count(None) == count:   # quick: None is None
        return pa.nulls(count, kind)
    if kind == BOOL:   # without NULLs, ``bytes`` packs them in C (a NULL raises TypeError)
        try:
            packed = bytes(values)
        except TypeError:
            return pa.array(values, kind)
        return pa.Array.from_buffers(pa.uint8(), count, [None, pa.py_buffer(packed)]).cast(kind)
    code = _MACHINE_INTS.get(kind)
    if code is not None:
        try:
            packed = struct.pack(f"={count}{code}", *values)
        except struct.error:
            pass
        else:
            return pa.Array.from_buffers(kind, count, [None, pa.py_buffer(packed)])
    return pa.array(values, kind)
