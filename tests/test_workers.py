"""The worker pool (``cabo_log.workers``) and the commands that use it besides ``load``:
results in order, failures raised, workers that ignore signals, die with their parent and are
always reaped; ``simulate --jobs`` and ``timeline DIR --jobs`` give the same files for any
number of workers, and stop cleanly."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cabo_log.log.replay import replay_file
from cabo_log.pages.timeline_files import write_folder
from cabo_log.play.simulate import write_games
from cabo_log.workers import Pool, WorkerDied, cores, worker_count

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc")


def square_slowly(i: int) -> tuple[int, int]:
    time.sleep(max(0, 10 - i) * 0.01)     # the first items take longest: results come unordered
    return i * i, os.getpid()


def fail_on_three(i: int) -> int:
    if i == 3:
        raise ValueError(f"no {i}")
    return i


def die_on_two(i: int) -> int:
    if i == 2:
        os._exit(3)
    return i


def sleep_for(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_results_come_in_order_from_several_workers() -> None:
    with Pool(2) as pool:
        results = list(pool.imap(square_slowly, range(12)))
        pids = [w.process.pid for w in pool.workers]
    assert [r for r, _ in results] == [i * i for i in range(12)]
    assert {pid for _, pid in results} == set(pids) and len(pids) == 2
    assert os.getpid() not in pids
    assert gone_within(pids, 5)                 # told to leave, and reaped
    with Pool(1) as pool:                       # one job: in this process, no workers
        assert [r for r, pid in pool.imap(square_slowly, range(3))] == [0, 1, 4]
        assert pool.workers == []


def test_an_error_in_a_task_is_raised_in_its_turn_and_the_workers_are_reaped() -> None:
    pids: list[int] = []
    seen: list[int] = []
    for _ in range(3):
        seen.clear()
        with pytest.raises(ValueError, match="no 3"), Pool(2) as pool:
            for result in pool.imap(fail_on_three, range(8)):
                seen.append(result)
                pids = [w.process.pid for w in pool.workers]
        assert seen == [0, 1, 2]          # the results before the failing item, always
        assert pids and gone_within(pids, 5)


def test_a_worker_that_dies_is_reported() -> None:
    with pytest.raises(WorkerDied, match="exit status 3"), Pool(2) as pool:
        list(pool.imap(die_on_two, range(6)))


@linux
def test_workers_ignore_signals_and_are_killed_when_the_block_fails() -> None:
    """SIGINT and SIGTERM sent to a worker change nothing (the parent decides); an exception
    in the ``with`` block kills the workers at once, long tasks or not."""
    with Pool(2) as pool:
        results = pool.imap(sleep_for, [0.5, 0.5])
        pool.start()
        for worker in pool.workers:
            os.kill(worker.process.pid, signal.SIGINT)
            os.kill(worker.process.pid, signal.SIGTERM)
        assert list(results) == [0.5, 0.5]
    pids: list[int] = []
    started = time.monotonic()
    with pytest.raises(RuntimeError), Pool(2) as pool:
        results = pool.imap(sleep_for, [0.0, 60.0, 60.0, 60.0])
        assert next(results) == 0.0
        pids = [w.process.pid for w in pool.workers]
        raise RuntimeError("stop")
    assert gone_within(pids, 0) and time.monotonic() - started < 10


PARENT = """
import os, signal, sys, time
from cabo_log.workers import Pool
from tests_workers_helper import sleep_for
pool = Pool(2, fork=sys.argv[1] == "fork")
pool.start()
for worker in pool.workers:   # they take no notice
    os.kill(worker.process.pid, signal.SIGINT)
    os.kill(worker.process.pid, signal.SIGTERM)
assert list(pool.imap(sleep_for, [0.2, 0.1, 0.0])) == [0.2, 0.1, 0.0]
results = pool.imap(sleep_for, [60.0, 60.0], now=True)   # each worker has its task
print(" ".join(str(w.process.pid) for w in pool.workers),
      *sorted({type(w.process).__name__ for w in pool.workers}), flush=True)
for _ in results:
    pass
"""


@linux
@pytest.mark.parametrize("start", ["forkserver", "fork"])
def test_workers_leave_when_their_parent_is_killed(tmp_path: Path, start: str) -> None:
    """Whether they come from the forkserver or are forked from their parent (``fork=True``,
    in a process without threads), the workers ignore stop signals and leave when their
    parent is killed: a forked one closed its copy of the lifeline's writing end."""
    (tmp_path / "tests_workers_helper.py").write_text(
        "import time\n\ndef sleep_for(s: float) -> float:\n    time.sleep(s)\n    return s\n")
    proc = subprocess.Popen([sys.executable, "-c", PARENT, start], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(tmp_path)},
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout is not None
        *numbers, kind = proc.stdout.readline().split()
        assert kind == {"fork": "ForkProcess", "forkserver": "ForkServerProcess"}[start]
        pids = [int(p) for p in numbers]
        assert len(pids) == 2 and all(alive(pid) for pid in pids)
        proc.kill()                                   # no chance to clean up
        proc.wait(30)
        assert gone_within(pids, 5)                   # the lifeline told them
    finally:
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(ProcessLookupError):   # (the group: workers that stayed)
            os.killpg(proc.pid, signal.SIGKILL)


def test_worker_count_is_capped_by_cores_and_tasks() -> None:
    assert worker_count(1000, 10_000) == cores()
    assert worker_count(None, 10_000) == cores()
    assert worker_count(1000, 1) == 1
    assert worker_count(1, 10_000) == 1
    assert worker_count(None, 0) == 1


