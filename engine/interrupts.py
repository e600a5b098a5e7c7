"""Events outside the turn order: snaps between turns, reshuffles of the discard pile, and
forfeits (a player leaving the match at any moment)."""

from __future__ import annotations

from collections import Counter

from . import scoring
from .cards import describe_difference
from .dispatch import handles
from .errors import IllegalEventError, InconsistentLogError
from .events import Forfeit, Reshuffle, Snap
from .outcome import EVERYBODY, NOTHING, Left, Outcome, Reshuffled, Snapped, one
from .results import END_FORFEIT
from .state import GameState
from .table import (
    check_position,
    end_round,
    end_turn,
    in_round,
    make_public,
    need_round,
    penalty_possible,
    seat_of,
    take_penalty,
    unknown_card,
)
from .vocabulary import DRAWN, MATCH_OVER, POWER, TURN_START


@handles(Snap)
def snap(g: GameState, e: Snap) -> Outcome:
    r = g.round
    if not g.rules.snap:
        raise IllegalEventError("snap_not_allowed", f"there is no snapping in {g.rules.name}")
    need_round(g)
    seat = in_round(g, e.player)
    if g.phase is not TURN_START:
        raise IllegalEventError("wrong_phase",
                                "a snap comes between turns, not while a card is held")
    check_position(g, seat, e.position)
    if not r.pile:
        raise IllegalEventError("discard_empty", "there is no discard to snap onto")
    row = r.rows[seat]
    card = row[e.position]
    code = r.codes[card]
    if r.values[card] == r.values[r.pile[-1]]:
        r.row_changed(seat)   # the card leaves the row
        row.pop(e.position)
        r.pile.append(card)
        make_public(g, card)
        return Snapped(code, (seat, e.position), (code,), one(EVERYBODY, card), True, None)
    penalty_possible(g)
    r.known[card] = g.everybody
    r.row_changed(seat)   # its owner sees it now
    return Snapped(code, (seat, e.position), (), one(EVERYBODY, card), False,
                   take_penalty(g, seat))


@handles(Reshuffle)
def reshuffle(g: GameState, e: Reshuffle) -> Outcome:
    r = g.round
    if not g.rules.reshuffle:
        raise IllegalEventError("reshuffle_not_allowed",
                                f"{g.rules.name} never reshuffles the discard pile")
    need_round(g)
    if r.deck:
        raise InconsistentLogError("reshuffle_not_needed",
                                   f"the draw pile still has {len(r.deck)} "
                                   f"card{'s' if len(r.deck) != 1 else ''}")
    under = r.pile[:-1]
    have = Counter(r.codes[c] for c in under)
    got = Counter(e.deck)
    if have != got:
        for code in got:
            if code not in g.values_of:
                raise unknown_card(g, code)
        raise InconsistentLogError("bad_reshuffle",
                                   "the new draw pile must be exactly the discard pile "
                                   f"under its top card: {describe_difference(have, got)}")
    by_code: dict[str, list[int]] = {}
    for card in under:
        by_code.setdefault(r.codes[card], []).append(card)
    new = [by_code[code].pop() for code in e.deck]
    for card in new:
        r.known[card] = 0
        r.face_up[card] = False
    new.reverse()
    r.deck = new
    r.pile = r.pile[-1:]
    r.reshuffles += 1
    return Reshuffled(tuple(new))


@handles(Forfeit)
def forfeit(g: GameState, e: Forfeit) -> Outcome:
    r = g.round
    if not g.rules.forfeits:
        raise IllegalEventError("forfeit_not_allowed", f"there are no forfeits in {g.rules.name}")
    if g.phase is MATCH_OVER:
        raise IllegalEventError("match_over", "the match is over")
    seat = seat_of(g, e.player)
    if not g.active[seat]:
        raise IllegalEventError("inactive_player", f"{e.player} has already left the match")
    g.active[seat] = False
    if r.in_play:
        r.in_play[seat] = False
    playing = g.phase in (TURN_START, DRAWN, POWER) and seat in r.participants
    if not playing:
        if len(g.active_players()) < 2:
            scoring.decide_winners(g, {})
            return Left((), (), False, None, g.complete)
        return NOTHING
    return _leave_round(g, seat)


def _leave_round(g: GameState, seat: int) -> Outcome:
    """A player in the round leaves: their row goes out, their held card to the pile; their
    turn ends, or (fewer than two left) the round does, unscored. A card dropped on the pile
    lies face up: the outcome says everybody learned it."""
    r = g.round
    was_current = seat == r.current
    discarded: tuple[str, ...] = ()
    learned: tuple[tuple[int, int], ...] = ()
    if was_current and r.drawn >= 0:
        learned = ((EVERYBODY, r.drawn),)
        discarded = _drop_held(g)
    r.out.extend(r.rows[seat])
    r.rows[seat] = []
    r.row_changed(seat)
    if seat in r.final_left:
        r.final_left.remove(seat)
    if seat == r.caller:
        r.caller_forfeited = True
    if len(g.active_participants()) < 2:
        if r.drawn >= 0:  # the last player's held card goes to the pile, unplayed
            learned = (*learned, (EVERYBODY, r.drawn))
            _drop_held(g)
        r.pending_power = None
        g.phase = TURN_START
        ended = end_round(g, END_FORFEIT)
        return Left(discarded, learned, True, ended, g.complete)
    if not was_current:
        return Left(discarded, learned, False, None, False) if discarded else NOTHING
    result = end_turn(g)  # their turn ends here, with any power unused
    return Left(discarded, learned, True, result, result is not None and g.complete)


def _drop_held(g: GameState) -> tuple[str, ...]:
    r = g.round
    card = r.drawn
    r.pile.append(card)
    make_public(g, card)
    r.drawn = -1
    return (r.codes[card],)
