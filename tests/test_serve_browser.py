"""A user's journey through ``cabo-log serve`` in a real browser (Playwright + Chromium): the
games list, a filter by player, a game stepped with the keyboard, a ``#seq=`` link, a report
with its form, a query in the SQL console. The network is closed to everything but the
server; no page may log an error; a screenshot of each page goes to ``artifacts/``."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
import uvicorn
from browser import browser_context_args, browser_type_launch_args, screenshot, watch
from serve_db import GAMES, build_db
from test_timeline import EVIL

from cabo_log.pages.web import create_app

__all__ = ["browser_context_args", "browser_type_launch_args"]   # fixtures

CSP_WATCH = ("window.cspViolations = []; document.addEventListener('securitypolicyviolation', "
             "e => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));")
PLOTS_DRAWN = ("n => Array.from(document.querySelectorAll('.js-plotly-plot'))"
               ".filter(d => d.data && d.data.length > 0 && d.querySelector('.main-svg'))"
               ".length === n")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The explorer on uvicorn in a thread, on a free local port; its base URL."""
    db = build_db(tmp_path_factory.mktemp("journeydb"))
    port = free_port()
    config = uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < end and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


def rows(page: Any, table: str = "#games") -> list[str]:
    return [t.strip() for t in page.locator(f"{table} tbody tr td:first-child").all_inner_texts()]


def violations(page: Any) -> list[str]:
    """What the page's Content-Security-Policy refused since it loaded."""
    found: list[str] = page.evaluate("window.cspViolations")
    return found


def test_journey(page: Any, server: str) -> None:
    """Every page works under the explorer's Content-Security-Policy: its scripts run, its
    charts are drawn, and the policy refuses nothing on the way."""
    w = watch(page, lambda url: url.startswith(server + "/"))
    page.add_init_script(CSP_WATCH)
    first = page.goto(server + "/")
    assert "script-src 'self'" in first.headers["content-security-policy"]
    assert len(rows(page)) == 8
    screenshot(page, "serve-games.png")

    # filter by a player
    page.fill("input[name=player]", "dora")
    page.click("#filters button[type=submit]")
    page.wait_for_url("**/?*player=dora*")
    dora = [g[0] for g in sorted(GAMES, key=lambda g: g[4], reverse=True) if "dora" in g[2]]
    assert rows(page) == dora
    screenshot(page, "serve-games-dora.png")

    # open a game and step with the keyboard
    page.click(f"#games a:text-is('{dora[0]}')")
    page.wait_for_function("() => window.caboTimeline !== undefined")
    page.wait_for_function(PLOTS_DRAWN, arg=3)
    assert page.evaluate("window.caboTimeline.current()") == 0
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("window.caboTimeline.current()") == 3
    assert violations(page) == []
    page.keyboard.press("End")
    last = page.evaluate("window.caboTimeline.steps") - 1
    assert page.evaluate("window.caboTimeline.current()") == last
    screenshot(page, "serve-game.png")

    # follow a #seq= link: round 2's deal
    link = page.locator("#moments a.seq-link:text-is('round 2 dealt')")
    seq = int(link.get_attribute("href").removeprefix("#seq="))
    link.click()
    page.wait_for_function(f"() => window.location.hash === '#seq={seq}'")
    at = page.evaluate("window.caboTimeline.current()")
    assert page.evaluate(f"JSON.parse(document.getElementById('cabo-timeline-data')"
                         f".textContent).steps[{at}].n") == seq
    assert "deal" in page.inner_text("#step-story").lower()
    # the same link opened fresh lands there too
    page.goto(page.url)
    page.wait_for_function("() => window.caboTimeline !== undefined")
    assert page.evaluate("window.caboTimeline.current()") == at

    # a report, through its form
    page.click("text=\u2039 all games")
    page.click("nav.top >> text=Reports")
    page.click("a:text-is('score_distribution')")
    page.fill("input[name=bucket]", "10")
    page.click("#report-form button[type=submit]")
    page.wait_for_url("**/reports/score_distribution?*bucket=10*")
    page.wait_for_function(PLOTS_DRAWN, arg=3)
    assert "bound + 10)" in page.inner_text("main")
    page.hover(".js-plotly-plot .main-svg")      # plotly's hover layer and mode bar
    assert violations(page) == []
    screenshot(page, "serve-report.png")
    page.fill("input[name=bucket]", "0")          # the form knows the declared range
    assert page.evaluate("document.querySelector('input[name=bucket]').validity"
                         ".rangeUnderflow") is True

    # a query
    page.click("nav.top >> text=SQL")
    page.fill("textarea[name=q]", "SELECT ruleset, count(*) AS games FROM games "
                                  "GROUP BY ALL ORDER BY ruleset")
    page.click("#sql-form button[type=submit]")
    page.wait_for_selector("#sql-result table tbody tr")   # the answer's page has loaded
    assert rows(page, "#sql-result table") == ["edition1", "edition2", "golf", "online"]
    screenshot(page, "serve-sql.png")
    assert violations(page) == []
    assert w.problems == [] and w.blocked == []

    # the policy is in force: a script injected into the page does not run, and is seen
    page.evaluate("() => { const s = document.createElement('script'); "
                  "s.textContent = 'window.injected = 1'; document.body.appendChild(s); }")
    page.wait_for_function("() => window.cspViolations.length > 0")
    assert page.evaluate("window.injected") is None
    assert violations(page)[0].startswith("script-src")


def test_markup_in_names_runs_nothing(page: Any, server: str) -> None:
    w = watch(page, lambda url: url.startswith(server + "/"))
    page.goto(f"{server}/players/{quote(EVIL, safe='')}")
    assert page.inner_text("#player-name") == EVIL
    page.goto(f"{server}/?player={quote(EVIL, safe='')}")
    assert page.locator("#games tbody tr").count() == 1
    page.click("#games td:first-child a")
    page.wait_for_function("() => window.caboTimeline !== undefined")
    page.wait_for_timeout(300)
    screenshot(page, "serve-escaping.png")
    assert w.dialogs == [] and w.problems == [] and w.blocked == []
