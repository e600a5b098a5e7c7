"""Score sheets through the one write path: start one, read the cards players call out, and
check and append one round (FORMAT.md, "Score sheets").

A game played with real cards is kept as a log of ``record: "tally"``: a header, then one
``tally`` line per round (the cards each player turned over, who called). Every round goes
through ``GameLog`` like any event: checked by the engine first (and scored by it), appended
whole, fsync'd, under the writer's lock, chained. ``tally_round`` is the one call a score
keeper needs per round, whether it asks in a terminal (``cabo_log.play.tally``) or on a page.

Players read values off their cards ("7", "12"); a card code of the ruleset's deck is also
taken as it is ("QH", "JK"). Where the deck has suits, a value alone is written as the first
suit of that card still free in the round (spades, hearts, diamonds, clubs): the suit changes
no score, except where the ruleset gives a card two values by colour (golf's red kings), and
there the value says which colour it is (13 a black king, -1 a red one).
"""

from __future__ import annotations

import os
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cabo_log.log.gamelog import GameLog
from engine import CaboLogError, GameState, IllegalEventError, RoundResult, Ruleset
from engine.events import FORMAT

TALLY = "tally"


class CardError(ValueError):
    """A word that names no card of the ruleset's deck (said in words a player follows)."""


@dataclass(frozen=True)
class Scored:
    """What appending one round did: its result (points, totals, resets) and the match's
    state after it (``winners`` once it is over)."""

    result: RoundResult
    complete: bool
    winners: tuple[str, ...]
    scores: dict[str, int]


def start_sheet(path: str | os.PathLike[str], ruleset: str | dict[str, Any],
                players: Sequence[str], *, options: Mapping[str, Any] | None = None,
                game_id: str | None = None, names: Mapping[str, str] | None = None,
                started_at: str | None = None, chain: bool = True,
                extra: Mapping[str, Any] | None = None) -> GameLog:
    """Create a new score sheet (its header, chained unless ``chain=False``), open for
    appending rounds; ``log_exists`` if the file exists. The header is checked by the engine
    as any header is (ruleset, options, players); ``extra`` adds fields of the writer's own
    (readers ignore them), such as the host's mark on the sheets it keeps."""
    target = Path(path)
    header: dict[str, Any] = {
        "type": "game", "format": FORMAT, "seq": 0,
        "game_id": game_id or f"{target.stem}-{secrets.token_hex(3)}",
        "ruleset": ruleset, "options": dict(options or {}), "players": list(players),
        "record": TALLY}
    if names:
        header["names"] = dict(names)
    if started_at:
        header["started_at"] = started_at
    for key, value in (extra or {}).items():
        header.setdefault(key, value)
    return GameLog.create(target, header, chain=chain)


def open_sheet(path: str | os.PathLike[str]) -> GameLog:
    """Open an existing score sheet to carry on (``--resume``): locked, replayed once; a log
    that records every event is refused (``wrong_record``)."""
    log = GameLog.open(path)
    if log.state is None or not log.state.tally:
        log.close()
        raise IllegalEventError("wrong_record", "this log records every event, not a score "
                                "sheet (\"record\": \"tally\"): it cannot be kept with tally"
                                ).located(str(path), 1)
    return log


def seated(g: GameState) -> list[str]:
    """The players the rules seat in the next round (the tied ones in a golf tie-break, the
    ones still in the match otherwise), in seat order."""
    seats = g.tiebreak if g.tiebreak is not None else g.active_players()
    return [g.players[p] for p in seats]


def next_round(g: GameState) -> int:
    return len(g.rounds) + 1


