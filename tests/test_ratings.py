"""Ratings: openskill's Plackett-Luce over each match's order of finish, per ruleset, kept
incrementally in the ``ratings`` table (cabo_log.db.ratings)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import duckdb
import pytest
from openskill.models import PlackettLuce

from cabo_log.db.load import load_paths
from cabo_log.db.ratings import leaderboard, rebuild_ratings
from cabo_log.log.replay import replay_file
from cabo_log.play.simulate import write_games

ROOT = Path(__file__).resolve().parents[1]


def _table(db: Path) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT * FROM ratings ORDER BY ruleset, game_order, player"
                           ).fetchall()
    finally:
        con.close()


@pytest.fixture(scope="module")
def bots_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Expert, greedy and random at one table, 240 short matches (target 50)."""
    out = tmp_path_factory.mktemp("bots")
    write_games(out, "edition1", games=240, players=3, seed=2, bots="expert,greedy,random",
                options={"target": 50}, seat_names="bots")
    return out


def test_the_bots_rank_in_their_known_order(bots_corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "bots.duckdb"
    load_paths([bots_corpus], db, jobs=1)
    con = duckdb.connect(str(db), read_only=True)
    try:
        board = leaderboard(con, "edition1")
        # the head-to-head, independently: each bot's mean place over the same matches
        places = dict(con.execute(
            "SELECT player, avg(rank) FROM game_players GROUP BY player").fetchall())
        kinds = dict(con.execute("SELECT DISTINCT player, kind FROM game_players").fetchall())
    finally:
        con.close()
    assert [s.player for s in board] == ["expert-1", "greedy-2", "random-3"]
    assert kinds == {"expert-1": "bot:expert", "greedy-2": "bot:greedy",
                     "random-3": "bot:random"}
    assert places["expert-1"] < places["greedy-2"] < places["random-3"]
    assert all(s.games == 240 for s in board)
    # the estimates are apart by more than their uncertainty
    expert, greedy, rand = board
    assert expert.mu - 2 * expert.sigma > rand.mu + 2 * rand.sigma
    assert greedy.mu - greedy.sigma > rand.mu + rand.sigma


def _sim(out: Path, seed: int, games: int, timestamps: dict[int, str] | None = None) -> None:
    write_games(out, "golf", games=games, players=3, seed=seed, bots="greedy,random",
                seat_names="bots")
    for index, started in (timestamps or {}).items():
        path = out / f"golf-s{seed}-{index:06d}.jsonl"
        lines = path.read_text().splitlines(keepends=True)
        header = json.loads(lines[0])
        header["started_at"] = started
        path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))


def test_incremental_loads_give_the_full_recompute(tmp_path: Path) -> None:
    first, second, third = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    _sim(first, 5, 6)
    _sim(second, 1, 5)                     # game ids sorting before the first batch's
    _sim(third, 9, 4, {2: "2020-01-01T00:00:00Z"})   # one dated game: rated first of all
    db = tmp_path / "inc.duckdb"
    for folder in (first, second, third):
        load_paths([folder], db, jobs=1)
    # a changed game: another match under the same file name (and game id)
    shutil.copy(second / "golf-s1-000000.jsonl", tmp_path / "keep.jsonl")
    text = (first / "golf-s5-000003.jsonl").read_text()
    (second / "golf-s1-000000.jsonl").write_text(text.replace("golf-s5-000003", "golf-s1-000000"))
    load_paths([second], db, jobs=1)
    incremental = _table(db)

    full = tmp_path / "full.duckdb"
    load_paths([first, second, third], full, jobs=1)
    assert _table(full) == incremental
    con = duckdb.connect(str(db))
    try:
        rebuild_ratings(con)
        orders = con.execute("SELECT game_id FROM ratings GROUP BY game_id, game_order "
                             "ORDER BY game_order").fetchall()
    finally:
        con.close()
    assert _table(db) == incremental
    assert orders[0] == ("golf-s9-000002",)            # the dated game first
    assert [g for (g,) in orders[1:]] == sorted(g for (g,) in orders[1:])   # then by id
    assert len(orders) == 15


