"""Expected round points of every option of one decision, from the deciding player's knowledge.

For world k = 0..N-1 (``worlds.sample_world``: the cards the player could not see re-dealt),
every option is applied to a copy of that world and the round is played on by the rollout
policy with the random stream of world k. The same worlds and streams serve every option
(common random numbers), so the *differences* between options are much less noisy than the
means themselves. Options are screened first on the first worlds; the best few and the chosen
one then get all N (successive halving). Everything depends only on the decision, the
settings and the seed, never on which process runs it.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, field

from cabo_log.analysis.decisions import Decision, option_key
from cabo_log.analysis.rollout import DEFAULT_POLICY, Table
from cabo_log.analysis.worlds import MoveCache, fork, sample_world
from engine import Event, GameState

DEFAULT_ROLLOUTS = 8    # worlds per finalist option (README: how the noise falls with more)
MIN_ROLLOUTS = 2        # a loss's standard error needs two worlds
FINALISTS = 3           # options that get every world, besides the chosen one


@dataclass(frozen=True)
class Settings:
    rollouts: int = DEFAULT_ROLLOUTS
    seed: int = 0
    policy: str = DEFAULT_POLICY
    finalists: int = FINALISTS

    @property
    def screen(self) -> int:
        """Worlds every option is screened on before the finalists are picked."""
        return max(2, math.ceil(self.rollouts / 4))


@dataclass
class OptionResult:
    move: Event
    points: list[float] = field(default_factory=list)   # one per world, in world order

    @property
    def mean(self) -> float:
        return sum(self.points) / len(self.points)


@dataclass
class Evaluation:
    """The options of one decision with their expected points (lower is better)."""

    decision: Decision
    options: list[OptionResult]
    chosen: OptionResult
    best: OptionResult

    @property
    def loss(self) -> float:
        """Expected points the chosen move gave away against the best option (>= 0)."""
        return max(0.0, self.chosen.mean - self.best.mean)

    @property
    def stderr(self) -> float:
        """Standard error of that loss (paired over the common worlds)."""
        n = min(len(self.chosen.points), len(self.best.points))
        if n < 2 or self.chosen is self.best:
            return 0.0
        diffs = [a - b for a, b in zip(self.chosen.points, self.best.points, strict=False)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return math.sqrt(var / n)


def stream_seed(seed: int, game_id: str, seq: int, world: int) -> int:
    """The seed of world ``world`` of the decision at ``seq`` (stable on every machine)."""
    text = f"cabo-log/analyse/{seed}/{game_id}/{seq}/{world}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def rollout(world: GameState, move: Event, player: str, policy: str, seed: int,
            cache: MoveCache | None = None) -> float:
    """``player``'s points in the round after ``move`` in ``world``, the bots playing on."""
    table = Table(fork(world), policy, random.Random(seed), cache)
    rounds = len(table.g.rounds)
    table.apply(move)
    return float(table.play_round(since=rounds)[player])


def evaluate(decision: Decision, settings: Settings) -> Evaluation:
    """Every option's expected points (see the module docstring)."""
    g = decision.state
    seeds = [stream_seed(settings.seed, g.game_id, decision.seq, k)
             for k in range(settings.rollouts)]
    worlds = [sample_world(g, decision.seat, decision.pools, random.Random(s)) for s in seeds]
    results = [OptionResult(move) for move in decision.options]
    chosen_key = option_key(decision.chosen)
    chosen = next(r for r in results if option_key(r.move) == chosen_key)
    if len(results) == 1:
        return Evaluation(decision, results, chosen, chosen)
    screen = min(settings.screen, settings.rollouts)
    if len(results) <= settings.finalists + 1:
        screen = settings.rollouts
    run = _Runner(worlds, seeds, decision.player, settings.policy)
    for r in results:
        run(r, 0, screen)
    finalists = sorted(results, key=lambda r: r.mean)[:settings.finalists]
    if chosen not in finalists:
        finalists.append(chosen)
    for r in finalists:
        run(r, screen, settings.rollouts)
    best = min(finalists, key=lambda r: (r.mean, r is not chosen))
    return Evaluation(decision, results, chosen, best)


class _Runner:
    """Plays one option on a range of the decision's worlds."""

    def __init__(self, worlds: list[GameState], seeds: list[int], player: str,
                 policy: str) -> None:
        self.worlds, self.seeds, self.player, self.policy = worlds, seeds, player, policy
        self.cache = MoveCache()

    def __call__(self, result: OptionResult, start: int, stop: int) -> None:
        for k in range(start, stop):
            result.points.append(rollout(self.worlds[k], result.move, self.player,
                                         self.policy, self.seeds[k], self.cache))
