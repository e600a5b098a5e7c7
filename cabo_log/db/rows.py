"""Replay -> the rows of one game: ``RowCollector`` rides along a replay as a projector over
``(event, outcome)``; its ``GameRows`` keeps the ``events`` rows, the ``powers`` and
``cabo_calls`` rows (``open_rows``) and what the game-level rows need (``game_rows``);
``chunk`` turns the rows of many games into Arrow record batches.

The columns come from one place each (``row_layout``): every event has the ``COMMON`` columns,
and each event kind its own (``OWN``), which the handlers here append in that order. The
``COMMON`` values of an event are written as machine values into its kind's byte buffers
(``row_layout.Common``: ``chunk`` hands them to Arrow as they are, no Python object per value,
no conversion); its list columns (``row_layout.LISTED``: ``discarded``, ``positions``) are
machine values too (``row_layout.ListColumn``); its other own values are appended as one tuple
to its kind's flat list, whose columns ``chunk`` takes by a slice (``flat[j::width]``, in C).

This module is compiled by the optional mypyc build (tools/build_compiled.py, ``APP_MODULES``):
``GameRows`` is then a native class whose handlers read the engine's native state and outcome
directly, so the hot code is plainly typed (no ``**kwargs``, no lookups by name, the handler
chosen by comparing the event's class).
"""

from __future__ import annotations

import orjson
from librt.strings import write_i16_le, write_i32_le, write_i64_le

from cabo_log.db.open_rows import CallRows, Names, PowerRows
from cabo_log.db.row_layout import Common, ListColumn, Row, RowSink
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
from engine.state import POWER


