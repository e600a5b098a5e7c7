"""The start of ``cabo-log load``: a command imports only its own module, and the workers are
forked from it before the database is opened (before typer is imported, from the command
line), with nothing imported twice, and go away with the load however it ends.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import duckdb
import pytest
import typer
from load_command import tuned_command

from cabo_log import cli
from cabo_log.db import load as loadmod
from cabo_log.db.listing import count_logs, survey_logs
from cabo_log.db.load import load_paths
from cabo_log.db.settings import LoadSettings
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

# a load whose workers start (no load is too small for them) from the command line
LOAD = tuned_command(inline_bytes=0)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("start") / "logs"
    out.mkdir()
    events = simulate_game("golf", players=2, seed=5, game_id="x")
    for i in range(4):
        events[0] = {**events[0], "game_id": f"g{i}"}
        (out / f"g{i}.jsonl").write_bytes(b"".join(dumps_event(e) for e in events))
    return out


# --- the command line imports only what the command needs --------------------------------------

def test_each_command_is_registered_by_the_module_the_map_names() -> None:
    """``COMMAND_MODULES`` is exactly what each module registers, so that ``cabo-log NAME``
    registering only NAME's module finds NAME (and ``--help`` still lists every command)."""
    from importlib import import_module

    for module in set(cli.COMMAND_MODULES.values()):
        app = typer.Typer()
        import_module(f"cabo_log.cli.{module}").register(app)
        names = {c.name for c in app.registered_commands}
        assert names == {n for n, m in cli.COMMAND_MODULES.items() if m == module}, module


