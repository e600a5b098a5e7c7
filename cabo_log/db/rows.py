"""Replay results -> rows: what the engine derived about a game, as Arrow record batches.

One ``RowCollector`` (a ``ReplayVisitor``) rides along a replay and keeps one tuple per event,
plus the powers and Cabo calls it sees; when the game has replayed, ``GameRows.finish`` adds
the game, player, round and score rows from the final ``GameState``. ``Chunk`` gathers the rows
of many games and turns them into one record batch per table (per event type for ``events``),
column by column: the rows are built as plain tuples in the replay loop and transposed once.

The table layouts (``SCHEMAS``) are defined here, next to the code that fills them; ``db``
derives its DDL from them and docs/schema.md documents them.
"""

from __future__ import annotations

from typing import Any

import orjson
import pyarrow as pa

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
from engine.knowledge import known_total
from engine.state import POWER

I16, I32, I64 = pa.int16(), pa.int32(), pa.int64()
STR, BOOL, F64 = pa.string(), pa.bool_(), pa.float64()
STRS, I16S = pa.list_(STR), pa.list_(I16)
GAME_KEY = pa.dictionary(I32, STR)   # game_id and ruleset: one value per game, repeated


def _schema(*cols: tuple[str, pa.DataType]) -> pa.Schema:
    return pa.schema([pa.field(name, kind) for name, kind in cols])


KEY = (("game_id", STR), ("ruleset", STR))

SCHEMAS: dict[str, pa.Schema] = {
    "games": _schema(
        *KEY, ("ruleset_spec", STR), ("options", STR), ("players", STRS), ("n_players", I16),
        ("rounds", I32), ("complete", BOOL), ("winners", STRS), ("forfeited", STRS),
        ("events", I32), ("started_at", STR), ("source_file", STR), ("file_hash", STR)),
    "game_players": _schema(
        *KEY, ("player", STR), ("seat", I16), ("name", STR), ("final_score", I64),
        ("rank", I16), ("won", BOOL), ("forfeited", BOOL), ("rounds_played", I32),
        ("calls", I32)),
    "rounds": _schema(
        *KEY, ("round", I32), ("n_players", I16), ("first_player", STR), ("caller", STR),
        ("cabo_success", BOOL), ("end_reason", STR), ("turns", I32), ("reshuffles", I32),
        ("tiebreak", BOOL), ("special_holders", STRS), ("resets", STRS)),
    "round_scores": _schema(
        *KEY, ("round", I32), ("player", STR), ("seat", I16), ("order_in_round", I16),
        ("dealt", STRS), ("dealt_total", I16), ("hand", STRS), ("hand_cards", I16),
        ("total", I32), ("points", I64), ("cumulative", I64), ("called", BOOL),
        ("lowest_total", BOOL), ("special_hand", BOOL), ("reset", BOOL)),
    "events": _schema(
        *KEY, ("seq", I32), ("line", I64), ("round", I32), ("turn", I32), ("player", STR),
        ("type", STR), ("auto", BOOL), ("t_ms", F64), ("t_iso", STR),
        # the event's own fields, flattened
        ("first_player", STR), ("source", STR), ("positions", I16S), ("position", I16),
        ("into", I16), ("end_side", STR), ("power", STR), ("target_player", STR),
        ("target_position", I16), ("swap_player_a", STR), ("swap_position_a", I16),
        ("swap_player_b", STR), ("swap_position_b", I16), ("reason", STR), ("claim", STR),
        # derived by the replay
        ("card", STR), ("value", I16), ("success", BOOL), ("penalty", STR),
        ("discarded", STRS), ("earned", STR), ("given", STR), ("received", STR),
        ("row_delta", I16), ("known_chosen", I16), ("deck_left", I16),
        ("implicit_skip", BOOL), ("round_ended", BOOL)),
    "powers": _schema(
        *KEY, ("round", I32), ("turn", I32), ("seq", I32), ("player", STR), ("card", STR),
        ("card_value", I16), ("power", STR), ("outcome", STR), ("used", BOOL),
        ("use_seq", I32), ("target_player", STR), ("target_position", I16), ("seen", STR),
        ("seen_value", I16), ("swap_player_a", STR), ("swap_position_a", I16),
        ("swap_player_b", STR), ("swap_position_b", I16), ("user_involved", BOOL),
        ("given", STR), ("given_value", I16), ("received", STR), ("received_value", I16),
        ("knew_given", BOOL), ("knew_received", BOOL), ("gain", I16)),
    "cabo_calls": _schema(
        *KEY, ("round", I32), ("seq", I32), ("turn", I32), ("caller_turn", I32),
        ("caller", STR), ("n_players", I16), ("hand_cards", I16), ("total_at_call", I16),
        ("known_cards", I16), ("known_total", I16), ("unknown_cards", I16),
        ("lowest_other_at_call", I16), ("total_at_end", I16), ("lowest_other_at_end", I16),
        ("success", BOOL), ("points", I64), ("special_round", BOOL),
        ("caller_forfeited", BOOL)),
}

