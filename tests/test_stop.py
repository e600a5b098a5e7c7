"""Stopping ``cabo-log load`` with SIGINT or SIGTERM, sent to the parent alone or to its whole
process group, at many moments: from the start of the load, right as the workers start sending
results, and later while batches are being committed.

Each time the command must end within a few seconds with its one-line message and exit status
(130, 143), keep only whole games (every game in ``games`` has every row its log gives) and
leave no process behind: the load runs in a session of its own, so every process it started
(its workers) shares its process group, which must become empty.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest
from load_command import tuned_command

from cabo_log.db import database as dbmod
from cabo_log.db import known
from cabo_log.db import writer as writermod
from cabo_log.db.load import Task, load_paths, replay_tasks
from cabo_log.db.schema import SCHEMAS
from cabo_log.db.settings import LoadSettings
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc")

SEEDS = 6           # simulated games, each copied under new game ids
COPIES = 48          # a load of ~3 s on an idle machine (24 became ~1.5 s as the load got
                    # faster): the late signals still find it running
EXIT_SECONDS = 4.0  # from the signal to the exit of the command (the machine may be busy)
GONE_SECONDS = 3.0  # for the workers to notice the exit (their lifeline)
# small chunks and batches: many results, many commits (each of two appends to DuckDB) and
# checkpoints (every other commit) in a load of a few seconds
LOAD = tuned_command(chunk_bytes=50_000, flush_rows=4_000, commit_rows=8_000,
                    checkpoint_rows=16_000, inline_bytes=0)
GROUP = "group"
PARENT = "parent"
KEPT = re.compile(r"^cabo-log: (interrupted|terminated); (?:(\d+) games? of completed batches "
                  r"stayed loaded, the batch in progress was rolled back; run the same command "
                  r"again to finish|nothing was loaded \(the database is as it was before\))$")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """Log files, and the number of lines (= events) of each game."""
    folder = tmp_path_factory.mktemp("stop") / "logs"
    folder.mkdir()
    lines: dict[str, int] = {}
    for seed in range(SEEDS):
        events = simulate_game("edition1", players=3, seed=seed, game_id="x")
        for copy in range(COPIES):
            game_id = f"g{seed}-{copy}"
            events[0] = {**events[0], "game_id": game_id}
            (folder / f"{game_id}.jsonl").write_bytes(b"".join(dumps_event(e) for e in events))
            lines[game_id] = len(events)
    return folder, lines


def group_members(pgid: int) -> list[str]:
    """The live processes of a process group (zombies are gone for good: they hold nothing)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        name, rest = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:]
        state, _ppid, group = rest.split()[:3]
        if int(group) == pgid and state != "Z":
            found.append(f"{pid} {name}")
    return found


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def assert_whole_games(db: Path, lines: dict[str, int]) -> int:
    """Every game has all its rows and nothing else is there; returns the number of games."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = con.execute("SELECT count(*) FROM information_schema.tables").fetchone()
        if tables == (0,):       # stopped before the schema was created: nothing to check
            return 0
        games = dict(con.execute("SELECT game_id, events FROM games").fetchall())
        assert {g: lines[g] for g in games} == games
        events = dict(con.execute("SELECT game_id, count(*) FROM events GROUP BY ALL").fetchall())
        assert events == games
        for table in SCHEMAS:
            orphans = con.execute(f"SELECT count(*) FROM {table} WHERE game_id NOT IN "
                                  "(SELECT game_id FROM games)").fetchone()
            assert orphans == (0,), table
        files = con.execute("SELECT game_id, events FROM files").fetchall()
        assert dict(files) == games and len(files) == len(games)
        rounds = con.execute("SELECT count(*) FROM games AS g WHERE g.rounds <> (SELECT "
                             "count(*) FROM rounds AS r WHERE r.game_id = g.game_id)").fetchone()
        assert rounds == (0,)
        return len(games)
    finally:
        con.close()


def stop_once(folder: Path, db: Path, lines: dict[str, int], signum: int, target: str,
              after_workers: float | None) -> int:
    """Start a load, signal it at the moment given (seconds after its workers appeared, or as
    soon as it opened the database when None); check how it ended. Returns its exit status."""
    db.unlink(missing_ok=True)
    proc = subprocess.Popen([sys.executable, "-c", LOAD, "load", str(folder), "--db", str(db),
                             "--jobs", "2"], start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_until(lambda: db.exists() or proc.poll() is not None, 60)
        if after_workers is not None:
            # the parent and its two workers
            wait_until(lambda: len(group_members(proc.pid)) >= 3 or proc.poll() is not None, 60)
            time.sleep(after_workers)
        sent = time.monotonic()
        try:
            os.killpg(proc.pid, signum) if target == GROUP else os.kill(proc.pid, signum)
        except ProcessLookupError:  # it finished already
            pass
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    where = f"{signal.Signals(signum).name} to the {target}, {after_workers} s after workers"
    assert wait_until(lambda: not group_members(proc.pid), GONE_SECONDS), \
        (where, group_members(proc.pid))
    games = assert_whole_games(db, lines)
    if proc.returncode == 0 or (proc.returncode == -signum and games == len(lines)
                                and not err):
        # finished before the signal came, or it came while the finished process was exiting
        # (its handler already gone): everything was loaded and nothing was said
        assert games == len(lines), where
        return 0
    assert proc.returncode == 128 + signum, (where, err)
    assert took < EXIT_SECONDS, (where, took)
    message = err.splitlines()
    assert len(message) == 1, (where, err)        # no traceback, no warning
    said = KEPT.match(message[0])
    assert said is not None, (where, err)
    assert said.group(1) == ("terminated" if signum == signal.SIGTERM else "interrupted")
    assert int(said.group(2) or 0) == games, (where, err)
    return proc.returncode


@pytest.mark.parametrize(("signum", "target", "moments"), [
    (signal.SIGINT, PARENT, (None, 0.0, 0.2, 1.5)),
    (signal.SIGINT, GROUP, (0.0, 0.05, 0.6, 2.0)),
    (signal.SIGTERM, PARENT, (0.02, 1.2)),
    (signal.SIGTERM, GROUP, (None, 0.3, 1.0)),
], ids=["sigint-parent", "sigint-group", "sigterm-parent", "sigterm-group"])
def test_a_signal_stops_load_cleanly_at_any_moment(
        tmp_path: Path, corpus: tuple[Path, dict[str, int]], signum: int, target: str,
        moments: tuple[float | None, ...]) -> None:
    folder, lines = corpus
    db = tmp_path / "cabo.duckdb"
    codes = [stop_once(folder, db, lines, signum, target, moment) for moment in moments]
    assert codes.count(128 + signum) >= len(codes) - 1, codes   # the load was really cut
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # spool
    summary = load_paths([folder], db, jobs=1)        # and loading again finishes the job
    assert summary.loaded + summary.skipped == len(lines)
    assert assert_whole_games(db, lines) == len(lines)


def test_the_corpus_is_what_the_tests_think(corpus: tuple[Path, dict[str, int]]) -> None:
    folder, lines = corpus
    for game_id, count in lines.items():
        data = (folder / f"{game_id}.jsonl").read_bytes().splitlines()
        assert len(data) == count and json.loads(data[0])["game_id"] == game_id


class _HeldCommit:
    """A writer's connection whose COMMIT waits until released (and says when it started)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.started = threading.Event()
        self.release = threading.Event()

    def execute(self, sql: str, *args: object) -> object:
        if sql == "COMMIT":
            self.started.set()
            self.release.wait(60)
        return self.con.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self.con, name)


