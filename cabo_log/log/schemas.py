"""Access to the JSON Schema of the cabo-log format, shipped as package data."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

SCHEMA_NAME = "cabo-log-1.schema.json"


def schema_text() -> str:
    """Return the text of the shipped cabo-log/1 JSON Schema (one event line)."""
    return (files("cabo_log") / "schema" / SCHEMA_NAME).read_text(encoding="utf-8")


def load_schema() -> dict[str, Any]:
    """Return the shipped cabo-log/1 JSON Schema as a dict."""
    schema: dict[str, Any] = json.loads(schema_text())
    return schema
