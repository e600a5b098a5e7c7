"""Card codes, their values and the decks that the rulesets play with.

A card is identified by its position in the deal, never by its code: with two decks every code
appears twice. The engine therefore numbers the physical cards of a round and keeps codes and
values in lists indexed by that number.
"""

from __future__ import annotations

from collections import Counter
from sys import intern

CABO_DECK = "cabo"
STANDARD_DECK = "standard"

SUITS = ("S", "H", "D", "C")
RED_SUITS = frozenset(("H", "D"))
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "JK"

_RANK_VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}


def cabo_deck() -> list[str]:
    """The branded deck: two 0s, four of each 1..12, two 13s (52 cards).

    Every code of every deck is an interned string: the decoder's codes (``every_code``, the
    values msgspec hands out) are then the very objects that key a game's tables
    (``deck_index``, ``values_of``), so a lookup by code finds its key by identity instead of
    comparing the bytes."""
    codes = ["0", "0"]
    for value in range(1, 13):
        codes.extend([intern(str(value))] * 4)
    codes.extend(["13", "13"])
    return codes


def standard_deck(jokers: int = 0) -> list[str]:
    """52 rank+suit codes such as ``"10H"``, plus ``jokers`` times ``"JK"``."""
    return [intern(rank + suit) for suit in SUITS for rank in RANKS] + [JOKER] * jokers


def deck_codes(kind: str, jokers: int, decks: int) -> list[str]:
    """Every code of a full deck (with repeats for two decks), in a fixed order."""
    one = cabo_deck() if kind == CABO_DECK else standard_deck(jokers)
    return one * decks


def every_code() -> tuple[str, ...]:
    """Every code that any ruleset's deck can hold (each once): what a decoder may check a
    card against before the ruleset is known (a code outside a game's own deck is still the
    engine's to reject)."""
    return tuple(dict.fromkeys(cabo_deck() + standard_deck(1)))


def card_value(code: str, kind: str, red_king_value: int, joker_value: int = 0) -> int:
    """The scoring value of one card code; raises KeyError for a code the deck does not have."""
    if kind == CABO_DECK:
        if code.isdigit() and 0 <= int(code) <= 13 and str(int(code)) == code:
            return int(code)
        raise KeyError(code)
    if code == JOKER:
        return joker_value
    rank, suit = code[:-1], code[-1:]
    if suit not in SUITS or rank not in _RANK_VALUES:
        raise KeyError(code)
    if rank == "K" and suit in RED_SUITS:
        return red_king_value
    return _RANK_VALUES[rank]


def value_table(codes: list[str], kind: str, red_king_value: int) -> dict[str, int]:
    """Code -> value for every code of a deck, computed once per game."""
    return {code: card_value(code, kind, red_king_value) for code in set(codes)}


def describe_difference(expected: Counter[str], got: Counter[str]) -> str:
    """A short player-readable account of which cards are missing or extra."""
    missing = expected - got
    extra = got - expected
    parts = []
    if missing:
        parts.append("missing " + _fmt(missing))
    if extra:
        parts.append("extra " + _fmt(extra))
    return ", ".join(parts) if parts else "no difference"


_NUMBER_WORDS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _fmt(counter: Counter[str]) -> str:
    """Cards, not counts: "a 4 and an 8", "two 4s" (a bare "missing 4" reads as a count)."""
    out = []
    for code, count in sorted(counter.items(), key=lambda kv: kv[0]):
        if count == 1:
            article = "an" if code[:1] in ("8", "A") or code in ("11", "18") else "a"
            out.append(f"{article} {code}")
        else:
            word = _NUMBER_WORDS[count] if count < len(_NUMBER_WORDS) else str(count)
            out.append(f"{word} {code}s")
    if len(out) > 8:
        out = out[:8] + ["more"]
    return out[0] if len(out) == 1 else ", ".join(out[:-1]) + " and " + out[-1]
