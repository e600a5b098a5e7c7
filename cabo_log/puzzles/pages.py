"""A puzzle in HTML: the question (the table as the player saw it and the options, each a link
to its answer) and the answer (every option's expected points, the move really played, a link
to the game at that step). The same fragments make the pages of ``serve`` (``/puzzles``) and
the static pages ``cabo-log puzzles`` writes; neither needs a script.

Every card drawn face up comes from the player's observation (``position``): a card they did
not know is drawn face down. Each card carries ``data-`` attributes saying where it lies, so a
test can check every one against the engine.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from cabo_log.analysis.words import a_card
from cabo_log.puzzles.position import Position
from cabo_log.puzzles.selection import THEME_WORDS, OptionFigure, PuzzleRef
from engine.vocabulary import DRAWN, POWER

__all__ = ["answer_html", "question_html", "table_html", "title"]


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def title(ref: PuzzleRef) -> str:
    return f"{THEME_WORDS[ref.theme].capitalize()} puzzle: {ref.ruleset}, round {ref.round}"


def _card(code: str | None, values: dict[str, int], where: str, extra: str = "") -> str:
    """One card: face up with its code and points, or face down (``code`` None)."""
    if code is None:
        return f'<span class="card back" {where} title="a card you have not seen">?</span>'
    points = values.get(code)
    # the points under the face where they are not the face itself (golf's K\u2665 = -1)
    worth = "" if points is None or str(points) == code else f"<small>{points}</small>"
    return (f'<span class="card{extra}" {where} data-code="{esc(code)}" '
            f'title="{esc(code)}: {points} point{"" if points in (1, -1) else "s"}">'
            f"{esc(code)}{worth}</span>")


def table_html(pos: Position) -> str:
    """Each seated player's row (the player's own first), the discard pile, the draw pile and
    the card in hand, all as the deciding player saw them."""
    v = pos.view
    order = [v.me, *[p for p in v.players if p != v.me]]
    rows = []
    for p in order:
        if p not in v.rows:
            continue
        cards = "".join(
            f'<span class="slot"><span class="pos">{i}</span>'
            + _card(c, pos.values, f'data-owner="{esc(p)}" data-pos="{i}"') + "</span>"
            for i, c in enumerate(v.rows[p]))
        who = "you" if p == v.me else esc(p)
        tags = []
        if v.caller == p:
            tags.append('<span class="tag">called Cabo</span>')
        score = v.scores.get(p)
        if score is not None:
            tags.append(f'<span class="muted">{score} points so far</span>')
        rows.append(f'<div class="seat{" me" if p == v.me else ""}"><div class="who">'
                    f'<b>{who}</b>{" (" + esc(p) + ")" if p == v.me else ""} {" ".join(tags)}'
                    f'</div><div class="row">{cards}</div></div>')
    pile = list(v.discard)
    top = (_card(pile[-1], pos.values, f'data-pile="{len(pile) - 1}"', " pile")
           if pile else '<span class="muted">empty</span>')
    under = "".join(_card(pile[i], pos.values, f'data-pile="{i}"', " pile small")
                    for i in range(len(pile) - 2, max(-1, len(pile) - 14), -1))
    middle = (f'<div class="middle"><div><div class="muted">draw pile</div>'
              f'<span class="card back deck">{v.deck_size}</span></div>'
              f'<div><div class="muted">discard pile (top)</div>{top}</div>')
    if v.drawn is not None:
        source = "taken from the discard" if v.drawn_source == "discard" else "drawn"
        middle += (f'<div><div class="muted">in your hand ({source})</div>'
                   + _card(v.drawn, pos.values, 'data-held="1"', " held") + "</div>")
    middle += "</div>"
    if under:
        middle += f'<p class="muted under">under it, newest first: {under}</p>'
    return f'<section class="panel puzzle-table">{"".join(rows)}{middle}</section>'


def _situation(pos: Position) -> str:
    """The question in words."""
    v = pos.view
    last = (f" {esc(v.caller)} has called Cabo: this is your last turn."
            if v.caller is not None and v.caller != v.me else "")
    if v.phase == DRAWN:
        card = a_card(v.drawn) if v.drawn else "a card"
        how = "took the discard:" if v.drawn_source == "discard" else "drew"
        what = (f"You {how} <b>{esc(card)}</b>. Discard it, or replace which of your cards "
                "with it?")
    elif v.phase == POWER:
        what = (f"You discarded a card with a power: <b>{esc(v.pending_power)}</b>. Use it, "
                "and on which card, or skip it?")
    else:
        what = "Your turn begins: draw from the deck, take the discard, or call Cabo?"
    return (f'<p class="lead">You are <b>{esc(v.me)}</b> (rules: <b>{esc(v.ruleset)}</b>; '
            f"round {v.round}, turn {v.turn}). {what}{last}</p>")


def question_html(pos: Position, answer_href: Callable[[int], str]) -> str:
    """The table, the question and each option as a link to its answer."""
    links = "".join(f'<li><a class="option" href="{esc(answer_href(o.index))}">'
                    f"{esc(o.text)}</a></li>" for o in pos.options)
    return (f'<section class="panel">{_situation(pos)}<p class="meta">One answer is clearly '
            "best from what you can see: every card you know is face up, the others face "
            "down.</p></section>" + table_html(pos)
            + f'<section class="panel"><h2>Your move</h2><ol class="options">{links}</ol>'
            "</section>")


def _figure(o: OptionFigure) -> str:
    if o.expected is None:
        return "\u2013"
    return f"{o.expected:.1f}"


def _behind(o: OptionFigure) -> str:
    if o.best:
        return "best"
    if o.margin is None:
        return "\u2013"
    se = "" if o.stderr is None else f" \u00b1 {o.stderr:.1f}"
    return f"+{o.margin:.1f}{se}"


def answer_html(pos: Position, choice: int | None, game_href: str,
                question_href: str) -> str:
    """The verdict on ``choice`` (None: the answer shown without one), every option's
    expected points (best first), the move played, and a link to the game at that step."""
    ref = pos.ref
    best = next(o for o in pos.options if o.best)
    played = next(o for o in pos.options if o.chosen)
    verdict = ""
    if choice is not None:
        mine = next((o for o in pos.options if o.index == choice), None)
        if mine is None:
            verdict = '<p class="error">That is not one of the options.</p>'
        elif mine.best:
            verdict = (f'<p class="verdict good">Right: <b>{esc(mine.text)}</b> is the best '
                       "move.</p>")
        else:
            verdict = (f'<p class="verdict bad">Not the best: <b>{esc(mine.text)}</b> is '
                       f"{_behind(mine)} expected round points behind <b>{esc(best.text)}</b>, "
                       "the best move.</p>")
    ranked = sorted(pos.options, key=lambda o: (o.expected is None, o.expected or 0.0))
    body = []
    for o in ranked:
        tags = []
        if o.best:
            tags.append('<span class="tag good">best</span>')
        if o.chosen:
            tags.append(f'<span class="tag bad">played by {esc(ref.player)}</span>')
        if choice is not None and o.index == choice:
            tags.append('<span class="tag">your answer</span>')
        body.append(f'<tr data-option="{o.index}"><td>{esc(o.text)} {" ".join(tags)}</td>'
                    f'<td class="n">{_figure(o)}</td><td class="n">{_behind(o)}</td>'
                    f'<td class="n">{o.rollouts}</td></tr>')
    figures = ('<div class="table-box"><table class="data"><thead><tr><th>option</th>'
               '<th class="n">expected points</th><th class="n" title="its expected points '
               'minus the best option\'s, over the worlds both were played in, \u00b1 one '
               'standard error">behind the best</th><th class="n">rollouts</th></tr></thead>'
               "<tbody>"
               + "".join(body) + "</tbody></table></div>")
    return (f'<section class="panel">{verdict}<p>In the game, <b>{esc(ref.player)}</b> chose '
            f"to <b>{esc(played.text)}</b>: {ref.loss:.1f} expected round points more than "
            f"<b>{esc(best.text)}</b>. <a href=\"{esc(game_href)}\">See the game at this "
            f'step</a> \u00b7 <a href="{esc(question_href)}">the puzzle again</a></p>'
            '<p class="meta">Expected points: the mean of the player\'s points in the round '
            "when bots play it out from this table, the cards the player had not seen dealt "
            "at random (lower is better). Behind the best: the difference from the best "
            "option over the same worlds (an option dropped after the first few worlds is "
            "compared on those), \u00b1 one standard error.</p>"
            f"{figures}</section>" + table_html(pos))
