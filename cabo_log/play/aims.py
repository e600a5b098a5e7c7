"""What a hand is worth beyond its total, and what a card on the pile is worth to snap: the
special hands, the exact-target reset and the golf snap, read from the ruleset's data.

The ``expert`` values a placement as the drop of its hand total. Three rules make some hands
worth far more (or less) than their total says, and a player who knows them plays for them:

- **A special hand** (``Ruleset.special_row``: Kamikaze 12 12 13 13, online's shoot the moon):
  its holder scores 0 and every other player ``special_points()``, whoever called. Worth its
  own total (it is not scored) plus what the others lose.
- **A zero caller** (``Ruleset.special_caller_zero``, golf's kamikaze option): a caller whose
  total is exactly 0 scores 0 and every other player ``special_points()``. Worth what the
  others lose, once called (the expert calls on such a row at once).
- **The exact-target reset** (``Ruleset.exact_reset``): a player whose match total lands exactly
  on the target goes back to ``reset_value()``. A fully known row totalling exactly the gap to
  the target is worth the reset's drop, discounted by the chance the row is scored as it is
  (``Style.reset_hold``: a swap may break it, edition1's lowest hand scores 0).
- **The golf snap** (``Ruleset.snap``): between turns a player may put on the pile any own
  card equal in value to its top. The card this turn puts on the pile (the discarded draw, or
  the card replaced out) can so take every known equal card of the row with it: a drawn 4 is
  worth discarding when the row holds two known 4s (8 points gone), more than a replacement
  that saves 1.

Only known cards count: a hand is special only when its player knows every card of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.rulesets import RESET_NEVER, RESET_ONCE, Ruleset

Values = Sequence[int | None]
"""A row by value as its player knows it (None: a card they do not know)."""


class Reading(Protocol):
    """What the aims read of a decision's table (``expert.Table``)."""

    me: str
    others: dict[str, list[int | None]]

    def estimate(self, player: str) -> float: ...

    def leader(self) -> str | None: ...


class Aims:
    """A ruleset's special hands, reset and snap, as worth in points of a player's hand."""

    def __init__(self, rules: Ruleset, *, hurt_weight: float, reset_hold: float) -> None:
        self.special = sorted(rules.special_row) if rules.special_row is not None else None
        self.special_total = sum(self.special) if self.special is not None else None
        self.zero_caller = rules.special_caller_zero
        self.special_points = rules.special_points()
        self.resets = rules.exact_reset != RESET_NEVER
        self.once = rules.exact_reset == RESET_ONCE
        self.target = rules.target
        self.reset_drop = rules.target - rules.reset_value()
        self.snap = rules.snap
        self.hurt_weight = hurt_weight
        self.reset_hold = reset_hold

    # --- special hands and the reset -----------------------------------------------------
    def is_special(self, row: Values) -> bool:
        """The row is fully known and is the ruleset's special row."""
        return (self.special is not None and len(row) == len(self.special)
                and None not in row and sorted(v for v in row if v is not None) == self.special)

    def is_zero(self, row: Values) -> bool:
        """The row is fully known and totals 0 where a zero caller scores as a special hand."""
        return (self.zero_caller and len(row) > 0 and None not in row
                and sum(v for v in row if v is not None) == 0)

    def gap(self, score: int, reset_open: bool) -> int | None:
        """The round points that would land exactly on the target and reset, or None."""
        if not self.resets or not reset_open:
            return None
        gap = self.target - score
        return gap if gap > 0 else None

    def bonus(self, table: Reading, row: Values, gap: int | None) -> float:
        """What the fully known ``row`` is worth beyond its total (0 for most rows)."""
        if None in row or not row:
            return 0.0
        total = sum(v for v in row if v is not None)
        if total == self.special_total and self.is_special(row):
            return total + self.others_lose(table)
        if total == 0 and self.zero_caller:
            return self.others_lose(table)
        if gap is not None and total == gap:
            return self.reset_hold * self.reset_drop
        return 0.0

    def others_lose(self, table: Reading) -> float:
        """The special penalty every opponent takes instead of their hand: fully for the
        leader, ``hurt_weight`` for the others (as a swap counts them)."""
        leader = table.leader()
        lost = 0.0
        for p in table.others:
            weight = 1.0 if p == leader else self.hurt_weight
            lost += weight * max(0.0, self.special_points - table.estimate(p))
        return lost

    def landed(self, score: int, points: float, gap: int | None) -> float:
        """Round points as the match counts them: landing on the gap is a drop to the
        reset value (``reset_value() - score``, below 0), anything else itself."""
        if gap is not None and round(points) == gap:
            return float(gap - self.reset_drop)
        return points

    # --- the snap ------------------------------------------------------------------------
    def snap_gain(self, row: Values, top: int) -> float:
        """Points a player sheds by snapping every known card of ``row`` equal to ``top`` once
        ``top`` lies on the pile; one card always stays (a snapped-out row could take nothing).
        Only a positive card is worth snapping."""
        if not self.snap or top <= 0:
            return 0.0
        same = sum(1 for v in row if v == top)
        same = min(same, len(row) - 1)
        return float(top * max(same, 0))


def after_replace(row: Values, positions: Sequence[int], value: int) -> list[int | None]:
    """The row by value after ``value`` replaced ``positions`` (they all leave, it comes in;
    order does not matter to a total)."""
    gone = set(positions)
    return [v for i, v in enumerate(row) if i not in gone] + [value]


__all__ = ["Aims", "Reading", "Values", "after_replace"]
