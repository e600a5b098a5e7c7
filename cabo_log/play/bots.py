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
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Protocol

from cabo_log.play.counting import known_to_fail
from cabo_log.play.expert import ExpertBot
from cabo_log.play.expert1 import Expert1Bot
from cabo_log.play.greedy import CautiousBot, GreedyBot
from cabo_log.play.random_bot import RandomBot
from engine.events import Event, Snap
from engine.knowledge import Observation, observe
from engine.moves import peek_moves, snap_moves
from engine.rulesets import Ruleset
from engine.state import GameState


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


def initial_peeks(g: GameState, bots: Mapping[str, Bot], rngs: Mapping[str, random.Random],
                  ask: Callable[[str, Sequence[Event]], Event | None]) -> Iterator[Event]:
    """The initial peeks of a fresh round, in seat order, each yielded to be written before
    the next player's options are read: a bot's own choice (``bots``, each with its own
    ``rngs[name]``), the only one the rules leave a person, or ``ask(name, options)``'s when a
    person has several (None: they choose later). A peek of nothing yields nothing."""
    for seat in g.participants():
        name = g.players[seat]
        options = peek_moves(g, name)
        if not options:
            continue
        bot = bots.get(name)
        if bot is not None:
            choice = bot.peek(observe(g, name), options, rngs[name])
        elif len(options) == 1:
            choice = options[0]    # the rules fix which cards are looked at
        else:
            choice = ask(name, options)
        if choice is not None:
            yield choice


def bot_snap(g: GameState, bots: Mapping[str, Bot], rngs: Mapping[str, random.Random]
             ) -> Event | None:
    """Golf, between turns: the snap of the first of ``bots`` (in their order) that makes one,
    each asked from its own observation with its own ``rngs[name]``; None when no snap is
    legal or none makes one. A bot out of the round, or with fewer than two cards, is not asked
    (an empty row could not take the discard). The tables that mix people and bots (``play``,
    the host) ask through here; the caller writes the snap and counts it."""
    options = snap_moves(g)
    if not options:
        return None
    for name, bot in bots.items():
        seat = g.seat[name]
        if not g.in_round(seat) or g.row_size(seat) < 2:
            continue
        mine = [m for m in options if isinstance(m, Snap) and m.player == name]
        choice = bot.snap(observe(g, name), mine, rngs[name])
        if choice is not None:
            return choice
    return None


__all__ = ["BOTS", "Bot", "BotFactory", "CautiousBot", "Expert1Bot", "ExpertBot", "GreedyBot",
           "RandomBot", "bot_snap", "initial_peeks", "known_to_fail", "make_bot"]