GAME_TABLES: tuple[str, ...] = tuple(SCHEMAS)

# events: the columns every event has (after game_id/ruleset/type), then each type's own.
# ``t`` holds the raw timestamp and becomes t_ms or t_iso when the batch is built.
COMMON = ("seq", "line", "round", "turn", "player", "auto", "t", "card", "value", "deck_left",
          "implicit_skip", "round_ended")
EXTRA: dict[str, tuple[str, ...]] = {
    "game": (), "deal": ("first_player",), "peek": ("positions",), "draw": ("source",),
    "discard": ("discarded", "earned"),
    "replace": ("positions", "into", "end_side", "success", "penalty", "discarded", "earned",
                "row_delta", "known_chosen"),
    "power": ("power", "target_player", "target_position", "swap_player_a",
              "swap_position_a", "swap_player_b", "swap_position_b", "given", "received",
              "row_delta"),
    "skip": (), "cabo": (), "snap": ("position", "success", "penalty", "discarded", "row_delta"),
    "reshuffle": (), "forfeit": ("reason", "discarded"), "round_end": ("claim",),
    "game_end": ("claim",),
}
# the other tables: column order of the tuples (after game_id/ruleset)
ORDER: dict[str, tuple[str, ...]] = {
    name: tuple(f.name for f in schema)[2:] for name, schema in SCHEMAS.items()
    if name != "events"}
_POWER_ROW = dict.fromkeys(ORDER["powers"])
_CALL_ROW = dict.fromkeys(ORDER["cabo_calls"])


