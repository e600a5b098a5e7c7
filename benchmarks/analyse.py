"""Speed of ``cabo-log analyse`` and how the noise of its marks falls with more rollouts.

    .venv/bin/python benchmarks/analyse.py                       # speed: one core, all cores
    .venv/bin/python benchmarks/analyse.py --noise 60 --rollouts 4,8,16,32

Speed: a typical match (3 players, edition1, greedy bots, game seed 1 of ``--seed``) analysed
with the default settings (sequential sampling: ``--rollouts`` worlds first, up to 8x for the
options still in contention), on one core (``jobs=1``) and on every core; decisions/s, rollouts/s
and the wall time of the whole match. The reference, measured in the same run, is simulating
that same match once (bots playing every event): the analysis costs that many times more CPU
time. On a shared machine, wall time depends on the load; CPU time much less.

Noise: ``--noise N`` decisions (spread over the match) are analysed twice with different seeds
at each rollout count; reported are the mean absolute difference of the loss between the two
runs and how often the two runs give the same mark (no mark counts as a mark).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cabo_log.analysis import evaluate as ev  # noqa: E402
from cabo_log.analysis.analyse import analyse_bytes, summarise  # noqa: E402
from cabo_log.analysis.decisions import read_decisions  # noqa: E402
from cabo_log.analysis.evaluate import DEFAULT_ROLLOUTS, Settings, evaluate  # noqa: E402
from cabo_log.play.simulate import game_seed, simulate  # noqa: E402


def children_cpu() -> float:
    """CPU seconds of this process' children and everything they reaped (the worker pool's
    forkserver reaps the workers, which ``RUSAGE_CHILDREN`` would only count once the
    forkserver itself is reaped): utime + stime + cutime + cstime from /proc (Linux)."""
    me, tick, total = os.getpid(), os.sysconf("SC_CLK_TCK"), 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me:    # ppid
            total += sum(int(x) for x in fields[11:15]) / tick
    return total


class Counting:
    """Counts rollouts (in this process) while the benchmark runs."""

    def __init__(self) -> None:
        self.calls = 0
        self.inner = ev.play_out

    def __call__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.calls += 1
        return self.inner(*args, **kwargs)


def speed(data: bytes, rollouts: int, jobs: int, bot: str) -> tuple[int, float, float]:
    """(decisions, wall seconds, CPU seconds of this process) of analysing the whole game."""
    started, cpu = time.perf_counter(), time.process_time()
    result = analyse_bytes(data, settings=Settings(rollouts=rollouts, policy=bot), jobs=jobs)
    return len(result.decisions), time.perf_counter() - started, time.process_time() - cpu


def noise(data: bytes, count: int, counts: list[int]
          ) -> list[tuple[int, float, float, float, int]]:
    """(rollouts, mean |loss difference|, share of equal marks, share of equal marks among
    decisions marked by either run, decisions) per count."""
    record = read_decisions(data)
    chosen = [d for d in record.decisions if not d.forced]
    step = max(1, len(chosen) // count)
    sample = chosen[::step][:count]
    out = []
    for n in counts:
        a = [summarise(evaluate(d, Settings(rollouts=n, seed=1))) for d in sample]
        b = [summarise(evaluate(d, Settings(rollouts=n, seed=2))) for d in sample]
        diff = sum(abs(x.loss - y.loss) for x, y in zip(a, b, strict=True)) / len(sample)
        same = sum(1 for x, y in zip(a, b, strict=True) if x.mark == y.mark) / len(sample)
        either = [(x, y) for x, y in zip(a, b, strict=True) if x.mark or y.mark]
        agree = sum(1 for x, y in either if x.mark == y.mark) / max(1, len(either))
        out.append((n, diff, same, agree, len(sample)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ruleset", default="edition1")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rollouts", default="", help="comma list, for --noise")
    parser.add_argument("--noise", type=int, default=0, metavar="DECISIONS")
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--bot", default=Settings().policy, help="the rollout policy")
    parser.add_argument("--cores-only", action="store_true",
                        help="time the analysis on every core only (not on one core first)")
    parser.add_argument("--one-core-only", action="store_true",
                        help="time the analysis on one core only")
    args = parser.parse_args()
    started = time.process_time()
    game = simulate(args.ruleset, players=args.players, seed=game_seed(args.seed, 1))
    reference = time.process_time() - started
    data = game.lines()
    print(f"match: {args.ruleset}, {args.players} players, {game.rounds} rounds, "
          f"{len(game.events)} events; simulating it once took {reference:.3f} CPU s "
          "(reference)")
    if not args.no_speed:
        if not args.cores_only:
            counter = Counting()
            ev.play_out = counter  # type: ignore[assignment]
            decisions, wall, cpu = speed(data, DEFAULT_ROLLOUTS, 1, args.bot)
            ev.play_out = counter.inner  # type: ignore[assignment]
            print(f"one core, --bot {args.bot}: {decisions} decisions in "
                  f"{wall:.1f} s (CPU {cpu:.1f} s): {decisions / wall:.1f} decisions/s, "
                  f"{counter.calls / wall:.0f} rollouts/s, {counter.calls / decisions:.1f} "
                  f"rollouts per decision; {cpu / reference:.0f}x the reference in CPU time")
        cores = os.cpu_count() or 1
        if not args.one_core_only:
            before = children_cpu()
            decisions, wall, cpu = speed(data, DEFAULT_ROLLOUTS, cores, args.bot)
            time.sleep(0.5)    # the forkserver reaps the last workers
            workers = children_cpu() - before
            print(f"{cores} cores, --bot {args.bot}: {decisions} decisions in {wall:.1f} s: "
                  f"{decisions / wall:.1f} decisions/s; "
                  f"CPU of the workers {workers:.1f} s (wall on {cores} idle cores >= "
                  f"{(workers + cpu) / cores:.1f} s)")
    if args.noise:
        counts = [int(x) for x in (args.rollouts or "4,8,16,32").split(",")]
        print("rollouts  mean |loss seed 1 - seed 2|  same mark  same mark if marked  decisions")
        for n, diff, same, agree, size in noise(data, args.noise, counts):
            print(f"{n:>8}  {diff:>26.2f}  {100 * same:>7.0f} %  {100 * agree:>17.0f} %  "
                  f"{size:>9}")


if __name__ == "__main__":
    main()
