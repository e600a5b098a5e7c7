"""The readers of the native scan of a log's body (``line_scan``, written from the spec): each
line taken in its canonical form alone, straight into the engine's event, with no JSON
parser, struct or tuple in between.

What ``Scanner`` reads is one spelling of a line: ``{"type":"draw","seq":5,"player":"ana",
"source":"deck","card":"11"}`` as the writers write it (no space, the keys in the spec's
order, ``auto`` last and only when true, no default spelled out), each value one of a few
shapes: a player of the game (its exact bytes: any other string is not read here), a word
of the field's choices, a card code, a whole number in plain digits, a list or an object of
them by player, a place ``["ana",0]``. Every byte of a line it accepts is matched (the keys
as literals, once each and in order; the values from the known words, digits and brackets),
so such a line is valid JSON with no key twice, none unknown and no default spelled out, and
it reads as the exact reader would read it. Anything else (a
``t``, a space, an escape, a name or word it does not know, a number of more than 18 digits)
is not an error here: the line is left to msgspec's path (``fastdecode``), which reads it
with its own proof or hands it to the exact reader.

Compiled by the mypyc build (``APP_MODULES`` in setup.py): a byte read is an inline load, a
reader a direct C call. As Python it is slower than msgspec's path, so only the compiled build
scans (``fastdecode.SCAN``); tests/test_scan.py runs it in either build against the other
readings, tests/test_compiled.py compares the builds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from cabo_log.db.byte_buffers import read_i64_le
from cabo_log.log.fastlines import Stamp
from engine.cards import every_code
from engine.events import Event

if TYPE_CHECKING:
    from mypy_extensions import i64  # compiled: a machine integer (annotations only)

MAX_DIGITS: Final = 18
"""The longest whole number read here (below 2**62, the largest ``seq`` of the fast path);
a longer one is msgspec's path's to read."""

Words = list[tuple[bytes, str]]
"""Words a value may be: each as its bytes with the closing quote, and as the string the
event holds."""


def words(values: tuple[str, ...]) -> Words:
    """The words of ``values`` that a line may hold unescaped (any with a quote, a backslash
    or a control character is left to the other paths)."""
    out: Words = []
    for value in values:
        try:
            raw = value.encode()
        except UnicodeEncodeError:   # a lone surrogate: no line holds it as UTF-8
            continue
        if b'"' not in raw and b"\\" not in raw and min(raw, default=32) >= 32:
            out.append((raw + b'"', value))
    return out


def _cards_by_first_bytes() -> list[Words]:
    """Every card code any deck holds, with its closing quote, by its first two bytes' low
    seven bits (``card_index``; the engine's own string objects: nothing is allocated per
    card)."""
    none: Words = []
    table: list[Words] = [none] * (1 << 14)
    for code, value in words(every_code()):
        at = card_index(code[0], code[1])
        table[at] = [*table[at], (code, value)]
    return table


def card_index(first: int, second: int) -> i64:
    """Where the codes that may start with these two bytes are listed in ``CARDS``."""
    return ((first & 127) << 7) | (second & 127)


CARDS: Final = _cards_by_first_bytes()


class Scanner:
    """A cursor over a body, with the game's players to match names against. Each reader
    moves past what it read and returns it, or sets ``bad`` (what it returns then is of no
    use): the line's reading is then given up."""

    def __init__(self, data: bytes, start: i64, players: tuple[str, ...]) -> None:
        self.data = data
        self.pos: i64 = start
        self.size: i64 = len(data)
        self.bad = False
        self.players: Words = words(players)

    def lit(self, text: bytes) -> bool:
        """Whether ``text`` comes next (then moves past it)."""
        p = self.pos
        n: i64 = len(text)
        if p + n > self.size:
            return False
        data = self.data
        k: i64 = 0
        if n >= 8:   # eight bytes at a time, the last eight overlapping the ones before
            while k + 8 < n:
                if read_i64_le(data, p + k) != read_i64_le(text, k):
                    return False
                k += 8
            if read_i64_le(data, p + n - 8) != read_i64_le(text, n - 8):
                return False
        else:
            while k < n:
                if data[p + k] != text[k]:
                    return False
                k += 1
        self.pos = p + n
        return True

    def next_byte(self) -> i64:
        """The byte that comes next (-1 at the end)."""
        return self.data[self.pos] if self.pos < self.size else -1

    def word(self, choices: Words) -> str:
        """A string that is one of ``choices``."""
        p = self.pos
        if p + 1 < self.size and self.data[p] == 34:
            self.pos = p + 1
            first = self.data[p + 1]
            for raw, value in choices:
                if raw[0] == first and self.lit(raw):
                    return value
        self.bad = True
        return ""

    def player(self) -> str:
        """A string that is one of the game's players."""
        return self.word(self.players)

    def card(self) -> str:
        """A string that is a card code of any deck."""
        p = self.pos
        if p + 2 < self.size and self.data[p] == 34:
            self.pos = p + 1
            for raw, value in CARDS[card_index(self.data[p + 1], self.data[p + 2])]:
                if self.lit(raw):
                    return value
        self.bad = True
        return ""

    def number(self, signed: bool) -> i64:
        """A whole number in plain digits (``-`` first when ``signed``), at most 18 of them."""
        data = self.data
        p = self.pos
        size = self.size
        negative = False
        if signed and p < size and data[p] == 45:
            negative = True
            p += 1
        if p >= size:
            self.bad = True
            return 0
        c = data[p]
        value: i64 = 0
        if c == 48:   # a 0 alone: a digit after it fails the literal that must follow
            p += 1
        elif 49 <= c <= 57:
            first = p
            while p < size and 48 <= data[p] <= 57:
                value = value * 10 + (data[p] - 48)
                p += 1
                if p - first > MAX_DIGITS:
                    self.bad = True
                    return 0
        else:
            self.bad = True
            return 0
        self.pos = p
        return -value if negative else value

    def numbers(self) -> tuple[int, ...]:
        """A non-empty list of whole numbers."""
        if not self.lit(b"["):
            self.bad = True
            return ()
        first = self.number(True)
        if self.lit(b"]"):
            return (first,)
        items: list[int] = [first]
        while not self.bad and self.lit(b","):
            items.append(self.number(True))
        if not self.lit(b"]"):
            self.bad = True
        return tuple(items)

    def place(self) -> tuple[str, int]:
        """``["ana",0]``: a player and a position."""
        if not self.lit(b"["):
            self.bad = True
            return ("", 0)
        name = self.player()
        if not self.lit(b","):
            self.bad = True
        position = self.number(True)
        if not self.lit(b"]"):
            self.bad = True
        return (name, position)

    def places(self) -> tuple[tuple[str, int], tuple[str, int]]:
        """``[["ana",0],["bruno",1]]``: two places."""
        if not self.lit(b"["):
            self.bad = True
        first = self.place()
        if not self.lit(b","):
            self.bad = True
        second = self.place()
        if not self.lit(b"]"):
            self.bad = True
        return (first, second)

    def cards(self) -> tuple[str, ...]:
        """A list of card codes."""
        if not self.lit(b"["):
            self.bad = True
            return ()
        if self.lit(b"]"):
            return ()
        items: list[str] = [self.card()]
        while not self.bad and self.lit(b","):
            items.append(self.card())
        if not self.lit(b"]"):
            self.bad = True
        return tuple(items)

    def names(self) -> tuple[str, ...]:
        """A list of the game's players."""
        if not self.lit(b"["):
            self.bad = True
            return ()
        if self.lit(b"]"):
            return ()
        items: list[str] = [self.player()]
        while not self.bad and self.lit(b","):
            items.append(self.player())
        if not self.lit(b"]"):
            self.bad = True
        return tuple(items)

    def key(self, seen: Mapping[str, object]) -> str:
        """An object's key that is one of the game's players, then its colon; a key seen
        before in the object is not read here (the exact reader refuses it)."""
        name = self.player()
        if name in seen or not self.lit(b":"):
            self.bad = True
        return name

    def points(self) -> dict[str, int]:
        """An object of whole numbers by player."""
        out: dict[str, int] = {}
        if not self.lit(b"{"):
            self.bad = True
            return out
        if self.lit(b"}"):
            return out
        while True:
            name = self.key(out)
            out[name] = self.number(True)
            if self.bad or not self.lit(b","):
                break
        if not self.lit(b"}"):
            self.bad = True
        return out

    def hands(self) -> dict[str, tuple[str, ...]]:
        """An object of lists of card codes by player."""
        out: dict[str, tuple[str, ...]] = {}
        if not self.lit(b"{"):
            self.bad = True
            return out
        if self.lit(b"}"):
            return out
        while True:
            name = self.key(out)
            out[name] = self.cards()
            if self.bad or not self.lit(b","):
                break
        if not self.lit(b"}"):
            self.bad = True
        return out

    def seq(self) -> int | None:
        """The line's ``seq`` when it has one (right after its ``type``)."""
        if self.lit(b',"seq":'):
            return self.number(False)
        return None

    def close(self) -> bool:
        """The line's ``}``, then its newline or the end of the body."""
        if self.bad or not self.lit(b"}"):
            return False
        p = self.pos
        if p == self.size:
            return True
        if self.data[p] == 10:
            self.pos = p + 1
            return True
        return False

    def skip_line(self, start: i64) -> i64:
        """Move to the start of the line after the one that starts at ``start``; the end of
        that line."""
        end: i64 = self.data.find(b"\n", start)
        if end < 0:
            end = self.size
            self.pos = end
        else:
            self.pos = end + 1
        self.bad = False
        return end


