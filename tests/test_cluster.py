"""``load --cluster``: a 2-worker Dask LocalCluster (processes) gives the same tables as a local
load, row for row; re-runs skip what is done; a worker killed mid-task is retried by Dask and
nothing is duplicated. Expectations come from a local load of the same files.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cloudpickle
import duckdb
import pytest
import test_load
from test_load import query, snapshot, write

from cabo_log.db.cluster import replay_partition
from cabo_log.db.load import Outcome, Task, load_paths

cloudpickle.register_pickle_by_value(sys.modules[__name__])
SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
logs = test_load.logs   # the simulated games, a module fixture


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """One 2-worker LocalCluster in processes for the module; tests reach it by address."""
    from distributed import LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def corpus(tmp_path: Path, logs: dict[str, list[dict[str, Any]]]) -> Path:
    folder = tmp_path / "logs"
    write(folder, logs)
    bad = SAMPLES / "invalid" / "syntax-bad-field.jsonl"
    (folder / "bad.jsonl").write_bytes(bad.read_bytes())
    first = next(iter(logs))   # the same game under a second name: rejected as a duplicate
    (folder / "zz-copy.jsonl").write_bytes((folder / f"{first}.jsonl").read_bytes())
    return folder


def cluster_load(folder: Path, db: Path, address: str, **kwargs: Any) -> Any:
    from cabo_log.db.cluster import load_cluster

    return load_cluster([folder], db, address, **kwargs)


def test_same_tables_as_a_local_load(tmp_path: Path, scheduler: str,
                                     logs: dict[str, list[dict[str, Any]]]) -> None:
    folder = corpus(tmp_path, logs)
    local = load_paths([folder], tmp_path / "local.duckdb", jobs=1)
    summary = cluster_load(folder, tmp_path / "cluster.duckdb", scheduler)
    assert (summary.loaded, len(summary.rejected)) == (local.loaded, 2) == (len(logs), 2)
    expected = snapshot(tmp_path / "local.duckdb")
    assert sum(len(rows) for rows in expected.values()) > 1000
    assert snapshot(tmp_path / "cluster.duckdb") == expected
    again = cluster_load(folder, tmp_path / "cluster.duckdb", scheduler)
    assert (again.loaded, again.skipped, again.replayed) == (0, len(logs), 2)
    assert snapshot(tmp_path / "cluster.duckdb") == expected


def test_parquet_dataset_with_views_is_incremental(
        tmp_path: Path, scheduler: str, logs: dict[str, list[dict[str, Any]]]) -> None:
    folder = corpus(tmp_path, logs)
    views, out = tmp_path / "views.duckdb", tmp_path / "dataset"
    started = datetime.now(UTC)
    summary = cluster_load(folder, views, scheduler, parquet_out=out)
    loaded_at = dict(query(views, "SELECT path, loaded_at FROM files"))
    assert len(loaded_at) == len(logs)
    assert all(started <= t <= datetime.now(UTC) for t in loaded_at.values())
    assert (summary.loaded, len(summary.rejected)) == (len(logs), 2)
    assert (out / "_manifest").is_dir() and any((out / "events").glob("part-*.parquet"))
    load_paths([folder], tmp_path / "local.duckdb", jobs=1)
    assert snapshot(views) == snapshot(tmp_path / "local.duckdb")

    again = cluster_load(folder, views, scheduler, parquet_out=out)
    assert (again.loaded, again.replayed) == (0, 0)
    assert snapshot(views) == snapshot(tmp_path / "local.duckdb")

    # a game that grew: its partition is replayed again, nothing else changes or doubles
    first = folder / f"{next(iter(logs))}.jsonl"
    data = first.read_bytes().split(b"\n")
    first.write_bytes(b"\n".join(data[:len(data) // 2]) + b"\n")
    os.utime(first, ns=(1, 1))
    cluster_load(folder, views, scheduler, parquet_out=out)
    again_at = dict(query(views, "SELECT path, loaded_at FROM files"))
    assert again_at[str(first)] > loaded_at[str(first)]   # its partition was written again
    fresh = tmp_path / "fresh.duckdb"
    load_paths([folder], fresh, jobs=1)
    assert snapshot(views) == snapshot(fresh)


def _kill_once(marker: str, part: str, tasks: list[Task], out_dir: str) -> list[Outcome]:
    """The task, except that the first attempt kills its worker process mid-task (after
    writing some of its Parquet files)."""
    result = replay_partition(part, tasks, out_dir)
    try:
        os.unlink(marker)
    except FileNotFoundError:
        return result
    os._exit(1)


def test_a_worker_killed_mid_task_is_retried_and_nothing_doubles(
        tmp_path: Path, scheduler: str, logs: dict[str, list[dict[str, Any]]]) -> None:
    folder = corpus(tmp_path, logs)
    marker = tmp_path / "kill-once"
    marker.write_text("")
    replay = functools.partial(_kill_once, str(marker))
    out, views = tmp_path / "dataset", tmp_path / "views.duckdb"
    summary = cluster_load(folder, views, scheduler, parquet_out=out, replay=replay)
    assert not marker.exists()   # the worker did die once
    assert summary.loaded == len(logs)
    load_paths([folder], tmp_path / "local.duckdb", jobs=1)
    assert snapshot(views) == snapshot(tmp_path / "local.duckdb")

    marker.write_text("")
    db = tmp_path / "cluster.duckdb"
    cluster_load(folder, db, scheduler, replay=replay)
    assert not marker.exists()
    assert snapshot(db) == snapshot(tmp_path / "local.duckdb")


def test_cli_local_cluster_and_views_for_report(tmp_path: Path,
                                                logs: dict[str, list[dict[str, Any]]]) -> None:
    folder = tmp_path / "logs"
    write(folder, logs)
    exe = Path(sys.executable).with_name("cabo-log")
    views, out = tmp_path / "views.duckdb", tmp_path / "dataset"
    run = subprocess.run([str(exe), "load", str(folder), "--cluster", "local:1", "--db",
                          str(views), "--parquet-out", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"{views}: loaded {len(logs)} games")
    report = subprocess.run([str(exe), "sql", "SELECT count(*) FROM games", "--db", str(views),
                             "--dataset", str(out), "--format", "csv"],
                            capture_output=True, text=True, timeout=60)
    assert report.stdout.split() == ["count_star()", str(len(logs))]
    con = duckdb.connect(str(views), read_only=True)
    try:
        kinds = {r[0] for r in con.execute("SELECT table_type FROM information_schema.tables "
                                           "WHERE table_name = 'events'").fetchall()}
    finally:
        con.close()
    assert kinds == {"VIEW"}
    usage = subprocess.run([str(exe), "load", str(folder), "--parquet-out", str(out)],
                           capture_output=True, text=True, timeout=60)
    assert usage.returncode == 2 and "--parquet-out needs --cluster" in usage.stderr
