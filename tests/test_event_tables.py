"""``events`` is stored as a table per frequent event kind and one for the rest
(``cabo_log.db.event_tables``); what every query sees is the view ``events``, with the columns,
types and order of docs/schema.md, and the rows the workers built for the one wide table.

The expected rows are the workers' own batches put together as the wide table in Arrow
(``widen``), never read back from the database; the NULL columns of each kind are checked
against the rows' layouts (``row_layout.LAYOUTS``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest

from cabo_log.db import event_tables
from cabo_log.db.database import DatabaseError, duck_type
from cabo_log.db.event_tables import KINDS, STORED, STORED_WIRE, TIMED, VIEW, widen
from cabo_log.db.load import load_paths
from cabo_log.db.replay_files import Task, replay_tasks
from cabo_log.db.row_layout import LAYOUTS
from cabo_log.db.schema import SCHEMAS
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

SAMPLES = Path(__file__).parent.parent / "sample_games"
KEYS = ("game_id", "ruleset", "type", "t_ms", "t_iso")


def simulated(folder: Path) -> list[Path]:
    """Games of every ruleset, some with timestamps, one with forfeits."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i, ruleset in enumerate(("edition1", "edition2", "golf", "online") * 2):
        events = simulate_game(ruleset, players=2 + i % 3, seed=i, game_id=f"g{i}",
                               timestamps=i % 2 == 0,
                               forfeit_rate=0.02 if ruleset == "online" else 0.0)
        if i == 1:   # text timestamps (t_iso) on every other line
            events = [{**e, "t": f"2026-11-30T20:{n % 60:02d}:00Z"} if n % 2 else e
                      for n, e in enumerate(events)]
        path = folder / f"g{i}.jsonl"
        path.write_bytes(b"".join(dumps_event(e) for e in events))
        out.append(path)
    return out


def expected_rows(paths: list[Path]) -> list[tuple[Any, ...]]:
    """The wide ``events`` rows of these logs as the workers build them, by game and seq."""
    tasks = [Task(os.path.abspath(p), p.stat().st_size, None) for p in paths]
    _, chunk = replay_tasks(tasks)
    wide = pa.Table.from_batches(widen(chunk.batches())[VIEW])
    columns = [wide.column(name).to_pylist() for name in SCHEMAS[VIEW].names]
    return sorted(zip(*columns, strict=True), key=lambda r: (r[0], r[2]))


def view_rows(db: Path) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT * FROM events ORDER BY game_id, seq").fetchall()
    finally:
        con.close()


def assert_same_columns(got: list[tuple[Any, ...]], want: list[tuple[Any, ...]]) -> None:
    """Row for row, a column at a time (a difference names the column)."""
    assert len(got) == len(want)
    for index, name in enumerate(SCHEMAS[VIEW].names):
        assert [r[index] for r in got] == [r[index] for r in want], name


def test_each_kind_has_one_table_with_exactly_its_columns() -> None:
    assert sorted(k for kinds in KINDS.values() for k in kinds) == sorted(LAYOUTS)
    order = SCHEMAS[VIEW].names
    for table, kinds in KINDS.items():
        names = STORED[table].names
        assert names == [n for n in order if n in names]          # the view's order
        filled = {c for kind in kinds for c in LAYOUTS[kind]}
        assert set(names) == filled | {"game_id", "ruleset"} | (
            {"type"} if len(kinds) > 1 else set())
        assert STORED_WIRE[table].names == [   # what a worker sends: the times too
            n for n in order if n in {*names, "t_ms", "t_iso"}]
        for name in names:
            assert STORED[table].field(name).type == SCHEMAS[VIEW].field(name).type
    assert STORED[TIMED] == SCHEMAS[VIEW]   # an event with a time: every column


def test_the_view_has_the_schema_and_the_rows_of_the_wide_table(tmp_path: Path) -> None:
    paths = sorted(SAMPLES.glob("*.jsonl")) + simulated(tmp_path / "logs")
    db = tmp_path / "cabo.duckdb"
    load_paths([*paths], db, jobs=1)
    con = duckdb.connect(str(db), read_only=True)
    try:
        described = [(r[0], r[1]) for r in con.execute("DESCRIBE events").fetchall()]
        assert described == [(f.name, duck_type(f.type)) for f in SCHEMAS[VIEW]]
        stored = {r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'"
        ).fetchall()}
        assert set(KINDS) | {TIMED} <= stored and VIEW not in stored
        for kind, layout in LAYOUTS.items():   # a kind's other columns are NULL
            others = [n for n in SCHEMAS[VIEW].names if n not in (*layout, *KEYS)]
            nulls = ", ".join(['0', *(f'count("{n}")' for n in others)])
            counts = con.execute(f"SELECT count(*), {nulls} FROM events WHERE type = $1",
                                 [kind]).fetchone()
            assert counts is not None and counts[0] > 0 and set(counts[1:]) == {0}, kind
        timed = con.execute("SELECT count(t_ms), count(t_iso) FROM events").fetchone()
        assert timed is not None and min(timed) > 0
        # the events with a time are those of events_timed, the others have none
        split = con.execute(f"SELECT (SELECT count(*) FROM {TIMED}), count(*) FROM events "
                            "WHERE t_ms IS NOT NULL OR t_iso IS NOT NULL").fetchone()
        assert split is not None and split[0] == split[1] > 0
    finally:
        con.close()
    assert_same_columns(view_rows(db), expected_rows(paths))


def test_a_changed_file_leaves_no_rows_of_its_old_version(tmp_path: Path) -> None:
    paths = simulated(tmp_path / "logs")
    db = tmp_path / "cabo.duckdb"
    load_paths([tmp_path / "logs"], db, jobs=1)
    live = paths[3]
    text = live.read_bytes().splitlines(keepends=True)
    live.write_bytes(b"".join(text[:len(text) // 3]))   # a shorter version of the game
    summary = load_paths([tmp_path / "logs"], db, jobs=1)
    assert (summary.loaded, summary.replaced) == (1, 1)
    assert_same_columns(view_rows(db), expected_rows(paths))


def test_a_database_of_the_one_table_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE meta (key VARCHAR, value VARCHAR)")
    con.execute("INSERT INTO meta VALUES ('schema_version', '2')")
    cols = ", ".join(f'"{f.name}" {duck_type(f.type)}' for f in SCHEMAS[VIEW])
    con.execute(f"CREATE TABLE events ({cols})")
    con.close()
    with pytest.raises(DatabaseError, match="schema version 2, this cabo-log uses 5: load "
                                            r"into a new database \(--db\)"):
        load_paths([SAMPLES / "edition1-match.jsonl"], db, jobs=1)


def test_view_sql_names_every_column_once_per_table() -> None:
    sql = event_tables.view_sql()
    assert sql.count(" UNION ALL ") == len(KINDS)
    assert all(f"FROM {table}" in sql for table in (*KINDS, TIMED))
