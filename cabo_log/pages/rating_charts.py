"""A player's rating history in one ruleset as a plotly figure: the rating (mu - 3 sigma) after
each rated game, and the skill estimate mu with its 95 % band (mu +- 2 sigma), so that the
chart shows both where the player stands and how sure that is (docs/ratings.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from cabo_log.db.ratings import START_MU, START_SIGMA
from cabo_log.pages.plot import HOVER, Figure, esc, figure_json, layout, player_colour, scatter

__all__ = ["history_figure"]


class Point(Protocol):
    """What the chart reads of one rated game (``standings.HistoryPoint``)."""

    @property
    def games(self) -> int: ...
    @property
    def game_id(self) -> str: ...
    @property
    def place(self) -> int: ...
    @property
    def mu(self) -> float: ...
    @property
    def sigma(self) -> float: ...
    @property
    def rating(self) -> float: ...
    @property
    def change(self) -> float: ...


def history_figure(player: str, ruleset: str, points: Sequence[Point]) -> Figure:
    """The figure (plotly JSON, the white template in its layout), from the rating every
    player starts at (0 games) to the last game's."""
    mus = [START_MU, *(p.mu for p in points)]
    sigmas = [START_SIGMA, *(p.sigma for p in points)]
    xs = list(range(len(mus)))
    ratings = [START_MU - 3 * START_SIGMA, *(p.rating for p in points)]
    hover = [f"the start<br>rating {ratings[0]:.1f}<br>skill {START_MU:.1f} ± "
             f"{2 * START_SIGMA:.1f}"]
    hover += [f"{esc(p.game_id)}<br>place {p.place} · rating {p.rating:.1f} "
              f"({p.change:+.1f})<br>skill {p.mu:.1f} ± {2 * p.sigma:.1f}" for p in points]
    band = "rgba(76, 120, 168, 0.15)"
    data = [
        scatter(x=xs, y=[m + 2 * s for m, s in zip(mus, sigmas, strict=True)], mode="lines",
                line={"width": 0}, hoverinfo="skip", showlegend=False),
        scatter(x=xs, y=[m - 2 * s for m, s in zip(mus, sigmas, strict=True)], mode="lines",
                line={"width": 0}, fill="tonexty", fillcolor=band, hoverinfo="skip",
                name="skill ± 2 sigma (95 %)"),
        scatter(x=xs, y=mus, mode="lines", name="skill (mu)",
                line={"color": player_colour(0), "width": 1, "dash": "dot"},
                hovertemplate=HOVER, hovertext=hover),
        scatter(x=xs, y=ratings, mode="lines+markers" if len(xs) < 60
                else "lines", name="rating (mu - 3 sigma)",
                line={"color": player_colour(1), "width": 2}, marker={"size": 5},
                hovertemplate=HOVER, hovertext=hover),
    ]
    title = f"{esc(player)} at {esc(ruleset)}: rating after each rated game"
    fig = {"data": data, "layout": layout(
        title, 340, xaxis={"title": {"text": "games rated"}, "rangemode": "tozero"},
        yaxis={"title": {"text": "rating"}}, hovermode="closest")}
    return figure_json(fig)
