"""The timeline page in a real browser: headless Chromium opens it from a file URL, with the
network closed, and the test checks that the charts drew, that nothing went wrong in the
console, that the slider steps through the table, and that markup in player ids runs nothing.

Chromium is driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``): no
port, no proxy settings and no Python package beyond the standard library. Screenshots go to
``artifacts/`` (gitignored). Without a Chromium binary the tests skip (they fail instead when
``CABO_REQUIRE_BROWSER`` is set); CI installs one with ``.ci/install-browser``.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_timeline import EVIL, EVIL_ID, EVIL_NAME, tiny_game, write_log

from cabo_log.pages.timeline import build_timeline
from cabo_log.pages.timeline_html import render_page, write_folder

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium_binary() -> str | None:
    given = os.environ.get("CABO_CHROMIUM")
    if given:
        return given
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def dead_port() -> int:
    """A local port nobody listens on (a proxy there refuses every connection)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


class Chromium:
    """A headless Chromium and one page, spoken to with DevTools protocol messages on a pipe."""

    def __init__(self, binary: str, *, offline: bool) -> None:
        self.profile = tempfile.mkdtemp(prefix="cabo-chromium-")
        args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--disable-extensions", "--mute-audio", f"--user-data-dir={self.profile}",
                "--remote-debugging-pipe", "--window-size=1400,1000", "about:blank"]
        if offline:
            args += ["--host-resolver-rules=MAP * ~NOTFOUND",
                     f"--proxy-server=127.0.0.1:{dead_port()}"]
        to_child, self._to_browser = os.pipe()
        self._from_browser, from_child = os.pipe()

        def child_fds() -> None:   # the protocol pipe is fds 3 (commands) and 4 (replies)
            commands, replies = os.dup(to_child), os.dup(from_child)
            os.dup2(commands, 3)
            os.dup2(replies, 4)

        self.stderr = open(os.path.join(self.profile, "stderr.log"), "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=self.stderr, preexec_fn=child_fds, close_fds=False)
        os.close(to_child)
        os.close(from_child)
        self._ids = 0
        self._replies: dict[int, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self._cv = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.resize(1400, 1000)

    # --- protocol ------------------------------------------------------------------------
    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cv:
                    self._cv.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                with self._cv:
                    if "id" in message:
                        self._replies[message["id"]] = message
                    else:
                        self.events.append(message)
                        if message.get("method") == "Page.javascriptDialogOpening":
                            threading.Thread(target=self._dismiss, daemon=True).start()
                    self._cv.notify_all()

    def _dismiss(self) -> None:
        self.call("Page.handleJavaScriptDialog", {"accept": False})

    def send(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None, timeout: float = 60) -> dict[str, Any]:
        with self._cv:
            self._ids += 1
            number = self._ids
        message: dict[str, Any] = {"id": number, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        with self._cv:
            if not self._cv.wait_for(lambda: number in self._replies
                                     or self.proc.poll() is not None, timeout):
                raise TimeoutError(f"Chromium did not answer {method} in {timeout} s")
            if number not in self._replies:
                raise RuntimeError(f"Chromium exited ({self.log()[-500:]})")
            reply = self._replies.pop(number)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        result: dict[str, Any] = reply.get("result", {})
        return result

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.send(method, params, self.session)

    def log(self) -> str:
        return Path(self.profile, "stderr.log").read_text(errors="replace")

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        self.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    # --- page helpers --------------------------------------------------------------------
    def resize(self, width: int, height: int) -> None:
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                         "deviceScaleFactor": 1,
                                                         "mobile": False})

    def open(self, path: Path) -> None:
        with self._cv:
            self.events.clear()
        self.call("Page.navigate", {"url": path.resolve().as_uri()})
        self.wait_for("document.readyState === 'complete'")

    def js(self, expression: str) -> Any:
        reply = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                               "awaitPromise": True})
        if "exceptionDetails" in reply:
            raise AssertionError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30) -> Any:
        end = time.monotonic() + timeout
        while True:
            value = self.js(expression)
            if value:
                return value
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {expression}")
            time.sleep(0.1)

    def problems(self) -> list[str]:
        """Console errors, uncaught exceptions and dialogs since the page was opened."""
        out = []
        with self._cv:
            events = list(self.events)
        for e in events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.exceptionThrown":
                out.append(f"exception: {params['exceptionDetails']}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error",
                                                                                "assert"):
                out.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                out.append(f"log: {params['entry'].get('text')} {params['entry'].get('url')}")
            elif method == "Page.javascriptDialogOpening":
                out.append(f"dialog: {params.get('type')} {params.get('message')!r}")
        return out

    def requests(self) -> list[str]:
        with self._cv:
            return [e["params"]["request"]["url"] for e in self.events
                    if e.get("method") == "Network.requestWillBeSent"]

    def dialogs(self) -> list[str]:
        with self._cv:
            return [e["params"].get("message", "") for e in self.events
                    if e.get("method") == "Page.javascriptDialogOpening"]

    def screenshot(self, path: Path) -> None:
        """The whole page, not only the window."""
        height = int(self.call("Page.getLayoutMetrics")["cssContentSize"]["height"])
        self.resize(1400, max(height, 600))
        time.sleep(0.3)
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        self.resize(1400, 1000)


