"""Every kind of event of format v1, declared once: its line ``type``, its fields with their
JSON type and whether they may be absent, and the columns its rows have in the database.

This is the one registry of event kinds. Everything else that spells a kind's fields out is
derived from it: ``tools/gen_events.py`` writes the event classes (``engine/events.py``), their
parsers (``engine/parsers.py``), the builders (``engine/builders.py``), the fast decoder's
msgspec structs and canonical line sizes (``cabo_log/log/fast_structs.py``) and the
simulator's line encoder (``cabo_log/play/line_text.py``) as plain code, which the compiled
build turns into native code; ``tests/test_event_spec.py`` fails when any of them is not what
the generator writes from this file. ``cabo_log/db/row_layout.py`` reads the columns here at
import. docs/engine-api.md, "How to add an event field", walks through a change.

The kinds are listed header first; the order of the others is the order in which the fast path
tests a decoded line's kind (the ``hot`` ones first) and the row stage writes their rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

JsonType = Literal[
    "str",        # a string
    "card",       # a card code (a string; the replay checks it is one of the deck's)
    "int",        # a whole number
    "positions",  # a non-empty list of whole numbers
    "cards",      # a list of card codes
    "ids",        # a list of player ids
    "slot",       # [player, position]
    "slot_pair",  # two [player, position] pairs
    "points",     # an object: player -> whole number
    "hands",      # an object: player -> list of card codes
    "ruleset",    # a built-in ruleset's name or an object of ruleset parameters
    "object",     # any JSON object
    "names",      # an object: player -> display name (other values are dropped)
    "stamp",      # a string, kept only when it is one (anything else reads as absent)
]
"""The shapes a field's JSON value may take; each has one reader (``engine.parsing``), one
msgspec type and one way to count and write its canonical bytes (``tools/gen_events.py``)."""


@dataclass(frozen=True)
class Field:
    """One field of a line: its key, its JSON shape, and whether the line may leave it out.

    ``choices`` restricts a string to a few words (the reader says which); ``words`` names the
    ``engine.vocabulary`` table that turns them into members of a str-Enum. ``when`` makes the
    field depend on another one: ``("power", ("swap",))`` is read (and required) only when the
    line's ``power`` is ``swap``, and is None otherwise, whatever the line holds. ``nullable``
    makes the key required with ``null`` a value of its own (None, written out as null)."""

    name: str
    json: JsonType
    optional: bool = False
    choices: tuple[str, ...] = ()
    words: str | None = None
    when: tuple[str, tuple[str, ...]] | None = None
    nullable: bool = False
    doc: str = ""

    @property
    def absent_is_none(self) -> bool:
        """Whether the event holds None when the line has no such key."""
        return self.optional or self.when is not None


@dataclass(frozen=True)
class EventSpec:
    """One kind of event: ``type`` (the line's ``type``), the event class's name, its fields
    after the ``seq`` and ``auto`` every line has, in the order of the class's constructor,
    and its own columns in the database's ``events`` table (``columns``: what the row stage,
    ``cabo_log.db.rows``, appends for it, the fields flattened and what the replay derived).
    ``hot`` marks the kinds that make up most lines (the fast path handles them inline).
    ``think_ms`` is how long a simulated player takes over it, at least and at most. ``row``
    is False for a kind that has no row in the ``events`` table (a score sheet's round)."""

    type: str
    name: str
    fields: tuple[Field, ...]
    columns: tuple[str, ...]
    doc: str
    hot: bool = False
    think_ms: tuple[int, int] = (0, 0)
    row: bool = True

    def field(self, name: str) -> Field:
        for field in self.fields:
            if field.name == name:
                return field
        raise KeyError(f"{self.type} has no field {name!r}")


COMMON_FIELDS: Final = ("seq", "auto")
"""The fields every event has, first: ``seq`` (int or None) and ``auto`` (bool)."""

_PLAYER = Field("player", "str", doc="the player's id")

RECORDS: Final = ("full", "tally")
"""The kinds of record a header may declare (format 1.1): every event, or a score sheet."""

EVENTS: Final[tuple[EventSpec, ...]] = (
    EventSpec(
        "game", "GameStart",
        (Field("game_id", "str"),
         Field("ruleset", "ruleset"),
         Field("options", "object", optional=True, doc="absent or null reads as {}"),
         Field("players", "ids"),
         Field("names", "names", optional=True),
         Field("started_at", "stamp", optional=True),
         Field("record", "str", optional=True, choices=RECORDS,
               doc="format 1.1: 'tally' for a score sheet; absent or 'full': every event")),
        (), "the header: the game, its ruleset and its players in seat order"),
    EventSpec(
        "draw", "Draw",
        (_PLAYER,
         Field("source", "str", choices=("deck", "discard"), words="SOURCES"),
         Field("card", "card", optional=True, doc="the card on top, a cross-check")),
        ("source",), "a turn starts: the player takes the top card of the deck or the discard "
        "pile", hot=True, think_ms=(1000, 6000)),
    EventSpec(
        "discard", "Discard", (_PLAYER,), ("discarded", "earned"),
        "the card drawn from the deck goes onto the discard pile", hot=True,
        think_ms=(500, 3000)),
    EventSpec(
        "replace", "Replace",
        (_PLAYER,
         Field("positions", "positions"),
         Field("into", "int", optional=True),
         Field("end", "str", optional=True, choices=("left", "right"))),
        ("positions", "into", "end_side", "success", "penalty", "discarded", "earned",
         "row_delta", "known_chosen"),
        "the drawn card replaces one or more of the player's own cards", hot=True,
        think_ms=(800, 5000)),
    EventSpec(
        "power", "Power",
        (_PLAYER,
         Field("power", "str", choices=("peek", "spy", "swap"), words="POWERS"),
         Field("target", "slot", when=("power", ("peek", "spy"))),
         Field("cards", "slot_pair", when=("power", ("swap",)))),
        ("power", "target_player", "target_position", "swap_player_a", "swap_position_a",
         "swap_player_b", "swap_position_b", "given", "received", "row_delta"),
        "the player uses the power of the card just discarded", hot=True,
        think_ms=(1500, 7000)),
    EventSpec(
        "skip", "Skip", (_PLAYER,), (), "the player declines the power just earned",
        think_ms=(300, 1500)),
    EventSpec(
        "cabo", "Cabo", (_PLAYER,), (), "the player calls Cabo at the start of a turn",
        think_ms=(1000, 4000)),
    EventSpec(
        "snap", "Snap", (_PLAYER, Field("position", "int")),
        ("position", "success", "penalty", "discarded", "row_delta"),
        "golf: a card matching the discard goes onto it, between turns",
        think_ms=(200, 1500)),
    EventSpec(
        "deal", "Deal",
        (Field("round", "int"),
         Field("first", "str"),
         Field("hands", "hands"),
         Field("discard", "card"),
         Field("deck", "cards"),
         Field("dealer", "str", optional=True,
               doc="who shuffled and dealt: a record of the table, not checked")),
        ("first_player",), "a round starts: every hand, the first face-up card, the deck",
        think_ms=(4000, 12000)),
    EventSpec(
        "peek", "Peek", (_PLAYER, Field("positions", "positions")), ("positions",),
        "the initial look at some of one's own cards", hot=True, think_ms=(800, 3000)),
    EventSpec(
        "reshuffle", "Reshuffle", (Field("deck", "cards"),), (),
        "the discard pile but its top card becomes the new deck", think_ms=(2000, 5000)),
    EventSpec(
        "forfeit", "Forfeit", (Field("player", "str"), Field("reason", "str", optional=True)),
        ("reason", "discarded"), "the player leaves the match", think_ms=(0, 60000)),
    EventSpec(
        "round_end", "RoundEnd", (Field("round", "int"), Field("points", "points")),
        ("claim",), "a recorder's claim of the points of a round, checked"),
    EventSpec(
        "game_end", "GameEnd", (Field("winners", "ids"), Field("scores", "points")),
        ("claim",), "a recorder's claim of the match's winners and totals, checked"),
    EventSpec(
        "tally", "Tally",
        (Field("round", "int"),
         Field("caller", "str", nullable=True, doc="who called Cabo; null when nobody did"),
         Field("hands", "hands", doc="the cards each player turned over, any number"),
         Field("end", "str", optional=True, choices=("cabo", "deck_empty")),
         Field("first", "str", optional=True)),
        (), "one round of a score sheet (format 1.1): the cards each player turned over at the "
        "end and who called; scored as a dealt round's end is (engine/tally.py)", row=False),
)
"""Every kind: the header first, then the order in which the fast path tests a line's kind and
the row stage lists their rows."""

BY_TYPE: Final[dict[str, EventSpec]] = {spec.type: spec for spec in EVENTS}
"""Line ``type`` -> its kind."""

EVENT_TYPES: Final[tuple[str, ...]] = tuple(BY_TYPE)
