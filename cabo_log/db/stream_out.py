"""A query's rows written out as they come, batch by batch: ``cabo-log sql`` over millions of
rows holds one batch in memory, not the result.

``table``, ``csv`` and ``json`` print exactly what ``reports.render`` prints for the same rows
(one exception: a table's column widths and alignment are set by its first batch, later rows
widen a column only from where they are; a result of one batch is laid out as before). The
caller fetches; this module only formats (``write_rows``) and places the text
(``output_file``: a file appears whole or not at all).
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from cabo_log.db.reports import csv_cell, numeric, plain, text

__all__ = ["BATCH_ROWS", "STREAMED", "batches", "output_file", "write_rows"]

BATCH_ROWS = 2048          # DuckDB's vector size: a batch is one or a few of its chunks
STREAMED = ("table", "csv", "json")

Row = Sequence[Any]


def batches(cursor: Any, size: int = BATCH_ROWS) -> Iterator[list[Any]]:
    """The rows of an executed cursor, ``size`` at a time (DuckDB streams them)."""
    while True:
        rows = cursor.fetchmany(size)
        if not rows:
            return
        yield rows


def write_rows(columns: list[str], chunks: Iterable[Sequence[Row]], fmt: str, out: TextIO
               ) -> int:
    """Write every row of ``chunks`` to ``out`` in ``fmt`` (one of ``STREAMED``), ending in a
    newline; the number of rows."""
    writer = {"table": _table, "csv": _csv, "json": _json}[fmt]
    return writer(columns, chunks, out)


# Each batch is turned into columns (``zip(*rows)``, in C) and each column converted as a
# whole: a column of plain strings or integers, the usual case, needs no call per value.
# The result is what the per-value functions of ``reports`` (``text``, ``csv_cell``,
# ``plain``) give; only the work differs.

_SIMPLE = frozenset({str, int, type(None)})


def _kinds(column: Sequence[Any]) -> set[type]:
    return set(map(type, column))


def _text_column(column: Sequence[Any]) -> list[str] | Sequence[Any]:
    kinds = _kinds(column)
    if kinds <= {str}:
        return column
    if kinds <= {int}:
        return list(map(str, column))
    if kinds <= _SIMPLE:
        return ["" if v is None else str(v) for v in column]
    return list(map(text, column))


def _csv_column(column: Sequence[Any]) -> Sequence[Any]:
    if _kinds(column) <= _SIMPLE | {float}:    # the csv module writes these as csv_cell does
        return column
    return list(map(csv_cell, column))


def _json_column(column: Sequence[Any], encode: Any) -> list[str]:
    """Each value as JSON text, nested values laid out as ``json.dumps(rows, indent=1)`` lays
    them out at the depth of a row's value."""
    if _kinds(column) <= _SIMPLE | {bool}:
        return list(map(encode, column))
    out = []
    for value in column:
        data = plain(value)
        if isinstance(data, (dict, list)):
            out.append(json.dumps(data, ensure_ascii=False, indent=1, default=str)
                       .replace("\n", "\n  "))
        else:
            out.append(encode(data))
    return out


def _columns(chunk: Sequence[Row], width: int) -> list[Sequence[Any]]:
    return list(zip(*chunk, strict=True)) if chunk else [()] * width


def _csv(columns: list[str], chunks: Iterable[Sequence[Row]], out: TextIO) -> int:
    w = csv.writer(out, lineterminator="\n")
    w.writerow(columns)
    n = 0
    for chunk in chunks:
        cols = [_csv_column(c) for c in _columns(chunk, len(columns))]
        w.writerows(zip(*cols, strict=True))
        n += len(chunk)
    return n


def _json(columns: list[str], chunks: Iterable[Sequence[Row]], out: TextIO) -> int:
    """``json.dumps([dict(zip(columns, row)) ...], indent=1)``, one object at a time (a
    repeated column name keeps its first place and its last value, as in a dict)."""
    encode = json.JSONEncoder(ensure_ascii=False, default=str).encode
    last = {name: i for i, name in enumerate(columns)}
    keys = [(f"\n  {encode(str(name))}: ", i) for name, i in last.items()]
    n = 0
    for chunk in chunks:
        cols = [_json_column(c, encode) for c in _columns(chunk, len(columns))]
        for row in zip(*cols, strict=True) if cols else [()] * len(chunk):
            body = ",".join(key + row[i] for key, i in keys)
            item = " {" + body + "\n }" if keys else " {}"
            out.write(("[\n" if n == 0 else ",\n") + item)
            n += 1
    out.write("[]\n" if n == 0 else "\n]\n")
    return n


def _table(columns: list[str], chunks: Iterable[Sequence[Row]], out: TextIO) -> int:
    """Aligned columns like ``reports.table``: widths and right alignment (numbers) from the
    first batch, then widened by any later cell that needs it."""
    widths = [len(c) for c in columns]
    right: list[bool] | None = None
    n = 0

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if r else v.ljust(w)
                         for v, w, r in zip(values, widths, right or [False] * len(values),
                                            strict=True)).rstrip()

    for chunk in chunks:
        raw = _columns(chunk, len(columns))
        cells = [_text_column(c) for c in raw]
        for i, col in enumerate(cells):
            if col:
                widths[i] = max(widths[i], max(map(len, col)))
        if right is None:
            right = [bool(chunk) and all(numeric(v) or v is None for v in col) for col in raw]
            out.write(line(columns) + "\n" + "  ".join("-" * w for w in widths) + "\n")
        out.writelines(line(row) + "\n" for row in zip(*cells, strict=True))
        n += len(chunk)
    if right is None:           # no row: the head alone
        right = [False] * len(columns)
        out.write(line(columns) + "\n" + "  ".join("-" * w for w in widths) + "\n")
    out.write(f"({n} row{'s' if n != 1 else ''})\n")
    return n


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def output_file(path: Path) -> Iterator[TextIO]:
    """A text file that takes ``path``'s place only when the block ends without an exception
    (written beside it, then renamed): a query that fails half-way leaves any earlier file
    as it was and no partial one."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent or ".")
    try:
        os.fchmod(fd, 0o666 & ~_umask())      # as open() would have made it, not mkstemp's 0600
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            yield handle
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
