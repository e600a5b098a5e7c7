"""A game's cards as the row stage writes them: each card's code in the chunk's ``Names`` and
its value, found once per game and handed to every row that holds the card (the event's row,
its ``powers`` row, a list of discarded cards).

Compiled in the compiled build (``APP_MODULES`` in setup.py): a card is looked up for most
events of a load.
"""

from __future__ import annotations

from cabo_log.db.columns import Names, StringListColumn
from engine import GameState


class GameCards:
    """The codes and values of one game's cards, in the names of the chunk it is written to."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.known: dict[str, tuple[int, int]] = {}
        # the last card asked for, compared by identity first: a draw's card is the next
        # discard's or replacement's, the same str
        self.last: str | None = None
        self.last_known = (0, 0)

    def find(self, card: str, g: GameState) -> tuple[int, int]:
        """The code of ``card`` in ``names`` and its value in the game's ruleset."""
        if card is self.last:
            return self.last_known
        known = self.known.get(card)
        if known is None:
            known = self.known[card] = (self.names.code(card), g.value_of(card))
        self.last = card
        self.last_known = known
        return known

    def write(self, column: StringListColumn, cards: tuple[str, ...], g: GameState) -> int:
        """Write ``cards`` as one row of ``column``, by their codes; the sum of their values."""
        total = 0
        for card in cards:
            code, value = self.find(card, g)
            column.item(code)
            total += value
        column.end()
        return total
