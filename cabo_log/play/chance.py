"""The random draws of the simulator's hot loop, written out: the same numbers as
``random.Random``'s own ``choice``, ``randrange(n)`` and ``shuffle``, from its C
``getrandbits``, and the same generator as ``random.Random(seed)`` (``seeded``).

Those three are Python code in the standard library (``Random._randbelow``): called from the
compiled simulator (setup.py) they stay interpreted, a few function frames per
draw. Here they are compiled with the simulator. The order and number of ``getrandbits``
calls is exactly the standard library's (Python 3.11: ``_randbelow_with_getrandbits``), so a
seed gives the same games either way; ``tests/test_chance.py`` compares them draw for draw.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Sequence
from typing import Final, TypeVar

T = TypeVar("T")


_getrandbits: Final = random.Random.getrandbits   # the C method itself: no lookup per draw
_seed: Final = _random.Random.seed                 # the C seeding, under ``Random.seed``


def seeded(seed: int) -> random.Random:
    """``random.Random(seed)`` for an int seed, in the same state: its ``__init__`` and
    ``seed`` are Python code (interpreted even when called from the compiled simulator, a
    match makes five generators) that seed the C generator with the int as it is and clear
    the Gaussian spare; this does those two steps itself."""
    rng = random.Random.__new__(random.Random)
    _seed(rng, seed)
    rng.gauss_next = None   # type: ignore[attr-defined]  # (set by random.py, not in its stub)
    return rng


def below(rng: random.Random, n: int) -> int:
    """A uniform integer in ``[0, n)``: ``rng._randbelow(n)``, draw for draw (``n`` >= 1)."""
    k = 0   # n.bit_length(), in machine integers when compiled
    m = n
    while m:
        m >>= 1
        k += 1
    r: int = _getrandbits(rng, k)
    while r >= n:
        r = _getrandbits(rng, k)
    return r


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)``."""
    size = len(seq)
    if not size:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[below(rng, size)]


def shuffle(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``, in place."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


__all__ = ["below", "choice", "seeded", "shuffle"]
