"""The game-level rows of a replayed game, from its final state: ``games``, ``game_players``
and ``rounds``, each row a tuple in its table's column order (the layouts below, checked
against the schema when this module loads: a row is written once per game or round, and a
tuple costs a third of a dict by column name turned into one), and ``round_scores``, the
largest (a row per player and round), as machine values in byte buffers (``ScoreColumns``).

Compiled by the optional mypyc build (tools/build_compiled.py, ``APP_MODULES``): the loops
over rounds and players are then native, reading the engine's native state directly."""

from __future__ import annotations

from typing import Any

import orjson
from librt.strings import BytesWriter, write_i16_le, write_i32_le, write_i64_le

from cabo_log.db.open_rows import Names
from cabo_log.db.rows import RowCollector
from cabo_log.db.schema import COLUMNS
from engine import GameStart, GameState
from engine.state import RoundResult

# the column order each function below writes its tuples in
LAYOUTS: dict[str, tuple[str, ...]] = {
    "games": ("ruleset_spec", "options", "players", "n_players", "rounds", "complete",
              "winners", "forfeited", "events", "started_at", "source_file", "file_hash",
              "record"),
    "game_players": ("player", "seat", "name", "final_score", "rank", "won", "forfeited",
                     "rounds_played", "calls"),
    "rounds": ("round", "n_players", "first_player", "caller", "cabo_success", "end_reason",
               "turns", "reshuffles", "tiebreak", "special_holders", "resets"),
    "round_scores": ("round", "player", "seat", "order_in_round", "dealt", "dealt_total",
                     "hand", "hand_cards", "total", "points", "cumulative", "called",
                     "lowest_total", "special_hand", "reset"),
}
for _table, _layout in LAYOUTS.items():   # a schema change fails at import
    if _layout != COLUMNS[_table]:   # pragma: no cover
        raise AssertionError(f"{_table}: the rows' layout {_layout} is not the schema's")

Row = tuple[Any, ...]


def game_rows(g: GameState, rows: RowCollector, header: GameStart, source: str,
              file_hash: str, scores: ScoreColumns, base: int) -> dict[str, list[Row]]:
    """The games, game_players and rounds rows of one replayed game; its round_scores rows
    are written to ``scores`` (a chunk's), their strings as codes into the game's names
    (``rows.rows.names``) plus ``base`` (where the game's names begin in the chunk's)."""
    players = g.players
    spec = orjson.dumps(header.ruleset).decode() if isinstance(header.ruleset, dict) else None
    games = [(spec, orjson.dumps(header.options).decode(), list(players), len(players),
              len(g.rounds), g.complete, list(g.winners),
              [p for i, p in enumerate(players) if not g.active[i]], g.events,
              header.started_at, source, file_hash, "tally" if g.tally else "full")]
    played = [0] * len(players)
    calls = [0] * len(players)
    rounds: list[Row] = []
    game = rows.rows
    dealt = game.dealt
    names = game.names
    seat = g.seat
    for r in g.rounds:
        rounds.append((r.round, len(r.players), r.first, r.caller, r.cabo_success, r.end,
                       r.turns, r.reshuffles, r.tiebreak, list(r.special), list(r.resets)))
        _scores(r, dealt.get(r.round, {}), seat, names, base, scores, played, calls)
    return {"games": games, "game_players": _players(g, played, calls), "rounds": rounds}


class ScoreColumns:
    """The ``round_scores`` rows of many games, column by column as machine values in byte
    buffers (as ``open_rows.PowerColumns``): no tuple nor Python value per row, and ``chunk``
    hands the buffers to Arrow as they are. The strings are codes into the chunk's names
    (``chunk.Chunk.names``); a list column (``dealt``, ``hand``) is its cards' codes one row
    after the other and the offset where each row's list ends (``*_ends``, which begins with
    0: Arrow's offsets). ``dealt`` and ``dealt_total`` are NULL together (``has_dealt``)."""

    def __init__(self) -> None:
        self.round, self.player = BytesWriter(), BytesWriter()   # int32, code
        self.seat, self.order_in_round = BytesWriter(), BytesWriter()   # int16
        self.dealt, self.dealt_ends = BytesWriter(), BytesWriter()   # codes, int32 offsets
        self.has_dealt, self.dealt_total = BytesWriter(), BytesWriter()   # byte, int16
        self.hand, self.hand_ends = BytesWriter(), BytesWriter()   # codes, int32 offsets
        self.hand_cards, self.total = BytesWriter(), BytesWriter()   # int16, int32
        self.points, self.cumulative = BytesWriter(), BytesWriter()   # int64
        self.called, self.lowest_total = BytesWriter(), BytesWriter()   # bytes 0/1
        self.special_hand, self.reset = BytesWriter(), BytesWriter()   # bytes 0/1
        write_i32_le(self.dealt_ends, 0)
        write_i32_le(self.hand_ends, 0)

    def rows(self) -> int:
        """How many rows are written."""
        return len(self.called)


def _scores(r: RoundResult, dealt: dict[str, tuple[list[str], int]], seats: dict[str, int],
            names: Names, base: int, o: ScoreColumns, played: list[int], calls: list[int]
            ) -> None:
    """One row per player scored in round ``r`` (``LAYOUTS["round_scores"]``)."""
    order = list(r.players)
    start = order.index(r.first) if r.first in order else 0
    low = min(r.totals.values()) if r.totals else None
    caller = r.caller
    special, resets = r.special, r.resets
    totals, hands, cumulative = r.totals, r.hands, r.cumulative
    size = len(order)
    dealt_ends = len(o.dealt) // 4
    hand_ends = len(o.hand) // 4
    for player, points in r.points.items():
        seat = seats[player]
        called = player == caller
        played[seat] += 1
        if called:
            calls[seat] += 1
        write_i32_le(o.round, r.round)
        write_i32_le(o.player, base + names.code(player))
        write_i16_le(o.seat, seat)
        write_i16_le(o.order_in_round, (order.index(player) - start) % size)
        got = dealt.get(player)
        if got is None:
            o.has_dealt.append(0)
            write_i16_le(o.dealt_total, 0)
        else:
            cards, dealt_total = got
            for card in cards:
                write_i32_le(o.dealt, base + names.code(card))
            dealt_ends += len(cards)
            o.has_dealt.append(1)
            write_i16_le(o.dealt_total, dealt_total)
        write_i32_le(o.dealt_ends, dealt_ends)
        hand = hands[player]
        for card in hand:
            write_i32_le(o.hand, base + names.code(card))
        hand_ends += len(hand)
        write_i32_le(o.hand_ends, hand_ends)
        total = totals[player]
        write_i16_le(o.hand_cards, len(hand))
        write_i32_le(o.total, total)
        write_i64_le(o.points, points)
        write_i64_le(o.cumulative, cumulative[player])
        o.called.append(1 if called else 0)
        o.lowest_total.append(1 if total == low else 0)
        o.special_hand.append(1 if player in special else 0)
        o.reset.append(1 if player in resets else 0)


def _players(g: GameState, played: list[int], calls: list[int]) -> list[Row]:
    """One row per player of the match: final standing and counts
    (``LAYOUTS["game_players"]``)."""
    scores = g.cumulative
    standing = [scores[i] for i in range(len(g.players)) if g.active[i]]
    out: list[Row] = []
    for seat, player in enumerate(g.players):
        active = g.active[seat]
        name = g.names.get(player)
        out.append((player, seat, name if isinstance(name, str) else None, scores[seat],
                    1 + sum(1 for s in standing if s < scores[seat]) if active else None,
                    player in g.winners, not active, played[seat], calls[seat]))
    return out
