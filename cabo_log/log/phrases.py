"""The small phrases every telling of a game uses: a card's label (``10♥``), a card in a
sentence (``an 8``), a list in words (``a, b and c``), a count with its noun."""

from __future__ import annotations

from functools import cache

_SUITS = {"H": "\u2665", "D": "\u2666", "S": "\u2660", "C": "\u2663"}


@cache
def card_label(code: str) -> str:
    """How a card is shown: ``"10H"`` -> ``"10♥"``, ``"JK"`` -> ``"JK"``, ``"7"`` -> ``"7"``
    (remembered: a long match's page shows a card tens of thousands of times)."""
    if code[-1:] in _SUITS and len(code) >= 2:
        return code[:-1] + _SUITS[code[-1]]
    return code


def a_card(code: str) -> str:
    """``"a 9"``, ``"an 8"``, ``"an A♠"``: a card named in a sentence."""
    label = card_label(code)
    article = "an" if label.startswith(("8", "11", "A")) else "a"
    return f"{article} {label}"


def join_words(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


__all__ = ["a_card", "card_label", "join_words", "plural"]