def test_a_command_imports_no_other_commands_library() -> None:
    """``cabo-log load`` does not import the analysis, the bots or the pages (nor Dask's side
    of the load); ``--help`` still lists every command."""
    code = ("import sys; from cabo_log import cli; cli.register_for(['load']); "
            "print(sorted(c.name for c in cli.app.registered_commands)); "
            "print(sorted(m for m in sys.modules if m.startswith(('cabo_log.analysis', "
            "'cabo_log.pages', 'cabo_log.play', 'cabo_log.db.cluster'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["['export', 'load', 'report', 'sql']", "[]"]
    helped = subprocess.run([sys.executable, "-c", "from cabo_log.launch import main; main()",
                             "--help"], capture_output=True, text=True, check=True,
                            env={**os.environ, "COLUMNS": "200"}).stdout
    for name in cli.COMMAND_MODULES:
        assert f" {name} " in helped, name


def test_the_load_command_imports_neither_duckdb_nor_arrow_nor_the_replay(
        tmp_path: Path, folder: Path) -> None:
    """Up to ``load_paths``, ``cabo-log load`` of a load too small for workers imports none of
    DuckDB, Arrow or the replay; one with workers has imported Arrow and the replay (forked
    into them) before typer, but not DuckDB, and its process runs no other thread."""
    code = ("import os, sys; from functools import partial; from cabo_log.db import load; "
            "from cabo_log.db.settings import LoadSettings; load.start_workers = partial("
            "load.start_workers, settings=LoadSettings(inline_bytes={limit})); "
            "load.load_paths = lambda *a, **k: print(sorted(m for m in ('duckdb', 'pyarrow', "
            "'engine', 'msgspec', 'cabo_log.db.rows', 'cabo_log.db.chunk', "
            "'cabo_log.log.replay') if m in sys.modules), len(os.listdir('/proc/self/task'))) "
            "or sys.exit(0); "
            "from cabo_log.launch import main; sys.argv[0] = 'cabo-log'; main()")
    for limit, imported in ((1 << 40, []),
                            (0, ["cabo_log.db.chunk", "cabo_log.db.rows", "cabo_log.log.replay",
                                 "engine", "msgspec", "pyarrow"])):
        out = subprocess.run([sys.executable, "-c", code.format(limit=limit), "load",
                              str(folder), "--db", str(tmp_path / "x.duckdb")],
                             capture_output=True, text=True)
        assert (out.returncode, out.stdout) == (0, f"{imported} 1\n"), out.stderr


# --- the workers start first ---------------------------------------------------------------------

def test_the_survey_counts_every_log_and_stats_only_until_enough(folder: Path,
                                                                  tmp_path: Path) -> None:
    sizes = sorted(p.stat().st_size for p in folder.glob("*.jsonl"))
    assert survey_logs([folder], 1) == (4, True)
    assert survey_logs([folder], sum(sizes)) == (4, True)
    assert survey_logs([folder], sum(sizes) + 1) == (4, False)
    assert survey_logs([folder, folder / "missing.jsonl"], 1)[0] == count_logs([folder]) + 1
    assert survey_logs([tmp_path], 1) == (0, False)


def test_the_workers_start_before_the_database_is_opened(
        tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A load big enough for workers starts them first; a small one, or one with
    ``--jobs 1``, starts none. The rows are those of a load in one process."""
    from cabo_log.db import load_connection

    calls: list[str] = []
    start_pool = loadmod._start_pool

    def started(jobs: int | None, settings: LoadSettings) -> Any:
        calls.append("workers")
        return start_pool(jobs, settings)

    monkeypatch.setattr(loadmod, "_start_pool", started)
    opened = load_connection.open_for_load

    def open_for_load(database: Path, settings: LoadSettings) -> Any:
        calls.append("open")
        return opened(database, settings)

    monkeypatch.setattr(load_connection, "open_for_load", open_for_load)
    load_paths([folder], tmp_path / "small.duckdb", jobs=2)
    assert calls == ["open"]
    calls.clear()
    load_paths([folder], tmp_path / "one.duckdb", jobs=1, settings=LoadSettings(inline_bytes=0))
    assert calls == ["open"]
    calls.clear()
    summary = load_paths([folder], tmp_path / "two.duckdb", jobs=2,
                         settings=LoadSettings(inline_bytes=0, chunk_files=1))
    assert summary.loaded == 4
    assert calls[:2] == ["workers", "open"]

    def rows(db: Path) -> list[tuple[Any, ...]]:
        con = duckdb.connect(str(db), read_only=True)
        try:
            return con.execute("SELECT * FROM events ORDER BY ALL").fetchall()
        finally:
            con.close()

    assert rows(tmp_path / "two.duckdb") == rows(tmp_path / "one.duckdb")


def test_the_command_line_is_read_early_only_when_it_is_plain() -> None:
    """``cabo-log load``'s paths and ``--jobs`` as read before typer parses (to start the
    workers before typer is imported); None for anything typer alone should judge."""
    from cabo_log.launch import early_load_args

    assert early_load_args(["a", "b.jsonl", "--db", "x.duckdb", "-q"]) == (["a", "b.jsonl"], None)
    assert early_load_args(["--jobs", "3", "a", "--force"]) == (["a"], 3)
    assert early_load_args(["--jobs=2", "--db=x", "-j", "1", "a"]) == (["a"], 1)
    assert early_load_args(["--db", "-", "--", "-a", "--b"]) == (["-a", "--b"], None)
    assert early_load_args(["--analyse", "--rollouts", "4", "a"]) == (["a"], None)
    for odd in (["--cluster", "local:2", "a"], ["a", "--help"], ["-j4", "a"], ["-qj", "2"],
                ["--jobs", "0", "a"], ["--jobs", "x", "a"], ["a", "--new-option"], ["-j=2"]):
        assert early_load_args(odd) is None, odd


def test_the_command_starts_the_workers_before_typer_is_imported(
        tmp_path: Path, folder: Path) -> None:
    """``main`` starts the workers for a load big enough for workers before typer is
    imported (the workers are forked from a process without the command line), and
    ``load_paths`` takes them; a small load or ``--jobs 1`` starts none there."""
    code = ("import sys; from functools import partial; from cabo_log.db import load; "
            "from cabo_log.db.settings import LoadSettings; load.start_workers = partial("
            "load.start_workers, settings=LoadSettings(inline_bytes={limit})); "
            "calls = []; start = load._start_pool; "
            "load._start_pool = lambda *a: calls.append('typer' in sys.modules) or start(*a); "
            "load.load_paths = lambda *a, **k: print(calls, load._take_early({jobs}) is not "
            "None) or sys.exit(0); "
            "from cabo_log.launch import main; sys.argv[0] = 'cabo-log'; main()")
    for limit, args, expected in ((0, [], "[False] True"),
                                  (0, ["--jobs", "1"], "[] False"),
                                  (1 << 40, [], "[] False")):
        jobs = args[1] if args else None
        out = subprocess.run([sys.executable, "-c", code.format(limit=limit, jobs=jobs), "load",
                              str(folder), "--db", str(tmp_path / "x.duckdb"), *args],
                             capture_output=True, text=True)
        assert (out.returncode, out.stdout.strip()) == (0, expected), out.stderr


def _group(pgid: int) -> list[str]:
    """The live processes of a process group."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        state, _ppid, group = stat[stat.rindex(")") + 2:].split()[:3]
        if int(group) == pgid and state != "Z":
            found.append(pid)
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc")
def test_a_bad_database_leaves_no_process_behind(tmp_path: Path, folder: Path) -> None:
    """The workers started before the database could not be opened go with the command: one
    line, exit 1, and the command's process group empty soon after."""
    not_duck = tmp_path / "notes.duckdb"
    not_duck.write_bytes(b"these are my notes, not a database\n" * 20)
    proc = subprocess.Popen([sys.executable, "-c", LOAD, "load", str(folder), "--db",
                             str(not_duck)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    assert err.startswith("cabo-log: ") and len(err.splitlines()) == 1, err
    deadline = time.monotonic() + 5
    while _group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _group(proc.pid) == []
    assert not_duck.read_bytes() == b"these are my notes, not a database\n" * 20


def test_the_early_reading_knows_every_option_of_load() -> None:
    """``early_load_args`` keeps its own list of ``load``'s options (it runs before typer is
    imported): an option added to the command but not to the list would make every load with
    it start its workers late (the list answers None), and one taking a value but listed as
    a flag would read its value as a path. The lists must be exactly the command's options."""
    import typer.main

    from cabo_log.cli import app, register_all
    from cabo_log.launch import LOAD_FLAGS, LOAD_VALUED

    register_all()
    command = typer.main.get_command(app).commands["load"]
    flags: set[str] = set()
    valued: set[str] = set()
    for param in command.params:
        if param.param_type_name != "option":
            continue
        names = {*param.opts, *param.secondary_opts}
        (flags if param.is_flag else valued).update(names)
    assert flags == set(LOAD_FLAGS)
    assert valued == set(LOAD_VALUED)


# --- a finished load leaves without the interpreter's teardown -------------------------------

def test_a_finished_load_leaves_at_once_with_its_output_and_status(
        tmp_path: Path, folder: Path) -> None:
    """``launch.leave``: the summary (stdout, a pipe) and the line of a rejected log (stderr)
    are all there, the status is the command's (1: a log was rejected; 0 with
    ``--allow-errors``), the database is closed (no write-ahead log left) and whole; an
    ``atexit`` handler of the process never runs (the teardown was skipped)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for path in folder.iterdir():
        (logs / path.name).write_bytes(path.read_bytes())
    (logs / "bad.jsonl").write_bytes(b'{"type": "game"}\n')
    db = tmp_path / "cabo.duckdb"
    code = ("import atexit, sys; atexit.register(print, 'torn down'); " + LOAD)
    run = subprocess.run([sys.executable, "-c", code, "load", str(logs), "--db", str(db)],
                         capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert run.stdout.startswith(f"{db}: loaded 4 games") and "torn down" not in run.stdout
    assert f"{logs / 'bad.jsonl'}:1:" in run.stderr
    assert not Path(f"{db}.wal").exists()
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (4,)
    finally:
        con.close()
    again = subprocess.run([sys.executable, "-c", code, "load", str(logs), "--db", str(db),
                            "--allow-errors"], capture_output=True, text=True)
    assert again.returncode == 0 and "skipped 4 unchanged" in again.stdout, again.stderr
    other = subprocess.run([sys.executable, "-c", "import atexit; atexit.register(print, "
                            "'torn down'); from cabo_log.launch import main; main()",
                            "--version"], capture_output=True, text=True)
    assert other.stdout.endswith("torn down\n")   # any other command ends as usual


# --- a new database: the workers replay before it is open ---------------------------------------

def test_a_new_databases_workers_replay_before_it_is_opened(
        tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A database that does not exist yet holds nothing to plan against: the workers get the
    first chunks before DuckDB opens it (a spool file is written meanwhile). An existing
    database is opened first (its ``files`` say what is unchanged)."""
    from cabo_log.db import load_connection
    from cabo_log.db.replay_files import SPOOL_PREFIX

    spooled_before_open: list[bool] = []
    opened = load_connection.open_for_load
    patience = [20.0]   # seconds to wait for the first spool file

    def watched(database: Any, settings: LoadSettings) -> Any:
        deadline = time.monotonic() + patience[0]
        found = False
        while not found:
            found = any(p.name.startswith(SPOOL_PREFIX) and any(p.iterdir())
                        for p in Path(database).parent.iterdir() if p.is_dir())
            if not found and time.monotonic() > deadline:
                break
            time.sleep(0.02)
        spooled_before_open.append(found)
        return opened(database, settings)

    monkeypatch.setattr(load_connection, "open_for_load", watched)
    small = LoadSettings(inline_bytes=0, chunk_files=1)
    db = tmp_path / "new" / "cabo.duckdb"
    db.parent.mkdir()
    assert load_paths([folder], db, jobs=2, settings=small).loaded == 4
    assert spooled_before_open == [True]
    patience[0] = 0.0   # look once: the workers have not started
    summary = load_paths([folder], db, jobs=2, force=True,
                         settings=small)   # existing: opened first
    assert summary.loaded == 4 and spooled_before_open == [True, False]


def test_a_new_database_that_cannot_be_opened_stops_the_workers_it_started(
        tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers started on a new database's first chunks are killed and their spool
    removed when the database then cannot be opened; the error is the database's."""
    import multiprocessing

    import duckdb as duck

    from cabo_log.db import load_connection
    from cabo_log.db.replay_files import SPOOL_PREFIX

    def refused(database: Any, settings: LoadSettings) -> Any:
        raise duck.IOException("cannot open the file (simulated)")

    monkeypatch.setattr(load_connection, "open_for_load", refused)
    db = tmp_path / "cabo.duckdb"
    with pytest.raises(duck.IOException, match="simulated"):
        load_paths([folder], db, jobs=2, settings=LoadSettings(inline_bytes=0, chunk_files=1))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(SPOOL_PREFIX)]
    assert not [p for p in multiprocessing.active_children() if "cabo-log-worker" in p.name]


# --- Arrow's allocator, and workers forked from the load's process --------------------------------

ALLOCATOR = """
import os, sys
from cabo_log.db import load
from cabo_log.db.settings import LoadSettings
from probe import arrow_pool
settings = LoadSettings(inline_bytes=0)
load.start_workers([sys.argv[1]], 2, settings)
pool = load._early[1]
threads = len(os.listdir("/proc/self/task"))
pools = sorted(set(pool.imap(arrow_pool, [1, 2])))
print(sorted({type(w.process).__name__ for w in pool.workers}), threads, pools)
load.load_paths([sys.argv[1]], sys.argv[2], jobs=2, settings=settings)
import pyarrow as pa
print(pa.default_memory_pool().backend_name, os.environ.get("ARROW_DEFAULT_MEMORY_POOL"),
      os.environ.get("JE_ARROW_MALLOC_CONF"))
"""

PROBE = """
def arrow_pool(_: int) -> str:
    import pyarrow as pa
    return pa.default_memory_pool().backend_name
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or (os.cpu_count() or 1) < 2,
                    reason="counts threads in /proc; needs 2 workers")
@pytest.mark.parametrize("given", [None, "jemalloc"])
def test_the_load_allocates_arrow_with_the_settings_allocator_unless_the_environment_names_one(
        tmp_path: Path, folder: Path, given: str | None) -> None:
    """``LoadSettings.arrow_memory_pool`` ("system"): this process imports Arrow with it,
    and so do the workers, forked from it (Arrow's jemalloc starts no thread, so the process
    has none but its own when it forks); the variables are not left set for what the process
    runs later. An allocator the environment names wins: jemalloc starts its thread, and the
    workers then come from the forkserver, with that allocator too."""
    import pyarrow as pa

    if given is not None and given not in pa.supported_memory_backends():
        pytest.skip(f"this pyarrow has no {given}")
    (tmp_path / "probe.py").write_text(PROBE)
    env = {k: v for k, v in os.environ.items()
           if k not in ("ARROW_DEFAULT_MEMORY_POOL", "JE_ARROW_MALLOC_CONF")}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), *sys.path])
    if given is not None:
        env["ARROW_DEFAULT_MEMORY_POOL"] = given
    out = subprocess.run([sys.executable, "-c", ALLOCATOR, str(folder),
                          str(tmp_path / "a.duckdb")], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    want = given or "system"
    started, allocator = out.stdout.splitlines()
    kinds, threads, pools = started.split(" ", 2)
    assert pools == f"['{want}']" and allocator == f"{want} {given} None"
    if given is None:
        assert (kinds, threads) == ("['ForkProcess']", "1")
    else:   # forked only while the process has no thread but its own
        assert kinds == ("['ForkProcess']" if threads == "1" else "['ForkServerProcess']")
