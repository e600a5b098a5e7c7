"""What one player knows: the table as that player saw it (OpenSpiel's observation).

A card is visible to a player when it lies face up, or when the player's bit is set in
``known``: they dealt-peeked it, drew it, spied it, saw it taken from the discard pile or
revealed by a failed replacement or snap. Knowledge follows the card, so swaps need no
bookkeeping of their own.
"""

from __future__ import annotations

from dataclasses import dataclass

from .state import GameState, Phase


@dataclass(frozen=True)
class Observation:
    """Everything a player may legitimately know at one moment; bots receive only this."""

    me: str
    players: tuple[str, ...]
    active: tuple[str, ...]
    round: int
    phase: Phase
    to_play: str | None
    rows: dict[str, tuple[str | None, ...]]   # None: a card this player does not know
    discard: tuple[str, ...]                  # the whole discard pile, top last (it is public)
    deck_size: int
    drawn: str | None                         # my drawn card (or a card taken from the pile)
    drawn_source: str | None
    pending_power: str | None
    caller: str | None
    scores: dict[str, int]
    turn: int
    ruleset: str


def visible(g: GameState, seat: int, card: int) -> bool:
    return g.face_up[card] or bool(g.known[card] >> seat & 1)


def row_view(g: GameState, seat: int, owner: int) -> tuple[str | None, ...]:
    """The owner's row as ``seat`` sees it."""
    return tuple(g.codes[c] if visible(g, seat, c) else None for c in g.rows[owner])


def observe(g: GameState, player: str) -> Observation:
    seat = g.seat[player]
    drawn = None
    source = None
    if g.drawn >= 0 and (g.current == seat or g.drawn_source == "discard"):
        drawn = g.codes[g.drawn]
        source = g.drawn_source
    return Observation(
        me=player, players=g.players,
        active=tuple(g.players[p] for p in g.active_players()),
        round=g.round_no, phase=g.phase, to_play=g.current_player(),
        rows={g.players[p]: row_view(g, seat, p) for p in g.participants if g.active[p]},
        discard=tuple(g.codes[c] for c in g.pile), deck_size=len(g.deck),
        drawn=drawn, drawn_source=source,
        pending_power=g.pending_power if g.current == seat else None,
        caller=g.caller_name(), scores=g.cumulative_by_name(), turn=g.turn,
        ruleset=g.rules.name,
    )


def known_cards(g: GameState, seat: int, owner: int) -> list[tuple[int, str]]:
    """(position, code) of the owner's cards that ``seat`` knows."""
    return [(i, g.codes[c]) for i, c in enumerate(g.rows[owner]) if visible(g, seat, c)]


def known_total(g: GameState, seat: int) -> tuple[int, int]:
    """How many of their own cards a player knows, and the sum of those values."""
    cards = [c for c in g.rows[seat] if visible(g, seat, c)]
    return len(cards), sum(g.values[c] for c in cards)
