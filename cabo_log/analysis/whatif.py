"""``cabo-log whatif``: from the real table after an event (or with another move there), bots
play on many times; each player's chance to win the round and the match, and expected points.

The playouts look at the real table: every card stays where it really was, only the draw pile
(the future nobody knew yet) is shuffled afresh for each playout, and later rounds are dealt at
random. Error bars are 95 % intervals (1.96 standard errors); a finished round or match gives
certainty (zero width). With another move, the logged event is played on too, playout k of
both on the same random stream, so their difference is the move's alone.

``analyse`` asks another question: what the move was worth from what its player knew, over
the worlds they could not tell apart. With another move, whatif asks that too, through the
analysis' own evaluation (``judgement``), and prints both answers.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

from cabo_log.analysis.decisions import NeedsFullRecord
from cabo_log.analysis.evaluate import DEFAULT_ROLLOUTS, Settings
from cabo_log.analysis.judgement import Judgement, NotJudged, judge
from cabo_log.analysis.movecache import MoveCache
from cabo_log.analysis.rollout import DEFAULT_POLICY, Table, resolve
from cabo_log.analysis.stats import mean_stderr
from cabo_log.analysis.whatif_text import whatif_text
from cabo_log.analysis.words import infinitive, past
from cabo_log.log.logfile import iter_events, iter_lines
from cabo_log.log.replay import replay_bytes
from engine import CaboLogError, Event, GameState, apply, parse_event
from engine.events import to_dict
from engine.vocabulary import DRAWN, POWER, TURN_START
from engine.worlds import playable, shuffle_deck

DEFAULT_PLAYOUTS = 200
Z95 = 1.96
Sample = tuple[dict[str, int], tuple[str, ...]]   # a playout's round points, match winners


@dataclass(frozen=True)
class Estimate:
    """A mean over playouts with its 95 % half-width."""

    mean: float
    half_width: float

    @classmethod
    def of(cls, samples: list[float]) -> Estimate:
        mean, se = mean_stderr(samples)
        return cls(mean, Z95 * (se or 0.0))

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
    """The real table played on after ``seq`` (``players``); with ``move``, also after the
    logged event (``logged``: the same playouts, so the two lines differ by the move alone)
    and the move judged from the mover's knowledge as ``analyse`` does (``judgement``, or
    ``not_judged`` saying why not)."""

    file: str | None
    game_id: str
    seq: int
    move: dict[str, Any] | None
    round: int
    playouts: int
    policy: str
    players: list[PlayerOutlook]
    move_text: str | None = None            # "replace 2"
    mover: str | None = None
    logged: list[PlayerOutlook] | None = None
    logged_text: str | None = None          # the logged event: "ana discarded a 12"
    judgement: Judgement | None = None
    not_judged: str | None = None
    differences: dict[str, Estimate | None] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "file": self.file, "seq": self.seq,
                "move": self.move, "move_text": self.move_text, "round": self.round,
                "table": "real", "playouts": self.playouts, "bot": self.policy,
                "interval": "95 % (1.96 standard errors)",
                "players": _outlooks_json(self.players),
                "logged": None if self.logged is None else {
                    "text": self.logged_text, "players": _outlooks_json(self.logged)},
                "difference": {k: None if v is None else v.as_json()
                               for k, v in self.differences.items()} or None,
                "knowledge": None if self.judgement is None else self.judgement.as_json(),
                "not_judged": self.not_judged}

    def text(self) -> str:
        return whatif_text(self)


def _outlooks_json(players: list[PlayerOutlook]) -> dict[str, Any]:
    return {p.player: {
        "round_win": p.round_win.as_json() if p.round_win else None,
        "match_win": p.match_win.as_json(),
        "round_points": p.round_points.as_json() if p.round_points else None}
        for p in players}


def _tables(data: bytes, file: str | None, seq: int, move: dict[str, Any] | None
            ) -> tuple[GameState, GameState | None, Event | None, GameState | None]:
    """The table after ``move`` (or after event ``seq``), and with ``move``: the table after
    the logged event, the move as an event, and the table before it (for its words)."""
    if move is None:
        return position_at(data, file, seq, None), None, None, None
    logged = position_at(data, file, seq, None)
    before = position_at(data, file, seq - 1, None) if seq > 1 else None
    g = position_at(data, file, seq, move)
    return g, logged, parse_event({k: v for k, v in move.items() if k != "seq"}), before


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
                 seed: int = 0, policy: str = DEFAULT_POLICY,
                 worlds: int = DEFAULT_ROLLOUTS) -> WhatIf:
    """See the module docstring. ``worlds``: with ``move``, the sampled worlds per option of
    the judgement from the mover's knowledge (``analyse --rollouts``)."""
    g, logged_g, event, before = _tables(data, file, seq, move)
    in_round = g.phase in (TURN_START, DRAWN, POWER)
    round_no = g.round_no() if in_round or g.rounds else 1
    real = resolve(policy, g, whole_match=True)   # the real table plays whole matches
    samples = _samples(g, seq, seed, real, playouts)
    result = WhatIf(file, g.game_id, seq, None, round_no, playouts, real,
                    _outlook(g.players, samples))
    if event is None or logged_g is None:
        return result
    result.move = to_dict(event)
    result.mover = getattr(event, "player", None)
    result.move_text = infinitive(event, before) if before is not None else event.TYPE
    logged = _samples(logged_g, seq, seed, real, playouts)
    result.logged = _outlook(logged_g.players, logged)
    result.logged_text = _logged_words(data, file, seq, before)
    result.differences = _differences(samples, logged, result.mover)
    try:
        result.judgement = judge(data, file, seq, event, Settings(worlds, seed, policy))
    except NotJudged as exc:
        result.not_judged = str(exc)
    return result


