"""``cabo-log play``: a person plays a match against bots in the terminal.

The table works like the simulator's: it shuffles and deals, asks the bots for their moves from
their observations, and asks the person for theirs from the list of legal moves. Every event is
appended to the log as it happens, through the append API (checked, flushed and fsync'd), so
stopping at any moment — Ctrl-C, ``q``, a closed terminal — leaves a valid log of the match so
far, and ``--resume`` carries on from it. The header records who is who (``human``, ``bots``)
and the seed.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson

from cabo_log.log.gamelog import GameLog
from cabo_log.log.round_words import round_account
from cabo_log.log.words import Narrator
from cabo_log.play import menus
from cabo_log.play.bots import Bot, bot_snap, initial_peeks, make_bot
from cabo_log.play.dealer import Dealer
from cabo_log.play.menus import Entry, Slot
from cabo_log.play.prompt import WIDTH, card_text, table_text
from cabo_log.play.simulate import MAX_SNAPS, PLAYER_IDS, table
from engine import Event, GameStart, GameState, Outcome, parse_event
from engine.events import FORMAT, Draw, GameEnd, RoundEnd
from engine.knowledge import Observation, observe
from engine.moves import legal_moves, needs_deal, snap_moves
from engine.vocabulary import TURN_START

Ask = Callable[[str], str]      # shows a prompt, returns the line typed (EOFError at the end)
Say = Callable[[str], None]


_YOU = [("you's ", "your "), ("you takes ", "you take "), ("you plays ", "you play "),
        ("you scores ", "you score "), ("you holds ", "you hold "), ("you ties ", "you tie "),
        ("you goes ", "you go "), ("you is ", "you are ")] + [
    (f"you {verb} their ", f"you {verb} your ")
    for verb in ("looked at", "replaced", "snapped", "peeked at", "swapped", "tried to replace")]


def second_person(text: str, me: str) -> str:
    """The table's words about a player named ``you``, in plain English ("your card 2")."""
    if me != "you":
        return text
    for third, second in _YOU:
        text = text.replace(third, second).replace(third.capitalize(), second.capitalize())
    return text


class Quit(Exception):
    """The player asked to stop (``q`` or the end of the input); the log is saved."""


