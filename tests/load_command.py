"""The ``cabo-log`` command line run in a child process (``python -c``) with a load tuned by
the test: the command itself takes no tuning, so the child wraps ``load.load_paths`` and
``load.start_workers`` (which the command imports when it runs) with the given
``LoadSettings`` before it runs ``launch.main``."""

from __future__ import annotations

from typing import Any


def tuned_command(**settings: Any) -> str:
    """The child's program: ``cabo-log ARGS`` whose loads run with ``LoadSettings(**settings)``."""
    return ("import sys; from functools import partial; from cabo_log.db import load; "
            "from cabo_log.db.settings import LoadSettings; "
            f"tuned = LoadSettings(**{settings!r}); "
            "load.load_paths = partial(load.load_paths, settings=tuned); "
            "load.start_workers = partial(load.start_workers, settings=tuned); "
            "from cabo_log.launch import main; sys.argv[0] = 'cabo-log'; main()")
