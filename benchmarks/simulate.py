"""Simulation throughput per ruleset, and the strength of greedy against random.

    python benchmarks/simulate.py                 # games/s and events/s per ruleset
    python benchmarks/simulate.py --games 200 --players 4 --bots greedy,random
    python benchmarks/simulate.py --versus 300    # greedy vs random, heads-up
    python benchmarks/simulate.py --cabo-rl /path/to/cabo-rl   # the reference ratio

``--cabo-rl PATH`` times, in the same run, 300 two-player random-bot edition1 matches of
cabo-log against as many matches of the public engine cabo-rl (flosoellner/cabo-rl, its
``python/cabo_rl/rules.py``: ``play_round`` until a player wins, ``RandomPolicy`` on both
seats) from a checkout at PATH, which is imported from there and never copied into this
repository. The figure is the ratio of CPU times (cabo-log / cabo-rl), each the best of
three interleaved runs. cabo-rl plays in memory with ints for cards and records no log;
cabo-log checks every event with the engine and records the log's lines as well. Two parts
of it are timed alone on the same events: the write path (stamp, encode, apply, keep) and
the engine's apply. The figures are those of the build the interpreter runs (printed:
``compiled`` or ``pure``, docs/compiled.md).

Throughput counts the whole of ``simulate`` (shuffles, bots, the engine applying every event,
the claims), in memory: no file is written. Each ruleset runs its default options.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any

from cabo_log.build_info import build_kind
from cabo_log.log.append import EventWriter, MemorySink
from cabo_log.play.lines import line_bytes, make_event, plan, stamp_fields
from cabo_log.play.simulate import game_seed, simulate
from engine import BUILTINS, Event, apply, new_game


def throughput(ruleset: str, games: int, players: int, bots: str, seed: int
               ) -> tuple[int, int, float, float]:
    """(rounds, events, wall seconds, CPU seconds) of simulating ``games`` matches."""
    rounds = events = 0
    started, cpu = time.perf_counter(), time.process_time()
    for index in range(games):
        game = simulate(ruleset, players=players, seed=game_seed(seed, index), bots=bots)
        rounds += game.rounds
        events += game.lines().count(b"\n")
    return rounds, events, time.perf_counter() - started, time.process_time() - cpu


def cabo_rl_matches(checkout: Path, games: int, seed: int) -> tuple[float, int]:
    """(CPU seconds, rounds) for ``games`` matches of cabo-rl's own engine, random policies."""
    import random

    if str(checkout / "python") not in sys.path:
        sys.path.insert(0, str(checkout / "python"))
    from cabo_rl import rules  # type: ignore[import-not-found]

    rounds = 0
    cpu = time.process_time()
    for index in range(games):
        rng = random.Random(game_seed(seed, index))
        state = rules.new_game_state(rng)
        policies = {"human": rules.RandomPolicy(rng), "agent": rules.RandomPolicy(rng)}
        starter = "human"
        while True:
            outcome = rules.play_round(state, rng, policies, starter)
            rounds += 1
            if outcome.winner is not None:
                break
            starter = outcome.next_starter
    return time.process_time() - cpu, rounds


def _logs(games: int, seed: int) -> list[tuple[dict[str, Any], list[Event]]]:
    """The header line and the events of the same matches, decoded beforehand (not timed)."""
    from cabo_log.log.logfile import parse_line

    out = []
    for index in range(games):
        game = simulate("edition1", players=2, seed=game_seed(seed, index), bots="random")
        out.append((game.events[0], [parse_line(line) for line in game.lines().splitlines()]))
    return out


def apply_only(logs: list[tuple[dict[str, Any], list[Event]]]) -> float:
    """CPU seconds of the engine alone applying the events of the matches: the floor under
    ``simulate``, which also decides, observes, stamps, encodes and checks every line."""
    cpu = time.process_time()
    for _, events in logs:
        state = new_game(events[0])   # type: ignore[arg-type]
        for event in events[1:]:
            apply(state, event)
    return time.process_time() - cpu


def record_only(logs: list[tuple[dict[str, Any], list[Event]]]) -> float:
    """CPU seconds of the simulator's write path alone on the same events: each stamped
    with its seq, encoded (a decision's line written out as bytes, the others as a dict),
    applied by the engine and kept (``EventWriter.append_encoded``/``append_stamped``), as
    ``Recorder`` does, with no bot, observation or move list."""
    fields = [(header, [(type(e), plan(type(e))[1](e), e.auto) for e in events[1:]])
              for header, events in logs]
    cpu = time.process_time()
    for header, plans in fields:
        writer = EventWriter(MemorySink())
        writer.append(header)
        for seq, (kind, values, auto) in enumerate(plans, start=1):
            raw = line_bytes(kind, seq, auto, values)   # as Recorder._record writes them
            if raw is not None:
                writer.append_encoded(make_event(kind, seq, auto, values), raw)
            else:
                writer.append_stamped(*stamp_fields(kind, seq, auto, values))
    return time.process_time() - cpu


