"""Reading log files: bytes -> (line number, event), with syntax errors located at their line.

Kept apart from the engine so the engine never touches a file. Blank lines are skipped (a
trailing newline is common); anything else that is not a JSON object is a LogSyntaxError.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from engine import CaboLogError, Event, LogSyntaxError, parse_event


def decode_line(raw: bytes) -> Any:
    """One line's JSON value; LogSyntaxError for bad UTF-8 or bad JSON."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            raise LogSyntaxError("not_utf8", "the line is not valid UTF-8 text") from None
        raise LogSyntaxError("bad_json", f"the line is not valid JSON ({_reason(exc)})") from None
    except (RecursionError, MemoryError, ValueError):  # pragma: no cover - orjson edge cases
        raise LogSyntaxError("bad_json", "the line is not valid JSON") from None


_POSITION = re.compile(r":? ?line \d+ column \d+ \(char (\d+)\)")


def _reason(exc: Exception) -> str:
    # The decoder sees one log line as a whole document, so its "line 1 column 55" would
    # contradict the log line number in front of the error: say the column within the line.
    text = _POSITION.sub(lambda m: f" at column {int(m.group(1)) + 1} of the line", str(exc))
    return text if len(text) <= 80 else text[:77] + "..."


def iter_lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    """Numbered non-blank lines of a log held in memory."""
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if raw.strip():
            yield number, raw


def iter_events(lines: Iterable[tuple[int, bytes]], file: str | None = None
                ) -> Iterator[tuple[int, Event]]:
    """Parse numbered lines into events; the first bad line raises, located."""
    for number, raw in lines:
        try:
            yield number, parse_event(decode_line(raw))
        except CaboLogError as exc:
            raise exc.located(file, number) from None


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    return Path(path).read_bytes()


def find_logs(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Files as given, folders searched recursively for ``*.jsonl``; sorted, no repeats."""
    found: list[Path] = []
    seen: set[Path] = set()
    for item in paths:
        path = Path(item)
        batch = sorted(path.rglob("*.jsonl")) if path.is_dir() else [path]
        for p in batch:
            key = p.resolve()
            if key not in seen:
                seen.add(key)
                found.append(p)
    return found


def dumps_event(obj: dict[str, Any]) -> bytes:
    """One event as a log line (compact JSON, UTF-8, newline-terminated)."""
    return orjson.dumps(obj) + b"\n"
