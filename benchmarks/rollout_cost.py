"""CPU time per event of each rollout bot against greedy's: the weights of
``cabo_log.analysis.rollout.POLICY_COST``.

    .venv/bin/python benchmarks/rollout_cost.py [--rounds 40] [--players 3]

For each ruleset, ``--rounds`` rounds are dealt and played to their end by each bot (the same
deals), as the analysis' rollouts play them (``rollout.Table``); printed: events, CPU time,
microseconds per event and the ratio to greedy's, measured in the same run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cabo_log.analysis.rollout import Table  # noqa: E402
from engine import new_game  # noqa: E402
from engine.events import GameStart  # noqa: E402
from engine.rulesets import BUILTINS  # noqa: E402


def per_event(ruleset: str, bot: str, rounds: int, players: int) -> tuple[int, float]:
    """(events, CPU seconds) of ``rounds`` rounds played by ``bot`` at every seat."""
    rules = BUILTINS[ruleset]
    rng = random.Random(1)
    events, cpu = 0, 0.0
    for _ in range(rounds):
        g = new_game(GameStart(0, False, "cost", rules.name, {},
                               tuple(f"p{k}" for k in range(players)), None, None), rules)
        g.seq_mode = False
        table = Table(g, bot, rng)
        table.deal()
        before, started = g.events, time.process_time()
        table.play_round(since=0)
        cpu += time.process_time() - started
        events += g.events - before
    return events, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bots", default="greedy,expert,expert1,random")
    args = parser.parse_args()
    for ruleset in BUILTINS:
        base = 0.0
        for bot in args.bots.split(","):
            events, cpu = per_event(ruleset, bot, args.rounds, args.players)
            us = 1e6 * cpu / max(1, events)
            base = base or us
            print(f"{ruleset:9} {bot:8} {events:6} events {cpu:6.2f} CPU s {us:6.0f} us/event"
                  f"  {us / base:5.1f}x greedy")


if __name__ == "__main__":
    main()
