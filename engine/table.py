"""What every event handler shares: who may act, bounds of a row, penalty cards, and how a
turn ends (passing the turn, final turns after a Cabo, the end of the round).

Handlers validate first and mutate after, so a rejected event leaves the state as it was;
``engine.game.apply`` undoes an implicit power lapse itself.
"""

from __future__ import annotations

from . import scoring
from .errors import IllegalEventError, InconsistentLogError
from .results import END_CABO, END_DECK_EMPTY, EndReason, RoundResult
from .state import GameState
from .vocabulary import BEFORE_DEAL, DRAWN, PENALTY, POWER, ROUND_OVER, TURN_START, PowerKind


def begin_turns(g: GameState) -> tuple[tuple[int, int], ...]:
    """The round's first turn begins (its first draw or Cabo call): whoever logged no initial
    peek in a ruleset that fixes the positions looks at them now (FORMAT.md: the engine
    applies the fixed ones), the last moment the peek could have been logged. Never at the
    deal: until their ``peek`` event (or this) a player knows none of their cards. Returns
    what was learned, ``(seat, card)``, for the event's outcome."""
    r = g.round
    fixed = g.rules.peek_positions
    if fixed is None:
        return ()
    learned: list[tuple[int, int]] = []
    known = r.known
    for seat in r.participants:
        if r.peeked[seat] or not r.in_play[seat]:
            continue
        r.peeked[seat] = True
        r.row_changed(seat)
        row = r.rows[seat]
        for pos in fixed:
            if pos < len(row):
                card = row[pos]
                known[card] = known[card] | 1 << seat   # not ``|=``: compiled, a generic call
                learned.append((seat, card))
    return tuple(learned)


def unknown_card(g: GameState, code: str) -> InconsistentLogError:
    """The error for a card code the ruleset's deck does not have (a typo such as ``ZZ``):
    said as such, not as a disagreement with whichever card lies where it was claimed."""
    return InconsistentLogError("unknown_card",
                                f"{code!r} is not a card of this ruleset's deck ({g.rules.name})")


def seat_named(g: GameState, player: str) -> int:
    """The seat of ``player``, -1 if nobody of the game has that name. The names are compared
    one by one: a name decoded from a line is a new string, and a dict lookup would hash it
    first, which costs more than a few string comparisons (a game has two to six players)."""
    seat = 0
    for name in g.players:
        if name == player:
            return seat
        seat += 1
    return -1


def seat_of(g: GameState, player: str) -> int:
    seat = seat_named(g, player)
    if seat < 0:
        raise IllegalEventError("unknown_player", f"{player!r} is not a player of this game")
    return seat


def need_round(g: GameState) -> None:
    """Raise unless a round is being played."""
    phase = g.phase  # a Phase member, always: ``is`` is the cheapest comparison
    if phase is TURN_START or phase is DRAWN or phase is POWER:
        return
    if g.tally:
        raise IllegalEventError("wrong_record", "this log is a score sheet (\"record\": "
                                "\"tally\"): after its header come only tally, forfeit, "
                                "round_end and game_end lines")
    if phase is BEFORE_DEAL:
        raise IllegalEventError("no_round", "no round has been dealt yet")
    if phase is ROUND_OVER:
        raise IllegalEventError("round_over",
                                f"round {g.round.round_no} is over; the next event must be a deal")
    raise IllegalEventError("match_over", "the match is over")


def in_round(g: GameState, player: str) -> int:
    r = g.round
    seat = seat_named(g, player)
    if seat >= 0 and r.in_play[seat]:
        return seat
    seat = seat_of(g, player)
    if not g.active[seat]:
        raise IllegalEventError("inactive_player", f"{player} has left the match")
    if seat not in r.participants:
        raise IllegalEventError("not_in_round", f"{player} does not play in this round")
    return seat


def check_position(g: GameState, seat: int, position: int) -> None:
    r = g.round
    size = len(r.rows[seat])
    if not 0 <= position < size:
        raise IllegalEventError("bad_position",
                                f"{g.players[seat]} has no card at position {position} "
                                f"(their row has {size} card{'s' if size != 1 else ''})")


def distinct(positions: tuple[int, ...]) -> bool:
    """No position twice: ``len(set(positions)) == len(positions)`` without building a set
    (compiled, a set of two or four ints costs more than comparing them pairwise)."""
    count = len(positions)
    for i in range(count):
        for j in range(i + 1, count):
            if positions[i] == positions[j]:
                return False
    return True


def can_reshuffle(g: GameState) -> bool:
    return g.rules.reshuffle and len(g.round.pile) > 1


def penalty_possible(g: GameState) -> None:
    """A penalty card is owed: with an empty pile, a reshuffle must have come first."""
    if not g.round.deck and can_reshuffle(g):
        raise InconsistentLogError("reshuffle_missing",
                                   "a penalty card is owed but the draw pile is empty: "
                                   "the log must reshuffle first")


def take_penalty(g: GameState, seat: int) -> str | None:
    """The top of the draw pile joins the row, unseen; its code (None: the pile is empty)."""
    r = g.round
    if not r.deck:
        return None
    card = r.deck.pop()
    r.rows[seat].append(card)
    r.arrivals[card] = PENALTY
    r.row_changed(seat)
    return r.codes[card]


def make_public(g: GameState, card: int) -> None:
    r = g.round
    r.face_up[card] = True
    r.known[card] = g.everybody


# --- turn order ------------------------------------------------------------------------------


def next_seat(g: GameState, after: int) -> int:
    in_play = g.round.in_play
    count = len(in_play)
    seat = after
    for _ in range(count):
        seat = seat + 1 if seat + 1 < count else 0
        if in_play[seat]:
            return seat
    return after


def end_turn(g: GameState) -> RoundResult | None:
    """The current turn is complete: hand the turn on, or end the round (its result)."""
    r = g.round
    r.pending_power = None
    g.phase = TURN_START
    if r.caller < 0 and (r.deck or not g.rules.deck_empty_ends_round):
        in_play = r.in_play  # the common case first: the next seat is still in the round
        seat = r.current + 1
        if seat == len(in_play):
            seat = 0
        r.current = seat if in_play[seat] else next_seat(g, seat)
        return None
    if r.caller >= 0 and not r.final_left:
        return end_round(g, END_CABO)
    if g.rules.deck_empty_ends_round and not r.deck:
        return end_round(g, END_DECK_EMPTY)
    if r.caller >= 0:
        while r.final_left:
            seat = r.final_left.pop(0)
            if r.deck or r.pile:
                r.current = seat
                return None
        return end_round(g, END_CABO)  # no remaining final turn had a card to take
    r.current = next_seat(g, r.current)
    return None


def end_round(g: GameState, end: EndReason) -> RoundResult:
    return scoring.finish_round(g, end)


def earn_power(g: GameState, card: int) -> PowerKind | None:
    """A card went to the pile at the end of a turn: its power, now pending (the turn goes
    on), or None (no power: the caller ends the turn)."""
    power = g.power_of.get(g.round.values[card])
    if power is not None:
        g.round.pending_power = power
        g.phase = POWER
    return power
