"""Self-play: bots play complete matches through the engine, recorded as ordinary cabo-log/1 logs.

The simulator is the "server" of the table: it shuffles and deals (with the game's own
``random.Random``), asks each bot for its move given only that player's observation and the
legal moves, and applies every event through ``engine.apply`` before writing it, so a log it
writes is valid by construction and replays with no knowledge of the simulator. It records what
the format asks of a recorder: the full deal and every reshuffle order, ``seq`` on every line,
``card`` on deck draws, and ``round_end``/``game_end`` claims (checked again by every replay).

Determinism: one game depends only on its arguments. ``random.Random(seed)`` seeds independent
streams for the shuffles, the table (forfeits, timeouts), each bot and the clock; the global
random state and the wall clock are never used (``timestamps=True`` adds a simulated ``t`` to
every line and the real ``started_at`` to the header, the only non-reproducible byte).
``write_games`` derives game ``i``'s seed from ``(seed, i)`` with SHA-256 (``game_seed``).
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import orjson

from cabo_log.play.bots import BOTS
from cabo_log.play.match import (
    MAX_SNAPS,
    MAX_TURNS,
    Match,
    SimulationError,
    header_line,
    timeout_move,
)
from cabo_log.progress import Progress
from engine import GameState, resolve
from engine.rulesets import Ruleset

PLAYER_IDS = ("ana", "bruno", "carla", "dario", "eva", "filipa")
SeatNames = Literal["bots", "people"]
SEAT_NAMES: tuple[SeatNames, ...] = ("bots", "people")
"""How a table's seats are named when only their number is given (``seat_ids``): after their
bot (``expert-1``), or as people (``PLAYER_IDS``), which the library keeps by default."""
BATCH_GAMES = 16
"""At most this many games per task sent to a worker: a game of two random bots takes a few
ms, about what one round trip to a worker costs on a loaded machine (one game per task made
``--jobs 2`` three times slower than ``--jobs 1``); a quarter of each worker's share at least
keeps the work balanced and the progress bar moving."""
_timeout_move = timeout_move   # the name the tests know


@dataclass
class SimulatedGame:
    """One simulated match: its log's bytes and the state they lead to."""

    data: bytes
    state: GameState
    bots: dict[str, str]
    seed: int
    _events: list[dict[str, Any]] | None = field(default=None, repr=False)

    def lines(self) -> bytes:
        """The log file's bytes (compact JSON Lines, as ``write_games`` writes them)."""
        return self.data

    @property
    def events(self) -> list[dict[str, Any]]:
        """The log's lines as dicts, header first (read from the bytes when first asked)."""
        if self._events is None:
            self._events = [orjson.loads(line) for line in self.data.splitlines()]
        return self._events

    @property
    def rounds(self) -> int:
        return len(self.state.rounds)


@dataclass
class SimulationSummary:
    """What ``write_games`` did."""

    out_dir: Path
    ruleset: str
    games: int = 0
    rounds: int = 0
    events: int = 0
    bytes: int = 0
    seconds: float = 0.0
    files: list[Path] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds > 0 else 0.0

    def __str__(self) -> str:
        return (f"{self.games} game{'s' if self.games != 1 else ''} ({self.ruleset}), "
                f"{self.rounds} rounds, {self.events} events, {self.bytes / 1e6:.1f} MB "
                f"in {self.seconds:.1f} s ({self.games_per_second:.0f} games/s, "
                f"{self.events_per_second:.0f} events/s) -> {self.out_dir}")


