"""Reading log files: bytes -> (line number, event), with syntax errors located at their line.

Kept apart from the engine so the engine never touches a file. Blank lines are skipped (a
trailing newline is common); anything else that is not a JSON object is a LogSyntaxError.
This is the exact reader, the one that words every syntax error; ``fastdecode`` is the fast
path in front of it. FORMAT.md's "Reading the bytes": a leading UTF-8 byte-order mark is
skipped, a key twice in one line is ``duplicate_key``, ``t`` must be a number or a string.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from engine import CaboLogError, Event, LogSyntaxError, parse_event
from engine.parsing import EVENT_TYPES

BOM = b"\xef\xbb\xbf"


def strip_bom(data: bytes) -> bytes:
    """The file's bytes without a leading UTF-8 byte-order mark (FORMAT.md allows one)."""
    return data[3:] if data[:3] == BOM else data


def decode_line(raw: bytes) -> Any:
    """One line's JSON value; LogSyntaxError for bad UTF-8, bad JSON or a key given twice."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            raise LogSyntaxError("not_utf8", "the line is not valid UTF-8 text") from None
        raise LogSyntaxError("bad_json", f"the line is not valid JSON ({_reason(exc)})") from None
    except (RecursionError, MemoryError, ValueError):  # pragma: no cover - orjson edge cases
        raise LogSyntaxError("bad_json", "the line is not valid JSON") from None
    if type(value) is dict and not _unique_by_count(raw, value):
        _check_unique_keys(raw)
    return value


_SPACED_KEY = re.compile(rb'"[ \t\r\n]+:')


def _unique_by_count(raw: bytes, value: dict[str, Any]) -> bool:
    """Whether the line is proven free of repeated keys without parsing it a second time.

    Without a backslash no string holds a ``"``, so every ``"`` ends or starts a string, and
    a string directly followed by ``:`` is a key: with no whitespace between any key and its
    colon either, the line holds exactly one ``":`` per key it spells. orjson keeps one entry
    per distinct key of an object, so the decoded objects hold as many entries as the line
    has ``":`` only when no object repeats a key. Anything else (an escape, a space before a
    colon, a repeated key) is left to the standard library's parser (``_check_unique_keys``).
    """
    if b"\\" in raw or _SPACED_KEY.search(raw) is not None:
        return False
    return raw.count(b'":') == _entries(value)


def _entries(value: Any) -> int:
    """The entries of every object within a decoded value (iterative: orjson takes lines
    nested 1,024 deep, past Python's recursion limit). Plain loops: a generator per object
    cost more than the header's whole walk."""
    count = 0
    stack = [value]
    push = stack.append
    while stack:
        item = stack.pop()
        if type(item) is dict:
            count += len(item)
            item = item.values()
        elif type(item) is not list:
            continue
        for v in item:
            kind = type(v)
            if kind is dict or kind is list:
                push(v)
    return count


def _check_unique_keys(raw: bytes) -> None:
    """Parse again with the standard library, whose hook sees every object's pairs. orjson
    accepted the line, so it is nested at most 1,024 deep; the standard parser counts each
    level against the recursion limit, raised for the call so such a line is still checked."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * 1024 + 200))
    try:
        json.loads(raw, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError:  # pragma: no cover - orjson is the stricter of the two
        pass
    finally:
        sys.setrecursionlimit(limit)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json``'s hook for every object of a line: the first key seen twice is an error (the
    last-wins reading of most parsers would let a second ``card`` switch a check off)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise LogSyntaxError("duplicate_key",
                                     f"the key {key!r} appears twice in one object")
            seen.add(key)
    return out


def parse_line(raw: bytes) -> Event:
    """One non-blank line -> its event, by the exact (slow) path that words every error."""
    return parse_object(decode_line(raw))


def parse_object(obj: Any) -> Event:
    """A decoded line -> its event: ``t`` checked here, everything else by the engine."""
    if type(obj) is dict:
        t = obj.get("t")
        kind = obj.get("type")
        if (t is not None and type(t) not in (int, float, str)
                and type(kind) is str and kind in EVENT_TYPES):
            shown = type(t).__name__ if isinstance(t, (dict, list)) else repr(t)
            raise LogSyntaxError("bad_field", f"{kind}: field 't' must be a number (ms) or a "
                                              f"string (ISO-8601), not {shown}")
    return parse_event(obj)


_POSITION = re.compile(r":? ?line \d+ column \d+ \(char (\d+)\)")


def _reason(exc: Exception) -> str:
    # The decoder sees one log line as a whole document, so its "line 1 column 55" would
    # contradict the log line number in front of the error: say the column within the line.
    text = _POSITION.sub(lambda m: f" at column {int(m.group(1)) + 1} of the line", str(exc))
    return text if len(text) <= 80 else text[:77] + "..."


def iter_lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    """Numbered non-blank lines of a log held in memory."""
    for number, raw in enumerate(strip_bom(data).split(b"\n"), start=1):
        if raw.strip():
            yield number, raw


def iter_events(lines: Iterable[tuple[int, bytes]], file: str | None = None
                ) -> Iterator[tuple[int, Event]]:
    """Parse numbered lines into events; the first bad line raises, located."""
    for number, raw in lines:
        try:
            yield number, parse_line(raw)
        except CaboLogError as exc:
            raise exc.located(file, number) from None


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a log file (``read_log`` without its time)."""
    return read_log(path)[0]


def read_log(path: str | os.PathLike[str]) -> tuple[bytes, int]:
    """The bytes of a log file and its modification time (ns). Only a regular file is read:
    a FIFO would block the reader for ever (a device could stream without end), so anything
    else is refused with the ``OSError`` "not a regular file" before a byte is read. The open
    does not wait for a FIFO's writer, and the check is on the file opened, so a path swapped
    for a FIFO meanwhile is refused too."""
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        return f.read(), st.st_mtime_ns


_NONBLOCK = getattr(os, "O_NONBLOCK", 0)   # Windows has no FIFOs to wait for
_BINARY = getattr(os, "O_BINARY", 0)


def find_logs(paths: Iterable[str | os.PathLike[str]], recurse: bool = True) -> list[Path]:
    """Files as given, folders searched recursively for ``*.jsonl`` (only their own logs
    without ``recurse``); sorted, no repeats (``cabo_log.db.listing``, the one listing of
    logs, which every command uses)."""
    from cabo_log.db.listing import walk_logs

    return [Path(p) for p in walk_logs(paths, recurse)]


def dumps_event(obj: dict[str, Any]) -> bytes:
    """One event as a log line (compact JSON, UTF-8, newline-terminated)."""
    return orjson.dumps(obj) + b"\n"
