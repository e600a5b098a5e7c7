"""Lists of legal moves the simulator hands out again and again, grouped by kind once.

Kept Python in the compiled build (setup.py): ``Listed`` is a ``tuple``
subclass, which mypyc cannot compile as a native class; a list is grouped once per match and
key, so nothing here runs per event.
"""

from __future__ import annotations

from collections.abc import Sequence

from .events import Event


def kind_of(move: Event) -> str:
    """The kind of a move, as ``RandomBot`` groups them: a draw by its source, a replacement
    of several cards as "multi", anything else by its type."""
    kind = move.TYPE
    if kind == "draw":
        return move.source  # type: ignore[attr-defined,no-any-return]
    if kind == "replace" and len(move.positions) > 1:  # type: ignore[attr-defined]
        return "multi"
    return kind


class Listed(tuple[Event, ...]):
    """A list of legal moves from ``engine.moves.legal_moves`` with its moves grouped by kind
    once (``kinds``), for lists the simulator hands out again and again."""

    groups: dict[str, Sequence[Event]] | None = None
    """The moves by kind, once ``kinds`` made them (read them, never change them)."""

    def kinds(self, row: Sequence[str | None] | None = None,
              values: dict[str, int] | None = None) -> dict[str, Sequence[Event]]:
        """The moves by kind (``kind_of``), in the list's order. Only for lists without
        multi-replacements (which depend on the row: ``Placements`` lists those)."""
        if self.groups is None:
            out: dict[str, list[Event]] = {}
            for move in self:
                out.setdefault(kind_of(move), []).append(move)
            if "multi" in out:
                raise ValueError("a list of placements: use Placements")
            self.groups = {k: tuple(v) for k, v in out.items()}
        return self.groups


__all__ = ["Listed", "kind_of"]
