"""``load_paths`` releases what it holds through one cleanup path, however it ends: a stop
(Ctrl-C) or an error at any step, or success, leaves no worker alive, no spool folder (nor its
lock), and the database closed: another process can open it for writing, and loading again
finishes the job."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cabo_log import workers as workersmod
from cabo_log.db import database as dbmod
from cabo_log.db import load as loadmod
from cabo_log.db import load_connection
from cabo_log.db import loader as loadermod
from cabo_log.db import writer as writermod
from cabo_log.db.load import LoadInterrupted, load_paths
from cabo_log.db.replay_files import SPOOL_PREFIX
from cabo_log.db.settings import LoadSettings
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

# workers however small the load (four chunks of one file), started before a new database
# is opened
WORKERS = LoadSettings(inline_bytes=0, chunk_files=1)
GAMES = 4


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cleanup") / "logs"
    out.mkdir()
    events = simulate_game("edition1", players=3, seed=11, game_id="x")
    for i in range(GAMES):
        events[0] = {**events[0], "game_id": f"c{i}"}
        (out / f"c{i}.jsonl").write_bytes(b"".join(dumps_event(e) for e in events))
    return out


def _failing(error: BaseException) -> Any:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise error
    return fail


# each step of a load, in order: (where, what is replaced by a call that raises)
STEPS = [
    ("before-the-spool", loadmod, "remove_stale_spools"),     # nothing opened yet
    ("opening", load_connection, "open_for_load"),            # the workers are replaying
    ("making-the-writer", writermod.Writer, "__init__"),      # the database is open
    ("making-the-tables", dbmod, "ensure_schema"),            # and the writer is there
    ("handling-results", loadermod.Loader, "finish"),
    ("committing", writermod.Writer, "flush"),
]


def _database_is_free(db: Path) -> bool:
    """Whether another process can open the database for writing (DuckDB's file lock)."""
    code = "import sys, duckdb; duckdb.connect(sys.argv[1]).close()"
    return subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True,
                          check=False).returncode == 0


def _assert_released(db: Path) -> None:
    assert not [p for p in db.parent.iterdir() if p.name.startswith(SPOOL_PREFIX)]
    assert not [p for p in multiprocessing.active_children() if "cabo-log-worker" in p.name]
    assert _database_is_free(db)


@pytest.mark.parametrize(("where", "owner", "name"), STEPS, ids=[s[0] for s in STEPS])
@pytest.mark.parametrize("error", ["ctrl-c", "bug"])
def test_a_load_stopped_or_failing_at_any_step_releases_everything(
        tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch,
        where: str, owner: Any, name: str, error: str) -> None:
    raised: BaseException = (KeyboardInterrupt() if error == "ctrl-c"
                             else RuntimeError(f"failed while {where}"))
    monkeypatch.setattr(owner, name, _failing(raised))
    db = tmp_path / "cabo.duckdb"
    expected: type[BaseException] = LoadInterrupted if error == "ctrl-c" else RuntimeError
    with pytest.raises(expected) as info:
        load_paths([folder], db, jobs=2, settings=WORKERS)
    if isinstance(info.value, LoadInterrupted):
        assert info.value.committed == 0
    else:
        assert str(info.value) == f"failed while {where}"
    _assert_released(db)
    monkeypatch.undo()
    summary = load_paths([folder], db, jobs=2, settings=WORKERS)   # the next load finishes
    assert (summary.loaded, summary.rejected) == (GAMES, [])
    _assert_released(db)


def test_a_finished_load_releases_everything(tmp_path: Path, folder: Path) -> None:
    db = tmp_path / "cabo.duckdb"
    assert load_paths([folder], db, jobs=2, settings=WORKERS).loaded == GAMES
    _assert_released(db)
    again = load_paths([folder], db, jobs=2, settings=WORKERS)   # all unchanged: skipped
    assert (again.loaded, again.skipped) == (0, GAMES)
    _assert_released(db)


@pytest.mark.parametrize("early", [True, False], ids=["adopted", "started-by-begin"])
def test_the_workers_are_gone_before_their_spool_folder_is_removed(
        tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch, early: bool) -> None:
    """A worker still writing while its spool folder is removed would leave the folder
    behind: the workers are killed first, those started before the database was opened
    (adopted) as well as those ``begin`` starts."""
    spools_at_kill: list[list[str]] = []
    kill = workersmod.Pool.kill

    def kill_and_look(pool: workersmod.Pool) -> None:
        if pool.workers:
            spools_at_kill.append([p.name for p in tmp_path.iterdir()
                                   if p.name.startswith(SPOOL_PREFIX)])
        kill(pool)

    monkeypatch.setattr(workersmod.Pool, "kill", kill_and_look)
    db = tmp_path / "cabo.duckdb"
    if early:   # a new database: the workers are at work before the database is opened
        monkeypatch.setattr(writermod.Writer, "__init__", _failing(RuntimeError("stop here")))
    else:   # the survey finds too little for workers, ``begin`` starts them anyway
        monkeypatch.setattr(loadermod.Loader, "finish", _failing(RuntimeError("stop here")))
        survey = loadmod.survey_logs
        monkeypatch.setattr(loadmod, "survey_logs", lambda *a: (survey(*a)[0], False))
        monkeypatch.setattr(loadmod, "_start_pool", _failing(AssertionError("adopted")))
    with pytest.raises(RuntimeError, match="stop here"):
        load_paths([folder], db, jobs=2, settings=WORKERS)
    assert len(spools_at_kill) == 1 and len(spools_at_kill[0]) == 1   # there while killed
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(SPOOL_PREFIX)]