def new_match(out: str | Path, ruleset: str, players: int, bots: str, *, seat: str = "you",
              seed: int | None = None, options: dict[str, Any] | None = None) -> GameLog:
    """Create the log of a new match: the person at seat 0 under the name ``seat``."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    if not 2 <= players <= len(PLAYER_IDS):
        raise ValueError(f"a match here has 2 to {len(PLAYER_IDS)} players, not {players}")
    others = [p for p in PLAYER_IDS if p != seat][:players - 1]
    kinds = [b.strip() for b in bots.split(",")]
    table(ruleset, players=[seat, *others], options=options, bots=kinds[:players])  # checks
    header = {"type": "game", "format": FORMAT, "seq": 0, "game_id": Path(out).stem,
              "ruleset": ruleset, "options": dict(options or {}), "players": [seat, *others],
              "human": seat, "seed": seed,
              "bots": {p: kinds[i % len(kinds)] for i, p in enumerate(others)}}
    return GameLog.create(out, header)


class Match:
    """One person's match against bots, written live into ``log``."""

    def __init__(self, log: GameLog, ask: Ask, say: Say) -> None:
        header = orjson.loads(log.sink.committed().split(b"\n", 1)[0])
        assert log.state is not None
        self.log, self.ask, self.say = log, ask, say
        g = self.state
        seats = header.get("bots")
        if not isinstance(header.get("human"), str) or not isinstance(seats, dict) \
                or set(seats) | {header["human"]} != set(g.players):
            raise ValueError(f"{log.file} was not started by cabo-log play (its header does not "
                             "say which player is the person and which are bots)")
        self.me: str = header["human"]
        self.bots: dict[str, Bot] = {p: make_bot(b, g.rules) for p, b in seats.items()}
        salt = f"{header.get('seed', 0)}/{g.events}"  # a resumed match reshuffles afresh
        self.cards = random.Random(f"cards/{salt}")
        self.rngs = {p: random.Random(f"{p}/{salt}") for p in g.players}
        self.words = Narrator(self.me)
        self.words.round_summaries = False   # a round's end gets its whole account instead
        self.window = 0  # snaps since the last turn began (bots stop after MAX_SNAPS)
        start = parse_event(header)
        assert isinstance(start, GameStart)
        self.words.begin(g, start)
        self.dealer = Dealer(log, self.cards, self._heard)

    @property
    def state(self) -> GameState:
        assert self.log.state is not None
        return self.log.state

    # --- the loop -------------------------------------------------------------------------
    def play(self) -> GameState:
        """Play until the match ends; raises ``Quit`` when the person stops."""
        g = self.state
        self._peeks()  # a resumed round may still be at its peeks
        while not g.complete:
            if needs_deal(g):
                self._deal()
                self._peeks()
            elif g.phase == TURN_START and self._snaps():
                continue
            else:
                player = g.players[g.to_act()]
                moves = legal_moves(g)
                if player == self.me:
                    if g.phase == TURN_START:
                        moves += [m for m in snap_moves(g) if getattr(m, "player", "") == player]
                    move = self._choose(moves, "Your move:")
                else:
                    move = self.bots[player].choose(observe(g, player), moves, self.rngs[player])
                self._append(move)
        self.say("")
        self.say("The match is over: " + ", ".join(g.winners) + (" wins" if len(g.winners) == 1
                                                                  else " win"))
        return g

    def _choose(self, options: Sequence[Event], title: str) -> Event:
        """The person's move: a number of the top menu, then, for a swap, a spy or several
        cards at once, the cards in small steps (``menus``); b in a step goes back."""
        obs = observe(self.state, self.me)
        menu = menus.entries(options, obs)
        while True:
            self._screen(obs, title, menus.entry_lines(menu))
            while True:
                answer = self._answer()
                if answer.isdigit() and 1 <= int(answer) <= len(menu):
                    break
                self.say(f"  type a number from 1 to {len(menu)}, or q")
            entry = menu[int(answer) - 1]
            move = entry.move if entry.move is not None else self._steps(entry, obs)
            if move is not None:
                return move

    def _screen(self, obs: Observation, title: str, lines: Sequence[str]) -> None:
        """The table as the person knows it, then a question and its choices."""
        self.say("")
        for line in [*table_text(obs), title, *lines]:
            self.say(line)

    def _answer(self) -> str:
        try:
            answer = self.ask("> ").strip()
        except EOFError:
            raise Quit() from None
        if answer.lower() in menus.QUIT:
            raise Quit()
        return answer

    def _steps(self, entry: Entry, obs: Observation) -> Event | None:
        """The move an entry of many forms stands for, chosen step by step (None: back)."""
        if entry.swaps:
            firsts = menus.first_slots(entry.swaps)
            own = all(p == self.me for p, _ in firsts)
            while True:
                first = self._slot(firsts, obs, "Your card to swap:" if own
                                   else "The first card of the swap:")
                if first is None:
                    return None
                seconds = menus.second_slots(entry.swaps, first)
                shown = self._named(first, obs)
                second = self._slot(seconds, obs, f"Swap {shown} with which card?")
                if second is not None:
                    return menus.swap_of(entry.swaps, first, second)
        if entry.targets:
            slot = self._slot(menus.target_slots(entry.targets), obs, "Spy on which card?")
            return None if slot is None else menus.spy_of(entry.targets, slot)
        if entry.snaps:
            top = card_text(obs.discard[-1]) if obs.discard else "?"
            slot = self._slot(menus.snap_slots(entry.snaps), obs,
                              f"Snap which of your cards onto the {top}?")
            return None if slot is None else menus.snap_of(entry.snaps, slot)
        return self._several(entry, obs)

    def _slot(self, slots: Sequence[Slot], obs: Observation, title: str) -> Slot | None:
        self._screen(obs, title, menus.grid(slots, obs))
        while True:
            answer = self._answer()
            if answer.lower() in menus.BACK:
                return None
            slot = menus.read_slot(answer, slots, obs)
            if slot is not None:
                return slot
            self.say(menus.grid(slots, obs)[-1].replace("   type", "  type", 1))

    def _several(self, entry: Entry, obs: Observation) -> Event | None:
        held = card_text(obs.drawn)
        self._screen(obs, f"Which of your cards do you replace with the {held}?",
                     ["   Type their positions, e.g. 0 1: all the same value, or the "
                      "replacement fails.", "   b: back, q: quit"])
        while True:
            answer = self._answer()
            if answer.lower() in menus.BACK:
                return None
            positions = menus.read_positions(answer)
            move = menus.replace_of(entry.several, positions) if positions else None
            if move is not None:
                return move
            sizes = sorted({len(m.positions) for m in entry.several})
            self.say(f"  type {sizes[0]} to {sizes[-1]} different positions of your row "
                     "(e.g. 0 1), or b")

    def _named(self, slot: Slot, obs: Observation) -> str:
        player, pos = slot
        row = obs.rows.get(player, ())
        card = card_text(row[pos]) if pos < len(row) else "??"
        whose = "your" if player == self.me else f"{player}'s"
        return f"{whose} card {pos} ({card})"

    # --- the table ------------------------------------------------------------------------
    def _append(self, event: Event) -> None:
        """Append one move through the dealer (the drawn card named, a due reshuffle made
        first, the claims a round's or the match's end calls for after it)."""
        self.dealer.write(event)

    def _heard(self, event: Event, done: Outcome) -> None:
        """A line was written: tell it, and at a round's end give its whole account."""
        g = self.state
        if isinstance(event, Draw):
            self.window = 0
        self.words.event(self.log.lines, event, g, done)
        if not isinstance(event, (RoundEnd, GameEnd)):   # the log's claims: bookkeeping
            self.say(f"  {second_person(self.words.text, self.me)}")
        if done.round_ended is not None:
            self.say("")
            for line in round_account(done.round_ended, g.rules, self.me, width=None):
                for part in textwrap.wrap(second_person(line, self.me), WIDTH,
                                          drop_whitespace=False, subsequent_indent="  "):
                    self.say(part.rstrip())

    def _deal(self) -> None:
        self.say("")
        self.dealer.deal()

    def _peeks(self) -> None:
        def ask(player: str, options: Sequence[Event]) -> Event:
            return self._choose(options, "Which two of your cards do you look at?")

        for choice in initial_peeks(self.state, self.bots, self.rngs, ask):
            self._append(choice)

    def _snaps(self) -> bool:
        """Golf: a bot may snap between turns (the person snaps from their own menu)."""
        choice = bot_snap(self.state, self.bots, self.rngs) if self.window < MAX_SNAPS else None
        if choice is None:
            return False
        self.window += 1
        self._append(choice)
        return True
