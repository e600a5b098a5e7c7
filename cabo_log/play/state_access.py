"""The one place play/ reads the inside of the engine's ``GameState``.

Bots see observations, never the state; the simulator (the dealer and referee) reads a few
facts of the round being played: the top of the draw pile, the discard pile to reshuffle, a
row's size. They are all read here, through ``round_of``, so that a change in how the engine
keeps its state (the round's facts moving into a round object, say) is a change of this module
only. Everything else in play/ uses the engine's public API: ``apply`` and its ``Outcome``,
``engine.moves``, ``engine.knowledge``, the state's small question methods.

``Observer`` builds the observations the simulator hands its bots: the same ``Observation``
that ``engine.knowledge.observe`` gives (a test compares them at every decision of many
matches), kept up to date from each event's outcome instead of being rebuilt from every card
of the table at every decision: what each player knows of each card of the round is
remembered, and an event's outcome says who learned or forgot which card. The pieces that
change rarely (the discard pile, the scores, who is still in) are rebuilt only when they
changed, and shared between observations until then (an observation is read-only: bots read
it, never write to it). In the pure build an observation is computed as it is read, in three
groups (the rows, the discard pile, the rest; ``lazy_view``): the random bot reads only its
own row, so it pays for no more; one that a bot keeps is completed before the next event
changes the state (``Observer.seal``). In the compiled build (setup.py) each is
made whole by the native constructor, which costs less than the lazy machinery would.
"""

from __future__ import annotations

import weakref
from typing import Final

from cabo_log.play.lazy_view import fill, lazy_observation, lazy_possible
from engine import EVERYBODY, GameState, Outcome
from engine.knowledge import Observation
from engine.state import DRAWN, POWER, TURN_START, Phase, RoundState
from engine.vocabulary import DrawSource

_PLAYING: Final = frozenset((TURN_START, DRAWN, POWER))   # phases with a player to act
_REST = tuple(n for n in Observation.FIELDS if n not in ("me", "rows", "discard"))
_NO_ROWS: Final[dict[str, tuple[str | None, ...]]] = {}   # replaced before it is seen

Round = RoundState
"""What holds the facts of the round being played (a deal replaces it)."""


def round_of(g: GameState) -> Round:
    """The round being played: cards by id (``codes``), ``rows``, ``deck``, ``pile``,
    ``current``, ``turn``, ``caller``, ``drawn``, knowledge (``known``, ``face_up``)."""
    return g.round


def deck_top(g: GameState) -> str | None:
    """The code of the card a deck draw takes now (None: the draw pile is empty)."""
    r = round_of(g)
    return r.codes[r.deck[-1]] if r.deck else None


def pile_under_top(g: GameState) -> list[str]:
    """The codes of the discard pile under its top card, bottom first (what a reshuffle
    turns into the new draw pile)."""
    r = round_of(g)
    codes = r.codes
    return [codes[c] for c in r.pile[:-1]]


def row_size(g: GameState, seat: int) -> int:
    return len(round_of(g).rows[seat])


def to_act(g: GameState) -> int:
    """The seat to act (to draw, place or use a power)."""
    return round_of(g).current


def turn(g: GameState) -> int:
    return round_of(g).turn


def caller_seat(g: GameState) -> int:
    """The seat that called Cabo this round, or -1."""
    return round_of(g).caller


def participants(g: GameState) -> tuple[int, ...]:
    """The seats dealt into the round being played."""
    return round_of(g).participants


def rounds_dealt(g: GameState) -> int:
    return len(g.rounds)


