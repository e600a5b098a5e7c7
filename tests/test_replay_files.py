"""A worker's chunk: its rows go to Arrow files in the load's spool folder, which the parent
maps and removes (``unspool``); the garbage collector stays paused through the Arrow writing
(its rows are many small objects without cycles), and comes back as it was."""

from __future__ import annotations

import gc
import itertools
import os
import tempfile
from pathlib import Path

import pyarrow as pa
import pytest

from cabo_log.db import replay_files
from cabo_log.db.event_tables import KINDS
from cabo_log.db.replay_files import (
    SPOOL_PREFIX,
    Spooled,
    SpoolFile,
    Task,
    replay_tasks,
    replay_to_spool,
    spool_folder,
    unspool,
)

SAMPLES = Path(__file__).parent.parent / "sample_games"
SAMPLE = SAMPLES / "edition1-match.jsonl"


def test_the_collector_is_paused_through_the_spool_and_restored(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: list[bool] = []
    spool = replay_files.spool

    def watched(batches: dict[str, list[pa.RecordBatch]], folder: str,
                number: int) -> SpoolFile:
        seen.append(gc.isenabled())
        return spool(batches, folder, number)

    monkeypatch.setattr(replay_files, "spool", watched)
    task = Task(str(SAMPLE), SAMPLE.stat().st_size, None)
    assert gc.isenabled()
    outcomes, spooled = replay_to_spool(Spooled(str(tmp_path), 0, [task]))
    assert [o.status for o in outcomes] == ["loaded"] and spooled is not None
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        replay_to_spool(Spooled(str(tmp_path), 1, [task]))
        assert not gc.isenabled()  # a caller's pause is left alone
    finally:
        gc.enable()


def test_spooled_rows_are_the_chunk_rows_and_the_files_are_gone(tmp_path: Path) -> None:
    logs = sorted(SAMPLES.glob("*.jsonl"))
    tasks = [Task(str(p), p.stat().st_size, None) for p in logs]
    outcomes, spooled = replay_to_spool(Spooled(str(tmp_path), 7, tasks))
    assert spooled is not None
    assert os.listdir(tmp_path) == ["7.arrow"] == [os.path.basename(spooled.path)]
    spans = [(start, start + size) for _, start, size in spooled.parts]
    assert spans[0][0] == 0 and spans[-1][1] == os.path.getsize(spooled.path)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))   # one after the other
    got = unspool(spooled)
    assert os.listdir(tmp_path) == []       # removed at once; the mapped data lives on
    expected_outcomes, chunk = replay_tasks(tasks)
    expected = chunk.batches()
    assert [(o.path, o.status, o.game_id, o.events) for o in outcomes] == \
        [(o.path, o.status, o.game_id, o.events) for o in expected_outcomes]
    assert set(got) == set(expected) and "events_draw" in got
    for table, batches in expected.items():
        assert pa.Table.from_batches(got[table]).equals(pa.Table.from_batches(batches))
    loaded = [o for o in outcomes if o.status == "loaded"]
    assert pa.Table.from_batches(got["games"]).num_rows == len(loaded)
    # a row per line, but a score sheet's tally lines, which make no event rows
    tallies = sum(p.read_bytes().count(b'"type":"tally"') for p in logs)
    assert tallies == 20
    assert sum(pa.Table.from_batches(got[t]).num_rows for t in KINDS if t in got) == \
        sum(o.events for o in loaded) - tallies


def test_a_chunk_without_valid_logs_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "logs" / "bad.jsonl"
    bad.parent.mkdir()
    bad.write_text('{"not": "a header"}\n')
    spool = tmp_path / "spool"
    spool.mkdir()
    outcomes, spooled = replay_to_spool(Spooled(str(spool), 0, [Task(str(bad), 20, None)]))
    assert [o.status for o in outcomes] == ["rejected"] and spooled is None
    assert unspool(None) == {}
    assert os.listdir(spool) == []


def test_the_spool_folder_is_made_beside_the_database_and_always_removed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(KeyboardInterrupt), spool_folder(tmp_path) as folder:
        assert Path(folder).parent == tmp_path
        assert Path(folder).name.startswith(SPOOL_PREFIX)
        (Path(folder) / "0.events.arrow").write_bytes(b"left by a worker")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    made = tempfile.mkdtemp

    def refused(prefix: str, dir: str | None = None) -> str:  # noqa: A002 - mkdtemp's name
        if dir is not None:
            raise PermissionError(13, "Permission denied")
        return made(prefix=prefix, dir=tmp_path / "system")

    (tmp_path / "system").mkdir()
    monkeypatch.setattr(tempfile, "mkdtemp", refused)
    with spool_folder(tmp_path / "read-only") as folder:
        assert Path(folder).parent == tmp_path / "system"
    assert list((tmp_path / "system").iterdir()) == []
