"""A disk that fills up during ``cabo-log load``: the workers' spool or DuckDB's own files
cannot be written. The command ends with one line and exit status 1, never a traceback; the
batches committed before stay whole (and are what the line says), the spool is removed, and
the same command finishes the job once there is room.

A real full disk where the tests may mount one (root on Linux: a small tmpfs); elsewhere the
same ``OSError`` comes from a file-size limit (``RLIMIT_FSIZE``: writes past it fail with
``EFBIG``, which Python does not die of).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from load_command import tuned_command

from cabo_log.db.load import load_paths
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="tmpfs and RLIMIT_FSIZE")

SEEDS = 3
COPIES = 30         # 90 games, ~5.6 MB of logs
SAID = re.compile(r"^cabo-log: (?P<why>.+); (?:(?P<kept>\d+) games? of completed batches "
                  r"stayed loaded, the batch in progress was rolled back; run the same command "
                  r"again to finish|nothing was loaded \(the database is as it was before\))$")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """Log files, and the number of lines (= events) of each game."""
    folder = tmp_path_factory.mktemp("full") / "logs"
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


def whole_games(db: Path, lines: dict[str, int]) -> int:
    """Every game in the database has all its events and rounds, and a ``files`` row; the
    number of games."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        if con.execute("SELECT count(*) FROM information_schema.tables "
                       "WHERE table_name = 'games'").fetchone() == (0,):
            return 0
        games = dict(con.execute("SELECT game_id, events FROM games").fetchall())
        assert games == {g: lines[g] for g in games}
        assert dict(con.execute("SELECT game_id, count(*) FROM events GROUP BY ALL")
                    .fetchall()) == games
        assert dict(con.execute("SELECT game_id, events FROM files").fetchall()) == games
        assert con.execute("SELECT count(*) FROM games AS g WHERE g.rounds <> (SELECT count(*) "
                           "FROM rounds AS r WHERE r.game_id = g.game_id)").fetchone() == (0,)
        return len(games)
    finally:
        con.close()


def load_command(folder: Path, db: Path, *, chunk: int, inline: int, jobs: int,
                 file_size: int | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        import resource

        if file_size is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    # small chunks and batches: a commit every few games, so that some are committed when
    # the disk fills up
    code = tuned_command(chunk_bytes=chunk, flush_rows=4_000, commit_rows=8_000,
                        checkpoint_rows=16_000, inline_bytes=inline)
    return subprocess.run(
        [sys.executable, "-c", code, "load", str(folder),
         "--db", str(db), "--jobs", str(jobs), "--quiet"],
        capture_output=True, text=True, timeout=300, preexec_fn=limit, check=False)


def assert_one_line(done: subprocess.CompletedProcess[str], reason: str) -> int:
    """Exit 1, one line naming ``reason``; the number of games it says stayed loaded."""
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert done.stdout == ""
    said = SAID.match(done.stderr.rstrip("\n"))
    assert said is not None and "\n" not in done.stderr.rstrip("\n"), done.stderr
    assert reason in said.group("why"), done.stderr
    return int(said.group("kept") or 0)


def no_spool(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if p.name.startswith(".cabo-log-load-")]


@pytest.fixture()
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 3 MiB tmpfs, unmounted afterwards; skipped where it cannot be mounted."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)],
                          capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.mark.parametrize(("jobs", "inline", "reason"), [
    (2, 0, "cannot write the replayed rows (No space left on device)"),   # the spool
    (1, 10**9, "cannot write the database"),   # no spool: DuckDB's files, after some commits
], ids=["spool", "database"])
def test_a_full_disk_stops_the_load_with_one_line_and_keeps_what_was_committed(
        tmp_path: Path, small_disk: Path, corpus: tuple[Path, dict[str, int]], jobs: int,
        inline: int, reason: str) -> None:
    folder, lines = corpus
    db = small_disk / "cabo.duckdb"
    done = load_command(folder, db, chunk=200_000, inline=inline, jobs=jobs)
    kept = assert_one_line(done, reason)
    if jobs == 1:   # one process: the same batches each time, some committed before
        assert kept > 0
    assert "No space left on device" in done.stderr
    assert no_spool(small_disk)
    # what the line says stayed is there, whole (read from a copy: a read-only open of the
    # full disk's database would replay its write-ahead log there)
    copy = tmp_path / "copy"
    copy.mkdir()
    for part in small_disk.iterdir():
        shutil.copy(part, copy / part.name)
    assert whole_games(copy / db.name, lines) == kept
    # and with room, the same command finishes the job
    summary = load_paths([folder], copy / db.name, jobs=1)
    assert summary.loaded == len(lines) - kept and summary.skipped == kept
    assert whole_games(copy / db.name, lines) == len(lines)


@pytest.mark.parametrize(("jobs", "inline", "file_size", "reason"), [
    (2, 0, 1 << 20, ".arrow: cannot write the replayed rows (File too large)"),
    (1, 10**9, 3_000_000, "cannot write the database"),
], ids=["spool", "database"])
def test_a_file_that_cannot_be_written_stops_the_load_with_one_line(
        tmp_path: Path, corpus: tuple[Path, dict[str, int]], jobs: int, inline: int,
        file_size: int, reason: str) -> None:
    """No file of the load may grow past ``file_size``: the spool file of the first chunk of
    1 MB of logs (~2.5 MB of rows) cannot be written (EFBIG); or, without a spool, the
    database's file once its committed games fill it."""
    folder, lines = corpus
    db = tmp_path / "cabo.duckdb"
    done = load_command(folder, db, chunk=1 << 20, inline=inline, jobs=jobs,
                        file_size=file_size)
    kept = assert_one_line(done, reason)
    assert "File too large" in done.stderr
    assert kept == 0 if jobs == 2 else kept > 0
    assert no_spool(tmp_path)
    assert whole_games(db, lines) == kept
    summary = load_paths([folder], db, jobs=1)
    assert summary.loaded == len(lines) - kept
    assert whole_games(db, lines) == len(lines)
