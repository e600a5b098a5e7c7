"""The field readers of the strict parser: one per JSON shape of ``engine.spec.JsonType``, each
returning the field's value or raising the ``LogSyntaxError`` that names the field and what it
must be. The parsers ``engine/parsers.py`` holds (generated from ``engine/spec.py``) call them;
for the commonest shapes they test the value inline first and call a reader only to word the
error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from .errors import LogSyntaxError

Slot = tuple[str, int]
T = TypeVar("T")


def fail(kind: str, name: str, what: str) -> LogSyntaxError:
    return LogSyntaxError("bad_field", f"{kind}: field {name!r} {what}")


def get(obj: Mapping[str, Any], kind: str, name: str) -> Any:
    try:
        return obj[name]
    except KeyError:
        raise LogSyntaxError("missing_field", f"{kind} event has no {name!r} field") from None


def read_str(obj: Mapping[str, Any], kind: str, name: str) -> str:
    value = get(obj, kind, name)
    if type(value) is not str:
        raise fail(kind, name, f"must be a string, not {show(value)}")
    return value


def read_opt_str(obj: Mapping[str, Any], kind: str, name: str) -> str | None:
    value = obj.get(name)
    if value is not None and type(value) is not str:
        raise fail(kind, name, f"must be a string, not {show(value)}")
    return value


def read_nullable_str(obj: Mapping[str, Any], kind: str, name: str) -> str | None:
    """A key the line must have, a string or null."""
    value = get(obj, kind, name)
    if value is not None and type(value) is not str:
        raise fail(kind, name, f"must be a string or null, not {show(value)}")
    return value


def read_int(obj: Mapping[str, Any], kind: str, name: str) -> int:
    value = get(obj, kind, name)
    if type(value) is not int:
        raise fail(kind, name, f"must be a whole number, not {typed(value)}")
    return value


def read_opt_int(obj: Mapping[str, Any], kind: str, name: str) -> int | None:
    value = obj.get(name)
    if value is not None and type(value) is not int:
        raise fail(kind, name, f"must be a whole number, not {typed(value)}")
    return value


def read_choice(obj: Mapping[str, Any], kind: str, name: str, words: Mapping[str, T],
                optional: bool) -> T | None:
    """One of a few words (``words``: each word -> what the event holds for it)."""
    raw = obj.get(name)
    if raw is None and optional:
        return None
    found = words.get(raw) if isinstance(raw, str) else None
    if found is None:
        raw = read_opt_str(obj, kind, name) if optional else read_str(obj, kind, name)
        raise fail(kind, name, f"must be {either(tuple(words))}, not {show(raw)}")
    return found


def either(words: tuple[str, ...]) -> str:
    """``'a', 'b' or 'c'``."""
    quoted = [repr(word) for word in words]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def read_positions(obj: Mapping[str, Any], kind: str, name: str) -> tuple[int, ...]:
    value = obj.get(name)
    if type(value) is list and value:
        for v in value:
            if type(v) is not int:
                break
        else:
            return tuple(value)
    value = get(obj, kind, name)
    raise fail(kind, name, f"must be a non-empty list of positions, not {show(value)}")


def codes(value: Any, kind: str, name: str) -> tuple[str, ...]:
    if type(value) is not list or any(type(v) is not str for v in value):
        raise fail(kind, name, f"must be a list of card codes, not {show(value)}")
    return tuple(value)


def read_cards(obj: Mapping[str, Any], kind: str, name: str) -> tuple[str, ...]:
    return codes(get(obj, kind, name), kind, name)


def read_ids(obj: Mapping[str, Any], kind: str, name: str) -> tuple[str, ...]:
    value = get(obj, kind, name)
    if type(value) is not list or any(type(v) is not str for v in value):
        raise fail(kind, name, "must be a list of player ids")
    return tuple(value)


def slot(value: Any, kind: str, name: str) -> Slot:
    if (type(value) is not list or len(value) != 2 or type(value[0]) is not str
            or type(value[1]) is not int):
        raise fail(kind, name, f"must be [player, position], not {show(value)}")
    return (value[0], value[1])


def read_slot(obj: Mapping[str, Any], kind: str, name: str) -> Slot:
    return slot(get(obj, kind, name), kind, name)


def read_slot_pair(obj: Mapping[str, Any], kind: str, name: str) -> tuple[Slot, Slot]:
    value = get(obj, kind, name)
    if type(value) is not list or len(value) != 2:
        raise fail(kind, name, "must be two [player, position] pairs")
    return (slot(value[0], kind, name), slot(value[1], kind, name))


def read_points(obj: Mapping[str, Any], kind: str, name: str) -> dict[str, int]:
    value = get(obj, kind, name)
    if type(value) is not dict or any(type(v) is not int for v in value.values()):
        raise fail(kind, name, f"must map players to whole numbers, not {show(value)}")
    return value


def read_hands(obj: Mapping[str, Any], kind: str, name: str) -> dict[str, tuple[str, ...]]:
    hands = get(obj, kind, name)
    if type(hands) is not dict:
        raise fail(kind, name, "must map players to their cards")
    return {p: codes(cards, kind, f"{name}.{p}") for p, cards in hands.items()}


def read_ruleset(obj: Mapping[str, Any], kind: str, name: str) -> str | dict[str, Any]:
    value = get(obj, kind, name)
    if type(value) not in (str, dict):
        raise fail(kind, name, "must be a ruleset name or an object of parameters")
    return value  # type: ignore[no-any-return]


def read_object(obj: Mapping[str, Any], kind: str, name: str) -> dict[str, Any]:
    """An object; absent or null reads as the empty one."""
    value = obj.get(name)
    if value is None:
        return {}
    if type(value) is not dict:
        raise fail(kind, name, f"must be an object, not {show(value)}")
    return value


def read_names(obj: Mapping[str, Any], kind: str, name: str) -> dict[str, Any] | None:
    """Display names: an object whose text values are kept (anything else in it is
    ignored)."""
    names = obj.get(name)
    if names is not None and type(names) is not dict:
        raise fail(kind, name, "must be an object")
    if names:
        return {k: v for k, v in names.items() if type(v) is str}
    return names


def read_stamp(obj: Mapping[str, Any], kind: str, name: str) -> str | None:
    """A string when the line has one there; anything else reads as absent."""
    value = obj.get(name)
    return value if isinstance(value, str) else None


def typed(value: Any) -> str:
    """A value named with its JSON type where the bare repr misleads: '7' looks like 7."""
    if isinstance(value, str):
        return f"a string ({show(value)})"
    if isinstance(value, bool):
        return "true" if value else "false"
    return show(value)


def show(value: Any) -> str:
    text = repr(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."
