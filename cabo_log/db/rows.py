"""Replay -> the rows of one game: ``RowCollector`` rides along a replay as a projector over
``(event, outcome)``; its ``GameRows`` writes the ``events`` rows, the ``powers`` and
``cabo_calls`` rows (``open_rows``) and keeps what the game-level rows need (``game_rows``),
all into a chunk's ``row_sink.RowSink``: a typed table per event kind and per table, a
builder per column (``row_tables``, written from the schema). ``chunk`` turns them into Arrow.

``row_sink.EventHandlers`` (written from ``engine/spec.py``) hands each event to the handler
of its kind (``on_draw`` ...); each writes the row's ``COMMON`` columns (``_common``), then
its own.

This module is compiled in the compiled build (``APP_MODULES`` in setup.py): ``GameRows`` is
then a native class whose handlers read the engine's native state and outcome and write the
builders directly.
"""

from __future__ import annotations

import orjson

from cabo_log.db.game_cards import GameCards
from cabo_log.db.kinds import header_kinds
from cabo_log.db.open_rows import OpenCalls, OpenPowers
from cabo_log.db.row_sink import EventHandlers, RowSink
from cabo_log.db.row_tables import EventRows
from cabo_log.log.fastlines import EventProjector
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
    Tally,
)
from engine.vocabulary import POWER


