"""Reports: the SQL files shipped in ``cabo_log/queries`` (``queries/`` in the repository), their
parameters, and the formats they print in.

A report is one ``.sql`` file whose header comment says what it measures and how to read it.
Its first line is ``-- name: one-line description``; ``-- @param`` lines declare the parameters
the query uses as ``$NAME`` (type, range, default) and ``-- @chart`` lines the charts that
answer its question (see ``report_header``). Values given on the command line or in a form are
converted and range-checked, then bound by DuckDB, never pasted into the SQL.
"""

from __future__ import annotations

import csv
import datetime as dt
import decimal
import io
import json
import math
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import duckdb

from cabo_log.db.basics import FORMATS, Format
from cabo_log.db.database import fetch
from cabo_log.db.report_header import (
    ChartSpec,
    Param,
    ParamType,
    ReportError,
    convert,
    parse_chart,
    parse_param,
)

__all__ = ["FORMATS", "ChartSpec", "Format", "Param", "ParamType", "Report", "ReportError",
           "available", "bind", "check_values", "fetch", "get", "left_out", "parse", "render",
           "run"]

@dataclass(frozen=True)
class Report:
    name: str
    title: str                  # the one-line description
    doc: str                    # the header comment without its @ lines and comment marks
    sql: str
    params: dict[str, Param] = field(default_factory=dict)
    charts: tuple[ChartSpec, ...] = ()
    # what the report does with score sheets (games of record "tally", which show no turns):
    # COUNTED, or the words that say what it leaves out and why (``@score-sheets``)
    score_sheets: str = ""


COUNTED = "counted"
"""``-- @score-sheets counted``: the report counts score sheets with the other games."""


def _files() -> dict[str, str]:
    folder = resources.files("cabo_log") / "queries"
    return {entry.name[:-4]: entry.read_text(encoding="utf-8")
            for entry in folder.iterdir() if entry.name.endswith(".sql")}


def available() -> dict[str, Report]:
    """Every shipped report, by name (sorted)."""
    return {name: parse(name, text) for name, text in sorted(_files().items())}


def get(name: str) -> Report:
    reports = available()
    if name not in reports:
        raise ReportError(f"unknown report {name!r} (known: {', '.join(reports)})")
    return reports[name]


def parse(name: str, text: str) -> Report:
    """Read a report's header comment: its description, parameters and charts."""
    header = []
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        header.append(line[2:].removeprefix(" "))
    first = []
    for line in header:   # the first paragraph of the comment, after "name:"
        if not line.strip():
            break
        first.append(line.strip())
    title = " ".join(first) or name
    if title.startswith(f"{name}:"):
        title = title[len(name) + 1:].strip()
    params: dict[str, Param] = {}
    charts: list[ChartSpec] = []
    prose: list[str] = []
    sheets = ""
    for line in header:
        words = line.strip()
        if words.startswith("@param"):
            param = parse_param(name, words[len("@param"):].strip())
            params[param.name] = param
        elif words.startswith("@chart"):
            charts.append(parse_chart(name, words[len("@chart"):].strip()))
        elif words.startswith("@score-sheets"):
            sheets = words[len("@score-sheets"):].strip()
        else:
            prose.append(line)
    doc = "\n".join(prose).strip("\n")
    return Report(name, title, doc, text, params, tuple(charts), sheets)


def bind(report: Report, given: list[str] | dict[str, str]) -> dict[str, Any]:
    """``k=v`` strings (or a dict of raw strings) -> every declared parameter's value,
    converted and range-checked (ReportError with a sentence for the user if one does not fit).
    An empty value in a dict (an untouched form field) means the default."""
    pairs: dict[str, str] = {}
    if isinstance(given, dict):
        pairs = {k: v for k, v in given.items() if v != ""}
    else:
        for item in given:
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep or not key:
                raise ReportError(f"--param must look like name=value, not {item!r}")
            pairs[key] = value
    values = {name: p.default for name, p in report.params.items()}
    for key, raw in pairs.items():
        if key not in report.params:
            known = ", ".join(report.params) or "none"
            raise ReportError(f"report {report.name} has no parameter {key!r} (its parameters: "
                              f"{known})")
        values[key] = convert(report.params[key], raw)
    return values


