"""The load's writer queues batches behind the one it is writing (``LoadSettings.queued``), so the
loader is not held up while DuckDB appends: written in order, all of them by ``flush``, a failed
one failing those behind it unwritten, a stop dropping the queued ones. It holds a batch's small
tables back until the transaction commits (``defer_rows``), never past a DELETE of their rows.
The load's workers run at a lower priority than the parent (``worker_nice``)."""

from __future__ import annotations

import os
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb
import pytest

from cabo_log.db import database as dbmod
from cabo_log.db import known
from cabo_log.db import writer as writermod
from cabo_log.db.replay_files import Task, replay_tasks
from cabo_log.db.settings import DEFAULTS, LoadSettings
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game
from cabo_log.workers import Pool


class _GatedInsert:
    """A cursor whose INSERTs wait until ``gate`` is set and can be made to fail: the writer's
    queue then fills while the first batch is held."""

    def __init__(self, con: duckdb.DuckDBPyConnection, held: str = "INSERT") -> None:
        self.con = con
        self.held = held            # the statements that wait for ``gate``
        self.gate = threading.Event()
        self.inserting = threading.Event()
        self.fail_inserts = 0       # INSERTs still to fail
        self.inserts = 0

    def execute(self, sql: str, *args: Any) -> Any:
        self._through(sql)
        return self.con.execute(sql, *args)

    def from_arrow(self, data: Any) -> Any:
        """The writer's append (``relation.insert_into``), gated like an INSERT."""
        return _GatedRelation(self, self.con.from_arrow(data))

    def _through(self, sql: str) -> None:
        if sql.startswith(self.held):
            self.inserting.set()
            assert self.gate.wait(60)
        if sql.startswith("INSERT"):
            self.inserts += 1
            if self.fail_inserts:
                self.fail_inserts -= 1
                raise duckdb.IOException("disk full (simulated)")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.con, name)


class _GatedRelation:
    def __init__(self, gated: _GatedInsert, relation: Any) -> None:
        self.gated, self.relation = gated, relation

    def insert_into(self, table: str) -> None:
        self.gated._through(f"INSERT INTO {table}")
        self.relation.insert_into(table)


def _games(folder: Path, count: int) -> list[Task]:
    tasks = []
    for seed in range(count):
        events = simulate_game("edition2", players=3, seed=seed, game_id=f"q{seed}")
        path = folder / f"q{seed}.jsonl"
        path.write_bytes(b"".join(dumps_event(e) for e in events))
        tasks.append(Task(str(path), path.stat().st_size, None))
    return tasks


QUEUED = DEFAULTS.queued


def _writer(tmp_path: Path, held: str = "INSERT", commit_rows: int = 0, **settings: Any
            ) -> tuple[writermod.Writer, _GatedInsert, duckdb.DuckDBPyConnection, Path]:
    db = tmp_path / "cabo.duckdb"
    con = dbmod.connect(db, read_only=False)
    dbmod.ensure_schema(con, db)
    writer = writermod.Writer(con, settings=LoadSettings(commit_rows=commit_rows,
                                                         checkpoint_rows=0, **settings))
    gated = _GatedInsert(writer.con, held)
    writer.con = gated  # type: ignore[assignment]
    return writer, gated, con, db


def _submit_game(writer: writermod.Writer, task: Task) -> int:
    """One game as a batch of its own; the batch's number."""
    outcomes, rows = replay_tasks([task])
    for table, items in rows.batches().items():
        writer.add(table, items)
    writer.add("files", [known.files_batch(outcomes)])
    return writer.submit()


