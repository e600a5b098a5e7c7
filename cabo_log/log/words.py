"""Events told in words, as one viewer saw them: the sentences of the timeline's step view, of
``cabo-log replay --follow`` and of ``cabo-log play``.

``EventWords`` keeps what the viewer could see before each event (the words are said after the
engine applied it) and tells the event from the engine's outcome: a card the viewer did not see
is never named (``a card``), so a page or a terminal ``--as`` a player leaks nothing more than
that player saw at the table. ``None`` as the viewer is the omniscient log. It sits here, with
the other readers of a replay, so that both the pages and play/ can use it without play/
reaching into pages/.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from cabo_log.log.render import special_hand
from cabo_log.log.replay import ReplayVisitor
from engine import EVERYBODY, Event, GameStart, GameState, Outcome, RoundResult
from engine.events import (
    Cabo,
    Deal,
    Discard,
    Draw,
    Forfeit,
    GameEnd,
    Peek,
    Power,
    Replace,
    Reshuffle,
    RoundEnd,
    Skip,
    Snap,
    Tally,
)
from engine.outcome import NOTHING
from engine.state import MATCH_OVER, POWER
from engine.vocabulary import DrawSource, PowerKind

_SUITS = {"H": "\u2665", "D": "\u2666", "S": "\u2660", "C": "\u2663"}


class NotAPlayer(ValueError):
    """``--as`` names somebody who does not play in the game."""


@cache
def card_label(code: str) -> str:
    """How a card is shown: ``"10H"`` -> ``"10♥"``, ``"JK"`` -> ``"JK"``, ``"7"`` -> ``"7"``
    (remembered: a long match's page shows a card tens of thousands of times)."""
    if code[-1:] in _SUITS and len(code) >= 2:
        return code[:-1] + _SUITS[code[-1]]
    return code


def a_card(code: str) -> str:
    """``"a 9"``, ``"an 8"``, ``"an A♠"``: a card named in a sentence."""
    label = card_label(code)
    article = "an" if label.startswith(("8", "11", "A")) else "a"
    return f"{article} {label}"


def join_words(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"



@dataclass
class Before:
    """The bits of the table an event changes, taken before it (the visitor runs after)."""

    rows: list[list[int]]
    drawn: int
    drawn_source: str | None
    pile_top: int | None
    pending_power: str | None
    current: int
    seen: list[bool]           # per card: visible to the viewer (or face up, omniscient)

    @classmethod
    def of(cls, g: GameState, viewer: int | None) -> Before:
        cards = range(g.card_count())
        if viewer is None:
            seen = [g.face_up(c) for c in cards]
        else:
            seen = [g.sees(viewer, c) for c in cards]
        rows = [g.row_ids(p) for p in range(len(g.players))] if g.round_no() else []
        return cls(rows, g.drawn_id(),
                   g.drawn_source(), g.pile_top_id(), g.pending_power(), g.to_act(), seen)


class EventWords:
    """Says what each event did, as the viewer saw it. ``start`` once the header is read;
    then, for each event, ``tell`` (after the engine applied it: the words come from its
    outcome and the table before it) and ``moved_on`` (the table after it becomes the one
    before the next event)."""

    def __init__(self, viewer: str | None = None) -> None:
        self.viewer = viewer
        self.round_summaries = True   # False: the caller tells a round's end its own way
        self.seat: int | None = None
        self.before: Before | None = None
        self.outcome: Outcome = NOTHING   # what the event being told did
        self._learned: set[int] = set()

    def start(self, state: GameState) -> None:
        """The match begins: the viewer's seat (``NotAPlayer`` if they do not play)."""
        if self.viewer is not None:
            if self.viewer not in state.seat:
                raise NotAPlayer(", ".join(state.players))
            self.seat = state.seat[self.viewer]
        self.before = Before.of(state, self.seat)

    def tell(self, event: Event, state: GameState, outcome: Outcome) -> str:
        """The event in words (``state`` is the state after it)."""
        assert self.before is not None
        self.outcome = outcome
        self._learned = {card for seat, card in outcome.learned
                         if seat == self.seat or seat == EVERYBODY}
        return self.describe(event, state, self.before)

    def moved_on(self, state: GameState) -> None:
        """The table after the event told is the one before the next."""
        self.before = Before.of(state, self.seat)

    # --- what the viewer sees ------------------------------------------------------------
    def sees(self, g: GameState, card: int) -> bool:
        """Whether the viewer saw ``card`` (now, after the event)."""
        return self.seat is None or g.sees(self.seat, card)

    def knew(self, g: GameState, card: int) -> bool:
        """``sees`` for the words of an event: an event that ends a round reveals every hand,
        but its description names only the cards the viewer saw before that reveal."""
        if self.seat is None or self.outcome.round_ended is None:
            return self.sees(g, card)
        assert self.before is not None
        return g.face_up(card) or self.before.seen[card] or card in self._learned

    # --- the words -----------------------------------------------------------------------
    def name_card(self, g: GameState, card: int, hidden: str = "a card") -> str:
        return a_card(g.code(card)) if self.knew(g, card) else hidden

    def describe(self, e: Event, g: GameState, b: Before) -> str:
        """The event in words (``TOLD``, the sentence of its kind), with a lapsed power and
        the end of a round or of the match it brought."""
        text = TOLD[e.TYPE](self, e, g, b)
        fx = self.outcome
        if fx.lapsed is not None:
            text = f"({g.players[b.current]}'s {fx.lapsed} power lapsed) " + text
        if fx.round_ended is not None and self.round_summaries:
            text += ". " + round_summary(fx.round_ended, g.rules.special_name, g.tally)
            if g.phase == MATCH_OVER and g.winners:
                text += f". The match is over: {join_words(list(g.winners))} "
                text += "wins" if len(g.winners) == 1 else "win"
        return text

    def penalty(self, player: str) -> str:
        """``; P takes a penalty card`` when the event dealt one (the card named only to the
        omniscient log: nobody saw it), else nothing."""
        penalty = self.outcome.penalty
        if penalty is None:
            return ""
        seen = f" ({a_card(penalty)}, seen by nobody)" if self.seat is None else ""
        return f"; {player} takes a penalty card{seen}"


E = TypeVar("E", bound=Event)
Teller = Callable[[EventWords, Any, GameState, Before], str]
"""How one kind of event is told: ``(words, event, state after it, table before it)``."""

TOLD: dict[str, Teller] = {}
"""The sentence of every kind of event in ``engine.spec.EVENTS``, by its line ``type``, the
header's included (``tests/test_words.py`` checks that every kind of the spec has one): a new
kind is told here, once."""


def tells(kind: type[E]) -> Callable[[Callable[[EventWords, E, GameState, Before], str]],
                                     Callable[[EventWords, E, GameState, Before], str]]:
    """Registers the function below as the words of ``kind`` (a second one is refused)."""
    def register(teller: Callable[[EventWords, E, GameState, Before], str]
                 ) -> Callable[[EventWords, E, GameState, Before], str]:
        if kind.TYPE in TOLD:
            raise ValueError(f"the {kind.TYPE!r} event is already told")
        TOLD[kind.TYPE] = teller
        return teller
    return register


@tells(GameStart)
def _game(w: EventWords, e: GameStart, g: GameState, b: Before) -> str:
    return f"Game {g.game_id}: {g.rules.name}, players {', '.join(g.players)}"


@tells(Deal)
def _deal(w: EventWords, e: Deal, g: GameState, b: Before) -> str:
    by = f" by {e.dealer}" if e.dealer is not None else ""
    return (f"Round {e.round} is dealt{by} to {join_words(list(e.hands))}; {e.first} "
            f"plays first; the discard pile starts with {a_card(e.discard)}")


@tells(Peek)
def _peek(w: EventWords, e: Peek, g: GameState, b: Before) -> str:
    seat = g.seat[e.player]
    cards = [g.card_id((seat, pos)) for pos in e.positions]
    what = f"{e.player} looked at their cards {join_words([str(p) for p in e.positions])}"
    if all(w.knew(g, c) for c in cards):
        what += f" ({join_words([card_label(g.code(c)) for c in cards])})"
    return what


@tells(Draw)
def _draw(w: EventWords, e: Draw, g: GameState, b: Before) -> str:
    if e.source == DrawSource.DISCARD:
        return f"{e.player} took {a_card(g.code(g.drawn_id()))} from the discard pile"
    return f"{e.player} drew {w.name_card(g, g.drawn_id())} from the deck"


@tells(Discard)
def _discard(w: EventWords, e: Discard, g: GameState, b: Before) -> str:
    return f"{e.player} discarded {a_card(g.pile()[-1])}" + power_earned(g)


@tells(Replace)
def _replace(w: EventWords, e: Replace, g: GameState, b: Before) -> str:
    seat = g.seat[e.player]
    old = [b.rows[seat][p] for p in e.positions]
    if b.drawn_source == DrawSource.DISCARD:
        drawn = f"the {card_label(g.code(b.drawn))} taken from the discard pile"
    elif w.knew(g, b.drawn):
        drawn = f"the drawn {card_label(g.code(b.drawn))}"
    else:
        drawn = "the drawn card"
    word = "card" if len(old) == 1 else "cards"
    where = f"their {word} {join_words([str(p) for p in e.positions])}"
    shown = f" ({join_words([a_card(g.code(c)) for c in old])})"
    if w.outcome.success:
        text = f"{e.player} replaced {where}{shown} with {drawn}"
        return text + (power_earned(g) if g.phase == POWER else "")
    return (f"{e.player} tried to replace {where}{shown} with {drawn}: they differ, so they "
            f"stay face up and {drawn} is added to the row" + w.penalty(e.player))


@tells(Power)
def _power(w: EventWords, e: Power, g: GameState, b: Before) -> str:
    if e.power == PowerKind.SWAP:
        (sa, ia), (sb, ib) = w.outcome.places   # the user's own place first
        pa, pb = g.players[sa], g.players[sb]
        card_a, card_b = b.rows[sa][ia], b.rows[sb][ib]
        own_a = "their" if pa == e.player else f"{pa}'s"
        text = f"{e.player} swapped {own_a} card {ia} with {pb}'s card {ib}, unseen"
        known = [f"{own_a} {card_label(g.code(card_a))}" if w.knew(g, card_a) else "",
                 f"{pb}'s {card_label(g.code(card_b))}" if w.knew(g, card_b) else ""]
        if any(known):
            text += f" ({', '.join(k for k in known if k)})"
        return text
    assert e.target is not None
    who, pos = e.target
    card = g.card_id((g.seat[who], pos))
    if e.power == PowerKind.PEEK:
        text = f"{e.player} peeked at their card {pos}"
    else:
        text = f"{e.player} spied {who}'s card {pos}"
    if w.knew(g, card):
        text += f": {a_card(g.code(card))}"
    return text


@tells(Skip)
def _skip(w: EventWords, e: Skip, g: GameState, b: Before) -> str:
    return f"{e.player} skipped the {b.pending_power} power"


@tells(Cabo)
def _cabo(w: EventWords, e: Cabo, g: GameState, b: Before) -> str:
    return f"{e.player} called Cabo"


@tells(Snap)
def _snap(w: EventWords, e: Snap, g: GameState, b: Before) -> str:
    card = b.rows[g.seat[e.player]][e.position]
    top = a_card(g.code(b.pile_top)) if b.pile_top is not None else "nothing"
    text = (f"{e.player} snapped their card {e.position} ({a_card(g.code(card))}) "
            f"onto {top}: ")
    if w.outcome.success:
        return text + "a match, the card goes to the discard pile"
    return text + "no match, it stays face up" + w.penalty(e.player)


@tells(Reshuffle)
def _reshuffle(w: EventWords, e: Reshuffle, g: GameState, b: Before) -> str:
    return f"The discard pile is shuffled into a new draw pile of {plural(len(e.deck), 'card')}"


@tells(Tally)
def _tally(w: EventWords, e: Tally, g: GameState, b: Before) -> str:
    """A score sheet's round: the hands as turned over."""
    shown = "; ".join(f"{p} {' '.join(cards) or 'no cards'}" for p, cards in e.hands.items())
    called = f"{e.caller} called Cabo" if e.caller else "nobody called Cabo"
    return f"Round {e.round} on the score sheet: {called}; {shown}"


@tells(Forfeit)
def _forfeit(w: EventWords, e: Forfeit, g: GameState, b: Before) -> str:
    text = f"{e.player} forfeited: left the match" + (f" ({e.reason})" if e.reason else "")
    if w.outcome.discarded:
        text += f"; the card they held ({a_card(w.outcome.discarded[0])}) is discarded"
    return text


@tells(RoundEnd)
def _round_end(w: EventWords, e: RoundEnd, g: GameState, b: Before) -> str:
    points = ", ".join(f"{p} {v}" for p, v in e.points.items())
    return f"The log's claim of round {e.round}'s points ({points}) checks out"


@tells(GameEnd)
def _game_end(w: EventWords, e: GameEnd, g: GameState, b: Before) -> str:
    return f"The log's claim of the result (winners: {join_words(list(e.winners))}) checks out"


class Narrator(EventWords, ReplayVisitor[list[str]]):
    """A replay visitor that keeps every event's words (``text`` is the last event's)."""

    def __init__(self, viewer: str | None = None) -> None:
        super().__init__(viewer)
        self.texts: list[str] = []
        self.text = ""

    def begin(self, state: GameState, header: GameStart) -> None:
        self.start(state)
        assert self.before is not None
        self.text = TOLD[header.TYPE](self, header, state, self.before)   # not in ``texts``

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        self.text = self.tell(event, state, outcome)
        self.texts.append(self.text)
        self.moved_on(state)

    def result(self) -> list[str]:
        return self.texts


def power_earned(g: GameState) -> str:
    power = g.pending_power()
    if g.phase == POWER and power is not None:
        return f"; it gives the {power} power"
    return ""


def round_summary(r: RoundResult, special_name: str = "Kamikaze", sheet: bool = False) -> str:
    """A round's result in words; ``sheet``: a score sheet's round (no turns were seen)."""
    how = {"cabo": "after the final turns", "deck_empty": "as the draw pile ran out",
           "forfeit": "by a forfeit, unscored"}.get(r.end, r.end)
    text = f"Round {r.round} ends {how}" if not sheet else f"Round {r.round} is scored"
    special = special_hand(r, special_name)
    if r.caller is not None:
        if special is not None:
            text += f"; {r.caller} called Cabo"
        elif r.cabo_success is None:
            text += f"; {r.caller}'s Cabo is not scored"
        else:
            text += f"; {r.caller}'s Cabo {'succeeds' if r.cabo_success else 'fails'}"
    text += "; points: " + ", ".join(f"{p} {v}" for p, v in r.points.items())
    if special is not None:
        text += f"; {special}"
    left = [p for p in r.players if p not in r.points]
    if left:
        text += f"; {join_words(left)} forfeited"
    for p in r.resets:
        text += f"; {p} hit the target exactly and goes back to {r.cumulative[p]}"
    return text


__all__ = ["TOLD", "Before", "EventWords", "Narrator", "NotAPlayer", "Teller", "a_card",
           "card_label", "join_words", "plural", "power_earned", "round_summary", "tells"]
