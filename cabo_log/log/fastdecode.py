"""The fast path of reading a line: msgspec decodes the bytes straight into a typed struct,
which becomes the engine's event; anything unusual falls back to the exact reader.

Why two paths: ``orjson.loads`` + ``engine.parse_event`` builds a dict, then checks it field by
field in Python (~2 us per line), while msgspec checks the JSON types in C while it decodes.
The exact reader (``cabo_log.log.logfile.parse_line``) stays the one place that words the
errors: whenever the fast path is not sure (a type error, a value it does not check, a line it
cannot prove free of duplicate keys), it returns ``None`` and the caller asks the exact reader,
which either raises the precise ``FILE:LINE: code: message`` or returns the same event.

Duplicate keys: msgspec, like most JSON parsers, keeps the last of two equal keys. A line read
alone (``fast_decode``) is proven free of them by counting ``:`` bytes: in a line without
backslashes each key at any depth has one, and so has each colon inside a string. The struct
re-encoded (in C) holds exactly the keys that were kept and the same strings, so it has as many
colons as the line only if no key was dropped: none read twice, none unknown, no default
spelled out. A whole body (``fast_body``, what a replay uses) is proven without re-encoding
or counting colons: by its length, against the size of its lines written canonically, which
``line_events.events_of`` works out from the decoded values (every key read twice, unknown or
spelled out at its default adds bytes); when not equal, by the ``":`` of its bytes against
the keys ``fastlines.keys_of`` counts (the arguments are in ``fast_body``). Any
disagreement, or a backslash (an escaped key could spell a known one), goes the exact way.
The header (free-form ruleset and options) always does: one line per game.

In the compiled build, a body's lines written canonically do not reach msgspec at all: the
native scan (``line_scan``, ``scanner``) reads each straight into its event, and only the
lines it leaves are decoded here (``fast_body``).

The engine stays free of third-party imports: ``engine.builders`` makes its own event classes
from the structs, reading the fields by name (in the compiled engine, native code calling the
native constructors); the whole-body path builds them in ``line_events`` from each struct's
values (``msgspec.structs.astuple``, one C call), by index.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Annotated, Any, Final, cast

import msgspec

from cabo_log.log import line_scan
from cabo_log.log.fast_structs import LEAN, Int, LineBase
from cabo_log.log.fastlines import Stamp, keys_of
from cabo_log.log.line_events import COMMON, KIND, LAYOUT, STAMPS, events_of, fits
from cabo_log.log.line_scan import scan_body
from engine.builders import BUILDERS
from engine.events import Event

NonNegative = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]


def _stamped(lean: type[LineBase]) -> type[msgspec.Struct]:
    """The lean struct with the fields it leaves out: ``t`` and ``h`` after its own (so its
    own fields keep their places, which ``line_events.events_of`` reads by index), ``seq``
    bounded, unknown keys skipped. What ``fast_decode`` reads a line with, and ``fast_body``
    a body the lean structs refused."""
    return msgspec.defstruct(
        f"{lean.__name__}Stamped",
        [("seq", NonNegative | None, None), ("t", Int | float | str | None, None),
         ("h", str | None, None)],   # h: the hash chain (log.chain), checked by the replay
        bases=(lean,), tag=lean.__struct_config__.tag, frozen=True, kw_only=True,
        omit_defaults=True, gc=False, forbid_unknown_fields=False)


_STAMPED: tuple[type[msgspec.Struct], ...] = tuple(_stamped(lean) for lean in LEAN)
_MAKERS: dict[type, Callable[[Any], Event]] = {
    struct: BUILDERS[struct.__struct_config__.tag] for struct in _STAMPED}  # type: ignore[index]
EVENT_OF = _MAKERS
"""A decoded line's class (a stamped struct) -> the function that builds its engine event."""
_KIND_OF: dict[type, int] = {
    struct: KIND[struct.__struct_config__.tag] for struct in _STAMPED}  # type: ignore[index]


def _in_kind_order(structs: tuple[type[msgspec.Struct], ...], tail: tuple[str, ...],
                   ) -> tuple[type, ...]:
    """The struct classes in ``line_events.KIND`` order, once their fields are checked to be in
    the order ``line_events`` reads them by index (a struct changed alone fails here, at
    import)."""
    by_tag = {struct.__struct_config__.tag: struct for struct in structs}
    for tag, struct in by_tag.items():
        assert isinstance(tag, str)
        if struct.__struct_fields__ != COMMON + LAYOUT[tag] + tail:
            raise ImportError(f"fastdecode.{struct.__name__} does not match line_events.LAYOUT")
    return tuple(by_tag[tag] for tag in sorted(KIND, key=KIND.__getitem__))


_LEAN_IN_KIND_ORDER = _in_kind_order(LEAN, ())
_STAMPED_IN_KIND_ORDER = _in_kind_order(_STAMPED, STAMPS)


