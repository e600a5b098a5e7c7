"""What each event does to the table: deal, peek, draw, discard, replace, power, Cabo, snap,
reshuffle and forfeit, and how a turn passes to the next player.

Every handler validates first and mutates after, so a rejected event leaves the state as it
was (the replay can still show the table before the bad line).
"""

from __future__ import annotations

from collections import Counter

from . import scoring
from .cards import describe_difference
from .errors import IllegalEventError, InconsistentLogError
from .events import Cabo, Deal, Discard, Draw, Forfeit, Peek, Power, Replace, Reshuffle, Skip, Snap
from .state import (
    BEFORE_DEAL,
    DRAWN,
    END_CABO,
    END_DECK_EMPTY,
    END_FORFEIT,
    MATCH_OVER,
    POWER,
    ROUND_OVER,
    TURN_START,
    GameState,
)

# --- shared checks ---------------------------------------------------------------------------


def seat_of(g: GameState, player: str) -> int:
    seat = g.seat.get(player)
    if seat is None:
        raise IllegalEventError("unknown_player", f"{player!r} is not a player of this game")
    return seat


def need_round(g: GameState) -> None:
    """Raise unless a round is being played."""
    phase = g.phase
    if phase == TURN_START or phase == DRAWN or phase == POWER:
        return
    if phase == BEFORE_DEAL:
        raise IllegalEventError("no_round", "no round has been dealt yet")
    if phase == ROUND_OVER:
        raise IllegalEventError("round_over",
                                f"round {g.round_no} is over; the next event must be a deal")
    raise IllegalEventError("match_over", "the match is over")


def in_round(g: GameState, player: str) -> int:
    seat = g.seat.get(player)
    if seat is not None and g.in_play[seat]:
        return seat
    seat = seat_of(g, player)
    if not g.active[seat]:
        raise IllegalEventError("inactive_player", f"{player} has left the match")
    if seat not in g.participants:
        raise IllegalEventError("not_in_round", f"{player} does not play in this round")
    return seat


def check_position(g: GameState, seat: int, position: int) -> None:
    size = len(g.rows[seat])
    if not 0 <= position < size:
        raise IllegalEventError("bad_position",
                                f"{g.players[seat]} has no card at position {position} "
                                f"(their row has {size} card{'s' if size != 1 else ''})")


def _can_reshuffle(g: GameState) -> bool:
    return g.rules.reshuffle and len(g.pile) > 1


def _penalty_possible(g: GameState) -> None:
    """A penalty card is owed: with an empty pile, a reshuffle must have come first."""
    if not g.deck and _can_reshuffle(g):
        raise InconsistentLogError("reshuffle_missing",
                                   "a penalty card is owed but the draw pile is empty: "
                                   "the log must reshuffle first")


def _take_penalty(g: GameState, seat: int) -> None:
    if g.deck:
        card = g.deck.pop()
        g.rows[seat].append(card)
        g.effect.penalty = g.codes[card]


def _make_public(g: GameState, card: int) -> None:
    g.face_up[card] = True
    g.known[card] = g.everybody


# --- turn order ------------------------------------------------------------------------------


def next_seat(g: GameState, after: int) -> int:
    in_play = g.in_play
    count = len(in_play)
    seat = after
    for _ in range(count):
        seat = seat + 1 if seat + 1 < count else 0
        if in_play[seat]:
            return seat
    return after


def end_turn(g: GameState) -> None:
    """The current turn is complete: end the round or hand the turn on."""
    g.pending_power = None
    g.phase = TURN_START
    if g.caller < 0 and (g.deck or not g.rules.deck_empty_ends_round):
        g.current = next_seat(g, g.current)  # the common case first
        return
    if g.caller >= 0 and not g.final_left:
        end_round(g, END_CABO)
        return
    if g.rules.deck_empty_ends_round and not g.deck:
        end_round(g, END_DECK_EMPTY)
        return
    if g.caller >= 0:
        while g.final_left:
            seat = g.final_left.pop(0)
            if g.deck or g.pile:
                g.current = seat
                return
        end_round(g, END_CABO)  # every remaining final turn had no card to take
        return
    g.current = next_seat(g, g.current)


def end_round(g: GameState, end: str) -> None:
    g.effect.round_ended = scoring.finish_round(g, end)


