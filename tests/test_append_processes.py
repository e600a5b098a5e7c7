"""Writers in other processes: one writer at a time (the OS lock), nothing interleaved or lost,
and a writer killed with SIGKILL in the middle of a batch leaves a valid prefix of what it was
given (plus at most one torn line, which ``repair`` mends), never less than it acknowledged."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import orjson
import pytest

from cabo_log.log.gamelog import GameLog, write_log
from cabo_log.log.lock import WriterError
from cabo_log.log.repair import repair
from engine import CaboLogError

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="fork and SIGKILL are POSIX")
SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
FORK = multiprocessing.get_context("fork")


def objects(name: str) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in (SAMPLES / name).read_bytes().splitlines()]


def _hold_and_append(path: str, lines: list[dict[str, Any]], pipe: Connection) -> None:
    with GameLog.open(path) as log:
        pipe.send("open")
        pipe.recv()  # wait until the other writer has been refused
        for at in range(log.lines, len(lines), 7):
            log.extend(lines[at:at + 7])
    pipe.send("done")


def test_a_second_process_gets_the_lock_error(tmp_path: Path) -> None:
    lines = objects("golf-snaps.jsonl")
    out = write_log(tmp_path / "g.jsonl", lines[:3]).path
    ours, theirs = FORK.Pipe()
    child = FORK.Process(target=_hold_and_append, args=(str(out), lines, theirs))
    child.start()
    assert ours.recv() == "open"
    with pytest.raises(WriterError) as caught:
        GameLog.open(out)
    assert caught.value.code == "locked"
    ours.send("go")
    assert ours.recv() == "done"
    child.join(10)
    assert child.exitcode == 0
    assert out.read_bytes() == (SAMPLES / "golf-snaps.jsonl").read_bytes()


def _race(path: str, lines: list[dict[str, Any]], results: Any) -> None:
    """Append the whole game event by event, opening the log for each event; an event the
    other process already appended is refused (seq_repeat) and skipped."""
    counts = {"appended": 0, "locked": 0, "refused": 0}
    at = 1
    while at < len(lines):
        try:
            with GameLog.open(path, fsync=False) as log:
                at = max(at, log.lines)
                if at < len(lines):
                    log.append(lines[at])
                    counts["appended"] += 1
                    at += 1
        except WriterError:
            counts["locked"] += 1
        except CaboLogError as exc:
            assert exc.code == "seq_repeat", exc
            counts["refused"] += 1
    results.put(counts)


def test_two_racing_processes_interleave_nothing_and_lose_nothing(tmp_path: Path) -> None:
    lines = objects("golf-snaps.jsonl")
    out = write_log(tmp_path / "g.jsonl", lines[:1]).path
    results = FORK.Queue()
    racers = [FORK.Process(target=_race, args=(str(out), lines, results)) for _ in range(2)]
    for racer in racers:
        racer.start()
    counts = [results.get(timeout=60) for _ in racers]
    for racer in racers:
        racer.join(10)
        assert racer.exitcode == 0
    assert out.read_bytes() == (SAMPLES / "golf-snaps.jsonl").read_bytes()
    assert sum(c["appended"] for c in counts) == len(lines) - 1


def _writer(path: str, lines: list[dict[str, Any]], seed: int, pipe: Connection) -> None:
    rng = random.Random(seed)
    with GameLog.open(path, fsync=False) as log:
        pipe.send(("done", log.lines))
        while log.lines < len(lines):
            size = rng.choice((1, 3, 20, 200))
            pipe.send(("start", min(log.lines + size, len(lines))))
            log.extend(lines[log.lines:log.lines + size])
            pipe.send(("done", log.lines))  # acknowledged: extend returned


def test_a_writer_killed_mid_batch_never_loses_what_it_acknowledged(tmp_path: Path) -> None:
    name = "edition1-reshuffle.jsonl"
    lines = objects(name)
    expected = (SAMPLES / name).read_bytes()
    rng = random.Random(2026)
    out = tmp_path / "g.jsonl"
    torn = cut_short = 0
    for kill in range(20):
        if not out.exists() or out.read_bytes() == expected:
            out.unlink(missing_ok=True)
            write_log(out, lines[:1], fsync=False)
        ours, theirs = FORK.Pipe()
        child = FORK.Process(target=_writer, args=(str(out), lines, kill, theirs))
        child.start()
        acked = started = ours.recv()[1]
        # kill it a moment after one of its first batches began: mid-batch, or just after one
        for _ in range(rng.randint(1, 3)):
            what, line = ours.recv()
            acked, started = (line, line) if what == "done" else (acked, line)
            if what == "done" and line == len(lines):
                break
        time.sleep(rng.uniform(0, 0.002))
        assert child.pid is not None
        os.kill(child.pid, signal.SIGKILL)
        child.join(10)
        while ours.poll():
            what, line = ours.recv()
            acked, started = (line, line) if what == "done" else (acked, line)
        data = out.read_bytes()
        torn_now = not data.endswith(b"\n")
        if torn_now:
            torn += 1
            with pytest.raises(CaboLogError) as caught:
                GameLog.open(out)
            assert caught.value.code == "torn_line"
            assert repair(out).action == "cut"
            data = out.read_bytes()
        assert expected.startswith(data)               # a valid prefix, nothing interleaved
        assert data.count(b"\n") >= acked              # nothing acknowledged was lost
        # a kill stops a write where it is (the kernel checks for it between pages): at most
        # the batch under way went in, in part or whole
        assert data.count(b"\n") <= started
        with GameLog.open(out) as log:                 # and the next writer carries on
            assert log.lines == data.count(b"\n")
        cut_short += data != expected
    print(f"{cut_short} of 20 kills cut the game short, {torn} left a torn line")
    assert cut_short >= 5  # the kills did land while the writer was at work


ROUNDS = 300


def _create_each(directory: str, writer: int, start: Any, results: Any) -> None:
    """One of two writers: in each round, wait for the other, then create the same new log
    with a header of its own (``append_texts``, what ``cabo-log append NEW HEADER`` does)."""
    from cabo_log.log import gamelog
    from cabo_log.log.writes import append_texts

    jitter = random.Random(writer)
    locking = gamelog.lock_exclusive

    def slow_lock(fd: int, file: str) -> None:
        time.sleep(jitter.random() / 1000)   # preempted before the lock: a window of 0-1 ms
        locking(fd, file)

    if writer == 0:
        gamelog.lock_exclusive = slow_lock  # type: ignore[assignment]
    header = orjson.dumps({"type": "game", "format": "cabo-log/1", "seq": 0,
                           "game_id": f"writer-{writer}", "ruleset": "edition1",
                           "players": ["ana", "bruno"]})
    outcomes = []
    for round_no in range(ROUNDS):
        start.wait()
        time.sleep(jitter.random() / 5000)   # 0-0.2 ms: both orders, and every overlap
        try:
            append_texts(os.path.join(directory, f"{round_no}.jsonl"), [header], fsync=False)
            outcomes.append("ok")
        except CaboLogError as exc:
            outcomes.append(exc.code)
    results.put((writer, outcomes))


def test_two_processes_creating_one_log_never_erase_an_acknowledged_write(
        tmp_path: Path) -> None:
    start = FORK.Barrier(2)
    results = FORK.Queue()
    writers = [FORK.Process(target=_create_each, args=(str(tmp_path), w, start, results))
               for w in (0, 1)]
    for writer in writers:
        writer.start()
    outcomes = dict(results.get(timeout=120) for _ in writers)
    for writer in writers:
        writer.join(10)
    # The loser is refused: the file exists, is locked, or already starts with a header.
    refusals = {"log_exists", "locked", "duplicate_header", "seq_repeat"}
    for round_no in range(ROUNDS):
        got = {w: outcomes[w][round_no] for w in (0, 1)}
        winners = [w for w, code in got.items() if code == "ok"]
        assert len(winners) == 1 and set(got.values()) - {"ok"} <= refusals, (round_no, got)
        kept = orjson.loads((tmp_path / f"{round_no}.jsonl").read_bytes())
        assert kept["game_id"] == f"writer-{winners[0]}", (round_no, got)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"{r}.jsonl" for r in range(ROUNDS))   # no temporary file left behind