def _games_in(db: Path) -> list[str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return [g for (g,) in con.execute("SELECT game_id FROM games ORDER BY 1").fetchall()]
    finally:
        con.close()


@pytest.fixture(scope="module")
def tasks(tmp_path_factory: pytest.TempPathFactory) -> list[Task]:
    return _games(tmp_path_factory.mktemp("queue"), QUEUED + 2)


def test_submit_returns_while_the_batch_before_is_being_written(
        tmp_path: Path, tasks: list[Task]) -> None:
    writer, gated, con, db = _writer(tmp_path)
    first = _submit_game(writer, tasks[0])
    assert gated.inserting.wait(60)          # the first batch is being written, held
    numbers = [_submit_game(writer, t) for t in tasks[1:1 + QUEUED]]
    assert numbers == list(range(2, 2 + QUEUED))   # queued without waiting
    assert writer.committed_through == 0
    gated.gate.set()
    writer.flush()
    writer.close()
    con.close()
    assert first == 1 and writer.committed_through == writer.submitted
    assert writer.committed_games == 1 + QUEUED
    assert _games_in(db) == sorted(f"q{i}" for i in range(1 + QUEUED))


def test_a_flush_commits_a_batch_the_writer_has_not_begun_yet(
        tmp_path: Path, tasks: list[Task]) -> None:
    """The commit is decided when ``flush`` submits, not from what the writing thread has
    done so far: here it has not even begun the transaction of the batch before."""
    writer, gated, con, db = _writer(tmp_path, held="BEGIN", commit_rows=10**9)
    _submit_game(writer, tasks[0])
    assert gated.inserting.wait(60)          # its BEGIN is held: no transaction open yet
    threading.Timer(0.2, gated.gate.set).start()
    writer.flush()
    writer.close()
    con.close()
    assert writer.committed_games == 1
    assert _games_in(db) == ["q0"]


def test_a_failed_batch_fails_the_queued_ones_unwritten(tmp_path: Path,
                                                         tasks: list[Task]) -> None:
    writer, gated, con, db = _writer(tmp_path)
    gated.fail_inserts = 1
    _submit_game(writer, tasks[0])
    assert gated.inserting.wait(60)
    _submit_game(writer, tasks[1])            # queued behind the batch that will fail
    gated.gate.set()
    with pytest.raises(duckdb.IOException, match="disk full"):
        writer.flush()
    writer.abort()
    writer.close()
    con.close()
    assert gated.inserts == 1                 # the queued batch never reached DuckDB
    assert writer.committed_games == 0
    assert _games_in(db) == []


def test_abort_drops_the_queued_batches(tmp_path: Path, tasks: list[Task],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    writer, gated, con, db = _writer(tmp_path)
    begun: list[int] = []
    write_batch = writer._write_batch

    def recorded(batch: writermod.Batch) -> None:
        begun.append(batch.number)
        write_batch(batch)

    monkeypatch.setattr(writer, "_write_batch", recorded)
    _submit_game(writer, tasks[0])
    assert gated.inserting.wait(60)
    _submit_game(writer, tasks[1])
    _submit_game(writer, tasks[2])
    threading.Timer(0.2, gated.gate.set).start()   # the held INSERT ends, interrupted or not
    writer.abort()
    writer.close()
    con.close()
    assert begun == [1]              # the queued batches were never begun
    assert writer.committed_games == 0
    assert _games_in(db) == []


def _counts(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]  # type: ignore[index]
                for t in ("games", "game_players", "rounds", "events", "files")}
    finally:
        con.close()


def test_small_tables_wait_for_the_commit_and_never_outlive_a_delete(
        tmp_path: Path, tasks: list[Task]) -> None:
    """A game written, then replaced in a later batch of the same transaction: the replacing
    batch's DELETE must find the first version's rows, held back or not, or the game would be
    there twice."""
    writer, gated, con, db = _writer(tmp_path, commit_rows=10**9)
    gated.gate.set()
    _submit_game(writer, tasks[0])
    writer.wait()
    once = gated.inserts
    writer.replace_games(["q0"])
    writer.forget_files([tasks[0].path])
    _submit_game(writer, tasks[0])
    writer.flush()
    writer.close()
    con.close()
    alone = tmp_path / "alone"
    alone.mkdir()
    writer, whole, con, _ = _writer(alone)
    whole.gate.set()
    _submit_game(writer, tasks[0])
    writer.flush()
    writer.close()
    con.close()
    assert _counts(db) == _counts(alone / "cabo.duckdb")
    assert _counts(db)["games"] == 1
    assert once < whole.inserts      # the first batch held some of its tables back


def test_a_table_is_held_back_until_as_many_rows_as_are_still_to_come(
        tmp_path: Path, tasks: list[Task]) -> None:
    """``Batch.to_come``: a table's rows wait in the transaction while they are fewer than
    its rows still to come (its rows so far times ``to_come``) and than ``defer_rows``; none
    wait once nothing is to come. Written or held, the same rows in the end."""
    writer, gated, con, db = _writer(tmp_path, commit_rows=10**9)
    gated.gate.set()
    seen = []

    def submit(task: Task, to_come: float) -> None:
        outcomes, rows = replay_tasks([task])
        for table, items in rows.batches().items():
            writer.add(table, items)
        writer.add("files", [known.files_batch(outcomes)])
        writer.submit(to_come=to_come)
        writer.wait()
        seen.append(gated.inserts)

    tables = len(replay_tasks([tasks[0]])[1].batches()) + 1   # a game's tables, and ``files``
    submit(tasks[0], float("inf"))   # unknown: held up to defer_rows (a game is far fewer)
    submit(tasks[1], 1.0)            # as many to come as came: the two games' rows written
    submit(tasks[2], 0.5)            # a game held, half of three games to come
    submit(tasks[3], 0.0)            # nothing to come: everything written
    assert seen[0] == 0 and seen[1] >= tables and seen[2] == seen[1], seen
    assert seen[3] >= seen[2] + tables, seen
    writer.flush()
    writer.close()
    con.close()
    assert _games_in(db) == ["q0", "q1", "q2", "q3"]
    assert _counts(db)["games"] == 4


def _niceness(_: int) -> int:
    return os.nice(0)


def test_workers_run_at_the_niceness_asked_above_the_parent() -> None:
    with Pool(2, nice=3) as pool:
        seen = set(pool.imap(_niceness, range(4)))
    assert seen == {os.nice(0) + 3}


def test_the_load_starts_its_workers_at_a_lower_priority(
        tmp_path: Path, tasks: list[Task], monkeypatch: pytest.MonkeyPatch) -> None:
    from cabo_log.db import load

    asked: list[int] = []

    class Recorded(Pool):
        def __init__(self, jobs: int, **options: Any) -> None:
            asked.append(options.get("nice", 0))
            super().__init__(jobs, **options)

    monkeypatch.setattr(load, "Pool", Recorded)   # (the load's workers start before it opens
                                                  # the database: ``load._start_pool``)
    summary = load.load_paths([str(Path(t.path).parent) for t in tasks[:1]],
                              tmp_path / "cabo.duckdb", jobs=2,
                              # workers even for four small games, in four chunks
                              settings=LoadSettings(inline_bytes=0, chunk_files=1))
    assert summary.loaded == len(tasks)
    assert asked == [DEFAULTS.worker_nice] and DEFAULTS.worker_nice > 0


def test_held_rows_are_copied_out_of_the_spool_and_bounded_in_bytes(
        tmp_path: Path, tasks: list[Task]) -> None:
    """A table's held batches are copied into memory of the writer's own once more than
    ``held_mapped`` of them are held (each batch read from a spool file keeps the whole file
    mapped), and appended once they are ``held_bytes``; the same rows in the end."""
    writer, gated, con, db = _writer(tmp_path, commit_rows=10**9, held_mapped=2)
    gated.gate.set()
    held_batches = []
    for task in tasks[:5]:
        _submit_game(writer, task)   # to_come unknown: every table held (a game is small)
        writer.wait()
        assert writer._open is not None
        held_batches.append(len(writer._open.tables["games"]))
    assert gated.inserts == 0
    assert max(held_batches) <= 2 + 1 and held_batches[-1] < 5, held_batches
    writer.settings = replace(writer.settings, held_bytes=1)   # any rows held are now too many
    _submit_game(writer, tasks[5])
    writer.wait()
    assert gated.inserts > 0
    writer.flush()
    writer.close()
    con.close()
    assert _games_in(db) == [f"q{i}" for i in range(6)]
    assert _counts(db)["games"] == 6
