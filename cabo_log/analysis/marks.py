"""Marks and accuracy: how much a decision gave away, in a word a chess player knows.

The thresholds are in expected round points given away against the best option found (see
docs/analysis.md): ``??`` a blunder from 6 points, ``?`` a mistake from 3, ``?!`` dubious from
1.5. A decision is marked only when the loss is also clear of the noise: more than two
standard errors of the paired difference (with few rollouts a large loss can be luck).
Accuracy of a decision is ``100 * exp(-loss / 5)`` (best: 100; 5 points away: 37), and a
player's accuracy in a game is the mean over their decisions with a choice.

Where a decision is judged by the match (``cabo_log.analysis.match``), its loss is the
match-winning chance given away, counted ``POINTS_PER_PERCENT`` points per percentage point:
the scale at which the thresholds meet (10 % of the match is a blunder, like 6 points).

A sampled loss is a verdict only when it is *decided*: its 95 % interval (``CONFIDENCE_Z``
standard errors either side) lies within one mark's band (``decided``). The analysis samples
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
NOISE_FACTOR = 2.0        # a mark needs loss > NOISE_FACTOR standard errors
ACCURACY_SCALE = 5.0      # points given away that bring a decision's accuracy to 1/e
POINTS_PER_PERCENT = 0.6  # a match-winning chance given away, in points (10 % = 6 points)
CONFIDENCE_Z = 1.96       # a verdict's interval: 95 %, two-sided


def band(loss: float) -> Mark | None:
    """The mark of a loss, noise aside."""
    for mark, least in THRESHOLDS:
        if loss >= least:
            return mark
    return None


def decided(loss: float, stderr: float) -> bool:
    """Whether the 95 % interval of ``loss`` lies within one mark's band (or none)."""
    return band(max(0.0, loss - CONFIDENCE_Z * stderr)) == band(loss + CONFIDENCE_Z * stderr)


def mark_of(loss: float, stderr: float) -> Mark | None:
    """The mark of a decision that gave away ``loss`` points (± ``stderr``), or None."""
    if loss <= NOISE_FACTOR * stderr:
        return None
    for mark, least in THRESHOLDS:
        if loss >= least:
            return mark
    return None


def accuracy_of(loss: float) -> float:
    """A decision's accuracy in percent: 100 for the best move, falling with the loss."""
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


def game_accuracy(losses: list[float]) -> float | None:
    """A player's accuracy over a game: the mean of their decisions' (None: no decision)."""
    if not losses:
        return None
    return sum(accuracy_of(x) for x in losses) / len(losses)