# --- the events ------------------------------------------------------------------------------


def deal(g: GameState, e: Deal) -> None:
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
    codes: list[str] = []
    for p in seats:
        codes.extend(e.hands[g.players[p]])
    codes.append(e.discard)
    codes.extend(e.deck)
    if sorted(codes) != g.sorted_deck:  # cheaper than counting; the details only on failure
        values_of = g.values_of
        for code in codes:
            if code not in values_of:
                raise InconsistentLogError("unknown_card",
                                           f"{code!r} is not a card of the {g.rules.name} deck")
        difference = describe_difference(Counter(g.deck_counter), Counter(codes))
        raise InconsistentLogError("bad_deal",
                                   "hands, discard and deck must be exactly the "
                                   f"{g.rules.name} deck: {difference}")
    _setup_round(g, e.round, seats, first, codes)


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


def peek(g: GameState, e: Peek) -> None:
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


def draw(g: GameState, e: Draw) -> None:
    if g.phase != TURN_START:
        need_round(g)
        in_round(g, e.player)
        raise IllegalEventError("wrong_phase",
                                f"{g.players[g.current]} is in the middle of a turn")
    seat = g.seat.get(e.player)
    if seat != g.current:
        in_round(g, e.player)
        raise IllegalEventError("not_your_turn",
                                f"it is {g.players[g.current]}'s turn, not {e.player}'s")
    if e.source == "deck":
        if not g.deck:
            if _can_reshuffle(g):
                raise InconsistentLogError("reshuffle_missing",
                                           "the draw pile is empty: the log must reshuffle "
                                           "the discard pile before this draw")
            raise IllegalEventError("deck_empty", "the draw pile is empty")
        card = g.deck[-1]
    else:
        if not g.pile:
            raise IllegalEventError("discard_empty", "the discard pile is empty")
        if not g.rows[seat]:
            raise IllegalEventError("empty_row",
                                    f"{e.player} has no card that the discard could replace")
        card = g.pile[-1]
    if e.card is not None and e.card != g.codes[card]:
        raise InconsistentLogError("wrong_card",
                                   f"the top of the {e.source} pile is {g.codes[card]}, "
                                   f"not {e.card}")
    if e.source == "deck":
        g.deck.pop()
        g.known[card] |= 1 << seat
    else:
        g.pile.pop()
        g.known[card] = g.everybody
    g.drawn = card
    g.drawn_source = e.source
    g.phase = DRAWN
    g.started = True
    g.turn += 1
    effect = g.effect
    effect.card = g.codes[card]
    effect.value = g.values[card]


def _holding(g: GameState, player: str, what: str) -> int:
    seat = g.seat.get(player)
    if g.phase != DRAWN or seat != g.current:
        need_round(g)
        in_round(g, player)
        raise IllegalEventError("nothing_drawn",
                                f"{player} holds no drawn card to {what}")
    return seat


def discard(g: GameState, e: Discard) -> None:
    _holding(g, e.player, "discard")
    if g.drawn_source == "discard":
        raise IllegalEventError("must_replace",
                                "a card taken from the discard pile must replace a card "
                                "of the row")
    card = g.drawn
    g.pile.append(card)
    g.face_up[card] = True
    g.known[card] = g.everybody
    g.drawn = -1
    effect = g.effect
    effect.card = code = g.codes[card]
    effect.value = g.values[card]
    effect.discarded = (code,)
    _earn_power(g, card)


def _earn_power(g: GameState, card: int) -> None:
    power = g.power_of.get(g.values[card])
    if power is None:
        end_turn(g)
    else:
        g.pending_power = power
        g.phase = POWER