@pytest.fixture(scope="module")
def browser_factory() -> Iterator[Callable[[bool], Chromium]]:
    binary = chromium_binary()
    if binary is None:
        reason = "no Chromium found (install it with .ci/install-browser, or set CABO_CHROMIUM)"
        if os.environ.get("CABO_REQUIRE_BROWSER"):
            pytest.fail(reason + "; CABO_REQUIRE_BROWSER is set")
        pytest.skip(reason)
    browsers: dict[bool, Chromium] = {}

    def get(offline: bool) -> Chromium:
        if offline not in browsers:
            browsers[offline] = Chromium(binary, offline=offline)
        return browsers[offline]

    yield get
    for b in browsers.values():
        b.close()


@pytest.fixture
def offline(browser_factory: Callable[[bool], Chromium]) -> Chromium:
    return browser_factory(True)


PLOTS_DRAWN = ("Array.from(document.querySelectorAll('.js-plotly-plot'))"
               ".filter(d => d.data && d.data.length > 0 && d.querySelector('.main-svg'))"
               ".length === 3")


def simulated_log(tmp_path: Path) -> Path:
    simulate = pytest.importorskip("cabo_log.play.simulate")
    lines = simulate.simulate_game("edition2", players=3, seed=11)
    return write_log(tmp_path / "game.jsonl", lines)


def check_page(b: Chromium, page: Path, shot: str | None = None) -> None:
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
    assert all(url.startswith(("file:", "data:", "blob:")) for url in b.requests()), \
        b.requests()


def test_page_works_offline(offline: Chromium, tmp_path: Path) -> None:
    log = simulated_log(tmp_path)
    page = tmp_path / "game.html"
    page.write_text(render_page(build_timeline(log)), encoding="utf-8")
    check_page(offline, page, "timeline.png")
    page.write_text(render_page(build_timeline(log, "bruno")), encoding="utf-8")
    check_page(offline, page, "timeline-as-bruno.png")


def test_page_works_with_the_network_open(browser_factory: Callable[[bool], Chromium],
                                          tmp_path: Path) -> None:
    log = simulated_log(tmp_path)
    page = tmp_path / "game.html"
    page.write_text(render_page(build_timeline(log)), encoding="utf-8")
    check_page(browser_factory(False), page)


def test_markup_in_player_ids_is_text(offline: Chromium, tmp_path: Path) -> None:
    log = write_log(tmp_path / "tiny.jsonl", tiny_game())
    page = tmp_path / "tiny.html"
    page.write_text(render_page(build_timeline(log)), encoding="utf-8")
    offline.open(page)
    offline.wait_for(PLOTS_DRAWN)
    time.sleep(0.5)
    assert offline.dialogs() == []
    assert offline.js("document.querySelectorAll('img').length") == 0
    assert offline.js("document.querySelector('h1 .game-id').textContent") == EVIL_ID
    body = offline.js("document.body.innerText")
    assert EVIL in body and EVIL_NAME in body
    offline.js("window.caboTimeline.go(8)")
    assert offline.js("document.getElementById('step-story').textContent").endswith(
        f"{EVIL} took a 5 from the discard pile")
    ticks = offline.js("Array.from(document.querySelectorAll('#chart-events .ytick text'))"
                       ".map(n => n.textContent)")
    assert EVIL in ticks
    legend = offline.js("Array.from(document.querySelectorAll('#chart-score .legendtext'))"
                        ".map(n => n.textContent)")
    assert EVIL in legend
    offline.screenshot(ARTIFACTS / "timeline-escaping.png")
    assert offline.problems() == []


