"""The start of a round: the deal (checked card by card against the ruleset's deck) and the
initial peeks."""

from __future__ import annotations

from collections import Counter
from typing import NoReturn

from . import scoring
from .cards import describe_difference
from .dispatch import handles
from .errors import IllegalEventError, InconsistentLogError
from .events import Deal, Peek
from .outcome import Dealt, Outcome, Peeked
from .state import GameState, RoundState
from .table import (
    check_position,
    distinct,
    in_round,
    need_round,
    seat_named,
    seat_of,
    unknown_card,
)
from .vocabulary import BEFORE_DEAL, DEALT, MATCH_OVER, ROUND_OVER, TURN_START


@handles(Deal)
def deal(g: GameState, e: Deal) -> Outcome:
    if g.tally:
        raise IllegalEventError("wrong_record", "this log is a score sheet (\"record\": "
                                "\"tally\"): its rounds are 'tally' lines, not deals")
    if g.phase is MATCH_OVER:
        raise IllegalEventError("match_over", "the match is over; no more rounds are dealt")
    if g.phase is not BEFORE_DEAL and g.phase is not ROUND_OVER:
        raise IllegalEventError("round_in_progress",
                                f"round {g.round.round_no} is still being played")
    expected_round = len(g.rounds) + 1
    if e.round != expected_round:
        raise InconsistentLogError("wrong_round",
                                   f"this deal should start round {expected_round}, "
                                   f"not round {e.round}")
    seats = g.tiebreak if g.tiebreak is not None else tuple(g.active_players())
    # The cards in deal order, each hand checked on the way (dealt to a player of the
    # round, four cards); on any doubt ``_check_hands`` judges the whole deal and words why.
    hands = e.hands
    players = g.players
    if len(hands) != len(seats):
        _check_hands(g, e, seats)
    codes: list[str] = []
    for p in seats:
        hand = hands.get(players[p])
        if hand is None or len(hand) != 4:
            _check_hands(g, e, seats)
            raise AssertionError("_check_hands passed a deal the common case refused")
        codes.extend(hand)
    first = _check_first(g, e, seats)
    codes.append(e.discard)
    codes.extend(e.deck)
    _setup_round(g, e.round, seats, first, codes, _deck_values(g, codes))
    return Dealt(e.discard)


def _deck_values(g: GameState, codes: list[str]) -> list[int]:
    """The value of every dealt card, once the cards are proven to be exactly the ruleset's
    deck: one lookup per card (its kind's number in ``g.deck_index``) gives both its value and
    the count it takes from, so no sorting and no second lookup. As many cards as the deck,
    none of a kind more than the deck has: then every kind is there exactly as often (the
    details of a bad deal only on failure)."""
    if len(codes) != len(g.deck_ids):
        _deck_error(g, codes)
    index = g.deck_index
    by_kind = g.deck_values
    left = g.deck_counts[:]     # the cards of each kind not dealt yet
    values = [0] * len(codes)   # filled in place: no list grown card by card
    at = 0
    try:
        for code in codes:
            kind = index[code]   # not ``get`` with a default: compiled, the default is boxed
            n = left[kind] - 1
            if n < 0:
                _deck_error(g, codes)
            left[kind] = n
            values[at] = by_kind[kind]
            at += 1
    except KeyError:
        _deck_error(g, codes)
    return values


def _check_hands(g: GameState, e: Deal, seats: tuple[int, ...]) -> None:
    wanted = [g.players[p] for p in seats]
    if not _same_names(e.hands, wanted):
        raise InconsistentLogError("bad_deal",
                                   f"round {e.round} must deal to exactly "
                                   f"{', '.join(wanted)}; the log deals to "
                                   f"{', '.join(e.hands) or 'nobody'}")
    for player, hand in e.hands.items():
        if len(hand) != 4:
            raise InconsistentLogError("bad_deal",
                                       f"{player} must be dealt 4 cards, not {len(hand)}")


def _same_names(hands: dict[str, tuple[str, ...]], wanted: list[str]) -> bool:
    """``set(hands) == set(wanted)`` without the two sets (the names of ``wanted`` are the
    game's players, all different; a dict's keys are too)."""
    if len(hands) != len(wanted):
        return False
    for name in wanted:
        if name not in hands:
            return False
    return True


