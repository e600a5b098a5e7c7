"""A report as an HTML page: its header turned into prose, its charts, its parameters and its
table. The same fragments make the page ``cabo-log report --format html`` writes and the
``/reports/NAME`` page of ``cabo-log serve``.

Everything that comes from the database or the report files is escaped here; chart data goes
into JSON blocks made safe for ``<script>`` by ``assets.script_json``.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from cabo_log.db.reports import Report, plain, text
from cabo_log.pages.assets import plotly_tag, script_json, static
from cabo_log.pages.report_charts import figure, label

__all__ = ["ChartBlock", "chart_blocks", "charts_html", "legend_html", "params_html", "prose_html",
           "render_report_page", "table_html"]

_ITEM = re.compile(r"^\s{2,}(\S.*?)\s+-\s+(.*)$")
_LABEL = re.compile(r"^([A-Z][\w ]{2,20}):\s*(.*)$")
_CODE = re.compile(r"`([^`]+)`")


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _inline(words: str) -> str:
    """Escaped text with `code` spans."""
    return _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", esc(words))


def prose_html(doc: str, values: dict[str, Any] | None = None) -> str:
    """A report's header comment as paragraphs and lists: ``Label: text`` starts a paragraph
    with the label in bold, indented ``term - meaning`` lines become a list, ``$param`` becomes
    the value used, and the first paragraph (the one-line description, shown as the lead) is
    left out."""
    for name, value in sorted((values or {}).items(), key=lambda kv: -len(kv[0])):
        if value is not None:       # "$bucket" -> the value this page was made with
            doc = doc.replace(f"${name}", text(value))
    paragraphs = doc.split("\n\n")[1:]
    out: list[str] = []
    for para in paragraphs:
        blocks: list[list[str]] = []      # ["p", text] or ["li", term, meaning]
        for line in para.splitlines():
            item = _ITEM.match(line)
            if item:
                blocks.append(["li", item.group(1), item.group(2)])
            elif line.startswith("  ") and blocks and blocks[-1][0] == "li":
                blocks[-1][2] += " " + line.strip()
            elif _LABEL.match(line) or not blocks or blocks[-1][0] == "li":
                blocks.append(["p", line.strip()])
            else:
                blocks[-1][1] += " " + line.strip()
        in_list = False
        for block in blocks:
            if block[0] == "li" and not in_list:
                out.append("<ul>")
                in_list = True
            if block[0] != "li" and in_list:
                out.append("</ul>")
                in_list = False
            if block[0] == "li":
                out.append(f"<li><b>{_inline(block[1])}</b> \u2014 {_inline(block[2])}</li>")
            else:
                m = _LABEL.match(block[1])
                words = (f"<b>{esc(m.group(1))}:</b> {_inline(m.group(2))}" if m
                         else _inline(block[1]))
                out.append(f"<p>{words}</p>")
        if in_list:
            out.append("</ul>")
    return "\n".join(out)


def _numeric(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def table_html(columns: list[str], rows: list[tuple[Any, ...]]) -> str:
    """The rows as a table in a box that scrolls by itself (the page never grows wider)."""
    numeric = [bool(rows) and all(_numeric(plain(r[i])) or r[i] is None for r in rows)
               for i in range(len(columns))]
    head = "".join(f'<th class="{"n" if n else ""}" title="{esc(c)}">'
                   f'{esc(c).replace("_", "_<wbr>")}</th>'
                   for c, n in zip(columns, numeric, strict=True))
    body = []
    for row in rows:
        cells = "".join(f'<td class="n">{esc(text(v))}</td>' if n
                        else f"<td>{esc(text(v))}</td>"
                        for v, n in zip(row, numeric, strict=True))
        body.append(f"<tr>{cells}</tr>")
    count = f"{len(rows):,} row{'s' if len(rows) != 1 else ''}"
    return (f'<div class="table-box"><table class="data"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div><p class="meta">{count}</p>')


def legend_html(report: Report, columns: list[str], values: dict[str, Any]) -> str:
    """Under a report's table, what each of its columns holds (those its header explains with
    ``@column``): the "Columns:" legend the command line prints, as a definition list."""
    known = [c for c in columns if c in report.columns]
    if not known:
        return ""
    items = []
    for column in known:
        about = report.columns[column]
        for param in report.params.values():
            about = about.replace(f"${param.name}", text(values.get(param.name, param.default)))
        items.append(f"<dt><code>{esc(column)}</code></dt><dd>{_inline(about)}</dd>")
    return f'<h3>Columns</h3><dl class="legend">{"".join(items)}</dl>'


def params_html(report: Report, values: dict[str, Any]) -> str:
    """What each parameter is, what it takes, and the value this page was made with."""
    if not report.params:
        return ""
    lines = []
    for p in report.params.values():
        used = values.get(p.name, p.default)
        shown = "(every one)" if used is None else text(used)
        lines.append(f"<tr><td>{esc(p.name)}</td><td>{esc(shown)}</td>"
                     f"<td>{esc(p.describe())}</td><td>{esc(p.help)}</td></tr>")
    return ('<table class="data params"><thead><tr><th>parameter</th><th>value</th>'
            f'<th>takes</th><th>meaning</th></tr></thead><tbody>{"".join(lines)}</tbody></table>')


@dataclass(frozen=True)
class ChartBlock:
    title: str
    figure: dict[str, Any]      # plotly JSON: data and layout


def chart_blocks(report: Report, columns: list[str], rows: list[tuple[Any, ...]]
                 ) -> list[ChartBlock]:
    """The report's declared charts that have something to draw."""
    dicts = [dict(zip(columns, (plain(v) for v in row), strict=True)) for row in rows]
    out = []
    for spec in report.charts:
        fig = figure(spec, dicts)
        if fig is not None:
            out.append(ChartBlock(spec.title, fig))
    return out


