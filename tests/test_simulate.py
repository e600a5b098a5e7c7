"""The simulator: every simulated game replays cleanly, conserves cards, is deterministic, and
corpora exercise every event type and special scoring case of each ruleset."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from itertools import cycle, islice
from pathlib import Path
from typing import Any

import orjson
import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cabo_log.cli.simulate import register
from cabo_log.log.replay import ReplayVisitor, replay_bytes
from cabo_log.play.simulate import (
    PLAYER_IDS,
    SimulatedGame,
    game_name,
    game_seed,
    simulate,
    simulate_game,
    write_games,
)
from engine import BUILTINS, Event, GameState, Outcome, resolve
from engine.events import Deal, Draw, Forfeit, Power, Replace, Reshuffle, Snap


def cli() -> typer.Typer:
    """A fresh app holding this area's command (as ``cabo_log.cli`` registers it)."""
    app = typer.Typer(name="cabo-log", pretty_exceptions_enable=False)

    @app.callback()
    def main() -> None:
        """cabo-log"""

    register(app)
    return app

# --- helpers ---------------------------------------------------------------------------------


class Conservation(ReplayVisitor):
    """After every event: each card of the round lies in exactly one place, and the codes in
    play are exactly the ruleset's deck."""

    def __init__(self) -> None:
        self.checked = 0

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        if not state.round.codes:
            return
        locations = sorted(state.card_locations())
        assert locations == list(range(len(state.round.codes))), f"line {line}: cards lost/doubled"
        assert Counter(state.round.codes) == Counter(state.rules.deck_codes()), f"line {line}"
        self.checked += 1


def replay_game(game: SimulatedGame, visitor: ReplayVisitor | None = None) -> GameState:
    result = replay_bytes(game.lines(), "sim.jsonl", visitor=visitor)
    assert result.error is None, str(result.error)
    assert result.state is not None
    return result.state


def configurations() -> list[tuple[str, dict[str, Any], int]]:
    """Every ruleset x option set x allowed player count."""
    option_sets: dict[str, list[dict[str, Any]]] = {
        "edition1": [{}, {"decks": 2}, {"target": 50}],
        "edition2": [{}, {"decks": 2}, {"target": 50}],
        "golf": [{}, {"jokers": True}, {"open_peek": True}, {"no_snap": True},
                 {"kamikaze": True}, {"decks": 2}, {"target": 50}],
        "online": [{}, {"target": 50}, {"decks": 2}],
    }
    out = []
    for name, sets in option_sets.items():
        for options in sets:
            rules = resolve(name, options)
            for players in range(2, 7):
                if rules.players_allowed(players):
                    out.append((name, options, players))
    return out


CONFIGS = configurations()
BOT_MIXES = ["greedy", "random", "greedy,random", "random,cautious,greedy"]


def bots_for(players: int, index: int) -> str:
    names = BOT_MIXES[index % len(BOT_MIXES)].split(",")
    return ",".join(names[:players])


# --- every game replays, cards are conserved ------------------------------------------------


@pytest.mark.parametrize("ruleset,options,players", CONFIGS,
                         ids=[f"{r}-{orjson.dumps(o).decode()}-{n}p" for r, o, n in CONFIGS])
def test_simulated_games_replay_and_conserve_cards(ruleset: str, options: dict[str, Any],
                                                   players: int) -> None:
    rules = resolve(ruleset, options)
    online = rules.forfeits
    for k in range(4):
        seed = 1000 * players + k
        game = simulate(ruleset, players=players, seed=seed, options=options,
                        bots=bots_for(players, seed), forfeit_rate=0.004 if online else 0.0,
                        auto_rate=0.02 if online else 0.0)
        events = game.events
        assert [e["seq"] for e in events] == list(range(len(events)))
        assert events[0]["type"] == "game" and events[0]["format"] == "cabo-log/1"
        assert events[-1]["type"] == "game_end"
        visitor = Conservation()
        replayed = replay_game(game, visitor)
        assert visitor.checked > 0
        assert replayed.complete and game.state.complete
        assert replayed.winners == game.state.winners
        assert replayed.cumulative_by_name() == game.state.cumulative_by_name()
        assert [r.points for r in replayed.rounds] == [r.points for r in game.state.rounds]
        claims = [e for e in events if e["type"] == "round_end"]
        assert [c["points"] for c in claims] == [r.points for r in replayed.rounds]
        assert events[-1]["winners"] == list(replayed.winners)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**40),
       bots=st.lists(st.sampled_from(["random", "greedy", "cautious"]), min_size=1,
                     max_size=2),
       rates=st.tuples(st.sampled_from([0.0, 0.01, 0.05]), st.sampled_from([0.0, 0.05])))
