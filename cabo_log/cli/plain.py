"""``--help`` as prose: plain metavars (``FILE``, ``PATH...``, ``INTEGER``, no ``<bool>`` for a
flag), ranges in words, every command's sentence whole.

The help is click's plain layout (the app sets ``rich_markup_mode=None``): Rich's boxes cut
every help text into a narrow column, and its markup swallowed any ``[...]`` of a text.
Typer's own help prints the Python type of every parameter (``<bool>``, ``<list[Path]>``) and
braces around required arguments (``{file}``), which reads like a template, not a command;
its ranges read ``x>=1``. This module restores the usual Unix conventions by overriding a few
display methods of Typer's parameter classes for this process. It only changes how help is
printed, never how arguments are parsed; on a Typer without these methods it does nothing.
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


def _range(self: Any) -> str | None:
    """A number option's bounds in words ("at least 1"), where Typer writes ``x>=1``."""
    low, high = getattr(self, "min", None), getattr(self, "max", None)
    if getattr(self, "count", False) and low == 0 and high is None:
        return None
    if low is not None and high is not None:
        return f"{low} to {high}"
    if low is not None:
        return f"at least {low}"
    return f"at most {high}" if high is not None else None


def first_sentence(text: str) -> str:
    """A command's line in the list of commands: its help's first sentence, whole."""
    paragraph = " ".join(text.strip().split("\n\n")[0].split())
    end = paragraph.find(". ")
    return paragraph if end < 0 else paragraph[:end + 1]


class CommandList(core.TyperGroup):
    """The app's group: ``cabo-log --help`` lists each command with its first sentence whole
    (click cuts it at the terminal's width, mid-sentence, with "...")."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, first_sentence(command.help or "")))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


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
    for kind in (arg, opt):
        if hasattr(kind, "_get_number_range_help_str"):
            kind._get_number_range_help_str = _range