def read_cards(rules: Ruleset, text: str, taken: Counter[str] | None = None) -> list[str]:
    """The card codes of one player's row from what the players read off it: values ("7 12
    0") or codes ("QH", "JK"), separated by spaces or commas; "-" or nothing for an empty
    row. ``taken`` counts the codes already read this round, so that a value alone gets a
    copy of its card still free (it is updated when the row reads, untouched when not)."""
    taken = Counter() if taken is None else taken
    words = text.replace(",", " ").split()
    if words == ["-"]:
        return []
    values = rules.values()
    held = Counter(rules.deck_codes())
    out: list[str] = []
    mine = Counter(taken)   # ``taken`` changes only when the whole row reads
    for word in words:
        code = _card(rules, values, held, mine, word)
        mine[code] += 1
        out.append(code)
    taken.update(out)
    return out


def _card(rules: Ruleset, values: dict[str, int], held: Counter[str], taken: Counter[str],
          word: str) -> str:
    upper = word.upper()
    if upper in values:
        return upper
    if _is_int(word):
        wanted = int(word)
        candidates = [code for code in held if values[code] == wanted]
        if not candidates:
            shown = ", ".join(str(v) for v in sorted(set(values.values())))
            raise CardError(f"{word} is not a value of this ruleset's deck ({rules.name}: "
                            f"{shown})")
    else:
        candidates = [code for code in held if _rank(code) == upper]
        if not candidates:
            raise CardError(f"{word} is not a card of this ruleset's deck ({rules.name}); "
                            "type the value on the card")
        kinds = sorted({values[code] for code in candidates})
        if len(kinds) > 1:
            raise CardError(f"{word} is worth {' or '.join(str(v) for v in kinds)} in "
                            f"{rules.name}: type the value ({', '.join(map(str, kinds))})")
    for code in candidates:   # the first copy still free this round
        if taken[code] < held[code]:
            return code
    return candidates[0]   # every copy taken: the engine says how many the deck holds


def suit_values(rules: Ruleset) -> dict[str, list[int]]:
    """The ranks whose value depends on the suit (golf's kings: 13 black, -1 red), each with
    its values: the only cards whose value a keeper types to say which colour it is."""
    values = rules.values()
    kinds: dict[str, set[int]] = {}
    for code in rules.deck_codes():
        kinds.setdefault(_rank(code), set()).add(values[code])
    return {rank: sorted(v) for rank, v in kinds.items() if len(v) > 1}


def _rank(code: str) -> str:
    return code if code == "JK" or code.isdigit() else code[:-1]


def _is_int(word: str) -> bool:
    return word.lstrip("-").isdigit() and word.count("-") <= 1


def tally_round(log: GameLog, caller: str | None, hands: Mapping[str, Sequence[str]], *,
                end: str | None = None, first: str | None = None) -> Scored:
    """Check one round of a score sheet and append it (the engine's checks and scoring; a
    refused round raises the engine's error, located at the line it would have been, and
    leaves the file as it was). What a terminal score keeper and a web page both call."""
    g = log.state
    assert g is not None
    line: dict[str, Any] = {"type": "tally", "round": next_round(g), "caller": caller,
                            "hands": {p: list(cards) for p, cards in hands.items()}}
    if end is not None:
        line["end"] = end
    if first is not None:
        line["first"] = first
    log.append(line)
    g = log.state
    assert g is not None
    return Scored(g.rounds[-1], g.complete, g.winners, g.cumulative_by_name())


def forfeit(log: GameLog, player: str, reason: str | None = None) -> GameState:
    """A player leaves the match (rulesets with forfeits): appended like a round."""
    line: dict[str, Any] = {"type": "forfeit", "player": player}
    if reason:
        line["reason"] = reason
    log.append(line)
    assert log.state is not None
    return log.state


def append_round(path: str | os.PathLike[str], caller: str | None,
                 hands: Mapping[str, Sequence[str]], **fields: str | None) -> Scored:
    """``tally_round`` on a sheet opened for this one round (locked meanwhile), for a caller
    that keeps no log open between rounds, such as a page served over HTTP."""
    with open_sheet(path) as log:
        return tally_round(log, caller, hands, **fields)


__all__ = ["CaboLogError", "CardError", "Scored", "append_round", "forfeit", "next_round",
           "open_sheet", "read_cards", "seated", "start_sheet", "suit_values",
           "tally_round"]
