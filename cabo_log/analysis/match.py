"""The match view: a player's chance to win the match from the totals after a round.

Round points are not what a player plays for near the end of a match: in edition1 at 90,
keeping a known 10 lands on exactly 100 and resets to 50, which is worth far more than the 6
round points it costs. ``win_chance`` turns the match totals after a round into each player's
chance to win the match, read off the ruleset's data (target, ``end_at_target``, exact
resets); it is the analysis' analogue of backgammon's match equity table.

The model: every later round, each active player scores points drawn independently from the
ruleset's round-points distribution (``round_points_sample``: rounds of plain greedy self-play
at this many seats, a fixed seed, so the model is the same on every run); the match ends after
the first round in which somebody goes over the target (or hits an exact target a second time
where the reset is once only); the lowest total then wins (a shared lowest total counts as a
win for each, as ``whatif`` counts it). Each player's own path is a small dynamic programme
over their total (``_paths``, remembered by its start), so a chance costs a few thousand
multiplications.

A decision is judged by the match (``at_stake``) where the round can decide the match: some
active player's total is within the round-points distribution's 95th percentile of the target,
so the match may end, or a reset may be reached, in this round.
"""

from __future__ import annotations

import bisect
import functools
import random
from collections import Counter
from collections.abc import Sequence

from cabo_log.analysis.rollout import Table
from engine import GameState, new_game
from engine.events import GameStart
from engine.rulesets import RESET_ALWAYS, RESET_ONCE, Ruleset

SAMPLE_ROUNDS = 240          # self-play rounds behind the round-points distribution
STAKE_QUANTILE = 0.95        # "within reach": up to this quantile of a round's points
MAX_ROUNDS_AHEAD = 80        # the model's horizon (the paths' mass left is then negligible)
NEGLIGIBLE = 1e-7            # a path's probability mass below this is dropped


@functools.lru_cache(maxsize=32)
def round_points_sample(rules: Ruleset, seats: int) -> tuple[int, ...]:
    """Every scored player's points in ``SAMPLE_ROUNDS`` rounds of plain greedy self-play
    at ``seats`` seats (a fixed seed: the same sample on every run and machine)."""
    players = tuple(f"p{k}" for k in range(seats))
    rng = random.Random(f"cabo-log/match-view/{rules.name}/{seats}")
    points: list[int] = []
    rounds = 0
    g: GameState | None = None
    table: Table | None = None
    while rounds < SAMPLE_ROUNDS:
        if g is None or table is None or g.complete:
            g = new_game(GameStart(0, False, "match-view", rules.name, {}, players, None,
                                   None), rules)
            g.seq_mode = False
            table = Table(g, "greedy", rng)
        table.deal()
        result = table.play_round(since=len(g.rounds))
        points.extend(result.values())
        rounds += 1
    return tuple(points)


@functools.lru_cache(maxsize=32)
def _distribution(rules: Ruleset, seats: int) -> tuple[tuple[int, float], ...]:
    sample = round_points_sample(rules, seats)
    counts = Counter(sample)
    return tuple((x, n / len(sample)) for x, n in sorted(counts.items()))


def reach(rules: Ruleset, seats: int) -> int:
    """The round points a player reaches with 95 % chance or less (the stake's horizon)."""
    sample = sorted(round_points_sample(rules, seats))
    return sample[min(len(sample) - 1, int(STAKE_QUANTILE * len(sample)))]


def at_stake(g: GameState) -> bool:
    """Whether this round can decide the match (see the module docstring)."""
    seats = len(g.players)
    horizon = reach(g.rules, seats)
    return any(g.cumulative[p] + horizon >= g.rules.target for p in g.active_players())


def _after_one(rules: Ruleset, total: int, used: bool) -> tuple[int, bool, bool]:
    """(total, reset used, match ends) after a round that brought a player to ``total``."""
    if total == rules.target and rules.exact_reset in (RESET_ALWAYS, RESET_ONCE):
        if rules.exact_reset == RESET_ALWAYS or not used:
            return rules.reset_value(), True, False
        return total, used, True          # a second exact target where the reset is once
    return total, used, rules.is_over_target(total)


def after_round(rules: Ruleset, cumulative: Sequence[int], reset_used: Sequence[bool],
                points: dict[int, int]) -> tuple[list[int], list[bool], bool]:
    """The match totals, resets used and whether the match ends, after a round in which the
    seats of ``points`` scored those points (mirrors ``engine.scoring``'s resets and end)."""
    totals, used = list(cumulative), list(reset_used)
    ends = False
    for seat, x in points.items():
        totals[seat], used[seat], over = _after_one(rules, totals[seat] + x, used[seat])
        ends = ends or over
    return totals, used, ends


