"""The simulator's hot paths give exactly what the engine's general ones give: the state's
remembered observations and move lists are a fresh state's and ``legal_moves``, the
writer's single-event path writes what ``append`` writes and refuses what it refuses; and a
seed keeps giving the same games, byte for byte."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import pytest

from cabo_log.log.append import EventWriter, MemorySink
from cabo_log.play.lines import stamp
from cabo_log.play.simulate import check_run, game_seed, simulate, write_games
from engine import CaboLogError, Event, GameState
from engine.events import Draw, Skip
from engine.knowledge import Observation
from engine.moves import legal_moves

TABLES: list[tuple[str, dict[str, Any], int, str, float, float]] = [
    ("edition1", {}, 2, "random", 0.0, 0.0),
    ("edition1", {"decks": 2}, 5, "random,greedy,cautious", 0.0, 0.0),
    ("edition2", {}, 4, "random,cautious,greedy", 0.0, 0.05),
    ("golf", {}, 4, "greedy,random", 0.0, 0.05),           # snaps
    ("golf", {"kamikaze": True, "jokers": True}, 3, "random", 0.0, 0.0),
    ("online", {}, 4, "random,greedy", 0.03, 0.05),        # forfeits: a held card dropped
    ("online", {}, 3, "expert,random", 0.01, 0.02),
]


@pytest.mark.parametrize("ruleset,options,players,bots,forfeits,autos", TABLES,
                         ids=[f"{t[0]}-{t[2]}p-{t[3]}" for t in TABLES])
def test_every_observation_and_move_list_is_the_engines(
        monkeypatch: pytest.MonkeyPatch, ruleset: str, options: dict[str, Any], players: int,
        bots: str, forfeits: float, autos: float) -> None:
    """What the state remembers between questions (observations, move lists) gives what a
    copy asked for the first time gives, at every decision of many matches."""
    checked = {"observations": 0, "moves": 0, "partial": 0}
    observed = GameState.observation
    listed = GameState.legal_moves

    def check_observe(self: GameState, seat: int, own_row_only: bool = False
                      ) -> Observation:
        mine = observed(self, seat, own_row_only)
        fresh = copy.copy(self)   # the same round, nothing remembered
        engines = observed(fresh, seat)
        if own_row_only:   # partial: the player's own row (and slots) alone, the rest whole
            assert set(mine.rows) == set(engines.rows) & {self.players[seat]}
            checked["partial"] += 1
            engines.rows = {name: row for name, row in engines.rows.items()
                            if name == self.players[seat]}
            engines.slots = {name: row for name, row in engines.slots.items()
                             if name == self.players[seat]}
        assert mine == engines
        checked["observations"] += 1
        return mine

    def check_moves(self: GameState) -> Any:
        mine = listed(self)
        assert list(mine) == legal_moves(self)
        checked["moves"] += 1
        return mine

    monkeypatch.setattr(GameState, "observation", check_observe)
    monkeypatch.setattr(GameState, "legal_moves", check_moves)
    for index in range(3):
        simulate(ruleset, players=players, seed=game_seed(21, index), options=options,
                 bots=bots, forfeit_rate=forfeits, auto_rate=autos)
    assert checked["observations"] > 100 and checked["moves"] > 100
    assert (checked["partial"] > 0) == ("random" in bots)   # random's are partial


def test_observations_are_new_objects_that_share_only_frozen_parts() -> None:
    game = simulate("edition1", players=2, seed=4, bots="random")
    one, two = game.state.observation(0), game.state.observation(0)
    assert one == two and one is not two and one.rows is not two.rows
    assert isinstance(one.discard, tuple) and all(isinstance(r, tuple) for r in one.rows.values())


def test_an_observation_kept_by_a_bot_stays_what_it_was_when_handed_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What observations share (the discard pile, the scores, the names) is replaced when it
    changes, never changed in place: one a bot keeps still shows the moment it was handed
    out, after the match went on."""
    kept: list[tuple[Observation, str]] = []
    observed = GameState.observation

    def keep(self: GameState, seat: int, own_row_only: bool = False) -> Observation:
        mine = observed(self, seat, own_row_only)
        kept.append((mine, repr(mine)))
        return mine

    monkeypatch.setattr(GameState, "observation", keep)
    for ruleset, players, bots in (("edition1", 2, "random"), ("golf", 4, "random,greedy"),
                                   ("online", 3, "random")):
        simulate(ruleset, players=players, seed=game_seed(9, players), bots=bots,
                 forfeit_rate=0.02 if ruleset == "online" else 0.0)
    assert len(kept) > 300
    assert len({text for _, text in kept}) > 100
    for mine, then in kept:
        assert repr(mine) == then


# --- the writer's single-event path ----------------------------------------------------------


