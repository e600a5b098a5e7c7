"""The simulator's written-out random draws give exactly the standard library's numbers."""

from __future__ import annotations

import random

import pytest

from cabo_log.play.chance import below, choice, seeded, shuffle


@pytest.mark.parametrize("seed", range(5))
def test_draw_for_draw_the_standard_librarys(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in [1, 2, 3, 5, 7, 8, 13, 52, 100, 1000, 6195] * 20:
        assert below(ours, n) == theirs.randrange(n)
        seq = list(range(n))
        assert choice(ours, seq) == theirs.choice(seq)
        mine, other = list(range(n)), list(range(n))
        shuffle(ours, mine)
        theirs.shuffle(other)
        assert mine == other
    assert ours.random() == theirs.random()   # the streams are still in step


@pytest.mark.parametrize("seed", [0, 1, 7, 2**32, 2**63 + 5, 2**64 - 1])
def test_a_seeded_generator_is_the_standard_librarys(seed: int) -> None:
    ours, theirs = seeded(seed), random.Random(seed)
    assert type(ours) is random.Random
    assert ours.getstate() == theirs.getstate()
    assert [ours.random() for _ in range(5)] == [theirs.random() for _ in range(5)]
    assert ours.gauss(0, 1) == theirs.gauss(0, 1)


def test_an_empty_sequence_has_no_choice() -> None:
    with pytest.raises(IndexError):
        choice(random.Random(0), [])


def test_the_lazy_lists_count_combinations_like_math_comb() -> None:
    import math

    from engine.moveset import comb

    assert [comb(n, k) for n in range(30) for k in range(-1, 8)] == [
        math.comb(n, k) if k >= 0 else 0 for n in range(30) for k in range(-1, 8)]
