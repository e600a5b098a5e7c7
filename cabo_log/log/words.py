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

from dataclasses import dataclass
from functools import cache

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
from engine.knowledge import visible
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
    drawn_source: str
    pile_top: int | None
    pending_power: str | None
    current: int
    seen: list[bool]           # per card: visible to the viewer (or face up, omniscient)

    @classmethod
    def of(cls, g: GameState, viewer: int | None) -> Before:
        if viewer is None:
            seen = list(g.round.face_up)
        else:
            seen = [visible(g, viewer, c) for c in range(len(g.round.codes))]
        return cls([list(r) for r in g.round.rows], g.round.drawn, g.round.drawn_source,
                   g.round.pile[-1] if g.round.pile else None, g.round.pending_power,
                   g.round.current, seen)


class EventWords:
    """Says what each event did, as the viewer saw it. ``start`` once the header is read;
    then, for each event, ``tell`` (after the engine applied it: the words come from its
    outcome and the table before it) and ``moved_on`` (the table after it becomes the one
    before the next event)."""

    def __init__(self, viewer: str | None = None) -> None:
        self.viewer = viewer
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
        return self.seat is None or visible(g, self.seat, card)

    def knew(self, g: GameState, card: int) -> bool:
        """``sees`` for the words of an event: an event that ends a round reveals every hand,
        but its description names only the cards the viewer saw before that reveal."""
        if self.seat is None or self.outcome.round_ended is None:
            return self.sees(g, card)
        assert self.before is not None
        return g.round.face_up[card] or self.before.seen[card] or card in self._learned

    # --- the words -----------------------------------------------------------------------
    def name_card(self, g: GameState, card: int, hidden: str = "a card") -> str:
        return a_card(g.round.codes[card]) if self.knew(g, card) else hidden

    def describe(self, e: Event, g: GameState, b: Before) -> str:
        text = self._describe(e, g, b)
        fx = self.outcome
        if fx.lapsed is not None:
            text = f"({g.players[b.current]}'s {fx.lapsed} power lapsed) " + text
        if fx.round_ended is not None:
            text += ". " + round_summary(fx.round_ended, g.rules.special_name, g.tally)
            if g.phase == MATCH_OVER and g.winners:
                text += f". The match is over: {join_words(list(g.winners))} "
                text += "wins" if len(g.winners) == 1 else "win"
        return text

    def _describe(self, e: Event, g: GameState, b: Before) -> str:  # noqa: C901
        if isinstance(e, Deal):
            return (f"Round {e.round} is dealt to {join_words(list(e.hands))}; {e.first} plays "
                    f"first; the discard pile starts with {a_card(e.discard)}")
        if isinstance(e, Peek):
            seat = g.seat[e.player]
            cards = [g.round.rows[seat][pos] for pos in e.positions]
            what = f"{e.player} looked at their cards {join_words([str(p) for p in e.positions])}"
            if all(self.knew(g, c) for c in cards):
                what += f" ({join_words([card_label(g.round.codes[c]) for c in cards])})"
            return what
        if isinstance(e, Draw):
            if e.source == DrawSource.DISCARD:
                taken = a_card(g.round.codes[g.round.drawn])
                return f"{e.player} took {taken} from the discard pile"
            return f"{e.player} drew {self.name_card(g, g.round.drawn)} from the deck"
        if isinstance(e, Discard):
            text = f"{e.player} discarded {a_card(g.round.codes[g.round.pile[-1]])}"
            return text + power_earned(g)
        if isinstance(e, Replace):
            return self._replace(e, g, b)
        if isinstance(e, Power):
            return self._power(e, g, b)
        if isinstance(e, Skip):
            return f"{e.player} skipped the {b.pending_power} power"
        if isinstance(e, Cabo):
            return f"{e.player} called Cabo"
        if isinstance(e, Snap):
            seat = g.seat[e.player]
            card = b.rows[seat][e.position]
            top = a_card(g.round.codes[b.pile_top]) if b.pile_top is not None else "nothing"
            text = (f"{e.player} snapped their card {e.position} ({a_card(g.round.codes[card])}) "
                    f"onto {top}: ")
            if self.outcome.success:
                return text + "a match, the card goes to the discard pile"
            text += "no match, it stays face up"
            if self.outcome.penalty is not None:
                text += f"; {e.player} takes a penalty card{self._penalty(g)}"
            return text
        if isinstance(e, Reshuffle):
            return (f"The discard pile is shuffled into a new draw pile of "
                    f"{plural(len(e.deck), 'card')}")
        if isinstance(e, Tally):   # a score sheet's round: the hands as turned over
            shown = "; ".join(f"{p} {' '.join(cards) or 'no cards'}"
                              for p, cards in e.hands.items())
            called = f"{e.caller} called Cabo" if e.caller else "nobody called Cabo"
            return f"Round {e.round} on the score sheet: {called}; {shown}"
        if isinstance(e, Forfeit):
            text = f"{e.player} forfeited: left the match" + (f" ({e.reason})" if e.reason else "")
            if self.outcome.discarded:
                text += f"; the card they held ({a_card(self.outcome.discarded[0])}) is discarded"
            return text
        if isinstance(e, RoundEnd):
            points = ", ".join(f"{p} {v}" for p, v in e.points.items())
            return f"The log's claim of round {e.round}'s points ({points}) checks out"
        if isinstance(e, GameEnd):
            return (f"The log's claim of the result (winners: {join_words(list(e.winners))}) "
                    "checks out")
        return e.TYPE  # pragma: no cover - every event type is handled above

    def _penalty(self, g: GameState) -> str:
        penalty = self.outcome.penalty
        if self.seat is None and penalty is not None:
            return f" ({a_card(penalty)}, seen by nobody)"
        return ""

    def _replace(self, e: Replace, g: GameState, b: Before) -> str:
        seat = g.seat[e.player]
        old = [b.rows[seat][p] for p in e.positions]
        if b.drawn_source == DrawSource.DISCARD:
            drawn = f"the {card_label(g.round.codes[b.drawn])} taken from the discard pile"
        elif self.knew(g, b.drawn):
            drawn = f"the drawn {card_label(g.round.codes[b.drawn])}"
        else:
            drawn = "the drawn card"
        word = "card" if len(old) == 1 else "cards"
        where = f"their {word} {join_words([str(p) for p in e.positions])}"
        shown = f" ({join_words([a_card(g.round.codes[c]) for c in old])})"
        if self.outcome.success:
            text = f"{e.player} replaced {where}{shown} with {drawn}"
            return text + (power_earned(g) if g.phase == POWER else "")
        text = (f"{e.player} tried to replace {where}{shown} with {drawn}: they differ, so "
                f"they stay face up and {drawn} is added to the row")
        if self.outcome.penalty is not None:
            text += f"; {e.player} takes a penalty card{self._penalty(g)}"
        return text

    def _power(self, e: Power, g: GameState, b: Before) -> str:
        if e.power == PowerKind.SWAP:
            (sa, ia), (sb, ib) = self.outcome.places   # the user's own place first
            pa, pb = g.players[sa], g.players[sb]
            card_a, card_b = b.rows[sa][ia], b.rows[sb][ib]
            own_a = "their" if pa == e.player else f"{pa}'s"
            text = f"{e.player} swapped {own_a} card {ia} with {pb}'s card {ib}, unseen"
            known = [f"{own_a} {card_label(g.round.codes[card_a])}" if self.knew(g, card_a) else "",
                     f"{pb}'s {card_label(g.round.codes[card_b])}" if self.knew(g, card_b) else ""]
            if any(known):
                text += f" ({', '.join(k for k in known if k)})"
            return text
        assert e.target is not None
        who, pos = e.target
        card = g.round.rows[g.seat[who]][pos]
        if e.power == PowerKind.PEEK:
            text = f"{e.player} peeked at their card {pos}"
        else:
            text = f"{e.player} spied {who}'s card {pos}"
        if self.knew(g, card):
            text += f": {a_card(g.round.codes[card])}"
        return text

class Narrator(EventWords, ReplayVisitor[list[str]]):
    """A replay visitor that keeps every event's words (``text`` is the last event's)."""

    def __init__(self, viewer: str | None = None) -> None:
        super().__init__(viewer)
        self.texts: list[str] = []
        self.text = ""

    def begin(self, state: GameState, header: GameStart) -> None:
        self.start(state)

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        self.text = self.tell(event, state, outcome)
        self.texts.append(self.text)
        self.moved_on(state)

    def result(self) -> list[str]:
        return self.texts


def power_earned(g: GameState) -> str:
    if g.phase == POWER and g.round.pending_power is not None:
        return f"; it gives the {g.round.pending_power} power"
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


__all__ = ["Before", "EventWords", "Narrator", "NotAPlayer", "a_card", "card_label",
           "join_words", "plural", "power_earned", "round_summary"]