class Scanned:
    """A body scanned: its events in order, None where a line was left to msgspec's path;
    those lines (``holes``: their indexes among the events) and their bytes (``rest``: the
    lines, each followed by a newline but the last)."""

    def __init__(self, events: list[Event | None], holes: list[int], rest: bytes) -> None:
        self.events = events
        self.holes = holes
        self.rest = rest

    def filled(self, others: list[Event]) -> list[Event] | None:
        """The events with the holes filled by ``others`` (the rest's events, in order), or
        None when they are not one per hole."""
        if len(others) != len(self.holes):
            return None
        events = self.events
        i: i64 = 0
        for hole in self.holes:
            events[hole] = others[i]
            i += 1
        return [e for e in events if e is not None]

    def stamps(self, theirs: list[Stamp]) -> list[Stamp]:
        """The ``t`` of every line, from those of the rest's lines (a scanned line has none);
        empty when none has one."""
        if not theirs:
            return []
        out: list[Stamp] = [None] * len(self.events)
        i: i64 = 0
        for hole in self.holes:
            out[hole] = theirs[i]
            i += 1
        return out


def left_over(scanner: Scanner, events: list[Event | None], holes: list[int],
              spans: list[int]) -> Scanned:
    """What ``line_scan.scan_body`` found: the holes' lines joined."""
    data = scanner.data
    parts: list[bytes] = []
    i: i64 = 0
    while i < len(spans):
        parts.append(data[spans[i]:spans[i + 1]])
        i += 2
    return Scanned(events, holes, b"\n".join(parts))
