"""A round's end in words (``log/round_words.py``, what ``play`` prints): for every round of
simulated matches of every ruleset, each hand's total is the sum of its cards' values, and the
reason given matches the points the engine gave (the caller's penalty, a call that succeeds, a
special hand, the lowest hand scoring 0); and a few hand-made rounds word by word."""

from __future__ import annotations

import re

import pytest

from cabo_log.log.builder import LogBuilder
from cabo_log.log.round_words import round_account, why
from cabo_log.play.simulate import simulate_game
from engine import GameState, apply, new_game, parse_event, resolve
from engine.events import GameStart


def play(lines: list[dict[str, object]]) -> GameState:
    header = parse_event(lines[0])
    assert isinstance(header, GameStart)
    g = new_game(header)
    for line in lines[1:]:
        apply(g, parse_event(line))
    return g


@pytest.mark.parametrize("ruleset", ["edition1", "edition2", "golf", "online"])
def test_every_simulated_round_is_told_as_it_was_scored(ruleset: str) -> None:
    rules = resolve(ruleset, {})
    values = rules.values()
    rounds = fails = 0
    for seed in range(6):
        g = play(simulate_game(ruleset, players=2 + seed % 3, seed=seed,
                               bots=["greedy", "random", "expert"][seed % 3]))
        for r in g.rounds:
            if r.end == "forfeit":
                continue
            rounds += 1
            lines = round_account(r, rules, width=None)
            assert lines[0].startswith(f"Round {r.round} is over: ")
            assert lines[1] == "Every hand, turned over:"
            for player, points in r.points.items():
                row = next(x for x in lines[2:] if x.split()[:1] == [player])
                assert sum(values[c] for c in r.hands[player]) == r.totals[player]
                assert row.endswith(f"total {r.totals[player]:>3}  scores {points:>3}")
            text = " ".join(why(r, rules))
            caller = r.caller if r.caller in r.points else None
            if r.special:
                assert all(r.points[p] == 0 for p in r.special) and "scores 0" in text
            elif caller is not None and r.points[caller] > 0:
                fails += 1
                penalty = r.points[caller] - r.totals[caller]
                assert penalty == rules.caller_penalty
                assert f"{r.totals[caller]} + {penalty} penalty = {r.points[caller]}" in text
            elif caller is not None:
                assert re.search(rf"{caller} scores 0", text)
            assert lines[-1] == "Scores now: " + ", ".join(
                f"{p} {v}" for p, v in r.cumulative.items())
    assert rounds > 10 and fails


def _round(ruleset: str, hands: dict[str, list[str]], caller: str) -> tuple[list[str], object]:
    b = LogBuilder(ruleset, list(hands))
    b.deal(hands, "0" if ruleset.startswith("edition") else "2S", first=caller)
    b.cabo(caller)
    for p in [p for p in hands if p != caller]:
        b.draw(p).discard(p)
    g = b.state
    assert g is not None and g.rounds
    return round_account(g.rounds[-1], g.rules, width=None), g.rounds[-1]


def test_hand_made_rounds_word_by_word() -> None:
    lines, _ = _round("edition2", {"ana": ["1", "2", "3", "4"], "bruno": ["5", "6", "7", "8"]},
                      "ana")
    assert lines[:4] == [
        "Round 1 is over: ana called Cabo and everyone else had a last turn.",
        "Every hand, turned over:",
        "  ana (called)  1 2 3 4  total  10  scores   0",
        "  bruno         5 6 7 8  total  26  scores  26"]
    assert lines[4] == ("ana called Cabo with the lowest hand, 10: the call succeeds, so ana "
                        "scores 0; everyone else scores their hand total.")
    lines, _ = _round("edition2", {"ana": ["5", "6", "7", "8"], "bruno": ["1", "2", "3", "4"]},
                      "ana")
    assert lines[4] == ("ana called Cabo, but bruno's 10 is lower than ana's 26: the call fails, "
                        "so ana scores 26 + 10 penalty = 36; everyone else scores their hand "
                        "total.")
    lines, _ = _round("edition1", {"ana": ["5", "6", "7", "8"], "bruno": ["1", "2", "3", "4"]},
                      "ana")
    assert lines[4] == ("ana called Cabo, but bruno's 10 is lower than ana's 26: the call fails, "
                        "so the lowest hand scores 0 and ana scores 26 + 5 penalty = 31; "
                        "everyone else scores their hand total.")
    lines, _ = _round("edition1", {"ana": ["12", "12", "13", "13"], "bruno": ["1", "2", "3", "4"]},
                      "bruno")
    assert lines[4] == ("ana holds the Kamikaze (12 12 13 13): that hand scores 0 and everyone "
                        "else scores 50, whatever their hand.")
