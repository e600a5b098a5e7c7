"""What a report declares in its SQL header: its parameters (type, range, default, where the
valid values come from) and the charts that answer its question.

The header is the report's contract with its users: the CLI, the web explorer and the HTML
page all read these declarations, so a report is checked and drawn the same way everywhere.

    -- @param bucket int 1..100 default 5  width of the histogram buckets
    -- @param ruleset text from games.ruleset default null  only games of this ruleset
    -- @chart rate x=power y=use_rate series=ruleset title="Share of earned powers used"

A value is converted to the declared type and checked against its range here; whether it
matches anything in the database (``from TABLE.COLUMN``) is checked by ``reports.check_values``.
"""

from __future__ import annotations

import math
import re
import shlex
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["ChartKind", "ChartSpec", "Param", "ParamType", "ReportError", "convert",
           "parse_chart", "parse_param"]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
_RANGE = re.compile(r"^(-?\d+(?:\.\d+)?)?\.\.(-?\d+(?:\.\d+)?)?$")
_SOURCE = re.compile(r"^(\w+)\.(\w+)$")


class ReportError(Exception):
    """A report that does not exist or a parameter that does not fit: a usage error."""


class ParamType(StrEnum):
    TEXT = "text"
    INT = "int"
    FLOAT = "float"
    BOOL = "bool"


class ChartKind(StrEnum):
    """What a chart shows, which fixes its marks and its value axis."""

    BAR = "bar"              # counts or amounts: bars from zero
    RATE = "rate"            # shares: bars on a fixed 0-1 axis
    LINE = "line"            # a value along an ordered x (e.g. success by turn)
    HISTOGRAM = "histogram"  # a map column {lower bound: count} drawn as adjacent bars
    BOX = "box"              # percentile columns drawn as box plots


@dataclass(frozen=True)
class Param:
    name: str
    type: ParamType
    default: Any
    help: str
    low: float | None = None          # inclusive bounds of a number
    high: float | None = None
    source: tuple[str, str] | None = None   # (table, column) whose values are the valid ones

    def describe(self) -> str:
        """``int 1..100, default 5``: what the form and the --list line say."""
        out = str(self.type)
        if self.low is not None or self.high is not None:
            out += f" {_num(self.low)}..{_num(self.high)}"
        if self.source is not None:
            out += f", one of {self.source[0]}.{self.source[1]}"
        out += ", optional" if self.default is None else f", default {self.default}"
        return out


def _num(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else str(value)


@dataclass(frozen=True)
class ChartSpec:
    """One chart of a report: the kind, the columns it reads, a title that asks the question."""

    kind: ChartKind
    title: str
    x: str | None = None
    y: tuple[str, ...] = ()
    series: tuple[str, ...] = ()       # rows split into one trace per value of these columns
    where: dict[str, str] = field(default_factory=dict)   # only rows with column == value
    stack: bool = False


def parse_param(report: str, line: str) -> Param:
    """``NAME TYPE [LO..HI] [from TABLE.COLUMN] [default] VALUE  help`` -> a Param."""
    words = line.split()
    if len(words) < 3:
        raise ReportError(f"report {report}: @param needs a name, a type and a default: {line}")
    name, kind_word, rest = words[0], words[1], words[2:]
    try:
        kind = ParamType(kind_word)
    except ValueError:
        raise ReportError(f"report {report}: parameter {name} has unknown type "
                          f"{kind_word}") from None
    low = high = None
    source = None
    while rest:
        m = _RANGE.match(rest[0])
        s = _SOURCE.match(rest[1]) if rest[0] == "from" and len(rest) > 1 else None
        if m:
            low = float(m.group(1)) if m.group(1) is not None else None
            high = float(m.group(2)) if m.group(2) is not None else None
            rest = rest[1:]
        elif s:
            source = (s.group(1), s.group(2))
            rest = rest[2:]
        else:
            break
    if rest and rest[0] == "default":
        rest = rest[1:]
    if not rest:
        raise ReportError(f"report {report}: parameter {name} has no default")
    raw, help_words = rest[0], rest[1:]
    draft = Param(name, kind, None, " ".join(help_words), low, high, source)
    default = None if raw.lower() == "null" else convert(draft, raw)
    return Param(name, kind, default, draft.help, low, high, source)


def convert(param: Param, raw: str) -> Any:
    """A value given as text -> the parameter's type, inside its range; ReportError if not."""
    name = param.name
    if param.type is ParamType.BOOL:
        if raw.strip().lower() in _TRUE:
            return True
        if raw.strip().lower() in _FALSE:
            return False
        raise ReportError(f"parameter {name} must be true or false, not {raw!r}")
    if param.type is ParamType.TEXT:
        return raw
    try:
        value: int | float = int(raw) if param.type is ParamType.INT else float(raw)
        if not math.isfinite(value):
            raise ValueError(raw)
    except ValueError:
        wanted = "a whole number" if param.type is ParamType.INT else "a number"
        raise ReportError(f"parameter {name} must be {wanted}, not {raw!r}") from None
    if (param.low is not None and value < param.low) or \
            (param.high is not None and value > param.high):
        raise ReportError(f"parameter {name} must be {_bounds(param)}, not {raw}")
    return value


def _bounds(param: Param) -> str:
    if param.low is not None and param.high is not None:
        return f"between {_num(param.low)} and {_num(param.high)}"
    if param.low is not None:
        return f"at least {_num(param.low)}"
    return f"at most {_num(param.high)}"


def parse_chart(report: str, line: str) -> ChartSpec:
    """``KIND key=value ...`` (values may be quoted) -> a ChartSpec."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise ReportError(f"report {report}: bad @chart line ({exc}): {line}") from None
    if not words:
        raise ReportError(f"report {report}: @chart needs a kind")
    try:
        kind = ChartKind(words[0])
    except ValueError:
        raise ReportError(f"report {report}: unknown chart kind {words[0]!r} (known: "
                          f"{', '.join(ChartKind)})") from None
    opts: dict[str, str] = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep or key not in ("x", "y", "series", "where", "title", "stack"):
            raise ReportError(f"report {report}: bad @chart option {word!r}")
        opts[key] = value
    where = {}
    for cond in filter(None, opts.get("where", "").split(",")):
        col, _, value = cond.partition(":")
        where[col] = value
    return ChartSpec(kind, opts.get("title", report), opts.get("x") or None,
                     _names(opts.get("y")), _names(opts.get("series")), where,
                     opts.get("stack", "").lower() in _TRUE)


def _names(text: str | None) -> tuple[str, ...]:
    return tuple(n for n in (text or "").split(",") if n)
