"""``engine/spec.py`` declares each event kind once; these tests check that everything written
from it is current and agrees with it: for every kind and every field, a line built from the
spec alone reads back as the same event through the exact reader and the fast path, the fast
path's canonical size is the line's length, the simulator writes the same bytes as orjson,
and a missing or mistyped field is the error that names it."""

from __future__ import annotations

import subprocess
import sys
from itertools import product
from pathlib import Path
from typing import Any

import orjson
import pytest

from cabo_log.db.row_layout import COMMON, LAYOUTS
from cabo_log.db.schema import SCHEMAS
from cabo_log.log.builder import LogBuilder
from cabo_log.log.fastdecode import canonical_size, fast_event
from cabo_log.log.logfile import parse_line
from cabo_log.log.replay import replay_bytes, visit_bytes
from cabo_log.log.schemas import load_schema
from cabo_log.log.words import Narrator
from cabo_log.play.line_text import TEXT_KINDS
from cabo_log.play.lines import line_bytes
from engine import LogSyntaxError, parse_event
from engine.events import CLASSES, FORMAT, Deal, Event, to_dict
from engine.spec import EVENT_TYPES, EVENTS, EventSpec, Field

ROOT = Path(__file__).resolve().parents[1]

SAMPLE: dict[str, list[Any]] = {
    "str": ["ana", "b\u00e9a", "x:y"], "card": ["7", "10H"], "int": [0, -3, 12345],
    "positions": [[0], [3, 1, 12]], "cards": [[], ["1", "13"]], "ids": [["ana", "bo"]],
    "slot": [["ana", 1]], "slot_pair": [[["ana", 0], ["bo", 10]]],
    "points": [{}, {"ana": 3, "bo": -100}], "hands": [{"ana": ["1", "2"], "bo": []}],
    "ruleset": ["edition1", {"base": "golf"}], "object": [{"target": 100}],
    "names": [{"ana": "Ana"}], "stamp": ["2026-01-01T00:00:00Z"],
}
"""A few JSON values of each shape (a colon, non-ASCII text, negative numbers, empty
containers: what the canonical sizes must count)."""

WRONG: dict[str, Any] = {
    "str": 7, "card": 7, "int": "7", "positions": [], "cards": "7", "ids": [1], "slot": ["a"],
    "slot_pair": [["a", 0]], "points": {"a": "1"}, "hands": [], "ruleset": 7, "object": [1],
    "names": "ana",
}
"""A value of the wrong shape for each (``stamp`` takes anything: a non-string is absent)."""


def lines_of(spec: EventSpec) -> list[dict[str, Any]]:
    """Lines of kind ``spec``: each field with each sample value, the optional ones present and
    absent, a field that depends on another present exactly when the other calls for it."""
    choices: list[list[tuple[str, Any] | None]] = []
    for field in spec.fields:
        values: list[Any] = list(field.choices) if field.choices else SAMPLE[field.json]
        options: list[tuple[str, Any] | None] = [(field.name, v) for v in values]
        if field.nullable:
            options.append((field.name, None))   # written out as null
        if field.absent_is_none:
            options.append(None)
        choices.append(options)
    found = []
    for combination in product(*choices):
        line: dict[str, Any] = {"type": spec.type, "seq": 4}
        line.update(pair for pair in combination if pair is not None)
        if all(fits(spec, field, line) for field in spec.fields):
            found.append(line)
    return found[:60]


def fits(spec: EventSpec, field: Field, line: dict[str, Any]) -> bool:
    if field.when is None:
        return True
    other, values = field.when
    return (field.name in line) == (line.get(other) in values)


def header(line: dict[str, Any]) -> dict[str, Any]:
    """The line as a header must be (its format), when it is one."""
    return {**line, "format": FORMAT} if line["type"] == "game" else line


def read_back(line: dict[str, Any]) -> dict[str, Any]:
    """What ``to_dict`` gives of the line's event: a header without options has empty ones."""
    return {"options": {}, **header(line)} if line["type"] == "game" else line


@pytest.mark.parametrize("spec", EVENTS, ids=lambda s: s.type)
def test_a_line_built_from_the_spec_reads_back_the_same_both_ways(spec: EventSpec) -> None:
    lines = lines_of(spec)
    assert lines
    for line in lines:
        raw = orjson.dumps(header(line))
        event = parse_line(raw)
        assert type(event) is CLASSES[spec.type] and event.seq == 4
        assert to_dict(event) == read_back(line)
        if spec.type == "game":
            continue   # the header is always read the exact way
        assert fast_event(raw) == event
        # strings counted by their characters (never more than their UTF-8 bytes)
        assert canonical_size(raw) == len(raw.decode()), raw
        auto = orjson.dumps({**line, "auto": True})
        assert canonical_size(auto) == len(auto.decode()) and fast_event(auto) == parse_line(auto)


