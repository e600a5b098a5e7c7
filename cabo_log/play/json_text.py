"""A few JSON values as text, exactly as orjson writes them: what the simulator's line encoder
(``line_text``, written from the spec) puts together."""

from __future__ import annotations

from typing import Final

import orjson

_TEXT: Final[dict[str, str]] = {}
"""A string's JSON, made once: player ids, card codes, sources."""


def text(value: str) -> str:
    found = _TEXT.get(value)
    if found is None:
        if len(_TEXT) > 4096:   # ids of many matches: keep the memory flat
            _TEXT.clear()
        found = _TEXT[value] = orjson.dumps(value).decode()
    return found


def ints(values: tuple[int, ...]) -> str:
    return "[" + ",".join([str(v) for v in values]) + "]"


def place(place: tuple[str, int]) -> str:
    """``["ana",0]``."""
    return f"[{text(place[0])},{place[1]}]"
