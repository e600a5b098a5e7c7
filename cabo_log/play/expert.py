"""``expert``: a bot that counts cards and chooses every move by its expected value.

It sees what every bot sees (an ``Observation`` and the legal moves) and reads the rules from
the ruleset's data. What makes it stronger than ``greedy``:

- **Counting.** An unknown card is valued at the mean of the cards this player has not seen
  (``counting.unseen``): the discard pile, every card it peeked, spied or saw revealed and the
  card it holds are out of the pool. What each slot's public record says leans it
  (``leans``): an opponent's card they kept after seeing it, or have known for turns, is
  valued low (players keep their low cards, ``Style.keep_share``), one they never saw at the
  mean, and a card an opponent's swap gave it high.
- **Placing by expected value.** Every legal placement is scored as the expected drop of its
  own hand total: a known card's value or the pool mean for an unknown one, a multi-replacement
  only of cards it knows to be equal (it never lists a card it does not know), plus the worth
  of the power a discard (or, where the ruleset says so, the replaced card) earns.
- **Drawing by expected value.** Taking the discard is compared with the expected worth of a
  deck draw over the pool: the best use of each card it could draw, weighted by its count.
- **Powers where they pay.** Peek at its own unknown cards, spy on the opponent who looks
  closest to winning, and swap only when the expected values say so: its worst card for an
  opponent's low one, hurting the leader or, in the final turns, the caller.
- **Calling Cabo by its standing.** It deals the unseen cards at random into every unknown
  slot (``Style.samples`` times), applies the ruleset's ``caller_succeeds`` and caller penalty,
  and calls when the call's chance and expected points beat playing on, or when the others
  would score far more than it on average, or when the call most likely ends the match won;
  never blind (two or more of its own cards unknown on its first turn), and not before
  weighing the call against taking a low discard first (``calls``).
- **Its last turn.** After another player's call a peek or spy is worth nothing (the round
  ends before it could use what it saw) and an unknown card costs only its mean.
- **Playing for more than the total** (``aims``): a special hand (Kamikaze, shoot the moon, a
  golf zero caller) is completed, kept and called at once; a known row totalling exactly the
  gap to a resetting target is kept and not called away; in golf, a card whose snap would take
  known equal cards of the row with it is put on the pile for that.

Deterministic for a given ``random.Random`` (the sampling draws from it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cabo_log.play.aims import Aims, after_replace
from cabo_log.play.calls import call_verdict, take_instead
from cabo_log.play.counting import Counting, Unseen, known_to_fail
from cabo_log.play.leans import lean_value, leans
from engine.events import Cabo, Discard, Draw, Event, Power, Replace, Skip, Snap
from engine.knowledge import Observation
from engine.rulesets import Ruleset
from engine.vocabulary import DrawSource, PowerKind


@dataclass(frozen=True)
class Style:
    """The expert's tunable judgement (the defaults are what ``benchmarks/expert.py`` tuned)."""

    keep_share: float = 0.4        # a card an opponent knows and holds tends, over their
    keep_turns: float = 2.0        # turns, to the lowest 40 % of the pool (players keep low
                                   # cards and replace high ones): 1 - exp(-turns / 2) of them
    kept_low: float = 0.75         # one they put there after seeing it: at least this share
    given_high: float = 0.5        # one another's swap gave: this share of the highest 40 %
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
    blind_unknown: int = 2         # no call with this many own cards unknown ...
    blind_turns: float = 1.0       # ... before this many turns each (its first turn)
    take_margin: float = 0.5       # take the discard before calling when that saves this much
    reset_hold: float = 0.7        # share of the exact-target reset a row on the gap keeps
    finish_chance: float = 0.8     # call when the call ends the match won this often ...
    finish_risk: float = 0.1       # ... and no call that ends it lost more often than this
    call_edge: float = 10.0        # also call when the others score this much more on average


STYLES: dict[str, Style] = {
    "golf": Style(keep_share=0.3),
}
"""The judgement measured best per built-in ruleset where it differs from ``Style()``
(``benchmarks/expert.py``): golf's kept cards are the lowest 30 % of the unseen ones (there a
kept share of 40 % lost 2-3 points against greedy, paired on the same matches). A ruleset of
another name (a house ruleset) plays with ``Style()``."""


