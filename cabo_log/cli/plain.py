"""Plain metavars in ``--help``: ``FILE``, ``PATH...``, ``INTEGER``, no ``<bool>`` for a flag.

Typer's own help prints the Python type of every parameter (``<bool>``, ``<list[Path]>``) and
braces around required arguments (``{file}``), which reads like a template, not a command.
This module restores the usual Unix conventions by overriding four display methods of Typer's
parameter classes for this process. It only changes how help is printed, never how arguments
are parsed; on a Typer without these methods it does nothing.
"""

from __future__ import annotations

from typing import Any

from typer import core

# Typer's type labels (what it would print between <>) -> the conventional metavar.
_LABELS = {"int": "INTEGER", "int range": "INTEGER", "float": "FLOAT", "float range": "FLOAT",
           "str": "TEXT", "path": "PATH", "file": "FILE", "directory": "DIR", "bool": "BOOLEAN"}


def _label(param: Any, ctx: Any) -> str:
    raw = str(_ORIGINAL_DISPLAY_TYPE(param, ctx)).strip("<>")
    if raw.startswith("list[") and raw.endswith("]"):
        raw = raw[5:-1]
    if "|" in raw:                                      # choices: [edition1|edition2|...]
        return f"[{raw}]"
    return _LABELS.get(raw.lower(), raw.upper())


def _argument_name(param: Any) -> str:
    return str(param.metavar) if param.metavar is not None else str(param.name).upper()


def _argument_usage(self: Any) -> str:
    name = _argument_name(self)
    if self.nargs != 1 and not name.endswith("..."):
        name += "..."
    return name if self.required else f"[{name}]"


def _argument_type(self: Any, ctx: Any) -> str | None:
    return None                                         # the name (FILE, PATH...) says it


def _option_type(self: Any, ctx: Any) -> str | None:
    if self.metavar is not None:
        return str(self.metavar)
    if getattr(self, "is_flag", False) or getattr(self, "count", False):
        return None
    return _label(self, ctx)


_ORIGINAL_DISPLAY_TYPE: Any = getattr(core.TyperOption, "display_type", None)


def install() -> None:
    """Switch Typer's help to plain metavars (idempotent)."""
    if _ORIGINAL_DISPLAY_TYPE is None or not hasattr(core.TyperArgument, "_usage_display_name"):
        return
    arg: Any = core.TyperArgument
    opt: Any = core.TyperOption
    arg._usage_display_name = _argument_usage
    arg.display_name_raw = property(_argument_name)
    arg.display_type_rich = _argument_type
    opt.display_type_rich = _option_type