def replace(g: GameState, e: Replace) -> None:
    seat = _holding(g, e.player, "place")
    rules = g.rules
    positions = e.positions
    if len(positions) == 1 and (e.into is None or e.into == positions[0]):
        _replace_one(g, seat, positions[0])
        return
    if len(set(positions)) != len(positions):
        raise IllegalEventError("bad_position", "a position is listed twice")
    for pos in positions:
        check_position(g, seat, pos)
    if rules.max_replace and len(positions) > rules.max_replace:
        raise IllegalEventError("too_many_cards",
                                f"{rules.name} allows replacing at most {rules.max_replace} "
                                f"card{'s' if rules.max_replace != 1 else ''} at once")
    into = positions[0] if e.into is None else e.into
    row = g.rows[seat]
    values = g.values
    first_value = values[row[positions[0]]]
    success = all(values[row[p]] == first_value for p in positions)
    if success and into not in positions:
        raise IllegalEventError("bad_into", f"'into' {into} is not one of the listed positions")
    if not success and len(positions) >= rules.failed_penalty_from:
        _penalty_possible(g)  # with an empty pile, the reshuffle comes before this line
    drawn = g.drawn
    g.face_up[drawn] = g.drawn_source == "discard" and rules.taken_discard_face_up
    g.drawn = -1
    g.effect.card = g.codes[drawn]
    g.effect.value = values[drawn]
    g.effect.success = success
    if success:
        chosen = set(positions)
        replaced = [row[p] for p in positions]
        g.rows[seat] = [drawn if i == into else c for i, c in enumerate(row)
                        if i == into or i not in chosen]
        for card in replaced:
            g.pile.append(card)
            _make_public(g, card)
        g.effect.discarded = tuple(g.codes[c] for c in replaced)
        if rules.power_from_replaced:
            _earn_power(g, replaced[-1])
            return
    else:
        for p in positions:
            _make_public(g, row[p])
        if rules.choose_failed_end and e.end == "left":
            row.insert(0, drawn)
        else:
            row.append(drawn)
        if len(positions) >= rules.failed_penalty_from:
            _take_penalty(g, seat)
    end_turn(g)


def _replace_one(g: GameState, seat: int, pos: int) -> None:
    """The common case, a single replacement (always a success), without the general
    bookkeeping of multi-replacements."""
    row = g.rows[seat]
    if not 0 <= pos < len(row):
        check_position(g, seat, pos)
    old = row[pos]
    drawn = g.drawn
    row[pos] = drawn
    g.face_up[drawn] = g.drawn_source == "discard" and g.rules.taken_discard_face_up
    g.drawn = -1
    g.pile.append(old)
    g.face_up[old] = True
    g.known[old] = g.everybody
    effect = g.effect
    effect.card = g.codes[drawn]
    effect.value = g.values[drawn]
    effect.success = True
    effect.discarded = (g.codes[old],)
    if g.rules.power_from_replaced:
        _earn_power(g, old)
    else:
        end_turn(g)


def power(g: GameState, e: Power) -> None:
    seat = g.seat.get(e.player)
    if g.phase != POWER or seat != g.current:
        need_round(g)
        in_round(g, e.player)
        raise IllegalEventError("power_not_earned",
                                f"{e.player} has not earned a power at this point")
    if e.power != g.pending_power:
        top = g.codes[g.pile[-1]]
        raise IllegalEventError("wrong_power",
                                f"the discarded {top} gives {g.pending_power}, not {e.power}")
    if e.power == "swap":
        _swap(g, seat, e)
    else:
        assert e.target is not None
        target_name, pos = e.target
        target = in_round(g, target_name)
        if e.power == "peek" and target != seat:
            raise IllegalEventError("bad_target", "peek looks at one of the user's own cards")
        if e.power == "spy" and target == seat:
            raise IllegalEventError("bad_target", "spy looks at another player's card")
        check_position(g, target, pos)
        card = g.rows[target][pos]
        g.known[card] |= 1 << seat
        effect = g.effect
        effect.seen = effect.card = g.codes[card]
        effect.value = g.values[card]
    end_turn(g)


def _swap(g: GameState, seat: int, e: Power) -> None:
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
    row_a, row_b = g.rows[a], g.rows[b]
    row_a[pos_a], row_b[pos_b] = row_b[pos_b], row_a[pos_a]
    g.effect.given = g.codes[row_b[pos_b]]
    g.effect.received = g.codes[row_a[pos_a]]


def skip(g: GameState, e: Skip) -> None:
    need_round(g)
    seat = in_round(g, e.player)
    if g.phase != POWER or seat != g.current:
        raise IllegalEventError("nothing_to_skip", f"{e.player} has no power to skip")
    end_turn(g)


