"""``load --analyse``: the analysis of every loaded game in the ``decisions`` and ``analyses``
tables (docs/schema.md), for SQL reports such as ``mistakes``.

Runs after the load, game by game, one transaction each, over the games of the files the
load was given (or every game in the database): a game already analysed (a row in
``analyses`` with the file hash it was loaded with) is skipped, so re-running finishes an
interrupted job. A game whose file was reloaded loses its analysis with its other rows (the
loader deletes them) and is analysed again; a file changed since the load is left for the
next load.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

import pyarrow as pa

from cabo_log.analysis.analyse import (
    DecisionResult,
    GameAnalysis,
    OptionValue,
    analyse_bytes,
    plural,
)
from cabo_log.analysis.decisions import Kind
from cabo_log.analysis.evaluate import Settings
from cabo_log.analysis.marks import Mark, accuracy_of, loss_of_accuracy
from cabo_log.db.database import ANALYSIS_SCHEMAS, connect, ensure_schema
from cabo_log.db.load import file_hash
from cabo_log.progress import Progress
from engine import CaboLogError, parse_event, type_name
from engine.events import to_dict


@dataclass
class StoreSummary:
    games: int = 0
    decisions: int = 0
    skipped: list[str] = field(default_factory=list)   # "file: why"

    def text(self) -> str:
        return (f"analysed {self.games} game{'s' if self.games != 1 else ''} "
                f"({self.decisions} decisions)"
                + (f", {len(self.skipped)} skipped" if self.skipped else ""))


def analyse_database(path: str | os.PathLike[str], settings: Settings, *,
                     jobs: int | None = None, progress: TextIO | None = None,
                     games: Callable[[str], bool] | None = None,
                     on_game: Callable[[GameDone], None] | None = None) -> StoreSummary:
    """Analyse the loaded games that have no analysis yet (see the module docstring): all of
    them, or with ``games`` only those loaded from a file it accepts (a test on the absolute
    paths of the ``files`` table: ``listing.listed_in`` of the paths a load was given).
    ``progress``: a bar over the games, with its time estimate; ``on_game`` is told of each
    game as it is done (a line per game where there is no bar)."""
    con = connect(path, read_only=False)
    summary = StoreSummary()
    try:
        ensure_schema(con, path)
        todo = con.execute(
            # a score sheet (record 'tally') has no moves to analyse: left out
            "SELECT g.game_id, g.source_file, g.file_hash, g.events FROM games g "
            "WHERE g.record = 'full' AND (NOT EXISTS "
            "(SELECT 1 FROM analyses a WHERE a.game_id = g.game_id "
            "AND a.file_hash = g.file_hash) "
            # analysed before the options were kept (schema 6): analysed again for them
            "OR (EXISTS (SELECT 1 FROM decisions d WHERE d.game_id = g.game_id) AND NOT EXISTS "
            "(SELECT 1 FROM decision_options o WHERE o.game_id = g.game_id))) "
            "ORDER BY g.game_id").fetchall()
        if games is not None:
            wanted = {game_id for file, game_id in con.execute(
                "SELECT path, game_id FROM files WHERE game_id IS NOT NULL").fetchall()
                if games(file)}
            todo = [row for row in todo if row[0] in wanted]
        # the bar counts events, a fair measure of a game's work, so its time estimate holds
        # however long the games are, and it moves within a game as its decisions are done
        bar = Progress(sum(row[3] for row in todo), progress, unit="events",
                       label=f"analysing {len(todo)} game{'s' if len(todo) != 1 else ''}") \
            if progress is not None else None
        before = 0
        for done, (game_id, source, digest, events) in enumerate(todo, start=1):
            started = time.perf_counter()

            def within(count: int, total: int, before: int = before, events: int = events
                       ) -> None:
                if bar is not None:
                    bar.update(before + events * count // max(total, 1))

            analysed = _one(con, summary, game_id, source, digest, settings, jobs, within)
            before += events
            if on_game is not None:
                on_game(GameDone(done, len(todo), game_id, source, analysed,
                                 time.perf_counter() - started))
            if bar is not None:
                bar.update(before)
        if bar is not None:
            bar.close()
    finally:
        con.close()
    return summary


@dataclass(frozen=True)
class GameDone:
    """One game of ``analyse_database`` done: the ``number``-th of ``total``; ``result`` is
    None when it was skipped (``StoreSummary.skipped`` says why)."""

    number: int
    total: int
    game_id: str
    file: str
    result: GameAnalysis | None
    seconds: float

    def text(self) -> str:
        head = f"analysed {self.number}/{self.total}: {self.game_id} ({self.file})"
        if self.result is None:
            return f"{head}: skipped"
        r = self.result
        marked = len(r.marked())
        return (f"{head}: {plural(len(r.decisions), 'decision')}, {marked} marked, "
                f"{self.seconds:.1f} s")


def _one(con: Any, summary: StoreSummary, game_id: str, source: str, digest: str,
         settings: Settings, jobs: int | None,
         on_decision: Callable[[int, int], None] | None = None) -> GameAnalysis | None:
    try:
        with open(source, "rb") as f:
            data = f.read()
    except OSError as exc:
        summary.skipped.append(f"{source}: cannot read it ({exc.strerror or exc})")
        return None
    if file_hash(data) != digest:
        summary.skipped.append(f"{source}: changed since it was loaded (load it again)")
        return None
    try:
        result = analyse_bytes(data, source, settings=settings, jobs=jobs,
                               on_decision=on_decision)
    except CaboLogError as exc:  # pragma: no cover - a loaded game replays
        summary.skipped.append(str(exc))
        return None
    write_analysis(con, result, digest)
    summary.games += 1
    summary.decisions += len(result.decisions)
    return result


def write_analysis(con: Any, result: GameAnalysis, digest: str) -> None:
    """Replace a game's rows in ``decisions`` and ``analyses`` (one transaction)."""
    tables = {"decisions": decision_rows(result), "decision_options": option_rows(result),
              "analyses": player_rows(result, digest)}
    con.execute("BEGIN TRANSACTION")
    try:
        for table, rows in tables.items():
            con.execute(f"DELETE FROM {table} WHERE game_id = ?", [result.game_id])
            data = pa.Table.from_pylist(rows, schema=ANALYSIS_SCHEMAS[table])
            con.register("_incoming", data)
            try:
                con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _incoming")
            finally:
                con.unregister("_incoming")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def decision_rows(result: GameAnalysis) -> list[dict[str, Any]]:
    rows = []
    for d in result.decisions:
        best = next((o.expected for o in d.options if o.move == d.best), None)
        rows.append({
            "game_id": result.game_id, "ruleset": result.ruleset, "round": d.round,
            "seq": d.seq, "line": d.line, "player": d.player, "kind": str(d.kind),
            "chosen_type": type_name(d.chosen), "chosen": _json(d.chosen_json()),
            "chosen_text": d.chosen_text, "best": _json(d.best_json()),
            "best_text": d.best_text, "options": len(d.options), "expected": d.expected,
            "best_expected": best, "loss": d.loss, "stderr": d.stderr,
            "mark": None if d.mark is None else str(d.mark),
            "accuracy": accuracy_of(d.counted_loss), "implicit": d.implicit,
            "must_fail": d.must_fail})
    return rows


