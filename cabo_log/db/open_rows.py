"""Rows that stay open across events: a power from the event that earned it until it is used,
skipped, passed or lapses; a Cabo call until its round is scored.

A row is written column by column into its table's builders (``row_tables.PowersRows``,
``CaboCallsRows``): the columns known when it opens at once, the others when it closes (a
game's rows that are not kept drop a half-written row with the rest). Used by
``rows.GameRows``.
"""

from __future__ import annotations

from cabo_log.db.row_tables import CaboCallsRows, PowersRows
from engine import GameState, Outcome
from engine.events import Power
from engine.knowledge import known_total
from engine.vocabulary import SWAP


class OpenPowers:
    """The ``powers`` rows of one game, written to ``out``: the columns known when the power
    is earned (``start``), the rest when it closes (``close``, ``peeked``, ``swapped``)."""

    def __init__(self, out: PowersRows) -> None:
        self.out = out
        self.open = False   # a row is started and not closed
        # what the user knew of each row when the power was earned: by seat, bit i set where
        # they knew the card at position i (``GameState.knows_row``)
        self.known: list[int] | None = None

    def start(self, g: GameState, seat: int, player: int, card: int, value: int) -> None:
        """A power is pending (``g.phase`` is POWER) and was not seen before: earned by the
        player at ``seat`` (``player`` their code in the chunk's names) with the card on the
        discard pile (``card`` its code, ``value`` its value)."""
        power = g.pending_power()
        assert power is not None
        o = self.out
        o.round.add(g.round_no())
        o.turn.add(g.turn())
        o.seq.add(g.events - 1)
        o.player.coded(player)
        o.card.coded(card)
        o.card_value.add(value)
        o.power.add(power)
        self.open = True
        # what the user knows now of every place is what they know when using the power (a
        # swap on a final turn ends the round, which reveals every hand before the visitor
        # sees it; nothing moves in between); only a swap reads it (``knew_given``,
        # ``knew_received``)
        self.known = ([g.knows_row(seat, p) for p in range(len(g.players))]
                      if power == SWAP else None)

    def close(self, outcome: str, use_seq: int | None) -> None:
        """``skipped``, ``passed`` (the next turn began) or ``lapsed`` (log ended): unused."""
        o = self.out
        self._end(outcome, False, use_seq)
        o.target_player.null()
        o.target_position.null()
        o.seen.null()
        o.seen_value.null()
        self._no_swap()

    def _end(self, outcome: str, used: bool, use_seq: int | None) -> None:
        """How the open row ended."""
        o = self.out
        o.outcome.add(outcome)
        o.used.add(used)
        o.use_seq.maybe(use_seq)
        self.open = False
        self.known = None

    def _no_swap(self) -> None:
        """The swap columns of a row without a swap: NULL."""
        o = self.out
        o.swap_player_a.null()
        o.swap_position_a.null()
        o.swap_player_b.null()
        o.swap_position_b.null()
        o.user_involved.null()
        o.given.null()
        o.given_value.null()
        o.received.null()
        o.received_value.null()
        o.knew_given.null()
        o.knew_received.null()
        o.gain.null()

    def peeked(self, g: GameState, player: int, position: int, seen: int, value: int
               ) -> None:
        """A peek or spy used the open power (``player``, ``position``: its target, the
        player's code in the chunk's names; ``seen``, ``value``: the code and value of the card
        seen, code 0 where none was)."""
        o = self.out
        self._end("used", True, g.events - 1)
        o.target_player.coded(player)
        o.target_position.add(position)
        if seen == 0:
            o.seen.null()
            o.seen_value.null()
        else:
            o.seen.coded(seen)
            o.seen_value.add(value)
        self._no_swap()

    def swapped(self, e: Power, g: GameState, out: Outcome, gain: int | None, seat: int,
                players: tuple[int, int], given: tuple[int, int], received: tuple[int, int]
                ) -> None:
        """A swap used the open power (by the player at ``seat``); ``out.places`` has the
        user's own place first. ``players``: the codes of the two players named, ``given``
        and ``received``: the code and value of each card moved."""
        if not self.open:
            return
        cards = e.cards
        assert cards is not None
        (a, pos_a), (b, pos_b) = out.places
        knew_given: bool | None = None
        knew_received: bool | None = None
        known = self.known
        if known is not None:   # the card given left a's place, the one received b's
            knew_given = bool(known[a] >> pos_a & 1)
            knew_received = bool(known[b] >> pos_b & 1)
        (_, position_a), (_, position_b) = cards
        o = self.out
        self._end("used", True, g.events - 1)
        o.target_player.null()
        o.target_position.null()
        o.seen.null()
        o.seen_value.null()
        o.swap_player_a.coded(players[0])
        o.swap_position_a.add(position_a)
        o.swap_player_b.coded(players[1])
        o.swap_position_b.add(position_b)
        o.user_involved.add(a == seat)
        o.given.coded(given[0])
        o.given_value.add(given[1])
        o.received.coded(received[0])
        o.received_value.add(received[1])
        o.knew_given.maybe(knew_given)
        o.knew_received.maybe(knew_received)
        o.gain.maybe(gain)