def cabo(g: GameState, e: Cabo) -> None:
    need_round(g)
    seat = in_round(g, e.player)
    if g.phase != TURN_START:
        raise IllegalEventError("wrong_phase", "Cabo is called at the start of a turn")
    if seat != g.current:
        raise IllegalEventError("not_your_turn",
                                f"it is {g.players[g.current]}'s turn, not {e.player}'s")
    if g.caller >= 0:
        raise IllegalEventError("second_cabo",
                                f"{g.players[g.caller]} already called Cabo this round")
    g.caller = seat
    g.started = True
    g.turn += 1
    count = len(g.players)
    g.final_left = [s for s in ((seat + k) % count for k in range(1, count))
                    if g.active[s] and s in g.participants]
    end_turn(g)


def snap(g: GameState, e: Snap) -> None:
    if not g.rules.snap:
        raise IllegalEventError("snap_not_allowed", f"there is no snapping in {g.rules.name}")
    need_round(g)
    seat = in_round(g, e.player)
    if g.phase != TURN_START:
        raise IllegalEventError("wrong_phase",
                                "a snap comes between turns, not while a card is held")
    check_position(g, seat, e.position)
    if not g.pile:
        raise IllegalEventError("discard_empty", "there is no discard to snap onto")
    row = g.rows[seat]
    card = row[e.position]
    match = g.values[card] == g.values[g.pile[-1]]
    if not match:
        _penalty_possible(g)
    g.effect.card = g.codes[card]
    g.effect.value = g.values[card]
    g.effect.success = match
    if match:
        row.pop(e.position)
        g.pile.append(card)
        _make_public(g, card)
        g.effect.discarded = (g.codes[card],)
    else:
        g.known[card] = g.everybody
        _take_penalty(g, seat)


def reshuffle(g: GameState, e: Reshuffle) -> None:
    if not g.rules.reshuffle:
        raise IllegalEventError("reshuffle_not_allowed",
                                f"{g.rules.name} never reshuffles the discard pile")
    need_round(g)
    if g.deck:
        raise InconsistentLogError("reshuffle_not_needed",
                                   f"the draw pile still has {len(g.deck)} "
                                   f"card{'s' if len(g.deck) != 1 else ''}")
    under = g.pile[:-1]
    have = Counter(g.codes[c] for c in under)
    got = Counter(e.deck)
    if have != got:
        raise InconsistentLogError("bad_reshuffle",
                                   "the new draw pile must be exactly the discard pile "
                                   f"under its top card: {describe_difference(have, got)}")
    by_code: dict[str, list[int]] = {}
    for card in under:
        by_code.setdefault(g.codes[card], []).append(card)
    new = [by_code[code].pop() for code in e.deck]
    for card in new:
        g.known[card] = 0
        g.face_up[card] = False
    new.reverse()
    g.deck = new
    g.pile = g.pile[-1:]
    g.reshuffles += 1


def forfeit(g: GameState, e: Forfeit) -> None:
    if not g.rules.forfeits:
        raise IllegalEventError("forfeit_not_allowed", f"there are no forfeits in {g.rules.name}")
    if g.phase == MATCH_OVER:
        raise IllegalEventError("match_over", "the match is over")
    seat = seat_of(g, e.player)
    if not g.active[seat]:
        raise IllegalEventError("inactive_player", f"{e.player} has already left the match")
    g.active[seat] = False
    if g.in_play:
        g.in_play[seat] = False
    playing = g.phase in (TURN_START, DRAWN, POWER) and seat in g.participants
    if not playing:
        if len(g.active_players()) < 2:
            scoring.decide_winners(g, {})
        return
    was_current = seat == g.current
    if was_current and g.drawn >= 0:
        g.pile.append(g.drawn)
        _make_public(g, g.drawn)
        g.effect.discarded = (g.codes[g.drawn],)
        g.drawn = -1
    g.out.extend(g.rows[seat])
    g.rows[seat] = []
    if seat in g.final_left:
        g.final_left.remove(seat)
    if seat == g.caller:
        g.caller_forfeited = True
    if len(g.active_participants()) < 2:
        if g.drawn >= 0:  # the last player's held card goes to the pile, unplayed
            g.pile.append(g.drawn)
            _make_public(g, g.drawn)
            g.drawn = -1
        g.pending_power = None
        g.phase = TURN_START
        end_round(g, END_FORFEIT)
    elif was_current:
        end_turn(g)  # their turn ends here, with any power unused
