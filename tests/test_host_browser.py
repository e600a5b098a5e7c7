"""``cabo-log host`` in real browsers (Playwright + Chromium), one browser context per seat:
two people and a bot play a round through the pages; every WebSocket message a seat received
holds only cards that seat knew (checked against the engine's knowledge, replayed from the
log); the step timer's auto move; a lost connection, its return and a forfeit; leaving; a host
restarted in the middle of a turn; a game loaded into the database on request."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import orjson
import pytest
from browser import browser_context_args, browser_type_launch_args, screenshot, watch
from host_server import Running, wait_for

from cabo_log.log.replay import replay_file
from cabo_log.pages.table.clock import Timing
from cabo_log.pages.table.host import SeatSpec
from cabo_log.pages.table.seats import SeatKind
from cabo_log.pages.table.views import Mode
from engine import apply, new_game, parse_event
from engine.events import GameStart
from engine.knowledge import observe

__all__ = ["browser_context_args", "browser_type_launch_args"]   # fixtures

P, B = SeatKind.PERSON, SeatKind.BOT
QUICK = Timing(hold=60, between_rounds=20, first_peek=5, flash=3.2, bot_delay=0.05)
SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "S": "S", "H": "H", "D": "D", "C": "C"}
CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([SHDC♠♥♦♣])(?![A-Za-z0-9])|(?<![A-Za-z])JK"
                  r"(?![A-Za-z])")


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Callable[..., Running]]:
    started: list[Running] = []

    def start(timing: Timing = QUICK, db: Path | None = None) -> Running:
        run = Running(tmp_path / "games", timing, db=db)
        started.append(run)
        return run

    (tmp_path / "games").mkdir()
    yield start
    for run in started:
        if run.thread.is_alive():
            run.stop()


def seat_page(browser: Any, link: str, frames: list[str] | None = None) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1300, "height": 950})
    page = context.new_page()
    w = watch(page, lambda url: url.startswith(link.split("/t/")[0] + "/"))
    if frames is not None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    page.goto(link)
    return page, w


def turn(page: Any) -> str:
    return str(page.locator("#turn").inner_text())


def lines(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(x) for x in path.read_bytes().splitlines()]


def play_step(page: Any, turns: dict[str, int], me: str, call_from: int = 3) -> bool:
    """If it is this page's turn, make one move with the buttons; whether it did."""
    text = turn(page)
    if not text.startswith("Your turn"):
        return False
    buttons = page.locator("#buttons button.move")
    labels = buttons.all_inner_texts()
    if "draw a card" in text:
        turns[me] = turns.get(me, 0) + 1
        want = "Call Cabo" if turns[me] > call_from and "Call Cabo" in labels \
            else "Draw from the deck"
    elif "place the drawn card" in text:
        want = next(label for label in labels if label.startswith("Discard the"))
    else:
        want = next(label for label in labels if label.startswith("Skip"))
    before = page.locator("#feed li").count()
    page.locator("#buttons button.move", has_text=want).first.click()
    wait_for(lambda: page.locator("#feed li").count() != before or not
             turn(page).startswith("Your turn"), 10, f"{me}'s move {want!r} to show")
    return True


def known_codes(path: Path, seat: str) -> list[set[str]]:
    """For each count of lines N: every card code the seat saw in the first N lines (its
    observation after each line: rows, drawn card, discard pile), replayed by the engine."""
    raw = lines(path)
    start = parse_event(raw[0])
    assert isinstance(start, GameStart)
    g = new_game(start)
    seen: set[str] = set()
    out = [set(), set(seen)]
    for line in raw[1:]:
        apply(g, parse_event(line))
        if g.rounds or g.round.round_no:
            obs = observe(g, seat)
            for row in obs.rows.values():
                seen.update(c for c in row if c is not None)
            seen.update(obs.discard)
            if obs.drawn is not None:
                seen.add(obs.drawn)
        out.append(set(seen))
    return out


def codes_in(text: str) -> set[str]:
    found = set()
    for m in CARD.finditer(text):
        found.add("JK" if m.group(0) == "JK" else m.group(1) + SUIT[m.group(2)])
    return found


