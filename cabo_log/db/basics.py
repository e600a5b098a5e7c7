"""What the command line needs of the database side, without importing DuckDB or Arrow: the
database used without ``--db``, the output formats of ``report`` and ``sql``, the error of a
database that cannot be used. ``cabo-log load`` starts its workers before it imports DuckDB
(``load.load_paths``)."""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path

DEFAULT_DB = "cabo.duckdb"
ENV_DB = "CABO_LOG_DB"
FORMATS = ("table", "csv", "json", "html")


class Format(StrEnum):
    """``FORMATS`` as a type, so ``--format`` lists them and completes them."""

    TABLE = "table"
    CSV = "csv"
    JSON = "json"
    HTML = "html"


class DatabaseError(Exception):
    """A database that cannot be used: the message is one line for the user."""


def default_path() -> Path:
    return Path(os.environ.get(ENV_DB) or DEFAULT_DB)