class OpenCalls:
    """The ``cabo_calls`` rows of one game, written to ``out``: the columns known at the call
    when it is made (``start``), how its round ended when it is scored (``close``; NULL if
    the log stops first, ``end``)."""

    def __init__(self, out: CaboCallsRows) -> None:
        self.out = out
        self.open = False   # a call's row is started and not closed
        self.caller = ""

    def start(self, g: GameState, out: Outcome, caller_turn: int) -> None:
        """A Cabo call (``g`` is the state after it)."""
        seat = g.caller()
        others = [g.row_total(p) for p in g.active_participants() if p != seat]
        count: int | None = None
        total: int | None = None
        if out.round_ended is None:
            count, total = known_total(g, seat)
        # else the round ended at once (no final turn was possible) and revealed every hand
        hand = g.row_size(seat)
        self.caller = g.players[seat]
        o = self.out
        o.round.add(g.round_no())
        o.seq.add(g.events - 1)
        o.turn.add(g.turn())
        o.caller_turn.add(caller_turn)
        o.caller.add(self.caller)
        o.n_players.add(len(g.participants()))
        o.hand_cards.add(hand)
        o.total_at_call.add(g.row_total(seat))
        o.known_cards.maybe(count)
        o.known_total.maybe(total)
        o.unknown_cards.maybe(hand - count if count is not None else None)
        o.lowest_other_at_call.maybe(min(others) if others else None)
        self.open = True

    def close(self, g: GameState) -> None:
        """The round of the open call was scored."""
        result = g.rounds[-1]
        caller = self.caller
        totals = result.totals
        others = [v for p, v in totals.items() if p != caller]
        self._end(totals.get(caller), min(others) if others else None, result.cabo_success,
                  result.points.get(caller), bool(result.special), caller not in totals)

    def _end(self, total: int | None, lowest: int | None, success: bool | None,
             points: int | None, special: bool | None, forfeited: bool | None) -> None:
        """How the open call's round ended."""
        o = self.out
        o.total_at_end.maybe(total)
        o.lowest_other_at_end.maybe(lowest)
        o.success.maybe(success)
        o.points.maybe(points)
        o.special_round.maybe(special)
        o.caller_forfeited.maybe(forfeited)
        self.open = False

    def tallied(self, g: GameState) -> None:
        """The call of a score sheet's round (``g`` is the state after its ``tally`` line):
        what the sheet shows is the end of the round, so the columns of the moment of the
        call (its turn, the hand then, what the caller knew) are NULL."""
        result = g.rounds[-1]
        caller = result.caller
        if caller is None:
            return
        o = self.out
        o.round.add(result.round)
        o.seq.add(g.events - 1)
        o.turn.null()
        o.caller_turn.null()
        o.caller.add(caller)
        o.n_players.add(len(result.players))
        o.hand_cards.add(len(result.hands.get(caller, ())))
        for column in (o.total_at_call, o.known_cards, o.known_total, o.unknown_cards,
                       o.lowest_other_at_call):
            column.null()
        self.caller = caller
        self.close(g)

    def end(self) -> None:
        """Keep the open call as it is (the log stops in its round: no outcome yet)."""
        if self.open:
            self._end(None, None, None, None, None, None)
