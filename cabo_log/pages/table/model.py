"""One table, independent of the web: its seats, its log, its timers, its bots.

``Table`` is driven by calls (``connect``, ``act``, ``confirm``, ``leave``, ``disconnect``) and by
``tick(now)``, which fires what is due: a bot's move, the step timer's safe move (logged with
``"auto": true``), the forfeit of a seat whose hold ran out, the next deal. Every change bumps
``version``; the web layer then sends each browser its view (``view``). A table is not
thread-safe: callers hold ``lock`` (the web app's worker threads do). All the moves come
from the engine (``views.seat_moves``) and go through the one write path (``dealer.Dealer``);
what each viewer reads is kept in ``feeds.Feeds``, classic mode's flashes in ``flashes.Flashes``.
"""

from __future__ import annotations

import random
import secrets
import threading
from enum import StrEnum
from pathlib import Path
from typing import Any

from cabo_log.log.gamelog import GameLog
from cabo_log.pages.table.clock import Clock, Timing
from cabo_log.pages.table.dealer import Dealer, start_seconds
from cabo_log.pages.table.feeds import FEED_LINES, Feeds, PublicWords
from cabo_log.pages.table.flashes import Flashes
from cabo_log.pages.table.moves import parse_move
from cabo_log.pages.table.seats import Presence, Seat
from cabo_log.pages.table.views import (
    Mode,
    dealt,
    peeks_pending,
    public_view,
    seat_view,
)
from cabo_log.play.bots import Bot, bot_snap, initial_peeks, make_bot
from cabo_log.play.match import MAX_SNAPS, timeout_move
from engine import CaboLogError, Event, GameState, Outcome
from engine.events import Cabo, Draw, Forfeit, Peek
from engine.knowledge import observe
from engine.moves import legal_moves, needs_deal, peek_moves
from engine.vocabulary import ROUND_OVER, TURN_START

STAND_IN_BOT = "greedy"   # plays for a person who left, where the rules have no forfeits

__all__ = ["FEED_LINES", "STAND_IN_BOT", "PublicWords", "Status", "Table"]


class Status(StrEnum):
    WAITING = "waiting"            # persons still to open their invitations
    PLAYING = "playing"
    BETWEEN = "between_rounds"
    OVER = "over"


