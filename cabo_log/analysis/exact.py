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
from engine.vocabulary import POWER, PowerKind
from engine.worlds import hidden_cards, playable

MAX_CASES = 40_000      # cases (multisets over the rows' unseen cards) per option, at most
HARMLESS = (PowerKind.PEEK, PowerKind.SPY)   # powers that change no score


def _end_state(d: Decision, move: Event, hidden: set[int]) -> GameState | None:
    """The table after ``move`` once the round is over, or None if more than the player's
    knowledge decides how it gets there."""
    g = d.state
    if isinstance(move, Replace):
        row = g.row_ids(d.seat)
        unseen = [p for p in move.positions if row[p] in hidden]
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
Group = tuple[int, int, int, bool]       # seat, pool, unseen cards, the seat's only group
Part = tuple[int, tuple[int, ...]]       # a group's unseen total (and values, if they matter)
Memo = dict[tuple[object, ...], dict[tuple[Part, ...], float]]


def exact_values(d: Decision, move: Event, match: bool,
                 memo: Memo | None = None) -> tuple[float, float | None] | None:
    """(expected round points, match-winning chance or None) of ``move`` by enumeration, or
    None where the value is not a finite sum (see the module docstring)."""
    compute = exact_plan(d, move, memo)
    return None if compute is None else compute(match)


def exact_plan(d: Decision, move: Event, memo: Memo | None = None) -> Plan | None:
    """The enumeration of ``move`` ready to run (cheap to make: the cases are counted, not
    walked), or None where the value is not a finite sum of at most ``MAX_CASES`` cases.
    ``memo``, shared by the options of one decision, remembers the other rows' sums."""
    g = d.state
    hidden = set(hidden_cards(g, d.seat))
    world = _end_state(d, move, hidden)
    if world is None:
        return None
    scored = g.active_participants()
    pool_of = d.pools.pool
    pools: dict[int, Counter[int]] = {}
    for card in hidden:
        pools.setdefault(pool_of.get(card, 0), Counter())[g.value(card)] += 1
    groups: list[Group] = []
    known: dict[int, list[int]] = {}
    for seat in sorted(scored, key=lambda p: p != d.seat):   # the player's own row first
        unseen: Counter[int] = Counter()
        known[seat] = []
        for card in world.row_ids(seat):
            if card in hidden:
                unseen[pool_of.get(card, 0)] += 1
            else:
                known[seat].append(g.value(card))
        groups += [(seat, pool, k, len(unseen) == 1) for pool, k in sorted(unseen.items())]
    classes = {pool: sorted(c) for pool, c in pools.items()}
    cases = 1
    for _seat, pool, k, _only in groups:
        cases *= math.comb(len(classes[pool]) + k - 1, k)
    if cases > MAX_CASES:
        return None
    # a caller who forfeited is no longer an active participant: not scored as the caller
    caller = world.caller() if world.caller() in scored else None
    table = _Cases(g.rules.special_row, known, classes, memo if memo is not None else {})
    counts = tuple(sorted((pool, tuple(c[v] for v in classes[pool]))
                          for pool, c in pools.items()))

    def compute(match: bool) -> tuple[float, float | None]:
        return _score(d, scored, known, groups, table.parts(tuple(groups), counts), caller,
                      match)
    return compute


class _Cases:
    """The law of the unseen totals of a list of groups, given what is left in the pools:
    multisets drawn without replacement (multivariate hypergeometric), remembered."""

    def __init__(self, special: tuple[int, ...] | None, known: dict[int, list[int]],
                 classes: dict[int, list[int]], memo: Memo) -> None:
        self.special, self.known, self.classes, self.memo = special, known, classes, memo

    def parts(self, groups: tuple[Group, ...],
              counts: tuple[tuple[int, tuple[int, ...]], ...]) -> dict[tuple[Part, ...], float]:
        if not groups:
            return {(): 1.0}
        key = (groups, tuple(tuple(self.known[g[0]]) for g in groups), counts)
        found = self.memo.get(key)
        if found is not None:
            return found
        seat, pool, k, only = groups[0]
        left = dict(counts)
        have = list(left[pool])
        total = math.comb(sum(have), k)
        out: dict[tuple[Part, ...], float] = {}
        for taken in _multisets(have, k):
            ways = 1
            for n, take in zip(have, taken, strict=True):
                if take:
                    ways *= math.comb(n, take)
            drawn = [v for v, take in zip(self.classes[pool], taken, strict=True)
                     for _ in range(take)]
            part: Part = (sum(drawn), self._keep(seat, drawn, only))
            left[pool] = tuple(n - take for n, take in zip(have, taken, strict=True))
            rest = self.parts(groups[1:], tuple(sorted(left.items())))
            weight = ways / total
            for tail, p in rest.items():
                whole = (part, *tail)
                out[whole] = out.get(whole, 0.0) + weight * p
        self.memo[key] = out
        return out

    def _keep(self, seat: int, drawn: list[int], only: bool) -> tuple[int, ...]:
        """The unseen values themselves, where a special hand may depend on them."""
        special = self.special
        if special is None:
            return ()
        row = self.known[seat]
        if only and (len(row) + len(drawn) != len(special)
                     or sum(row) + sum(drawn) != sum(special)):
            return ()
        return tuple(drawn)


def _score(d: Decision, scored: list[int], known: dict[int, list[int]],
           groups: list[Group], parts: dict[tuple[Part, ...], float], caller: int | None,
           match: bool) -> tuple[float, float | None]:
    """Score every case of the unseen totals: the expected points (and match chance)."""
    g = d.state
    outcomes: dict[tuple[int, ...], float] = {}
    for case, weight in parts.items():
        totals = [0] * len(g.players)
        rows: list[list[int]] = [[] for _ in g.players]
        for seat in scored:
            totals[seat] = sum(known[seat])
            rows[seat] = list(known[seat])
        for (seat, _pool, k, _only), (total, drawn) in zip(groups, case, strict=True):
            totals[seat] += total
            rows[seat] += list(drawn) if len(drawn) == k else [0] * (k + 1)  # not special
        success = None
        if caller is not None:
            success = g.rules.caller_succeeds(
                totals[caller], [totals[p] for p in scored if p != caller])
        points, _special = round_points(g.rules, scored, totals, rows, caller, success)
        key = tuple(points[p] for p in scored)
        outcomes[key] = outcomes.get(key, 0.0) + weight
    mine = scored.index(d.seat)
    expected = sum(w * key[mine] for key, w in outcomes.items())
    if not match:
        return expected, None
    win = sum(w * match_win_after(g, d.player, dict(zip(scored, key, strict=True)))
              for key, w in outcomes.items())
    return expected, win
