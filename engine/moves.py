"""Legal moves for whoever must act next, as event objects ready for ``apply``.

``legal_moves`` lists them; ``MoveLister`` (behind ``GameState.legal_moves``) hands out the
same moves lazily (placements, ``moveset.Placements``) or remembered (the lists of a turn's
start and of a power, made once per ruleset and table).

Deals and reshuffles are chance events (the shuffler decides them), so they are not listed;
``needs_reshuffle`` and ``needs_deal`` tell a simulator when to make one. Snaps, which any
player may make between turns, are listed by ``snap_moves``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from .events import Cabo, Draw, Event, Peek, Power, Skip, Snap
from .listed import Listed
from .moveset import LISTED_REPLACE_LIMIT, Placements
from .state import GameState
from .vocabulary import BEFORE_DEAL, DRAWN, POWER, ROUND_OVER, TURN_START, DrawSource, PowerKind

__all__ = ["LISTED_REPLACE_LIMIT", "MoveLister", "legal_moves", "needs_deal", "needs_reshuffle",
           "peek_moves", "snap_moves"]


def needs_deal(g: GameState) -> bool:
    return g.phase in (BEFORE_DEAL, ROUND_OVER) and not g.complete


def needs_reshuffle(g: GameState) -> bool:
    """The next deck draw would fail without a reshuffle (which the ruleset allows)."""
    r = g.round
    return (g.phase == TURN_START and not r.deck and g.rules.reshuffle and len(r.pile) > 1)


def legal_moves(g: GameState) -> list[Event]:
    """Every move of the player to act (at the start of a turn: draw or Cabo)."""
    if g.phase == TURN_START:
        return _turn_start(g)
    if g.phase == DRAWN:
        return list(Placements(g))
    if g.phase == POWER:
        return _powers(g)
    return []


def peek_moves(g: GameState, player: str) -> list[Event]:
    """The initial peeks a player may still make this round."""
    r = g.round
    seat = g.seat[player]
    if g.phase != TURN_START or r.started or r.peeked[seat] or seat not in r.participants:
        return []
    rules = g.rules
    if rules.peek_positions is not None:
        return [Peek(None, False, player, rules.peek_positions)]
    size = len(r.rows[seat])
    return [Peek(None, False, player, combo)
            for combo in combinations(range(size), rules.peek_count)]


def snap_moves(g: GameState) -> list[Event]:
    r = g.round
    if not g.rules.snap or g.phase != TURN_START or not r.pile:
        return []
    return [Snap(None, False, g.players[p], i)
            for p in r.participants if g.active[p] for i in range(len(r.rows[p]))]


def _turn_start(g: GameState) -> list[Event]:
    r = g.round
    me = g.players[r.current]
    moves: list[Event] = []
    if r.deck or needs_reshuffle(g):
        moves.append(Draw(None, False, me, DrawSource.DECK, None))
    if r.pile and r.rows[r.current]:
        moves.append(Draw(None, False, me, DrawSource.DISCARD, None))
    if r.caller < 0:
        moves.append(Cabo(None, False, me))
    return moves


def _powers(g: GameState) -> list[Event]:
    r = g.round
    seat = r.current
    me = g.players[seat]
    moves: list[Event] = [Skip(None, False, me)]
    power = r.pending_power
    others = [p for p in r.participants if g.active[p] and p != seat]
    if power == PowerKind.PEEK:
        moves += [Power(None, False, me, PowerKind.PEEK, (me, i), None)
                  for i in range(len(r.rows[seat]))]
    elif power == PowerKind.SPY:
        moves += [Power(None, False, me, PowerKind.SPY, (g.players[p], i), None)
                  for p in others for i in range(len(r.rows[p]))]
    elif power == PowerKind.SWAP:
        firsts = ([p for p in r.participants if g.active[p]]
                  if g.rules.swap_any_two_players else [seat])
        for a in firsts:
            for b in others if a == seat else [p for p in others if p > a]:
                if b == a:
                    continue
                for i in range(len(r.rows[a])):
                    for j in range(len(r.rows[b])):
                        moves.append(Power(None, False, me, PowerKind.SWAP, None,
                                           ((g.players[a], i), (g.players[b], j))))
    return moves


class MoveLister:
    """The legal moves of the player to act during one match, for the simulator's hot loop.

    Placements are ``Placements`` (lazy). The moves of a turn's start and of a power are the
    engine's own list, remembered under what ``legal_moves`` reads for them: the seat to act
    and whether the piles (and the row) are empty, the caller; the power and the sizes of
    the rows in play. ``tests/test_moveset.py`` compares every answer with ``legal_moves``.

    Given the ruleset and the players (``table``), those answers are the same in every match,
    so the lists and moves are remembered for the process (``_TABLES``), not made again in
    each match (a random bot's match is short: most of its lists were new to it).
    """

    def __init__(self, table: tuple[object, ...] | None = None) -> None:
        known = _TABLES.get(table) if table is not None else None
        if known is None:
            known = ({}, {})
            if table is not None:
                if len(_TABLES) >= _MAX_TABLES:   # keep the memory flat
                    _TABLES.clear()
                _TABLES[table] = known
        self.remembered: dict[tuple[object, ...], Listed] = known[0]
        self.made: dict[str, dict[int, Sequence[Event]]] = known[1]

    def moves(self, g: GameState) -> Sequence[Event]:
        """``legal_moves(g)``: the same moves, lazy (placements) or remembered."""
        phase = g.phase
        if phase == DRAWN:
            return Placements(g, self.made)
        r = g.round
        if phase == TURN_START:
            key: tuple[object, ...] = (
                r.current, len(r.deck) > 0, min(len(r.pile), 2), len(r.rows[r.current]) > 0,
                r.caller)
        elif phase == POWER:
            rows, in_play = r.rows, r.in_play
            key = (r.current, r.pending_power,
                   *[len(rows[p]) if in_play[p] else -1 for p in range(len(rows))])
        else:
            return legal_moves(g)
        listed = self.remembered.get(key)
        if listed is None:
            if len(self.remembered) >= _MAX_LISTS:   # keep the memory flat
                self.remembered.clear()
            listed = self.remembered[key] = Listed(legal_moves(g))
            listed.kinds()   # grouped now, once: read as ``groups`` on every decision
        return listed


_TABLES: Final[dict[tuple[object, ...], tuple[dict[tuple[object, ...], Listed],
                                              dict[str, dict[int, Sequence[Event]]]]]] = {}
"""``MoveLister``'s lists and moves by table (ruleset, players), for the process."""
_MAX_TABLES: Final = 64
_MAX_LISTS: Final = 4096