def test_any_seed_any_table_replays(config: tuple[str, dict[str, Any], int], seed: int,
                                    bots: list[str], rates: tuple[float, float]) -> None:
    ruleset, options, players = config
    forfeit_rate = rates[0] if BUILTINS[ruleset].forfeits else 0.0
    game = simulate(ruleset, players=players, seed=seed, options=options, bots=bots,
                    forfeit_rate=forfeit_rate, auto_rate=rates[1])
    replayed = replay_game(game, Conservation())
    assert replayed.complete
    assert replayed.winners == game.state.winners
    assert replayed.cumulative_by_name() == game.state.cumulative_by_name()


def test_deals_follow_the_ruleset() -> None:
    """4 cards to each dealt player, one discard, the rest the deck; `first` is a dealt player
    (and the engine's choice when the ruleset fixes it)."""
    for ruleset in BUILTINS:
        game = simulate(ruleset, players=3, seed=5, bots="greedy")
        deals = [e for e in game.events if e["type"] == "deal"]
        assert [d["round"] for d in deals] == list(range(1, len(deals) + 1))
        for deal in deals:
            assert all(len(hand) == 4 for hand in deal["hands"].values())
            assert deal["first"] in deal["hands"]
            codes = [c for hand in deal["hands"].values() for c in hand]
            codes += [deal["discard"], *deal["deck"]]
            assert Counter(codes) == Counter(game.state.rules.deck_codes())


def test_player_ids_and_bot_tables() -> None:
    events = simulate_game("edition1", players=["x", "y"], seed=1, bots=["random", "greedy"])
    assert events[0]["players"] == ["x", "y"]
    assert events[0]["bots"] == {"x": "random", "y": "greedy"}
    events = simulate_game("golf", players=4, seed=1, bots="greedy,random")
    assert events[0]["players"] == list(PLAYER_IDS[:4])
    assert list(events[0]["bots"].values()) == ["greedy", "random", "greedy", "random"]


@pytest.mark.parametrize("kwargs,message", [
    ({"ruleset": "nope"}, "unknown ruleset"),
    ({"ruleset": "golf", "players": 5}, "2 to 4 players"),
    ({"ruleset": "online", "players": 6}, "2 to 5 players"),
    ({"ruleset": "edition1", "players": 1}, "2 to 6"),
    ({"ruleset": "edition1", "options": {"jokers": True}}, "does not exist"),
    ({"ruleset": "edition1", "bots": "clever"}, "unknown bot"),
    ({"ruleset": "edition1", "players": 2, "bots": "greedy,random,greedy"}, "3 bots"),
    ({"ruleset": "edition1", "forfeit_rate": 0.1}, "no forfeits"),
    ({"ruleset": "online", "auto_rate": 2.0}, "between 0 and 1"),
    ({"ruleset": "edition1", "players": ["a", "a"]}, "unique"),
])
def test_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        simulate(**kwargs)


# --- determinism ----------------------------------------------------------------------------


def test_same_arguments_same_bytes_and_seeds_differ() -> None:
    args: dict[str, Any] = {"players": 4, "bots": "greedy,random", "forfeit_rate": 0.01,
                            "auto_rate": 0.05}
    random.seed(1)
    first = simulate("online", seed=3, **args).lines()
    random.seed(2)
    again = simulate("online", seed=3, **args).lines()
    assert first == again  # the global random state plays no part
    before = random.getstate()
    other = simulate("online", seed=4, **args).lines()
    assert random.getstate() == before  # ... and is left untouched
    assert other != first


