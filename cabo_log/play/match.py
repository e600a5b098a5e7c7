"""One simulated match: the table that shuffles, deals, asks the bots and records every line.

The simulator is the "server" of the table. ``Recorder`` writes each event through the append
API (``EventWriter``: the engine checks it before its line is kept, so a log the simulator
writes is valid by construction) and follows what it did (``Outcome``): the claims a recorder
writes (``round_end``, ``game_end``) come from it. ``Match`` is the table: dealer, referee and
the loop that asks whoever must act.

The hot loop is written for speed (a random bot's match is ~200 events, each a decision):
the state's observations keep what rarely changes, its move lists are remembered or lazy
(``GameState.observation``, ``GameState.legal_moves``), each line is
stamped and encoded in one step (``lines``). The order in which random numbers are drawn is
part of the output: any change to it changes the logs a seed gives, which the tests pin.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from cabo_log.log.append import EventWriter, MemorySink
from cabo_log.log.gamelog import GameLog
from cabo_log.play.bots import Bot, make_bot
from cabo_log.play.chance import below, seeded, shuffle
from cabo_log.play.errors import SimulationError
from cabo_log.play.lines import PLANS, Line, line_bytes, make_event, plan, stamp_fields
from engine import CaboLogError, GameState, Outcome, finish
from engine.events import (
    FORMAT,
    Cabo,
    Deal,
    Draw,
    Event,
    Forfeit,
    GameEnd,
    GameStart,
    Reshuffle,
    RoundEnd,
    Skip,
    Snap,
    to_dict,
)
from engine.moves import needs_deal, needs_reshuffle, peek_moves, snap_moves
from engine.rulesets import Ruleset
from engine.scoring import expected_first, rotate_first
from engine.spec import EVENTS
from engine.vocabulary import DRAWN, POWER, ROUND_OVER, TURN_START, DrawSource

FORFEIT_REASONS = ("left", "disconnected")

# Table habits of the simulated "server" (they only vary the log, never its legality).
RESHUFFLE_EARLY: Final = 0.75    # reshuffle once the pile is empty (else: when a card is needed)
EXPLICIT_SKIP: Final = 0.75      # a declined power is logged as `skip` (else: the next turn starts)
MAX_SNAPS: Final = 4             # snaps between two turns
MAX_TURNS: Final = 400           # turns in a round before the player to move is made to call Cabo
MAX_ROUNDS: Final = 5000         # a match longer than this is a simulator bug

# Simulated thinking time per event type, in ms (for --timestamps): the spec's ``think_ms``.
_THINK: dict[str, tuple[int, int]] = {spec.type: spec.think_ms for spec in EVENTS}
_TIMEOUT_MS = 60000

def header_line(game_id: str, ruleset: str, options: dict[str, Any], players: Sequence[str],
                bots: dict[str, str], seed: int, timestamps: bool) -> Line:
    """The ``game`` line of a simulated match (bots and seed recorded as extra fields)."""
    header: Line = {"type": "game", "format": FORMAT, "seq": 0, "game_id": game_id,
                    "ruleset": ruleset, "options": options, "players": list(players)}
    if timestamps:
        header["started_at"] = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        header["t"] = 0
    header["bots"] = dict(bots)
    header["seed"] = seed
    return header


def _game_start(header: Line) -> GameStart:
    """The engine event of a ``header_line`` (what reading its line back would give)."""
    return GameStart(0, False, header["game_id"], header["ruleset"], header["options"],
                     tuple(header["players"]), None, header.get("started_at"))


class Recorder:
    """Writes the match's lines through the append API and follows what each event did."""

    def __init__(self, header: Line, out: Path | None, clock_rng: random.Random | None
                 ) -> None:
        # every line goes through the append API (the one write path): checked, then kept
        self.writer: EventWriter = (GameLog.create(out, header, replace=True, fsync=False)
                                    if out is not None else EventWriter(MemorySink()))
        if out is None:   # the header's event made here: no need to read back its line
            self.writer.append((_game_start(header), header))
        assert self.writer.state is not None
        self.state: GameState = self.writer.state
        self.clock_rng = clock_rng   # None: no timestamps
        self.clock = 0
        self.reshuffle: Any = None   # the table's reshuffle, when the engine asks for one

    def close(self) -> None:
        self.reshuffle = None   # the match's own method: no reference cycle outlives the match
        if isinstance(self.writer, GameLog):
            self.writer.close()

    def emit(self, event: Event, auto: bool = False) -> None:
        """Apply one event to the state and record its line (see ``emit_fields``)."""
        kind = type(event)
        self.emit_fields(kind, plan(kind)[1](event), auto)

    def emit_fields(self, kind: type[Event], values: tuple[Any, ...], auto: bool = False
                    ) -> None:
        """Apply one event, given by its type and fields after ``seq``/``auto``, to the state
        and record its line; raise if the engine refuses.

        Where the engine answers that a reshuffle is owed first (a chance node: the draw pile
        is empty and a card must come from it), the table reshuffles and tries again; a
        rejected event changes nothing, so asking is free."""
        think = self._think(kind, auto) if self.clock_rng is not None else None
        try:
            event, done = self._record(kind, values, auto, think)
        except CaboLogError as exc:
            if exc.code != "reshuffle_missing":
                event = stamp_fields(kind, None, auto, values)[0]
                raise SimulationError(f"{self.state.game_id}: the engine refused "
                                      f"{to_dict(event)}: {exc}") from exc
            self.reshuffle()
            if kind is Draw and values[1] == DrawSource.DECK:   # a deck draw names the new top
                values = (values[0], DrawSource.DECK, self.state.deck_top())
            event, done = self._record(kind, values, auto, think)
        self.claims(event, done)

    def _think(self, kind: type[Event], auto: bool) -> int:
        """How long this move took (ms), drawn once per move."""
        assert self.clock_rng is not None
        low, high = _THINK[kind.TYPE]
        return _TIMEOUT_MS if auto else self.clock_rng.randint(low, high)

    def _record(self, kind: type[Event], values: tuple[Any, ...], auto: bool,
                think: int | None) -> tuple[Event, Outcome]:
        """The event with this line's seq, written through the append API, and what the
        engine made of it. A decision's line is written out as bytes (``line_bytes``); the
        others, and every line with a time, as the line's dict."""
        seq = self.writer.lines
        raw = line_bytes(kind, seq, auto, values) if think is None else None
        if raw is not None:
            event = make_event(kind, seq, auto, values)
            done = self.writer.append_encoded(event, raw)
        else:
            event, line = stamp_fields(kind, seq, auto, values)
            if think is not None:
                line["t"] = self.clock + think
            done = self.writer.append_stamped(event, line)
            if think is not None:
                self.clock += think
        return event, done

    def claims(self, event: Event, done: Outcome) -> None:
        """A round or the match just ended: the log states the result, as a recorder does."""
        if done.round_ended is not None:
            result = done.round_ended
            self.emit(RoundEnd(None, False, result.round, dict(result.points)))
        elif self.state.complete and not isinstance(event, GameEnd):
            g = self.state
            self.emit(GameEnd(None, False, g.winners, g.cumulative_by_name()))


