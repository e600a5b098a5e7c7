"""A rejected event changes nothing (FORMAT.md's contract), whatever the kind of rejection.

For every bad line of ``sample_games/invalid/`` and for thousands of mutated versions of legal
events (from the sample games and simulated ones), the state after the rejected event equals a
``snapshot()`` taken before it, field by field; the next legal event is then accepted and leads
to the same state as it does from the untouched snapshot. Implicit power lapses (an event that
is not the power user's ``power``/``skip`` while a power is pending) get extra attention: the
lapse ends the turn, maybe the round, before the event is judged, and must be undone with it.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import pytest

from cabo_log.log.builder import LogBuilder
from cabo_log.log.replay import replay_bytes
from cabo_log.play.simulate import simulate
from engine import CaboLogError, Event, GameState, apply, new_game, parse_event
from engine.events import Reshuffle, to_dict, with_fields
from engine.moves import legal_moves, needs_reshuffle, peek_moves, snap_moves

POWER = "power"
ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "sample_games").glob("*.jsonl"))
INVALID_DIR = ROOT / "sample_games" / "invalid"
ROW = re.compile(r"^\| `(?P<file>[^`]+\.jsonl)` \| (?P<line>\d+) \| `(?P<code>[a-z0-9_]+)` \|")


def invalid_table() -> list[tuple[str, int, str]]:
    """(file, line, code) of every row of sample_games/invalid/README.md (as test_samples)."""
    rows = [ROW.match(line) for line in (INVALID_DIR / "README.md").read_text().splitlines()]
    return [(m["file"], int(m["line"]), m["code"]) for m in rows if m]


def differences(a: Any, b: Any, path: str = "state") -> list[str]:
    """The paths of the fields in which two states differ (recursing into the state classes,
    which list their fields in ``FIELDS``, and dataclasses)."""
    names = (tuple(f.name for f in dataclasses.fields(a)) if dataclasses.is_dataclass(a)
             else getattr(type(a), "FIELDS", None))
    if names is not None and not isinstance(a, type) and type(a) is type(b):
        found: list[str] = []
        for name in names:
            found += differences(getattr(a, name), getattr(b, name), f"{path}.{name}")
        return found
    return [] if a == b else [f"{path}: {a!r} != {b!r}"[:300]]


def assert_unchanged(before: GameState, after: GameState) -> None:
    diff = differences(before, after)
    assert not diff, "a rejected event changed the state:\n" + "\n".join(diff)


def events_of(data: bytes) -> list[Event]:
    return [parse_event(orjson.loads(raw)) for raw in data.split(b"\n") if raw.strip()]


def next_legal(g: GameState) -> Event | None:
    """Some event the state must accept now (None before a deal)."""
    moves: list[Event] = legal_moves(g)
    if needs_reshuffle(g):
        moves = [Reshuffle(None, False, tuple(g.round.codes[c] for c in g.round.pile[:-1]))]
    if not moves:
        moves = [m for p in g.players for m in peek_moves(g, p)] + snap_moves(g)
    if not moves:
        return None
    return with_fields(moves[0], seq=g.events if g.seq_mode else None)


def reject_and_continue(g: GameState, bad: Event, then: Event | None) -> str:
    """Apply ``bad`` to ``g``; if rejected, check that nothing changed and that ``then`` is
    accepted as it is by the snapshot. Returns the error code ('' when ``bad`` was legal)."""
    before = g.snapshot()
    try:
        apply(g, bad)
    except CaboLogError as exc:
        assert_unchanged(before, g)
        if then is not None:
            apply(before, then)
            apply(g, then)
            assert_unchanged(before, g)
        return exc.code
    return ""


# --- the reported case ------------------------------------------------------------------------

def final_turn_power() -> LogBuilder:
    """edition1: ana calls Cabo, bruno's final turn discards a 7 (peek) and leaves it pending."""
    b = LogBuilder("edition1", ["ana", "bruno"])
    b.deal({"ana": ["0", "1", "2", "3"], "bruno": ["4", "5", "6", "8"]}, "9", ["7", "10"],
           first="ana")
    b.cabo("ana").draw("bruno", "deck").discard("bruno")
    return b


def test_a_bad_draw_after_a_final_turn_power_leaves_the_round_unscored() -> None:
    b = final_turn_power()
    g = b.state
    assert g is not None and g.phase == POWER and not g.rounds
    code = reject_and_continue(g, parse_event({"type": "draw", "seq": g.events, "player": "ana",
                                               "source": "deck", "card": "KH"}),
                               parse_event({"type": "skip", "seq": g.events,
                                            "player": "bruno"}))
    assert code == "round_over"  # the lapse scored the round, so the draw came too late
    assert len(g.rounds) == 1 and g.rounds[0].caller == "ana"  # the skip, then, ended it


def test_a_bad_deal_after_a_lapsed_final_turn_power_changes_nothing() -> None:
    g = final_turn_power().state
    assert g is not None
    code = reject_and_continue(g, parse_event({"type": "deal", "seq": g.events, "round": 3,
                                               "first": "ana", "hands": {}, "discard": "0",
                                               "deck": []}), None)
    assert code == "wrong_round"
    assert g.phase == POWER and g.rounds == [] and g.cumulative == [0, 0]


# --- every invalid sample ---------------------------------------------------------------------

ENGINE_CASES = [(f, line, code) for f, line, code in invalid_table()
                if f.split("-")[0] in ("illegal", "inconsistent")]


