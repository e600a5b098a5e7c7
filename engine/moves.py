"""Legal moves for whoever must act next, as event objects ready for ``apply``.

Deals and reshuffles are chance events (the shuffler decides them), so they are not listed;
``needs_reshuffle`` and ``needs_deal`` tell a simulator when to make one. Snaps, which any
player may make between turns, are listed by ``snap_moves``.
"""

from __future__ import annotations

from itertools import combinations

from .events import Cabo, Discard, Draw, Event, Peek, Power, Replace, Skip, Snap
from .state import BEFORE_DEAL, DRAWN, POWER, ROUND_OVER, TURN_START, GameState
from .vocabulary import DrawSource, PowerKind

# Multi-replacements are listed up to this many cards where the ruleset sets no limit.
LISTED_REPLACE_LIMIT = 4


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
        return _placements(g)
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


def _placements(g: GameState) -> list[Event]:
    r = g.round
    me = g.players[r.current]
    moves: list[Event] = []
    if r.drawn_source == DrawSource.DECK:
        moves.append(Discard(None, False, me))
    size = len(r.rows[r.current])
    limit = g.rules.max_replace or LISTED_REPLACE_LIMIT
    for count in range(1, min(limit, size) + 1):
        for combo in combinations(range(size), count):
            moves.append(Replace(None, False, me, combo, None, None))
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
