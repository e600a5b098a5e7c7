"""Fixtures shared by several test modules."""

from __future__ import annotations

from pathlib import Path

import pytest
from compiled_build import build_or_skip


@pytest.fixture(scope="session")
def compiled() -> Path:
    """The optional mypyc build (``make compiled``), built once per test session."""
    return build_or_skip()
