"""``cabo-log analyse``: every decision of a game evaluated, marked, and summed up per player.

``analyse_bytes`` is the library function the CLI, the timeline and the loader call. Decisions
are evaluated independently (each from its own seeded worlds), in worker processes when
``jobs > 1``; the result does not depend on ``jobs``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO, TypeVar

from cabo_log.analysis.decisions import Decision, Kind, read_decisions
from cabo_log.analysis.evaluate import Evaluation, OptionResult, Settings, View, evaluate
from cabo_log.analysis.marks import (
    POINTS_PER_PERCENT,
    Mark,
    band,
    counted_loss,
    game_accuracy,
    t975,
)
from cabo_log.analysis.stats import paired_difference
from cabo_log.analysis.words import infinitive, must_fail, past
from cabo_log.progress import Progress
from cabo_log.workers import Pool, worker_count
from engine import Event
from engine.events import to_dict

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class OptionValue:
    move: Event
    text: str
    expected: float | None    # mean round points over its rollouts (None: not evaluated)
    rollouts: int             # worlds it was played in (0 when exact)
    # its expected points minus the best option's, paired over the worlds both were played
    # in (0 for the best itself), and the standard error of that difference (None: fewer than
    # two common worlds; 0 when exact): what tells a clearly best option (``cabo_log.puzzles``)
    margin: float | None = None
    stderr: float | None = None
    match_win: float | None = None   # match-winning chance in percent (None: round view)

    def as_json(self) -> dict[str, Any]:
        return {"move": to_dict(self.move), "text": self.text,
                "expected": _round(self.expected), "rollouts": self.rollouts,
                "margin": _round(self.margin), "stderr": _round(self.stderr),
                "match_win": _round(self.match_win)}


@dataclass
class DecisionResult:
    """One decision, evaluated: the JSON object of ``analyse --json``'s ``decisions``."""

    seq: int
    line: int
    player: str
    kind: Kind
    round: int
    chosen: Event
    chosen_text: str          # in the past tense, with the cards: "replaced 0 (a 7) with a 2"
    best: Event
    best_text: str            # as "best was to ...": "discard"
    expected: float | None    # the chosen move's expected round points
    loss: float               # given away in the view, in points (match: 0.6 per percent)
    stderr: float
    mark: Mark | None
    forced: bool
    implicit: bool
    must_fail: bool
    options: list[OptionValue] = field(default_factory=list)
    view: View = View.ROUND   # judged by round points or by the match
    exact: bool = False       # enumerated, not sampled
    unclear: bool = False     # a sure loss, but the budget ran out before its mark was decided
    sure_loss: float = 0.0    # the low end of the loss's 95 % interval
    settled: bool = True      # exact, or the loss's interval within one mark's band
    counted_loss: float = 0.0  # what accuracy counts (``marks.counted_loss``)
    worlds: int = 0           # worlds the chosen move was played in (0: exact)
    round_loss: float = 0.0   # round points given away against the best by points
    match_loss: float | None = None      # match-winning chance given away, percent
    match_win: float | None = None       # the chosen move's match-winning chance, percent
    best_match_win: float | None = None  # the best move's

    def chosen_json(self) -> dict[str, Any]:
        return to_dict(self.chosen)

    def best_json(self) -> dict[str, Any]:
        return to_dict(self.best)

    def as_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "line": self.line, "player": self.player,
                "kind": str(self.kind), "round": self.round, "chosen": self.chosen_json(),
                "chosen_text": self.chosen_text, "best": self.best_json(),
                "best_text": self.best_text, "expected": _round(self.expected),
                "loss": round(self.loss, 2), "stderr": round(self.stderr, 2),
                "mark": None if self.mark is None else str(self.mark),
                "implicit": self.implicit, "must_fail": self.must_fail,
                "view": str(self.view), "exact": self.exact, "unclear": self.unclear,
                "worlds": self.worlds, "sure_loss": round(self.sure_loss, 2),
                "settled": self.settled, "counted_loss": round(self.counted_loss, 2),
                "round_loss": round(self.round_loss, 2),
                "match_loss": _round(self.match_loss), "match_win": _round(self.match_win),
                "best_match_win": _round(self.best_match_win),
                "options": [o.as_json() for o in self.options]}

    @property
    def verdict(self) -> str:
        """The mark, "unclear", or "" (no mark)."""
        return "unclear" if self.unclear else str(self.mark or "")

    def how(self) -> str:
        """What the verdict rests on: "round points, exact", "match, 64 worlds"."""
        view = "match" if self.view is View.MATCH else "round points"
        return f"{view}, {'exact' if self.exact else f'{self.worlds} worlds'}"

    def given_away(self) -> str:
        """What the chosen move gave away, in words: "6.9 expected points given away" (± the
        95 % interval's half-width when sampled), by the match "9.6 % of match-winning
        chance given away (9.9 % against 19.5 %)"; "nothing given away" for the best move."""
        if self.loss <= 0.0:
            return "nothing given away"
        half = 0.0 if self.exact else t975(self.worlds) * self.stderr
        if self.view is View.MATCH and self.match_loss is not None:
            spread = f" ± {half / POINTS_PER_PERCENT:.1f}" if half > 0 else ""
            return (f"{self.match_loss:.1f}{spread} % of match-winning chance given away "
                    f"({self.match_win or 0:.1f} % against {self.best_match_win or 0:.1f} %)")
        spread = f" ± {half:.1f}" if half > 0 else ""
        return f"{self.loss:.1f}{spread} expected points given away"

    def text(self) -> str:
        """One line in words (see the module docstring of ``cabo_log.analysis``)."""
        lapse = " (by letting the power lapse)" if self.implicit else ""
        note = "the replacement must fail; " if self.must_fail else ""
        best = ("the best move" if self.loss <= 0.0
                else f"best was to {self.best_text}")
        return (f"seq {self.seq} {self.player} {self.chosen_text}{lapse}: {note}"
                f"{self.given_away()}; {best}: {self.verdict or 'no mark'} ({self.how()})")


