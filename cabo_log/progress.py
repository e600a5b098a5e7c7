"""The one progress bar of cabo-log: a single line on stderr, redrawn in place, for whatever
runs long (``load``'s files, ``timeline DIR``'s pages, the simulator's games, the analysis's
decisions).

It sits below the CLI so library code can report how far it is; the command decides whether
there is a bar at all (``on_terminal``: only when stderr is a terminal, unless asked). A short
run prints nothing: the bar appears after half a second and is redrawn at most five times a
second, so it never costs more than the work it reports on.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["Progress"]

FIRST_DRAW = 0.5     # seconds of work before the bar appears
REDRAW = 0.2         # seconds between two drawings


class Progress:
    """``total`` things to do (0 until ``start`` says), counted by ``update`` (the count done)
    or ``advance`` (the count just done); ``close`` ends the line, whatever happened, so a
    stopped command leaves the terminal's line clean. With no ``stream`` it draws nothing."""

    def __init__(self, total: int = 0, stream: TextIO | None = sys.stderr, *,
                 unit: str = "items", label: str = "", width: int = 30,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.total, self.stream, self.unit, self.width = total, stream, unit, width
        self.label = f"{label} " if label else ""
        self.clock = clock
        self.started = clock()
        self.drawn_at = 0.0
        self.done = 0
        self.shown = False
        self.drawn_width = 0

    @classmethod
    def on_terminal(cls, enabled: bool = True, *, unit: str, label: str = "") -> Progress:
        """A bar on stderr when ``enabled`` and stderr is a terminal; else one that draws
        nothing (a pipe or a log file gets no carriage returns)."""
        stream = sys.stderr if enabled and sys.stderr.isatty() else None
        return cls(0, stream, unit=unit, label=label)

    def start(self, total: int) -> None:
        """The total became known (e.g. once the files to load are counted)."""
        self.total = total
        self.started = self.clock()

    def advance(self, count: int = 1) -> None:
        self.update(self.done + count)

    def update(self, done: int) -> None:
        self.done = done
        if self.stream is None:
            return
        now = self.clock()
        elapsed = now - self.started
        if elapsed < FIRST_DRAW or (done < self.total and now - self.drawn_at < REDRAW):
            return
        self.drawn_at, self.shown = now, True
        self._draw(done, elapsed)

    def _draw(self, done: int, elapsed: float) -> None:
        assert self.stream is not None
        filled = self.width * min(done, self.total) // max(self.total, 1)
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else 0.0
        shown_rate = f"{rate:.1f}" if rate < 10 else f"{rate:.0f}"
        text = (f"{self.label}[{'#' * filled}{'.' * (self.width - filled)}] "
                f"{done}/{self.total} {self.unit}  {shown_rate}/s  ETA {max(left, 0):.0f} s")
        pad = " " * max(0, self.drawn_width - len(text))     # wipe a longer previous line
        self.drawn_width = len(text)
        self.stream.write(f"\r{text}{pad}")
        self.stream.flush()

    def close(self) -> None:
        if self.shown and self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()
        self.shown = False
