"""``cabo-log tally``: a score keeper in the terminal for a game played with real cards.

Each round it asks who called Cabo and each player's cards as they read them off, appends the
round through the one write path (``log.scoresheet.tally_round``: checked, scored and written
by the engine and ``GameLog``), and shows the round's points and the totals. A refused entry
is explained in the engine's words and asked again; a round is written only when whole, so
stopping (Ctrl-C, end of input, ``q``) loses nothing that was written, and ``--resume``
carries on at the next round. Input and output are functions (``ask``, ``say``): the command
line passes ``input`` and ``print``, tests pass scripted ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from cabo_log.log.gamelog import GameLog
from cabo_log.log.scoresheet import (
    CardError,
    forfeit,
    next_round,
    read_cards,
    seated,
    suit_values,
    tally_round,
)
from engine import CaboLogError, GameState, RoundResult

Ask = Callable[[str], str]
Say = Callable[[str], None]
NOBODY = ("-", "none", "nobody", "")
QUIT = ("q", "quit")


class Stop(Exception):
    """The keeper typed ``q``: stop here (every round entered so far is in the log)."""


def keep_score(log: GameLog, ask: Ask, say: Say) -> GameState:
    """Ask and append rounds until the match ends (or ``Stop``, ``EOFError``,
    ``KeyboardInterrupt``, which the caller reports); returns the state at the end."""
    g = _state(log)
    say(intro(log, g))
    while not g.complete:
        _one_round(log, g, ask, say)
        g = _state(log)
    say(final(g))
    return g


def intro(log: GameLog, g: GameState) -> str:
    rules = g.rules
    played = len(g.rounds)
    where = (f"{played} round{'s' if played != 1 else ''} scored so far; "
             if played else "")
    return (f"Score sheet {log.file}: {rules.name}, players {', '.join(g.players)}; "
            f"target {rules.target}.\n"
            f"{where}type each player's cards as values (e.g. 7 12 0"
            f"{', or codes such as QH' if rules.deck != 'cabo' else ''}), "
            "- for an empty row; q to stop." + suit_hints(g))


def suit_hints(g: GameState) -> str:
    """The ranks the keeper must type by colour (golf's kings), each value with its cards,
    read from the deck: a value typed alone is taken for the first card that has it."""
    values = g.rules.values()
    text = ""
    for rank, kinds in suit_values(g.rules).items():
        codes = sorted({c for c in g.rules.deck_codes() if c[:-1] == rank})
        groups = [" ".join(c for c in codes if values[c] == v) + f" = {v}" for v in kinds]
        text += f"\n{rank} counts by its suit: {', '.join(groups)} (type the value or the code)."
    return text


def _state(log: GameLog) -> GameState:
    assert log.state is not None
    return log.state


def _one_round(log: GameLog, g: GameState, ask: Ask, say: Say) -> None:
    """Ask one round until the engine accepts it (or a forfeit is entered instead)."""
    number = next_round(g)
    players = seated(g)
    tiebreak = " (tie-break: only the tied players)" if g.tiebreak is not None else ""
    say(f"\nRound {number}{tiebreak}")
    caller = _ask_caller(log, g, players, ask, say)
    if caller is False:
        return   # a forfeit was entered: the round is asked again with who is left
    assert caller is None or isinstance(caller, str)
    while True:
        hands = _ask_hands(g, players, ask, say)
        try:
            scored = tally_round(log, caller, hands)
        except CaboLogError as exc:
            say(f"  not written: {exc.message}. Enter round {number}'s cards again.")
            continue
        say(round_table(scored.result, g))
        return


def _ask_caller(log: GameLog, g: GameState, players: list[str], ask: Ask,
                say: Say) -> str | None | bool:
    """Who called (None: nobody); False when a forfeit was entered instead (online)."""
    choices = ", ".join(players)
    nobody_ok = g.rules.deck_empty_ends_round
    hint = f"{choices}{', or - for nobody (the draw pile ran out)' if nobody_ok else ''}"
    while True:
        word = _ask(ask, f"  who called Cabo? ({hint}): ").strip()
        lowered = word.lower()
        if lowered.startswith("forfeit ") and g.rules.forfeits:
            who = word.split(None, 1)[1].strip()
            try:
                forfeit(log, who)
            except CaboLogError as exc:
                say(f"  not written: {exc.message}")
                continue
            say(f"  {who} left the match.")
            return False
        if lowered in NOBODY:
            if nobody_ok:
                return None
            say(f"  in {g.rules.name} a round ends only with a Cabo call: who called?")
            continue
        match = [p for p in players if p.lower() == lowered]
        if match:
            return match[0]
        extra = " (or 'forfeit NAME' when a player leaves)" if g.rules.forfeits else ""
        say(f"  {word!r} does not play in this round: one of {choices}{extra}")


def _ask_hands(g: GameState, players: list[str], ask: Ask, say: Say) -> dict[str, list[str]]:
    """Each player's row, read again until every word names a card of the deck."""
    taken: Counter[str] = Counter()
    hands: dict[str, list[str]] = {}
    for player in players:
        while True:
            text = _ask(ask, f"  {player}'s cards: ")
            if not text.strip():   # an Enter too many is no empty row: ask again
                say("  type the cards, or - for a row with no cards")
                continue
            try:
                hands[player] = read_cards(g.rules, text, taken)
                break
            except CardError as exc:
                say(f"  {exc}")
    return hands


def _ask(ask: Ask, prompt: str) -> str:
    answer = ask(prompt)
    if answer.strip().lower() in QUIT:
        raise Stop
    return answer


def round_table(r: RoundResult, g: GameState) -> str:
    """The round's result: each player's cards, hand total, points and match total, and a
    line on what decided it (the call, a special hand, a reset to 50)."""
    width = max(len("player"), *(len(p) for p in r.players))
    cards = {p: " ".join(r.hands.get(p, [])) or "-" for p in r.players}
    card_width = max(5, *(len(c) for c in cards.values()))
    lines = [f"  {'player':<{width}}  {'cards':<{card_width}}  total  points  score"]
    for p in r.players:
        if p not in r.points:
            continue
        mark = " *" if p in r.resets else ""
        lines.append(f"  {p:<{width}}  {cards[p]:<{card_width}}  {r.totals[p]:>5}  "
                     f"{r.points[p]:>6}  {r.cumulative[p]:>5}{mark}")
    lines.extend(f"  {note}" for note in round_notes(r, g))
    return "\n".join(lines)


def round_notes(r: RoundResult, g: GameState) -> list[str]:
    """What decided the round, in words."""
    notes: list[str] = []
    if r.caller is None:
        notes.append("nobody called: the draw pile ran out")
    elif r.cabo_success:
        notes.append(f"{r.caller} called Cabo and made it")
    else:
        notes.append(f"{r.caller} called Cabo and failed: hand total + "
                     f"{g.rules.caller_penalty}")
    if r.special:
        notes.append(f"{g.rules.special_name}: {', '.join(r.special)} "
                     f"score{'s' if len(r.special) == 1 else ''} 0, everybody else "
                     f"{g.rules.special_points()}")
    if r.resets:
        notes.append(f"* exactly {g.rules.target}: back to {g.rules.reset_value()} "
                     f"({', '.join(r.resets)})")
    return notes


def final(g: GameState) -> str:
    scores = g.cumulative_by_name()
    standing = ", ".join(
        f"{p} {scores[p]}" + ("" if g.active[g.seat[p]] else " (left)")
        for p in sorted(g.players, key=lambda p: (not g.active[g.seat[p]], scores[p])))
    if not g.winners:
        return f"\nScores: {standing}"
    won = " and ".join(g.winners)
    return f"\nThe match is over: {won} {'win' if len(g.winners) > 1 else 'wins'}. " \
           f"Final scores: {standing}."


def stopped(log: GameLog) -> str:
    """What stopping says: the rounds are safe in the log, and how to carry on."""
    g = _state(log)
    played = len(g.rounds)
    return (f"{log.file}: {played} round{'s' if played != 1 else ''} written; "
            f"'cabo-log tally {log.file} --resume' carries on")


__all__ = ["Stop", "final", "intro", "keep_score", "round_notes", "round_table",
           "stopped"]
