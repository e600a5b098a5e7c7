"""The timeline page in a real browser: headless Chromium (driven by Playwright) opens it from a
file URL, with the network closed, and the test checks that the charts drew, that nothing went
wrong in the console, that the slider steps through the table, that ``#seq=N`` opens the page
at that event, and that markup in player ids runs nothing.

The browser, the network rules and the skip-without-Chromium logic are in ``browser.py``.
Screenshots go to ``artifacts/`` (gitignored).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser import ARTIFACTS, Watch, browser_context_args, browser_type_launch_args, offline
from browser import screenshot as save_screenshot
from browser import watch as watch_page
from test_timeline import EVIL, EVIL_ID, EVIL_NAME, tiny_game, write_log

from cabo_log.pages.timeline import build_timeline
from cabo_log.pages.timeline_files import write_folder
from cabo_log.pages.timeline_html import render_page

__all__ = ["browser_context_args", "browser_type_launch_args", "offline"]   # fixtures

Tab = tuple[Any, Watch]


class B:
    """The few calls the checks below make, over a Playwright page and its watch."""

    def __init__(self, tab: Tab) -> None:
        self.page, self.watch = tab

    def open(self, path: Path | str) -> None:
        self.watch.clear()
        url = path.resolve().as_uri() if isinstance(path, Path) else path
        self.page.goto(url, wait_until="load")

    def js(self, expression: str) -> Any:
        return self.page.evaluate(expression)

    def wait_for(self, expression: str, timeout: float = 30) -> None:
        self.page.wait_for_function(expression, timeout=timeout * 1000)

    def problems(self) -> list[str]:
        return list(self.watch.problems)

    def requests(self) -> list[str]:
        return list(self.watch.requests)

    def dialogs(self) -> list[str]:
        return list(self.watch.dialogs)

    def screenshot(self, path: Path) -> None:
        save_screenshot(self.page, path.name)


@pytest.fixture
def b(offline: Tab) -> B:
    return B(offline)


PLOTS_DRAWN = ("Array.from(document.querySelectorAll('.js-plotly-plot'))"
               ".filter(d => d.data && d.data.length > 0 && d.querySelector('.main-svg'))"
               ".length === 3")


def simulated_log(tmp_path: Path) -> Path:
    simulate = pytest.importorskip("cabo_log.play.simulate")
    lines = simulate.simulate_game("edition2", players=3, seed=11)
    return write_log(tmp_path / "game.jsonl", lines)


def check_page(b: B, page: Path, shot: str | None = None) -> None:
    b.open(page)
    b.wait_for(PLOTS_DRAWN)
    b.wait_for("document.querySelectorAll('#step-rows .row').length > 0")
    # the slider drives the table
    steps = b.js("window.caboTimeline.steps")
    assert steps > 10
    data = json.loads(b.js("document.getElementById('cabo-timeline-data').textContent"))
    first = b.js("document.getElementById('step-story').textContent")
    assert first.endswith(data["steps"][0]["text"])
    target = steps // 2
    b.js(f"(() => {{ const s = document.getElementById('step-slider'); s.value = '{target}';"
         " s.dispatchEvent(new Event('input', {bubbles: true})); })()")
    assert b.js("document.getElementById('step-story').textContent").endswith(
        data["steps"][target]["text"])
    assert b.js("document.getElementById('step-where').textContent").startswith(
        f"step {data['steps'][target]['n']} of {steps}")
    shown = b.js("Array.from(document.querySelectorAll('#step-rows .row .who'))"
                 ".map(n => n.firstChild.textContent)")
    assert shown == [r["p"] for r in data["steps"][target]["rows"]] + data["steps"][target]["out"]
    cards = b.js("document.querySelectorAll('#step-rows .card').length")
    expected = sum(len(r["cards"]) for r in data["steps"][target]["rows"])
    assert cards == expected + (1 if data["steps"][target]["held"] else 0)
    b.js("document.getElementById('step-next').click()")
    assert b.js("window.caboTimeline.current()") == target + 1
    # the events chart's cursor follows the step
    b.wait_for("document.getElementById('chart-events').layout.shapes[0].x0 === "
               f"{data['steps'][target + 1]['n']}", timeout=10)
    if shot:
        b.screenshot(ARTIFACTS / shot)
    assert b.problems() == []
    assert b.watch.blocked == [], b.watch.blocked


def test_page_works_offline(b: B, tmp_path: Path) -> None:
    log = simulated_log(tmp_path)
    page = tmp_path / "game.html"
    page.write_text(render_page(build_timeline(log)), encoding="utf-8")
    check_page(b, page, "timeline.png")
    page.write_text(render_page(build_timeline(log, "bruno")), encoding="utf-8")
    check_page(b, page, "timeline-as-bruno.png")


def test_page_works_with_the_network_open(page: Any, tmp_path: Path) -> None:
    log = simulated_log(tmp_path)
    out = tmp_path / "game.html"
    out.write_text(render_page(build_timeline(log)), encoding="utf-8")
    check_page(B((page, watch_page(page, None))), out)


def test_seq_in_the_address_opens_that_step(b: B, tmp_path: Path) -> None:
    log = write_log(tmp_path / "tiny.jsonl", tiny_game())
    page = tmp_path / "tiny.html"
    page.write_text(render_page(build_timeline(log)), encoding="utf-8")
    b.open(page.resolve().as_uri() + "#seq=9")
    b.wait_for("window.caboTimeline !== undefined")
    data = json.loads(b.js("document.getElementById('cabo-timeline-data').textContent"))
    at = b.js("window.caboTimeline.current()")
    assert data["steps"][at]["n"] == 9
    b.js("window.location.hash = '#seq=15'")
    b.wait_for("window.caboTimeline.current() === 14")
    assert b.problems() == []


def test_markup_in_player_ids_is_text(b: B, tmp_path: Path) -> None:
    log = write_log(tmp_path / "tiny.jsonl", tiny_game())
    page = tmp_path / "tiny.html"
    page.write_text(render_page(build_timeline(log)), encoding="utf-8")
    b.open(page)
    b.wait_for(PLOTS_DRAWN)
    b.page.wait_for_timeout(500)
    assert b.dialogs() == []
    assert b.js("document.querySelectorAll('img').length") == 0
    assert b.js("document.querySelector('h1 .game-id').textContent") == EVIL_ID
    body = b.js("document.body.innerText")
    assert EVIL in body and EVIL_NAME in body
    b.js("window.caboTimeline.go(8)")
    assert b.js("document.getElementById('step-story').textContent").endswith(
        f"{EVIL} took a 5 from the discard pile")
    ticks = b.js("Array.from(document.querySelectorAll('#chart-events .ytick text'))"
                       ".map(n => n.textContent)")
    assert EVIL in ticks
    legend = b.js("Array.from(document.querySelectorAll('#chart-score .legendtext'))"
                        ".map(n => n.textContent)")
    assert EVIL in legend
    b.screenshot(ARTIFACTS / "timeline-escaping.png")
    assert b.problems() == []


def test_as_a_player_cards_are_face_down(b: B, tmp_path: Path) -> None:
    log = write_log(tmp_path / "tiny.jsonl", tiny_game())
    page = tmp_path / "tiny.html"
    page.write_text(render_page(build_timeline(log, "bruno")), encoding="utf-8")
    b.open(page)
    b.wait_for(PLOTS_DRAWN)
    b.js("window.caboTimeline.go(3)")        # ana drew from the deck
    assert b.js("document.getElementById('step-story').textContent").endswith(
        "ana drew a card from the deck")
    rows = b.js("Array.from(document.querySelectorAll('#step-rows .row')).map(r => "
                      "Array.from(r.querySelectorAll('.card')).map(c => "
                      "c.classList.contains('down') ? null : c.textContent))")
    assert rows == [[None] * 4 + [None], ["5", "5", None, None], [None] * 4]   # + ana's draw
    # bruno's hand: a total of points of the cards he saw, and how many cards he has not seen
    nums = b.js("Array.from(document.querySelectorAll('#step-rows .row .nums'))"
                ".map(n => n.textContent)")
    assert nums[1] == "total of seen cards 10, 2 cards unseenscore 0", nums
    assert nums[2].startswith("total of seen cards 0, 4 cards unseen"), nums
    assert b.problems() == []


def test_click_on_an_event_shows_its_table(b: B, tmp_path: Path) -> None:
    log = write_log(tmp_path / "tiny.jsonl", tiny_game())
    page = tmp_path / "tiny.html"
    page.write_text(render_page(build_timeline(log)), encoding="utf-8")
    b.open(page)
    b.wait_for(PLOTS_DRAWN)
    # plotly's own click event, as a user's click on the Cabo marker (step 15) fires it
    b.js("(() => { const d = document.getElementById('chart-events');"
               " const t = d.data.findIndex(t => t.name === 'cabo');"
               " d.emit('plotly_click', {points: [{customdata: d.data[t].customdata[0]}]});"
               " })()")
    assert b.js("window.caboTimeline.current()") == 14
    b.js("document.querySelector('table.rounds tbody tr').click()")
    assert b.js("window.caboTimeline.current()") == 20   # the end of round 1
    assert b.problems() == []


def test_cdn_page_needs_the_network(b: B, tmp_path: Path) -> None:
    """The control experiment: with the network closed a --cdn page cannot load plotly.js
    (so the offline tests above really ran offline); the table still steps through."""
    log = write_log(tmp_path / "tiny.jsonl", tiny_game())
    page = tmp_path / "tiny.html"
    page.write_text(render_page(build_timeline(log), plotly="cdn"), encoding="utf-8")
    b.open(page)
    assert b.js("typeof window.Plotly") == "undefined"
    assert any(url.startswith("https://cdn.plot.ly/") for url in b.requests())
    assert "could not be loaded" in b.js("document.getElementById('chart-score')"
                                                ".textContent")
    b.js("window.caboTimeline.go(5)")
    assert b.js("window.caboTimeline.current()") == 5


def test_folder_pages_share_plotly(b: B, tmp_path: Path) -> None:
    games = tmp_path / "games" / "club"
    games.mkdir(parents=True)
    write_log(games / "tiny.jsonl", tiny_game())
    result = write_folder(tmp_path / "games", tmp_path / "site")
    assert result.errors == []
    b.open(result.index)
    href = b.js("document.querySelector('table a').getAttribute('href')")
    assert href == "club/tiny.html"
    b.open(tmp_path / "site" / href)
    b.wait_for(PLOTS_DRAWN)
    assert b.problems() == []


def test_step_links_jumps_and_changes(b: B, tmp_path: Path) -> None:
    log = simulated_log(tmp_path)
    page = tmp_path / "game.html"
    page.write_text(render_page(build_timeline(log)), encoding="utf-8")
    data = json.loads(render_page(build_timeline(log)).split(
        'id="cabo-timeline-data">')[1].split("</script>")[0])
    steps = data["steps"]
    b.open(page.resolve().as_uri() + "#seq=7")
    b.wait_for("document.readyState === 'complete' && window.caboTimeline")
    assert b.js("window.caboTimeline.current()") == 6           # step n=7 is index 6
    b.js("window.caboTimeline.go(9)")
    assert b.js("location.hash") == f"#seq={steps[9]['n']}"
    # "next Cabo call" lands on the first cabo event after the current step
    want = next(i for i, s in enumerate(steps) if i > 9 and s["kind"] == "cabo")
    b.js("Array.from(document.querySelectorAll('.jumps button'))"
         ".find(b => b.textContent.startsWith('next Cabo call')).click()")
    assert b.js("window.caboTimeline.current()") == want
    want = next(i for i, s in enumerate(steps) if i > want and s["type"] == "deal")
    b.js("Array.from(document.querySelectorAll('.jumps button'))"
         ".find(b => b.textContent.startsWith('next round')).click()")
    assert b.js("window.caboTimeline.current()") == want
    # a one-line account of what the step changed: a deal changes the draw pile
    changes = b.js("document.getElementById('step-changes').textContent")
    assert changes.startswith("changed:") and "draw pile" in changes
    assert b.problems() == []
