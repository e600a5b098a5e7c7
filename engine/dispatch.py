"""The registry of what each kind of event does (the kinds themselves and their fields are
``engine/spec.py``'s): a handler declares the event class it handles with ``@handles(Draw)``
where it is defined, and ``apply`` looks the handler up by the event's class. There is no
second table to keep in step: a new kind needs its ``EventSpec`` and one ``@handles``
declaration, and ``tests/test_dispatch.py`` fails for a class without (or with two) handlers.

The most frequent handlers (``engine.game.DIRECT``) are declared by a call after the function,
``handles(Draw)(draw)``, not as a decorator: compiled, a decorated function is reached only
through the module's namespace and a generic call, while ``apply`` calls these by name, as
native calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

from .events import Event
from .outcome import Outcome
from .state import GameState

E = TypeVar("E", bound=Event)
Handler = Callable[[GameState, Any], Outcome]

HANDLERS: Final[dict[type[Event], Handler]] = {}
"""Event class -> its handler, filled by the ``@handles`` declarations as the handler modules
are imported (``engine.game`` imports them all)."""


def handles(kind: type[E]) -> Callable[[Callable[[GameState, E], Outcome]],
                                       Callable[[GameState, E], Outcome]]:
    """Declare the decorated function the handler of events of class ``kind``."""
    def register(handler: Callable[[GameState, E], Outcome]) -> Callable[[GameState, E], Outcome]:
        if kind in HANDLERS:
            raise TypeError(f"{kind.__name__} events already have a handler: "
                            f"{HANDLERS[kind].__qualname__}")
        HANDLERS[kind] = handler
        return handler
    return register