def style_for(rules: Ruleset) -> Style:
    """The expert's judgement for ``rules``: ``STYLES`` by the ruleset's name, else the
    defaults."""
    return STYLES.get(rules.name, Style())


class Table:
    """One decision's view: values of the rows as the player knows them, and the pool."""

    def __init__(self, obs: Observation, counting: Counting, style: Style,
                 gap: int | None = None) -> None:
        self.obs = obs
        self.gap = gap   # round points that land exactly on a resetting target, or None
        self._held: float | None = None
        self.me = obs.me
        self.final = obs.caller is not None and obs.caller != obs.me   # its last turn
        self.pool: Unseen = counting.unseen(obs)
        values = counting.values
        self.mean = self.pool.mean
        self.rows: dict[str, list[int | None]] = {
            p: [None if c is None else values[c] for c in row] for p, row in obs.rows.items()}
        self.mine = self.rows[obs.me]
        self.unknown_mine = sum(1 for v in self.mine if v is None)
        self.others = {p: r for p, r in self.rows.items() if p != obs.me}
        size = max(1, int(len(self.pool.values) * style.keep_share))
        self.low: tuple[int, ...] = self.pool.values[:size]   # the lowest ``keep_share``
        self.high: tuple[int, ...] = self.pool.values[-size:]  # and the highest as many
        self.low_mean = sum(self.low) / size
        self.high_mean = sum(self.high) / size
        self.leans = leans(obs, self.rows, style)   # what each unknown card leans to (``leans``)

    def held_bonus(self, bot: ExpertBot) -> float:
        """What its own row as it stands is worth beyond its total (counted once)."""
        if self._held is None:
            self._held = bot.bonus(self, self.mine)
        return self._held

    def value(self, player: str, pos: int) -> float:
        v = self.rows[player][pos]
        if v is not None:
            return float(v)
        return lean_value(self.leans[player][pos], self.mean, self.low_mean, self.high_mean)

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


