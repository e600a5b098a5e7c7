"""The write side of a match played live, at a hosted table (``pages.table``) or in the
terminal (``cabo-log play``): every line goes through ``GameLog`` (checked by the engine,
fsync'd, locked, chained); the dealer's chance moves (deals, reshuffles, the card a deck draw
names) and the recorder's claims (``round_end``, ``game_end``) are made here, once for both.

Where the cards come from is the caller's: the host shuffles with the operating system's
randomness (the log records no seed from which a player could work out the deck), ``play``
with a seeded generator whose seed its header keeps.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cabo_log.log.gamelog import GameLog
from cabo_log.play.match import shuffled_cards
from engine import CaboLogError, Event, GameState, Outcome
from engine.events import Deal, Draw, GameEnd, Reshuffle, RoundEnd, to_dict
from engine.moves import needs_reshuffle
from engine.scoring import expected_first, rotate_first
from engine.vocabulary import DrawSource

Listener = Callable[[Event, Outcome], None]


class Dealer:
    """Writes a match's lines; ``listener`` hears each accepted one (the table's narrators and
    views, the terminal's words follow the game from it). ``cards`` shuffles and draws the
    first player of round 1; ``stamp`` gives each line's ``t`` (None: no ``t``)."""

    def __init__(self, log: GameLog, cards: random.Random, listener: Listener,
                 stamp: Callable[[], int | None] = lambda: None) -> None:
        self.log = log
        self.cards = cards
        self.listener = listener
        self.stamp = stamp

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
        t = self.stamp()
        if t is not None:
            line["t"] = t
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