def _game_events(seed: int) -> tuple[dict[str, Any], list[Event]]:
    """A simulated game's header line and its events (without seq)."""
    from cabo_log.log.logfile import parse_line

    game = simulate("golf", players=3, seed=seed, bots="greedy,random")
    lines = game.lines().splitlines()
    events = [parse_line(line) for line in lines[1:]]
    return game.events[0], events


def test_append_stamped_writes_what_append_writes() -> None:
    header, events = _game_events(3)
    fast, slow = EventWriter(MemorySink()), EventWriter(MemorySink())
    fast.append(header)
    slow.append(header)
    for seq, event in enumerate(events, start=1):
        stamped, line = stamp(event, seq, event.auto)
        done = fast.append_stamped(stamped, line)
        slow.append((stamped, dict(line)))
        assert done == slow.outcome
    assert fast.sink.committed() == slow.sink.committed()
    assert fast.lines == slow.lines == len(events) + 1
    assert fast.state is not None and fast.state.complete


def test_append_stamped_refuses_and_changes_nothing() -> None:
    header, events = _game_events(5)
    writer = EventWriter(MemorySink(), file="g.jsonl")
    writer.append(header)
    for seq, event in enumerate(events[:6], start=1):
        writer.append_stamped(*stamp(event, seq, False))
    assert writer.state is not None
    before = (writer.sink.committed(), writer.lines, writer.state.snapshot())
    player = writer.state.players[(writer.state.players.index(
        writer.state.current_player() or writer.state.players[0]) + 1) % 3]
    bad, line = stamp(Skip(None, False, player), writer.lines, False)
    with pytest.raises(CaboLogError) as caught:
        writer.append_stamped(bad, line)
    assert str(caught.value).startswith(f"g.jsonl:{before[1] + 1}: ")
    assert writer.sink.committed() == before[0] and writer.lines == before[1]
    assert writer.state == before[2]
    writer.append_stamped(*stamp(events[6], writer.lines, False))   # the next legal one goes in


def test_append_stamped_takes_the_general_path_for_a_chained_log() -> None:
    header, events = _game_events(6)
    writer = EventWriter(MemorySink(), chained=True)
    writer.append(header)
    event, line = stamp(events[0], 1, False)
    writer.append_stamped(event, line)
    assert b'"h":' in writer.sink.committed().splitlines()[1]


# --- seeds keep their games ------------------------------------------------------------------

# SHA-256 of the concatenated logs (these bytes were written by the simulator before its hot
# paths were rewritten: the rewrite changed no byte; a change here changes every corpus;
# the expert's pin moves when its judgement does)
PINNED = {
    ("edition1", 2, "random"): "891e2b35d03a3e7b",
    ("golf", 4, "greedy,random"): "9c52c2a9abcbe950",
    ("online", 3, "expert,random,greedy"): "bd4885c9c90bfc77",
}


@pytest.mark.parametrize("ruleset,players,bots", list(PINNED))
def test_a_seed_keeps_giving_the_same_games(ruleset: str, players: int, bots: str) -> None:
    online = ruleset == "online"
    digest = hashlib.sha256()
    for index in range(3):
        digest.update(simulate(ruleset, players=players, seed=game_seed(5, index), bots=bots,
                               forfeit_rate=0.01 if online else 0.0,
                               auto_rate=0.02 if online else 0.0).lines())
    assert digest.hexdigest()[:16] == PINNED[(ruleset, players, bots)]


def test_check_run_says_why_a_run_cannot_start(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        check_run(tmp_path, "edition1", games=0)
    with pytest.raises(ValueError, match="unknown bot 'smart'"):
        check_run(tmp_path, "edition1", games=1, bots="smart")
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="is a file, not a folder"):
        check_run(tmp_path / "file", "edition1", games=1)
    write_games(tmp_path / "out", "edition1", games=2, jobs=1)
    with pytest.raises(ValueError, match="already holds 2 of these logs"):
        check_run(tmp_path / "out", "edition1", games=2)
    check_run(tmp_path / "out", "edition1", games=2, force=True)
    check_run(tmp_path / "out", "edition1", games=2, seed=1)


def test_deck_draws_name_their_card() -> None:
    game = simulate("edition1", players=2, seed=8, bots="random")
    draws = [e for e in game.events if e["type"] == Draw.TYPE and e["source"] == "deck"]
    assert draws and all("card" in e for e in draws)


def test_play_reaches_not_into_pages() -> None:
    """The data flow runs log -> play -> pages: play/ imports nothing of pages/ (the words of
    events live in log/words). Reading the state goes through its read API everywhere
    (tests/test_read_api.py)."""
    import ast
    from pathlib import Path

    import cabo_log.play.match

    play = Path(cabo_log.play.match.__file__).parent
    for path in sorted(play.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("cabo_log.pages"), (path.name, node.module)
            if isinstance(node, ast.Import):
                assert all(not a.name.startswith("cabo_log.pages") for a in node.names)
