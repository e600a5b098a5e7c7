"""The greedy bot's tactics with other players' cards and the special row: which swap to make,
and where a card helps build a Kamikaze / shoot-the-moon row. Plain functions of what the
player sees (rows with None for unknown cards) and the deck's values."""

from __future__ import annotations

from collections import Counter

from cabo_log.play.counting import Row, Values
from engine.knowledge import Observation

# --- swaps -----------------------------------------------------------------------------------


def own_swap(values: Values, special: list[int] | None, row: Row, others: dict[str, Row],
             mood: str) -> tuple[int, tuple[str, int]] | None:
    """One of its cards for an opponent's: a known low card for its worst one, a known low
    card for an unknown one, or its very worst for a blind one (hunting: what the special row
    needs)."""
    known, unknown = values.row(row)
    of = values.of
    if mood == "moon":
        for p, r in others.items():
            for j, code in enumerate(r):
                if code is not None:
                    slot = moon_slot(values, special, row, of[code])
                    if slot is not None:
                        return slot, (p, j)
        return None
    seen = [(of[c], p, j) for p, r in others.items() for j, c in enumerate(r)
            if c is not None]
    worst = max(known, key=lambda iv: iv[1]) if known else None
    low = min(seen) if seen else None
    if worst is not None and low is not None and worst[1] - low[0] >= 3:
        return worst[0], (low[1], low[2])
    if unknown and low is not None and values.mean - low[0] >= 4:
        return unknown[0], (low[1], low[2])
    if worst is not None and worst[1] >= values.mean + 3:
        blind = [(p, j) for p, r in others.items() for j, c in enumerate(r) if c is None]
        if blind:
            return worst[0], blind[0]
    return None


def swap_follow_up(values: Values, special: list[int] | None, row: Row,
                   others: dict[str, Row], drawn: str, swap_values: set[int]
                   ) -> tuple[float, int] | None:
    """Where the card replaced out earns a power (golf) and a swap then pays: the best gain of
    replacing a known jack or queen (a value in ``swap_values``) with the ``drawn`` card and
    then swapping as ``own_swap`` would, and the position replaced. The replacement alone may
    save less than another (a king), the swap that follows gives the worst card away."""
    best: tuple[float, int] | None = None
    of = values.of
    for i, code in enumerate(row):
        if code is None or of[code] not in swap_values:
            continue
        after = list(row)
        after[i] = drawn
        swap = own_swap(values, special, tuple(after), others, "normal")
        if swap is None:
            continue
        mine, (p, j) = swap
        kept, theirs = after[mine], others[p][j]
        given = of[kept] if kept is not None else values.mean
        gain = of[code] - of[drawn] + given - (of[theirs] if theirs is not None else values.mean)
        if best is None or gain > best[0]:
            best = (gain, i)
    return best


def spoil_leader(values: Values, obs: Observation, others: dict[str, Row]
                 ) -> tuple[tuple[str, int], tuple[str, int]] | None:
    """Where the swap may exchange two other players' cards (edition1): give the leader's
    known low card to someone else and a known high card to the leader."""
    of = values.of
    leader = min(others, key=lambda p: (obs.scores[p], p))
    low = [(of[c], j) for j, c in enumerate(others[leader]) if c is not None]
    high = [(of[c], p, j) for p, r in others.items() if p != leader
            for j, c in enumerate(r) if c is not None]
    if not low or not high:
        return None
    value, j = min(low)
    worst, p, k = max(high)
    if worst - value >= 6:
        return (leader, j), (p, k)
    return None


# --- Kamikaze / shoot the moon ---------------------------------------------------------------


def is_special(values: Values, special: list[int] | None, row: Row) -> bool:
    """The row is fully known and is the ruleset's special row (Kamikaze, shoot the moon)."""
    if special is None or len(row) != len(special) or None in row:
        return False
    return sorted(values.of[c] for c in row if c is not None) == special


def moon_slot(values: Values, special: list[int] | None, row: Row, value: int) -> int | None:
    """Where a card of ``value`` helps build the special row, or None."""
    if special is None or len(row) != len(special):
        return None
    need = Counter(special)
    keep: set[int] = set()
    for i, code in enumerate(row):
        if code is not None and need[values.of[code]] > 0:
            need[values.of[code]] -= 1
            keep.add(i)
    if need[value] <= 0:
        return None
    known_bad = [i for i, c in enumerate(row) if c is not None and i not in keep]
    if known_bad:
        return known_bad[0]
    unknown = [i for i, c in enumerate(row) if c is None]
    return unknown[0] if unknown else None


__all__ = ["is_special", "moon_slot", "own_swap", "spoil_leader", "swap_follow_up"]
