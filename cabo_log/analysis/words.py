"""Moves in words, for the text report: "replaced 0 and 3 (a 5 and a 4) with a 12"."""

from __future__ import annotations

from engine import Event, GameState
from engine.events import Cabo, Discard, Draw, Forfeit, Peek, Power, Replace, Skip, Snap
from engine.knowledge import observe, row_view
from engine.vocabulary import DrawSource, PowerKind


def a_card(code: str) -> str:
    return f"an {code}" if code.startswith(("8", "A")) or code == "11" else f"a {code}"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _slot(owner: str, position: int, me: str) -> str:
    return f"own {position}" if owner == me else f"{owner}'s {position}"


def infinitive(move: Event, g: GameState) -> str:
    """What the move does, as "best was to ...": "discard", "replace 0 and 3"."""
    if isinstance(move, Draw):
        return "draw from the deck" if move.source == DrawSource.DECK else "take the discard"
    if isinstance(move, Cabo):
        return "call Cabo"
    if isinstance(move, Discard):
        return "discard"
    if isinstance(move, Replace):
        return "replace " + _and([str(p) for p in move.positions])
    if isinstance(move, Skip):
        return f"skip the {g.pending_power() or 'power'}"
    if isinstance(move, Power):
        return _power(move, "peek at", "spy on", "swap")
    return _other(move, "look at own", "snap", "forfeit")


def _power(move: Power, peek: str, spy: str, swap: str) -> str:
    me = move.player
    if move.target is not None:
        owner, position = move.target
        verb = peek if move.power == PowerKind.PEEK else spy
        return f"{verb} {_slot(owner, position, me)}"
    assert move.cards is not None
    (a, i), (b, j) = move.cards
    return f"{swap} {_slot(a, i, me)} with {_slot(b, j, me)}"


def past(move: Event, g: GameState) -> str:
    """What the player did, with the cards involved: "replaced 0 and 3 (a 5 and a 4) with
    a 12". ``g`` is the table right before the move (cards named as they really were)."""
    me = move.player  # type: ignore[attr-defined]
    if isinstance(move, Draw):
        if move.source == DrawSource.DECK:
            return "drew from the deck"
        top = g.discard_top()
        return f"took the discard ({a_card(top)})" if top else "took the discard"
    if isinstance(move, Cabo):
        return "called Cabo"
    drawn = observe(g, me).drawn
    held = a_card(drawn) if drawn else "the card"
    if isinstance(move, Discard):
        return f"discarded {held}"
    if isinstance(move, Replace):
        row = g.row_codes(g.seat[me])
        cards = _and([a_card(row[p]) for p in move.positions if p < len(row)])
        return f"replaced {_and([str(p) for p in move.positions])} ({cards}) with {held}"
    if isinstance(move, Skip):
        return f"skipped the {g.pending_power() or 'power'}"
    if isinstance(move, Power):
        return _power(move, "peeked at", "spied on", "swapped")
    return _other(move, "looked at own", "snapped", "forfeited")


def _other(move: Event, look: str, snap: str, forfeit: str) -> str:
    """The moves that are no decisions (initial peeks, snaps, forfeits) in a few words; any
    other event by its type: "deal"."""
    if isinstance(move, Peek):
        return f"{look} {_and([str(p) for p in move.positions])}"
    if isinstance(move, Snap):
        return f"{snap} own {move.position}"
    if isinstance(move, Forfeit):
        return forfeit
    return move.TYPE


def must_fail(move: Event, g: GameState) -> bool:
    """A multi-replacement of cards the player knew to differ."""
    if not isinstance(move, Replace) or len(move.positions) < 2:
        return False
    seat = g.seat[move.player]
    view = row_view(g, seat, seat)
    value_of = g.rules.values()
    known = [view[p] for p in move.positions if p < len(view)]
    return len({value_of[c] for c in known if c is not None}) > 1