def option_rows(result: GameAnalysis) -> list[dict[str, Any]]:
    """Every compared option of every decision, with its expected points and its margin over
    the best one (``decision_options``: what a puzzle shows after an answer)."""
    rows = []
    for d in result.decisions:
        for i, o in enumerate(d.options):
            rows.append({
                "game_id": result.game_id, "seq": d.seq, "option": i,
                "move": _json(to_dict(o.move)), "move_type": type_name(o.move), "text": o.text,
                "expected": o.expected, "rollouts": o.rollouts, "margin": o.margin,
                "stderr": o.stderr, "best": o.move == d.best, "chosen": o.move == d.chosen})
    return rows


def player_rows(result: GameAnalysis, digest: str) -> list[dict[str, Any]]:
    accuracy = result.accuracy()
    rows = []
    for p in result.players:
        mine = [d for d in result.decisions if d.player == p]
        rows.append({
            "game_id": result.game_id, "ruleset": result.ruleset, "player": p,
            "decisions": len(mine),
            "blunders": sum(1 for d in mine if d.mark is Mark.BLUNDER),
            "mistakes": sum(1 for d in mine if d.mark is Mark.MISTAKE),
            "dubious": sum(1 for d in mine if d.mark is Mark.DUBIOUS),
            "loss": sum(d.loss for d in mine), "accuracy": accuracy[p],
            "rollouts": result.settings.rollouts, "seed": result.settings.seed,
            "bot": result.settings.policy, "file_hash": digest})
    return rows


def _json(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


# --- reading it back --------------------------------------------------------------------------

def read_analysis(con: Any, game_id: str) -> GameAnalysis | None:
    """A game's analysis as ``load --analyse`` stored it (None: not analysed), for the pages
    that draw it as ``timeline --analyse`` does. Forced moves are never stored, so none is
    forced here; a decision's options are there when the database keeps them (schema 7)."""
    cur = con.cursor()
    try:
        names = {r[0] for r in cur.execute(
            "SELECT table_name FROM information_schema.tables").fetchall()}
        if not {"decisions", "analyses"} <= names:
            return None
        players = cur.execute("SELECT player, rollouts, seed, bot FROM analyses "
                              "WHERE game_id = $1 ORDER BY player", [game_id]).fetchall()
        rows = cur.execute(
            "SELECT seq, line, player, kind, round, chosen, chosen_text, best, best_text, "
            "expected, loss, stderr, mark, implicit, must_fail, accuracy FROM decisions "
            "WHERE game_id = $1 ORDER BY seq", [game_id]).fetchall()
        options: dict[int, list[OptionValue]] = {}
        if "decision_options" in names:
            for seq, move, text, expected, rollouts, margin, stderr in cur.execute(
                    "SELECT seq, move, text, expected, rollouts, margin, stderr FROM "
                    "decision_options WHERE game_id = $1 ORDER BY seq, option",
                    [game_id]).fetchall():
                options.setdefault(int(seq), []).append(OptionValue(
                    parse_event(json.loads(move)), text, expected, int(rollouts), margin,
                    stderr))
    finally:
        cur.close()
    if not players:
        return None
    decisions = [DecisionResult(
        seq=int(seq), line=int(line), player=player, kind=Kind(kind), round=int(rnd),
        chosen=parse_event(json.loads(chosen)), chosen_text=chosen_text,
        best=parse_event(json.loads(best)), best_text=best_text, expected=expected,
        loss=float(loss), stderr=float(stderr), mark=None if mark is None else Mark(mark),
        forced=False, implicit=bool(implicit), must_fail=bool(must_fail),
        options=options.get(int(seq), []), counted_loss=loss_of_accuracy(accuracy))
        for (seq, line, player, kind, rnd, chosen, chosen_text, best, best_text, expected,
             loss, stderr, mark, implicit, must_fail, accuracy) in rows]
    _, rollouts, seed, bot = players[0]
    return GameAnalysis(None, game_id, "", tuple(p for p, *_ in players),
                        Settings(rollouts=int(rollouts), seed=int(seed), policy=str(bot)),
                        decisions)
