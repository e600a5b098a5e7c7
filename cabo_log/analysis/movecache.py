"""The legal moves of a rollout's positions, remembered: a rollout asks the same question
thousands of times, on copies of one match (``engine.worlds``)."""

from __future__ import annotations

from engine import Event, GameState
from engine.moves import legal_moves, needs_reshuffle


class MoveCache:
    """``engine.moves.legal_moves`` remembered by everything they depend on (phase, player,
    held card's source, power, who is dealt in and still in, row sizes, piles, caller). Keep
    one cache per match (moves name players and positions only)."""

    def __init__(self) -> None:
        self.moves: dict[tuple[object, ...], list[Event]] = {}

    def legal(self, g: GameState) -> list[Event]:
        seated = g.participants()   # the others' rows are empty
        key = (g.phase, g.to_act(), g.drawn_source(), g.pending_power(), seated,
               tuple(g.active), tuple([g.row_size(p) for p in seated]), g.deck_size() > 0,
               needs_reshuffle(g), g.pile_size() > 0, g.caller() >= 0)
        moves = self.moves.get(key)
        if moves is None:
            moves = self.moves[key] = legal_moves(g)
        return moves
