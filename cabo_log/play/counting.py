"""Card counting from one observation: which cards a player has not seen, and what they are worth.

Everything a player saw is in their observation: the whole discard pile (public), every card of
any row they peeked, spied, drew or saw revealed (knowledge follows a card through swaps), and
the card they hold. The cards of the deck that are none of these are *unseen*: each face-down
card this player does not know, and each card of the draw pile, is one of them, equally likely
any. So the value of an unknown card is best estimated by the mean over the unseen cards (not
over the whole deck: a pile full of kings makes the rest lower), and a hidden table can be
sampled by dealing the unseen cards at random.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.knowledge import Observation
from engine.rulesets import Ruleset


@dataclass(frozen=True)
class Unseen:
    """The values of the cards a player has not seen (sorted), and their mean."""

    values: tuple[int, ...]
    mean: float

    def by_value(self) -> Counter[int]:
        return Counter(self.values)

    def sample(self, count: int, rng: random.Random) -> list[int]:
        """``count`` values dealt at random from the unseen cards (fewer if there are not
        enough: an observation can only undercount what it saw)."""
        return rng.sample(self.values, min(count, len(self.values)))


def seen_codes(obs: Observation) -> Counter[str]:
    """Every card code the observation shows: the pile, the visible row cards, the held card."""
    seen: Counter[str] = Counter(obs.discard)
    for row in obs.rows.values():
        seen.update(code for code in row if code is not None)
    if obs.drawn is not None:
        seen[obs.drawn] += 1
    return seen


class Counting:
    """A ruleset's deck, counted once, from which each observation's unseen cards follow."""

    def __init__(self, rules: Ruleset) -> None:
        self.values = rules.values()
        self.deck = Counter(rules.deck_codes())
        everything = sorted(self.values[c] for c in rules.deck_codes())
        self.everything = Unseen(tuple(everything), sum(everything) / len(everything))

    def unseen(self, obs: Observation) -> Unseen:
        """The multiset of unseen card values: the deck minus everything seen."""
        left = self.deck.copy()
        left.subtract(seen_codes(obs))
        values = self.values
        out = sorted(values[code] for code, n in left.items() for _ in range(max(n, 0)))
        if not out:   # everything is on the table: an unknown card is worth the deck's mean
            return self.everything
        return Unseen(tuple(out), sum(out) / len(out))


def unseen(obs: Observation, rules: Ruleset) -> Unseen:
    """The unseen cards of one observation (``Counting(rules).unseen`` counts the deck once)."""
    return Counting(rules).unseen(obs)


Row = tuple[str | None, ...]
"""A row as one player sees it: a card's code, or None for a card they do not know."""


class Values:
    """Card values of a ruleset's deck, and the mean value of a card one has not seen (over
    the whole deck: ``Counting`` does better from one observation)."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.of = rules.values()
        codes = rules.deck_codes()
        self.mean = sum(self.of[c] for c in codes) / len(codes)

    def row(self, row: Row) -> tuple[list[tuple[int, int]], list[int]]:
        """(position, value) of the known cards, and the positions of unknown ones."""
        known: list[tuple[int, int]] = []
        unknown: list[int] = []
        for i, code in enumerate(row):
            if code is None:
                unknown.append(i)
            else:
                known.append((i, self.of[code]))
        return known, unknown

    def estimate(self, row: Row) -> float:
        """The row's expected total: known values, the deck's mean for unknown cards."""
        known, unknown = self.row(row)
        return sum(v for _, v in known) + len(unknown) * self.mean


_VALUES: dict[Ruleset, Values] = {}


def values_for(rules: Ruleset) -> Values:
    """The ``Values`` of a ruleset, counted once per process (a bot is made for every seat of
    every match; rulesets are frozen, and ``Values`` is only read)."""
    found = _VALUES.get(rules)
    if found is None:
        found = _VALUES[rules] = Values(rules)
    return found


def known_to_fail(row: Sequence[str | None], positions: Sequence[int],
                  values: dict[str, int]) -> bool:
    """Whether a multi-replacement of ``positions`` must fail for someone who sees ``row``:
    two of the listed cards are known and differ in value. No bot makes such a move."""
    seen = {values[code] for p in positions if p < len(row) and (code := row[p]) is not None}
    return len(seen) > 1


__all__ = ["Counting", "Row", "Unseen", "Values", "known_to_fail", "seen_codes", "unseen",
           "values_for"]
