"""Do ``cabo-log analyse``'s verdicts move with the seed? Seed 1 against seed 2 over a corpus.

    .venv/bin/python benchmarks/analysis_stability.py                      # 4 games, edition1
    .venv/bin/python benchmarks/analysis_stability.py --games 10 --ruleset golf --players 2

Each of ``--games`` simulated matches (greedy bots, game seeds from ``--seed``) is analysed at
the default settings twice, with analysis seeds 1 and 2 (``--seeds``). Reported, over all
decisions: the share with the same verdict in both runs (``??``, ``?``, ``?!``, none, or
"unclear"), the same share among the decisions marked (or unclear) in either run, the share
with the same mark (``??``, ``?``, ``?!`` or none, "unclear" being no mark), the largest and
the mean difference of a player's accuracy in a game between the two runs (and the same read
from every decision's low end of its interval, the rougher figure ``marks.counted_loss``
replaces), the spread of that difference summed from the decisions' differences (the root mean
square over the players' games of the sum of their decisions' squared differences, each over
the player's decisions: what the difference is on average, were the decisions' independent,
without hanging on the signs of the one or two largest), how many decisions were exact, judged
by the match, unclear; and the wall and CPU time per run (the reference, in the same run:
simulating the corpus once).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cabo_log.analysis.analyse import GameAnalysis, analyse_bytes  # noqa: E402
from cabo_log.analysis.evaluate import Settings, View  # noqa: E402
from cabo_log.analysis.marks import accuracy_of, band, game_accuracy  # noqa: E402
from cabo_log.play.simulate import game_seed, simulate  # noqa: E402


def cpu() -> float:
    """CPU seconds of this process (the workers are the forkserver's children, not ours:
    with ``--jobs 1`` this is the whole analysis)."""
    return time.process_time()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--ruleset", default="edition1")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="seed of the simulated games")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--seeds", default="1,2", help="the two analysis seeds compared")
    parser.add_argument("--rollouts", type=int, default=Settings().rollouts)
    parser.add_argument("--bot", default=Settings().policy, help="the rollout policy")
    args = parser.parse_args()
    started = time.process_time()
    games = [simulate(args.ruleset, players=args.players, seed=game_seed(args.seed, i))
             for i in range(args.games)]
    reference = time.process_time() - started
    runs: dict[int, list[GameAnalysis]] = {}
    walls: dict[int, float] = {}
    cpus: dict[int, float] = {}
    one, two = (int(x) for x in args.seeds.split(","))
    for seed in (one, two):
        wall, before = time.perf_counter(), cpu()
        settings = Settings(args.rollouts, seed, args.bot)
        runs[seed] = [analyse_bytes(g.lines(), settings=settings, jobs=args.jobs)
                      for g in games]
        walls[seed], cpus[seed] = time.perf_counter() - wall, cpu() - before
    same = either = either_same = total = exact = match = unclear = opposite = 0
    marks_same = marks_either = marks_either_same = 0   # "unclear" read as no mark
    # the same runs read with the sure band as the verdict (the mark of the low end of the
    # loss's interval: an undecided loss gets the milder mark, or none)
    sure_same = sure_either = sure_either_same = 0
    acc_diffs: list[float] = []
    low_diffs: list[float] = []     # the accuracy read from the low ends of the intervals
    # per player-game, the sum over their decisions of (difference of the decision's accuracy
    # between the runs / decisions)^2: the variance of the player's difference were the
    # decisions' independent, a spread that does not hang on one or two decisions' sign
    spreads: list[float] = []
    low_spreads: list[float] = []
    for a, b in zip(runs[one], runs[two], strict=True):
        for x, y in zip(a.decisions, b.decisions, strict=True):
            assert x.seq == y.seq
            total += 1
            same += x.verdict == y.verdict
            if x.verdict or y.verdict:
                either += 1
                either_same += x.verdict == y.verdict
                opposite += not x.verdict or not y.verdict
            mx, my = str(x.mark or "") if not x.unclear else "", \
                str(y.mark or "") if not y.unclear else ""
            marks_same += mx == my
            if mx or my:
                marks_either += 1
                marks_either_same += mx == my
            sx, sy = str(band(x.sure_loss) or ""), str(band(y.sure_loss) or "")
            sure_same += sx == sy
            if sx or sy:
                sure_either += 1
                sure_either_same += sx == sy
            exact += x.exact
            match += x.view is View.MATCH
            unclear += x.unclear + y.unclear
        for p, acc in a.accuracy().items():
            other = b.accuracy()[p]
            if acc is not None and other is not None:
                acc_diffs.append(abs(acc - other))
                lows = [game_accuracy([d.sure_loss for d in r.decisions
                                       if d.player == p and not d.forced]) for r in (a, b)]
                if lows[0] is not None and lows[1] is not None:
                    low_diffs.append(abs(lows[0] - lows[1]))
                pairs = [(x, y) for x, y in zip(a.decisions, b.decisions, strict=True)
                         if x.player == p and not x.forced]
                n = len(pairs)
                spreads.append(sum(((accuracy_of(x.counted_loss) - accuracy_of(y.counted_loss))
                                    / n) ** 2 for x, y in pairs))
                low_spreads.append(sum(((accuracy_of(x.sure_loss) - accuracy_of(y.sure_loss))
                                        / n) ** 2 for x, y in pairs))
    events = sum(len(g.events) for g in games)
    print(f"corpus: {args.games} {args.ruleset} matches, {args.players} players, {events} "
          f"events, {total} decisions; simulating it once took {reference:.2f} CPU s "
          "(reference)")
    print(f"same verdict, seed {one} and seed {two}: {100 * same / total:.1f} % of {total} "
          "decisions; "
          f"{100 * either_same / max(1, either):.1f} % of the {either} marked or unclear in "
          f"either run; {opposite} marked or unclear in one run and not in the other")
    print(f"same marks (unclear read as no mark): {100 * marks_same / total:.1f} % of "
          f"{total} decisions; {100 * marks_either_same / max(1, marks_either):.1f} % of the "
          f"{marks_either} marked in either run")
    print(f"read by the sure band (the milder mark where undecided): same verdict "
          f"{100 * sure_same / total:.1f} %; {100 * sure_either_same / max(1, sure_either):.1f} "
          f"% of the {sure_either} marked in either run")
    print(f"accuracy difference per player and game: mean {sum(acc_diffs) / len(acc_diffs):.2f}"
          f", largest {max(acc_diffs):.2f} points ({len(acc_diffs)} players x games); "
          f"counting every decision's low end instead: mean "
          f"{sum(low_diffs) / len(low_diffs):.2f}, largest {max(low_diffs):.2f}")
    rms = (sum(spreads) / len(spreads)) ** 0.5
    low_rms = (sum(low_spreads) / len(low_spreads)) ** 0.5
    print(f"spread of the accuracy difference from the decisions' differences (root mean "
          f"square over the players x games of their summed squares): {rms:.2f} points; "
          f"counting every decision's low end instead: {low_rms:.2f}")
    print(f"exact {exact}, judged by the match {match}, unclear {unclear} (both runs) "
          f"of {total}")
    for seed in (one, two):
        used = (f"{cpus[seed]:.1f} CPU s ({cpus[seed] / reference:.0f}x the reference)"
                if args.jobs == 1 else "CPU in the workers (use --jobs 1 to count it)")
        print(f"seed {seed}: {walls[seed]:.1f} s wall, {used}, "
              f"{walls[seed] / args.games:.1f} s per match")


if __name__ == "__main__":
    main()
