"""A one-line progress bar written to a stream (the simulator's games, the analysis's
decisions): below the CLI, so library code that runs long can show how far it is."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Drawn at most every 0.2 s and only after 0.5 s, so short runs print nothing."""

    def __init__(self, total: int, stream: TextIO = sys.stderr, *, unit: str = "items",
                 width: int = 30) -> None:
        self.total, self.stream, self.unit, self.width = total, stream, unit, width
        self.started = time.perf_counter()
        self.drawn_at = 0.0
        self.shown = False

    def update(self, done: int) -> None:
        now = time.perf_counter()
        elapsed = now - self.started
        if done < self.total and (elapsed < 0.5 or now - self.drawn_at < 0.2):
            return
        if not self.shown and elapsed < 0.5:
            return
        self.drawn_at, self.shown = now, True
        filled = self.width * done // max(self.total, 1)
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else 0.0
        shown_rate = f"{rate:.1f}" if rate < 10 else f"{rate:.0f}"
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] "
                          f"{done}/{self.total} {self.unit}  {shown_rate}/s  ETA {left:.0f} s ")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
        self.shown = False
