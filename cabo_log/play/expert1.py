"""``expert1``: the first revision of the ``expert`` bot, kept unchanged as a fixed reference.

``benchmarks/expert.py --versus expert1`` measures the current expert against it head to head;
nothing else depends on it. Do not improve it: a reference that moves measures nothing. What
it does (and what the current expert does better: snaps after its own discard, special hands,
the exact-target reset, a Cabo call weighed against taking the discard, no blind calls) is
told in ``cabo_log/play/expert.py`` and docs/simulate.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from cabo_log.play.counting import Counting, Unseen, known_to_fail
from engine.events import Cabo, Discard, Draw, Event, Power, Replace, Skip, Snap
from engine.knowledge import Observation
from engine.rulesets import Ruleset
from engine.vocabulary import DrawSource, PowerKind


@dataclass(frozen=True)
class Style:
    """The first expert's judgement, as it was tuned."""

    keep_share: float = 0.4        # an opponent's unknown card tends, over their turns, to the
    keep_turns: float = 3.0        # mean of the lowest 40 % of the pool (players keep low cards
                                   # and replace high ones), at this pace: 1 - exp(-turns / 3)
    peek_value: float = 1.5        # worth of looking at one of one's own unknown cards
    spy_value: float = 0.5         # worth of looking at an opponent's unknown card
    unknown_risk: float = 0.5      # cost of holding an unknown card rather than a known one
    swap_margin: float = 1.0       # a swap must gain at least this much
    hurt_weight: float = 0.3       # how much a non-leading opponent's loss counts
    call_chance: float = 0.65      # call Cabo when it succeeds this often ...
    final_gain: float = 1.5        # ... counting what each opponent gains on their final turn
    patience: float = 6.0          # after this many turns each, the chance needed drops
    impatience: float = 0.05       # by this much per turn, and the call may cost
    late_points: float = 1.0       # this many points more than the hand per turn
    samples: int = 96              # deals of the unseen cards per Cabo decision
    call_gap: float = 6.0          # no sampling when the hand looks this much worse than the
    call_ceiling: float = 20.0     # best opponent's, or is worth more than this


class Table:
    """One decision's view: values of the rows as the player knows them, and the pool."""

    def __init__(self, obs: Observation, counting: Counting, style: Style) -> None:
        self.obs = obs
        self.me = obs.me
        self.pool: Unseen = counting.unseen(obs)
        values = counting.values
        self.mean = self.pool.mean
        self.rows: dict[str, list[int | None]] = {
            p: [None if c is None else values[c] for c in row] for p, row in obs.rows.items()}
        self.mine = self.rows[obs.me]
        self.others = {p: r for p, r in self.rows.items() if p != obs.me}
        turns = obs.turn / max(len(obs.rows), 1)
        kept = 1.0 - math.exp(-turns / style.keep_turns)
        low = self.pool.values[:max(1, int(len(self.pool.values) * style.keep_share))]
        self.bias = kept * (self.mean - sum(low) / len(low))
        self.opp_mean = self.mean - self.bias

    def value(self, player: str, pos: int) -> float:
        v = self.rows[player][pos]
        if v is not None:
            return float(v)
        return self.mean if player == self.me else self.opp_mean

    def estimate(self, player: str) -> float:
        return sum(self.value(player, i) for i in range(len(self.rows[player])))

    def unknown(self, player: str) -> list[int]:
        return [i for i, v in enumerate(self.rows[player]) if v is None]

    def leader(self) -> str | None:
        """The opponent who looks closest to winning: the caller in the final turns, else the
        lowest estimated hand (ties: the lower match score)."""
        if not self.others:
            return None
        if self.obs.caller is not None and self.obs.caller in self.others:
            return self.obs.caller
        return min(self.others, key=lambda p: (self.estimate(p), self.obs.scores[p], p))


