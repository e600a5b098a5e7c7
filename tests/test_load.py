"""``cabo-log load``: what lands in each table, re-runs, changed and invalid files, atomicity.

The corpus is simulated (``cabo_log.simulate``); expectations come from the replays, never
from the database.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from cabo_log.db import database as dbmod
from cabo_log.db import load as loadmod
from cabo_log.db import writer as writermod
from cabo_log.db.export import export_parquet
from cabo_log.db.load import LoadError, load_paths
from cabo_log.db.schema import SCHEMAS
from cabo_log.db.settings import LoadSettings
from cabo_log.log.logfile import dumps_event
from cabo_log.log.replay import replay_file
from cabo_log.play.simulate import simulate_game

GAMES = [("edition1", 3, {}), ("edition2", 4, {}), ("golf", 3, {}), ("online", 4, {}),
         ("edition1", 4, {}), ("golf", 2, {"open_peek": True})]
DATA_TABLES = (*SCHEMAS, "load_errors")


def lines(events: list[dict[str, Any]]) -> bytes:
    return b"".join(dumps_event(e) for e in events)


@pytest.fixture(scope="module")
def logs() -> dict[str, list[dict[str, Any]]]:
    """Simulated games (event dicts), by file stem."""
    out = {}
    for i, (ruleset, players, options) in enumerate(GAMES):
        game_id = f"{ruleset}-{i}"
        out[game_id] = simulate_game(ruleset, players=players, seed=i, options=options,
                                     game_id=game_id, forfeit_rate=0.01 if ruleset == "online"
                                     else 0.0, timestamps=i % 2 == 1)
    return out


def write(folder: Path, logs: dict[str, list[dict[str, Any]]]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for stem, events in logs.items():
        path = folder / f"{stem}.jsonl"
        path.write_bytes(lines(events))
        paths.append(path)
    return paths


def snapshot(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every data table, sorted (``files.loaded_at`` aside, which records when)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        out = {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
               for t in DATA_TABLES}
        out["files"] = sorted(con.execute(
            "SELECT * EXCLUDE (loaded_at) FROM files").fetchall(), key=repr)
        return out
    finally:
        con.close()


def query(db: Path, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params).fetchall() if params else con.execute(sql).fetchall()
    finally:
        con.close()


# --- what is loaded -------------------------------------------------------------------------

def test_tables_hold_what_the_replay_derived(tmp_path: Path,
                                             logs: dict[str, list[dict[str, Any]]]) -> None:
    paths = write(tmp_path / "logs", logs)
    db = tmp_path / "cabo.duckdb"
    summary = load_paths([tmp_path / "logs"], db, jobs=1)
    assert (summary.loaded, summary.skipped, summary.rejected) == (len(paths), 0, [])
    for path in paths:
        state = replay_file(path).state
        assert state is not None
        gid = state.game_id
        game = query(db, "SELECT ruleset, players, rounds, complete, winners, events, "
                         "source_file FROM games WHERE game_id = ?", [gid])
        assert game == [(state.rules.name, list(state.players), len(state.rounds),
                         state.complete, list(state.winners), state.events,
                         os.path.abspath(path))]
        players = query(db, "SELECT player, final_score, won FROM game_players "
                            "WHERE game_id = ? ORDER BY seat", [gid])
        assert players == [(p, state.cumulative[i], p in state.winners)
                           for i, p in enumerate(state.players)]
        rounds = query(db, "SELECT round, first_player, caller, cabo_success, end_reason, "
                           "turns, reshuffles FROM rounds WHERE game_id = ? ORDER BY round",
                       [gid])
        assert rounds == [(r.round, r.first, r.caller, r.cabo_success, r.end, r.turns,
                           r.reshuffles) for r in state.rounds]
        scores = query(db, "SELECT round, player, hand, total, points, cumulative "
                           "FROM round_scores WHERE game_id = ? ORDER BY round, seat", [gid])
        assert scores == [(r.round, p, r.hands[p], r.totals[p], r.points[p], r.cumulative[p])
                          for r in state.rounds for p in r.players if p in r.points]
        events = query(db, "SELECT seq, type, player FROM events WHERE game_id = ? "
                           "ORDER BY seq", [gid])
        assert [(s, t) for s, t, _ in events] == [(i, e["type"])
                                                  for i, e in enumerate(logs[gid])]
        assert [p for _, _, p in events] == [e.get("player") for e in logs[gid]]
        calls = query(db, "SELECT round, caller, success FROM cabo_calls WHERE game_id = ? "
                          "ORDER BY seq", [gid])
        assert calls == [(r.round, r.caller, r.cabo_success) for r in state.rounds
                         if r.caller is not None]
    # derived columns: the drawn card is the one the log names, with its value
    draws = query(db, "SELECT count(*) FROM events WHERE type = 'draw' AND card IS NULL")
    assert draws == [(0,)]
    timed = query(db, "SELECT count(*) FROM events WHERE t_ms IS NOT NULL")
    assert timed[0][0] == sum(len(e) for i, e in enumerate(logs.values()) if i % 2 == 1)


def test_in_progress_game(tmp_path: Path, logs: dict[str, list[dict[str, Any]]]) -> None:
    events = logs["edition2-1"]
    cut = next(i for i, e in enumerate(events) if e["type"] == "cabo") + 1
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "live.jsonl").write_bytes(lines(events[:cut]))
    db = tmp_path / "cabo.duckdb"
    load_paths([tmp_path / "logs"], db, jobs=1)
    assert query(db, "SELECT complete, rounds, winners FROM games") == [(False, 0, [])]
    assert query(db, "SELECT count(*) FROM rounds") == [(0,)]
    assert query(db, "SELECT success, points FROM cabo_calls") == [(None, None)]
    assert query(db, "SELECT count(*) FROM events") == [(cut,)]


# --- re-runs ----------------------------------------------------------------------------------

def test_reload_changes_nothing_and_replays_nothing(
        tmp_path: Path, logs: dict[str, list[dict[str, Any]]]) -> None:
    write(tmp_path / "logs", logs)
    db = tmp_path / "cabo.duckdb"
    first = load_paths([tmp_path / "logs"], db, jobs=1)
    before = snapshot(db)
    again = load_paths([tmp_path / "logs"], db, jobs=1)
    assert (again.loaded, again.replayed, again.skipped) == (0, 0, len(logs))
    assert first.replayed == len(logs)
    assert snapshot(db) == before
    # a touched file is read and hashed, not replayed: same content
    for path in (tmp_path / "logs").iterdir():
        os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))
    touched = load_paths([tmp_path / "logs"], db, jobs=1)
    assert (touched.loaded, touched.replayed, touched.skipped) == (0, 0, len(logs))
    after = snapshot(db)
    assert {t: v for t, v in after.items() if t != "files"} == \
        {t: v for t, v in before.items() if t != "files"}
    assert load_paths([tmp_path / "logs"], db, jobs=1).replayed == 0  # new mtimes recorded
    assert load_paths([tmp_path / "logs"], db, jobs=1, force=True).replayed == len(logs)
    assert snapshot(db)["games"] == before["games"]


def test_a_grown_file_replaces_its_game_only(tmp_path: Path,
                                             logs: dict[str, list[dict[str, Any]]]) -> None:
    folder = tmp_path / "logs"
    write(folder, logs)
    live = folder / "golf-2.jsonl"
    full = logs["golf-2"]
    half = len(full) // 2
    live.write_bytes(lines(full[:half]))
    db = tmp_path / "cabo.duckdb"
    load_paths([folder], db, jobs=1)
    others = {t: [r for r in rows if "golf-2" not in repr(r)]
              for t, rows in snapshot(db).items()}
    assert query(db, "SELECT complete FROM games WHERE game_id = 'golf-2'") == [(False,)]
    with live.open("ab") as f:   # the live game goes on
        f.write(lines(full[half:]))
    summary = load_paths([folder], db, jobs=1)
    assert (summary.loaded, summary.replaced, summary.skipped) == (1, 1, len(logs) - 1)
    state = replay_file(live).state
    assert state is not None and state.complete
    assert query(db, "SELECT complete, rounds, events FROM games WHERE game_id = 'golf-2'") == \
        [(True, len(state.rounds), len(full))]
    assert query(db, "SELECT count(*) FROM events WHERE game_id = 'golf-2'") == [(len(full),)]
    assert query(db, "SELECT count(*) FROM rounds WHERE game_id = 'golf-2'") == \
        [(len(state.rounds),)]
    after = {t: [r for r in rows if "golf-2" not in repr(r)]
             for t, rows in snapshot(db).items()}
    assert after == others


def test_a_moved_file_keeps_one_copy_of_its_game(
        tmp_path: Path, logs: dict[str, list[dict[str, Any]]]) -> None:
    write(tmp_path / "a", {"edition1-0": logs["edition1-0"]})
    db = tmp_path / "cabo.duckdb"
    load_paths([tmp_path / "a"], db, jobs=1)
    (tmp_path / "a").rename(tmp_path / "b")
    summary = load_paths([tmp_path / "b"], db, jobs=1)
    assert (summary.loaded, summary.replaced) == (1, 1)
    assert query(db, "SELECT count(*), min(source_file) FROM games") == \
        [(1, str(tmp_path / "b" / "edition1-0.jsonl"))]
    assert query(db, "SELECT count(*) FROM files") == [(1,)]
    assert query(db, "SELECT count(*) FROM events") == [(len(logs["edition1-0"]),)]


# --- invalid logs --------------------------------------------------------------------------------

def test_invalid_logs_are_listed_and_nothing_of_them_is_loaded(
        tmp_path: Path, logs: dict[str, list[dict[str, Any]]]) -> None:
    folder = tmp_path / "logs"
    write(folder, {"golf-2": logs["golf-2"]})
    bad = [dict(e) for e in logs["edition1-0"]]
    bad[0]["game_id"] = "broken"
    draw = next(i for i, e in enumerate(bad) if e["type"] == "draw" and e["source"] == "deck")
    bad[draw]["card"] = "zz"
    (folder / "broken.jsonl").write_bytes(lines(bad))
    (folder / "garbage.jsonl").write_bytes(b'{"type": "game", \n')
    dup = dict(logs["golf-2"][0])
    (folder / "same-id.jsonl").write_bytes(lines([dup, *logs["golf-2"][1:]]))
    db = tmp_path / "cabo.duckdb"
    summary = load_paths([folder], db, jobs=1)
    assert summary.loaded == 1 and summary.exit_code() == 1 and summary.exit_code(True) == 0
    errors = query(db, "SELECT file, line, code, game_id FROM load_errors ORDER BY file")
    assert errors == [
        (str(folder / "broken.jsonl"), draw + 1, "unknown_card", "broken"),  # "zz": no card
        (str(folder / "garbage.jsonl"), 1, "bad_json", None),
        (str(folder / "same-id.jsonl"), None, "duplicate_game", "golf-2"),
    ]
    for table in SCHEMAS:
        assert query(db, f"SELECT count(*) FROM {table} WHERE game_id = 'broken'") == [(0,)]
    assert query(db, "SELECT source_file FROM games WHERE game_id = 'golf-2'") == \
        [(str(folder / "golf-2.jsonl"),)]
    # fixed: the error goes, the game comes
    bad[draw]["card"] = logs["edition1-0"][draw]["card"]
    (folder / "broken.jsonl").write_bytes(lines(bad))
    (folder / "garbage.jsonl").unlink()
    (folder / "same-id.jsonl").unlink()
    summary = load_paths([folder], db, jobs=1)
    assert summary.rejected == [] and summary.loaded == 1
    assert query(db, "SELECT file FROM load_errors") == [
        (str(folder / "garbage.jsonl"),), (str(folder / "same-id.jsonl"),)]
    assert query(db, "SELECT count(*) FROM games WHERE game_id = 'broken'") == [(1,)]


def test_an_invalid_new_version_keeps_the_last_valid_one(
        tmp_path: Path, logs: dict[str, list[dict[str, Any]]]) -> None:
    folder = tmp_path / "logs"
    write(folder, {"golf-2": logs["golf-2"]})
    db = tmp_path / "cabo.duckdb"
    load_paths([folder], db, jobs=1)
    before = snapshot(db)
    with (folder / "golf-2.jsonl").open("ab") as f:
        f.write(b'{"type": "draw", "play')   # a line being written
    summary = load_paths([folder], db, jobs=1)
    assert [e["code"] for e in summary.rejected] == ["bad_json"]
    after = snapshot(db)
    assert after["games"] == before["games"] and after["events"] == before["events"]
    assert len(after["load_errors"]) == 1


# --- atomicity ----------------------------------------------------------------------------------

def _tables(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[Any, ...]]]:
    out = {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
           for t in DATA_TABLES}
    out["files"] = sorted(con.execute("SELECT * EXCLUDE (loaded_at) FROM files").fetchall(),
                          key=repr)
    return out


def assert_whole(db: Path) -> None:
    """Every game in the database has all of its rows."""
    bad = query(db, """
        SELECT g.game_id FROM games AS g
        WHERE g.events <> (SELECT count(*) FROM events AS e WHERE e.game_id = g.game_id)
           OR g.rounds <> (SELECT count(*) FROM rounds AS r WHERE r.game_id = g.game_id)
           OR g.n_players <> (SELECT count(*) FROM game_players AS p
                              WHERE p.game_id = g.game_id)
           OR NOT EXISTS (SELECT 1 FROM files AS f WHERE f.game_id = g.game_id)""")
    assert bad == []


def test_an_error_in_the_writer_leaves_the_database_as_before_the_batch(
        tmp_path: Path, logs: dict[str, list[dict[str, Any]]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    stems = list(logs)
    write(tmp_path / "a", {k: logs[k] for k in stems[:2]})
    write(tmp_path / "b", {k: logs[k] for k in stems[2:]})
    db = tmp_path / "cabo.duckdb"
    load_paths([tmp_path / "a"], db, jobs=1)
    with (tmp_path / "a" / f"{stems[0]}.jsonl").open("ab") as f:
        f.write(b"\n")   # changed: its game is to be replaced
    before = snapshot(db)
    calls = 0
    real = writermod.Writer.insert

    def failing(self: writermod.Writer, table: str, data: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == fail_at:
            raise RuntimeError("disk on fire")
        real(self, table, data)

    monkeypatch.setattr(writermod.Writer, "insert", failing)
    # one batch for the whole load: the failure rolls back everything
    fail_at = 5
    with pytest.raises(RuntimeError, match="disk on fire"):
        load_paths([tmp_path / "a", tmp_path / "b"], db, jobs=1)
    assert snapshot(db) == before
    # a batch per file: the batches before the failing one stay, whole
    small = LoadSettings(chunk_files=1, flush_rows=1, commit_rows=1)
    after_batch: list[dict[str, list[tuple[Any, ...]]]] = []
    real_write = writermod.Writer._write

    def write_batch(self: writermod.Writer, batch: writermod.Batch) -> None:
        nonlocal calls, fail_at
        real_write(self, batch)
        after_batch.append(_tables(self.con))
        calls, fail_at = 0, 3     # in the middle of the second batch

    monkeypatch.setattr(writermod.Writer, "_write", write_batch)
    calls, fail_at = 0, -1
    with pytest.raises(RuntimeError, match="disk on fire"):
        load_paths([tmp_path / "a", tmp_path / "b"], db, jobs=1, settings=small)
    assert len(after_batch) == 1
    assert snapshot(db) == after_batch[0] != before
    assert_whole(db)
    monkeypatch.setattr(writermod.Writer, "insert", real)
    summary = load_paths([tmp_path / "a", tmp_path / "b"], db, jobs=1,
                         settings=small)   # finishes the job
    assert (summary.loaded, summary.skipped) == (len(logs) - 2, 2)
    assert_whole(db)
    monkeypatch.setattr(writermod.Writer, "insert", _interrupt)
    (tmp_path / "a" / f"{stems[1]}.jsonl").write_bytes(lines(logs[stems[1]]) + b"\n")
    before = snapshot(db)
    with pytest.raises(loadmod.LoadInterrupted) as info:
        load_paths([tmp_path / "a"], db, jobs=1, settings=small)
    assert info.value.committed == 0
    assert snapshot(db) == before


def _interrupt(self: writermod.Writer, table: str, data: Any) -> None:
    raise KeyboardInterrupt


STALL = Path(__file__).resolve().parent / "stall"   # its sitecustomize reads FIFOs blocking


@pytest.fixture()
def stalled_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The environment of a load whose processes read ``zz-stuck.jsonl`` the blocking way
    (cabo-log refuses a FIFO; these tests use one to hold a worker mid-file). The forkserver
    is stopped before and after, so that the next one starts with this environment."""
    from multiprocessing import forkserver

    env = {"CABO_LOG_TEST_STALL": "zz-stuck.jsonl",
           "PYTHONPATH": os.pathsep.join([str(STALL), os.environ.get("PYTHONPATH", "")])}
    forkserver._forkserver._stop()  # type: ignore[attr-defined]
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.syspath_prepend(str(STALL))
    yield env
    forkserver._forkserver._stop()  # type: ignore[attr-defined]


