"""Simulate matches and print digests of their logs as JSON: run by
tests/test_compiled_simulate.py once with the pure simulator and once with the compiled one
(``build/compiled/site`` first on the path), which must print the same. Not a test module itself.

Usage: python tests/simulate_dump.py OUT_DIR   (prints {"compiled": [...], "games": {...}})
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import orjson

import cabo_log.log.append
import cabo_log.play.chance
import cabo_log.play.lines
import cabo_log.play.match
import cabo_log.play.random_bot
import engine.game
import engine.knowledge
import engine.moves
import engine.moveset
from cabo_log.play.simulate import game_seed, simulate, write_games

TABLES = [  # ruleset, players, bots, forfeit rate, auto rate
    ("edition1", 2, "random", 0.0, 0.0),
    ("edition2", 4, "random,greedy", 0.0, 0.0),
    ("golf", 3, "random,expert", 0.0, 0.0),
    ("online", 4, "random,cautious", 0.02, 0.05),
]
MODULES = (engine.game, engine.knowledge, cabo_log.play.match, cabo_log.play.random_bot,
           engine.moves, engine.moveset, cabo_log.play.lines,
           cabo_log.play.chance, cabo_log.log.append)


def main(out: Path) -> None:
    games: dict[str, str] = {}
    for ruleset, players, bots, forfeits, autos in TABLES:
        for index in range(4):
            game = simulate(ruleset, players=players, seed=game_seed(3, index), bots=bots,
                            forfeit_rate=forfeits, auto_rate=autos, timestamps=index == 1)
            lines = game.lines().split(b"\n", 1)[1]   # the header's started_at is the clock's
            games[f"{ruleset}-{index}"] = hashlib.sha256(lines).hexdigest()
    summary = write_games(out, "edition1", games=6, players=2, seed=4, bots="random", jobs=2)
    for path in sorted(summary.files):
        games[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
    compiled = [m.__name__ for m in MODULES
                if m.__file__ is not None and not m.__file__.endswith(".py")]
    sys.stdout.buffer.write(orjson.dumps({"compiled": compiled, "games": games}))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