class GameRows(EventProjector):
    """The rows of one game while it replays (the ``EventProjector`` of its ``RowCollector``:
    the replay calls its ``event`` natively). Each event kind's rows are written to its
    ``COMMON`` columns (``row_layout.Common``, attribute ``draws_c``...) and its own columns
    (one flat list, in the order of ``row_layout.OWN``, attribute ``draws``...), those of a
    ``sink`` (a chunk's; without one, a sink of the game's own), after the rows of the games
    before (``starts``)."""

    def __init__(self, sink: RowSink | None = None) -> None:
        if sink is None:
            sink = RowSink()
        else:
            sink.rollback()
        self.sink = sink
        # where this game's rows begin: each kind's rows, then the powers' values
        self.starts: list[int] = list(sink.committed_rows)
        # the ``CODED`` columns (and the powers' coded ones) hold numbers into these names
        self.names = Names()
        self.powers = PowerRows(self.names, sink.powers)
        self.calls = CallRows()
        self.dealt: dict[int, dict[str, tuple[list[str], int]]] = {}
        # the drawer's row at the draw: bit i set if they knew the card at position i (-1:
        # no draw seen yet)
        self.before_replace = -1
        self.turns_of: list[int] = []
        self.players: list[str] = []
        self.seat_codes: list[int] = []   # each seat's player's code in ``names``
        self.drawer = -1   # the seat of the turn's player (set by its draw)
        self.deck_code = 0   # the code of "deck" in ``names`` (0: not looked up yet)
        # a card's code in ``names`` and its value, found once per game
        self.cards: dict[str, tuple[int, int]] = {}
        (self.games, self.draws, self.discards, self.replaces, self.power_uses, self.skips,
         self.cabos, self.snaps, self.deals, self.peeks, self.reshuffles, self.forfeits,
         self.round_ends, self.game_ends) = sink.kinds
        # each kind's ``COMMON`` columns (``row_layout.Common``)
        (self.games_c, self.draws_c, self.discards_c, self.replaces_c, self.power_uses_c,
         self.skips_c, self.cabos_c, self.snaps_c, self.deals_c, self.peeks_c,
         self.reshuffles_c, self.forfeits_c, self.round_ends_c, self.game_ends_c) = sink.common
        # the list columns (``row_layout.LISTED``, in its order) and the codes of their cards
        (self.discard_discarded, self.replace_positions, self.replace_discarded,
         self.snap_discarded, self.peek_positions, self.forfeit_discarded) = sink.lists
        self.list_cards = sink.cards
        # the int16 columns of the kinds' own (``row_layout.NUMBERED``, in its order)
        (self.replace_into, self.replace_delta, self.replace_chosen, self.power_target,
         self.power_swap_a, self.power_swap_b, self.power_delta, self.snap_position,
         self.snap_delta) = sink.numbers

    def counts(self) -> list[int]:
        """How many rows this game wrote of each kind, then of ``powers``."""
        sink = self.sink
        return [n - start for n, start in zip(
            [*(common.rows() for common in sink.common), sink.powers.rows()], self.starts,
            strict=True)]

    def begin(self, state: GameState, header: GameStart, line: int) -> None:
        self.turns_of = [0] * len(state.players)
        self.players = list(state.players)
        # the players' codes are their seats + 1 (unless a name is repeated)
        self.seat_codes = [self.names.code(name) for name in state.players]
        c = self.games_c   # the header's row: only its line and auto are not NULL or 0
        write_i32_le(c.seq, 0)
        write_i64_le(c.line, line)
        write_i32_le(c.round, 0)
        write_i32_le(c.turn, 0)
        write_i32_le(c.player, 0)
        c.auto.append(1 if header.auto else 0)
        _no_card(c)
        write_i16_le(c.deck_left, 0)
        c.has_deck.append(0)
        c.implicit_skip.append(0)
        c.round_ended.append(0)

    def event(self, line: int, e: Event, g: GameState, out: Outcome) -> None:
        """The row of one applied event (``g`` is the state after it), and the open rows it
        opens or closes."""
        powers = self.powers
        if powers.open and out.lapsed is not None:
            powers.close("passed", g.events - 1)
        if isinstance(e, Draw):   # by frequency; compiled, each test is a type comparison
            seat = g.round.current
            self.drawer = seat
            self._common(self.draws_c, line, self._player(e.player, seat), e, g, out)
            self.draws.append(self._draw(e, g, seat))
        elif isinstance(e, Discard):
            self._common(self.discards_c, line, self._player(e.player, self.drawer), e, g, out)
            self.discard_discarded.cards(out.discarded, self.list_cards)
            self.discards.append(out.earned)
        elif isinstance(e, Replace):
            self._common(self.replaces_c, line, self._player(e.player, self.drawer), e, g, out)
            # (``+=``, not ``extend``: compiled, an in-place concat of the tuple, cheaper than
            # ``extend``'s slice assignment)
            self.replaces += self._replace(e, g, out)
            self.replace_positions.positions(e.positions)
            _cards_or_null(self.replace_discarded, out.discarded, self.list_cards)
        elif isinstance(e, Power):
            self._common(self.power_uses_c, line, self._player(e.player, self.drawer), e, g,
                         out)
            self.power_uses += self._power(e, g, out)
        elif isinstance(e, Skip):
            if powers.open:
                powers.close("skipped", g.events - 1)
            self._common(self.skips_c, line, self._player(e.player, self.drawer), e, g, out)
        else:
            self._rare(line, e, g, out)
        if not powers.open and g.phase is POWER:
            powers.start(g)
        if self.calls.open is not None and out.round_ended is not None:
            self.calls.close(g)

    def _rare(self, line: int, e: Event, g: GameState, out: Outcome) -> None:
        """The rows of the kinds that come once a turn at most."""
        if isinstance(e, Snap):
            self._common(self.snaps_c, line, self.names.code(e.player), e, g, out)
            self.snaps += self._snap(e, g, out)
            _cards_or_null(self.snap_discarded, out.discarded, self.list_cards)
        elif isinstance(e, Cabo):
            seat = g.round.caller
            turns = self.turns_of
            turns[seat] = turns[seat] + 1   # (not ``+=``: compiled, a generic in-place add)
            self.calls.start(g, out, turns[seat])
            self._common(self.cabos_c, line, self._player(e.player, seat), e, g, out)
        elif isinstance(e, Deal):
            self._deal(e, g)
            self._common(self.deals_c, line, 0, e, g, out)
            self.deals.append(e.first)
        elif isinstance(e, Peek):
            self._common(self.peeks_c, line, self.names.code(e.player), e, g, out)
            self.peek_positions.positions(e.positions)
        elif isinstance(e, Reshuffle):
            self._common(self.reshuffles_c, line, 0, e, g, out)
        elif isinstance(e, Forfeit):
            self._common(self.forfeits_c, line, self.names.code(e.player), e, g, out)
            self.forfeits.append(e.reason)
            _cards_or_null(self.forfeit_discarded, out.discarded, self.list_cards)
        elif isinstance(e, RoundEnd):
            self._common(self.round_ends_c, line, 0, e, g, out)
            self.round_ends.append(
                orjson.dumps({"round": e.round, "points": e.points}).decode())
        elif isinstance(e, GameEnd):
            self._common(self.game_ends_c, line, 0, e, g, out)
            self.game_ends.append(
                orjson.dumps({"winners": e.winners, "scores": e.scores}).decode())
        elif isinstance(e, Tally):
            # a score sheet's round: no event row (a sheet shows no turns), only its call;
            # games, game_players, rounds and round_scores come from the state (game_rows)
            self.calls.tallied(g)
        else:   # pragma: no cover - every event kind is handled above
            raise AssertionError(f"no rows for {type(e).__name__}")

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

    def _common(self, c: Common, line: int, player: int, e: Event, g: GameState,
                out: Outcome) -> None:
        """Write the ``COMMON`` columns of an event's row to its kind's buffers (``player``:
        the player's code, 0 for the kinds without). ``player`` and ``card`` are ``CODED``."""
        r = g.round
        write_i32_le(c.seq, g.events - 1)
        write_i64_le(c.line, line)
        write_i32_le(c.round, r.round_no)
        write_i32_le(c.turn, r.turn)
        write_i32_le(c.player, player)
        c.auto.append(1 if e.auto else 0)
        card = out.card
        if card is not None:
            known = self.cards.get(card)
            if known is None:   # the card's code and value, once per game
                known = self.cards[card] = (self.names.code(card), g.values_of[card])
            write_i32_le(c.card, known[0])
            write_i16_le(c.value, known[1])
            c.has_value.append(1)
        else:
            _no_card(c)
        write_i16_le(c.deck_left, len(r.deck))
        c.has_deck.append(1)
        c.implicit_skip.append(0 if out.lapsed is None else 1)
        c.round_ended.append(0 if out.round_ended is None else 1)

    # --- the handlers of the frequent kinds: their own columns ----------------------------
    def _draw(self, e: Draw, g: GameState, seat: int) -> int:
        r = g.round
        turns = self.turns_of
        turns[seat] = turns[seat] + 1   # (not ``+=``: compiled, a generic in-place add)
        # what the drawer knows of their row now is what they know when they place the card
        # (a face-up card is always known to everybody, so ``known`` says it all)
        # (one bit a position of the row, no list per draw)
        known = r.known
        bit = 1 << seat
        mask = 0
        position = 1
        for c in r.rows[seat]:
            if known[c] & bit:
                mask |= position
            position <<= 1
        self.before_replace = mask
        source = e.source
        if source == "deck":   # most draws: compared by value (the decoder's new str is not
            code = self.deck_code   # hashed yet), looked up once a game
            if code == 0:
                code = self.deck_code = self.names.code(source)
            return code
        return self.names.code(source)

    def _replace(self, e: Replace, g: GameState, out: Outcome) -> Row:
        """The own columns of a replace (its numbered ones written here)."""
        values_of = g.values_of
        card = out.card
        assert card is not None
        if out.success:
            delta = values_of[card]
            for code in out.discarded:
                delta -= values_of[code]
        else:
            penalty = values_of[out.penalty] if out.penalty is not None else 0
            delta = values_of[card] + penalty
        self.replace_into.optional(e.into)
        self.replace_delta.add(delta)
        known = self.before_replace
        if known >= 0:   # the turn's draw was seen (the drawer is the replacing player)
            count = 0
            for p in e.positions:
                count += (known >> p) & 1
            self.replace_chosen.add(count)
        else:
            self.replace_chosen.optional(None)
        return (e.end, out.success, out.penalty, out.earned)

    def _power(self, e: Power, g: GameState, out: Outcome) -> Row:
        """The own columns of a power's use (its numbered ones written here)."""
        cards = e.cards
        if cards is None:
            target = e.target
            assert target is not None
            self.powers.peeked(e, g, out)
            self.power_target.add(target[1])
            self.power_swap_a.optional(None)
            self.power_swap_b.optional(None)
            self.power_delta.optional(None)
            return (e.power, target[0], None, None, None, None)
        given, received = out.moved
        gain: int | None = None
        seat = self._seat(e.player, g)
        if out.places[0][0] == seat:   # the user's own place comes first
            gain = g.values_of[given] - g.values_of[received]
        self.powers.swapped(e, g, out, gain, seat)
        (sa, spa), (sb, spb) = cards
        self.power_target.optional(None)
        self.power_swap_a.add(spa)
        self.power_swap_b.add(spb)
        self.power_delta.optional(-gain if gain is not None else None)
        return (e.power, None, sa, sb, given, received)

    def _snap(self, e: Snap, g: GameState, out: Outcome) -> Row:
        """The own columns of a snap (its numbered ones written here)."""
        card = out.card
        penalty = out.penalty
        if out.success:
            delta = -g.values_of[card] if card is not None else 0
        else:
            delta = g.values_of[penalty] if penalty is not None else 0
        self.snap_position.add(e.position)
        self.snap_delta.add(delta)
        return out.success, penalty

    def _deal(self, e: Deal, g: GameState) -> None:
        r = g.round
        codes, values = r.codes, r.values
        dealt: dict[str, tuple[list[str], int]] = {}
        for p in r.participants:   # (one native loop a row: no builtin called by name)
            cards: list[str] = []
            total = 0
            for c in r.rows[p]:
                cards.append(codes[c])
                total += values[c]
            dealt[g.players[p]] = (cards, total)
        self.dealt[e.round] = dealt
        self.turns_of = [0] * len(g.players)


def _cards_or_null(column: ListColumn, cards: tuple[str, ...], names: Names) -> None:
    """A row of ``cards``, NULL when there are none (the columns whose empty list is NULL)."""
    if cards:
        column.cards(cards, names)
    else:
        column.null()


def _no_card(c: Common) -> None:
    """A row without a card: code 0, its value NULL."""
    write_i32_le(c.card, 0)
    write_i16_le(c.value, 0)
    c.has_value.append(0)




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
        if data is not None:
            self.header_line = _first_line(data)

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
    """Replay one log with a ``RowCollector`` riding along (appending to ``sink``'s lists when
    one is given: a chunk's, ``chunk.Chunk.sink``)."""
    rows = RowCollector(data, sink)
    return replay_bytes(data, source, visitor=rows), rows
