"""The sample statistics every figure of the analysis rests on: a mean with its standard
error, and the difference of two options over the worlds both were played in (every option is
played in the same worlds, in order, so the first ``min(len)`` are common)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def mean_stderr(samples: Sequence[float]) -> tuple[float, float | None]:
    """The mean of at least one sample and its standard error (None under two samples)."""
    n = len(samples)
    mean = sum(samples) / n
    if n < 2:
        return mean, None
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    return mean, math.sqrt(var / n)


def paired_difference(a: Sequence[float], b: Sequence[float]
                      ) -> tuple[float | None, float | None]:
    """mean(a - b) over the worlds both were played in and its standard error; None where
    there are too few worlds (none for the mean, under two for the error)."""
    n = min(len(a), len(b))
    if n < 1:
        return None, None
    return mean_stderr([x - y for x, y in zip(a[:n], b[:n], strict=True)])
