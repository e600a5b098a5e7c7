"""The host: every table and score sheet of one ``--dir``, opened, resumed after a restart,
bounded in number, and each finished game loaded into ``--db`` so that ``serve`` shows it.

A table's log is ``DIR/<game id>.jsonl`` (an ordinary, chained ``cabo-log/1`` log; its header
records the seats, the bots and the table's settings under ``table``); its persons' token
digests are in a hidden seat file beside it. On start, every log in the folder that a host
began and that is not finished is opened again and its table carries on. A score sheet
(``pages.table.sheet``) is ``DIR/<sheet id>.jsonl``, its key's digest in a hidden file beside
it; unfinished sheets are resumed the same way.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from cabo_log.log.chain import DECLARED_FIELD, SHA256
from cabo_log.log.gamelog import GameLog
from cabo_log.pages.table.clock import STEP_CHOICES, Clock, Timing
from cabo_log.pages.table.dealer import started_at
from cabo_log.pages.table.model import Status, Table
from cabo_log.pages.table.resume import header_seats
from cabo_log.pages.table.seats import Presence, Seat, SeatKind, digest, new_token, save_digests
from cabo_log.pages.table.sheet import Opened as OpenedSheet
from cabo_log.pages.table.sheet import Sheet, create_sheet, hosted_sheet, resume_sheet
from cabo_log.pages.table.views import Mode
from cabo_log.play.bots import BOTS
from engine import CaboLogError
from engine.events import FORMAT
from engine.rulesets import Ruleset, resolve

log = logging.getLogger("cabo_log.host")

NAME = re.compile(r"^[^\x00-\x1f\x7f]{1,24}$")
HOSTED = "cabo-log host"     # the header's ``table.by``: a log this host may resume


class OpenError(ValueError):
    """A table cannot be opened as asked (the sentence says why)."""


@dataclass(frozen=True)
class SeatSpec:
    name: str
    kind: SeatKind
    bot: str | None = None


@dataclass(frozen=True)
class HostSettings:
    directory: Path
    db: Path | None = None
    timing: Timing = field(default_factory=Timing)
    max_tables: int = 64              # tables held at once (finished ones make room)
    max_sheets: int = 64              # score sheets held at once (finished ones make room)
    max_connections: int = 256        # WebSocket connections at once, over all tables
    step_choices: tuple[int, ...] = STEP_CHOICES
    tick: float = 0.1                 # seconds between two looks at the timers


@dataclass
class Opened:
    table: Table
    tokens: dict[str, str]            # person -> seat token, shown once


class Host:
    def __init__(self, settings: HostSettings, clock: Clock | None = None) -> None:
        self.settings = settings
        self.clock = clock or Clock()
        self.tables: dict[str, Table] = {}
        self.sheets: dict[str, Sheet] = {}
        self.connections = 0
        self.load_lock = threading.Lock()
        self.load_notes: dict[str, str] = {}    # game id -> the last load's outcome

    # --- tables -----------------------------------------------------------------------------
    def resume_all(self) -> list[str]:
        """Open again every unfinished table and score sheet in the folder; a line per log
        that cannot be."""
        problems = []
        for path in sorted(self.settings.directory.glob("*.jsonl")):
            try:
                with path.open("rb") as f:
                    first = f.readline()
                header = orjson.loads(first) if first.strip() else None
                if hosted_sheet(header, HOSTED):
                    self._resume_sheet(path)
                    continue
                table = self._resume(path, header)
            except (CaboLogError, OSError, ValueError, KeyError) as exc:
                problems.append(f"{path}: {exc}")
                continue
            if table is not None:
                self.tables[table.id] = table
        return problems

    def _resume(self, path: Path, header: object) -> Table | None:
        if not isinstance(header, dict) or not isinstance(header.get("table"), dict) \
                or header["table"].get("by") != HOSTED:
            return None
        gamelog = GameLog.open(path)
        try:
            g = gamelog.state
            if g is None or g.complete or len(self.tables) >= self.settings.max_tables:
                gamelog.close()
                return None
            now = self.clock.now()
            seats = header_seats(header, path, g, gamelog.sink.committed(), now)
            table = Table(gamelog, header, seats, self.settings.timing, self.clock)
        except BaseException:
            gamelog.close()
            raise
        table.say("The host restarted; the table carries on from its log")
        table.tick(now)
        return table

    def _resume_sheet(self, path: Path) -> None:
        if len(self.sheets) >= self.settings.max_sheets:
            return
        sheet = resume_sheet(path)
        if sheet.state.complete:
            sheet.close()
            return
        self.sheets[sheet.id] = sheet

    def open_table(self, ruleset: str | dict[str, Any], seats: list[SeatSpec], *,
                   step: int, mode: Mode, options: dict[str, Any] | None = None) -> Opened:
        """A new table: its log created (header only, chained) and its seat file written."""
        if step not in self.settings.step_choices:
            choices = ", ".join(map(str, self.settings.step_choices))
            raise OpenError(f"the step timer is one of {choices} seconds (0: unlimited)")
        self._make_room()
        names = check_names([s.name for s in seats])
        for spec in seats:
            if spec.kind == SeatKind.BOT and spec.bot not in BOTS:
                raise OpenError(f"unknown bot {spec.bot!r} (known: {', '.join(sorted(BOTS))})")
        self._rules(ruleset, options, len(seats))
        now = self.clock.now()
        game_id = f"table-{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
        header: dict[str, Any] = {
            "type": "game", "format": FORMAT, "seq": 0, "game_id": game_id, "ruleset": ruleset,
            "options": dict(options or {}), "players": names, "started_at": started_at(now),
            "t": 0,
            "bots": {n: s.bot for n, s in zip(names, seats, strict=True)
                     if s.kind == SeatKind.BOT},
            "table": {"by": HOSTED, "step": step, "mode": str(mode)},
            DECLARED_FIELD: SHA256,    # chained from its first line on, whoever appends
        }
        path = self.settings.directory / f"{game_id}.jsonl"
        tokens = {n: new_token() for n, s in zip(names, seats, strict=True)
                  if s.kind == SeatKind.PERSON}
        made = [Seat(n, s.kind, bot=s.bot, token_digest=digest(tokens[n]) if n in tokens else None,
                     presence=Presence.HERE if s.kind == SeatKind.BOT else Presence.INVITED)
                for n, s in zip(names, seats, strict=True)]
        try:
            gamelog = GameLog.create(path, header, chain=True)
        except CaboLogError as exc:
            raise OpenError(exc.message) from None
        try:
            save_digests(path, made)
            table = Table(gamelog, header, made, self.settings.timing, self.clock)
        except BaseException:
            gamelog.close()
            raise
        self.tables[game_id] = table
        table.tick(now)            # a table of bots alone starts at once
        return Opened(table, tokens)

    def open_sheet(self, ruleset: str | dict[str, Any], players: list[str], *,
                   options: dict[str, Any] | None = None) -> OpenedSheet:
        """A new score sheet for a game played with real cards: its log created (header
        only, chained) and its key's digest written."""
        if len(self.sheets) >= self.settings.max_sheets:
            for sheet_id, sheet in list(self.sheets.items()):
                if sheet.state.complete:
                    del self.sheets[sheet_id]
                    with sheet.lock:     # a page's call into it finishes first
                        sheet.close()
                    break
            else:
                raise OpenError(f"this host holds {self.settings.max_sheets} score sheets "
                                "already; finish one first")
        names = check_names(players)
        self._rules(ruleset, options, len(names))
        sheet_id = f"sheet-{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
        try:
            opened = create_sheet(self.settings.directory / f"{sheet_id}.jsonl", ruleset,
                                  names, options=dict(options or {}),
                                  started_at=started_at(self.clock.now()), by=HOSTED)
        except CaboLogError as exc:
            raise OpenError(exc.message) from None
        self.sheets[opened.sheet.id] = opened.sheet
        return opened

    @staticmethod
    def _rules(ruleset: str | dict[str, Any], options: dict[str, Any] | None,
               count: int) -> Ruleset:
        """The ruleset asked for, if it seats ``count`` players (else why not, in words)."""
        try:
            rules = resolve(ruleset, dict(options or {}))
        except ValueError as exc:
            raise OpenError(str(exc)) from None
        if not rules.players_allowed(count):
            more = ""
            if rules.decks == 1 and rules.max_players_two_decks > rules.max_players:
                more = f" ({rules.max_players_two_decks} with two decks)"
            raise OpenError(f"{rules.name} is for {rules.min_players} to "
                            f"{rules.player_limit()} players{more}, not {count}")
        return rules

    def _make_room(self) -> None:
        if len(self.tables) < self.settings.max_tables:
            return
        for table_id, table in list(self.tables.items()):
            if table.status == Status.OVER:
                table.close()
                del self.tables[table_id]
                return
        raise OpenError(f"this host holds {self.settings.max_tables} tables already; "
                        "finish one first")

    def find(self, token: str) -> tuple[Table, Seat] | None:
        """The table and seat a token opens (every seat of every table compared)."""
        found = None
        for table in self.tables.values():
            for seat in table.seats.values():
                if seat.accepts(token) and found is None:
                    found = (table, seat)
        return found

    def tick(self) -> list[Table]:
        """Fire what is due at every table; the tables that changed."""
        now = self.clock.now()
        changed = []
        for table in list(self.tables.values()):
            try:
                if table.tick(now):
                    changed.append(table)
            except (CaboLogError, OSError) as exc:   # the log could not be written
                log.error("%s: %s", table.id, exc)
        return changed

    def close(self) -> None:
        for table in self.tables.values():
            table.close()
        for sheet in self.sheets.values():
            sheet.close()

    # --- the database -----------------------------------------------------------------------
    def load(self, game_id: str, path: Path) -> str:
        """Load a table's game or a sheet into ``--db`` (incremental: only its file is
        replayed); the outcome in words. Runs in a worker thread: one load at a time."""
        db = self.settings.db
        if db is None:
            return "no database given (--db)"
        from cabo_log.db.basics import DatabaseError
        from cabo_log.db.load import LoadError, NoLogsFound, load_paths

        with self.load_lock:
            try:
                summary = load_paths([path], db, jobs=1)
            except (DatabaseError, LoadError, NoLogsFound, OSError) as exc:
                note = f"not loaded: {exc}"
            else:
                note = (f"loaded into {db.name}" if not summary.rejected
                        else f"not loaded: {summary.rejected[0]}")
        self.load_notes[game_id] = note
        return note


def check_names(names: list[str]) -> list[str]:
    """Players' names as given (trimmed), each 1 to 24 characters without control
    characters, no two alike; else why not, in words."""
    out = [name.strip() for name in names]
    for name in out:
        if not NAME.match(name):
            raise OpenError(f"a player's name is 1 to 24 characters, no control characters: "
                            f"{name!r}")
    if len(set(out)) != len(out):
        raise OpenError("two players have the same name")
    return out


def house_rules(text: str) -> dict[str, Any]:
    """House rules typed into a form: a JSON object (the engine checks its parameters)."""
    try:
        rules = json.loads(text)
    except ValueError as exc:
        raise OpenError(f"the house rules are not JSON: {exc}") from None
    if not isinstance(rules, dict):
        raise OpenError("the house rules are a JSON object, e.g. "
                        '{"base": "edition2", "caller_penalty": 5}')
    return rules
