"""Load logs the way a load worker does and print what the rows are, as JSON: run by
tests/test_compiled_rows.py once with the pure build and once with the compiled one
(``build/compiled/site`` first on the path), which must print the same. Not a test module
itself.

Usage: python tests/rows_dump.py LOG...   (prints {"compiled": [...], "tables": {...}})

Each table is given by its schema, its row count and a SHA-256 of every column's values (as
Python values, in row order), so a difference names the table and the column.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections import Counter
from typing import Any

import orjson

import cabo_log.db.chunk
import cabo_log.db.columns
import cabo_log.db.rows
from cabo_log.db.event_tables import widen
from cabo_log.db.replay_files import Task, replay_tasks

MODULES = (cabo_log.db.rows, cabo_log.db.columns, cabo_log.db.chunk)


def describe(paths: list[str]) -> dict[str, Any]:
    """table -> schema, rows, column -> digest, for the rows of ``paths`` in one chunk."""
    tasks = [Task(os.path.abspath(p), os.path.getsize(p), None) for p in paths]
    outcomes, chunk = replay_tasks(tasks)
    tables: dict[str, Any] = {"outcomes": [[o.status, o.error] for o in outcomes]}
    for name, batches in sorted(widen(chunk.batches()).items()):   # events: as one table
        columns: dict[str, str] = {}
        for index, field in enumerate(batches[0].schema):
            values = [v for b in batches for v in b.column(index).to_pylist()]
            columns[field.name] = hashlib.sha256(orjson.dumps(values)).hexdigest()
        tables[name] = {"schema": str(batches[0].schema), "rows": sum(b.num_rows for b in batches),
                        "columns": columns}
        if name == "events":   # how many of each kind
            kinds = [k for b in batches for k in b.column("type").to_pylist()]
            tables[name]["kinds"] = dict(sorted(Counter(kinds).items()))
    return tables


def main(paths: list[str]) -> None:
    compiled = [m.__name__ for m in MODULES
                if m.__file__ is not None and not m.__file__.endswith(".py")]
    sys.stdout.buffer.write(orjson.dumps({"compiled": compiled, "tables": describe(paths)}))


if __name__ == "__main__":
    main(sys.argv[1:])