def test_two_people_and_a_bot_play_a_round_through_the_pages(
        browser: Any, page: Any, running: Callable[..., Running], tmp_path: Path) -> None:
    run = running(db=tmp_path / "games.duckdb")
    w = watch(page, lambda url: url.startswith(run.base + "/"))
    page.goto(run.base + "/")
    page.select_option("select[name=ruleset]", "online")
    page.select_option("select[name=step]", "0")
    page.select_option("select[name=mode]", "assisted")
    page.fill("input[name=name0]", "ana <b>")
    page.fill("input[name=name1]", "bruno")
    page.select_option("select[name=kind2]", "greedy")
    page.click("button[type=submit]")
    links = [page.locator("input.link").nth(i).input_value() for i in range(2)]
    assert all("#seat=" in link for link in links)
    screenshot(page, "host-invite.png")
    frames: dict[str, list[str]] = {"ana <b>": [], "bruno": []}
    ana, wa = seat_page(browser, links[0], frames["ana <b>"])
    bruno, wb = seat_page(browser, links[1], frames["bruno"])
    pages = {"ana <b>": ana, "bruno": bruno}
    wait_for(lambda: "round 1" in ana.locator("#round").inner_text(), 10, "the deal")
    assert ana.locator(".seat .name").first.inner_text() == "ana <b>"   # a name is text
    turns: dict[str, int] = {}
    for _ in range(400):
        if all("Round 1 is over" in turn(p) for p in pages.values()):
            break
        moved = False
        for name, p in pages.items():
            moved = play_step(p, turns, name) or moved
        if not moved:
            ana.wait_for_timeout(60)
    assert all("Round 1 is over" in turn(p) for p in pages.values())
    screenshot(ana, "host-round-over.png")
    table = next(iter(run.host.tables.values()))
    result = replay_file(str(table.path))
    assert result.error is None and result.state is not None
    points = result.state.rounds[0].points
    cells = ana.locator("#scores tbody tr").first.locator("td").all_inner_texts()
    assert [int(c) for c in cells[1:]] == [points[p] for p in ("ana <b>", "bruno", "greedy-3")]
    # both confirm: the next round is dealt at once
    for p in pages.values():
        p.locator("#buttons button", has_text="Ready for the next round").click()
    wait_for(lambda: "round 2" in bruno.locator("#round").inner_text(), 10, "round 2")
    # every message each seat received: no card that seat did not know by then
    for name, received in frames.items():
        known = known_codes(table.path, name)
        views = [json.loads(f) for f in received if isinstance(f, str)]
        assert len(views) > 20
        for text, view in zip(received, views, strict=True):
            if view.get("type") != "view":
                continue
            leaked = codes_in(text) - known[view["lines"]]
            assert not leaked, f"{name} was sent {leaked} at line {view['lines']}"
    # the unfinished game goes into the database on request
    ana.locator("#load").click()
    wait_for(lambda: table.id in run.host.load_notes, 60, "the load")
    assert run.host.load_notes[table.id].startswith("loaded")
    run.stop()
    con = duckdb.connect(str(tmp_path / "games.duckdb"), read_only=True)
    assert con.execute("SELECT count(*) FROM games WHERE game_id = ?",
                       [table.id]).fetchone() == (1,)
    con.close()
    for watcher in (w, wa, wb):
        assert not watcher.problems and not watcher.blocked


def test_the_step_timer_plays_for_an_idle_seat(browser: Any,
                                               running: Callable[..., Running]) -> None:
    run = running()
    opened = run.host.open_table("online", [SeatSpec("ana", P), SeatSpec("bo", B, "random")],
                                 step=1, mode=Mode.CLASSIC)
    page, w = seat_page(browser, f"{run.base}/t/{opened.table.id}#seat={opened.tokens['ana']}")
    wait_for(lambda: any(x.get("auto") and x.get("player") == "ana"
                         for x in lines(opened.table.path)), 15, "an auto move")
    auto = [x for x in lines(opened.table.path) if x.get("auto")]
    assert auto[0]["type"] == "draw" and auto[0]["source"] == "deck"
    wait_for(lambda: "ana drew a card from the deck" in page.locator("#feed").inner_text(), 10,
             "the auto move on the page")
    assert not w.problems


