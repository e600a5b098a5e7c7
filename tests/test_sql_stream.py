"""``cabo-log sql`` prints rows as they come: the output of a large result is complete and
right, and the command's peak memory does not grow with it. The batch-by-batch formats print
what the whole-result formulas print (computed here independently, as ``reports`` used to)."""

from __future__ import annotations

import csv
import io
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from serve_db import build_db

from cabo_log.db.reports import csv_cell, plain, render
from cabo_log.db.stream_out import write_rows

EXE = [sys.executable, "-c", "from cabo_log.cli import main; main()"]

MIXED = """SELECT range AS i, CASE WHEN range % 3 = 0 THEN NULL ELSE 'é"' || range || ',x' END AS s,
  range / 7 AS f, range % 2 = 0 AS b, [range, NULL] AS l, {'k': range, 'v': 'w'} AS st,
  MAP {'a': range} AS m, CAST(range AS DECIMAL(9, 2)) AS d, DATE '2024-01-01' + range::INT AS day,
  CASE WHEN range = 4 THEN 'inf'::DOUBLE WHEN range = 5 THEN 'nan'::DOUBLE END AS odd,
  range AS i, []::INT[] AS empty
FROM range(11)"""


@pytest.fixture(scope="module")
def mixed() -> tuple[list[str], list[tuple[object, ...]]]:
    con = duckdb.connect()
    cur = con.execute(MIXED)
    return [d[0] for d in cur.description or []], cur.fetchall()


def chunks(rows: list[tuple[object, ...]], size: int) -> list[list[tuple[object, ...]]]:
    return [rows[i:i + size] for i in range(0, len(rows), size)]


def test_json_in_batches_is_the_whole_dump(mixed: tuple[list[str], list[tuple[object, ...]]]
                                           ) -> None:
    columns, rows = mixed
    expected = json.dumps([dict(zip(columns, map(plain, row), strict=True)) for row in rows],
                          ensure_ascii=False, indent=1)
    for size in (1, 3, 100):
        buf = io.StringIO()
        assert write_rows(columns, chunks(rows, size), "json", buf) == len(rows)
        assert buf.getvalue() == expected + "\n", size
    assert render(columns, [], "json") == "[]"


def test_csv_in_batches_is_the_whole_file(mixed: tuple[list[str], list[tuple[object, ...]]]
                                          ) -> None:
    columns, rows = mixed
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for row in rows:
        w.writerow([csv_cell(v) for v in row])
    for size in (1, 4, 100):
        out = io.StringIO()
        write_rows(columns, chunks(rows, size), "csv", out)
        assert out.getvalue() == buf.getvalue(), size


def test_table_of_one_batch_is_aligned_as_before() -> None:
    columns = ["name", "n", "x"]
    rows: list[tuple[object, ...]] = [("ana", 12, 1.5), ("bruno", None, None), ("c", 3, 2.25)]
    assert render(columns, rows, "table").splitlines() == [
        "name    n      x",
        "-----  --  -----",
        "ana    12  1.500",
        "bruno",
        "c       3  2.250",
        "(3 rows)"]
    assert render(["a"], [], "table").splitlines() == ["a", "-", "(0 rows)"]


def run_measured(args: list[str]) -> tuple[int, int, str]:
    """(exit status, peak resident memory in MB, stderr) of one run of ``args``."""
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_maxrss // 1024, err


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_db(tmp_path_factory.mktemp("streamdb"))


@pytest.mark.parametrize("fmt", ["csv", "json", "table"])
def test_a_large_result_streams_in_bounded_memory(db: Path, tmp_path: Path, fmt: str) -> None:
    """1,000 rows and 300,000 rows of 300 characters (~90 MB of output): the second may
    not cost more than a few tens of MB over the first (held whole it took over 500 MB), and
    every row is in the output, in order."""
    query = "SELECT range AS n, repeat(chr(97 + (range % 26)::INT), 300) AS s FROM range({})"
    small, large = tmp_path / f"small.{fmt}", tmp_path / f"large.{fmt}"
    status, small_mb, err = run_measured([*EXE, "sql", query.format(1000), "--db", str(db),
                                          "-f", fmt, "-o", str(small)])
    assert status == 0, err
    status, large_mb, err = run_measured([*EXE, "sql", query.format(300_000), "--db",
                                          str(db), "-f", fmt, "-o", str(large)])
    assert status == 0, err
    assert large_mb < small_mb + 60, (small_mb, large_mb)
    n = 0
    with large.open(encoding="utf-8") as f:
        if fmt == "csv":
            assert f.readline() == "n,s\n"
            for n, line in enumerate(f):
                assert line == f"{n},{chr(97 + n % 26) * 300}\n"
            n += 1
        elif fmt == "json":
            data = json.load(f)
            assert data == [{"n": i, "s": chr(97 + i % 26) * 300} for i in range(300_000)]
            n = len(data)
        else:
            lines = f.read().splitlines()
            assert lines[0].split() == ["n", "s"] and lines[-1] == "(300000 rows)"
            body = lines[2:-1]
            assert [int(x.split()[0]) for x in body] == list(range(300_000))
            assert all(x.split()[1] == chr(97 + i % 26) * 300 for i, x in enumerate(body))
            n = len(body)
    assert n == 300_000
    assert oct(large.stat().st_mode & 0o777) == oct(0o666 & ~current_umask())


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_failing_query_leaves_no_file_and_the_old_one(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    out.write_text("before\n")
    # fails on row 5,000, after the first batches were written
    bad = "SELECT range, CAST(CASE WHEN range < 5000 THEN '1' ELSE 'x' END AS INT) FROM range(9000)"
    run = subprocess.run([*EXE, "sql", bad, "--db", str(db), "-f", "csv", "-o", str(out)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 1 and run.stderr.startswith("cabo-log: Conversion Error")
    assert out.read_text() == "before\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_a_reader_that_leaves_early(db: Path) -> None:
    """``sql ... | head``: it stops at once, quietly."""
    command = shlex.join([*EXE, "sql", "SELECT range FROM range(100000000)", "--db", str(db),
                          "-f", "csv"])
    shell = subprocess.run(f"{command} | head -3", shell=True, capture_output=True, text=True,
                           timeout=120, check=False)
    assert shell.stdout == "range\n0\n1\n" and shell.stderr == ""
