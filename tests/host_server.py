"""Shared by the tests of ``cabo-log host``: the app on uvicorn in a thread, on a free local
port, stopped (and its tables' logs closed) by ``stop``."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import uvicorn

from cabo_log.pages.table.app import create_app
from cabo_log.pages.table.clock import Timing
from cabo_log.pages.table.host import Host, HostSettings


class Running:
    def __init__(self, directory: Path, timing: Timing, *, db: Path | None = None,
                 tick: float = 0.05) -> None:
        self.host = Host(HostSettings(directory, db=db, timing=timing,
                                      step_choices=(0, 1, 2, 30, 60, 90), tick=tick))
        self.problems = self.host.resume_all()
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port: int = sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(create_app(self.host), log_level="warning", ws_max_size=65536)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]},
                                       daemon=True)
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < end and self.thread.is_alive(), "the host did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        assert not self.thread.is_alive(), "the host did not stop"


def wait_for(check: object, seconds: float = 15.0, what: str = "a condition") -> None:
    end = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)
