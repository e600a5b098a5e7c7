"""What the ``expert`` plays for beyond its hand total, position by position: the golf snap
after its own card, special hands (Kamikaze, shoot the moon, golf's zero caller), the
exact-target reset, a Cabo call weighed against taking a low discard, no blind call; and
greedy's (and the expert's) swap after replacing a golf jack. Each position says by hand why
the move is right; where the first revision (``expert1``) chose otherwise, the test shows it."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from cabo_log.play.expert import ExpertBot
from cabo_log.play.expert1 import Expert1Bot
from cabo_log.play.greedy import GreedyBot
from engine import BUILTINS, Ruleset
from engine.events import Cabo, Discard, Draw, Event, Power, Replace, Skip, Snap
from engine.knowledge import Observation, Slot
from engine.rulesets import RESET_NEVER, with_options
from engine.vocabulary import Arrival, Phase, PowerKind

EDITION2 = BUILTINS["edition2"]
GOLF = BUILTINS["golf"]
ONLINE = BUILTINS["online"]


def seen(rules: Ruleset, rows: Mapping[str, tuple[str | None, ...]], *, discard: tuple[str, ...],
         drawn: str | None = None, turn: int = 10, scores: dict[str, int] | None = None,
         power: str | None = None, slots: dict[str, tuple[Slot, ...]] | None = None
         ) -> Observation:
    """ana's view of a two-player table (phase from what she holds)."""
    players = tuple(rows)
    phase = "power" if power else "drawn" if drawn else "turn_start"
    return Observation(me="ana", players=players, active=players, round=1, phase=Phase(phase),
                       to_play="ana", rows=dict(rows), slots=slots or dealt(dict(rows)),
                       discard=discard, deck_size=30, drawn=drawn,
                       drawn_source="deck" if drawn else None,
                       pending_power=PowerKind(power) if power else None,
                       caller=None, scores=scores or dict.fromkeys(players, 0), turn=turn,
                       ruleset=rules.name)


def dealt(rows: dict[str, tuple[str | None, ...]]) -> dict[str, tuple[Slot, ...]]:
    """Slot records of a table where nothing moved since the deal and every player knows
    their cards (ana only those her row shows)."""
    return {p: tuple(Slot(Arrival.DEALT, p != "ana" or c is not None) for c in row)
            for p, row in rows.items()}


def start() -> list[Event]:
    return [Draw(None, False, "ana", "deck", None), Draw(None, False, "ana", "discard", None),
            Cabo(None, False, "ana")]


def placements(size: int, *, multi: bool = True) -> list[Event]:
    from itertools import combinations
    moves: list[Event] = [Discard(None, False, "ana")]
    for count in range(1, (size if multi else 1) + 1):
        moves += [Replace(None, False, "ana", c, None, None)
                  for c in combinations(range(size), count)]
    return moves


def picks(bot: object, obs: Observation, moves: list[Event], seeds: int = 4) -> set[Event]:
    """Every move the bot makes here over a few seeds of its sampling."""
    return {bot.choose(obs, moves, random.Random(s)) for s in range(seeds)}  # type: ignore[attr-defined]


# --- the golf snap after its own card -------------------------------------------------------


def test_discards_a_drawn_four_to_snap_both_known_fours() -> None:
    """KH 4C 5C 4D (-1 + 4 + 5 + 4 = 12), a 4 drawn. Replacing the 5 saves 1 (11). Discarding
    the 4 and snapping 4C and 4D after it leaves KH 5C: 4 points, 8 fewer."""
    obs = seen(GOLF, {"ana": ("KH", "4C", "5C", "4D"), "bruno": (None,) * 4},
               discard=("9S",), drawn="4S")
    moves = placements(4, multi=False)
    assert picks(ExpertBot(GOLF), obs, moves) == {moves[0]}           # the discard
    assert picks(Expert1Bot(GOLF), obs, moves) == {moves[3]}          # replace the 5: -1
    # then, with the 4 on the pile, it snaps a known 4 (and after it the other)
    after = seen(GOLF, {"ana": ("KH", "4C", "5C", "4D"), "bruno": (None,) * 4},
                 discard=("9S", "4S"))
    snaps = [Snap(None, False, "ana", i) for i in range(4)]
    assert ExpertBot(GOLF).snap(after, snaps, random.Random(0)) == snaps[1]
    last = seen(GOLF, {"ana": ("KH", "5C", "4D"), "bruno": (None,) * 4},
                discard=("9S", "4S", "4C"))
    assert ExpertBot(GOLF).snap(last, snaps[:3], random.Random(0)) == snaps[2]


