"""``greedy`` and ``cautious``: bots that play like a decent human, from what they know.

``greedy`` follows the tips of the golf rule text: it keeps known low cards, replaces its worst
known card, peeks at its own unknown cards, spies, swaps its worst card for a low card it saw,
multi-replaces only cards it knows to be equal, and calls Cabo when the total it knows is low.
A few small "personality" probabilities (hunting a Kamikaze / shoot-the-moon row, a
multi-replacement that bets unknown cards match a known one, a wrong snap, a slow round, aiming
at the exact-target reset) make corpora contain rare cases; they are legal moves like any
other. ``cautious`` is ``greedy`` that calls Cabo only on a very low known total.

The class holds the decisions; the personality of a round (``Personality``) and the placement
arithmetic are below it, the swaps and the hunt for the special row in ``tactics``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cabo_log.play.counting import Row, Values, values_for
from cabo_log.play.tactics import (
    is_special,
    moon_slot,
    own_swap,
    spoil_leader,
    swap_follow_up,
)
from engine.events import Cabo, Discard, Draw, Event, Power, Replace, Skip, Snap
from engine.knowledge import Observation
from engine.rulesets import RESET_NEVER, RESET_ONCE, Ruleset
from engine.vocabulary import DrawSource, PowerKind


class GreedyBot:
    """A decent human player; see the module docstring. Personality rates may be set to 0."""

    name = "greedy"

    def __init__(self, rules: Ruleset, *, moon_rate: float = 0.05, fail_rate: float = 0.01,
                 wrong_snap_rate: float = 0.002, slow_rate: float = 0.03,
                 call_at: float = 6.0) -> None:
        self.rules = rules
        self.values = values_for(rules)
        self.fail_rate = fail_rate if rules.max_replace != 1 else 0.0
        self.wrong_snap_rate = wrong_snap_rate
        self.call_at = call_at
        self.special = sorted(rules.special_row) if rules.special_row is not None else None
        # the values whose card, replaced out, earns a swap (golf's power from the replaced)
        self.swaps_from_replaced = {v for v, p in rules.powers if p == PowerKind.SWAP} \
            if rules.power_from_replaced else set()
        self.mood = Personality(rules, moon_rate if self.special is not None else 0.0,
                                slow_rate)

    # --- the protocol --------------------------------------------------------------------
    def choose(self, observation: Observation, legal_moves: Sequence[Event],
               rng: random.Random) -> Event:
        obs = observation
        mood = self.mood.of(obs, rng)
        if mood == "normal" and self.mood.frozen(obs, self.values):
            mood = "frozen"
        first = legal_moves[0]
        if isinstance(first, (Draw, Cabo)):
            return self._start(obs, legal_moves, mood)
        if isinstance(first, (Discard, Replace)):
            return self._place(obs, legal_moves, mood, rng)
        return self._power(obs, legal_moves, mood)

    def peek(self, observation: Observation, options: Sequence[Event],
             rng: random.Random) -> Event | None:
        if not options:
            return None
        return rng.choice(list(options))

    def snap(self, observation: Observation, options: Sequence[Event],
             rng: random.Random) -> Event | None:
        obs = observation
        if not options or not obs.discard:
            return None
        if self.mood.moods.get(obs.round) == "moon" or self.mood.frozen(obs, self.values):
            return None
        top = self.values.of[obs.discard[-1]]
        row = obs.rows.get(obs.me, ())
        for move in options:
            if isinstance(move, Snap) and move.position < len(row):
                code = row[move.position]
                if code is not None and self.values.of[code] == top and top > 0:
                    return move
        if rng.random() < self.wrong_snap_rate:
            unknown = [m for m in options if isinstance(m, Snap) and m.position < len(row)
                       and row[m.position] is None]
            if unknown:
                return rng.choice(unknown)
        return None

    # --- start of a turn -----------------------------------------------------------------
    def _start(self, obs: Observation, moves: Sequence[Event], mood: str) -> Event:
        cabo = [m for m in moves if isinstance(m, Cabo)]
        draws = {m.source: m for m in moves if isinstance(m, Draw)}
        if not draws:
            return cabo[0]
        if cabo and self._should_call(obs, mood):
            return cabo[0]
        if DrawSource.DISCARD in draws and obs.discard and mood != "frozen":
            if self._wants(obs, obs.discard[-1], mood):
                return draws[DrawSource.DISCARD]
        return draws.get(DrawSource.DECK) or draws[DrawSource.DISCARD]

    def _should_call(self, obs: Observation, mood: str) -> bool:
        row = obs.rows[obs.me]
        known, unknown = self.values.row(row)
        total = sum(v for _, v in known)
        players = max(len(obs.rows), 2)
        stuck = obs.deck_size == 0 and not self.rules.reshuffle
        if mood == "moon":
            return not unknown and is_special(self.values, self.special, row)
        if self.rules.special_caller_zero and not unknown and total == 0:
            return True
        if not unknown and is_special(self.values, self.special, row):
            return True
        if mood == "slow" or mood == "frozen":
            return obs.turn > 30 * players or (stuck and obs.turn > 15 * players)
        late = obs.turn > 14 * players
        estimate = total + len(unknown) * self.values.mean
        others = [self.values.estimate(r) for p, r in obs.rows.items() if p != obs.me]
        best_other = min(others) if others else 99.0
        limit = self.call_at + (4 if late else 0) + (6 if stuck else 0)
        if len(unknown) == 0 and total <= limit and total < best_other:
            return True
        if len(unknown) <= 1 and estimate <= limit - 1 and estimate < best_other - 3:
            return True
        if self.rules.deck_empty_ends_round and obs.deck_size < players:
            return estimate < best_other  # the round is about to end anyway: be the caller
        return stuck and estimate < best_other

    def _wants(self, obs: Observation, top: str, mood: str) -> bool:
        value = self.values.of[top]
        row = obs.rows[obs.me]
        if mood == "moon":
            return moon_slot(self.values, self.special, row, value) is not None
        if exact_slot(self.values, self.mood.gap(obs), row, value) is not None:
            return True
        gain, _ = best_placement(self.values, self.rules.max_replace, row, value)
        return gain >= 4 or (value <= 1 and gain > 0)

    # --- placing a drawn card ------------------------------------------------------------
    def _place(self, obs: Observation, moves: Sequence[Event], mood: str,
               rng: random.Random) -> Event:
        row = obs.rows[obs.me]
        assert obs.drawn is not None
        value = self.values.of[obs.drawn]
        can_discard = any(isinstance(m, Discard) for m in moves)
        if mood == "moon":
            slot = moon_slot(self.values, self.special, row, value)
            if slot is not None:
                return Replace(None, False, obs.me, (slot,), None, None)
            if can_discard:
                return Discard(None, False, obs.me)
        if mood == "frozen":
            if can_discard:
                return Discard(None, False, obs.me)
            same = [i for i, code in enumerate(row)
                    if code is not None and self.values.of[code] == value]
            if same:
                return Replace(None, False, obs.me, (same[0],), None, None)
        exact = exact_slot(self.values, self.mood.gap(obs), row, value)
        if exact is not None:
            return Replace(None, False, obs.me, (exact,), None, None)
        if self.fail_rate and rng.random() < self.fail_rate:
            picked = gamble(self.values, self.rules.max_replace, row, rng)
            if picked is not None:
                end = rng.choice(("left", "right")) if self.rules.choose_failed_end else None
                return Replace(None, False, obs.me, picked, None, end)
        gain, positions = best_placement(self.values, self.rules.max_replace, row, value)
        if self.swaps_from_replaced and mood == "normal":   # golf: a jack out earns a swap
            others = {p: r for p, r in obs.rows.items() if p != obs.me}
            follow = swap_follow_up(self.values, self.special, row, others, obs.drawn,
                                    self.swaps_from_replaced)
            if follow is not None and follow[0] > gain:
                return Replace(None, False, obs.me, (follow[1],), None, None)
        power = self.rules.power_of(value) is not None and obs.drawn_source == DrawSource.DECK
        if not can_discard or gain > (2.0 if power else 0.5):
            return Replace(None, False, obs.me, positions, None, None)
        return Discard(None, False, obs.me)

    # --- powers --------------------------------------------------------------------------
    def _power(self, obs: Observation, moves: Sequence[Event], mood: str) -> Event:
        skip = next(m for m in moves if type(m) is Skip)
        power = obs.pending_power
        me = obs.me
        row = obs.rows[me]
        if power == PowerKind.PEEK:
            for i, code in enumerate(row):
                if code is None:
                    return Power(None, False, me, PowerKind.PEEK, (me, i), None)
            return skip
        others = {p: r for p, r in obs.rows.items() if p != me}
        if power == PowerKind.SPY:
            # look at the opponent who seems closest to calling, at a card nobody showed us
            ranked = sorted(others, key=lambda p: self.values.estimate(others[p]))
            for p in ranked:
                for i, code in enumerate(others[p]):
                    if code is None:
                        return Power(None, False, me, PowerKind.SPY, (p, i), None)
            return skip
        if power == PowerKind.SWAP and mood != "frozen":
            swap = own_swap(self.values, self.special, row, others, mood)
            if swap is not None:
                mine, theirs = swap
                return Power(None, False, me, PowerKind.SWAP, None, ((me, mine), theirs))
            if self.rules.swap_any_two_players and mood == "normal":
                spoil = spoil_leader(self.values, obs, others)
                if spoil is not None:
                    return Power(None, False, me, PowerKind.SWAP, None, spoil)
        return skip


class CautiousBot(GreedyBot):
    """``greedy`` that calls Cabo only on a very low known total: long rounds, empty decks."""

    name = "cautious"

    def __init__(self, rules: Ruleset) -> None:
        super().__init__(rules, call_at=2.0)


# --- personality -----------------------------------------------------------------------------


class Personality:
    """A round's mood ("normal", "moon": hunting the special row, "slow": calling late), drawn
    once per round, and whether the round aims at landing exactly on the target (a 100 -> 50
    reset: worth aiming at, except where the reset works once and this player has had it,
    then only now and then)."""

    def __init__(self, rules: Ruleset, moon_rate: float, slow_rate: float) -> None:
        self.rules = rules
        self.moon_rate = moon_rate
        self.slow_rate = slow_rate
        self.moods: dict[int, str] = {}   # round -> mood
        self.aims: dict[int, bool] = {}   # round -> aims at the exact target
        self.last_score: int | None = None
        self.reset_seen = False

    def of(self, obs: Observation, rng: random.Random) -> str:
        """This round's mood (drawn at the round's first decision)."""
        mood = self.moods.get(obs.round)
        if mood is None:
            roll = rng.random()
            if roll < self.moon_rate:
                mood = "moon"
            elif roll < self.moon_rate + self.slow_rate:
                mood = "slow"
            else:
                mood = "normal"
            self.moods = {obs.round: mood}
            score = obs.scores[obs.me]
            if self.last_score is not None and score < self.last_score:
                self.reset_seen = True
            self.last_score = score
            aim = self.rules.exact_reset != RESET_NEVER
            if aim and self.rules.exact_reset == RESET_ONCE and self.reset_seen:
                aim = rng.random() < 0.3
            self.aims = {obs.round: aim}
        if mood == "moon" and len(obs.rows[obs.me]) != 4:
            mood = self.moods[obs.round] = "normal"   # a grown or shrunk row cannot make it
        return mood

    def gap(self, obs: Observation) -> int | None:
        """Points that would land exactly on the target, when this round aims at it."""
        if not self.aims.get(obs.round):
            return None
        gap = self.rules.target - obs.scores[obs.me]
        return gap if gap > 0 else None

    def frozen(self, obs: Observation, values: Values) -> bool:
        """The row is fully known and totals exactly the gap to the target: keep it."""
        gap = self.gap(obs)
        if gap is None:
            return False
        known, unknown = values.row(obs.rows[obs.me])
        return not unknown and sum(v for _, v in known) == gap


# --- placements ------------------------------------------------------------------------------


def best_placement(values: Values, max_replace: int | None, row: Row, value: int
                   ) -> tuple[float, tuple[int, ...]]:
    """The best gain (drop of the expected row total) of placing a card of ``value``, and
    where: a single card, known equal cards together, or an unknown card (at a small risk)."""
    known, unknown = values.row(row)
    best: tuple[float, tuple[int, ...]] = (-99.0, (0,))
    if max_replace != 1:
        groups: dict[int, list[int]] = {}
        for i, v in known:
            groups.setdefault(v, []).append(i)
        for v, group in groups.items():
            if len(group) >= 2:
                chosen = group[:max_replace] if max_replace else group
                multi = float(v * len(chosen) - value)
                if multi > best[0]:
                    best = (multi, tuple(chosen))
    for i, v in known:
        if v - value > best[0]:
            best = (float(v - value), (i,))
    if unknown:
        blind = values.mean - value - 0.5
        if blind > best[0]:
            best = (blind, (unknown[0],))
    return best


def gamble(values: Values, max_replace: int | None, row: Row, rng: random.Random
           ) -> tuple[int, ...] | None:
    """A multi-replacement that bets unknown cards equal a known one (the personality that
    puts failed multi-replacements in corpora). It always lists an unknown card: a player who
    knows every listed card knows whether they match, so never fails knowingly."""
    known, unknown = values.row(row)
    if not known or not unknown:
        return None
    count = rng.choice((2, 3))
    if max_replace:
        count = min(count, max_replace)
    worst = max(known, key=lambda iv: iv[1])[0]
    blind = rng.sample(unknown, min(count - 1, len(unknown)))
    return tuple(sorted((worst, *blind))) if blind else None


def exact_slot(values: Values, gap: int | None, row: Row, value: int) -> int | None:
    """A position whose replacement by ``value`` makes the known row total ``gap``."""
    if gap is None:
        return None
    known, unknown = values.row(row)
    total = sum(v for _, v in known)
    if len(unknown) == 1 and total + value == gap:
        return unknown[0]
    if not unknown:
        for i, v in known:
            if v != value and total - v + value == gap:
                return i
    return None


__all__ = ["CautiousBot", "GreedyBot", "Personality"]
