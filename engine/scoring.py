"""Scoring a round, the 100 -> 50 resets, the end of the match and its winners (RULES.md).

Every rule is read off the ruleset's parameters; the table rows of RULES.md map one-to-one
onto ``Ruleset`` fields (see docs/rules.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from .results import END_FORFEIT, EndReason, RoundResult
from .rulesets import (
    FIRST_FEWEST_POINTS,
    FIRST_ROTATE,
    RESET_ALWAYS,
    RESET_ONCE,
    TIE_BREAK_ROUNDS,
    TIE_LAST_ROUND,
    Ruleset,
)
from .state import GameState
from .vocabulary import MATCH_OVER, ROUND_OVER


def round_points(rules: Ruleset, scored: list[int], totals: list[int],
                 rows: list[list[int]], caller: int | None,
                 caller_success: bool | None) -> tuple[list[int], tuple[int, ...]]:
    """Points per seat (0 for a seat not scored), and the seats holding a special hand
    (Kamikaze, moon). ``totals`` and ``rows`` are indexed by seat, as the points are: lists,
    not dicts keyed by seat (compiled, an item of a list is read without hashing)."""
    special = special_holders(rules, scored, totals, rows, caller)
    points = [0] * len(totals)
    if special:
        penalty = rules.special_points()
        for p in scored:
            points[p] = 0 if p in special else penalty
        return points, special
    for p in scored:
        points[p] = totals[p]
    if rules.lowest_scores_zero and scored:
        low = totals[scored[0]]
        for p in scored:  # a loop, not ``min`` of a generator: compiled, no generator object
            if totals[p] < low:
                low = totals[p]
        if caller is not None and totals[caller] == low:
            points[caller] = 0
        else:
            for p in scored:
                if totals[p] == low:
                    points[p] = 0
            if caller is not None:
                points[caller] = totals[caller] + rules.caller_penalty
        return points, ()
    if caller is not None:
        points[caller] = 0 if caller_success else totals[caller] + rules.caller_penalty
    return points, ()


def special_holders(rules: Ruleset, scored: list[int], totals: list[int],
                    rows: list[list[int]], caller: int | None) -> tuple[int, ...]:
    """Seats whose hand overrides normal scoring: a 12-12-13-13 row, or golf's 0 caller."""
    holders: list[int] = []
    if rules.special_row is not None:
        wanted = sorted(rules.special_row)
        wanted_total = 0
        for value in wanted:
            wanted_total += value
        for p in scored:  # the same multiset has the same total: most rows sort no more
            if totals[p] == wanted_total and len(rows[p]) == len(wanted) \
                    and sorted(rows[p]) == wanted:
                holders.append(p)
    if rules.special_caller_zero and caller is not None and totals[caller] == 0 \
            and caller not in holders:
        holders.append(caller)
    if not holders:
        return ()
    return tuple(sorted(holders))


def finish_round(g: GameState, end: EndReason) -> RoundResult:
    """Score the round that just ended, apply resets, and decide whether the match is over.

    Written with plain loops and local names (no generators, no keyword call), the seats'
    totals and points in lists indexed by seat: compiled, each step is native code, and a
    round is scored once per ~60 events."""
    r = g.round
    rules = g.rules
    scored, row_values, totals = _row_totals(g)
    caller: int | None = None
    if r.caller >= 0 and not r.caller_forfeited and r.caller in scored:
        caller = r.caller
    success = None
    if caller is not None:
        others = [totals[p] for p in scored if p != caller]
        success = rules.caller_succeeds(totals[caller], others)
    points: list[int]
    special: tuple[int, ...]
    if end == END_FORFEIT:
        points, special = [0] * len(totals), ()
    else:
        points, special = round_points(rules, scored, totals, row_values, caller, success)
    cumulative = g.cumulative
    for p in scored:
        cumulative[p] = cumulative[p] + points[p]
    resets, second_exact = _apply_resets(g, scored)
    result = _result(g, end, scored, totals, points, success, special, resets)
    g.rounds.append(result)
    g.phase = ROUND_OVER
    everybody = g.everybody
    known = r.known
    for p in scored:  # the hands are revealed at the end of a round
        for card in r.rows[p]:
            known[card] = everybody
        r.row_changed(p)
    _check_match_end(g, scored, points, second_exact)
    return result


def _row_totals(g: GameState) -> tuple[list[int], list[list[int]], list[int]]:
    """The seats scored (the active participants, in order), and by seat their rows' values
    and totals (empty and 0 for a seat not scored)."""
    values = g.round.values
    rows = g.round.rows
    scored = g.active_participants()
    count = len(g.players)
    row_values: list[list[int]] = [[] for _ in range(count)]
    totals = [0] * count
    for p in scored:
        row = [values[c] for c in rows[p]]
        total = 0
        for value in row:
            total += value
        row_values[p] = row
        totals[p] = total
    return scored, row_values, totals


