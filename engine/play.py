"""A turn: draw, then discard or replace (one card, or several equal ones), Cabo, and skip.

Every handler validates first and mutates after, and returns the ``Outcome`` of the event.
"""

from __future__ import annotations

from .dispatch import handles
from .errors import IllegalEventError, InconsistentLogError
from .events import Cabo, Discard, Draw, Replace, Skip
from .outcome import (
    EVERYBODY,
    NOTHING,
    TURN_ENDED,
    Discarded,
    Drew,
    Ended,
    Outcome,
    Replaced,
    ReplaceFailed,
    one,
)
from .state import GameState
from .table import (
    begin_turns,
    can_reshuffle,
    check_position,
    distinct,
    earn_power,
    end_turn,
    in_round,
    make_public,
    need_round,
    penalty_possible,
    take_penalty,
    unknown_card,
)
from .vocabulary import DECK, DECK_WORD, DISCARD_WORD, DRAWN, KEPT, POWER, TAKEN, TURN_START


def draw(g: GameState, e: Draw) -> Outcome:
    r = g.round
    seat = r.current   # the player's seat if the name is the current player's (no hashing)
    if g.phase is not TURN_START or e.player != g.players[seat]:
        raise _cannot_draw(g, e.player)
    source = e.source
    from_deck = source is DECK or source == DECK_WORD  # a decoder may give the plain string
    deck = r.deck
    card = deck[-1] if from_deck and deck else _top(g, seat, from_deck, e.player)
    code = r.codes[card]
    claimed = e.card
    if claimed is not None and claimed != code:
        if claimed not in g.values_of:
            raise unknown_card(g, claimed)
        raise InconsistentLogError("wrong_card",
                                   f"the top of the {source} pile is {code}, not {claimed}")
    implied = () if r.started else begin_turns(g)
    r.drawn = card
    r.drawn_source = source
    g.phase = DRAWN
    r.started = True
    r.turn += 1
    if from_deck:
        deck.pop()
        known = r.known   # not ``|=`` on the item: compiled, that is a generic number call
        known[card] = known[card] | 1 << seat
        return Drew(code, implied + one(seat, card) if implied else one(seat, card))
    r.pile.pop()
    r.known[card] = g.everybody
    return Drew(code, implied)


handles(Draw)(draw)   # not a decorator: ``apply`` calls it natively (compiled)


def _cannot_draw(g: GameState, player: str) -> IllegalEventError:
    """Why ``player`` cannot draw now (the checks ``draw`` makes inline, with their words)."""
    r = g.round
    if g.phase is not TURN_START:
        need_round(g)
        in_round(g, player)
        return IllegalEventError("wrong_phase",
                                 f"{g.players[r.current]} is in the middle of a turn")
    in_round(g, player)
    return IllegalEventError("not_your_turn",
                             f"it is {g.players[r.current]}'s turn, not {player}'s")


def _top(g: GameState, seat: int, from_deck: bool, player: str) -> int:
    """The card a draw takes, or why it cannot be taken (the common case, the top of a
    non-empty draw pile, is taken in ``draw`` itself)."""
    r = g.round
    if from_deck:
        if not r.deck:
            if can_reshuffle(g):
                raise InconsistentLogError("reshuffle_missing",
                                           "the draw pile is empty: the log must reshuffle "
                                           "the discard pile before this draw")
            raise IllegalEventError("deck_empty", "the draw pile is empty")
        return r.deck[-1]
    if not r.pile:
        raise IllegalEventError("discard_empty", "the discard pile is empty")
    if not r.rows[seat]:
        raise IllegalEventError("empty_row",
                                f"{player} has no card that the discard could replace")
    return r.pile[-1]


def _not_holding(g: GameState, player: str, what: str) -> IllegalEventError:
    """Why ``player`` cannot discard or place a card (checked inline by the handlers)."""
    need_round(g)
    in_round(g, player)
    return IllegalEventError("nothing_drawn", f"{player} holds no drawn card to {what}")


