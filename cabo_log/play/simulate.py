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
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cabo_log.log.append import EventWriter, GameLog, MemorySink
from cabo_log.log.logfile import dumps_event
from cabo_log.play.bots import BOTS, Bot, make_bot
from cabo_log.play.lines import stamp
from cabo_log.play.moveset import moves_for
from cabo_log.progress import Progress
from engine import CaboLogError, GameState, Outcome, finish, resolve
from engine.events import (
    FORMAT,
    Cabo,
    Deal,
    Draw,
    Event,
    Forfeit,
    GameEnd,
    Reshuffle,
    RoundEnd,
    Skip,
    Snap,
    to_dict,
)
from engine.knowledge import observe
from engine.moves import needs_deal, needs_reshuffle, peek_moves, snap_moves
from engine.rulesets import Ruleset
from engine.scoring import expected_first, rotate_first
from engine.state import DRAWN, POWER, ROUND_OVER, TURN_START
from engine.vocabulary import DrawSource

PLAYER_IDS = ("ana", "bruno", "carla", "dario", "eva", "filipa")
FORFEIT_REASONS = ("left", "disconnected")

# Table habits of the simulated "server" (they only vary the log, never its legality).
RESHUFFLE_EARLY = 0.75      # reshuffle as soon as the pile is empty (else: when a card is needed)
EXPLICIT_SKIP = 0.75        # a declined power is logged as `skip` (else: the next turn starts)
MAX_SNAPS = 4               # snaps between two turns
MAX_TURNS = 400             # turns in a round before the player to move is made to call Cabo
MAX_ROUNDS = 5000           # a match longer than this is a simulator bug

# Simulated thinking time per event type, in ms (for --timestamps).
_THINK = {"deal": (4000, 12000), "peek": (800, 3000), "draw": (1000, 6000),
          "discard": (500, 3000), "replace": (800, 5000), "power": (1500, 7000),
          "skip": (300, 1500), "cabo": (1000, 4000), "snap": (200, 1500),
          "reshuffle": (2000, 5000), "forfeit": (0, 60000), "round_end": (0, 0),
          "game_end": (0, 0)}
_TIMEOUT_MS = 60000


class SimulationError(RuntimeError):
    """A bot returned an illegal move, or a match ran away: a bug, never a user error."""


@dataclass
class SimulatedGame:
    """One simulated match: its log lines (header first) and the state they lead to."""

    events: list[dict[str, Any]]
    state: GameState
    bots: dict[str, str]
    seed: int

    def lines(self) -> bytes:
        """The log file's bytes (compact JSON Lines, as ``write_games`` writes them)."""
        return b"".join(dumps_event(e) for e in self.events)

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


def table(ruleset: str, *, players: int | Sequence[str] = 3, options: dict[str, Any] | None = None,
          bots: str | Sequence[str] = "greedy", forfeit_rate: float = 0.0,
          auto_rate: float = 0.0) -> tuple[Ruleset, tuple[str, ...], list[str]]:
    """Check the arguments of a simulation: (rules, player ids, one bot name per seat).

    Raises ValueError (``engine.RulesetError`` is one) with a one-line, user-facing message.
    """
    if not isinstance(ruleset, str):
        raise ValueError("the ruleset must be a built-in ruleset name")
    opts = dict(options or {})
    rules = resolve(ruleset, opts)
    if isinstance(players, int):
        if not 2 <= players <= len(PLAYER_IDS):
            raise ValueError(f"the simulator seats 2 to {len(PLAYER_IDS)} players, "
                             f"not {players}")
        ids = PLAYER_IDS[:players]
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
    names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
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
             timestamps: bool = False, out: Path | None = None) -> SimulatedGame:
    """Play one complete match; the log's event dicts and the final state. With ``out``, the
    log is also written there as it is played, through the append API (a file there is
    replaced)."""
    rules, ids, names = table(ruleset, players=players, options=options, bots=bots,
                              forfeit_rate=forfeit_rate, auto_rate=auto_rate)
    match = _Match(rules, ruleset, dict(options or {}), ids, names, seed,
                   game_id if game_id is not None else f"{ruleset}-s{seed}",
                   forfeit_rate, auto_rate, timestamps, out)
    try:
        return match.run()
    finally:
        if isinstance(match.writer, GameLog):
            match.writer.close()