class Observer:
    """Observations of one match for every seat, kept up to date event by event.

    ``seen[seat][card]`` is the code of card ``card`` of the round if ``seat`` may see it, else
    None. A new round (the deal's new round object) rebuilds it from the state; within a round,
    ``update`` follows each event's outcome: ``learned`` sets a card for one seat (or, with
    ``EVERYBODY``, for all: every card put on the discard pile), ``forgotten`` clears it for
    all.

    In the pure build an observation is handed out lazy (``lazy_view``): its fields are
    computed when first read, in three groups (the rows; the discard pile; the rest), so a bot
    that reads only its own row (``random``) pays for that alone. It stays a snapshot: before
    the state changes, the recorder calls ``seal``, which completes every observation somebody
    still holds (a weak reference says which; the ones the bots dropped are simply forgotten).
    The compiled build makes each whole.
    """

    def __init__(self, g: GameState) -> None:
        self.g = g
        self.round: Round | None = None   # the round ``seen`` is about
        self.seen: list[list[str | None]] = []
        self._pile: list[int] = []          # the pile ``_discard`` shows
        self._discard: tuple[str, ...] = ()
        self._cumulative: list[int] = []
        self._scores: dict[str, int] = {}
        self._active: list[bool] = []
        self._names: tuple[str, ...] = ()
        self._seated: list[tuple[int, str]] = []
        self.ruleset = g.rules.name
        self.out: list[weakref.ref[Observation]] = []   # handed out since the last seal

    def _rebuild(self, r: Round) -> None:
        """What each seat sees of every card of a freshly dealt round (from the state)."""
        codes, face_up, known = r.codes, r.face_up, r.known
        cards = len(codes)
        seen: list[list[str | None]] = []
        for seat in range(len(self.g.players)):   # indexed loops: machine ints when compiled
            view: list[str | None] = [None] * cards
            bit = 1 << seat
            for card in range(cards):
                if face_up[card] or known[card] & bit:
                    view[card] = codes[card]
            seen.append(view)
        self.seen = seen
        self.round = r
        self._pile = []
        self._discard = ()
        self._active_changed()   # the round's participants

    def update(self, done: Outcome) -> None:
        """Follow what an accepted event did to knowledge (``Outcome.learned``/``forgotten``)."""
        if self.g.round is not self.round:
            return   # a deal: rebuilt when next asked
        if done.learned:
            codes = self.g.round.codes
            seen = self.seen
            for seat, card in done.learned:
                if seat == EVERYBODY:
                    code = codes[card]
                    for view in seen:
                        view[card] = code
                else:
                    seen[seat][card] = codes[card]
        for card in done.forgotten:
            for view in self.seen:
                view[card] = None

    def seal(self) -> None:
        """The state is about to change: complete the observations still held by someone."""
        for ref in self.out:
            obs = ref()
            if obs is not None:
                fill(obs)
        self.out.clear()

    def observe(self, player: str, own_row_only: bool = False) -> Observation:
        """``engine.knowledge.observe(g, player)``, computed from what is remembered: whole
        in the compiled build (a native constructor), field group by field group as it is
        read in the pure one (``lazy_view``).

        ``own_row_only``: a *partial* observation for a bot that reads no row but its own
        (``Bot.own_row_only``, the random bot): ``rows`` holds only the player's own row (when
        they are seated); every other field is ``observe``'s. The other rows are most of an
        observation's cost in a two-player match."""
        if not _LAZY:
            r = self._sync()
            seat = self.g.seat[player]
            obs = self._rest(r, player, seat)
            obs.rows = self._rows(r, seat, own_row_only)
            obs.discard = self._discard_of(r)
            return obs
        obs = lazy_observation(self, player, own_row_only)
        self.out.append(weakref.ref(obs))
        return obs

    def _sync(self) -> Round:
        """The round ``seen`` is about: rebuilt after a deal, its seated players after a
        forfeit."""
        g = self.g
        r = g.round   # round_of(g), spelt out on the hottest path
        if r is not self.round:
            self._rebuild(r)
        elif g.active != self._active:
            self._active_changed()
        return r

    def rows(self, player: str, own_row_only: bool = False
             ) -> dict[str, tuple[str | None, ...]]:
        """The rows as ``player`` sees them (only their own with ``own_row_only``)."""
        return self._rows(self._sync(), self.g.seat[player], own_row_only)

    def _rows(self, r: Round, seat: int, own_row_only: bool
              ) -> dict[str, tuple[str | None, ...]]:
        view = self.seen[seat]
        row_of = r.rows
        out: dict[str, tuple[str | None, ...]] = {}
        for p, name in self._seated:
            if own_row_only and p != seat:
                continue
            out[name] = tuple([view[c] for c in row_of[p]])
        return out

    def discard(self) -> tuple[str, ...]:
        """The discard pile's codes, bottom first (shared until the pile changes)."""
        return self._discard_of(self._sync())

    def _discard_of(self, r: Round) -> tuple[str, ...]:
        pile = r.pile
        if pile != self._pile:
            self._pile = pile[:]
            codes = r.codes
            self._discard = tuple([codes[c] for c in pile])
        return self._discard

    def rest(self, player: str) -> dict[str, object]:
        """Every field but the rows and the discard pile (the lazy observation's third
        group)."""
        obs = self._rest(self._sync(), player, self.g.seat[player])
        return {name: getattr(obs, name) for name in _REST}

    def _rest(self, r: Round, player: str, seat: int) -> Observation:
        """An observation with every field but the rows and the discard pile (left empty)."""
        g = self.g
        players = g.players
        current = r.current
        drawn: str | None = None
        source: str | None = None
        if r.drawn >= 0 and (current == seat or r.drawn_source == DrawSource.DISCARD):
            drawn = r.codes[r.drawn]
            source = r.drawn_source
        if g.cumulative != self._cumulative:
            self._cumulative = g.cumulative[:]
            self._scores = g.cumulative_by_name()
        phase: Phase = g.phase
        return Observation(player, players, self._names, r.round_no, phase,
                           players[current] if phase in _PLAYING else None, _NO_ROWS, (),
                           len(r.deck), drawn, source,
                           r.pending_power if current == seat else None,
                           players[r.caller] if r.caller >= 0 else None, self._scores, r.turn,
                           self.ruleset)

    def _active_changed(self) -> None:
        """Who is still in (a forfeit, or a deal of other seats): names and rows to show."""
        g = self.g
        self._active = g.active[:]
        self._names = tuple([name for name, on in zip(g.players, g.active, strict=True) if on])
        self._seated = [(p, g.players[p]) for p in g.round.participants if g.active[p]]


_LAZY = lazy_possible()

__all__ = ["Observer", "Round", "caller_seat", "deck_top", "participants", "pile_under_top",
           "round_of", "row_size", "rounds_dealt", "to_act", "turn"]