def discard(g: GameState, e: Discard) -> Outcome:
    r = g.round
    if g.phase is not DRAWN or e.player != g.players[r.current]:
        raise _not_holding(g, e.player, "discard")
    if r.drawn_source == DISCARD_WORD:
        raise IllegalEventError("must_replace",
                                "a card taken from the discard pile must replace a card "
                                "of the row")
    card = r.drawn
    r.pile.append(card)
    r.face_up[card] = True
    r.known[card] = g.everybody
    r.drawn = -1
    power = g.power_of.get(r.values[card])
    if power is not None:  # pending now: the turn goes on (``earn_power``, inline)
        r.pending_power = power
        g.phase = POWER
        return Discarded(r.codes[card], card, power, None, False)
    result = end_turn(g)
    return Discarded(r.codes[card], card, None, result, result is not None and g.complete)


handles(Discard)(discard)   # not a decorator: ``apply`` calls it natively (compiled)


def replace(g: GameState, e: Replace) -> Outcome:
    r = g.round
    seat = r.current
    if g.phase is not DRAWN or e.player != g.players[seat]:
        raise _not_holding(g, e.player, "place")
    positions = e.positions
    into = e.into
    if len(positions) != 1 or (into is not None and into != positions[0]):
        return _replace_several(g, e, seat)
    # the common case, a single replacement (always a success), here without the general
    # bookkeeping of multi-replacements
    pos = positions[0]
    row = r.rows[seat]
    if not 0 <= pos < len(row):
        check_position(g, seat, pos)
    old = row[pos]
    drawn = r.drawn
    rules = g.rules
    face_up = r.face_up
    taken = r.drawn_source == DISCARD_WORD
    face_up[drawn] = taken and rules.taken_discard_face_up
    r.arrivals[drawn] = TAKEN if taken else KEPT
    r.row_changed(seat)
    r.drawn = -1
    row[pos] = drawn
    r.pile.append(old)
    face_up[old] = True
    r.known[old] = g.everybody
    codes = r.codes
    power = earn_power(g, old) if rules.power_from_replaced else None
    if power is not None:
        return Replaced(codes[drawn], one(seat, pos), (codes[old],), one(EVERYBODY, old),
                        power, None, False)
    result = end_turn(g)
    return Replaced(codes[drawn], one(seat, pos), (codes[old],), one(EVERYBODY, old), None,
                    result, result is not None and g.complete)


handles(Replace)(replace)   # not a decorator: ``apply`` calls it natively (compiled)


def _replace_several(g: GameState, e: Replace, seat: int) -> Outcome:
    """Several positions (or one with an ``into`` elsewhere): checked together, then equal
    cards are replaced, unequal ones shown."""
    r = g.round
    positions = e.positions
    rules = g.rules
    if not distinct(positions):
        raise IllegalEventError("bad_position", "a position is listed twice")
    for pos in positions:
        check_position(g, seat, pos)
    if rules.max_replace and len(positions) > rules.max_replace:
        raise IllegalEventError("too_many_cards",
                                f"{rules.name} allows replacing at most {rules.max_replace} "
                                f"card{'s' if rules.max_replace != 1 else ''} at once")
    into = positions[0] if e.into is None else e.into
    row = r.rows[seat]
    values = r.values
    first_value = values[row[positions[0]]]
    equal = True
    for pos in positions:   # a loop, not ``all`` of a generator: compiled, no generator object
        if values[row[pos]] != first_value:
            equal = False
            break
    if equal:
        if into not in positions:
            raise IllegalEventError("bad_into",
                                    f"'into' {into} is not one of the listed positions")
        return _replace_many(g, seat, positions, into)
    if len(positions) >= rules.failed_penalty_from:
        penalty_possible(g)  # with an empty pile, the reshuffle comes before this line
    return _replace_failed(g, seat, positions, e.end == "left")


def _place_drawn(g: GameState) -> int:
    r = g.round
    drawn = r.drawn
    taken = r.drawn_source == DISCARD_WORD
    r.face_up[drawn] = taken and g.rules.taken_discard_face_up
    r.arrivals[drawn] = TAKEN if taken else KEPT
    r.row_changed(r.current)
    r.drawn = -1
    return drawn