def _reader_of(path: Path, timeout: float = 60) -> int:
    """The pid of the other process that has ``path`` open (Linux /proc). A reader whose
    ``open()`` is still returning has no fd yet: look again until it has one."""
    target = str(path)
    deadline = time.monotonic() + timeout
    while True:
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                        return int(pid)
            except OSError:
                continue
        if time.monotonic() > deadline:
            raise LookupError(target)
        time.sleep(0.01)


def _wait_for_reader(fifo: Path, timeout: float = 60) -> int:
    """Block until some process opens the FIFO for reading; returns our write end."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses FIFOs and /proc")
def test_a_killed_worker_leaves_the_database_as_before(
        tmp_path: Path, logs: dict[str, list[dict[str, Any]]],
        monkeypatch: pytest.MonkeyPatch, stalled_reads: dict[str, str]) -> None:
    folder = tmp_path / "logs"
    write(folder, logs)
    db = tmp_path / "cabo.duckdb"
    load_paths([folder / "edition1-0.jsonl"], db, jobs=1)
    with (folder / "edition1-0.jsonl").open("ab") as f:
        f.write(b"\n")          # changed (same game): to be replaced
    before = snapshot(db)
    fifo = folder / "zz-stuck.jsonl"   # sorted last: earlier chunks are written first
    os.mkfifo(fifo)
    # workers however small the load, many chunks, one batch (``flush_rows``)
    settings = LoadSettings(inline_bytes=0, chunk_files=1)
    failure: list[BaseException] = []

    def run() -> None:
        try:
            load_paths([folder], db, jobs=2, settings=settings)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            failure.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    writer = _wait_for_reader(fifo)
    try:
        os.kill(_reader_of(fifo), signal.SIGKILL)
        thread.join(60)
    finally:
        os.close(writer)
    assert not thread.is_alive()
    assert len(failure) == 1 and isinstance(failure[0], LoadError), failure
    assert failure[0].committed == 0
    assert snapshot(db) == before
    fifo.unlink()
    summary = load_paths([folder], db, jobs=2, settings=settings)   # and the next load works
    assert summary.loaded == len(logs) and summary.replaced == 1


def _cli(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from cabo_log.launch import main; main()",
                           *args], capture_output=True, text=True, check=False, **kwargs)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses FIFOs and /proc")
def test_ctrl_c_leaves_the_database_as_before(
        tmp_path: Path, logs: dict[str, list[dict[str, Any]]],
        stalled_reads: dict[str, str]) -> None:
    folder = tmp_path / "logs"
    write(folder, {k: logs[k] for k in list(logs)[:3]})
    db = tmp_path / "cabo.duckdb"
    fifo = folder / "zz-stuck.jsonl"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-c", "from cabo_log.launch import main; main()", "load", str(folder),
         "--db", str(db), "--jobs", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, **stalled_reads})
    writer = _wait_for_reader(fifo)
    try:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        os.close(writer)
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == ("cabo-log: interrupted; nothing was loaded (the "
                                            "database is as it was before)")
    assert "Traceback" not in err
    for table in DATA_TABLES:
        assert query(db, f"SELECT count(*) FROM {table}") == [(0,)]


# --- the command line ---------------------------------------------------------------------------

def test_cli_load_summary_and_exit_codes(tmp_path: Path,
                                         logs: dict[str, list[dict[str, Any]]]) -> None:
    folder = tmp_path / "logs"
    write(folder, {k: logs[k] for k in list(logs)[:2]})
    db = tmp_path / "cabo.duckdb"
    env = {**os.environ, "CABO_LOG_DB": str(db)}
    out = _cli("load", str(folder), env=env)
    assert out.returncode == 0, out.stderr
    assert "loaded 2 games" in out.stdout and db.exists()
    out = _cli("load", str(folder), env=env)
    assert out.returncode == 0 and "skipped 2 unchanged" in out.stdout
    (folder / "bad.jsonl").write_text("nope\n")
    out = _cli("load", str(folder), env=env)
    assert out.returncode == 1 and "rejected 1" in out.stdout
    assert f"{folder / 'bad.jsonl'}:1: bad_json" in out.stderr
    assert _cli("load", str(folder), "--allow-errors", env=env).returncode == 0
    out = _cli("load", str(tmp_path / "nowhere"), env=env)
    assert out.returncode == 2 and "no such file" in out.stderr


def test_cli_refuses_unusable_databases(tmp_path: Path,
                                        logs: dict[str, list[dict[str, Any]]]) -> None:
    folder = tmp_path / "logs"
    write(folder, {"golf-2": logs["golf-2"]})
    not_duck = tmp_path / "notes.duckdb"
    not_duck.write_bytes(b"these are my notes, not a database\n" * 20)
    content = not_duck.read_bytes()
    locked = tmp_path / "locked"
    locked.mkdir()
    cases = [tmp_path / "missing" / "x.duckdb", not_duck, tmp_path]
    if os.geteuid() != 0:   # root reads everything
        (locked / "x.duckdb").write_bytes(b"")
        locked.chmod(stat.S_IRUSR)
        cases.append(locked / "x.duckdb")
    for target in cases:
        out = _cli("load", str(folder), "--db", str(target))
        assert out.returncode == 1, (target, out.stderr)
        assert out.stderr.startswith("cabo-log: ") and len(out.stderr.splitlines()) == 1
        out = _cli("report", "power_usage", "--db", str(target))
        assert out.returncode == 1 and len(out.stderr.splitlines()) == 1, out.stderr
    assert not_duck.read_bytes() == content
    other = tmp_path / "other.duckdb"
    con = duckdb.connect(str(other))
    con.execute("CREATE TABLE games (x INTEGER)")
    con.close()
    out = _cli("load", str(folder), "--db", str(other))
    assert out.returncode == 1 and "did not create" in out.stderr
    out = _cli("report", "power_usage", "--db", str(other))
    assert out.returncode == 1 and "not a cabo-log database" in out.stderr


# --- export ---------------------------------------------------------------------------------------

def test_export_parquet_partitioned_by_ruleset(
        tmp_path: Path, logs: dict[str, list[dict[str, Any]]]) -> None:
    folder = tmp_path / "logs"
    write(folder, logs)
    (folder / "bad.jsonl").write_text("nope\n")
    db = tmp_path / "cabo.duckdb"
    load_paths([folder], db, jobs=1)
    counts = export_parquet(db, tmp_path / "pq")
    con = duckdb.connect()
    for table, count in counts.items():
        if not count:
            continue
        pattern = str(tmp_path / "pq" / table / "**" / "*.parquet")
        got = con.execute(
            "SELECT ruleset, count(*) FROM read_parquet(?, hive_partitioning = true) "
            "GROUP BY ruleset ORDER BY ruleset", [pattern]).fetchall()
        if table == "load_errors":
            want = [("unknown", 1)]
        elif table == "files":
            want = query(db, "SELECT g.ruleset, count(*) FROM files JOIN games AS g "
                             "USING (game_id) GROUP BY ALL ORDER BY 1")
        else:
            want = query(db, f"SELECT ruleset, count(*) FROM {table} GROUP BY ALL ORDER BY 1")
        assert got == want, table
        assert sum(n for _, n in got) == count
    assert sorted(p.name for p in (tmp_path / "pq" / "games").iterdir()) == \
        [f"ruleset={r}" for r in ("edition1", "edition2", "golf", "online")]


def test_schema_is_documented() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "schema.md").read_text()
    for table, schema in {**SCHEMAS, **dbmod.LOADER_SCHEMAS}.items():
        assert f"### `{table}`" in doc, table
        for field in schema:
            assert f"`{field.name}`" in doc, (table, field.name)
