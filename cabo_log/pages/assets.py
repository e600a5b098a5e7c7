"""What every HTML page of cabo-log is made of: the document head with the stylesheet
inlined, the page scripts and plotly.js (embedded, linked from its CDN, or a file beside the
page), and JSON data safe inside a ``<script>`` element.

Player ids, names and every other string from a log are data: they are HTML-escaped in markup
(``esc``), and the JSON block escapes ``<``, ``>`` and ``&`` so no string can close the
``<script>``.
"""

from __future__ import annotations

import base64
import hashlib
import html
from functools import cache
from importlib import resources
from typing import Any

import orjson

__all__ = ["CDN", "INLINE", "esc", "head", "plotly_js", "plotly_note", "plotly_tag", "script_json",
           "static"]

INLINE = "inline"
CDN = "cdn"

_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                 "\u2028": "\\u2028", "\u2029": "\\u2029"}


def head(title: str, extra: str = "") -> str:
    """The document start shared by game pages and the index: meta, title, styles."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="cabo-log timeline">
<title>{esc(title)}</title>
<style>{static("timeline.css")}</style>
{extra}
</head>
<body>"""


def script_json(obj: Any) -> str:
    """JSON text that is safe inside a ``<script>`` element: no ``</script>``, no ``<!--``.
    (orjson writes what ``json.dumps(obj, ensure_ascii=False, separators=(",", ":"))`` does,
    byte for byte, four times faster: a long match's page data is megabytes.)"""
    text = orjson.dumps(obj).decode("utf-8")
    for char, escaped in _JSON_ESCAPES.items():
        text = text.replace(char, escaped)
    return text


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


@cache
def static(name: str) -> str:
    return (resources.files("cabo_log") / "static" / name).read_text(encoding="utf-8")


@cache
def plotly_js() -> str:
    """The plotly.js bundle shipped with the plotly package (works offline)."""
    from plotly.offline import get_plotlyjs

    return str(get_plotlyjs())


def plotly_tag(plotly: str) -> str:
    if plotly == INLINE:
        return f"<script>{plotly_js()}</script>"
    if plotly == CDN:
        from plotly.io._utils import plotly_cdn_url

        digest = hashlib.sha384(plotly_js().encode("utf-8")).digest()
        sri = "sha384-" + base64.b64encode(digest).decode("ascii")
        return (f'<script src="{esc(plotly_cdn_url())}" integrity="{sri}" '
                'crossorigin="anonymous" charset="utf-8"></script>')
    return f'<script src="{esc(plotly)}" charset="utf-8"></script>'


def plotly_note(plotly: str) -> str:
    if plotly == INLINE:
        return ("This page embeds plotly.js (a few MB) so it works offline; "
                "<code>cabo-log timeline --cdn</code> links it from its CDN instead.")
    if plotly == CDN:
        return "plotly.js is linked from its CDN: the charts need a network connection."
    return f"plotly.js is read from {esc(plotly)} beside the page."
