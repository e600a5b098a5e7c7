"""How often ``expert`` beats ``greedy`` heads-up, in every ruleset (not a timed test).

    .venv/bin/python benchmarks/expert.py                    # 300 matches per ruleset
    .venv/bin/python benchmarks/expert.py --matches 100 --rulesets golf,online --jobs 2
    .venv/bin/python benchmarks/expert.py --style call_chance=0.7 --style peek_value=2

Each match is a complete two-player match (default options) with the seats alternated: match
``i`` seats expert first when ``i`` is even. A shared win counts as half a win to each. The
95 % interval is Wilson's. ``--style`` overrides one of ``cabo_log.play.expert.Style``'s
fields, for tuning; the target is expert winning at least 60 % in every ruleset.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cabo_log.play import bots as bots_module  # noqa: E402
from cabo_log.play.expert import ExpertBot, Style  # noqa: E402
from cabo_log.play.simulate import game_seed, simulate  # noqa: E402
from engine import BUILTINS  # noqa: E402

TARGET = 0.60


def match(ruleset: str, index: int, seed: int, style: Style
          ) -> tuple[float, list[int], list[int]]:
    """One heads-up match: (expert's share of the win, expert's and greedy's round points)."""
    bots_module.BOTS["expert"] = lambda rules: ExpertBot(rules, style)
    table = ["expert", "greedy"] if index % 2 == 0 else ["greedy", "expert"]
    game = simulate(ruleset, players=2, seed=game_seed(seed, index), bots=table)
    kind = dict(zip(game.state.players, table, strict=True))
    share = sum(kind[w] == "expert" for w in game.state.winners) / len(game.state.winners)
    points: dict[str, list[int]] = {"expert": [], "greedy": []}
    for result in game.state.rounds:
        for player, value in result.points.items():
            points[kind[player]].append(value)
    return share, points["expert"], points["greedy"]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def parse_style(items: list[str]) -> Style:
    kinds = {f.name: f.type for f in fields(Style)}
    changes: dict[str, float | int] = {}
    for item in items:
        key, _, raw = item.partition("=")
        if key not in kinds:
            raise SystemExit(f"unknown style field {key!r} (known: {', '.join(kinds)})")
        changes[key] = int(raw) if kinds[key] in (int, "int") else float(raw)
    return replace(Style(), **changes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--rulesets", default=",".join(BUILTINS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--style", action="append", default=[])
    args = parser.parse_args()
    style = parse_style(args.style)
    rulesets: list[str] = args.rulesets.split(",")
    print(f"expert vs greedy, heads-up, {args.matches} matches per ruleset, seats alternated")
    print(f"{'ruleset':9} {'expert wins':>11} {'95% interval':>14} {'pts/round e':>11} "
          f"{'pts/round g':>11} {'seconds':>8}")
    failed = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for ruleset in rulesets:
            started = time.perf_counter()
            results = list(pool.map(match, [ruleset] * args.matches, range(args.matches),
                                    [args.seed] * args.matches, [style] * args.matches,
                                    chunksize=8))
            wins = sum(r[0] for r in results)
            mine = [v for r in results for v in r[1]]
            theirs = [v for r in results for v in r[2]]
            low, high = wilson(wins, args.matches)
            rate = wins / args.matches
            print(f"{ruleset:9} {rate:>10.1%} {low:>6.1%}-{high:<6.1%} "
                  f"{sum(mine) / len(mine):>11.2f} {sum(theirs) / len(theirs):>11.2f} "
                  f"{time.perf_counter() - started:>8.1f}", flush=True)
            if rate < TARGET:
                failed.append(ruleset)
    if failed:
        print(f"below the {TARGET:.0%} target: {', '.join(failed)}")
    else:
        print(f"expert wins at least {TARGET:.0%} in every ruleset")


if __name__ == "__main__":
    main()
