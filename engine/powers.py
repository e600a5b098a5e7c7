"""Using an earned power: peek at one's own card, spy on another's, or swap two cards."""

from __future__ import annotations

from .dispatch import handles
from .errors import IllegalEventError
from .events import Power
from .outcome import Looked, Outcome, Swapped, one
from .state import GameState
from .table import check_position, end_turn, in_round, need_round, seat_named
from .vocabulary import GIVEN, PEEK_WORD, POWER, SPY_WORD, SWAP_WORD, SWAPPED, PowerKind


def power(g: GameState, e: Power) -> Outcome:
    r = g.round
    seat = r.current   # the player's seat if the name is the current player's (no hashing)
    if g.phase is not POWER or e.player != g.players[seat]:
        need_round(g)
        in_round(g, e.player)
        raise IllegalEventError("power_not_earned",
                                f"{e.player} has not earned a power at this point")
    kind = e.power
    pending = r.pending_power
    # compared as ``str`` (a decoder may give the plain string): compiled, a native string
    # comparison instead of a generic one (vocabulary's ``*_WORD``)
    if pending is None or kind != _word(pending):
        top = r.codes[r.pile[-1]]
        raise IllegalEventError("wrong_power",
                                f"the discarded {top} gives {r.pending_power}, not {kind}")
    if kind == SWAP_WORD:
        return _swap(g, seat, e)
    assert e.target is not None
    target_name, pos = e.target
    target = seat_named(g, target_name)
    if target < 0 or not r.in_play[target]:
        target = in_round(g, target_name)
    if kind == PEEK_WORD and target != seat:
        raise IllegalEventError("bad_target", "peek looks at one of the user's own cards")
    if kind == SPY_WORD and target == seat:
        raise IllegalEventError("bad_target", "spy looks at another player's card")
    row = r.rows[target]
    if not 0 <= pos < len(row):
        check_position(g, target, pos)
    card = row[pos]
    known = r.known   # not ``|=`` on the item: compiled, that is a generic number call
    known[card] = known[card] | 1 << seat
    r.row_changed(target)   # a peek: its owner knows the card now
    result = end_turn(g)
    return Looked(r.codes[card], (target, pos), one(seat, card), result,
                  result is not None and g.complete)


def _word(power: PowerKind) -> str:
    """A power's word typed ``str`` (the member is one)."""
    return power


handles(Power)(power)   # not a decorator: ``apply`` calls it natively (compiled)


def _swap(g: GameState, seat: int, e: Power) -> Outcome:
    """Exchange two cards of two players, unseen; the user's own place is the first."""
    r = g.round
    assert e.cards is not None
    (name_a, pos_a), (name_b, pos_b) = e.cards
    a = in_round(g, name_a)
    b = in_round(g, name_b)
    if a == b:
        raise IllegalEventError("swap_not_allowed", "a swap exchanges cards of two players")
    if not g.rules.swap_any_two_players and seat not in (a, b):
        raise IllegalEventError("swap_not_allowed",
                                f"in {g.rules.name} a swap exchanges one of the user's own "
                                "cards with another player's")
    check_position(g, a, pos_a)
    check_position(g, b, pos_b)
    if b == seat:
        a, pos_a, b, pos_b = b, pos_b, a, pos_a
    row_a, row_b = r.rows[a], r.rows[b]
    row_a[pos_a], row_b[pos_b] = row_b[pos_b], row_a[pos_a]
    arrivals = r.arrivals
    arrivals[row_a[pos_a]] = SWAPPED if a == seat else GIVEN   # ``a`` is the user, if either
    arrivals[row_b[pos_b]] = GIVEN
    r.row_changed(a)
    r.row_changed(b)
    moved = (r.codes[row_b[pos_b]], r.codes[row_a[pos_a]])
    result = end_turn(g)
    return Swapped(((a, pos_a), (b, pos_b)), moved, result, result is not None and g.complete)
