"""What each viewer of a hosted table reads in its feed: every event in words as that viewer
saw it (``log.words``), and the table's own lines (joins, departures).

A spectator's feed (``None``) names only the cards lying face up (``PublicWords``); in assisted
mode each person has a feed of their own, in the words of what they saw; in classic mode the
people read the spectators' feed and remember their cards themselves.
"""

from __future__ import annotations

from collections import deque

from cabo_log.log.words import EventWords
from engine import Event, GameState, Outcome
from engine.events import GameEnd, RoundEnd

FEED_LINES = 200   # the lines a feed keeps
SHOWN_LINES = 40   # the last of them a page shows


class PublicWords(EventWords):
    """Words that name only the cards lying face up (a seat nobody holds sees nothing else)."""

    def start(self, state: GameState) -> None:
        self.seat = len(state.players)
        super().start(state)
        self.seat = len(state.players)


class Feeds:
    """The feeds of one table, by viewer (``None``: the spectators'); ``feeds[viewer]`` is
    that viewer's lines, the oldest first."""

    def __init__(self, state: GameState, own: list[str]) -> None:
        """``own``: the people who get a feed of their own (assisted mode's persons)."""
        self.lines: dict[str | None, deque[str]] = {None: deque(maxlen=FEED_LINES)}
        self.words: dict[str | None, EventWords] = {None: PublicWords()}
        for name in own:
            self.lines[name] = deque(maxlen=FEED_LINES)
            self.words[name] = EventWords(name)
        for words in self.words.values():
            words.start(state)

    def __getitem__(self, viewer: str | None) -> deque[str]:
        return self.lines[viewer]

    def tell(self, event: Event, state: GameState, done: Outcome) -> None:
        """An event was applied (``state`` is after it): each feed gets it in its viewer's
        words (the log's claims of a round's or the match's result are bookkeeping, untold)."""
        if not isinstance(event, (RoundEnd, GameEnd)):
            for viewer, words in self.words.items():
                self.lines[viewer].append(words.tell(event, state, done))
        for words in self.words.values():
            words.moved_on(state)

    def say(self, text: str) -> None:
        """A line of the table's own in every feed."""
        for feed in self.lines.values():
            feed.append(text)

    def shown(self, name: str | None) -> list[str]:
        """The last lines of ``name``'s feed (the spectators' for whoever has none)."""
        feed = self.lines.get(name if name in self.lines else None, self.lines[None])
        return list(feed)[-SHOWN_LINES:]