@pytest.mark.parametrize("spec", [s for s in EVENTS if CLASSES[s.type] in TEXT_KINDS],
                         ids=lambda s: s.type)
def test_the_simulator_writes_what_orjson_writes(spec: EventSpec) -> None:
    kind = CLASSES[spec.type]
    for line in lines_of(spec):
        event = parse_line(orjson.dumps(line))
        values = event.values()[2:]
        for auto in (False, True):
            expected = orjson.dumps({**line, "auto": True} if auto else line)
            written = line_bytes(kind, 4, auto, values)
            assert written is None or written == expected   # None: a kind written as a dict


@pytest.mark.parametrize("spec", EVENTS, ids=lambda s: s.type)
def test_a_missing_or_mistyped_field_is_the_error_that_names_it(spec: EventSpec) -> None:
    line = header(lines_of(spec)[0])
    for field in spec.fields:
        if field.name not in line:
            continue
        if not field.absent_is_none and field.json != "object":
            without = {k: v for k, v in line.items() if k != field.name}
            with pytest.raises(LogSyntaxError) as missing:
                parse_event(without)
            assert missing.value.code == "missing_field"
            assert repr(field.name) in missing.value.message
        if field.json in WRONG:
            wrong = WRONG[field.json] if not field.choices else "nothing"
            with pytest.raises(LogSyntaxError) as bad:
                parse_event({**line, field.name: wrong})
            assert bad.value.code == "bad_field"
            assert f"{spec.type}: field {field.name!r}" in bad.value.message
            if field.choices:
                assert " or ".join(repr(c) for c in field.choices[-2:]) in bad.value.message


def test_every_kind_has_one_class_and_its_columns_are_the_databases() -> None:
    assert EVENT_TYPES == tuple(CLASSES) == tuple(spec.type for spec in EVENTS)
    assert len(set(EVENT_TYPES)) == len(EVENTS)
    columns = set(SCHEMAS["events"].names)
    for spec in EVENTS:
        cls: type[Event] = CLASSES[spec.type]
        assert cls.TYPE == spec.type and cls.__name__ == spec.name
        assert cls.FIELDS == ("seq", "auto", *(f.name for f in spec.fields))
        assert set(spec.columns) <= columns
        if spec.row:
            assert LAYOUTS[spec.type] == COMMON + spec.columns
        else:   # no row in the events table (a score sheet's round)
            assert spec.type not in LAYOUTS and not spec.columns


def test_the_generated_modules_are_current() -> None:
    """A change to the spec is followed by ``tools/gen_events.py``: what is checked in is
    exactly what it writes."""
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_events.py"), "--check"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


def test_a_deal_may_name_its_dealer() -> None:
    """``dealer`` (optional, not checked): the same game with and without it replays to the
    same report, and the story of the deal names who dealt."""
    plain = LogBuilder("edition1", ["ana", "bo"]).deal(
        {"ana": ["1", "2", "3", "4"], "bo": ["5", "5", "6", "6"]}, "10", ["7", "8"],
        first="ana").draw("ana", "deck").discard("ana").to_bytes()
    head, deal, rest = plain.split(b"\n", 2)
    dealt = orjson.loads(deal) | {"dealer": "bo"}
    assert b"dealer" not in plain
    named = b"\n".join([head, orjson.dumps(dealt), rest])
    assert replay_bytes(named).report() == replay_bytes(plain).report()
    event = parse_line(orjson.dumps(dealt))
    assert isinstance(event, Deal) and event.dealer == "bo"
    assert event == fast_event(orjson.dumps(dealt))
    assert to_dict(event) == dealt
    told = visit_bytes(named, Narrator())
    assert told[0].startswith("Round 1 is dealt by bo to ana and bo; ana plays first")
    assert visit_bytes(plain, Narrator())[0].startswith("Round 1 is dealt to ana and bo;")
    with pytest.raises(LogSyntaxError, match="deal: field 'dealer' must be a string, not 7"):
        parse_line(orjson.dumps(dealt | {"dealer": 7}))


def test_the_json_schema_describes_every_field_of_the_spec() -> None:
    """The shipped JSON Schema is written by hand (it says more than shapes: a hand has four
    cards, positions are distinct); every field of every kind is one of its properties."""
    defs = load_schema()["$defs"]
    for spec in EVENTS:
        described = defs[spec.type]
        if "$ref" in described and "properties" not in described:
            described = defs[described["$ref"].rsplit("/", 1)[1]]
        assert {f.name for f in spec.fields} <= set(described["properties"]), spec.type
