"""The game-level rows of a replayed game, from its final state: ``games``, ``game_players``,
``rounds`` and ``round_scores``, each row a tuple in its table's column order (the layouts
below, checked against the schema when this module loads: a row is written once per game or
round, and a tuple costs a third of a dict by column name turned into one)."""

from __future__ import annotations

from typing import Any

import orjson

from cabo_log.db.rows import RowCollector
from cabo_log.db.schema import COLUMNS
from engine import GameStart, GameState
from engine.state import RoundResult

# the column order each function below writes its tuples in
LAYOUTS: dict[str, tuple[str, ...]] = {
    "games": ("ruleset_spec", "options", "players", "n_players", "rounds", "complete",
              "winners", "forfeited", "events", "started_at", "source_file", "file_hash"),
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
              file_hash: str) -> dict[str, list[Row]]:
    """The games, game_players, rounds and round_scores rows of one replayed game."""
    players = g.players
    spec = orjson.dumps(header.ruleset).decode() if isinstance(header.ruleset, dict) else None
    games = [(spec, orjson.dumps(header.options).decode(), list(players), len(players),
              len(g.rounds), g.complete, list(g.winners),
              [p for i, p in enumerate(players) if not g.active[i]], g.events,
              header.started_at, source, file_hash)]
    played = [0] * len(players)
    calls = [0] * len(players)
    rounds: list[Row] = []
    round_scores: list[Row] = []
    dealt = rows.rows.dealt
    for r in g.rounds:
        rounds.append((r.round, len(r.players), r.first, r.caller, r.cabo_success, r.end,
                       r.turns, r.reshuffles, r.tiebreak, list(r.special), list(r.resets)))
        scores = _scores(g, r, dealt.get(r.round, {}))
        for row in scores:
            seat = row[2]
            played[seat] += 1
            calls[seat] += row[11]
        round_scores.extend(scores)
    return {"games": games, "game_players": _players(g, played, calls), "rounds": rounds,
            "round_scores": round_scores}


def _scores(g: GameState, r: RoundResult, dealt: dict[str, tuple[list[str], int]]
            ) -> list[Row]:
    """One row per player scored in round ``r`` (``LAYOUTS["round_scores"]``)."""
    order = list(r.players)
    start = order.index(r.first) if r.first in order else 0
    low = min(r.totals.values()) if r.totals else None
    out: list[Row] = []
    for player, points in r.points.items():
        cards, dealt_total = dealt.get(player, (None, None))
        total = r.totals[player]
        hand = r.hands[player]
        out.append((r.round, player, g.seat[player],
                    (order.index(player) - start) % len(order), cards, dealt_total, hand,
                    len(hand), total, points, r.cumulative[player], player == r.caller,
                    total == low, player in r.special, player in r.resets))
    return out


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
