"""The ``expert``'s Cabo call: whether to call, judged by sampling the cards it has not seen.

It deals the unseen cards at random into every unknown slot (``Style.samples`` times), gives
each opponent one more improving turn, applies the ruleset's ``caller_succeeds`` and caller
penalty, and calls when the call succeeds often enough and scores better on average than the
hand would uncalled. Points are counted as the match counts them (``Aims.landed``): a round
that lands exactly on a resetting target is a drop to the reset value, so a row on the gap is
not called away, and a failed call that lands there is worth making.

Two calls a strong player does not make:

- **Blind.** On its first turn of a round (``Style.blind_turns``) with ``Style.blind_unknown``
  or more of its own cards unknown (two cards never peeked) the hand is a guess: it has not
  yet drawn a card to improve it. Later in the round the sampling judges such a call as any.
- **Before taking a low discard.** A 0 or 1 on the pile lowers the hand for sure; the call can
  wait a turn. ``take_instead`` samples the call again with the hand lowered by the best
  replacement and the opponents one more turn better, and takes the card when that call's
  expected points are lower by ``Style.take_margin``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cabo_log.play.aims import Aims
from engine.rulesets import Ruleset

if TYPE_CHECKING:
    from cabo_log.play.expert import Style, Table


def should_call(rules: Ruleset, style: Style, aims: Aims, table: Table,
                rng: random.Random) -> bool:
    """Call when the call succeeds often enough and scores better on average than the hand
    would uncalled (both asking less as the round drags on); never blind on its first turn."""
    late = late_turns(style, table)
    blind = len(table.unknown(table.me)) >= style.blind_unknown
    if blind and turns_each(table) < style.blind_turns:
        return False
    mine = table.estimate(table.me)
    best_other = min((table.estimate(p) for p in table.others), default=99.0)
    if mine > best_other + style.call_gap or mine > style.call_ceiling:
        return False   # hardly any deal of the unseen cards would make this call work
    chance, if_called, uncalled = sample_call(rules, style, aims, table, rng)
    return (chance >= style.call_chance - style.impatience * late
            and if_called < uncalled + style.late_points * late)


def take_instead(rules: Ruleset, style: Style, aims: Aims, table: Table, drop: float,
                 rng: random.Random) -> bool:
    """Whether taking the discard (lowering the hand by ``drop``) and calling next turn beats
    calling now: the same sampling, with the opponents one more turn better."""
    if drop <= 0:
        return False
    _, now, _ = sample_call(rules, style, aims, table, rng)
    _, later, _ = sample_call(rules, style, aims, table, rng, lower=drop,
                              extra=style.final_gain)
    return later + style.take_margin < now


def sample_call(rules: Ruleset, style: Style, aims: Aims, table: Table, rng: random.Random,
                *, lower: float = 0.0, extra: float = 0.0) -> tuple[float, float, float]:
    """Deal the unseen cards into the unknown slots ``Style.samples`` times: the call's
    chance of success, its mean points, and the mean of the hand itself (points as the match
    counts them). ``lower``: the hand lowered by this much; ``extra``: what each opponent
    gains besides their final turn."""
    slots = {p: len(table.unknown(p)) for p in table.rows}
    need = sum(slots.values())
    known = {p: sum(v for v in r if v is not None) for p, r in table.rows.items()}
    score = table.obs.scores.get(table.me, 0)
    wins = 0
    if_called = uncalled = 0.0
    for _ in range(style.samples):
        dealt = table.pool.sample(need, rng)
        k = 0
        me = 0.0
        others: list[int] = []
        for p, n in slots.items():
            total = known[p] + sum(dealt[k:k + n])
            k += n
            if p == table.me:
                me = total - lower
            else:   # what this opponent keeps, and gains on their final turn
                others.append(round(total - table.bias * n - style.final_gain - extra))
        ok = rules.caller_succeeds(round(me), others)
        wins += ok
        if_called += 0 if ok else aims.landed(score, me + rules.caller_penalty, table.gap)
        uncalled += aims.landed(score, me, table.gap)
    return wins / style.samples, if_called / style.samples, uncalled / style.samples


def turns_each(table: Table) -> float:
    """The turns each player has played this round (0 on one's first turn)."""
    return table.obs.turn / max(len(table.rows), 1)


def late_turns(style: Style, table: Table) -> float:
    """Turns each beyond ``Style.patience``: the longer a round drags on, the less waiting can
    still gain, so the call needs less (a table of careful players, or a stalemate of low
    single cards, would otherwise play on for ever)."""
    return max(0.0, turns_each(table) - style.patience)


__all__ = ["late_turns", "sample_call", "should_call", "take_instead", "turns_each"]
