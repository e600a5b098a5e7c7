"""The sequential sampling's rules on hand-built values: every world's points are written
here (the rollouts are replaced), so what the rule does with them is arithmetic."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from analysis_logs import must_fail_log

from cabo_log.analysis import evaluate as ev_module
from cabo_log.analysis.analyse import summarise
from cabo_log.analysis.decisions import Decision, option_key, read_decisions
from cabo_log.analysis.evaluate import OptionResult, Settings, View, evaluate
from cabo_log.analysis.marks import Mark

Values = Callable[[str, int], float]


def _decision() -> Decision:
    """A round-1 decision with several options (edition2, a 13 drawn), judged by round
    points."""
    return read_decisions(must_fail_log().to_bytes()).decisions[-1]


def _run(monkeypatch: pytest.MonkeyPatch, values: Values, settings: Settings | None = None
         ) -> ev_module.Evaluation:
    """``evaluate`` with world k of an option worth ``values(role, k)`` points: role
    "chosen" for the chosen move, "rival" for the first other option, "other" for the rest
    (30 points worse: screened out at once). Nothing is exact: the enumeration is off."""
    decision = _decision()
    chosen = option_key(decision.chosen)
    rival = next(option_key(m) for m in decision.options if option_key(m) != chosen)

    def play(self: object, result: OptionResult, stop: int) -> None:
        key = option_key(result.move)
        role = "chosen" if key == chosen else "rival" if key == rival else "other"
        for k in range(len(result.points), stop):
            result.points.append(values(role, k) + (30.0 if role == "other" else 0.0))

    monkeypatch.setattr(ev_module._Runner, "__call__", play)
    settings = settings or Settings(seed=1, exact=False)
    return evaluate(decision, settings)


def _paired(low: float, high: float) -> Values:
    """The chosen move ``low`` and ``high`` points worse than the rival in alternate worlds
    (the rival scoring 10)."""
    return lambda role, k: 10.0 + (0.0 if role != "chosen" else (low if k % 2 else high))


def test_a_loss_that_could_be_a_blunder_gets_a_second_look(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """The chosen move is 10 or 4 points worse in alternate worlds: 7 +- 1.09 after the 32
    worlds of the budget (standard deviation 3.05, standard error 0.54, t 2.04): 5.9 to
    8.1, a mistake or a blunder, undecided. A second look plays the two in 64 worlds: 7 +-
    0.76 (t 2.00), 6.2 to 7.8: a blunder, decided. Without it (``SECOND_LOOK`` 1, the old
    rule) the budget ends at 32 worlds, undecided and unclear (counted as a sure ``?``, 3)."""
    e = _run(monkeypatch, _paired(4.0, 10.0))
    assert e.view is View.ROUND and not e.exact
    assert e.settled and len(e.chosen.points) == 64 and len(e.best.points) == 64
    assert e.loss == pytest.approx(7.0)
    d = summarise(e)
    assert d.mark is Mark.BLUNDER and not d.unclear and d.counted_loss == pytest.approx(
        d.sure_loss) and d.sure_loss > 6.0
    # the options screened out are not played on
    assert all(len(r.points) == 4 for r in e.options if r is not e.chosen and r is not e.best)
    monkeypatch.setattr(ev_module, "SECOND_LOOK", 1)
    old = _run(monkeypatch, _paired(4.0, 10.0))
    assert not old.settled and len(old.chosen.points) == 32
    assert summarise(old).unclear and summarise(old).counted_loss == 3.0


def test_a_loss_that_cannot_be_a_blunder_gets_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """5 or 1 points worse in alternate worlds: 3 +- 0.73 after 32 worlds, 2.3 to 3.7: a
    dubious move or a mistake, undecided, and no blunder in reach: the budget ends there
    (counted as a sure ``?!``, 1.5)."""
    e = _run(monkeypatch, _paired(1.0, 5.0))
    assert not e.settled and len(e.chosen.points) == 32
    assert summarise(e).counted_loss == 1.5


def test_the_second_look_stops_at_twice_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A loss of exactly 6 (9 or 3 points) never leaves the blunder's threshold: the second
    look ends at 2 x 32 = 64 worlds, undecided (6 +- 0.76: 5.2 to 6.8), and unclear."""
    e = _run(monkeypatch, _paired(3.0, 9.0))
    assert not e.settled and len(e.chosen.points) == 64 and len(e.best.points) == 64
    assert summarise(e).unclear


def test_a_best_that_takes_over_after_the_second_look_is_played_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two rivals: A scores 10 in the first 32 worlds and 14 after, B 8 or 14 in alternate
    worlds (11 on average, never clearly worse than A: 1 +- 3.05 per world); the chosen move
    20 or 14 (7 worse than A over 32 worlds: 5.9 to 8.1, undecided, a blunder in reach).
    The second look plays the chosen move and A in 64 worlds, where A averages 12: B, seen
    in 32, is now the best. Paired over those 32 the loss is 6 +- 2.2; B is played up to the
    chosen move's 64 worlds, over which it is 6 +- 1.5 (4.5 to 7.5: still undecided)."""
    decision = _decision()
    chosen = option_key(decision.chosen)
    others = [option_key(m) for m in decision.options if option_key(m) != chosen]

    def value(key: object, k: int) -> float:
        if key == chosen:
            return 14.0 if k % 2 else 20.0
        if key == others[0]:
            return 10.0 if k < 32 else 14.0
        if key == others[1]:
            return 14.0 if k % 2 else 8.0
        return 40.0

    def play(self: object, result: OptionResult, stop: int) -> None:
        for k in range(len(result.points), stop):
            result.points.append(value(option_key(result.move), k))

    monkeypatch.setattr(ev_module._Runner, "__call__", play)
    e = evaluate(decision, Settings(seed=1, exact=False))
    assert option_key(e.best.move) == others[1]
    assert len(e.chosen.points) == 64 and len(e.best.points) == 64 and e.paired_worlds == 64
    assert e.loss == pytest.approx(6.0) and not e.settled
    assert summarise(e).unclear and summarise(e).counted_loss == 3.0


def test_a_tie_in_the_first_worlds_is_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chosen move ties the rival (10 points) in each of the first four worlds, a paired
    error of 0: nothing could beat it by any mark, yet that is no verdict. From world 4 on it
    is 12 points worse in every other world; played on to eight worlds it is no longer the
    best (3 points worse over eight), and the budget and the second look end it at 64 worlds:
    5.6 +- 1.5, a sure ``?``, unclear. Settled at four worlds it would have counted as the
    best move (nothing given away)."""
    e = _run(monkeypatch, lambda role, k: 10.0 + (12.0 if role == "chosen" and k >= 4
                                                   and k % 2 else 0.0))
    assert e.best is not e.chosen and len(e.chosen.points) == 64
    assert e.loss == pytest.approx(30 * 12.0 / 64)
    d = summarise(e)
    assert not d.settled and d.unclear and d.counted_loss == 3.0


def test_the_chosen_move_is_not_settled_as_best_before_eight_worlds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every option ties in every world: the chosen move is the best (a tie is no loss),
    settled once it has been so in eight worlds, not in the first four."""
    e = _run(monkeypatch, lambda role, k: 10.0)
    assert e.best is e.chosen and e.settled and len(e.chosen.points) == 8
    assert summarise(e).counted_loss == 0.0