@pytest.mark.parametrize("at_commit", [True, False], ids=["during-commit", "before-commit"])
def test_a_stop_never_interrupts_a_commit_it_then_denies(
        tmp_path: Path, corpus: tuple[Path, dict[str, int]], at_commit: bool) -> None:
    """``Writer.abort`` while a batch is committing lets the commit finish and counts it (so the
    message says what the database holds); before the commit, the batch is rolled back."""
    folder, lines = corpus
    db = tmp_path / "cabo.duckdb"
    con = dbmod.connect(db, read_only=False)
    dbmod.ensure_schema(con, db)
    writer = writermod.Writer(con, settings=LoadSettings(commit_rows=0, checkpoint_rows=0))
    held = _HeldCommit(writer.con)
    writer.con = held  # type: ignore[assignment]
    outcomes, rows = replay_tasks([Task(str(p), p.stat().st_size, None)
                                   for p in sorted(folder.iterdir())[:3]])
    for table, items in rows.batches().items():
        writer.add(table, items)
    writer.add("files", [known.files_batch(outcomes)])
    writer.submit()
    if at_commit:
        assert held.started.wait(60)
        threading.Timer(0.5, held.release.set).start()
    writer.abort()
    held.release.set()
    writer.close()
    con.close()
    assert writer.committed_games == (3 if at_commit else 0)
    assert assert_whole_games(db, lines) == writer.committed_games
