"""Exact values where the round ends right after a move, without further choices or chance.

On the last turn of a round (Cabo was called and nobody else is still to play) a placement,
or a power, decides the round: nothing is drawn or chosen after it (a peek or spy that
follows changes no score and is skipped). Its value is then a finite sum, not a sample: the
cards the player could not see are distributed over the rows in every way they could be,
each way weighted by its probability (drawing without replacement from the pools of
``engine.worlds``), and each way scored by ``engine.scoring.round_points``. A player's
unseen cards only count through their sum (and, for a special hand, their multiset), so the
cards of each row are enumerated as multisets, weighted by the multivariate hypergeometric
law: a row of 4 unseen cards is at most a few thousand cases, not tens of thousands of
orders.

``exact_values`` says None where that is not so (a further choice, a draw, a
multi-replacement whose success the player cannot know, a golf power from a card the player
has not seen) or where the cases exceed ``MAX_CASES``; the option is then sampled.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator

from cabo_log.analysis.decisions import Decision
from cabo_log.analysis.match import match_win_after
from engine import CaboLogError, Event, GameState, apply
from engine.events import Replace, Skip
from engine.scoring import round_points
from engine.state import POWER
from engine.vocabulary import PowerKind
from engine.worlds import hidden_cards, playable

MAX_CASES = 40_000      # cases (multisets over the rows' unseen cards) per option, at most
HARMLESS = (PowerKind.PEEK, PowerKind.SPY)   # powers that change no score


def _end_state(d: Decision, move: Event, hidden: set[int]) -> GameState | None:
    """The table after ``move`` once the round is over, or None if more than the player's
    knowledge decides how it gets there."""
    g = d.state
    if isinstance(move, Replace):
        unseen = [p for p in move.positions if g.round.rows[d.seat][p] in hidden]
        if unseen and (len(move.positions) > 1 or g.rules.power_from_replaced):
            return None
    world = playable(g)
    rounds = len(world.rounds)
    try:
        apply(world, move)
        if world.phase == POWER and world.pending_power() in HARMLESS:
            apply(world, Skip(None, False, d.player))
    except CaboLogError:
        return None
    return world if len(world.rounds) > rounds else None


def _multisets(counts: list[int], k: int, start: int = 0) -> Iterator[list[int]]:
    """Every way to take ``k`` cards from the value classes ``counts[start:]`` (how many of
    each class, a list as long as ``counts``); ``counts`` is only read."""
    if k == 0:
        yield [0] * len(counts)
        return
    for i in range(start, len(counts)):
        for take in range(1, min(k, counts[i]) + 1):
            for rest in _multisets(counts, k - take, i + 1):
                rest[i] += take
                yield rest


Plan = Callable[[bool], tuple[float, float | None]]


def exact_values(d: Decision, move: Event, match: bool) -> tuple[float, float | None] | None:
    """(expected round points, match-winning chance or None) of ``move`` by enumeration, or
    None where the value is not a finite sum (see the module docstring)."""
    compute = exact_plan(d, move)
    return None if compute is None else compute(match)


def exact_plan(d: Decision, move: Event) -> Plan | None:
    """The enumeration of ``move`` ready to run (cheap to make: the cases are counted, not
    walked), or None where the value is not a finite sum of at most ``MAX_CASES`` cases."""
    g = d.state
    hidden = set(hidden_cards(g, d.seat))
    world = _end_state(d, move, hidden)
    if world is None:
        return None
    r = world.round
    scored = g.active_participants()
    values = g.round.values
    pool_of = d.pools.pool
    pools: dict[int, Counter[int]] = {}
    for card in hidden:
        pools.setdefault(pool_of.get(card, 0), Counter())[values[card]] += 1
    groups: list[tuple[int, int, int]] = []          # (seat, pool, unseen cards)
    known: dict[int, list[int]] = {}
    for seat in scored:
        unseen: Counter[int] = Counter()
        known[seat] = []
        for card in r.rows[seat]:
            if card in hidden:
                unseen[pool_of.get(card, 0)] += 1
            else:
                known[seat].append(values[card])
        groups += [(seat, pool, k) for pool, k in sorted(unseen.items())]
    classes = {pool: sorted(c) for pool, c in pools.items()}
    cases = 1
    for _seat, pool, k in groups:
        cases *= math.comb(len(classes[pool]) + k - 1, k)
    if cases > MAX_CASES:
        return None
    caller = r.caller if r.caller >= 0 and not r.caller_forfeited and r.caller in scored \
        else None
    return lambda match: _enumerate(d, scored, known, groups, classes, pools, caller, match)


def _enumerate(d: Decision, scored: list[int], known: dict[int, list[int]],
               groups: list[tuple[int, int, int]], classes: dict[int, list[int]],
               pools: dict[int, Counter[int]], caller: int | None,
               match: bool) -> tuple[float, float | None]:
    """Walk every case (see the module docstring)."""
    g = d.state
    outcomes: dict[tuple[int, ...], float] = {}
    remaining = {pool: [pools[pool][v] for v in classes[pool]] for pool in pools}
    size = {pool: sum(c.values()) for pool, c in pools.items()}
    rows: dict[int, list[int]] = {seat: list(known[seat]) for seat in scored}

    def walk(i: int, weight: float) -> None:
        if i == len(groups):
            totals = [0] * len(g.players)
            row_values: list[list[int]] = [[] for _ in g.players]
            for seat in scored:
                row_values[seat] = rows[seat]
                totals[seat] = sum(rows[seat])
            success = None
            if caller is not None:
                success = g.rules.caller_succeeds(
                    totals[caller], [totals[p] for p in scored if p != caller])
            points, _special = round_points(g.rules, scored, totals, row_values, caller,
                                            success)
            key = tuple(points[p] for p in scored)
            outcomes[key] = outcomes.get(key, 0.0) + weight
            return
        seat, pool, k = groups[i]
        counts = remaining[pool]
        total = math.comb(size[pool], k)
        for taken in _multisets(counts, k):
            ways = 1
            for have, take in zip(counts, taken, strict=True):
                if take:
                    ways *= math.comb(have, take)
            drawn = [v for v, take in zip(classes[pool], taken, strict=True)
                     for _ in range(take)]
            for j, take in enumerate(taken):
                counts[j] -= take
            size[pool] -= k
            rows[seat].extend(drawn)
            walk(i + 1, weight * ways / total)
            del rows[seat][len(rows[seat]) - len(drawn):]
            size[pool] += k
            for j, take in enumerate(taken):
                counts[j] += take

    walk(0, 1.0)
    mine = scored.index(d.seat)
    expected = sum(w * key[mine] for key, w in outcomes.items())
    if not match:
        return expected, None
    win = sum(w * match_win_after(g, d.player, dict(zip(scored, key, strict=True)))
              for key, w in outcomes.items())
    return expected, win
