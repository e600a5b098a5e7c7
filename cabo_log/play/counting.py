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


def unseen(obs: Observation, rules: Ruleset) -> Unseen:
    """The multiset of unseen card values: the ruleset's deck minus everything seen."""
    left = Counter(rules.deck_codes())
    left.subtract(seen_codes(obs))
    values = rules.values()
    out = sorted(values[code] for code, n in left.items() for _ in range(max(n, 0)))
    if not out:   # everything is on the table: an unknown card is worth the deck's mean
        out = sorted(values[code] for code in rules.deck_codes())
    return Unseen(tuple(out), sum(out) / len(out))


def known_to_fail(row: Sequence[str | None], positions: Sequence[int],
                  values: dict[str, int]) -> bool:
    """Whether a multi-replacement of ``positions`` must fail for someone who sees ``row``:
    two of the listed cards are known and differ in value. No bot makes such a move."""
    seen = {values[code] for p in positions if p < len(row) and (code := row[p]) is not None}
    return len(seen) > 1


__all__ = ["Unseen", "known_to_fail", "seen_codes", "unseen"]