def choices(con: duckdb.DuckDBPyConnection, param: Param) -> list[str]:
    """The values a parameter declared ``from TABLE.COLUMN`` can take in this database."""
    if param.source is None:
        return []
    table, column = param.source          # identifiers checked by the header's grammar
    rows = con.execute(f'SELECT DISTINCT "{column}" FROM "{table}" '
                       f'WHERE "{column}" IS NOT NULL ORDER BY 1').fetchall()
    return [str(r[0]) for r in rows]


def check_values(con: duckdb.DuckDBPyConnection, report: Report, values: dict[str, Any]) -> None:
    """A value that matches nothing in the database is a mistake worth a sentence (a typo, a
    wrong case), not an empty table: ReportError naming the values that exist."""
    for name, param in report.params.items():
        value = values.get(name)
        if param.source is None or value is None:
            continue
        known = choices(con, param)
        if str(value) not in known:
            listed = ", ".join(known) if known else "none: the database has no games"
            raise ReportError(f"parameter {name}: no {param.source[1]} {value!r} in this "
                              f"database (the values there: {listed})")


def run(con: duckdb.DuckDBPyConnection, report: Report, params: dict[str, Any]
        ) -> tuple[list[str], list[tuple[Any, ...]]]:
    return fetch(con, report.sql, params)


def left_out(con: duckdb.DuckDBPyConnection, report: Report, params: dict[str, Any]
             ) -> str | None:
    """The line a report prints under its table when it left score sheets out (games of
    record "tally": rounds and scores, no turns): how many, and why, in the report's own
    words (``@score-sheets``). None when it counts them, or there are none to leave out.
    Only the games of the report's ``ruleset`` parameter count, when it has one set."""
    if report.score_sheets in ("", COUNTED):
        return None
    ruleset = params.get("ruleset") if "ruleset" in report.params else None
    row = con.execute("SELECT count(*) FROM games WHERE record = 'tally' "
                      "AND ($ruleset IS NULL OR ruleset = $ruleset)",
                      {"ruleset": ruleset}).fetchone()
    count = int(row[0]) if row is not None else 0
    if count == 0:
        return None
    return (f"{count:,} score sheet{'s' if count != 1 else ''} (games of record \"tally\") "
            f"{report.score_sheets}")


# --- formats -------------------------------------------------------------------------------------

def render(columns: list[str], rows: list[tuple[Any, ...]], fmt: str, *,
           report: Report | None = None, values: dict[str, Any] | None = None,
           plotly: str = "inline", note: str | None = None) -> str:
    """The rows in a format. ``html``: a page with the report's prose, charts and table;
    ``plotly`` is "inline" (self-contained), "cdn" or the URL of plotly.js. ``note`` (what the
    report left out, ``left_out``) goes under the table and on the page; csv and json hold
    the data alone."""
    if fmt == "table":
        return table(columns, rows) + (f"\n{note}" if note else "")
    if fmt == "csv":
        return as_csv(columns, rows)
    if fmt == "json":
        return json.dumps([dict(zip(columns, map(plain, row), strict=True)) for row in rows],
                          ensure_ascii=False, indent=1)
    if fmt == "html":
        from cabo_log.pages.report_page import render_report_page

        return render_report_page(columns, rows, report, values or {}, plotly, note)
    raise ReportError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")


def plain(value: Any) -> Any:
    """A DuckDB value -> JSON-ready data."""
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    return value


def text(value: Any) -> str:
    """A value as a table cell: NULL is empty, floats get 3 decimals, maps are k:v lists."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.3f}" if math.isfinite(value) else str(value)
    if isinstance(value, decimal.Decimal):
        return f"{float(value):.3f}"
    if isinstance(value, dict):
        return " ".join(f"{text(k)}:{text(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(text(v) for v in value) + "]"
    return str(value)


def _numeric(value: Any) -> bool:
    return isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool)


def table(columns: list[str], rows: list[tuple[Any, ...]]) -> str:
    cells = [[text(v) for v in row] for row in rows]
    widths = [len(c) for c in columns]
    for row in cells:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    right = [bool(rows) and all(_numeric(r[i]) or r[i] is None for r in rows)
             for i in range(len(columns))]

    def line(values: list[str]) -> str:
        return "  ".join(v.rjust(w) if r else v.ljust(w)
                         for v, w, r in zip(values, widths, right, strict=True)).rstrip()

    out = [line(columns), "  ".join("-" * w for w in widths)]
    out.extend(line(row) for row in cells)
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out)


def as_csv(columns: list[str], rows: list[tuple[Any, ...]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_csv_cell(v) for v in row])
    return buf.getvalue().rstrip("\n")


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(plain(value), ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
