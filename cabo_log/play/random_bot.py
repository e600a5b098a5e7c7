"""``random``: a uniformly random legal move, the kind of move first.

It chooses the *kind* of move (draw from the deck / take the discard / call Cabo; discard /
replace one / replace several; use the power / skip it), then a move of that kind, so that a
row of twenty cards with its thousands of multi-replacements does not drown out the discard.
It calls Cabo with a small probability so rounds end, and never lists, in a
multi-replacement, two cards it knows to differ (``counting.known_to_fail``).

It is the simulator's cheapest bot, and the benchmark's: the move lists it gets are grouped
by kind already (``engine.moveset.Placements``, ``engine.listed.Listed``), so a decision
costs a few random numbers. The groups and their order are those of the engine's list, so its
choices (and the logs) are the same as when it groups the engine's list itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cabo_log.play.chance import choice
from cabo_log.play.counting import known_to_fail, values_for
from engine.events import Event, Replace, Snap
from engine.knowledge import Observation
from engine.listed import Listed, kind_of
from engine.moveset import Placements
from engine.rulesets import Ruleset


class RandomBot:
    """A uniformly random legal move, kind first; Cabo with a small probability per turn."""

    name = "random"
    own_row_only = True   # reads no row but its own: partial observations (bots.py)

    def __init__(self, rules: Ruleset, *, cabo_rate: float = 0.04, snap_rate: float = 0.02,
                 peek_rate: float = 0.9) -> None:
        self.rules = rules
        self.values = values_for(rules)
        self.cabo_rate = cabo_rate
        self.snap_rate = snap_rate
        self.peek_rate = peek_rate

    def choose(self, observation: Observation, legal_moves: Sequence[Event],
               rng: random.Random) -> Event:
        row = observation.rows.get(observation.me, ())
        kinds: dict[str, Sequence[Event]]
        if isinstance(legal_moves, Listed):   # grouped once, when it was first listed
            groups = legal_moves.groups
            kinds = groups if groups is not None else legal_moves.kinds()
        elif isinstance(legal_moves, Placements) and len(row) == legal_moves.size:
            # lazy: the same groups, in the same order, without listing them
            kinds = legal_moves.kinds(row, self.values.of)
        else:
            grouped: dict[str, list[Event]] = {}
            for move in legal_moves:
                kind = kind_of(move)
                if kind == "multi" and known_to_fail(
                        row, move.positions, self.values.of):  # type: ignore[attr-defined]
                    continue
                grouped.setdefault(kind, []).append(move)
            kinds = dict(grouped)
        return self._pick(len(row), kinds, rng)

    def _pick(self, size: int, kinds: dict[str, Sequence[Event]], rng: random.Random) -> Event:
        """A kind of move, then a move of that kind (Cabo by its own rate). ``kinds`` is read,
        never changed (a remembered list's groups are shared)."""
        cabo = kinds.get("cabo")
        if cabo is not None:
            # Failed multi-replacements grow the row; a longer row calls Cabo sooner, which
            # keeps rounds (and the lists of legal moves) finite.
            if len(kinds) == 1 or rng.random() < self.cabo_rate * max(1.0, size / 4):
                return cabo[0]
        names = [k for k in kinds if k != "cabo"]
        for i in range(1, len(names)):   # in sorted order: most lists have them so already
            if names[i - 1] > names[i]:
                names.sort()
                break
        move = choice(rng, kinds[choice(rng, names)])
        if type(move) is Replace:
            move = self._decorate(move, rng)
        return move

    def _decorate(self, move: Replace, rng: random.Random) -> Replace:
        """Online lets the log choose the receiving slot and the end of a failed replacement."""
        if len(move.positions) < 2:
            return move
        into = move.into
        end = move.end
        if rng.random() < 0.5:
            into = choice(rng, move.positions)
        if self.rules.choose_failed_end:
            end = choice(rng, ("left", "right"))
        if into is move.into and end is move.end:
            return move
        return Replace(move.seq, move.auto, move.player, move.positions, into, end)

    def peek(self, observation: Observation, options: Sequence[Event],
             rng: random.Random) -> Event | None:
        if not options or rng.random() >= self.peek_rate:
            return None
        return choice(rng, list(options))

    def snap(self, observation: Observation, options: Sequence[Event],
             rng: random.Random) -> Event | None:
        if not options or not observation.discard:
            return None
        top = self.values.of[observation.discard[-1]]
        row = observation.rows.get(observation.me, ())
        known = {i: self.values.of[code] for i, code in enumerate(row) if code is not None}
        matching = [m for m in options if isinstance(m, Snap) and known.get(m.position) == top]
        if matching and rng.random() < 0.3:
            return choice(rng, matching)
        if rng.random() < self.snap_rate:
            return choice(rng, list(options))
        return None


__all__ = ["RandomBot"]
