"""``load --analyse``: the decisions and analyses tables, the mistakes report, re-runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
from analysis_logs import final_turn, must_fail_log

from cabo_log.analysis.evaluate import Settings
from cabo_log.analysis.store import analyse_database
from cabo_log.db import database as dbmod
from cabo_log.db import reports
from cabo_log.db.load import load_paths

SETTINGS = Settings(rollouts=4, seed=2)


def query(db: Path, sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_decisions_table_and_mistakes_report(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    must_fail_log().write(logs / "a.jsonl")
    # a second game: the same table, but ana discards the 13 (the best move)
    b = final_turn(["5", "4", "9", "9"], "13").discard("ana")
    b.lines[0]["game_id"] = "game-2"
    b.write(logs / "b.jsonl")
    db = tmp_path / "x.duckdb"
    load_paths([logs], db, jobs=1)
    done = analyse_database(db, SETTINGS, jobs=1)
    assert (done.games, done.skipped) == (2, [])
    rows = query(db, "SELECT game_id, seq, player, kind, chosen_type, mark, loss, must_fail "
                     "FROM decisions WHERE kind = 'place' ORDER BY game_id")
    assert rows == [("game-1", 6, "ana", "place", "replace", "??", 13.0, True),
                    ("game-2", 6, "ana", "place", "discard", None, 0.0, False)]
    assert query(db, "SELECT best FROM decisions WHERE game_id = 'game-1' AND seq = 6") == \
        [('{"type":"discard","player":"ana"}',)]
    per_player = query(db, "SELECT game_id, player, blunders, rollouts FROM analyses "
                           "ORDER BY game_id, player")
    counted = query(db, "SELECT g.game_id, p.player, count(d.mark) FILTER (WHERE d.mark = "
                        "'??'), 4 FROM (SELECT DISTINCT game_id FROM games) g, "
                        "(VALUES ('ana'), ('bruno')) p(player) LEFT JOIN decisions d ON "
                        "d.game_id = g.game_id AND d.player = p.player GROUP BY ALL "
                        "ORDER BY ALL")
    assert per_player == counted
    assert per_player[0][:3] >= ("game-1", "ana", 1)
    report = reports.get("mistakes")
    con = duckdb.connect(str(db), read_only=True)
    try:
        columns, out = reports.run(con, report, reports.bind(report, {"player": "ana"}))
    finally:
        con.close()
    table = [dict(zip(columns, row, strict=True)) for row in out]
    place = next(r for r in table if r["kind"] == "place")
    assert (place["decisions"], place["blunders"], place["total_loss"]) == (2, 1, 13.0)
    assert sum(r["blunders"] for r in table) == per_player[0][2] + per_player[2][2]
    assert {r["player"] for r in table} == {"ana"}
    # a second run analyses nothing; reloading a changed file drops and redoes its analysis
    assert analyse_database(db, SETTINGS, jobs=1).games == 0
    (logs / "a.jsonl").write_bytes((logs / "b.jsonl").read_bytes().replace(b"game-2",
                                                                          b"game-1"))
    load_paths([logs], db, jobs=1)
    assert query(db, "SELECT count(*) FROM decisions WHERE game_id = 'game-1'") == [(0,)]
    assert analyse_database(db, SETTINGS, jobs=1).games == 1
    assert query(db, "SELECT mark FROM decisions WHERE game_id = 'game-1' AND seq = 6") == \
        [(None,)]


def test_analysis_tables_are_documented() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "schema.md").read_text()
    for table, schema in dbmod.ANALYSIS_SCHEMAS.items():
        assert f"### `{table}`" in doc, table
        for field in schema:
            assert f"`{field.name}`" in doc, (table, field.name)


def test_timeline_page_shows_marks_and_the_evaluation_graph(tmp_path: Path) -> None:
    import json as jsonlib

    from cabo_log.analysis.analyse import analyse_bytes
    from cabo_log.pages.timeline import build_timeline
    from cabo_log.pages.timeline_html import page_data, render_page

    log = must_fail_log().write(tmp_path / "t.jsonl")
    analysis = analyse_bytes(log.read_bytes(), str(log), settings=SETTINGS, jobs=1)
    tl = build_timeline(log)
    data = page_data(tl, analysis)
    assert data["analysis"]["marks"]["6"]["mark"] == "??"
    assert data["analysis"]["marks"]["6"]["text"].startswith("seq 6 ana replaced 0 and 1")
    marks = next(t for t in data["figures"]["events"]["data"] if t["name"] == "analysis marks")
    assert 6 in marks["x"] and "??" in marks["text"]
    graph = data["figures"]["analysis"]["data"]
    assert {t["name"] for t in graph} == {"ana", "bruno"}
    ana = next(t for t in graph if t["name"] == "ana")
    assert ana["x"] == [d.seq for d in analysis.decisions if d.player == "ana"]
    assert 'id="chart-analysis"' in render_page(tl, analysis=analysis)
    assert 'id="chart-analysis"' not in render_page(tl)
    # seen as bruno: only bruno's decisions, told without naming cards
    seen = page_data(build_timeline(log, "bruno"), analysis)
    assert all(m["player"] == "bruno" for m in seen["analysis"]["marks"].values())
    assert "6" not in seen["analysis"]["marks"]
    jsonlib.dumps(seen)


def test_an_analysis_read_back_has_the_accuracy_it_was_stored_with(tmp_path: Path) -> None:
    """The pages draw a stored analysis from the database (``read_analysis``): its players'
    accuracy is the one ``load --analyse`` stored, not 100 % for want of the counted
    losses."""
    from cabo_log.analysis.analyse import analyse_bytes
    from cabo_log.analysis.store import read_analysis

    logs = tmp_path / "logs"
    logs.mkdir()
    must_fail_log().write(logs / "a.jsonl")
    db = tmp_path / "x.duckdb"
    load_paths([logs], db, jobs=1)
    analyse_database(db, SETTINGS, jobs=1)
    direct = analyse_bytes((logs / "a.jsonl").read_bytes(), settings=SETTINGS).accuracy()
    stored = dict(query(db, "SELECT player, accuracy FROM analyses WHERE game_id = 'game-1'"))
    con = duckdb.connect(str(db), read_only=True)
    try:
        back = read_analysis(con, "game-1")
    finally:
        con.close()
    assert back is not None
    assert back.accuracy() == direct
    assert {p: round(a, 1) for p, a in stored.items()} == direct
    assert direct["ana"] is not None and direct["ana"] < 100.0
