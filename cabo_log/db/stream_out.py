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


def _csv(columns: list[str], chunks: Iterable[Sequence[Row]], out: TextIO) -> int:
    w = csv.writer(out, lineterminator="\n")
    w.writerow(columns)
    n = 0
    for chunk in chunks:
        w.writerows([csv_cell(v) for v in row] for row in chunk)
        n += len(chunk)
    return n


def _json(columns: list[str], chunks: Iterable[Sequence[Row]], out: TextIO) -> int:
    """``json.dumps(rows, indent=1)``, one object at a time."""
    n = 0
    for chunk in chunks:
        for row in chunk:
            item = json.dumps(dict(zip(columns, map(plain, row), strict=True)),
                              ensure_ascii=False, indent=1)
            out.write(("[\n" if n == 0 else ",\n") + " " + item.replace("\n", "\n "))
            n += 1
    out.write("[]\n" if n == 0 else "\n]\n")
    return n


def _table(columns: list[str], chunks: Iterable[Sequence[Row]], out: TextIO) -> int:
    """Aligned columns like ``reports.table``: widths and right alignment (numbers) from the
    first batch, then widened by any later cell that needs it."""
    widths = [len(c) for c in columns]
    right: list[bool] | None = None
    n = 0

    def line(values: list[str]) -> str:
        return "  ".join(v.rjust(w) if r else v.ljust(w)
                         for v, w, r in zip(values, widths, right or [False] * len(values),
                                            strict=True)).rstrip()

    for chunk in chunks:
        cells = [[text(v) for v in row] for row in chunk]
        for row in cells:
            for i, cell in enumerate(row):
                widths[i] = max(widths[i], len(cell))
        if right is None:
            right = [bool(chunk) and all(numeric(r[i]) or r[i] is None for r in chunk)
                     for i in range(len(columns))]
            out.write(line(list(columns)) + "\n" + "  ".join("-" * w for w in widths) + "\n")
        out.writelines(line(row) + "\n" for row in cells)
        n += len(chunk)
    if right is None:           # no row: the head alone
        right = [False] * len(columns)
        out.write(line(list(columns)) + "\n" + "  ".join("-" * w for w in widths) + "\n")
    out.write(f"({n} row{'s' if n != 1 else ''})\n")
    return n


@contextlib.contextmanager
def output_file(path: Path) -> Iterator[TextIO]:
    """A text file that takes ``path``'s place only when the block ends without an exception
    (written beside it, then renamed): a query that fails half-way leaves any earlier file
    as it was and no partial one."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            yield handle
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