def test_replaces_a_known_nine_to_snap_the_other() -> None:
    """9H 9C 2S 3D (23), a 2 drawn: replacing a 9 puts it on the pile and the other 9 follows
    by a snap: 2 + 2 + 3 = 7, 16 fewer (golf's 9 also earns a spy). Replacing it saves 7 alone,
    as much as any other single replacement would say."""
    obs = seen(GOLF, {"ana": ("9H", "9C", "2S", "3D"), "bruno": (None,) * 4},
               discard=("5S",), drawn="2D")
    move = ExpertBot(GOLF).choose(obs, placements(4, multi=False), random.Random(0))
    assert isinstance(move, Replace) and move.positions in ((0,), (1,))


# --- special hands ---------------------------------------------------------------------------


def test_completes_shoot_the_moon_instead_of_replacing_two_queens() -> None:
    """Online, QH QS KC 5D and a drawn KD. Replacing both queens with the king leaves KD KC 5D
    = 31 points. Replacing the 5 makes Q Q K K, shoot the moon: ana scores 0 and bruno half
    the target, 50."""
    obs = seen(ONLINE, {"ana": ("QH", "QS", "KC", "5D"), "bruno": (None,) * 4},
               discard=("9S",), drawn="KD")
    moves = placements(4)
    moon = Replace(None, False, "ana", (3,), None, None)
    queens = Replace(None, False, "ana", (0, 1), None, None)
    assert picks(ExpertBot(ONLINE), obs, moves) == {moon}
    assert picks(Expert1Bot(ONLINE), obs, moves) == {queens}


def test_calls_on_a_kamikaze_row_and_keeps_it() -> None:
    """edition2, 12 12 13 13 known: 0 points for ana and 50 for bruno however the round ends,
    so call now (a swap could still break it); with a 1 drawn, keep the row (replacing a 13
    would save 12 points of a hand that scores nothing, and cost bruno his 50)."""
    row = ("12", "13", "12", "13")
    obs = seen(EDITION2, {"ana": row, "bruno": ("0", "1", None, None)}, discard=("5",))
    assert picks(ExpertBot(EDITION2), obs, start()) == {start()[2]}
    drawn = seen(EDITION2, {"ana": row, "bruno": ("0", "1", None, None)}, discard=("5",),
                 drawn="1")
    assert picks(ExpertBot(EDITION2), drawn, placements(4)) == {Discard(None, False, "ana")}


def test_golf_zero_caller_calls_where_a_plain_call_fails() -> None:
    """Golf with jokers and the kamikaze option: KH AC KD AS totals -1 + 1 - 1 + 1 = 0. bruno
    is down to two jokers, 0: a plain call must be strictly lowest, so it fails (0 + 10 = 10
    points; the first revision does not make it); a caller on exactly 0 scores 0 and bruno 50,
    whatever he holds."""
    rules = with_options(GOLF, {"kamikaze": True, "jokers": True})
    obs = seen(rules, {"ana": ("KH", "AC", "KD", "AS"), "bruno": ("JK", "JK")},
               discard=("5S",))
    assert picks(ExpertBot(rules), obs, start()) == {start()[2]}
    assert Cabo not in {type(m) for m in picks(Expert1Bot(rules), obs, start())}


# --- the exact-target reset ------------------------------------------------------------------


def test_keeps_a_row_that_lands_exactly_on_the_target() -> None:
    """edition2 at 90: 2 8 0 0 totals 10, exactly the gap; scored as it is, 90 + 10 = 100
    resets to 50. A drawn 2 for the 8 would score 4 (94). Keep the row: discard the 2 (50 is 44
    better than 94). Where the ruleset has no reset the 8 goes, as before."""
    rows = {"ana": ("2", "8", "0", "0"), "bruno": (None,) * 4}
    obs = seen(EDITION2, rows, discard=("5",), drawn="2", scores={"ana": 90, "bruno": 60})
    moves = placements(4)
    assert picks(ExpertBot(EDITION2), obs, moves) == {Discard(None, False, "ana")}
    plain = replace(EDITION2, exact_reset=RESET_NEVER)
    eight = Replace(None, False, "ana", (1,), None, None)
    assert picks(ExpertBot(plain), obs, moves) == {eight}


