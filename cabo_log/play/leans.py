"""What a card one cannot see likely is, read from its slot's public record (``Slot``).

Everyone at the table sees which slot a player fills with the card they drew, which cards a
swap exchanges, and which cards each player has looked at. So an unknown card is not just "any
unseen card": measured over expert-against-expert matches (``benchmarks/expert.py``), an
opponent's card that its owner never saw is as likely any unseen card as the pool says, while
one its owner knows and still holds leans low (they would have replaced it), more so the
longer they have held it, and one they put there after seeing it (kept from a deck draw,
brought by their own swap) leans low from the start. A card another player's swap gave to
this player leans high: it is what that player wanted rid of.

A *lean* is a share in [-1, 1]: at ``k > 0`` the card is, with chance ``k``, one of the lowest
``Style.keep_share`` of the unseen cards, else any of them; at ``k < 0`` it is with chance
``-k`` one of the highest as many, else any. 0 for a card this player sees, or one nothing
is known of.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from engine.knowledge import Observation, Slot
from engine.vocabulary import Arrival

if TYPE_CHECKING:
    from cabo_log.play.expert import Style


def slot_lean(slot: Slot, mine: bool, held: float, style: Style) -> float:
    """The lean of an unknown card: ``mine`` for the player's own row; ``held`` is the lean of
    a dealt card its owner has known for the turns played (grows with them)."""
    if mine:
        return -style.given_high if slot.arrival == Arrival.GIVEN else 0.0
    if not slot.owner_knows:
        return 0.0   # its owner never saw it: any unseen card
    if slot.arrival == Arrival.DEALT:
        return held
    return max(held, style.kept_low)   # chosen after seeing it: low from the start


def leans(obs: Observation, rows: dict[str, list[int | None]], style: Style
          ) -> dict[str, list[float]]:
    """The lean of every slot of every row the observation shows (0 where the card is seen)."""
    turns = obs.turn / max(len(obs.rows), 1)
    held = 1.0 - math.exp(-turns / style.keep_turns)
    me = obs.me
    out: dict[str, list[float]] = {}
    for p, row in rows.items():
        slots = obs.slots.get(p, ())
        out[p] = [0.0 if v is not None or i >= len(slots)
                  else slot_lean(slots[i], p == me, held, style)
                  for i, v in enumerate(row)]
    return out


def lean_value(lean: float, mean: float, low_mean: float, high_mean: float) -> float:
    """The expected value of a card of this lean."""
    if lean > 0:
        return mean + lean * (low_mean - mean)
    if lean < 0:
        return mean - lean * (high_mean - mean)
    return mean


def lean_card(lean: float, dealt: int, low: tuple[int, ...], high: tuple[int, ...],
              rng: random.Random) -> int:
    """A sampled card of this lean: ``dealt`` (a card dealt at random from the unseen ones),
    or, with the lean's chance, one of the low (or high) unseen cards instead."""
    if lean > 0 and rng.random() < lean:
        return rng.choice(low)
    if lean < 0 and rng.random() < -lean:
        return rng.choice(high)
    return dealt


__all__ = ["lean_card", "lean_value", "leans", "slot_lean"]