def test_a_lost_connection_comes_back_then_a_forfeit_and_a_leave(
        browser: Any, running: Callable[..., Running]) -> None:
    run = running(Timing(hold=2.5, between_rounds=20, bot_delay=0.05))
    opened = run.host.open_table("online", [SeatSpec("ana", P), SeatSpec("bruno", P),
                                            SeatSpec("cleo", B, "greedy")],
                                 step=0, mode=Mode.ASSISTED)
    table = opened.table
    link = f"{run.base}/t/{table.id}#seat="
    ana, _ = seat_page(browser, link + opened.tokens["ana"])
    bruno, _ = seat_page(browser, link + opened.tokens["bruno"])
    mine = "#players .seat.mine .card"
    wait_for(lambda: ana.locator(mine).count() == 4 and
             ana.locator(mine).nth(0).inner_text().strip() != "", 10, "ana's cards")
    cards = [ana.locator(mine).nth(i).inner_text() for i in range(4)]
    ana.context.close()                                        # the tab is closed
    wait_for(lambda: "away" in bruno.locator("#players").inner_text(), 5, "ana away")
    ana, _ = seat_page(browser, link + opened.tokens["ana"])   # back within the hold
    wait_for(lambda: ana.locator(mine).count() == 4, 10, "ana's view again")
    wait_for(lambda: [ana.locator(mine).nth(i).inner_text() for i in range(4)] == cards, 5,
             "ana's known cards restored")
    assert "ana is back" in ana.locator("#feed").inner_text()
    bruno.context.close()                                      # and this one stays away
    wait_for(lambda: any(x["type"] == "forfeit" for x in lines(table.path)), 10, "a forfeit")
    forfeit = next(x for x in lines(table.path) if x["type"] == "forfeit")
    assert forfeit["player"] == "bruno" and forfeit["reason"] == "disconnected"
    wait_for(lambda: "forfeited" in ana.locator("#players").inner_text(), 5, "the forfeit shown")
    ana.locator("#leave").click()
    ana.locator("#leavesure").click()
    wait_for(lambda: "The match is over: cleo wins" in turn(ana), 10, "the match's end")
    kinds = [(x["type"], x.get("player"), x.get("reason")) for x in lines(table.path)]
    assert ("forfeit", "ana", "left") in kinds
    result = replay_file(str(table.path))
    assert result.error is None and result.state is not None
    assert result.state.winners == ("cleo",)
    assert ana.locator("#links a").get_attribute("href") == f"/t/{table.id}/timeline"
    screenshot(ana, "host-over.png")


def test_a_restarted_host_resumes_a_turn_in_the_middle(
        browser: Any, running: Callable[..., Running]) -> None:
    run = running()
    opened = run.host.open_table("edition2", [SeatSpec("ana", P), SeatSpec("bo", P)],
                                 step=0, mode=Mode.ASSISTED)
    table = opened.table
    ana, _ = seat_page(browser, f"{run.base}/t/{table.id}#seat={opened.tokens['ana']}")
    bo, _ = seat_page(browser, f"{run.base}/t/{table.id}#seat={opened.tokens['bo']}")
    for p, name in ((ana, "ana"), (bo, "bo")):     # edition2: each chooses two cards to see
        wait_for(lambda p=p: p.locator("#players .seat.mine .card.pick").count() == 4, 10,
                 "the cards to choose")
        p.locator("#players .seat.mine .card").nth(1).click()
        p.locator("#players .seat.mine .card").nth(3).click()
        p.locator("#buttons button", has_text="Look at your cards 1 and 3").click()
        wait_for(lambda p=p: p.locator("#players .seat.mine .card.back").count() == 2, 10,
                 f"{name}'s two cards shown")
    wait_for(lambda: "Your turn" in turn(ana) + turn(bo), 10, "the first turn")
    mover = ana if "Your turn" in turn(ana) else bo
    mover.locator("#buttons button", has_text="Draw from the deck").click()
    wait_for(lambda: "place the drawn card" in turn(mover), 10, "the draw")
    held = mover.locator("#drawn").inner_text()
    written = table.path.read_bytes()
    run.stop()
    again = running()
    assert again.problems == []
    assert again.host.tables[table.id].state.events == len(written.splitlines())
    link = mover.url.replace(run.base, again.base)
    page, w = seat_page(browser, link)
    wait_for(lambda: "place the drawn card" in turn(page), 10, "the resumed turn")
    assert page.locator("#drawn").inner_text() == held
    assert "restarted" in page.locator("#feed").inner_text()
    page.locator("#buttons button", has_text="Discard the").click()
    wait_for(lambda: len(table.path.read_bytes()) > len(written), 10, "the discard written")
    assert table.path.read_bytes().startswith(written)
    assert replay_file(str(table.path)).error is None
    screenshot(page, "host-resumed.png")
    assert not w.problems