class RowCollector(ReplayVisitor["RowCollector"]):
    """Keeps the rows of one game while it replays (events, powers, Cabo calls).

    Runs once per event on the replay's hot path, so each event type has its own small
    handler that builds its row tuple in one go.
    """

    def __init__(self, data: bytes | None = None) -> None:
        self.events: dict[str, list[tuple[Any, ...]]] = {kind: [] for kind in EXTRA}
        self.powers: list[tuple[Any, ...]] = []
        self.calls: list[tuple[Any, ...]] = []
        self.dealt: dict[int, dict[str, tuple[list[str], int]]] = {}
        self.open_power: dict[str, Any] | None = None
        self.known_at_power: list[int] | None = None
        self.before_replace: list[int] | None = None    # the drawer's row: known bits
        self.turns_of: list[int] = []
        self.open_call: dict[str, Any] | None = None
        self.header: GameStart | None = None
        self.header_line = 1
        self.times: dict[int, Any] = {}
        if data is not None:
            self.header_line = _first_line(data)
            if b'"t"' in data:
                self.times = _times(data)
        ev = self.events
        self._draws, self._discards, self._replaces = ev["draw"], ev["discard"], ev["replace"]
        self._handlers: dict[type, Any] = {
            Draw: self._draw, Discard: self._discard, Replace: self._replace,
            Power: self._power, Skip: self._skip, Cabo: self._cabo, Snap: self._snap,
            Deal: self._deal, Peek: self._peek, Reshuffle: self._reshuffle,
            Forfeit: self._forfeit, RoundEnd: self._claim, GameEnd: self._claim}

    # --- hooks ---------------------------------------------------------------------------
    def begin(self, state: GameState, header: GameStart) -> None:
        self.header = header
        self.turns_of = [0] * len(state.players)
        line = self.header_line
        self.events["game"].append((0, line, 0, 0, None, header.auto, self.times.get(line),
                                    None, None, None, None, None))

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        eff = outcome
        if eff.lapsed is not None and self.open_power is not None:
            self._close_power("passed", state.events - 1)
        self._handlers[type(event)](line, event, state, eff)
        if state.phase == POWER and self.open_power is None:
            self._open_power(state)
        if eff.round_ended is not None and self.open_call is not None:
            self._close_call(state)

    def end(self, state: GameState) -> None:
        if self.open_power is not None:
            self._close_power("lapsed", None)
        if self.open_call is not None:   # a call in the round the log stops in: no outcome
            self.calls.append(tuple(self.open_call.values()))
            self.open_call = None

    def result(self) -> RowCollector:
        return self

    # --- one handler per event type --------------------------------------------------------
    def _draw(self, line: int, e: Draw, g: GameState, eff: Outcome) -> None:
        seat = g.round.current
        self.turns_of[seat] += 1
        # what the drawer knows of their row now is what they know when they place the card
        # (a face-up card is always known to everybody, so ``known`` says it all)
        self.before_replace = list(map(g.round.known.__getitem__, g.round.rows[seat]))
        card = eff.card
        assert card is not None
        self._draws.append((
            g.events - 1, line, g.round.round_no, g.round.turn, e.player, e.auto,
            self.times.get(line) if self.times else None, card, g.values_of[card],
            len(g.round.deck), eff.lapsed is not None or None, None, e.source))

    def _discard(self, line: int, e: Discard, g: GameState, eff: Outcome) -> None:
        card = eff.card
        assert card is not None
        self._discards.append((
            g.events - 1, line, g.round.round_no, g.round.turn, e.player, e.auto,
            self.times.get(line) if self.times else None, card, g.values_of[card],
            len(g.round.deck), None, True if eff.round_ended is not None else None,
            list(eff.discarded),
            g.round.pending_power if g.phase == POWER else None))

    def _replace(self, line: int, e: Replace, g: GameState, eff: Outcome) -> None:
        values_of = g.values_of
        card = eff.card
        assert card is not None
        drawn_value = values_of[card]
        if eff.success:
            delta = drawn_value - sum([values_of[c] for c in eff.discarded])
        else:
            delta = drawn_value + (values_of[eff.penalty] if eff.penalty is not None else 0)
        chosen = None
        known = self.before_replace
        if known is not None:
            bit = 1 << g.seat[e.player]
            chosen = 0
            for p in e.positions:
                if known[p] & bit:
                    chosen += 1
        self._replaces.append((
            g.events - 1, line, g.round.round_no, g.round.turn, e.player, e.auto,
            self.times.get(line) if self.times else None, eff.card, drawn_value, len(g.round.deck),
            eff.lapsed is not None or None, True if eff.round_ended is not None else None,
            list(e.positions), e.into,
            e.end, eff.success, eff.penalty, list(eff.discarded) or None,
            g.round.pending_power if g.phase == POWER else None, delta, chosen))

    def _common(self, line: int, e: Event, g: GameState, eff: Outcome) -> tuple[Any, ...]:
        return (g.events - 1, line, g.round.round_no, g.round.turn, getattr(e, "player", None),
                e.auto,
                self.times.get(line) if self.times else None, eff.card,
                g.values_of[eff.card] if eff.card is not None else None,
                len(g.round.deck), eff.lapsed is not None or None,
                True if eff.round_ended is not None else None)

    def _peek(self, line: int, e: Peek, g: GameState, eff: Outcome) -> None:
        self.events["peek"].append((*self._common(line, e, g, eff), list(e.positions)))

    def _skip(self, line: int, e: Skip, g: GameState, eff: Outcome) -> None:
        if self.open_power is not None:
            self._close_power("skipped", g.events - 1)
        self.events["skip"].append(self._common(line, e, g, eff))

    def _reshuffle(self, line: int, e: Reshuffle, g: GameState, eff: Outcome) -> None:
        self.events["reshuffle"].append(self._common(line, e, g, eff))

    def _forfeit(self, line: int, e: Forfeit, g: GameState, eff: Outcome) -> None:
        self.events["forfeit"].append((*self._common(line, e, g, eff), e.reason,
                                       list(eff.discarded) or None))

    def _claim(self, line: int, e: RoundEnd | GameEnd, g: GameState, eff: Outcome) -> None:
        if isinstance(e, RoundEnd):
            kind, claim = "round_end", {"round": e.round, "points": e.points}
        else:
            kind, claim = "game_end", {"winners": e.winners, "scores": e.scores}
        self.events[kind].append((*self._common(line, e, g, eff),
                                  orjson.dumps(claim).decode()))

    def _deal(self, line: int, e: Deal, g: GameState, eff: Outcome) -> None:
        self.events["deal"].append((*self._common(line, e, g, eff), e.first))
        codes, values = g.round.codes, g.round.values
        self.dealt[e.round] = {
            g.players[p]: ([codes[c] for c in g.round.rows[p]],
                           sum(values[c] for c in g.round.rows[p]))
            for p in g.round.participants}
        self.turns_of = [0] * len(g.players)

    def _snap(self, line: int, e: Snap, g: GameState, eff: Outcome) -> None:
        if eff.success:
            delta = -g.values_of[eff.card] if eff.card is not None else 0
        else:
            delta = g.values_of[eff.penalty] if eff.penalty is not None else 0
        self.events["snap"].append((*self._common(line, e, g, eff), e.position, eff.success,
                                    eff.penalty, list(eff.discarded) or None, delta))

    def _open_power(self, g: GameState) -> None:
        top = g.round.pile[-1]
        power = self.open_power = _POWER_ROW.copy()
        power["round"] = g.round.round_no
        power["turn"] = g.round.turn
        power["seq"] = g.events - 1
        power["player"] = g.players[g.round.current]
        power["card"] = g.round.codes[top]
        power["card_value"] = g.round.values[top]
        power["power"] = g.round.pending_power
        # what is known now is what the user knows when using the power (a swap on a final
        # turn ends the round, which reveals every hand before this visitor sees it)
        self.known_at_power = g.round.known[:]

    def _close_power(self, outcome: str, use_seq: int | None) -> None:
        power = self.open_power
        assert power is not None
        power["outcome"] = outcome
        power["used"] = outcome == "used"
        power["use_seq"] = use_seq
        self.powers.append(tuple(power.values()))
        self.open_power = None
        self.known_at_power = None

    def _power(self, line: int, e: Power, g: GameState, eff: Outcome) -> None:
        common = self._common(line, e, g, eff)
        power = self.open_power
        if e.cards is None:
            assert e.target is not None
            target_player, target_position = e.target
            self.events["power"].append((*common, e.power, target_player, target_position,
                                         None, None, None, None, None, None, None))
            if power is not None:
                power["target_player"] = target_player
                power["target_position"] = target_position
                power["seen"] = eff.card
                power["seen_value"] = g.values_of[eff.card] if eff.card is not None else None
                self._close_power("used", g.events - 1)
            return
        user = g.seat[e.player]
        (a, pos_a), (b, pos_b) = eff.places   # the user's own place first
        given, received = eff.moved
        involved = a == user
        values_of = g.values_of
        given_value = values_of[given]
        received_value = values_of[received]
        gain = None
        if involved:
            gain = given_value - received_value
        (sa, spa), (sb, spb) = e.cards
        self.events["power"].append((*common, e.power, None, None, sa, spa, sb, spb, given,
                                     received, -gain if gain is not None else None))
        if power is None:
            return
        if self.known_at_power is not None:
            known = self.known_at_power
            bit = 1 << user
            given_card = g.round.rows[b][pos_b]       # after the swap, what left a lies with b
            received_card = g.round.rows[a][pos_a]
            power["knew_given"] = bool(known[given_card] & bit)
            power["knew_received"] = bool(known[received_card] & bit)
        power.update(swap_player_a=sa, swap_position_a=spa, swap_player_b=sb,
                     swap_position_b=spb, user_involved=involved, given=given,
                     given_value=given_value, received=received,
                     received_value=received_value, gain=gain)
        self._close_power("used", g.events - 1)

    def _cabo(self, line: int, e: Cabo, g: GameState, eff: Outcome) -> None:
        self.events["cabo"].append(self._common(line, e, g, eff))
        seat = g.round.caller
        self.turns_of[seat] += 1
        others = [g.row_total(p) for p in g.active_participants() if p != seat]
        count: int | None = None
        total: int | None = None
        if eff.round_ended is None:
            count, total = known_total(g, seat)
        # else the round ended at once (no final turn was possible) and revealed every hand
        hand = len(g.round.rows[seat])
        call = self.open_call = _CALL_ROW.copy()
        call.update(
            round=g.round.round_no, seq=g.events - 1, turn=g.round.turn,
            caller_turn=self.turns_of[seat],
            caller=g.players[seat], n_players=len(g.round.participants), hand_cards=hand,
            total_at_call=g.row_total(seat), known_cards=count, known_total=total,
            unknown_cards=hand - count if count is not None else None,
            lowest_other_at_call=min(others) if others else None)

    def _close_call(self, g: GameState) -> None:
        call = self.open_call
        assert call is not None
        result = g.rounds[-1]
        caller = call["caller"]
        others = [v for p, v in result.totals.items() if p != caller]
        call.update(total_at_end=result.totals.get(caller),
                    lowest_other_at_end=min(others) if others else None,
                    success=result.cabo_success, points=result.points.get(caller),
                    special_round=bool(result.special),
                    caller_forfeited=caller not in result.totals)
        self.calls.append(tuple(call.values()))
        self.open_call = None


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


