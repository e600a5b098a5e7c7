"""Observations computed as they are read, for the pure-Python simulator (``Observer``).

An observation handed out here is an ``Observation`` whose fields are computed when first
read, in three groups (the rows; the discard pile; the rest), so a bot that reads only its own
row (``random``) pays for that alone. Once complete it becomes a plain ``Observation`` (its
class is switched), equal to the engine's and indistinguishable from it.

Kept Python in the compiled build (setup.py), and unused there: a compiled
``Observation`` is a native class, without ``__dict__`` and closed to subclasses, whose
constructor is cheap enough to build every observation whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.knowledge import Observation

if TYPE_CHECKING:
    from cabo_log.play.state_access import Observer

_set = object.__setattr__
_blank = object.__new__


class _Lazy(Observation):
    """An ``Observation`` whose fields are computed when first read: each field is a property
    that computes its group."""

    def _compute(self, name: str) -> None:
        """Compute the group of field ``name``."""
        known = self.__dict__
        observer: Observer = known["_observer"]
        if name == "rows":
            known["rows"] = observer.rows(known["me"], known["_own_row_only"])
        elif name == "discard":
            known["discard"] = observer.discard()
        else:
            known.update(observer.rest(known["me"]))
        if len(known) == _COMPLETE:
            del known["_observer"], known["_own_row_only"]
            _set(self, "__class__", Observation)

    def fill(self) -> None:
        """Compute every field still missing (before the state moves on)."""
        for name in ("rows", "discard", "players"):
            if name not in self.__dict__:
                self._compute(name)

    def __eq__(self, other: object) -> bool:
        self.fill()
        return self == other

    __hash__ = None


def _lazy_field(name: str) -> property:
    def get(self: _Lazy) -> Any:
        known = self.__dict__
        if name not in known:
            self._compute(name)
        return known[name]
    return property(get, doc=f"``{name}``, computed when first read")


for _name in Observation.FIELDS:
    if _name != "me":
        setattr(_Lazy, _name, _lazy_field(_name))

_COMPLETE = len(Observation.FIELDS) + 2   # every field, the observer and its flag


def lazy_observation(observer: Observer, player: str, own_row_only: bool = False
                     ) -> Observation:
    """``player``'s observation, its fields computed by ``observer`` when first read (only
    the player's own row in ``rows`` with ``own_row_only``: ``Observer.observe``)."""
    obs = _blank(Observation)   # made as the engine's class, then switched
    _set(obs, "__dict__", {"me": player, "_observer": observer,
                           "_own_row_only": own_row_only})
    _set(obs, "__class__", _Lazy)
    return obs


def fill(obs: Observation) -> None:
    """Complete ``obs`` if it is still being computed."""
    if isinstance(obs, _Lazy):
        obs.fill()


def lazy_possible() -> bool:
    """Whether observations can be lazy: not when the engine is compiled."""
    try:
        obs = _blank(Observation)
        _set(obs, "__dict__", {})
        _set(obs, "__class__", _Lazy)
    except (TypeError, AttributeError):
        return False
    return True


__all__ = ["fill", "lazy_observation", "lazy_possible"]
