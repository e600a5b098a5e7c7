"""Files that are not logs where a log is expected: a FIFO (which blocks whoever opens it to
read until a writer comes), a loop of symbolic links, a FIFO where the database should be.
Each is one ``unreadable`` line, counted, and the command ends; nothing waits for ever."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_games" / "edition1-kamikaze.jsonl"

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


def cabo(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own, given a generous bound: a hang fails the test."""
    return subprocess.run([sys.executable, "-m", "cabo_log", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=60, check=False)


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """One good log, one FIFO, two links that lead to each other."""
    d = tmp_path / "games"
    d.mkdir()
    shutil.copy(SAMPLE, d / "good.jsonl")
    os.mkfifo(d / "pipe.jsonl")
    (d / "a.jsonl").symlink_to("b.jsonl")
    (d / "b.jsonl").symlink_to("a.jsonl")
    return d


def unreadable_lines(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        if ":0: unreadable:" in line:
            path, _, reason = line.partition(":0: unreadable: ")
            out[Path(path).name] = reason
    return out


def test_validate_reports_a_fifo_and_a_link_loop(folder: Path) -> None:
    result = cabo("validate", folder, cwd=folder.parent)
    assert result.returncode == 1
    found = unreadable_lines(result.stdout + result.stderr)
    assert set(found) == {"pipe.jsonl", "a.jsonl", "b.jsonl"}
    assert "not a regular file" in found["pipe.jsonl"]
    assert "symbolic links" in found["a.jsonl"]
    assert "4 logs checked: 1 valid, 3 invalid" in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_replay_of_a_fifo_is_unreadable(folder: Path) -> None:
    result = cabo("replay", folder / "pipe.jsonl", cwd=folder.parent)
    assert result.returncode == 1
    assert "unreadable: cannot read the file (not a regular file)" in result.stdout + result.stderr


def test_load_counts_them_as_rejected_and_loads_the_rest(folder: Path) -> None:
    db = folder.parent / "cabo.duckdb"
    result = cabo("load", folder, "--db", db, cwd=folder.parent)
    assert result.returncode == 1
    assert "loaded 1 game" in result.stdout + result.stderr
    assert "rejected 3" in result.stdout + result.stderr
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        errors = dict(con.execute("SELECT file, code FROM load_errors").fetchall())
        games = con.execute("SELECT count(*) FROM games").fetchone()
    finally:
        con.close()
    assert games == (1,)
    assert sorted(Path(p).name for p in errors) == ["a.jsonl", "b.jsonl", "pipe.jsonl"]
    assert set(errors.values()) == {"unreadable"}


def test_timeline_of_the_folder_renders_the_good_log(folder: Path) -> None:
    result = cabo("timeline", folder, "-o", folder.parent / "site", cwd=folder.parent)
    assert result.returncode == 1
    assert set(unreadable_lines(result.stdout + result.stderr)) == {
        "pipe.jsonl", "a.jsonl", "b.jsonl"}
    assert (folder.parent / "site" / "good.html").exists()
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [["sql", "SELECT 1"], ["report", "round_length"],
                                     ["load", str(SAMPLE)]])
def test_a_fifo_as_the_database_is_refused(tmp_path: Path, command: list[str]) -> None:
    db = tmp_path / "fifo.duckdb"
    os.mkfifo(db)
    result = cabo(*command, "--db", db, cwd=tmp_path)
    assert result.returncode == 1
    assert "is not a regular file, so not a database file" in result.stderr
    assert "Traceback" not in result.stderr