def measure(checkout: Path, games: int, seed: int) -> dict[str, Any]:
    """Best of three interleaved runs (the machine is shared) of simulate, cabo-rl, the
    write path alone and apply alone, in CPU seconds."""
    logs = _logs(games, seed)
    best = {"simulate": float("inf"), "cabo-rl": float("inf"), "record": float("inf"),
            "apply": float("inf")}
    for _ in range(3):
        gc.collect()
        rounds, events, _, cpu = throughput("edition1", games, 2, "random", seed)
        best["simulate"] = min(best["simulate"], cpu)
        cpu, their_rounds = cabo_rl_matches(checkout, games, seed)
        best["cabo-rl"] = min(best["cabo-rl"], cpu)
        best["record"] = min(best["record"], record_only(logs))
        best["apply"] = min(best["apply"], apply_only(logs))
    return {**best, "rounds": rounds, "their_rounds": their_rounds, "events": events}


def report(label: str, games: int, m: dict[str, Any]) -> None:
    theirs = m["cabo-rl"]
    print(f"{label}: {games} two-player random-bot edition1 matches, CPU seconds, best of 3")
    print(f"  cabo-rl            {theirs:7.2f} s  ({m['their_rounds'] / games:.1f} rounds/match)")
    print(f"  cabo-log simulate  {m['simulate']:7.2f} s  = {m['simulate'] / theirs:5.2f}x cabo-rl"
          f"  ({m['rounds'] / games:.1f} rounds/match, {m['events'] / m['simulate']:,.0f} "
          f"events/s)")
    print(f"  of which the write path alone (stamp, encode, apply, keep): {m['record']:.2f} s = "
          f"{m['record'] / theirs:.2f}x")
    print(f"  of which the engine's apply alone: {m['apply']:.2f} s = {m['apply'] / theirs:.2f}x")


def versus(ruleset: str, games: int, seed: int) -> dict[str, tuple[float, float, int]]:
    """Heads-up greedy vs random, seats alternating: (win rate, points per round, rounds)."""
    wins = {"greedy": 0.0, "random": 0.0}
    points: dict[str, list[int]] = {"greedy": [], "random": []}
    for index in range(games):
        table = ["greedy", "random"] if index % 2 == 0 else ["random", "greedy"]
        game = simulate(ruleset, players=2, seed=game_seed(seed, index), bots=table)
        kind = dict(zip(game.state.players, table, strict=True))
        for winner in game.state.winners:
            wins[kind[winner]] += 1 / len(game.state.winners)
        for result in game.state.rounds:
            for player, value in result.points.items():
                points[kind[player]].append(value)
    return {k: (wins[k] / games, sum(points[k]) / max(len(points[k]), 1), len(points[k]))
            for k in wins}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per ruleset")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rulesets", default=",".join(BUILTINS))
    parser.add_argument("--versus", type=int, default=0, metavar="GAMES",
                        help="instead: greedy vs random heads-up over GAMES games per ruleset")
    parser.add_argument("--cabo-rl", type=Path, metavar="PATH",
                        help="instead: the ratio to cabo-rl (a checkout at PATH), 300 matches")
    args = parser.parse_args()
    if args.cabo_rl:
        games = 300 if args.games == 100 else args.games
        report(f"{build_kind()} build", games, measure(args.cabo_rl, games, args.seed))
        return
    rulesets = args.rulesets.split(",")
    if args.versus:
        print(f"greedy vs random, 2 players, seats alternating, {args.versus} games per ruleset")
        print(f"{'ruleset':<9} {'greedy wins':>11} {'random wins':>11} "
              f"{'greedy pts/rnd':>14} {'random pts/rnd':>14}")
        for ruleset in rulesets:
            result = versus(ruleset, args.versus, args.seed)
            g, r = result["greedy"], result["random"]
            print(f"{ruleset:<9} {g[0]:>11.1%} {r[0]:>11.1%} {g[1]:>14.1f} {r[1]:>14.1f}")
        return
    print(f"{args.games} games per ruleset, {args.players} players, bots {args.bots}, "
          f"Python {sys.version.split()[0]}")
    print(f"{'ruleset':<9} {'games/s':>8} {'events/s':>9} {'events/game':>11} "
          f"{'rounds/game':>11} {'wall s':>7} {'cpu s':>6}")
    for ruleset in rulesets:
        rounds, events, wall, cpu = throughput(ruleset, args.games, args.players, args.bots,
                                               args.seed)
        print(f"{ruleset:<9} {args.games / wall:>8.1f} {events / wall:>9.0f} "
              f"{events / args.games:>11.0f} {rounds / args.games:>11.1f} {wall:>7.2f} "
              f"{cpu:>6.2f}")


if __name__ == "__main__":
    main()
