"""The random draws of the simulator's hot loop, written out: the same numbers as
``random.Random``'s own ``choice``, ``randrange(n)`` and ``shuffle``, from its C
``getrandbits``.

Those three are Python code in the standard library (``Random._randbelow``): called from the
compiled simulator (tools/build_compiled.py) they stay interpreted, a few function frames per
draw. Here they are compiled with the simulator. The order and number of ``getrandbits``
calls is exactly the standard library's (Python 3.11: ``_randbelow_with_getrandbits``), so a
seed gives the same games either way; ``tests/test_chance.py`` compares them draw for draw.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from typing import Final, TypeVar

T = TypeVar("T")


_getrandbits: Final = random.Random.getrandbits   # the C method itself: no lookup per draw


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


_BATCH: Final = 64                       # words fetched per call of ``getrandbits``
_UNPACK: Final = struct.Struct(f"<{_BATCH}I").unpack


class Words:
    """A ``random.Random`` read as its stream of 32-bit words, fetched 64 at a time: the same
    ``below`` and ``shuffle`` as above, draw for draw, at a fraction of the cost (one C call
    per 64 draws instead of one per draw).

    ``getrandbits(k)`` for ``k`` <= 32 is the generator's next 32-bit word shifted right by
    ``32 - k``, and ``getrandbits(32 * m)`` is its next ``m`` words, the first the least
    significant (CPython's ``_random``); so this stream gives exactly the numbers the
    generator itself would. It reads ahead: only for a generator nothing else reads (the
    simulator's cards), whose words left over at the end are simply never used."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.words: tuple[int, ...] = ()
        self.next = 0

    def word(self) -> int:
        """The generator's next 32-bit word."""
        i = self.next
        if i >= len(self.words):
            big: int = _getrandbits(self.rng, 32 * _BATCH)
            self.words = _UNPACK(big.to_bytes(4 * _BATCH, "little"))
            i = 0
        self.next = i + 1
        return self.words[i]

    def below(self, n: int) -> int:
        """``below(rng, n)`` (``n`` from 1 to 2**32 - 1)."""
        k = 0
        m = n
        while m:
            m >>= 1
            k += 1
        if k > 32:
            raise ValueError("Words.below takes bounds below 2**32 only")
        shift = 32 - k
        r = self.word() >> shift
        while r >= n:
            r = self.word() >> shift
        return r

    def shuffle(self, items: list[T]) -> None:
        """``shuffle(rng, items)``, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


__all__ = ["Words", "below", "choice", "shuffle"]
