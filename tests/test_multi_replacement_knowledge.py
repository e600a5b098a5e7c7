"""No bot makes a multi-replacement it knows must fail, and the report counts what the logs show.

The knowledge here is computed a second, independent way: ``Tracker`` follows every card of a
log from the JSON lines alone (who saw it, where it went), without the engine's ``known`` bits
or the loader's ``RowCollector``. It decides whether the player knew every listed card before
a ``replace`` and whether the cards' values matched. Over a few hundred simulated matches per
ruleset (``expert`` at the table in some), every replacement of known cards succeeds, the
expert lists only cards it knows, and ``multi_replacement_outcomes`` loaded into DuckDB equals
the tracker's count.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pytest

from cabo_log.db import reports
from cabo_log.db.load import load_paths
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game
from engine.rulesets import Ruleset, resolve

# ruleset -> (players, options, bots, games): short targets keep a few hundred matches fast.
CORPORA: dict[str, tuple[int, dict[str, Any], str, int]] = {
    "edition1": (3, {"target": 30}, "greedy,cautious,random", 160),
    "edition2": (3, {"target": 30}, "cautious,greedy,random", 160),
    "online": (3, {"target": 30}, "random,greedy,cautious", 160),
}
# and some matches with the expert at the table (it never lists a card it does not know)
EXPERT_GAMES: dict[str, tuple[int, dict[str, Any], str, int]] = {
    "edition1": (3, {"target": 30}, "expert,greedy,random", 60),
    "edition2": (3, {"target": 30}, "greedy,expert,cautious", 40),
    "online": (3, {"target": 30}, "expert,random,greedy", 40),
}


@dataclass
class Card:
    code: str
    seen_by: set[str] = field(default_factory=set)
    public: bool = False

    def known_to(self, player: str) -> bool:
        return self.public or player in self.seen_by


class Tracker:
    """Every card of one log and who has seen it, replayed from the lines alone."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.values = rules.values()
        self.rows: dict[str, list[Card]] = {}
        self.deck: list[Card] = []       # top first, as the log writes it
        self.pile: list[Card] = []       # top last
        self.drawn: Card | None = None
        self.holder: str | None = None
        self.peeked: set[str] = set()
        self.started = False
        self.bots: dict[str, str] = {}
        # (cards listed, knew all of them, success, bot) for every multi-replacement
        self.multis: list[tuple[int, bool, bool, str]] = []

    def event(self, e: dict[str, Any]) -> None:
        kind = e["type"]
        if kind == "game":
            self.bots = e["bots"]
            return
        if kind != "deal" and kind != "peek" and not self.started:
            self._fixed_peeks()
        getattr(self, "_" + kind, lambda e: None)(e)

    def _deal(self, e: dict[str, Any]) -> None:
        self.rows = {p: [Card(c) for c in hand] for p, hand in e["hands"].items()}
        self.pile = [Card(e["discard"], public=True)]
        self.deck = [Card(c) for c in e["deck"]]
        self.peeked = set()
        self.started = False

    def _fixed_peeks(self) -> None:
        """Where the ruleset fixes the peeked positions, a player with no `peek` line saw them."""
        self.started = True
        if self.rules.peek_positions is None:
            return
        for player, row in self.rows.items():
            if player not in self.peeked:
                for pos in self.rules.peek_positions:
                    row[pos].seen_by.add(player)

    def _peek(self, e: dict[str, Any]) -> None:
        self.peeked.add(e["player"])
        for pos in e["positions"]:
            self.rows[e["player"]][pos].seen_by.add(e["player"])

    def _draw(self, e: dict[str, Any]) -> None:
        if e["source"] == "deck":
            card = self.deck.pop(0)
            card.seen_by.add(e["player"])
        else:
            card = self.pile.pop()
            card.public = True
        self.drawn, self.holder = card, e["player"]

    def _discard(self, e: dict[str, Any]) -> None:
        assert self.drawn is not None
        self.drawn.public = True
        self.pile.append(self.drawn)
        self.drawn = None

    def _replace(self, e: dict[str, Any]) -> None:
        player, positions = e["player"], e["positions"]
        row, drawn = self.rows[player], self.drawn
        assert drawn is not None
        listed = [row[p] for p in positions]
        success = len({self.values[c.code] for c in listed}) == 1
        if len(positions) > 1:
            self.multis.append((len(positions), all(c.known_to(player) for c in listed),
                                success, self.bots[player]))
        for card in listed:
            card.public = True
        if success:
            into = e.get("into", positions[0])
            self.rows[player] = [drawn if i == into else c for i, c in enumerate(row)
                                 if i == into or i not in positions]
            self.pile.extend(listed)
        else:
            if self.rules.choose_failed_end and e.get("end") == "left":
                row.insert(0, drawn)
            else:
                row.append(drawn)
            if len(positions) >= self.rules.failed_penalty_from and self.deck:
                row.append(self.deck.pop(0))
        self.drawn = None

    def _power(self, e: dict[str, Any]) -> None:
        if e["power"] == "swap":
            (a, i), (b, j) = e["cards"]
            self.rows[a][i], self.rows[b][j] = self.rows[b][j], self.rows[a][i]
        else:
            name, pos = e["target"]
            self.rows[name][pos].seen_by.add(e["player"])

    def _reshuffle(self, e: dict[str, Any]) -> None:
        self.deck = [Card(c) for c in e["deck"]]
        self.pile = self.pile[-1:]

    def _forfeit(self, e: dict[str, Any]) -> None:
        if self.drawn is not None and self.holder == e["player"]:
            self.drawn.public = True
            self.pile.append(self.drawn)
            self.drawn = None
        self.rows.pop(e["player"], None)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Tracker]]:
    folder = tmp_path_factory.mktemp("multi")
    trackers: dict[str, Tracker] = {}
    for kind, corpora in (("bots", CORPORA), ("expert", EXPERT_GAMES)):
        for ruleset, (players, options, bots, games) in corpora.items():
            tracker = trackers.setdefault(ruleset, Tracker(resolve(ruleset, options)))
            for i in range(games):
                game_id = f"{ruleset}-{kind}-{i}"
                events = simulate_game(ruleset, players=players, seed=i, options=options,
                                       bots=bots, game_id=game_id)
                for e in events:
                    tracker.event(e)
                (folder / f"{game_id}.jsonl").write_bytes(b"".join(map(dumps_event, events)))
    db = folder / "multi.duckdb"
    load_paths([folder], db, jobs=1)
    return db, trackers


