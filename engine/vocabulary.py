"""The game's words that logs, reports and JSON spell out, as str-Enums.

Each member *is* its string (``PowerKind.PEEK == "peek"``, ``json.dumps`` and f-strings give
``"peek"``), so the log format, the JSON output and the golden playthroughs read exactly as
before, while code compares against members that mypy checks instead of bare strings.
Compare with ``==``, never ``is``: a value read by a decoder outside the engine may be the
plain string.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class PowerKind(StrEnum):
    """What a discarded card lets its player do (the ruleset's power table says which)."""

    PEEK = "peek"     # look at one of one's own cards
    SPY = "spy"       # look at another player's card
    SWAP = "swap"     # exchange two cards, unseen


class DrawSource(StrEnum):
    """Where a turn's card comes from."""

    DECK = "deck"         # the top of the draw pile, seen only by the drawer
    DISCARD = "discard"   # the top of the discard pile, public; it must replace a card


class Arrival(StrEnum):
    """How the card in a row's slot got there: public at a real table, where everyone sees
    which slot a player fills with the card they drew (and from which pile), and which
    cards a swap exchanges. Its value stays hidden; only the slot's history is seen."""

    DEALT = "dealt"       # dealt there at the start of the round
    KEPT = "kept"         # its owner drew it from the deck, saw it, and put it there
    TAKEN = "taken"       # its owner took it from the discard pile (its value is public)
    SWAPPED = "swapped"   # its owner's swap brought it here from another player's row
    GIVEN = "given"       # another player's swap put it here
    PENALTY = "penalty"   # a penalty card from the draw pile, unseen


class ExactReset(StrEnum):
    """What happens to a player whose match total is exactly the target (RULES.md)."""

    NEVER = "never"       # nothing
    ALWAYS = "always"     # back to half the target, every time
    ONCE = "once"         # back to half the target the first time; a second exact hit ends it


POWERS: Final[dict[str, PowerKind]] = {p.value: p for p in PowerKind}
SOURCES: Final[dict[str, DrawSource]] = {s.value: s for s in DrawSource}
"""The members by their string, for parsers: a dict lookup is cheaper than ``PowerKind(s)``."""

# The members as module constants, for the hot paths (handlers, parsers): on Python 3.11
# reading ``DrawSource.DECK`` goes through the Enum metaclass's ``__getattr__`` hook, which
# costs more than the rest of a draw's checks together.
DECK: Final[DrawSource] = DrawSource.DECK
DISCARD: Final[DrawSource] = DrawSource.DISCARD
PEEK: Final[PowerKind] = PowerKind.PEEK
SPY: Final[PowerKind] = PowerKind.SPY
SWAP: Final[PowerKind] = PowerKind.SWAP
DEALT: Final[Arrival] = Arrival.DEALT
KEPT: Final[Arrival] = Arrival.KEPT
TAKEN: Final[Arrival] = Arrival.TAKEN
SWAPPED: Final[Arrival] = Arrival.SWAPPED
GIVEN: Final[Arrival] = Arrival.GIVEN
PENALTY: Final[Arrival] = Arrival.PENALTY

# The same words typed ``str``, for comparing an event's field (a decoder outside the engine may
# give the plain string) or a state's: compiled, ``str == str`` is a native string comparison,
# while a ``str`` compared with a member is a generic rich comparison, several times slower
# (a draw, a discard, a replacement and a power each make one or more).
DECK_WORD: Final[str] = DECK.value
DISCARD_WORD: Final[str] = DISCARD.value
PEEK_WORD: Final[str] = PEEK.value
SPY_WORD: Final[str] = SPY.value
SWAP_WORD: Final[str] = SWAP.value


class Phase(StrEnum):
    """Where the match stands between two events (str-valued: reports print the value)."""

    BEFORE_DEAL = "before_deal"     # the header is read, no round dealt yet
    TURN_START = "turn_start"       # the current player must draw or call Cabo; snaps allowed
    DRAWN = "drawn"                 # the current player holds a drawn card
    POWER = "power"                 # the current player may use the power just earned
    ROUND_OVER = "round_over"       # the round was scored; a deal (or claims) comes next
    MATCH_OVER = "match_over"       # winners known; only claims may follow


BEFORE_DEAL: Final[Phase] = Phase.BEFORE_DEAL
TURN_START: Final[Phase] = Phase.TURN_START
DRAWN: Final[Phase] = Phase.DRAWN
POWER: Final[Phase] = Phase.POWER
ROUND_OVER: Final[Phase] = Phase.ROUND_OVER
MATCH_OVER: Final[Phase] = Phase.MATCH_OVER