def _replace_many(g: GameState, seat: int, positions: tuple[int, ...], into: int) -> Outcome:
    """Equal cards leave the row for the discard pile; the drawn card takes ``into``."""
    r = g.round
    drawn = _place_drawn(g)
    row = r.rows[seat]
    codes = r.codes
    replaced: list[int] = []
    discarded: list[str] = []
    learned: list[tuple[int, int]] = []
    for pos in positions:   # plain loops, no sets or generators (compiled: native code)
        card = row[pos]
        replaced.append(card)
        discarded.append(codes[card])
        learned.append((EVERYBODY, card))
    new: list[int] = []
    for i in range(len(row)):
        if i == into:
            new.append(drawn)
        elif i not in positions:
            new.append(row[i])
    r.rows[seat] = new
    for card in replaced:
        r.pile.append(card)
        make_public(g, card)
    power = earn_power(g, replaced[-1]) if g.rules.power_from_replaced else None
    result = end_turn(g) if power is None else None
    return Replaced(codes[drawn], ((seat, new.index(drawn)),), tuple(discarded),
                    tuple(learned), power, result, result is not None and g.complete)


def _replace_failed(g: GameState, seat: int, positions: tuple[int, ...],
                    left: bool) -> Outcome:
    """Unequal cards: they are shown, the drawn card joins the row, maybe a penalty card."""
    r = g.round
    drawn = _place_drawn(g)
    row = r.rows[seat]
    shift = 1 if g.rules.choose_failed_end and left else 0
    places: list[tuple[int, int]] = []
    learned: list[tuple[int, int]] = []
    for pos in positions:   # plain loops, no generators (compiled: native code)
        card = row[pos]
        make_public(g, card)
        learned.append((EVERYBODY, card))
        places.append((seat, pos + shift))
    if shift:
        row.insert(0, drawn)
    else:
        row.append(drawn)
    penalty = take_penalty(g, seat) if len(positions) >= g.rules.failed_penalty_from else None
    result = end_turn(g)
    return ReplaceFailed(r.codes[drawn], tuple(places), tuple(learned),
                         penalty, result, result is not None and g.complete)


@handles(Skip)
def skip(g: GameState, e: Skip) -> Outcome:
    if g.phase is not POWER or e.player != g.players[g.round.current]:
        need_round(g)  # why not, in the order of the checks (the current seat is in play)
        in_round(g, e.player)
        raise IllegalEventError("nothing_to_skip", f"{e.player} has no power to skip")
    result = end_turn(g)
    return TURN_ENDED if result is None else Ended(result, g.complete)


def turn_over(g: GameState) -> Outcome:
    """End the turn; the outcome of an event that did nothing else."""
    result = end_turn(g)
    if result is None:
        return TURN_ENDED
    return Ended(result, g.complete)


@handles(Cabo)
def cabo(g: GameState, e: Cabo) -> Outcome:
    r = g.round
    need_round(g)
    seat = in_round(g, e.player)
    if g.phase is not TURN_START:
        raise IllegalEventError("wrong_phase", "Cabo is called at the start of a turn")
    if seat != r.current:
        raise IllegalEventError("not_your_turn",
                                f"it is {g.players[r.current]}'s turn, not {e.player}'s")
    if r.caller >= 0:
        raise IllegalEventError("second_cabo",
                                f"{g.players[r.caller]} already called Cabo this round")
    implied = () if r.started else begin_turns(g)
    r.caller = seat
    r.started = True
    r.turn += 1
    count = len(g.players)
    r.final_left = [s for s in ((seat + k) % count for k in range(1, count))
                    if g.active[s] and s in r.participants]
    done = turn_over(g)
    if implied:
        return Ended(done.round_ended, done.match_ended, done.lapsed, implied)
    return done


__all__ = ["NOTHING", "cabo", "discard", "draw", "replace", "skip", "turn_over"]
