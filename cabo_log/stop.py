"""Stopping a command cleanly on Ctrl-C or ``kill``: the first SIGINT or SIGTERM becomes
``Interrupted`` in the main thread, later ones are ignored, so the stop path it started (roll
back a batch, kill the workers, print one line) is never cut short.

Kept apart from the worker pool (``workers``) because every long command needs it, with or
without worker processes: ``load``, ``simulate``, ``timeline DIR``, ``analyse``.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType

# ``typing`` is not imported at run time: the console script imports this module before it
# catches a signal
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

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
    """The stop signal received inside ``stop_signals`` (or since ``install``), if any."""
    return _received


def _first_stop(signum: int, frame: FrameType | None) -> None:
    """The handler of SIGINT and SIGTERM: the first raises ``Interrupted`` in the main thread
    (or, while the process is ``_starting``, ends it at once), later ones are ignored (the
    stop path the first started is not cut short)."""
    global _received, _pending
    if _received is None:
        _received = signum
        if _starting:
            _end_now(signum)
        if _deferring:
            _pending = signum
            return
        raise Interrupted(signum)


_starting = False   # between ``install`` and ``started``: nothing to clean up yet
_deferring = False  # inside ``deferred``: the stop waits for the block's end
_pending: int | None = None   # the stop that came inside ``deferred``

NATIVE_PACKAGES = frozenset({"duckdb", "pyarrow"})
"""Packages whose first import runs Python code from native code that cannot take an exception
raised in it: DuckDB's extension aborts the process ("Critical nanobind error") or loses the
stop, so a stop signal during their import waits for its end (``_NativeImports``)."""


@contextmanager
def deferred() -> Iterator[None]:
    """Within the block the first SIGINT or SIGTERM is held, and raised as ``Interrupted``
    when the block ends (nested blocks: the outermost). Outside the main thread, or before
    ``install``, it does nothing."""
    global _deferring, _pending
    if _deferring or not _in_main_thread():
        yield
        return
    _deferring = True
    try:
        yield
    finally:
        _deferring = False
        signum, _pending = _pending, None
    if signum is not None:
        raise Interrupted(signum)


class _DeferredLoader:
    """A loader that runs its module's code inside ``deferred``."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: Any) -> Any:
        return self.loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        with deferred():
            self.loader.exec_module(module)

    def __getattr__(self, name: str) -> Any:   # the rest (resources, ``is_package``): as is
        return getattr(self.loader, name)


class _NativeImports:
    """On ``sys.meta_path``: the top-level packages of ``NATIVE_PACKAGES`` are imported by the
    finders after this one, their loader wrapped in ``_DeferredLoader``. Everything else is
    left to those finders (one set lookup per import)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name not in NATIVE_PACKAGES:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec: Any = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _DeferredLoader(spec.loader)
                return spec
        return None


def install() -> None:
    """For the whole process, the console script's first act (``launch.main``): a stop signal
    at any moment ends the command with one line and its status, instead of a traceback
    (SIGINT's ``KeyboardInterrupt``) or a silent death (SIGTERM's default).

    Until the command proper begins (``started``) the process only imports and parses, and
    has nothing to undo: a stop ends it at once (``_end_now``), with no exception to unwind,
    which could not be raised where the imports run code Python cannot raise from (the
    import lock's weakref callbacks: "Exception ignored", and the stop was lost). From then
    on the first SIGINT or SIGTERM raises ``Interrupted`` (the command's own stop path, or
    typer's exit, which ``launch`` turns into the line), later ones are ignored; a stop that
    Python had to drop all the same is sent again (``_dropped``), and one that comes while
    DuckDB or Arrow is first imported is raised when the import ends (``NATIVE_PACKAGES``).
    ``stop_signals`` blocks put the same handler in place for a while and this one back
    after."""
    global _received, _starting
    _received = None
    _starting = True
    sys.unraisablehook = _dropped(sys.unraisablehook)
    if not any(isinstance(finder, _NativeImports) for finder in sys.meta_path):
        sys.meta_path.insert(0, _NativeImports())
    for sig in STOP_SIGNALS:
        signal.signal(sig, _first_stop)


def started() -> None:
    """The command proper begins (its callback is about to run): a stop now raises
    ``Interrupted``, so that what the command does is undone or finished on its way out."""
    global _starting
    _starting = False


def _end_now(signum: int) -> NoReturn:
    """End the process now, saying why in one line (written straight to the file descriptor:
    the main thread may be in the middle of a write to ``sys.stderr``)."""
    verb = "terminated" if signum == signal.SIGTERM else "interrupted"
    try:
        os.write(2, f"cabo-log: {verb}\n".encode())
    except OSError:   # no stderr: the status says it
        pass
    os._exit(128 + signum)


def _dropped(hook: Callable[[Any], object]) -> Callable[[Any], object]:
    """``sys.unraisablehook`` wrapped: an ``Interrupted`` raised where Python cannot raise
    (a weakref callback, a finalizer) is not printed and lost, but made undelivered again and
    its signal sent once more a moment later, from a helper thread, so that the main thread
    raises it where it runs by then."""

    def unraisable(info: Any) -> object:
        global _received
        exc = getattr(info, "exc_value", None)
        if isinstance(exc, Interrupted) and _received == exc.signum:
            import threading

            _received = None
            resend = threading.Timer(0.01, os.kill, (os.getpid(), exc.signum))
            resend.daemon = True
            resend.start()
            return None
        return hook(info)

    return unraisable


def ignore() -> None:
    """From now on SIGINT and SIGTERM are ignored: the command is done (or has said it was
    stopped), and only the exit is left, which a late signal must not turn into a
    traceback."""
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)


def _in_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


@contextmanager
def stop_signals() -> Iterator[None]:
    """Within the block, the first SIGINT or SIGTERM raises ``Interrupted`` in the main thread;
    later ones are ignored (also after the block: the process is on its way out), so the stop
    path that the first one started is not cut short. Outside the main thread (where Python
    cannot catch signals) it does nothing."""
    global _received
    if not _in_main_thread():
        yield
        return
    _received = None
    before = {sig: signal.signal(sig, _first_stop) for sig in STOP_SIGNALS}
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
    if not _in_main_thread():
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


def stopped_by(exc: KeyboardInterrupt) -> Interrupted:
    """The stop a ``KeyboardInterrupt`` stands for (``interruption``, which is never None for
    one): its verb and exit status, for the line a command ends with."""
    return interruption(exc) or Interrupted(signal.SIGINT)


@contextmanager
def blocked(signals: Sequence[int]) -> Iterator[None]:
    """Within the block these signals wait (blocked in this thread and what it starts)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
