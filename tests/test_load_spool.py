"""The spool folders (``.cabo-log-load-*``) that loads killed outright leave next to the
database are removed by the next load; a live load's folder never is.

A load removes its spool however it ends, except when it is killed with SIGKILL: nothing of it
runs then. Each load holds a lock on its folder for as long as it runs, which the operating
system releases when the process dies, so a later load can tell a dead load's folder (lock
free) from a live one's (lock held), whatever database either loads into.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cabo_log.db.load import load_paths
from cabo_log.db.replay_files import SPOOL_PREFIX, remove_stale_spools, spool_folder
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="flock, FIFOs and process groups")

STALL = Path(__file__).resolve().parent / "stall"   # its sitecustomize reads FIFOs blocking
LOAD = ("import sys; from cabo_log.db import loader; loader.INLINE_BYTES = 0; "
        "loader.CHUNK_FILES = 1; from cabo_log.launch import main; "
        "sys.argv[0] = 'cabo-log'; main()")
HOLD = ("import sys; from pathlib import Path; from cabo_log.db.replay_files import "
        "spool_folder\nwith spool_folder(Path(sys.argv[1])) as folder:\n"
        "    print(folder, flush=True); sys.stdin.read()")


def spools(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if p.name.startswith(SPOOL_PREFIX)}


def wait_for(condition: Callable[[], object], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def write_logs(folder: Path, games: int) -> None:
    folder.mkdir()
    events = simulate_game("golf", players=2, seed=1, game_id="x")
    for n in range(games):
        events[0] = {**events[0], "game_id": f"g{n}"}
        (folder / f"g{n}.jsonl").write_bytes(b"".join(dumps_event(e) for e in events))


def test_a_killed_loads_spool_is_removed_by_the_next_load_and_a_live_ones_is_kept(
        tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    write_logs(logs, 4)
    os.mkfifo(logs / "zz-stuck.jsonl")   # sorted last: the worker that reads it waits there
    place = tmp_path / "dbs"
    place.mkdir()
    env = {**os.environ, "CABO_LOG_TEST_STALL": "zz-stuck.jsonl",
           "PYTHONPATH": os.pathsep.join([str(STALL), os.environ.get("PYTHONPATH", "")])}
    # a real load, held by a worker on the FIFO, killed with SIGKILL with all its processes
    load = subprocess.Popen([sys.executable, "-c", LOAD, "load", str(logs), "--db",
                             str(place / "killed.duckdb"), "--jobs", "2", "--quiet"],
                            env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        wait_for(lambda: spools(place) or load.poll() is not None)
        time.sleep(0.3)   # the workers at work: the held one on the FIFO
        assert load.poll() is None, load.stderr.read() if load.stderr else ""
        os.killpg(load.pid, signal.SIGKILL)
        load.wait(30)
    finally:
        if load.poll() is None:
            os.killpg(load.pid, signal.SIGKILL)
            load.wait()
        if load.stderr is not None:
            load.stderr.close()
    dead = spools(place)
    assert len(dead) == 1, dead           # what the killed load left behind
    (logs / "zz-stuck.jsonl").unlink()
    # a live load's spool folder in the same place (the same code, held open)
    live = subprocess.Popen([sys.executable, "-c", HOLD, str(place)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert live.stdout is not None and live.stdin is not None
        held = Path(live.stdout.readline().strip())
        assert held.parent == place and held.name not in dead
        # the next load, into another database of the same folder, in this process and
        # without workers (a small load): the dead load's folder goes, the live one's stays
        summary = load_paths([logs], place / "next.duckdb", jobs=1)
        assert summary.loaded == 4
        assert spools(place) == {held.name}
        assert remove_stale_spools(place) == 0     # asked again: still held
        live.stdin.close()
        assert live.wait(30) == 0
    finally:
        if live.poll() is None:
            live.kill()
            live.wait()
    assert spools(place) == set()    # the live load removed its own when it ended


def test_a_spool_folder_is_locked_while_in_use_and_removed_after(tmp_path: Path) -> None:
    """In one process: a folder in use is not removed, its files stay; after the block it is
    gone; a leftover folder without a holder (a killed load's) is removed with its files."""
    left = tmp_path / f"{SPOOL_PREFIX}dead"
    left.mkdir()
    (left / "3.arrow").write_bytes(b"x" * 100)
    with spool_folder(tmp_path) as folder:
        (Path(folder) / "0.arrow").write_bytes(b"rows")
        assert remove_stale_spools(tmp_path) == 1
        assert spools(tmp_path) == {Path(folder).name}
        assert (Path(folder) / "0.arrow").read_bytes() == b"rows"
    assert spools(tmp_path) == set()
