"""The data behind a game's timeline page: one snapshot of the table after every event, the
hand totals turn by turn, and each event told in words.

Everything is computed for a *viewer*: ``None`` is the omniscient log, a player id is what that
player knew (OpenSpiel's observation). A card the viewer did not see is ``None`` in the rows
and never named in a description, so a page built ``--as`` a player leaks nothing more than
that player saw at the table.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from cabo_log.log.replay import ReplayVisitor, visit_bytes, visit_file
from cabo_log.log.words import EventWords, card_label
from cabo_log.log.words import NotAPlayer as NotAPlayer  # where the CLI and pages catch it
from engine import (
    CaboLogError,
    Event,
    GameStart,
    GameState,
    Outcome,
    RoundResult,
)
from engine.events import (
    Cabo,
    Deal,
    GameEnd,
    Peek,
    Power,
    RoundEnd,
    Snap,
)
from engine.knowledge import visible

TABLE = "table"   # the lane of events nobody in particular made (deal, reshuffle, claims)

# event kinds, as coloured in the charts and the step view (order = legend order)
KINDS = ("deal", "peek", "draw", "discard", "replace", "power", "skip", "cabo", "snap",
         "reshuffle", "forfeit", "round end", "claim")
CLAIM = "claim"   # the kind of both claims (round_end, game_end)

# card flags in a snapshot row
FACE_UP = 1          # lies face up: everybody sees it
OWNER_BLIND = 2      # (omniscient view) its owner does not know it
CHANGED = 4          # this event moved, revealed or looked at it

Card = tuple[str | None, int | None, int]   # a card as shown: label, value (None: unseen), flags


@dataclass
class Step:
    """The table right after one event, as the viewer saw it."""

    number: int                   # 1 = the first event after the header
    line: int                     # line in the log file
    type: str                     # the event type (``draw``, ``round_end``, ...)
    kind: str                     # one of KINDS, for colour
    actor: str | None             # the player who made the event (None: the table)
    round: int
    turn: int
    text: str                     # what happened, in words
    to_play: str | None
    caller: str | None
    rows: list[tuple[str, list[Card]]]
    out: list[str]                # players who left the match
    discard_top: str | None
    discard_value: int | None
    pile_size: int
    deck_size: int
    held: tuple[str, str | None, int | None, str] | None   # player, card, value, source
    scores: dict[str, int]
    hand_totals: dict[str, tuple[int, int]]   # player -> (total seen, cards unseen)
    round_end: RoundResult | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "n": self.number, "line": self.line, "type": self.type, "kind": self.kind,
            "actor": self.actor, "round": self.round, "turn": self.turn, "text": self.text,
            "toPlay": self.to_play, "caller": self.caller,
            "rows": [{"p": p, "cards": cards} for p, cards in self.rows],   # tuples: arrays
            "out": self.out, "top": self.discard_top, "topValue": self.discard_value,
            "pile": self.pile_size, "deck": self.deck_size,
            "held": None if self.held is None else dict(zip(("p", "c", "v", "src"), self.held,
                                                             strict=True)),
            "scores": self.scores,
            "totals": {p: list(t) for p, t in self.hand_totals.items()},
            "roundEnd": None if self.round_end is None else self.round_end.round,
        }


@dataclass
class TurnTotals:
    """Every row's hand total at the end of one turn (turn 0: right after the deal)."""

    round: int
    turn: int
    step: int                                 # the step that produced these totals
    totals: dict[str, int]                    # seen total (all of it when omniscient)
    unknown: dict[str, int]                   # cards of that row the viewer did not see
    cabo: str | None = None                   # who called Cabo on this turn
    revealed: bool = False                    # the round ended here: every hand is shown


@dataclass
class Timeline:
    file: str | None
    game_id: str = ""
    ruleset: str = ""
    players: tuple[str, ...] = ()
    names: dict[str, object] = field(default_factory=dict)
    viewer: str | None = None
    target: int = 100
    steps: list[Step] = field(default_factory=list)
    turns: list[TurnTotals] = field(default_factory=list)
    rounds: list[RoundResult] = field(default_factory=list)
    complete: bool = False
    winners: tuple[str, ...] = ()
    error: CaboLogError | None = None
    round_end_steps: dict[int, int] = field(default_factory=dict)   # round -> step number
    special_name: str = "Kamikaze"            # the ruleset's name for its special hand
    forfeited: tuple[str, ...] = ()           # players who left the match
    mean_value: float = 0.0                   # average card value of the deck (estimates)
    sheet: bool = False                       # a score sheet: rounds and scores, no turns

    @property
    def ok(self) -> bool:
        return self.error is None


