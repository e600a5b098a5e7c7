"""Appending to one log file: events/s with and without fsync, against references measured in
the same run (raw ``os.write`` of the same line bytes; ``replay_bytes`` of the same file).

    .venv/bin/python benchmarks/append.py                  # 20 simulated games per ruleset
    .venv/bin/python benchmarks/append.py --games 5 --fsync-events 500

Every mode writes the same events (simulated games, one file per game) into a temporary
folder. "per event" is one ``append`` call per event (one write + one fsync each with fsync);
"batches of 50" is ``extend`` with 50 events per call. The last lines measure the two ways of
undoing a batch refused part-way (``log.append`` rebuilds from the file; a snapshot per batch
would be the alternative).
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cabo_log.log.gamelog import GameLog  # noqa: E402
from cabo_log.log.replay import replay_bytes  # noqa: E402
from cabo_log.play.simulate import game_seed, simulate  # noqa: E402

Games = list[list[dict[str, Any]]]


def corpus(games: int) -> Games:
    return [simulate(r, seed=game_seed(7, i)).events
            for r in ("edition1", "edition2", "golf", "online") for i in range(games)]


def raw_writes(folder: Path, games: Games, fsync: bool) -> None:
    for n, events in enumerate(games):
        fd = os.open(folder / f"raw-{n}.jsonl", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        for obj in events:
            os.write(fd, orjson.dumps(obj) + b"\n")
            if fsync:
                os.fsync(fd)
        os.close(fd)


def appends(folder: Path, games: Games, fsync: bool, batch: int) -> None:
    for n, events in enumerate(games):
        with GameLog.create(folder / f"log-{n}.jsonl", events[0], fsync=fsync) as log:
            if batch == 1:
                for obj in events[1:]:
                    log.append(obj)
            else:
                for at in range(1, len(events), batch):
                    log.extend(events[at:at + batch])


def timed(label: str, events: int, run: Callable[[], None], reference: float | None
          ) -> float:
    started = time.perf_counter()
    run()
    rate = events / (time.perf_counter() - started)
    ratio = f"{rate / reference:6.2f}x" if reference else "   ref"
    print(f"  {label:<44} {rate:>10,.0f} events/s  {ratio}")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per ruleset")
    parser.add_argument("--fsync-events", type=int, default=1500,
                        help="events for the fsync-per-event modes (fsync is slow)")
    args = parser.parse_args()
    games = corpus(args.games)
    total = sum(len(g) for g in games)
    few: Games = []
    count = 0
    for g in games:  # whole games, up to --fsync-events events
        if count >= args.fsync_events:
            break
        few.append(g)
        count += len(g)
    print(f"{len(games)} games, {total:,} events ({count:,} in the fsync-per-event modes)")
    with tempfile.TemporaryDirectory() as tmp:
        def folder(name: str) -> Path:
            path = Path(tmp) / name
            path.mkdir()
            return path

        print("without fsync:")
        ref = timed("raw os.write per event (reference)", total,
                    lambda: raw_writes(folder("a"), games, False), None)
        timed("GameLog.append per event", total,
              lambda: appends(folder("b"), games, False, 1), ref)
        timed("GameLog.extend, batches of 50", total,
              lambda: appends(folder("c"), games, False, 50), ref)
        data = [b"".join(orjson.dumps(o) + b"\n" for o in g) for g in games]
        timed("replay_bytes of the same logs (no writing)", total,
              lambda: [replay_bytes(d) for d in data] and None, ref)
        print("with fsync:")
        ref = timed("raw os.write + fsync per event (reference)", count,
                    lambda: raw_writes(folder("d"), few, True), None)
        timed("GameLog.append per event (fsync each)", count,
              lambda: appends(folder("e"), few, True, 1), ref)
        timed("GameLog.extend, batches of 50 (fsync each)", total,
              lambda: appends(folder("f"), games, True, 50), ref)
        rollback(data)


def rollback(data: list[bytes]) -> None:
    """What undoing a refused batch costs: rebuild by replay (paid only on refusal) against a
    deep-copied snapshot before every batch (paid on every batch)."""
    states = [replay_bytes(d, finish_log=False).state for d in data]
    lines = sum(d.count(b"\n") for d in data)
    started = time.perf_counter()
    for state in states:
        copy.deepcopy(state)
    snap = (time.perf_counter() - started) / len(states)
    started = time.perf_counter()
    for d in data:
        replay_bytes(d, finish_log=False)
    rebuild = (time.perf_counter() - started) / len(states)
    print(f"undoing a batch: snapshot (deepcopy) {snap * 1e6:,.0f} us per batch, every batch; "
          f"rebuild by replay {rebuild * 1e6:,.0f} us per refusal "
          f"(logs of {lines // len(data)} lines on average)")


if __name__ == "__main__":
    main()