class Table:
    """A hosted game: ``log`` is open (locked) for as long as the table lives."""

    def __init__(self, log: GameLog, header: dict[str, Any], seats: list[Seat], timing: Timing,
                 clock: Clock) -> None:
        self.log = log
        self.header = header
        self.id: str = header["game_id"]
        self.path: Path = log.path
        settings = header.get("table") or {}
        self.step = int(settings.get("step", 60))
        self.mode = Mode(settings.get("mode", Mode.ASSISTED))
        self.seats = {s.name: s for s in seats}
        self.timing, self.clock = timing, clock
        g = self.state
        self.bots: dict[str, Bot] = {s.name: make_bot(s.bot, g.rules) for s in seats
                                     if s.played_by_bot and s.bot is not None}
        self.rngs = {s.name: random.Random(secrets.randbits(64)) for s in seats}
        self.version = 0
        self.deadline: float | None = None
        self.bot_due: float | None = None
        self.between_until: float | None = None
        self.confirmed: set[str] = set()
        self.window = 0                        # golf: bot snaps since the turn began
        self.snaps_asked = -1                  # the line count at which bots were asked
        self.flashes = Flashes(self.persons(), timing)   # classic mode's
        self.feeds = Feeds(g, self.persons() if self.mode == Mode.ASSISTED else [])
        now = clock.now()
        self.dealer = Dealer(log, start_seconds(header, now), clock.now, self._heard)
        self.lock = threading.Lock()           # held by whoever calls in (the web app)

    # --- what the table is ------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        assert self.log.state is not None
        return self.log.state

    @property
    def status(self) -> Status:
        g = self.state
        if g.complete:
            return Status.OVER
        if not dealt(g):
            return Status.WAITING
        return Status.BETWEEN if g.phase == ROUND_OVER else Status.PLAYING

    def persons(self) -> list[str]:
        return [n for n, s in self.seats.items() if s.person]

    def ruleset_name(self) -> str:
        return self.state.rules.name

    def close(self) -> None:
        self.log.close()

    # --- people come and go -----------------------------------------------------------------
    def connect(self, seat: Seat) -> None:
        """A browser opened this seat's page (its token checked by the caller)."""
        seat.connections += 1
        if seat.presence == Presence.GONE:
            return
        if seat.presence == Presence.INVITED:
            self.say(f"{seat.name} sat down")
        elif seat.presence == Presence.AWAY:
            self.say(f"{seat.name} is back")
        seat.presence, seat.away_since = Presence.HERE, None
        self._changed()
        self._advance(self.clock.now())

    def disconnect(self, seat: Seat) -> None:
        seat.connections = max(0, seat.connections - 1)
        if seat.connections or seat.presence != Presence.HERE:
            return
        if not dealt(self.state):
            seat.presence = Presence.INVITED   # the game has not begun: nothing to hold
        else:
            seat.presence, seat.away_since = Presence.AWAY, self.clock.now()
            self.say(f"{seat.name} lost the connection; the seat is held "
                     f"{self.timing.hold:g} s")
        self._changed()

    def leave(self, name: str) -> None:
        """The person left the table: a forfeit at once (or a stand-in bot)."""
        seat = self.seats[name]
        self._drop(seat, "left")
        self._advance(self.clock.now())

    def confirm(self, name: str) -> None:
        """Ready for the next round."""
        if self.status == Status.BETWEEN and name not in self.confirmed:
            self.confirmed.add(name)
            self._changed()
            self._advance(self.clock.now())

    # --- moves ------------------------------------------------------------------------------
    def act(self, name: str, move: object) -> str | None:
        """A person's move (an event object as the page got it in its list of moves); the
        refusal in words, or None when it was played."""
        seat = self.seats.get(name)
        if seat is None or not seat.person or seat.played_by_bot \
                or seat.presence == Presence.GONE:
            return "you no longer play at this table"
        if self.state.complete:
            return "the match is over"
        try:
            event = parse_move(move, name)
            waiting = self.peeking()
            if waiting and not isinstance(event, Peek):
                return ("everyone looks at their cards first: " + ", ".join(waiting) +
                        (" is" if len(waiting) == 1 else " are") + " still to choose")
            self.dealer.write(event)
        except CaboLogError as exc:
            return exc.message
        self._advance(self.clock.now())
        return None

    def tick(self, now: float) -> bool:
        """Fire whatever is due at ``now``; whether anything changed."""
        before = self.version
        for seat in self.seats.values():
            if seat.presence == Presence.AWAY and seat.away_since is not None \
                    and now >= seat.away_since + self.timing.hold:
                self._drop(seat, "disconnected")
        if self.deadline is not None and now >= self.deadline:
            self._timeout()
        self._advance(now)
        return self.version != before

    def peeking(self) -> list[str]:
        """The people still to choose which of their cards to look at (the round's first
        turn waits for them, within the step timer)."""
        g = self.state
        return [n for n in peeks_pending(g) if not self.seats[n].played_by_bot
                and self.seats[n].presence != Presence.GONE and g.active[g.seat[n]]]

    def due(self, now: float) -> bool:
        """Whether ``tick`` has anything to do at ``now`` (read without the lock: a stale
        answer only moves the work to the next tick)."""
        times = [self.deadline, self.bot_due, self.between_until]
        times += [s.away_since + self.timing.hold for s in self.seats.values()
                  if s.away_since is not None]
        return any(t is not None and t <= now for t in times)

    def _timeout(self) -> None:
        """The step timer ran out: the server plays a safe move for the seat to act."""
        self.deadline = None
        g = self.state
        pending = self.peeking()
        if pending:               # the first two positions, for whoever has not looked
            for name in pending:
                self.dealer.write(peek_moves(g, name)[0], auto=True)
            return
        moves = legal_moves(g)
        if moves:
            self.dealer.write(timeout_move(moves), auto=True)

    def _drop(self, seat: Seat, reason: str) -> None:
        if seat.presence == Presence.GONE:
            return
        seat.presence, seat.away_since = Presence.GONE, None
        g = self.state
        self._changed()
        if g.complete:
            return
        if g.rules.forfeits and dealt(g) and g.active[g.seat[seat.name]]:
            try:
                self.dealer.write(Forfeit(None, False, seat.name, reason))
                return
            except CaboLogError:
                pass
        seat.stand_in, seat.bot = True, STAND_IN_BOT
        self.bots[seat.name] = make_bot(STAND_IN_BOT, g.rules)
        self.say(f"{seat.name} {'left' if reason == 'left' else 'stayed away'}; "
                 f"{g.rules.name} has no forfeits, so a {STAND_IN_BOT} bot plays for "
                 f"{seat.name} (its moves are marked \"bot\" in the log)")

    # --- the game moves on ------------------------------------------------------------------
    def _advance(self, now: float) -> None:
        """Make every move that is due now: deals, bots' peeks, snaps and moves."""
        for _ in range(100_000):
            if not self._step(now):
                return

    def _step(self, now: float) -> bool:
        """One due move; False when the table waits (for a person, a bot's pace, a timer)."""
        g = self.state
        if g.complete:
            self.deadline = self.bot_due = self.between_until = None
            return False
        if not dealt(g):
            if any(s.presence == Presence.INVITED for s in self.seats.values() if s.person):
                return False
            self._deal()
            return True
        if needs_deal(g):
            return self._between(now)
        if self.peeking():
            self.bot_due = None
            if self.deadline is None and self.step:
                self.deadline = now + self.step
            return False
        if g.phase == TURN_START and self._bot_snaps():
            return True
        who = g.current_player()
        assert who is not None
        seat = self.seats[who]
        if seat.played_by_bot:
            self.deadline = None
            if self.bot_due is None:
                self.bot_due = now + self.timing.bot_delay
            if now < self.bot_due:
                return False
            self.bot_due = None
            self._bot_move(who)
            return True
        self.bot_due = None
        if self.deadline is None and self.step:
            self.deadline = now + self.step
        return False

    def _between(self, now: float) -> bool:
        """Between rounds: deal once every person still playing confirmed, or the pause ends."""
        g = self.state
        if self.between_until is None:
            self.between_until = now + self.timing.between_rounds
            self.confirmed = set()
            self.deadline = None
        needed = [n for n in self.persons() if not self.seats[n].played_by_bot
                  and self.seats[n].presence != Presence.GONE and g.active[g.seat[n]]]
        if now < self.between_until and any(n not in self.confirmed for n in needed):
            return False
        self.between_until = None
        self._deal()
        return True

    def _deal(self) -> None:
        """Deal the next round, and make the peeks nobody is to choose (the bots', the ones
        the rules fix); a person with a choice makes theirs on the page (``views.seat_moves``)."""
        self.dealer.deal()
        for choice in initial_peeks(self.state, self.bots, self.rngs, lambda name, options: None):
            self.dealer.write(choice)

    def _bot_move(self, name: str) -> None:
        g = self.state
        move = self.bots[name].choose(observe(g, name), legal_moves(g), self.rngs[name])
        seat = self.seats[name]
        self.dealer.write(move, extra={"bot": seat.bot} if seat.stand_in else None)

    def _bot_snaps(self) -> bool:
        """Golf: the bots may snap between turns (asked once per table position)."""
        g = self.state
        if not g.rules.snap or self.window >= MAX_SNAPS or self.snaps_asked == self.log.lines:
            return False
        self.snaps_asked = self.log.lines
        choice = bot_snap(g, self.bots, self.rngs)
        if choice is None:
            return False
        self.window += 1
        self.dealer.write(choice)
        return True

    # --- what each seat is told ---------------------------------------------------------------
    def _heard(self, event: Event, done: Outcome) -> None:
        """A line was written: restart the step timer, tell it, note classic-mode flashes."""
        g = self.state
        self.deadline = None
        if isinstance(event, (Draw, Cabo)):
            self.window = 0
        self.feeds.tell(event, g, done)
        if self.mode == Mode.CLASSIC and dealt(g):
            self.flashes.note(event, g)
        self._changed()

    def take_flashes(self, name: str) -> list[dict[str, Any]]:
        """The classic-mode flashes waiting for ``name``'s page, handed out once."""
        return self.flashes.take(name)

    def say(self, text: str) -> None:
        """A line of the table's own (joins, departures) in every feed."""
        self.feeds.say(text)
        self._changed()

    def _changed(self) -> None:
        self.version += 1

    def view(self, name: str | None) -> dict[str, Any]:
        """What ``name``'s page shows now (None: a spectator)."""
        g = self.state
        seat = self.seats.get(name) if name is not None else None
        playing = seat is not None and not seat.played_by_bot and seat.presence != Presence.GONE
        view = (seat_view(g, name, self.mode, bool(self.peeking()))
                if playing and name is not None else public_view(g))
        now = self.clock.now()
        view.update({
            "type": "view", "id": self.id, "me": name, "ruleset": g.rules.name,
            "mode": str(self.mode), "step": self.step, "status": str(self.status),
            "lines": self.log.lines,
            "players": [self._player(s, g, now) for s in self.seats.values()],
            "feed": self.feeds.shown(name),
            "deadline_in": None if self.deadline is None else max(0.0, self.deadline - now),
            "bot_in": None if self.bot_due is None else max(0.0, self.bot_due - now),
            "between_in": None if self.between_until is None
            else max(0.0, self.between_until - now),
            "confirmed": sorted(self.confirmed),
            "choose_end": g.rules.choose_failed_end,
            "peeking": self.peeking(),
        })
        return view

    def _player(self, seat: Seat, g: GameState, now: float) -> dict[str, Any]:
        index = g.seat[seat.name]
        away = (None if seat.away_since is None
                else max(0.0, seat.away_since + self.timing.hold - now))
        return {"name": seat.name, "kind": str(seat.kind), "bot": seat.bot,
                "presence": str(seat.presence), "stand_in": seat.stand_in,
                "active": bool(g.active[index]), "away_in": away}

    def summary(self) -> dict[str, Any]:
        """One line of the host's list of tables."""
        return {"id": self.id, "ruleset": self.ruleset_name(), "status": str(self.status),
                "players": [{"name": s.name, "kind": str(s.kind), "bot": s.bot,
                             "presence": str(s.presence)} for s in self.seats.values()],
                "rounds": len(self.state.rounds), "step": self.step, "mode": str(self.mode)}
