"""Replay throughput on one core, in events per second, over a simulated corpus of every ruleset.

Figures, each the best of ``--repeat`` runs over the whole corpus held in memory:

- orjson loads:      ``orjson.loads`` of every line and nothing else - the same-run reference
                     the others are compared with (the machine is shared, so absolute figures
                     drift; the ratio to this one much less);
- decode (fast):     what ``replay_bytes`` decodes a log with: the header by the exact reader,
                     the other lines in one ``fastdecode.fast_body`` call (msgspec -> typed
                     engine events; line by line where it cannot vouch for the whole body);
- decode (per line): ``fastdecode.fast_event`` of every line (the exact reader for the lines it
                     cannot vouch for): the path of a chained log;
- decode (before):   orjson + ``engine.parse_event``: the reader before this version, which
                     let a duplicate key pass (last wins);
- decode (exact):    the exact reader of today (orjson, the duplicate-key check through the
                     standard library's parser, ``parse_event``): what every line would cost
                     without the fast path;
- apply only:        ``new_game`` + ``apply`` of already parsed events + ``finish``;
- parse + apply:     ``replay_bytes`` on the file bytes (JSON decoding, event parsing, every
                     rule checked, knowledge tracked) - what ``cabo-log replay`` does;
- apply only / parse + apply / parse + apply + rows / rows alone (compiled): the same with
                     the mypyc-compiled build of ``make compiled`` (``build/mypyc``: the
                     engine and the row modules), measured in a child process with
                     ``PYTHONPATH=build/mypyc`` against its own orjson reference; shown when
                     that build exists (``--no-compiled`` skips it);
- parse + apply + rows: what a ``cabo-log load`` worker does (DuckDB aside): read and hash
                     each file, replay it with the loader's ``RowCollector``, build the Arrow
                     batches of each ~1 MB chunk of files and serialise them as Arrow IPC;
- rows alone:        the difference of the last two: the row-building stage on its own.

Usage::

    .venv/bin/python benchmarks/replay.py                     # 100 games per ruleset
    .venv/bin/python benchmarks/replay.py --games 400 --profile
    .venv/bin/python benchmarks/replay.py --corpus /tmp/corpus   # reuse (or create) a corpus
    .venv/bin/python benchmarks/replay.py --rows-before 30df3e7  # rows: before/after, same run

``--profile`` runs cProfile over parse + apply (and over the row building) and prints the
functions with the most time of their own.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import pstats
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from compiled_child import COMPILED, run_child

import engine.game
from cabo_log.db.loader import _chunks
from cabo_log.db.replay_files import Task, file_hash, replay_tasks, serialise
from cabo_log.log.fastdecode import fast_body, fast_event
from cabo_log.log.logfile import decode_line, iter_lines, parse_line
from cabo_log.log.replay import replay_bytes
from cabo_log.play.simulate import write_games
from engine import apply, finish, new_game, parse_event

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


def rows_at(ref: str) -> Any:
    """``cabo_log/db/rows.py`` as it was at git ``ref`` (which held ``collect`` and ``Chunk``),
    as a module of its own next to today's."""
    source = subprocess.run(["git", "show", f"{ref}:cabo_log/db/rows.py"], check=True,
                            capture_output=True).stdout
    module = types.ModuleType(f"rows_at_{ref}")
    exec(compile(source, f"{ref}:cabo_log/db/rows.py", "exec"), module.__dict__)  # noqa: S102
    return module


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


