"""The three kinds of thing that can be wrong with a log, after python-chess's error types.

Every error carries a stable ``code`` (documented in docs/errors.md, pinned by tests) and a
sentence a player understands. The engine knows nothing of files, so ``file`` and ``line`` are
filled in by whoever read the log (``cabo_log.replay``), which keeps the engine free of I/O.
"""

from __future__ import annotations


class CaboLogError(ValueError):
    """Base of every error a log can produce; never raised directly."""

    kind = "error"

    def __init__(self, code: str, message: str, line: int | None = None,
                 file: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.file = file

    def located(self, file: str | None, line: int | None) -> CaboLogError:
        """Attach where the error was found; returns self so it can be re-raised."""
        if self.file is None:
            self.file = file
        if self.line is None:
            self.line = line
        return self

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}:"
        if self.line is not None:
            where += f"{self.line}:"
        return f"{where} {self.code}: {self.message}" if where else f"{self.code}: {self.message}"


class LogSyntaxError(CaboLogError):
    """A line is not a well-formed event: not JSON, not an object, a field missing or mistyped."""

    kind = "syntax"


class IllegalEventError(CaboLogError):
    """A well-formed event that the rules do not allow at this point of the game."""

    kind = "illegal"


class InconsistentLogError(CaboLogError):
    """The log contradicts itself or the cards: wrong deal, wrong card drawn, seq gap, bad claim."""

    kind = "inconsistent"


class RulesetError(CaboLogError):
    """The header names an unknown ruleset, an option it does not have, or a bad house rule."""

    kind = "ruleset"
