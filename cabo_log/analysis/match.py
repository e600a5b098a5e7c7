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
active player could reach the target in it, counting what the round could bring them at most
(``round_reach``: their row at the deck's highest value plus the caller's penalty, or the
special hand's penalty), so the match may end, or a reset be reached, in this round.
"""

from __future__ import annotations

import functools
import operator
import random
from collections import Counter
from collections.abc import Sequence

from cabo_log.analysis.rollout import Table, resets_used
from engine import GameState, new_game
from engine.events import GameStart
from engine.rulesets import RESET_ALWAYS, RESET_ONCE, Ruleset

SAMPLE_ROUNDS = 240          # self-play rounds behind the round-points distribution
MAX_ROUNDS_AHEAD = 80        # the model's horizon (the paths' mass left is then negligible)
NEGLIGIBLE = 1e-6            # a path's probability mass below this is dropped
NEGLIGIBLE_TAIL = 1e-6       # the match going on past a round with less chance: stop there


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


def round_reach(g: GameState, seat: int) -> int:
    """The most points the current round could bring the player at ``seat``: every card of
    their row at the deck's highest value, plus the caller's penalty (they may call, or
    fail a call already made), or the special hand's penalty (another player's special row)
    where the ruleset has one, whichever is more. Read off the ruleset's data and the row's
    size, never a sample: a round that scores 28 is as possible as the rules make it."""
    rules = g.rules
    highest = max(rules.values().values())
    reach = g.row_size(seat) * max(0, highest) + max(0, rules.caller_penalty)
    if rules.special_row is not None or rules.special_caller_zero:
        reach = max(reach, rules.special_points())
    return reach


def at_stake(g: GameState) -> bool:
    """Whether this round can decide the match (see the module docstring): some active
    player could reach the target in it (``round_reach``), so the match may end, or a
    reset be reached, whatever the odds."""
    target = g.rules.target
    return any(g.cumulative[p] + round_reach(g, p) >= target for p in g.active_players())


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


class _Round:
    """One player's state k rounds ahead, given that nobody ended the match before: the
    chance to be still short of the end with each total, and to end it with each total;
    with ``P(total >= t)`` of both ready (``tail``) for the combination."""

    def __init__(self, alive: dict[int, float], ends: dict[int, float]) -> None:
        self.alive, self.ends = alive, ends
        self.low = min([*alive, *ends], default=0)
        self.alive_tail = self._suffix(alive)
        self.every_tail = self._suffix(alive, ends)
        self.alive_mass = self.alive_tail[0] if alive else 0.0   # the chance to go on
        # the same chances as dense lists from ``low`` to the highest total: the player's
        # chance to be at t, ended or not (``mass``), and not ended (``dense_alive``)
        size = max([*alive, *ends], default=self.low) - self.low + 1
        self.dense_alive = [0.0] * size
        for t, p in alive.items():
            self.dense_alive[t - self.low] = p
        self.mass = list(self.dense_alive)
        for t, p in ends.items():
            self.mass[t - self.low] += p

    def _suffix(self, *dists: dict[int, float]) -> list[float]:
        high = max([t for d in dists for t in d], default=self.low)
        mass = [0.0] * (high - self.low + 2)
        for d in dists:
            for t, p in d.items():
                mass[t - self.low] += p
        for i in range(len(mass) - 2, -1, -1):
            mass[i] += mass[i + 1]
        return mass

    @staticmethod
    def tail(suffix: list[float], low: int, value: int) -> float:
        i = value - low
        return suffix[0] if i <= 0 else suffix[i] if i < len(suffix) else 0.0


class _Path:
    """One player's future from a total (and reset state), round by round, computed as far
    as it is asked for (a player far from the target is only followed while somebody
    nearer to it can still be short of the end)."""

    def __init__(self, rules: Ruleset, seats: int, start: int, used: bool) -> None:
        self.rules, self.dist = rules, _distribution(rules, seats)
        self.state: dict[tuple[int, bool], float] = {(start, used): 1.0}
        self.rounds: list[_Round] = []

    def round(self, k: int) -> _Round:
        while len(self.rounds) <= k:
            rules = self.rules
            target = rules.target
            over_from = target if rules.end_at_target else target + 1
            nxt: dict[tuple[int, bool], float] = {}
            ends: dict[int, float] = {}
            for was_used in (False, True):
                mine = {t: p for (t, u), p in self.state.items() if u is was_used}
                if not mine:
                    continue
                # every total this flag's states can reach, each chance summed over the
                # ways (a convolution with the round-points distribution), then routed
                low = min(mine)
                for i, v in enumerate(_convolve(mine, low, self.dist)):
                    if v == 0.0:
                        continue
                    t = low + self.dist[0][0] + i
                    if t == target:                   # the exact target: see _after_one
                        t, u, over = _after_one(rules, t, was_used)
                    else:
                        u, over = was_used, t >= over_from
                    if over:
                        ends[t] = ends.get(t, 0.0) + v
                    else:
                        nxt[(t, u)] = nxt.get((t, u), 0.0) + v
            self.state = {key: v for key, v in nxt.items() if v > NEGLIGIBLE}
            alive: dict[int, float] = {}
            for (t, _u), p in self.state.items():
                alive[t] = alive.get(t, 0.0) + p
            self.rounds.append(_Round(alive, ends))
        return self.rounds[k]


def _convolve(chances: dict[int, float], low: int, dist: tuple[tuple[int, float], ...]
              ) -> list[float]:
    """The chance of every total ``low + dist[0][0] + i`` after one more round, from the
    chances of the totals now (``chances``, none below ``low``) and the round-points
    distribution ``dist`` (sorted by points): list operations, one per points value."""
    size = max(chances) - low + 1
    now = [0.0] * size
    for t, p in chances.items():
        now[t - low] = p
    first = dist[0][0]
    out = [0.0] * (size + dist[-1][0] - first)
    for x, q in dist:
        j = x - first
        out[j:j + size] = [a + q * b for a, b in zip(out[j:j + size], now, strict=True)]
    return out


@functools.lru_cache(maxsize=4096)
def _path(rules: Ruleset, seats: int, start: int, used: bool) -> _Path:
    return _Path(rules, seats, start, used)


def _others_at_or_above(rounds: list[_Round], me: int) -> tuple[list[float], list[float]]:
    """For every total t of ``me``'s round k (``mass``' range): the chance that every other
    player is at t or above in that round, ended or not (``every``), and not ended
    (``alive``): products of their suffix sums, a list each (the inner loop of
    ``win_chance``, kept to C-level list operations)."""
    mine = rounds[me]
    low, size = mine.low, len(mine.mass)
    every: list[float] | None = None
    alive: list[float] | None = None
    for i, o in enumerate(rounds):
        if i != me:
            start = low - o.low
            e = _window(o.every_tail, start, size)
            a = _window(o.alive_tail, start, size)
            every = e if every is None else list(map(operator.mul, every, e))
            alive = a if alive is None else list(map(operator.mul, alive, a))
    if every is None or alive is None:
        return [1.0] * size, [1.0] * size
    return every, alive


def _window(suffix: list[float], start: int, size: int) -> list[float]:
    """``suffix[j]`` for j from ``start`` to ``start + size - 1``, with ``suffix[0]`` below 0
    (all of the mass is at or above) and 0 past its end (none is)."""
    before = max(0, min(size, -start))
    body = suffix[max(0, start):max(0, start + size)]
    out = [suffix[0]] * before + body
    return out + [0.0] * (size - len(out))


@functools.lru_cache(maxsize=65536)
def win_chance(rules: Ruleset, seats: int, totals: tuple[int, ...],
               reset_used: tuple[bool, ...], me: int) -> float:
    """``me``'s chance to win a match that goes on from these totals (the active seats'
    ``totals``, ``me`` an index into them), by the module's model."""
    paths = [_path(rules, seats, t, u) for t, u in zip(totals, reset_used, strict=True)]
    win = 0.0
    for k in range(MAX_ROUNDS_AHEAD):
        rounds = [p.round(k) for p in paths]
        mine = rounds[me]
        # the match ends in round k with me lowest: everybody's state at k with me lowest,
        # minus the same where nobody ended the match; ``every[t]`` and ``alive[t]`` are the
        # chances that all the others are at t or above (ended or not, and not ended)
        # (mine alive or ended at t) x every, minus (mine alive at t) x alive
        every, alive = _others_at_or_above(rounds, me)
        win += sum(map(operator.mul, mine.mass, every)) - \
            sum(map(operator.mul, mine.dense_alive, alive))
        going = 1.0
        for r in rounds:
            going *= r.alive_mass
        if going < NEGLIGIBLE_TAIL:
            break   # the match goes on past round k with a negligible chance (the players'
            # paths are independent: the product of their chances to go on)
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
    totals = [g.cumulative[p] for p in active]
    if any(g.rules.is_over_target(t) for t in totals):
        # the match is ending but tied on the lowest total: another round decides, a fair
        # play-off
        low = min(totals)
        tied = [p for p in active if g.cumulative[p] == low]
        return 1.0 / len(tied) if seat in tied else 0.0
    used = resets_used(g)
    return win_chance(g.rules, len(g.players), tuple(totals), tuple(used[p] for p in active),
                      active.index(seat))


def match_win_after(g: GameState, player: str, points: dict[int, int]) -> float:
    """``player``'s chance to win the match once the current round of ``g`` scores
    ``points`` by seat (the exact enumeration's leaves; ``g`` is the table before the end)."""
    totals, used, ends = after_round(g.rules, g.cumulative, resets_used(g), points)
    active = g.active_players()
    seat = g.seat[player]
    if seat not in active:
        return 0.0
    if ends:
        low = min(totals[p] for p in active)
        return 1.0 if totals[seat] == low else 0.0
    return win_chance(g.rules, len(g.players), tuple(totals[p] for p in active),
                      tuple(used[p] for p in active), active.index(seat))