def test_same_bytes_under_another_hash_seed() -> None:
    """Nothing depends on set/dict hash order: another interpreter, another PYTHONHASHSEED."""
    code = ("import sys; from cabo_log.play.simulate import simulate; sys.stdout.buffer.write(b''"
            ".join(simulate(r, players=4, seed=2, bots='greedy,random,cautious', auto_rate=0.05)"
            ".lines() for r in ('edition1', 'edition2', 'golf', 'online')))")
    here = b"".join(simulate(r, players=4, seed=2, bots="greedy,random,cautious",
                             auto_rate=0.05).lines()
                    for r in ("edition1", "edition2", "golf", "online"))
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    there = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           check=True).stdout
    assert there == here


def test_write_games_is_deterministic(tmp_path: Path) -> None:
    one = write_games(tmp_path / "a", "golf", games=5, players=3, seed=11, bots="greedy,random")
    two = write_games(tmp_path / "b", "golf", games=5, players=3, seed=11, bots="greedy,random")
    names = [p.name for p in one.files]
    assert names == [f"golf-s11-{i:06d}.jsonl" for i in range(5)] == sorted(names)
    assert names == [p.name for p in two.files]
    for a, b in zip(one.files, two.files, strict=True):
        assert a.read_bytes() == b.read_bytes()
    assert len({p.read_bytes() for p in one.files}) == 5
    assert one.games == 5 and one.events > 0 and one.rounds >= 5
    # game i of a run is the single game with the derived seed and the file's name as id
    single = simulate("golf", players=3, seed=game_seed(11, 2), bots="greedy,random",
                      game_id=game_name("golf", 11, 2))
    assert single.lines() == one.files[2].read_bytes()


def test_cli_writes_identical_files(tmp_path: Path) -> None:
    runner = CliRunner()

    def run(out: str, seed: int) -> dict[str, bytes]:
        result = runner.invoke(cli(), ["simulate", "--ruleset", "edition2", "--players", "3",
                                     "--games", "4", "--seed", str(seed), "--bot",
                                     "greedy,random,greedy", "--out", str(tmp_path / out),
                                     "--no-progress"])
        assert result.exit_code == 0, result.output
        assert "4 games" in result.output and "events" in result.output
        return {p.name: p.read_bytes() for p in sorted((tmp_path / out).iterdir())}

    a, b, c = run("a", 7), run("b", 7), run("c", 8)
    assert a == b
    assert list(a) == [f"edition2-s7-{i:06d}.jsonl" for i in range(4)]
    assert set(a.values()).isdisjoint(c.values())
    for data in a.values():
        assert replay_bytes(data).error is None