def _any_of(structs: tuple[type[msgspec.Struct], ...]) -> Any:
    """The union of the structs, of which msgspec picks one by the line's ``type``."""
    union: Any = structs[0]
    for struct in structs[1:]:
        union = union | struct
    return union


_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(_any_of(_STAMPED))
_decode = _decoder.decode
_decode_lines = _decoder.decode_lines
_decode_lean = msgspec.json.Decoder(_any_of(LEAN)).decode_lines
_Errors = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)


SCAN: Final = (getattr(line_scan, "__file__", None) or "").endswith(tuple(EXTENSION_SUFFIXES))
"""Whether ``fast_body`` scans the lines written canonically natively: compiled, the scan
reads a line in a fraction of msgspec's time; as Python it takes several times longer, so
the pure build reads every body by msgspec (the same events: tests/test_scan.py)."""

_encode = msgspec.json.Encoder().encode
_astuple = msgspec.structs.astuple


def fast_decode(raw: bytes) -> tuple[Event, str | None, int | float | str | None] | None:
    """(the event, its chain hash ``h``, its ``t``) of one line when the fast path can vouch
    for them, else ``None``: ask the exact reader, which raises the precise error or agrees."""
    if b"\\" in raw:
        return None
    try:
        line: Any = _decode(raw)
    except _Errors:
        return None
    values = _astuple(line)
    if not fits(values, _KIND_OF[line.__class__]):
        return None
    colons = raw.count(b":")
    # Every field that is not None was read from a key of the line: when the line has no
    # other colon, it has no other key (the common case, no encoding needed).
    if colons != len(values) + 1 - values.count(None) - (line.auto is False) \
            and colons != _encode(line).count(b":"):
        return None  # a key read twice, an unknown key, or a default spelled out
    return _MAKERS[line.__class__](line), line.h, line.t


def fast_event(raw: bytes) -> Event | None:
    """The event alone (tests and benchmarks compare it with the exact reader's)."""
    decoded = fast_decode(raw)
    return None if decoded is None else decoded[0]


def fast_body(data: bytes, start: int = 0, players: tuple[str, ...] = (), *,
              scan: bool | None = None) -> tuple[list[Event], list[Stamp]] | None:
    """The events and the ``t`` of every line after the header (an empty list when no line has
    a ``t``) when the fast path can vouch for all of them; else ``None`` (read the lines one
    by one). The body is ``data`` from its byte ``start`` on: a replay passes the whole log
    and where its body begins, so that the body is not copied. No backslash (an escaped key
    could spell a known one) and no hash chain (``h``: each line's link is checked first,
    line by line); anything else is None, and the caller's line-by-line reading gives the
    precise error or the same events.

    With the game's ``players`` (the header's), the lines written canonically are read
    straight into their events by the native scan (``line_scan.scan_body``; ``scanner`` says
    why such a line reads as the exact reader reads it), and only the others by msgspec, in
    one call over those lines joined (``_msgspec_body``, with the proofs below). Without
    them, or when the scan leaves too many lines, msgspec reads the whole body. ``scan``
    (``SCAN`` when None: the compiled build) says whether to scan at all.

    ``decode_lines`` reads a stream of JSON values, not lines: ``{..}{..}`` on one line or an
    object split over two would pass it. So the body must be whole lines, each one object:
    it starts with ``{``, ends with ``}`` (and a newline), and its N values are separated by
    N - 1 ``}\n{``. No such triple lies inside a value (after ``}`` a value goes on with
    ``,``, ``}`` or ``]``; a string holds no raw newline), and no gap between two values holds
    two: so every gap is exactly one newline.

    Duplicate keys (msgspec keeps the last of two), unknown keys (it skips them) and defaults
    spelled out (``"card":null``) must be ruled out too. The proof by size: ``events_of``
    works out each line's length written canonically from its decoded values (``{``, the
    ``type``, one ``"key":value`` per field not at its default, commas, ``}``; no space; each
    string by its characters, never more than its UTF-8 bytes; ints in plain digits, the only
    form msgspec takes for an int). A value's real bytes are never fewer: each counted key is
    there at least once, its value at least that long, and anything else (a key read twice,
    an unknown key, a default spelled out, a space, a non-ASCII character) only adds bytes.
    A newline is never in a string (JSON has none unescaped, and no backslash is here), so
    each newline is one more byte than the canonical lines hold too: the body is at least
    their sizes plus its newlines long. When it is exactly their sizes plus one newline
    between each two and a last one if it ends with one, and ``events_of`` found a newline
    at each line's canonical end (``aligned``), every byte beyond the canonical lines is one
    of those newlines; none of them can lie inside a value (the value would be longer than
    canonical, its ``}`` after the newline at its canonical end), so each value is canonical
    and followed by exactly one newline: whole lines, each one object, each canonical. No
    byte of the body is counted for it (a count of ``}\n{`` over the body cost ~1 ns a
    byte, ~75 ms of a load's CPU on 1.17 M events). Otherwise (a line with a ``t``, whose
    float may be written in several ways, non-ASCII names, spaces after a comma...) the body
    must be whole lines: it starts with ``{``, ends with ``}`` (and a newline), and its N
    values are separated by N - 1 ``}\n{``. No such triple lies inside a value (after ``}`` a
    value goes on with ``,``, ``}`` or ``]``; a string holds no raw newline), and no gap
    between two values holds two: so every gap is exactly one newline. Then the proof by
    colons: with no tab, no ``\r``, no ``" :"`` and every newline in ``}\n{``,
    every key's closing quote is directly followed by its colon, and no string holds a ``"``,
    so the bytes hold at least one ``":`` per key they have. The decoded lines hold one key
    per field not at its default and per dict entry (``events_of`` counts them): never more
    than the bytes have, and as many only if no key was read twice, none was unknown and no
    default was spelled out. Equal counts prove all three (the ``:`` bytes, at least one per
    key as well, prove it first when no string holds a colon).
    """
    length = len(data) - start
    if length <= 0:
        return [], []
    if data[start] != 123 or not data.endswith((b"}", b"}\n")) or data.find(b"\\", start) >= 0:
        return None   # not ``{`` first, not ``}`` last, or a backslash
    if players and (SCAN if scan is None else scan):
        scanned = scan_body(data, start, players)
        if scanned is not None:
            if not scanned.holes:
                return cast(list[Event], scanned.events), []   # no hole: no None
            rest = _msgspec_body(scanned.rest, 0) if scanned.rest else None
            events = None if rest is None else scanned.filled(rest[0])
            if rest is None or events is None:
                return None   # a line msgspec's path cannot vouch for
            return events, scanned.stamps(rest[1])
    return _msgspec_body(data, start)