class Match:
    """The table: shuffler, dealer, referee of one match; ``run`` plays it to the end."""

    def __init__(self, rules: Ruleset, header: Line, bot_names: Sequence[str], seed: int,
                 forfeit_rate: float, auto_rate: float, out: Path | None = None) -> None:
        master = seeded(seed)
        self.cards = seeded(master.getrandbits(64))
        self.table = seeded(master.getrandbits(64))
        clock_seed = master.getrandbits(64)   # drawn always: the bots' seeds come after it
        self.bot_rngs = [seeded(master.getrandbits(64)) for _ in bot_names]
        self.bots: list[Bot] = [make_bot(name, rules) for name in bot_names]
        # a bot that reads no row but its own gets partial observations
        # (``GameState.observation``'s ``own_row_only``)
        self.own_row_only = [getattr(bot, "own_row_only", False) is True for bot in self.bots]
        self.bot_names = dict(header["bots"])
        self.forfeit_rate = forfeit_rate
        self.auto_rate = auto_rate
        self.lapsed = False        # a power lapsed silently: the next line must not be a forfeit
        self.window_snaps = 0
        # seeding a Random is slow (it hashes the seed): the clock's only when there are times
        self.recorder = Recorder(header, out,
                                 seeded(clock_seed) if "t" in header else None)
        self.recorder.reshuffle = self._reshuffle
        self.state = self.recorder.state
        self.deck = rules.deck_codes()   # the ruleset's deck, copied for every deal

    def emit(self, event: Event, auto: bool = False) -> None:
        self.recorder.emit(event, auto)
        self.lapsed = False

    # --- the loop ------------------------------------------------------------------------
    def run(self) -> GameState:
        g = self.state
        while not g.complete:
            phase = g.phase
            if phase == TURN_START:
                self._turn_start()
            elif phase == DRAWN or phase == POWER:
                if not (self.forfeit_rate and self._maybe_forfeit()):
                    self._move()
            elif needs_deal(g):
                if len(g.rounds) > MAX_ROUNDS:
                    raise SimulationError(f"{g.game_id}: no end after {MAX_ROUNDS} rounds")
                if phase == ROUND_OVER and self.forfeit_rate and self._maybe_forfeit():
                    continue
                self._deal()
                self._peeks()
            else:  # pragma: no cover - every phase is handled above
                raise SimulationError(f"{g.game_id}: stuck in phase {g.phase}")
        return g

    def _deal(self) -> None:
        g = self.state
        seats, hands, top, rest = shuffled_cards(g, self._shuffle, self.deck)
        if not g.rounds:
            first = seats[below(self.cards, len(seats))]
        else:
            must = expected_first(g, seats)
            first = must if must is not None else rotate_first(g, seats)
        self.window_snaps = 0
        self.emit(Deal(None, False, len(g.rounds) + 1, g.players[first], hands, top, rest))

    def _peeks(self) -> None:
        g = self.state
        for seat in g.participants():
            name = g.players[seat]
            options = peek_moves(g, name)
            if options:
                choice = self.bots[seat].peek(g.observation(seat, self.own_row_only[seat]),
                                              options, self.bot_rngs[seat])
                if choice is not None:
                    self.emit(choice)

    def _turn_start(self) -> None:
        g = self.state
        if self.forfeit_rate and self._maybe_forfeit():
            return
        if needs_reshuffle(g) and self.table.random() < RESHUFFLE_EARLY:
            self._reshuffle()
        if g.rules.snap and self.window_snaps < MAX_SNAPS and self._snaps():
            return
        if g.turn() >= MAX_TURNS and g.caller() < 0:
            self.emit(Cabo(None, False, g.players[g.to_act()]))
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
            seat = (g.to_act() + k) % count
            if not g.in_round(seat):
                continue
            name = g.players[seat]
            if g.row_size(seat) < 2:
                continue  # an empty row could not take the discard (see docs/simulate.md)
            mine = [m for m in options if isinstance(m, Snap) and m.player == name]
            choice = self.bots[seat].snap(g.observation(seat, self.own_row_only[seat]), mine,
                                           self.bot_rngs[seat])
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
        seat = g.to_act()
        name = g.players[seat]
        moves = g.legal_moves()
        if not moves:  # pragma: no cover - the engine always leaves a move
            raise SimulationError(f"{g.game_id}: no legal move for {name} in {g.phase}")
        auto = self.auto_rate > 0 and self.table.random() < self.auto_rate
        if auto:
            move = timeout_move(moves)
        else:
            move = self.bots[seat].choose(g.observation(seat, self.own_row_only[seat]), moves,
                                          self.bot_rngs[seat])
        if getattr(move, "player", None) != name:
            raise SimulationError(f"bot {self.bot_names[name]} played {move} for {name}")
        kind = type(move)
        if kind is Draw:   # a deck draw names the card it takes
            source = move.source  # type: ignore[attr-defined]
            values: tuple[Any, ...] = (name, source,
                                       g.deck_top() if source == DrawSource.DECK else None)
            self.window_snaps = 0
        else:
            if kind is Cabo:
                self.window_snaps = 0
            elif kind is Skip and not auto and self.table.random() >= EXPLICIT_SKIP:
                self._lapse()
                return
            values = (PLANS.get(kind) or plan(kind))[1](move)
        self.recorder.emit_fields(kind, values, auto)
        self.lapsed = False

    def _lapse(self) -> None:
        """A declined power simply lapses: the next line starts the next turn."""
        done = finish(self.state)
        self.lapsed = True
        if done.round_ended is not None:
            self.emit(RoundEnd(None, False, done.round_ended.round,
                               dict(done.round_ended.points)))

    # --- chance and the table ------------------------------------------------------------
    def _reshuffle(self) -> None:
        codes = self.state.pile()[:-1]
        shuffle(self.cards, codes)
        self.emit(Reshuffle(None, False, tuple(codes)))

    def _shuffle(self, codes: list[str]) -> None:
        shuffle(self.cards, codes)

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


def timeout_move(moves: Sequence[Event]) -> Event:
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


__all__ = ["MAX_TURNS", "Match", "Recorder", "SimulationError", "header_line", "timeout_move"]


def shuffled_cards(g: GameState, shuffle: Callable[[list[str]], None],
                   deck: list[str] | None = None
                   ) -> tuple[tuple[int, ...], dict[str, tuple[str, ...]], str, tuple[str, ...]]:
    """The next round's cards from a fresh ``shuffle`` of the ruleset's deck (``deck``: its
    ``deck_codes()`` made before, copied here): the seats dealt in (a golf tie-break's, or
    every active player), their four cards each, the first discard and the draw pile (the
    simulator and the analysis's rollouts deal alike)."""
    seats = g.tiebreak if g.tiebreak is not None else tuple(g.active_players())
    codes = deck[:] if deck is not None else g.rules.deck_codes()
    shuffle(codes)
    hands = {g.players[p]: tuple(codes[4 * k:4 * k + 4]) for k, p in enumerate(seats)}
    top = 4 * len(seats)
    return seats, hands, codes[top], tuple(codes[top + 1:])
