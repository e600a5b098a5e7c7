"""The start of a round: the deal (checked card by card against the ruleset's deck) and the
initial peeks."""

from __future__ import annotations

from collections import Counter

from . import scoring
from .cards import describe_difference
from .errors import IllegalEventError, InconsistentLogError
from .events import Deal, Peek
from .outcome import Outcome, outcome
from .state import BEFORE_DEAL, MATCH_OVER, ROUND_OVER, TURN_START, GameState
from .table import check_position, in_round, need_round, seat_of


def deal(g: GameState, e: Deal) -> Outcome:
    if g.phase == MATCH_OVER:
        raise IllegalEventError("match_over", "the match is over; no more rounds are dealt")
    if g.phase != BEFORE_DEAL and g.phase != ROUND_OVER:
        raise IllegalEventError("round_in_progress",
                                f"round {g.round_no} is still being played")
    expected_round = len(g.rounds) + 1
    if e.round != expected_round:
        raise InconsistentLogError("wrong_round",
                                   f"this deal should start round {expected_round}, "
                                   f"not round {e.round}")
    seats = g.tiebreak if g.tiebreak is not None else tuple(g.active_players())
    _check_hands(g, e, seats)
    first = _check_first(g, e, seats)
    codes: list[str] = []
    for p in seats:
        codes.extend(e.hands[g.players[p]])
    codes.append(e.discard)
    codes.extend(e.deck)
    if sorted(codes) != g.sorted_deck:  # cheaper than counting; the details only on failure
        _deck_error(g, codes)
    _setup_round(g, e.round, seats, first, codes)
    return outcome(card=e.discard)


def _check_hands(g: GameState, e: Deal, seats: tuple[int, ...]) -> None:
    wanted = [g.players[p] for p in seats]
    if set(e.hands) != set(wanted):
        raise InconsistentLogError("bad_deal",
                                   f"round {e.round} must deal to exactly "
                                   f"{', '.join(wanted)}; the log deals to "
                                   f"{', '.join(e.hands) or 'nobody'}")
    for player, hand in e.hands.items():
        if len(hand) != 4:
            raise InconsistentLogError("bad_deal",
                                       f"{player} must be dealt 4 cards, not {len(hand)}")


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


def _deck_error(g: GameState, codes: list[str]) -> None:
    values_of = g.values_of
    for code in codes:
        if code not in values_of:
            raise InconsistentLogError("unknown_card",
                                       f"{code!r} is not a card of the {g.rules.name} deck")
    difference = describe_difference(Counter(g.deck_counter), Counter(codes))
    raise InconsistentLogError("bad_deal",
                               "hands, discard and deck must be exactly the "
                               f"{g.rules.name} deck: {difference}")


def _setup_round(g: GameState, number: int, seats: tuple[int, ...], first: int,
                 codes: list[str]) -> None:
    count = len(codes)
    g.round_no = number
    g.participants = seats
    g.in_play = [p in seats for p in range(len(g.players))]
    g.codes = codes
    g.values = [g.values_of[c] for c in codes]
    g.known = [0] * count
    g.face_up = [False] * count
    g.rows = [[] for _ in g.players]
    for k, p in enumerate(seats):
        g.rows[p] = list(range(4 * k, 4 * k + 4))
    top = 4 * len(seats)
    g.pile = [top]
    g.face_up[top] = True
    g.known[top] = g.everybody
    g.deck = list(range(count - 1, top, -1))
    g.out = []
    g.first = g.current = first
    g.turn = 0
    g.started = False
    g.peeked = [False] * len(g.players)
    g.caller = -1
    g.caller_forfeited = False
    g.final_left = []
    g.drawn = -1
    g.drawn_source = ""
    g.pending_power = None
    g.reshuffles = 0
    g.phase = TURN_START
    fixed = g.rules.peek_positions
    if fixed is not None:
        for p in seats:
            bit = 1 << p
            for pos in fixed:
                g.known[g.rows[p][pos]] |= bit


def peek(g: GameState, e: Peek) -> Outcome:
    need_round(g)
    seat = in_round(g, e.player)
    if g.started or g.phase != TURN_START:
        raise IllegalEventError("peek_too_late",
                                "the initial peek comes before the round's first turn")
    if g.peeked[seat]:
        raise IllegalEventError("already_peeked",
                                f"{e.player} has already looked at their cards this round")
    rules = g.rules
    positions = e.positions
    if len(positions) != rules.peek_count or len(set(positions)) != len(positions):
        raise IllegalEventError("bad_peek",
                                f"the initial peek is {rules.peek_count} different positions, "
                                f"not {list(positions)}")
    for pos in positions:
        check_position(g, seat, pos)
    if rules.peek_positions is not None and set(positions) != set(rules.peek_positions):
        raise IllegalEventError("bad_peek",
                                f"in {rules.name} the initial peek is positions "
                                f"{list(rules.peek_positions)}, not {list(positions)}")
    g.peeked[seat] = True
    bit = 1 << seat
    row = g.rows[seat]
    for pos in positions:
        g.known[row[pos]] |= bit
    return outcome(places=tuple((seat, pos) for pos in positions),
                   learned=tuple((seat, row[pos]) for pos in positions))
