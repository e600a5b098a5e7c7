"""Possible worlds: copies of a position where the cards a player could not see are re-dealt
(OpenSpiel's ``resample_from_infostate``), for the analysis' rollouts.

Determinization: a player at a decision knows some cards (``engine.knowledge.visible``: face
up, or their bit in ``known``) and, card by card, where the unseen ones came from. Unseen cards
are shuffled among themselves *within their pool*: the cards of the deal, or the cards a
reshuffle put into the draw pile (whose multiset everybody saw on the discard pile). A world
therefore keeps every card the player saw where it was, keeps the positions of all cards, and
only swaps the faces of cards the player could not tell apart.

``sample_world`` draws one such world; ``Deal`` a block of balanced ones, each as random as
``sample_world``'s, that together give every unseen card every face of its pool once.
"""

from __future__ import annotations

import copy
import random

from .knowledge import visible
from .state import GameState


class Pools:
    """Which pool each card number of the current round belongs to (0: the deal; k: the k-th
    reshuffle of the round). Fed by the analysis' replay after every event."""

    def __init__(self) -> None:
        self.round = -1
        self.pool: dict[int, int] = {}
        self.reshuffles = 0

    def follow(self, g: GameState) -> None:
        """Call after every applied event: notices new rounds and reshuffles."""
        if g.round.round_no != self.round:
            self.round = g.round.round_no
            self.pool = {}
            self.reshuffles = g.round.reshuffles
        elif g.round.reshuffles != self.reshuffles:
            self.reshuffles = g.round.reshuffles
            for card in g.round.deck:
                self.pool[card] = self.reshuffles

    def copy(self) -> Pools:
        other = Pools()
        other.round, other.reshuffles, other.pool = self.round, self.reshuffles, dict(self.pool)
        return other


def playable(g: GameState) -> GameState:
    """An independent copy that bots can play on: events without seq are accepted."""
    world = fork(g)
    world.seq_mode = False
    return world


def fork(g: GameState) -> GameState:
    """A copy of ``g`` that no later ``apply`` on either side can disturb: ~10x cheaper than
    ``snapshot()`` (a deep copy), because immutable parts (ruleset, finished rounds, tables of
    values) are shared and only the mutable containers of the match and round are copied."""
    world = copy.copy(g)
    world.active = list(g.active)
    world.cumulative = list(g.cumulative)
    world.reset_used = list(g.reset_used)
    world.rounds = list(g.rounds)
    world.round = r = copy.copy(g.round)
    r.in_play = list(r.in_play)
    r.codes = list(r.codes)
    r.values = list(r.values)
    r.known = list(r.known)
    r.arrivals = list(r.arrivals)
    r.slot_changes = list(r.slot_changes)
    r.face_up = list(r.face_up)
    r.rows = [list(row) for row in r.rows]
    r.deck = list(r.deck)
    r.pile = list(r.pile)
    r.out = list(r.out)
    r.peeked = list(r.peeked)
    r.final_left = list(r.final_left)
    return world


def hidden_cards(g: GameState, seat: int) -> list[int]:
    """Card numbers of the round (anywhere) that ``seat`` cannot see right now."""
    return [c for c in g.card_locations() if not visible(g, seat, c)]


def sample_world(g: GameState, seat: int, pools: Pools, rng: random.Random) -> GameState:
    """A playable copy of ``g`` in which the cards ``seat`` cannot see are re-dealt at random
    within their pools (see the module docstring): one world of a block of its own."""
    return Deal(g, seat, pools, rng).world(g, 0)


class Deal:
    """A block of balanced worlds of one position (a Latin square over the unseen cards):
    world ``shift`` of the block deals, in each pool, the faces of one random deal rotated
    ``shift`` steps along one random cycle through the pool's unseen cards. Each world alone
    is a uniformly random re-deal, as ``sample_world``'s; over the block's worlds (as many as
    the pool has unseen cards) every unseen card gets every face of its pool exactly once,
    so the options see a balanced spread of the hidden cards (the next card drawn, a card of
    the row) instead of a random one, and their means move less with the seed."""

    def __init__(self, g: GameState, seat: int, pools: Pools, rng: random.Random) -> None:
        groups: dict[int, list[int]] = {}
        for card in hidden_cards(g, seat):
            groups.setdefault(pools.pool.get(card, 0), []).append(card)
        codes, values = g.round.codes, g.round.values
        self.pools: list[tuple[list[int], list[tuple[str, int]]]] = []
        for pool in sorted(groups):
            cards = list(groups[pool])
            rng.shuffle(cards)                  # the cycle through the pool's cards
            faces = [(codes[c], values[c]) for c in cards]
            rng.shuffle(faces)                  # the deal rotated along it
            self.pools.append((cards, faces))

    def world(self, g: GameState, shift: int) -> GameState:
        """A playable copy of ``g`` dealt as world ``shift`` of the block."""
        world = playable(g)
        codes, values = world.round.codes, world.round.values
        for cards, faces in self.pools:
            n = len(cards)
            for i, card in enumerate(cards):
                code, value = faces[(i + shift) % n]
                codes[card] = code
                values[card] = value
        return world

    def size(self) -> int:
        """Worlds in the block: the largest pool's unseen cards (a smaller pool starts its
        rotation again; 1 when nothing is unseen)."""
        return max([len(cards) for cards, _ in self.pools], default=1)


def shuffle_deck(g: GameState, rng: random.Random) -> None:
    """Re-order the draw pile of a playable copy in place (the future nobody knows yet)."""
    deck = list(g.round.deck)
    faces = [(g.round.codes[c], g.round.values[c]) for c in deck]
    rng.shuffle(faces)
    for card, (code, value) in zip(deck, faces, strict=True):
        g.round.codes[card] = code
        g.round.values[card] = value