def simulate_game(ruleset: str = "edition1", *, players: int | list[str] = 3, seed: int = 0,
                  options: dict[str, Any] | None = None, bots: str | list[str] = "greedy",
                  game_id: str | None = None, forfeit_rate: float = 0.0,
                  auto_rate: float = 0.0, timestamps: bool = False) -> list[dict[str, Any]]:
    """Play one complete match; the event dicts of its log, header first."""
    return simulate(ruleset, players=players, seed=seed, options=options, bots=bots,
                    game_id=game_id, forfeit_rate=forfeit_rate, auto_rate=auto_rate,
                    timestamps=timestamps).events


class _Match:
    """The table: shuffler, dealer, referee and recorder of one match."""

    def __init__(self, rules: Ruleset, ruleset: str, options: dict[str, Any],
                 players: tuple[str, ...], bot_names: list[str], seed: int, game_id: str,
                 forfeit_rate: float, auto_rate: float, timestamps: bool,
                 out: Path | None = None) -> None:
        master = random.Random(seed)
        self.cards = random.Random(master.getrandbits(64))
        self.table = random.Random(master.getrandbits(64))
        self.clock_rng = random.Random(master.getrandbits(64))
        self.bot_rngs = [random.Random(master.getrandbits(64)) for _ in players]
        self.bots: list[Bot] = [make_bot(name, rules) for name in bot_names]
        self.bot_names = dict(zip(players, bot_names, strict=True))
        self.seed = seed
        self.forfeit_rate = forfeit_rate
        self.auto_rate = auto_rate
        self.timestamps = timestamps
        self.clock = 0
        self.events: list[dict[str, Any]] = []
        self.lapsed = False        # a power lapsed silently: the next line must not be a forfeit
        self.window_snaps = 0
        header: dict[str, Any] = {
            "type": "game", "format": FORMAT, "seq": 0, "game_id": game_id,
            "ruleset": ruleset, "options": options, "players": list(players),
        }
        if timestamps:
            header["started_at"] = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            header["t"] = 0
        header["bots"] = dict(self.bot_names)
        header["seed"] = seed
        # every line goes through the append API (the one write path): checked, then kept
        self.writer: EventWriter = (GameLog.create(out, header, replace=True, fsync=False)
                                    if out is not None else EventWriter(MemorySink()))
        if out is None:
            self.writer.append(header)
        assert self.writer.state is not None
        self.state = self.writer.state
        self.events.append(header)

    # --- recording -----------------------------------------------------------------------
    def emit(self, event: Event, auto: bool = False) -> None:
        """Apply one event to the state and record its line; raise if the engine refuses.

        Where the engine answers that a reshuffle is owed first (a chance node: the draw pile
        is empty and a card must come from it), the table reshuffles and tries again; a
        rejected event changes nothing, so asking is free."""
        g = self.state
        think = self._think(event, auto)
        try:
            event, line, done = self._record(event, auto, think)
        except CaboLogError as exc:
            if exc.code != "reshuffle_missing":
                raise SimulationError(f"{g.game_id}: the engine refused {to_dict(event)}: "
                                      f"{exc}") from exc
            self._reshuffle()
            event, line, done = self._record(self._with_top(event), auto, think)
        self.events.append(line)
        self.lapsed = False
        self._claims(event, done)

    def _think(self, event: Event, auto: bool) -> int | None:
        """How long this move took (ms), drawn once per move; None without timestamps."""
        if not self.timestamps:
            return None
        low, high = _THINK[event.TYPE]
        return _TIMEOUT_MS if auto else self.clock_rng.randint(low, high)

    def _record(self, event: Event, auto: bool, think: int | None
                ) -> tuple[Event, dict[str, Any], Outcome]:
        """The event with this line's seq, written through the append API, and what the
        engine made of it."""
        event, line = stamp(event, len(self.events), auto)  # this line's seq, and the line
        if think is not None:
            line["t"] = self.clock + think
        self.writer.append((event, line))
        assert self.writer.outcome is not None
        if think is not None:
            self.clock += think
        return event, line, self.writer.outcome

    def _with_top(self, event: Event) -> Event:
        """A deck draw names the card it takes: after a reshuffle, the new top."""
        g = self.state
        if isinstance(event, Draw) and event.source == DrawSource.DECK:
            return Draw(None, False, event.player, DrawSource.DECK, g.round.codes[g.round.deck[-1]])
        return event

    def _claims(self, event: Event, done: Outcome) -> None:
        """A round or the match just ended: the log states the result, as a recorder does."""
        g = self.state
        if done.round_ended is not None:
            result = done.round_ended
            self.emit(RoundEnd(None, False, result.round, dict(result.points)))
        elif g.complete and not isinstance(event, GameEnd):
            self.emit(GameEnd(None, False, g.winners, g.cumulative_by_name()))

    # --- the loop ------------------------------------------------------------------------
    def run(self) -> SimulatedGame:
        g = self.state
        while not g.complete:
            if len(g.rounds) > MAX_ROUNDS:
                raise SimulationError(f"{g.game_id}: no end after {MAX_ROUNDS} rounds")
            if needs_deal(g):
                if g.phase == ROUND_OVER and self._maybe_forfeit():
                    continue
                self._deal()
                self._peeks()
            elif g.phase == TURN_START:
                self._turn_start()
            elif g.phase == DRAWN:
                if not self._maybe_forfeit():
                    self._move()
            elif g.phase == POWER:
                if not self._maybe_forfeit():
                    self._move()
            else:  # pragma: no cover - every phase is handled above
                raise SimulationError(f"{g.game_id}: stuck in phase {g.phase}")
        return SimulatedGame(self.events, g, dict(self.bot_names), self.seed)

    def _deal(self) -> None:
        g = self.state
        seats = g.tiebreak if g.tiebreak is not None else tuple(g.active_players())
        codes = g.rules.deck_codes()
        self.cards.shuffle(codes)
        hands = {g.players[p]: tuple(codes[4 * k:4 * k + 4]) for k, p in enumerate(seats)}
        top = 4 * len(seats)
        if not g.rounds:
            first = seats[self.cards.randrange(len(seats))]
        else:
            must = expected_first(g, seats)
            first = must if must is not None else rotate_first(g, seats)
        self.window_snaps = 0
        self.emit(Deal(None, False, len(g.rounds) + 1, g.players[first], hands, codes[top],
                       tuple(codes[top + 1:])))

    def _peeks(self) -> None:
        g = self.state
        for seat in g.round.participants:
            name = g.players[seat]
            options = peek_moves(g, name)
            if options:
                choice = self.bots[seat].peek(observe(g, name), options, self.bot_rngs[seat])
                if choice is not None:
                    self.emit(choice)

    def _turn_start(self) -> None:
        g = self.state
        if self._maybe_forfeit():
            return
        if needs_reshuffle(g) and self.table.random() < RESHUFFLE_EARLY:
            self._reshuffle()
        if g.rules.snap and self.window_snaps < MAX_SNAPS and self._snaps():
            return
        if g.round.turn >= MAX_TURNS and g.round.caller < 0:
            self.emit(Cabo(None, False, g.players[g.round.current]))
            return
        self._move()

    def _snaps(self) -> bool:
        """Ask every player (from the one to move, in seat order) for a snap; make the first."""
        g = self.state
        options = snap_moves(g)
        if not options:
            return False
        count = len(g.players)
        for k in range(count):
            seat = (g.round.current + k) % count
            if not g.in_round(seat):
                continue
            name = g.players[seat]
            if len(g.round.rows[seat]) < 2:
                continue  # an empty row could not take the discard (see docs/simulate.md)
            mine = [m for m in options if isinstance(m, Snap) and m.player == name]
            choice = self.bots[seat].snap(observe(g, name), mine, self.bot_rngs[seat])
            if choice is None:
                continue
            if not isinstance(choice, Snap) or choice.player != name:
                raise SimulationError(f"bot {self.bot_names[name]} made {choice} as a snap")
            self.window_snaps += 1
            self.emit(choice)
            return True
        return False

    def _move(self) -> None:
        """The player to act makes one move: the bot's choice, or the server's on a timeout."""
        g = self.state
        seat = g.round.current
        name = g.players[seat]
        moves = moves_for(g)
        if not moves:  # pragma: no cover - the engine always leaves a move
            raise SimulationError(f"{g.game_id}: no legal move for {name} in {g.phase}")
        auto = self.auto_rate > 0 and self.table.random() < self.auto_rate
        if auto:
            move = _timeout_move(moves)
        else:
            move = self.bots[seat].choose(observe(g, name), moves, self.bot_rngs[seat])
        if getattr(move, "player", None) != name:
            raise SimulationError(f"bot {self.bot_names[name]} played {move} for {name}")
        if isinstance(move, Draw):
            deck = g.round.deck
            card = g.round.codes[deck[-1]] if move.source == DrawSource.DECK and deck else None
            move = Draw(None, False, name, move.source, card)
            self.window_snaps = 0
        elif isinstance(move, Cabo):
            self.window_snaps = 0
        elif isinstance(move, Skip) and not auto and self.table.random() >= EXPLICIT_SKIP:
            done = finish(g)  # the power simply lapses: the next line starts the next turn
            self.lapsed = True
            if done.round_ended is not None:
                self.emit(RoundEnd(None, False, done.round_ended.round,
                                   dict(done.round_ended.points)))
            return
        self.emit(move, auto)

    # --- chance and the table ------------------------------------------------------------
    def _reshuffle(self) -> None:
        g = self.state
        codes = [g.round.codes[c] for c in g.round.pile[:-1]]
        self.cards.shuffle(codes)
        self.emit(Reshuffle(None, False, tuple(codes)))

    def _maybe_forfeit(self) -> bool:
        g = self.state
        if not self.forfeit_rate or self.lapsed or self.table.random() >= self.forfeit_rate:
            return False
        active = g.active_players()
        if len(active) < 2:
            return False
        seat = active[self.table.randrange(len(active))]
        self.emit(Forfeit(None, False, g.players[seat], self.table.choice(FORFEIT_REASONS)))
        return True


