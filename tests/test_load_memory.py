"""What keeps a load's memory flat however many games it loads (docs/performance.md, "Memory,
flat"): the writer has DuckDB drop the table blocks it cached (``load_connection.drop_cache``),
in the middle of a transaction too, without touching the transaction; the load attaches its database
again after each checkpoint (``database.reattach``), while the loader's questions to the
database wait (``Known.lock``); and asking which games the database holds hashes only the few
ids asked, never a whole table (``Known.games``)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import duckdb
import pytest

from cabo_log.db import database as dbmod
from cabo_log.db import known as knownmod
from cabo_log.db import load as loadmod
from cabo_log.db import load_connection
from cabo_log.db import loader as loadermod
from cabo_log.db import writer as writermod
from cabo_log.db.load import file_hash, load_paths
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

ROWS = 3_000_000   # ~24 MB of blocks: well above what the cache keeps once dropped


def _cached_mb(con: duckdb.DuckDBPyConnection) -> float:
    row = con.execute("SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory() "
                      "WHERE tag = 'BASE_TABLE'").fetchone()
    assert row is not None
    return float(row[0]) / 2**20


def _limit(con: duckdb.DuckDBPyConnection) -> str:
    row = con.execute("SELECT current_setting('memory_limit')").fetchone()
    assert row is not None
    return str(row[0])


@pytest.fixture()
def con(tmp_path: Path) -> Any:
    con = load_connection.open_for_load(tmp_path / "cache.duckdb")
    yield con
    con.close()


def test_the_writer_drops_the_blocks_duckdb_cached_and_keeps_its_limit(con: Any) -> None:
    con.execute(f"CREATE TABLE t AS SELECT range AS i, random() AS r FROM range({ROWS})")
    writer = writermod.Writer(con)
    before, limit = _cached_mb(con), _limit(con)
    writer._drop_cache()
    assert before > 10, before
    assert _cached_mb(con) < 2, _cached_mb(con)
    assert _limit(con) == limit == "122.0 MiB"   # load_connection.DUCKDB_MEMORY, 128MB
    writer.close()


def test_dropping_the_cache_mid_transaction_leaves_the_transaction_whole(con: Any) -> None:
    con.execute("CREATE TABLE t (i BIGINT, r DOUBLE)")
    writer = writermod.Writer(con)
    writer.con.execute("BEGIN TRANSACTION")
    writer.con.execute(f"INSERT INTO t SELECT range, random() FROM range({ROWS})")
    before = _cached_mb(writer.con)
    writer._drop_cache()
    after = _cached_mb(writer.con)
    writer.con.execute("INSERT INTO t VALUES (-1, 0)")
    writer.con.execute("COMMIT")
    assert before > 10 and after < 2, (before, after)
    assert con.execute("SELECT count(*), min(i) FROM t").fetchone() == (ROWS + 1, -1)
    writer.close()


def test_a_drop_duckdb_refuses_leaves_the_transaction_and_the_limit_as_they_were(
        con: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A limit below what DuckDB must keep fails; it fails on the writer's other connection,
    so the transaction the writer has open goes on and commits."""
    monkeypatch.setattr(load_connection, "CACHE_SLACK", -(1 << 40))   # a negative limit: refused
    con.execute("CREATE TABLE t (i BIGINT)")
    writer = writermod.Writer(con)
    limit = _limit(con)
    writer.con.execute("BEGIN TRANSACTION")
    writer.con.execute("INSERT INTO t SELECT range FROM range(1000)")
    writer._drop_cache()
    writer.con.execute("INSERT INTO t VALUES (-1)")
    writer.con.execute("COMMIT")
    assert con.execute("SELECT count(*) FROM t").fetchone() == (1001,)
    assert _limit(con) == limit
    writer.close()


def test_reattaching_keeps_the_rows_and_the_other_cursors_find_the_file_again(
        tmp_path: Path) -> None:
    db = tmp_path / "again.duckdb"
    con = load_connection.open_for_load(db)
    other = dbmod.use_same(con)
    con.execute("CREATE TABLE t AS SELECT range AS i FROM range(100000)")
    load_connection.reopen_for_load(other)
    con.execute("INSERT INTO t VALUES (-1)")
    assert other.execute("SELECT count(*) FROM t").fetchone() == (100001,)
    assert con.execute("SELECT current_database()").fetchone() == (dbmod.ALIAS,)
    other.close()
    con.close()
    plain = duckdb.connect(str(db), read_only=True)
    assert plain.execute("SELECT count(*), min(i) FROM t").fetchone() == (100001, -1)
    plain.close()


def test_the_loader_asks_the_database_only_while_the_writer_is_not_reattaching_it(
        tmp_path: Path) -> None:
    db = tmp_path / "asked.duckdb"
    con = dbmod.connect(db, read_only=False)
    dbmod.ensure_schema(con, db)
    lock = threading.Lock()
    known = knownmod.Known(con, 0)
    known.lock = lock
    answers: list[object] = []
    lock.acquire()
    asking = threading.Thread(target=lambda: answers.append(known.files(["a.jsonl"])))
    asking.start()
    asking.join(0.3)
    assert asking.is_alive() and answers == []   # waiting for the lock
    lock.release()
    asking.join(10)
    assert answers == [{}]
    con.close()


def _game(game_id: str, seed: int) -> bytes:
    events = simulate_game("edition2", players=2, seed=seed, game_id=game_id)
    return b"".join(dumps_event(e) for e in events)


