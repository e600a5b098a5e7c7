"""The layout of the ``events`` rows a load builds: the columns every event has (``COMMON``),
each event kind's own (``OWN``, checked against the ``events`` schema when this module loads),
the width and order of each kind's flat rows (``LAYOUTS``), and the flat lists many games' rows
are written into (``RowSink``). ``rows.GameRows`` appends in this layout; ``chunk`` and
``event_tables`` read it. It is compiled with ``rows`` by the optional mypyc build (``RowSink``
a native class that the compiled visitor appends to directly).
"""

from __future__ import annotations

from typing import Any

from cabo_log.db.schema import SCHEMAS
from engine import Event, GameStart
from engine.events import (
    Cabo,
    Deal,
    Discard,
    Draw,
    Forfeit,
    GameEnd,
    Peek,
    Power,
    Replace,
    Reshuffle,
    RoundEnd,
    Skip,
    Snap,
)

# the columns every event has, in the order ``GameRows._common`` appends them
# (``t_ms``/``t_iso`` are filled by ``chunk`` from ``times``: few logs carry timestamps)
COMMON = ("seq", "line", "round", "turn", "player", "auto", "card", "value", "deck_left",
          "implicit_skip", "round_ended")
Row = tuple[Any, ...]
# the string columns whose values the rows hold as numbers into the game's ``GameRows.names``
# (``open_rows.Names``; 0: NULL): ``chunk`` turns them into Arrow in C (bytes, then a ``take``
# from the names)
CODED: frozenset[str] = frozenset({"player", "card", "source"})
Flat = list[Any]   # the rows of one event kind, value after value (``LAYOUTS`` gives the width)

# each event kind's own columns: what its handler (``GameRows._draw`` ...) appends, the
# event's own fields flattened, and what the replay derived of it; in this order the kinds'
# rows come out (``GameRows.events``)
OWN: dict[type[Event], tuple[str, ...]] = {
    Draw: ("source",),
    Discard: ("discarded", "earned"),
    Replace: ("positions", "into", "end_side", "success", "penalty", "discarded", "earned",
              "row_delta", "known_chosen"),
    Power: ("power", "target_player", "target_position", "swap_player_a", "swap_position_a",
            "swap_player_b", "swap_position_b", "given", "received", "row_delta"),
    Skip: (),
    Cabo: (),
    Snap: ("position", "success", "penalty", "discarded", "row_delta"),
    Deal: ("first_player",),
    Peek: ("positions",),
    Reshuffle: (),
    Forfeit: ("reason", "discarded"),
    RoundEnd: ("claim",),
    GameEnd: ("claim",),
}


def _check_own() -> None:
    """Every declared column is an ``events`` column (a typo fails at import)."""
    names = set(SCHEMAS["events"].names)
    for kind, columns in OWN.items():
        unknown = set(columns) - names
        if unknown:
            raise AssertionError(f"{kind.TYPE}: no such events columns {sorted(unknown)}")


_check_own()

# event type -> the columns of its rows (the header is a ``game`` event with none of its own)
LAYOUTS: dict[str, tuple[str, ...]] = {
    GameStart.TYPE: COMMON, **{cls.TYPE: COMMON + columns for cls, columns in OWN.items()}}


class RowSink:
    """The flat lists the rows of many games are appended to, one game at a time: each event
    kind's (``kinds``, in ``LAYOUTS`` order) and the ``powers`` rows. A ``chunk.Chunk`` hands
    its sink to each game's ``GameRows``, which appends in place: no per-game lists to grow
    and then copy into the chunk's, and free. A game's rows are kept by ``commit``; the next
    game (or ``rollback``) drops the rows of a game that was not committed (a rejected log)."""

    def __init__(self) -> None:
        self.kinds: list[Flat] = [[] for _ in LAYOUTS]
        self.powers: Flat = []
        self.committed: list[int] = [0] * (len(LAYOUTS) + 1)   # the kinds', then powers'

    def rollback(self) -> None:
        """Drop what was appended since the last ``commit``."""
        lists = [*self.kinds, self.powers]
        for i, n in enumerate(self.committed):
            rows = lists[i]
            if len(rows) > n:
                del rows[n:]

    def commit(self) -> None:
        """Keep what was appended: the rows of a game that is loaded."""
        self.committed = [len(rows) for rows in (*self.kinds, self.powers)]
