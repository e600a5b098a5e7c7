"""The fast path's modules written from the spec: the msgspec structs, the events and
canonical sizes from decoded values, and the simulator's line text (``tools/gen_events.py``
runs them)."""

from __future__ import annotations

from gen_common import EVENTS, HEAD, EventSpec, Field, ident, key_bytes, py_type, wrap

FAST_TYPE = {
    "str": "str", "card": "Card", "int": "Int", "positions": "Positions",
    "cards": "tuple[Card, ...]", "ids": "tuple[str, ...]", "slot": "SlotT",
    "slot_pair": "tuple[SlotT, SlotT]", "points": "dict[str, Int]",
    "hands": "dict[str, tuple[Card, ...]]",
}
"""The msgspec type of each shape the fast decoder reads (the header's are the exact
reader's alone)."""

SIZE = {
    "str": (2, "len({})"), "card": (2, "len({})"), "int": (0, "int_size({})"),
    "positions": (0, "ints_size({})"), "cards": (0, "strs_size({})"),
    "ids": (0, "strs_size({})"), "slot": (0, "slot_size({})"),
    "slot_pair": (3, "slot_size({0}[0]) + slot_size({0}[1])"),
    "points": (0, "points_size({})"), "hands": (0, "hands_size({})"),
}
"""A value's canonical JSON bytes: (fixed bytes, the expression of the rest) - a string's
quotes are fixed, its characters not; a pair of places has its brackets and comma."""

TEXT = {
    "str": "{{text({})}}", "card": "{{text({})}}", "int": "{{{}}}",
    "positions": "{{ints({})}}", "slot": "{{place({})}}",
    "slot_pair": "[{{place({0}[0])}},{{place({0}[1])}}]",
}
"""A value's JSON text in an f-string (the simulator's encoder; kinds with other shapes take
the general ``to_dict``)."""

# --- cabo_log/log/fast_structs.py ------------------------------------------------------------

def structs_module() -> str:
    out = [HEAD, '''\
"""The fast decoder's msgspec structs, one per line type but the header (``fastdecode``
explains the path): the lean ones, with ``seq`` and ``auto`` first (``LineBase``) and then the
kind's fields in the spec's order, where ``line_events.events_of`` reads them by index.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

import msgspec

from engine.cards import every_code

if TYPE_CHECKING:
    Card = str
else:
    # A card code as one of the engine's own string objects (msgspec hands out the Literal's
    # values, not new strings): their hashes are computed once, and nothing is allocated per
    # card. A code of no deck fails here and takes the exact path, whose error is the
    # engine's ``unknown_card``.
    Card = Literal[every_code()]

# Within int64: orjson (the exact reader) rejects larger numbers, msgspec would not.
Int = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
Positions = Annotated[tuple[Int, ...], msgspec.Meta(min_length=1)]
SlotT = tuple[str, Int]


class LineBase(msgspec.Struct, tag_field="type", frozen=True, kw_only=True, omit_defaults=True,
               gc=False, forbid_unknown_fields=True):
    """The fields every line has, first (every struct is ``kw_only``, so msgspec keeps them
    first). Every default is None (or false) and is left out when re-encoding, so a line that
    spells one out (``"card":null``) fails the key count and takes the exact path. ``seq``
    is any int here: ``events_of`` bounds it."""

    seq: int | None = None
    auto: bool = False            # absent; a spelled-out false or null goes the exact way
''']
    names = []
    for spec in EVENTS:
        if spec.type == "game":
            continue
        name = f"{spec.name}Line"
        names.append(name)
        out += ["", "", f'class {name}(LineBase, tag="{spec.type}", frozen=True, kw_only=True):']
        for f in spec.fields:
            t = fast_type(f)
            out.append(f"    {f.name}: {t}" + (" | None = None" if f.absent_is_none
                                             else " | None" if f.nullable else ""))
    out += ["", "", "LEAN: tuple[type[LineBase], ...] = ("]
    out.append(wrap("    " + ", ".join(names) + ")", "    "))
    out.append('"""The lean structs, in the spec\'s order (``line_events.KIND``)."""')
    return "\n".join(out) + "\n"


