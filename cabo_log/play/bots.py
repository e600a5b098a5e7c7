"""Bots that play Cabo fairly: they decide from one player's observation, never from the state.

A bot is handed an ``engine.knowledge.Observation`` (what its player may legitimately know:
masked rows, the public discard pile, its own drawn card) and the list of legal moves (event
objects from ``engine.moves``, which name positions, never cards). It never sees a
``GameState``, so it cannot peek at hidden cards even by accident; ``tests/test_bots.py`` checks
this. The public ruleset (card values, which powers exist) is given when the bot is created.

Five bots are built in (``BOTS``), each in its own module:

- ``random`` (``random_bot``): a uniformly random legal move, the kind of move first; Cabo
  with a small probability so rounds end.
- ``greedy`` and ``cautious`` (``greedy``): play like a decent human from what they know,
  with a few small "personality" probabilities that put rare cases into corpora.
- ``expert`` (``expert``): counts cards and chooses every move by its expected value.
- ``expert1`` (``expert1``): the expert's first revision, unchanged, the reference the current
  one is measured against (``benchmarks/expert.py --versus expert1``).

A bot that reads no row of the observation but its own may say so with a class attribute
``own_row_only = True`` (``random`` does): the simulator then hands it *partial* observations,
``rows`` holding only its own row, every other field as ``observe`` gives it
(``GameState.observation``'s ``own_row_only``); the others' rows are most of an observation's cost.

No bot makes a multi-replacement it knows must fail (``counting.known_to_fail``). All are
deterministic given the ``random.Random`` the simulator passes in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from cabo_log.play.counting import known_to_fail
from cabo_log.play.expert import ExpertBot
from cabo_log.play.expert1 import Expert1Bot
from cabo_log.play.greedy import CautiousBot, GreedyBot
from cabo_log.play.random_bot import RandomBot
from engine.events import Event
from engine.knowledge import Observation
from engine.rulesets import Ruleset


class Bot(Protocol):
    """What the simulator asks of a player. Every method sees an observation, never the state."""

    name: str

    def choose(self, observation: Observation, legal_moves: Sequence[Event],
               rng: random.Random) -> Event:
        """The move to make now: one of ``legal_moves`` (fields ``into``/``end`` may be set)."""
        ...

    def peek(self, observation: Observation, options: Sequence[Event],
             rng: random.Random) -> Event | None:
        """The initial peek (one of ``options``), or None to look at nothing."""
        ...

    def snap(self, observation: Observation, options: Sequence[Event],
             rng: random.Random) -> Event | None:
        """Golf: a snap (one of ``options``, all of them this player's) or None."""
        ...


BotFactory = Callable[[Ruleset], Bot]

BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot,
                               "cautious": CautiousBot, "expert": ExpertBot,
                               "expert1": Expert1Bot}


def make_bot(name: str, rules: Ruleset) -> Bot:
    """A new bot of the registered kind ``name`` for a match under ``rules``."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})") from None
    return factory(rules)


__all__ = ["BOTS", "Bot", "BotFactory", "CautiousBot", "Expert1Bot", "ExpertBot", "GreedyBot",
           "RandomBot", "known_to_fail", "make_bot"]