class GameRows(EventHandlers):
    """The rows of one game while it replays (the ``EventProjector`` of its ``RowCollector``:
    the replay calls its ``event`` natively), written to ``sink`` (a chunk's; without one, a
    sink of the game's own) after the rows of the games before (``starts``)."""

    def __init__(self, sink: RowSink | None = None) -> None:
        if sink is None:
            sink = RowSink()
        else:
            sink.rollback()
        self.sink = sink
        # where this game's rows begin in each table of the sink
        self.starts: list[int] = list(sink.committed)
        self.names = sink.names
        self.powers = OpenPowers(sink.powers)
        self.calls = OpenCalls(sink.cabo_calls)
        self.dealt: dict[int, dict[str, tuple[list[str], int]]] = {}
        # the drawer's row at the draw: bit i set if they knew the card at position i (-1:
        # no draw seen yet)
        self.before_replace = -1
        self.turns_of: list[int] = []
        self.players: list[str] = []
        self.seat_codes: list[int] = []   # each seat's player's code in ``names``
        self.drawer = -1   # the seat of the turn's player (set by its draw)
        self.deck_code = 0   # the code of "deck" in ``names`` (0: not looked up yet)
        self.cards = GameCards(self.names)   # each card's code and value, found once

    def counts(self) -> list[int]:
        """How many rows this game wrote to each table of the sink (``row_layout.SINK``)."""
        return [table.rows() - start for table, start in zip(
            self.sink.tables(), self.starts, strict=True)]

    def begin(self, state: GameState, header: GameStart, line: int) -> None:
        self.turns_of = [0] * len(state.players)
        self.players = list(state.players)
        self.seat_codes = [self.names.code(name) for name in state.players]
        c = self.sink.game   # the header's row: only its line and auto are not NULL or 0
        c.seq.add(0)
        c.line.add(line)
        c.round.add(0)
        c.turn.add(0)
        c.player.null()
        c.auto.add(header.auto)
        c.card.null()
        c.value.null()
        c.deck_left.null()
        c.implicit_skip.null()
        c.round_ended.null()

    def event(self, line: int, e: Event, g: GameState, out: Outcome) -> None:
        """The row of one applied event (``g`` is the state after it), and the open rows it
        opens or closes."""
        powers = self.powers
        if powers.open and out.lapsed is not None:
            powers.close("passed", g.events - 1)
        self.dispatch(line, e, g, out)
        if not powers.open and g.phase is POWER:
            top = g.discard_top()
            assert top is not None
            seat = g.to_act()
            card, value = self.cards.find(top, g)
            powers.start(g, seat, self.seat_codes[seat], card, value)
        if self.calls.open and out.round_ended is not None:
            self.calls.close(g)

    def end(self) -> None:
        if self.powers.open:
            self.powers.close("lapsed", None)
        self.calls.end()   # a call in the round the log stops in: no outcome

    def _player(self, player: str, seat: int) -> int:
        """The code of ``player``, expected at ``seat``: compared by value there (no hash of a
        name the decoder has just made), looked up only when it is not."""
        if 0 <= seat < len(self.players) and self.players[seat] == player:
            return self.seat_codes[seat]
        return self.names.code(player)

    def _seat(self, player: str, g: GameState) -> int:
        """The seat of the turn's ``player`` (the drawer's, compared by value first)."""
        seat = self.drawer
        if 0 <= seat < len(self.players) and self.players[seat] == player:
            return seat
        return g.seat[player]

    def _common(self, c: EventRows, line: int, player: int, e: Event, g: GameState,
                out: Outcome) -> None:
        """Write the ``COMMON`` columns of an event's row (``player``: the player's code in
        ``names``, 0 for the kinds without)."""
        c.seq.add(g.events - 1)
        c.line.add(line)
        c.round.add(g.round_no())
        c.turn.add(g.turn())
        c.player.coded(player)
        c.auto.add(e.auto)
        card = out.card
        if card is not None:
            code, value = self.cards.find(card, g)
            c.card.coded(code)
            c.value.add(value)
        else:
            c.card.null()
            c.value.null()
        c.deck_left.add(g.deck_size())
        c.implicit_skip.true_or_null(out.lapsed is not None)
        c.round_ended.true_or_null(out.round_ended is not None)

    # --- each kind's rows, in ``engine/spec.py``'s order ------------------------------------
    def on_draw(self, line: int, e: Draw, g: GameState, out: Outcome) -> None:
        seat = g.to_act()
        self.drawer = seat
        rows = self.sink.draw
        self._common(rows, line, self._player(e.player, seat), e, g, out)
        turns = self.turns_of
        turns[seat] = turns[seat] + 1   # (not ``+=``: compiled, a generic in-place add)
        # what the drawer knows of their row now is what they know when they place the card
        # (one bit a position of the row, no list per draw)
        self.before_replace = g.knows_row(seat, seat)
        source = e.source
        if source == "deck":   # most draws: compared by value (the decoder's new str is not
            code = self.deck_code   # hashed yet), looked up once a game
            if code == 0:
                code = self.deck_code = self.names.code(source)
            rows.source.coded(code)
        else:
            rows.source.add(source)

    def on_discard(self, line: int, e: Discard, g: GameState, out: Outcome) -> None:
        rows = self.sink.discard
        self._common(rows, line, self._player(e.player, self.drawer), e, g, out)
        self.cards.write(rows.discarded, out.discarded, g)
        rows.earned.maybe(out.earned)

    def on_replace(self, line: int, e: Replace, g: GameState, out: Outcome) -> None:
        rows = self.sink.replace
        self._common(rows, line, self._player(e.player, self.drawer), e, g, out)
        card = out.card
        assert card is not None
        delta = self.cards.find(card, g)[1]   # (the card of the row's ``card`` column: cached)
        rows.positions.add(e.positions)
        rows.into.maybe(e.into)
        rows.end_side.maybe(e.end)
        rows.success.maybe(out.success)
        penalty = out.penalty
        if penalty is None:
            rows.penalty.null()
        else:
            code, value = self.cards.find(penalty, g)
            rows.penalty.coded(code)
            if not out.success:
                delta += value
        if out.discarded:
            total = self.cards.write(rows.discarded, out.discarded, g)
            if out.success:
                delta -= total
        else:
            rows.discarded.null()
        rows.earned.maybe(out.earned)
        rows.row_delta.add(delta)
        known = self.before_replace
        if known >= 0:   # the turn's draw was seen (the drawer is the replacing player)
            count = 0
            for p in e.positions:
                count += (known >> p) & 1
            rows.known_chosen.add(count)
        else:
            rows.known_chosen.null()

    def on_power(self, line: int, e: Power, g: GameState, out: Outcome) -> None:
        rows = self.sink.power
        self._common(rows, line, self._player(e.player, self.drawer), e, g, out)
        rows.power.add(e.power)
        cards = e.cards
        if cards is None:
            target = e.target
            assert target is not None
            player = self.names.code(target[0])   # (found once for this row and the power's)
            if self.powers.open:
                seen = out.card   # (the row's ``card``: its code and value are cached)
                code, value = self.cards.find(seen, g) if seen is not None else (0, 0)
                self.powers.peeked(g, player, target[1], code, value)
            rows.target_player.coded(player)
            rows.target_position.add(target[1])
            rows.swap_player_a.null()
            rows.swap_player_b.null()
            rows.given.null()
            rows.received.null()
            rows.swap_position_a.null()
            rows.swap_position_b.null()
            rows.row_delta.null()
            return
        given, received = out.moved
        gave = self.cards.find(given, g)
        got = self.cards.find(received, g)
        gain: int | None = None
        seat = self._seat(e.player, g)
        if out.places[0][0] == seat:   # the user's own place comes first
            gain = gave[1] - got[1]
        (sa, spa), (sb, spb) = cards
        players = (self.names.code(sa), self.names.code(sb))
        self.powers.swapped(e, g, out, gain, seat, players, gave, got)
        rows.target_player.null()
        rows.target_position.null()
        rows.swap_player_a.coded(players[0])
        rows.swap_position_a.add(spa)
        rows.swap_player_b.coded(players[1])
        rows.swap_position_b.add(spb)
        rows.given.coded(gave[0])
        rows.received.coded(got[0])
        rows.row_delta.maybe(-gain if gain is not None else None)

    def on_skip(self, line: int, e: Skip, g: GameState, out: Outcome) -> None:
        if self.powers.open:
            self.powers.close("skipped", g.events - 1)
        self._common(self.sink.skip, line, self._player(e.player, self.drawer), e, g, out)

    def on_cabo(self, line: int, e: Cabo, g: GameState, out: Outcome) -> None:
        seat = g.caller()
        turns = self.turns_of
        turns[seat] = turns[seat] + 1
        self.calls.start(g, out, turns[seat])
        self._common(self.sink.cabo, line, self._player(e.player, seat), e, g, out)

    def on_snap(self, line: int, e: Snap, g: GameState, out: Outcome) -> None:
        rows = self.sink.snap
        self._common(rows, line, self.names.code(e.player), e, g, out)
        card = out.card
        penalty = out.penalty
        if out.success:
            delta = -g.value_of(card) if card is not None else 0
        else:
            delta = g.value_of(penalty) if penalty is not None else 0
        rows.position.add(e.position)
        rows.success.maybe(out.success)
        rows.penalty.maybe(penalty)
        rows.discarded.nonempty(out.discarded)
        rows.row_delta.add(delta)

    def on_deal(self, line: int, e: Deal, g: GameState, out: Outcome) -> None:
        dealt: dict[str, tuple[list[str], int]] = {}
        for p in g.participants():
            dealt[g.players[p]] = (g.row_codes(p), g.row_total(p))
        self.dealt[e.round] = dealt
        self.turns_of = [0] * len(g.players)
        rows = self.sink.deal
        self._common(rows, line, 0, e, g, out)
        rows.first_player.add(e.first)

    def on_peek(self, line: int, e: Peek, g: GameState, out: Outcome) -> None:
        rows = self.sink.peek
        self._common(rows, line, self.names.code(e.player), e, g, out)
        rows.positions.add(e.positions)

    def on_reshuffle(self, line: int, e: Reshuffle, g: GameState, out: Outcome) -> None:
        self._common(self.sink.reshuffle, line, 0, e, g, out)

    def on_forfeit(self, line: int, e: Forfeit, g: GameState, out: Outcome) -> None:
        rows = self.sink.forfeit
        self._common(rows, line, self.names.code(e.player), e, g, out)
        rows.reason.maybe(e.reason)
        rows.discarded.nonempty(out.discarded)

    def on_round_end(self, line: int, e: RoundEnd, g: GameState, out: Outcome) -> None:
        rows = self.sink.round_end
        self._common(rows, line, 0, e, g, out)
        rows.claim.add(orjson.dumps({"round": e.round, "points": e.points}).decode())

    def on_game_end(self, line: int, e: GameEnd, g: GameState, out: Outcome) -> None:
        rows = self.sink.game_end
        self._common(rows, line, 0, e, g, out)
        rows.claim.add(orjson.dumps({"winners": e.winners, "scores": e.scores}).decode())

    def on_tally(self, line: int, e: Tally, g: GameState, out: Outcome) -> None:
        # a score sheet's round: no event row (a sheet shows no turns), only its call;
        # games, game_players, rounds and round_scores come from the state (game_rows)
        self.calls.tallied(g)


