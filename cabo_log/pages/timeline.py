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

from cabo_log.log.render import special_hand
from cabo_log.log.replay import ReplayVisitor, visit_bytes, visit_file
from engine import (
    EVERYBODY,
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
)
from engine.knowledge import visible
from engine.outcome import NOTHING
from engine.state import MATCH_OVER, POWER
from engine.vocabulary import DrawSource, PowerKind

TABLE = "table"   # the lane of events nobody in particular made (deal, reshuffle, claims)

# event kinds, as coloured in the charts and the step view (order = legend order)
KINDS = ("deal", "peek", "draw", "discard", "replace", "power", "skip", "cabo", "snap",
         "reshuffle", "forfeit", "round end", "claim")
CLAIM = "claim"   # the kind of both claims (round_end, game_end)

# card flags in a snapshot row
FACE_UP = 1          # lies face up: everybody sees it
OWNER_BLIND = 2      # (omniscient view) its owner does not know it
CHANGED = 4          # this event moved, revealed or looked at it

_SUITS = {"H": "\u2665", "D": "\u2666", "S": "\u2660", "C": "\u2663"}


class NotAPlayer(ValueError):
    """``--as`` names somebody who does not play in the game."""


def card_label(code: str) -> str:
    """How a card is shown: ``"10H"`` -> ``"10♥"``, ``"JK"`` -> ``"JK"``, ``"7"`` -> ``"7"``."""
    if code[-1:] in _SUITS and len(code) >= 2:
        return code[:-1] + _SUITS[code[-1]]
    return code


def a_card(code: str) -> str:
    """``"a 9"``, ``"an 8"``, ``"an A♠"``: a card named in a sentence."""
    label = card_label(code)
    article = "an" if label.startswith(("8", "11", "A")) else "a"
    return f"{article} {label}"


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


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
    rows: list[tuple[str, list[tuple[str | None, int | None, int]]]]
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
            "rows": [{"p": p, "cards": [list(c) for c in cards]} for p, cards in self.rows],
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

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class _Before:
    """The bits of the table an event changes, taken before it (the visitor runs after)."""

    rows: list[list[int]]
    drawn: int
    drawn_source: str
    pile_top: int | None
    pending_power: str | None
    current: int
    seen: list[bool]           # per card: visible to the viewer (or face up, omniscient)

    @classmethod
    def of(cls, g: GameState, viewer: int | None) -> _Before:
        if viewer is None:
            seen = list(g.round.face_up)
        else:
            seen = [visible(g, viewer, c) for c in range(len(g.round.codes))]
        return cls([list(r) for r in g.round.rows], g.round.drawn, g.round.drawn_source,
                   g.round.pile[-1] if g.round.pile else None, g.round.pending_power,
                   g.round.current, seen)