def fast_type(f: Field) -> str:
    if f.choices:
        return "Literal[" + ", ".join(f'"{c}"' for c in f.choices) + "]"
    return FAST_TYPE[f.json]


# --- cabo_log/log/line_events.py -------------------------------------------------------------

def line_events_module() -> str:
    body = [s for s in EVENTS if s.type != "game"]
    hot = [s for s in body if s.hot]
    rare = [s for s in body if not s.hot]
    out = [HEAD, '''\
"""The fast path's events from decoded lines, and the size of each line written canonically
(``fastdecode.fast_body`` compares it with the bytes: its argument is there). A line's fixed
bytes are counted from ``engine/spec.py`` by ``tools/gen_events.py``, its values' bytes by the
``fastlines`` helpers; ``tests/test_decode.py`` checks them against real lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from msgspec.structs import astuple

from cabo_log.log.fastlines import (
    MAX_SEQ,
    Stamp,
    hands_size,
    int_size,
    ints_size,
    points_size,
    slot_size,
    strs_size,
)
from engine.events import (
''']
    out += [f"    {spec.name}," for spec in body]
    out += ["    Event,", "    Slot,", ")", "",
            "if TYPE_CHECKING:",
            "    from mypy_extensions import i64  # compiled: a machine integer (annotations only)",
            "", "COMMON: Final = (\"seq\", \"auto\")",
            '"""The fields every decoded line starts with, at indexes 0 and 1."""', "",
            "STAMPS: Final = (\"t\", \"h\")",
            '"""The fields a stamped struct (``fastdecode``) has after its own, the last two."""',
            "", "LAYOUT: Final[dict[str, tuple[str, ...]]] = {"]
    for spec in body:
        fields = ", ".join(f'"{f.name}"' for f in spec.fields)
        comma = "," if len(spec.fields) == 1 else ""
        out.append(f'    "{spec.type}": ({fields}{comma}),')
    out += ["}", '"""Each line type\'s own fields, after ``COMMON``, in the structs\' order (from '
            'index 2)."""', "",
            "KIND: Final[dict[str, int]] = {tag: number for number, tag in enumerate(LAYOUT)}",
            '"""Line type -> its place in ``LAYOUT``: the order of the structs ``events_of`` '
            'takes."""', ""]
    out.append('''
def events_of(lines: list[Any], structs: tuple[type, ...], stamped: bool, body: bytes = b"",
              start: i64 = 0) -> tuple[list[Event], list[Stamp], int, bool] | None:
    """The engine's event and the ``t`` of every decoded line (no list at all, ``[]``, when
    no line has one), the size of the lines written canonically (-1 when a line has a ``t``,
    whose float could be written in several ways), and whether ``body`` (the bytes the lines
    were decoded from, from its byte ``start`` on: a replay passes the whole log, so the body
    is never copied) has a newline where each line would end if every line before it were
    canonical and ended with one. ``structs`` are the struct classes in ``KIND`` order, the
    ``stamped`` ones (with ``t`` and ``h`` last) or the lean ones. None when a line carries a
    hash ``h`` (a chained log is read line by line), has a field that its kind takes only
    with another's value and the other way round (a swap's ``cards``), or has a ``seq`` out
    of 0 to 2**62 - 1 (the stamped structs and the exact reader judge it)."""
    events: list[Event] = []
    stamps: list[Stamp] = []
    size: i64 = 0
    timed = False
    aligned = True
    ends: i64 = start  # where the body starts, plus the newlines before the line
    length: i64 = len(body)
    to_tuple = astuple   # a local: a module's imported name is a dict lookup on each use''')
    out += [f"    s_{s.type} = structs[{body.index(s)}]" for s in hot]
    out.append('''    t: Stamp = None
    for line in lines:
        v: tuple[Any, ...] = to_tuple(line)   # seq, auto, the own fields (then t, h)
        if stamped:
            if v[-1] is not None:
                return None
            t = v[-2]
        seq: int | None = v[0]   # typed: compiled, its compares are machine compares
        auto: bool = v[1]
        if seq is not None:
            if not 0 <= seq <= MAX_SEQ:
                return None
            size += 7 + int_size(seq)     # ,"seq":
        if auto is True:
            size += 12                    # ,"auto":true
        cls = type(line)''')
    for i, spec in enumerate(hot):
        out.append(f"        {'if' if i == 0 else 'elif'} cls is s_{spec.type}:")
        out += branch(spec, "            ", "size += ", "return None")
    out += ["        else:", "            grown = rare(cls, structs, v, seq, auto, events)",
            "            if grown < 0:", "                return None",
            "            size += grown"]
    out.append('''        if aligned:   # (the last line may end the body: no newline there)
            at = size + ends
            aligned = at == length or (at < length and body[at] == 10)
            ends += 1
        if t is not None:   # most logs have no ``t``: then no list of Nones is built at all
            timed = True
            while len(stamps) < len(events) - 1:
                stamps.append(None)
            stamps.append(t)
    if stamps:
        while len(stamps) < len(events):
            stamps.append(None)
    return events, stamps, -1 if timed else size, aligned


def rare(cls: type, structs: tuple[type, ...], v: tuple[Any, ...], seq: int | None,
         auto: bool, events: list[Event]) -> i64:
    """``events_of`` for the line types seen a few times per round: appends the event,
    returns the size of the line short of its ``seq`` and ``auto`` (-1: not for the fast
    path)."""
    size: i64 = 0''')
    for i, spec in enumerate(rare):
        last = i == len(rare) - 1
        indent = "    " if last else "        "
        if not last:
            out.append(f"    if cls is structs[{body.index(spec)}]:")
        out += branch(spec, indent, "size += ", "return -1")
        out.append(f"{indent}return size")
    out += ["", "", "def fits(v: tuple[Any, ...], kind: int) -> bool:",
            '    """Whether a decoded line of kind ``KIND`` number ``kind`` (``v``: its values) '
            'holds the', '    fields its other fields call for (a swap its ``cards``, a peek '
            'its ``target``): any', '    other mix is the exact reader\'s to word or to read."""']
    for spec in body:
        test = fits_test(spec)
        if test:
            out += [f"    if kind == {body.index(spec)}:",
                    wrap(f"        return bool({test})", "                    ")]
    out.append("    return True")
    return "\n".join(out) + "\n"


