"""The load's DuckDB connection (``cabo_log.db.load_connection``): the file attached with
row groups of ``LoadSettings.row_group_size`` rows, its cursors on the same database, and a
stop signal that comes while it opens raised as the stop it is."""

from __future__ import annotations

import signal
from pathlib import Path

import duckdb
import pytest

from cabo_log import stop
from cabo_log.db import database
from cabo_log.db.load_connection import open_for_load
from cabo_log.db.settings import DEFAULTS

ROW_GROUP_SIZE = DEFAULTS.row_group_size


def test_the_load_writes_row_groups_of_its_size(tmp_path: Path) -> None:
    db = tmp_path / "cabo.duckdb"
    con = open_for_load(db)
    cursor = database.use_same(con)   # as the writer's thread: the same tables
    cursor.execute("CREATE TABLE t (i BIGINT)")
    cursor.execute(f"INSERT INTO t SELECT range FROM range({3 * ROW_GROUP_SIZE + 5})")
    cursor.close()
    con.close()
    con = duckdb.connect(str(db), read_only=True)   # the file alone, as any reader opens it
    try:
        groups = con.execute("SELECT row_group_id, max(count) FROM pragma_storage_info('t') "
                             "WHERE segment_type <> 'VALIDITY' GROUP BY ALL ORDER BY 1"
                             ).fetchall()
        assert [count for _, count in groups] == [ROW_GROUP_SIZE] * 3 + [5]
        assert con.execute("SELECT count(*), sum(i) FROM t").fetchone() == (
            3 * ROW_GROUP_SIZE + 5, sum(range(3 * ROW_GROUP_SIZE + 5)))
    finally:
        con.close()


def test_a_stop_while_opening_is_raised_as_the_stop(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """DuckDB reports the ATTACH a signal cut short as its own error; the load must see the
    stop (its exit status and its one line), not that error."""
    def cut_short(*args: object, **kwargs: object) -> duckdb.DuckDBPyConnection:
        monkeypatch.setattr(stop, "_received", signal.SIGTERM)   # the handler's record
        raise RuntimeError("Query interrupted")

    monkeypatch.setattr(database, "connect", cut_short)
    with pytest.raises(stop.Interrupted) as raised:
        open_for_load(tmp_path / "cabo.duckdb")
    assert raised.value.signum == signal.SIGTERM
