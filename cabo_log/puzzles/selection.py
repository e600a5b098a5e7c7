"""Which analysed decisions make puzzles, and their themes (docs/puzzles.md).

A puzzle is a real mistake with one clearly best answer: a decision of ``load --analyse`` (the
``decisions`` table, with every compared option in ``decision_options``) where

- the player did not choose the best option (a mistake someone really made), and
- the best option is ahead of **every** other option by at least ``MIN_MARGIN`` expected round
  points, and by more than ``MIN_Z`` standard errors of that margin (the difference paired over
  the worlds both options were played in, so the noise of the rollouts cannot have made it).

The expected points are judged from what the player knew (the analysis re-deals only the cards
they could not see), so the best answer is findable from the table the puzzle shows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import duckdb

from cabo_log.analysis.decisions import Kind

MIN_MARGIN = 3.0    # expected round points the best option is ahead of every other, at least
MIN_Z = 2.5         # and standard errors of that margin, more than


class Theme(StrEnum):
    """What a puzzle is about, from the decision's kind and the moves in it."""

    CABO = "cabo"                # a turn's start where calling Cabo was the best or the mistake
    DRAW = "draw"                # a turn's start otherwise: the deck or the discard
    REPLACEMENT = "replacement"  # a card in hand: discard it, or which position(s) it replaces
    POWER = "power"              # a power: use it (on which card) or skip it
    SNAP = "snap"                # snaps: the analysis does not evaluate them (no puzzles yet)


THEME_WORDS: dict[Theme, str] = {
    Theme.CABO: "Cabo call", Theme.DRAW: "drawing", Theme.REPLACEMENT: "replacement",
    Theme.POWER: "power use", Theme.SNAP: "snap"}
THEME_OF_KIND: dict[str, Theme] = {Kind.DRAW: Theme.DRAW, Kind.PLACE: Theme.REPLACEMENT,
                                   Kind.POWER: Theme.POWER}
CABO_TYPE = "cabo"   # the event type that makes a turn's start a Cabo-call puzzle


class PuzzleError(Exception):
    """A puzzle cannot be made or found: a sentence for the page or the command line."""


@dataclass(frozen=True)
class PuzzleRef:
    """One puzzle as the index lists it."""

    game_id: str
    seq: int
    ruleset: str
    player: str
    round: int
    theme: Theme
    margin: float        # the best option's lead over the second best, in expected points
    loss: float          # what the move played gave away

    @property
    def slug(self) -> str:
        """A file name for the puzzle (the game id made safe, then the seq)."""
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in self.game_id)
        return f"{safe}-{self.seq}"


@dataclass(frozen=True)
class OptionFigure:
    """One compared option of a puzzle, as the analysis stored it."""

    index: int
    move: dict[str, Any]
    move_type: str
    text: str
    expected: float | None
    rollouts: int
    margin: float | None
    stderr: float | None
    best: bool
    chosen: bool


def has_options_table(con: duckdb.DuckDBPyConnection) -> bool:
    cur = con.cursor()
    try:
        names = {r[0] for r in cur.execute(
            "SELECT table_name FROM information_schema.tables").fetchall()}
    finally:
        cur.close()
    return {"decisions", "decision_options"} <= names


def theme_sql() -> str:
    """The theme of a ``decisions`` row ``d`` (with the best option's type ``best_type``)."""
    arms = " ".join(f"WHEN d.kind = '{kind}' THEN '{theme}'"
                    for kind, theme in THEME_OF_KIND.items())
    return (f"CASE WHEN d.kind = '{Kind.DRAW}' AND (d.chosen_type = '{CABO_TYPE}' OR "
            f"c.best_type = '{CABO_TYPE}') THEN '{Theme.CABO}' {arms} END")


_CANDIDATES = f"""
WITH clear AS (
    SELECT game_id, seq,
           min(margin) FILTER (WHERE NOT best) AS margin,
           any_value(move_type) FILTER (WHERE best) AS best_type,
           bool_and(best OR (margin IS NOT NULL AND margin >= $min_margin
                             AND stderr IS NOT NULL AND margin > $min_z * stderr)) AS sure,
           count(*) AS options,
           bool_or(best AND chosen) AS found
    FROM decision_options GROUP BY game_id, seq)
SELECT d.game_id, d.seq, d.ruleset, d.player, d.round, {theme_sql()} AS theme, c.margin, d.loss
FROM decisions d JOIN clear c ON c.game_id = d.game_id AND c.seq = d.seq
WHERE c.sure AND c.options >= 2 AND NOT c.found
"""


def find_puzzles(con: duckdb.DuckDBPyConnection, *, ruleset: str | None = None,
                 theme: Theme | None = None, limit: int | None = None,
                 random: bool = False, game_id: str | None = None,
                 seq: int | None = None) -> list[PuzzleRef]:
    """The puzzles of the database (see the module docstring), in game and step order (or in
    a random order), filtered; PuzzleError when the database has no analysis to take them
    from."""
    if not has_options_table(con):
        raise PuzzleError("this database has no analysis to make puzzles from: run "
                          "'cabo-log load GAMES --db FILE --analyse' first")
    sql = (f"SELECT * FROM ({_CANDIDATES}) p WHERE ($ruleset IS NULL OR ruleset = $ruleset) "
           "AND ($theme IS NULL OR theme = $theme) AND ($game IS NULL OR game_id = $game) "
           "AND ($seq IS NULL OR seq = $seq) "
           + ("ORDER BY random()" if random else "ORDER BY game_id, seq")
           + ("" if limit is None else f" LIMIT {int(limit)}"))
    params = {"min_margin": MIN_MARGIN, "min_z": MIN_Z, "ruleset": ruleset,
              "theme": None if theme is None else str(theme), "game": game_id, "seq": seq}
    cur = con.cursor()
    try:
        rows = cur.execute(sql, params).fetchall()
    finally:
        cur.close()
    return [PuzzleRef(str(g), int(s), str(r), str(p), int(rnd), Theme(t), float(m), float(lo))
            for g, s, r, p, rnd, t, m, lo in rows]


def option_figures(con: duckdb.DuckDBPyConnection, game_id: str, seq: int
                   ) -> list[OptionFigure]:
    """The compared options of one decision, in the analysis's order."""
    cur = con.cursor()
    try:
        rows = cur.execute(
            "SELECT option, move, move_type, text, expected, rollouts, margin, stderr, best, "
            "chosen FROM decision_options WHERE game_id = $1 AND seq = $2 ORDER BY option",
            [game_id, seq]).fetchall()
    finally:
        cur.close()
    return [OptionFigure(int(i), json.loads(m), str(t), str(x), e, int(r), mg, se, bool(b),
                         bool(c)) for i, m, t, x, e, r, mg, se, b, c in rows]


def source_of(con: duckdb.DuckDBPyConnection, game_id: str) -> str | None:
    """The log file a game was loaded from."""
    cur = con.cursor()
    try:
        row = cur.execute("SELECT source_file FROM games WHERE game_id = $1",
                          [game_id]).fetchone()
    finally:
        cur.close()
    return None if row is None or row[0] is None else str(row[0])