Path = tuple[tuple[dict[int, float], dict[int, float]], ...]


@functools.lru_cache(maxsize=4096)
def _paths(rules: Ruleset, seats: int, start: int, used: bool) -> Path:
    """One player's future from a total of ``start``: for every round k ahead, the chance to
    be still short of the end with each total (``alive``), and to end the match in round k
    with each total (``ends``), both given that nobody ended it before."""
    dist = _distribution(rules, seats)
    alive: dict[tuple[int, bool], float] = {(start, used): 1.0}
    out = []
    for _ in range(MAX_ROUNDS_AHEAD):
        nxt: dict[tuple[int, bool], float] = {}
        ends: dict[int, float] = {}
        for (total, was_used), p in alive.items():
            for x, q in dist:
                t, u, over = _after_one(rules, total + x, was_used)
                if over:
                    ends[t] = ends.get(t, 0.0) + p * q
                else:
                    nxt[(t, u)] = nxt.get((t, u), 0.0) + p * q
        alive = {k: v for k, v in nxt.items() if v > NEGLIGIBLE}
        by_total: dict[int, float] = {}
        for (t, _u), p in alive.items():
            by_total[t] = by_total.get(t, 0.0) + p
        out.append((by_total, ends))
        if not alive:
            break
    return tuple(out)


class _Tail:
    """P(total >= t) of one distribution, by binary search over its sorted totals."""

    def __init__(self, *dists: dict[int, float]) -> None:
        merged: dict[int, float] = {}
        for dist in dists:
            for t, p in dist.items():
                merged[t] = merged.get(t, 0.0) + p
        self.keys = sorted(merged)
        self.suffix = [0.0] * (len(self.keys) + 1)
        for i in range(len(self.keys) - 1, -1, -1):
            self.suffix[i] = self.suffix[i + 1] + merged[self.keys[i]]

    def at_least(self, value: int) -> float:
        return self.suffix[bisect.bisect_left(self.keys, value)]


@functools.lru_cache(maxsize=65536)
def win_chance(rules: Ruleset, seats: int, totals: tuple[int, ...],
               reset_used: tuple[bool, ...], me: int) -> float:
    """``me``'s chance to win a match that goes on from these totals (the active seats'
    ``totals``, ``me`` an index into them), by the module's model."""
    paths = [_paths(rules, seats, t, u) for t, u in zip(totals, reset_used, strict=True)]
    horizon = min(len(p) for p in paths)
    win = 0.0
    for k in range(horizon):
        mine_alive, mine_ends = paths[me][k]
        others = [paths[o][k] for o in range(len(paths)) if o != me]
        every_tail = [_Tail(alive, ends) for alive, ends in others]
        alive_tail = [_Tail(alive) for alive, _ends in others]
        # the match ends in round k with me lowest: everybody's state at k with me lowest,
        # minus the same where nobody ended the match
        every: dict[int, float] = dict(mine_alive)
        for t, p in mine_ends.items():
            every[t] = every.get(t, 0.0) + p
        for t, p in every.items():
            for tail in every_tail:
                p *= tail.at_least(t)
            win += p
        for t, p in mine_alive.items():
            for tail in alive_tail:
                p *= tail.at_least(t)
            win -= p
    return min(1.0, max(0.0, win))


def match_win(g: GameState, player: str) -> float:
    """``player``'s chance to win the match from a table between rounds (or at its end)."""
    seat = g.seat[player]
    if g.complete:
        return 1.0 if player in g.winners else 0.0
    if g.tiebreak:
        return 1.0 / len(g.tiebreak) if seat in g.tiebreak else 0.0
    active = g.active_players()
    if seat not in active:
        return 0.0
    if g.ending:   # tied on the lowest total, another round decides: a fair play-off
        low = min(g.cumulative[p] for p in active)
        tied = [p for p in active if g.cumulative[p] == low]
        return 1.0 / len(tied) if seat in tied else 0.0
    return win_chance(g.rules, len(g.players), tuple(g.cumulative[p] for p in active),
                      tuple(g.reset_used[p] for p in active), active.index(seat))


def match_win_after(g: GameState, player: str, points: dict[int, int]) -> float:
    """``player``'s chance to win the match once the current round of ``g`` scores
    ``points`` by seat (the exact enumeration's leaves; ``g`` is the table before the end)."""
    totals, used, ends = after_round(g.rules, g.cumulative, g.reset_used, points)
    active = g.active_players()
    seat = g.seat[player]
    if seat not in active:
        return 0.0
    if ends:
        low = min(totals[p] for p in active)
        return 1.0 if totals[seat] == low else 0.0
    return win_chance(g.rules, len(g.players), tuple(totals[p] for p in active),
                      tuple(used[p] for p in active), active.index(seat))