def local(spec: EventSpec, f: Field) -> str:
    """A local variable of ``events_of`` for the field (one name per kind and field)."""
    return f"{spec.type}_{f.name}"


def fits_test(spec: EventSpec) -> str:
    parts = []
    for f in spec.fields:
        if f.when is None:
            continue
        other, values = f.when
        at = 2 + spec.fields.index(spec.field(other))
        mine = 2 + spec.fields.index(f)
        test = " or ".join(f'v[{at}] == "{value}"' for value in values)
        parts.append(f"(v[{mine}] is not None) == ({test})")
    return " and ".join(parts)


def branch(spec: EventSpec, indent: str, grow: str, refuse: str) -> list[str]:
    """The lines that append ``spec``'s event from the values ``v`` and grow ``size`` by its
    canonical bytes (all but ``seq`` and ``auto``)."""
    lines = []
    fixed = len(f'{{"type":"{spec.type}"') + 1
    parts = []
    for i, f in enumerate(spec.fields):
        t = py_type(f)
        if t == "str | dict[str, Any]":
            t = "Any"
        lines.append(f"{indent}{local(spec, f)}: {t} = v[{2 + i}]")
    test = fits_test(spec).replace("v[", "~")
    if test:
        for i, f in enumerate(spec.fields):
            test = test.replace(f"~{2 + i}]", local(spec, f))
        lines += [wrap(f"{indent}if not ({test}):", indent + "        "), f"{indent}    {refuse}"]
    args = ", ".join(local(spec, f) for f in spec.fields)
    lines.append(wrap(f"{indent}events.append({spec.name}(seq, auto, {args}))",
                      indent + "                     "))
    for f in spec.fields:
        own, expr = SIZE[f.json]
        if f.absent_is_none:
            continue
        if f.nullable:   # its key always; its value below (null: 4 bytes)
            fixed += key_bytes(f.name)
            continue
        fixed += key_bytes(f.name) + own
        parts.append(expr.format(local(spec, f)))
    comment = "".join(f',"{f.name}":' for f in spec.fields if not f.absent_is_none)
    total = " + ".join([str(fixed), *parts])
    lines.append(f'{indent}# {{"type":"{spec.type}"{comment}}} and the values\' bytes')
    if len(indent) + len(grow) + len(total) > 100:
        total = f"({total})"
    lines.append(wrap(f"{indent}{grow}{total}", indent + " " * (len(grow) + 1)))
    for f in spec.fields:
        if f.nullable:
            own, expr = SIZE[f.json]
            lines += [f"{indent}if {local(spec, f)} is not None:",
                      f"{indent}    {grow}{own} + {expr.format(local(spec, f))}",
                      f"{indent}else:", f"{indent}    {grow}4   # null"]
        if not f.absent_is_none:
            continue
        own, expr = SIZE[f.json]
        lines += [f"{indent}if {local(spec, f)} is not None:",
                  f"{indent}    {grow}{key_bytes(f.name) + own} + {expr.format(local(spec, f))}"
                  f'   # ,"{f.name}":']
    return lines