def test_a_rating_is_openskill_over_the_final_scores(tmp_path: Path) -> None:
    """The first game's ratings, computed independently from its replay's final scores."""
    _sim(tmp_path / "logs", 3, 1)
    db = tmp_path / "one.duckdb"
    load_paths([tmp_path / "logs"], db, jobs=1)
    state = replay_file(tmp_path / "logs" / "golf-s3-000000.jsonl").state
    assert state is not None
    scores = dict(zip(state.players, state.cumulative, strict=True))
    model = PlackettLuce()
    players = list(state.players)
    ranks = [1 + sum(1 for q in players if scores[q] < scores[p]) for p in players]
    after = model.rate([[model.rating()] for _ in players], ranks=ranks)
    want = {p: (team[0].mu, team[0].sigma) for p, team in zip(players, after, strict=True)}
    got = {p: (mu, sigma) for _, _, _, _, _, p, _, _, _, mu, sigma, _, _ in _table(db)}
    assert got == want   # the same float operations: equal to the last bit
    start = model.rating()
    for _, _, _, _, _, p, _, place, games, mu, sigma, ordinal, change in _table(db):
        assert place == ranks[players.index(p)] and games == 1
        assert ordinal == pytest.approx(mu - 3 * sigma)
        assert change == pytest.approx(ordinal - (start.mu - 3 * start.sigma))


def test_kinds_from_the_header(tmp_path: Path) -> None:
    """``kinds`` wins over ``bots``; ``human`` names a person; a malformed field is ignored."""
    src = (ROOT / "sample_games" / "edition1-kamikaze.jsonl").read_text().splitlines(True)
    header = json.loads(src[0])
    players = header["players"]
    cases = {
        "k1": {"bots": {players[0]: "expert"}, "kinds": {players[1]: "human"}},
        "k2": {"bots": {players[0]: "greedy"}, "kinds": {players[0]: "bot:v2"},
               "human": players[1]},
        "k3": {"bots": ["not", "an", "object"], "kinds": {players[0]: 7}},
    }
    logs = tmp_path / "logs"
    logs.mkdir()
    for game_id, extra in cases.items():
        (logs / f"{game_id}.jsonl").write_text(
            json.dumps({**header, "game_id": game_id, **extra}) + "\n" + "".join(src[1:]))
    db = tmp_path / "k.duckdb"
    load_paths([logs], db, jobs=1)
    con = duckdb.connect(str(db), read_only=True)
    try:
        got = {(g, p): k for g, p, k in con.execute(
            "SELECT game_id, player, kind FROM game_players").fetchall()}
    finally:
        con.close()
    a, b = players[0], players[1]
    assert got[("k1", a)] == "bot:expert" and got[("k1", b)] == "human"
    assert got[("k2", a)] == "bot:v2" and got[("k2", b)] == "human"
    assert got[("k3", a)] is None and got[("k3", b)] is None


def test_the_timeline_header_shows_the_kinds(tmp_path: Path) -> None:
    from cabo_log.pages.timeline import build_timeline
    from cabo_log.pages.timeline_html import render_page

    write_games(tmp_path, "golf", games=1, players=2, bots="expert,random", seat_names="bots")
    tl = build_timeline(tmp_path / "golf-s0-000000.jsonl")
    assert tl.players == ("expert-1", "random-2")
    meta = re.search(r'<p class="meta">(.*?)</p>', render_page(tl, "cdn"))
    assert meta is not None
    assert "players expert-1 (bot:expert), random-2 (bot:random) \u00b7" in meta.group(1)


def test_ratings_command(tmp_path: Path) -> None:
    from test_cli import invoke

    _sim(tmp_path / "logs", 4, 3)
    db = tmp_path / "c.duckdb"
    load_paths([tmp_path / "logs"], db, jobs=1)
    con = duckdb.connect(str(db), read_only=True)
    try:
        board = leaderboard(con)
    finally:
        con.close()
    out = invoke("ratings", "--db", str(db), "--format", "csv")
    assert out.exit_code == 0, out.output
    lines = out.output.strip().splitlines()
    assert lines[0] == "ruleset,place,player,kind,games,rating,mu,sigma,interval"
    assert [line.split(",")[2] for line in lines[1:]] == [s.player for s in board]
    assert [float(line.split(",")[5]) for line in lines[1:]] == \
        [round(s.rating, 2) for s in board]
    few = invoke("ratings", "--db", str(db), "--min-games", "4")
    assert few.exit_code == 0 and "(0 rows)" in few.output
    bad = invoke("ratings", "--db", str(db), "--ruleset", "chess")
    assert bad.exit_code == 2
    assert "no games of ruleset 'chess' in the database (it holds: golf)" in bad.output
    missing = invoke("ratings", "--db", str(tmp_path / "none.duckdb"))
    assert missing.exit_code == 1 and "no database at" in missing.output