def _logged_words(data: bytes, file: str | None, seq: int, before: GameState | None) -> str:
    """The logged event at ``seq`` in words, with who made it: "ana discarded a 12"."""
    for index, (_, event) in enumerate(iter_events(iter_lines(data), file)):
        if (event.seq if event.seq is not None else index) != seq:
            continue
        text = past(event, before) if before is not None else event.TYPE
        player = getattr(event, "player", None)
        return f"{player} {text}" if player else f"the {text}"
    return f"event {seq}"   # pragma: no cover - position_at found it


def _outlook(names: tuple[str, ...], samples: list[Sample]) -> list[PlayerOutlook]:
    players = []
    for p in names:
        points = [float(s[0][p]) for s in samples if p in s[0]]
        wins = [1.0 if p in s[0] and s[0][p] == min(s[0].values()) else 0.0 for s in samples]
        players.append(PlayerOutlook(
            p, Estimate.of(wins) if points else None,
            Estimate.of([1.0 if p in s[1] else 0.0 for s in samples]),
            Estimate.of(points) if points else None))
    return players


def _samples(g: GameState, seq: int, seed: int, policy: str,
             playouts: int) -> list[Sample]:
    """The playouts from ``g``: playout k draws on the random stream k of (seed, game, seq),
    whichever move led to ``g``, so two lines from the same seq differ by their move alone."""
    in_round = g.phase in (TURN_START, DRAWN, POWER)
    cache = MoveCache()
    return [_playout(g, in_round, policy, random.Random(_seed(seed, g.game_id, seq, k)), cache)
            for k in range(playouts)]


def _differences(a: list[Sample], b: list[Sample],
                 mover: str | None) -> dict[str, Estimate | None]:
    """The mover's round points and match-win chance after the move (``a``) minus after the
    logged event (``b``), paired playout by playout (the same random streams)."""
    if mover is None:
        return {}
    points = [float(x[0][mover] - y[0][mover]) for x, y in zip(a, b, strict=True)
              if mover in x[0] and mover in y[0]]
    wins = [float((mover in x[1]) - (mover in y[1])) for x, y in zip(a, b, strict=True)]
    return {"round_points": Estimate.of(points) if points else None,
            "match_win": Estimate.of(wins)}


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