def test_as_a_player_cards_are_face_down(offline: Chromium, tmp_path: Path) -> None:
    log = write_log(tmp_path / "tiny.jsonl", tiny_game())
    page = tmp_path / "tiny.html"
    page.write_text(render_page(build_timeline(log, "bruno")), encoding="utf-8")
    offline.open(page)
    offline.wait_for(PLOTS_DRAWN)
    offline.js("window.caboTimeline.go(3)")        # ana drew from the deck
    assert offline.js("document.getElementById('step-story').textContent").endswith(
        "ana drew a card from the deck")
    rows = offline.js("Array.from(document.querySelectorAll('#step-rows .row')).map(r => "
                      "Array.from(r.querySelectorAll('.card')).map(c => "
                      "c.classList.contains('down') ? null : c.textContent))")
    assert rows == [[None] * 4 + [None], ["5", "5", None, None], [None] * 4]   # + ana's draw
    assert offline.problems() == []


def test_click_on_an_event_shows_its_table(offline: Chromium, tmp_path: Path) -> None:
    log = write_log(tmp_path / "tiny.jsonl", tiny_game())
    page = tmp_path / "tiny.html"
    page.write_text(render_page(build_timeline(log)), encoding="utf-8")
    offline.open(page)
    offline.wait_for(PLOTS_DRAWN)
    # plotly's own click event, as a user's click on the Cabo marker (step 15) fires it
    offline.js("(() => { const d = document.getElementById('chart-events');"
               " const t = d.data.findIndex(t => t.name === 'cabo');"
               " d.emit('plotly_click', {points: [{customdata: d.data[t].customdata[0]}]});"
               " })()")
    assert offline.js("window.caboTimeline.current()") == 14
    offline.js("document.querySelector('table.rounds tbody tr').click()")
    assert offline.js("window.caboTimeline.current()") == 20   # the end of round 1
    assert offline.problems() == []


def test_cdn_page_needs_the_network(offline: Chromium, tmp_path: Path) -> None:
    """The control experiment: with the network closed a --cdn page cannot load plotly.js
    (so the offline tests above really ran offline); the table still steps through."""
    log = write_log(tmp_path / "tiny.jsonl", tiny_game())
    page = tmp_path / "tiny.html"
    page.write_text(render_page(build_timeline(log), plotly="cdn"), encoding="utf-8")
    offline.open(page)
    assert offline.js("typeof window.Plotly") == "undefined"
    assert any(url.startswith("https://cdn.plot.ly/") for url in offline.requests())
    assert "could not be loaded" in offline.js("document.getElementById('chart-score')"
                                                ".textContent")
    offline.js("window.caboTimeline.go(5)")
    assert offline.js("window.caboTimeline.current()") == 5


def test_folder_pages_share_plotly(offline: Chromium, tmp_path: Path) -> None:
    games = tmp_path / "games" / "club"
    games.mkdir(parents=True)
    write_log(games / "tiny.jsonl", tiny_game())
    result = write_folder(tmp_path / "games", tmp_path / "site")
    assert result.errors == []
    offline.open(result.index)
    href = offline.js("document.querySelector('table a').getAttribute('href')")
    assert href == "club/tiny.html"
    offline.open(tmp_path / "site" / href)
    offline.wait_for(PLOTS_DRAWN)
    assert offline.problems() == []


def test_step_links_jumps_and_changes(offline: Chromium, tmp_path: Path) -> None:
    log = simulated_log(tmp_path)
    page = tmp_path / "game.html"
    page.write_text(render_page(build_timeline(log)), encoding="utf-8")
    data = json.loads(render_page(build_timeline(log)).split(
        'id="cabo-timeline-data">')[1].split("</script>")[0])
    steps = data["steps"]
    with offline._cv:
        offline.events.clear()
    offline.call("Page.navigate", {"url": page.resolve().as_uri() + "#seq=7"})
    offline.wait_for("document.readyState === 'complete' && window.caboTimeline")
    assert offline.js("window.caboTimeline.current()") == 6           # step n=7 is index 6
    offline.js("window.caboTimeline.go(9)")
    assert offline.js("location.hash") == f"#seq={steps[9]['n']}"
    # "next Cabo call" lands on the first cabo event after the current step
    want = next(i for i, s in enumerate(steps) if i > 9 and s["kind"] == "cabo")
    offline.js("Array.from(document.querySelectorAll('.jumps button'))"
               ".find(b => b.textContent.startsWith('next Cabo call')).click()")
    assert offline.js("window.caboTimeline.current()") == want
    want = next(i for i, s in enumerate(steps) if i > want and s["type"] == "deal")
    offline.js("Array.from(document.querySelectorAll('.jumps button'))"
               ".find(b => b.textContent.startsWith('next round')).click()")
    assert offline.js("window.caboTimeline.current()") == want
    # a one-line account of what the step changed: a deal changes the draw pile
    changes = offline.js("document.getElementById('step-changes').textContent")
    assert changes.startswith("changed:") and "draw pile" in changes
    assert offline.problems() == []
