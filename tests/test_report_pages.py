"""Report declarations (parameters with ranges, charts), the report page, the CLI's format
rules, and the read-only SQL connection."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest
from serve_db import build_db

from cabo_log.db import reports
from cabo_log.db.report_header import ChartKind, ParamType, ReportError, parse_chart, parse_param
from cabo_log.pages.report_charts import figure
from cabo_log.pages.report_page import chart_blocks, prose_html


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_db(tmp_path_factory.mktemp("reportdb"))


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from cabo_log.cli import main; main()", *args],
                          capture_output=True, text=True, check=False)


# --- declarations ---------------------------------------------------------------------------

def test_param_grammar_and_ranges() -> None:
    p = parse_param("r", "bucket int 1..100 default 10  width of the buckets")
    assert (p.type, p.low, p.high, p.default, p.help) == (ParamType.INT, 1, 100, 10,
                                                          "width of the buckets")
    assert p.describe() == "int 1..100, default 10"
    q = parse_param("r", "ruleset text from games.ruleset default null  only this ruleset")
    assert q.source == ("games", "ruleset") and q.default is None
    old = parse_param("r", "min_turns int 3  the old form, still read")
    assert old.default == 3 and old.low is None
    with pytest.raises(ReportError, match="unknown type"):
        parse_param("r", "x money 1")
    with pytest.raises(ReportError, match="must be between 1 and 100, not 0"):
        parse_param("r", "bucket int 1..100 default 0")


def test_bucket_out_of_range_is_refused() -> None:
    report = reports.get("score_distribution")
    for raw in ("0", "-5"):
        with pytest.raises(ReportError) as err:
            reports.bind(report, [f"bucket={raw}"])
        assert str(err.value) == f"parameter bucket must be between 1 and 1000, not {raw}"
    assert reports.bind(report, ["bucket=1"])["bucket"] == 1
    assert reports.bind(report, {"bucket": ""})["bucket"] == 5   # an empty form field


def test_cli_rejects_bad_values_with_exit_2(db: Path) -> None:
    for raw in ("0", "-5"):
        out = cli("report", "score_distribution", "--db", str(db), "-p", f"bucket={raw}")
        assert out.returncode == 2
        assert out.stderr == f"cabo-log: parameter bucket must be between 1 and 1000, not {raw}\n"
    out = cli("report", "score_distribution", "--db", str(db), "-p", "ruleset=Golf")
    assert out.returncode == 2
    assert out.stderr == ("cabo-log: parameter ruleset: no ruleset 'Golf' in this database "
                          "(the values there: edition1, edition2, golf, online)\n")


def test_chart_grammar() -> None:
    spec = parse_chart("r", 'line x=bucket y=success_rate series=ruleset where=dimension:turn '
                            'title="Success by turn"')
    assert spec.kind is ChartKind.LINE and spec.where == {"dimension": "turn"}
    assert spec.y == ("success_rate",) and spec.title == "Success by turn"
    with pytest.raises(ReportError, match="unknown chart kind"):
        parse_chart("r", "pie x=a")
    with pytest.raises(ReportError, match="bad @chart option"):
        parse_chart("r", "bar colour=red")


def run(db: Path, name: str, **params: str) -> tuple[reports.Report, list[str],
                                                     list[tuple[Any, ...]]]:
    report = reports.get(name)
    con = duckdb.connect(str(db), read_only=True)
    try:
        columns, rows = reports.run(con, report, reports.bind(report, params))
    finally:
        con.close()
    return report, columns, rows


def test_every_report_declares_charts_that_draw(db: Path) -> None:
    for name, report in reports.available().items():
        assert report.charts, name
        _, columns, rows = run(db, name)
        for spec in report.charts:
            used = {spec.x, *spec.y, *spec.series, *spec.where} - {None}
            assert used <= set(columns), (name, used - set(columns))
        assert "@param" not in report.doc and "@chart" not in report.doc
        blocks = chart_blocks(report, columns, rows)
        if name == "mistakes" and not rows:   # empty until load --analyse ran: nothing to draw
            continue
        assert blocks, name
        for spec, block in zip(report.charts, blocks, strict=False):
            layout = block.figure["layout"]
            if spec.kind is ChartKind.RATE:
                assert layout["yaxis"]["range"] == [0, 1.02], name
                assert layout["yaxis"]["tickformat"] == ".0%"
            assert "title" not in layout or not layout["title"].get("text"), name


def test_rates_are_drawn_on_their_own_axis(db: Path) -> None:
    report, columns, rows = run(db, "power_usage")
    dicts = [dict(zip(columns, r, strict=True)) for r in rows]
    fig = figure(report.charts[0], dicts)
    assert fig is not None
    traces = fig["data"]
    assert {t["name"] for t in traces} == {r["ruleset"] for r in dicts}
    for t in traces:       # one bar per power, at its use rate
        mine = [r for r in dicts if r["ruleset"] == t["name"]]
        assert list(t["y"]) == [r["use_rate"] for r in mine]


def test_line_categories_keep_the_row_order() -> None:
    spec = parse_chart("r", "line x=b y=v series=s")
    rows = [{"s": "a", "b": "1-5", "v": 1}, {"s": "a", "b": "11-15", "v": 1},
            {"s": "b", "b": "1-5", "v": 1}, {"s": "b", "b": "6-10", "v": 1},
            {"s": "b", "b": "11-15", "v": 1}]
    fig = figure(spec, rows)
    assert fig is not None
    assert fig["layout"]["xaxis"]["categoryarray"] == ["1-5", "6-10", "11-15"]


def test_prose_from_the_header() -> None:
    report = reports.get("power_usage")
    page = prose_html(report.doc)
    assert "<b>Measures:</b>" in page and "<li><b>used</b>" in page
    assert "<code>power</code>" in page and "--" not in page
    shown = prose_html(reports.get("score_distribution").doc, {"bucket": 7})
    assert "bound + 7)" in shown and "$bucket" not in shown


# --- the CLI's format rules -------------------------------------------------------------------

def test_output_html_implies_the_format_and_cdn_links(db: Path, tmp_path: Path) -> None:
    page = tmp_path / "scores.html"
    out = cli("report", "score_distribution", "--db", str(db), "-o", str(page))
    assert out.returncode == 0, out.stderr
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and 'class="table-box"' in text
    assert 'src="https://cdn' not in text and "@param" not in text
    out = cli("report", "score_distribution", "--db", str(db), "-o", str(page), "--cdn")
    assert out.returncode == 0 and 'src="https://cdn.plot.ly/' in page.read_text()
    assert len(page.read_text()) < 200_000
    csv_file = tmp_path / "scores.csv"
    assert cli("report", "round_length", "--db", str(db), "-o", str(csv_file)).returncode == 0
    assert csv_file.read_text().startswith("ruleset")   # table format, not html


def test_html_is_never_dumped_into_a_terminal(db: Path) -> None:
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-c", "from cabo_log.cli import main; main()",
                               "report", "power_usage", "--db", str(db), "-f", "html"],
                              stdout=follower, stderr=subprocess.PIPE, text=True, check=False)
    finally:
        os.close(follower)
        os.close(leader)
    assert proc.returncode == 2
    assert proc.stderr.startswith("cabo-log: an HTML page is not for the terminal")
    piped = cli("report", "power_usage", "--db", str(db), "-f", "html")   # a pipe is fine
    assert piped.returncode == 0 and piped.stdout.startswith("<!DOCTYPE html>")


# --- read-only SQL ----------------------------------------------------------------------------

ESCAPES = {
    "copy": "COPY games TO '{dir}/out.csv'",
    "export": "EXPORT DATABASE '{dir}/dump'",
    "attach": "ATTACH '{dir}/other.duckdb' AS other",
    "read_text": "SELECT * FROM read_text('/etc/passwd')",
    "read_csv": "SELECT * FROM read_csv('/etc/hostname')",
    "install": "INSTALL httpfs",
    "set": "SET enable_external_access = true",
    "write": "DELETE FROM games",
}


@pytest.mark.parametrize("kind", sorted(ESCAPES))
def test_sql_cannot_reach_outside_the_database(db: Path, tmp_path: Path, kind: str) -> None:
    query = ESCAPES[kind].format(dir=tmp_path)
    out = cli("sql", query, "--db", str(db))
    assert out.returncode == 1, out.stdout
    assert out.stderr.startswith("cabo-log: ") and len(out.stderr.splitlines()) == 1
    assert not list(tmp_path.iterdir())                  # nothing written
    assert cli("sql", "SELECT count(*) AS n FROM games", "--db", str(db), "-f", "json"
               ).stdout.strip() == json.dumps([{"n": 8}], indent=1)


def test_numbered_buckets_are_ordered_by_value_and_lines_run_left_to_right() -> None:
    """Each series lacks some buckets: merged in the rows' order alone, 51-55 came before
    41-45 and a line went back left."""
    spec = parse_chart("r", "line x=b y=v series=s")
    rows = [{"s": "golf", "b": "36-40", "v": 1}, {"s": "golf", "b": "51-55", "v": 2},
            {"s": "online", "b": "41-45", "v": 3}, {"s": "online", "b": "51-55", "v": 4},
            {"s": "online", "b": "-5--1", "v": 5}]
    fig = figure(spec, rows)
    assert fig is not None
    assert fig["layout"]["xaxis"]["categoryarray"] == ["-5--1", "36-40", "41-45", "51-55"]
    online = next(t for t in fig["data"] if t["name"] == "online")
    assert online["x"] == ["-5--1", "41-45", "51-55"] and online["y"] == [5, 3, 4]
    known = figure(spec, [{"s": "a", "b": b, "v": 1}
                          for b in ("3/4", "?/4", "1/4", "4/4", "2/3", "3/3", "0/3")])
    assert known is not None       # known/cards: by the share known, then the row's size
    assert known["layout"]["xaxis"]["categoryarray"] == ["0/3", "1/4", "2/3", "3/4", "3/3",
                                                         "4/4", "?/4"]
    named = figure(spec, [{"s": "a", "b": b, "v": 1} for b in ("peek", "spy", "3")])
    assert named is not None and named["layout"]["xaxis"]["categoryarray"] == ["peek", "spy", "3"]


def test_cabo_call_success_charts_every_dimension(db: Path) -> None:
    report, columns, rows = run(db, "cabo_call_success")
    dims = {spec.where.get("dimension") for spec in report.charts}
    assert dims == {"all", "turn", "known"}
    blocks = chart_blocks(report, columns, rows)
    assert len(blocks) == len(report.charts)