def _msgspec_body(data: bytes, start: int) -> tuple[list[Event], list[Stamp]] | None:
    """``fast_body`` by msgspec alone, over ``data`` from its byte ``start`` on (``{`` first,
    ``}`` last, no backslash)."""
    length = len(data) - start
    if data[start] != 123 or not data.endswith((b"}", b"}\n")):
        return None
    view = memoryview(data)[start:] if start else data   # msgspec reads it without a copy
    stamped = False
    try:
        lines = _decode_lean(view)
    except _Errors:
        stamped = True   # a ``t``, an ``h``, a key of no field, or an error
        try:
            lines = _decode_lines(view)
        except _Errors:
            return None
    decoded = events_of(lines, _STAMPED_IN_KIND_ORDER if stamped else _LEAN_IN_KIND_ORDER,
                        stamped, data, start)
    if decoded is None:
        return None  # a chained log (each line's link is checked first, line by line), a
        # power line whose target and cards do not fit its power (the exact reader's), or a
        # ``seq`` out of bounds
    events, stamps, size, aligned = decoded
    newline = data[-1] == 10   # a trailing newline after the last line
    if aligned and size >= 0 and size + len(lines) - 1 + newline == length:
        return events, stamps   # every line canonical, and alone on its line
    body = data[start:] if start else data
    separators = body.count(b"}\n{")
    if len(lines) != separators + 1:
        return None
    newlines = len(body) - len(body.replace(b"\n", b""))  # memchr-driven: ~3x bytes.count
    if (newlines != separators + newline or b"\r" in body or b"\t" in body
            or (b" " in body and b" :" in body)):
        return None
    # Every key has a colon of its own, so the ``:`` bytes are at least the keys too: equal to
    # the keys counted, they prove it alone (no string then holds a colon). Counting one byte
    # is a plain loop, about twice as fast as searching for two; a string with a colon in it
    # (a ``t`` such as "12:00") leaves the proof to the ``":`` count.
    keys = keys_of(lines)
    if body.count(b":") != keys and body.count(b'":') != keys:
        return None  # a key read twice, an unknown key, or a default spelled out
    return events, stamps


def fast_events(body: bytes) -> list[Event] | None:
    """``fast_body``'s events alone (tests and benchmarks)."""
    decoded = fast_body(body)
    return None if decoded is None else decoded[0]


def canonical_size(raw: bytes) -> int | None:
    """The length of one line written canonically, as ``fast_body``'s proof works it out from
    the line's decoded values (every fixed byte counted from the spec), or None when the fast
    path does not take the line. Equal to ``len(raw)`` for a line written canonically."""
    lines: list[Any]
    stamped = False
    try:
        lines = _decode_lean(raw)
    except _Errors:
        stamped = True
        try:
            lines = _decode_lines(raw)
        except _Errors:
            return None
    decoded = events_of(lines, _STAMPED_IN_KIND_ORDER if stamped else _LEAN_IN_KIND_ORDER,
                        stamped)
    return None if decoded is None or len(lines) != 1 else decoded[2]
