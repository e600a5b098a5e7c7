"""A score sheet kept on a phone (Playwright + Chromium at 390 x 844, touch): opened from the
host's front page, two rounds entered by tapping the caller and typing the cards, the totals
read off the page (worked out by hand from RULES.md); no horizontal scroll, touch targets of
44 px and more, no script needed, nothing the page did wrong."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import browser_context_args, browser_type_launch_args, screenshot, watch
from host_server import Running

from cabo_log.pages.table.clock import Timing

__all__ = ["browser_context_args", "browser_type_launch_args"]   # fixtures

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    (tmp_path / "games").mkdir()
    run = Running(tmp_path / "games", Timing(bot_delay=0))
    yield run
    run.stop()


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px screen"


def test_two_rounds_on_a_phone(browser: Any, running: Running) -> None:
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    w = watch(page, lambda url: url.startswith(running.base + "/"))
    page.goto(running.base + "/")
    no_sideways_scroll(page)
    page.select_option("select[name=sheet_ruleset]", "edition2")
    for i, name in enumerate(["ana", "bruno", "carla"]):
        page.fill(f"input[name=player{i}]", name)
    page.locator("form.sheetform button[type=submit]").tap()
    page.wait_for_url("**/s/sheet-*")
    assert page.locator("#enter h2").inner_text() == "Round 1"
    no_sideways_scroll(page)
    for target in page.locator(".choice span, label.hand input, button.big").all():
        box = target.bounding_box()
        assert box is not None and box["height"] >= 44, target.inner_text()

    # edition2 (RULES.md): a caller succeeds with no lower total (ties are fine) and scores 0;
    # everybody else scores their total. Round 1: bruno calls on 5; ana 12, carla 5.
    page.locator(".choice", has_text="bruno").tap()
    page.fill("input[name=cards0]", "7 2 3")
    page.fill("input[name=cards1]", "1 1 3 0")
    page.fill("input[name=cards2]", "2 3")
    page.locator("button.big").tap()
    page.wait_for_selector("#enter h2:text('Round 2')")
    # a refused round: three 13s (the deck holds two); the page says why, keeps the typing
    assert w.problems == []
    page.locator(".choice", has_text="ana").tap()
    page.fill("input[name=cards0]", "13 13")
    page.fill("input[name=cards1]", "13 4")
    page.fill("input[name=cards2]", "9")
    page.locator("button.big").tap()
    problem = page.locator("p.problem").inner_text()
    assert problem == "Not written: round 2 shows 3 x 13, but the edition2 deck holds 2"
    assert page.input_value("input[name=cards0]") == "13 13"
    assert w.problems == ["console.error: Failed to load resource: the server responded with "
                          "a status of 400 (Bad Request)"]    # the refusal's status, only
    w.clear()
    # Round 2: ana calls on 0 + 4 = 4 but carla has 3: ana fails, 4 + 10 = 14; bruno 12 + 13
    # = 25; carla 3.
    page.locator(".choice", has_text="ana").tap()
    page.fill("input[name=cards0]", "0 4")
    page.fill("input[name=cards1]", "12 13")
    page.fill("input[name=cards2]", "3")
    page.locator("button.big").tap()
    page.wait_for_selector("#enter h2:text('Round 3')")
    totals = page.locator("#totals tfoot td").all_inner_texts()
    assert totals == ["26", "25", "8"]           # ana 12 + 14, bruno 0 + 25, carla 5 + 3
    cells = page.locator("#totals tr#r2 td")
    second = [[cells.nth(k).locator(part).inner_text() for part in ("b", "small")]
              for k in range(cells.count())]       # each cell: the round's points, the total
    assert second == [["14", "26"], ["25", "25"], ["3", "8"]]
    assert "ana called Cabo and failed: hand total + 10" in page.locator("tr.why").nth(1) \
        .inner_text()
    no_sideways_scroll(page)
    page.locator("#totals").scroll_into_view_if_needed()
    screenshot(page, "host-scoresheet.png")
    assert w.problems == [] and w.blocked == []
    context.close()
