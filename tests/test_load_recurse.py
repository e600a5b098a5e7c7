"""``load FOLDER`` searches subfolders too, says which folder its rejected logs came from, and
``--no-recurse`` takes only the logs directly in the folders given."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb

from cabo_log.db.listing import iter_logs, listed_in, walk_logs
from cabo_log.db.load_result import rejected_from

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"


def cabo_log(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cabo_log", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, check=False)


def games(db: Path) -> int:
    with duckdb.connect(str(db), read_only=True) as con:
        row = con.execute("SELECT count(*) FROM games").fetchone()
    assert row is not None
    return int(row[0])


def test_a_recursive_load_names_the_folder_its_rejected_logs_came_from(tmp_path: Path) -> None:
    top = sorted(SAMPLES.glob("*.jsonl"))
    bad = sorted((SAMPLES / "invalid").glob("*.jsonl"))
    assert top and bad
    db = tmp_path / "all.duckdb"
    out = cabo_log("load", "sample_games/", "--db", db, "--quiet")
    assert out.returncode == 1
    assert f"rejected {len(bad)} (in sample_games{os.sep}invalid{os.sep});" in out.stdout
    assert "folders are searched recursively: sample_games/invalid/ is a subfolder" in out.stderr
    assert "--no-recurse" in out.stderr
    assert games(db) == len(top)


def test_no_recurse_loads_only_the_folders_own_logs(tmp_path: Path) -> None:
    top = sorted(SAMPLES.glob("*.jsonl"))
    db = tmp_path / "top.duckdb"
    out = cabo_log("load", "sample_games/", "--db", db, "--no-recurse")
    assert out.returncode == 0, out.stderr
    assert f"loaded {len(top)} games" in out.stdout and "rejected 0;" in out.stdout
    assert f"from {len(top)} replayed files" in out.stdout
    assert out.stderr == ""
    assert games(db) == len(top)
    # a folder holding only subfolders has nothing to load without recursion
    (tmp_path / "outer" / "inner").mkdir(parents=True)
    shutil.copy(top[0], tmp_path / "outer" / "inner" / top[0].name)
    none = cabo_log("load", tmp_path / "outer", "--db", tmp_path / "n.duckdb", "--no-recurse")
    assert none.returncode == 1
    assert f"no logs found (no *.jsonl directly in {tmp_path / 'outer'})" in none.stderr
    assert not (tmp_path / "n.duckdb").exists()


def test_the_listing_without_recursion(tmp_path: Path) -> None:
    for name in ("a.jsonl", "sub/b.jsonl", "sub/deeper/c.jsonl", "z.jsonl", "note.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}\n")
    everything = [str(tmp_path / n) for n in ("a.jsonl", "sub/b.jsonl", "sub/deeper/c.jsonl",
                                              "z.jsonl")]
    assert list(walk_logs([tmp_path])) == everything
    own = [str(tmp_path / "a.jsonl"), str(tmp_path / "z.jsonl")]
    assert list(walk_logs([tmp_path], recurse=False)) == own
    # a subfolder given by name is walked (its own logs), and files given are kept as given
    assert list(iter_logs([tmp_path / "sub", tmp_path / "sub/deeper/c.jsonl"], False)) == [
        str(tmp_path / "sub/b.jsonl"), str(tmp_path / "sub/deeper/c.jsonl")]
    listed = listed_in([tmp_path], recurse=False)
    assert [p for p in everything if listed(p)] == own
    assert all(listed_in([tmp_path])(p) for p in everything)


def test_the_folders_of_rejected_logs_in_words() -> None:
    def errs(*files: str) -> list[dict[str, object]]:
        return [{"file": f} for f in files]

    assert rejected_from([]) == ""
    assert rejected_from(errs("a/x.jsonl", "a/y.jsonl")) == f" (in a{os.sep})"
    assert rejected_from(errs("b/1.jsonl", "a/2.jsonl", "a/3.jsonl")) == \
        f" (2 in a{os.sep}, 1 in b{os.sep})"
    four = errs("a/1.jsonl", "b/1.jsonl", "c/1.jsonl", "d/1.jsonl", "d/2.jsonl")
    assert rejected_from(four) == \
        f" (2 in d{os.sep}, 1 in a{os.sep}, 1 in b{os.sep} and 1 more folder)"