def test_no_bot_fails_a_multi_replacement_it_knows(
        corpus: tuple[Path, dict[str, Tracker]]) -> None:
    _, trackers = corpus
    for ruleset, tracker in trackers.items():
        knowing = [success for _, knew, success, _ in tracker.multis if knew]
        guessing = [success for _, knew, success, _ in tracker.multis if not knew]
        assert len(knowing) > 100, ruleset            # the bots do pair up known cards
        assert all(knowing), f"{ruleset}: {knowing.count(False)} knowing failures"
        assert guessing and not all(guessing), ruleset   # and guesses still fail sometimes
        expert = [(knew, success) for _, knew, success, bot in tracker.multis
                  if bot == "expert"]
        assert len(expert) > 10 and set(expert) == {(True, True)}, ruleset


def test_the_report_agrees_with_the_logs(corpus: tuple[Path, dict[str, Tracker]]) -> None:
    db, trackers = corpus
    expected: dict[tuple[str, int, bool], Counter[str]] = {}
    for ruleset, tracker in trackers.items():
        for cards, knew, success, _ in tracker.multis:
            count = expected.setdefault((ruleset, cards, knew), Counter())
            count["attempts"] += 1
            count["successes"] += success
    report = reports.get("multi_replacement_outcomes")
    with duckdb.connect(str(db), read_only=True) as con:
        columns, rows = reports.run(con, report, reports.bind(report, []))
    got = {}
    for row in rows:
        r = dict(zip(columns, row, strict=True))
        got[(r["ruleset"], r["cards"], r["knew_all"])] = Counter(
            attempts=r["attempts"], successes=r["successes"])
        if r["knew_all"]:
            assert r["success_rate"] == 1.0, r
    assert got == expected