@pytest.mark.parametrize(("name", "line", "code"), ENGINE_CASES, ids=[c[0] for c in ENGINE_CASES])
def test_every_invalid_sample_line_is_rejected_without_a_trace(name: str, line: int,
                                                               code: str) -> None:
    lines = (INVALID_DIR / name).read_bytes().split(b"\n")
    events = [parse_event(orjson.loads(raw)) for raw in lines[:line]]
    g = new_game(events[0])  # type: ignore[arg-type]
    for event in events[1:-1]:
        apply(g, event)
    assert reject_and_continue(g, events[-1], next_legal(g)) == code


@pytest.mark.parametrize(("name", "line", "code"),
                         [c for c in invalid_table() if c[0].startswith("syntax-")
                          and c[1] > 1], ids=lambda v: str(v))
def test_a_bad_line_keeps_the_state_before_it(name: str, line: int, code: str) -> None:
    """A line that does not even parse leaves the replay at the state of the line before."""
    data = (INVALID_DIR / name).read_bytes()
    result = replay_bytes(data)
    assert result.error is not None and result.error.code == code
    good = replay_bytes(b"\n".join(data.split(b"\n")[:line - 1]))
    assert good.state is not None and result.state is not None
    assert_unchanged(good.state, result.state)


# --- fuzzed rejections ------------------------------------------------------------------------

CARDS = ["0", "5", "7", "9", "11", "13", "KH", "JK", "5S"]


def mutations(event: Event, g: GameState, rng: random.Random) -> list[Event]:
    """Nearby versions of a legal event, most of them illegal in some way."""
    base = to_dict(event)
    variants: list[dict[str, Any]] = []
    others = [p for p in g.players if p != base.get("player")] + ["nobody"]
    for key, value in base.items():
        if key in ("type", "seq", "format"):
            continue
        changed = dict(base)
        if key == "player":
            changed[key] = rng.choice(others)
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int):
            changed[key] = value + rng.choice([-1, 1, 4, 99])
        elif key == "source":
            changed[key] = "discard" if value == "deck" else "deck"
        elif key == "card":
            changed[key] = rng.choice(CARDS)
        elif key == "power":
            changed[key] = rng.choice([p for p in ("peek", "spy", "swap") if p != value])
        elif key in ("positions",):
            changed[key] = [p + rng.choice([1, 4]) for p in value]
        elif key == "deck" and value:
            changed[key] = value[1:] + [rng.choice(CARDS)]
        elif key in ("points", "scores"):
            changed[key] = {p: v + 1 for p, v in value.items()}
        elif key == "target":
            changed[key] = [value[0], value[1] + 5]
        elif key == "caller":   # a score sheet's round (tally)
            changed[key] = rng.choice([p for p in g.players if p != value] + ["nobody"])
        elif key == "hands" and base["type"] == "tally":
            hands = {p: list(cards) for p, cards in value.items()}
            who = rng.choice(list(hands))
            changed[key] = {**hands, who: hands[who] + [rng.choice(["ZZ", *CARDS])] * 5}
            variants.append({**base, key: {p: c for p, c in hands.items() if p != who}})
        else:
            continue
        variants.append(changed)
    for kind in ("draw", "cabo", "discard", "skip", "snap", "reshuffle", "deal", "round_end"):
        if kind != base["type"]:
            variants.append({**base, "type": kind, "source": "deck", "position": 0,
                             "deck": [], "round": 1, "points": {}, "first": g.players[0],
                             "hands": {}, "discard": "0", "player": base.get("player",
                                                                             g.players[0])})
    out = []
    for obj in variants:
        try:
            out.append(parse_event(obj))
        except CaboLogError:
            pass
    return out


SIMULATED = [("edition1", 3, 0.0), ("edition2", 4, 0.0), ("golf", 3, 0.0), ("online", 4, 0.05)]
SOURCES: dict[str, Callable[[], bytes]] = {p.stem: p.read_bytes for p in SAMPLES}
SOURCES.update({f"simulated-{r}": partial(lambda r, n, f: simulate(r, players=n, seed=11,
                                                                   forfeit_rate=f).lines(),
                                          r, n, f)
                for r, n, f in SIMULATED})


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_fuzzed_rejections_change_nothing(source: str) -> None:
    """Mutations of about one event in twenty, and of every event that makes a pending power
    lapse or could have (what follows a skip, sent instead of it)."""
    events = events_of(SOURCES[source]())
    rng = random.Random(source)
    g = new_game(events[0])  # type: ignore[arg-type]
    rejected = 0
    for i, event in enumerate(events[1:], start=1):
        lapse = g.phase == POWER
        trials: list[Event] = []
        if lapse and i + 1 < len(events):
            after = mutations(events[i + 1], g, rng)
            trials += rng.sample(after, min(4, len(after))) + [events[i + 1]]
        if lapse or rng.random() < 0.05 or event.TYPE == "tally":
            trials += rng.sample(mutations(event, g, rng), 2)
        last: GameState | None = None
        for bad in trials:
            trial = g.snapshot()
            try:
                apply(trial, bad)
            except CaboLogError:
                assert_unchanged(g, trial)
                rejected += 1
                last = trial
        apply(g, event)
        if last is not None:  # the log's own event is accepted after the rejected one
            apply(last, event)
            assert_unchanged(g, last)
    assert rejected > 0