def test_which_games_the_database_holds_with_their_files_and_errors(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    for i in range(3):
        (folder / f"g{i}.jsonl").write_bytes(_game(f"g{i}", i))
    db = tmp_path / "held.duckdb"
    load_paths([folder], db, jobs=1)
    con = dbmod.connect(db, read_only=False)
    stamp = con.execute("SELECT epoch_us(max(loaded_at)) FROM files").fetchone()
    assert stamp is not None
    g1 = str(folder / "g1.jsonl")
    con.execute("INSERT INTO load_errors (file, line, code, message) "
                "VALUES ($f, 1, 'x', 'y')", {"f": g1})
    con.execute("DELETE FROM files WHERE path = $f", {"f": str(folder / "g2.jsonl")})
    con.execute("CHECKPOINT")
    sizes = {p.name: p.stat() for p in folder.iterdir()}
    rows = sorted(knownmod.Known(con, stamp[0]).games(["g0", "g1", "g2", "nope"]))
    con.close()
    g0 = sizes["g0.jsonl"]
    g1s = sizes["g1.jsonl"]
    hashes = {name: file_hash((folder / name).read_bytes()) for name in sizes}
    assert rows == [
        ("g0", str(folder / "g0.jsonl"), True, g0.st_size, g0.st_mtime_ns, False,
         hashes["g0.jsonl"]),
        ("g1", g1, True, g1s.st_size, g1s.st_mtime_ns, True, hashes["g1.jsonl"]),
        ("g2", str(folder / "g2.jsonl"), False, None, None, False,   # no files row
         hashes["g2.jsonl"]),
    ]


def test_a_load_attaches_its_database_again_after_each_checkpoint_and_loads_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Small transactions, each followed by a checkpoint and the file attached again, with the
    workers' results coming meanwhile: the same rows as one transaction, a first load and an
    incremental one (whose plan asks the database about every file)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for i in range(8):
        (folder / f"g{i}.jsonl").write_bytes(_game(f"g{i}", i))
    tables = ("games", "events", "rounds", "round_scores", "game_players")

    def rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
        con = duckdb.connect(str(db), read_only=True)
        try:
            return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
                    for t in tables}
        finally:
            con.close()

    def load_twice(db: Path) -> None:
        load_paths([folder], db, jobs=2)
        (folder / "g3.jsonl").write_bytes(_game("g3", 33))   # changed: replayed again
        (folder / "g8.jsonl").write_bytes(_game("g8", 8))    # new
        summary = load_paths([folder], db, jobs=2)
        assert (summary.loaded, summary.replaced, summary.skipped) == (2, 1, 7)
        (folder / "g3.jsonl").write_bytes(_game("g3", 3))
        (folder / "g8.jsonl").unlink()

    load_twice(tmp_path / "one.duckdb")
    reopened: list[int] = []
    reopen = load_connection.reopen_for_load

    def counted(con: Any) -> None:
        reopened.append(1)
        reopen(con)

    monkeypatch.setattr(load_connection, "reopen_for_load", counted)
    monkeypatch.setattr(loadermod, "INLINE_BYTES", 0)   # workers, however few the files
    monkeypatch.setattr(loadermod, "CHUNK_FILES", 1)
    monkeypatch.setattr(loadermod, "FLUSH_ROWS", 1)
    monkeypatch.setattr(loadmod, "COMMIT_ROWS", 1)
    monkeypatch.setattr(loadmod, "CHECKPOINT_ROWS", 1)
    load_twice(tmp_path / "many.duckdb")
    assert len(reopened) >= 8, reopened   # after every commit but the last of each load
    assert rows(tmp_path / "many.duckdb") == rows(tmp_path / "one.duckdb")


HOLDER = """
import sys, time, duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
print("open", flush=True)
time.sleep(float(sys.argv[2]))
con.close()
"""


def _detached_while_another_program_opens(tmp_path: Path, hold: float
                                          ) -> tuple[Any, Path, subprocess.Popen[str]]:
    db = tmp_path / "shared.duckdb"
    con = load_connection.open_for_load(db)
    con.execute("CREATE TABLE t AS SELECT range AS i FROM range(10)")
    con.execute("USE memory")
    con.execute(f"DETACH {dbmod.ALIAS}")   # what ``reattach`` does first: the file unlocked
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), str(hold)],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "open\n"
    return con, db, holder


def test_reattaching_waits_for_a_program_that_opened_the_file_meanwhile(
        tmp_path: Path) -> None:
    con, db, holder = _detached_while_another_program_opens(tmp_path, 1.0)
    started = time.monotonic()
    dbmod.attach_again(con, db, load_connection.ROW_GROUP_SIZE, wait=30)
    waited = time.monotonic() - started
    assert holder.wait(30) == 0
    assert 0.3 < waited < 30, waited
    assert con.execute("SELECT count(*) FROM t").fetchone() == (10,)
    con.close()


def test_reattaching_gives_up_with_a_sentence_when_the_file_stays_held(
        tmp_path: Path) -> None:
    con, db, holder = _detached_while_another_program_opens(tmp_path, 5.0)
    with pytest.raises(dbmod.DatabaseError) as caught:
        dbmod.attach_again(con, db, load_connection.ROW_GROUP_SIZE, wait=0.3)
    holder.kill()
    holder.wait(30)
    con.close()
    assert str(caught.value) == (
        f"cannot open {db} again: another program opened it while the load was reopening "
        "it, and held it for 0.3 s (what the load committed is kept: load again once that "
        "program has closed it)")