class TimelineBuilder(EventWords, ReplayVisitor[Timeline]):
    """Collects a ``Step`` per event (its words from ``EventWords``) and the hand totals per
    turn, for one viewer."""

    def __init__(self, viewer: str | None = None) -> None:
        super().__init__(viewer)
        self.timeline = Timeline(file=None, viewer=viewer)
        self._turn_keys: dict[tuple[int, int], int] = {}

    # --- the visitor ---------------------------------------------------------------------
    def begin(self, state: GameState, header: GameStart) -> None:
        tl = self.timeline
        tl.game_id, tl.ruleset, tl.players = state.game_id, state.rules.name, state.players
        tl.names, tl.target = dict(state.names), state.rules.target
        tl.special_name = state.rules.special_name
        tl.sheet = state.tally
        self.start(state)

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        g = state
        kind_name = event.TYPE
        actor = getattr(event, "player", None)
        text = self.tell(event, g, outcome)
        rows, totals = self._rows(g, event, outcome)
        step = Step(
            number=len(self.timeline.steps) + 1, line=line, type=kind_name,
            kind=CLAIM if isinstance(event, (RoundEnd, GameEnd)) else kind_name,
            actor=actor, round=g.round.round_no, turn=g.round.turn, text=text,
            to_play=g.current_player(), caller=g.caller_name(),
            rows=rows, out=[g.players[p] for p in g.round.participants if not g.active[p]],
            discard_top=_maybe(g.discard_top()),
            discard_value=g.round.values[g.round.pile[-1]] if g.round.pile else None,
            pile_size=len(g.round.pile), deck_size=len(g.round.deck), held=self._held(g),
            scores=g.cumulative_by_name(), hand_totals=totals,
            round_end=outcome.round_ended,
        )
        self.timeline.steps.append(step)
        if step.round_end is not None:
            self.timeline.round_end_steps[step.round_end.round] = step.number
        if not isinstance(event, (RoundEnd, GameEnd)):
            self._record_turn(g, step, isinstance(event, Cabo))
        self.moved_on(g)

    def end(self, state: GameState) -> None:
        self._close(state)

    def handle_error(self, error: CaboLogError, state: GameState | None) -> None:
        """Salvage: the page shows the steps before the bad line, and the error."""
        self.timeline.error = error
        if state is not None:
            self._close(state)

    def result(self) -> Timeline:
        return self.timeline

    def _close(self, g: GameState) -> None:
        tl = self.timeline
        tl.rounds, tl.complete, tl.winners = list(g.rounds), g.complete, g.winners
        tl.forfeited = tuple(p for i, p in enumerate(g.players) if not g.active[i])
        tl.mean_value = sum(g.round.values) / len(g.round.values) if g.round.values else 0.0

    def _rows(self, g: GameState, event: Event, outcome: Outcome
              ) -> tuple[list[tuple[str, list[Card]]], dict[str, tuple[int, int]]]:
        """Each row in play as the viewer saw it after the event (label, value and flags of
        every card) and its hand total (seen total, cards unseen): one pass over the cards,
        the cost of a timeline that snapshots the whole table after every event."""
        before = self.before
        assert before is not None
        r, seat = g.round, self.seat
        codes, values, face_up = r.codes, r.values, r.face_up
        touched = _targets(event, outcome)
        dealt = isinstance(event, Deal)
        rows: list[tuple[str, list[Card]]] = []
        totals: dict[str, tuple[int, int]] = {}
        for p in r.participants:
            if not g.active[p]:
                continue
            old = before.rows[p] if p < len(before.rows) else []
            cards: list[Card] = []
            total = unseen = 0
            for pos, c in enumerate(r.rows[p]):
                flags = FACE_UP if face_up[c] else 0
                if seat is None:
                    shown, seen_now = True, face_up[c]
                    if not visible(g, p, c):
                        flags |= OWNER_BLIND
                else:
                    shown = seen_now = visible(g, seat, c)
                # by card, not position: a snap or a multi-replacement shifts the cards after
                # it, which did not move for the player
                if not dealt and (c not in old or (p, pos) in touched
                                  or (seen_now and not before.seen[c])):
                    flags |= CHANGED
                if shown:
                    cards.append((card_label(codes[c]), values[c], flags))
                    total += values[c]
                else:
                    cards.append((None, None, flags))
                    unseen += 1
            rows.append((g.players[p], cards))
            totals[g.players[p]] = (total, unseen)
        return rows, totals

    def _held(self, g: GameState) -> tuple[str, str | None, int | None, str] | None:
        if g.round.drawn < 0:
            return None
        shown = self.sees(g, g.round.drawn)
        return (g.players[g.round.current],
                card_label(g.round.codes[g.round.drawn]) if shown else None,
                g.round.values[g.round.drawn] if shown else None, g.round.drawn_source)

    def _record_turn(self, g: GameState, step: Step, cabo: bool) -> None:
        if g.round.round_no == 0:
            return
        key = (g.round.round_no, g.round.turn)
        sample = TurnTotals(
            round=g.round.round_no, turn=g.round.turn, step=step.number,
            totals={p: t for p, (t, _) in step.hand_totals.items()},
            unknown={p: u for p, (_, u) in step.hand_totals.items()},
            revealed=step.round_end is not None,
        )
        index = self._turn_keys.get(key)
        if index is None:
            self._turn_keys[key] = len(self.timeline.turns)
            self.timeline.turns.append(sample)
        else:
            sample.cabo = self.timeline.turns[index].cabo
            self.timeline.turns[index] = sample
        if cabo:
            sample.cabo = step.actor

def _maybe(code: str | None) -> str | None:
    return card_label(code) if code is not None else None


def _targets(event: Event, outcome: Outcome) -> set[tuple[int, int]]:
    """Row places an event names (looked at, swapped, a snap that failed), after the event."""
    if isinstance(event, (Peek, Power)) or (isinstance(event, Snap) and not outcome.success):
        return set(outcome.places)
    return set()


def _build(visit: Any, file: str | None, viewer: str | None) -> Timeline:
    try:
        tl: Timeline = visit(TimelineBuilder(viewer))
    except NotAPlayer as exc:
        raise NotAPlayer(f"{viewer!r} is not a player of {file or 'this game'} "
                         f"(its players: {exc})") from None
    tl.file = file
    return tl


def build_timeline(path: str | os.PathLike[str], viewer: str | None = None) -> Timeline:
    """Replay a log file into a timeline; an invalid log keeps the steps before its bad line
    and sets ``error``. Raises ``NotAPlayer`` when ``viewer`` does not play in the game."""
    return _build(lambda v: visit_file(path, v), str(path), viewer)


def timeline_from_bytes(data: bytes, file: str | None = None,
                        viewer: str | None = None) -> Timeline:
    """``build_timeline`` for a log held in memory."""
    return _build(lambda v: visit_bytes(data, v, file), file, viewer)
