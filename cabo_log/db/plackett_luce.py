"""openskill's Plackett-Luce update for a match of one-player teams, in plain float arithmetic.

A load rates every new complete game after it is written (``ratings.update_ratings``), on one
core, after the workers are done: openskill's ``PlackettLuce.rate`` spends most of its time
on what a match of single players does not need (a deep copy of the teams, a random id for
every rating object, checks of its arguments), about 0.1 ms a game. ``rate`` here does the
same float operations in the same order as openskill 6 does for such a match (its defaults:
beta 25/6, tau 25/300, kappa 1e-4, no weights, no scores, no balance, no sigma limit), so
its results are openskill's to the last bit; tests/test_plackett_luce.py compares the two on
many matches, ties and lone winners included.

The steps, as openskill takes them: each sigma is widened by tau; the teams are put in order
of rank (a stable sort); ``c`` is the square root of the summed variances plus beta squared
per team; each team's ``exp(mu / c)`` is summed over the teams ranked at or after each rank
(``sum_q``); omega and delta accumulate over the teams ranked at or before a team, each
term divided by the number of teams sharing the rank; the new mu and sigma follow. openskill
then "averages" the mu change of tied teams, which, as it compares a rating with itself,
adds 0.0: kept, so that a -0.0 would come out as openskill's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001


def rate(ratings: Sequence[tuple[float, float]], ranks: Sequence[int]
         ) -> list[tuple[float, float]]:
    """The (mu, sigma) of each player after a match, in the order given; ``ranks``: each
    player's place (lower is better, equal shares a place). Two or more players."""
    tau_squared = TAU * TAU
    # openskill's ``_unwind``: a stable sort on the rank, remembering each team's index
    order = sorted(range(len(ranks)), key=ranks.__getitem__)
    rank = sorted(ranks)
    mus = [ratings[i][0] for i in order]
    sigmas = [math.sqrt(ratings[i][1] * ratings[i][1] + tau_squared) for i in order]
    # a team of one: mu summed from 0.0, the variance as ``(sigma * balance_weight) ** 2``
    team_mu = [float(0.0 + mu * 1.0) for mu in mus]
    team_var = [float(0.0 + (sigma * 1.0) ** 2) for sigma in sigmas]
    n = len(rank)
    beta_squared = BETA ** 2
    collective = 0.0
    for var in team_var:
        collective += var + beta_squared
    c = math.sqrt(collective)
    sum_q = [0.0] * n
    seen = [False] * n
    for i in range(n):
        summed = math.exp(team_mu[i] / c)
        for q in range(n):
            if rank[i] >= rank[q]:
                if seen[q]:
                    sum_q[q] += summed
                else:
                    sum_q[q] = summed
                    seen[q] = True
    a = [sum(1 for r in rank if r == rank_i) for rank_i in rank]
    out: list[tuple[float, float]] = []
    for i in range(n):
        omega = 0.0
        delta = 0.0
        i_mu_over_c = math.exp(team_mu[i] / c)
        for q in range(n):
            share = i_mu_over_c / sum_q[q]
            if rank[q] <= rank[i]:
                delta += share * (1 - share) / a[q]
                if q == i:
                    omega += (1 - share) / a[q]
                else:
                    omega -= share / a[q]
        var = team_var[i]
        omega *= var / c
        delta *= var / c ** 2
        delta *= math.sqrt(var) / c
        mu, sigma = mus[i], sigmas[i]
        if omega >= 0:
            mu += (sigma ** 2 / var) * omega * 1.0
            sigma *= math.sqrt(max(1 - (sigma ** 2 / var) * delta * 1.0, KAPPA))
        else:
            mu += (sigma ** 2 / var) * omega / 1.0
            sigma *= math.sqrt(max(1 - (sigma ** 2 / var) * delta / 1.0, KAPPA))
        if a[i] > 1:   # openskill's average of the tied teams' mu change: 0.0
            mu = mu + 0.0
        out.append((mu, sigma))
    result: list[tuple[float, float]] = [(0.0, 0.0)] * n
    for place, index in enumerate(order):
        result[index] = out[place]
    return result


__all__ = ["BETA", "KAPPA", "TAU", "rate"]
