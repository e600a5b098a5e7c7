"""The ``expert``'s Cabo call: whether to call, judged by sampling the cards it has not seen.

It deals the unseen cards at random into every unknown slot (``Style.samples`` times; a
card whose slot's public record leans it low or high, ``leans``, is with the lean's share one
of the lowest or highest ``Style.keep_share`` of the unseen cards instead: a row whose low
cards were kept holds 0s and aces, not a pool slid down by the same mean), gives each opponent one
more improving turn, applies the ruleset's ``caller_succeeds`` and caller
penalty, and calls when the call succeeds often enough and scores better on average than the
hand would uncalled. Points are counted as the match counts them (``Aims.landed``): a round
that lands exactly on a resetting target is a drop to the reset value, so a row on the gap is
not called away, and a failed call that lands there is worth making.

Two more reasons to call, read from the same deals:

- **The others' points** (``Style.call_edge``). A successful call scores 0 for the caller and
  the whole hand for everybody else; a failed one costs the caller its hand and the penalty
  while the others still score theirs. Between even hands playing on gives nobody an edge, so
  a call after which the others score on average ``call_edge`` points more than the caller,
  and more than with the hands as they stand (``CallView.stay_edge``: a row on the reset gap
  scores better uncalled), is made even when it succeeds only about half the time.
- **The end of the match** (``Style.finish_chance``). Each deal's round points are added to
  the match scores: where the round so ended takes somebody to the target (``is_over_target``;
  the reset is counted for the caller) and leaves the caller lowest in at least
  ``finish_chance`` of the deals, and loses the match in at most ``finish_risk`` of them, it
  calls at once, whatever its hand, and takes no discard first (``"finish"``).

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
from typing import TYPE_CHECKING, Literal, NamedTuple

from cabo_log.play.aims import Aims
from cabo_log.play.leans import lean_card
from engine.rulesets import Ruleset

if TYPE_CHECKING:
    from cabo_log.play.expert import Style, Table


Verdict = Literal["finish", "call", "play"]
"""A Cabo decision: call to end the match won, call for the round, or play on."""


def should_call(rules: Ruleset, style: Style, aims: Aims, table: Table,
                rng: random.Random) -> bool:
    """Whether to call (``call_verdict`` is not ``"play"``)."""
    return call_verdict(rules, style, aims, table, rng) != "play"


def call_verdict(rules: Ruleset, style: Style, aims: Aims, table: Table,
                 rng: random.Random) -> Verdict:
    """``"finish"`` when the call most likely ends the match won (a sure thing: nothing to
    wait for); ``"call"`` when the call succeeds often enough and scores better on average
    than the hand would uncalled (both asking less as the round drags on); else ``"play"``.
    Never blind on its first turn (``Style.blind_unknown``)."""
    late = late_turns(style, table)
    blind = len(table.unknown(table.me)) >= style.blind_unknown
    if blind and turns_each(table) < style.blind_turns:
        return "play"
    mine = table.estimate(table.me)
    best_other = min((table.estimate(p) for p in table.others), default=99.0)
    near = max(table.obs.scores.values(), default=0) + style.call_ceiling >= rules.target
    if not near and (mine > best_other + style.call_gap or mine > style.call_ceiling):
        return "play"   # hardly any deal of the unseen cards would make this call work
    view = sample_call(rules, style, aims, table, rng)
    if view.ends_won >= style.finish_chance and view.ends_lost <= style.finish_risk:
        return "finish"   # the call most likely ends the match in its favour
    if (view.chance >= style.call_chance - style.impatience * late
            and view.if_called < view.uncalled + style.late_points * late):
        return "call"
    if view.edge <= -style.call_edge and view.edge < view.stay_edge:
        return "call"   # the others score so much more that even the failures pay
    return "play"


def take_instead(rules: Ruleset, style: Style, aims: Aims, table: Table, drop: float,
                 rng: random.Random) -> bool:
    """Whether taking the discard (lowering the hand by ``drop``) and calling next turn beats
    calling now: the same sampling, with the opponents one more turn better."""
    if drop <= 0:
        return False
    now = sample_call(rules, style, aims, table, rng).if_called
    later = sample_call(rules, style, aims, table, rng, lower=drop,
                        extra=style.final_gain).if_called
    return later + style.take_margin < now


class CallView(NamedTuple):
    """What sampling a Cabo call now says: its chance of success, its mean points, the mean of
    the hand uncalled (points as the match counts them), and the shares of deals in which the
    round so ended also ends the match, won (a shared win counts half) or lost."""

    chance: float
    if_called: float
    uncalled: float
    ends_won: float = 0.0
    ends_lost: float = 0.0
    edge: float = 0.0   # mean of its points less the others' mean points, the call made
    stay_edge: float = 0.0   # the same with no call (the hands as they are, a reset counted)


def sample_call(rules: Ruleset, style: Style, aims: Aims, table: Table, rng: random.Random,
                *, lower: float = 0.0, extra: float = 0.0) -> CallView:
    """Deal the unseen cards into the unknown slots ``Style.samples`` times and score the
    call in each deal (``CallView``). ``lower``: the hand lowered by this much; ``extra``:
    what each opponent gains besides their final turn."""
    slots = {p: len(table.unknown(p)) for p in table.rows}
    need = sum(slots.values())
    known = {p: sum(v for v in r if v is not None) for p, r in table.rows.items()}
    scores = table.obs.scores
    score = scores.get(table.me, 0)
    others_at = [scores.get(p, 0) for p in slots if p != table.me]
    lead = max(others_at, default=0)
    target = rules.target
    zero_lowest = rules.lowest_scores_zero
    lows, highs = table.low, table.high
    lean = {p: [table.leans[p][i] for i in table.unknown(p)] for p in slots}
    wins = 0
    if_called = uncalled = won = lost = edge = stay = 0.0
    for _ in range(style.samples):
        dealt = table.pool.sample(need, rng)
        k = 0
        me = 0.0
        others: list[int] = []
        for p, n in slots.items():
            leaning = lean[p]
            total = known[p] + sum(lean_card(leaning[j], dealt[k + j], lows, highs, rng)
                                   for j in range(min(n, len(dealt) - k)))
            k += n
            if p == table.me:
                me = total - lower
            else:   # what this opponent holds, and gains on their final turn
                others.append(round(total - style.final_gain - extra))
        ok = rules.caller_succeeds(round(me), others)
        wins += ok
        mine = 0.0 if ok else aims.landed(score, me + rules.caller_penalty, table.gap)
        if_called += mine
        plain = aims.landed(score, me, table.gap)
        uncalled += plain
        if not others:
            continue
        stay += plain - sum(others) / len(others)
        theirs = sum(others)
        if not ok and zero_lowest:   # edition1: the lowest hand scores 0
            low = min(others)
            theirs -= low * others.count(low)
        edge += mine - theirs / len(others)
        if score + mine < target and lead + max(others) < target:
            continue   # nobody reaches the target: the match goes on
        end = match_end(rules, score + mine, others_at, others, ok)
        won += end > 0
        lost += end < 0
    n = style.samples
    return CallView(wins / n, if_called / n, uncalled / n, won / n, lost / n, edge / n,
                    stay / n)


def match_end(rules: Ruleset, mine: float, others_at: list[int], others: list[int],
              ok: bool) -> float:
    """Whether a round that ends with the caller at match total ``mine`` and the others
    scoring their ``others`` totals on top of ``others_at`` ends the match: 1 won, 0.5 a
    shared win, -1 lost, 0 the match goes on. The others' resets are not counted (their
    reset may be spent); edition1's lowest hand scores 0 when the call fails."""
    low = min(others, default=0)
    final = [at + (0 if (not ok and rules.lowest_scores_zero and t == low) else t)
             for at, t in zip(others_at, others, strict=True)]
    if not any(rules.is_over_target(round(v)) for v in [mine, *final]):
        return 0.0
    best = min(final, default=mine + 1)
    if mine < best:
        return 1.0
    return 0.5 if mine == best else -1.0


def turns_each(table: Table) -> float:
    """The turns each player has played this round (0 on one's first turn)."""
    return table.obs.turn / max(len(table.rows), 1)


def late_turns(style: Style, table: Table) -> float:
    """Turns each beyond ``Style.patience``: the longer a round drags on, the less waiting can
    still gain, so the call needs less (a table of careful players, or a stalemate of low
    single cards, would otherwise play on for ever)."""
    return max(0.0, turns_each(table) - style.patience)


__all__ = ["CallView", "Verdict", "call_verdict", "late_turns", "match_end", "sample_call",
           "should_call", "take_instead", "turns_each"]
