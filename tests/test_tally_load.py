"""Score sheets in the database: they fill games, game_players, rounds, round_scores and
cabo_calls (no events, no powers), and every report either counts them or says under its table
how many it left out. The expected rows are the hand-scored sheets of ``sample_games/``."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from cabo_log import cli
from cabo_log.db import reports
from cabo_log.db.load import load_paths

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"
SHEETS = ["tally-edition1", "tally-edition2", "tally-golf", "tally-online"]
FULL = ["edition2-kamikaze", "golf-tiebreak"]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sheets")
    for stem in SHEETS + FULL:
        shutil.copy(SAMPLES / f"{stem}.jsonl", folder / f"{stem}.jsonl")
    path = folder / "cabo.duckdb"
    summary = load_paths([folder], path, jobs=1)
    assert summary.loaded == len(SHEETS) + len(FULL), summary
    return path


def query(db: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, list(params)).fetchall()
    finally:
        con.close()


def test_games_and_players_of_the_sheets(db: Path) -> None:
    rows = query(db, "SELECT game_id, record, rounds, complete, winners, forfeited FROM games "
                     "ORDER BY game_id")
    by_id = {r[0]: r[1:] for r in rows}
    assert by_id["sample-tally-edition1"] == ("tally", 5, True, ["carla"], [])
    assert by_id["sample-tally-edition2"] == ("tally", 6, True, ["ana"], [])
    assert by_id["sample-tally-golf"] == ("tally", 5, True, ["carla"], [])
    assert by_id["sample-tally-online"] == ("tally", 4, True, ["carla"], ["bruno"])
    assert by_id["sample-edition2-kamikaze"][0] == "full"
    players = query(db, "SELECT player, final_score, won, forfeited, rounds_played, calls "
                        "FROM game_players WHERE game_id = 'sample-tally-online' ORDER BY seat")
    assert players == [("ana", 100, False, False, 4, 1), ("bruno", 71, False, True, 3, 2),
                       ("carla", 13, True, False, 4, 1)]


def test_rounds_and_scores_of_a_sheet(db: Path) -> None:
    rounds = query(db, "SELECT round, caller, cabo_success, end_reason, special_holders, "
                       "resets, tiebreak FROM rounds WHERE game_id = 'sample-tally-edition1' "
                       "ORDER BY round")
    assert rounds == [(1, "ana", True, "cabo", [], [], False),
                      (2, "bruno", False, "cabo", [], [], False),
                      (3, "ana", True, "cabo", ["carla"], [], False),   # 2: lowest
                      (4, "bruno", True, "cabo", [], ["ana"], False),
                      (5, "carla", True, "cabo", [], [], False)]
    scores = query(db, "SELECT round, player, hand, total, points, cumulative, reset "
                       "FROM round_scores WHERE game_id = 'sample-tally-edition1' "
                       "AND player = 'ana' ORDER BY round")
    assert scores == [(1, "ana", ["1", "2", "3"], 6, 0, 0, False),
                      (2, "ana", ["2", "2"], 4, 0, 0, False),
                      (3, "ana", ["1", "1"], 2, 50, 50, False),
                      (4, "ana", ["11", "11", "11", "11", "6"], 50, 50, 50, True),
                      (5, "ana", ["5", "6"], 11, 11, 61, False)]
    tiebreak = query(db, "SELECT player FROM round_scores WHERE game_id = 'sample-tally-golf' "
                         "AND round = 5 ORDER BY player")
    assert tiebreak == [("ana",), ("carla",)]


def test_calls_but_no_events_or_powers(db: Path) -> None:
    calls = query(db, "SELECT round, caller, turn, total_at_call, total_at_end, "
                      "lowest_other_at_end, success, points, special_round FROM cabo_calls "
                      "WHERE game_id = 'sample-tally-edition2' ORDER BY round")
    assert calls == [(1, "ana", None, None, 7, 7, True, 0, False),
                     (3, "bruno", None, None, 9, 5, False, 19, False),
                     (4, "bruno", None, None, 0, 50, True, 50, True),
                     (5, "ana", None, None, 1, 21, True, 0, False)]
    sheets = "(SELECT game_id FROM games WHERE record = 'tally')"
    # a sheet's lines other than its tallies are ordinary events (the header, a forfeit, the
    # claims); no turn is ever recorded
    kinds = query(db, f"SELECT type, count(*) FROM events WHERE game_id IN {sheets} "
                      "GROUP BY type ORDER BY type")
    assert kinds == [("forfeit", 1), ("game", 4), ("game_end", 4), ("round_end", 20)]
    assert query(db, f"SELECT count(*) FROM powers WHERE game_id IN {sheets}") == [(0,)]
    assert query(db, "SELECT count(*) FROM events WHERE game_id = 'sample-golf-tiebreak'"
                 )[0][0] > 0


def run_report(db: Path, name: str, **params: Any) -> tuple[list[str], list[tuple[Any, ...]],
                                                              str | None]:
    report = reports.get(name)
    con = duckdb.connect(str(db), read_only=True)
    try:
        values = reports.bind(report, {k: str(v) for k, v in params.items()})
        columns, rows = reports.run(con, report, values)
        return columns, rows, reports.left_out(con, report, values)
    finally:
        con.close()


def test_every_report_declares_what_it_does_with_score_sheets() -> None:
    for report in reports.available().values():
        assert report.score_sheets == reports.COUNTED or report.score_sheets.startswith(
            "left out"), report.name


@pytest.mark.parametrize("name", sorted(reports.available()))
def test_each_report_counts_sheets_or_says_how_many_it_left_out(db: Path, name: str) -> None:
    report = reports.get(name)
    _, _, note = run_report(db, name)
    if report.score_sheets == reports.COUNTED:
        assert note is None
    else:
        assert note is not None and note.startswith("4 score sheets (games of record")
        assert "left out" in note


def test_counted_reports_include_the_sheets(db: Path) -> None:
    columns, rows, _ = run_report(db, "special_hands", ruleset="online")
    row = dict(zip(columns, rows[0], strict=True))
    assert row["rounds"] == 4 and row["special_rounds"] == 1   # the moon of tally-online
    columns, rows, _ = run_report(db, "score_distribution", ruleset="edition1")
    final = next(dict(zip(columns, r, strict=True)) for r in rows if r[1] == "final_score")
    assert final["n"] == 3 and final["max"] == 101
    columns, rows, _ = run_report(db, "cabo_call_success", ruleset="edition2")
    counts = {(r[1], r[2]): r[3] for r in rows}
    # edition2-kamikaze's calls (turns known) plus the sheet's 4 in 'all' alone
    full_calls = sum(n for (dim, _), n in counts.items() if dim == "turn")
    assert counts[("all", "all")] == full_calls + 4


def test_left_out_reports_exclude_the_sheets(db: Path) -> None:
    columns, rows, note = run_report(db, "round_length", ruleset="golf")
    assert sum(r[columns.index("rounds")] for r in rows) == 3   # golf-tiebreak's rounds only
    assert note == ('1 score sheet (games of record "tally") left out: a score sheet records '
                    "no turns")
    _, rows, note = run_report(db, "first_player_advantage", ruleset="online")
    assert rows == [] and note is not None and note.startswith("1 score sheet")


def test_report_command_prints_the_line_under_its_table(db: Path) -> None:
    if not cli.app.registered_commands:
        cli.register_all()
    out = CliRunner().invoke(cli.app, ["report", "round_length", "--db", str(db)])
    assert out.exit_code == 0, out.stdout
    lines = out.stdout.splitlines()
    under = lines[next(i for i, line in enumerate(lines) if re.fullmatch(r"\(\d+ rows?\)", line))
                  + 1]   # right under the rows; what the columns hold follows
    assert under == (
        '4 score sheets (games of record "tally") left out: a score sheet records no turns')
    out = CliRunner().invoke(cli.app, ["report", "round_length", "--db", str(db),
                                       "--format", "csv"])
    assert out.exit_code == 0 and "score sheet" not in out.stdout
    assert "4 score sheets" in out.stderr
    out = CliRunner().invoke(cli.app, ["report", "special_hands", "--db", str(db)])
    assert "score sheet" not in out.stdout
