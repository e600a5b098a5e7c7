"""Expected round points of every option of one decision, from the deciding player's knowledge.

For world k = 0..N-1 (``engine.worlds.sample_world``: the cards the player could not see re-dealt),
every option is applied to a copy of that world and the round is played on by the rollout
policy with the random stream of world k. The same worlds and streams serve every option
(common random numbers), so the *differences* between options are much less noisy than the
means themselves. Options are screened first on the first worlds; the best few and the chosen
one then get all N (successive halving); when the chosen move then looks bad enough to be
marked, it and the best are played in ``confirm`` x N worlds before the verdict. Everything
depends only on the decision, the settings and the seed, never on which process runs it.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, field

from cabo_log.analysis.decisions import Decision, option_key
from cabo_log.analysis.marks import mark_of
from cabo_log.analysis.movecache import MoveCache
from cabo_log.analysis.rollout import DEFAULT_POLICY, Table
from engine import Event, GameState
from engine.worlds import fork, sample_world

DEFAULT_ROLLOUTS = 8    # worlds per finalist option (README: how the noise falls with more)
MIN_ROLLOUTS = 2        # a loss's standard error needs two worlds
CONFIRM = 4             # a decision about to be marked: chosen and best get 4x the worlds
FINALISTS = 3           # options that get every world, besides the chosen one


@dataclass(frozen=True)
class Settings:
    rollouts: int = DEFAULT_ROLLOUTS
    seed: int = 0
    policy: str = DEFAULT_POLICY
    finalists: int = FINALISTS
    confirm: int = CONFIRM

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
    results = [OptionResult(move) for move in decision.options]
    chosen_key = option_key(decision.chosen)
    chosen = next(r for r in results if option_key(r.move) == chosen_key)
    if len(results) == 1:
        return Evaluation(decision, results, chosen, chosen)
    screen = min(settings.screen, settings.rollouts)
    if len(results) <= settings.finalists + 1:
        screen = settings.rollouts
    run = _Runner(decision, settings)
    run.worlds_up_to(settings.rollouts)
    for r in results:
        run(r, 0, screen)
    finalists = sorted(results, key=lambda r: r.mean)[:settings.finalists]
    if chosen not in finalists:
        finalists.append(chosen)
    for r in finalists:
        run(r, screen, settings.rollouts)
    best = min(finalists, key=lambda r: (r.mean, r is not chosen))
    first = Evaluation(decision, results, chosen, best)
    if settings.confirm > 1 and mark_of(first.loss, first.stderr) is not None:
        # about to be marked: the chosen move and the best get confirm x as many worlds
        total = settings.rollouts * settings.confirm
        run.worlds_up_to(total)
        for r in (chosen, best):
            run(r, settings.rollouts, total)
    return Evaluation(decision, results, chosen, best)


class _Runner:
    """The decision's sampled worlds, and playing one option on a range of them."""

    def __init__(self, decision: Decision, settings: Settings) -> None:
        self.decision, self.settings = decision, settings
        self.player, self.policy = decision.player, settings.policy
        self.worlds: list[GameState] = []
        self.seeds: list[int] = []
        self.cache = MoveCache()

    def worlds_up_to(self, count: int) -> None:
        d = self.decision
        g = d.state
        for k in range(len(self.worlds), count):
            seed = stream_seed(self.settings.seed, g.game_id, d.seq, k)
            self.seeds.append(seed)
            self.worlds.append(sample_world(g, d.seat, d.pools, random.Random(seed)))

    def __call__(self, result: OptionResult, start: int, stop: int) -> None:
        for k in range(start, stop):
            result.points.append(rollout(self.worlds[k], result.move, self.player,
                                         self.policy, self.seeds[k], self.cache))
