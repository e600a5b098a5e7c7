"""Invariants after every event of every sample game (and of the valid part of every invalid
log): no card is created or lost, piles and rows add up to the ruleset's deck, and the state's
bookkeeping agrees with its phase. The simulator's tests check the same over random games.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cabo_log.log.replay import ReplayVisitor, replay_file
from engine import Event, GameStart, GameState, Outcome
from engine.vocabulary import BEFORE_DEAL, DRAWN, POWER, TURN_START

ROOT = Path(__file__).resolve().parents[1]
LOGS = sorted((ROOT / "sample_games").glob("*.jsonl"))
INVALID = sorted((ROOT / "sample_games" / "invalid").glob("*.jsonl"))


def check_state(g: GameState, deck: Counter[str], where: str) -> None:
    """Raise AssertionError (saying where) if the state breaks an invariant."""
    assert len(g.cumulative) == len(g.players) == len(g.active), where
    if g.phase == BEFORE_DEAL:
        return
    count = len(g.round.codes)
    places = g.card_locations()
    assert sorted(places) == list(range(count)), f"{where}: a card was created or lost"
    if g.tally:   # a score sheet shows the cards turned over at the end: part of the deck
        shown = Counter(g.round.codes)
        assert all(shown[code] <= deck[code] for code in shown), f"{where}: more than the deck"
        assert not g.round.deck and not g.round.pile, f"{where}: a score sheet has no piles"
        return
    assert Counter(g.round.codes) == deck, f"{where}: the round's cards are not the deck"
    assert Counter(g.round.codes[c] for c in places) == deck, f"{where}: rows and piles != deck"
    assert len(g.round.values) == len(g.round.known) == len(g.round.face_up) == count, where
    assert all(g.round.face_up[c] for c in g.round.pile), f"{where}: a discard lies face down"
    assert not any(g.round.face_up[c] for c in g.round.deck), f"{where}: a deck card lies face up"
    for seat in range(len(g.players)):
        if not g.in_round(seat):
            assert g.round.rows[seat] == [], f"{where}: {g.players[seat]} sits out but holds cards"
    playing = g.phase in (TURN_START, DRAWN, POWER)
    assert (g.round.drawn >= 0) == (g.phase == DRAWN), f"{where}: drawn card vs phase {g.phase}"
    assert (g.round.pending_power is not None) == (g.phase == POWER), f"{where}: power vs phase"
    if playing:
        assert g.in_round(g.round.current), f"{where}: the player to act is not in the round"
        assert all(g.in_round(s) for s in g.round.final_left), \
            f"{where}: final turn for an outsider"
    everybody = g.everybody
    assert all(0 <= mask <= everybody for mask in g.round.known), f"{where}: bad knowledge mask"


class Invariants(ReplayVisitor):
    def __init__(self) -> None:
        self.deck: Counter[str] = Counter()
        self.checked = 0

    def begin(self, state: GameState, header: GameStart) -> None:
        self.deck = Counter(state.rules.deck_codes())
        check_state(state, self.deck, "header")

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        check_state(state, self.deck, f"line {line}")
        self.checked += 1

    def end(self, state: GameState) -> None:
        check_state(state, self.deck, "end of log")
        if state.complete:
            assert state.winners
            assert all(state.active[state.seat[w]] for w in state.winners)
            assert state.cumulative_by_name() == state.rounds[-1].cumulative


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_invariants_after_every_event(path: Path) -> None:
    visitor = Invariants()
    result = replay_file(path, visitor=visitor)
    assert result.error is None and result.state is not None
    assert visitor.checked == result.state.events - 1


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_invariants_hold_up_to_the_bad_line(path: Path) -> None:
    visitor = Invariants()
    result = replay_file(path, visitor=visitor)
    assert result.error is not None
    if result.state is not None:
        check_state(result.state, visitor.deck, "state left by the error")


def test_scores_follow_from_the_points() -> None:
    """cumulative = previous cumulative + points, except the exact-target resets."""
    for path in LOGS:
        result = replay_file(path)
        assert result.state is not None
        g = result.state
        running = dict.fromkeys(g.players, 0)
        for r in g.rounds:
            for player, points in r.points.items():
                running[player] += points
            for player in r.resets:
                assert running[player] == g.rules.target, (path.name, r.round)
                running[player] = g.rules.reset_value()
            assert running == r.cumulative, (path.name, r.round)
