"""Bots play a position on: to the end of the round, or of the match.

A rollout is the analysis' measuring stick: the same position played on by the same policy,
many times, gives the expected points of whoever made the move that led there. The policy is
a parameter (any registered bot; ``greedy`` plays without its "personality" quirks here, so
rollouts measure play rather than the simulator's deliberate oddities). The table's chance
events (reshuffles, and the deals of later rounds) come from the rollout's own
``random.Random``, so a rollout depends only on the position, the policy and that stream.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cabo_log.analysis.movecache import MoveCache
from cabo_log.play.bots import BOTS, Bot, GreedyBot, make_bot
from cabo_log.play.match import shuffled_cards
from engine import GameState, InconsistentLogError, Ruleset, apply
from engine.events import Cabo, Deal, Event, Reshuffle, Snap
from engine.knowledge import observe
from engine.moves import needs_deal, needs_reshuffle, peek_moves, snap_moves
from engine.scoring import expected_first, rotate_first
from engine.vocabulary import DRAWN, POWER, TURN_START, DrawSource
from engine.worlds import fork

# The default rollout policy, ``auto``: the expert where the rest of the round is short
# (a Cabo was called: at most one turn per other player is left), plain greedy elsewhere.
# The expert costs about 14x greedy per event; where it plays only the final turns the
# analysis of a typical match stays within its minute (docs/analysis.md, Rollout policies).
AUTO = "auto"
DEFAULT_POLICY = AUTO
STRONG, CHEAP = "expert", "greedy"
# CPU time per event of a bot's rollouts against greedy's (``benchmarks/rollout_cost.py``):
# the analysis' budget of worlds counts events at this weight.
POLICY_COST: dict[str, float] = {"expert": 14.0, "expert1": 12.0}
MAX_TURNS = 400          # a round longer than this: the player to move is made to call Cabo
MAX_SNAPS = 4            # snaps between two turns
MAX_ROUNDS = 500         # a rollout to the end of the match plays at most this many rounds


def _plain_greedy(rules: Ruleset) -> Bot:
    return GreedyBot(rules, moon_rate=0.0, fail_rate=0.0, wrong_snap_rate=0.0, slow_rate=0.0)


# Registered bots whose rollout version differs from the simulator's.
ROLLOUT_BOTS: dict[str, Callable[[Ruleset], Bot]] = {"greedy": _plain_greedy}


def policy_names() -> list[str]:
    """The names ``--bot`` takes: ``auto`` and every registered bot."""
    return [AUTO, *sorted(BOTS)]


def policy_cost(name: str) -> float:
    """A rollout event's cost under the bot ``name``, in greedy's events."""
    return POLICY_COST.get(name, 1.0)


def resolve(name: str, g: GameState, whole_match: bool = False) -> str:
    """The bot that plays a position on under the policy ``name``: ``auto`` is the expert
    where a Cabo was called in the round (its final turns: a short rest, where the expert's
    placements and powers are what the option is worth), greedy elsewhere and wherever
    whole matches are played on (``whole_match``: whatif's real table); any other name is
    itself."""
    if name != AUTO:
        return name
    return STRONG if not whole_match and g.caller() >= 0 else CHEAP


def make_policy(name: str, rules: Ruleset) -> Bot:
    """One bot of the rollout policy ``name`` (ValueError for an unknown name)."""
    factory = ROLLOUT_BOTS.get(name)
    return factory(rules) if factory is not None else make_bot(name, rules)


def resets_used(g: GameState) -> list[bool]:
    """By seat: whether the player's total was already reset this match (from the rounds'
    results: the once-only reset's memory)."""
    used = [False] * len(g.players)
    for result in g.rounds:
        for name in result.resets:
            used[g.seat[name]] = True
    return used


def tell_resets(bot: Bot, used: bool) -> None:
    """Tell a bot made mid-match that its player's once-only reset is spent. The bots learn
    it by seeing their own total drop between two decisions, which a bot made for a rollout
    never saw; the match's history (``resets_used``) says it. Sets the bots' own memory of
    it where they have one (the expert's ``reset_used``, greedy's mood's ``reset_seen``)."""
    if not used:
        return
    if hasattr(bot, "reset_used"):
        setattr(bot, "reset_used", True)  # noqa: B010 (a Bot protocol has no such field)
    mood = getattr(bot, "mood", None)
    if mood is not None and hasattr(mood, "reset_seen"):
        setattr(mood, "reset_seen", True)  # noqa: B010


class Table:
    """Plays a playable state (``engine.worlds.playable``) on with one bot per seat, each
    told whether its player's once-only reset is spent (``tell_resets``)."""

    def __init__(self, g: GameState, policy: str, rng: random.Random,
                 cache: MoveCache | None = None) -> None:
        self.g = g
        self.rng = rng
        policy = resolve(policy, g)
        self.bots = [make_policy(policy, g.rules) for _ in g.players]
        for bot, used in zip(self.bots, resets_used(g), strict=True):
            tell_resets(bot, used)
        self.snaps = 0
        self.cache = cache if cache is not None else MoveCache()

    def play_round(self, since: int | None = None) -> dict[str, int]:
        """Play to the end of the current round; that round's points by player. ``since``:
        the number of finished rounds when the round began (default: now)."""
        g = self.g
        rounds = len(g.rounds) if since is None else since
        while len(g.rounds) == rounds and g.phase in (TURN_START, DRAWN, POWER):
            self.step()
        return dict(g.rounds[-1].points) if g.rounds else {}

    def play_match(self) -> tuple[str, ...]:
        """Play to the end of the match; the winners."""
        g = self.g
        start = len(g.rounds)
        while not g.complete:
            if len(g.rounds) - start > MAX_ROUNDS:
                break
            if needs_deal(g):
                self.deal()
            elif g.phase in (TURN_START, DRAWN, POWER):
                self.step()
            else:
                break
        return g.winners

    def step(self) -> None:
        """One event: a snap, a forced Cabo, or the move of the player to act."""
        g = self.g
        if g.phase == TURN_START:
            if g.rules.snap and self.snaps < MAX_SNAPS and self._snap():
                return
            self.snaps = 0
            if g.turn() >= MAX_TURNS and g.caller() < 0:
                self.apply(Cabo(None, False, g.players[g.to_act()]))
                return
        seat = g.to_act()
        move = self.bots[seat].choose(g.observation(seat), self.cache.legal(g), self.rng)
        self.apply(move)

    def _snap(self) -> bool:
        g = self.g
        options = snap_moves(g)
        if not options:
            return False
        count = len(g.players)
        for k in range(count):
            seat = (g.to_act() + k) % count
            name = g.players[seat]
            mine = [m for m in options if isinstance(m, Snap) and m.player == name]
            if len(mine) < 2:
                continue  # an empty (or one-card) row keeps its card, as the simulator does
            choice = self.bots[seat].snap(g.observation(seat), mine, self.rng)
            if choice is not None:
                self.snaps += 1
                self.apply(choice)
                return True
        return False

    def apply(self, event: Event) -> None:
        """Apply, making the reshuffle the engine asks for first (a chance event)."""
        g = self.g
        if needs_reshuffle(g) and getattr(event, "source", None) == DrawSource.DECK:
            self.reshuffle()
        try:
            apply(g, event)
        except InconsistentLogError as exc:
            if exc.code != "reshuffle_missing":
                raise
            self.reshuffle()
            apply(g, event)

    def reshuffle(self) -> None:
        g = self.g
        codes = list(observe(g, g.players[0]).discard[:-1])
        self.rng.shuffle(codes)
        apply(g, Reshuffle(None, False, tuple(codes)))

    def deal(self) -> None:
        """Deal the next round from a fresh shuffle, then the bots' initial peeks."""
        g = self.g
        seats, hands, top, rest = shuffled_cards(g, self.rng.shuffle)
        first = expected_first(g, seats)
        if first is None:  # the log decides: the deal rotates
            first = rotate_first(g, seats) if g.rounds else seats[0]
        apply(g, Deal(None, False, len(g.rounds) + 1, g.players[first], hands, top, rest))
        self.snaps = 0
        for seat in seats:
            name = g.players[seat]
            options = peek_moves(g, name)
            if options:
                choice = self.bots[seat].peek(observe(g, name), options, self.rng)
                if choice is not None:
                    apply(g, choice)


def play_out(world: GameState, move: Event, policy: str, seed: int,
             cache: MoveCache | None = None) -> Table:
    """The table after ``move`` in ``world`` and the rest of the round played by the bots."""
    table = Table(fork(world), policy, random.Random(seed), cache)
    rounds = len(table.g.rounds)
    table.apply(move)
    table.play_round(since=rounds)
    return table
