"""The table's write side: every line of a hosted game goes through ``GameLog`` (checked by
the engine, fsync'd, locked, chained), stamped with ``t``; the dealer's chance moves (deals,
reshuffles, the card a deck draw names) and the recorder's claims (``round_end``,
``game_end``) are made here, as ``cabo-log play`` makes them.

Cards are shuffled with the operating system's randomness (``random.SystemRandom``): the log
records no seed from which a player could work out the deck.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from cabo_log.log.gamelog import GameLog
from cabo_log.play.match import shuffled_cards
from engine import CaboLogError, Event, GameState, Outcome
from engine.events import Deal, Draw, GameEnd, Reshuffle, RoundEnd, to_dict
from engine.moves import needs_reshuffle
from engine.scoring import expected_first, rotate_first
from engine.vocabulary import DrawSource

Listener = Callable[[Event, Outcome], None]


def started_at(now: float) -> str:
    """The header's ``started_at``: the second the table opened, in UTC."""
    return datetime.fromtimestamp(int(now), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def start_seconds(header: dict[str, Any], fallback: float) -> float:
    """When a game started (its header's ``started_at``), as a Unix time."""
    text = header.get("started_at")
    if isinstance(text, str):
        try:
            return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()
        except ValueError:
            pass
    return fallback


class Dealer:
    """Writes a hosted game's lines; ``listener`` hears each accepted one (the table's
    narrators and views follow the game from it)."""

    def __init__(self, log: GameLog, started: float, now: Callable[[], float],
                 listener: Listener) -> None:
        self.log = log
        self.started = started
        self.now = now
        self.listener = listener
        self.cards = random.SystemRandom()

    @property
    def state(self) -> GameState:
        assert self.log.state is not None
        return self.log.state

    def write(self, event: Event, *, auto: bool = False,
              extra: dict[str, Any] | None = None) -> Outcome:
        """Append one move (a deck draw names its card, a due reshuffle comes first), then the
        claims a round's or the match's end calls for. Raises the engine's error, with
        nothing written, when the move is refused."""
        g = self.state
        if isinstance(event, Draw) and event.source == DrawSource.DECK:
            if needs_reshuffle(g):
                self.reshuffle()
            top = g.deck_top()
            event = Draw(None, event.auto, event.player, DrawSource.DECK, top)
        try:
            done = self._line(event, auto, extra)
        except CaboLogError as exc:
            if exc.code != "reshuffle_missing":
                raise
            self.reshuffle()   # a penalty card is owed from an empty draw pile
            done = self._line(event, auto, extra)
        self._claims(event, done)
        return done

    def _line(self, event: Event, auto: bool, extra: dict[str, Any] | None) -> Outcome:
        line = to_dict(event)
        line.pop("seq", None)
        if auto:
            line["auto"] = True
        if extra:
            line.update(extra)
        line["t"] = max(0, int((self.now() - self.started) * 1000))
        self.log.append(line)
        done = self.log.outcome
        assert done is not None
        self.listener(event, done)
        return done

    def _claims(self, event: Event, done: Outcome) -> None:
        g = self.state
        if done.round_ended is not None:
            result = done.round_ended
            self._line(RoundEnd(None, False, result.round, dict(result.points)), False, None)
        if g.complete and not isinstance(event, GameEnd):
            self._line(GameEnd(None, False, g.winners, g.cumulative_by_name()), False, None)

    def reshuffle(self) -> None:
        codes = self.state.pile()[:-1]   # the top card stays: the rest is shuffled
        self.cards.shuffle(codes)
        self._line(Reshuffle(None, False, tuple(codes)), False, None)

    def deal(self) -> None:
        """The next round: a fresh deck, the first player drawn by lot in round 1, then by the
        ruleset's rotation."""
        g = self.state
        seats, hands, top, rest = shuffled_cards(g, self.cards.shuffle)
        if not g.rounds:
            first = seats[self.cards.randrange(len(seats))]
        else:
            must = expected_first(g, seats)
            first = must if must is not None else rotate_first(g, seats)
        self._line(Deal(None, False, len(g.rounds) + 1, g.players[first], hands, top, rest),
                   False, None)
