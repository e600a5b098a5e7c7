"""Replay throughput on one core, in events per second, over a simulated corpus of every ruleset.

Figures, each the best of ``--repeat`` runs over the whole corpus held in memory:

- orjson loads:      ``orjson.loads`` of every line and nothing else - the same-run reference
                     the others are compared with (the machine is shared, so absolute figures
                     drift; the ratio to this one much less);
- decode (fast):     what ``replay_bytes`` decodes a log with: the header by the exact reader,
                     the other lines by ``fastdecode.fast_body`` (compiled: the native scan,
                     msgspec for the lines it leaves; line by line where it cannot vouch for
                     the whole body);
- decode (per line): ``fastdecode.fast_event`` of every line (the exact reader for the lines it
                     cannot vouch for): the path of a chained log;
- decode (exact):    the exact reader (orjson, the duplicate-key check through the standard
                     library's parser, ``parse_event``): what every line would cost without
                     the fast path;
- apply only:        ``new_game`` + ``apply`` of already parsed events + ``finish``;
- parse + apply:     ``replay_bytes`` on the file bytes (JSON decoding, event parsing, every
                     rule checked, knowledge tracked) - what ``cabo-log replay`` does;
- parse + apply + rows: what a ``cabo-log load`` worker does (DuckDB aside): read and hash
                     each file, replay it with the loader's ``RowCollector``, build the Arrow
                     batches of each ~1 MB chunk of files and serialise them as Arrow IPC;
- rows alone:        the difference of the last two: the row-building stage on its own.

The figures are those of the build the interpreter runs (printed first: ``compiled`` or
``pure``, docs/compiled.md); run the script with each build's Python to compare them.

Usage::

    python benchmarks/replay.py                     # 100 games per ruleset
    python benchmarks/replay.py --games 250         # the README's figure: 1,000 games
    python benchmarks/replay.py --games 400 --profile
    python benchmarks/replay.py --corpus /tmp/corpus   # reuse (or create) a corpus

``--profile`` runs cProfile over parse + apply (and over the row building) and prints the
functions with the most time of their own.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

from cabo_log.build_info import build_kind
from cabo_log.db.loader import _chunks
from cabo_log.db.replay_files import Task, replay_tasks, serialise
from cabo_log.db.settings import LoadSettings
from cabo_log.log.fastdecode import fast_body, fast_event
from cabo_log.log.logfile import decode_line, iter_lines, parse_line
from cabo_log.log.replay import replay_bytes
from cabo_log.play.simulate import write_games
from engine import GameStart, apply, finish, new_game, parse_event

TABLES = [("edition1", 3, None, 0.0), ("edition2", 4, None, 0.0), ("golf", 3, None, 0.0),
          ("online", 4, None, 0.01)]


def corpus(folder: Path, games: int) -> list[Path]:
    """``games`` simulated games per ruleset (written once, reused when present)."""
    paths: list[Path] = []
    for ruleset, players, options, forfeits in TABLES:
        sub = folder / ruleset
        files = sorted(sub.glob("*.jsonl")) if sub.is_dir() else []
        if len(files) < games:
            print(f"simulating {games} {ruleset} games into {sub} ...", file=sys.stderr)
            write_games(sub, ruleset, games=games, players=players, options=options,
                        forfeit_rate=forfeits, seed=1)
            files = sorted(sub.glob("*.jsonl"))
        paths.extend(files[:games])
    return paths


def best(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        started = time.process_time()  # CPU time: the machine is shared, wall time is not ours
        run()
        times.append(time.process_time() - started)
    return min(times)


def show(label: str, events: int, seconds: float, reference: float, extra: str = "") -> None:
    print(f"{label:22s} {events / seconds:>12,.0f} events/s  ({seconds:.2f} s, "
          f"{seconds / events * 1e6:.2f} us/event, {seconds / reference:.2f}x orjson{extra})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per ruleset (100)")
    parser.add_argument("--corpus", type=Path, default=Path("build/bench-replay"),
                        help="where the simulated logs are kept (build/bench-replay)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each figure (3)")
    parser.add_argument("--profile", action="store_true", help="print cProfile hot spots")
    parser.add_argument("--no-rows", action="store_true", help="skip the row-building figure")
    args = parser.parse_args()

    paths = corpus(args.corpus, args.games)
    logs = [p.read_bytes() for p in paths]
    tasks = [Task(os.path.abspath(p), len(d), None) for p, d in zip(paths, logs, strict=True)]
    chunks = list(_chunks(tasks, LoadSettings()))
    parsed = [[parse_event(decode_line(raw)) for _, raw in iter_lines(data)] for data in logs]
    events = sum(len(p) for p in parsed)
    size = sum(len(d) for d in logs)
    print(f"build: {build_kind()}")
    print(f"corpus: {len(logs)} games, {events:,} events, {size / 1e6:.1f} MB "
          f"({', '.join(t[0] for t in TABLES)}; {args.games} each)")

    lines = [raw for data in logs for raw in data.split(b"\n") if raw]

    def orjson_only() -> None:
        loads = orjson.loads
        for raw in lines:
            loads(raw)

    def decode_fast() -> None:
        for data in logs:
            head, _, body = data.partition(b"\n")
            header = parse_line(head)
            assert isinstance(header, GameStart)
            decoded = fast_body(body, 0, header.players)
            if decoded is None:
                for raw in body.split(b"\n"):
                    if raw and fast_event(raw) is None:
                        parse_line(raw)
                continue

    def decode_lines() -> None:
        for raw in lines:
            if fast_event(raw) is None:
                parse_line(raw)

    def decode_exact() -> None:
        for raw in lines:
            parse_event(decode_line(raw))

    def apply_only() -> None:
        for game in parsed:
            g = new_game(game[0])  # type: ignore[arg-type]
            for e in game[1:]:
                apply(g, e)
            finish(g)

    def parse_apply() -> None:
        for data in logs:
            result = replay_bytes(data)
            assert result.error is None, result.error

    def with_rows() -> None:   # what a load worker does, chunk by chunk
        for chunk in chunks:
            outcomes, rows = replay_tasks(chunk)
            assert all(o.status == "loaded" for o in outcomes)
            serialise(rows.batches())

    reference = best(args.repeat, orjson_only)
    print(f"{'orjson loads (ref)':22s} {events / reference:>12,.0f} events/s  "
          f"({reference:.2f} s, {reference / events * 1e6:.2f} us/event)")
    stages = [("decode (fast)", decode_fast), ("decode (per line)", decode_lines),
              ("decode (exact)", decode_exact),
              ("apply only", apply_only), ("parse + apply", parse_apply)]
    if not args.no_rows:
        stages.append(("parse + apply + rows", with_rows))
    measured: dict[str, float] = {}
    for label, run in stages:
        measured[label] = seconds = best(args.repeat, run)
        show(label, events, seconds, reference)
    if "parse + apply + rows" in measured:   # the row-building stage on its own: the difference
        seconds = measured["parse + apply + rows"] - measured["parse + apply"]
        show("rows alone", events, seconds, reference)

    if args.profile:
        for label, run in (("parse + apply", parse_apply), ("parse + apply + rows", with_rows)):
            profile = cProfile.Profile()
            profile.runcall(run)
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(18)
            print(f"\n--- cProfile, {label} (sorted by own time) ---")
            print("\n".join(line for line in out.getvalue().splitlines()[6:] if line.strip()))


if __name__ == "__main__":
    main()