def _times(data: bytes) -> dict[int, Any]:
    """line number -> the raw ``t`` of that line (only for logs that carry timestamps)."""
    times: dict[int, Any] = {}
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue  # the replay reports it
        if isinstance(obj, dict) and "t" in obj:
            times[number] = obj["t"]
    return times


# --- game-level rows from the final state -------------------------------------------------------

def game_rows(g: GameState, rows: RowCollector, header: GameStart, source: str,
              file_hash: str) -> dict[str, list[tuple[Any, ...]]]:
    """The games, game_players, rounds and round_scores rows of one replayed game."""
    players = g.players
    forfeited = [p for i, p in enumerate(players) if not g.active[i]]
    spec = orjson.dumps(header.ruleset).decode() if isinstance(header.ruleset, dict) else None
    games = [(spec, orjson.dumps(header.options).decode(), list(players), len(players),
              len(g.rounds), g.complete, list(g.winners), forfeited, g.events,
              header.started_at, source, file_hash)]
    scores = g.cumulative
    standing = [scores[i] for i in range(len(players)) if g.active[i]]
    played = [0] * len(players)
    calls = [0] * len(players)
    rounds = []
    round_scores = []
    for r in g.rounds:
        rounds.append((r.round, len(r.players), r.first, r.caller, r.cabo_success, r.end,
                       r.turns, r.reshuffles, r.tiebreak, list(r.special), list(r.resets)))
        order = list(r.players)
        start = order.index(r.first) if r.first in order else 0
        low = min(r.totals.values()) if r.totals else None
        dealt = rows.dealt.get(r.round, {})
        for player, points in r.points.items():
            seat = g.seat[player]
            played[seat] += 1
            called = player == r.caller
            calls[seat] += called
            cards, dealt_total = dealt.get(player, (None, None))
            total = r.totals[player]
            round_scores.append((
                r.round, player, seat, (order.index(player) - start) % len(order), cards,
                dealt_total, r.hands[player], len(r.hands[player]), total, points,
                r.cumulative[player], called, total == low, player in r.special,
                player in r.resets))
    game_players = []
    for seat, player in enumerate(players):
        active = g.active[seat]
        rank = 1 + sum(1 for s in standing if s < scores[seat]) if active else None
        name = g.names.get(player)
        game_players.append((player, seat, name if isinstance(name, str) else None,
                             scores[seat], rank, player in g.winners, not active, played[seat],
                             calls[seat]))
    return {"games": games, "game_players": game_players, "rounds": rounds,
            "round_scores": round_scores}