class Expert1Bot:
    """Counts cards, values moves by expectation; see the module docstring."""

    name = "expert1"

    def __init__(self, rules: Ruleset, style: Style | None = None) -> None:
        self.rules = rules
        self.style = style or Style()
        self.counting = Counting(rules)
        self.of = self.counting.values
        self.powers = rules.power_table()

    # --- the protocol --------------------------------------------------------------------
    def choose(self, observation: Observation, legal_moves: Sequence[Event],
               rng: random.Random) -> Event:
        table = Table(observation, self.counting, self.style)
        first = legal_moves[0]
        if isinstance(first, (Draw, Cabo)):
            return self._start(table, legal_moves, rng)
        if isinstance(first, (Discard, Replace)):
            return self._place(table, legal_moves)
        return self._power(table, legal_moves)

    def peek(self, observation: Observation, options: Sequence[Event],
             rng: random.Random) -> Event | None:
        """Always look: knowing a card is never worse. Every choice is alike before play."""
        return options[0] if options else None

    def snap(self, observation: Observation, options: Sequence[Event],
             rng: random.Random) -> Event | None:
        """Snap a card it knows matches the top of the pile, when losing it lowers the hand."""
        if not options or not observation.discard:
            return None
        top = self.of[observation.discard[-1]]
        row = observation.rows.get(observation.me, ())
        for move in options:
            if isinstance(move, Snap) and move.position < len(row):
                code = row[move.position]
                if code is not None and self.of[code] == top and top > 0:
                    return move
        return None

    # --- start of a turn -----------------------------------------------------------------
    def _start(self, table: Table, moves: Sequence[Event], rng: random.Random) -> Event:
        cabo = [m for m in moves if isinstance(m, Cabo)]
        draws = {m.source: m for m in moves if isinstance(m, Draw)}
        if not draws or (cabo and should_call(self.rules, self.style, table, rng)):
            return cabo[0] if cabo else moves[0]
        deck = draws.get(DrawSource.DECK)
        take = draws.get(DrawSource.DISCARD)
        if take is None or not table.obs.discard:
            return deck or moves[0]
        if deck is None:
            return take
        top = self.of[table.obs.discard[-1]]
        taken = self._best_place(table, top, from_deck=False)
        return take if taken > self._deck_worth(table) else deck

    def _deck_worth(self, table: Table) -> float:
        """The expected gain of a deck draw: each card's best use, weighted by its count."""
        counts = table.pool.by_value()
        total = sum(counts.values())
        return sum(n * self._best_place(table, v, from_deck=True)
                   for v, n in counts.items()) / total

    # --- placing a drawn card ------------------------------------------------------------
    def _place(self, table: Table, moves: Sequence[Event]) -> Event:
        obs = table.obs
        assert obs.drawn is not None
        value = self.of[obs.drawn]
        best: tuple[float, Event] | None = None
        for move in moves:
            score = self._place_score(table, move, value, obs.drawn_source == DrawSource.DECK)
            if score is not None and (best is None or score > best[0]):
                best = (score, move)
        assert best is not None
        return best[1]

    def _best_place(self, table: Table, value: int, *, from_deck: bool) -> float:
        """The best expected gain of holding a card of ``value``: discarding it for its power
        (a deck draw only), replacing one card, or replacing known equal cards."""
        row = table.mine
        options: list[tuple[int, ...]] = [(i,) for i in range(len(row))]
        if self.rules.max_replace != 1:
            groups: dict[int, list[int]] = {}
            for i, v in enumerate(row):
                if v is not None:
                    groups.setdefault(v, []).append(i)
            limit = self.rules.max_replace or len(row)
            options += [tuple(g[:limit]) for g in groups.values() if len(g) > 1]
        gains = [g for o in options if (g := self._replace_gain(table, o, value)) is not None]
        if from_deck:
            gains.append(self._power_worth(table, value))
        return max(gains, default=0.0)

    def _place_score(self, table: Table, move: Event, value: int,
                     from_deck: bool) -> float | None:
        if isinstance(move, Discard):
            return self._power_worth(table, value) if from_deck else None
        if isinstance(move, Replace):
            return self._replace_gain(table, move.positions, value)
        return None

    def _replace_gain(self, table: Table, positions: Sequence[int], value: int) -> float | None:
        """The expected drop of the hand total when ``value`` replaces ``positions``; None for
        a multi-replacement of cards it does not all know to be equal (it could fail)."""
        row = table.mine
        if len(positions) > 1:
            if any(row[p] is None for p in positions) or known_to_fail(
                    table.obs.rows[table.me], positions, self.of):
                return None
        gain = sum(table.value(table.me, p) for p in positions) - value
        if any(row[p] is None for p in positions):
            gain += self.style.unknown_risk   # an unknown card leaves, a known one comes
        if self.rules.power_from_replaced:
            last = row[positions[-1]]
            if last is not None:
                gain += self._power_worth(table, last)
        return gain

    # --- powers --------------------------------------------------------------------------
    def _power_worth(self, table: Table, value: int) -> float:
        """What the power a discarded card of ``value`` earns is worth now."""
        power = self.powers.get(value)
        if power == PowerKind.PEEK:
            return self.style.peek_value if table.unknown(table.me) else 0.0
        if power == PowerKind.SPY:
            return self.style.spy_value if any(table.unknown(p) for p in table.others) else 0.0
        if power == PowerKind.SWAP:
            return max(0.0, best_swap(self.style, table)[0])
        return 0.0

    def _power(self, table: Table, moves: Sequence[Event]) -> Event:
        skip = next(m for m in moves if isinstance(m, Skip))
        power = table.obs.pending_power
        if power == PowerKind.PEEK:
            for move in moves:
                if isinstance(move, Power) and move.target is not None \
                        and table.mine[move.target[1]] is None:
                    return move
            return skip
        if power == PowerKind.SPY:
            ranked = sorted(table.others, key=lambda p: p != table.leader())
            for p in ranked:
                for move in moves:
                    if isinstance(move, Power) and move.target is not None \
                            and move.target[0] == p and table.rows[p][move.target[1]] is None:
                        return move
            return skip
        if power == PowerKind.SWAP:
            gain, swap = best_swap(self.style, table, moves)
            if swap is not None and gain >= self.style.swap_margin:
                return swap
        return skip


