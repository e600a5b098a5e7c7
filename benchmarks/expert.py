"""How often ``expert`` beats ``greedy`` (or ``expert1``) heads-up, in every ruleset, and how
fast it decides.

    .venv/bin/python benchmarks/expert.py --jobs 2                 # 400 matches per ruleset
    .venv/bin/python benchmarks/expert.py --versus expert1 --jobs 2
    .venv/bin/python benchmarks/expert.py --matches 100 --rulesets golf,online --jobs 2
    .venv/bin/python benchmarks/expert.py --style call_chance=0.7 --style peek_value=2
    .venv/bin/python benchmarks/expert.py --speed 40               # decisions/s against greedy

Each match is a complete two-player match (default options) with the seats alternated: match
``i`` seats expert first when ``i`` is even. A shared win counts as half a win to each. The
95 % interval is Wilson's. ``--style`` overrides one of ``cabo_log.play.expert.Style``'s fields
(over the ruleset's own, ``expert.STYLES``), for tuning. The targets: at least 85 % against
greedy in every ruleset, at least 60 % against expert1 (its first revision, kept as a
reference).

``--speed N`` plays N heads-up expert-vs-greedy matches per ruleset in this process and times
every decision of each bot (``choose``, ``snap``, ``peek``) in the same run: the expert's
decisions per second as a ratio of greedy's, which is what a rollout pays for a policy.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cabo_log.play import bots as bots_module  # noqa: E402
from cabo_log.play.expert import ExpertBot, Style, style_for  # noqa: E402
from cabo_log.play.simulate import game_seed, simulate  # noqa: E402
from engine import BUILTINS  # noqa: E402

TARGETS = {"greedy": 0.85, "expert1": 0.60}


def match(ruleset: str, index: int, seed: int, changes: dict[str, float | int],
          versus: str = "greedy") -> tuple[float, list[int], list[int]]:
    """One heads-up match: (expert's share of the win, expert's and the other's round
    points). ``changes``: fields of the ruleset's ``Style`` (``style_for``) overridden."""
    bots_module.BOTS["expert"] = lambda rules: ExpertBot(rules, replace(style_for(rules),
                                                                        **changes))
    table = ["expert", versus] if index % 2 == 0 else [versus, "expert"]
    game = simulate(ruleset, players=2, seed=game_seed(seed, index), bots=table)
    kind = dict(zip(game.state.players, table, strict=True))
    share = sum(kind[w] == "expert" for w in game.state.winners) / len(game.state.winners)
    points: dict[str, list[int]] = {"expert": [], versus: []}
    for result in game.state.rounds:
        for player, value in result.points.items():
            points[kind[player]].append(value)
    return share, points["expert"], points[versus]


class Timed:
    """A bot whose every decision is timed (CPU seconds, this process)."""

    def __init__(self, inner: Any, clock: dict[str, list[float]]) -> None:
        self.inner = inner
        self.name = inner.name
        self.clock = clock.setdefault(inner.name, [0.0, 0.0])

    def _timed(self, method: str, *args: Any) -> Any:
        started = time.process_time()
        out = getattr(self.inner, method)(*args)
        self.clock[0] += time.process_time() - started
        self.clock[1] += 1
        return out

    def choose(self, *args: Any) -> Any:
        return self._timed("choose", *args)

    def peek(self, *args: Any) -> Any:
        return self._timed("peek", *args)

    def snap(self, *args: Any) -> Any:
        return self._timed("snap", *args)


def timed_factory(factory: Any, clock: dict[str, list[float]]) -> Any:
    """A bot factory whose bots are ``Timed`` into ``clock``."""
    return lambda rules: Timed(factory(rules), clock)


def speed(rulesets: list[str], matches: int, seed: int) -> None:
    """Decisions per second of expert (and of expert1) against greedy's, each pair timed in
    the same matches."""
    print(f"decision speed, {matches} heads-up matches per ruleset against greedy, CPU time "
          "of each bot's decisions; ratio = decisions/s over greedy's in the same matches")
    print(f"{'ruleset':9} {'bot':8} {'dec/s':>8} {'greedy dec/s':>12} {'ratio':>7}")
    plain = dict(bots_module.BOTS)
    for ruleset in rulesets:
        for bot in ("expert", "expert1"):
            clock: dict[str, list[float]] = {}
            for name in (bot, "greedy"):
                bots_module.BOTS[name] = timed_factory(plain[name], clock)
            for index in range(matches):
                table = [bot, "greedy"] if index % 2 == 0 else ["greedy", bot]
                simulate(ruleset, players=2, seed=game_seed(seed, index), bots=table)
            rate = {k: v[1] / v[0] for k, v in clock.items()}
            print(f"{ruleset:9} {bot:8} {rate[bot]:>8,.0f} {rate['greedy']:>12,.0f} "
                  f"{rate[bot] / rate['greedy']:>6.2f}x", flush=True)
            bots_module.BOTS.update(plain)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def parse_style(items: list[str]) -> dict[str, float | int]:
    kinds = {f.name: f.type for f in fields(Style)}
    changes: dict[str, float | int] = {}
    for item in items:
        key, _, raw = item.partition("=")
        if key not in kinds:
            raise SystemExit(f"unknown style field {key!r} (known: {', '.join(kinds)})")
        changes[key] = int(raw) if kinds[key] in (int, "int") else float(raw)
    return changes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--versus", choices=sorted(TARGETS), default="greedy")
    parser.add_argument("--speed", type=int, default=0, metavar="N",
                        help="time N matches per ruleset instead (decisions per second)")
    parser.add_argument("--rulesets", default=",".join(BUILTINS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--style", action="append", default=[])
    args = parser.parse_args()
    changes = parse_style(args.style)
    rulesets: list[str] = args.rulesets.split(",")
    if args.speed:
        speed(rulesets, args.speed, args.seed)
        return
    versus: str = args.versus
    target = TARGETS[versus]
    print(f"expert vs {versus}, heads-up, {args.matches} matches per ruleset, seats alternated")
    print(f"{'ruleset':9} {'expert wins':>11} {'95% interval':>14} {'pts/round e':>11} "
          f"{'pts/round ' + versus:>14} {'seconds':>8}")
    failed = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for ruleset in rulesets:
            started = time.perf_counter()
            results = list(pool.map(match, [ruleset] * args.matches, range(args.matches),
                                    [args.seed] * args.matches, [changes] * args.matches,
                                    [versus] * args.matches, chunksize=8))
            wins = sum(r[0] for r in results)
            mine = [v for r in results for v in r[1]]
            theirs = [v for r in results for v in r[2]]
            low, high = wilson(wins, args.matches)
            rate = wins / args.matches
            print(f"{ruleset:9} {rate:>10.1%} {low:>6.1%}-{high:<6.1%} "
                  f"{sum(mine) / len(mine):>11.2f} {sum(theirs) / len(theirs):>14.2f} "
                  f"{time.perf_counter() - started:>8.1f}", flush=True)
            if rate < target:
                failed.append(ruleset)
    if failed:
        print(f"below the {target:.0%} target against {versus}: {', '.join(failed)}")
    else:
        print(f"expert wins at least {target:.0%} against {versus} in every ruleset")


if __name__ == "__main__":
    main()