@dataclass
class GameAnalysis:
    file: str | None
    game_id: str
    ruleset: str
    players: tuple[str, ...]
    settings: Settings
    decisions: list[DecisionResult]

    def accuracy(self) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        for p in self.players:
            acc = game_accuracy([d.counted_loss for d in self.decisions
                                 if d.player == p and not d.forced])
            out[p] = None if acc is None else round(acc, 1)
        return out

    def marked(self) -> list[DecisionResult]:
        return [d for d in self.decisions if d.mark is not None]

    def shown(self) -> list[DecisionResult]:
        """The text report's lines: marked decisions, and unclear ones (a sure loss)."""
        return [d for d in self.decisions
                if d.mark is not None or d.unclear]

    def as_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "file": self.file, "ruleset": self.ruleset,
                "rollouts": self.settings.rollouts, "seed": self.settings.seed,
                "bot": self.settings.policy,
                "decisions": [d.as_json() for d in self.decisions],
                "accuracy": self.accuracy()}

    def text(self) -> str:
        lines = [d.text() for d in self.shown()]
        if not lines:
            lines.append("no marked decisions")
        for p, acc in self.accuracy().items():
            mine = [d for d in self.decisions if d.player == p and not d.forced]
            if not mine:
                continue
            counts = ", ".join(f"{sum(1 for d in mine if d.mark == m)} {m}" for m in Mark)
            unclear = sum(1 for d in mine if d.unclear)
            exact = sum(1 for d in mine if d.exact)
            undecided = sum(1 for d in mine if not d.settled)
            lines.append(f"{p}: accuracy {acc:.1f} % over {plural(len(mine), 'decision')} "
                         f"({counts}, {unclear} unclear; {exact} exact, {undecided} "
                         f"undecided); given away for sure: {_sure_parts(mine)}")
        return "\n".join(lines)


def _sure_parts(mine: list[DecisionResult]) -> str:
    """What a player's decisions gave away for sure (the low ends of their intervals; the
    accuracy counts an undecided one by its band instead), by what they were judged by:
    "4.2 expected points in 60 decisions judged by round points, 12.5 % of match-winning
    chance in 40 judged by the match"."""
    by_round = [d for d in mine if d.view is not View.MATCH]
    by_match = [d for d in mine if d.view is View.MATCH]
    parts = []
    if by_round:
        points = sum(d.sure_loss for d in by_round)
        parts.append(f"{points:.1f} expected points in {plural(len(by_round), 'decision')} "
                     "judged by round points")
    if by_match:
        chance = sum(d.sure_loss for d in by_match) / POINTS_PER_PERCENT
        parts.append(f"{chance:.1f} % of match-winning chance in {len(by_match)} judged by "
                     "the match")
    return ", ".join(parts)


