"""Strict parsing of the events of format v1 from decoded JSON objects: ``parse_event``.

Parsing checks shape only (fields present, of the right JSON type); whether an event is
allowed at this point of the game is the state machine's business. Unknown extra fields are
ignored, as FORMAT.md promises for forward compatibility. The kinds and their fields are
``engine/spec.py``'s; each kind's parser (``PARSERS``) is written from it.
"""

from __future__ import annotations

from typing import Any

from .errors import LogSyntaxError
from .event_base import FORMAT, Event
from .parsers import PARSERS, Parser
from .readers import get, show
from .spec import EVENT_TYPES, RECORDS

__all__ = ["EVENT_TYPES", "PARSERS", "RECORDS", "Parser", "parse_event"]


def parse_event(obj: Any) -> Event:
    """A JSON value (already decoded) -> one typed event, or LogSyntaxError."""
    if type(obj) is not dict:
        raise LogSyntaxError("not_object", f"a line must be a JSON object, not {show(obj)}")
    kind = obj.get("type")
    try:
        parser = PARSERS[kind]  # type: ignore[index]
    except (KeyError, TypeError):
        if "type" not in obj:
            raise LogSyntaxError("missing_field", "event has no 'type' field") from None
        raise LogSyntaxError("unknown_type", f"unknown event type {show(kind)}") from None
    seq = obj.get("seq")
    if seq is not None and (type(seq) is not int or seq < 0):
        raise LogSyntaxError("bad_field", f"{kind}: field 'seq' must be a whole number >= 0")
    auto = obj.get("auto", False)
    if auto is not False and auto is not True:
        raise LogSyntaxError("bad_field", f"{kind}: field 'auto' must be true or false")
    if kind == "game":   # the header names its format before its fields are read
        fmt = get(obj, "game", "format")
        if fmt != FORMAT:
            raise LogSyntaxError("bad_format", f"format must be {FORMAT!r}, not {show(fmt)}")
    return parser(obj, seq, auto)
