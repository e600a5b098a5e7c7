"""Replay logs and print what came of them as JSON: run by tests/test_compiled.py once with
the pure engine and once with the compiled one (``build/compiled/site`` first on the path),
which must print the same. Not a test module itself.

Usage: python tests/replay_dump.py LOG...   (prints {"engine": ..., "logs": {...}})
"""

from __future__ import annotations

import copy
import hashlib
import pickle
import sys
from typing import Any

import orjson

import cabo_log.log.fastlines
import cabo_log.log.line_events
import engine.builders
import engine.events
import engine.game
import engine.knowledge
import engine.moves
import engine.outcome
import engine.state
from cabo_log.log.fastdecode import fast_body
from cabo_log.log.replay import ReplayVisitor, replay_bytes, replay_file
from engine import CaboLogError, Event, GameState, Outcome
from engine.knowledge import observe
from engine.moves import legal_moves


class Outcomes(ReplayVisitor[str]):
    """A digest of every event and its outcome, in order (what each event did, not only the
    end), and after it each player's observation and the legal moves (what bots read)."""

    def __init__(self) -> None:
        self.digest = hashlib.sha256()

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        self.digest.update(f"{line} {event!r} {outcome!r}\n".encode())
        if line % 40 == 0:  # a copy (--until, step-through views) equals what it copies
            copied = state.snapshot()
            self.digest.update(f"{copied == state} {copied.rules is state.rules}\n".encode())
        ended = outcome.round_ended
        if ended is not None:  # a round result survives pickling and copying, equal to itself
            again = pickle.loads(pickle.dumps(ended))
            self.digest.update(f"{again == ended} {copy.deepcopy(ended) == ended}\n".encode())
        views = [observe(state, player) for player in state.players]
        self.digest.update(f"{views!r} {legal_moves(state)!r}\n".encode())

    def handle_error(self, error: CaboLogError, state: GameState | None) -> None:
        self.digest.update(f"error {error}\n".encode())

    def result(self) -> str:
        return self.digest.hexdigest()


def fast_path(path: str) -> str | None:
    """Whether the whole-body fast path vouches for the log, and if so its events and their
    ``t`` (``fastdecode.fast_body``, compiled ``fastlines``): the same decision, the same
    events."""
    with open(path, "rb") as f:
        decoded = fast_body(f.read().partition(b"\n")[2])
    return None if decoded is None else repr(decoded)


def until(path: str) -> list[Any]:
    """Replays stopped early (``--until``) at a few points: where each stopped, and its
    report."""
    with open(path, "rb") as f:
        data = f.read()
    stops = []
    for seq in (0, 3, 25, 120):
        result = replay_bytes(data, path, until=seq)
        stops.append([result.last_line, result.report()])
    return stops


def main(paths: list[str]) -> None:
    logs: dict[str, Any] = {}
    for path in paths:
        visitor = Outcomes()
        result = replay_file(path, visitor=visitor)
        logs[path] = {"report": result.report(), "outcomes": visitor.result(),
                      "fast_body": fast_path(path), "until": until(path)}
    modules = (engine.game, engine.events, engine.outcome, engine.state, engine.builders,
               engine.knowledge, engine.moves, cabo_log.log.fastlines, cabo_log.log.line_events)
    compiled = [m.__file__ is not None and not m.__file__.endswith(".py") for m in modules]
    kind = "compiled" if all(compiled) else "pure" if not any(compiled) else "mixed"
    sys.stdout.buffer.write(orjson.dumps({"engine": kind, "logs": logs}, default=str))


if __name__ == "__main__":
    main(sys.argv[1:])
