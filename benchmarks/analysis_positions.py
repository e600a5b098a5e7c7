"""The hand-worked positions of every ruleset (``tests/ruleset_positions.py``) on many seeds:
``python benchmarks/analysis_positions.py --seeds 10 [--bot expert] [--only golf]``.

Each position's last decision is analysed at the default settings on seeds 1..N (once when
exact: an enumeration draws no random numbers); a line per position says whether every seed
gave the expected verdict (``??`` for a blunder, no mark for the best move or one within a
point), with its CPU time and the first seed's sentence; failures list every seed's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from ruleset_positions import BLUNDERS, NO_MARK  # noqa: E402

from cabo_log.analysis.analyse import summarise  # noqa: E402
from cabo_log.analysis.decisions import read_decisions  # noqa: E402
from cabo_log.analysis.evaluate import Settings, evaluate  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--bot", default=Settings().policy)
    ap.add_argument("--only", default="", help="positions whose ruleset or name has this")
    args = ap.parse_args()
    failures = positions = 0
    start = time.process_time()
    for want, table in (("??", BLUNDERS), ("", NO_MARK)):
        for ruleset, named in table.items():
            for name, build in named.items():
                if args.only and args.only not in f"{ruleset} {name}":
                    continue
                positions += 1
                t0 = time.process_time()
                decision = read_decisions(build().to_bytes()).decisions[-1]
                bad, first = [], ""
                for seed in range(1, args.seeds + 1):
                    d = summarise(evaluate(decision, Settings(seed=seed, policy=args.bot)))
                    ok = d.verdict == "??" if want else (d.verdict == "" and d.loss < 1.5)
                    first = first or d.text()
                    if not ok:
                        bad.append(f"      seed {seed}: {d.text()}")
                    if d.exact:
                        break
                failures += bool(bad)
                cpu = time.process_time() - t0
                print(f"{'FAIL' if bad else 'ok  '} {ruleset:9} {want or 'none':4} "
                      f"{name:40} {cpu:5.1f} CPU s  {first}")
                for line in bad:
                    print(line)
    print(f"{positions} positions, {failures} failing, seeds 1-{args.seeds}, --bot {args.bot}, "
          f"{time.process_time() - start:.1f} CPU s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
