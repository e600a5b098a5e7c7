"""Plain-text accounts of a replay for people: rounds, calls, hands, points, the table."""

from __future__ import annotations

from cabo_log.log.replay import ReplayResult
from engine import GameState
from engine.knowledge import row_view
from engine.results import RoundResult
from engine.vocabulary import DRAWN, POWER, TURN_START, Phase


def special_hand(r: RoundResult, name: str = "Kamikaze") -> str | None:
    """"Kamikaze: carla 0, others +50" when a special hand decided the round, else None.

    The hand sets everybody's points, so the round must not read as a failed (or successful)
    Cabo call; ``name`` is the ruleset's ``special_name`` ("shoot the moon" online)."""
    if not r.special:
        return None
    others = sorted({v for p, v in r.points.items() if p not in r.special})
    text = f"{name[:1].upper()}{name[1:]}: {' and '.join(r.special)} 0"
    return text + (f", others +{others[-1]}" if others else "")


def describe_round(r: RoundResult, width: int, special_name: str = "Kamikaze",
                   sheet: bool = False) -> list[str]:
    """A finished round in lines; ``sheet``: a score sheet's round, which shows the cards at
    the end only (no first player, no turns)."""
    head = f"Round {r.round}" + (" (tie-break)" if r.tiebreak else "")
    if not sheet:
        head += f", first: {r.first}"
    special = special_hand(r, special_name)
    if r.caller is None:
        call = "nobody called Cabo"
    elif r.cabo_success is None:
        call = f"{r.caller} called Cabo (not scored as the caller)"
    elif special is not None:
        call = f"{r.caller} called Cabo"
    else:
        call = f"{r.caller} called Cabo ({'success' if r.cabo_success else 'failure'})"
    if special is not None:
        call += f"; {special}"
    ended = {"cabo": "ended after the final turns", "deck_empty": "ended by the empty draw pile",
             "forfeit": "ended by a forfeit, unscored"}[r.end]
    if sheet:
        lines = [f"{head}: {call}" + ("; ended by the empty draw pile"
                                      if r.end == "deck_empty" else "")]
    else:
        lines = [f"{head}: {call}; {ended}; {r.turns} turns"
                 + (f", {r.reshuffles} reshuffle{'s' if r.reshuffles != 1 else ''}"
                    if r.reshuffles else "")]
    for player in r.points:
        hand = " ".join(r.hands[player]) or "(no cards)"
        notes = []
        if player in r.special:
            notes.append(special_name)
        if player in r.resets:
            notes.append("exact target: reset")
        if player == r.caller:
            notes.append("caller")
        note = f"  [{', '.join(notes)}]" if notes else ""
        lines.append(f"  {player:<{width}}  hand {hand:<24} total {r.totals[player]:>3}  "
                     f"points {r.points[player]:>3}  score {r.cumulative[player]:>3}{note}")
    for player in r.players:
        if player not in r.points:  # dealt in, then left: their row went out of play
            lines.append(f"  {player:<{width}}  forfeited: left the match, not scored")
    return lines


def turn_number(turns: int, phase: Phase) -> int:
    """The turn a table shown to a reader stands at, counted from 1 in each round: the one
    being played, or at a turn's start the one about to begin (the engine counts the turns
    begun). ``play``, ``replay --until``/``--as`` and ``replay --follow`` all number the table
    this way, so one moment has one turn number everywhere."""
    return turns + 1 if phase == TURN_START else turns


def describe_table(g: GameState, as_player: str | None = None) -> list[str]:
    """The table now; with ``as_player``, cards that player does not know show as ``??``."""
    if g.phase not in (TURN_START, DRAWN, POWER):
        return []
    seat = g.seat[as_player] if as_player is not None else None
    width = max(len(p) for p in g.players)
    view = f" as {as_player} knew it" if as_player else ""
    lines = [f"Table in round {g.round_no()}, turn {turn_number(g.turn(), g.phase)}{view}: "
             f"{g.players[g.to_act()]} to "
             f"play ({g.phase.replace('_', ' ')})"]
    for p in g.active_participants():
        if seat is None:
            cards = g.row_codes(p)
        else:
            cards = [c if c is not None else "??" for c in row_view(g, seat, p)]
        lines.append(f"  {g.players[p]:<{width}}  {' '.join(cards) or '(no cards)'}")
    deck = g.deck_size()
    lines.append(f"  discard top {g.discard_top() or '(empty)'}, draw pile {deck} "
                 f"card{'s' if deck != 1 else ''}")
    if g.caller() >= 0:
        lines.append(f"  {g.players[g.caller()]} called Cabo")
    return lines


def describe(result: ReplayResult, as_player: str | None = None) -> str:
    g = result.state
    lines: list[str] = []
    if g is not None:
        width = max(len(p) for p in g.players)
        lines.append(f"Game {g.game_id}: {g.rules.name}, players {', '.join(g.players)}"
                     + ("; a score sheet (the cards at each round's end)" if g.tally else ""))
        for r in g.rounds:
            lines.extend(describe_round(r, width, g.rules.special_name, g.tally))
        lines.extend(describe_table(g, as_player))
        left = {p for i, p in enumerate(g.players) if not g.active[i]}
        scores = ", ".join(f"{p} {s}" + (" (forfeited)" if p in left else "")
                           for p, s in g.cumulative_by_name().items())
        lines.append(f"Scores: {scores}")
        if g.complete:
            lines.append(f"Winners: {', '.join(g.winners)}")
        else:
            lines.append("In progress: the match has not ended")
        if result.head is not None:
            lines.append(f"Chain head: {result.head}")
    if result.error is not None:
        lines.append(str(result.error))
    return "\n".join(lines)
