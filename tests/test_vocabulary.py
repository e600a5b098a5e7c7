"""Domain words are str-Enum members inside the program and plain strings in every output."""

from __future__ import annotations

import json

import pytest

from engine import DrawSource, ExactReset, PowerKind, RulesetError, parse_event, resolve
from engine.events import to_dict


def test_parsed_events_carry_members_and_write_back_the_same_json() -> None:
    draw = parse_event({"type": "draw", "player": "ann", "source": "discard"})
    power = parse_event({"type": "power", "player": "ann", "power": "spy",
                         "target": ["bob", 2]})
    assert draw.source is DrawSource.DISCARD  # type: ignore[attr-defined]
    assert power.power is PowerKind.SPY       # type: ignore[attr-defined]
    assert json.dumps(to_dict(draw)) == \
        '{"type": "draw", "player": "ann", "source": "discard"}'
    assert parse_event(to_dict(power)) == power


def test_house_rules_read_reset_modes_and_powers_as_members() -> None:
    rules = resolve({"base": "edition1", "exact_reset": "once", "powers": {"5": "swap"}}, {})
    assert rules.exact_reset is ExactReset.ONCE
    assert rules.power_table() == {5: PowerKind.SWAP}
    assert rules.parameters()["exact_reset"] == "once"
    with pytest.raises(RulesetError, match="exact_reset must be 'never', 'always' or 'once'"):
        resolve({"exact_reset": "sometimes"}, {})
    with pytest.raises(RulesetError, match="'exact_reset' must be a string, not 3"):
        resolve({"exact_reset": 3}, {})
    with pytest.raises(RulesetError, match="unknown power 'fly'"):
        resolve({"powers": {"5": "fly"}}, {})
