"""The read-only SQL of ``cabo-log sql``, ``report`` and the explorer's console, attacked: on a
database of views over a Parquet dataset (``load --parquet-out``), where DuckDB may read the
dataset's folder and so, by its own rules, also write it; and on a database file whose ``meta``
table names ``/`` as its dataset. Nothing is written, nothing outside is read."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from cabo_log.db.database import DatabaseError
from cabo_log.db.readonly import QueryRefused, check_query, open_readonly
from cabo_log.pages.web import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
EXE = [sys.executable, "-c", "from cabo_log.cli import main; main()"]
BASE = "http://127.0.0.1:8000"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*EXE, *args], capture_output=True, text=True, check=False,
                          timeout=120)


def digest(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with the hash of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def views(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    """A database of views over a Parquet dataset, made by the command a user runs: (the
    database, the dataset, the games in it)."""
    root = tmp_path_factory.mktemp("views")
    logs = root / "logs"
    logs.mkdir()
    files = sorted(SAMPLES.glob("*.jsonl"))[:6]
    for f in files:
        shutil.copy(f, logs / f.name)
    db, dataset = root / "views.duckdb", root / "dataset"
    run = subprocess.run([*EXE, "load", str(logs), "--cluster", "local:1", "--db", str(db),
                          "--parquet-out", str(dataset)], capture_output=True, text=True,
                         timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    return db, dataset, len(files)


def count_games(db: Path, dataset: Path) -> int:
    out = cli("sql", "SELECT count(*) AS n FROM games", "--db", str(db), "--dataset",
              str(dataset), "-f", "csv")
    assert out.returncode == 0, out.stderr
    return int(out.stdout.split()[1])


def test_a_views_database_is_read_with_the_dataset_named(views: tuple[Path, Path, int]) -> None:
    db, dataset, games = views
    assert count_games(db, dataset) == games
    report = cli("report", "cabo_call_success", "--db", str(db), "--dataset", str(dataset),
                 "-f", "csv")
    assert report.returncode == 0 and report.stdout.startswith("ruleset"), report.stderr
    # without --dataset: one line saying what to do, not a permission error per view
    bare = cli("sql", "SELECT count(*) FROM games", "--db", str(db))
    assert bare.returncode == 1 and bare.stdout == ""
    assert bare.stderr == (f"cabo-log: {db} is a file of views over a Parquet dataset (load "
                           "--parquet-out): name the dataset's folder with --dataset DIR (the "
                           f"file says it was made over {str(dataset)!r})\n")


def test_copy_over_a_part_is_refused(views: tuple[Path, Path, int], tmp_path: Path) -> None:
    """The attack that overwrote a part of the dataset: refused, through ``sql`` and through
    the explorer's console, and the dataset stays byte for byte what it was."""
    db, dataset, games = views
    before = digest(dataset)
    part = next((dataset / "games").glob("part-*.parquet"))
    attacks = [f"COPY (SELECT 'x' AS x) TO '{part}' (FORMAT parquet)",
               f"COPY games TO '{dataset}/games/part-zzz.parquet' (FORMAT parquet)",
               f"EXPORT DATABASE '{dataset}/dump'",
               f"EXPLAIN ANALYZE COPY (SELECT 1) TO '{dataset}/x.csv'",
               f"SELECT 1; COPY (SELECT 1) TO '{dataset}/y.csv'",
               f"SELECT * FROM query('COPY (SELECT 1) TO ''{dataset}/z.csv''')",
               f"CALL enable_logging(storage='file', storage_path='{dataset}/log')",
               f"SELECT * FROM enable_logging(storage='file', storage_path='{dataset}/log')",
               f"ATTACH '{dataset}/games/new.duckdb' AS n"]
    for sql in attacks:
        out = cli("sql", sql, "--db", str(db), "--dataset", str(dataset))
        assert out.returncode == 1 and out.stdout == "", sql
        assert out.stderr.startswith("cabo-log: ") and len(out.stderr.splitlines()) == 1, sql
    with TestClient(create_app(db, dataset=dataset, sql_seconds=5.0), base_url=BASE) as client:
        for sql in attacks:
            page = client.get("/sql", params={"q": sql})
            assert page.status_code == 400, sql
        ok = client.get("/sql", params={"q": "SELECT count(*) AS n FROM games"})
        assert ok.status_code == 200 and f'<td class="n">{games}</td>' in ok.text
    assert digest(dataset) == before
    assert count_games(db, dataset) == games


