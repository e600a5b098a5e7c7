"""A finished round told to the people who played it: every hand turned over with its total,
who called, and why each player scores what they score, in the words of the table.

``round_account`` reads the engine's ``RoundResult`` (what the round came to: totals, points,
the caller and whether the call succeeded, the special hands, the resets) and the ruleset's
parameters (the caller's penalty, whether ties are enough, whether the lowest hand scores 0):
it says why, it never decides. ``cabo-log play`` prints it at every round's end.
"""

from __future__ import annotations

import textwrap

from engine.results import END_DECK_EMPTY, END_FORFEIT, RoundResult
from engine.rulesets import Ruleset

from .words import card_label, join_words


def round_account(r: RoundResult, rules: Ruleset, me: str | None = None,
                  width: int | None = 79) -> list[str]:
    """The lines that close round ``r``: how it ended, every hand with its total and points,
    why the points are what they are (wrapped at ``width``; None: a line per sentence), the
    scores after it. ``me`` is marked "(you)"."""
    lines = [_how_it_ended(r)]
    scored = [p for p in r.players if p in r.points]
    if scored and r.end != END_FORFEIT:
        lines.append("Every hand, turned over:")
        names = max(len(_name(p, r, me)) for p in scored)
        cards = max(len(" ".join(card_label(c) for c in r.hands[p])) for p in scored)
        for p in scored:
            hand = " ".join(f"{card_label(c)}" for c in r.hands[p]) or "(no cards)"
            lines.append(f"  {_name(p, r, me):<{names}}  {hand:<{cards}}  total "
                         f"{r.totals[p]:>3}  scores {r.points[p]:>3}")
        for sentence in why(r, rules):
            lines.extend(textwrap.wrap(sentence, width) if width else [sentence])
    for p in r.resets:
        lines.append(f"{p} reached exactly {rules.target} and goes back to {r.cumulative[p]}.")
    left = [p for p in r.players if p not in r.points]
    if left and r.end != END_FORFEIT:
        lines.append(f"{join_words(left)} left the match and {'is' if len(left) == 1 else 'are'}"
                     " not scored.")
    lines.append("Scores now: " + ", ".join(f"{p} {v}" for p, v in r.cumulative.items()))
    return lines


def _name(player: str, r: RoundResult, me: str | None) -> str:
    marks = [m for m, on in (("you", player == me and player != "you"),
                             ("called", player == r.caller)) if on]
    return player + (f" ({', '.join(marks)})" if marks else "")


def _how_it_ended(r: RoundResult) -> str:
    if r.end == END_FORFEIT:
        return f"Round {r.round} is over: players forfeited, so it is not scored."
    if r.end == END_DECK_EMPTY:
        return (f"Round {r.round} is over: the draw pile ran out"
                + (f" ({r.caller} had called Cabo)." if r.caller else " before anyone called "
                   "Cabo."))
    return f"Round {r.round} is over: {r.caller} called Cabo and everyone else had a last turn."


def why(r: RoundResult, rules: Ruleset) -> list[str]:
    """Why the points of a scored round are what they are, one or two sentences."""
    if r.special:
        return [_special(r, rules)]
    scored = [p for p in r.points]
    caller = r.caller if r.caller in r.points else None
    low = min(r.totals[p] for p in scored)
    lowest = [p for p in scored if r.totals[p] == low]
    if caller is None:
        if rules.lowest_scores_zero:
            return [f"Nobody called Cabo: the lowest hand ({_of(lowest, low)}) scores 0, "
                    "everyone else their hand total."]
        return ["Nobody called Cabo: everyone scores their hand total."]
    total = r.totals[caller]
    if rules.lowest_scores_zero:
        return [_lowest_scores_zero(r, rules, caller, lowest, low)]
    if r.cabo_success:
        tied = [p for p in scored if p != caller and r.totals[p] == total]
        how = (f"and no hand is lower than {caller}'s {total}" if tied
               else f"with the lowest hand, {total}")
        text = f"{caller} called Cabo {how}: the call succeeds, so {caller} scores 0"
        if tied and rules.caller_ties_ok:
            text += f" ({join_words(tied)} tied, and a tie is enough in {rules.name})"
        return [text + "; everyone else scores their hand total."]
    beaten = [p for p in scored if p != caller and (
        r.totals[p] < total or (r.totals[p] == total and not rules.caller_ties_ok))]
    best = min(r.totals[p] for p in beaten)
    better = [p for p in beaten if r.totals[p] == best]
    verb = "lower than" if best < total else "as low as"
    text = (f"{caller} called Cabo, but {_of(better, best)} {'is' if len(better) == 1 else 'are'}"
            f" {verb} {caller}'s {total}")
    if best == total:
        text += f" (in {rules.name} the caller must be strictly lowest)"
    penalty = r.points[caller] - total
    text += (f": the call fails, so {caller} scores {total} + {penalty} penalty = "
             f"{r.points[caller]}")
    return [text + "; everyone else scores their hand total."]


def _lowest_scores_zero(r: RoundResult, rules: Ruleset, caller: str, lowest: list[str],
                        low: int) -> str:
    """Where the lowest hand scores 0 (edition1): the caller holding it (ties included) scores
    0; else the lowest hands score 0 and the caller their total plus the penalty."""
    total = r.totals[caller]
    if r.points[caller] == 0 and total == low:
        tied = [p for p in lowest if p != caller]
        text = f"{caller} called Cabo with the lowest hand, {total}: {caller} scores 0"
        if tied:
            text += f" ({join_words(tied)} {'ties' if len(tied) == 1 else 'tie'}, but the " \
                    "caller's lowest hand wins it)"
        return text + "; everyone else scores their hand total."
    penalty = r.points[caller] - total
    return (f"{caller} called Cabo, but {_of(lowest, low)} {'is' if len(lowest) == 1 else 'are'}"
            f" lower than {caller}'s {total}: the call fails, so the lowest hand scores 0 and "
            f"{caller} scores {total} + {penalty} penalty = {r.points[caller]}; everyone else "
            "scores their hand total.")


def _of(players: list[str], total: int) -> str:
    """"bruno's 3" or "bruno's and zoe's 3"."""
    return join_words([f"{p}'s" for p in players]) + f" {total}"


def _special(r: RoundResult, rules: Ruleset) -> str:
    holders = list(r.special)
    others = sorted({r.points[p] for p in r.points if p not in holders})
    hand = f"the {rules.special_name}"
    if rules.special_row is not None and any(r.totals[p] != 0 for p in holders):
        hand += f" ({' '.join(str(v) for v in rules.special_row)})"
    text = (f"{join_words(holders)} {'holds' if len(holders) == 1 else 'hold'} {hand}: "
            f"{'that hand scores' if len(holders) == 1 else 'those hands score'} 0")
    if others:
        text += f" and everyone else scores {others[0]}, whatever their hand"
    return text + "."


__all__ = ["round_account", "why"]
