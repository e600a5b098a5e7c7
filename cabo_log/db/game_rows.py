"""The game-level rows of a replayed game, from its final state: ``games``, ``game_players``,
``rounds`` and ``round_scores``, each row written by column name and kept as a tuple in its
table's column order (``open_rows.as_row``)."""

from __future__ import annotations

from typing import Any

import orjson

from cabo_log.db.open_rows import Row, as_row
from cabo_log.db.rows import RowCollector
from engine import GameStart, GameState
from engine.state import RoundResult


def game_rows(g: GameState, rows: RowCollector, header: GameStart, source: str,
              file_hash: str) -> dict[str, list[tuple[Any, ...]]]:
    """The games, game_players, rounds and round_scores rows of one replayed game."""
    players = g.players
    spec = orjson.dumps(header.ruleset).decode() if isinstance(header.ruleset, dict) else None
    games = [{"ruleset_spec": spec, "options": orjson.dumps(header.options).decode(),
              "players": list(players), "n_players": len(players), "rounds": len(g.rounds),
              "complete": g.complete, "winners": list(g.winners),
              "forfeited": [p for i, p in enumerate(players) if not g.active[i]],
              "events": g.events, "started_at": header.started_at, "source_file": source,
              "file_hash": file_hash}]
    played = [0] * len(players)
    calls = [0] * len(players)
    rounds = []
    round_scores: list[Row] = []
    for r in g.rounds:
        rounds.append({
            "round": r.round, "n_players": len(r.players), "first_player": r.first,
            "caller": r.caller, "cabo_success": r.cabo_success, "end_reason": r.end,
            "turns": r.turns, "reshuffles": r.reshuffles, "tiebreak": r.tiebreak,
            "special_holders": list(r.special), "resets": list(r.resets)})
        scores = _scores(g, r, rows.rows.dealt.get(r.round, {}))
        for row in scores:
            seat = row["seat"]
            played[seat] += 1
            calls[seat] += row["called"]
        round_scores.extend(scores)
    named = {"games": games, "game_players": _players(g, played, calls), "rounds": rounds,
             "round_scores": round_scores}
    return {table: [as_row(table, row) for row in rows] for table, rows in named.items()}


def _scores(g: GameState, r: RoundResult, dealt: dict[str, tuple[list[str], int]]
            ) -> list[Row]:
    """One row per player scored in round ``r``."""
    order = list(r.players)
    start = order.index(r.first) if r.first in order else 0
    low = min(r.totals.values()) if r.totals else None
    out = []
    for player, points in r.points.items():
        cards, dealt_total = dealt.get(player, (None, None))
        total = r.totals[player]
        out.append({
            "round": r.round, "player": player, "seat": g.seat[player],
            "order_in_round": (order.index(player) - start) % len(order), "dealt": cards,
            "dealt_total": dealt_total, "hand": r.hands[player],
            "hand_cards": len(r.hands[player]), "total": total, "points": points,
            "cumulative": r.cumulative[player], "called": player == r.caller,
            "lowest_total": total == low, "special_hand": player in r.special,
            "reset": player in r.resets})
    return out


def _players(g: GameState, played: list[int], calls: list[int]) -> list[Row]:
    """One row per player of the match: final standing and counts."""
    scores = g.cumulative
    standing = [scores[i] for i in range(len(g.players)) if g.active[i]]
    out = []
    for seat, player in enumerate(g.players):
        active = g.active[seat]
        name = g.names.get(player)
        out.append({
            "player": player, "seat": seat, "name": name if isinstance(name, str) else None,
            "final_score": scores[seat],
            "rank": 1 + sum(1 for s in standing if s < scores[seat]) if active else None,
            "won": player in g.winners, "forfeited": not active,
            "rounds_played": played[seat], "calls": calls[seat]})
    return out