def _result(g: GameState, end: EndReason, scored: list[int], totals: list[int],
            points: list[int], success: bool | None, special: tuple[int, ...],
            resets: list[int]) -> RoundResult:
    """The round's ``RoundResult``, by player name (after the scores were added up)."""
    r = g.round
    names = g.players
    hands: dict[str, list[str]] = {}
    totals_by_name: dict[str, int] = {}
    points_by_name: dict[str, int] = {}
    for p in scored:
        name = names[p]
        hands[name] = g.row_codes(p)
        totals_by_name[name] = totals[p]
        points_by_name[name] = points[p]
    cumulative = g.cumulative_by_name()
    players = tuple([names[p] for p in r.participants])
    special_names = tuple([names[p] for p in special]) if special else ()
    reset_names = tuple([names[p] for p in resets]) if resets else ()
    return RoundResult(r.round_no, names[r.first], players,
                       names[r.caller] if r.caller >= 0 else None, success, end, hands,
                       totals_by_name, points_by_name, cumulative, r.turn, r.reshuffles,
                       special_names, reset_names, g.tiebreak is not None)


def _apply_resets(g: GameState, scored: list[int]) -> tuple[list[int], bool]:
    rules = g.rules
    resets: list[int] = []
    second_exact = False
    if rules.exact_reset not in (RESET_ALWAYS, RESET_ONCE):
        return resets, second_exact
    for p in scored:
        if g.cumulative[p] != rules.target:
            continue
        if rules.exact_reset == RESET_ALWAYS or not g.reset_used[p]:
            g.cumulative[p] = rules.reset_value()
            g.reset_used[p] = True
            resets.append(p)
        else:
            second_exact = True
    return resets, second_exact


def _check_match_end(g: GameState, scored: list[int], points: list[int],
                     second_exact: bool) -> None:
    if not g.ending:
        active = g.active_players()
        ending = second_exact or len(active) < 2
        rules = g.rules
        cumulative = g.cumulative
        for p in active:   # a loop, not ``any`` of a generator: compiled, no generator object
            if ending:
                break
            ending = rules.is_over_target(cumulative[p])
        g.ending = ending
    if g.ending:
        decide_winners(g, {p: points[p] for p in scored})


def decide_winners(g: GameState, last_points: dict[int, int]) -> None:
    """Lowest total wins; a tie is shared, broken by the last round, or played off."""
    active = g.active_players()
    if len(active) < 2:
        _crown(g, active)
        return
    pool = list(g.tiebreak) if g.tiebreak else active
    low = min(g.cumulative[p] for p in pool)
    tied = [p for p in pool if g.cumulative[p] == low]
    rule = g.rules.tie_rule
    if len(tied) == 1 or rule not in (TIE_LAST_ROUND, TIE_BREAK_ROUNDS):
        _crown(g, tied)
    elif rule == TIE_LAST_ROUND:
        best = min(last_points.get(p, 0) for p in tied)
        fewest = [p for p in tied if last_points.get(p, 0) == best]
        if len(fewest) == 1:
            _crown(g, fewest)
        # still tied: another round for everybody; the match stays ending
    else:
        g.tiebreak = tuple(tied)


def _crown(g: GameState, seats: list[int]) -> None:
    g.winners = tuple(g.players[p] for p in seats)
    g.complete = True
    g.tiebreak = None
    g.phase = MATCH_OVER


def expected_first(g: GameState, participants: tuple[int, ...]) -> int | None:
    """Who must start the next round, or None where the log decides."""
    if not g.rounds:
        return None
    rule = g.rules.first_player
    if rule == FIRST_ROTATE:
        return rotate_first(g, participants)
    if rule == FIRST_FEWEST_POINTS:
        order = _seats_after(len(g.players), g.seat[g.rounds[-1].first])
        points = g.rounds[-1].points
        candidates = [p for p in participants if g.players[p] in points]
        if not candidates:
            return None
        best = min(points[g.players[p]] for p in candidates)
        return next(p for p in order if p in candidates and points[g.players[p]] == best)
    return None


def rotate_first(g: GameState, participants: Sequence[int]) -> int:
    """The next seat after the previous round's first player, among ``participants`` (a
    rotating deal; also the simulator's choice where the ruleset lets the log decide)."""
    count = len(g.players)
    seat = g.seat[g.rounds[-1].first]
    for _ in range(count):   # the seats after it, in order (no list, no generator)
        seat += 1
        if seat == count:
            seat = 0
        if seat in participants:
            return seat
    return participants[0]


def _seats_after(count: int, seat: int) -> list[int]:
    """Seat order starting after ``seat`` and ending with it."""
    return [(seat + k) % count for k in range(1, count + 1)]