class RowCollector(ReplayVisitor["RowCollector"]):
    """The visitor a load replays each log with: its rows are in ``rows`` (``GameRows``), the
    header and the raw ``t`` of each line that has one here."""

    def __init__(self, data: bytes | None = None, sink: RowSink | None = None) -> None:
        self.rows = GameRows(sink)
        # what the replay calls instead of ``event`` (``fastlines.projector_of``): the rows'
        # own, unless a subclass has an ``event`` of its own
        self.projector: EventProjector | None = (
            self.rows if type(self).event is RowCollector.event else None)
        self.header: GameStart | None = None
        self.header_line = 1
        self.times: dict[int, int | float | str] = {}   # line -> its raw ``t`` (``stamp``)
        self.kinds: dict[str, str] = {}   # player -> kind, from the header (``kinds``)
        if data is not None:
            self.header_line = _first_line(data)
            self.kinds = header_kinds(data)

    def stamp(self, line: int, t: int | float | str) -> None:
        self.times[line] = t

    def begin(self, state: GameState, header: GameStart) -> None:
        self.header = header
        self.rows.begin(state, header, self.header_line)

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        self.rows.event(line, event, state, outcome)

    def end(self, state: GameState) -> None:
        self.rows.end()

    def result(self) -> RowCollector:
        return self


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


def collect(data: bytes, source: str, sink: RowSink | None = None
            ) -> tuple[ReplayResult, RowCollector]:
    """Replay one log with a ``RowCollector`` riding along (writing to ``sink`` when one is
    given: a chunk's, ``chunk.Chunk.sink``; else a sink of its own)."""
    rows = RowCollector(data, sink)
    return replay_bytes(data, source, visitor=rows), rows