@pytest.mark.parametrize("args,message", [
    (["--ruleset", "golf", "--options", "{bad"], "not valid JSON"),
    (["--ruleset", "golf", "--options", "[1]"], "JSON object"),
    (["--ruleset", "golf", "--players", "6"], "2 to 4 players"),
    (["--ruleset", "edition1", "--bot", "smart"], "unknown bot"),
    (["--ruleset", "edition1", "--games", "0"], "at least 1"),
    (["--ruleset", "edition1", "--forfeit-rate", "0.5"], "no forfeits"),
    ([], "--ruleset is required"),
])
def test_cli_bad_arguments(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli(), ["simulate", *args, "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output
    assert not (tmp_path / "x").exists()


def test_timestamps_only_when_asked() -> None:
    plain = simulate_game("online", players=2, seed=1)
    assert all("t" not in e for e in plain) and "started_at" not in plain[0]
    timed = simulate_game("online", players=2, seed=1, timestamps=True, auto_rate=0.1)
    times = [e["t"] for e in timed]
    assert times == sorted(times) and times[0] == 0 and "started_at" in timed[0]
    assert [{k: v for k, v in e.items() if k not in ("t", "started_at")} for e in timed] \
        != plain  # the timeouts changed the game
    again = simulate_game("online", players=2, seed=1, timestamps=True, auto_rate=0.1)
    assert [e["t"] for e in again] == times
    untimed = simulate_game("online", players=2, seed=1, auto_rate=0.1)
    assert [{k: v for k, v in e.items() if k not in ("t", "started_at")} for e in timed] \
        == untimed  # the clock has its own random stream: it never changes the game


def test_progress_goes_to_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summary = write_games(tmp_path, "edition1", games=2, progress=True)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "2 games" in str(summary)


# --- coverage: corpora exercise every event type and special case ---------------------------


class Features(ReplayVisitor):
    """Counts what a corpus exercised: event types and the special cases of the rules."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def begin(self, state: GameState, header: Any) -> None:
        self.seen["game"] += 1

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        seen = self.seen
        effect = outcome
        kind = type(event).__name__.lower()
        seen[kind] += 1
        if event.auto:
            seen["auto"] += 1
        if effect.lapsed is not None:
            seen["power lapsed"] += 1
        if effect.penalty is not None:
            seen["penalty card"] += 1
        if isinstance(event, Draw):
            seen["draw with card" if event.card else "draw without card"] += 1
        elif isinstance(event, Replace):
            count = len(event.positions)
            if count > 1:
                seen["multi ok" if effect.success else
                     f"multi failed {'2' if count == 2 else '3+'}"] += 1
            if event.into is not None:
                seen["into"] += 1
            if event.end is not None:
                seen[f"end {event.end}"] += 1
            if state.phase == "power":
                seen["power from replaced card"] += 1
        elif isinstance(event, Power):
            seen[f"power {event.power}"] += 1
            if event.cards and event.player not in (event.cards[0][0], event.cards[1][0]):
                seen["swap of two other players"] += 1
        elif isinstance(event, Snap):
            seen["snap match" if effect.success else "snap wrong"] += 1
        elif isinstance(event, Forfeit):
            if effect.discarded:
                seen["forfeit holding a drawn card"] += 1
            if state.caller() >= 0 and state.players[state.caller()] == event.player:
                seen["caller forfeits"] += 1
        elif isinstance(event, Reshuffle) and state.phase == "drawn":
            seen["reshuffle before a penalty card"] += 1
        elif isinstance(event, Deal) and state.ending:
            seen["extra round after a tie"] += 1
        if state.phase == "turn_start" and not state.deck_size() and not state.pile_size():
            seen["both piles empty"] += 1

    def end(self, state: GameState) -> None:
        seen = self.seen
        rules = state.rules
        for r in state.rounds:
            seen[f"end {r.end}"] += 1
            if r.special:
                seen["special hand"] += 1
                if r.cabo_success and r.caller not in r.special:
                    seen["special hand beats a successful Cabo"] += 1
            if r.resets:
                seen["exact target reset"] += 1
            if r.tiebreak:
                seen["tie-break round"] += 1
            if r.cabo_success is False:
                seen["failed Cabo"] += 1
            if r.end == "deck_empty" and r.caller is not None:
                seen["deck empty after Cabo"] += 1
            if any(r.points[p] == 0 < r.totals[p] and p != r.caller for p in r.points):
                seen["lowest hand scores 0"] += 1
            if any(v < 0 for hand in r.hands.values()
                   for v in (state.value_of(c) for c in hand)):
                seen["red king"] += 1
        last = state.rounds[-1]
        if last.resets:
            seen["reset in the final round"] += 1
        if len(state.winners) > 1:
            seen["shared win"] += 1
        if rules.exact_reset == "once" and any(
                state.cumulative[p] == rules.target for p in range(len(state.players))):
            seen["second exact target ends the match"] += 1
        active = [p for p in range(len(state.players)) if state.active[p]]
        if len(active) < 2:
            seen["forfeit ends the match"] += 1
        low = min(state.cumulative[p] for p in active)
        if sum(1 for p in active if state.cumulative[p] == low) > len(state.winners):
            seen["tie broken"] += 1


COMMON = {"game", "deal", "peek", "draw", "discard", "replace", "power", "skip", "cabo",
          "roundend", "gameend", "draw with card", "draw without card", "power peek",
          "power spy", "power swap", "power lapsed", "end cabo", "failed Cabo"}
MULTI = {"multi ok", "multi failed 2", "multi failed 3+", "into", "penalty card"}

EXPECTED = {
    "edition1": COMMON | MULTI | {
        "reshuffle", "special hand", "exact target reset", "swap of two other players",
        "lowest hand scores 0", "reset in the final round", "shared win"},
    "edition2": COMMON | MULTI | {
        "special hand", "special hand beats a successful Cabo", "exact target reset",
        "end deck_empty", "deck empty after Cabo", "second exact target ends the match",
        "tie broken", "extra round after a tie"},
    "golf": COMMON | {
        "snap", "snap match", "snap wrong", "penalty card", "reshuffle",
        "power from replaced card", "tie-break round", "extra round after a tie",
        "special hand", "red king"},
    "online": COMMON | MULTI | {
        "forfeit", "auto", "end left", "end right", "end forfeit", "forfeit ends the match",
        "forfeit holding a drawn card", "caller forfeits", "special hand", "shared win"},
}

# (options, players, bots) cycled over the games of each corpus: short targets make the rare
# end-of-match cases (ties, second exact target) frequent without slowing the corpus down.
CORPORA: dict[str, list[tuple[dict[str, Any], int, str]]] = {
    "edition1": [({"target": 50}, 3, "greedy"), ({"target": 30}, 2, "greedy,random"),
                 ({"target": 50}, 4, "greedy,random"), ({"decks": 2, "target": 50}, 5, "greedy"),
                 ({"target": 30}, 3, "random")],
    "edition2": [({"target": 50}, 3, "greedy"), ({"target": 10}, 2, "greedy"),
                 ({"target": 10}, 4, "greedy,random"), ({"target": 30}, 3, "cautious,greedy"),
                 ({"decks": 2, "target": 30}, 5, "random,greedy")],
    "golf": [({"kamikaze": True, "target": 50}, 3, "greedy"),
             ({"jokers": True, "target": 10}, 4, "greedy"), ({"target": 30}, 2, "greedy"),
             ({"jokers": True, "kamikaze": True, "target": 50}, 4, "greedy,random"),
             ({"jokers": True, "target": 10}, 4, "greedy"),
             ({"open_peek": True, "target": 30}, 3, "greedy"), ({}, 3, "random"),
             ({"decks": 2, "target": 50}, 5, "random,greedy")],
    "online": [({"target": 50}, 3, "greedy"), ({"target": 30}, 2, "greedy,random"),
               ({"target": 50}, 4, "greedy"), ({"target": 10}, 4, "greedy"),
               ({"target": 30}, 5, "random,greedy"), ({}, 2, "random")],
}
CORPUS_GAMES = int(os.environ.get("CABO_CORPUS_GAMES", "300"))


@pytest.mark.parametrize("ruleset", list(EXPECTED))
def test_corpus_covers_every_event_and_special_case(ruleset: str) -> None:
    visitor = Features()
    online = BUILTINS[ruleset].forfeits
    plan = list(islice(cycle(CORPORA[ruleset]), CORPUS_GAMES))
    for index, (options, players, bots) in enumerate(plan):
        game = simulate(ruleset, players=players, seed=game_seed(42, index), options=options,
                        bots=bots, forfeit_rate=0.008 if online else 0.0,
                        auto_rate=0.01 if online else 0.0)
        replay_game(game, visitor)
    missing = sorted(EXPECTED[ruleset] - set(visitor.seen))
    assert not missing, f"{ruleset}: never seen in {CORPUS_GAMES} games: {missing}"
