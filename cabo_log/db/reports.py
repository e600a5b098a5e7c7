"""Reports: the SQL files shipped in ``cabo_log/queries`` (``queries/`` in the repository), their
parameters, and the formats they print in.

A report is one ``.sql`` file whose header comment says what it measures and how to read it.
Its first line is ``-- name: one-line description``; ``-- @param NAME TYPE DEFAULT  help`` lines
declare the parameters the query uses as ``$NAME``. Values given on the command line are
converted to the declared type and bound by DuckDB, never pasted into the SQL.
"""

from __future__ import annotations

import csv
import datetime as dt
import decimal
import html
import io
import json
import math
import re
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from typing import Any

import duckdb

from cabo_log.db.database import fetch

__all__ = ["FORMATS", "Format", "Param", "Report", "ReportError", "available", "bind", "fetch",
           "get", "parse", "render", "run"]

FORMATS = ("table", "csv", "json", "html")


class Format(StrEnum):
    """``FORMATS`` as a type, so ``--format`` lists them and completes them."""

    TABLE = "table"
    CSV = "csv"
    JSON = "json"
    HTML = "html"

TYPES = ("text", "int", "float", "bool")
_PARAM = re.compile(r"^--\s*@param\s+(\w+)\s+(\w+)\s+(\S+)\s*(.*)$")
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


class ReportError(Exception):
    """A report that does not exist or a parameter that does not fit: a usage error."""


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: Any
    help: str


@dataclass(frozen=True)
class Report:
    name: str
    title: str                  # the one-line description
    doc: str                    # the whole header comment, without the comment marks
    sql: str
    params: dict[str, Param] = field(default_factory=dict)


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
    """Read a report's header comment: its description and its parameters."""
    header = []
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        header.append(line)
    first = []
    for line in header:   # the first paragraph of the comment, after "name:"
        words = line[2:].strip()
        if not words:
            break
        first.append(words)
    title = " ".join(first) or name
    if title.startswith(f"{name}:"):
        title = title[len(name) + 1:].strip()
    params = {}
    for line in header:
        m = _PARAM.match(line)
        if m:
            pname, ptype, raw, phelp = m.groups()
            if ptype not in TYPES:
                raise ReportError(f"report {name}: parameter {pname} has unknown type {ptype}")
            default = None if raw.lower() == "null" else convert(ptype, raw, pname)
            params[pname] = Param(pname, ptype, default, phelp.strip())
    doc = "\n".join(line[2:].removeprefix(" ") for line in header)
    return Report(name, title, doc, text, params)


def convert(kind: str, raw: str, name: str) -> Any:
    """A command-line value -> the parameter's type; ReportError if it does not fit."""
    try:
        if kind == "int":
            return int(raw)
        if kind == "float":
            value = float(raw)
            if not math.isfinite(value):
                raise ValueError(raw)
            return value
    except ValueError:
        wanted = "a whole number" if kind == "int" else "a number"
        raise ReportError(f"parameter {name} must be {wanted}, not {raw!r}") from None
    if kind == "bool":
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise ReportError(f"parameter {name} must be true or false, not {raw!r}")
    return raw


def bind(report: Report, given: list[str] | dict[str, str]) -> dict[str, Any]:
    """``k=v`` strings (or a dict of raw strings) -> every declared parameter's value."""
    pairs: dict[str, str] = {}
    if isinstance(given, dict):
        pairs = dict(given)
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
        values[key] = convert(report.params[key].type, raw, key)
    return values


def run(con: duckdb.DuckDBPyConnection, report: Report, params: dict[str, Any]
        ) -> tuple[list[str], list[tuple[Any, ...]]]:
    return fetch(con, report.sql, params)


# --- formats -------------------------------------------------------------------------------------

def render(columns: list[str], rows: list[tuple[Any, ...]], fmt: str, *,
           report: Report | None = None) -> str:
    if fmt == "table":
        return table(columns, rows)
    if fmt == "csv":
        return as_csv(columns, rows)
    if fmt == "json":
        return json.dumps([dict(zip(columns, map(plain, row), strict=True)) for row in rows],
                          ensure_ascii=False, indent=1)
    if fmt == "html":
        return as_html(columns, rows, report)
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


_STYLE = """body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;
margin:2em;color:#222}h1{font-size:1.4em}pre{white-space:pre-wrap;color:#555;font-size:.9em;max-width:60em}
table{border-collapse:collapse;font-size:.9em}th,td{border:1px solid #ddd;padding:.3em .6em}
th{background:#f4f4f4;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
tr:nth-child(even) td{background:#fafafa}.chart{margin:1.5em 0}"""


def as_html(columns: list[str], rows: list[tuple[Any, ...]], report: Report | None) -> str:
    """A self-contained page: title, the report's explanation, a chart if one fits, the table."""
    name = report.name if report is not None else "query"
    esc = html.escape
    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    body = []
    for row in rows:
        cells = "".join(f'<td class="n">{esc(text(v))}</td>' if _numeric(v)
                        else f"<td>{esc(text(v))}</td>" for v in row)
        body.append(f"<tr>{cells}</tr>")
    intro = ""
    if report is not None:
        intro = f"<p>{esc(report.title)}</p><pre>{esc(report.doc)}</pre>"
    chart = chart_html(name, columns, rows)
    return (f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>cabo-log: {esc(name)}</title><style>{_STYLE}</style></head><body>"
            f"<h1>{esc(name)}</h1>{intro}{chart}"
            f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
            f"<p>{len(rows)} row{'s' if len(rows) != 1 else ''}</p></body></html>\n")


def chart_html(name: str, columns: list[str], rows: list[tuple[Any, ...]]) -> str:
    """The hook for a chart beside the table: ``cabo_log.charts.report_figure`` when it exists
    and has a figure for this report, embedded with plotly.js inline (the page stays
    self-contained); otherwise nothing."""
    try:
        from cabo_log.pages import charts
    except ImportError:  # pragma: no cover - the charts module ships with the package
        return ""
    figure_of = getattr(charts, "report_figure", None)
    if figure_of is None:
        return ""
    figure = figure_of(name, columns, [tuple(plain(v) for v in row) for row in rows])
    if figure is None:
        return ""
    body: str = figure.to_html(full_html=False, include_plotlyjs=True)
    return f'<div class="chart">{body}</div>'

