"""Stopping a command cleanly on Ctrl-C or ``kill``: the first SIGINT or SIGTERM becomes
``Interrupted`` in the main thread, later ones are ignored, so the stop path it started (roll
back a batch, kill the workers, print one line) is never cut short.

Kept apart from the worker pool (``workers``) because every long command needs it, with or
without worker processes: ``load``, ``simulate``, ``timeline DIR``, ``analyse``.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import FrameType

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived: the command stops. ``exit_code`` is the shell's 128 + signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum

    @property
    def verb(self) -> str:
        return "terminated" if self.signum == signal.SIGTERM else "interrupted"


_received: int | None = None


def received() -> int | None:
    """The stop signal received inside ``stop_signals``, if any."""
    return _received


@contextmanager
def stop_signals() -> Iterator[None]:
    """Within the block, the first SIGINT or SIGTERM raises ``Interrupted`` in the main thread;
    later ones are ignored (also after the block: the process is on its way out), so the stop
    path that the first one started is not cut short. Outside the main thread (where Python
    cannot catch signals) it does nothing."""
    global _received
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        global _received
        if _received is None:
            _received = signum
            raise Interrupted(signum)

    _received = None
    before = {sig: signal.signal(sig, handler) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, old in before.items():
            # once stopping, stay deaf: a second Ctrl-C must not cut the exit short
            signal.signal(sig, old if _received is None else signal.SIG_IGN)


@contextmanager
def deaf() -> Iterator[None]:
    """Within the block SIGINT and SIGTERM are ignored: the work they would stop is done, and
    what is left (a summary to print) is better finished than cut short."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {sig: signal.signal(sig, signal.SIG_IGN) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, old in before.items():
            signal.signal(sig, old)


def interruption(exc: BaseException) -> Interrupted | None:
    """``exc`` as the stop it stands for: an ``Interrupted`` as is, any other exception raised
    while a stop signal was being handled (a library may wrap the interruption in its own
    error) as ``Interrupted`` of that signal, a bare KeyboardInterrupt as SIGINT."""
    if isinstance(exc, Interrupted):
        return exc
    if _received is not None:
        return Interrupted(_received)
    if isinstance(exc, KeyboardInterrupt):
        return Interrupted(signal.SIGINT)
    return None


@contextmanager
def blocked(signals: Sequence[int]) -> Iterator[None]:
    """Within the block these signals wait (blocked in this thread and what it starts)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
