"""Puzzles and analysis marks in a real browser (Playwright + Chromium) on ``cabo-log serve``:
a puzzle solved from the list (no script needed, nothing refused by the Content-Security-Policy)
and a game page with the analysis marks on the events' lanes and in the step view. Screenshots
go to ``artifacts/``."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import duckdb
import pytest
import uvicorn
from browser import browser_context_args, browser_type_launch_args, screenshot, watch
from puzzle_db import SIMULATED, build_analysed_db
from test_serve_browser import CSP_WATCH, PLOTS_DRAWN, free_port, violations

from cabo_log.pages.web import create_app

__all__ = ["browser_context_args", "browser_type_launch_args"]   # fixtures


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[Any]]]:
    """The explorer over the analysed corpus on a free local port: its base URL and the
    marked decisions of the simulated game (seq, player, mark)."""
    db = build_analysed_db(tmp_path_factory.mktemp("puzzlebrowser"))
    con = duckdb.connect(str(db), read_only=True)
    marked = con.execute("SELECT seq, player, mark FROM decisions WHERE game_id = $1 AND "
                         "mark IS NOT NULL ORDER BY seq", [SIMULATED]).fetchall()
    con.close()
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(db), host="127.0.0.1", port=port,
                                        log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < end and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", marked
    srv.should_exit = True
    thread.join(10)


def test_solve_a_puzzle(page: Any, server: tuple[str, list[Any]]) -> None:
    base, _ = server
    w = watch(page, lambda url: url.startswith(base + "/"))
    page.add_init_script(CSP_WATCH)
    page.goto(base + "/")
    page.click("nav.top >> text=Puzzles")
    page.select_option("select[name=theme]", "replacement")
    page.click("#puzzle-filters button[type=submit]")
    page.wait_for_url("**/puzzles?*theme=replacement*")
    screenshot(page, "puzzles.png")
    page.click("table.puzzles a:text-is('game-1 \u00b7 step 6')")
    page.wait_for_url("**/puzzles/game-1/6")
    # ana's table: her 5 and 4 face up (peeked), her other two and bruno's unseen ones down
    mine = page.locator(".seat.me .card").all_inner_texts()
    assert [t.split("\n")[0] for t in mine] == ["5", "4", "?", "?"]
    assert page.locator(".card.held").inner_text().startswith("13")
    screenshot(page, "puzzle.png")
    # a wrong answer first, then the puzzle again and the right one
    page.click("a.option:text-is('replace 0 and 1')")
    assert "Not the best" in page.inner_text(".verdict")
    page.click("text=the puzzle again")
    page.click("a.option:text-is('discard')")
    assert page.inner_text(".verdict").startswith("Right: discard is the best move")
    assert "played by ana" in page.inner_text("tr[data-option='5']")
    screenshot(page, "puzzle-answer.png")
    page.click("text=See the game at this step")
    page.wait_for_function("() => window.caboTimeline !== undefined")
    assert page.evaluate("JSON.parse(document.getElementById('cabo-timeline-data')"
                         ".textContent).steps[window.caboTimeline.current()].n") == 6
    assert violations(page) == []
    assert w.problems == [] and w.blocked == []


def test_marks_on_the_game_lanes(page: Any, server: tuple[str, list[Any]]) -> None:
    base, marked = server
    assert marked
    w = watch(page, lambda url: url.startswith(base + "/"))
    page.add_init_script(CSP_WATCH)
    page.goto(f"{base}/games/{SIMULATED}")
    page.wait_for_function("() => window.caboTimeline !== undefined")
    page.wait_for_function(PLOTS_DRAWN, arg=4)       # events, scores, hands, evaluation
    trace = page.evaluate("document.getElementById('chart-events').data"
                          ".filter(t => t.name === 'analysis marks')"
                          ".map(t => [t.x, t.text])")
    assert trace == [[[s for s, _, _ in marked], [m for _, _, m in marked]]]
    # drawn: the marks are text in the events chart's SVG
    drawn = Counter(page.evaluate("Array.from(document.querySelectorAll("
                                  "'#chart-events .textpoint text')).map(t => t.textContent)"))
    wanted = Counter(m for _, _, m in marked)
    assert all(drawn[m] >= n for m, n in wanted.items()), (drawn, wanted)
    # the step view says the mark at its step
    seq, player, mark = marked[0]
    page.goto(f"{base}/games/{SIMULATED}#seq={seq}")
    page.wait_for_function("() => window.caboTimeline !== undefined")
    story = page.inner_text("#step-story")
    assert f" {mark} seq {seq} {player} " in story
    screenshot(page, "serve-game-marks.png")
    assert violations(page) == []
    assert w.problems == [] and w.blocked == []