def charts_html(blocks: list[ChartBlock]) -> str:
    """One panel per chart: its question as a heading, the figure drawn by report.js."""
    parts = []
    for i, block in enumerate(blocks):
        parts.append(f'<section class="panel"><h2 class="chart-title">{esc(block.title)}</h2>'
                     f'<div class="chart" data-figure="figure-{i}"></div>'
                     f'<script type="application/json" id="figure-{i}">'
                     f"{script_json(block.figure)}</script></section>")
    return f'<div class="charts">{"".join(parts)}</div>' if parts else ""


def note_html(note: str | None) -> str:
    """What the report left out (score sheets), as a line under its table."""
    return f'<p class="meta left-out">{esc(note)}</p>' if note else ""


def render_report_page(columns: list[str], rows: list[tuple[Any, ...]], report: Report | None,
                       values: dict[str, Any], plotly: str = "inline",
                       note: str | None = None) -> str:
    """The whole page: self-contained with ``plotly="inline"``, linking plotly.js with "cdn"."""
    if report is None:
        name, lead, body = "query", "", ""
        charts = ""
    else:
        name, lead = report.name, f'<p class="lead">{esc(report.title)}</p>'
        body = (f'<section class="panel prose">{prose_html(report.doc, values)}'
                f"{params_html(report, values)}</section>")
        charts = charts_html(chart_blocks(report, columns, rows))
    legend = "" if report is None else legend_html(report, columns, values)
    script = (f"{plotly_tag(plotly)}<script>{static('report.js')}</script>" if charts else "")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>cabo-log report: {esc(name)}</title><style>{static('report.css')}</style>"
            f"</head><body><header><h1>{esc(label(name))}</h1>{lead}</header><main>{body}"
            f'{charts}<section class="panel"><h2>The table</h2>{table_html(columns, rows)}'
            f"{note_html(note)}{legend}</section></main><footer>Made by cabo-log report "
            f"{esc(name)}.</footer>"
            f"{script}</body></html>\n")
