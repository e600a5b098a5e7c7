"""Writing logs by hand, with a stacked deck: for tests, sample games, converters and bug reports.

Each event is checked by the engine as it is added (strict mode), so a scenario that breaks the
rules fails at the call that broke them, not later in a replay. ``strict=False`` records events
unchecked, which is how the invalid sample logs are made.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Self

from cabo_log.log.append import EventWriter, MemorySink
from cabo_log.log.gamelog import write_log
from cabo_log.log.logfile import dumps_event
from engine import CaboLogError, GameState, Outcome, Ruleset, resolve


class _Moves:
    """The moves of a turn, one method each, as a player would say them: each adds its event
    through ``event`` (``LogBuilder`` checks it when strict)."""

    def event(self, obj: dict[str, Any]) -> Self:
        raise NotImplementedError

    def peek(self, player: str, positions: Sequence[int]) -> Self:
        return self.event({"type": "peek", "player": player, "positions": list(positions)})

    def draw(self, player: str, source: str = "deck", card: str | None = None) -> Self:
        obj: dict[str, Any] = {"type": "draw", "player": player, "source": source}
        if card is not None:
            obj["card"] = card
        return self.event(obj)

    def discard(self, player: str) -> Self:
        return self.event({"type": "discard", "player": player})

    def replace(self, player: str, positions: Sequence[int], *, into: int | None = None,
                end: str | None = None) -> Self:
        obj: dict[str, Any] = {"type": "replace", "player": player,
                               "positions": list(positions)}
        if into is not None:
            obj["into"] = into
        if end is not None:
            obj["end"] = end
        return self.event(obj)

    def peek_power(self, player: str, position: int) -> Self:
        return self.event({"type": "power", "player": player, "power": "peek",
                           "target": [player, position]})

    def spy(self, player: str, target: str, position: int) -> Self:
        return self.event({"type": "power", "player": player, "power": "spy",
                           "target": [target, position]})

    def swap(self, player: str, a: tuple[str, int], b: tuple[str, int]) -> Self:
        return self.event({"type": "power", "player": player, "power": "swap",
                           "cards": [list(a), list(b)]})

    def skip(self, player: str) -> Self:
        return self.event({"type": "skip", "player": player})

    def cabo(self, player: str) -> Self:
        return self.event({"type": "cabo", "player": player})

    def snap(self, player: str, position: int) -> Self:
        return self.event({"type": "snap", "player": player, "position": position})


class LogBuilder(_Moves):
    """Accumulates the lines of one game; ``state`` follows along when strict."""

    def __init__(self, ruleset: str | dict[str, Any], players: Sequence[str], *,
                 options: dict[str, Any] | None = None, game_id: str = "game-1",
                 seq: bool = True, strict: bool = True, **header: Any) -> None:
        try:
            self.rules: Ruleset | None = resolve(ruleset, options or {})
        except CaboLogError:
            if strict:
                raise
            self.rules = None  # an unchecked log may name a ruleset that does not exist
        self.seq = seq
        self.strict = strict
        self.lines: list[dict[str, Any]] = []
        first = {"type": "game", "format": "cabo-log/1", "game_id": game_id,
                 "ruleset": ruleset, "options": dict(options or {}), "players": list(players),
                 **header}
        self.state: GameState | None = None
        self._writer = EventWriter(MemorySink()) if strict else None  # the one write path
        self._unchecked = not strict
        self.outcome: Outcome | None = None   # what the last event did (strict mode)
        self._add(first)

    # --- plumbing -------------------------------------------------------------------------
    def _add(self, obj: dict[str, Any]) -> dict[str, Any]:
        line = dict(obj)
        if self.seq:
            line = {"type": line.pop("type"), "seq": len(self.lines), **line}
        if self.strict and self._writer is not None:
            self._writer.append(line)
            self.state = self._writer.state
            self.outcome = self._writer.outcome
        else:
            self._unchecked = True
        self.lines.append(line)
        return line

    def raw(self, obj: dict[str, Any], *, seq: bool | None = None) -> LogBuilder:
        """Append a line exactly as given (no seq added unless asked, never checked)."""
        line = dict(obj)
        if seq if seq is not None else False:
            line = {"type": line.pop("type"), "seq": len(self.lines), **line}
        self.lines.append(line)
        self._unchecked = True
        return self

    def event(self, obj: dict[str, Any]) -> LogBuilder:
        self._add(obj)
        return self

    # --- events ---------------------------------------------------------------------------
    def deal(self, hands: dict[str, Sequence[str]], discard: str,
             deck_top: Sequence[str] = (), *, first: str | None = None,
             round: int | None = None, rest: str | int = "ordered",
             deck: Sequence[str] | None = None) -> LogBuilder:
        """Deal the given hands; the draw pile starts with ``deck_top`` and continues with the
        rest of the ruleset's deck (in deck order, or shuffled with ``rest=seed``)."""
        if deck is None:
            deck = list(deck_top) + self.remaining(hands, discard, deck_top, rest)
        number = round if round is not None else self._next_round()
        if first is None:
            first = self._default_first(hands)
        self._add({"type": "deal", "round": number, "first": first,
                   "hands": {p: list(h) for p, h in hands.items()}, "discard": discard,
                   "deck": list(deck)})
        return self

    def remaining(self, hands: dict[str, Sequence[str]], discard: str,
                  deck_top: Sequence[str], rest: str | int = "ordered") -> list[str]:
        used = Counter([c for h in hands.values() for c in h] + [discard] + list(deck_top))
        left: list[str] = []
        if self.rules is None:
            raise ValueError("this log's ruleset is unknown: give the deck in full")
        for code in self.rules.deck_codes():
            if used[code]:
                used[code] -= 1
            else:
                left.append(code)
        if any(used.values()):
            extra = ", ".join(sorted(c for c, n in used.items() if n > 0))
            raise ValueError(f"more cards dealt than the deck has: {extra}")
        if rest != "ordered":
            random.Random(rest).shuffle(left)
        return left

    def _next_round(self) -> int:
        return len(self.state.rounds) + 1 if self.state is not None else 1

    def _default_first(self, hands: dict[str, Sequence[str]]) -> str:
        from engine.scoring import expected_first

        if self.state is not None:
            seats = tuple(self.state.seat[p] for p in self.state.players if p in hands)
            must = expected_first(self.state, seats)
            if must is not None:
                return self.state.players[must]
        return next(iter(hands))

    def reshuffle(self, deck: Sequence[str] | None = None) -> LogBuilder:
        """Reshuffle; without ``deck`` the discard pile under its top, oldest card on top."""
        if deck is None:
            if self.state is None:
                raise ValueError("reshuffle without a deck needs strict mode")
            deck = self.state.pile()[:-1]
        return self.event({"type": "reshuffle", "deck": list(deck)})

    def forfeit(self, player: str, reason: str | None = None) -> LogBuilder:
        obj: dict[str, Any] = {"type": "forfeit", "player": player}
        if reason is not None:
            obj["reason"] = reason
        return self.event(obj)

    def round_end(self, points: dict[str, int] | None = None,
                  round: int | None = None) -> LogBuilder:
        """Claim a round's points (the engine's own result when not given)."""
        if points is None or round is None:
            assert self.state is not None and self.state.rounds, "no round has ended"
            result = self.state.rounds[-1] if round is None else self.state.rounds[round - 1]
            round = result.round
            points = dict(result.points) if points is None else points
        return self.event({"type": "round_end", "round": round, "points": points})

    def game_end(self, winners: Sequence[str] | None = None,
                 scores: dict[str, int] | None = None) -> LogBuilder:
        if winners is None or scores is None:
            assert self.state is not None
            winners = list(self.state.winners) if winners is None else winners
            scores = self.state.cumulative_by_name() if scores is None else scores
        return self.event({"type": "game_end", "winners": list(winners), "scores": scores})

    # --- output ---------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        return b"".join(dumps_event(line) for line in self.lines)

    def write(self, path: str | Path) -> Path:
        """Write the log; a checked one goes through the append API (``log.append``), one with
        unchecked lines (a deliberately bad log) as it is. An existing file is replaced."""
        target = Path(path)
        if self._unchecked:
            target.write_bytes(self.to_bytes())
        else:
            write_log(target, self.lines, replace=True, fsync=False)
        return target
