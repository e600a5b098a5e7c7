"""``cabo-log whatif``: from the real table after an event (or with another move there), bots
play on many times; each player's chance to win the round and the match, and expected points.

Unlike ``analyse`` this looks at the omniscient table: every card stays where it was, only the
draw pile (the future nobody knew yet) is shuffled afresh for each playout, and later rounds
are dealt at random. Error bars are 95 % intervals (1.96 standard errors); a finished round or
match gives certainty (zero width).
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass
from typing import Any

from cabo_log.analysis.decisions import NeedsFullRecord
from cabo_log.analysis.rollout import DEFAULT_POLICY, Table
from cabo_log.analysis.worlds import MoveCache, playable, shuffle_deck
from cabo_log.log.replay import replay_bytes
from engine import CaboLogError, GameState, apply, parse_event
from engine.events import to_dict
from engine.state import DRAWN, POWER, TURN_START

DEFAULT_PLAYOUTS = 200
Z95 = 1.96


@dataclass(frozen=True)
class Estimate:
    """A mean over playouts with its 95 % half-width."""

    mean: float
    half_width: float

    @classmethod
    def of(cls, samples: list[float]) -> Estimate:
        n = len(samples)
        mean = sum(samples) / n
        if n < 2:
            return cls(mean, 0.0)
        var = sum((x - mean) ** 2 for x in samples) / (n - 1)
        return cls(mean, Z95 * math.sqrt(var / n))

    def as_json(self) -> dict[str, float]:
        return {"mean": round(self.mean, 4), "ci95": round(self.half_width, 4)}


@dataclass
class PlayerOutlook:
    player: str
    round_win: Estimate | None      # None: not scored in that round
    match_win: Estimate
    round_points: Estimate | None


@dataclass
class WhatIf:
    file: str | None
    game_id: str
    seq: int
    move: dict[str, Any] | None
    round: int
    playouts: int
    policy: str
    players: list[PlayerOutlook]

    def as_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "file": self.file, "seq": self.seq,
                "move": self.move, "round": self.round, "playouts": self.playouts,
                "bot": self.policy,
                "players": {p.player: {
                    "round_win": p.round_win.as_json() if p.round_win else None,
                    "match_win": p.match_win.as_json(),
                    "round_points": p.round_points.as_json() if p.round_points else None}
                    for p in self.players}}

    def text(self) -> str:
        what = f"with {self.move} at seq {self.seq}" if self.move else f"after seq {self.seq}"
        lines = [f"{self.game_id} {what}: {self.playouts} playouts by {self.policy} bots "
                 f"(± 95 % interval)",
                 f"  {'player':<10} {'wins round ' + str(self.round):>18} "
                 f"{'wins match':>18} {'round points':>18}"]
        for p in self.players:
            lines.append(f"  {p.player:<10} {_pct(p.round_win):>18} {_pct(p.match_win):>18} "
                         f"{_pts(p.round_points):>18}")
        return "\n".join(lines)


def _pct(e: Estimate | None) -> str:
    return "-" if e is None else f"{100 * e.mean:.1f} % ± {100 * e.half_width:.1f}"


def _pts(e: Estimate | None) -> str:
    return "-" if e is None else f"{e.mean:.1f} ± {e.half_width:.1f}"


def position_at(data: bytes, file: str | None, seq: int,
                move: dict[str, Any] | None) -> GameState:
    """The table after event ``seq``, or after ``move`` played instead of it; a bad log or an
    illegal move raises a located CaboLogError, a seq outside the log ValueError."""
    result = replay_bytes(data, file, until=seq - 1 if move is not None else seq)
    if result.error is not None:
        raise result.error
    g = result.state
    assert g is not None
    if g.tally:
        raise NeedsFullRecord(file)
    last = g.events - 1
    if seq < 1 or last < (seq - 1 if move is not None else seq):
        raise ValueError(f"--at {seq}: {file or 'the log'} has events 1 to {last}")
    if move is not None:
        line = result.last_line + 1
        try:
            event = parse_event({**move, "seq": g.events} if g.seq_mode else move)
            apply(g, event)
        except CaboLogError as exc:
            raise exc.located(file, line) from None
    return g


def whatif_bytes(data: bytes, file: str | None = None, *, seq: int,
                 move: dict[str, Any] | None = None, playouts: int = DEFAULT_PLAYOUTS,
                 seed: int = 0, policy: str = DEFAULT_POLICY) -> WhatIf:
    """See the module docstring."""
    g = position_at(data, file, seq, move)
    in_round = g.phase in (TURN_START, DRAWN, POWER)
    round_no = g.round.round_no if in_round or g.rounds else 1
    samples: list[tuple[dict[str, int], tuple[str, ...]]] = []
    cache = MoveCache()
    for k in range(playouts):
        rng = random.Random(_seed(seed, g.game_id, seq, k))
        samples.append(_playout(g, in_round, policy, rng, cache))
    players = []
    for p in g.players:
        points = [float(s[0][p]) for s in samples if p in s[0]]
        wins = [1.0 if p in s[0] and s[0][p] == min(s[0].values()) else 0.0 for s in samples]
        players.append(PlayerOutlook(
            p, Estimate.of(wins) if points else None,
            Estimate.of([1.0 if p in s[1] else 0.0 for s in samples]),
            Estimate.of(points) if points else None))
    shown = None if move is None else to_dict(parse_event(
        {k: v for k, v in move.items() if k != "seq"}))
    return WhatIf(file, g.game_id, seq, shown, round_no, playouts, policy, players)


def _playout(g: GameState, in_round: bool, policy: str, rng: random.Random,
             cache: MoveCache) -> tuple[dict[str, int], tuple[str, ...]]:
    """One playout: the round's points and the match's winners."""
    world = playable(g)
    table = Table(world, policy, rng, cache)
    if in_round:
        shuffle_deck(world, rng)
        points = table.play_round(since=len(g.rounds))
    elif g.rounds:
        points = dict(g.rounds[-1].points)
    else:
        table.deal()
        points = table.play_round(since=0)
    winners = g.winners if g.complete else table.play_match()
    return points, winners


def _seed(seed: int, game_id: str, seq: int, k: int) -> int:
    text = f"cabo-log/whatif/{seed}/{game_id}/{seq}/{k}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
