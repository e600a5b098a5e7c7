"""The one registry of event kinds: every event class has exactly one handler, declared next
to it with ``@handles``, and ``apply`` reaches it; outcomes answer every field."""

from __future__ import annotations

import pytest

import engine.game  # noqa: F401  (importing it registers every handler)
from engine import GameState, events
from engine.dispatch import HANDLERS, handles
from engine.events import Event
from engine.outcome import FIELDS, NOTHING, Outcome
from engine.parsing import PARSERS


def _event_classes() -> set[type[Event]]:
    """The event classes engine/events.py defines (``__subclasses__`` would also list the
    classes that ``dataclass(slots=True)`` replaced)."""
    return {value for value in vars(events).values()
            if isinstance(value, type) and issubclass(value, Event) and value is not Event}


def test_every_event_class_has_exactly_one_handler() -> None:
    classes = _event_classes()
    assert len(classes) == 15   # 13 events, the header and the score sheet's tally
    assert set(HANDLERS) == classes
    assert len(set(HANDLERS.values())) == len(classes)   # no handler serves two kinds
    assert {cls.TYPE for cls in classes} == set(PARSERS)


def test_the_kinds_apply_calls_by_name_reach_their_registered_handlers() -> None:
    """``engine.apply`` calls the most frequent handlers by name (compiled: a native
    call); each must be the one its kind registered."""
    assert engine.game.DIRECT
    for kind, handler in engine.game.DIRECT.items():
        assert HANDLERS[kind] is handler, kind.__name__


def test_a_second_handler_for_a_kind_is_refused() -> None:
    draw = next(cls for cls in HANDLERS if cls.TYPE == "draw")
    before = dict(HANDLERS)

    def another(g: GameState, e: Event) -> Outcome:
        return NOTHING

    with pytest.raises(TypeError, match="Draw events already have a handler: draw"):
        handles(draw)(another)
    assert HANDLERS == before


def test_every_outcome_record_answers_every_field() -> None:
    """Each record sets only its own slots; the rest must read the base class's defaults."""
    records = {cls: tuple(vars(cls)["__slots__"]) for cls in _outcome_classes()}
    assert len(records) >= 12
    for cls, slots in records.items():
        assert slots, f"{cls.__name__} stores nothing"
        for name in slots:
            assert name in FIELDS, f"{cls.__name__}.{name} is not an Outcome field"
    for name in FIELDS:
        assert hasattr(Outcome, name)
    assert repr(NOTHING) == "Outcome()"


def _outcome_classes() -> list[type[Outcome]]:
    found: list[type[Outcome]] = []
    todo: list[type[Outcome]] = [Outcome]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.append(sub)
            todo.append(sub)
    return found