def collect(data: bytes, source: str) -> tuple[ReplayResult, RowCollector]:
    """Replay one log with a ``RowCollector`` riding along."""
    rows = RowCollector(data)
    return replay_bytes(data, source, visitor=rows), rows


class Chunk:
    """The rows of many games, turned into one record batch per table in ``batches``.

    Rows are kept as the visitor made them; which game each belongs to is kept as a parallel
    column of game numbers (``game_id`` and ``ruleset`` become dictionary-encoded columns).
    """

    def __init__(self) -> None:
        self.game_ids: list[str] = []
        self.rulesets: list[str] = []
        self.tables: dict[str, list[tuple[Any, ...]]] = {
            name: [] for name in SCHEMAS if name != "events"}
        self.events: dict[str, list[tuple[Any, ...]]] = {kind: [] for kind in EXTRA}
        self.owner: dict[str, list[int]] = {name: [] for name in (*self.tables, *EXTRA)}

    def add(self, g: GameState, rows: RowCollector, source: str, file_hash: str) -> None:
        """Add the rows of a game that replayed without error."""
        header = rows.header
        assert header is not None
        index = len(self.game_ids)
        self.game_ids.append(g.game_id)
        self.rulesets.append(g.rules.name)
        owner = self.owner
        parts = game_rows(g, rows, header, source, file_hash)
        parts["powers"] = rows.powers
        parts["cabo_calls"] = rows.calls
        for name, items in parts.items():
            self.tables[name].extend(items)
            owner[name].extend([index] * len(items))
        for kind, items in rows.events.items():
            if items:
                self.events[kind].extend(items)
                owner[kind].extend([index] * len(items))

    def __len__(self) -> int:
        return len(self.game_ids)

    def batches(self) -> dict[str, list[pa.RecordBatch]]:
        """table -> record batches (several for ``events``: one per event type)."""
        ids = pa.array(self.game_ids, STR)
        rulesets = pa.array(self.rulesets, STR)
        out: dict[str, list[pa.RecordBatch]] = {}
        for name, rows in self.tables.items():
            if rows:
                out[name] = [_batch(name, ORDER[name], rows, self.owner[name], ids, rulesets)]
        events = []
        for kind, rows in self.events.items():
            if rows:
                events.append(_batch("events", COMMON + EXTRA[kind], rows, self.owner[kind],
                                     ids, rulesets, kind))
        if events:   # one batch: DuckDB appends a few large batches faster than many small
            out["events"] = pa.Table.from_batches(events).combine_chunks().to_batches()
        return out


