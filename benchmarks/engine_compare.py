"""Two (or more) versions of ``engine/`` side by side in one process, runs alternating.

The machine is shared, so figures measured minutes apart drift more than the difference being
measured. This copies each tree's ``engine/`` package under a private name, loads them all in
one interpreter and times them in turn (CPU time, best of ``--rounds``), with ``orjson.loads``
of the same lines as the same-run reference:

- apply only:          ``new_game`` + ``apply`` of already parsed events + ``finish``;
- parse_event + apply: the same from decoded JSON objects (each engine's own ``parse_event``).

Usage (the engine before ``apply`` returned an Outcome, against this worktree)::

    git worktree add --detach /tmp/oldengine 5ba39da
    .venv/bin/python benchmarks/replay.py --games 50 --corpus /tmp/corpus50 --no-rows  # corpus
    .venv/bin/python benchmarks/engine_compare.py --corpus /tmp/corpus50 /tmp/oldengine .
"""

from __future__ import annotations

import argparse
import gc
import importlib
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson


def load_engines(trees: list[Path], into: Path) -> dict[str, ModuleType]:
    """Each tree's ``engine`` package as ``engine0``, ``engine1``, ... (relative imports)."""
    sys.path.insert(0, str(into))
    engines = {}
    for i, tree in enumerate(trees):
        shutil.copytree(tree / "engine", into / f"engine{i}")
        engines[str(tree)] = importlib.import_module(f"engine{i}")
    return engines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", type=Path, nargs="+", help="source trees holding engine/")
    parser.add_argument("--corpus", type=Path, required=True, help="folder of *.jsonl folders")
    parser.add_argument("--games", type=int, default=50, help="games per ruleset folder (50)")
    parser.add_argument("--rounds", type=int, default=7, help="alternating runs (7)")
    args = parser.parse_args()
    paths: list[Path] = []
    for sub in sorted(p for p in args.corpus.iterdir() if p.is_dir()):
        paths += sorted(sub.glob("*.jsonl"))[:args.games]
    lines = [[line for line in p.read_bytes().split(b"\n") if line.strip()] for p in paths]
    decoded = [[orjson.loads(line) for line in ls] for ls in lines]
    count = sum(len(ls) for ls in lines)
    with tempfile.TemporaryDirectory() as tmp:
        engines = load_engines(args.trees, Path(tmp))
        parsed = {t: [[m.parse_event(d) for d in ds] for ds in decoded]
                  for t, m in engines.items()}
        best: dict[str, float] = {}

        def timed(key: str, run: Callable[[], None]) -> None:
            gc.collect()
            started = time.process_time()
            run()
            best[key] = min(best.get(key, float("inf")), time.process_time() - started)

        def reference() -> None:
            for ls in lines:
                for line in ls:
                    orjson.loads(line)

        for _ in range(args.rounds):
            timed("orjson", reference)
            for tree, engine in engines.items():
                timed(f"{tree} apply", partial(_apply, engine, parsed[tree]))
                timed(f"{tree} parse", partial(_apply, engine, decoded, engine.parse_event))
    ref = count / best["orjson"]
    print(f"{len(paths)} games, {count:,} events, best of {args.rounds}; "
          f"orjson.loads {ref:,.0f} events/s")
    for tree in engines:
        apply_only = count / best[f"{tree} apply"]
        parse = count / best[f"{tree} parse"]
        print(f"{tree:24s} apply only {apply_only:9,.0f}/s ({ref / apply_only:.2f}x orjson)   "
              f"parse_event + apply {parse:9,.0f}/s ({ref / parse:.2f}x orjson)")


def _apply(engine: Any, games: list[list[Any]],
           parse: Callable[[Any], Any] | None = None) -> None:
    new_game, apply, finish = engine.new_game, engine.apply, engine.finish
    for events in games:
        if parse is not None:
            events = [parse(e) for e in events]
        g = new_game(events[0])
        for e in events[1:]:
            apply(g, e)
        finish(g)


if __name__ == "__main__":
    main()
