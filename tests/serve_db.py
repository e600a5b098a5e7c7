"""A small database for the explorer's tests: simulated games with known players and dates,
one game in progress, one game whose ids are markup (``test_timeline.tiny_game``), and the
sample game a Kamikaze hand decides."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_timeline import tiny_game, write_log

from cabo_log.db.load import load_paths
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

# (game_id, ruleset, players, seed, started_at)
GAMES = [
    ("golf-a", "golf", ["ana", "bruno", "carla"], 1, "2024-05-01T10:00:00Z"),
    ("golf-b", "golf", ["ana", "dora"], 2, "2024-05-02T10:00:00Z"),
    ("ed2-a", "edition2", ["bruno", "carla", "dora"], 3, "2024-06-01T10:00:00Z"),
    ("ed1-a", "edition1", ["ana", "carla"], 4, "2024-06-15T10:00:00Z"),
    ("online-a", "online", ["ana", "bruno", "carla", "dora"], 5, "2024-07-01T10:00:00Z"),
]
IN_PROGRESS = "ed2-live"
SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
KAMIKAZE = "sample-edition1-kamikaze"       # started 2026-11-29: the newest game


def build_db(folder: Path) -> Path:
    logs = folder / "logs"
    logs.mkdir(parents=True)
    for game_id, ruleset, players, seed, started in GAMES:
        events = simulate_game(ruleset, players=players, seed=seed, game_id=game_id)
        events[0]["started_at"] = started
        (logs / f"{game_id}.jsonl").write_bytes(b"".join(dumps_event(e) for e in events))
    live = simulate_game("edition2", players=["ana", "bruno"], seed=9, game_id=IN_PROGRESS)
    (logs / f"{IN_PROGRESS}.jsonl").write_bytes(b"".join(dumps_event(e) for e in live[:60]))
    write_log(logs / "evil.jsonl", tiny_game())
    shutil.copy(SAMPLES / "edition1-kamikaze.jsonl", logs / f"{KAMIKAZE}.jsonl")
    db = folder / "cabo.duckdb"
    summary = load_paths([logs], db, jobs=1)
    assert not summary.rejected, summary.rejected
    return db