# What crosses from a worker to the writer: game_id and ruleset dictionary-encoded.
WIRE: dict[str, pa.Schema] = {
    name: pa.schema([pa.field(f.name, GAME_KEY) if f.name in ("game_id", "ruleset") else f
                     for f in schema])
    for name, schema in SCHEMAS.items()}


def _batch(table: str, order: tuple[str, ...], rows: list[tuple[Any, ...]], owner: list[int],
           ids: pa.Array, rulesets: pa.Array, kind: str | None = None) -> pa.RecordBatch:
    """Rows (tuples in ``order``) -> a batch with every column of the table."""
    schema = WIRE[table]
    given: dict[str, Any] = dict(zip(order, zip(*rows, strict=True), strict=True))
    if "t" in given:
        given["t_ms"], given["t_iso"] = _split_times(given.pop("t"))
    index = pa.array(owner, I32)
    count = len(rows)
    arrays = []
    for field in schema:
        name = field.name
        if name == "game_id":
            arrays.append(pa.DictionaryArray.from_arrays(index, ids))
        elif name == "ruleset":
            arrays.append(pa.DictionaryArray.from_arrays(index, rulesets))
        elif name == "type":
            arrays.append(pa.repeat(pa.scalar(kind, STR), count))
        else:
            values = given.get(name)
            if values is None or values.count(None) == count:   # NULL throughout: no work
                arrays.append(pa.nulls(count, field.type))
            else:
                arrays.append(pa.array(values, field.type))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def _split_times(raw: tuple[Any, ...]) -> tuple[Any, Any]:
    """The raw ``t`` column -> (t_ms, t_iso); None for a column that would be all null."""
    if raw.count(None) == len(raw):
        return None, None
    ms = [float(t) if type(t) in (int, float) else None for t in raw]
    iso = [t if type(t) is str else None for t in raw]
    return ms, iso