@pytest.mark.parametrize(("said", "seen"), [("3", 3), ("1", 1), ("0", None), ("default", None),
                                            ("-2", None), ("", None),
                                            ("\u00b2", None)])
def test_the_cores_are_those_python_cpu_count_says(
        monkeypatch: pytest.MonkeyPatch, said: str, seen: int | None) -> None:
    """A positive number is taken as it is; anything else leaves the CPU affinity."""
    monkeypatch.setenv("PYTHON_CPU_COUNT", said)
    assert cores() == (seen if seen is not None else len(os.sched_getaffinity(0)))
    assert worker_count(None, 10_000) == cores()


# --- simulate and timeline --------------------------------------------------------------------

def test_simulate_writes_the_same_bytes_for_any_number_of_jobs(tmp_path: Path) -> None:
    args = {"ruleset": "golf", "games": 5, "players": 2, "seed": 7, "bots": "greedy,random"}
    one = write_games(tmp_path / "one", jobs=1, **args)
    two = write_games(tmp_path / "two", jobs=2, **args)
    assert [p.name for p in one.files] == [p.name for p in two.files]
    assert (one.games, one.rounds, one.events, one.bytes) == \
        (two.games, two.rounds, two.events, two.bytes)
    for a, b in zip(one.files, two.files, strict=True):
        assert a.read_bytes() == b.read_bytes()
    assert sorted(p.name for p in (tmp_path / "two").iterdir()) == [p.name for p in two.files]


def test_timeline_folder_pages_are_the_same_for_any_number_of_jobs(tmp_path: Path) -> None:
    logs = write_games(tmp_path / "logs", "golf", games=2, players=2, options={"target": 15},
                       seed=1, jobs=1)
    (tmp_path / "logs" / "broken.jsonl").write_bytes(logs.files[0].read_bytes()[:-30] + b"\n")
    counted: list[int] = []
    one = write_folder(tmp_path / "logs", tmp_path / "one", cdn=True, jobs=1)
    two = write_folder(tmp_path / "logs", tmp_path / "two", cdn=True, jobs=2,
                       progress=counted.append)
    assert counted == [1] * 3
    assert one.games == two.games and one.errors == two.errors and len(two.errors) == 1
    for page in sorted((tmp_path / "one").iterdir()):
        assert page.read_bytes() == (tmp_path / "two" / page.name).read_bytes(), page.name
    assert len(list((tmp_path / "two").iterdir())) == 4      # 3 pages and the index


@linux
def test_simulate_stops_cleanly_on_sigint_to_its_group(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from cabo_log.cli import main; main()", "simulate", "-r",
         "edition1", "-g", "400", "-o", str(out), "--jobs", "2", "--no-progress"],
        start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (out.exists() and len(list(out.glob("*.jsonl"))) >= 2):
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)
    sent = time.monotonic()
    _, err = proc.communicate(timeout=60)
    assert time.monotonic() - sent < 5
    assert proc.returncode == 130
    assert err.splitlines() == ["cabo-log: interrupted; the files written are whole"]
    files = sorted(out.iterdir())
    assert files and all(f.suffix == ".jsonl" for f in files)    # no half-written file
    for log in files:
        assert replay_file(log).error is None
    group = [pid for pid in os.listdir("/proc") if pid.isdigit() and alive(int(pid))
             and _group_of(int(pid)) == proc.pid]
    deadline = time.monotonic() + 3
    while group and time.monotonic() < deadline:
        time.sleep(0.05)
        group = [pid for pid in group if alive(int(pid))]
    assert group == []


def _group_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[2])
    except (OSError, IndexError, ValueError):
        return None


PROBE_PARENT = """
from cabo_log.workers import Pool
import probe
def where(_: int) -> str:
    import probe
    return probe.WHERE
if __name__ == "__main__":
    with Pool(2, preload=["probe"]) as pool:
        print(probe.WHERE, *pool.imap(where, [1, 2]))
"""


@linux
def test_workers_import_what_their_parent_imports_whatever_the_working_folder(
        tmp_path: Path) -> None:
    """Started in a folder holding a module of the same name (a checkout's pure ``engine``
    beside a compiled build first on ``PYTHONPATH``), the workers still import the parent's."""
    for where in ("first", "cwd"):
        (tmp_path / where).mkdir()
        (tmp_path / where / "probe.py").write_text(f"WHERE = {where!r}\n")
    (tmp_path / "parent.py").write_text(PROBE_PARENT)
    out = subprocess.run([sys.executable, str(tmp_path / "parent.py")], cwd=tmp_path / "cwd",
                         env={**os.environ, "PYTHONPATH": str(tmp_path / "first")},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["first", "first", "first"]


SCRIPT_PARENT = """
import marker       # as the console script imports the command line (typer, click)
from cabo_log.workers import Pool
from helper import imported
if __name__ == "__main__":
    with Pool(2) as pool:
        print(*pool.imap(imported, ["marker", "helper"]))
"""


@linux
def test_workers_do_not_run_the_parents_main_script_when_the_work_lives_elsewhere(
        tmp_path: Path) -> None:
    """multiprocessing has each worker import the parent's main script again (for functions
    defined there); ``cabo-log``'s is the console entry point, so every worker imported the
    command line before its first task. A pool whose work is defined in a module leaves the
    main script alone (work defined in ``__main__``: the test above)."""
    (tmp_path / "marker.py").write_text("")
    (tmp_path / "helper.py").write_text(
        "import sys\n\ndef imported(name: str) -> bool:\n    return name in sys.modules\n")
    (tmp_path / "parent.py").write_text(SCRIPT_PARENT)
    out = subprocess.run([sys.executable, str(tmp_path / "parent.py")], cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True"]