def test_the_dataset_is_read_only_folder_nothing_outside(views: tuple[Path, Path, int],
                                                         tmp_path: Path) -> None:
    db, dataset, _ = views
    secret = tmp_path / "secret.txt"
    secret.write_text("the secret")
    for sql in [f"SELECT * FROM read_text('{secret}')",
                f"SELECT * FROM read_text('{dataset}/../../{secret.parent.name}/secret.txt')",
                "SELECT * FROM read_text('/etc/passwd')", "SELECT * FROM glob('/etc/*')"]:
        out = cli("sql", sql, "--db", str(db), "--dataset", str(dataset))
        assert out.returncode == 1 and "secret" not in out.stdout and "root:" not in out.stdout
    missing = cli("sql", "SELECT 1", "--db", str(db), "--dataset", str(tmp_path / "none"))
    assert missing.returncode == 1
    assert missing.stderr == f"cabo-log: --dataset {tmp_path / 'none'}: no such folder\n"


@pytest.fixture(scope="module")
def forged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An ordinary database file whose ``meta`` says its dataset is ``/``."""
    root = tmp_path_factory.mktemp("forged")
    logs = root / "logs"
    logs.mkdir()
    shutil.copy(SAMPLES / "golf-snaps.jsonl", logs)
    db = root / "forged.duckdb"
    assert cli("load", str(logs), "--db", str(db)).returncode == 0
    con = duckdb.connect(str(db))
    con.execute("INSERT INTO meta VALUES ('parquet', '/')")
    con.close()
    return db


@pytest.mark.parametrize("sql", [
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM read_csv('/etc/passwd', sep=':', header=false)",
    "SELECT count(*) FROM glob('/etc/*')",
    "COPY (SELECT 'x' AS x) TO '{dir}/out.csv'",
    "COPY (SELECT 'x' AS x) TO '/tmp/cabo-forged-{pid}.csv'",
])
def test_a_database_cannot_grant_itself_files(forged: Path, tmp_path: Path, sql: str) -> None:
    query = sql.format(dir=tmp_path, pid=tmp_path.name)
    for extra in ([], ["--dataset", str(tmp_path)]):     # also with a folder the user named
        out = cli("sql", query, "--db", str(forged), *extra)
        assert out.returncode == 1, (query, extra, out.stdout)
        assert "root:" not in out.stdout and out.stdout == ""
    assert not list(tmp_path.iterdir())
    assert not Path(f"/tmp/cabo-forged-{tmp_path.name}.csv").exists()


def test_the_forged_file_gets_nothing_in_the_console(forged: Path, tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="--dataset DIR"):
        create_app(forged)
    with TestClient(create_app(forged, dataset=tmp_path), base_url=BASE) as client:
        for sql in ("SELECT * FROM read_text('/etc/passwd')",
                    f"COPY (SELECT 1) TO '{tmp_path}/x.csv'"):
            page = client.get("/sql", params={"q": sql})
            assert page.status_code == 400 and "root:" not in page.text
        assert client.get("/sql", params={"q": "SELECT count(*) FROM games"}).status_code == 200
    assert not list(tmp_path.iterdir())


@pytest.fixture
def con(forged: Path, tmp_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    c = open_readonly(forged, dataset=tmp_path)
    yield c
    c.close()


@pytest.mark.parametrize("sql", [
    "COPY games TO 'x.csv'", "EXPORT DATABASE 'x'", "ATTACH 'x.duckdb'", "DETACH x",
    "INSTALL httpfs", "LOAD httpfs", "SET threads = 1", "RESET threads", "USE memory",
    "PRAGMA enable_profiling", "CALL checkpoint()", "CHECKPOINT", "CREATE TEMP TABLE t AS "
    "SELECT 1", "CREATE MACRO m(x) AS x", "PREPARE p AS SELECT 1", "EXECUTE p",
    "DROP TABLE games", "DELETE FROM games", "UPDATE extensions", "VACUUM",
    "SELECT 1; SELECT 2", "", ";", "EXPLAIN ANALYZE COPY games TO 'x.csv'",
    "EXPLAIN (FORMAT json) SELECT 1", "PIVOT games ON ruleset USING count(*)",
])
def test_only_one_select_passes(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    with pytest.raises(QueryRefused):
        check_query(con, sql)


@pytest.mark.parametrize("sql", [
    "SELECT 1", "FROM games", "WITH a AS (SELECT 1) SELECT * FROM a", "DESCRIBE games",
    "SHOW TABLES", "SUMMARIZE games", "VALUES (1)", "TABLE games", "SELECT 1;",
    "-- a comment\nEXPLAIN SELECT count(*) FROM games", "explain analyze FROM games",
    "PIVOT games ON ruleset IN ('golf') USING count(*)",
])
def test_every_kind_of_select_passes(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    check_query(con, sql)
    assert con.execute(sql).fetchall() is not None
