"""``whatif --move`` as ``analyse`` sees it: the logged move and the other one, valued from the
mover's knowledge by the analysis' own evaluation (``evaluate.evaluate``), in its own worlds.

``whatif``'s playouts start from the real table, where every hidden card lies where it really
was; ``analyse`` cannot know that and averages over the worlds the player could not tell
apart. The two answer different questions, so ``whatif --move`` prints both. This module
asks the analysis' question through its public functions and nothing else: the decision at
``--at`` as ``read_decisions`` finds it, every option evaluated with ``evaluate`` under the
same ``Settings`` and seed (so the same worlds, world for world) as ``analyse`` uses, giving
``analyse``'s verdict on that decision exactly; then the two moves alone, each played in every
world, for their difference and its standard error over the same worlds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cabo_log.analysis.analyse import DecisionResult, summarise
from cabo_log.analysis.decisions import option_key, read_decisions
from cabo_log.analysis.evaluate import OptionResult, Settings, evaluate
from cabo_log.analysis.rollout import resolve
from cabo_log.analysis.stats import mean_stderr
from cabo_log.analysis.words import infinitive, past
from engine import Event
from engine.events import Draw, to_dict, with_fields


@dataclass(frozen=True)
class Value:
    """A mean over sampled worlds with its standard error (lower points are better)."""

    mean: float
    stderr: float
    worlds: int

    @classmethod
    def of(cls, samples: list[float]) -> Value:
        mean, se = mean_stderr(samples)
        return cls(mean, se or 0.0, len(samples))

    def as_json(self) -> dict[str, Any]:
        return {"mean": round(self.mean, 4), "stderr": round(self.stderr, 4),
                "worlds": self.worlds}


@dataclass
class Judgement:
    """The logged move and ``instead`` from ``player``'s knowledge, as ``analyse`` values
    them: expected round points (lower is better), each with its standard error."""

    player: str
    round: int
    settings: Settings
    logged_text: str          # in the past tense: "discarded a 12"
    instead_text: str         # as an infinitive: "replace 2"
    logged: Value
    instead: Value
    difference: Value         # instead - logged, paired over the same worlds
    verdict: DecisionResult   # analyse's own result for the decision (every option)

    def as_json(self) -> dict[str, Any]:
        v = self.verdict
        return {"player": self.player, "round": self.round, "measure": "round points",
                "worlds": self.settings.rollouts, "seed": self.settings.seed,
                "bot": self.settings.policy,
                "logged": {"text": self.logged_text, **self.logged.as_json()},
                "instead": {"text": self.instead_text, **self.instead.as_json()},
                "difference": self.difference.as_json(),
                "analyse": {"loss": round(v.loss, 2), "stderr": round(v.stderr, 2),
                            "mark": None if v.mark is None else str(v.mark),
                            "best": to_dict(v.best), "best_text": v.best_text,
                            "options": len(v.options)}}


class NotJudged(ValueError):
    """The event at ``--at`` is no decision ``analyse`` judges, or not one of ``--move``'s
    player; the message says which (whatif then shows the real table only)."""


def judge(data: bytes, file: str | None, seq: int, move: Event,
          settings: Settings) -> Judgement:
    """``move`` against the logged decision at ``seq`` (see the module docstring)."""
    record = read_decisions(data, file)
    decision = next((d for d in record.decisions if d.seq == seq), None)
    if decision is None:
        raise NotJudged(f"seq {seq} is not a decision analyse judges (a deal, a peek, a snap, "
                        "a forced or server-made move)")
    player = getattr(move, "player", None)
    if decision.player != player:
        lapse = " (letting a power lapse)" if decision.implicit else ""
        raise NotJudged(f"the decision at seq {seq} is {decision.player}'s{lapse}, not "
                        f"{player}'s")
    instead = _as_option(move)
    options = decision.options
    if option_key(instead) not in {option_key(m) for m in options}:
        options = [*options, instead]   # an option analyse leaves out unless chosen
    instead = next(m for m in options if option_key(m) == option_key(instead))
    if len(options) < 2:
        raise NotJudged(f"the decision at seq {seq} is forced: {player} had no other sensible "
                        "move")
    # the bots that play it on, named (``auto`` resolved), as whatif prints them
    settings = replace(settings, policy=resolve(settings.policy, decision.state))
    whole = evaluate(replace(decision, options=options), settings)
    if option_key(instead) == option_key(decision.chosen):
        logged_r = instead_r = whole.chosen
    else:   # the two moves alone, each in every world (the same worlds as with all)
        pair = evaluate(replace(decision, options=[decision.chosen, instead]), settings)
        logged_r = pair.chosen
        instead_r = next(r for r in pair.options if r is not pair.chosen)
    g = decision.state
    return Judgement(decision.player, g.round_no(), settings, past(decision.chosen, g),
                     infinitive(instead, g), _value(logged_r),
                     _value(instead_r), _difference(instead_r, logged_r),
                     summarise(whole))


def _as_option(move: Event) -> Event:
    """The move as a decision's option: no seq, not automatic, a draw without its card."""
    option = with_fields(move, seq=None, auto=False)
    return with_fields(option, card=None) if isinstance(option, Draw) else option


def _value(r: OptionResult) -> Value:
    """An option's value: sampled, or exact (no error, no worlds)."""
    if r.exact_points is not None:
        return Value(r.exact_points, 0.0, 0)
    return Value.of(r.points)


def _difference(a: OptionResult, b: OptionResult) -> Value:
    if a.exact_points is not None and b.exact_points is not None:
        return Value(a.exact_points - b.exact_points, 0.0, 0)
    n = min(len(a.points), len(b.points))
    return Value.of([x - y for x, y in zip(a.points[:n], b.points[:n], strict=True)])
