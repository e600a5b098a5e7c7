"""A score sheet the host keeps for a game played with real cards, independent of the web.

A sheet is one ``record: "tally"`` log in the host's folder (``DIR/<id>.jsonl``, chained from
its header on, the header marked ``"sheet": {"by": "cabo-log host"}``), written through the
same calls as ``cabo-log tally`` (``cabo_log.log.scoresheet``: ``start_sheet``, ``read_cards``,
``tally_round``, ``forfeit``): each round read as the players read their cards, checked and
scored by the engine, appended whole, fsync'd, under the writer's lock. The log stays open
(locked) while the host holds the sheet, so nothing else writes to it meanwhile.

Whoever has the sheet's link may enter rounds: the link carries a key of 256 random bits; the
host keeps only its SHA-256, in a hidden file beside the log (never in the log, which is
loaded into databases), and compares a key in constant time, as it does the seats' tokens.

A ``Sheet`` is not thread-safe: callers hold ``lock`` (the web app's worker threads do).
"""

from __future__ import annotations

import hmac
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cabo_log.log.gamelog import GameLog
from cabo_log.log.scoresheet import (
    CardError,
    Scored,
    forfeit,
    next_round,
    open_sheet,
    read_cards,
    seated,
    start_sheet,
    tally_round,
)
from cabo_log.pages.table.seats import digest, new_token, read_private, write_private
from engine import CaboLogError, GameState

SHEET_FIELD = "sheet"          # the header's mark: {"by": "cabo-log host"}
# the form's value for "nobody called: the draw pile ran out"; longer than any name the host
# takes (24 characters), so no player can be mistaken for it
NOBODY = "(nobody: the draw pile ran out)"


class Refused(ValueError):
    """A round (or a departure) the sheet does not take; the sentence says why, in words."""


@dataclass(frozen=True)
class Opened:
    sheet: Sheet
    key: str                   # the secret of the sheet's link, shown to its opener


def key_file(log: Path) -> Path:
    """Where a sheet keeps its key's digest: a hidden file beside its log."""
    return log.with_name(f".{log.stem}.sheet.json")


def hosted_sheet(header: object, by: str) -> bool:
    """Whether a log's header is that of a sheet this host (``by``) keeps."""
    if not isinstance(header, dict):
        return False
    mark = header.get(SHEET_FIELD)
    return isinstance(mark, dict) and mark.get("by") == by and header.get("record") == "tally"


class Sheet:
    """One hosted score sheet: ``log`` is open (locked) for as long as the host holds it."""

    def __init__(self, log: GameLog, key_digest: str | None) -> None:
        self.log = log
        self.key_digest = key_digest
        self.path: Path = log.path
        self.id: str = self.state.game_id
        self.lock = threading.Lock()         # held by whoever calls in (the web app)

    @property
    def state(self) -> GameState:
        assert self.log.state is not None
        return self.log.state

    def accepts(self, key: str) -> bool:
        """Whether ``key`` is this sheet's (constant time; a sheet without a key file, whose
        key is lost, accepts none: it can still be read)."""
        if self.key_digest is None or not key:
            return False
        return hmac.compare_digest(self.key_digest, digest(key))

    def close(self) -> None:
        self.log.close()

    # --- entering -------------------------------------------------------------------------
    def enter(self, round_no: int | None, caller: str | None,
              texts: Mapping[str, str]) -> Scored:
        """One round as the page sent it: ``round_no`` the round the form was for (a form
        sent twice, or a round someone else entered meanwhile, is refused rather than scored
        again), ``caller`` a player's name or ``NOBODY``, ``texts`` each player's cards as
        typed. Written through ``tally_round`` (the engine checks and scores it); a refusal
        raises ``Refused`` and leaves the log as it was."""
        g = self.state
        if g.complete:
            self._match_over()
        expected = next_round(g)
        if round_no is not None and round_no != expected:
            raise Refused(f"this form was for round {round_no}, but the sheet is at round "
                          f"{expected} (someone entered a round meanwhile, or the form was "
                          "sent twice): look at the sheet, then enter the round if it is "
                          "missing")
        players = seated(g)
        who = self._caller(g, caller, players)
        hands = read_hands(g, players, texts)
        try:
            return tally_round(self.log, who, hands)
        except CaboLogError as exc:
            raise Refused(exc.message) from None

    def _match_over(self) -> None:
        """The engine's refusal of a round after the match end, in its words (it refuses any
        tally at that point, before reading the round's cards)."""
        try:
            tally_round(self.log, None, {})
        except CaboLogError as exc:
            raise Refused(exc.message) from None
        raise AssertionError("the engine scored a round after the match end")  # pragma: no cover

    @staticmethod
    def _caller(g: GameState, caller: str | None, players: Sequence[str]) -> str | None:
        nobody_ok = g.rules.deck_empty_ends_round
        if not caller:
            raise Refused("choose who called Cabo" +
                          (", or nobody (the draw pile ran out)" if nobody_ok else ""))
        if caller == NOBODY:
            return None     # the engine says so where only a call ends a round
        if caller not in players:
            raise Refused(f"{caller} does not play in round {next_round(g)}: choose one of "
                          f"{', '.join(players)}")
        return caller

    def leave(self, player: str) -> None:
        """A player leaves the match (rulesets with forfeits), written like a round."""
        g = self.state
        if not g.rules.forfeits:
            raise Refused(f"there are no forfeits in {g.rules.name}")
        if player not in g.players:
            raise Refused("choose the player who left")
        try:
            forfeit(self.log, player, "left")
        except CaboLogError as exc:
            raise Refused(exc.message) from None

    def summary(self) -> dict[str, Any]:
        """One line of the host's list of sheets."""
        g = self.state
        scores = g.cumulative_by_name()
        return {"id": self.id, "ruleset": g.rules.name, "rounds": len(g.rounds),
                "over": g.complete, "winners": list(g.winners),
                "players": [{"name": p, "score": scores[p], "active": bool(g.active[i])}
                            for i, p in enumerate(g.players)]}


def read_hands(g: GameState, players: Sequence[str],
               texts: Mapping[str, str]) -> dict[str, list[str]]:
    """Each player's row from what was typed (``read_cards``: values, codes, ``-`` for an
    empty row); a row that does not read is refused naming its player."""
    taken: Counter[str] = Counter()
    hands: dict[str, list[str]] = {}
    for player in players:
        text = texts.get(player, "").strip()
        if not text:
            raise Refused(f"type {player}'s cards, or - for a row with no cards")
        try:
            hands[player] = read_cards(g.rules, text, taken)
        except CardError as exc:
            raise Refused(f"{player}'s cards: {exc}") from None
    return hands


def create_sheet(path: Path, ruleset: str | dict[str, Any], players: Sequence[str], *,
                 options: Mapping[str, Any], started_at: str, by: str) -> Opened:
    """A new sheet at ``path`` (``log_exists`` and the engine's header checks raise as
    ``CaboLogError``) with a new key, its digest saved beside the log."""
    key = new_token()
    log = start_sheet(path, ruleset, players, options=options, game_id=path.stem,
                      started_at=started_at, extra={SHEET_FIELD: {"by": by}})
    try:
        write_private(key_file(path), {"key": digest(key)})
        return Opened(Sheet(log, digest(key)), key)
    except BaseException:
        log.close()
        raise


def resume_sheet(path: Path) -> Sheet:
    """A sheet read back from its log (and its key's digest) after a restart."""
    log = open_sheet(path)
    try:
        return Sheet(log, read_private(key_file(path)).get("key"))
    except BaseException:
        log.close()
        raise
