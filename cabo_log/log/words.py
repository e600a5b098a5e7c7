"""Events told in words, as one viewer saw them: the sentences of the timeline's step view, of
``cabo-log replay --follow`` and of ``cabo-log play``.

``EventWords`` keeps what the viewer could see before each event (the words are said after the
engine applied it) and tells the event from the engine's outcome: a card the viewer did not see
is never named (``a card``), so a page or a terminal ``--as`` a player leaks nothing more than
that player saw at the table. ``None`` as the viewer is the omniscient log. The sentence of
each kind of event is in ``told`` (one per kind of the spec), the small phrases in ``phrases``.
It sits here, with the other readers of a replay, so that both the pages and play/ can use it
without play/ reaching into pages/.
"""

from __future__ import annotations

from dataclasses import dataclass

from cabo_log.log.phrases import a_card, card_label, join_words, plural
from cabo_log.log.render import special_hand
from cabo_log.log.replay import ReplayVisitor
from cabo_log.log.told import TOLD, Teller, power_earned, tells
from engine import EVERYBODY, Event, GameStart, GameState, Outcome, RoundResult
from engine.outcome import NOTHING
from engine.vocabulary import MATCH_OVER


class NotAPlayer(ValueError):
    """``--as`` names somebody who does not play in the game."""


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