def plural(count: int, word: str) -> str:
    """"1 decision", "2 decisions"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def analyse_bytes(data: bytes, file: str | None = None, *, settings: Settings | None = None,
                  player: str | None = None, jobs: int | None = 1,
                  progress: TextIO | None = None,
                  on_decision: Callable[[int, int], None] | None = None) -> GameAnalysis:
    """Analyse one log (its bytes). A bad log raises its located ``CaboLogError``; an unknown
    ``player`` or policy raises ValueError. ``progress``: a bar over the decisions on that
    stream; ``on_decision(done, total)`` is called as decisions are done (a caller's own bar)."""
    settings = settings or Settings()
    record = read_decisions(data, file)
    if player is not None and player not in record.players:
        raise ValueError(f"{player!r} is not a player of {file or record.game_id}")
    todo = [d for d in record.decisions
            if not d.forced and (player is None or d.player == player)]
    bar = Progress(len(todo), progress, unit="decisions") if progress is not None else None

    def done(count: int) -> None:
        if bar is not None:
            bar.update(count)
        if on_decision is not None:
            on_decision(count, len(todo))

    results = run_parallel(_analyse_one, [(d, settings) for d in todo], jobs, done)
    if bar is not None:
        bar.close()
    return GameAnalysis(file, record.game_id, record.ruleset, record.players, settings,
                        results)


def _analyse_one(job: tuple[Decision, Settings]) -> DecisionResult:
    decision, settings = job
    return summarise(evaluate(decision, settings))


def summarise(ev: Evaluation) -> DecisionResult:
    d = ev.decision
    g = d.state
    forced = d.forced
    options = [OptionValue(r.move, infinitive(r.move, g), r.mean if r.evaluated else None,
                           len(r.points), *_margin(r, ev), match_win=_percent(r.win))
               for r in ev.options]
    loss = 0.0 if forced else ev.loss
    stderr = 0.0 if forced else ev.stderr
    unclear = not forced and ev.unclear
    return DecisionResult(
        seq=d.seq, line=d.line, player=d.player, kind=d.kind, round=g.round_no(),
        chosen=d.chosen, chosen_text=past(d.chosen, g), best=ev.best.move,
        best_text=infinitive(ev.best.move, g),
        expected=ev.chosen.mean if ev.chosen.evaluated else None, loss=loss, stderr=stderr,
        mark=band(loss) if not forced and ev.settled else None, forced=forced,
        implicit=d.implicit, must_fail=must_fail(d.chosen, g), options=options,
        view=ev.view, exact=ev.exact, unclear=unclear, worlds=ev.worlds,
        sure_loss=0.0 if forced else ev.sure_loss, settled=forced or ev.settled,
        counted_loss=0.0 if forced else counted_loss(ev.sure_loss, ev.settled, ev.half_width),
        round_loss=0.0 if forced else ev.round_loss,
        match_loss=None if forced else ev.match_loss, match_win=_percent(ev.chosen.win),
        best_match_win=_percent(ev.best.win))


def _percent(chance: float | None) -> float | None:
    return None if chance is None else 100.0 * chance


def _margin(r: OptionResult, ev: Evaluation) -> tuple[float | None, float | None]:
    """An option's expected round points minus the best option's, and its standard error
    (exact: the difference itself, error 0)."""
    if ev.exact:
        return r.mean - ev.best.mean, 0.0
    return paired_difference(r.points, ev.best.points)




def run_parallel(func: Callable[[T], R], items: Sequence[T], jobs: int | None,
                 done: Callable[[int], None] | None = None) -> list[R]:
    """``[func(x) for x in items]``, in ``jobs`` worker processes (None: one per core, capped
    at the cores and the items), in order: the stoppable pool of ``cabo_log.workers``, so
    Ctrl-C or SIGTERM leaves no worker behind."""
    results: list[R] = []
    with Pool(worker_count(jobs, len(items)), preload=[__name__]) as pool:
        for result in pool.imap(func, items):
            results.append(result)
            if done is not None:
                done(len(results))
    return results
