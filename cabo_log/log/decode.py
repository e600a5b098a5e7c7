"""Reading a whole log into events: ``decode_log``, the one entry point, with the fast path
inside it.

A log without a hash chain is decoded whole (``fastdecode.fast_body``: the lines written
canonically by the native scan, the others in one msgspec call);
a log that path cannot vouch for (a chain, a blank line, an unusual line...) is read line by
line: each line's link checked first when the log is chained (``log.chain``), then the line
read by msgspec (``fastdecode.fast_decode``) unless it is unusual, then by the exact reader
that words every error (``logfile``). Both give the same events; the reading stops at the
first line that fails, and the events before it are kept (``DecodedLog.error``), so that the
replay applies them before it reports the line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cabo_log.log.chain import as_stored, check_line, declares_chain, line_hash, may_have_link
from cabo_log.log.fastdecode import fast_body, fast_decode
from cabo_log.log.fastlines import Stamp
from cabo_log.log.logfile import decode_line, parse_object, strip_bom
from engine import CaboLogError, Event, GameStart, LogSyntaxError


@dataclass
class DecodedLog:
    """A log read into events, up to its first bad line.

    ``events`` are the lines after the header in order, on the lines ``numbers`` (empty when
    they are lines 2, 3, ... with none blank: the whole-body path), with their ``t`` in
    ``stamps`` (empty when none has one). ``error`` is the line that stopped the reading
    (``error_line``), after ``events``; ``lines`` is the number of the last line read."""

    header: GameStart | None
    header_t: Stamp = None
    header_line: int = 1
    events: list[Event] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    stamps: list[Stamp] = field(default_factory=list)
    error: CaboLogError | None = None
    error_line: int = 0
    lines: int = 1
    stored: list[bytes] | None = None   # a chained log: each line's bytes (head, stored)

    def line_of(self, index: int) -> int:
        """The line number of ``events[index]``."""
        return self.numbers[index] if self.numbers else index + 2

    def head(self, index: int) -> str | None:
        """A chained log's head when its reading stops after ``events[index]`` (-1: after the
        header): the SHA-256 of that line, as stored."""
        if self.stored is None:
            return None
        return line_hash(self.stored[index + 1])


def decode_log(data: bytes, *, line_by_line: bool = False, scan: bool | None = None,
               ) -> DecodedLog:
    """The events of a log held in memory (``line_by_line``: every line read by itself, the
    reference the whole-body path is tested against; ``scan``: ``fast_body``'s)."""
    text = strip_bom(data)
    end = text.find(b"\n")   # the body is read where it lies in ``text``, never copied
    head = text if end < 0 else text[:end]
    start = len(text) if end < 0 else end + 1
    # None for a chained log; a header that may declare its chain is read line by line too
    # (where a bad declaration is reported at line 1)
    declares = b'"chain"' in head or b"\\" in head
    if line_by_line or not head.strip() or declares:
        return _line_by_line(data, text)
    try:
        header, t = read_stamped(head)
        if not isinstance(header, GameStart):
            raise LogSyntaxError("no_header", "the first line must be the 'game' header")
    except CaboLogError as exc:
        return DecodedLog(None, error=exc, error_line=1)
    decoded = fast_body(text, start, header.players, scan=scan)   # players: the scan's names
    if decoded is None:
        return _line_by_line(data, text, (header, t))
    events = decoded[0]
    # The lines the line-by-line reading counts, without counting the bytes again: the
    # header's, and then fast_body's whole lines (one event each) and a last, empty one.
    lines = 1 + (end >= 0) + (len(events) - 1 + text.endswith(b"\n") if events else 0)
    return DecodedLog(header, t, 1, events, [], decoded[1], lines=lines)


def _line_by_line(data: bytes, text: bytes, first: tuple[Event, Stamp] | None = None,
                  ) -> DecodedLog:
    """``decode_log`` line by line: the chain first on each line, then ``fast_decode`` or,
    when it cannot vouch for the line, the exact reader (``first``: line 1 as already read,
    so that no line is decoded twice)."""
    log = DecodedLog(None)
    stamps: list[Stamp] = []
    stored: list[bytes] = []
    fast = fast_decode
    previous = b""
    chained: bool | None = None
    number = 0
    try:
        for number, raw in enumerate(text.split(b"\n"), start=1):
            if log.header is not None and (chained is not False or may_have_link(raw)):
                chained = check_line(previous, raw, chained)  # the chain first (log.chain)
            decoded = None if number == 1 and first is not None else fast(raw)
            if decoded is not None:
                event, t = decoded[0], decoded[2]
            elif number == 1 and first is not None:
                event, t = first
            else:
                if not raw.strip():
                    continue  # blank lines are skipped
                event, t = read_stamped(raw)  # the same event, or the precise syntax error
            previous = raw
            if log.header is None:
                if not isinstance(event, GameStart):
                    raise LogSyntaxError("no_header", "the first line must be the 'game' header")
                log.header, log.header_t, log.header_line = event, t, number
                previous = as_stored(data, number, raw)   # line 1 keeps a BOM (log.chain)
                if declares_chain(raw):
                    chained = True   # every later line must carry its h (format 1.1)
            else:
                log.events.append(event)
                log.numbers.append(number)
                stamps.append(t)
            stored.append(previous)
        if log.header is None:
            number = 1
            raise LogSyntaxError("empty_log", "the log has no lines")
    except CaboLogError as exc:
        log.error, log.error_line = exc, number
    log.lines = number
    log.stamps = stamps if any(t is not None for t in stamps) else []
    log.stored = stored if chained else None
    return log


def read_stamped(raw: bytes) -> tuple[Event, Stamp]:
    """The exact reader's event of one line and the line's ``t`` (checked by
    ``parse_object``: a number or a string), from the one decoding."""
    obj = decode_line(raw)
    event = parse_object(obj)
    return event, obj.get("t") if type(obj) is dict else None
