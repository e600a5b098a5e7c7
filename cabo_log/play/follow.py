"""``cabo-log replay --follow``: replay a log while it is being written, like ``tail -f``.

The follower reads whatever whole lines have been added since it last looked (a line without its
newline yet is left for later: the writer may be in the middle of it), checks each exactly as a
replay does (chain first, then the rules) and tells it in words with the state after it. The
state is kept between polls, so following costs one ``apply`` per new line, made in the
replay's one loop with a visitor (``FollowedSteps``) that keeps each line's words.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from cabo_log.log.chain import check_line, declared
from cabo_log.log.fastlines import apply_events
from cabo_log.log.lock import WriterError
from cabo_log.log.logfile import decode_line
from cabo_log.log.render import turn_number
from cabo_log.log.words import Narrator, card_label
from engine import (
    CaboLogError,
    Event,
    GameStart,
    GameState,
    LogSyntaxError,
    Outcome,
    new_game,
    parse_event,
)


@dataclass(frozen=True)
class Followed:
    """One new line: its number, the event, what it did in words and the state after it."""

    line: int
    event: Event
    text: str
    status: str


def status(g: GameState) -> str:
    """The state in one line: where the match stands after an event."""
    scores = ", ".join(f"{p} {s}" for p, s in g.cumulative_by_name().items())
    if g.complete:
        return f"match over, winners {', '.join(g.winners)}; scores {scores}"
    to_play = g.current_player()
    if to_play is None:
        return f"round {g.round_no()} over; scores {scores}" if g.round_no() else "no round yet"
    return (f"round {g.round_no()}, turn {turn_number(g.turn(), g.phase)}: {to_play} to play "
            f"({g.phase.replace('_', ' ')}), draw pile {g.deck_size()}, "
            f"discard {_label(g.discard_top())}; scores {scores}")


def _label(code: str | None) -> str:
    return card_label(code) if code is not None else "-"


class FollowedSteps(Narrator):
    """The replay visitor of a follow: each event in words (``Narrator``) with the state after
    it, kept as a ``Followed`` until the follower hands it out."""

    def __init__(self, viewer: str | None = None) -> None:
        super().__init__(viewer)
        self.steps: list[Followed] = []

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        super().event(line, event, state, outcome)
        self.steps.append(Followed(line, event, self.text, status(state)))

    def taken(self) -> list[Followed]:
        steps, self.steps = self.steps, []
        return steps


class Follower:
    """Reads a growing log file incrementally; ``poll()`` returns the lines added since.

    The new lines are checked one by one as they are read (the chain first, then the line),
    then applied in the replay's one loop (``fastlines.apply_events``) with ``FollowedSteps``
    as its visitor."""

    def __init__(self, path: str | os.PathLike[str], viewer: str | None = None) -> None:
        self.path = Path(path)
        self.file = str(path)
        self.offset = 0
        self.line = 0
        self.state: GameState | None = None
        self.words = FollowedSteps(viewer)  # with a viewer: words that player could say
        self._previous = b""
        self._chained: bool | None = None

    @property
    def done(self) -> bool:
        return self.state is not None and self.state.complete

    def poll(self) -> list[Followed]:
        with self.path.open("rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < self.offset:
                raise WriterError("file_changed", "the file got shorter while being "
                                  "followed").located(self.file, self.line)
            f.seek(self.offset)
            data = f.read(size - self.offset)
        end = data.rfind(b"\n") + 1
        self.offset += end
        events: list[Event] = []
        numbers: list[int] = []
        error: CaboLogError | None = None
        for raw in data[:end].split(b"\n")[:-1]:
            self.line += 1
            try:
                event = self._read(raw)
            except CaboLogError as exc:
                error = exc.located(self.file, self.line)
                break
            if event is not None:
                events.append(event)
                numbers.append(self.line)
        if events:
            assert self.state is not None
            reached, _, refused = apply_events(self.state, events, [], self.words, None, numbers)
            if refused is not None:
                raise refused.located(self.file, numbers[reached - 1]) from None
        if error is not None:
            raise error
        return self.words.taken()

    def _read(self, raw: bytes) -> Event | None:
        """One line checked and read: the event to apply, or None (a blank line, or the
        header, which starts the state and the words)."""
        if not raw.strip():
            return None
        if self.state is not None:
            self._chained = check_line(self._previous, raw, self._chained)
        obj = decode_line(raw)
        self._previous = raw
        event = parse_event(obj)
        if self.state is not None:
            return event
        if not isinstance(event, GameStart):
            raise LogSyntaxError("no_header", "the first line must be the 'game' header")
        self.state = new_game(event)
        if declared(obj):
            self._chained = True   # the header declares its chain (format 1.1)
        self.words.begin(self.state, event)
        self.words.steps.append(Followed(self.line, event, self.words.text, status(self.state)))
        return None


def follow(path: str | os.PathLike[str], *, viewer: str | None = None, interval: float = 0.2,
           stop: Callable[[], bool] | None = None) -> Iterator[Followed]:
    """Every line of the log as it arrives, until the match ends (then the lines already
    written after it, such as claims) or ``stop()`` says so; ``viewer`` tells the events as
    that player saw them."""
    follower = Follower(path, viewer)
    while True:
        yield from follower.poll()
        if follower.done or (stop is not None and stop()):
            yield from follower.poll()
            return
        time.sleep(interval)
