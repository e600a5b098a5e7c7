"""Expected round points and match-winning chance of every option of one decision, from the
deciding player's knowledge, and a verdict that does not move with the seed.

**View.** A decision is judged by the match where the match is at stake
(``cabo_log.analysis.match.at_stake``), by round points otherwise; both values are computed
where the match is at stake, the round points alone otherwise.

**Exact.** Where every option ends the round without further choices or chance (the last
turn), each option's value is a finite sum over the ways the unseen cards can lie
(``cabo_log.analysis.exact``): no sampling, no noise.

**Sequential sampling.** Otherwise world k = 0, 1, ... (the cards the player could not see
re-dealt, in blocks of balanced worlds: ``engine.worlds.Deal``) is the same for every option, and
so is its random stream (common random numbers): the *differences* between options are much
less noisy than the means. Every option is played in the first ``rollouts`` worlds; then, while
the verdict is not decided at 95 % (``marks.decided``) and the budget allows (8 x ``rollouts``
worlds, more where the rollouts are short: ``Settings.most_for``), the number of worlds doubles
for the chosen move and every option that could still be the best (not clearly worse than the
best so far). A chosen move that looks the best is settled where no other option could beat it
by a blunder's, and only once it is the best in ``MIN_BEST_WORLDS`` worlds (a lead, or a tie,
in four worlds is not yet a verdict). A sampled mark rests on 16 worlds, by the match on
``MIN_MATCH_MARK_WORLDS`` (64). A loss still undecided when the budget runs out gets a *second
look* where it could be a blunder (the high end of its interval reaches 6): the chosen move and
the best are played in up to ``SECOND_LOOK`` times the budget's worlds. A loss is measured over
all the worlds the chosen move was played in: a best option that took over with fewer is played
in them too. A decision whose budget runs out undecided is *unclear* where its loss is sure to
be marked (the low end of its interval is), and unmarked otherwise. Ties are never broken by
the order of the options: a tie with the chosen move is no loss.

Everything depends only on the decision, the settings and the seed, never on which process
runs it.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from enum import StrEnum

from cabo_log.analysis.decisions import Decision, option_key
from cabo_log.analysis.exact import Memo, exact_plan
from cabo_log.analysis.marks import (
    CONFIDENCE_Z,
    MIN_MARK_WORLDS,
    POINTS_PER_PERCENT,
    THRESHOLDS,
    band,
    decided,
    interval,
    t975,
)
from cabo_log.analysis.match import at_stake, match_win
from cabo_log.analysis.movecache import MoveCache
from cabo_log.analysis.rollout import DEFAULT_POLICY, play_out, policy_cost, resolve
from cabo_log.analysis.stats import paired_difference
from engine import Event, GameState
from engine.worlds import Deal

DEFAULT_ROLLOUTS = 4    # worlds every option is played in first
MIN_ROLLOUTS = 2        # a loss's standard error needs two worlds
BUDGET_FACTOR = 8       # by default an option gets at most 8 x rollouts worlds (32) ...
SHORT_FACTOR = 64       # ... and up to 64 x where the rollouts are short (the round's end)
MIN_BEST_WORLDS = 8     # a chosen move best in this many worlds is no blunder's rival open
MIN_MATCH_MARK_WORLDS = 64  # a sampled mark by the match rests on this many worlds (a world
#                           # near the match's end is often won or lost outright: a 0/1
#                           # outcome's error from 32 worlds is itself unreliable)
SECOND_LOOK = 2         # an undecided loss that could be a blunder: up to 2 x the budget
#                       # for the chosen move and the best (see ``_blunder_open``)
BLUNDER_LEAST = THRESHOLDS[0][1]
REFERENCE_EVENTS = 30   # events of a typical rollout: shorter ones buy more worlds


class View(StrEnum):
    """What a decision is judged by."""

    ROUND = "round"     # expected round points (lower is better)
    MATCH = "match"     # match-winning chance (higher is better)


@dataclass(frozen=True)
class Settings:
    rollouts: int = DEFAULT_ROLLOUTS
    seed: int = 0
    policy: str = DEFAULT_POLICY
    budget: int = 0          # most worlds an option is played in (0: BUDGET_FACTOR x rollouts)
    exact: bool = True       # enumerate where the round ends without further choices
    match: bool = True       # judge by the match where it is at stake

    @property
    def most(self) -> int:
        return max(self.rollouts, self.budget or self.rollouts * BUDGET_FACTOR)

    def most_for(self, events: float) -> int:
        """The most worlds an option gets when a rollout takes ``events`` events on average
        (counted in greedy's events: ``rollout.policy_cost``): the default budget buys more
        worlds where rollouts are short, as many as the same number of events would
        (counted, not timed: the same on every machine)."""
        if self.budget or events <= 0:
            return self.most
        worlds = self.most
        while worlds < self.rollouts * SHORT_FACTOR and \
                2 * worlds * events <= self.most * REFERENCE_EVENTS:
            worlds *= 2
        return worlds


@dataclass
class OptionResult:
    move: Event
    points: list[float] = field(default_factory=list)   # one per world, in world order
    wins: list[float] = field(default_factory=list)     # match-winning chance per world
    exact_points: float | None = None                   # the enumerated value, if exact
    exact_win: float | None = None

    @property
    def mean(self) -> float:
        if self.exact_points is not None:
            return self.exact_points
        return sum(self.points) / len(self.points)

    @property
    def win(self) -> float | None:
        if self.exact_win is not None:
            return self.exact_win
        return sum(self.wins) / len(self.wins) if self.wins else None

    @property
    def evaluated(self) -> bool:
        return self.exact_points is not None or bool(self.points)

    def costs(self, view: View) -> list[float]:
        """Per world, what the view minimises, in points (a match chance: see marks)."""
        if view is View.MATCH:
            return [-100.0 * POINTS_PER_PERCENT * w for w in self.wins]
        return self.points

    def cost(self, view: View) -> float:
        if view is View.MATCH:
            win = self.win
            return -100.0 * POINTS_PER_PERCENT * (win or 0.0)
        return self.mean


def paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` over their common worlds."""
    mean, se = paired_difference(a, b)
    return mean or 0.0, se or 0.0


@dataclass
class Evaluation:
    """The options of one decision with their values and the verdict's inputs."""

    decision: Decision
    options: list[OptionResult]
    chosen: OptionResult
    best: OptionResult                 # the best in the view
    view: View = View.ROUND
    exact: bool = False
    unclear: bool = False

    def _loss(self, view: View, best: OptionResult) -> tuple[float, float]:
        if self.chosen is best:
            return 0.0, 0.0
        if self.exact:
            return max(0.0, self.chosen.cost(view) - best.cost(view)), 0.0
        mean, se = paired(self.chosen.costs(view), best.costs(view))
        return max(0.0, mean), se

    @property
    def loss(self) -> float:
        """What the chosen move gave away against the best, in the view's points (>= 0)."""
        return self._loss(self.view, self.best)[0]

    @property
    def stderr(self) -> float:
        """Standard error of that loss (paired over the common worlds; 0 when exact)."""
        return self._loss(self.view, self.best)[1]

    @property
    def round_best(self) -> OptionResult:
        return best_of(self.options, self.chosen, View.ROUND)

    @property
    def round_loss(self) -> float:
        """Expected round points the chosen move gave away against the best by points."""
        return self._loss(View.ROUND, self.round_best)[0]

    @property
    def match_loss(self) -> float | None:
        """Match-winning chance given away, in percentage points (None: round view)."""
        if self.view is not View.MATCH:
            return None
        return self.loss / POINTS_PER_PERCENT

    @property
    def settled(self) -> bool:
        """Whether the verdict is decided at 95 % (``marks.decided``); exact ones always. A
        chosen move that is the best so far is settled where no other option could still
        beat it by a mark's worth (the high end of the paired interval), and, once it is so
        in ``MIN_BEST_WORLDS`` worlds, where none could beat it by a blunder's: a lead seen
        in a few worlds is not yet a verdict, and near a match's end, where a world is often
        won or lost outright, eight worlds can show a blunder as the best move. Nor is it
        settled in fewer than ``MIN_BEST_WORLDS`` worlds: a rival that tied it in each of
        the first four (a paired error of 0) may differ in the next, and one seed would call
        best what another finds a blunder."""
        if self.exact:
            return True
        if self.chosen is self.best:
            if len(self.chosen.points) < MIN_BEST_WORLDS:
                return False
            least = _rival_least(self.chosen)
            return not any(_rival_open(r, self.chosen, self.view, least) for r in self.options
                           if r is not self.chosen and r.evaluated)
        return decided(self.loss, self.stderr, self.paired_worlds,
                       MIN_MATCH_MARK_WORLDS if self.view is View.MATCH else MIN_MARK_WORLDS)

    @property
    def sure_loss(self) -> float:
        """What the chosen move gave away for sure: the low end of the loss's 95 % interval
        (the loss itself when exact)."""
        if self.exact:
            return self.loss
        return interval(self.loss, self.stderr, self.paired_worlds)[0]

    @property
    def half_width(self) -> float:
        """The half-width of the loss's 95 % interval (0: exact, or no loss)."""
        worlds = self.paired_worlds
        return t975(worlds) * self.stderr if worlds else 0.0

    @property
    def paired_worlds(self) -> int:
        """Worlds the loss is paired over (0: exact, or no loss)."""
        if self.exact or self.chosen is self.best:
            return 0
        return min(len(self.chosen.points), len(self.best.points))

    @property
    def worlds(self) -> int:
        """Worlds the chosen move was played in (0: exact)."""
        return 0 if self.exact else len(self.chosen.points)


def best_of(results: list[OptionResult], chosen: OptionResult, view: View) -> OptionResult:
    """The lowest cost among the evaluated options; a tie goes to the chosen move, else to
    the option whose move sorts first as text (never to the order of the options)."""
    def key(r: OptionResult) -> tuple[float, bool, str]:
        return (round(r.cost(view), 9), r is not chosen, repr(option_key(r.move)))
    return min((r for r in results if r.evaluated), key=key)


def stream_seed(seed: int, game_id: str, seq: int, world: int, what: str = "") -> int:
    """The seed of world ``world`` of the decision at ``seq`` (stable on every machine);
    ``what`` "deal": of its ``world``-th block of balanced deals."""
    text = f"cabo-log/analyse/{seed}/{game_id}/{seq}/{world}" + (f"/{what}" if what else "")
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def evaluate(decision: Decision, settings: Settings) -> Evaluation:
    """Every option's values and the verdict's inputs (see the module docstring)."""
    results = [OptionResult(move) for move in decision.options]
    chosen_key = option_key(decision.chosen)
    chosen = next(r for r in results if option_key(r.move) == chosen_key)
    view = View.MATCH if settings.match and at_stake(decision.state) else View.ROUND
    if len(results) == 1:
        return Evaluation(decision, results, chosen, chosen, view)
    if settings.exact and _exact(decision, results, view):
        return Evaluation(decision, results, chosen, best_of(results, chosen, view), view,
                          exact=True)
    run = _Runner(decision, settings, view)
    n = min(settings.rollouts, settings.most)
    for r in results:
        run(r, n)
    most = settings.most_for(run.events * policy_cost(run.policy) / max(1, run.rollouts))
    while True:
        best = best_of(results, chosen, view)
        ev = Evaluation(decision, results, chosen, best, view)
        if ev.settled:
            return ev
        if n >= most and 0 < ev.paired_worlds < len(chosen.points):
            # the best changed to an option played in fewer worlds than the chosen move
            # (after a second look): the loss is measured over all of the chosen move's
            run(best, len(chosen.points))
            continue
        if n >= most and n < most * SECOND_LOOK and _blunder_open(ev):
            n = min(2 * n, most * SECOND_LOOK)
            for r in (chosen, best):
                run(r, n)
            continue
        if n >= most:
            # out of budget: a loss sure to be marked, of a size not yet decided, is unclear;
            # any other is not marked (nothing is sure)
            ev.unclear = band(ev.sure_loss) is not None
            return ev
        n = min(2 * n, most)
        for r in results:
            if r is chosen or r is best or _could_be_best(r, best, view) or \
                    (chosen is best and _rival_open(r, chosen, view, _rival_least(chosen))):
                run(r, n)


def _blunder_open(ev: Evaluation) -> bool:
    """Whether an undecided loss could be a blunder: the high end of its 95 % interval
    reaches a blunder's loss. Such a verdict moves a player's accuracy the most (a settled
    blunder counts its low end, 6 or more; an undecided loss the band its low end reaches,
    0 to 6), and by the match a blunder is only given on ``MIN_MATCH_MARK_WORLDS`` worlds,
    more than the budget's; so it gets a second look: the chosen move and the best are
    played in up to ``SECOND_LOOK`` times the budget's worlds (the same worlds for both:
    the pair the loss is measured on)."""
    if ev.chosen is ev.best:
        return False
    return interval(ev.loss, ev.stderr, ev.paired_worlds)[1] >= BLUNDER_LEAST


def _could_be_best(r: OptionResult, best: OptionResult, view: View) -> bool:
    """Not clearly worse than the best so far (within 1.96 standard errors of its paired
    difference: a screen, not a verdict; it is asked again at every doubling, against
    whichever option is then the best)."""
    mean, se = paired(r.costs(view), best.costs(view))
    return mean - CONFIDENCE_Z * se <= 0.0


def _rival_least(chosen: OptionResult) -> float:
    """The loss a rival of a chosen move that looks best must be able to reach to keep the
    verdict open: any mark's in its first worlds, a blunder's from ``MIN_BEST_WORLDS``."""
    return BLUNDER_LEAST if len(chosen.points) >= MIN_BEST_WORLDS else THRESHOLDS[-1][1]


def _rival_open(r: OptionResult, chosen: OptionResult, view: View, least: float) -> bool:
    """Whether ``r`` could still beat the chosen move (the best so far) by ``least`` or
    more: the high end of the 95 % interval of what the chosen move would give away
    against it."""
    mean, se = paired(chosen.costs(view), r.costs(view))
    n = min(len(chosen.points), len(r.points))
    return interval(mean, se, n)[1] >= least


def _exact(decision: Decision, results: list[OptionResult], view: View) -> bool:
    """Fill every option's exact value; False (nothing filled) if one is not exact."""
    plans = []
    memo: Memo = {}
    for r in results:
        plan = exact_plan(decision, r.move, memo)
        if plan is None:
            return False
        plans.append(plan)
    for r, plan in zip(results, plans, strict=True):
        r.exact_points, r.exact_win = plan(view is View.MATCH)
    return True


class _Runner:
    """The decision's sampled worlds, and playing one option in more of them."""

    def __init__(self, decision: Decision, settings: Settings, view: View) -> None:
        self.decision, self.settings, self.view = decision, settings, view
        self.player = decision.player
        self.policy = resolve(settings.policy, decision.state)
        self.worlds: list[GameState] = []
        self.seeds: list[int] = []
        self.deals: list[Deal] = []         # the blocks of balanced worlds dealt so far
        self.cache = MoveCache()
        self.events = self.rollouts = 0     # engine events the rollouts played, and how many

    def world(self, k: int) -> tuple[GameState, int]:
        """World ``k`` of the decision and the seed of its rollouts' random stream: world
        ``k % size`` of block ``k // size`` of balanced worlds (``engine.worlds.Deal``)."""
        d = self.decision
        g = d.state
        while len(self.worlds) <= k:
            n = len(self.worlds)
            if not self.deals or n >= len(self.deals) * self.deals[0].size():
                block = stream_seed(self.settings.seed, g.game_id, d.seq, len(self.deals),
                                    "deal")
                self.deals.append(Deal(g, d.seat, d.pools, random.Random(block)))
            size = self.deals[0].size()
            self.seeds.append(stream_seed(self.settings.seed, g.game_id, d.seq, n))
            self.worlds.append(self.deals[n // size].world(g, n % size))
        return self.worlds[k], self.seeds[k]

    def __call__(self, result: OptionResult, stop: int) -> None:
        """Play ``result``'s move in worlds up to ``stop`` (those it was not played in)."""
        for k in range(len(result.points), stop):
            world, seed = self.world(k)
            table = play_out(world, result.move, self.policy, seed, self.cache)
            self.events += table.g.events - world.events
            self.rollouts += 1
            result.points.append(float(table.g.rounds[-1].points[self.player]))
            if self.view is View.MATCH:
                result.wins.append(match_win(table.g, self.player))
