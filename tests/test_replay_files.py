"""A worker's chunk: the garbage collector stays paused through the Arrow serialisation (its
rows are many small objects without cycles), and comes back as it was."""

from __future__ import annotations

import gc
from pathlib import Path

import pyarrow as pa
import pytest

from cabo_log.db import replay_files
from cabo_log.db.replay_files import Task, replay_chunk

SAMPLE = Path(__file__).parent.parent / "sample_games" / "edition1-match.jsonl"


def test_the_collector_is_paused_through_serialise_and_restored(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    serialise = replay_files.serialise

    def watched(batches: dict[str, list[pa.RecordBatch]]) -> bytes:
        seen.append(gc.isenabled())
        return serialise(batches)

    monkeypatch.setattr(replay_files, "serialise", watched)
    task = Task(str(SAMPLE), SAMPLE.stat().st_size, None)
    assert gc.isenabled()
    outcomes, data = replay_chunk([task])
    assert [o.status for o in outcomes] == ["loaded"] and data
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        replay_chunk([task])
        assert not gc.isenabled()  # a caller's pause is left alone
    finally:
        gc.enable()