def test_does_not_call_away_a_row_on_the_gap() -> None:
    """edition2 at 90 with 2 8 0 0 (10) against an unknown row: a successful call scores 0
    (90 stays); not calling scores 10, 100, reset to 50. The call would cost 40 points."""
    rows = {"ana": ("2", "8", "0", "0"), "bruno": (None,) * 4}
    at_90 = seen(EDITION2, rows, discard=("13",), scores={"ana": 90, "bruno": 60})
    assert Cabo not in {type(m) for m in picks(ExpertBot(EDITION2), at_90, start())}
    at_0 = seen(EDITION2, rows, discard=("13",))
    assert start()[2] in picks(ExpertBot(EDITION2), at_0, start())   # 10 with no gap: call


# --- the Cabo call weighed against a low discard ---------------------------------------------


def test_takes_a_zero_before_calling() -> None:
    """edition2, ana 2 2 1 6 = 11, bruno 5 3 ? 2 = 10 + ?. A call now fails (11 + 10 = 21
    points) whenever bruno ends below 11: one low card, or his final turn's replacement of the
    5, does it. The 0 on the pile replaces the 6: 5 points, which bruno can hardly get under
    in two turns (the call comes next turn). The first revision called at once."""
    rows = {"ana": ("2", "2", "1", "6"), "bruno": ("5", "3", None, "2")}
    obs = seen(EDITION2, rows, discard=("9", "0"))
    assert picks(ExpertBot(EDITION2), obs, start()) == {start()[1]}
    assert picks(Expert1Bot(EDITION2), obs, start()) == {start()[2]}
    # the 0 taken, it replaces the 6 (11 -> 5)
    taken = seen(EDITION2, rows, discard=("9",), drawn="0")
    move = ExpertBot(EDITION2).choose(taken, placements(4)[1:], random.Random(0))
    assert move == Replace(None, False, "ana", (3,), None, None)


def test_no_blind_call_on_the_first_turn() -> None:
    """edition2, first turn, ana knows 0 and 1 and two cards she never saw (each worth the
    deck's mean, about 6.3: about 14 in all, anything from 1 to 25). Calling on that is a
    guess; the first revision made it every time."""
    obs = seen(EDITION2, {"ana": ("0", "1", None, None), "bruno": (None,) * 4},
               discard=("9",), turn=0)
    assert Cabo not in {type(m) for m in picks(ExpertBot(EDITION2), obs, start())}
    assert picks(Expert1Bot(EDITION2), obs, start()) == {start()[2]}


# --- golf: a jack replaced out earns a swap --------------------------------------------------


def test_replaces_the_jack_then_swaps_the_king_away() -> None:
    """Golf, ana JH KS 2C 3D (29), bruno shows an ace; a 2 drawn. Replacing the king saves 11
    (18). Replacing the jack saves 9 and earns a swap (golf: the power of the card replaced
    out): the king for bruno's ace saves 12 more (6). Greedy and the expert both play it."""
    rows = {"ana": ("JH", "KS", "2C", "3D"), "bruno": ("AS", None, None, None)}
    obs = seen(GOLF, rows, discard=("9S",), drawn="2D")
    jack = Replace(None, False, "ana", (0,), None, None)
    plain = GreedyBot(GOLF, moon_rate=0, fail_rate=0, wrong_snap_rate=0, slow_rate=0)
    assert plain.choose(obs, placements(4, multi=False), random.Random(0)) == jack
    assert ExpertBot(GOLF).choose(obs, placements(4, multi=False), random.Random(0)) == jack
    after = seen(GOLF, {"ana": ("2D", "KS", "2C", "3D"), "bruno": ("AS", None, None, None)},
                 discard=("9S", "JH"), power="swap")
    swaps: list[Event] = [Skip(None, False, "ana")] + [
        Power(None, False, "ana", "swap", None, (("ana", i), ("bruno", j)))
        for i in range(4) for j in range(4)]
    king_for_ace = Power(None, False, "ana", "swap", None, (("ana", 1), ("bruno", 0)))
    assert plain.choose(after, swaps, random.Random(0)) == king_for_ace
    assert ExpertBot(GOLF).choose(after, swaps, random.Random(0)) == king_for_ace
