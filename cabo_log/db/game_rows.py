"""The game-level rows of a replayed game, from its final state: ``games``, ``game_players``,
``rounds`` and ``round_scores`` (a row per player and round), written into a chunk's
``row_sink.RowSink`` like the rows of its events.

Compiled in the compiled build (``APP_MODULES`` in setup.py): the loops over rounds and players
are then native, reading the engine's native state directly."""

from __future__ import annotations

import orjson

from cabo_log.db.row_sink import RowSink
from cabo_log.db.row_tables import RoundScoresRows
from cabo_log.db.rows import RowCollector
from engine import GameStart, GameState
from engine.results import RoundResult


def game_rows(g: GameState, rows: RowCollector, header: GameStart, source: str,
              file_hash: str, sink: RowSink) -> None:
    """Write the games, game_players, rounds and round_scores rows of one replayed game."""
    players = g.players
    o = sink.games
    o.ruleset_spec.maybe(orjson.dumps(header.ruleset).decode()
                         if isinstance(header.ruleset, dict) else None)
    o.options.add(orjson.dumps(header.options).decode())
    o.players.add(players)
    o.n_players.add(len(players))
    o.rounds.add(len(g.rounds))
    o.complete.add(g.complete)
    o.winners.add(g.winners)
    o.forfeited.add_list([p for i, p in enumerate(players) if not g.active[i]])
    o.events.add(g.events)
    o.started_at.maybe(header.started_at)
    o.source_file.add(source)
    o.file_hash.add(file_hash)
    o.record.add("tally" if g.tally else "full")
    played = [0] * len(players)
    calls = [0] * len(players)
    dealt = rows.rows.dealt
    seat = g.seat
    codes = rows.rows.seat_codes   # each seat's player's code in the chunk's names
    r_out = sink.rounds
    for r in g.rounds:
        r_out.round.add(r.round)
        r_out.n_players.add(len(r.players))
        r_out.first_player.maybe(r.first)
        r_out.caller.maybe(r.caller)
        r_out.cabo_success.maybe(r.cabo_success)
        r_out.end_reason.maybe(r.end)
        r_out.turns.add(r.turns)
        r_out.reshuffles.add(r.reshuffles)
        r_out.tiebreak.maybe(r.tiebreak)
        r_out.special_holders.add(r.special)
        r_out.resets.add(r.resets)
        _scores(r, dealt.get(r.round, {}), seat, codes, sink.round_scores, played, calls)
    _players(g, played, calls, codes, rows.kinds, sink)


def _scores(r: RoundResult, dealt: dict[str, tuple[list[str], int]], seats: dict[str, int],
            codes: list[int], o: RoundScoresRows, played: list[int], calls: list[int]) -> None:
    """One row per player scored in round ``r``."""
    order = list(r.players)
    start = order.index(r.first) if r.first in order else 0
    low = min(r.totals.values()) if r.totals else None
    caller = r.caller
    special, resets = r.special, r.resets
    totals, hands, cumulative = r.totals, r.hands, r.cumulative
    size = len(order)
    for player, points in r.points.items():
        seat = seats[player]
        called = player == caller
        played[seat] += 1
        if called:
            calls[seat] += 1
        o.round.add(r.round)
        o.player.coded(codes[seat])
        o.seat.add(seat)
        o.order_in_round.add((order.index(player) - start) % size)
        got = dealt.get(player)
        if got is None:
            o.dealt.null()
            o.dealt_total.null()
        else:
            o.dealt.add_list(got[0])
            o.dealt_total.add(got[1])
        hand = hands[player]
        total = totals[player]
        o.hand.add_list(hand)
        o.hand_cards.add(len(hand))
        o.total.add(total)
        o.points.add(points)
        o.cumulative.add(cumulative[player])
        o.called.add(called)
        o.lowest_total.add(total == low)
        o.special_hand.add(player in special)
        o.reset.add(player in resets)


def _players(g: GameState, played: list[int], calls: list[int], codes: list[int],
             kinds: dict[str, str], sink: RowSink) -> None:
    """One row per player of the match: final standing, counts and kind (``kinds``: from
    the header, ``cabo_log.db.kinds``)."""
    scores = g.cumulative
    standing = [scores[i] for i in range(len(g.players)) if g.active[i]]
    o = sink.game_players
    for seat, player in enumerate(g.players):
        active = g.active[seat]
        name = g.names.get(player)
        o.player.coded(codes[seat])
        o.seat.add(seat)
        o.name.maybe(name if isinstance(name, str) else None)
        o.final_score.add(scores[seat])
        o.rank.maybe(1 + sum(1 for s in standing if s < scores[seat]) if active else None)
        o.won.add(player in g.winners)
        o.forfeited.add(not active)
        o.rounds_played.add(played[seat])
        o.calls.add(calls[seat])
        o.kind.maybe(kinds.get(player))
