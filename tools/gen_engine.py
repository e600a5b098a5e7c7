"""The engine's modules written from the spec: the event classes, their parsers and the
builders (``tools/gen_events.py`` runs them)."""

from __future__ import annotations

import textwrap

from gen_common import EVENTS, HEAD, EventSpec, Field, ident, py_type, wrap

READER = {
    "int": "read_int", "positions": "read_positions", "cards": "read_cards",
    "ids": "read_ids", "slot": "read_slot", "slot_pair": "read_slot_pair",
    "points": "read_points", "hands": "read_hands", "ruleset": "read_ruleset",
    "object": "read_object", "names": "read_names", "stamp": "read_stamp",
}
"""The reader of each shape that is not tested inline (``engine/readers.py``)."""


# --- engine/events.py ------------------------------------------------------------------------

def events_module() -> str:
    out = [HEAD, '''\
"""The events of format v1, one class per line ``type``, as ``engine/spec.py`` declares them
(the base class, ``to_dict`` and ``with_fields`` are in ``engine/event_base.py``; reading them
from JSON is ``engine/parsing.py``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from .event_base import FORMAT, Event, Slot, field_names, to_dict, type_name, with_fields
from .native import mypyc_attr

__all__ = ["CLASSES", "FORMAT", "Event", "Slot", "field_names", "to_dict", "type_name",
           "with_fields",''']
    names = ", ".join(f'"{spec.name}"' for spec in EVENTS)
    out.append(wrap(f"           {names}]", "           "))
    for spec in EVENTS:
        out.append(event_class(spec))
    out += ["", "", "CLASSES: Final[dict[str, type[Event]]] = {"]
    out += [f'    "{spec.type}": {spec.name},' for spec in EVENTS]
    out += ["}", '"""Line ``type`` -> its event class."""']
    return "\n".join(out) + "\n"


def event_class(spec: EventSpec) -> str:
    fields = ", ".join(f'"{f.name}"' for f in spec.fields)
    slots = fields + ("," if len(spec.fields) == 1 else "")
    lines = ["", "", "@mypyc_attr(acyclic=True)", f"class {spec.name}(Event):",
             textwrap.fill(f'"""{spec.doc[0].upper()}{spec.doc[1:]}."""', width=100,
                           initial_indent="    ", subsequent_indent="    "), "",
             f'    TYPE: ClassVar[str] = "{spec.type}"',
             wrap(f'    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "auto", {fields})',
                  "                                         "),
             wrap(f"    __slots__ = ({slots})", "                 ")]
    nullable = [f.name for f in spec.fields if f.nullable]
    if nullable:
        names = ", ".join(f'"{n}"' for n in nullable)
        lines.append(f"    NULLABLE: ClassVar[tuple[str, ...]] = ({names},)   # written as null")
    for f in spec.fields:
        note = "  # a str-Enum member, or the plain string" if f.words else ""
        lines.append(f"    {f.name}: {py_type(f)}{note}")
    trailing = len(spec.fields)   # the optional fields at the end default to None
    while trailing and spec.fields[trailing - 1].absent_is_none:
        trailing -= 1
    params = ", ".join(f"{f.name}: {py_type(f)}" + (" = None" if i >= trailing else "")
                       for i, f in enumerate(spec.fields))
    lines += ["", wrap(f"    def __init__(self, seq: int | None, auto: bool, {params}) -> None:",
                       "                 "),
              "        self.seq = seq", "        self.auto = auto"]
    lines += [f"        self.{f.name} = {f.name}" for f in spec.fields]
    return "\n".join(lines)


# --- engine/parsers.py -----------------------------------------------------------------------

def parsers_module() -> str:
    out = [HEAD, '''\
"""The strict parser of each event kind: a decoded JSON object -> its event, or the
``LogSyntaxError`` naming the first field that is missing or of the wrong shape (fields are
checked in the order ``engine/spec.py`` lists them). Unknown extra keys are ignored, as
FORMAT.md promises.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from .events import (
''']
    out += [f"    {spec.name}," for spec in EVENTS]
    out += ["    Event,", ")", "from .readers import (", "    Slot,"]
    used = sorted({READER[f.json] for s in EVENTS for f in s.fields if f.json in READER}
                  | {"read_choice", "read_opt_int", "read_opt_str", "read_str"}
                  | ({"read_nullable_str"} if any(f.nullable for s in EVENTS for f in s.fields)
                     else set()))
    out += [f"    {name}," for name in used]
    out.append(")")
    words = sorted({f.words for s in EVENTS for f in s.fields if f.words})
    out.append(f"from .vocabulary import {', '.join(words)}")
    for spec in EVENTS:
        for f in spec.fields:
            if f.choices and not f.words:
                table = ", ".join(f'"{c}": "{c}"' for c in f.choices)
                out += ["", f"{choices_name(spec, f)}: Final[dict[str, str]] = {{{table}}}"]
    for spec in EVENTS:
        out.append(parser(spec))
    out += ["", "", "Parser = Callable[[Mapping[str, Any], int | None, bool], Event]",
            "PARSERS: Final[dict[str, Parser]] = {"]
    out += [f'    "{spec.type}": parse_{spec.type},' for spec in EVENTS]
    out += ["}", '"""Line ``type`` -> the parser of its event."""']
    return "\n".join(out) + "\n"


