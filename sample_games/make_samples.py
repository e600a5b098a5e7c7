"""Write the sample games of ``sample_games/`` (and the broken logs of ``sample_games/invalid/``).

Run from the repository root: ``.venv/bin/python sample_games/make_samples.py``. The output is
deterministic: every deck is stacked by hand or shuffled with a fixed seed, and the turns that are
not scripted are played by ``Bot``, a small policy that looks only at what the player to act
knows. Every line goes through ``LogBuilder`` in strict mode, so each event is checked by the
engine as it is written; each scenario then asserts that the special case it exists for really
happened (a Kamikaze was scored, a reset applied, ...). Both README files are written too.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run as a script from anywhere

from cabo_log.log.builder import LogBuilder  # noqa: E402
from cabo_log.log.logfile import dumps_event  # noqa: E402
from cabo_log.log.replay import replay_file  # noqa: E402
from engine import GameState  # noqa: E402
from engine.knowledge import visible  # noqa: E402
from engine.moves import needs_reshuffle  # noqa: E402
from engine.state import DRAWN, POWER, TURN_START  # noqa: E402

PLAYING = (TURN_START, DRAWN, POWER)
STARTED_AT = "2026-11-29T20:00:00Z"

# --- the policy --------------------------------------------------------------------------------


class Bot:
    """Plays every seat of a ``LogBuilder`` game with simple, plausible, deterministic rules.

    Draw; keep a card lower than the highest card you know you hold (several equal known cards
    go out together where the ruleset allows it); otherwise discard it and use its power (peek at
    an unknown own card, spy on an unknown card of the next player, swap away a high known card);
    take the discard when it is very low; snap (golf) a known card equal to the discard; call Cabo
    when the estimated total (unknown cards count 6) is low.
    """

    def __init__(self, b: LogBuilder, seed: int, *, cabo_at: int = 8, cards: bool = True) -> None:
        self.b = b
        self.rng = random.Random(seed)
        self.cabo_at = cabo_at
        self.cards = cards  # write the optional ``card`` cross-check on deck draws

    @property
    def g(self) -> GameState:
        assert self.b.state is not None
        return self.b.state

    # --- what a player knows ---------------------------------------------------------------
    def own(self, seat: int) -> list[tuple[int, int | None]]:
        """(position, value or None when the player does not know the card)."""
        g = self.g
        return [(i, g.round.values[c] if visible(g, seat, c) else None)
                for i, c in enumerate(g.round.rows[seat])]

    def estimate(self, seat: int) -> int:
        return sum(6 if v is None else v for _, v in self.own(seat))

    def opponents(self, seat: int) -> list[int]:
        g = self.g
        n = len(g.players)
        return [s for s in ((seat + k) % n for k in range(1, n)) if g.in_round(s)]

    # --- a round ---------------------------------------------------------------------------
    def deal(self, seed: int, first: str | None = None) -> None:
        """Deal a shuffled deck to whoever plays the next round."""
        g, b = self.g, self.b
        seats = list(g.tiebreak) if g.tiebreak is not None else g.active_players()
        codes = b.rules.deck_codes()
        random.Random(seed).shuffle(codes)
        hands = {g.players[s]: codes[4 * k:4 * k + 4] for k, s in enumerate(seats)}
        n = 4 * len(seats)
        if first is None and b.rules.first_player == "logged":
            first = g.players[seats[len(g.rounds) % len(seats)]]  # the deal rotates
        b.deal(hands, codes[n], deck=codes[n + 1:], first=first)

    def peeks(self) -> None:
        g, rules = self.g, self.b.rules
        for seat in g.round.participants:
            if rules.peek_positions is not None:
                positions = list(rules.peek_positions)
            else:
                positions = sorted(self.rng.sample(range(4), rules.peek_count))
            self.b.peek(g.players[seat], positions)

    def play_round(self, *, cabo: Callable[[GameState], bool | None] | None = None,
                   deck_only: Callable[[GameState], bool] | None = None,
                   max_turns: int = 400) -> None:
        """Play until the round is over. ``cabo`` overrides the Cabo decision when it returns a
        bool; ``deck_only`` forbids taking the discard."""
        g = self.g
        while g.phase in PLAYING:
            self.snaps()
            if g.round.turn > max_turns:
                raise RuntimeError("the bot's round does not end")
            self.turn(cabo, deck_only is not None and deck_only(g))

    def finish_match(self, seed: int, *, max_rounds: int = 40) -> None:
        """Deal and play rounds (with their claims) until the match is over, then claim it."""
        g = self.g
        while not g.complete:
            if len(g.rounds) > max_rounds:
                raise RuntimeError("the bot's match does not end")
            self.deal(seed * 1000 + len(g.rounds))
            self.peeks()
            self.play_round()
            self.b.round_end()
        self.b.game_end()

    # --- a turn ----------------------------------------------------------------------------
    def wants_cabo(self, seat: int) -> bool:
        g = self.g
        if not g.round.rows[seat]:
            return True
        if g.round.turn < len(g.round.participants):
            return False
        estimate = self.estimate(seat)
        late = g.round.turn > 6 * len(g.round.participants)
        return estimate <= self.cabo_at or (late and estimate <= self.cabo_at + 6)

    def wants_top(self, seat: int, value: int) -> bool:
        if value > 3:
            return False
        own = self.own(seat)
        known = [v for _, v in own if v is not None]
        unknown = len(own) - len(known)
        return (bool(known) and max(known) >= value + 5) or (unknown > 0 and value <= 1)

    def turn(self, cabo: Callable[[GameState], bool | None] | None = None,
             deck_only: bool = False) -> None:
        g, b = self.g, self.b
        seat = g.round.current
        me = g.players[seat]
        if g.round.caller < 0:
            decision = cabo(g) if cabo is not None else None
            if decision is None:
                decision = self.wants_cabo(seat)
            if decision:
                b.cabo(me)
                return
        take = (not deck_only and bool(g.round.pile) and bool(g.round.rows[seat])
                and self.wants_top(seat, g.round.values[g.round.pile[-1]]))
        if not take and not g.round.deck:
            if needs_reshuffle(g):
                self.reshuffle()
            elif g.round.pile and g.round.rows[seat]:
                take = True
            else:
                raise RuntimeError("no card to take")
        if take:
            b.draw(me, "discard")
        else:
            b.draw(me, "deck", card=g.round.codes[g.round.deck[-1]] if self.cards else None)
        self.place(seat)
        if g.phase == POWER:
            self.power(seat)

    def reshuffle(self) -> None:
        g = self.g
        deck = [g.round.codes[c] for c in g.round.pile[:-1]]
        self.rng.shuffle(deck)
        self.b.reshuffle(deck)

    def place(self, seat: int) -> None:
        g, b = self.g, self.b
        me = g.players[seat]
        value = g.round.values[g.round.drawn]
        own = self.own(seat)
        known = [(p, v) for p, v in own if v is not None]
        unknown = [p for p, v in own if v is None]
        limit = b.rules.max_replace or 4
        groups: dict[int, list[int]] = {}
        for p, v in known:
            groups.setdefault(v, []).append(p)
        multi = [(v, ps[:limit]) for v, ps in groups.items() if len(ps) >= 2 and v > value]
        best = max(known, key=lambda pv: pv[1], default=None)
        if limit >= 2 and multi:
            v, positions = max(multi, key=lambda m: m[0] * len(m[1]))
            if best is None or v * len(positions) - value > best[1] - value:
                into = positions[-1] if b.rules.choose_failed_end else None
                b.replace(me, positions, into=into)
                return
        if best is not None and best[1] > value:
            b.replace(me, [best[0]])
        elif unknown and (value <= 4 or g.round.drawn_source == "discard"):
            b.replace(me, [self.rng.choice(unknown)])
        elif g.round.drawn_source == "discard":
            assert best is not None
            b.replace(me, [best[0]])
        else:
            b.discard(me)

    def power(self, seat: int) -> None:
        g, b = self.g, self.b
        me = g.players[seat]
        kind = g.round.pending_power
        own = self.own(seat)
        if kind == "peek":
            unknown = [p for p, v in own if v is None]
            if unknown:
                b.peek_power(me, unknown[0])
                return
        elif kind == "spy":
            for other in self.opponents(seat):
                hidden = [i for i, c in enumerate(g.round.rows[other]) if not visible(g, seat, c)]
                if hidden:
                    b.spy(me, g.players[other], hidden[0])
                    return
        elif kind == "swap":
            known = [(p, v) for p, v in own if v is not None]
            best = max(known, key=lambda pv: pv[1], default=None)
            if best is not None and best[1] >= 9:
                targets = [(g.round.values[c] if visible(g, seat, c) else 6, o, i)
                           for o in self.opponents(seat) for i, c in enumerate(g.round.rows[o])]
                if targets:
                    low, other, pos = min(targets)
                    if low + 3 <= best[1]:
                        b.swap(me, (me, best[0]), (g.players[other], pos))
                        return
        b.skip(me)

    def snaps(self) -> None:
        """Golf: between turns, any player snaps a card they know equals the discard."""
        g = self.g
        if not g.rules.snap:
            return
        snapped = True
        while snapped and g.phase == TURN_START and g.round.pile:
            snapped = False
            top = g.round.values[g.round.pile[-1]]
            for seat in [g.round.current, *self.opponents(g.round.current)]:
                match = [p for p, v in self.own(seat) if v == top]
                if match:
                    self.b.snap(g.players[seat], match[0])
                    snapped = True
                    break


# --- helpers for scripted rounds ---------------------------------------------------------------


def game(ruleset: str | dict[str, object], players: list[str], name: str, *,
         header: dict[str, object] | None = None, **options: object) -> LogBuilder:
    """A new game (``options`` go into the header's options, ``header`` beside them)."""
    return LogBuilder(ruleset, players, options=dict(options), game_id=f"sample-{name}",
                      started_at=STARTED_AT, **(header or {}))


def quiet(b: LogBuilder, player: str) -> None:
    """Draw from the deck and discard (no power used)."""
    assert b.state is not None
    b.draw(player, "deck", card=b.state.round.codes[b.state.round.deck[-1]]).discard(player)
    if b.state.phase == POWER:
        b.skip(player)


def last_round(b: LogBuilder) -> dict[str, object]:
    assert b.state is not None and b.state.rounds
    return b.state.rounds[-1].as_dict()


# --- the sample games --------------------------------------------------------------------------
# Each function returns the builder of one complete match (except the in-progress one) and the
# one-line description that goes into README.md.


def edition1_match() -> tuple[LogBuilder, str]:
    b = game("edition1", ["ana", "bruno", "carla"], "edition1-match")
    Bot(b, 11).finish_match(11)
    return b, ("A complete edition1 match for three, played by the sample bot: initial peeks, "
               "all three powers (edition1's swap), multi-replacements, Cabo calls won and "
               "lost, the lowest hand scoring 0.")


def edition1_kamikaze() -> tuple[LogBuilder, str]:
    b = game("edition1", ["ana", "bruno", "carla"], "edition1-kamikaze")
    b.deal({"ana": ["12", "12", "13", "13"], "bruno": ["3", "9", "4", "11"],
            "carla": ["6", "2", "10", "5"]}, "8",
           ["7", "3", "10", "8", "1", "0", "5", "9"], first="ana", rest=101)
    b.peek("ana", [0, 1]).peek("bruno", [0, 1]).peek("carla", [2, 3])
    b.draw("ana", card="7").discard("ana").peek_power("ana", 2)        # 13
    b.draw("bruno", card="3").replace("bruno", [1])                       # 9 out
    b.draw("carla", card="10").discard("carla").spy("carla", "ana", 0)
    b.draw("ana", card="8").discard("ana").peek_power("ana", 3)        # 13: all four known
    b.draw("bruno", card="1").replace("bruno", [3])
    b.draw("carla", card="0").replace("carla", [2])
    b.cabo("ana")
    quiet(b, "bruno")
    b.draw("carla", card="9").discard("carla").spy("carla", "bruno", 0)
    r = last_round(b)
    assert r["special"] == ["ana"] and r["points"] == {"ana": 0, "bruno": 50, "carla": 50}, r
    b.round_end()
    Bot(b, 12).finish_match(12)
    assert b.state is not None and b.state.winners == ("ana", "bruno")
    return b, ("edition1 Kamikaze: ana keeps 12 12 13 13, learns all four with peek powers and "
               "calls Cabo; she scores 0, the others 50 (her call itself failed). The bot "
               "plays on; the match ends in a shared win (ana and bruno on 96).")


def edition1_exact_100() -> tuple[LogBuilder, str]:
    b = game("edition1", ["ana", "bruno"], "edition1-exact-100")
    # round 1: bruno's Kamikaze gives ana 50
    b.deal({"ana": ["5", "9", "2", "11"], "bruno": ["12", "13", "12", "13"]}, "4",
           ["6", "7", "3", "8", "10", "1"], first="ana", rest=201)
    b.peek("ana", [1, 2]).peek("bruno", [0, 1])
    b.draw("ana", card="6").replace("ana", [1])
    b.draw("bruno", card="7").discard("bruno").peek_power("bruno", 2)
    b.draw("ana", card="3").replace("ana", [0])
    b.draw("bruno", card="8").discard("bruno").peek_power("bruno", 3)
    b.draw("ana", card="10").discard("ana").spy("ana", "bruno", 0)
    b.cabo("bruno")
    b.draw("ana", card="1").replace("ana", [3])
    assert last_round(b)["points"] == {"ana": 50, "bruno": 0}
    b.round_end()
    # round 2: bruno calls Cabo with the lowest hand; ana scores her 27
    b.deal({"ana": ["9", "7", "8", "6"], "bruno": ["1", "2", "0", "4"]}, "11",
           ["5", "10", "8", "6", "11"], first="bruno", rest=202)
    b.peek("ana", [0, 3]).peek("bruno", [0, 1])
    b.draw("bruno", card="5").discard("bruno")
    b.draw("ana", card="10").discard("ana").spy("ana", "bruno", 0)
    b.draw("bruno", card="8").discard("bruno").peek_power("bruno", 2)
    b.draw("ana", card="6").replace("ana", [0])
    b.cabo("bruno")
    b.draw("ana", card="11").discard("ana").skip("ana")
    assert last_round(b)["points"] == {"ana": 27, "bruno": 0}
    b.round_end()
    # round 3: ana scores 23 -> exactly 100 -> reset to 50
    b.deal({"ana": ["10", "5", "9", "6"], "bruno": ["3", "1", "11", "2"]}, "7",
           ["8", "0", "3", "13"], first="ana", rest=203)
    b.peek("ana", [0, 1]).peek("bruno", [1, 3])
    b.draw("ana", card="8").discard("ana").peek_power("ana", 2)
    b.draw("bruno", card="0").replace("bruno", [2])
    b.draw("ana", card="3").replace("ana", [0])
    b.cabo("bruno")
    quiet(b, "ana")
    r = last_round(b)
    assert r["points"] == {"ana": 23, "bruno": 0} and r["resets"] == ["ana"], r
    assert r["cumulative"] == {"ana": 50, "bruno": 0}, r
    b.round_end()
    # round 4: another Kamikaze by bruno: ana 50 + 50 = 100 -> reset to 50 again
    b.deal({"ana": ["4", "10", "6", "9"], "bruno": ["13", "12", "12", "13"]}, "2",
           ["7", "5", "8", "1", "11"], first="bruno", rest=204)
    b.peek("ana", [2, 3]).peek("bruno", [1, 2])
    b.draw("bruno", card="7").discard("bruno").peek_power("bruno", 0)
    b.draw("ana", card="5").replace("ana", [3])
    b.draw("bruno", card="8").discard("bruno").peek_power("bruno", 3)
    b.draw("ana", card="1").replace("ana", [2])
    b.cabo("bruno")
    quiet(b, "ana")
    r = last_round(b)
    assert r["special"] == ["bruno"] and r["resets"] == ["ana"], r
    assert r["cumulative"] == {"ana": 50, "bruno": 0}, r
    b.round_end()
    Bot(b, 13).finish_match(13)
    return b, ("edition1's exact 100 -> 50, twice for the same player: ana reaches exactly 100 "
               "in round 3 (50 + 27 + 23) and again in round 4 (50 + a Kamikaze's 50); both "
               "times her score is reset to 50. Round 1 is a Kamikaze too.")


def house_rules() -> tuple[LogBuilder, str]:
    rules = {"base": "edition1", "name": "penalty-seven", "caller_penalty": 7}
    b = game(rules, ["ana", "bruno", "carla"], "house-rules")
    b.deal({"ana": ["2", "4", "9", "1"], "bruno": ["3", "1", "0", "6"],
            "carla": ["8", "11", "7", "12"]}, "10",
           ["6", "5", "9", "12", "2"], first="ana", rest=301)
    b.peek("ana", [0, 1]).peek("bruno", [1, 2]).peek("carla", [0, 2])
    b.draw("ana", card="6").discard("ana")
    b.draw("bruno", card="5").replace("bruno", [0])
    b.draw("carla", card="9").discard("carla").spy("carla", "ana", 2)
    b.cabo("ana")                           # ana knows 2 + 4; 9 and 1 are a guess
    b.draw("bruno", card="12").discard("bruno").skip("bruno")
    b.draw("carla", card="2").replace("carla", [3])
    r = last_round(b)
    assert r["cabo_success"] is False and r["points"]["ana"] == 16 + 7, r
    b.round_end()
    Bot(b, 31).finish_match(31)
    return b, ("House rules: edition1 with a caller penalty of 7, written as a ruleset object in "
               "the header (`{\"base\": \"edition1\", \"name\": \"penalty-seven\", "
               "\"caller_penalty\": 7}`). ana's Cabo in round 1 fails: 16 + 7 = 23 points.")


def edition2_match() -> tuple[LogBuilder, str]:
    b = game("edition2", ["ana", "bruno", "carla", "dora"], "edition2-match")
    Bot(b, 21, cards=False).finish_match(21)
    return b, ("A complete edition2 match for four, played by the sample bot. The first player "
               "of each later round is whoever scored fewest in the previous one. The deck "
               "draws carry no `card` field (it is optional).")


def edition2_kamikaze() -> tuple[LogBuilder, str]:
    b = game("edition2", ["ana", "bruno", "carla"], "edition2-kamikaze")
    b.deal({"ana": ["1", "2", "0", "3"], "bruno": ["12", "12", "13", "13"],
            "carla": ["5", "6", "9", "8"]}, "4",
           ["7", "11", "2", "8", "9", "4", "10", "3"], first="ana", rest=401)
    b.peek("ana", [0, 1]).peek("bruno", [0, 1]).peek("carla", [0, 1])
    b.draw("ana", card="7").discard("ana").peek_power("ana", 2)
    b.draw("bruno", card="11").discard("bruno").skip("bruno")
    b.draw("carla", card="2").replace("carla", [0])
    b.draw("ana", card="8").discard("ana").peek_power("ana", 3)    # ana knows 1 2 0 3
    b.draw("bruno", card="9").discard("bruno").spy("bruno", "ana", 0)
    b.draw("carla", card="4").replace("carla", [1])
    b.cabo("ana")
    b.draw("bruno", card="10").discard("bruno").spy("bruno", "carla", 2)
    b.draw("carla", card="3").replace("carla", [3])
    r = last_round(b)
    assert r["cabo_success"] is True and r["special"] == ["bruno"], r
    assert r["points"] == {"ana": 50, "bruno": 0, "carla": 50}, r
    b.round_end()
    Bot(b, 41).finish_match(41)
    return b, ("edition2 Kamikaze overriding a successful Cabo: ana calls with the lowest hand "
               "(6, `cabo_success: true`) but bruno holds 12 12 13 13, so bruno scores 0 and "
               "ana and carla 50 each. bruno, with the fewest points, starts round 2.")


def _kamikaze_round(b: LogBuilder, first: str, seed: int) -> None:
    """A short two-player round (ana, bruno) in which bruno keeps and calls a Kamikaze."""
    ana_turns = [lambda: b.draw("ana", card="6").replace("ana", [1]),
                 lambda: b.draw("ana", card="3").replace("ana", [0])]
    if first == "ana":
        ana_turns.append(lambda: b.draw("ana", card="1").replace("ana", [3]))
    bruno_turns = [lambda: b.draw("bruno", card="7").discard("bruno").peek_power("bruno", 2),
                   lambda: b.draw("bruno", card="8").discard("bruno").peek_power("bruno", 3),
                   lambda: b.cabo("bruno")]
    order = [ana_turns, bruno_turns] if first == "ana" else [bruno_turns, ana_turns]
    deck_top = ["6", "7", "3", "8", "1"] if first == "ana" else ["7", "6", "8", "3"]
    b.deal({"ana": ["5", "9", "2", "11"], "bruno": ["12", "13", "12", "13"]}, "4",
           [*deck_top, "10"], first=first, rest=seed)
    b.peek("ana", [1, 2]).peek("bruno", [0, 1])
    for k in range(3):
        for turns in order:
            if k < len(turns):
                turns[k]()
    b.draw("ana", card="10").discard("ana").spy("ana", "bruno", 0)   # ana's final turn
    assert last_round(b)["special"] == ["bruno"]


def edition2_exact_100() -> tuple[LogBuilder, str]:
    b = game("edition2", ["ana", "bruno"], "edition2-exact-100")
    _kamikaze_round(b, "ana", 501)
    assert last_round(b)["points"] == {"ana": 50, "bruno": 0}
    b.round_end()
    # round 2: bruno (fewest points) starts and calls with the lowest hand; ana scores 22
    b.deal({"ana": ["9", "7", "8", "6"], "bruno": ["1", "2", "0", "4"]}, "11",
           ["5", "10", "8", "1", "11"], rest=502)
    b.peek("ana", [0, 3]).peek("bruno", [0, 1])
    b.draw("bruno", card="5").discard("bruno")
    b.draw("ana", card="10").discard("ana").spy("ana", "bruno", 0)
    b.draw("bruno", card="8").discard("bruno").peek_power("bruno", 2)
    b.draw("ana", card="1").replace("ana", [0])
    b.cabo("bruno")
    b.draw("ana", card="11").discard("ana").skip("ana")
    assert last_round(b)["points"] == {"ana": 22, "bruno": 0}
    b.round_end()
    # round 3: ana scores 28 -> exactly 100 -> reset to 50 (her one reset)
    b.deal({"ana": ["10", "5", "9", "4"], "bruno": ["3", "1", "11", "2"]}, "7",
           ["0", "8", "13"], rest=503)
    b.peek("ana", [0, 1]).peek("bruno", [1, 3])
    b.draw("bruno", card="0").replace("bruno", [2])
    b.draw("ana", card="8").discard("ana").peek_power("ana", 2)
    b.cabo("bruno")
    quiet(b, "ana")
    r = last_round(b)
    assert r["resets"] == ["ana"] and r["cumulative"] == {"ana": 50, "bruno": 0}, r
    b.round_end()
    # round 4: bruno's Kamikaze puts ana on exactly 100 a second time: no reset, match over
    _kamikaze_round(b, "bruno", 504)
    r = last_round(b)
    assert r["special"] == ["bruno"] and r["resets"] == [], r
    assert b.state is not None and b.state.complete and b.state.winners == ("bruno",)
    b.round_end().game_end()
    return b, ("edition2's exact 100 -> 50 only once: ana reaches exactly 100 in round 3 "
               "(reset to 50); when bruno's second Kamikaze puts her on exactly 100 again in "
               "round 4 there is no reset and the match ends (ana 100, bruno 0).")


def edition2_deck_empty() -> tuple[LogBuilder, str]:
    b = game("edition2", ["ana", "bruno", "carla"], "edition2-deck-empty")
    bot = Bot(b, 61)
    # round 1: nobody calls Cabo; the round ends when the draw pile runs out
    bot.deal(6101)
    bot.peeks()
    bot.play_round(cabo=lambda g: False)
    r = last_round(b)
    assert r["end"] == "deck_empty" and r["caller"] is None, r
    b.round_end()
    # round 2: Cabo with one card left; the next player draws it and the round ends at once,
    # the last final turn cut short; the caller is still scored as the caller
    bot.deal(6102)
    bot.peeks()
    bot.play_round(cabo=lambda g: len(g.round.deck) == 1, deck_only=lambda g: g.round.caller >= 0)
    r = last_round(b)
    assert r["end"] == "deck_empty" and r["caller"] is not None, r
    b.round_end()
    bot.finish_match(61)
    return b, ("edition2's empty draw pile ends the round: in round 1 nobody calls Cabo and "
               "the round ends with the last card (`end: deck_empty`); in round 2 Cabo is "
               "called with one card left, the next player draws it and the round ends before "
               "the last final turn, the caller still scored as the caller.")


def edition1_multi_replace() -> tuple[LogBuilder, str]:
    b = game("edition1", ["ana", "bruno", "carla"], "edition1-multi-replace")
    b.deal({"ana": ["9", "9", "4", "7"], "bruno": ["11", "6", "4", "3"],
            "carla": ["6", "6", "5", "10"]}, "8",
           ["2", "1", "0", "12", "7", "5", "3", "13", "9"], first="ana", rest=701)
    b.peek("ana", [0, 1]).peek("bruno", [0, 3]).peek("carla", [0, 1])
    b.draw("ana", card="2").replace("ana", [0, 1], into=1)     # 9 + 9 out: row of 3
    assert b.outcome is not None and b.outcome.success is True
    b.draw("bruno", card="1").replace("bruno", [0, 2])         # 11 and 4: fails, row of 5
    assert b.outcome.success is False and b.outcome.penalty is None
    b.draw("carla", card="0").replace("carla", [0, 1, 2])      # 6 6 5: fails, + penalty card
    assert b.outcome.success is False and b.outcome.penalty == "12"
    b.draw("ana", card="7").discard("ana").peek_power("ana", 1)
    b.draw("bruno", card="5").replace("bruno", [0])
    b.draw("carla", card="3").replace("carla", [0, 1])         # the two face-up 6s: success
    b.cabo("ana")
    quiet(b, "bruno")
    quiet(b, "carla")
    r = last_round(b)
    assert r["hands"] == {"ana": ["2", "4", "7"], "bruno": ["5", "6", "4", "3", "1"],
                          "carla": ["3", "5", "10", "0", "12"]}, r
    b.round_end()
    Bot(b, 71).finish_match(71)
    return b, ("Multi-replacement in edition1: ana swaps her two 9s for one 2 (`into` 1, row of "
               "3); bruno's 11 + 4 fails (both stay face up, the 1 is added: row of 5); carla's "
               "6 6 5 fails with 3 cards (the 0 is added and a penalty card, the 12, too); "
               "carla then swaps out the two face-up 6s successfully.")


def edition1_reshuffle() -> tuple[LogBuilder, str]:
    b = game("edition1", ["ana", "bruno"], "edition1-reshuffle")
    bot = Bot(b, 81)
    bot.deal(8101, first="ana")
    bot.peeks()
    bot.play_round(cabo=lambda g: None if g.round.reshuffles else False)   # no Cabo before it
    r = last_round(b)
    assert r["reshuffles"] == 1, r
    b.round_end()
    bot.finish_match(81)
    return b, ("A reshuffle in edition1: in round 1 nobody calls Cabo until the draw pile has "
               "run out; the `reshuffle` line turns the discard pile (except its top card) into "
               "a new draw pile, top first, and the round goes on.")


def edition1_two_decks() -> tuple[LogBuilder, str]:
    b = game("edition1", ["ana", "bruno", "carla", "dora", "emil", "fay"], "edition1-two-decks",
             decks=2)
    Bot(b, 91).finish_match(91)
    return b, ("Six players with two decks (`options: {\"decks\": 2}`): every card code appears "
               "twice as often (104 cards); a card is identified by its place, not its code.")


def golf_match() -> tuple[LogBuilder, str]:
    b = game("golf", ["ana", "bruno", "carla", "dora"], "golf-match")
    Bot(b, 111).finish_match(111)
    return b, ("A complete golf match for four, played by the sample bot: standard cards, "
               "outer pair peeked, the dealer rotates, powers from any card a turn puts on "
               "the discard, many correct snaps, the match ends at 100 or more.")


def golf_snaps() -> tuple[LogBuilder, str]:
    b = game("golf", ["ana", "bruno", "carla"], "golf-snaps")
    b.deal({"ana": ["KD", "4S", "9H", "QC"], "bruno": ["5S", "8D", "2C", "JH"],
            "carla": ["7C", "KS", "3D", "6H"]}, "5H",
           ["KH", "8C", "10D", "KC", "6S", "2D", "AH", "3S", "QS", "4D"], first="ana",
           rest=1101)
    b.peek("ana", [0, 3]).peek("bruno", [0, 3]).peek("carla", [0, 3])
    b.snap("bruno", 0)                              # 5S on 5H before the first turn: match
    b.draw("ana", card="KH").replace("ana", [3])    # red king in, QC out (swap power)
    b.skip("ana")
    b.snap("carla", 1)                              # a guess: KS (13) is not a Q: penalty 8C
    b.draw("bruno", card="10D").discard("bruno").spy("bruno", "carla", 4)
    b.draw("carla", card="KC").discard("carla")     # black king, 13, no power
    b.snap("ana", 0)                                # KD is a red king (-1): no match, penalty
    b.snap("carla", 1)                              # KS (13, public now) on KC (13): match
    b.draw("ana", card="2D").replace("ana", [1])
    b.draw("bruno", card="AH").replace("bruno", [2])
    b.skip("bruno")
    b.draw("carla", card="3S").replace("carla", [0])
    b.peek_power("carla", 1)
    b.cabo("ana")
    quiet(b, "bruno")
    b.draw("carla", card="4D").replace("carla", [3]).skip("carla")
    r = last_round(b)
    assert r["hands"]["ana"] == ["KD", "2D", "9H", "KH", "6S"], r
    assert r["cabo_success"] is False and r["points"]["ana"] == 15 + 10, r
    b.round_end()
    Bot(b, 112).finish_match(112)
    return b, ("Golf snaps and red kings: bruno snaps his 5 on the first discard before the "
               "first turn (match); carla's blind snap fails (the card turns face up, she takes "
               "a penalty card); ana snaps her red king (-1) on a black king (13): no match, "
               "penalty; carla then snaps her now public black king on it: match. ana's red "
               "kings count -1 each, but her Cabo fails (15 against bruno's 11). The bot "
               "plays on (with snaps) to the end.")


def golf_kamikaze() -> tuple[LogBuilder, str]:
    b = game("golf", ["ana", "bruno", "carla"], "golf-kamikaze", kamikaze=True)
    b.deal({"ana": ["KH", "AS", "AC", "KD"], "bruno": ["4C", "9S", "2H", "10C"],
            "carla": ["6D", "3C", "JD", "5C"]}, "8H",
           ["7S", "3H", "QH", "8S", "2S", "AD", "9D", "4H"], first="ana", rest=1201)
    b.peek("ana", [0, 3]).peek("bruno", [0, 3]).peek("carla", [0, 3])
    b.draw("ana", card="7S").discard("ana").peek_power("ana", 1)
    b.draw("bruno", card="3H").replace("bruno", [3]).spy("bruno", "carla", 1)  # 10C out: spy
    b.draw("carla", card="QH").discard("carla").skip("carla")
    b.draw("ana", card="8S").discard("ana").peek_power("ana", 2)   # -1 1 1 -1: exactly 0
    b.draw("bruno", card="2S").replace("bruno", [1]).skip("bruno")
    b.draw("carla", card="AD").replace("carla", [2]).skip("carla")
    b.cabo("ana")
    quiet(b, "bruno")
    b.draw("carla", card="4H").replace("carla", [0])
    r = last_round(b)
    assert r["special"] == ["ana"] and r["points"] == {"ana": 0, "bruno": 50, "carla": 50}, r
    b.round_end()
    Bot(b, 122).finish_match(122)
    return b, ("Golf with the `kamikaze` option: ana calls Cabo holding red king, A, A, red "
               "king (total exactly 0) and scores 0 while everybody else scores 50.")


def golf_tiebreak() -> tuple[LogBuilder, str]:
    b = game("golf", ["ana", "bruno", "carla"], "golf-tiebreak", target=50)
    b.deal({"ana": ["AH", "6S", "3H", "2C"], "bruno": ["4S", "2D", "9C", "5H"],
            "carla": ["QS", "JC", "10S", "8H"]}, "7D",
           ["KH", "3S", "9H", "AD", "7S", "6D", "2S", "5D"], first="ana", rest=1301)
    b.peek("ana", [0, 3]).peek("bruno", [0, 3]).peek("carla", [0, 3])
    b.draw("ana", card="KH").replace("ana", [1])
    b.draw("bruno", card="3S").replace("bruno", [3])
    b.draw("carla", card="9H").replace("carla", [0]).skip("carla")
    b.draw("ana", card="AD").replace("ana", [2])
    b.draw("bruno", card="7S").discard("bruno").peek_power("bruno", 1)
    b.draw("carla", card="6D").replace("carla", [3]).peek_power("carla", 1)
    b.cabo("ana")
    b.draw("bruno", card="2S").replace("bruno", [2]).skip("bruno")
    b.draw("carla", card="5D").replace("carla", [1]).skip("carla")
    assert last_round(b)["points"] == {"ana": 0, "bruno": 11, "carla": 30}
    b.round_end()
    b.deal({"ana": ["9D", "4C", "2S", "JS"], "bruno": ["AS", "2H", "KD", "3D"],
            "carla": ["QC", "8S", "KC", "7C"]}, "10H",
           ["AC", "8D", "3C", "7D", "6S", "2D", "QH", "9C"], rest=1302)   # bruno deals first
    b.peek("ana", [0, 3]).peek("bruno", [0, 3]).peek("carla", [0, 3])
    b.draw("bruno", card="AC").replace("bruno", [3])
    b.draw("carla", card="8D").replace("carla", [0]).skip("carla")
    b.draw("ana", card="3C").replace("ana", [3]).skip("ana")
    b.draw("bruno", card="7D").discard("bruno").peek_power("bruno", 1)
    b.draw("carla", card="6S").replace("carla", [0]).peek_power("carla", 2)
    b.draw("ana", card="2D").replace("ana", [0]).skip("ana")
    b.cabo("bruno")
    quiet(b, "carla")
    quiet(b, "ana")
    r = last_round(b)
    assert r["cumulative"] == {"ana": 11, "bruno": 11, "carla": 64}, r
    assert b.state is not None and b.state.tiebreak == (0, 1) and not b.state.complete
    b.round_end()
    Bot(b, 131).finish_match(131)
    assert b.state.rounds[2].tiebreak and b.state.rounds[2].players == ("ana", "bruno")
    return b, ("A golf tie-break (short game, `target: 50`): carla passes 50 in round 2 while "
               "ana and bruno are tied for the lowest score (11 each), so round 3 is dealt to "
               "ana and bruno only (ana, the next tied player after bruno, starts) until one of "
               "them is lowest.")


def golf_options() -> tuple[LogBuilder, str]:
    b = game("golf", ["ana", "bruno"], "golf-options", jokers=True, open_peek=True,
             no_snap=True, target=50)
    Bot(b, 141).finish_match(141)
    return b, ("Golf with options: two jokers (`JK`, value 0, no power), `open_peek` (each player "
               "looks at all four cards), `no_snap`, and a short game to 50.")


def online_match() -> tuple[LogBuilder, str]:
    b = game("online", ["ana", "bruno", "carla", "dora"], "online-match")
    Bot(b, 151).finish_match(151)
    return b, ("A complete online match for four, played by the sample bot: standard cards and "
               "two jokers, positions 0 and 1 peeked, multi-replacements with `into`, the "
               "match ends when someone has 100 or more.")


def online_moon() -> tuple[LogBuilder, str]:
    b = game("online", ["ana", "bruno", "carla"], "online-moon")
    b.deal({"ana": ["5C", "5D", "9S", "2H"], "bruno": ["8C", "3S", "JD", "6H"],
            "carla": ["QS", "QH", "KS", "KD"]}, "4C",
           ["AS", "7H", "8S", "10D", "2C", "7C", "JK", "QD", "3D", "4H"], first="ana",
           rest=1601)
    b.peek("ana", [0, 1]).peek("bruno", [0, 1]).peek("carla", [0, 1])
    b.draw("ana", card="AS").replace("ana", [0, 1], into=1)         # both 5s out: success
    b.draw("bruno", card="7H").discard("bruno").peek_power("bruno", 2)
    b.draw("carla", card="8S").discard("carla").peek_power("carla", 2)
    b.draw("ana", card="10D").discard("ana").spy("ana", "bruno", 3)
    b.draw("bruno", card="2C").replace("bruno", [0, 3], end="left")  # 8 and 6: fails
    assert b.state is not None and b.state.row_codes(1)[0] == "2C"
    b.draw("carla", card="7C").discard("carla").peek_power("carla", 3)  # Q Q K K, all known
    b.draw("ana", card="JK").replace("ana", [1])
    b.draw("bruno", card="QD").discard("bruno").skip("bruno")
    b.cabo("carla")
    quiet(b, "ana")
    b.draw("bruno", card="4H").replace("bruno", [3])
    r = last_round(b)
    assert r["special"] == ["carla"] and r["points"] == {"ana": 50, "bruno": 50, "carla": 0}, r
    b.round_end()
    Bot(b, 161).finish_match(161)
    return b, ("online's shoot the moon: carla holds Q Q K K, learns all four and calls Cabo: "
               "she scores 0, ana and bruno half the target (50) each. Also ana's successful "
               "double replacement with `into` and bruno's failed one with `end: \"left\"` "
               "(the drawn card goes to the left end of his row).")


def online_forfeit() -> tuple[LogBuilder, str]:
    b = game("online", ["ana", "bruno", "carla"], "online-forfeit",
             header={"names": {"ana": "Ana", "bruno": "Bruno", "carla": "Carla"}})
    bot = Bot(b, 171)
    g = bot.g
    bot.deal(17101, first="ana")
    bot.peeks()
    bot.turn()
    bot.turn()
    # carla's turn times out: the server draws and discards for her
    b.event({"type": "draw", "player": "carla", "source": "deck", "auto": True})
    b.event({"type": "discard", "player": "carla", "auto": True})
    if g.phase == POWER:
        b.event({"type": "skip", "player": "carla", "auto": True})
    bot.turn()
    bot.turn()
    # carla draws, then disconnects mid-turn: the drawn card goes to the discard, no power
    b.draw("carla", card=g.round.codes[g.round.deck[-1]])
    b.forfeit("carla", "disconnected")
    assert g.round.current == 0 and g.phase == TURN_START and not g.active[2]
    bot.play_round()
    r = last_round(b)
    assert list(r["points"]) == ["ana", "bruno"], r
    b.round_end()
    # round 2, ana and bruno only: bruno leaves the table and ana wins
    bot.deal(17102)
    bot.peeks()
    bot.turn()
    bot.turn()
    bot.turn()
    b.forfeit("bruno", "left")
    r = last_round(b)
    assert r["end"] == "forfeit" and r["points"] == {"ana": 0}, r
    assert g.complete and g.winners == ("ana",)
    b.round_end().game_end()
    return b, ("online forfeits and an `auto` move: carla's turn times out and the server plays "
               "it (`\"auto\": true`); on her next turn she disconnects holding a drawn card "
               "(it goes to the discard, no power) and round 1 is scored for ana and bruno "
               "only; in round 2 bruno leaves, the round ends unscored (`end: forfeit`) and "
               "ana, the last player left, wins.")


def online_in_progress() -> tuple[LogBuilder, str]:
    b = game("online", ["ana", "bruno", "carla"], "online-in-progress")
    bot = Bot(b, 181)
    bot.deal(18101)
    bot.peeks()
    bot.play_round()
    b.round_end()
    bot.deal(18102)
    bot.peeks()
    for _ in range(4):
        bot.turn()
    b.draw(bot.g.players[bot.g.round.current], "deck")
    assert bot.g.phase == DRAWN and not bot.g.complete
    return b, ("A game in progress: round 1 is over, round 2 stops in the middle of a turn "
               "(a card just drawn). It replays with `complete: false` and the table as it "
               "stands (`current_round`).")


# --- score sheets (format 1.1): one tally line per round, the cards turned over at the end ---


def sheet(ruleset: str, players: list[str], name: str, **options: object) -> LogBuilder:
    """A new score sheet (``record: "tally"``), its chain declared in the header."""
    return game(ruleset, players, name, header={"record": "tally", "chain": "sha256"},
                **options)


def tally(b: LogBuilder, caller: str | None, hands: dict[str, list[str]], **fields: str
          ) -> None:
    """One round of a score sheet, then its ``round_end`` claim (the engine's own points)."""
    assert b.state is not None
    b.event({"type": "tally", "round": len(b.state.rounds) + 1, "caller": caller,
             "hands": hands, **fields})
    b.round_end()


def tally_edition1() -> tuple[LogBuilder, str]:
    b = sheet("edition1", ["ana", "bruno", "carla"], "tally-edition1")
    tally(b, "ana", {"ana": ["1", "2", "3"], "bruno": ["4", "4"], "carla": ["0", "5", "7"]})
    tally(b, "bruno", {"ana": ["2", "2"], "bruno": ["3", "3"], "carla": ["9", "9", "9"]})
    tally(b, "ana", {"ana": ["1", "1"], "bruno": ["5", "6", "7"],
                     "carla": ["12", "12", "13", "13"]})
    tally(b, "bruno", {"ana": ["11", "11", "11", "11", "6"], "bruno": ["2"],
                       "carla": ["3", "4"]})
    tally(b, "carla", {"ana": ["5", "6"], "bruno": ["12", "12", "8"], "carla": ["0"]})
    b.game_end()
    rounds = b.state.rounds if b.state is not None else []
    assert rounds[1].points == {"ana": 0, "bruno": 11, "carla": 27}
    assert rounds[2].special == ("carla",) and rounds[3].resets == ("ana",)
    return b, ("A score sheet of an edition1 match (`record: tally`, chain declared in the "
               "header): ana's call with the lowest hand (0); bruno's failed call (6 + 5) "
               "while ana's 4 is lowest and scores 0; carla's Kamikaze (the others 50); ana's "
               "hand of 50 puts her on exactly 100, back to 50; bruno passes 100 and carla wins.")


def tally_edition2() -> tuple[LogBuilder, str]:
    b = sheet("edition2", ["ana", "bruno"], "tally-edition2")
    tally(b, "ana", {"ana": ["3", "4"], "bruno": ["7"]})
    tally(b, None, {"ana": ["10", "10"], "bruno": ["1", "2"]})
    tally(b, "bruno", {"ana": ["5"], "bruno": ["9"]})
    tally(b, "bruno", {"ana": ["12", "12", "13", "13"], "bruno": ["0"]})
    tally(b, "ana", {"ana": ["1"], "bruno": ["11", "10"]})
    tally(b, None, {"ana": ["12", "12", "13", "13"], "bruno": ["2"]})
    b.game_end()
    g = b.state
    assert g is not None and g.complete and g.cumulative_by_name() == {"ana": 25, "bruno": 100}
    return b, ("A score sheet of an edition2 match: ana's call tying bruno's 7 succeeds; a "
               "round without a call (`deck_empty`); bruno's failed call (9 + 10); ana's "
               "Kamikaze overrides bruno's successful call; bruno's exactly 100 is reset to 50 "
               "once, and his second exactly 100 ends the match.")


def tally_golf() -> tuple[LogBuilder, str]:
    b = sheet("golf", ["ana", "bruno", "carla"], "tally-golf", target=50)
    tally(b, "ana", {"ana": ["KH", "AS"], "bruno": ["2S", "3S"], "carla": ["4S"]})
    tally(b, "bruno", {"ana": ["3H"], "bruno": ["5H"], "carla": ["5D"]})
    tally(b, "carla", {"ana": ["8S"], "bruno": ["QS", "KS"], "carla": ["KD"]})
    tally(b, "ana", {"ana": ["AH"], "bruno": ["10S"], "carla": ["2D"]})
    tally(b, "carla", {"ana": ["5C"], "carla": ["3C"]})
    b.game_end()
    g = b.state
    assert g is not None and g.rounds[-1].tiebreak and g.winners == ("carla",)
    return b, ("A score sheet of a short golf match (`target: 50`): red kings count -1 (ana "
               "calls on KH + AS = 0), bruno's call fails against a tie (5 + 10), bruno "
               "passes 50 while ana and carla are tied on 11, so round 5 is their tie-break "
               "alone; carla wins it.")


def tally_online() -> tuple[LogBuilder, str]:
    b = sheet("online", ["ana", "bruno", "carla"], "tally-online")
    tally(b, "ana", {"ana": ["JK", "AS"], "bruno": ["5S", "5H"], "carla": ["7S"]})
    tally(b, "bruno", {"ana": ["4S"], "bruno": ["2S"], "carla": ["QS", "QH", "KS", "KH"]})
    tally(b, "bruno", {"ana": ["3S"], "bruno": ["6S"], "carla": ["6H"]})
    b.forfeit("bruno", "left the table")
    tally(b, "carla", {"ana": ["KC", "KD", "QC", "9S"], "carla": ["2D"]})
    b.game_end()
    g = b.state
    assert g is not None and g.winners == ("carla",) and g.rounds[1].special == ("carla",)
    return b, ("A score sheet of an online match: ana's joker (0) and ace win her call; carla "
               "shoots the moon (Q Q K K: the others 50); bruno's failed call (6 + 5); bruno "
               "leaves the match, round 4 is scored for ana and carla only, ana reaches 100 "
               "and carla wins.")


SAMPLES: list[tuple[str, Callable[[], tuple[LogBuilder, str]]]] = [
    ("edition1-match", edition1_match),
    ("edition1-kamikaze", edition1_kamikaze),
    ("edition1-exact-100", edition1_exact_100),
    ("edition1-multi-replace", edition1_multi_replace),
    ("edition1-reshuffle", edition1_reshuffle),
    ("edition1-two-decks", edition1_two_decks),
    ("house-rules", house_rules),
    ("edition2-match", edition2_match),
    ("edition2-kamikaze", edition2_kamikaze),
    ("edition2-exact-100", edition2_exact_100),
    ("edition2-deck-empty", edition2_deck_empty),
    ("golf-match", golf_match),
    ("golf-snaps", golf_snaps),
    ("golf-kamikaze", golf_kamikaze),
    ("golf-tiebreak", golf_tiebreak),
    ("golf-options", golf_options),
    ("online-match", online_match),
    ("online-moon", online_moon),
    ("online-forfeit", online_forfeit),
    ("online-in-progress", online_in_progress),
    ("tally-edition1", tally_edition1),
    ("tally-edition2", tally_edition2),
    ("tally-golf", tally_golf),
    ("tally-online", tally_online),
]
IN_PROGRESS = {"online-in-progress"}


# --- the invalid logs --------------------------------------------------------------------------
# Each maker returns the bytes of one log that is valid up to one bad line, the number of that
# line, the error code the replay must report there, and what is wrong (for the README table).

Invalid = tuple[bytes, int, str, str]


def _two(ruleset: str = "edition1") -> LogBuilder:
    """A valid start: header, deal, both peeks (lines 1-4); ana to play, deck top 5 7 11 2."""
    b = LogBuilder(ruleset, ["ana", "bruno"], game_id="invalid-sample", started_at=STARTED_AT)
    b.deal({"ana": ["3", "9", "12", "5"], "bruno": ["1", "8", "6", "10"]}, "4",
           ["5", "7", "11", "2", "0"], first="ana", rest=9)
    b.peek("ana", [0, 1]).peek("bruno", [2, 3])
    return b


def _drained() -> LogBuilder:
    """A valid edition1 round played (without Cabo) until the draw pile is empty."""
    b = _two()
    bot = Bot(b, 1)
    while b.state is not None and b.state.round.deck:
        bot.turn(cabo=lambda g: False)
    if b.state is not None and b.state.phase == POWER:
        b.skip(b.state.players[b.state.round.current])
    assert b.state is not None and needs_reshuffle(b.state)
    return b


def _bad(b: LogBuilder, obj: dict[str, object], *, seq: bool = True) -> tuple[bytes, int]:
    """Append one unchecked line (with the next seq unless told otherwise)."""
    b.strict = False
    if seq:
        b.event(obj)
    else:
        b.raw(obj)
    return b.to_bytes(), len(b.lines)


def _bad_bytes(b: LogBuilder, raw: bytes, *, newline: bool = True) -> tuple[bytes, int]:
    return b.to_bytes() + raw + (b"\n" if newline else b""), len(b.lines) + 1


def _sheet(ruleset: str = "edition2", players: Sequence[str] = ("ana", "bruno"),
           **options: object) -> LogBuilder:
    """A score sheet's header (``record: "tally"``), checked."""
    return LogBuilder(ruleset, list(players), options=dict(options), game_id="invalid-sample",
                      started_at=STARTED_AT, record="tally")


def _header(**fields: object) -> bytes:
    line = {"type": "game", "seq": 0, "format": "cabo-log/1", "game_id": "invalid-sample",
            "ruleset": "edition1", "options": {}, "players": ["ana", "bruno"], **fields}
    return dumps_event(line)


def invalid_logs() -> dict[str, Invalid]:
    logs: dict[str, Invalid] = {}

    def add(name: str, made: tuple[bytes, int], code: str, what: str) -> None:
        logs[name] = (made[0], made[1], code, what)

    # syntax: the line is not a well-formed event
    add("syntax-not-json", _bad_bytes(_two(), b'{"type": "draw", "seq": 4, "player": "ana", '
                                             b'"source": deck}'),
        "bad_json", "`deck` is not quoted: the line is not JSON")
    add("syntax-not-object", _bad_bytes(_two(), b'["draw", "ana", "deck"]'),
        "not_object", "a JSON array, not an object")
    add("syntax-missing-field", _bad(_two(), {"type": "draw", "player": "ana"}),
        "missing_field", "a draw without its `source`")
    add("syntax-bad-field", _bad(_two(), {"type": "replace", "player": "ana",
                                          "positions": "0,1"}),
        "bad_field", "`positions` is a string, not a list of positions")
    add("syntax-unknown-type", _bad(_two(), {"type": "pass", "player": "ana"}),
        "unknown_type", "there is no event type `pass`")
    add("syntax-not-utf8", _bad_bytes(_two(), b'{"type": "draw", "seq": 4, "player": "ana", '
                                             b'"source": "deck", "note": "m\xe3o"}'),
        "not_utf8", "a Latin-1 byte (0xE3) in a UTF-8 log")
    b = _two()
    b.draw("ana", card="5").discard("ana")
    add("syntax-truncated", _bad_bytes(b, b'{"type": "draw", "seq": 6, "player": "bru',
                                       newline=False),
        "bad_json", "the last line was cut off while it was being written")
    add("syntax-no-header", (b"".join(dumps_event(line) for line in _two().lines[1:]), 1),
        "no_header", "the log starts with a deal: the `game` header is missing")
    add("syntax-bad-format", (_header(format="cabo-log/2"), 1),
        "bad_format", "an unknown format version in the header")

    # illegal: well-formed, but the rules do not allow it here
    add("illegal-not-your-turn", _bad(_two(), {"type": "draw", "player": "bruno",
                                               "source": "deck"}),
        "not_your_turn", "bruno draws, but ana is to play")
    b = _two()
    b.draw("ana")
    add("illegal-wrong-phase", _bad(b, {"type": "draw", "player": "ana", "source": "deck"}),
        "wrong_phase", "ana draws a second card while holding the first")
    b = _two()
    b.draw("ana")
    add("illegal-bad-position", _bad(b, {"type": "replace", "player": "ana",
                                         "positions": [4]}),
        "bad_position", "ana's row has positions 0-3, not 4")
    b = _two()
    b.draw("ana", card="5").discard("ana")
    add("illegal-power-not-earned", _bad(b, {"type": "power", "player": "ana",
                                             "power": "peek", "target": ["ana", 2]}),
        "power_not_earned", "a 5 has no power: ana's turn is already over")
    b = _two()
    b.draw("ana", card="5").replace("ana", [3]).draw("bruno", card="7").discard("bruno")
    add("illegal-wrong-power", _bad(b, {"type": "power", "player": "bruno", "power": "spy",
                                        "target": ["ana", 0]}),
        "wrong_power", "a discarded 7 gives peek, not spy")
    b = LogBuilder("edition2", ["ana", "bruno", "carla"], game_id="invalid-sample",
                   started_at=STARTED_AT)
    b.deal({"ana": ["3", "9", "12", "5"], "bruno": ["1", "8", "6", "10"],
            "carla": ["2", "2", "7", "13"]}, "4", ["11"], first="ana", rest=9)
    b.draw("ana", card="11").discard("ana")
    add("illegal-swap-not-allowed", _bad(b, {"type": "power", "player": "ana",
                                             "power": "swap",
                                             "cards": [["bruno", 0], ["carla", 1]]}),
        "swap_not_allowed", "edition2: a swap must involve one of ana's own cards")
    b = _two()
    b.draw("ana", card="5").discard("ana")
    add("illegal-snap-outside-golf", _bad(b, {"type": "snap", "player": "bruno",
                                              "position": 0}),
        "snap_not_allowed", "a snap in edition1 (only golf snaps)")
    b = _two()
    b.cabo("ana")
    add("illegal-second-cabo", _bad(b, {"type": "cabo", "player": "bruno"}),
        "second_cabo", "bruno calls Cabo in his final turn after ana's call")
    b = _two()
    b.draw("ana", "discard")
    add("illegal-must-replace", _bad(b, {"type": "discard", "player": "ana"}),
        "must_replace", "a card taken from the discard pile cannot be discarded again")
    b = LogBuilder("golf", ["ana", "bruno"], game_id="invalid-sample", started_at=STARTED_AT)
    b.deal({"ana": ["3S", "3H", "QD", "5C"], "bruno": ["AS", "8D", "6H", "10C"]}, "4S",
           ["2D"], first="ana", rest=9)
    b.draw("ana", card="2D")
    add("illegal-too-many-cards", _bad(b, {"type": "replace", "player": "ana",
                                           "positions": [0, 1]}),
        "too_many_cards", "golf replaces exactly one card, never two")

    # inconsistent: the log contradicts the cards or itself
    add("inconsistent-wrong-card", _bad(_two(), {"type": "draw", "player": "ana",
                                                 "source": "deck", "card": "9"}),
        "wrong_card", "the draw pile's top card is a 5, the log says 9")
    b = LogBuilder("edition1", ["ana", "bruno"], game_id="invalid-sample",
                   started_at=STARTED_AT, strict=False)
    deck = b.remaining({"ana": ["3", "9", "12", "5"], "bruno": ["1", "8", "6", "10"]}, "4", [])
    deck[deck.index("11")] = "13"
    add("inconsistent-bad-deal", _bad(b, {"type": "deal", "round": 1, "first": "ana",
                                          "hands": {"ana": ["3", "9", "12", "5"],
                                                    "bruno": ["1", "8", "6", "10"]},
                                          "discard": "4", "deck": deck}),
        "bad_deal", "the deal has three 13s and only three 11s")
    b = _drained()
    assert b.state is not None
    pile = [b.state.round.codes[c] for c in b.state.round.pile[:-1]]
    pile[0] = "0" if pile[0] != "0" else "1"
    add("inconsistent-bad-reshuffle", _bad(b, {"type": "reshuffle", "deck": pile}),
        "bad_reshuffle", "the new draw pile is not exactly the discard pile under its top")
    b = _drained()
    assert b.state is not None
    add("inconsistent-reshuffle-missing",
        _bad(b, {"type": "draw", "player": b.state.players[b.state.round.current],
                 "source": "deck"}),
        "reshuffle_missing", "a deck draw from the empty draw pile without a `reshuffle`")
    b = _two()
    b.draw("ana", card="5").discard("ana")
    add("inconsistent-seq-gap", _bad(b, {"type": "draw", "seq": 7, "player": "bruno",
                                         "source": "deck"}, seq=False),
        "seq_gap", "seq jumps from 5 to 7: a line is missing")
    b = _two()
    b.cabo("ana")
    b.draw("bruno", card="5").discard("bruno")
    add("inconsistent-claim-mismatch", _bad(b, {"type": "round_end", "round": 1,
                                                "points": {"ana": 0, "bruno": 25}}),
        "claim_mismatch", "the claim gives ana 0 and bruno 25, but bruno's 25 is the lowest "
                          "hand (0) and ana's failed call costs 29 + 5 = 34")
    b = _two()
    add("inconsistent-claim-premature", _bad(b, {"type": "game_end", "winners": ["ana"],
                                                 "scores": {"ana": 0, "bruno": 0}}),
        "claim_premature", "a `game_end` claim before the match is over")

    # score sheets (format 1.1): what a tally line can get wrong
    add("tally-unknown-card", _bad(_sheet(), {"type": "tally", "round": 1, "caller": "ana",
                                              "hands": {"ana": ["3", "ZZ"],
                                                        "bruno": ["7"]}}),
        "unknown_card", "a score sheet lists `ZZ`, which is no card of the edition2 deck")
    b = _sheet("edition1")
    b.event({"type": "tally", "round": 1, "caller": "ana",
             "hands": {"ana": ["1"], "bruno": ["13", "13"]}})
    add("tally-too-many-copies", _bad(b, {"type": "tally", "round": 2, "caller": "ana",
                                          "hands": {"ana": ["13", "2"],
                                                    "bruno": ["13", "13"]}}),
        "too_many_copies", "three 13s in one round: the Cabo deck holds two")
    b = _sheet("golf", ["ana", "bruno", "carla"], target=50)
    for caller, hands in (("ana", {"ana": ["KH", "AS"], "bruno": ["2S", "3S"], "carla": ["4S"]}),
                          ("bruno", {"ana": ["3H"], "bruno": ["5H"], "carla": ["5D"]}),
                          ("carla", {"ana": ["8S"], "bruno": ["QS", "KS"], "carla": ["KD"]}),
                          ("ana", {"ana": ["AH"], "bruno": ["10S"], "carla": ["2D"]})):
        b.event({"type": "tally", "round": len(b.lines), "caller": caller, "hands": hands})
    add("tally-caller-not-in-round",
        _bad(b, {"type": "tally", "round": 5, "caller": "bruno",
                 "hands": {"ana": ["5C"], "carla": ["3C"]}}),
        "not_in_round", "golf tie-break between ana and carla: bruno sits it out, so he "
                        "cannot have called")
    b = _sheet("online", ["ana", "bruno", "carla"])
    b.forfeit("bruno")
    add("tally-wrong-players", _bad(b, {"type": "tally", "round": 1, "caller": "ana",
                                        "hands": {"ana": ["2S"], "bruno": ["3S"],
                                                  "carla": ["4S"]}}),
        "bad_tally", "bruno left the match, yet the tally lists his cards")
    b = _sheet()
    b.event({"type": "tally", "round": 1, "caller": "ana",
             "hands": {"ana": ["1"], "bruno": ["12", "12", "12", "12", "11", "11", "11", "11",
                                               "10", "10"]}})
    add("tally-after-match-end", _bad(b, {"type": "tally", "round": 2, "caller": "ana",
                                          "hands": {"ana": ["1"], "bruno": ["2"]}}),
        "match_over", "bruno's 112 ended the match; the sheet goes on with round 2")
    b = _sheet()
    b.event({"type": "tally", "round": 1, "caller": "ana",
             "hands": {"ana": ["1"], "bruno": ["2"]}})
    add("tally-wrong-round", _bad(b, {"type": "tally", "round": 3, "caller": "ana",
                                      "hands": {"ana": ["1"], "bruno": ["2"]}}),
        "wrong_round", "round 2 is missing: the sheet jumps from round 1 to round 3")
    b = _sheet()
    b.event({"type": "tally", "round": 1, "caller": "bruno",
             "hands": {"ana": ["4"], "bruno": ["9"]}})
    add("tally-claim-mismatch", _bad(b, {"type": "round_end", "round": 1,
                                         "points": {"ana": 4, "bruno": 9}}),
        "claim_mismatch", "the claim forgets bruno's failed call: 9 + 10 = 19")
    add("tally-in-full-log", _bad(_two(), {"type": "tally", "round": 1, "caller": "ana",
                                           "hands": {"ana": ["1"], "bruno": ["2"]}}),
        "wrong_record", "a `tally` line in a log that records every event")
    add("tally-deal-in-sheet", _bad(_sheet(), _two().lines[1]),
        "wrong_record", "a `deal` in a score sheet (`record: tally`)")
    b = LogBuilder("edition2", ["ana", "bruno"], game_id="invalid-sample",
                   started_at=STARTED_AT, record="tally", chain="sha256", strict=False)
    b.event({"type": "tally", "round": 1, "caller": "ana",
             "hands": {"ana": ["1"], "bruno": ["2"]}})
    add("tally-chain-missing-h", (b.to_bytes(), 2),
        "chain_broken", "the header declares its chain (`chain: sha256`), but line 2 has "
                        "no `h`")

    # ruleset: the header asks for rules that do not exist
    add("ruleset-unknown", (_header(ruleset="edition3"), 1),
        "unknown_ruleset", "there is no built-in ruleset `edition3`")
    add("ruleset-bad-option", (_header(options={"kamikaze": True}), 1),
        "bad_option", "`kamikaze` is a golf option; edition1 has none such")
    add("ruleset-bad-house-rule", (_header(ruleset={"base": "edition1", "caller_penalty": "7"}),
                                   1),
        "bad_ruleset", "house rules: `caller_penalty` must be a number, not a string")
    return logs


# --- writing -----------------------------------------------------------------------------------

SAMPLES_README = """\
# Sample games

Real, replayable `cabo-log/1` logs: at least one complete multi-round match per ruleset and,
between them, every special case of RULES.md. `make demo` replays them all; the tests replay
them, compare their `--json` replays with `tests/golden/` and check card conservation after
every event.

They are written by `make_samples.py` (deterministic; do not edit the `.jsonl` files by hand):

```sh
.venv/bin/python sample_games/make_samples.py     # rewrites the logs and both READMEs
.venv/bin/python tests/golden/regenerate.py       # then refresh the golden replays
.venv/bin/cabo-log replay sample_games/golf-tiebreak.jsonl
```

Every line carries `seq`; every complete match ends with a `round_end` claim after each round
and a `game_end` claim. Scripted rounds use stacked decks (the rest of the deck shuffled with a
fixed seed); the other rounds are played by the script's small bot, which only uses what the
player to act knows. The `tally-*` logs are score sheets (format 1.1, `"record": "tally"`):
one `tally` line per round (the cards turned over at its end and who called), their chain
declared in the header; `cabo-log tally` writes such logs. `invalid/` holds one broken log per
kind of error (see its README).

| file | ruleset | rounds | complete | what it shows |
|---|---|---|---|---|
"""

INVALID_README = """\
# Invalid logs

One broken log per kind of error, each valid up to one bad line. A replay must stop at that
line with that error code (`cabo-log replay FILE` prints `FILE:LINE: CODE: message` and exits
with status 1). `tests/test_samples.py` reads the table below, so the table is the contract;
both are written by `../make_samples.py`.

`cabo-log validate sample_games` also finds these files (it searches folders recursively) and
therefore reports each of them and exits with status 1.

| file | line | code | what is wrong |
|---|---|---|---|
"""


def write_samples(out: Path) -> None:
    rows = []
    for name, make in SAMPLES:
        b, what = make()
        path = b.write(out / f"{name}.jsonl")
        result = replay_file(path)
        assert result.error is None, result.error
        assert result.state is not None
        complete = result.state.complete
        assert complete == (name not in IN_PROGRESS), name
        assert all(line.get("seq") == i for i, line in enumerate(b.lines)), name
        if complete:
            claims = [line for line in b.lines if line["type"] == "round_end"]
            assert len(claims) == len(result.state.rounds), name
            assert b.lines[-1]["type"] == "game_end", name
        rules = b.lines[0]["ruleset"]
        label = rules if isinstance(rules, str) else f"house ({rules['base']})"
        rows.append(f"| [`{name}.jsonl`]({name}.jsonl) | {label} | "
                    f"{len(result.state.rounds)} | {'yes' if complete else 'no'} | {what} |")
    (out / "README.md").write_text(SAMPLES_README + "\n".join(rows) + "\n")


def write_invalid(out: Path) -> None:
    out.mkdir(exist_ok=True)
    rows = []
    for name, (data, line, code, what) in invalid_logs().items():
        path = out / f"{name}.jsonl"
        path.write_bytes(data)
        result = replay_file(path)
        assert result.error is not None, name
        assert (result.error.line, result.error.code) == (line, code), (name, result.error)
        rows.append(f"| `{name}.jsonl` | {line} | `{code}` | {what} |")
    (out / "README.md").write_text(INVALID_README + "\n".join(rows) + "\n")


def main() -> None:
    write_samples(HERE)
    write_invalid(HERE / "invalid")
    print(f"wrote {len(SAMPLES)} sample games and {len(invalid_logs())} invalid logs "
          f"under {HERE}")


if __name__ == "__main__":
    main()
