"""Bots that play Cabo fairly: they decide from one player's observation, never from the state.

A bot is handed an ``engine.knowledge.Observation`` (what its player may legitimately know:
masked rows, the public discard pile, its own drawn card) and the list of legal moves (event
objects from ``engine.moves``, which name positions, never cards). It never sees a
``GameState``, so it cannot peek at hidden cards even by accident; ``tests/test_bots.py`` checks
this. The public ruleset (card values, which powers exist) is given when the bot is created.

Four bots are built in (``BOTS``): ``random``, ``greedy`` and ``cautious`` here, ``expert`` in
``cabo_log.play.expert`` (card counting and expected values).


- ``random``: a uniformly random legal move, choosing the *kind* of move first (draw from the
  deck / take the discard / call Cabo; discard / replace one / replace several; use the power /
  skip it), then a move of that kind. It calls Cabo with a small probability so rounds end.
  It never lists, in a multi-replacement, two cards it knows to differ (``known_to_fail``).
- ``greedy``: plays like a decent human (the tips of the golf rule text): keeps known low cards,
  replaces its worst known card, peeks at unknown own cards, spies, swaps its worst card for a
  low card it saw, multi-replaces only cards it knows to be equal, and calls Cabo when the total
  it knows is low. A few small "personality" probabilities (hunting a Kamikaze / shoot-the-moon
  row, a multi-replacement that bets unknown cards match a known one, a wrong snap, a slow
  round) make corpora contain rare cases; they are legal moves like any other.
- ``cautious``: ``greedy`` that calls Cabo only on a very low known total.

All are deterministic given the ``random.Random`` the simulator passes in.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from cabo_log.play.counting import known_to_fail
from cabo_log.play.expert import ExpertBot
from cabo_log.play.moveset import Placements
from engine.events import Cabo, Discard, Draw, Event, Power, Replace, Skip, Snap
from engine.knowledge import Observation
from engine.rulesets import RESET_NEVER, RESET_ONCE, Ruleset
from engine.vocabulary import DrawSource, PowerKind

Row = tuple[str | None, ...]


class Bot(Protocol):
    """What the simulator asks of a player. Every method sees an observation, never the state."""

    name: str

    def choose(self, observation: Observation, legal_moves: Sequence[Event],
               rng: random.Random) -> Event:
        """The move to make now: one of ``legal_moves`` (fields ``into``/``end`` may be set)."""
        ...

    def peek(self, observation: Observation, options: Sequence[Event],
             rng: random.Random) -> Event | None:
        """The initial peek (one of ``options``), or None to look at nothing."""
        ...

    def snap(self, observation: Observation, options: Sequence[Event],
             rng: random.Random) -> Event | None:
        """Golf: a snap (one of ``options``, all of them this player's) or None."""
        ...


BotFactory = Callable[[Ruleset], Bot]


class _Values:
    """Card values of a ruleset's deck, and the mean value of a card one has not seen."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.of = rules.values()
        codes = rules.deck_codes()
        self.mean = sum(self.of[c] for c in codes) / len(codes)

    def row(self, row: Row) -> tuple[list[tuple[int, int]], list[int]]:
        """(position, value) of the known cards, and the positions of unknown ones."""
        known: list[tuple[int, int]] = []
        unknown: list[int] = []
        for i, code in enumerate(row):
            if code is None:
                unknown.append(i)
            else:
                known.append((i, self.of[code]))
        return known, unknown

    def estimate(self, row: Row) -> float:
        known, unknown = self.row(row)
        return sum(v for _, v in known) + len(unknown) * self.mean


def _of_type(moves: Sequence[Event], kind: type) -> list[Event]:
    return [m for m in moves if type(m) is kind]


# --- random ----------------------------------------------------------------------------------


class RandomBot:
    """A uniformly random legal move, kind first; Cabo with a small probability per turn."""

    name = "random"

    def __init__(self, rules: Ruleset, *, cabo_rate: float = 0.04, snap_rate: float = 0.02,
                 peek_rate: float = 0.9) -> None:
        self.rules = rules
        self.values = _Values(rules)
        self.cabo_rate = cabo_rate
        self.snap_rate = snap_rate
        self.peek_rate = peek_rate

    def choose(self, observation: Observation, legal_moves: Sequence[Event],
               rng: random.Random) -> Event:
        row = observation.rows.get(observation.me, ())
        if isinstance(legal_moves, Placements) and len(row) == legal_moves.size:
            # lazy: the same groups, in the same order, without listing them
            return self._pick(observation, dict(legal_moves.kinds(row, self.values.of)), rng)
        kinds: dict[str, list[Event]] = {}
        for move in legal_moves:
            kind = move.TYPE
            if kind == "draw":
                kind = move.source  # type: ignore[attr-defined]
            elif kind == "replace" and len(move.positions) > 1:  # type: ignore[attr-defined]
                if known_to_fail(row, move.positions, self.values.of):  # type: ignore[attr-defined]
                    continue
                kind = "multi"
            group = kinds.get(kind)
            if group is None:
                kinds[kind] = [move]
            else:
                group.append(move)
        return self._pick(observation, dict(kinds), rng)

    def _pick(self, observation: Observation, kinds: dict[str, Sequence[Event]],
              rng: random.Random) -> Event:
        """A kind of move, then a move of that kind (Cabo by its own rate)."""
        cabo = kinds.pop("cabo", None)
        # Failed multi-replacements grow the row; a longer row calls Cabo sooner, which keeps
        # rounds (and the lists of legal moves) finite.
        rate = self.cabo_rate * max(1.0, len(observation.rows.get(observation.me, ())) / 4)
        if cabo is not None and (not kinds or rng.random() < rate):
            return cabo[0]
        move = rng.choice(kinds[rng.choice(sorted(kinds))])
        if isinstance(move, Replace):
            move = self._decorate(move, rng)
        return move

    def _decorate(self, move: Replace, rng: random.Random) -> Replace:
        """Online lets the log choose the receiving slot and the end of a failed replacement."""
        into = move.into
        end = move.end
        if len(move.positions) > 1 and rng.random() < 0.5:
            into = rng.choice(move.positions)
        if self.rules.choose_failed_end and len(move.positions) > 1:
            end = rng.choice(("left", "right"))
        if into is move.into and end is move.end:
            return move
        return Replace(move.seq, move.auto, move.player, move.positions, into, end)

    def peek(self, observation: Observation, options: Sequence[Event],
             rng: random.Random) -> Event | None:
        if not options or rng.random() >= self.peek_rate:
            return None
        return rng.choice(list(options))

    def snap(self, observation: Observation, options: Sequence[Event],
             rng: random.Random) -> Event | None:
        if not options or not observation.discard:
            return None
        top = self.values.of[observation.discard[-1]]
        row = observation.rows.get(observation.me, ())
        known = {i: self.values.of[code] for i, code in enumerate(row) if code is not None}
        matching = [m for m in options if isinstance(m, Snap) and known.get(m.position) == top]
        if matching and rng.random() < 0.3:
            return rng.choice(matching)
        if rng.random() < self.snap_rate:
            return rng.choice(list(options))
        return None




# --- greedy ----------------------------------------------------------------------------------


class GreedyBot:
    """A decent human player; see the module docstring. Personality rates may be set to 0."""

    name = "greedy"

    def __init__(self, rules: Ruleset, *, moon_rate: float = 0.05, fail_rate: float = 0.01,
                 wrong_snap_rate: float = 0.002, slow_rate: float = 0.03,
                 call_at: float = 6.0) -> None:
        self.rules = rules
        self.values = _Values(rules)
        self.moon_rate = moon_rate if rules.special_row is not None else 0.0
        self.fail_rate = fail_rate if rules.max_replace != 1 else 0.0
        self.wrong_snap_rate = wrong_snap_rate
        self.slow_rate = slow_rate
        self.call_at = call_at
        self.special = sorted(rules.special_row) if rules.special_row is not None else None
        self._mood: dict[int, str] = {}   # round -> "normal" | "moon" | "slow"
        self._aim: dict[int, bool] = {}   # round -> aims at the exact target (a 100 -> 50 reset)
        self._last_score: int | None = None
        self._reset_seen = False

    # --- personality ---------------------------------------------------------------------
    def _mood_of(self, obs: Observation, rng: random.Random) -> str:
        mood = self._mood.get(obs.round)
        if mood is None:
            roll = rng.random()
            if roll < self.moon_rate:
                mood = "moon"
            elif roll < self.moon_rate + self.slow_rate:
                mood = "slow"
            else:
                mood = "normal"
            self._mood = {obs.round: mood}
            # Landing exactly on the target resets it to half: worth aiming at, except where
            # the reset works once and this player has had it (then only now and then).
            score = obs.scores[obs.me]
            if self._last_score is not None and score < self._last_score:
                self._reset_seen = True
            self._last_score = score
            aim = self.rules.exact_reset != RESET_NEVER
            if aim and self.rules.exact_reset == RESET_ONCE and self._reset_seen:
                aim = rng.random() < 0.3
            self._aim = {obs.round: aim}
        if mood == "moon" and len(obs.rows[obs.me]) != 4:
            mood = self._mood[obs.round] = "normal"   # a grown or shrunk row cannot make it
        return mood

    def _gap(self, obs: Observation) -> int | None:
        """Points that would land exactly on the target, when this round aims at it."""
        if not self._aim.get(obs.round):
            return None
        gap = self.rules.target - obs.scores[obs.me]
        return gap if gap > 0 else None

    def _frozen(self, obs: Observation) -> bool:
        """The row is fully known and totals exactly the gap to the target: keep it as it is."""
        gap = self._gap(obs)
        if gap is None:
            return False
        known, unknown = self.values.row(obs.rows[obs.me])
        return not unknown and sum(v for _, v in known) == gap

    # --- the protocol --------------------------------------------------------------------
    def choose(self, observation: Observation, legal_moves: Sequence[Event],
               rng: random.Random) -> Event:
        obs = observation
        mood = self._mood_of(obs, rng)
        if mood == "normal" and self._frozen(obs):
            mood = "frozen"
        first = legal_moves[0]
        if isinstance(first, (Draw, Cabo)):
            return self._start(obs, legal_moves, mood, rng)
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
        if self._mood.get(obs.round) == "moon" or self._frozen(obs):
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
    def _start(self, obs: Observation, moves: Sequence[Event], mood: str,
               rng: random.Random) -> Event:
        cabo = _of_type(moves, Cabo)
        draws = {m.source: m for m in moves if isinstance(m, Draw)}
        if not draws:
            return cabo[0]
        if cabo and self._should_call(obs, mood):
            return cabo[0]
        if DrawSource.DISCARD in draws and obs.discard and mood != "frozen":
            top = obs.discard[-1]
            if self._wants(obs, top, mood):
                return draws[DrawSource.DISCARD]
        return draws.get(DrawSource.DECK) or draws[DrawSource.DISCARD]

    def _should_call(self, obs: Observation, mood: str) -> bool:
        row = obs.rows[obs.me]
        known, unknown = self.values.row(row)
        total = sum(v for _, v in known)
        players = max(len(obs.rows), 2)
        stuck = obs.deck_size == 0 and not self.rules.reshuffle
        if mood == "moon":
            return not unknown and self._is_special(row)
        if self.rules.special_caller_zero and not unknown and total == 0:
            return True
        if not unknown and self._is_special(row):
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
            return self._moon_slot(row, value) is not None
        if self._exact_slot(obs, row, value) is not None:
            return True
        gain, _ = self._best_placement(row, value)
        return gain >= 4 or (value <= 1 and gain > 0)

    # --- placing a drawn card ------------------------------------------------------------
    def _place(self, obs: Observation, moves: Sequence[Event], mood: str,
               rng: random.Random) -> Event:
        row = obs.rows[obs.me]
        assert obs.drawn is not None
        value = self.values.of[obs.drawn]
        can_discard = any(isinstance(m, Discard) for m in moves)
        if mood == "moon":
            slot = self._moon_slot(row, value)
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
        exact = self._exact_slot(obs, row, value)
        if exact is not None:
            return Replace(None, False, obs.me, (exact,), None, None)
        if self.fail_rate and rng.random() < self.fail_rate:
            picked = self._gamble(row, rng)
            if picked is not None:
                end = rng.choice(("left", "right")) if self.rules.choose_failed_end else None
                return Replace(None, False, obs.me, picked, None, end)
        gain, positions = self._best_placement(row, value)
        power = self.rules.power_of(value) is not None and obs.drawn_source == DrawSource.DECK
        if not can_discard or gain > (2.0 if power else 0.5):
            return Replace(None, False, obs.me, positions, None, None)
        return Discard(None, False, obs.me)

    def _gamble(self, row: Row, rng: random.Random) -> tuple[int, ...] | None:
        """A multi-replacement that bets unknown cards equal a known one (the personality that
        puts failed multi-replacements in corpora). It always lists an unknown card: a player
        who knows every listed card knows whether they match, so never fails knowingly."""
        known, unknown = self.values.row(row)
        if not known or not unknown:
            return None
        count = rng.choice((2, 3))
        if self.rules.max_replace:
            count = min(count, self.rules.max_replace)
        worst = max(known, key=lambda iv: iv[1])[0]
        blind = rng.sample(unknown, min(count - 1, len(unknown)))
        return tuple(sorted((worst, *blind))) if blind else None

    def _exact_slot(self, obs: Observation, row: Row, value: int) -> int | None:
        """A position whose replacement by ``value`` makes the known row total the gap."""
        gap = self._gap(obs)
        if gap is None:
            return None
        known, unknown = self.values.row(row)
        total = sum(v for _, v in known)
        if len(unknown) == 1 and total + value == gap:
            return unknown[0]
        if not unknown:
            for i, v in known:
                if v != value and total - v + value == gap:
                    return i
        return None

    def _best_placement(self, row: Row, value: int) -> tuple[float, tuple[int, ...]]:
        """The best gain (drop of the expected row total) of placing a card of ``value``."""
        known, unknown = self.values.row(row)
        best: tuple[float, tuple[int, ...]] = (-99.0, (0,))
        limit = self.rules.max_replace
        if limit != 1:
            groups: dict[int, list[int]] = {}
            for i, v in known:
                groups.setdefault(v, []).append(i)
            for v, group in groups.items():
                if len(group) >= 2:
                    chosen = group[:limit] if limit else group
                    multi = float(v * len(chosen) - value)
                    if multi > best[0]:
                        best = (multi, tuple(chosen))
        for i, v in known:
            if v - value > best[0]:
                best = (float(v - value), (i,))
        if unknown:
            blind = self.values.mean - value - 0.5
            if blind > best[0]:
                best = (blind, (unknown[0],))
        return best

    # --- powers --------------------------------------------------------------------------
    def _power(self, obs: Observation, moves: Sequence[Event], mood: str) -> Event:
        skip = _of_type(moves, Skip)[0]
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
            swap = self._swap(row, others, mood)
            if swap is not None:
                mine, theirs = swap
                return Power(None, False, me, PowerKind.SWAP, None, ((me, mine), theirs))
            if self.rules.swap_any_two_players and mood == "normal":
                spoil = self._spoil(obs, others)
                if spoil is not None:
                    return Power(None, False, me, PowerKind.SWAP, None, spoil)
        return skip

    def _swap(self, row: Row, others: dict[str, Row],
              mood: str) -> tuple[int, tuple[str, int]] | None:
        known, unknown = self.values.row(row)
        of = self.values.of
        if mood == "moon":
            for p, r in others.items():
                for j, code in enumerate(r):
                    if code is not None:
                        slot = self._moon_slot(row, of[code])
                        if slot is not None:
                            return slot, (p, j)
            return None
        seen = [(of[c], p, j) for p, r in others.items() for j, c in enumerate(r)
                if c is not None]
        worst = max(known, key=lambda iv: iv[1]) if known else None
        low = min(seen) if seen else None
        if worst is not None and low is not None and worst[1] - low[0] >= 3:
            return worst[0], (low[1], low[2])
        if unknown and low is not None and self.values.mean - low[0] >= 4:
            return unknown[0], (low[1], low[2])
        if worst is not None and worst[1] >= self.values.mean + 3:
            blind = [(p, j) for p, r in others.items() for j, c in enumerate(r) if c is None]
            if blind:
                return worst[0], blind[0]
        return None

    def _spoil(self, obs: Observation, others: dict[str, Row]
               ) -> tuple[tuple[str, int], tuple[str, int]] | None:
        """Where the swap may exchange two other players' cards (edition1): give the leader's
        known low card to someone else and a known high card to the leader."""
        of = self.values.of
        leader = min(others, key=lambda p: (obs.scores[p], p))
        low = [(of[c], j) for j, c in enumerate(others[leader]) if c is not None]
        high = [(of[c], p, j) for p, r in others.items() if p != leader
                for j, c in enumerate(r) if c is not None]
        if not low or not high:
            return None
        value, j = min(low)
        worst, p, k = max(high)
        if worst - value >= 6:
            return (leader, j), (p, k)
        return None

    # --- Kamikaze / shoot the moon -------------------------------------------------------
    def _is_special(self, row: Row) -> bool:
        if self.special is None or len(row) != len(self.special) or None in row:
            return False
        return sorted(self.values.of[c] for c in row if c is not None) == self.special

    def _moon_slot(self, row: Row, value: int) -> int | None:
        """Where a card of ``value`` helps build the special row, or None."""
        if self.special is None or len(row) != len(self.special):
            return None
        need = Counter(self.special)
        keep: set[int] = set()
        for i, code in enumerate(row):
            if code is not None and need[self.values.of[code]] > 0:
                need[self.values.of[code]] -= 1
                keep.add(i)
        if need[value] <= 0:
            return None
        known_bad = [i for i, c in enumerate(row) if c is not None and i not in keep]
        if known_bad:
            return known_bad[0]
        unknown = [i for i, c in enumerate(row) if c is None]
        return unknown[0] if unknown else None


class CautiousBot(GreedyBot):
    """``greedy`` that calls Cabo only on a very low known total: long rounds, empty decks."""

    name = "cautious"

    def __init__(self, rules: Ruleset) -> None:
        super().__init__(rules, call_at=2.0)


BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot,
                               "cautious": CautiousBot, "expert": ExpertBot}


def make_bot(name: str, rules: Ruleset) -> Bot:
    """A new bot of the registered kind ``name`` for a match under ``rules``."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})") from None
    return factory(rules)


__all__ = ["BOTS", "Bot", "BotFactory", "CautiousBot", "ExpertBot", "GreedyBot", "RandomBot",
           "known_to_fail", "make_bot"]
