"""Fixtures shared by several test modules."""

from __future__ import annotations

from pathlib import Path

import pytest
from compiled_build import site_or_skip


@pytest.fixture(scope="session")
def compiled() -> Path:
    """The folder holding the compiled build (``make compiled``), first on the path of the
    processes that run it."""
    return site_or_skip()
