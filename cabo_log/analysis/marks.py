"""Marks and accuracy: how much a decision gave away, in a word a chess player knows.

The thresholds are in expected round points given away against the best option found (see
docs/analysis.md): ``??`` a blunder from 6 points, ``?`` a mistake from 3, ``?!`` dubious from
1.5. Accuracy of a decision is ``100 * exp(-counted / 5)`` (best: 100; 5 points away: 37),
where ``counted`` is what it gave away for sure (``counted_loss``): the low end of the loss's
95 % interval where the verdict is settled and the interval no wider than +-1.5 (the loss
itself when exact), else the threshold of the mark that low end reaches (0 below 1.5); a
player's accuracy in a game is the mean over their decisions with a choice.

Where a decision is judged by the match (``cabo_log.analysis.match``), its loss is the
match-winning chance given away, counted ``POINTS_PER_PERCENT`` points per percentage point:
the scale at which the thresholds meet (10 % of the match is a blunder, like 6 points).

A sampled loss is a verdict only when it is *decided*: its 95 % interval (Student's t times
its standard error either side) lies within one mark's band (``decided``), and a mark rests on
at least ``MIN_MARK_WORLDS`` worlds. The analysis samples
more worlds until it is, or its budget runs out: the decision is then "unclear".
"""

from __future__ import annotations

import math
from enum import StrEnum


class Mark(StrEnum):
    BLUNDER = "??"
    MISTAKE = "?"
    DUBIOUS = "?!"


# (mark, least loss in expected round points), worst first
THRESHOLDS: tuple[tuple[Mark, float], ...] = (
    (Mark.BLUNDER, 6.0), (Mark.MISTAKE, 3.0), (Mark.DUBIOUS, 1.5))
ACCURACY_SCALE = 5.0      # points given away that bring a decision's accuracy to 1/e
POINTS_PER_PERCENT = 0.6  # a match-winning chance given away, in points (10 % = 6 points)
CONFIDENCE_Z = 1.96       # a verdict's interval: 95 %, two-sided


def band(loss: float) -> Mark | None:
    """The mark of a loss, noise aside."""
    for mark, least in THRESHOLDS:
        if loss >= least:
            return mark
    return None


# Student's t at 97.5 % by degrees of freedom: a standard error from few worlds is itself
# uncertain, so the interval is wider than 1.96 of them
_T975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
         10: 2.23, 12: 2.18, 15: 2.13, 20: 2.09, 30: 2.04, 60: 2.00}
MIN_MARK_WORLDS = 16      # a sampled mark rests on at least this many worlds


def t975(worlds: int) -> float:
    """The 95 % two-sided multiplier of a standard error from ``worlds`` paired samples
    (``CONFIDENCE_Z`` for an exact value, ``worlds`` 0)."""
    if worlds <= 0:
        return CONFIDENCE_Z
    df = worlds - 1
    if df < 1:
        return _T975[1]
    known = [d for d in _T975 if d <= df]
    return _T975[max(known)] if df <= 60 else CONFIDENCE_Z


def interval(loss: float, stderr: float, worlds: int = 0) -> tuple[float, float]:
    """The 95 % interval of a loss (worlds: how many paired samples; 0 when exact)."""
    half = t975(worlds) * stderr
    return max(0.0, loss - half), loss + half


def decided(loss: float, stderr: float, worlds: int = 0,
            least_worlds: int = MIN_MARK_WORLDS) -> bool:
    """Whether the 95 % interval of ``loss`` lies within one mark's band (or none); a mark
    from fewer than ``least_worlds`` sampled worlds is never decided."""
    low, high = interval(loss, stderr, worlds)
    if 0 < worlds < least_worlds and band(high) is not None:
        return False
    return band(low) == band(high)


PRECISE_HALF = THRESHOLDS[-1][1]   # an interval this narrow (+-1.5) counts its low end


def counted_loss(sure: float, settled: bool, half: float) -> float:
    """What a decision's accuracy counts: what it gave away for sure, at the precision the
    sampling gives it. ``sure`` is the low end of the loss's 95 % interval (the loss itself
    when exact), ``half`` that interval's half-width (0 when exact).

    A settled verdict (exact, or its interval within one band: ``decided``) whose interval
    is no wider than the marks' resolution (``half`` at most ``PRECISE_HALF``, 1.5) counts
    at its low end: an exact loss exactly, a sampled one known to a point or so nearly so.
    Any other counts at the least loss it surely reaches at the marks' resolution: the
    threshold of the band its low end is in, 0 below the first. A low end moves with the
    seed by about as much as its interval is wide (a blunder of 17 +- 8 on one seed, its low
    end 9, is 12 +- 8 on another, its low end 4); its band moves far less often, so the
    accuracy does not carry that noise, and no loss the analysis is sure of is left out (a
    sure 2 is counted as 1.5, a ``?!``; a sure 9 known to +- 8 as 6, a blunder)."""
    if settled and half <= PRECISE_HALF:
        return max(0.0, sure)
    mark = band(sure)
    return 0.0 if mark is None else dict(THRESHOLDS)[mark]


def accuracy_of(loss: float) -> float:
    """A decision's accuracy in percent: 100 for the best move, falling with the loss."""
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


def loss_of_accuracy(accuracy: float | None) -> float:
    """The counted loss a stored decision accuracy stands for (``accuracy_of`` inverted), so
    an analysis read back from a database sums to the same player accuracy."""
    if accuracy is None or accuracy >= 100.0:
        return 0.0
    return -ACCURACY_SCALE * math.log(max(accuracy, 1e-300) / 100.0)


def game_accuracy(losses: list[float]) -> float | None:
    """A player's accuracy over a game: the mean of their decisions' (None: no decision)."""
    if not losses:
        return None
    return sum(accuracy_of(x) for x in losses) / len(losses)
