"""What one player knows: the table as that player saw it (OpenSpiel's observation).

A card is visible to a player when it lies face up, or when the player's bit is set in
``known``: they dealt-peeked it, drew it, spied it, saw it taken from the discard pile or
revealed by a failed replacement or snap. Knowledge follows the card, so swaps need no
bookkeeping of their own.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .state import GameState, Phase
from .vocabulary import DrawSource, PowerKind


class Observation:
    """Everything a player may legitimately know at one moment; bots receive only this.

    A plain class with an explicit ``__init__`` (not a frozen dataclass), so that the compiled
    engine makes it a native class with a compiled constructor (a dataclass's generated
    ``__init__`` stays interpreted there, with a frozen ``__setattr__`` per field: most of a
    compiled simulation's time). Read-only by contract, like events; equality and ``repr``
    read ``FIELDS`` as the dataclass's did.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        "me", "players", "active", "round", "phase", "to_play", "rows", "discard", "deck_size",
        "drawn", "drawn_source", "pending_power", "caller", "scores", "turn", "ruleset")

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
    pending_power: PowerKind | None
    caller: str | None
    scores: dict[str, int]
    turn: int
    ruleset: str

    def __init__(self, me: str, players: tuple[str, ...], active: tuple[str, ...], round: int,
                 phase: Phase, to_play: str | None, rows: dict[str, tuple[str | None, ...]],
                 discard: tuple[str, ...], deck_size: int, drawn: str | None,
                 drawn_source: str | None, pending_power: PowerKind | None,
                 caller: str | None, scores: dict[str, int], turn: int, ruleset: str) -> None:
        self.me = me
        self.players = players
        self.active = active
        self.round = round
        self.phase = phase
        self.to_play = to_play
        self.rows = rows
        self.discard = discard
        self.deck_size = deck_size
        self.drawn = drawn
        self.drawn_source = drawn_source
        self.pending_power = pending_power
        self.caller = caller
        self.scores = scores
        self.turn = turn
        self.ruleset = ruleset

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.FIELDS)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({shown})"

    __hash__ = None  # type: ignore[assignment]  # its rows and scores are dicts


def _native() -> bool:
    """Whether ``Observation`` is a compiled engine's native class (docs/compiled.md), which
    refuses ``object.__new__``; its own constructor is fast there."""
    try:
        object.__new__(Observation)
    except TypeError:
        return True
    return False


_NATIVE = _native()


def _observation(**fields: Any) -> Observation:
    """An Observation without the frozen ``__init__``'s sixteen ``object.__setattr__`` calls
    (a third of ``observe``): the same object, still frozen to whoever holds it."""
    if _NATIVE:
        return Observation(**fields)
    obs: Observation = object.__new__(Observation)
    obs.__dict__.update(fields)
    return obs


def visible(g: GameState, seat: int, card: int) -> bool:
    r = g.round
    return r.face_up[card] or bool(r.known[card] >> seat & 1)


def row_view(g: GameState, seat: int, owner: int) -> tuple[str | None, ...]:
    """The owner's row as ``seat`` sees it."""
    r = g.round
    return tuple(r.codes[c] if visible(g, seat, c) else None for c in r.rows[owner])


def observe(g: GameState, player: str) -> Observation:
    """Built once per bot decision in a simulation: written for speed (no per-card calls)."""
    r = g.round
    seat = g.seat[player]
    drawn = None
    source = None
    codes = r.codes
    if r.drawn >= 0 and (r.current == seat or r.drawn_source == DrawSource.DISCARD):
        drawn = codes[r.drawn]
        source = r.drawn_source
    face_up, known, bit = r.face_up, r.known, 1 << seat
    players, active = g.players, g.active
    rows = {players[p]: tuple([codes[c] if face_up[c] or known[c] & bit else None
                               for c in r.rows[p]])
            for p in r.participants if active[p]}
    return _observation(
        me=player, players=players,
        active=tuple([name for name, on in zip(players, active, strict=True) if on]),
        round=r.round_no, phase=g.phase, to_play=g.current_player(),
        rows=rows, discard=tuple(map(codes.__getitem__, r.pile)), deck_size=len(r.deck),
        drawn=drawn, drawn_source=source,
        pending_power=r.pending_power if r.current == seat else None,
        caller=g.caller_name(), scores=g.cumulative_by_name(), turn=r.turn,
        ruleset=g.rules.name,
    )


def known_cards(g: GameState, seat: int, owner: int) -> list[tuple[int, str]]:
    """(position, code) of the owner's cards that ``seat`` knows."""
    r = g.round
    return [(i, r.codes[c]) for i, c in enumerate(r.rows[owner]) if visible(g, seat, c)]


def known_total(g: GameState, seat: int) -> tuple[int, int]:
    """How many of their own cards a player knows, and the sum of those values."""
    r = g.round
    cards = [c for c in r.rows[seat] if visible(g, seat, c)]
    return len(cards), sum(r.values[c] for c in cards)
