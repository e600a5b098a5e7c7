"""Replay -> the rows of one game: ``RowCollector`` rides along a replay as a projector over
``(event, outcome)`` and keeps the ``events`` rows, the ``powers`` and ``cabo_calls`` rows
(``open_rows``) and what the game-level rows need (``game_rows``); ``chunk`` turns the rows of
many games into Arrow record batches.

The columns come from one place each. Every event has the ``COMMON`` columns; an event kind's
own columns are declared by the handler that computes them (``@own(Draw, "source")``), checked
against the ``events`` schema when this module loads. An ``events`` row is built as one tuple
(``COMMON`` values, then the handler's), the cheapest thing to build once per event on the
replay's hot path; ``chunk`` reads it back by these names.
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType
from typing import Any, TypeVar

import orjson

from cabo_log.db.open_rows import CallRows, PowerRows
from cabo_log.db.schema import SCHEMAS
from cabo_log.log.replay import ReplayResult, ReplayVisitor, replay_bytes
from engine import Event, GameStart, GameState, Outcome
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
from engine.state import POWER

# the columns every event has, in the order of the tuple ``RowCollector.event`` builds
# (``t_ms``/``t_iso`` are filled by ``chunk`` from ``times``: few logs carry timestamps)
COMMON = ("seq", "line", "round", "turn", "player", "auto", "card", "value", "deck_left",
          "implicit_skip", "round_ended")
Own = tuple[Any, ...]
H = TypeVar("H", bound=Callable[..., Own])
_DECLARED: dict[type[Event], tuple[str, tuple[str, ...]]] = {}


def own(kind: type[Event], *columns: str) -> Callable[[H], H]:
    """Declare a handler: the event class it handles and the columns of the tuple it returns
    (the event's own fields, flattened, and what the replay derived of it)."""
    unknown = set(columns) - set(SCHEMAS["events"].names)
    if unknown:
        raise AssertionError(f"{kind.TYPE}: no such events columns {sorted(unknown)}")

    def register(handler: H) -> H:
        _DECLARED[kind] = (handler.__name__, columns)
        return handler
    return register


class RowCollector(ReplayVisitor["RowCollector"]):
    """The rows of one game while it replays. ``events`` maps an event type to its rows, in
    the layout ``LAYOUTS[type]``."""

    def __init__(self, data: bytes | None = None) -> None:
        self.events: dict[str, list[tuple[Any, ...]]] = {kind: [] for kind in LAYOUTS}
        self.powers = PowerRows()
        self.calls = CallRows()
        self.dealt: dict[int, dict[str, tuple[list[str], int]]] = {}
        self.before_replace: list[int] | None = None    # the drawer's row: known bits
        self.turns_of: list[int] = []
        self.header: GameStart | None = None
        self.header_line = 1
        self.times: dict[int, int | float | str] = {}   # line -> its raw ``t`` (``stamp``)
        if data is not None:
            self.header_line = _first_line(data)
        self._kinds: dict[type, tuple[Callable[..., tuple[Any, ...]], list[tuple[Any, ...]]]] = {
            cls: (row, self.events[cls.TYPE]) for cls, row in _ROW_OF.items()}

    # --- hooks ---------------------------------------------------------------------------
    def stamp(self, line: int, t: int | float | str) -> None:
        self.times[line] = t

    def begin(self, state: GameState, header: GameStart) -> None:
        self.header = header
        self.turns_of = [0] * len(state.players)
        line = self.header_line
        self.events["game"].append((0, line, 0, 0, None, header.auto, None, None, None, None,
                                    None))

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        powers = self.powers
        if powers.open is not None and outcome.lapsed is not None:
            powers.close("passed", state.events - 1)
        row, rows = self._kinds[type(event)]
        rows.append(row(self, line, event, state, outcome))
        if state.phase == POWER and powers.open is None:
            powers.start(state)
        if self.calls.open is not None and outcome.round_ended is not None:
            self.calls.close(state)

    def end(self, state: GameState) -> None:
        if self.powers.open is not None:
            self.powers.close("lapsed", None)
        self.calls.end()   # a call in the round the log stops in: no outcome

    def result(self) -> RowCollector:
        return self

    # --- one handler per event type: its own columns -------------------------------------
    @own(Draw, "source")
    def _draw(self, e: Draw, g: GameState, out: Outcome) -> Own:
        r = g.round
        seat = r.current
        self.turns_of[seat] += 1
        # what the drawer knows of their row now is what they know when they place the card
        # (a face-up card is always known to everybody, so ``known`` says it all)
        self.before_replace = list(map(r.known.__getitem__, r.rows[seat]))
        return (e.source,)

    @own(Discard, "discarded", "earned")
    def _discard(self, e: Discard, g: GameState, out: Outcome) -> Own:
        return out.discarded, out.earned

    @own(Replace, "positions", "into", "end_side", "success", "penalty", "discarded", "earned",
         "row_delta", "known_chosen")
    def _replace(self, e: Replace, g: GameState, out: Outcome) -> Own:
        values_of = g.values_of
        assert out.card is not None
        if out.success:
            delta = values_of[out.card] - sum(map(values_of.__getitem__, out.discarded))
        else:
            penalty = values_of[out.penalty] if out.penalty is not None else 0
            delta = values_of[out.card] + penalty
        chosen = None
        known = self.before_replace
        if known is not None:
            bit = 1 << g.seat[e.player]
            chosen = 0
            for p in e.positions:
                if known[p] & bit:
                    chosen += 1
        return (e.positions, e.into, e.end, out.success, out.penalty, out.discarded or None,
                out.earned, delta, chosen)

    @own(Power, "power", "target_player", "target_position", "swap_player_a",
         "swap_position_a", "swap_player_b", "swap_position_b", "given", "received",
         "row_delta")
    def _power(self, e: Power, g: GameState, out: Outcome) -> Own:
        if e.cards is None:
            assert e.target is not None
            self.powers.peeked(e, g, out)
            return (e.power, *e.target, None, None, None, None, None, None, None)
        given, received = out.moved
        gain = None
        if out.places[0][0] == g.seat[e.player]:   # the user's own place comes first
            gain = g.values_of[given] - g.values_of[received]
        self.powers.swapped(e, g, out, gain)
        (sa, spa), (sb, spb) = e.cards
        return (e.power, None, None, sa, spa, sb, spb, given, received,
                -gain if gain is not None else None)

    @own(Skip)
    def _skip(self, e: Skip, g: GameState, out: Outcome) -> Own:
        if self.powers.open is not None:
            self.powers.close("skipped", g.events - 1)
        return ()

    @own(Cabo)
    def _cabo(self, e: Cabo, g: GameState, out: Outcome) -> Own:
        seat = g.round.caller
        self.turns_of[seat] += 1
        self.calls.start(g, out, self.turns_of[seat])
        return ()

    @own(Snap, "position", "success", "penalty", "discarded", "row_delta")
    def _snap(self, e: Snap, g: GameState, out: Outcome) -> Own:
        if out.success:
            delta = -g.values_of[out.card] if out.card is not None else 0
        else:
            delta = g.values_of[out.penalty] if out.penalty is not None else 0
        return e.position, out.success, out.penalty, out.discarded or None, delta

    @own(Deal, "first_player")
    def _deal(self, e: Deal, g: GameState, out: Outcome) -> Own:
        r = g.round
        codes, values = r.codes, r.values
        self.dealt[e.round] = {
            g.players[p]: ([codes[c] for c in r.rows[p]], sum(values[c] for c in r.rows[p]))
            for p in r.participants}
        self.turns_of = [0] * len(g.players)
        return (e.first,)

    @own(Peek, "positions")
    def _peek(self, e: Peek, g: GameState, out: Outcome) -> Own:
        return (e.positions,)

    @own(Reshuffle)
    def _reshuffle(self, e: Reshuffle, g: GameState, out: Outcome) -> Own:
        return ()

    @own(Forfeit, "reason", "discarded")
    def _forfeit(self, e: Forfeit, g: GameState, out: Outcome) -> Own:
        return e.reason, out.discarded or None

    @own(RoundEnd, "claim")
    def _round_end(self, e: RoundEnd, g: GameState, out: Outcome) -> Own:
        return (orjson.dumps({"round": e.round, "points": e.points}).decode(),)

    @own(GameEnd, "claim")
    def _game_end(self, e: GameEnd, g: GameState, out: Outcome) -> Own:
        return (orjson.dumps({"winners": e.winners, "scores": e.scores}).decode(),)


# event type -> the columns of its rows (the header is a ``game`` event with none of its own)
LAYOUTS: dict[str, tuple[str, ...]] = {
    GameStart.TYPE: COMMON,
    **{cls.TYPE: COMMON + columns for cls, (_, columns) in _DECLARED.items()}}


def _row(self: RowCollector, line: int, e: Any, g: GameState, out: Outcome,
         own: Callable[..., Own] = RowCollector._skip, played: bool = True) -> tuple[Any, ...]:
    """An ``events`` row: the ``COMMON`` columns, then the ``own`` handler's. Each event type
    gets a copy of this function with its own code object (``_ROW_OF``): the interpreter
    caches attribute lookups per code location, and a copy that only ever sees one event
    class (and its few outcome classes) keeps its caches, where one shared function would
    miss them on every other event. ``played``: the event type has a ``player``."""
    card = out.card
    r = g.round
    return (g.events - 1, line, r.round_no, r.turn, e.player if played else None, e.auto, card,
            g.values_of[card] if card is not None else None, len(r.deck),
            out.lapsed is not None or None, out.round_ended is not None or None,
            ) + own(self, e, g, out)


_ROW_OF: dict[type[Event], Callable[..., tuple[Any, ...]]] = {
    cls: FunctionType(_row.__code__.replace(), globals(), f"_row_{cls.TYPE}",
                      (getattr(RowCollector, name), hasattr(cls, "player")))
    for cls, (name, _) in _DECLARED.items()}


def _first_line(data: bytes) -> int:
    """The number of the first non-blank line (the header's)."""
    start = 0
    number = 1
    while True:
        end = data.find(b"\n", start)
        if end < 0 or data[start:end].strip():
            return number
        start = end + 1
        number += 1


def collect(data: bytes, source: str) -> tuple[ReplayResult, RowCollector]:
    """Replay one log with a ``RowCollector`` riding along."""
    rows = RowCollector(data)
    return replay_bytes(data, source, visitor=rows), rows
