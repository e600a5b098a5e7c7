"""Strict parsing of the events of format v1 from decoded JSON objects: ``parse_event``.

Parsing checks shape only (fields present, of the right JSON type); whether an event is
allowed at this point of the game is the state machine's business. Unknown extra fields are
ignored, as FORMAT.md promises for forward compatibility. Each event class's ``TYPE`` names
its parser in ``PARSERS``, the one registry of line types.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .errors import LogSyntaxError
from .events import (
    FORMAT,
    Cabo,
    Deal,
    Discard,
    Draw,
    Event,
    Forfeit,
    GameEnd,
    GameStart,
    Peek,
    Power,
    Replace,
    Reshuffle,
    RoundEnd,
    Skip,
    Slot,
    Snap,
    Tally,
)
from .vocabulary import POWERS, SOURCES, SWAP

# --- field readers --------------------------------------------------------------------------

def _fail(kind: str, name: str, what: str) -> LogSyntaxError:
    return LogSyntaxError("bad_field", f"{kind}: field {name!r} {what}")


def _get(obj: Mapping[str, Any], kind: str, name: str) -> Any:
    try:
        return obj[name]
    except KeyError:
        raise LogSyntaxError("missing_field", f"{kind} event has no {name!r} field") from None


def _str(obj: Mapping[str, Any], kind: str, name: str) -> str:
    value = _get(obj, kind, name)
    if type(value) is not str:
        raise _fail(kind, name, f"must be a string, not {_show(value)}")
    return value


def _opt_str(obj: Mapping[str, Any], kind: str, name: str) -> str | None:
    value = obj.get(name)
    if value is not None and type(value) is not str:
        raise _fail(kind, name, f"must be a string, not {_show(value)}")
    return value


def _int(obj: Mapping[str, Any], kind: str, name: str) -> int:
    value = _get(obj, kind, name)
    if type(value) is not int:
        raise _fail(kind, name, f"must be a whole number, not {_typed(value)}")
    return value


def _opt_int(obj: Mapping[str, Any], kind: str, name: str) -> int | None:
    value = obj.get(name)
    if value is not None and type(value) is not int:
        raise _fail(kind, name, f"must be a whole number, not {_typed(value)}")
    return value


def _ints(obj: Mapping[str, Any], kind: str, name: str) -> tuple[int, ...]:
    value = _get(obj, kind, name)
    if type(value) is not list or not value or any(type(v) is not int for v in value):
        raise _fail(kind, name, f"must be a non-empty list of positions, not {_show(value)}")
    return tuple(value)


def _codes(value: Any, kind: str, name: str) -> tuple[str, ...]:
    if type(value) is not list or any(type(v) is not str for v in value):
        raise _fail(kind, name, f"must be a list of card codes, not {_show(value)}")
    return tuple(value)


def _slot(value: Any, kind: str, name: str) -> Slot:
    if (type(value) is not list or len(value) != 2 or type(value[0]) is not str
            or type(value[1]) is not int):
        raise _fail(kind, name, f"must be [player, position], not {_show(value)}")
    return (value[0], value[1])


def _int_map(obj: Mapping[str, Any], kind: str, name: str) -> dict[str, int]:
    value = _get(obj, kind, name)
    if type(value) is not dict or any(type(v) is not int for v in value.values()):
        raise _fail(kind, name, f"must map players to whole numbers, not {_show(value)}")
    return value


def _typed(value: Any) -> str:
    """A value named with its JSON type where the bare repr misleads: '7' looks like 7."""
    if isinstance(value, str):
        return f"a string ({_show(value)})"
    if isinstance(value, bool):
        return "true" if value else "false"
    return _show(value)


def _show(value: Any) -> str:
    text = repr(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


# --- one parser per type --------------------------------------------------------------------

RECORDS = ("full", "tally")
"""The kinds of record a header may declare (format 1.1): every event, or a score sheet."""


def _game(o: Mapping[str, Any], seq: int | None, auto: bool) -> GameStart:
    fmt = _get(o, "game", "format")
    if fmt != FORMAT:
        raise LogSyntaxError("bad_format", f"format must be {FORMAT!r}, not {_show(fmt)}")
    ruleset = _get(o, "game", "ruleset")
    if type(ruleset) not in (str, dict):
        raise _fail("game", "ruleset", "must be a ruleset name or an object of parameters")
    options = o.get("options", {})
    if options is None:
        options = {}
    if type(options) is not dict:
        raise _fail("game", "options", f"must be an object, not {_show(options)}")
    players = _get(o, "game", "players")
    if type(players) is not list or any(type(p) is not str for p in players):
        raise _fail("game", "players", "must be a list of player ids")
    names = o.get("names")
    if names is not None and type(names) is not dict:
        raise _fail("game", "names", "must be an object")
    if names:  # display names are text; anything else in there is ignored
        names = {k: v for k, v in names.items() if type(v) is str}
    started = o.get("started_at")
    record = o.get("record")
    if record is not None and record not in RECORDS:
        raise _fail("game", "record", f"must be 'full' or 'tally', not {_show(record)}")
    return GameStart(seq, auto, _str(o, "game", "game_id"), ruleset, options, tuple(players),
                     names, started if isinstance(started, str) else None, record)



def _deal(o: Mapping[str, Any], seq: int | None, auto: bool) -> Deal:
    hands = _get(o, "deal", "hands")
    if type(hands) is not dict:
        raise _fail("deal", "hands", "must map players to their cards")
    parsed = {p: _codes(cards, "deal", f"hands.{p}") for p, cards in hands.items()}
    return Deal(seq, auto, _int(o, "deal", "round"), _str(o, "deal", "first"), parsed,
                _str(o, "deal", "discard"), _codes(_get(o, "deal", "deck"), "deal", "deck"))


def _player(o: Mapping[str, Any], kind: str) -> str:
    player = o.get("player")
    if type(player) is not str:
        return _str(o, kind, "player")
    return player


def _positions(o: Mapping[str, Any], kind: str) -> tuple[int, ...]:
    value = o.get("positions")
    if type(value) is list and value:
        for v in value:
            if type(v) is not int:
                break
        else:
            return tuple(value)
    return _ints(o, kind, "positions")


def _peek(o: Mapping[str, Any], seq: int | None, auto: bool) -> Peek:
    return Peek(seq, auto, _player(o, "peek"), _positions(o, "peek"))


def _draw(o: Mapping[str, Any], seq: int | None, auto: bool) -> Draw:
    raw = o.get("source")
    source = SOURCES.get(raw) if isinstance(raw, str) else None
    if source is None:
        raw = _str(o, "draw", "source")
        raise _fail("draw", "source", f"must be 'deck' or 'discard', not {_show(raw)}")
    card = o.get("card")
    if card is not None and type(card) is not str:
        card = _opt_str(o, "draw", "card")
    player = o.get("player")
    if type(player) is not str:
        player = _str(o, "draw", "player")
    return Draw(seq, auto, player, source, card)


def _discard(o: Mapping[str, Any], seq: int | None, auto: bool) -> Discard:
    player = o.get("player")
    if type(player) is not str:
        player = _str(o, "discard", "player")
    return Discard(seq, auto, player)


def _replace(o: Mapping[str, Any], seq: int | None, auto: bool) -> Replace:
    end = o.get("end")
    if end is not None and end != "left" and end != "right":
        end = _opt_str(o, "replace", "end")
        raise _fail("replace", "end", f"must be 'left' or 'right', not {_show(end)}")
    into = o.get("into")
    if into is not None and type(into) is not int:
        into = _opt_int(o, "replace", "into")
    return Replace(seq, auto, _player(o, "replace"), _positions(o, "replace"), into, end)


def _power(o: Mapping[str, Any], seq: int | None, auto: bool) -> Power:
    raw = o.get("power")
    power = POWERS.get(raw) if isinstance(raw, str) else None
    if power is None:
        raw = _str(o, "power", "power")
        raise _fail("power", "power", f"must be 'peek', 'spy' or 'swap', not {_show(raw)}")
    target: Slot | None = None
    cards: tuple[Slot, Slot] | None = None
    if power == SWAP:
        raw = _get(o, "power", "cards")
        if type(raw) is not list or len(raw) != 2:
            raise _fail("power", "cards", "must be two [player, position] pairs")
        cards = (_slot(raw[0], "power", "cards"), _slot(raw[1], "power", "cards"))
    else:
        target = _slot(_get(o, "power", "target"), "power", "target")
    return Power(seq, auto, _player(o, "power"), power, target, cards)


def _skip(o: Mapping[str, Any], seq: int | None, auto: bool) -> Skip:
    return Skip(seq, auto, _player(o, "skip"))


def _cabo(o: Mapping[str, Any], seq: int | None, auto: bool) -> Cabo:
    return Cabo(seq, auto, _player(o, "cabo"))


def _snap(o: Mapping[str, Any], seq: int | None, auto: bool) -> Snap:
    return Snap(seq, auto, _player(o, "snap"), _int(o, "snap", "position"))


def _reshuffle(o: Mapping[str, Any], seq: int | None, auto: bool) -> Reshuffle:
    return Reshuffle(seq, auto, _codes(_get(o, "reshuffle", "deck"), "reshuffle", "deck"))


def _forfeit(o: Mapping[str, Any], seq: int | None, auto: bool) -> Forfeit:
    return Forfeit(seq, auto, _str(o, "forfeit", "player"), _opt_str(o, "forfeit", "reason"))


def _round_end(o: Mapping[str, Any], seq: int | None, auto: bool) -> RoundEnd:
    return RoundEnd(seq, auto, _int(o, "round_end", "round"), _int_map(o, "round_end", "points"))


def _tally(o: Mapping[str, Any], seq: int | None, auto: bool) -> Tally:
    """A score sheet's round (format 1.1): ``caller`` is required and may be null."""
    caller = _get(o, "tally", "caller")
    if caller is not None and type(caller) is not str:
        raise _fail("tally", "caller", f"must be a player id or null, not {_show(caller)}")
    hands = _get(o, "tally", "hands")
    if type(hands) is not dict:
        raise _fail("tally", "hands", "must map players to the cards they turned over")
    parsed = {p: _codes(cards, "tally", f"hands.{p}") for p, cards in hands.items()}
    end = _opt_str(o, "tally", "end")
    if end is not None and end not in ("cabo", "deck_empty"):
        raise _fail("tally", "end", f"must be 'cabo' or 'deck_empty', not {_show(end)}")
    return Tally(seq, auto, _int(o, "tally", "round"), caller, parsed, end,
                 _opt_str(o, "tally", "first"))