def compiled_figures(args: argparse.Namespace, events: int, pure: dict[str, float]) -> None:
    """Apply only and parse + apply with the compiled engine (a child process with
    ``build/mypyc`` first on its path), each against the child's own orjson reference."""
    figures = run_child(__file__, ["--engine-only", "--corpus", str(args.corpus),
                                   "--games", str(args.games), "--repeat", str(args.repeat),
                                   *(["--no-rows"] if args.no_rows else [])])
    if figures is None:
        return
    for label in ("apply only", "parse + apply", "parse + apply + rows"):
        if label in figures:
            seconds = figures[label]
            show(f"{label} (compiled)", events, seconds, figures["ref"],
                 f", {pure[label] / seconds:.2f}x faster than pure")
    if "parse + apply + rows" in figures:   # the compiled row stage on its own
        seconds = figures["parse + apply + rows"] - figures["parse + apply"]
        show("rows alone (compiled)", events, seconds, figures["ref"],
             f", {(pure['parse + apply + rows'] - pure['parse + apply']) / seconds:.2f}x "
             "faster than pure")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per ruleset (100)")
    parser.add_argument("--corpus", type=Path, default=Path("build/bench-replay"),
                        help="where the simulated logs are kept (build/bench-replay)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each figure (3)")
    parser.add_argument("--profile", action="store_true", help="print cProfile hot spots")
    parser.add_argument("--no-rows", action="store_true", help="skip the row-building figure")
    parser.add_argument("--rows-before", metavar="GIT_REF",
                        help="also time the row building of cabo_log/db/rows.py at GIT_REF, "
                             "loaded side by side (a same-run before/after)")
    parser.add_argument("--no-compiled", action="store_true",
                        help="skip the compiled engine's figures")
    parser.add_argument("--engine-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()

    paths = corpus(args.corpus, args.games)
    logs = [p.read_bytes() for p in paths]
    tasks = [Task(os.path.abspath(p), len(d), None) for p, d in zip(paths, logs, strict=True)]
    chunks = list(_chunks(tasks))
    parsed = [[parse_event(decode_line(raw)) for _, raw in iter_lines(data)] for data in logs]
    events = sum(len(p) for p in parsed)
    size = sum(len(d) for d in logs)
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
            parse_line(head)
            decoded = fast_body(body)
            if decoded is None:
                for raw in body.split(b"\n"):
                    if raw and fast_event(raw) is None:
                        parse_line(raw)
                continue

    def decode_lines() -> None:
        for raw in lines:
            if fast_event(raw) is None:
                parse_line(raw)

    def decode_before() -> None:
        loads = orjson.loads
        for raw in lines:
            parse_event(loads(raw))

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

    before = rows_at(args.rows_before) if args.rows_before else None

    def with_rows_before() -> None:   # the same work with the rows.py of --rows-before
        assert before is not None
        gc.disable()
        for chunk in chunks:
            rows = before.Chunk()
            for task in chunk:
                data = Path(task.path).read_bytes()
                result, collected = before.collect(data, task.path)
                rows.add(result.state, collected, task.path, file_hash(data))
            serialise(rows.batches())
        gc.enable()

    if args.engine_only:  # the child that measures the compiled build
        runs = [("ref", orjson_only), ("apply only", apply_only), ("parse + apply", parse_apply)]
        if not args.no_rows:
            runs.append(("parse + apply + rows", with_rows))
        figures = {label: best(args.repeat, run) for label, run in runs}
        print(json.dumps({"engine": engine.game.__file__, **figures}))
        return
    reference = best(args.repeat, orjson_only)
    print(f"{'orjson loads (ref)':22s} {events / reference:>12,.0f} events/s  "
          f"({reference:.2f} s, {reference / events * 1e6:.2f} us/event)")
    stages = [("decode (fast)", decode_fast), ("decode (per line)", decode_lines),
              ("decode (before)", decode_before),
              ("decode (exact)", decode_exact),
              ("apply only", apply_only), ("parse + apply", parse_apply)]
    if not args.no_rows:
        stages.append(("parse + apply + rows", with_rows))
    if before is not None:
        stages.append((f"... rows at {args.rows_before}", with_rows_before))
    pure: dict[str, float] = {}
    for label, run in stages:
        pure[label] = seconds = best(args.repeat, run)
        show(label, events, seconds, reference)
    for label in ("parse + apply + rows", f"... rows at {args.rows_before}"):
        if label in pure:   # the row-building stage on its own: the difference
            seconds = pure[label] - pure["parse + apply"]
            name = "rows alone" + (f" at {args.rows_before}" if label[0] == "." else "")
            show(name, events, seconds, reference)
    if not args.no_compiled and (COMPILED / ".stamp").is_file():
        compiled_figures(args, events, pure)

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