class TimelineBuilder(ReplayVisitor[Timeline]):
    """Collects a ``Step`` per event and the hand totals per turn, for one viewer."""

    def __init__(self, viewer: str | None = None) -> None:
        self.viewer = viewer
        self.seat: int | None = None
        self.timeline = Timeline(file=None, viewer=viewer)
        self.before: _Before | None = None
        self.outcome: Outcome = NOTHING   # what the event being told did
        self._turn_keys: dict[tuple[int, int], int] = {}
        self._learned: set[int] = set()

    # --- the visitor ---------------------------------------------------------------------
    def begin(self, state: GameState, header: GameStart) -> None:
        tl = self.timeline
        tl.game_id, tl.ruleset, tl.players = state.game_id, state.rules.name, state.players
        tl.names, tl.target = dict(state.names), state.rules.target
        tl.special_name = state.rules.special_name
        if self.viewer is not None:
            if self.viewer not in state.seat:
                raise NotAPlayer(", ".join(state.players))
            self.seat = state.seat[self.viewer]
        self.before = _Before.of(state, self.seat)

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        g = state
        assert self.before is not None
        self.outcome = outcome
        kind_name = event.TYPE
        actor = getattr(event, "player", None)
        self._learned = {card for seat, card in outcome.learned
                         if seat == self.seat or seat == EVERYBODY}
        text = self.describe(event, g, self.before)
        step = Step(
            number=len(self.timeline.steps) + 1, line=line, type=kind_name,
            kind=CLAIM if isinstance(event, (RoundEnd, GameEnd)) else kind_name,
            actor=actor, round=g.round.round_no, turn=g.round.turn, text=text,
            to_play=g.current_player(), caller=g.caller_name(),
            rows=self._rows(g, event, outcome), out=[g.players[p] for p in g.round.participants
                                            if not g.active[p]],
            discard_top=_maybe(g.discard_top()),
            discard_value=g.round.values[g.round.pile[-1]] if g.round.pile else None,
            pile_size=len(g.round.pile), deck_size=len(g.round.deck), held=self._held(g),
            scores=g.cumulative_by_name(), hand_totals=self._totals(g),
            round_end=outcome.round_ended,
        )
        self.timeline.steps.append(step)
        if step.round_end is not None:
            self.timeline.round_end_steps[step.round_end.round] = step.number
        if not isinstance(event, (RoundEnd, GameEnd)):
            self._record_turn(g, step, isinstance(event, Cabo))
        self.before = _Before.of(g, self.seat)

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

    def _rows(self, g: GameState, event: Event, outcome: Outcome
              ) -> list[tuple[str, list[tuple[str | None, int | None, int]]]]:
        assert self.before is not None
        touched = _targets(event, outcome)
        dealt = isinstance(event, Deal)
        rows = []
        for p in g.round.participants:
            if not g.active[p]:
                continue
            old = self.before.rows[p] if p < len(self.before.rows) else []
            cards = []
            for pos, c in enumerate(g.round.rows[p]):
                shown = self.sees(g, c)
                flags = FACE_UP if g.round.face_up[c] else 0
                seen_now = g.round.face_up[c] if self.seat is None else shown
                if self.seat is None and not visible(g, p, c):
                    flags |= OWNER_BLIND
                # by card, not position: a snap or a multi-replacement shifts the cards after
                # it, which did not move for the player
                if not dealt and (c not in old or (p, pos) in touched
                                  or (seen_now and not self.before.seen[c])):
                    flags |= CHANGED
                cards.append((card_label(g.round.codes[c]) if shown else None,
                              g.round.values[c] if shown else None, flags))
            rows.append((g.players[p], cards))
        return rows

    def _held(self, g: GameState) -> tuple[str, str | None, int | None, str] | None:
        if g.round.drawn < 0:
            return None
        shown = self.sees(g, g.round.drawn)
        return (g.players[g.round.current],
                card_label(g.round.codes[g.round.drawn]) if shown else None,
                g.round.values[g.round.drawn] if shown else None, g.round.drawn_source)

    def _totals(self, g: GameState) -> dict[str, tuple[int, int]]:
        out = {}
        for p in g.round.participants:
            if not g.active[p]:
                continue
            seen = [c for c in g.round.rows[p] if self.sees(g, c)]
            out[g.players[p]] = (sum(g.round.values[c] for c in seen),
                                 len(g.round.rows[p]) - len(seen))
        return out

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

    # --- the words -----------------------------------------------------------------------
    def name_card(self, g: GameState, card: int, hidden: str = "a card") -> str:
        return a_card(g.round.codes[card]) if self.knew(g, card) else hidden

    def describe(self, e: Event, g: GameState, b: _Before) -> str:
        text = self._describe(e, g, b)
        fx = self.outcome
        if fx.lapsed is not None:
            text = f"({g.players[b.current]}'s {fx.lapsed} power lapsed) " + text
        if fx.round_ended is not None:
            text += ". " + _round_summary(fx.round_ended, g.rules.special_name)
            if g.phase == MATCH_OVER and g.winners:
                text += f". The match is over: {_join(list(g.winners))} "
                text += "wins" if len(g.winners) == 1 else "win"
        return text

    def _describe(self, e: Event, g: GameState, b: _Before) -> str:  # noqa: C901
        if isinstance(e, Deal):
            return (f"Round {e.round} is dealt to {_join(list(e.hands))}; {e.first} plays "
                    f"first; the discard pile starts with {a_card(e.discard)}")
        if isinstance(e, Peek):
            seat = g.seat[e.player]
            cards = [g.round.rows[seat][pos] for pos in e.positions]
            what = f"{e.player} looked at their cards {_join([str(p) for p in e.positions])}"
            if all(self.knew(g, c) for c in cards):
                what += f" ({_join([card_label(g.round.codes[c]) for c in cards])})"
            return what
        if isinstance(e, Draw):
            if e.source == DrawSource.DISCARD:
                taken = a_card(g.round.codes[g.round.drawn])
                return f"{e.player} took {taken} from the discard pile"
            return f"{e.player} drew {self.name_card(g, g.round.drawn)} from the deck"
        if isinstance(e, Discard):
            text = f"{e.player} discarded {a_card(g.round.codes[g.round.pile[-1]])}"
            return text + _power_earned(g)
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
                    f"{_plural(len(e.deck), 'card')}")
        if isinstance(e, Forfeit):
            text = f"{e.player} forfeited: left the match" + (f" ({e.reason})" if e.reason else "")
            if self.outcome.discarded:
                text += f"; the card they held ({a_card(self.outcome.discarded[0])}) is discarded"
            return text
        if isinstance(e, RoundEnd):
            points = ", ".join(f"{p} {v}" for p, v in e.points.items())
            return f"The log's claim of round {e.round}'s points ({points}) checks out"
        if isinstance(e, GameEnd):
            return (f"The log's claim of the result (winners: {_join(list(e.winners))}) "
                    "checks out")
        return e.TYPE  # pragma: no cover - every event type is handled above

    def _penalty(self, g: GameState) -> str:
        penalty = self.outcome.penalty
        if self.seat is None and penalty is not None:
            return f" ({a_card(penalty)}, seen by nobody)"
        return ""

    def _replace(self, e: Replace, g: GameState, b: _Before) -> str:
        seat = g.seat[e.player]
        old = [b.rows[seat][p] for p in e.positions]
        if b.drawn_source == DrawSource.DISCARD:
            drawn = f"the {card_label(g.round.codes[b.drawn])} taken from the discard pile"
        elif self.knew(g, b.drawn):
            drawn = f"the drawn {card_label(g.round.codes[b.drawn])}"
        else:
            drawn = "the drawn card"
        word = "card" if len(old) == 1 else "cards"
        where = f"their {word} {_join([str(p) for p in e.positions])}"
        shown = f" ({_join([a_card(g.round.codes[c]) for c in old])})"
        if self.outcome.success:
            text = f"{e.player} replaced {where}{shown} with {drawn}"
            return text + (_power_earned(g) if g.phase == POWER else "")
        text = (f"{e.player} tried to replace {where}{shown} with {drawn}: they differ, so "
                f"they stay face up and {drawn} is added to the row")
        if self.outcome.penalty is not None:
            text += f"; {e.player} takes a penalty card{self._penalty(g)}"
        return text

    def _power(self, e: Power, g: GameState, b: _Before) -> str:
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


def _maybe(code: str | None) -> str | None:
    return card_label(code) if code is not None else None


def _power_earned(g: GameState) -> str:
    if g.phase == POWER and g.round.pending_power is not None:
        return f"; it gives the {g.round.pending_power} power"
    return ""


def _round_summary(r: RoundResult, special_name: str = "Kamikaze") -> str:
    how = {"cabo": "after the final turns", "deck_empty": "as the draw pile ran out",
           "forfeit": "by a forfeit, unscored"}.get(r.end, r.end)
    text = f"Round {r.round} ends {how}"
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
        text += f"; {_join(left)} forfeited"
    for p in r.resets:
        text += f"; {p} hit the target exactly and goes back to {r.cumulative[p]}"
    return text


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
