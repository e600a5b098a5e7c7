"""Score sheets (``"record": "tally"``, format 1.1): one ``tally`` line per round, the cards each
player turned over at the end and who called.

A tally is checked for what a score sheet can show (every card one of the ruleset's deck, no
card more often than the deck holds it, the caller in the round, the round numbers, the players
the rules seat, nothing after the match end), then laid out as the table at the end of a dealt
round (a ``RoundState`` with those rows) and scored by the same ``scoring.finish_round`` that
ends every dealt round: caller's success and penalty, special hands, the 100 -> 50 resets, the
match end and its winners come from one piece of code, whichever way the round was recorded.
"""

from __future__ import annotations

from . import scoring
from .dispatch import handles
from .errors import IllegalEventError, InconsistentLogError
from .events import Tally
from .outcome import Ended, Outcome
from .results import END_CABO, END_DECK_EMPTY, EndReason
from .state import GameState, RoundState
from .table import seat_of
from .vocabulary import BEFORE_DEAL, DEALT, MATCH_OVER, ROUND_OVER


@handles(Tally)
def tally(g: GameState, e: Tally) -> Outcome:
    """Check one round of a score sheet and score it; nothing changes when it is refused."""
    if not g.tally:
        raise IllegalEventError("wrong_record", "a 'tally' line belongs in a score sheet (a "
                                "header with \"record\": \"tally\"); this log records every "
                                "event, so its rounds start with a deal")
    if g.phase is MATCH_OVER:
        raise IllegalEventError("match_over", "the match is over; no more rounds are scored")
    if g.phase is not BEFORE_DEAL and g.phase is not ROUND_OVER:  # pragma: no cover - a
        raise IllegalEventError("round_in_progress", "a round is still being played")  # sheet
    expected = len(g.rounds) + 1
    if e.round != expected:
        raise InconsistentLogError("wrong_round", f"this tally should score round {expected}, "
                                   f"not round {e.round}")
    seats = g.tiebreak if g.tiebreak is not None else tuple(g.active_players())
    _check_players(g, e, seats)
    codes, values, rows = _cards(g, e, seats)
    caller = _caller(g, e, seats)
    end = _end(g, e, caller)
    first = _first(g, e, seats)
    in_play = [False] * len(g.players)
    for p in seats:
        in_play[p] = True
    g.round = RoundState(
        round_no=e.round, participants=seats, in_play=in_play, codes=codes, values=values,
        known=[0] * len(codes), face_up=[True] * len(codes), rows=rows, first=first,
        current=first, started=True, peeked=[False] * len(g.players), caller=caller,
        arrivals=[DEALT] * len(codes), slot_changes=[0] * len(g.players))
    result = scoring.finish_round(g, end)
    return Ended(result, g.complete)


def _check_players(g: GameState, e: Tally, seats: tuple[int, ...]) -> None:
    """The hands are those of exactly the players the rules seat in this round."""
    wanted = [g.players[p] for p in seats]
    if len(e.hands) != len(wanted) or any(name not in e.hands for name in wanted):
        why = ""
        if g.tiebreak is not None:
            why = " (a tie-break round: only the tied players)"
        elif len(wanted) < len(g.players):
            why = " (the players still in the match)"
        raise InconsistentLogError("bad_tally",
                                   f"round {e.round} is played by {', '.join(wanted)}{why}; "
                                   f"the tally lists {', '.join(e.hands) or 'nobody'}")


def _cards(g: GameState, e: Tally, seats: tuple[int, ...]
           ) -> tuple[list[str], list[int], list[list[int]]]:
    """Every card checked against the deck, then numbered as a deal numbers them: the codes
    and values by card number, and each seat's row of card numbers."""
    values_of = g.values_of
    counts: dict[str, int] = {}
    codes: list[str] = []
    values: list[int] = []
    rows: list[list[int]] = [[] for _ in g.players]
    for p in seats:
        for code in e.hands[g.players[p]]:
            if code not in values_of:
                raise InconsistentLogError("unknown_card",
                                           f"{code} is not a card of this ruleset's deck "
                                           f"({g.rules.name}; {g.players[p]}'s hand)")
            counts[code] = counts.get(code, 0) + 1
            rows[p].append(len(codes))
            codes.append(code)
            values.append(values_of[code])
    for code, count in counts.items():
        held = g.deck_counter[code]
        if count > held:
            decks = f" ({g.rules.decks} decks)" if g.rules.decks > 1 else ""
            raise InconsistentLogError("too_many_copies",
                                       f"round {e.round} shows {count} x {code}, but the "
                                       f"{g.rules.name} deck{decks} holds {held}")
    return codes, values, rows


def _caller(g: GameState, e: Tally, seats: tuple[int, ...]) -> int:
    """The caller's seat (-1 for none): a player of the match, still in it, in this round."""
    if e.caller is None:
        return -1
    seat = seat_of(g, e.caller)
    if not g.active[seat]:
        raise IllegalEventError("inactive_player", f"{e.caller} has left the match")
    if seat not in seats:
        raise IllegalEventError("not_in_round",
                                f"{e.caller} does not play in round {e.round}, so cannot call")
    return seat


def _end(g: GameState, e: Tally, caller: int) -> EndReason:
    """Why the round ended: ``cabo`` with a caller (the default), ``deck_empty`` only where the
    ruleset lets the empty draw pile end a round."""
    end = e.end or ("cabo" if caller >= 0 else "deck_empty")
    if end == "cabo":
        if caller < 0:
            raise InconsistentLogError("bad_tally", f"round {e.round} ended with a Cabo call "
                                       "but names no caller")
        return END_CABO
    if not g.rules.deck_empty_ends_round:
        raise InconsistentLogError("bad_tally",
                                   f"in {g.rules.name} a round ends only after a Cabo call "
                                   f"(the empty draw pile does not end it): round {e.round} "
                                   "needs its caller")
    return END_DECK_EMPTY


def _first(g: GameState, e: Tally, seats: tuple[int, ...]) -> int:
    """Who started the round: the ``first`` given, else the player the rules name (fewest
    points, the rotating deal), else the round's first seat. A given ``first`` must play in
    the round; it is not checked against the rules' choice, which depends on who started the
    rounds before, and a sheet may not say."""
    if e.first is None:
        must = scoring.expected_first(g, seats)
        return must if must is not None else seats[0]
    first = seat_of(g, e.first)
    if first not in seats:
        raise InconsistentLogError("wrong_first_player",
                                   f"{e.first} cannot start round {e.round}: they do not "
                                   "play in it")
    return first
