"""The ratings in ``cabo-log serve``, in a real browser (Playwright + Chromium), over a mixed
corpus: three bots at one table (named after their bot), and the hand-named sample games of
several rulesets. The leaderboard ranks the bots in their known order, a player's page splits
by ruleset and draws their rating history, the games list shows kinds and rating changes."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import uvicorn
from browser import browser_context_args, browser_type_launch_args, screenshot, watch
from test_serve_browser import PLOTS_DRAWN, free_port

from cabo_log.db.load import load_paths
from cabo_log.pages.web import create_app
from cabo_log.play.simulate import write_games

__all__ = ["browser_context_args", "browser_type_launch_args"]   # fixtures

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"


Latest = dict[tuple[str, str], tuple[float, float, int]]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Latest]:
    """The database, and each player's latest rating per ruleset read from it before the
    server opens it (DuckDB allows one configuration of connections per file and process)."""
    folder = tmp_path_factory.mktemp("mixed")
    write_games(folder / "bots", "edition1", games=60, players=3, seed=2,
                bots="expert,greedy,random", options={"target": 50}, seat_names="bots")
    shutil.copytree(SAMPLES, folder / "samples", ignore=shutil.ignore_patterns("invalid"))
    db = folder / "mixed.duckdb"
    load_paths([folder / "bots", folder / "samples"], db, jobs=1)
    return db, _latest(db)


@pytest.fixture(scope="module")
def server(mixed: tuple[Path, Latest]) -> Iterator[str]:
    import threading
    import time

    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(mixed[0]), host="127.0.0.1", port=port,
                                        log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < end and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


def _latest(db: Path) -> Latest:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {(r, p): (o, s, n) for r, p, o, s, n in con.execute(
            "SELECT ruleset, player, ordinal, sigma, games FROM ratings QUALIFY row_number() "
            "OVER (PARTITION BY ruleset, player ORDER BY game_order DESC) = 1").fetchall()}
    finally:
        con.close()


def test_leaderboard_player_page_and_changes(page: Any, server: str,
                                             mixed: tuple[Path, Latest]) -> None:
    latest = mixed[1]
    w = watch(page, lambda url: url.startswith(server + "/"))
    page.goto(server + "/")
    page.click("nav.top >> text=Ratings")
    page.wait_for_url("**/ratings")
    board = page.locator("section.board[data-ruleset=edition1] table.leaderboard tbody tr")
    names = [t.strip() for t in board.locator("td:nth-child(2)").all_inner_texts()]
    kinds = [t.strip() for t in board.locator("td:nth-child(3)").all_inner_texts()]
    bots = [(n, k) for n, k in zip(names, kinds, strict=True) if k.startswith("bot:")]
    # the random bot last; expert and greedy in the order their ratings give (checked below:
    # over 60 three-player matches they are within each other's uncertainty)
    assert sorted(bots) == [("expert-1", "bot:expert"), ("greedy-2", "bot:greedy"),
                            ("random-3", "bot:random")]
    assert bots[-1] == ("random-3", "bot:random")
    # best first, as the table holds them
    want = sorted((p for (r, p), (_, _, n) in latest.items() if r == "edition1" and n >= 5),
                  key=lambda p: -latest[("edition1", p)][0])
    assert names == want
    shown = board.locator("td:nth-child(5)").all_inner_texts()[0]
    assert shown == f"{latest[('edition1', want[0])][0]:.1f}"
    # the sample games' players have too few games for the default minimum: said, not shown
    assert "left out" in page.inner_text("section.board[data-ruleset=golf]")
    screenshot(page, "serve-ratings.png")

    page.select_option("select[name=ruleset]", "golf")
    page.fill("input[name=min_games]", "1")
    page.click("#ratings-form button[type=submit]")
    page.wait_for_url("**/ratings?*min_games=1*")
    assert page.locator("section.board").count() == 1
    golf = [(r, p) for (r, p) in latest if r == "golf"]
    assert page.locator("section.board table.leaderboard tbody tr").count() == len(golf)

    # a bot's page: per ruleset, with its rating history drawn
    page.goto(server + "/ratings")
    page.click("section.board[data-ruleset=edition1] a:text-is('greedy-2')")
    page.wait_for_url("**/players/greedy-2?ruleset=edition1")
    page.wait_for_function(PLOTS_DRAWN, arg=1)
    ys = page.evaluate("document.querySelector('.js-plotly-plot').data[3].y")
    rating, _, games = latest[("edition1", "greedy-2")]
    assert len(ys) == games + 1 == 61          # the start (0 games), then each game
    assert ys[0] == 0 and ys[-1] == pytest.approx(rating)
    assert page.inner_text("#player-kind") == "bot:greedy"
    screenshot(page, "serve-player-ratings.png")

    # a hand-named player of several rulesets: a row per ruleset, never one number
    page.goto(server + "/players/ana")
    rows = page.locator("#rulesets tbody tr td:first-child").all_inner_texts()
    assert len(rows) >= 3 and len(set(rows)) == len(rows)
    assert "win rate (" not in page.inner_text("main")   # no merged headline figure
    page.wait_for_function(PLOTS_DRAWN, arg=sum(1 for (r, p) in latest if p == "ana"))
    screenshot(page, "serve-player-mixed.png")

    # the games list: kinds and each player's rating change
    page.goto(server + "/?player=expert-1&size=5")
    cell = page.locator("#games tbody tr:first-child td:nth-child(3)").inner_text()
    assert "bot:expert" in cell and re.search(r"expert-1 bot:expert [+\-±]\d+\.\d", cell)
    screenshot(page, "serve-games-ratings.png")

    # a report over every ruleset: buckets by value, every dimension charted
    page.goto(server + "/reports/cabo_call_success")
    page.wait_for_function(PLOTS_DRAWN, arg=5)
    axes = page.evaluate("Array.from(document.querySelectorAll('.js-plotly-plot'))"
                         ".map(d => d.layout.xaxis.categoryarray || [])")
    turns = axes[1]
    assert turns == sorted(turns, key=lambda b: int(b.split("-")[0])) and len(turns) > 3
    assert all("/" in b for b in axes[3])
    screenshot(page, "serve-report-calls.png")
    assert w.problems == [] and w.blocked == []
