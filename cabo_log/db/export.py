"""``cabo-log export --parquet DIR``: every table as Parquet, hive-partitioned by ruleset.

``DIR/<table>/ruleset=<name>/*.parquet``, readable by DuckDB, Polars, Spark, pandas/pyarrow
(``read_parquet('DIR/events/**/*.parquet', hive_partitioning = true)``). Every game table has
a ``ruleset`` column; ``files`` takes it from its game, and a rejected log whose ruleset could
not be read (``load_errors``) is filed under ``ruleset=unknown``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from cabo_log.db.database import check_version, connect
from cabo_log.db.schema import GAME_TABLES

UNKNOWN = "unknown"

SOURCES: dict[str, str] = {
    **{table: f"SELECT * FROM {table}" for table in GAME_TABLES},
    "ratings": "SELECT * FROM ratings",
    "load_errors": f"SELECT * REPLACE (coalesce(ruleset, '{UNKNOWN}') AS ruleset) "
                   "FROM load_errors",
    "files": f"SELECT f.*, coalesce(g.ruleset, '{UNKNOWN}') AS ruleset FROM files AS f "
             "LEFT JOIN games AS g USING (game_id)",
}


def export_parquet(database: str | os.PathLike[str], out_dir: str | os.PathLike[str]
                   ) -> dict[str, int]:
    """Write every table under ``out_dir`` (each table's folder is replaced); rows per table."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(f"{out} exists and is not a folder")
    con = connect(database, read_only=True)
    try:
        check_version(con, database)
        out.mkdir(parents=True, exist_ok=True)
        counts: dict[str, int] = {}
        for table, query in SOURCES.items():
            target = out / table
            if target.exists():
                shutil.rmtree(target)
            target.mkdir()
            row = con.execute(f"SELECT count(*) FROM ({query})").fetchone()
            counts[table] = int(row[0]) if row else 0
            if counts[table]:
                literal = str(target).replace("'", "''")
                con.execute(f"COPY ({query}) TO '{literal}' "
                            "(FORMAT parquet, PARTITION_BY (ruleset), OVERWRITE_OR_IGNORE true)")
        return counts
    finally:
        con.close()
