"""How each kind of event is told in words: one sentence per kind of ``engine.spec.EVENTS``,
registered by its line ``type`` in ``TOLD`` (``@tells(Kind)``), the header's included.

A sentence is said by ``words.EventWords`` after the engine applied the event, from the event,
the state after it, the table before it (``words.Before``) and what the viewer saw: a card the
viewer did not see is never named. ``tests/test_event_words.py`` checks that every kind of the
spec has exactly one sentence, so a new kind is told here, once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from cabo_log.log.phrases import a_card, card_label, join_words, plural
from engine import Event, GameStart, GameState
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
from engine.vocabulary import POWER, DrawSource, PowerKind

if TYPE_CHECKING:
    from cabo_log.log.words import Before, EventWords

E = TypeVar("E", bound=Event)
Teller = Callable[["EventWords", Any, GameState, "Before"], str]
"""How one kind of event is told: ``(words, event, state after it, table before it)``."""

TOLD: dict[str, Teller] = {}
"""The sentence of every kind of event in ``engine.spec.EVENTS``, by its line ``type``, the
header's included."""


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


def power_earned(g: GameState) -> str:
    power = g.pending_power()
    if g.phase == POWER and power is not None:
        return f"; it gives the {power} power"
    return ""


__all__ = ["TOLD", "Teller", "power_earned", "tells"]