class ExpertBot:
    """Counts cards, values moves by expectation; see the module docstring."""

    name = "expert"

    def __init__(self, rules: Ruleset, style: Style | None = None) -> None:
        self.rules = rules
        self.style = style or style_for(rules)
        self.counting = Counting(rules)
        self.of = self.counting.values
        self.powers = rules.power_table()
        self.aims = Aims(rules, hurt_weight=self.style.hurt_weight,
                         reset_hold=self.style.reset_hold)
        self.last_score: int | None = None
        self.reset_used = False   # seen its own score drop: a once-only reset is spent

    def _table(self, obs: Observation) -> Table:
        """The decision's table, with the gap to a reset this player can still have (its
        score seen to drop between decisions is a reset spent: the match's public scores)."""
        score = obs.scores.get(obs.me, 0)
        if self.last_score is not None and score < self.last_score:
            self.reset_used = True
        self.last_score = score
        gap = self.aims.gap(score, not (self.aims.once and self.reset_used))
        return Table(obs, self.counting, self.style, gap)

    def bonus(self, table: Table, row: Sequence[int | None]) -> float:
        """What ``row`` is worth beyond its total (special hand, reset): ``aims.Aims.bonus``."""
        return self.aims.bonus(table, row, table.gap)

    # --- the protocol --------------------------------------------------------------------
    def choose(self, observation: Observation, legal_moves: Sequence[Event],
               rng: random.Random) -> Event:
        table = self._table(observation)
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
        """Snap a card it knows matches the top of the pile, when losing it lowers the hand
        and breaks no special hand or row on the reset gap."""
        if not options or not observation.discard:
            return None
        top = self.of[observation.discard[-1]]
        own = observation.rows.get(observation.me, ())
        if top <= 0 or not any(c is not None and self.of[c] == top for c in own):
            return None   # nothing known to match: no table to build
        table = self._table(observation)
        row = table.mine
        for move in options:
            if isinstance(move, Snap) and move.position < len(row) and row[move.position] == top:
                rest = [v for i, v in enumerate(row) if i != move.position]
                if top + self.bonus(table, rest) - self.bonus(table, row) > 0:
                    return move
        return None

    # --- start of a turn -----------------------------------------------------------------
    def _start(self, table: Table, moves: Sequence[Event], rng: random.Random) -> Event:
        cabo = [m for m in moves if isinstance(m, Cabo)]
        draws = {m.source: m for m in moves if isinstance(m, Draw)}
        if not draws:
            return cabo[0] if cabo else moves[0]
        deck = draws.get(DrawSource.DECK)
        take = draws.get(DrawSource.DISCARD)
        if cabo and (self.aims.is_special(table.mine) or self.aims.is_zero(table.mine)):
            return cabo[0]   # scored as a special hand: end the round before it can break
        verdict = call_verdict(self.rules, self.style, self.aims, table, rng) if cabo else "play"
        if verdict == "finish":
            return cabo[0]   # the call ends the match won: nothing to wait for
        if verdict == "call":
            if take is None or not table.obs.discard or not take_instead(
                    self.rules, self.style, self.aims, table,
                    self._take_drop(table, self.of[table.obs.discard[-1]]), rng):
                return cabo[0]
            return take
        if take is None or not table.obs.discard:
            return deck or moves[0]
        if deck is None:
            return take
        top = self.of[table.obs.discard[-1]]
        taken = self._best_place(table, top, from_deck=False)
        return take if taken > self._deck_worth(table) else deck

    def _take_drop(self, table: Table, top: int) -> float:
        """How far taking a card of value ``top`` lowers the hand total at best (a known card,
        or an own unknown one at the pool's mean): what a call after it would hold less."""
        row = table.mine
        return max((table.value(table.me, i) - top for i in range(len(row))), default=0.0)

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
            gains.append(self._discard_gain(table, value))
        return max(gains, default=0.0)

    def _discard_gain(self, table: Table, value: int) -> float:
        """Discarding a drawn card: its power, and the known equal cards of the row it lets
        this player snap after it (golf)."""
        return self._power_worth(table, value) + self.aims.snap_gain(table.mine, value)

    def _place_score(self, table: Table, move: Event, value: int,
                     from_deck: bool) -> float | None:
        if isinstance(move, Discard):
            return self._discard_gain(table, value) if from_deck else None
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
        blind = sum(1 for p in positions if row[p] is None)
        if blind:
            if not table.final:   # an unknown card leaves, a known one comes (on a last
                gain += self.style.unknown_risk   # turn nothing is left to know it for)
        last = row[positions[-1]]
        snaps = last is not None and last > 0 and self.aims.snap
        if blind == table.unknown_mine or snaps:   # a row left fully known, or a snap to make
            after = after_replace(row, positions, value)
            gain += self.bonus(table, after) - table.held_bonus(self)
            if snaps and last is not None:
                gain += self.aims.snap_gain(after, last)
        else:
            gain -= table.held_bonus(self)   # an unknown card stays: no row worth more
        if last is not None and self.rules.power_from_replaced:
            gain += self._power_worth(table, last)   # the card put on the pile (golf)
        return gain

    # --- powers --------------------------------------------------------------------------
    def _power_worth(self, table: Table, value: int) -> float:
        """What the power a discarded card of ``value`` earns is worth now. On its last turn
        (someone else called) looking at a card is worth nothing: the round ends before it
        could use what it saw."""
        power = self.powers.get(value)
        if table.final and power in (PowerKind.PEEK, PowerKind.SPY):
            return 0.0
        if power == PowerKind.PEEK:
            return self.style.peek_value if table.unknown(table.me) else 0.0
        if power == PowerKind.SPY:
            return self.style.spy_value if any(table.unknown(p) for p in table.others) else 0.0
        if power == PowerKind.SWAP and table.held_bonus(self) <= 0:
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
        if power == PowerKind.SWAP and table.held_bonus(self) <= 0:
            gain, swap = best_swap(self.style, table, moves)
            if swap is not None and gain >= self.style.swap_margin:
                return swap
        return skip


# --- swaps -----------------------------------------------------------------------------------


def best_swap(style: Style, table: Table, moves: Sequence[Event] | None = None
              ) -> tuple[float, Event | None]:
    """The swap of one own card with an opponent's that gains most, and its gain. Unknown
    cards count at their leaned values, so an unknown card of its own (the pool's mean) for
    one an opponent kept after seeing it (low) is a swap worth making."""
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
        hurt = 1.0 if b == leader else style.hurt_weight
        gain = (1.0 + hurt) * (mine - theirs)   # my hand drops, theirs grows as much
        if table.rows[b][j] is None:
            gain -= style.unknown_risk
        if gain > best[0]:
            best = (gain, move)
    return best


__all__ = ["STYLES", "ExpertBot", "Style", "Table", "best_swap", "style_for"]