# --- swaps -----------------------------------------------------------------------------------


def best_swap(style: Style, table: Table, moves: Sequence[Event] | None = None
              ) -> tuple[float, Event | None]:
    """The swap of one own card with an opponent's that gains most, and its gain."""
    me = table.me
    leader = table.leader()
    best: tuple[float, Event | None] = (0.0, None)
    candidates = moves if moves is not None else [
        Power(None, False, me, PowerKind.SWAP, None, ((me, i), (p, j)))
        for i in range(len(table.mine)) for p, r in table.others.items()
        for j in range(len(r))]
    for move in candidates:
        if not isinstance(move, Power) or move.cards is None:
            continue
        (a, i), (b, j) = move.cards
        if b == me:
            (a, i), (b, j) = (b, j), (a, i)
        if a != me:
            continue   # edition1 allows swapping two others' cards: not worth modelling
        mine, theirs = table.value(me, i), table.value(b, j)
        if table.mine[i] is None and table.rows[b][j] is None:
            continue   # blind for blind: nothing known to gain
        hurt = 1.0 if b == leader else style.hurt_weight
        gain = (1.0 + hurt) * (mine - theirs)   # my hand drops, theirs grows as much
        if table.rows[b][j] is None:
            gain -= style.unknown_risk
        if gain > best[0]:
            best = (gain, move)
    return best


# --- Cabo ------------------------------------------------------------------------------------


def should_call(rules: Ruleset, style: Style, table: Table, rng: random.Random) -> bool:
    """Call when the call succeeds often enough and scores better on average than the hand
    would uncalled (both asking less as the round drags on)."""
    mine = table.estimate(table.me)
    best_other = min((table.estimate(p) for p in table.others), default=99.0)
    if mine > best_other + style.call_gap or mine > style.call_ceiling:
        return False   # hardly any deal of the unseen cards would make this call work
    chance, if_called, uncalled = sample_call(rules, style, table, rng)
    late = late_turns(style, table)
    return (chance >= style.call_chance - style.impatience * late
            and if_called < uncalled + style.late_points * late)


def sample_call(rules: Ruleset, style: Style, table: Table, rng: random.Random
                ) -> tuple[float, float, float]:
    """Deal the unseen cards into the unknown slots ``Style.samples`` times: the call's
    chance of success, its mean points, and the mean of the hand itself."""
    slots = {p: len(table.unknown(p)) for p in table.rows}
    need = sum(slots.values())
    known = {p: sum(v for v in r if v is not None) for p, r in table.rows.items()}
    wins = 0
    if_called = uncalled = 0.0
    for _ in range(style.samples):
        dealt = table.pool.sample(need, rng)
        k = 0
        me = 0.0
        others: list[int] = []
        for p, n in slots.items():
            total = known[p] + sum(dealt[k:k + n])
            k += n
            if p == table.me:
                me = total
            else:   # what this opponent keeps, and gains on their final turn
                others.append(round(total - table.bias * n - style.final_gain))
        ok = rules.caller_succeeds(round(me), others)
        wins += ok
        if_called += 0 if ok else me + rules.caller_penalty
        uncalled += me
    return wins / style.samples, if_called / style.samples, uncalled / style.samples


def late_turns(style: Style, table: Table) -> float:
    """Turns each beyond ``Style.patience``: the longer a round drags on, the less waiting can
    still gain, so the call needs less (a table of careful players, or a stalemate of low
    single cards, would otherwise play on for ever)."""
    turns = table.obs.turn / max(len(table.rows), 1)
    return max(0.0, turns - style.patience)


__all__ = ["Expert1Bot"]