# --- arguments -------------------------------------------------------------------------------


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed`` (stable on every machine)."""
    digest = hashlib.sha256(f"cabo-log/simulate/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def game_name(ruleset: str, seed: int, index: int) -> str:
    """The file stem (and game id) of game ``index``: sortable, stable."""
    return f"{ruleset}-s{seed}-{index:06d}"


def seat_ids(count: int, bots: Sequence[str], seat_names: SeatNames) -> tuple[str, ...]:
    """The player ids of ``count`` seats: each seat's bot and seat number (``expert-1``,
    ``greedy-2``: a corpus then compares bots, not seats) or ``PLAYER_IDS`` (``people``)."""
    if seat_names == "people":
        return PLAYER_IDS[:count]
    return tuple(f"{bots[i % len(bots)]}-{i + 1}" for i in range(count))


def table(ruleset: str, *, players: int | Sequence[str] = 3, options: dict[str, Any] | None = None,
          bots: str | Sequence[str] = "greedy", forfeit_rate: float = 0.0,
          auto_rate: float = 0.0, seat_names: SeatNames = "people"
          ) -> tuple[Ruleset, tuple[str, ...], list[str]]:
    """Check the arguments of a simulation: (rules, player ids, one bot name per seat).
    ``players`` a count seats that many, named by ``seat_ids`` (``seat_names``).

    Raises ValueError (``engine.RulesetError`` is one) with a one-line, user-facing message.
    """
    if not isinstance(ruleset, str):
        raise ValueError("the ruleset must be a built-in ruleset name")
    opts = dict(options or {})
    rules = resolve(ruleset, opts)
    names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    if isinstance(players, int):
        if not 2 <= players <= len(PLAYER_IDS):
            raise ValueError(f"the simulator seats 2 to {len(PLAYER_IDS)} players, "
                             f"not {players}")
        if seat_names not in SEAT_NAMES:
            raise ValueError(f"seat names are {' or '.join(SEAT_NAMES)}, not {seat_names!r}")
        ids = seat_ids(players, names or ["bot"], seat_names)
    else:
        ids = tuple(players)
        if len(set(ids)) != len(ids) or any(not isinstance(p, str) or not p for p in ids):
            raise ValueError("player ids must be unique non-empty strings")
    if not rules.players_allowed(len(ids)):
        more = ""
        if rules.decks == 1 and rules.max_players_two_decks > rules.max_players:
            more = f" ({rules.max_players_two_decks} with the option decks: 2)"
        raise ValueError(f"{rules.name} is for {rules.min_players} to {rules.player_limit()} "
                         f"players{more}, not {len(ids)}")
    for name in names:
        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})")
    if not names or len(names) > len(ids):
        raise ValueError(f"{len(names)} bots for {len(ids)} players: give at most one bot "
                         "per seat")
    names = [names[i % len(names)] for i in range(len(ids))]  # the list repeats round the table
    for label, rate in (("forfeit rate", forfeit_rate), ("auto rate", auto_rate)):
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"the {label} must be between 0 and 1, not {rate}")
    if forfeit_rate > 0 and not rules.forfeits:
        raise ValueError(f"there are no forfeits in {rules.name} (only in online)")
    return rules, ids, names


# --- one match -------------------------------------------------------------------------------


def simulate(ruleset: str = "edition1", *, players: int | list[str] = 3, seed: int = 0,
             options: dict[str, Any] | None = None, bots: str | list[str] = "greedy",
             game_id: str | None = None, forfeit_rate: float = 0.0, auto_rate: float = 0.0,
             timestamps: bool = False, out: Path | None = None,
             seat_names: SeatNames = "people") -> SimulatedGame:
    """Play one complete match; the log's event dicts and the final state. With ``out``, the
    log is also written there as it is played, through the append API (a file there is
    replaced)."""
    rules, ids, names = table(ruleset, players=players, options=options, bots=bots,
                              forfeit_rate=forfeit_rate, auto_rate=auto_rate,
                              seat_names=seat_names)
    bot_names = dict(zip(ids, names, strict=True))
    header = header_line(game_id if game_id is not None else f"{ruleset}-s{seed}", ruleset,
                         dict(options or {}), ids, bot_names, seed, timestamps)
    match = Match(rules, header, names, seed, forfeit_rate, auto_rate, out)
    try:
        state = match.run()
    finally:
        match.recorder.close()
    data = match.recorder.writer.sink.committed() if out is None else Path(out).read_bytes()
    return SimulatedGame(data, state, bot_names, seed)


def simulate_game(ruleset: str = "edition1", *, players: int | list[str] = 3, seed: int = 0,
                  options: dict[str, Any] | None = None, bots: str | list[str] = "greedy",
                  game_id: str | None = None, forfeit_rate: float = 0.0,
                  auto_rate: float = 0.0, timestamps: bool = False) -> list[dict[str, Any]]:
    """Play one complete match; the event dicts of its log, header first."""
    return simulate(ruleset, players=players, seed=seed, options=options, bots=bots,
                    game_id=game_id, forfeit_rate=forfeit_rate, auto_rate=auto_rate,
                    timestamps=timestamps).events


# --- many matches ----------------------------------------------------------------------------


def existing_logs(out_dir: str | Path, ruleset: str, *, seed: int, games: int) -> list[Path]:
    """The files a run of ``write_games`` would overwrite: same ruleset, seed and game number
    (the names do not say which bots or options played, so another run's files look alike)."""
    out = Path(out_dir)
    if not out.is_dir():
        return []
    return [path for index in range(games)
            if (path := out / f"{game_name(ruleset, seed, index)}.jsonl").exists()]


def check_run(out_dir: str | Path, ruleset: str, *, games: int,
              players: int | list[str] = 3, seed: int = 0,
              options: dict[str, Any] | None = None, bots: str | list[str] = "greedy",
              forfeit_rate: float = 0.0, auto_rate: float = 0.0, force: bool = False,
              seat_names: SeatNames = "people") -> None:
    """Whether a ``write_games`` run can start, before anything is created: raises
    ValueError with one user-facing sentence (bad table, no games, ``out_dir`` a file, or
    logs of an earlier run there that only ``force`` may overwrite)."""
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    try:
        table(ruleset, players=players, options=options, bots=bots,
              forfeit_rate=forfeit_rate, auto_rate=auto_rate, seat_names=seat_names)
    except ValueError as exc:
        raise ValueError(getattr(exc, "message", None) or str(exc)) from None
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file, not a folder")
    taken = existing_logs(out, ruleset, seed=seed, games=games)
    if taken and not force:
        raise ValueError(f"{out} already holds {len(taken)} of these logs ({taken[0].name}"
                         f"{', ...' if len(taken) > 1 else ''}); --force overwrites them, or "
                         "choose another --out or --seed")


def write_games(out_dir: str | Path, ruleset: str, *, games: int,
                players: int | list[str] = 3, seed: int = 0,
                options: dict[str, Any] | None = None, bots: str | list[str] = "greedy",
                forfeit_rate: float = 0.0, auto_rate: float = 0.0, timestamps: bool = False,
                progress: bool = False, jobs: int | None = None,
                seat_names: SeatNames = "people") -> SimulationSummary:
    """Simulate ``games`` matches into ``out_dir``/``{ruleset}-s{seed}-{index:06d}.jsonl``,
    in ``jobs`` worker processes (default one per core, see ``workers.worker_count``). Each
    game depends only on ``(seed, index)``, so the files are the same for any ``jobs``; each
    is written whole or not at all (a stopped run leaves no half file)."""
    from cabo_log.workers import Pool, worker_count

    table(ruleset, players=players, options=options, bots=bots, forfeit_rate=forfeit_rate,
          auto_rate=auto_rate, seat_names=seat_names)  # fail before creating anything
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = SimulationSummary(out_dir=out, ruleset=ruleset)
    bar = Progress(games, sys.stderr, unit="games") if progress else None
    started = time.perf_counter()
    workers = worker_count(jobs, games)
    batch = 1 if workers <= 1 else max(1, min(BATCH_GAMES, games // (4 * workers)))
    orders = (_Order(out, ruleset, seed, range(first, min(first + batch, games)), players,
                     options, bots, forfeit_rate, auto_rate, timestamps, seat_names)
              for first in range(0, games, batch))
    try:
        with Pool(workers, preload=[__name__]) as pool:
            for written in pool.imap(_write_batch, orders):
                for path, rounds, events, size in written:
                    summary.files.append(path)
                    summary.games += 1
                    summary.rounds += rounds
                    summary.events += events
                    summary.bytes += size
                if bar is not None:
                    bar.update(summary.games)
    except BaseException:
        for part in out.glob(".*.jsonl.part"):   # of workers stopped while writing
            part.unlink(missing_ok=True)
        if bar is not None:
            bar.close()
        raise
    summary.seconds = time.perf_counter() - started
    if bar is not None:
        bar.close()
    return summary


@dataclass(frozen=True)
class _Order:
    """Everything a batch of games of ``write_games`` depends on (sent to a worker)."""

    out: Path
    ruleset: str
    seed: int
    indices: range
    players: int | list[str]
    options: dict[str, Any] | None
    bots: str | list[str]
    forfeit_rate: float
    auto_rate: float
    timestamps: bool
    seat_names: SeatNames


def _write_batch(order: _Order) -> list[tuple[Path, int, int, int]]:
    """Simulate and write the order's games (in a worker), in order."""
    return [_write_game(order, index) for index in order.indices]


def _write_game(order: _Order, index: int) -> tuple[Path, int, int, int]:
    """Simulate and write one game: its path, rounds, events and bytes."""
    name = game_name(order.ruleset, order.seed, index)
    path = order.out / f"{name}.jsonl"
    part = path.with_name(f".{path.name}.part")   # written whole, then renamed
    # played through the append API in memory (every line checked by the engine), then the
    # file is written in one go: not a write per line
    game = simulate(order.ruleset, players=order.players, seed=game_seed(order.seed, index),
                    options=order.options, bots=order.bots, game_id=name,
                    forfeit_rate=order.forfeit_rate, auto_rate=order.auto_rate,
                    timestamps=order.timestamps, seat_names=order.seat_names)
    data = game.lines()
    with part.open("wb") as f:
        f.write(data)
    size = len(data)
    os.replace(part, path)
    return path, game.rounds, data.count(b"\n"), size


__all__ = ["MAX_SNAPS", "MAX_TURNS", "PLAYER_IDS", "SEAT_NAMES", "SeatNames", "SimulatedGame",
           "SimulationError", "SimulationSummary", "check_run", "existing_logs", "game_name",
           "game_seed", "seat_ids", "simulate", "simulate_game", "table", "write_games"]
