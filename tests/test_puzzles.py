"""Puzzles from real mistakes: the selection rule, the pages of ``serve`` (``/puzzles``) and of
``cabo-log puzzles``, checked against the engine: every card a puzzle shows face up is one its
player knew (the engine's ``knows`` for that seat, replayed here event by event), every card
they knew is shown, and the answer called best is the analysis's best."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import duckdb
import pytest
from puzzle_db import SETTINGS, SIMULATED, build_analysed_db

from cabo_log.analysis.analyse import GameAnalysis, analyse_bytes
from cabo_log.analysis.decisions import option_key
from cabo_log.analysis.store import analyse_database
from cabo_log.db.database import connect, ensure_schema
from cabo_log.db.load import load_paths
from cabo_log.pages.web import create_app
from cabo_log.puzzles.selection import MIN_MARGIN, MIN_Z, Theme, find_puzzles
from engine import GameState, apply, new_game, parse_event

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

BASE = "http://127.0.0.1:8000"
CARD = re.compile(r'<span class="card([^"]*)"([^>]*)>')
ATTR = re.compile(r'data-([a-z]+)="([^"]*)"')


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_analysed_db(tmp_path_factory.mktemp("puzzledb"))


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(db)
    _open[db] = app.app.state.explorer.con
    with TestClient(app, base_url=BASE) as c:
        yield c
    del _open[db]


def query(db: Path, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
    """Through the explorer's own connection while one is open (DuckDB refuses a second
    connection of another configuration to the same file)."""
    con = _open.get(db)
    if con is not None:
        cur = con.cursor()
        try:
            return cur.execute(sql, params).fetchall() if params else cur.execute(sql).fetchall()
        finally:
            cur.close()
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params).fetchall() if params else con.execute(sql).fetchall()
    finally:
        con.close()


_open: dict[Path, Any] = {}


def puzzles(db: Path) -> list[tuple[str, int, str, str]]:
    """(game_id, seq, player, source file) of every puzzle."""
    con = _open.get(db) or duckdb.connect(str(db), read_only=True)
    try:
        refs = find_puzzles(con)
        return [(r.game_id, r.seq, r.player, query(
            db, "SELECT source_file FROM games WHERE game_id = $1", [r.game_id])[0][0])
            for r in refs]
    finally:
        if db not in _open:
            con.close()


def state_before(source: str, seq: int) -> GameState:
    """The table right before the event with ``seq``, replayed here with the engine."""
    lines = [json.loads(x) for x in Path(source).read_text().splitlines() if x.strip()]
    g = new_game(parse_event(lines[0]))
    for line in lines[1:]:
        if line.get("seq") == seq:
            return g
        apply(g, parse_event(line))
    raise AssertionError(f"no event with seq {seq} in {source}")


def check_cards(page: str, g: GameState, player: str) -> int:
    """Every card on the page against the engine: a face-up card in a row is one the player
    knows, with its real code; a face-down one is one they do not know; every place of every
    row is drawn exactly once; the held card and the discard pile are the real ones. Returns
    the number of face-down cards (so a caller can see hidden cards were there to leak)."""
    seat = g.seat[player]
    seen: dict[tuple[int, int], str | None] = {}
    held = 0
    for classes, attrs in CARD.findall(page):
        data = dict(ATTR.findall(attrs))
        code = data.get("code")
        if "owner" in data:
            place = (g.seat[data["owner"]], int(data["pos"]))
            assert place not in seen, f"{place} drawn twice"
            seen[place] = code
            if code is None:
                assert "back" in classes and not g.knows(seat, place), place
            else:
                assert g.knows(seat, place), f"{player} did not know {place}"
                assert g.card(place) == code, place
        elif "held" in data:
            held += 1
            assert code is not None and g.drawn() == code and g.to_act() == seat
        elif "pile" in data:
            assert g.pile()[int(data["pile"])] == code
        else:
            assert "back" in classes and code is None   # the draw pile
    places = {(s, i) for s in g.participants() for i in range(g.row_size(s))}
    assert set(seen) == places
    assert held == (1 if g.drawn() is not None and g.to_act() == seat else 0)
    return sum(1 for c in seen.values() if c is None)


def test_a_puzzle_shows_only_what_its_player_knew(db: Path, client: TestClient) -> None:
    found = puzzles(db)
    assert {(g, s) for g, s, *_ in found} >= {("game-1", 6)}
    assert any(g == SIMULATED for g, *_ in found)
    hidden = 0
    for game_id, seq, player, source in found:
        g = state_before(source, seq)
        url = f"/puzzles/{quote(game_id)}/{seq}"
        page = client.get(url)
        assert page.status_code == 200, url
        hidden += check_cards(page.text, g, player)
        options = re.findall(r'href="(/puzzles/[^"]+/answer\?choice=(\d+))"', page.text)
        stored = query(db, "SELECT count(*) FROM decision_options WHERE game_id = $1 AND "
                           "seq = $2", [game_id, seq])[0][0]
        assert len(options) == stored >= 2
        for href, _ in options:
            answer = client.get(href.replace("&amp;", "&"))
            assert answer.status_code == 200
            check_cards(answer.text, g, player)
    assert hidden > 0     # there were cards to leak


def test_the_best_answer_is_the_analysis_best(db: Path, client: TestClient) -> None:
    fresh: dict[str, GameAnalysis] = {}
    for game_id, seq, _player, source in puzzles(db):
        stored = query(db, "SELECT best, chosen FROM decisions WHERE game_id = $1 AND seq = $2",
                       [game_id, seq])[0]
        options = query(db, "SELECT option, move, best, chosen FROM decision_options WHERE "
                            "game_id = $1 AND seq = $2 ORDER BY option", [game_id, seq])
        best = [i for i, move, is_best, _ in options if is_best]
        assert len(best) == 1
        assert json.loads(options[best[0]][1]) == json.loads(stored[0])
        # the analysis run again, here, picks the same best move
        if source not in fresh:
            fresh[source] = analyse_bytes(Path(source).read_bytes(), source, settings=SETTINGS)
        d = next(d for d in fresh[source].decisions if d.seq == seq)
        assert option_key(d.best) == option_key(parse_event(json.loads(stored[0])))
        base = f"/puzzles/{quote(game_id)}/{seq}/answer?choice="
        right = client.get(base + str(best[0])).text
        assert 'class="verdict good"' in right
        wrong = next(i for i, *_ in options if i != best[0])
        assert 'class="verdict bad"' in client.get(base + str(wrong)).text
        # the move played is named and the game linked at the step
        played = next(i for i, _m, _b, chosen in options if chosen)
        row = re.search(rf'<tr data-option="{played}">(.*?)</tr>', right)
        assert row is not None and "played by" in row.group(1)
        assert f'href="/games/{quote(game_id, safe="")}#seq={seq}"' in right


def _insert(con: Any, game: str, seq: int, kind: str, chosen: str,
            options: list[tuple[str, float | None, float | None, bool, bool]]) -> None:
    con.execute("INSERT INTO decisions (game_id, ruleset, seq, player, kind, chosen_type, "
                "chosen, best, round, loss) VALUES ($1, 'edition2', $2, 'ana', $3, $4, '{}', "
                "'{}', 1, 5)", [game, seq, kind, chosen])
    for i, (move_type, margin, stderr, best, was_chosen) in enumerate(options):
        con.execute("INSERT INTO decision_options (game_id, seq, option, move_type, margin, "
                    "stderr, best, chosen) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    [game, seq, i, move_type, margin, stderr, best, was_chosen])


def test_the_selection_rule(tmp_path: Path) -> None:
    """A puzzle: the player missed the best move, which is ahead of every other option by
    MIN_MARGIN points and by more than MIN_Z standard errors; themes follow the kind."""
    db = tmp_path / "rule.duckdb"
    con = connect(db, read_only=False)
    ensure_schema(con, db)
    sure, m = MIN_Z * 1.0 + 0.01, MIN_MARGIN
    _insert(con, "g", 1, "place", "replace", [("discard", 0, 0, True, False),
                                              ("replace", m + 1, 1.0, False, True)])
    _insert(con, "g", 2, "place", "replace", [("discard", 0, 0, True, False),
                                              ("replace", m - 0.01, 0.1, False, True)])
    _insert(con, "g", 3, "place", "replace", [("discard", 0, 0, True, False),
                                              ("replace", sure * 2, 2.0, False, True)])
    _insert(con, "g", 4, "place", "replace", [("discard", 0, 0, True, False),
                                              ("replace", sure * 2 - 0.1, 2.0, False, True)])
    _insert(con, "g", 5, "place", "discard", [("discard", 0, 0, True, True),     # found it
                                              ("replace", 9, 0.1, False, False)])
    _insert(con, "g", 6, "place", "replace", [("discard", 0, 0, True, False),    # a close
                                              ("replace", 9, 0.1, False, True),  # third
                                              ("replace", 1, 0.1, False, False)])
    _insert(con, "g", 7, "place", "replace", [("discard", 0, 0, True, False),
                                              ("replace", 9, None, False, True)])  # no error
    _insert(con, "g", 8, "draw", "draw", [("cabo", 0, 0, True, False),
                                          ("draw", 9, 1, False, True)])
    _insert(con, "g", 9, "draw", "cabo", [("draw", 0, 0, True, False),
                                          ("cabo", 9, 1, False, True)])
    _insert(con, "g", 10, "draw", "draw", [("draw", 0, 0, True, False),
                                           ("draw", 9, 1, False, True)])
    _insert(con, "g", 11, "power", "skip", [("power", 0, 0, True, False),
                                            ("skip", 9, 1, False, True)])
    con.close()
    con = duckdb.connect(str(db), read_only=True)
    got = {(r.seq, r.theme) for r in find_puzzles(con)}
    assert got == {(1, Theme.REPLACEMENT), (3, Theme.REPLACEMENT), (8, Theme.CABO),
                   (9, Theme.CABO), (10, Theme.DRAW), (11, Theme.POWER)}
    assert {r.seq for r in find_puzzles(con, theme=Theme.CABO)} == {8, 9}
    assert find_puzzles(con, theme=Theme.SNAP) == []
    assert len(find_puzzles(con, limit=2)) == 2
    assert find_puzzles(con, ruleset="golf") == []
    con.close()


def test_serve_puzzle_pages(db: Path, client: TestClient) -> None:
    index = client.get("/puzzles")
    assert index.status_code == 200
    links = re.findall(r'href="(/puzzles/[^"/]+/\d+)"', index.text)
    assert len(links) == len(puzzles(db)) and "/puzzles/game-1/6" in links
    replacement = client.get("/puzzles?theme=replacement").text
    assert "/puzzles/game-1/6" in replacement
    assert all("/game-1/" not in x for x in
               re.findall(r'href="(/puzzles/[^"/]+/\d+)"', client.get("/puzzles?theme=cabo").text))
    rnd = client.get("/puzzles/random?theme=replacement", follow_redirects=False)
    con = _open.get(db) or duckdb.connect(str(db), read_only=True)
    try:     # a random one of the replacement puzzles (game-1's among them)
        among = {f"/puzzles/{r.game_id}/{r.seq}" for r in find_puzzles(con,
                                                                      theme=Theme.REPLACEMENT)}
    finally:
        if db not in _open:
            con.close()
    assert rnd.status_code == 303 and rnd.headers["location"] in among
    assert "/puzzles/game-1/6" in among
    assert client.get("/puzzles/random?ruleset=edition2", follow_redirects=False
                      ).headers["location"] in links
    for url, status in (("/puzzles?theme=chess", 400), ("/puzzles?ruleset=golf", 404),
                        ("/puzzles/game-2/6", 404), ("/puzzles/nope/3", 404),
                        ("/puzzles/game-1/6/answer?choice=x", 400),
                        ("/puzzles/random?theme=snap", 404)):
        page = client.get(url, follow_redirects=False)
        assert page.status_code == status, url
    page = client.get("/puzzles/game-1/6").text
    assert "<script" not in page.split("</main>")[0].split("<main>")[1]   # no script needed
    assert "You took" not in page and "You drew <b>a 13</b>" in page


def test_an_old_database_is_upgraded(db: Path, tmp_path: Path) -> None:
    """A database of schema 6 (no decision_options) is served without puzzles, with the
    command that makes them; a load upgrades it and load --analyse fills the options in."""
    import shutil

    old = tmp_path / "old.duckdb"
    shutil.copy(db, old)
    con = duckdb.connect(str(old))
    con.execute("DROP TABLE decision_options")
    con.execute("UPDATE meta SET value = '6' WHERE key = 'schema_version'")
    con.close()
    with TestClient(create_app(old), base_url=BASE) as c:
        page = c.get("/puzzles")
        assert page.status_code == 200 and "load GAMES --db FILE --analyse" in page.text
        assert c.get("/games/game-1").status_code == 200
    load_paths([db.parent / "logs"], old, jobs=1)     # unchanged files: only the upgrade
    assert query(old, "SELECT value FROM meta WHERE key = 'schema_version'") == [("7",)]
    assert analyse_database(old, SETTINGS, jobs=1).games == 3
    assert puzzles(old) == puzzles(db)


def test_the_command_writes_pages(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "pages"
    run = subprocess.run([sys.executable, "-c", "from cabo_log.cli import main; main()",
                          "puzzles", "--db", str(db), "-o", str(out), "--theme", "replacement"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    con = _open.get(db) or duckdb.connect(str(db), read_only=True)
    try:     # the replacement puzzles: game-1's, and any the simulated game gives
        chosen = find_puzzles(con, theme=Theme.REPLACEMENT)
    finally:
        if db not in _open:
            con.close()
    assert "game-1-6" in [r.slug for r in chosen]
    count = len(chosen)
    assert run.stdout.startswith(f"{count} puzzle{'' if count == 1 else 's'} ")
    index = (out / "index.html").read_text()
    pages = re.findall(r'href="([^"]+\.html)"', index)
    assert pages == [f"{r.slug}.html" for r in chosen]
    puzzle = (out / "game-1-6.html").read_text()
    source = query(db, "SELECT source_file FROM games WHERE game_id = 'game-1'")[0][0]
    g = state_before(source, 6)
    assert check_cards(puzzle, g, "ana") > 0
    answers = re.findall(r'href="(game-1-6-answer-\d+\.html)"', puzzle)
    assert len(answers) == 6
    for name in answers:
        answer = (out / name).read_text()
        check_cards(answer, g, "ana")
        link = re.search(r'href="(games/[^"#]+)#seq=6"', answer)
        assert link is not None and (out / link.group(1)).is_file()
    assert (out / "games" / "timeline.js").is_file()
    # the errors: a line each, never a traceback
    bare = tmp_path / "bare.duckdb"
    con = connect(bare, read_only=False)
    ensure_schema(con, bare)
    con.execute("DROP TABLE decision_options")
    con.close()
    for args, code, words in (
            (["--db", str(bare)], 1, "no analysis to make puzzles from"),
            (["--db", str(db), "--ruleset", "golf"], 2, "no games of ruleset 'golf'")):
        run = subprocess.run([sys.executable, "-c", "from cabo_log.cli import main; main()",
                              "puzzles", "-o", str(tmp_path / "x"), *args],
                             capture_output=True, text=True, check=False)
        assert run.returncode == code, (args, run.stderr)
        assert words in run.stderr and "Traceback" not in run.stderr
