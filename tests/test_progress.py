"""The one progress bar (``cabo_log.progress``): a single line redrawn in place, nothing for a
short run, nothing at all when stderr is not a terminal (unless the command asks for it)."""

from __future__ import annotations

import io
import sys

import pytest

from cabo_log.progress import Progress


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def bar(total: int, stream: io.StringIO, clock: Clock, **kw: str) -> Progress:
    return Progress(total, stream, clock=clock, **kw)  # type: ignore[arg-type]


def test_one_line_redrawn_in_place() -> None:
    out, clock = io.StringIO(), Clock()
    p = bar(10, out, clock, unit="games")
    for done in range(1, 11):
        clock.now += 0.25
        p.update(done)
    p.close()
    text = out.getvalue()
    assert text.count("\n") == 1 and text.endswith("\n")          # one line, ended once
    drawn = text[:-1].split("\r")[1:]
    assert len(drawn) == 9                 # from 0.5 s on, every 0.25 s (> the 0.2 s gap)
    assert drawn[-1].rstrip() == "[" + "#" * 30 + "] 10/10 games  4.0/s  ETA 0 s"
    assert drawn[0].startswith("[######" + "." * 24 + "] 2/10 games")


def test_a_short_run_prints_nothing() -> None:
    out, clock = io.StringIO(), Clock()
    p = bar(3, out, clock)
    for done in range(1, 4):
        clock.now += 0.1
        p.update(done)
    p.close()
    assert out.getvalue() == ""


def test_redraws_are_spaced_and_the_last_count_always_shows() -> None:
    out, clock = io.StringIO(), Clock()
    p = bar(100, out, clock, unit="files", label="loading")
    p.start(100)
    clock.now += 1.0
    for _ in range(1, 100):          # no time passes: one drawing, not 99
        p.advance()
    p.advance()                      # the last one is drawn anyway
    p.close()
    drawn = out.getvalue().rstrip("\n").split("\r")[1:]
    assert [d.split("] ")[1].split(" files")[0] for d in drawn] == ["1/100", "100/100"]
    assert all(d.startswith("loading [") for d in drawn)


def test_a_shorter_line_wipes_the_longer_one_before_it() -> None:
    out, clock = io.StringIO(), Clock()
    p = bar(2000, out, clock)
    clock.now += 0.6
    p.update(1)          # slow at first: ETA 1199 s ...
    clock.now += 0.4
    p.update(9)          # ... then ETA 221 s: a character shorter
    first, second = out.getvalue().split("\r")[1:]
    assert first.endswith("ETA 1199 s")
    assert second.rstrip().endswith("ETA 221 s") and len(second) == len(first)


def test_not_a_terminal_draws_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    piped = io.StringIO()
    monkeypatch.setattr(sys, "stderr", piped)
    p = Progress.on_terminal(unit="pages")
    p.start(2)
    p.started -= 10
    p.advance(2)
    p.close()
    assert piped.getvalue() == "" and p.done == 2


def test_a_terminal_gets_the_bar_unless_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    assert Progress.on_terminal(False, unit="files").stream is None
    p = Progress.on_terminal(unit="files", label="loading")
    p.start(4)
    p.started -= 10
    p.advance(4)
    p.close()
    assert tty.getvalue().startswith("\rloading [") and tty.getvalue().endswith("files  0.4/s  "
                                                                                 "ETA 0 s\n")
