"""What each browser is sent: a seat's view is built from the engine's observation of that
player (``engine.knowledge.observe``), a spectator's from what every player in the round can
see (a card is public when every active player's observation shows it: face up, or revealed
to all). Nothing here reads a hidden card: a card a seat has not seen cannot reach its page.

``classic`` mode sends a seat only the public cards and its unresolved draw: the cards it
knows privately come as ``flashes`` (shown for a few seconds, then to be remembered);
``assisted`` mode sends every card the seat knows, on every view, so a reconnect restores
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from cabo_log.play.prompt import move_text
from engine import Event, GameState
from engine.events import Peek, Power, Replace, Snap, to_dict
from engine.knowledge import Observation, observe
from engine.moves import legal_moves, peek_moves, snap_moves
from engine.vocabulary import DRAWN, MATCH_OVER, POWER, ROUND_OVER, TURN_START, DrawSource

Rows = dict[str, tuple[str | None, ...]]
Place = tuple[str, int]


class Mode(StrEnum):
    CLASSIC = "classic"
    ASSISTED = "assisted"


def dealt(g: GameState) -> bool:
    return bool(g.rounds) or g.round_no() > 0


def public_rows(g: GameState) -> Rows:
    """Each row's cards that every active player in the round sees (None elsewhere)."""
    if not dealt(g):
        return {}
    seen = [observe(g, g.players[p]).rows for p in g.active_participants()]
    if not seen:
        return {}
    out: Rows = {}
    for owner, row in seen[0].items():
        out[owner] = tuple(code if all(s.get(owner, ())[i:i + 1] == (code,) for s in seen)
                           else None for i, code in enumerate(row))
    return out


def seat_rows(g: GameState, me: str, mode: Mode) -> Rows:
    """The rows as the seat is shown them: everything it knows (assisted, or once the round
    is over), else the public cards only."""
    obs = observe(g, me)
    if mode == Mode.ASSISTED or g.phase in (ROUND_OVER, MATCH_OVER):
        return obs.rows
    return public_rows(g)


def new_places(before: Rows, after: Rows, shown: Rows) -> list[tuple[str, int, str]]:
    """Places whose card the seat sees now and did not see there before, except the ones
    shown anyway: what classic mode flashes."""
    out = []
    for owner, row in after.items():
        old = before.get(owner, ())
        public = shown.get(owner, ())
        for i, code in enumerate(row):
            if code is None or (i < len(public) and public[i] == code):
                continue
            if i >= len(old) or old[i] != code:
                out.append((owner, i, code))
    return out


def move_label(move: Event, obs: Observation) -> str:
    """A move in words on its button (``play.prompt.move_text``, as ``cabo-log play`` says it,
    capitalised); the cards of the seat's row are on the table beside it, not in the words."""
    text = move_text(move, obs, own_cards=False)
    return text[:1].upper() + text[1:]


def move_places(move: Event) -> list[Place]:
    """The row places a move names (chosen on the page by clicking those cards)."""
    if isinstance(move, Replace):
        return [(move.player, p) for p in move.positions]
    if isinstance(move, Peek):
        return [(move.player, p) for p in move.positions]
    if isinstance(move, Snap):
        return [(move.player, move.position)]
    if isinstance(move, Power):
        if move.cards is not None:
            return [(who, pos) for who, pos in move.cards]
        if move.target is not None:
            return [(move.target[0], move.target[1])]
    return []


def peeks_pending(g: GameState) -> list[str]:
    """Players still to make their initial peek (where the rules let them choose): the
    round's first turn waits for them."""
    if g.complete or not dealt(g) or g.phase != TURN_START:
        return []
    return [g.players[p] for p in g.participants() if peek_moves(g, g.players[p])]


def seat_moves(g: GameState, me: str, peeking: bool = False) -> list[Event]:
    """The seat's legal moves now, from the engine: its initial peek, its turn's moves when
    it is to act (not while ``peeking``: the first turn waits until the people at the table
    have looked at their cards), and (golf) its snaps between turns."""
    if g.complete or not dealt(g) or g.phase not in (TURN_START, DRAWN, POWER):
        return []
    seat = g.seat[me]
    if not g.in_round(seat):
        return []
    moves: list[Event] = list(peek_moves(g, me))
    if peeking:
        return moves
    if g.current_player() == me:
        moves += legal_moves(g)
    if g.phase == TURN_START:
        moves += [m for m in snap_moves(g) if isinstance(m, Snap) and m.player == me]
    return moves


def moves_json(moves: Sequence[Event], obs: Observation) -> list[dict[str, Any]]:
    out = []
    for move in moves:
        event = to_dict(move)
        event.pop("seq", None)
        out.append({"label": move_label(move, obs), "kind": move.TYPE,
                    "places": [list(p) for p in move_places(move)], "event": event})
    return out


def table_json(g: GameState, rows: Rows, drawn: str | None) -> dict[str, Any]:
    """The part of a view that is the same for everyone who sees ``rows``."""
    if not dealt(g):
        return {"round": 0, "phase": str(g.phase), "rows": {}, "discard": None,
                "discard_count": 0, "deck_size": 0, "drawn": None, "to_play": None,
                "caller": None, "scores": {p: 0 for p in g.players}, "turn": 0,
                "pending_power": None, "rounds": [], "winners": list(g.winners)}
    power = g.pending_power()
    return {
        "round": g.round_no(), "phase": str(g.phase),
        "rows": {owner: list(row) for owner, row in rows.items()},
        "discard": g.discard_top(), "discard_count": g.pile_size(), "deck_size": g.deck_size(),
        "drawn": drawn, "drawn_source": g.drawn_source() if drawn is not None else None,
        "to_play": g.current_player() if g.phase in (TURN_START, DRAWN, POWER) else None,
        "caller": g.caller_name(), "scores": g.cumulative_by_name(), "turn": g.turn(),
        "pending_power": str(power) if power is not None and g.phase == POWER else None,
        "rounds": [{"round": res.round, "points": dict(res.points), "caller": res.caller,
                    "end": str(res.end)} for res in g.rounds],
        "winners": list(g.winners),
    }


def seat_view(g: GameState, me: str, mode: Mode, peeking: bool = False) -> dict[str, Any]:
    """A seat's table: its rows as ``seat_rows`` shows them, its drawn card, its moves."""
    if not dealt(g):
        return {**table_json(g, {}, None), "moves": []}
    obs = observe(g, me)
    rows = seat_rows(g, me, mode)
    view = table_json(g, rows, obs.drawn)
    view["moves"] = moves_json(seat_moves(g, me, peeking), obs)
    return view


def public_view(g: GameState) -> dict[str, Any]:
    """A spectator's table: the public cards, a drawn card only if taken from the pile."""
    if not dealt(g):
        return {**table_json(g, {}, None), "moves": []}
    drawn = g.drawn() if g.drawn_source() == DrawSource.DISCARD else None
    return {**table_json(g, public_rows(g), drawn), "moves": []}