# --- cabo_log/play/line_text.py --------------------------------------------------------------

def line_text_module() -> str:
    kinds = [s for s in EVENTS if s.type != "game"
             and all(f.json in TEXT and not f.nullable for f in s.fields)]
    out = [HEAD, '''\
"""The text of a line after its ``seq``, from its kind and the values of its other fields:
exactly what ``orjson.dumps`` writes of the line's dict (``tests/test_moveset.py`` compares
them). The simulator writes the lines of the kinds below this way (``play.lines``); the
others take the dict.
"""

from __future__ import annotations

from typing import Any, Final

from cabo_log.play.json_text import ints, place, text
from engine.events import (
''']
    out += [f"    {spec.name}," for spec in kinds]
    out += ["    Event,", "    Slot,", ")"]
    for spec in kinds:
        out += ["", "", f"def {spec.type}_text(v: tuple[Any, ...]) -> str:"]
        required = [f for f in spec.fields if not f.absent_is_none]
        optional = [f for f in spec.fields if f.absent_is_none]
        for i, f in enumerate(spec.fields):
            if f.absent_is_none or f.json not in ("str", "card"):
                out.append(f"    {ident(f)}: {py_type(f)} = v[{i}]")
        head = "".join(f',"{f.name}":' + TEXT[f.json].format(value_of(spec, f))
                       for f in required)
        if not optional:
            out.append(wrap(f"    return f'{head}'", "            "))
            continue
        out.append(wrap(f"    out = f'{head}'", "            "))
        for f in optional:
            out += [f"    if {ident(f)} is not None:",
                    f"        out += f',\"{f.name}\":{TEXT[f.json].format(ident(f))}'"]
        out.append("    return out")
    out += ["", "", "def body_text(kind: type[Event], v: tuple[Any, ...]) -> str | None:",
            '    """The fields of a line of kind ``kind`` after ``seq`` as JSON text (no closing '
            '``}``),', '    or None for a kind written as a dict."""']
    for spec in kinds:
        out += [f"    if kind is {spec.name}:", f"        return {spec.type}_text(v)"]
    out += ["    return None", "", "",
            wrap("TEXT_KINDS: Final[tuple[type[Event], ...]] = ("
                 + ", ".join(s.name for s in kinds) + ")", "    "),
            '"""The kinds ``body_text`` writes."""']
    return "\n".join(out) + "\n"


def value_of(spec: EventSpec, f: Field) -> str:
    if f.json in ("str", "card") and not f.absent_is_none:
        return f"v[{spec.fields.index(f)}]"
    return ident(f)


# --- cabo_log/log/line_scan.py ---------------------------------------------------------------

SCAN_READER = {
    "card": "s.card()", "int": "s.number(True)", "positions": "s.numbers()",
    "cards": "s.cards()", "ids": "s.names()", "slot": "s.place()", "slot_pair": "s.places()",
    "points": "s.points()", "hands": "s.hands()",
}
"""The ``scanner.Scanner`` reader of each shape the native scan reads (a string: a word of
the field's choices, or else one of the game's players: a line with any other string is
left to msgspec's path)."""


