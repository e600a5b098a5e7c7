"""Shared by the browser tests: pytest-playwright driving Debian's Chromium (no browser
download), with every page watched for console errors, uncaught exceptions and dialogs, and
the network closed to everything but the pages' own origin.

Without a Chromium binary the tests skip (they fail instead when ``CABO_REQUIRE_BROWSER`` is
set); CI installs one with ``.ci/install-browser``. ``CABO_CHROMIUM`` names another binary.
Screenshots go to ``artifacts/`` (gitignored).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
LOCAL = ("file:", "data:", "blob:", "about:")


def chromium_binary() -> str | None:
    given = os.environ.get("CABO_CHROMIUM")
    if given:
        return given
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch options, pointed at the system's Chromium."""
    binary = chromium_binary()
    if binary is None:
        reason = "no Chromium found (install it with .ci/install-browser, or set CABO_CHROMIUM)"
        if os.environ.get("CABO_REQUIRE_BROWSER"):
            pytest.fail(reason + "; CABO_REQUIRE_BROWSER is set")
        pytest.skip(reason)
    return {**browser_type_launch_args, "executable_path": binary,
            "args": ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1400, "height": 1000}}


@dataclass
class Watch:
    """What a page did that a test should see: problems, and the requests it tried."""

    problems: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def clear(self) -> None:
        self.problems.clear()
        self.requests.clear()
        self.blocked.clear()
        self.dialogs.clear()


def watch(page: Any, allowed: Callable[[str], bool] | None) -> Watch:
    """Record console errors, page errors and dialogs (dismissed); abort every request for
    which ``allowed`` says no (``None``: the network stays open)."""
    w = Watch()

    def on_console(msg: Any) -> None:
        if msg.type in ("error", "assert"):
            w.problems.append(f"console.{msg.type}: {msg.text}")

    def on_dialog(dialog: Any) -> None:
        w.dialogs.append(dialog.message)
        w.problems.append(f"dialog: {dialog.type} {dialog.message!r}")
        dialog.dismiss()

    def on_route(route: Any) -> None:
        url = route.request.url
        w.requests.append(url)
        if allowed is None or allowed(url):
            route.continue_()
        else:
            w.blocked.append(url)
            route.abort("blockedbyclient")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: w.problems.append(f"exception: {exc}"))
    page.on("dialog", on_dialog)
    page.route("**/*", on_route)
    return w


def offline_only(url: str) -> bool:
    return url.startswith(LOCAL)


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


@pytest.fixture
def offline(page: Any) -> Iterator[tuple[Any, Watch]]:
    """A page that can load only local files."""
    yield page, watch(page, offline_only)