def _check_first(g: GameState, e: Deal, seats: tuple[int, ...]) -> int:
    first = seat_of(g, e.first)
    if first not in seats:
        raise InconsistentLogError("wrong_first_player",
                                   f"{e.first} cannot start round {e.round}: "
                                   "they are not dealt in")
    must_start = scoring.expected_first(g, seats)
    if must_start is not None and first != must_start:
        raise InconsistentLogError("wrong_first_player",
                                   f"{g.players[must_start]} must start round {e.round} "
                                   f"({g.rules.first_player.replace('_', ' ')}), "
                                   f"not {e.first}")
    return first


def _deck_error(g: GameState, codes: list[str]) -> NoReturn:
    values_of = g.values_of
    for code in codes:
        if code not in values_of:
            raise unknown_card(g, code)
    difference = describe_difference(Counter(g.deck_counter), Counter(codes))
    raise InconsistentLogError("bad_deal",
                               "hands, discard and deck must be exactly the "
                               f"{g.rules.name} deck: {difference}")


def _setup_round(g: GameState, number: int, seats: tuple[int, ...], first: int,
                 codes: list[str], values: list[int]) -> None:
    """A fresh ``RoundState`` replaces the last round's: the cards in deal order, the rows
    dealt, one card on the pile, the rest the draw pile (top last: the card numbers
    ``count - 1`` down to ``top + 1``, a slice of the ruleset's ``deck_ids``)."""
    count = len(codes)
    seat_count = len(g.players)
    top = 4 * len(seats)
    rows: list[list[int]] = [[] for _ in range(seat_count)]
    in_play = [False] * seat_count
    card = 0
    for p in seats:   # plain lists and loops: compiled, no generic ``list(range())`` calls
        rows[p] = [card, card + 1, card + 2, card + 3]
        in_play[p] = True
        card += 4
    known = [0] * count
    face_up = [False] * count
    face_up[top] = True
    known[top] = g.everybody   # nobody knows a card of their row yet: the peeks teach them
    g.round = RoundState(
        round_no=number, participants=seats,
        in_play=in_play,
        codes=codes, values=values, known=known, face_up=face_up,
        rows=rows, deck=g.deck_ids[:count - 1 - top], pile=[top],
        first=first, current=first, peeked=[False] * seat_count,
        arrivals=[DEALT] * count, slot_changes=[0] * seat_count,
    )
    g.phase = TURN_START


@handles(Peek)
def peek(g: GameState, e: Peek) -> Outcome:
    r = g.round
    seat = seat_named(g, e.player)
    if seat < 0 or g.phase is not TURN_START or not r.in_play[seat]:
        need_round(g)  # the checks of the common case above, in their order and words
        seat = in_round(g, e.player)
    if r.started or g.phase is not TURN_START:
        raise IllegalEventError("peek_too_late",
                                "the initial peek comes before the round's first turn")
    if r.peeked[seat]:
        raise IllegalEventError("already_peeked",
                                f"{e.player} has already looked at their cards this round")
    rules = g.rules
    positions = e.positions
    if len(positions) != rules.peek_count or not distinct(positions):
        raise IllegalEventError("bad_peek",
                                f"the initial peek is {rules.peek_count} different positions, "
                                f"not {list(positions)}")
    row = r.rows[seat]
    size = len(row)
    for pos in positions:
        if not 0 <= pos < size:
            check_position(g, seat, pos)
    fixed = rules.peek_positions
    if fixed is not None and not _same_set(positions, fixed):
        raise IllegalEventError("bad_peek",
                                f"in {rules.name} the initial peek is positions "
                                f"{list(fixed)}, not {list(positions)}")
    r.peeked[seat] = True
    r.row_changed(seat)
    bit = 1 << seat
    known = r.known
    places = []
    learned = []
    for pos in positions:  # one loop, no comprehension (each would build a function object)
        card = row[pos]
        known[card] = known[card] | bit   # not ``|=``: compiled, a generic number call
        places.append((seat, pos))
        learned.append((seat, card))
    return Peeked(tuple(places), tuple(learned))


def _same_set(positions: tuple[int, ...], fixed: tuple[int, ...]) -> bool:
    """``set(positions) == set(fixed)``, without the two sets: each holds every item of the
    other."""
    for pos in positions:
        if pos not in fixed:
            return False
    for pos in fixed:
        if pos not in positions:
            return False
    return True
