"""A small analysed database for the puzzle tests: a hand-built last turn with a clear mistake
(``analysis_logs.must_fail_log``: ana lists her 5 and 4 for a 13), the same table played well
(no puzzle), and one short simulated game of random and greedy bots (positions with cards the
deciding player did not see, peeks and spies). Few rollouts, so it builds in seconds."""

from __future__ import annotations

from pathlib import Path

from analysis_logs import final_turn, must_fail_log

from cabo_log.analysis.evaluate import Settings
from cabo_log.analysis.store import analyse_database
from cabo_log.db.load import load_paths
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

SETTINGS = Settings(rollouts=16, seed=3)
SIMULATED = "sim-1"


def build_analysed_db(folder: Path) -> Path:
    logs = folder / "logs"
    logs.mkdir(parents=True)
    must_fail_log().write(logs / "a.jsonl")                      # game-1: the mistake
    good = final_turn(["5", "4", "9", "9"], "13").discard("ana")  # the best move: no puzzle
    good.lines[0]["game_id"] = "game-2"
    good.write(logs / "b.jsonl")
    events = simulate_game("edition2", players=["ana", "bruno"], seed=11, game_id=SIMULATED,
                           bots=["random", "greedy"], options={"target": 20})
    (logs / f"{SIMULATED}.jsonl").write_bytes(b"".join(dumps_event(e) for e in events))
    db = folder / "analysed.duckdb"
    summary = load_paths([logs], db, jobs=1)
    assert not summary.rejected, summary.rejected
    done = analyse_database(db, SETTINGS, jobs=1)
    assert done.games == 3 and not done.skipped, done
    return db
