"""``whatif``'s answer in words: each block says what it measures (round points or the chance
to win, from whose knowledge), over how many worlds or playouts, and what its ± means, so two
figures are never compared without their question."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from cabo_log.analysis.evaluate import View
from cabo_log.analysis.marks import band

if TYPE_CHECKING:
    from cabo_log.analysis.judgement import Judgement, Value
    from cabo_log.analysis.whatif import Estimate, PlayerOutlook, WhatIf

COLUMN = 16
WIDTH = 100   # the sentences are wrapped at this width; the tables are as wide as they need


def whatif_text(w: WhatIf) -> str:
    lines = [_headline(w)]
    if w.judgement is not None:
        lines += ["", *_knowledge(w.judgement)]
    elif w.not_judged is not None:
        lines += ["", _wrap(f"analyse's view: none, {w.not_judged}.")]
    lines += ["", *_real_table(w)]
    if w.judgement is not None:
        who = w.judgement.player
        lines += ["", _wrap(f"The two views answer different questions: the first "
                            f"averages over every way the cards {who} had not seen could lie, "
                            f"as {who} had to; the second knows where they lay.")]
    return "\n".join(lines)


def _headline(w: WhatIf) -> str:
    if w.move is None:
        return f"{w.game_id} after seq {w.seq} (round {w.round})"
    return (f"{w.game_id} at seq {w.seq} (round {w.round}): what if {w.mover} were to "
            f"{w.move_text}? (the log: {w.logged_text})")


def _knowledge(j: Judgement) -> list[str]:
    s = j.settings
    rows = [(f"{j.instead_text} (instead)", _value(j.instead), f"{j.instead.worlds} worlds"),
            (f"{j.logged_text} (logged)", _value(j.logged), f"{j.logged.worlds} worlds"),
            ("instead - logged", _value(j.difference, signed=True),
             f"paired over the same {j.difference.worlds} worlds")]
    width = max(len(r[0]) for r in rows)
    v = j.verdict
    if v.loss > 0:
        word = v.verdict or ("no mark: within the noise" if band(v.loss) else "no mark")
        sure = ", ± a 95 % interval" if not v.exact and v.stderr > 0 else ""
        verdict = (f"{v.given_away()} by the logged move ({word}{sure}); best was to "
                   f"{v.best_text}")
    else:
        verdict = "the logged move was the best found"
    view = "the match" if v.view is View.MATCH else "round points"
    return [_wrap(f"From what {j.player} knew, as analyse judges it: {j.player}'s expected "
                  f"points in round {j.round} (lower is better), in worlds where the cards "
                  f"{j.player} had not seen are re-dealt, {s.policy} bots playing the round "
                  f"to its end (--worlds {s.rollouts}, --seed {s.seed}); ± 1 standard error"),
            *[f"  {a:<{width}}  {b:>14}   {c}" for a, b, c in rows],
            _wrap(f"  analyse, over all {len(v.options)} options, by {view}: {verdict}")]


def _real_table(w: WhatIf) -> list[str]:
    head = _wrap(f"On the real table: every card where it really was, only the draw pile "
                 f"shuffled afresh; {w.playouts} playouts{' per move' if w.logged else ''}, "
                 f"{w.policy} bots playing the match to its end; ± 95 % interval (1.96 "
                 "standard errors)")
    columns = (f"{'player':<10} {'wins round ' + str(w.round):>{COLUMN + 2}} "
               f"{'wins match':>{COLUMN + 2}} {'round points':>{COLUMN + 2}}")
    if w.logged is None:
        return [head, f"  {columns}", *[f"  {_row(p)}" for p in w.players]]
    instead = f"{w.move_text} (instead)"
    logged = f"{w.logged_text} (logged)"
    width = max(len(instead), len(logged), len("instead - logged"))
    lines = [head, f"  {'move':<{width}}  {columns}"]
    for label, outlooks in ((instead, w.players), (logged, w.logged)):
        for k, p in enumerate(outlooks):
            lines.append(f"  {label if k == 0 else '':<{width}}  {_row(p)}")
    if w.mover is not None and w.differences:
        d = w.differences
        lines.append(f"  {'instead - logged':<{width}}  {w.mover:<10} {'':>{COLUMN + 2}} "
                     f"{_pct(d.get('match_win'), signed=True):>{COLUMN + 2}} "
                     f"{_pts(d.get('round_points'), signed=True):>{COLUMN + 2}}")
    return lines


def _wrap(text: str) -> str:
    indent = " " * (len(text) - len(text.lstrip()))
    return textwrap.fill(text, WIDTH, break_on_hyphens=False,
                         subsequent_indent=indent + "  " if indent else "")


def _row(p: PlayerOutlook) -> str:
    return (f"{p.player:<10} {_pct(p.round_win):>{COLUMN + 2}} {_pct(p.match_win):>{COLUMN + 2}} "
            f"{_pts(p.round_points):>{COLUMN + 2}}")


def _pct(e: Estimate | None, signed: bool = False) -> str:
    if e is None:
        return "-"
    return f"{100 * e.mean:{'+' if signed else ''}.1f} % ± {100 * e.half_width:.1f}"


def _pts(e: Estimate | None, signed: bool = False) -> str:
    return "-" if e is None else f"{e.mean:{'+' if signed else ''}.1f} ± {e.half_width:.1f}"


def _value(v: Value, signed: bool = False) -> str:
    return f"{v.mean:{'+' if signed else ''}.2f} ± {v.stderr:.2f}"
