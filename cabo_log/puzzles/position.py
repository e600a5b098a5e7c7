"""A puzzle's position: the table right before the decision, as its player saw it.

The log is replayed (``analysis.decisions.read_decisions``, the reader the analysis itself used)
and the decision at the puzzle's ``seq`` is taken; what the page may show is the engine's
observation for that player's seat (``GameState.observation``), nothing else: a card the player
did not know is ``None`` there, and is drawn face down.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cabo_log.analysis.decisions import Decision, option_key, read_decisions
from cabo_log.puzzles.selection import OptionFigure, PuzzleError, PuzzleRef
from engine import CaboLogError, parse_event
from engine.knowledge import Observation


@dataclass(frozen=True)
class Position:
    """What a puzzle shows: the player's observation, the rules' card values, the options."""

    ref: PuzzleRef
    seat: int
    view: Observation
    values: dict[str, int]           # card code -> points, by the game's rules
    options: list[OptionFigure]      # in the analysis's order


def position(ref: PuzzleRef, source: str | None, options: list[OptionFigure]) -> Position:
    """The puzzle's table from its log (PuzzleError with a sentence when the log is gone or
    no longer shows that decision)."""
    path = Path(source) if source else None
    if path is None or not path.is_file():
        raise PuzzleError(f"game {ref.game_id!r} was loaded from {source}, which is no longer "
                          "there: load it again from where it is now")
    st = path.stat()
    decision = _decision(str(path), st.st_size, st.st_mtime_ns, ref.seq)
    if decision is None or decision.player != ref.player:
        raise PuzzleError(f"{path} no longer has the decision at seq {ref.seq}: load and "
                          "analyse it again")
    stored = [option_key(parse_event(o.move)) for o in options]
    if stored != [option_key(m) for m in decision.options]:
        raise PuzzleError(f"{path} changed since it was analysed: load and analyse it again")
    g = decision.state
    return Position(ref, decision.seat, g.observation(decision.seat), g.rules.values(),
                    options)


@lru_cache(maxsize=64)
def _decision(path: str, size: int, mtime_ns: int, seq: int) -> Decision | None:
    """The decision at ``seq`` of this version of the file (None: there is none)."""
    try:
        record = read_decisions(Path(path).read_bytes(), path)
    except (OSError, CaboLogError, ValueError) as exc:
        raise PuzzleError(f"{path} cannot be read as a game: {exc}") from None
    return next((d for d in record.decisions if d.seq == seq), None)