def scanned(spec: EventSpec) -> bool:
    """Whether the native scan reads lines of this kind: every field of a shape it reads and
    none that is ``null`` when set to nothing (the others are left to msgspec's path)."""
    return spec.type != "game" and all(
        not f.nullable and (f.json == "str" or f.json in SCAN_READER) for f in spec.fields)


def reader(spec: EventSpec, f: Field) -> str:
    if f.json == "str":
        return f"s.word({words_name(spec, f)})" if f.choices else "s.player()"
    return SCAN_READER[f.json]


def words_name(spec: EventSpec, f: Field) -> str:
    return f"_{spec.type.upper()}_{f.name.upper()}"


def scan_function(spec: EventSpec) -> list[str]:
    """The reader of one kind's line after its ``type`` and ``seq``."""
    out = ["", "", f"def _{spec.type}(s: Scanner, seq: int | None) -> Event | None:"]
    for f in spec.fields:
        var, t = ident(f), py_type(f)
        key = f'b\',"{f.name}":\''
        if f.absent_is_none:
            out += [f"    {var}: {t} = None", f"    if s.lit({key}):",
                    f"        {var} = {reader(spec, f)}"]
        else:
            out += [f"    if not s.lit({key}):", "        return None",
                    f"    {var}: {t} = {reader(spec, f)}"]
    out.append("    auto = s.lit(b',\"auto\":true')")
    for f in spec.fields:
        if f.when is not None:
            other, values = f.when
            test = " or ".join(f'{ident(spec.field(other))} == "{v}"' for v in values)
            out += [f"    if ({ident(f)} is not None) != ({test}):", "        return None"]
    args = ", ".join(ident(f) for f in spec.fields)
    out += ["    if not s.close():", "        return None",
            f"    return {spec.name}(seq, auto, {args})"]
    return out


def line_scan_module() -> str:
    kinds = [s for s in EVENTS if scanned(s)]
    out = [HEAD, '''\
"""The native scan of a body: each line of a kind below, written canonically, read straight
into its event by ``scanner.Scanner`` (which says what it takes); every other line is left to
msgspec's path (``fastdecode.fast_body``), whose events fill the holes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cabo_log.log.scanner import Scanned, Scanner, left_over, words
from engine.events import (''']
    out += [f"    {spec.name}," for spec in kinds]
    out += ["    Event,", "    Slot,", ")", "", "if TYPE_CHECKING:",
            "    from mypy_extensions import i64  # compiled: a machine integer (annotations only)",
            "", "HOLES: Final = 16",
            '"""Lines left to msgspec\'s path beyond which a body is not scanned further, when '
            'they are', 'a quarter of its lines or more (a log written otherwise: a ``t`` on '
            'every line...)."""', ""]
    for spec in kinds:
        for f in spec.fields:
            if f.json == "str" and f.choices:
                values = ", ".join(f'"{c}"' for c in f.choices)
                comma = "," if len(f.choices) == 1 else ""
                out.append(f"{words_name(spec, f)}: Final = words(({values}{comma}))")
    out.append('''

def scan_body(data: bytes, start: i64, players: tuple[str, ...]) -> Scanned | None:
    """The events of the body (``data`` from its byte ``start`` on, whole lines) of a game
    of these ``players``, with the lines left to msgspec's path; None when too many are."""
    s = Scanner(data, start, players)
    events: list[Event | None] = []
    holes: list[int] = []
    spans: list[int] = []   # each hole's line: where it starts and ends
    size = s.size
    while s.pos < size:
        line = s.pos
        event: Event | None = None
        if s.lit(b'{"type":"'):
            c = s.next_byte()   # tried first: most kinds are told apart by it''')
    for i, spec in enumerate(kinds):
        out += [f"            {'if' if i == 0 else 'elif'} c == {ord(spec.type[0])} and "
                f"s.lit(b'{spec.type}\"'):",
                f"                event = _{spec.type}(s, s.seq())"]
    out.append('''        if event is None:
            holes.append(len(events))
            spans.append(line)
            spans.append(s.skip_line(line))
            if len(holes) > HOLES and 4 * len(holes) > len(events):
                return None
        events.append(event)
    return left_over(s, events, holes, spans)''')
    for spec in kinds:
        out += scan_function(spec)
    return "\n".join(out) + "\n"
