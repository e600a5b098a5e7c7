"""``plackett_luce.rate`` is openskill's ``PlackettLuce.rate`` for matches of single players,
to the last bit: compared on many matches (two to eight players, ties, shared last places,
players with ratings far apart)."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from cabo_log.db import plackett_luce


def _openskill(ratings: list[tuple[float, float]], ranks: list[int]
               ) -> list[tuple[float, float]]:
    model = PlackettLuce(mu=25.0, sigma=25.0 / 3)
    after = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings],
                       ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in after]


@pytest.mark.parametrize("seed", range(6))
def test_rate_is_openskill_to_the_last_bit(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        n = rng.randint(2, 8)
        ratings = [(rng.uniform(-10.0, 60.0), rng.uniform(0.05, 25.0 / 3)) for _ in range(n)]
        if rng.random() < 0.3:   # fresh players: every rating the same
            ratings = [(25.0, 25.0 / 3)] * n
        ranks = [rng.randint(1, n) for _ in range(n)]
        if rng.random() < 0.2:   # everyone tied
            ranks = [1] * n
        got = plackett_luce.rate(ratings, ranks)
        want = _openskill(ratings, ranks)
        assert got == want, (ratings, ranks)


def test_a_two_player_match() -> None:
    """The winner gains what the loser loses when both start equal (independent check of
    the direction, beside the bit-for-bit comparison)."""
    (mu_a, sigma_a), (mu_b, sigma_b) = plackett_luce.rate([(25.0, 25.0 / 3)] * 2, [1, 2])
    assert mu_a > 25.0 > mu_b
    assert mu_a - 25.0 == pytest.approx(25.0 - mu_b)
    assert sigma_a == sigma_b < 25.0 / 3 + plackett_luce.TAU