def _game_end(o: Mapping[str, Any], seq: int | None, auto: bool) -> GameEnd:
    winners = _get(o, "game_end", "winners")
    if type(winners) is not list or any(type(w) is not str for w in winners):
        raise _fail("game_end", "winners", "must be a list of player ids")
    return GameEnd(seq, auto, tuple(winners), _int_map(o, "game_end", "scores"))


Parser = Callable[[Mapping[str, Any], int | None, bool], Event]
PARSERS: dict[str, Parser] = {cls.TYPE: parser for cls, parser in (
    (GameStart, _game), (Deal, _deal), (Peek, _peek), (Draw, _draw), (Discard, _discard),
    (Replace, _replace), (Power, _power), (Skip, _skip), (Cabo, _cabo), (Snap, _snap),
    (Reshuffle, _reshuffle), (Forfeit, _forfeit), (RoundEnd, _round_end),
    (GameEnd, _game_end), (Tally, _tally))}
"""The one registry of event types: each class's ``TYPE`` -> the parser that builds it."""

EVENT_TYPES: tuple[str, ...] = tuple(PARSERS)


def parse_event(obj: Any) -> Event:
    """A JSON value (already decoded) -> one typed event, or LogSyntaxError."""
    if type(obj) is not dict:
        raise LogSyntaxError("not_object", f"a line must be a JSON object, not {_show(obj)}")
    kind = obj.get("type")
    try:
        parser = PARSERS[kind]  # type: ignore[index]
    except (KeyError, TypeError):
        if "type" not in obj:
            raise LogSyntaxError("missing_field", "event has no 'type' field") from None
        raise LogSyntaxError("unknown_type", f"unknown event type {_show(kind)}") from None
    seq = obj.get("seq")
    if seq is not None and (type(seq) is not int or seq < 0):
        raise LogSyntaxError("bad_field", f"{kind}: field 'seq' must be a whole number >= 0")
    auto = obj.get("auto", False)
    if auto is not False and auto is not True:
        raise LogSyntaxError("bad_field", f"{kind}: field 'auto' must be true or false")
    return parser(obj, seq, auto)