def choices_name(spec: EventSpec, f: Field) -> str:
    return f"_{spec.type.upper()}_{f.name.upper()}"


def parser(spec: EventSpec) -> str:
    k = spec.type
    lines = ["", "", f"def parse_{k}(o: Mapping[str, Any], seq: int | None, auto: bool) "
             f"-> {spec.name}:"]
    for f in spec.fields:
        v = ident(f)
        if f.when is not None:
            lines.append(f"    {v}: {py_type(f)} = None")
    for f in spec.fields:
        v, n = ident(f), f.name
        if f.when is not None:
            other, values = f.when
            test = " or ".join(f'{ident(spec.field(other))} == "{value}"' for value in values)
            lines += [f"    if {test}:", f'        {v} = {READER[f.json]}(o, "{k}", "{n}")']
        elif f.nullable:
            if f.json != "str":
                raise SystemExit(f"{k}.{n}: only a string may be nullable")
            lines.append(f'    {v} = read_nullable_str(o, "{k}", "{n}")')
        elif f.choices:
            table = f.words or choices_name(spec, f)
            call = f'read_choice(o, "{k}", "{n}", {table}, {f.optional})'
            if f.optional:
                lines.append(f"    {v} = {call}")
            else:   # required: never None
                lines += [f"    {v} = {call}", f"    assert {v} is not None"]
        elif f.json in ("str", "card"):
            if f.optional:
                lines += [f'    {v} = o.get("{n}")',
                          f"    if {v} is not None and type({v}) is not str:",
                          f'        {v} = read_opt_str(o, "{k}", "{n}")']
            else:
                lines += [f'    {v} = o.get("{n}")', f"    if type({v}) is not str:",
                          f'        {v} = read_str(o, "{k}", "{n}")']
        elif f.json == "int":
            if f.optional:
                lines += [f'    {v} = o.get("{n}")',
                          f"    if {v} is not None and type({v}) is not int:",
                          f'        {v} = read_opt_int(o, "{k}", "{n}")']
            else:
                lines.append(f'    {v} = read_int(o, "{k}", "{n}")')
        else:
            if f.optional and f.json not in ("object", "names", "stamp"):
                raise SystemExit(f"{k}.{n}: an optional {f.json} has no reader")
            lines.append(f'    {v} = {READER[f.json]}(o, "{k}", "{n}")')
    args = ", ".join(ident(f) for f in spec.fields)
    lines.append(wrap(f"    return {spec.name}(seq, auto, {args})", "            "))
    return "\n".join(lines)


# --- engine/builders.py ----------------------------------------------------------------------

def builders_module() -> str:
    out = [HEAD, '''\
"""Events built from values that a decoder outside the engine has already checked, so that the
engine imports no decoder: from an object carrying the fields as attributes of the same names
(``BUILDERS``: the fast decoder's msgspec structs) or from the fields after ``seq`` and
``auto`` in order (``MAKERS``: the simulator). Each is a plain function naming its fields:
compiled, a direct call of the native constructor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .events import (
''']
    out += [f"    {spec.name}," for spec in EVENTS]
    out += ["    Event,", ")"]
    body = [s for s in EVENTS if s.type != "game"]
    for spec in body:
        attrs = ", ".join(f"s.{f.name}" for f in spec.fields)
        out += ["", "", f"def {spec.type}(s: Any) -> {spec.name}:",
                wrap(f"    return {spec.name}(s.seq, s.auto, {attrs})", "            ")]
    for spec in EVENTS:
        values = ", ".join(f"v[{i}]" for i in range(len(spec.fields)))
        out += ["", "", f"def make_{spec.type}(seq: int | None, auto: bool, v: tuple[Any, ...]) "
                f"-> Event:", wrap(f"    return {spec.name}(seq, auto, {values})", "            ")]
    out += ["", "", "BUILDERS: Final[dict[str, Callable[[Any], Event]]] = {"]
    out += [f'    "{spec.type}": {spec.type},' for spec in body]
    out += ["}", '"""Line ``type`` -> the builder of its event from a decoded struct (every type '
            'but the', 'header, which the exact reader always reads)."""', "",
            "MAKERS: Final[dict[type[Event], Callable[[int | None, bool, tuple[Any, ...]], "
            "Event]]] = {"]
    out += [f"    {spec.name}: make_{spec.type}," for spec in EVENTS]
    out += ["}", '"""Event class -> its maker from ``seq``, ``auto`` and the values of its other '
            'fields."""']
    return "\n".join(out) + "\n"
