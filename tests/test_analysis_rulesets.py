"""Hand-worked positions in each of the four rulesets (``tests/ruleset_positions.py``, the
arithmetic in each builder's docstring): a clear blunder gets ``??`` and the best move, or one
within a point of it, gets no mark, on every seed tried, at the default settings. An exact
decision draws no random numbers, so one seed stands for all; a sampled one is tried on
``SEEDS`` (``python benchmarks/analysis_positions.py --seeds 10`` runs them on more).
"""

from __future__ import annotations

import pytest
from ruleset_positions import BLUNDERS, NO_MARK

from cabo_log.analysis.analyse import DecisionResult, summarise
from cabo_log.analysis.decisions import read_decisions
from cabo_log.analysis.evaluate import Settings, View, evaluate
from cabo_log.analysis.marks import Mark

SEEDS = (1, 2, 3)
RULESETS = ("edition1", "edition2", "golf", "online")


def verdicts(build: object, seeds: tuple[int, ...] = SEEDS) -> list[DecisionResult]:
    """The last decision of the position's log, analysed on each seed (one when exact)."""
    assert callable(build)
    decision = read_decisions(build().to_bytes()).decisions[-1]
    out = []
    for seed in seeds:
        out.append(summarise(evaluate(decision, Settings(seed=seed))))
        if out[-1].exact:
            break
    return out


def test_every_ruleset_has_positions_both_ways() -> None:
    for ruleset in RULESETS:
        assert len(BLUNDERS[ruleset]) >= 3, ruleset
        assert len(NO_MARK[ruleset]) >= 2, ruleset


@pytest.mark.parametrize(("ruleset", "name"),
                         [(r, n) for r in RULESETS for n in sorted(BLUNDERS[r])])
def test_a_clear_blunder_is_marked_on_every_seed(ruleset: str, name: str) -> None:
    for d in verdicts(BLUNDERS[ruleset][name]):
        assert d.mark is Mark.BLUNDER and not d.unclear, (ruleset, name, d.text())
        assert d.loss >= 6.0


@pytest.mark.parametrize(("ruleset", "name"),
                         [(r, n) for r in RULESETS for n in sorted(NO_MARK[r])])
def test_the_best_move_or_one_within_a_point_gets_no_mark(ruleset: str, name: str) -> None:
    for d in verdicts(NO_MARK[ruleset][name]):
        assert d.mark is None and not d.unclear, (ruleset, name, d.text())
        assert d.loss < 1.5


def test_the_reset_positions_are_judged_by_the_match() -> None:
    """The exact-100 positions are judged by the match in both editions; by round points
    keeping the 10 would be the worse move."""
    for ruleset in ("edition1", "edition2"):
        d = verdicts(BLUNDERS[ruleset]["90: 8 replaced, 100 -> 50 missed"])[0]
        assert d.view is View.MATCH and d.exact and d.best_text == "discard", d.text()
        assert d.round_loss == 0.0
        assert d.best_match_win is not None and d.match_win is not None
        assert d.best_match_win - d.match_win > 10.0
    # one point apart: at 91, keeping the 10 makes 101 and ends the match lost
    d = verdicts(NO_MARK["edition1"]["91: the 8 replaced, 101 avoided"])[0]
    assert d.view is View.MATCH and d.best_text == "replace 0"
    assert d.options and min(o.match_win or 0.0 for o in d.options) == 0.0