def _timeout_move(moves: Sequence[Event]) -> Event:
    """What the server does when the clock runs out: draw (deck first), discard, skip; Cabo
    when both piles are empty; a taken discard goes to the first position."""
    by_kind: dict[str, Event] = {}
    for move in moves:
        key = move.source if isinstance(move, Draw) else type(move).__name__
        by_kind.setdefault(key, move)
    for key in ("deck", "discard", "Discard", "Skip", "Replace", "Cabo"):
        if key in by_kind:
            return by_kind[key]
    return moves[0]


# --- many matches ----------------------------------------------------------------------------


def existing_logs(out_dir: str | Path, ruleset: str, *, seed: int, games: int) -> list[Path]:
    """The files a run of ``write_games`` would overwrite: same ruleset, seed and game number
    (the names do not say which bots or options played, so another run's files look alike)."""
    out = Path(out_dir)
    if not out.is_dir():
        return []
    return [path for index in range(games)
            if (path := out / f"{game_name(ruleset, seed, index)}.jsonl").exists()]


def write_games(out_dir: str | Path, ruleset: str, *, games: int,
                players: int | list[str] = 3, seed: int = 0,
                options: dict[str, Any] | None = None, bots: str | list[str] = "greedy",
                forfeit_rate: float = 0.0, auto_rate: float = 0.0, timestamps: bool = False,
                progress: bool = False, jobs: int | None = None) -> SimulationSummary:
    """Simulate ``games`` matches into ``out_dir``/``{ruleset}-s{seed}-{index:06d}.jsonl``,
    in ``jobs`` worker processes (default one per core, see ``workers.worker_count``). Each
    game depends only on ``(seed, index)``, so the files are the same for any ``jobs``; each
    is written whole or not at all (a stopped run leaves no half file)."""
    from cabo_log.workers import Pool, worker_count

    table(ruleset, players=players, options=options, bots=bots, forfeit_rate=forfeit_rate,
          auto_rate=auto_rate)  # fail before creating anything
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = SimulationSummary(out_dir=out, ruleset=ruleset)
    bar = Progress(games, sys.stderr, unit="games") if progress else None
    started = time.perf_counter()
    orders = (_Order(out, ruleset, seed, index, players, options, bots, forfeit_rate,
                     auto_rate, timestamps) for index in range(games))
    try:
        with Pool(worker_count(jobs, games), preload=[__name__]) as pool:
            for path, rounds, events, size in pool.imap(_write_game, orders):
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
    """Everything one game of ``write_games`` depends on (sent to a worker)."""

    out: Path
    ruleset: str
    seed: int
    index: int
    players: int | list[str]
    options: dict[str, Any] | None
    bots: str | list[str]
    forfeit_rate: float
    auto_rate: float
    timestamps: bool


def _write_game(order: _Order) -> tuple[Path, int, int, int]:
    """Simulate and write one game (in a worker): its path, rounds, events and bytes."""
    name = game_name(order.ruleset, order.seed, order.index)
    path = order.out / f"{name}.jsonl"
    part = path.with_name(f".{path.name}.part")   # written through the append API, then renamed
    game = simulate(order.ruleset, players=order.players, seed=game_seed(order.seed, order.index),
                    options=order.options, bots=order.bots, game_id=name,
                    forfeit_rate=order.forfeit_rate, auto_rate=order.auto_rate,
                    timestamps=order.timestamps, out=part)
    size = part.stat().st_size
    os.replace(part, path)
    return path, game.rounds, len(game.events), size
