"""Shared helpers for the rule tests: build a game with a stacked deck and play it out.

Every expected number in the tests is computed by hand from RULES.md (the arithmetic is in a
comment next to it); these helpers only move the game along, they never score anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cabo_log.log.builder import LogBuilder
from cabo_log.log.replay import ReplayResult, replay_bytes
from engine import CaboLogError, GameState
from engine.vocabulary import DRAWN, POWER, TURN_START


def game(ruleset: str | dict[str, Any], players: Sequence[str] = ("ana", "bruno"),
         **options: Any) -> LogBuilder:
    """A strict builder for ``ruleset`` with the given header options."""
    return LogBuilder(ruleset, list(players), options=options)


def st(b: LogBuilder) -> GameState:
    """The live state of a strict builder."""
    assert b.state is not None
    return b.state


def to_play(b: LogBuilder) -> str:
    g = st(b)
    return g.players[g.round.current]


def in_round(b: LogBuilder) -> bool:
    return st(b).phase in (TURN_START, DRAWN, POWER)


def quiet_turn(b: LogBuilder, player: str | None = None) -> LogBuilder:
    """The player to act draws from the deck and discards it, skipping any power earned."""
    who = player or to_play(b)
    b.draw(who, "deck").discard(who)
    if st(b).round.pending_power is not None:
        b.skip(who)
    return b


def play_out(b: LogBuilder) -> LogBuilder:
    """Play quiet turns until the round is over (after a Cabo: the remaining final turns)."""
    rounds = len(st(b).rounds)
    while len(st(b).rounds) == rounds:
        quiet_turn(b)
    return b


def cabo_round(b: LogBuilder, caller: str) -> LogBuilder:
    """``caller`` calls Cabo at once (they must be first to play), the others pass quietly."""
    assert to_play(b) == caller, f"{to_play(b)} is to play, not {caller}"
    b.cabo(caller)
    return play_out(b)


def last(b: LogBuilder) -> Any:
    """The result of the round that ended last."""
    return st(b).rounds[-1]


def row(b: LogBuilder, player: str) -> list[str]:
    g = st(b)
    return g.row_codes(g.seat[player])


def face_up(b: LogBuilder, player: str) -> list[bool]:
    g = st(b)
    return [g.round.face_up[c] for c in g.round.rows[g.seat[player]]]


def knows(b: LogBuilder, who: str, owner: str, position: int) -> bool:
    """Whether ``who`` knows the card at ``owner``'s ``position`` (face up or seen)."""
    g = st(b)
    card = g.round.rows[g.seat[owner]][position]
    return g.round.face_up[card] or bool(g.round.known[card] >> g.seat[who] & 1)


def pile(b: LogBuilder) -> list[str]:
    """The discard pile, bottom first (top last)."""
    g = st(b)
    return [g.round.codes[c] for c in g.round.pile]


def deck(b: LogBuilder) -> list[str]:
    """The draw pile, top first."""
    g = st(b)
    return [g.round.codes[c] for c in reversed(g.round.deck)]


def replay(b: LogBuilder) -> ReplayResult:
    return replay_bytes(b.to_bytes())


def report(b: LogBuilder) -> dict[str, Any]:
    result = replay(b)
    assert result.error is None, result.error
    return result.report()


class Rejected:
    """Context manager: the block must raise a CaboLogError with the given code."""

    def __init__(self, code: str, kind: type[CaboLogError] = CaboLogError) -> None:
        self.code = code
        self.kind = kind
        self.error: CaboLogError | None = None

    def __enter__(self) -> Rejected:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        if exc is None:
            raise AssertionError(f"expected error {self.code!r}, nothing was raised")
        if not isinstance(exc, self.kind):
            return False
        assert exc.code == self.code, f"expected {self.code!r}, got {exc.code!r}: {exc}"
        self.error = exc
        return True


def rejected(code: str, kind: type[CaboLogError] = CaboLogError) -> Rejected:
    return Rejected(code, kind)


def deal_with_bottom(b: LogBuilder, hands: dict[str, list[str]], discard: str,
                     bottom: Sequence[str] = (), *, first: str | None = None) -> LogBuilder:
    """Deal with the rest of the deck in deck order and ``bottom`` as the last cards drawn."""
    rest = b.remaining(hands, discard, bottom)
    return b.deal(hands, discard, deck=rest + list(bottom), first=first)


def drain(b: LogBuilder, keep: int = 0) -> LogBuilder:
    """Quiet turns until the draw pile holds ``keep`` cards."""
    while len(st(b).round.deck) > keep:
        quiet_turn(b)
    return b


def play_round(b: LogBuilder, hands: dict[str, list[str]], caller: str, discard: str,
               deck_top: Sequence[str] = (), *, first: str | None = None) -> LogBuilder:
    """Deal, play quiet turns until ``caller`` is to play, Cabo, then the final turns."""
    b.deal(hands, discard, deck_top, first=first)
    while to_play(b) != caller:
        quiet_turn(b)
    return cabo_round(b, caller)
