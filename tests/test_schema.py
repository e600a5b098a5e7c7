"""The shipped JSON Schema accepts the FORMAT.md examples and rejects malformed lines."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from cabo_log.log.schemas import load_schema, schema_text


def _edition_deck() -> list[str]:
    """The 52-card Cabo deck: 0 x2, 1..12 x4, 13 x2."""
    counts = {0: 2, 13: 2, **{v: 4 for v in range(1, 13)}}
    return [str(v) for v, n in counts.items() for _ in range(n)]


def _deal_deck() -> list[str]:
    """The draw pile of the FORMAT.md deal example, completed to a real deck (top first)."""
    hands = ["3", "12", "7", "0", "5", "5", "9", "13", "1", "11", "2", "8"]
    rest = Counter(_edition_deck())
    rest.subtract(hands + ["6"])
    top = ["9", "1", "4"]
    rest.subtract(top)
    assert all(n >= 0 for n in rest.values())
    return top + sorted(rest.elements(), key=int)


DEAL: dict[str, Any] = {
    "type": "deal",
    "round": 1,
    "first": "ana",
    "hands": {
        "ana": ["3", "12", "7", "0"],
        "bruno": ["5", "5", "9", "13"],
        "carla": ["1", "11", "2", "8"],
    },
    "discard": "6",
    "deck": _deal_deck(),
}

# The example block of FORMAT.md, one event per line ("..." decks made real).
FORMAT_EXAMPLES = [
    '{"type":"game","format":"cabo-log/1","game_id":"g-0001","ruleset":"edition2","options":{},'
    '"players":["ana","bruno","carla"],"started_at":"2026-11-29T20:00:00Z"}',
    json.dumps(DEAL),
    '{"type":"peek","player":"ana","positions":[0,1]}',
    '{"type":"draw","player":"ana","source":"deck","card":"9"}',
    '{"type":"discard","player":"ana"}',
    '{"type":"power","player":"ana","power":"spy","target":["bruno",2]}',
    '{"type":"draw","player":"bruno","source":"discard"}',
    '{"type":"replace","player":"bruno","positions":[0,1],"into":0}',
    '{"type":"cabo","player":"carla"}',
    '{"type":"snap","player":"bruno","position":2}',
    '{"type":"reshuffle","deck":["2","10","7","4","13"]}',
    '{"type":"forfeit","player":"carla","reason":"disconnected"}',
    '{"type":"round_end","round":1,"points":{"ana":14,"bruno":0,"carla":21}}',
    '{"type":"game_end","winners":["bruno"],"scores":{"ana":104,"bruno":37,"carla":88}}',
    # format 1.1: a score sheet's header (no options: they may be left out) and a tally line
    '{"type":"game","format":"cabo-log/1","seq":0,"game_id":"kitchen-2026-12-03",'
    '"ruleset":"edition2","players":["ana","bruno","carla"],"record":"tally","chain":"sha256"}',
    '{"type":"tally","seq":1,"round":1,"caller":"bruno","hands":{"ana":["7","2","13","5"],'
    '"bruno":["1","3","2"],"carla":["12","12","13","13"]},"h":"' + "0" * 64 + '"}',
]

# Further valid lines exercising optional fields and the other variants.
MORE_VALID: list[dict[str, Any]] = [
    {"type": "tally", "round": 2, "caller": None, "hands": {"a": ["KH", "2S"], "b": []},
     "end": "deck_empty", "first": "b"},
    {
        "type": "game",
        "format": "cabo-log/1",
        "game_id": "g-2",
        "ruleset": {"base": "golf"},
        "options": {
            "target": 50,
            "decks": 2,
            "jokers": True,
            "open_peek": False,
            "no_snap": False,
            "kamikaze": True,
            "future_option": "kept",
        },
        "players": ["a", "b"],
        "names": {"a": "Ana", "b": "Bruno"},
    },
    {"type": "draw", "player": "a", "source": "deck", "seq": 3, "t": 1520.5, "auto": True},
    {"type": "draw", "player": "a", "source": "deck", "t": "2026-11-29T20:00:01Z"},
    {"type": "power", "player": "a", "power": "peek", "target": ["a", 3]},
    {"type": "power", "player": "a", "power": "swap", "cards": [["a", 0], ["b", 3]]},
    {"type": "replace", "player": "a", "positions": [3, 1, 2], "into": 1, "end": "left"},
    {"type": "skip", "player": "a"},
    {"type": "forfeit", "player": "b"},
    {"type": "game_end", "winners": [], "scores": {"a": -1, "b": 12}},
    {"type": "cabo", "player": "a", "some_future_field": [1, 2, 3]},
]

INVALID: list[tuple[str, dict[str, Any]]] = [
    ("unknown type", {"type": "shuffle", "player": "ana"}),
    ("missing type", {"player": "ana"}),
    ("draw without player", {"type": "draw", "source": "deck"}),
    ("bad draw source", {"type": "draw", "player": "ana", "source": "hand"}),
    (
        "one player",
        {
            "type": "game",
            "format": "cabo-log/1",
            "game_id": "g",
            "ruleset": "golf",
            "options": {},
            "players": ["ana"],
        },
    ),
    (
        "duplicate players",
        {
            "type": "game",
            "format": "cabo-log/1",
            "game_id": "g",
            "ruleset": "golf",
            "options": {},
            "players": ["ana", "ana"],
        },
    ),
    (
        "wrong format",
        {
            "type": "game",
            "format": "cabo-log/2",
            "game_id": "g",
            "ruleset": "golf",
            "options": {},
            "players": ["a", "b"],
        },
    ),
    (
        "bad decks option",
        {
            "type": "game",
            "format": "cabo-log/1",
            "game_id": "g",
            "ruleset": "golf",
            "options": {"decks": 3},
            "players": ["a", "b"],
        },
    ),
    ("negative seq", {"type": "cabo", "player": "ana", "seq": -1}),
    ("string seq", {"type": "cabo", "player": "ana", "seq": "1"}),
    ("bool auto as string", {"type": "cabo", "player": "ana", "auto": "yes"}),
    ("negative position", {"type": "snap", "player": "ana", "position": -1}),
    ("hand of 3", {**DEAL, "hands": {"ana": ["1", "2", "3"]}}),
    ("numeric card", {"type": "draw", "player": "ana", "source": "deck", "card": 9}),
    ("spy without target", {"type": "power", "player": "ana", "power": "spy"}),
    (
        "swap with one card",
        {"type": "power", "player": "ana", "power": "swap", "cards": [["ana", 0]]},
    ),
    (
        "swap with target",
        {
            "type": "power",
            "player": "ana",
            "power": "swap",
            "cards": [["ana", 0], ["bruno", 1]],
            "target": ["bruno", 1],
        },
    ),
    ("target triple", {"type": "power", "player": "ana", "power": "peek", "target": ["ana", 0, 1]}),
    ("bad end", {"type": "replace", "player": "ana", "positions": [0], "end": "middle"}),
    ("empty replace", {"type": "replace", "player": "ana", "positions": []}),
    ("round 0", {"type": "round_end", "round": 0, "points": {"ana": 1}}),
    ("record neither full nor tally", {"type": "game", "format": "cabo-log/1", "game_id": "g",
                                       "ruleset": "golf", "players": ["a", "b"],
                                       "record": "summary"}),
    ("chain not sha256", {"type": "game", "format": "cabo-log/1", "game_id": "g",
                          "ruleset": "golf", "players": ["a", "b"], "chain": "md5"}),
    ("tally without caller", {"type": "tally", "round": 1, "hands": {"a": ["1"]}}),
    ("tally caller a number", {"type": "tally", "round": 1, "caller": 3,
                               "hands": {"a": ["1"]}}),
    ("tally card a number", {"type": "tally", "round": 1, "caller": None,
                             "hands": {"a": [1]}}),
    ("tally ended by forfeit", {"type": "tally", "round": 1, "caller": "a",
                                "hands": {"a": ["1"]}, "end": "forfeit"}),
]


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    return Draft202012Validator(load_schema())


def test_schema_is_valid_draft_2020_12() -> None:
    schema = load_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith("cabo-log-1.schema.json")
    Draft202012Validator.check_schema(schema)
    assert json.loads(schema_text()) == schema


def test_example_deal_is_a_whole_deck() -> None:
    cards = [c for hand in DEAL["hands"].values() for c in hand] + [DEAL["discard"]] + DEAL["deck"]
    assert Counter(cards) == Counter(_edition_deck())


@pytest.mark.parametrize("line", FORMAT_EXAMPLES, ids=lambda s: json.loads(s)["type"])
def test_format_examples_are_valid(validator: Draft202012Validator, line: str) -> None:
    errors = [e.message for e in validator.iter_errors(json.loads(line))]
    assert errors == []


@pytest.mark.parametrize("event", MORE_VALID, ids=lambda e: e["type"])
def test_more_valid_lines(validator: Draft202012Validator, event: dict[str, Any]) -> None:
    errors = [e.message for e in validator.iter_errors(event)]
    assert errors == []


@pytest.mark.parametrize("event", [e for _, e in INVALID], ids=[name for name, _ in INVALID])
def test_invalid_lines_are_rejected(validator: Draft202012Validator, event: dict[str, Any]) -> None:
    assert not validator.is_valid(event)


def test_every_event_type_has_an_example() -> None:
    types = set(load_schema()["properties"]["type"]["enum"])
    covered = {json.loads(line)["type"] for line in FORMAT_EXAMPLES}
    covered |= {event["type"] for event in MORE_VALID}
    assert covered == types
